"""Defining a primitive from outside with ``jax_core.extend`` and ``jax_core.interpreters``: the
``jax.extend`` design's ``mul_add`` example verbatim, then with every rule under every
transformation, and JAX's custom-primitive tutorial (``multiply_add``) through ``check_grads``."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core.extend import core
from jax_core.interpreters import ad, batching, mlir
from jax_core.test_util import check_grads

ROOT = Path(__file__).resolve().parents[2]
JAX_PY = ROOT / ".venv-jax" / "bin" / "python"

# The design document's example, verbatim but for ``jax`` -> ``jax_core`` (seed 000, part 6).
SEED = """
from jax_core.extend import core # Previously: from jax import core
from jax_core.extend.interpreters import mlir # ... and similarly

mul_add_p = core.Primitive('mul_add')
mul_add_p.def_impl(lambda x, y, z: x * y + z)

@mul_add_p.def_abstract_eval
def mul_add_abstract(x_sa, y_sa, z_sa):
  return core.ShapedArray(x_sa.shape, x_sa.dtype)

def mul_add_mlir(ctx, xc, yc, zc):
  add = mlir.hlo.AddOp
  mul = mlir.hlo.MulOp
  return add(mul(xc, yc), zc).results

mlir.register_lowering(mul_add_p, mul_add_mlir)

