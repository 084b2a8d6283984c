"""The configuration options and the top-level names of issue 16: each option's effect, compared
with real JAX in its own process where JAX has the same behaviour (values, or the exception class
and message), and jax_core's own guarantees (every JAX option is known; unimplemented values are
refused, not ignored)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core._src.config import registry
from jax_core._src.core.errors import JaxprTypeError
from jax_core._src.core.jaxpr import Jaxpr, JaxprEqn, Var
from jax_core._src.core.jaxpr_check import check_jaxpr
from jax_core._src.core.avals import ShapedArray
from jax_core._src.lax.elementwise import sin_p
from tests._tools import load_tool
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture, program_call

ROOT = Path(__file__).resolve().parents[1]

HELPERS = """
import warnings
def under(cm, f):
    with cm:
        return f()
def warned(cm, f):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with cm:
            f()
    return [str(x.message) for x in w]
def updated(name, value):
    try:
        jax.config.update(name, value)
    finally:
        jax.config.update(name, registry_default[name])
def seeded(offset, fn):
    jax.config.update("jax_random_seed_offset", offset)
    try:
        return fn()
    finally:
        jax.config.update("jax_random_seed_offset", 0)
registry_default = {"jax_numpy_rank_promotion": "allow", "jax_default_matmul_precision": None,
                    "jax_compilation_cache_max_size": -1, "jax_default_prng_impl": "threefry2x32"}
