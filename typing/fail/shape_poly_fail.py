"""Shape-polymorphism APIs with wrong argument types."""

from jax_core import export

export.symbolic_shape(3)  # E:
export.symbolic_shape("b", scope="global")  # E:
export.SymbolicScope(3)  # E:
bounds: tuple[int, int, int] = export.symbolic_dim_bounds(3)  # E:
flag: str = export.is_symbolic_dim(3)  # E:
