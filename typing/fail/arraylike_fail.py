"""ArrayLike rejects lists, tuples, strings and None, as JAX does."""

import jax_core.numpy as jnp
from jax_core.typing import ArrayLike, ShapeLike

a = jnp.sin([1.0, 2.0])  # E: list[float]
b = jnp.sum((1, 2, 3))  # E: tuple[
c = jnp.exp("1.0")  # E[mypy]: "str"  # E[pyright]: Literal['1.0']  # E[pyrefly]: [bad-argument-type]  # E[ty]: [invalid-argument-type]
d = jnp.abs(None)  # E: None
e = jnp.zeros("3")  # E[mypy]: "str"  # E[pyright]: Literal['3']  # E[pyrefly]: [bad-argument-type]  # E[ty]: [invalid-argument-type]
f = jnp.ones((2, 3.0))  # E: float


def takes(x: ArrayLike, shape: ShapeLike) -> None: ...


takes([1, 2], 3)  # E: list[int]
takes(1.0, (2.5,))  # E: float
takes(1.0, None)  # E: None
