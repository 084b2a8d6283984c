"""Clustering, as ``jax.scipy.cluster`` (the ``vq`` module)."""

from jax_core.scipy.cluster import vq as vq
