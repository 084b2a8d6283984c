"""``jax_core.ffi``: C++ handlers compiled at test time (``csrc/ffi_kernels.cc``, once per module,
with the system compiler against ``include_dir()``), registered and called through ``ffi_call``
eagerly, under ``jit`` and under ``vmap`` with each ``vmap_method``, and through ``ffi_lowering``
as a primitive's lowering; the StableHLO, jaxprs and error messages compared with real JAX's.

Float results are compared with numpy references to ``rtol=1e-5, atol=1e-6`` (the handler sums
in float32, in its own order); int results exactly.
"""

from __future__ import annotations

import ctypes
import inspect
import os
import shutil
import subprocess
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import ffi
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.ffi.lowering import build_ffi_lowering_function
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core.errors import JaxRuntimeError
from tests.effects.printed_oracle import assert_same_output, snippet
from tests.oracle.client import live_fixture

COVERED = {"ffi_call", "ffi_test_rms_norm"}

CXX = shutil.which(os.environ.get("CXX", "c++")) or shutil.which("g++") or shutil.which("clang++")
pytestmark = pytest.mark.skipif(CXX is None, reason="no C++ compiler (c++, g++ or clang++) to build the FFI test kernels")

SOURCE = Path(__file__).parent / "csrc" / "ffi_kernels.cc"
RMS, INT_OPS, COUNT = "jax_core_test_rms_norm", "jax_core_test_int_ops", "jax_core_test_count_calls"
RTOL, ATOL = 1e-5, 1e-6
F32 = np.dtype(np.float32)
I32 = np.dtype(np.int32)


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    """The test kernels, compiled, loaded and registered (once per module)."""
    assert CXX is not None
    out = tmp_path_factory.mktemp("ffi") / "libffi_kernels.so"
    cmd = [CXX, "-shared", "-fPIC", "-std=c++17", "-O1", "-I", ffi.include_dir(), str(SOURCE), "-o", str(out)]
    built = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    assert built.returncode == 0, f"compiling the FFI kernels failed:\n{' '.join(cmd)}\n{built.stderr}"
    lib = ctypes.cdll.LoadLibrary(str(out))
    lib.call_count.restype = ctypes.c_int64
    ffi.register_ffi_target(RMS, ffi.pycapsule(lib.RmsNorm))
    ffi.register_ffi_target(INT_OPS, ffi.pycapsule(lib.IntOps), platform="cpu")
    ffi.register_ffi_target(COUNT, {"execute": ffi.pycapsule(lib.CountCalls)})
    return lib


def rms_norm_ref(x: np.ndarray[Any, Any], eps: float = 1e-5) -> np.ndarray[Any, Any]:
    x64 = x.astype(np.float64)
    return (x64 / np.sqrt(np.mean(x64 * x64, axis=-1, keepdims=True) + eps)).astype(np.float32)


def rms_norm(x: Any, eps: float = 1e-5, vmap_method: str | None = None) -> jax.Array:
    spec = jax.ShapeDtypeStruct(jnp.shape(x), F32)
    return ffi.ffi_call(RMS, spec, vmap_method=vmap_method)(x, eps=np.float32(eps))


def int_ops(vmap_method: str | None = None, **kw: Any) -> Callable[..., Sequence[jax.Array]]:
    spec = jax.ShapeDtypeStruct((2, 4), I32)
    return ffi.ffi_call(INT_OPS, (spec, spec), vmap_method=vmap_method, **kw)


X = np.random.default_rng(0).normal(size=(3, 5)).astype(np.float32)
XB = np.random.default_rng(1).normal(size=(4, 3, 5)).astype(np.float32)
A = np.arange(8, dtype=np.int32).reshape(2, 4) - 3
B = np.array([[5, -1, 2, 7], [0, 3, -4, 1]], np.int32)
AB = np.stack([A, 2 * A, -A])


# --- the public surface ---------------------------------------------------------------------

PUBLIC = {
    "abstract_token", "build_ffi_lowering_function", "ffi_call", "ffi_lowering", "include_dir", "pycapsule",
    "register_ffi_target", "register_ffi_target_as_batch_partitionable", "register_ffi_type", "register_ffi_type_id",
}  # fmt: skip

