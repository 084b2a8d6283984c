"""Spatial algorithms, as ``jax.scipy.spatial``: rotations in ``transform``."""

from jax_core.scipy.spatial import transform as transform
