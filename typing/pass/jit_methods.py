"""jit on methods, in the two spellings JAX code uses: ``Jitted.__get__`` binds ``self``.

Under mypy the ``partial(jit, ...)`` spelling gives ``Jitted[..., Any]`` (mypy's partial
support gives up on overloaded functions), which binds to a method taking anything; see
typing/reveal/transforms_reveal.py.
"""

from functools import partial

import jax_core.numpy as jnp
from jax_core import Array, jit, tree_util


@tree_util.register_pytree_node_class
class Dense:
    """A pytree: its arrays are traced when a jitted method receives ``self``."""

    def __init__(self, w: Array) -> None:
        self.w = w

    def tree_flatten(self) -> tuple[tuple[Array], None]:
        return (self.w,), None

    @classmethod
    def tree_unflatten(cls, aux: None, children: tuple[Array]) -> "Dense":
        return cls(*children)

    @jit
    def apply(self, x: Array) -> Array:
        return x * self.w

    def loss(self, x: Array) -> Array:
        return jnp.sum(self.apply(x))


class Scaler:
    """Hashable: ``self`` is a static argument."""

    def __init__(self, scale: float) -> None:
        self.scale = scale

    def __hash__(self) -> int:
        return hash(self.scale)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Scaler) and other.scale == self.scale

    @partial(jit, static_argnums=0)
    def apply(self, x: Array) -> Array:
        return x * self.scale


x = jnp.ones(3)
dense = Dense(jnp.full(3, 2.0))
y = float(jnp.sum(dense.apply(x)))
unbound: Array = Dense.apply(dense, x)  # an unbound call passes self explicitly: typed right
z = float(jnp.sum(Scaler(3.0).apply(x)))
assert float(dense.loss(x)) == 6.0 and y == 6.0 and float(jnp.sum(unbound)) == 6.0
assert z == 9.0
