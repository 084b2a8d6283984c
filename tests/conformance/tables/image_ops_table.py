"""``image``, ``ops``, ``scipy.ndimage``, ``scipy.integrate``, ``scipy.cluster.vq`` (and what
``scipy.interpolate`` leaves out)."""

IMAGE = """
resize(x[5, 7], (9, 11)|(3, 4)|(5, 2), 'linear'|'cubic'|'lanczos3'|'lanczos5'|'nearest'|'area'|'cubic-pytorch', antialias=_|False)  ~16
resize(a[4, 6], (8, 3), 'nearest')
scale_and_translate(x[5, 7], (9, 11), (0, 1), jnp.array([1.5, 0.7]), jnp.array([0.25, -1.0]), 'linear'|'cubic'|'lanczos3'|'area', antialias=_|False)  ~16
"""

OPS = """
segment_sum(n[6, 2]|n[6], k[6], 5, bucket_size=_|2, mode=_|'clip', indices_are_sorted=_|True)
segment_prod(n[6]|n[6, 2], k[6], 5, bucket_size=_|4, mode=_|'promise_in_bounds')  -grad
segment_max(r[6, 2]|r[6], k[6], 5, bucket_size=_|3, mode=_|'clip')
segment_min(r[6]|r[6, 2], k[6], 5, unique_indices=_|False, bucket_size=_|2)
"""

NDIMAGE = """
map_coordinates(x[5, 7], [s[6], s[6]], 0|1, mode=_|'nearest'|'wrap'|'mirror'|'reflect', cval=_|1.5)
map_coordinates(r[6], [s[4]], 1, mode=_|'reflect')
"""

INTEGRATE = """
trapezoid(f[4, 5]|f[5], dx=_|0.5, axis=_|0)
trapezoid(x[4, 5], x[5])
"""

VQ = """
vq(s[6, 3]|s[6], s[4, 3]|s[4])
"""

INTERPOLATE_NOT_GENERATED = {
    "RegularGridInterpolator": "a class whose instances are called: the table language has no "
    "call of a result; tests/scipy/test_ndimage_interpolate.py compares it with JAX bit for bit",
}
