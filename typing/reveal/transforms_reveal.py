"""vmap, checkpoint/remat, custom_jvp/custom_vjp and jitted methods keep signatures."""

from collections.abc import Callable
from functools import partial
from typing import Any, assert_type

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, checkpoint, custom_jvp, custom_vjp, jit, remat, vmap
from jax_core.ad_checkpoint import checkpoint_name


def f(x: Array, n: int) -> Array:
    return x * n


def g(x: Array, y: Array) -> tuple[Array, Array]:
    return x + y, x - y


xs = jnp.ones((4, 3))
x = jnp.ones(3)

# vmap: Callable[P, R] -> Callable[P, R]
assert_type(vmap(f, in_axes=(0, None))(xs, 2), Array)
assert_type(vmap(g)(xs, xs), tuple[Array, Array])
assert_type(vmap(vmap(g))(jnp.ones((2, 4, 3)), jnp.ones((2, 4, 3))), tuple[Array, Array])
assert_type(vmap(f, in_axes=(0, None), out_axes=0, axis_name="batch")(xs, 2), Array)
vf: Callable[[Array, int], Array] = vmap(f, (0, None))
assert_type(jit(vmap(f, (0, None)))(xs, 2), Array)
assert_type(vmap(jit(f), (0, None))(xs, 2), Array)

# pmap: typed as jit (a Jitted of the same parameters)
assert_type(jax.pmap(f, static_broadcasted_argnums=1)(jnp.ones((1, 3)), 2), Array)
assert_type(jax.pmap(g, axis_name="i")(jnp.ones((1, 3)), jnp.ones((1, 3))), tuple[Array, Array])
assert_type(partial(jax.pmap, axis_name="i")(g)(jnp.ones((1, 3)), jnp.ones((1, 3))), tuple[Array, Array])  # E[pyrefly]: Unknown


def dot_loss(w: Array, v: Array) -> Array:
    return jnp.sum(w * v)


assert_type(vmap(jax.grad(dot_loss), in_axes=(None, 0))(x, xs), Array)  # per-example gradients


@vmap
def row_norm(r: Array) -> Array:
    return jnp.sqrt(jnp.sum(r**2))


assert_type(row_norm(xs), Array)


def rank(r: Array) -> int:
    return 1


# Known gap: vmap keeps the return type, but a Python scalar output comes back as an Array.
assert_type(vmap(rank)(xs), Array)  # E: int

# checkpoint / remat keep the signature, with any policy
assert_type(checkpoint(f)(x, 2), Array)
assert_type(remat(g)(x, x), tuple[Array, Array])
assert_type(checkpoint(f, policy=jax.checkpoint_policies.checkpoint_dots)(x, 2), Array)
assert_type(checkpoint(f, static_argnums=(1,), prevent_cse=False)(x, 2), Array)


@checkpoint
def block(x: Array) -> Array:
    return jnp.sin(checkpoint_name(x * 2, "pre"))


@partial(checkpoint, policy=jax.checkpoint_policies.save_only_these_names("pre"))
def block2(x: Array) -> Array:
    return jnp.sin(x)


assert_type(block(x), Array)
assert_type(block2(x), Array)  # E[pyrefly]: Unknown
assert_type(jax.grad(lambda v: jnp.sum(block(v)))(x), Any)  # E[pyrefly]: implicit-any-lambda


# custom_jvp: calls are checked against the function; defjvp keeps the rule's signature
@custom_jvp
def softplus(x: Array) -> Array:
    return jnp.log1p(jnp.exp(x))


@softplus.defjvp
def softplus_jvp(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (x_,) = primals
    (t_,) = tangents
    return softplus(x_), t_ / (1.0 + jnp.exp(-x_))


sp: custom_jvp[[Array], Array] = softplus  # E[pyrefly,ty]: not assignable
assert_type(softplus(x), Array)
rule: Callable[[tuple[Array], tuple[Array]], tuple[Array, Array]] = softplus_jvp
assert_type(softplus_jvp((x,), (x,)), tuple[Array, Array])
assert_type(jax.grad(lambda v: jnp.sum(softplus(v)))(x), Any)  # E[pyrefly]: implicit-any-lambda
assert_type(jax.grad(softplus)(jnp.ones(())), Array)


# custom_vjp: fwd has the function's parameters and returns (out, residuals); bwd takes
# (residuals, out_cotangent), after the nondiff_argnums if there are any
@custom_vjp
def scale(x: Array, k: Array) -> Array:
    return x * k


def scale_fwd(x: Array, k: Array) -> tuple[Array, tuple[Array, Array]]:
    return x * k, (x, k)


def scale_bwd(res: tuple[Array, Array], g_: Array) -> tuple[Array, Array]:
    x_, k_ = res
    return g_ * k_, jnp.sum(g_ * x_)


scale.defvjp(scale_fwd, scale_bwd)
sc: custom_vjp[[Array, Array], Array] = scale  # E[pyrefly,ty]: not assignable
assert_type(scale(x, jnp.ones(())), Array)
assert_type(jax.grad(scale, argnums=(0, 1))(jnp.ones(()), jnp.ones(())), tuple[Array, Array])


def _clip_gradient(lo: float, hi: float, x: Array) -> Array:
    return x


def clip_fwd(lo: float, hi: float, x: Array) -> tuple[Array, None]:
    return x, None


def clip_bwd(lo: float, hi: float, res: None, g_: Array) -> tuple[Array]:
    return (jnp.minimum(jnp.maximum(g_, lo), hi),)


# custom_vjp(f, nondiff_argnums=...) keeps the types in both checkers ...
clip_gradient = custom_vjp(_clip_gradient, nondiff_argnums=(0, 1))
clip_gradient.defvjp(clip_fwd, clip_bwd)
assert_type(clip_gradient(-1.0, 1.0, x), Array)
assert_type(jax.grad(lambda v: jnp.sum(clip_gradient(-0.1, 0.1, v)))(x), Any)  # E[pyrefly]: implicit-any-lambda


# ... the decorator spelling through partial loses them under pyright (known gap: pyright does
# not solve a generic class's type parameters through functools.partial).
@partial(custom_vjp, nondiff_argnums=(0, 1))  # E[ty]: Decorator returns `Unknown`
def clip_gradient2(lo: float, hi: float, x: Array) -> Array:
    return x


clip_gradient2.defvjp(clip_fwd, clip_bwd)  # E[pyright]: partially unknown
assert_type(clip_gradient2(-1.0, 1.0, x), Array)  # E[pyright,pyrefly,ty]: Unknown


# jit on methods binds self
class Model:
    def __init__(self, scale: float) -> None:
        self.scale = scale

    def __hash__(self) -> int:
        return hash(self.scale)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Model) and other.scale == self.scale

    @partial(jit, static_argnums=0)
    def apply(self, x: Array) -> Array:
        return x * self.scale

    @partial(checkpoint, static_argnums=(0,))
    def remat_apply(self, x: Array) -> Array:
        return x * self.scale


m = Model(2.0)
assert_type(m.apply(x), Array)  # E[mypy]: Any  # E[pyrefly]: Unknown
assert_type(Model.apply(m, x), Array)  # E[mypy]: Any  # E[pyrefly]: Unknown
assert_type(m.remat_apply(x), Array)  # E[pyrefly]: Unknown