x = jnp.ones(3)
"""
CASES = [
    # strict dtype promotion: a weak scalar takes the strong operand's type; mixed dtypes raise
    "under(jax.numpy_dtype_promotion('strict'), lambda: jnp.ones(2, jnp.int32) + 1)",
    "under(jax.numpy_dtype_promotion('strict'), lambda: jnp.ones(2, jnp.float32) * 2.0)",
    "under(jax.numpy_dtype_promotion('strict'), lambda: jnp.ones(2, jnp.bfloat16) + 2)",
    "under(jax.numpy_dtype_promotion('strict'), lambda: jnp.ones(2, jnp.float32) + jnp.ones(2, jnp.float32))",
    "under(jax.numpy_dtype_promotion('strict'), lambda: jnp.ones(2, jnp.float16) * 2.5)",
    "under(jax.numpy_dtype_promotion('strict'), lambda: jnp.ones(2, jnp.complex64) * 2)",
    "under(jax.numpy_dtype_promotion('strict'), lambda: jnp.ones(2, jnp.uint8) - 1)",
    "under(jax.numpy_dtype_promotion('strict'), lambda: jnp.promote_types(jnp.int8, jnp.int16))",
    "under(jax.numpy_dtype_promotion('standard'), lambda: jnp.ones(2, jnp.int8) + jnp.ones(2, jnp.int16))",
    "under(jax.numpy_dtype_promotion('loose'), lambda: 1)",
    # rank promotion
    "under(jax.numpy_rank_promotion('raise'), lambda: jnp.ones((2, 3)) + jnp.ones(3))",
    "under(jax.numpy_rank_promotion('raise'), lambda: jnp.ones((2, 3)) + 1.0)",
    "under(jax.numpy_rank_promotion('raise'), lambda: jnp.ones((2, 3)) * jnp.ones((2, 3)))",
    "warned(jax.numpy_rank_promotion('warn'), lambda: jnp.ones((2, 3)) - jnp.ones(3))",
    "under(jax.numpy_rank_promotion('allow'), lambda: jnp.ones((2, 3)) + jnp.ones(3))",
    # debug_nans / debug_infs: FloatingPointError naming the primitive, eagerly and under jit
    "under(jax.debug_nans(True), lambda: jnp.log(-x))",
    "under(jax.debug_nans(True), lambda: jax.jit(lambda v: jnp.sin(v) * 0 + jnp.log(v))(-x))",
    "under(jax.debug_nans(True), lambda: jnp.divide(0.0, 0.0))",
    "under(jax.debug_nans(True), lambda: jnp.log(x))",
    "under(jax.debug_nans(True), lambda: jnp.log(jnp.zeros(2)))",
    "under(jax.debug_infs(True), lambda: jnp.log(jnp.zeros(2)))",
    "under(jax.debug_infs(True), lambda: jax.jit(lambda v: jnp.exp(v * 1000.0))(x))",
    "under(jax.debug_nans(True), lambda: jnp.ones(3, jnp.int32) // 1)",
    # transfer guards: implicit transfers refused, explicit ones allowed unless *_explicit
    "under(jax.transfer_guard('disallow'), lambda: x + np.ones(3))",
    "under(jax.transfer_guard('disallow'), lambda: jax.device_put(np.ones(3)))",
    "under(jax.transfer_guard('disallow_explicit'), lambda: jax.device_put(np.ones(3)))",
    "under(jax.transfer_guard('disallow'), lambda: jax.device_get(x))",
    "under(jax.transfer_guard_host_to_device('disallow'), lambda: jnp.array([1.0, 2.0]))",
    "under(jax.transfer_guard_device_to_host('disallow'), lambda: x * 2)",
    "under(jax.transfer_guard('allow'), lambda: x + np.ones(3))",
    "under(jax.transfer_guard('sometimes'), lambda: 1)",
    # the config object
    "jax.config.update('jax_bogus_option', True)",
    "jax.config.read('jax_bogus_option')",
    "jax.config.update('jax_numpy_rank_promotion', 'sometimes')",
    "jax.config.update('jax_default_matmul_precision', 'exact')",
    "jax.config.update('jax_compilation_cache_max_size', 'big')",
    "updated('jax_default_prng_impl', 'rbg')",
    "jax.config.jax_numpy_rank_promotion",
    "jax.config.jax_enable_x64",
    "jax.config.jax_default_prng_impl",
    "jax.config.read('jax_enable_x64')",
    "jax.config.read('jax_debug_nans')",
    "under(jax.debug_nans(), lambda: jax.config.jax_debug_nans)",
    "under(jax.numpy_rank_promotion(), lambda: 1)",
    "bool(jax.config.values['jax_log_compiles'])",
    # PRNG options
    "under(jax.legacy_prng_key('error'), lambda: random.normal(np.array([0, 1], np.uint32), (2,)))",
    "warned(jax.legacy_prng_key('warn'), lambda: random.normal(np.array([0, 1], np.uint32), (2,)))",
    "under(jax.legacy_prng_key('allow'), lambda: random.normal(np.array([0, 1], np.uint32), (2,)))",
    "under(jax.default_prng_impl('rbg'), lambda: (random.key_data(random.key(0)), random.PRNGKey(1), random.normal(random.key(3), (2,))))",
    "under(jax.default_prng_impl('unsafe_rbg'), lambda: random.uniform(random.key(1), (3,)))",
    "seeded(5, lambda: (random.key_data(random.key(0)), random.PRNGKey(2)))",
    # top-level names
    "str(jax.typeof(1.0))",
    "str(jax.typeof(jnp.ones((2, 3), jnp.int8)))",
    "jax.typeof('a')",
    "jax.default_backend()",
    "jax.local_device_count()",
    "jax.print_environment_info(return_string=True).splitlines()[2]",
    "jax.copy_to_host_async({'a': x, 'b': 1})",
    "str(np.dtype(jax.float0))",
    "jax.named_call(lambda v: v * 2, name='double')(x)",
    "jax.jit(jax.named_call(jnp.sin))(x)",
    "under(jax.named_scope(3), lambda: 1)",
    "under(jax.named_scope('outer'), lambda: jax.jit(jnp.cos)(x))",
    "under(jax.default_device(jax.devices()[0]), lambda: jax.jit(jnp.sin)(x))",
    "under(jax.default_device('cpu'), lambda: jnp.ones(2) + 1)",
    "under(jax.default_device(3), lambda: 1)",
    "under(jax.no_tracing(True), lambda: jax.jit(lambda v: v + 10)(x))",
    "issubclass(jax.errors.JAXIndexError, IndexError)",
    "issubclass(jax.errors.JaxprTypeError, TypeError)",
    "issubclass(jax.errors.InconclusiveDimensionOperation, Exception)",
]
CUSTOM_GRADIENT = """
@jax.custom_gradient
def f(x):
    return x ** 2, lambda g: (g * x,)
@jax.custom_gradient
def h(x, y):
    return x * y, lambda g: (g * y, g * x)
@jax.custom_gradient
def clip_grad(x):
    y = jnp.sin(x)
    return y, lambda g: (jnp.clip(g * jnp.cos(x), -0.1, 0.1),)