# inspect.signature of JAX 0.12's jax.ffi functions (annotations left out: they name JAX's types).
SIGNATURES = {
    "build_ffi_lowering_function": "(call_target_name, *, operand_layouts=None, result_layouts=None, backend_config=None, skip_ffi_layout_processing=False, **lowering_args)",
    "ffi_call": "(target_name, result_shape_dtypes, *, has_side_effect=False, vmap_method=None, input_layouts=None, output_layouts=None, input_output_aliases=None, custom_call_api_version=4, legacy_backend_config=None)",
    "ffi_lowering": "(call_target_name, *, operand_layouts=None, result_layouts=None, backend_config=None, skip_ffi_layout_processing=False, **lowering_args)",
    "include_dir": "()",
    "pycapsule": "(funcptr)",
    "register_ffi_target": "(name, fn, platform='cpu', api_version=1, **kwargs)",
    "register_ffi_target_as_batch_partitionable": "(name)",
    "register_ffi_type": "(name, type_registration, platform='cpu')",
    "register_ffi_type_id": "(name, obj, platform='cpu')",
}


def test_public_names_and_signatures() -> None:
    assert {n for n in dir(ffi) if not n.startswith("_")} == PUBLIC
    for name, expected in SIGNATURES.items():
        sig = inspect.signature(getattr(ffi, name))
        bare = sig.replace(
            parameters=[p.replace(annotation=inspect.Parameter.empty) for p in sig.parameters.values()],
            return_annotation=inspect.Signature.empty,
        )
        assert str(bare) == expected, name
    assert ffi.abstract_token is jax.typeof(jax.lax.create_token())


def test_include_dir_holds_the_ffi_headers() -> None:
    assert os.path.isfile(os.path.join(ffi.include_dir(), "xla", "ffi", "api", "ffi.h"))


def test_register_ffi_type_id_is_gone() -> None:
    with pytest.raises(ValueError, match="register_ffi_type_id is not supported after jaxlib version 381"):
        ffi.register_ffi_type_id("my_type", object())


# --- calling the kernels ----------------------------------------------------------------------


