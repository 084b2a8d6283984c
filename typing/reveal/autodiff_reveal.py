"""jvp, vjp, linearize, linear_transpose, jacfwd, jacrev, hessian and eval_shape."""

from collections.abc import Callable
from typing import Any, assert_type

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, ShapeDtypeStruct

Params = dict[str, Array]


def f(x: Array) -> Array:
    return jnp.sin(x) * 2.0


def f2(x: Array, y: Array) -> Array:
    return x * y


def f_aux(x: Array) -> tuple[Array, str]:
    return jnp.sin(x), "aux"


def f_aux_array(x: Array) -> tuple[Array, Array]:
    return jnp.sin(x), x * 2


def f_params(p: Params, x: Array) -> Array:
    return jnp.sum(p["w"] * x)


def f_vec(x: Array) -> Array:
    return jnp.sum(x**2)


def pair_out(x: Array) -> tuple[Array, Array]:
    return x, 2 * x


def list_out(x: Array) -> list[Array]:
    return [x, x]


def dict_out(x: Array) -> dict[str, Array]:
    return {"a": x}


def triple_out(x: Array) -> tuple[Array, Array, Array]:
    return x, x, x


def mixed_out(x: Array) -> tuple[Array, int]:
    return x, 1


x = jnp.arange(3.0)
t = jnp.ones(3)
p: Params = {"w": jnp.ones(3)}

# jvp: (primal out, tangent out), both typed as the function's result
assert_type(jax.jvp(f, (x,), (t,)), tuple[Array, Array])
assert_type(jax.jvp(f2, (x, x), (t, t)), tuple[Array, Array])
assert_type(jax.jvp(f_aux, (x,), (t,), has_aux=True), tuple[Array, Array, str])
assert_type(jax.jvp(pair_out, (x,), (t,)), tuple[tuple[Array, Array], tuple[Array, Array]])
assert_type(jax.jvp(f, [x], [t]), tuple[Array, Array])  # lists are accepted (not checked)
y, y_dot = jax.jvp(f, (x,), (t,))
assert_type(y_dot, Array)

# vjp: (primal out, pullback); the pullback takes an output cotangent, returns a tuple
y2, f_vjp = jax.vjp(f, x)
assert_type(y2, Array)
assert_type(f_vjp, Callable[[Array], tuple[Array]])
assert_type(f_vjp(jnp.ones(3)), tuple[Array])
assert_type(jax.vjp(f2, x, x)[1](t), tuple[Array, Array])
assert_type(jax.vjp(f_params, p, x)[1](jnp.ones(())), tuple[Params, Array])
assert_type(jax.vjp(f_aux, x, has_aux=True), tuple[Array, Callable[[Array], tuple[Array]], str])
(x_ct,) = f_vjp(jnp.ones(3))
assert_type(x_ct, Array)

# linearize: (primal out, the linear map of tangents)
y3, f_jvp = jax.linearize(f, x)
assert_type(y3, Array)
assert_type(f_jvp, Callable[[Array], Array])
assert_type(f_jvp(t), Array)
assert_type(jax.linearize(f2, x, x)[1](t, t), Array)
assert_type(jax.linearize(f_aux, x, has_aux=True)[2], str)

# linear_transpose: output cotangent -> tuple of input cotangents
f_t = jax.linear_transpose(lambda v: 2.0 * v, x)
assert_type(f_t(t), tuple[Array])  # the primal gives the lambda its type
assert_type(jax.linear_transpose(f2, x, x), Callable[[Array], tuple[Array, Array]])

# Jacobians of a function returning one Array are structured like the parameter.
assert_type(jax.jacfwd(f)(x), Array)
assert_type(jax.jacrev(f)(x), Array)
assert_type(jax.jacobian(f)(x), Array)
assert_type(jax.jacfwd(f2, argnums=1)(x, x), Array)
assert_type(jax.jacrev(f2, argnums=(0, 1))(x, x), tuple[Array, Array])
assert_type(jax.jacrev(f_params)(p, x), Params)
assert_type(jax.jacfwd(f_aux_array, has_aux=True)(x), tuple[Array, Array])
assert_type(jax.jacfwd(pair_out)(x), Any)  # a tuple output: a tuple of Jacobians
assert_type(jax.hessian(f_vec)(x), Any)  # the parameter's structure nested in itself
assert_type(jax.jacfwd(jax.jacrev(f_vec))(x), Array)

# eval_shape: the output with ShapeDtypeStructs for arrays
assert_type(jax.eval_shape(f, x), ShapeDtypeStruct)
assert_type(jax.eval_shape(f, ShapeDtypeStruct((3,), jnp.float32)), ShapeDtypeStruct)
assert_type(jax.eval_shape(pair_out, x), tuple[ShapeDtypeStruct, ShapeDtypeStruct])
assert_type(jax.eval_shape(list_out, x), list[ShapeDtypeStruct])
assert_type(jax.eval_shape(dict_out, x), dict[str, ShapeDtypeStruct])
assert_type(jax.eval_shape(triple_out, x), tuple[ShapeDtypeStruct, ...])
assert_type(jax.eval_shape(mixed_out, x), Any)
assert_type(jax.jit(f).eval_shape(x), ShapeDtypeStruct)
assert_type(jax.jit(pair_out).eval_shape(x), tuple[ShapeDtypeStruct, ShapeDtypeStruct])
assert_type(jax.jit(mixed_out).eval_shape(x), Any)