"""
GRADIENT_CASES = [
    "f(3.0)",
    "jax.grad(f)(3.0)",
    "h(3.0, 4.0)",
    "jax.grad(h, argnums=(0, 1))(3.0, 4.0)",
    "jax.jit(jax.grad(f))(2.0)",
    "jax.vmap(jax.grad(f))(jnp.arange(3.0))",
    "jax.grad(lambda v: clip_grad(v).sum())(jnp.arange(3.0))",
    "jax.jvp(f, (2.0,), (1.0,))",
]
CALLS = [program_call(HELPERS, c) for c in CASES] + [program_call(CUSTOM_GRADIENT, c) for c in GRADIENT_CASES]
IDS = CASES + [f"custom_gradient: {c}" for c in GRADIENT_CASES]
live = live_fixture(CALLS)


def _mask_addresses(outcome: Outcome) -> Outcome:
    if outcome.message is None:
        return outcome
    text = outcome.message
    for marker in ("dst_sharding=",):  # jaxlib prints the sharding's Python repr (differs by class)
        if marker in text:
            text = text.split(marker)[0]
    return Outcome(leaves=outcome.leaves, error=outcome.error, message=text)


@pytest.mark.parametrize("call", CALLS, ids=IDS)
def test_same_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    theirs = live[call.expr]
    assert_same(_mask_addresses(here(call)), _mask_addresses(theirs), call.expr, messages=theirs.error is not None)


def test_every_jax_option_is_known() -> None:
    """All of JAX 0.12's option names (recorded in api/jax_0.12_config_options.json), each with
    JAX's default."""
    recorded = json.loads((ROOT / "api" / "jax_0.12_config_options.json").read_text())
    ours = registry()
    assert sorted(recorded) == sorted(ours)
    for name, default in recorded.items():
        value = ours[name].default
        assert (value.value if hasattr(value, "value") and not isinstance(value, bool) else value) == default, name


def test_unimplemented_values_are_refused() -> None:
    jax.devices()  # the backend has started: the device count can no longer change (as in JAX)
    with pytest.raises(RuntimeError, match="jax_num_cpu_devices config should be updated before backends"):
        jax.config.update("jax_num_cpu_devices", 8)
    with pytest.raises(NotImplementedError, match="jax_serialization_version=3"):
        jax.config.update("jax_serialization_version", 3)
    jax.config.update("jax_serialization_version", 0)  # the default is accepted
    with pytest.raises(NotImplementedError, match="jax_threefry_partitionable=False"):
        jax.config.update("jax_threefry_partitionable", False)
    jax.config.update("jax_cuda_visible_devices", "0")  # another platform's: accepted, no effect
    jax.config.update("jax_cuda_visible_devices", "all")


def test_config_surface_is_generated() -> None:
    assert load_tool("gen_config_surface").render() == (ROOT / "jax_core/_src/config/surface.py").read_text()


def test_context_manager_is_a_decorator_and_restores() -> None:
    @jax.numpy_rank_promotion("raise")
    def add(a: jax.Array, b: jax.Array) -> jax.Array:
        return a + b

    with pytest.raises(ValueError, match="jax_numpy_rank_promotion='raise'"):
        add(jnp.ones((2, 3)), jnp.ones(3))
    assert jax.config.jax_numpy_rank_promotion == "allow"
    assert (jnp.ones((2, 3)) + jnp.ones(3)).shape == (2, 3)


def test_jit_cache_follows_options() -> None:
    f = jax.jit(lambda a, b: a + b)
    assert f(jnp.ones((2, 3)), jnp.ones(3)).shape == (2, 3)
    with jax.numpy_rank_promotion("raise"), pytest.raises(ValueError):
        f(jnp.ones((2, 3)), jnp.ones(3))  # a new option value traces again


def test_log_compiles(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="jax_core"), jax.log_compiles(True):
        jax.jit(lambda v: v * 3.5 + 1)(jnp.ones(4))
    assert any("Compiling jit(<lambda>) with global shapes and types ['f32[4]']" in r.message for r in caplog.records)


def test_no_execution() -> None:
    with jax.no_execution(True), pytest.raises(RuntimeError, match="no_execution config option is set"):
        jnp.ones(3) * 7


def test_named_scope_names_the_ops() -> None:
    def f(v: jax.Array) -> jax.Array:
        with jax.named_scope("block"):
            return jnp.sin(v) * 2

    text = jax.jit(f).lower(jnp.ones(3)).as_text(debug_info=True)
    assert '"block/sin"' in text and '"block/mul"' in text
    assert "block" not in jax.jit(f).lower(jnp.ones(3)).as_text()


