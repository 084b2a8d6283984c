"""Multidimensional image processing, as ``jax.scipy.ndimage`` (``map_coordinates``)."""

from jax_core._src.scipy.ndimage import map_coordinates as map_coordinates
