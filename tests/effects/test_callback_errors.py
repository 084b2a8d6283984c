"""Errors of callbacks, compared with real JAX: the class and message of what the same program
raises, and that the process keeps working afterwards.

A callback returning the wrong shape, dtype or number of results, or raising, fails the call with
a ``JaxRuntimeError`` whose message holds the Python traceback (its last line is the Python
error); derivatives of ``pure_callback``/``io_callback`` and ``vmap`` of an ordered ``io_callback``
are ``ValueError``s; ``debug.print``'s format is checked against its arguments when it is called.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core.errors import JaxRuntimeError
from jax_core.experimental import io_callback
from tests.effects.printed_oracle import assert_same_output, snippet
from tests.oracle.client import live_fixture

_PRELUDE = """
F = jax.ShapeDtypeStruct((), jnp.float32)
def boom(*args):
    raise ZeroDivisionError("boom here")
"""

CASES: dict[str, Any] = {
    "wrong_results": snippet(
        _PRELUDE
        + """
bad = {
    "shape": lambda v: np.zeros(3, np.float32),
    "dtype": lambda v: np.zeros((), np.int32),
    "count": lambda v: (v, v),
}
for name, cb in bad.items():
    print(name)
    attempt(lambda: jax.jit(lambda x: jax.pure_callback(cb, F, x))(1.0))
    attempt(lambda: jax.jit(lambda x: io_callback(cb, F, x))(1.0))
    attempt(lambda: jax.jit(lambda x: io_callback(cb, F, x, ordered=True))(1.0))
    attempt(lambda: jax.pure_callback(cb, F, 1.0))
    attempt(lambda: io_callback(cb, F, 1.0))
    attempt(lambda: jax.jit(lambda x: x + 1)(1.0))  # the process keeps working
attempt(lambda: jax.jit(lambda x: io_callback(lambda v: (v, v), (F, F, F), x))(1.0))
attempt(lambda: jax.jit(lambda x: io_callback(lambda v: None, (F,), x))(1.0))
attempt(lambda: jax.jit(lambda x: io_callback(lambda v: v, None, x))(1.0))
attempt(lambda: jax.jit(lambda x: jax.pure_callback(lambda v: np.float64(v), F, x))(1.0))
"""
    ),
    "exceptions_in_callbacks": snippet(
        _PRELUDE
        + """
def check(fn):
    try:
        fn()
        jax.effects_barrier()
        print("no error")
    except Exception as err:
        jax.effects_barrier()
        text = str(err)
        print(type(err).__name__, isinstance(err, jax.errors.JaxRuntimeError), "in boom" in text,
              text.splitlines()[0], "|", text.strip().splitlines()[-1])
for jitted in (False, True):
    w = jax.jit if jitted else (lambda f: f)
    print("jit" if jitted else "eager")
    check(lambda: w(lambda x: io_callback(boom, F, x))(1.0))
    check(lambda: w(lambda x: io_callback(boom, None, x, ordered=True))(1.0))
    check(lambda: w(lambda x: jax.pure_callback(boom, F, x))(1.0))
    check(lambda: w(lambda x: jax.debug.callback(boom, x))(1.0))
    check(lambda: w(lambda x: jax.debug.callback(boom, x, ordered=True))(1.0))
    print(jax.jit(lambda x: x * 3)(2.0))
"""
    ),
    "ordered_after_an_error": snippet(
        """
def cb(v):
    if int(v) == 1:
        raise ValueError("one")
    print("cb", int(v))
f = jax.jit(lambda x: io_callback(cb, None, x, ordered=True))
for i in range(4):
    attempt(lambda: f(jnp.int32(i)))
g = jax.jit(lambda x: jax.debug.print("g {}", x, ordered=True))
g(jnp.int32(7))
"""
    ),
    "derivatives": snippet(
        _PRELUDE
        + """
pc = lambda x: jax.pure_callback(lambda v: v, F, x)
ioc = lambda x: io_callback(lambda v: v, F, x)
oioc = lambda x: io_callback(lambda v: v, F, x, ordered=True)
for fn in (pc, ioc, oioc):
    attempt(lambda: jax.jvp(fn, (1.0,), (1.0,)))
    attempt(lambda: jax.grad(fn)(1.0))
    attempt(lambda: jax.jit(jax.grad(fn))(1.0))
    attempt(lambda: jax.linearize(fn, 1.0)[0])
    attempt(lambda: jax.vjp(fn, 1.0)[0])
"""
    ),
    "vmap_ordered_io_callback": snippet(
        _PRELUDE
        + """
f = lambda x: io_callback(lambda v: v, F, x, ordered=True)
attempt(lambda: jax.vmap(f)(jnp.ones(3)))
attempt(lambda: jax.jit(jax.vmap(f))(jnp.ones(3)))
attempt(lambda: jax.vmap(lambda x: io_callback(print, None, x, ordered=True))(jnp.ones(2)))
"""
    ),
    "debug_print_format": snippet(
        """
