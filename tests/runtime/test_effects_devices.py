"""Ordered effects on two CPU devices (seed 003's examples), in a fresh process with two host
devices and a hard timeout: ordered effects of computations on device 0 and device 1 happen in
program order (the runtime token is copied from one device to the other), unordered ones are not
ordered but ``effects_barrier`` waits for both, and jit follows committed arguments' device."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

TIMEOUT_S = 180

PROGRAM = textwrap.dedent(
    """
    import threading
    import numpy as np
    import jax_core as jax
    import jax_core.numpy as jnp
    from jax_core.experimental import io_callback

    d0, d1 = jax.devices()
    seen = []

    def record(tag):
        def cb(v):
            seen.append((tag, int(v)))
        return cb

    @jax.jit
    def f(x):
        jax.debug.callback(record("f"), x, ordered=True)
        return x + 1

    @jax.jit
    def g(x):
        io_callback(record("g"), None, x, ordered=True)
        return x + 1

    x0 = jax.device_put(jnp.int32(0), d0)
    x1 = jax.device_put(jnp.int32(0), d1)
    for i in range(100):
        a = f(x0 + i)
        b = g(x1 + i)
        assert a.devices() == {d0} and b.devices() == {d1}, (a.devices(), b.devices())
    jax.effects_barrier()
    expected = [(tag, i) for i in range(100) for tag in ("f", "g")]
    assert seen == expected, seen[:10]

    # Unordered effects on both devices: effects_barrier waits for all of them.
    count = [0]
    lock = threading.Lock()

    def bump(v):
        with lock:
            count[0] += 1

    h = jax.jit(lambda x: (jax.debug.callback(bump, x), x * 2)[1])
    for i in range(50):
        h(x0 + i)
        h(x1 + i)
    jax.effects_barrier()
    assert count[0] == 100, count[0]

    # jit(device=...) and eager ops follow the device; mixing committed devices is JAX's error.
    k = jax.jit(lambda v: v * 3, device=d1)
    assert k(jnp.ones(2)).devices() == {d1}
    assert jnp.sin(jax.device_put(jnp.ones(2), d1)).devices() == {d1}
    try:
        x0 + x1
    except ValueError as err:
        assert "Received incompatible devices for jitted computation" in str(err), err
    else:
        raise AssertionError("no error for arguments committed to different devices")
    print("ok")
    """
)


def test_ordered_effects_across_two_devices() -> None:
    flags = f"{os.environ.get('XLA_FLAGS', '')} --xla_force_host_platform_device_count=2".strip()
    env = dict(os.environ, XLA_FLAGS=flags, JAX_PLATFORMS="cpu")
    try:
        done = subprocess.run(
            [sys.executable, "-W", "ignore::DeprecationWarning", "-c", PROGRAM],
            capture_output=True, text=True, timeout=TIMEOUT_S, env=env,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"two-device effects program did not finish in {TIMEOUT_S} s")
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().endswith("ok")
