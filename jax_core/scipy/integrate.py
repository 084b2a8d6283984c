"""Integration, as ``jax.scipy.integrate`` (``trapezoid``)."""

from jax_core._src.scipy.integrate import trapezoid as trapezoid
