"""Vector quantization, as ``jax.scipy.cluster.vq`` (``vq``)."""

from jax_core._src.scipy.cluster import vq as vq
