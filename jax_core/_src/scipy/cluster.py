"""``jax.scipy.cluster.vq``: ``vq``, the nearest code of a code book for each observation."""

from __future__ import annotations

import jax_core.numpy as jnp
from jax_core._src.numpy.linalg import norm
from jax_core._src.numpy.util import check_arraylike, ensure_array, promote_dtypes_inexact
from jax_core._src.transforms.vmap_api import vmap
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

__all__ = ["vq"]


def vq(obs: ArrayLike, code_book: ArrayLike, check_finite: bool = True) -> tuple[Array, Array]:
    """For each observation (a row of ``obs``, shape ``(M, N)``, or an entry of a 1-d ``obs``),
    the index of the nearest code (row of ``code_book``, ``(K, N)``) by Euclidean distance, and
    that distance: ``(code, dist)``, both of shape ``(M,)``, as ``scipy.cluster.vq.vq``.
    ``check_finite`` is accepted and ignored (as in JAX).

    Example::

        vq(jnp.array([[1.1, 2.1, 3.1], [5.9, 4.8, 6.2]]), jnp.array([[1., 2., 3.], [4., 5., 6.]]))
        # codes [0, 1], distances [0.1732, 0.2449]
    """
    del check_finite  # as JAX: values are never checked
    check_arraylike("scipy.cluster.vq.vq", obs, code_book)
    obs_arr, cb_arr = (ensure_array(v) for v in promote_dtypes_inexact(obs, code_book))
    if obs_arr.ndim != cb_arr.ndim:
        raise ValueError("Observation and code_book should have the same rank")
    if obs_arr.ndim == 1:
        obs_arr, cb_arr = obs_arr[..., None], cb_arr[..., None]
    if obs_arr.ndim != 2:
        raise ValueError("ndim different than 1 or 2 are not supported")

    def distances(ob: Array) -> Array:
        return norm(ob[None] - cb_arr, axis=-1)

    def pick(row: Array, i: Array) -> Array:
        return row[i]

    dist = vmap(distances)(obs_arr)
    code = jnp.argmin(dist, axis=-1)
    return code, vmap(pick)(dist, code)