import jax_core as jax
print(mul_add_p.bind(2, 3, 4)) # -> 10
print(jax.jit(mul_add_p.bind)(2, 3, 4)) # -> Array(10, dtype=int32)
print(repr(jax.jit(mul_add_p.bind)(2, 3, 4)))
print(jax.make_jaxpr(mul_add_p.bind)(2., 3., 4.))
"""


def _run(python: Path | str, source: str) -> list[str]:
    done = subprocess.run([str(python), "-c", source], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_seed_example_verbatim() -> None:
    out = _run(sys.executable, SEED)
    assert out == [
        "10",
        "10",
        "Array(10, dtype=int32)",
        "{ lambda ; a:f32[] b:f32[] c:f32[]. let d:f32[] = mul_add a b c in (d,) }",
    ]


@pytest.mark.skipif(not JAX_PY.exists(), reason="the live oracle .venv-jax is not built")
def test_seed_example_prints_as_jax() -> None:
    # JAX 0.12 has no ``mlir.hlo``, no ``jax.extend.interpreters`` and no
    # ``jax.extend.core.ShapedArray``: the oracle imports them from where JAX keeps them;
    # everything else is the same program.
    source = (
        SEED.replace("jax_core.extend.interpreters import mlir", "jax.interpreters import mlir")
        .replace("jax_core", "jax")
        .replace("mlir.hlo.", "hlo.")
        .replace("core.ShapedArray", "jax_core_.ShapedArray")
        .replace("from jax.extend import core #", "import jax.core as jax_core_\nfrom jax.extend import core #")
        .replace("def mul_add_mlir(ctx, xc, yc, zc):", "def mul_add_mlir(ctx, xc, yc, zc):\n  from jax._src.lib.mlir.dialects import hlo")
    )
    assert _run(JAX_PY, source) == _run(sys.executable, SEED)


# -- mul_add with every rule -----------------------------------------------------------------

mul_add_p = core.Primitive("test_mul_add")
mul_add_p.def_impl(lambda x, y, z: np.add(np.multiply(x, y), z))


@mul_add_p.def_abstract_eval
def _mul_add_abstract(x: core.ShapedArray, y: core.ShapedArray, z: core.ShapedArray) -> core.ShapedArray:
    if not x.shape == y.shape == z.shape:
        raise TypeError(f"mul_add needs operands of one shape; got {x.shape}, {y.shape}, {z.shape}")
    return core.ShapedArray(x.shape, x.dtype)


def _mul_add_lowering(ctx: mlir.LoweringRuleContext, xc: mlir.Value, yc: mlir.Value, zc: mlir.Value) -> Sequence[mlir.Value]:
    out: Sequence[mlir.Value] = mlir.hlo.AddOp(mlir.hlo.MulOp(xc, yc), zc).results
    return out


mlir.register_lowering(mul_add_p, _mul_add_lowering)


def mul_add(x: Any, y: Any, z: Any) -> Any:
    return mul_add_p.bind(x, y, z)


def _mul_add_jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
    x, y, z = primals
    xt, yt, zt = (ad.instantiate_zeros(t) for t in tangents)
    return mul_add(x, y, z), mul_add(xt, y, mul_add(x, yt, zt))


def _mul_add_transpose(ct: Any, x: Any, y: Any, z: Any) -> list[Any]:
    # Linear in (x, z) when y is known, or in (y, z) when x is known.
    if ad.is_undefined_primal(x):
        return [ct * y, None, ct if ad.is_undefined_primal(z) else None]
    return [None, ct * x, ct if ad.is_undefined_primal(z) else None]


def _mul_add_batch(args: Sequence[Any], dims: Sequence[int | None]) -> tuple[Any, int]:
    size = next(np.shape(a)[d] for a, d in zip(args, dims) if d is not None)
    return mul_add(*(batching.bdim_at_front(a, d, size) for a, d in zip(args, dims))), 0


ad.primitive_jvps[mul_add_p] = _mul_add_jvp
ad.primitive_transposes[mul_add_p] = _mul_add_transpose
batching.primitive_batchers[mul_add_p] = _mul_add_batch

X = np.array([1.0, 2.0, 3.0], np.float32)
Y = np.array([4.0, 5.0, 6.0], np.float32)
Z = np.array([0.5, 0.25, 2.0], np.float32)


def _loss(x: Any, y: Any, z: Any) -> Any:
    return jnp.sum(mul_add(x, y, z) * x)


def test_registries_write_the_rules_record() -> None:
    rules = mul_add_p.rules
    assert rules.jvp is _mul_add_jvp and ad.primitive_jvps[mul_add_p] is _mul_add_jvp
    assert rules.transpose is _mul_add_transpose and ad.get_primitive_transpose(mul_add_p) is _mul_add_transpose
    assert rules.batch is _mul_add_batch and batching.primitive_batchers[mul_add_p] is _mul_add_batch
    assert rules.lower is _mul_add_lowering and rules.abstract_eval is _mul_add_abstract
    # jax_core's own primitives are in the same tables, with the rules def_rules gave them.
    sin_p = core.primitives.sin_p
    assert ad.primitive_jvps[sin_p] is sin_p.rules.jvp
    assert sin_p in batching.primitive_batchers and core.primitives.add_p in ad.primitive_transposes
    assert core.primitives.sin_p not in ad.primitive_transposes
    assert len(ad.primitive_jvps) > 150


def test_eager_jit_and_jaxpr() -> None:
    np.testing.assert_array_equal(mul_add(X, Y, Z), X * Y + Z)
    np.testing.assert_array_equal(jax.jit(mul_add)(X, Y, Z), X * Y + Z)
    assert "test_mul_add" in jax.jit(mul_add).lower(X, Y, Z).as_text() or "stablehlo.multiply" in jax.jit(mul_add).lower(X, Y, Z).as_text()
    assert str(jax.make_jaxpr(mul_add)(X, Y, Z)) == (
        "{ lambda ; a:f32[3] b:f32[3] c:f32[3]. let d:f32[3] = test_mul_add a b c in (d,) }"
    )


def test_grad_jvp_linearize_vmap_checkpoint_composed() -> None:
    gx, gy, gz = jax.grad(_loss, argnums=(0, 1, 2))(X, Y, Z)
    np.testing.assert_allclose(gx, 2 * X * Y + Z, rtol=1e-6)
    np.testing.assert_allclose(gy, X * X, rtol=1e-6)
    np.testing.assert_allclose(gz, X, rtol=1e-6)
    out, t = jax.jvp(mul_add, (X, Y, Z), (Y, X, Z))
    np.testing.assert_allclose(t, Y * Y + X * X + Z, rtol=1e-6)
    _, f_lin = jax.linearize(mul_add, X, Y, Z)
    np.testing.assert_allclose(f_lin(Y, X, Z), Y * Y + X * X + Z, rtol=1e-6)
    batched = jax.vmap(mul_add, in_axes=(0, None, 1))(np.stack([X, Y]), Z, np.stack([Y, X], 1))
    np.testing.assert_allclose(batched, np.stack([X * Z + Y, Y * Z + X]), rtol=1e-6)
    per_example = jax.jit(jax.vmap(jax.grad(jax.checkpoint(_loss))))(np.stack([X, Y]), np.stack([Y, X]), np.stack([Z, Z]))
    np.testing.assert_allclose(per_example, np.stack([2 * X * Y + Z, 2 * Y * X + Z]), rtol=1e-6)
    hess = jax.hessian(lambda x: _loss(x, Y, Z))(X)
    np.testing.assert_allclose(hess, np.diag(2 * Y), rtol=1e-6)


# -- JAX's custom-primitive tutorial: multiply_add with all rules ----------------------------

multiply_add_p = core.Primitive("multiply_add")


def multiply_add_prim(x: Any, y: Any, z: Any) -> Any:
    return multiply_add_p.bind(x, y, z)


def square_add_prim(a: Any, b: Any) -> Any:
    return multiply_add_prim(a, a, b)


multiply_add_p.def_impl(lambda x, y, z: np.add(np.multiply(x, y), z))
multiply_add_p.def_abstract_eval(lambda xs, ys, zs: core.ShapedArray(xs.shape, xs.dtype))
mlir.register_lowering(multiply_add_p, mlir.lower_fun(lambda x, y, z: x * y + z, multiple_results=False))


def _multiply_add_value_and_jvp(arg_values: Sequence[Any], arg_tangents: Sequence[Any]) -> tuple[Any, Any]:
    x, y, z = arg_values
    xt, yt, zt = arg_tangents
    primal_out = multiply_add_prim(x, y, z)

    def make_zero(tan: Any) -> Any:
        return jnp.zeros_like(x) if type(tan) is ad.Zero else tan

    return primal_out, multiply_add_prim(make_zero(xt), y, multiply_add_prim(x, make_zero(yt), make_zero(zt)))


def _multiply_add_transpose(ct: Any, x: Any, y: Any, z: Any) -> tuple[Any, Any, Any]:
    if not ad.is_undefined_primal(x):
        ct_y = ad.Zero(y.aval) if type(ct) is ad.Zero else multiply_add_prim(x, ct, jnp.zeros_like(x))
        return None, ct_y, ct
    ct_x = ad.Zero(x.aval) if type(ct) is ad.Zero else multiply_add_prim(ct, y, jnp.zeros_like(y))
    return ct_x, None, ct


def _multiply_add_batch(vector_arg_values: Sequence[Any], batch_axes: Sequence[int | None]) -> tuple[Any, int | None]:
    assert batch_axes[0] == batch_axes[1] == batch_axes[2]
    return multiply_add_prim(*vector_arg_values), batch_axes[0]


ad.primitive_jvps[multiply_add_p] = _multiply_add_value_and_jvp
ad.primitive_transposes[multiply_add_p] = _multiply_add_transpose
batching.primitive_batchers[multiply_add_p] = _multiply_add_batch


def test_tutorial_multiply_add() -> None:
    assert float(square_add_prim(2.0, 10.0)) == 14.0
    assert float(jax.jit(square_add_prim)(2.0, 10.0)) == 14.0
    assert float(jax.grad(square_add_prim)(2.0, 10.0)) == 4.0
    assert float(jax.jit(jax.grad(square_add_prim))(2.0, 10.0)) == 4.0
    primal, tangent = jax.jvp(square_add_prim, (2.0, 10.0), (1.0, 1.0))
    assert (float(primal), float(tangent)) == (14.0, 5.0)
    batched = jax.vmap(square_add_prim, in_axes=0, out_axes=0)(np.array([2.0, 3.0]), np.array([10.0, 20.0]))
    np.testing.assert_array_equal(batched, [14.0, 29.0])
    check_grads(square_add_prim, (2.0, 10.0), order=2, modes=["fwd", "rev"])
    check_grads(lambda a, b: jnp.sum(square_add_prim(a, b) ** 2), (X, Z), order=2, modes=["fwd", "rev"])


# -- building and inspecting jaxprs ----------------------------------------------------------


def test_build_a_jaxpr_directly() -> None:
    f32 = core.ShapedArray((3,), np.dtype(np.float32))
    x, y, z = core.Var(f32), core.Var(f32), core.Var(f32)
    new = core.gensym()
    t, out = new(f32), new(f32)
    sin_p, mul_p = core.primitives.sin_p, core.primitives.mul_p
    eqns = [
        core.new_jaxpr_eqn([x], [t], sin_p, {"accuracy": None}, core.no_effects),
        core.new_jaxpr_eqn([t, y], [out], mul_p, {}, core.no_effects),
    ]
    jaxpr = core.Jaxpr([], [x, y, z], [out], eqns)
    core.check_jaxpr(jaxpr)
    assert core.pp_jaxpr(jaxpr) == (
        "{ lambda ; a:f32[3] b:f32[3] c:f32[3]. let\n    d:f32[3] = sin[accuracy=None] a\n    e:f32[3] = mul d b\n  in (e,) }"
    )
    fun = core.jaxpr_as_fun(core.ClosedJaxpr(jaxpr, []))
    np.testing.assert_allclose(fun(X, Y, Z)[0], np.sin(X) * Y, rtol=1e-6)
    np.testing.assert_allclose(jax.jit(fun)(X, Y, Z)[0], np.sin(X) * Y, rtol=1e-6)
    np.testing.assert_allclose(jax.grad(lambda a: fun(a, Y, Z)[0].sum())(X), np.cos(X) * Y, rtol=1e-5)
    assert core.eval_jaxpr(jaxpr, [], X, Y, Z)[0].shape == (3,)
    with pytest.raises(ValueError, match="new_jaxpr_eqn: 'mul'"):
        core.new_jaxpr_eqn([x, y], [core.Var(core.ShapedArray((2,), np.dtype(np.float32)))], mul_p, {}, core.no_effects)


def test_jaxpr_walks_and_avals() -> None:
    closed = jax.make_jaxpr(lambda x: jax.lax.cond(x.sum() > 0, jnp.sin, jnp.cos, x))(X)
    inner = list(core.subjaxprs(closed.jaxpr))
    assert len(inner) == 2 and all(isinstance(j, core.Jaxpr) for j in inner)
    aval = core.ShapedArray((5, 3), np.dtype(np.float32))
    assert core.mapped_aval(5, 0, aval).shape == (3,)
    assert core.unmapped_aval(4, 1, aval).shape == (5, 4, 3)
    with pytest.raises(ValueError, match="has size 5, not 4"):
        core.mapped_aval(4, 0, aval)
    assert core.valid_jaxtype(X) and not core.valid_jaxtype("x")
    assert core.primal_dtype_to_tangent_dtype(np.dtype(np.int32)) == jax.dtypes.float0
    assert core.concrete_or_error(int, 3) == 3

    def traced(x: Any) -> Any:
        with pytest.raises(jax.errors.ConcretizationTypeError, match="needed here"):
            core.concrete_or_error(int, x, "needed here")
        assert core.unsafe_am_i_under_a_jit_DO_NOT_USE()
        return x

    jax.jit(traced)(1.0)
    assert not core.unsafe_am_i_under_a_jit_DO_NOT_USE()
    seen: list[tuple[bool, list[Any]]] = []

    def in_vmap(x: Any) -> Any:
        seen.append((core.unsafe_am_i_under_a_vmap_DO_NOT_USE(), core.unsafe_get_axis_names_DO_NOT_USE()))
        return x

    jax.vmap(in_vmap, axis_name="i")(X)
    assert seen == [(True, ["i"])]


# -- the JAX-style factories ---------------------------------------------------------------------


def test_defjvp_deflinear_defbilinear_and_batching_factories() -> None:
    cube_p = core.Primitive("test_cube")
    cube_p.def_abstract_eval(lambda x: x)
    mlir.register_lowering(cube_p, mlir.lower_fun(lambda x: x * x * x, multiple_results=False))
    ad.defjvp(cube_p, lambda g, x: g * 3 * x * x)
    batching.defvectorized(cube_p)
    np.testing.assert_allclose(jax.vmap(jax.grad(lambda x: cube_p.bind(x)))(X), 3 * X * X, rtol=1e-6)

    scale_p = core.Primitive("test_scale")
    scale_p.def_abstract_eval(lambda x, *, k: x)
    mlir.register_lowering(scale_p, lambda ctx, x, *, k: [mlir.hlo.MulOp(x, mlir.ir_constant(np.full(ctx.avals_in[0].shape, k, np.float32))).result])
    ad.deflinear(scale_p, lambda ct, *, k: [scale_p.bind(ct, k=k)])
    batching.defvectorized(scale_p)
    np.testing.assert_allclose(jax.grad(lambda x: scale_p.bind(x, k=3.0).sum())(X), np.full(3, 3.0), rtol=1e-6)
    np.testing.assert_allclose(jax.linear_transpose(lambda x: scale_p.bind(x, k=2.0), X)(Y)[0], 2 * Y, rtol=1e-6)

    outer_mul_p = core.Primitive("test_bilinear_mul")
    outer_mul_p.def_abstract_eval(lambda x, y: x)
    mlir.register_lowering(outer_mul_p, lambda ctx, x, y: mlir.hlo.MulOp(x, y).results)
    ad.defbilinear(outer_mul_p, lambda ct, x, y: outer_mul_p.bind(ct, y), lambda ct, x, y: outer_mul_p.bind(x, ct))
    batching.defbroadcasting(outer_mul_p)
    gx, gy = jax.grad(lambda x, y: outer_mul_p.bind(x, y).sum(), argnums=(0, 1))(X, Y)
    np.testing.assert_allclose(gx, Y, rtol=1e-6)
    np.testing.assert_allclose(gy, X, rtol=1e-6)
    np.testing.assert_allclose(jax.vmap(outer_mul_p.bind, in_axes=(0, None))(np.stack([X, Y]), Z), np.stack([X * Z, Y * Z]), rtol=1e-6)

    total_p = core.Primitive("test_total")
    total_p.def_abstract_eval(lambda x, *, axes: core.ShapedArray(tuple(d for i, d in enumerate(x.shape) if i not in axes), x.dtype))
    mlir.register_lowering(total_p, mlir.lower_fun(lambda x, *, axes: jnp.sum(x, axis=axes), multiple_results=False))
    batching.defreducer(total_p)
    m = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    np.testing.assert_array_equal(jax.vmap(lambda x: total_p.bind(x, axes=(1,)), in_axes=1)(m), m.sum(axis=2).T)
    np.testing.assert_array_equal(jax.vmap(lambda x: total_p.bind(x, axes=(0,)), in_axes=2)(m), m.sum(axis=0).T)


def test_effectful_abstract_eval_gives_the_equations_effects() -> None:
    class LogEffect(core.Effect):
        pass

    log_effect = LogEffect()
    logged_p = core.Primitive("test_logged")
    logged_p.def_effectful_abstract_eval(lambda x: (x, {log_effect}))
    closed = jax.make_jaxpr(lambda x: logged_p.bind(x))(X)
    assert closed.eqns[0].effects == {log_effect}
    assert closed.effects == {log_effect}
    assert logged_p.is_effectful({})


# -- bad input: errors name the primitive, the rule and what it got ------------------------------


def test_missing_rules_raise_jaxs_errors() -> None:
    no_abstract = core.Primitive("test_noabs")
    no_abstract.def_impl(lambda x: x)
    assert no_abstract.bind(1.0) == 1.0
    with pytest.raises(NotImplementedError, match="Abstract evaluation for 'test_noabs' not implemented"):
        jax.jit(no_abstract.bind)(1.0)
    no_lowering = core.Primitive("test_nolow")
    no_lowering.def_abstract_eval(lambda x: x)
    with pytest.raises(NotImplementedError, match="MLIR translation rule for primitive 'test_nolow' not found for platform cpu"):
        jax.jit(no_lowering.bind)(1.0)
    with pytest.raises(NotImplementedError, match="Differentiation rule for 'test_nolow' not implemented"):
        jax.grad(no_lowering.bind)(1.0)
    with pytest.raises(NotImplementedError, match="Batching rule for 'test_nolow' not implemented"):
        jax.vmap(no_lowering.bind)(X)
    nothing = core.Primitive("test_nothing")
    with pytest.raises(NotImplementedError, match="Evaluation rule for 'test_nothing' not implemented"):
        nothing.bind(1.0)


def test_wrong_rule_results_raise_naming_the_primitive() -> None:
    bad_abstract = core.Primitive("test_bad_abstract")
    bad_abstract.def_abstract_eval(lambda x: x.shape)
    with pytest.raises(TypeError, match="abstract evaluation rule of primitive 'test_bad_abstract' must return one aval"):
        jax.make_jaxpr(bad_abstract.bind)(X)

    two_values = core.Primitive("test_two_values")
    two_values.def_abstract_eval(lambda x: x)
    mlir.register_lowering(two_values, lambda ctx, x: [x, x])
    with pytest.raises(ValueError, match=r"lowering rule of primitive 'test_two_values' returned 2 values for 1 outputs"):
        jax.jit(two_values.bind)(X)
    wrong_type = core.Primitive("test_wrong_type")
    wrong_type.def_abstract_eval(lambda x: x)
    mlir.register_lowering(wrong_type, lambda ctx, x: [mlir.ir_constant(np.int32(0))])
    with pytest.raises(ValueError, match=r"'test_wrong_type' returned a value of type tensor<i32> for output 0"):
        jax.jit(wrong_type.bind)(X)

    bad_jvp = core.Primitive("test_bad_jvp")
    bad_jvp.def_abstract_eval(lambda x: x)
    mlir.register_lowering(bad_jvp, lambda ctx, x: [x])
    ad.primitive_jvps[bad_jvp] = lambda primals, tangents: (bad_jvp.bind(*primals), jnp.zeros(2))
    with pytest.raises(ValueError, match=r"jvp rule of primitive 'test_bad_jvp' returned a tangent of type f32\[2\] for a primal output of type f32\[3\]"):
        jax.jvp(bad_jvp.bind, (X,), (Y,))

    bad_batch = core.Primitive("test_bad_batch")
    bad_batch.def_abstract_eval(lambda x: x)
    mlir.register_lowering(bad_batch, lambda ctx, x: [x])
    batching.primitive_batchers[bad_batch] = lambda args, dims: (bad_batch.bind(*args), 1)
    with pytest.raises(ValueError, match=r"batching rule of primitive 'test_bad_batch' returned batch dimension 1 for an output of shape \(2, 3\)"):
        jax.vmap(bad_batch.bind)(np.stack([X, Y]))

    with pytest.raises(TypeError, match="keyed by Primitive"):
        ad.primitive_jvps["sin"] = _mul_add_jvp  # type: ignore[index]
    with pytest.raises(ValueError, match="Unknown platform 'gpu2'"):
        mlir.register_lowering(bad_batch, lambda ctx, x: [x], platform="gpu2")


def test_lowering_helpers() -> None:
    with mlir.make_ir_context(), mlir.ir.Location.unknown():
        f32 = core.ShapedArray((2, 3), np.dtype(np.float32))
        assert str(mlir.aval_to_ir_type(f32)) == "tensor<2x3xf32>"
        assert mlir.aval_to_ir_types(None, f32) == (mlir.aval_to_ir_type(f32),)
        assert str(mlir.dtype_to_ir_type(np.dtype(np.int8))) == "i8"
        assert str(mlir.i32_attr(3)) == "3 : i32"
        assert str(mlir.dense_int_array([1, 2])) == "array<i64: 1, 2>"
        assert str(mlir.ir_attribute("a")) == '"a"'
        assert str(mlir.token_type()) == "!stablehlo.token"


def test_public_names_cover_jax_0_12() -> None:
    """Every name of JAX 0.12's modules is here, but those each module's docstring lists."""
    src = textwrap.dedent(
        """
        import json, importlib
        mods = ["jax.extend.core", "jax.extend.core.primitives", "jax.interpreters.ad", "jax.interpreters.batching",
                "jax.interpreters.mlir", "jax.interpreters.partial_eval", "jax.interpreters.xla"]
        print(json.dumps({m: sorted(n for n in dir(importlib.import_module(m)) if not n.startswith("_")) for m in mods}))
        """
    )
    if not JAX_PY.exists():
        pytest.skip("the live oracle .venv-jax is not built")
    import importlib
    import json

    theirs: dict[str, list[str]] = json.loads(_run(JAX_PY, src)[-1])
    for name, names in theirs.items():
        mod = importlib.import_module(name.replace("jax.", "jax_core.", 1))
        doc = mod.__doc__ or ""
        missing = [n for n in names if not hasattr(mod, n) and f"``{n}``" not in doc and n not in ("annotations", "os", "traceback_util")]
        assert not missing, f"{name}: {missing} neither present nor listed as left out"


def test_rules_of_the_wrong_arity_are_named() -> None:
    two_operands = core.Primitive("test_arity")
    two_operands.def_abstract_eval(lambda x, y: x)
    with pytest.raises(TypeError, match=r"abstract evaluation rule of primitive 'test_arity' \(.*\) cannot be called with 3 operands"):
        jax.make_jaxpr(lambda a: two_operands.bind(a, a, a))(X)
    mlir.register_lowering(two_operands, lambda ctx, x: [x])
    with pytest.raises(TypeError, match=r"lowering rule of primitive 'test_arity' \(.*\) cannot be called with 3 operands"):
        jax.jit(two_operands.bind)(X, Y)
    # A TypeError raised inside a rule that does take its arguments is left as it is.
    inner_error = core.Primitive("test_inner_type_error")
    inner_error.def_abstract_eval(lambda x: x.no_such_method())
    with pytest.raises(AttributeError):
        jax.make_jaxpr(inner_error.bind)(X)
    bad_math = core.Primitive("test_bad_math")
    bad_math.def_abstract_eval(lambda x: x + "s")
    with pytest.raises(TypeError, match="unsupported operand"):
        jax.make_jaxpr(bad_math.bind)(X)
