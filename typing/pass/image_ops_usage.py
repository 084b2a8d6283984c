"""jax_core.image, jax_core.ops and scipy's ndimage/interpolate/integrate/cluster.vq: what they
accept and return, inside and outside jit."""

from typing import assert_type

import numpy as np

import jax_core.image as image
import jax_core.numpy as jnp
import jax_core.ops as ops
import jax_core.scipy.cluster.vq as cluster_vq
import jax_core.scipy.integrate as integrate
import jax_core.scipy.interpolate as interpolate
import jax_core.scipy.ndimage as ndimage
from jax_core import Array, jit, lax

img = jnp.arange(12.0).reshape(3, 4)

big = image.resize(img, (6, 8), "bilinear")
small = image.resize(img, [2, 2], image.ResizeMethod.LANCZOS3, antialias=False, precision=lax.Precision.DEFAULT)
method = image.ResizeMethod.from_string("cubic")
moved = image.scale_and_translate(img, (6, 8), (0, 1), jnp.array([2.0, 2.0]), np.zeros(2), "linear")
assert_type(big, Array)
assert_type(method, image.ResizeMethod)
assert_type(moved, Array)

data, ids = jnp.arange(5.0), jnp.array([0, 0, 1, 1, 2])
sums = ops.segment_sum(data, ids)
prods = ops.segment_prod(data, ids, 3, bucket_size=2)
highs = ops.segment_max(data, ids, num_segments=4, mode="clip")
lows = ops.segment_min(data, ids, 3, indices_are_sorted=True, unique_indices=False, mode=lax.GatherScatterMode.FILL_OR_DROP)
assert_type(sums, Array)


@jit
def pooled(x: Array, seg: Array) -> Array:
    return ops.segment_max(x, seg, 3)


assert_type(pooled(data, ids), Array)

sampled = ndimage.map_coordinates(img, [jnp.array([0.5, 1.5]), np.array([1.5, 2.5])], order=1, mode="nearest", cval=0.0)
interp = interpolate.RegularGridInterpolator((jnp.arange(3.0), jnp.arange(4.0)), img, method="linear", fill_value=None)
at = interp(jnp.array([[0.5, 1.5]]))
area = integrate.trapezoid(img, dx=0.5, axis=0)
code, dist = cluster_vq.vq(img, img[:2])
assert_type(sampled, Array)
assert_type(interp.grid, tuple[Array, ...])
assert_type(at, Array)
assert_type(area, Array)
assert_type(code, Array)

assert big.shape == (6, 8) and small.shape == (2, 2) and moved.shape == (6, 8)
assert sums.shape == (3,) and prods.shape == (3,) and highs.shape == (4,) and lows.shape == (3,)
assert sampled.shape == (2,) and at.shape == (1,) and area.shape == (4,) and dist.shape == (3,)
