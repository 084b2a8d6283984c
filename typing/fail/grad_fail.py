"""grad and value_and_grad check the function, the arguments and the use of the result."""

import jax_core.numpy as jnp
from jax_core import Array, grad, value_and_grad

Params = dict[str, Array]


def loss(w: Array, x: Array) -> Array:
    return jnp.sum((x * w) ** 2)


def loss_params(params: Params, x: Array) -> Array:
    return jnp.sum(params["w"] * x)


def loss_aux(w: Array, x: Array) -> tuple[Array, dict[str, Array]]:
    return jnp.sum(w * x), {"pred": w * x}


def name(w: Array) -> str:
    return "not differentiable"


w = jnp.ones(3)
x = jnp.ones(3)
p: Params = {"w": w}

# wrong arguments to the differentiated function
grad(loss)(w, "x")  # E[mypy]: "str"  # E[pyright]: "Literal['x']"  # E[pyrefly]: [bad-argument-type]  # E[ty]: [invalid-argument-type]
grad(loss)(w)  # E: "x"
grad(loss)(w, x, x)  # E[mypy]: Too many arguments  # E[pyright]: Expected 2 positional  # E[pyrefly]: [bad-argument-count]  # E[ty]: [too-many-positional-arguments]
grad(loss_params)(w, x)  # E[mypy]: "dict[str, Array]"  # E[pyright]: "Params"  # E[pyrefly]: [bad-argument-type]  # E[ty]: [invalid-argument-type]
value_and_grad(loss)(w, y=x)  # E: "y"

# the gradient has the parameter's type
g_w: Params = grad(loss)(w, x)  # E[mypy]: "dict[str, Array]"  # E[pyright]: "Params"  # E[pyrefly]: [bad-assignment]  # E[ty]: [invalid-assignment]
g_p: Array = grad(loss_params)(p, x)  # E[mypy]: "dict[str, Array]"  # E[pyright]: "Params"  # E[pyrefly]: [bad-assignment]  # E[ty]: [invalid-assignment]
ga, gb, gc = grad(loss, argnums=(0, 1))(w, x)  # E[mypy]: 3 expected  # E[pyright]: Expression with type  # E[pyrefly]: [bad-unpacking]  # E[ty]: [invalid-assignment]
s: str = grad(loss, argnums=1)(w, x)  # E: "str"

# has_aux: a function returning a pair needs has_aux=True, and with it returns a pair
grad(loss_aux)(w, x)  # E[mypy]: Argument 1 to "grad"  # E[pyright]: "fun"  # E[pyrefly]: [bad-argument-type]  # E[ty]: [invalid-argument-type]
value_and_grad(loss_aux)(w, x)  # E[mypy]: Argument 1 to "value_and_grad"  # E[pyright]: "fun"  # E[pyrefly]: [bad-argument-type]  # E[ty]: [invalid-argument-type]
grad(loss, has_aux=True)  # E[mypy]: No overload variant  # E[pyright]: "has_aux"  # E[pyrefly,ty]: [no-matching-overload]
aux_wrong: str = grad(loss_aux, has_aux=True)(w, x)[1]  # E: "str"
val: dict[str, Array] = value_and_grad(loss_aux, has_aux=True)(w, x)[0][0]  # E: dict[str, Array]

# the function must return an array-like; argnums and has_aux are checked
grad(name)  # E[mypy]: Argument 1 to "grad"  # E[pyright]: "fun"  # E[pyrefly]: [bad-argument-type]  # E[ty]: [invalid-argument-type]
grad(loss, argnums="w")  # E[mypy,pyright]: "argnums"  # E[pyrefly,ty]: [no-matching-overload]
grad(loss, has_aux="yes")  # E[mypy]: No overload variant  # E[pyright]: "has_aux"  # E[pyrefly,ty]: [no-matching-overload]


def configured(flag: bool) -> None:
    # has_aux must be a literal (as for JAX's vjp): a bool matches no overload.
    grad(loss_aux, has_aux=flag)  # E[mypy]: No overload variant  # E[pyright]: "has_aux"  # E[pyrefly,ty]: [no-matching-overload]