def test_rms_norm_eager_and_jit(kernels: ctypes.CDLL) -> None:
    np.testing.assert_allclose(np.asarray(rms_norm(X)), rms_norm_ref(X), rtol=RTOL, atol=ATOL)

    def f(x: Any) -> jax.Array:
        return rms_norm(x, eps=0.5)

    out = jax.jit(f)(X)
    assert out.dtype == F32 and out.shape == X.shape
    np.testing.assert_allclose(np.asarray(out), rms_norm_ref(X, 0.5), rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("method", ["sequential", "sequential_unrolled", "expand_dims", "broadcast_all", "legacy_vectorized"])
@pytest.mark.parametrize("axis", [0, 1])
def test_rms_norm_vmap(kernels: ctypes.CDLL, method: str, axis: int) -> None:
    xb = np.moveaxis(XB, 0, axis)

    def f(x: Any) -> jax.Array:
        return rms_norm(x, vmap_method=method)

    out = jax.jit(jax.vmap(f, in_axes=axis))(xb)
    assert out.shape == XB.shape
    np.testing.assert_allclose(np.asarray(out), rms_norm_ref(XB), rtol=RTOL, atol=ATOL)


def test_int_ops_results_and_attribute(kernels: ctypes.CDLL) -> None:
    s, d = int_ops()(A, B, factor=3)
    assert s.dtype == I32 and d.dtype == I32
    np.testing.assert_array_equal(np.asarray(s), A + 3 * B)
    np.testing.assert_array_equal(np.asarray(d), A - B)
    def f(a: Any, b: Any) -> Sequence[jax.Array]:
        return int_ops()(a, b, factor=-2)

    outs = jax.jit(f)(A, B)
    returned_a_tuple = isinstance(outs, tuple)
    assert returned_a_tuple  # a tuple of specs gives a tuple
    s2, d2 = outs
    np.testing.assert_array_equal(np.asarray(s2), A - 2 * B)
    np.testing.assert_array_equal(np.asarray(d2), A - B)
    spec = jax.ShapeDtypeStruct((2, 4), I32)
    as_list = ffi.ffi_call(INT_OPS, [spec, spec])(A, B, factor=1)
    assert isinstance(as_list, list) and len(as_list) == 2


@pytest.mark.parametrize("method", ["sequential", "expand_dims", "broadcast_all"])
def test_int_ops_vmap_with_an_unbatched_operand(kernels: ctypes.CDLL, method: str) -> None:
    def f(a: Any, b: Any) -> Any:
        return int_ops(method)(a, b, factor=5)

    s, d = jax.vmap(f, in_axes=(0, None))(AB, B)
    np.testing.assert_array_equal(np.asarray(s), AB + 5 * B)
    np.testing.assert_array_equal(np.asarray(d), AB - B)


def test_vmap_layouts_gain_the_batch_axis(kernels: ctypes.CDLL) -> None:
    # expand_dims: the unbatched operand gets a leading axis of size 1; every buffer's layout
    # gets the batch axis as its most major dimension.
    def f(a: Any, b: Any) -> Any:
        return int_ops("expand_dims")(a, b, factor=1)

    jaxpr = jax.make_jaxpr(jax.vmap(f, in_axes=(0, None)))(AB, B)
    (eqn,) = [e for e in jaxpr.jaxpr.eqns if e.primitive.name == "ffi_call"]
    assert [v.aval.shape for v in eqn.invars] == [(3, 2, 4), (1, 2, 4)]
    assert eqn.params["input_layouts"] == ((2, 1, 0), (2, 1, 0))
    assert eqn.params["output_layouts"] == ((2, 1, 0), (2, 1, 0))


def test_has_side_effect_keeps_an_unused_call(kernels: ctypes.CDLL) -> None:
    count = ffi.ffi_call(COUNT, jax.ShapeDtypeStruct((), I32), has_side_effect=True)

    @jax.jit
    def f(x: Any) -> Any:
        count()  # the result is unused: only the effect keeps the call
        return x + 1

    before = kernels.call_count()
    f(1.0).block_until_ready()
    f(2.0).block_until_ready()
    assert kernels.call_count() == before + 2
    assert int(count()) == before + 2  # eagerly: the count before this call
    assert kernels.call_count() == before + 3
    assert "has_side_effect = true" in jax.jit(f).lower(1.0).as_text()
    assert [repr(e) for e in jax.make_jaxpr(f)(1.0).effects] == ["FfiEffect()"]
    pure = ffi.ffi_call(COUNT, jax.ShapeDtypeStruct((), I32))
    text = jax.jit(lambda: pure()).lower().as_text()
    assert "@jax_core_test_count_calls" in text and "has_side_effect" not in text
    assert not jax.make_jaxpr(lambda: pure())().effects


def test_input_output_aliases(kernels: ctypes.CDLL) -> None:
    @jax.jit
    def f(a: Any, b: Any) -> Any:
        return int_ops(input_output_aliases={0: 0, 1: 1})(a, b, factor=2)

    text = f.lower(A, B).as_text()
    assert "operand_index = 0" in text and "operand_index = 1" in text
    s, d = f(A, B)
    np.testing.assert_array_equal(np.asarray(s), A + 2 * B)
    np.testing.assert_array_equal(np.asarray(d), A - B)
    np.testing.assert_array_equal(np.asarray(jnp.asarray(A)), A)  # an undonated input is unchanged


def test_unregistered_target_is_a_runtime_error_naming_it() -> None:
    call = ffi.ffi_call("jax_core_test_missing", jax.ShapeDtypeStruct((3,), F32))
    with pytest.raises(JaxRuntimeError, match="No FFI handler registered for jax_core_test_missing"):
        call(np.ones(3, np.float32))
    with pytest.raises(JaxRuntimeError, match="No FFI handler registered for jax_core_test_missing"):
        jax.jit(call)(np.ones(3, np.float32))
    assert "@jax_core_test_missing" in jax.jit(call).lower(np.ones(3, np.float32)).as_text()  # lowering needs no handler


def test_attribute_of_the_wrong_type_is_reported_by_the_handler(kernels: ctypes.CDLL) -> None:
    with pytest.raises(JaxRuntimeError, match="Wrong scalar data type: expected F32 but got F64"):
        ffi.ffi_call(RMS, jax.ShapeDtypeStruct(X.shape, F32))(X, eps=1e-5)  # a Python float is f64


def test_argument_errors() -> None:
    spec = jax.ShapeDtypeStruct((3,), F32)
    with pytest.raises(ValueError, match=r"must have 'shape' and 'dtype' attributes. Got \(3,\) at position 1"):
        ffi.ffi_call(RMS, [spec, (3,)])  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"vmap_method must be on of the allowed methods \['sequential', "):
        ffi.ffi_call(RMS, spec, vmap_method="vectorized")
    with pytest.raises(ValueError, match="legacy_backend_config parameter requires custom_call_api_version < 4"):
        ffi.ffi_call(RMS, spec, legacy_backend_config="x")
    with pytest.raises(NotImplementedError, match="vmap is only supported for the ffi_call primitive when vmap_method"):
        jax.vmap(ffi.ffi_call(RMS, spec))(XB[:, 0])
    with pytest.raises(ValueError, match=f"The FFI call to `{RMS}` cannot be differentiated"):
        jax.grad(lambda v: ffi.ffi_call(RMS, jax.ShapeDtypeStruct((), F32))(v))(1.0)  # pyright: ignore[reportUnknownLambdaType, reportUnknownArgumentType]
    with pytest.raises(ValueError, match="with input index 1 outside the range"):
        ffi.ffi_call(RMS, spec, input_output_aliases={1: 0})(np.ones(3, F32))
    with pytest.raises(TypeError, match="Non-hashable keyword argument to ffi_call eps: \\[1\\]"):
        ffi.ffi_call(RMS, spec)(np.ones(3, F32), eps=[1])