attempt(lambda: jax.debug.print("{}", 1, 2))
attempt(lambda: jax.debug.print("{x}", 1, x=2))
attempt(lambda: jax.debug.print("{}", x=2))
attempt(lambda: jax.debug.print(f"{3}", x=2))
attempt(lambda: jax.debug.print("{} {}", 1))
attempt(lambda: jax.debug.print("{x}", 1))
attempt(lambda: jax.debug.print("{x}", y=1))
attempt(lambda: jax.debug.print("{0} {2}", 1, 2))
attempt(lambda: jax.debug.print("{} {1}", 1, 2))
attempt(lambda: jax.debug.print("{:q}", 1))
attempt(lambda: jax.debug.print("no placeholders", 1, 2))
attempt(lambda: jax.debug.print("{} {}", 1, skip_format_check=True))
attempt(lambda: jax.jit(lambda x: jax.debug.print("{} {}", x))(1.0))
attempt(lambda: jax.jit(lambda x: jax.debug.print("{y}", x))(1.0))
attempt(lambda: jax.debug.print("x", 1, ordered=True, y=3))
attempt(lambda: jax.debug.print(ordered=True)("{} {}", 1.0, 2))
attempt(lambda: jax.debug.print(ordered=True)("{}", 1.0, 2))
attempt(lambda: jax.debug.print(1))
attempt(lambda: callable(jax.debug.print()))
"""
    ),
    "non_callable": snippet(
        """
attempt(lambda: jax.debug.callback(3, 1.0))
attempt(lambda: jax.jit(lambda x: jax.debug.callback("f", x))(1.0))
attempt(lambda: jax.debug.callback(ordered=True)(None, 1.0))
"""
    ),
    "x64": snippet(
        """
F = jax.ShapeDtypeStruct((), jnp.float64)
attempt(lambda: jax.jit(lambda x: jax.pure_callback(lambda v: v * 2, F, x))(1.5))
attempt(lambda: jax.jit(lambda x: jax.pure_callback(lambda v: np.float32(v), F, x))(1.5))
attempt(lambda: jax.jit(lambda x: io_callback(lambda v: v, jax.ShapeDtypeStruct((), jnp.int32), x))(7))
attempt(lambda: io_callback(lambda v: v.astype(np.int64), jax.ShapeDtypeStruct((2,), jnp.int64), jnp.arange(2), ordered=True))
attempt(lambda: jax.jit(lambda x: jax.debug.print("{} {}", x, x.dtype))(jnp.float64(0.1)))
""",
        x64=True,
    ),
    "vmap_method": snippet(
        """
F = jax.ShapeDtypeStruct((), jnp.float32)
for m in ("bogus", "Sequential", 1, ""):
    attempt(lambda: jax.pure_callback(lambda v: v, F, 1.0, vmap_method=m))
attempt(lambda: jax.vmap(lambda x: jax.pure_callback(lambda v: v, F, x))(jnp.ones(3)))
attempt(lambda: jax.vmap(lambda x: jax.pure_callback(lambda v: v, F, x, vmap_method=None))(jnp.ones(3)))
"""
    ),
}

live = live_fixture(list(CASES.values()))

_MIN_LINES = {"non_callable": 3, "vmap_ordered_io_callback": 3, "ordered_after_an_error": 4}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_errors_as_jax(name: str, live: Any) -> None:
    text = assert_same_output(CASES[name], live)
    assert len(text.splitlines()) >= _MIN_LINES.get(name, 5), text
    assert "raised" in text or "Error" in text, text


F32 = jax.ShapeDtypeStruct((), jnp.float32)


def _boom(*_: Any) -> Any:
    raise ZeroDivisionError("boom here")


def _double(v: Any) -> Any:
    return np.float32(v * 2)


def _three_zeros(v: Any) -> Any:
    return np.zeros(3, np.float32)


def test_jitted_callback_errors_carry_the_traceback() -> None:
    f = jax.jit(functools.partial(io_callback, _boom, F32))
    with pytest.raises(JaxRuntimeError) as info:
        jax.block_until_ready(f(jnp.float32(1)))
    message = str(info.value)
    assert message.startswith(
        "INTERNAL: CpuCallback error calling callback: Traceback (most recent call last):"
    )
    assert "in _boom" in message and message.rstrip().endswith("ZeroDivisionError: boom here")
    # The same function works afterwards with a good callback, and so does the one that failed.
    g = jax.jit(functools.partial(io_callback, _double, F32))
    assert float(g(jnp.float32(3))) == 6.0
    with pytest.raises(JaxRuntimeError):
        jax.block_until_ready(f(jnp.float32(2)))


def test_wrong_shape_then_a_good_call() -> None:
    f = jax.jit(functools.partial(jax.pure_callback, _three_zeros, F32))
    with pytest.raises(
        JaxRuntimeError,
        match=r"Incorrect output shape for return value #0: Expected: \(\), Actual: \(3,\)",
    ):
        jax.block_until_ready(f(jnp.float32(1)))
    assert float(jax.jit(jnp.negative)(jnp.float32(1))) == -1.0
