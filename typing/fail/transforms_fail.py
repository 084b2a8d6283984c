"""vmap, checkpoint, custom_jvp/custom_vjp, jvp/vjp/linearize and Jacobians check their uses."""

from functools import partial

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, checkpoint, custom_jvp, custom_vjp, jit, vmap


def f(x: Array, n: int) -> Array:
    return x * n


def f1(x: Array) -> Array:
    return jnp.sin(x)


def f2(x: Array, y: Array) -> Array:
    return x * y


def f_aux(x: Array) -> tuple[Array, str]:
    return x, "aux"


x = jnp.ones(3)
xs = jnp.ones((4, 3))

# vmap and checkpoint keep the parameters and the result
vmap(f, in_axes=(0, None))(xs, "2")  # E: "int"
vmap(f)(xs)  # E[mypy,pyright]: "n"  # E[pyrefly,ty]: [missing-argument]
jax.pmap(f, static_broadcasted_argnums=1)(xs, "2")  # E: "int"
s: str = vmap(f1)(xs)  # E: "str"
checkpoint(f)(x, 2.5)  # E: "int"
jax.remat(f1)(x, x)  # E[mypy]: Too many arguments  # E[pyright]: Expected 1 positional  # E[pyrefly]: [bad-argument-count]  # E[ty]: [too-many-positional-arguments]
t: tuple[Array, Array] = checkpoint(f1)(x)  # E: tuple
checkpoint(f1, policy="dots")  # E[mypy,pyright,pyrefly]: "policy"  # E[ty]: [invalid-argument-type]
vmap(f1, axis_size="4")  # E[mypy,pyright,pyrefly]: "axis_size"  # E[ty]: [invalid-argument-type]


@custom_jvp
def softplus(x: Array) -> Array:
    return jnp.log1p(jnp.exp(x))


@softplus.defjvp
def softplus_jvp(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    return softplus(primals[0]), tangents[0]


softplus(x, x)  # E[mypy]: Too many arguments  # E[pyright]: Expected 1 positional  # E[pyrefly]: [bad-argument-count]  # E[ty]: [too-many-positional-arguments]
softplus("x")  # E[mypy]: "str"  # E[pyright]: "Literal['x']"  # E[pyrefly]: [bad-argument-type]  # E[ty]: [invalid-argument-type]
u: str = softplus(x)  # E: "str"


@softplus.defjvp  # E[mypy]: Argument 1 to "defjvp"  # E[pyright]: "jvp"  # E[pyrefly]: [bad-argument-type]  # E[ty]: [invalid-argument-type]
def wrong_rule(primals: tuple[Array], tangents: tuple[Array]) -> tuple[str, Array]:
    return "primal out", tangents[0]


@custom_vjp
def scale(x: Array, k: float) -> Array:
    return x * k


def scale_fwd(x: Array, k: float) -> tuple[Array, float]:
    return x * k, k


def scale_bwd(k: float, g: Array) -> tuple[Array, None]:
    return g * k, None


def bwd_wrong_residuals(k: str, g: Array) -> tuple[Array, None]:
    return g, None


def bwd_not_tuple(k: float, g: Array) -> Array:
    return g


scale.defvjp(scale_fwd, scale_bwd)
scale(x, "2")  # E: "float"
scale.defvjp(scale_fwd, bwd_wrong_residuals)  # E[mypy,pyright]: "defvjp"  # E[pyrefly,ty]: [no-matching-overload]
scale.defvjp(scale_fwd, bwd_not_tuple)  # E[mypy,pyright]: "defvjp"  # E[pyrefly,ty]: [no-matching-overload]

# jvp: primals and tangents match the parameters, in number and type
jax.jvp(f2, (x,), (x,))  # E[mypy]: Argument 1 to "jvp"  # E[pyright]: No overloads  # E[pyrefly,ty]: [no-matching-overload]
jax.jvp(f1, (x,), (x, x))  # E[mypy]: Argument 3 to "jvp"  # E[pyright]: No overloads  # E[pyrefly,ty]: [no-matching-overload]
jax.jvp(f, (x, "2"), (x, 2))  # E[mypy]: Argument 2 to "jvp"  # E[pyright]: No overloads  # E[pyrefly,ty]: [no-matching-overload]
jax.jvp(f_aux, (x,), (x,), has_aux=True)[2] + 1  # E: "str"
y, y_dot, aux = jax.jvp(f1, (x,), (x,))  # E[mypy]: 3 expected  # E[pyright]: Expression with type  # E[pyrefly]: [bad-unpacking]  # E[ty]: [invalid-assignment]

# vjp: one primal per parameter; the pullback takes an output cotangent
jax.vjp(f2, x)  # E[mypy,pyright,ty]: "vjp"  # E[pyrefly]: [bad-argument-type]
jax.vjp(f1, "x")  # E[mypy,pyright,ty]: "vjp"  # E[pyrefly]: [bad-argument-type]
out, pullback = jax.vjp(f1, x)
pullback(x, x)  # E[mypy]: Too many arguments  # E[pyright]: Expected 1 positional  # E[pyrefly]: [bad-argument-count]  # E[ty]: [too-many-positional-arguments]
ct, ct2 = pullback(x)  # E[mypy]: 2 expected  # E[pyright]: Expression with type  # E[pyrefly]: [bad-unpacking]  # E[ty]: [invalid-assignment]
jax.vjp(f1, x, has_aux=True)  # E[mypy]: No overload variant  # E[pyright]: No overloads  # E[pyrefly,ty]: [no-matching-overload]

# linearize: the linear map takes tangents like the primals
_, f_jvp = jax.linearize(f2, x, x)
f_jvp(x)  # E[mypy]: Too few arguments  # E[pyright]: more positional  # E[pyrefly]: [bad-argument-count]  # E[ty]: [missing-argument]

# Jacobians keep the parameters
jax.jacfwd(f2)(x)  # E: "y"
jax.jacrev(f2, argnums=1)(x, "y")  # E[mypy]: "str"  # E[pyright]: "Literal['y']"  # E[pyrefly]: [bad-argument-type]  # E[ty]: [invalid-argument-type]
h: str = jax.jacrev(f1)(x)  # E: "str"
jax.hessian(f1)(x, x)  # E[mypy]: Too many arguments  # E[pyright]: Expected 1 positional  # E[pyrefly]: [bad-argument-count]  # E[ty]: [too-many-positional-arguments]


# jitted methods bind self: the remaining parameters are checked
class Model:
    @jit
    def apply(self, x: Array) -> Array:
        return x * 2

    @partial(checkpoint, static_argnums=(0,))
    def remat_apply(self, x: Array) -> Array:
        return x * 2


m = Model()
m.apply(x, x)  # E[mypy]: Too many arguments  # E[pyright]: Expected 1 positional  # E[pyrefly]: [bad-argument-count]  # E[ty]: [too-many-positional-arguments]
m.apply("x")  # E[mypy]: "str"  # E[pyright]: "Literal['x']"  # E[pyrefly]: [bad-argument-type]  # E[ty]: [invalid-argument-type]
w: str = m.apply(x)  # E: "str"
Model.apply(x)  # E[mypy]: "Model"  # E[pyright]: "x"  # E[pyrefly,ty]: [missing-argument]
m.remat_apply("x")  # E[mypy]: "str"  # E[pyright]: "Literal['x']"  # E[ty]: [invalid-argument-type]
