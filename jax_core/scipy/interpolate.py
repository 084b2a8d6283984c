"""Interpolation, as ``jax.scipy.interpolate`` (``RegularGridInterpolator``)."""

from jax_core._src.scipy.interpolate import RegularGridInterpolator as RegularGridInterpolator