def test_check_tracer_leaks() -> None:
    leaked: list[jax.Array] = []

    def f(v: jax.Array) -> jax.Array:
        leaked.append(v * 2)
        return v + 1

    with jax.checking_leaks(), pytest.raises(Exception, match=r"Leaked trace DynamicJaxprTrace\. Leaked tracer\(s\):\n\nJitTracer\(~float32\[\]\)"):
        jax.jit(f)(1.0)
    with jax.check_tracer_leaks(True):  # constants captured while tracing are not leaks
        np.testing.assert_allclose(np.asarray(jax.jit(lambda v: jnp.sin(v) + jnp.ones(3))(1.0)), np.full(3, 1.841471), rtol=1e-6)
    assert float(jax.jit(f)(2.0)) == 3.0  # off again: no check


def test_check_jaxpr() -> None:
    a = Var(ShapedArray((3,), np.dtype("float32")))
    wrong = Var(ShapedArray((4,), np.dtype("float32")))
    with pytest.raises(JaxprTypeError, match=r"equation 0 \(sin\) has type\(s\) f32\[4\]"):
        check_jaxpr(Jaxpr([], [a], [wrong], [JaxprEqn([a], [wrong], sin_p, {}, None)]))
    unbound = Var(ShapedArray((3,), np.dtype("float32")))
    out = Var(ShapedArray((3,), np.dtype("float32")))
    with pytest.raises(JaxprTypeError, match="not defined"):
        check_jaxpr(Jaxpr([], [a], [out], [JaxprEqn([unbound], [out], sin_p, {}, None)]))
    with jax.enable_checks(True):  # well-typed programs pass
        assert float(jax.jit(jax.grad(lambda v: jnp.sin(v).sum()))(jnp.ones(3))[0]) == pytest.approx(0.5403023)


def _child(code: str, **env: str) -> str:
    full = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_environment_variables() -> None:
    code = "import jax_core as jax; print(jax.config.jax_numpy_rank_promotion, jax.config.jax_debug_nans)"
    assert _child(code, JAX_NUMPY_RANK_PROMOTION="raise", JAX_DEBUG_NANS="1") == "raise True"
    full = {**os.environ, "PYTHONPATH": str(ROOT), "JAX_NUMPY_RANK_PROMOTION": "bogus"}
    done = subprocess.run([sys.executable, "-c", "import jax_core"], capture_output=True, text=True, env=full, timeout=300)
    assert 'Invalid value "bogus" for JAX flag jax_numpy_rank_promotion' in done.stderr


def test_persistent_compilation_cache(tmp_path: Path) -> None:
    code = (
        "import jax_core as jax, jax_core.numpy as jnp\n"
        "f = jax.jit(lambda w, x: jnp.tanh(x @ w).sum())\n"
        "print(float(f(jnp.ones((16, 16)) * 0.1, jnp.ones((4, 16)))))\n"
    )
    env = {"JAX_COMPILATION_CACHE_DIR": str(tmp_path), "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0"}
    first = _child(code, **env)
    entries = sorted(tmp_path.glob("jit__lambda-*-cache"))
    assert len(entries) == 1 and entries[0].stat().st_size > 0
    stamp = entries[0].stat().st_mtime_ns
    os.utime(entries[0], ns=(stamp - 10**9, stamp - 10**9))
    assert _child(code, **env) == first  # loaded, not compiled: the hit renews the entry
    assert entries[0].stat().st_mtime_ns > stamp - 10**9
    entries[0].write_bytes(b"not an executable")  # a corrupt entry: warns, compiles, rewrites
    assert _child(code, **env) == first
    assert entries[0].read_bytes() != b"not an executable"
    # below the compile-time threshold nothing is written
    other = tmp_path / "other"
    _child(code, JAX_COMPILATION_CACHE_DIR=str(other), JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS="1000")
    assert not list(other.glob("*-cache"))


def test_explain_cache_misses(caplog: pytest.LogCaptureFixture) -> None:
    f = jax.jit(lambda x, y: x * y)
    with caplog.at_level(logging.WARNING, logger="jax_core"), jax.explain_cache_misses(True):
        f(np.float32(1.0), 2.0)
        f(jnp.ones(3), 2.0)
    messages = [r.message for r in caplog.records if "TRACING CACHE MISS" in r.message]
    assert "never seen function" in messages[0]
    assert "x: now float32[3], it was float32[]" in messages[-1]


def test_guards_and_unimplemented_debug_options() -> None:
    with jax.array_garbage_collection_guard("log"):
        assert jax.config.jax_array_garbage_collection_guard == "log"
    with pytest.raises(NotImplementedError, match="jax_debug_key_reuse=True"):
        jax.config.update("jax_debug_key_reuse", True)
    with pytest.raises(NotImplementedError, match="jax_debug_key_reuse=True"):
        jax.debug_key_reuse(True)
