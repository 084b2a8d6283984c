"""grad and value_and_grad: the gradient has the type of the differentiated parameter(s)."""

from collections.abc import Callable
from typing import Any, assert_type

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, grad, jit, value_and_grad

Params = dict[str, Array]


def loss(w: Array, x: Array) -> Array:
    return jnp.sum((x * w) ** 2)


def loss_params(params: Params, x: Array) -> Array:
    return jnp.sum((x * params["w"] + params["b"]) ** 2)


def loss_aux(w: Array, x: Array) -> tuple[Array, dict[str, Array]]:
    y = x * w
    return jnp.sum(y**2), {"pred": y}


def loss_scalar(a: float, w: Array) -> Array:
    return a * jnp.sum(w)


def six(a: Array, b: Params, c: Array, d: tuple[Array, Array], e: Array, f: Array) -> Array:
    return jnp.sum(a * b["w"] * c * d[0] * d[1] * e * f)


def six_aux(a: Array, b: Params, c: Array, d: tuple[Array, Array], e: Array, f: Array) -> tuple[Array, str]:
    return six(a, b, c, d, e, f), "aux"


w = jnp.ones(3)
x = jnp.arange(3.0)
p: Params = {"w": w, "b": jnp.zeros(3)}
pair = (w, x)

# argnums=0 by default: the type of the first parameter
assert_type(grad(loss)(w, x), Array)
assert_type(grad(loss_params)(p, x), Params)
assert_type(grad(loss, 0)(w, x), Array)
assert_type(grad(loss, argnums=1)(w, x), Array)
assert_type(grad(loss_params, argnums=1)(p, x), Array)

# Known gap: a float parameter's gradient is typed float, but is a 0-d Array at run time.
assert_type(grad(loss_scalar)(2.0, w), Array)  # E: float
assert_type(grad(loss_scalar, argnums=1)(2.0, w), Array)

# argnums 0..5 and tuples of them
assert_type(grad(six, argnums=1)(w, p, w, pair, w, w), Params)
assert_type(grad(six, argnums=2)(w, p, w, pair, w, w), Array)
assert_type(grad(six, argnums=3)(w, p, w, pair, w, w), tuple[Array, Array])
assert_type(grad(six, argnums=4)(w, p, w, pair, w, w), Array)
assert_type(grad(six, argnums=5)(w, p, w, pair, w, w), Array)
assert_type(grad(six, argnums=(0,))(w, p, w, pair, w, w), tuple[Array])
assert_type(grad(six, argnums=(0, 1))(w, p, w, pair, w, w), tuple[Array, Params])
assert_type(grad(six, argnums=(1, 3))(w, p, w, pair, w, w), tuple[Params, tuple[Array, Array]])
assert_type(grad(six, argnums=(0, 2, 4))(w, p, w, pair, w, w), tuple[Array, Array, Array])
assert_type(grad(six, argnums=(3, 5))(w, p, w, pair, w, w), tuple[tuple[Array, Array], Array])
assert_type(grad(six, argnums=(1, 4, 5))(w, p, w, pair, w, w), tuple[Params, Array, Array])
assert_type(grad(loss, (0, 1))(w, x), tuple[Array, Array])

# has_aux=True: (gradient, aux)
assert_type(grad(loss_aux, has_aux=True)(w, x), tuple[Array, dict[str, Array]])
assert_type(grad(loss_aux, 0, True)(w, x), tuple[Array, dict[str, Array]])
assert_type(grad(loss_aux, argnums=1, has_aux=True)(w, x), tuple[Array, dict[str, Array]])
assert_type(grad(loss_aux, argnums=(0, 1), has_aux=True)(w, x), tuple[tuple[Array, Array], dict[str, Array]])
assert_type(grad(six_aux, argnums=(1, 3), has_aux=True)(w, p, w, pair, w, w), tuple[tuple[Params, tuple[Array, Array]], str])
g, aux = grad(loss_aux, has_aux=True)(w, x)
assert_type(g, Array)
assert_type(aux["pred"], Array)

# value_and_grad: (value, gradient), with aux ((value, aux), gradient)
assert_type(value_and_grad(loss)(w, x), tuple[Array, Array])
assert_type(value_and_grad(loss_params)(p, x), tuple[Array, Params])
assert_type(value_and_grad(loss, argnums=(0, 1))(w, x), tuple[Array, tuple[Array, Array]])
assert_type(value_and_grad(loss_aux, has_aux=True)(w, x), tuple[tuple[Array, dict[str, Array]], Array])
assert_type(value_and_grad(loss_aux, argnums=1, has_aux=True)(w, x), tuple[tuple[Array, dict[str, Array]], Array])
assert_type(value_and_grad(six, argnums=(2, 4))(w, p, w, pair, w, w), tuple[Array, tuple[Array, Array]])
assert_type(value_and_grad(loss_scalar, argnums=1)(2.0, w), tuple[Array, Array])
(value, (pred_aux)), grads = value_and_grad(loss_aux, has_aux=True)(w, x)
assert_type(value, Array)
assert_type(pred_aux, dict[str, Array])
assert_type(grads, Array)

# The parameters after the differentiated ones keep their names; the result is a callable.
assert_type(grad(loss)(w, x=x), Array)
as_callable: Callable[[Array, Array], Array] = grad(loss)
assert_type(as_callable(w, x), Array)


# Known gaps: not covered by the overloads (argnums not a literal, tuples not increasing or
# longer than three), the parameters are kept and the gradient is Any; lambdas have Any
# parameters, so their gradients are Any.
def dynamic_argnums(n: int) -> None:
    assert_type(grad(loss, n)(w, x), Array)  # E: Any
    assert_type(value_and_grad(loss, n)(w, x), tuple[Array, Array])  # E: Any


dynamic_argnums(0)
assert_type(grad(loss, (1, 0))(w, x), tuple[Array, Array])  # E: Any
assert_type(grad(six, argnums=(0, 1, 2, 3))(w, p, w, pair, w, w), tuple[Array, Params, Array, tuple[Array, Array]])  # E: Any
assert_type(grad(lambda v: jnp.sum(v**3))(w), Array)  # E[mypy,pyright]: Any  # E[pyrefly,ty]: Unknown
assert_type(grad(lambda p_: loss_params(p_, x))(p), Params)  # E[mypy,pyright]: Any  # E[pyrefly,ty]: Unknown
assert_type(value_and_grad(lambda v: jnp.sum(v**2))(w), tuple[Array, Any])  # E[pyrefly]: implicit-any-lambda

# Composition with jit and the other transformations
assert_type(jit(grad(loss))(w, x), Array)
assert_type(grad(jit(loss))(w, x), Array)
assert_type(jit(value_and_grad(loss_aux, has_aux=True))(w, x), tuple[tuple[Array, dict[str, Array]], Array])
assert_type(jax.vmap(grad(loss), in_axes=(None, 0))(w, jnp.ones((2, 3))), Array)
assert_type(grad(lambda s: jnp.sin(s))(1.0), Array)  # E[mypy,pyright]: Any  # E[pyrefly,ty]: Unknown