# --- ffi_lowering as a primitive's lowering -------------------------------------------------

ffi_test_rms_norm_p = Primitive("ffi_test_rms_norm")


def _rms_batch(args: Any, dims: Any, *, eps: Any) -> tuple[Any, int]:
    (x,), (d,) = args, dims
    return ffi_test_rms_norm_p.bind(jnp.moveaxis(x, d, 0), eps=eps), 0


def _rms_abstract_eval(x: ShapedArray, *, eps: Any) -> ShapedArray:
    return x


def _rms_jvp(*_: Any, **__: Any) -> Any:
    raise NotImplementedError("Differentiation rule for 'ffi_test_rms_norm' not implemented")


ffi_test_rms_norm_p.def_rules(
    Rules(
        abstract_eval=_rms_abstract_eval,
        lower=ffi.ffi_lowering(RMS),
        jvp=_rms_jvp,
        batch=_rms_batch,
    )
)


def test_ffi_lowering_of_a_primitive(kernels: ctypes.CDLL) -> None:
    def norm(x: Any) -> jax.Array:
        out: jax.Array = ffi_test_rms_norm_p.bind(x, eps=np.float32(1e-3))
        return out

    out = norm(jnp.asarray(X))
    np.testing.assert_allclose(np.asarray(out), rms_norm_ref(X, 1e-3), rtol=RTOL, atol=ATOL)
    f = jax.jit(norm)
    assert "mhlo.backend_config = {eps = 1.000000e-03 : f32}" in f.lower(X).as_text()
    np.testing.assert_allclose(np.asarray(f(X)), rms_norm_ref(X, 1e-3), rtol=RTOL, atol=ATOL)
    outb = jax.vmap(norm, in_axes=1)(np.moveaxis(XB, 0, 1))
    np.testing.assert_allclose(np.asarray(outb), rms_norm_ref(XB, 1e-3), rtol=RTOL, atol=ATOL)


def test_build_ffi_lowering_function_checks_the_api_version() -> None:
    ctx = LoweringRuleContext([], [])
    with pytest.raises(ValueError, match="requires a custom call API version of at least 4; got api_version=2"):
        build_ffi_lowering_function("t", api_version=2)(ctx, eps=1)
    with pytest.raises(ValueError, match="backend_config must be a dictionary"):
        build_ffi_lowering_function("t", backend_config="opaque")(ctx)


# --- compared with real JAX -----------------------------------------------------------------

_PRELUDE = """
import importlib, re
F = importlib.import_module(jax.__name__ + ".ffi")
Layout = importlib.import_module(jax.__name__ + ".experimental.layout").Layout
x = jnp.ones((2, 3), jnp.float32)
xs = jnp.ones((4, 2, 3), jnp.float32)
spec = jax.ShapeDtypeStruct((2, 3), jnp.float32)
def calls(f, *args):
    # The custom calls of the lowered module, without the SSA names (which the modules number
    # differently around them).
    for line in jax.jit(f).lower(*args).as_text().splitlines():
        if "custom_call" in line:
            print(re.sub(r"%[\\w#]+", "%_", line.strip()))
"""

