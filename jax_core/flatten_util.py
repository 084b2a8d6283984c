"""Flattening a pytree of arrays into one vector (``jax.flatten_util``)."""

# Re-exported with ``as`` so type checkers treat it as public (PEP 484).
from jax_core._src.numpy.ravel import ravel_pytree as ravel_pytree
