"""Defining a primitive with ``jax_core.extend`` as JAX's documentation does, typed: the rules
type-check as written, and the primitive is usable under every transformation."""

from collections.abc import Sequence
from typing import Any

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core.extend import core
from jax_core.extend.interpreters import mlir
from jax_core.interpreters import ad, batching

mul_add_p = core.Primitive("mul_add_usage")


@mul_add_p.def_impl
def mul_add_impl(x: Any, y: Any, z: Any) -> Any:
    return x * y + z



@mul_add_p.def_abstract_eval
def mul_add_abstract(x_sa: core.ShapedArray, y_sa: core.ShapedArray, z_sa: core.ShapedArray) -> core.ShapedArray:
    return core.ShapedArray(x_sa.shape, x_sa.dtype)


def mul_add_mlir(ctx: mlir.LoweringRuleContext, xc: mlir.Value, yc: mlir.Value, zc: mlir.Value) -> Sequence[mlir.Value]:
    add = mlir.hlo.AddOp
    mul = mlir.hlo.MulOp
    results: Sequence[mlir.Value] = add(mul(xc, yc), zc).results
    return results


mlir.register_lowering(mul_add_p, mul_add_mlir)


def mul_add_jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
    x, y, z = primals
    xt, yt, zt = (ad.instantiate_zeros(t) for t in tangents)
    return mul_add_p.bind(x, y, z), mul_add_p.bind(xt, y, mul_add_p.bind(x, yt, zt))


def mul_add_transpose(ct: Any, x: Any, y: Any, z: Any) -> list[Any]:
    if ad.is_undefined_primal(x):
        return [ct * y, None, ct]
    return [None, ct * x, ct]


def mul_add_batch(args: Sequence[Any], dims: Sequence[int | None]) -> tuple[Any, int]:
    size = next(np.shape(a)[d] for a, d in zip(args, dims) if d is not None)
    return mul_add_p.bind(*(batching.bdim_at_front(a, d, size) for a, d in zip(args, dims))), 0


ad.primitive_jvps[mul_add_p] = mul_add_jvp
ad.primitive_transposes[mul_add_p] = mul_add_transpose
batching.primitive_batchers[mul_add_p] = mul_add_batch
mlir.register_lowering(mul_add_p, mlir.lower_fun(mul_add_impl, multiple_results=False), platform="cuda")

scale_p = core.Primitive("scale_usage")


@scale_p.def_abstract_eval
def scale_abstract(x: core.ShapedArray, *, k: float) -> core.ShapedArray:
    return x


def scale(x: Any, *, k: float) -> Any:
    return x * k


def scale_transpose(ct: Any, *, k: float) -> list[Any]:
    return [scale_p.bind(ct, k=k)]


mlir.register_lowering(scale_p, mlir.lower_fun(scale, multiple_results=False))
ad.deflinear(scale_p, scale_transpose)
batching.defvectorized(scale_p)


def total_of_mul_add(a: jax.Array) -> jax.Array:
    return jnp.sum(mul_add_p.bind(a, a, a))


def total_of_scale(a: jax.Array) -> jax.Array:
    return jnp.sum(scale_p.bind(a, k=2.0))


x = jnp.arange(3.0)
print(mul_add_p.bind(2, 3, 4))
print(jax.jit(mul_add_p.bind)(2, 3, 4))
print(jax.grad(total_of_mul_add)(x))
print(jax.vmap(mul_add_p.bind)(x, x, x))
print(jax.grad(total_of_scale)(x))
closed: core.ClosedJaxpr = jax.make_jaxpr(mul_add_p.bind)(x, x, x)
eqn: core.JaxprEqn = closed.jaxpr.eqns[0]
print(eqn.primitive.name, core.jaxpr_as_fun(closed)(x, x, x)[0])