CASES = {
    "attributes": """
        f = lambda x: F.ffi_call("t", spec)(x, eps=np.float32(1e-5), n=3, r=1.5, b=True, s="hi",
            arr=np.arange(3, dtype=np.int32), d={"a": 1, "b": np.int8(2)}, tup=(1, 2.0),
            dt=np.dtype(np.float32), u=np.uint32(4), z=np.array(2.0, np.float32))
        calls(f, x)
        print(jax.make_jaxpr(f)(x))
    """,
    "side_effect": """
        calls(lambda x: (F.ffi_call("t", spec, has_side_effect=True)(x), x)[1], x)
        print([(repr(e), str(e)) for e in jax.make_jaxpr(lambda x: F.ffi_call("t", spec, has_side_effect=True)(x))(x).effects])
    """,
    "aliases": """
        g = F.ffi_call("t2", (spec, jax.ShapeDtypeStruct((), jnp.int32)), input_output_aliases={1: 0})
        calls(g, x, x)
        calls(F.ffi_call("t1", spec, input_output_aliases={0: 0}), x)
    """,
    "layouts": """
        g = F.ffi_call("t", [spec, spec], input_layouts=[(0, 1), Layout((1, 0))], output_layouts=[Layout((0, 1)), (1, 0)])
        calls(g, x, x)
        calls(F.ffi_call("t", spec, output_layouts=(1, 0)), x)
    """,
    "legacy_and_tokens": """
        calls(F.ffi_call("t", spec, custom_call_api_version=2, legacy_backend_config="opaque"), x)
        calls(F.ffi_call("t", [F.abstract_token, spec], has_side_effect=True), x)
        calls(F.ffi_call("t", jax.ShapeDtypeStruct((2,), jnp.int32)), 1.0)
    """,
    "vmap": """
        for m in ["sequential", "expand_dims", "broadcast_all", "legacy_vectorized"]:
            g = F.ffi_call("t", spec, vmap_method=m, input_layouts=[(0, 1), None])
            calls(jax.vmap(g, in_axes=(0, None)), xs, x)
            jaxpr = jax.make_jaxpr(jax.vmap(g, in_axes=(0, None)))(xs, x)
            e = [e for e in jaxpr.jaxpr.eqns if e.primitive.name == "ffi_call"]
            for eqn in e:
                print(m, eqn.params["input_layouts"], eqn.params["output_layouts"], [str(v.aval) for v in eqn.invars])
    """,
    "errors": """
        attempt(lambda: F.ffi_call("t", [spec, (2, 3)]))
        attempt(lambda: F.ffi_call("t", 3))
        attempt(lambda: F.ffi_call("t", spec, vmap_method="bogus"))
        attempt(lambda: F.ffi_call("t", spec, legacy_backend_config="opaque"))
        attempt(lambda: F.ffi_call("t", spec, input_output_aliases={3: 0})(x))
        attempt(lambda: F.ffi_call("t", spec, input_output_aliases={0: 1})(x))
        attempt(lambda: F.ffi_call("t", jax.ShapeDtypeStruct((3,), jnp.float32), input_output_aliases={0: 0})(x))
        attempt(lambda: F.ffi_call("t", spec, input_layouts=[(0, 1)], output_layouts=(1, 0), input_output_aliases={0: 0})(x))
        attempt(lambda: F.ffi_call("t", spec, input_layouts=[None, None])(x))
        attempt(lambda: F.ffi_call("t", spec, output_layouts=[None, None])(x))
        attempt(lambda: F.ffi_call("t", spec, input_layouts=[Layout((1, 0), tiling=((2,),))])(x))
        attempt(lambda: F.ffi_call("t", spec)(x, a=[1, 2]))
        attempt(lambda: jax.vmap(F.ffi_call("t", spec))(xs))
        attempt(lambda: jax.grad(lambda v: F.ffi_call("t", jax.ShapeDtypeStruct((), jnp.float32))(v))(1.0))
        attempt(lambda: jax.jit(lambda v: F.ffi_call("t", spec)(v, c=np.complex64(1))).lower(x))
        attempt(lambda: jax.jit(F.ffi_call("jax_core_test_missing", spec))(x))
        attempt(lambda: F.register_ffi_type_id("ty", None))
    """,
}
_CALLS = {name: snippet(_PRELUDE + textwrap.dedent(src)) for name, src in CASES.items()}
live = live_fixture(list(_CALLS.values()))


@pytest.mark.parametrize("case", sorted(CASES))
def test_same_as_jax(live: Any, case: str) -> None:
    out = assert_same_output(_CALLS[case], live)
    assert out.strip()  # the snippet printed something to compare
