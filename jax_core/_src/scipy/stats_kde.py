"""``jax_core.scipy.stats.gaussian_kde``: kernel density estimation with Gaussian kernels, as JAX
computes it (a pytree of arrays; evaluation whitens with the Cholesky factor of the precision)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

import jax_core.numpy as jnp
from jax_core._src import dtypes
from jax_core._src.numpy.util import check_arraylike, ensure_array, jitted, promote_dtypes_inexact
from jax_core._src.random.api import split
from jax_core._src.random.samplers_extra import choice, multivariate_normal
from jax_core._src.scipy.linalg import cho_factor, cho_solve, cholesky
from jax_core._src.scipy.special import logsumexp, ndtr
from jax_core._src.transforms.vmap_api import vmap
from jax_core._src.tree.registration import register_pytree_node_class
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

BwMethod = str | ArrayLike | Callable[["gaussian_kde"], ArrayLike] | None


@register_pytree_node_class
@dataclass(frozen=True, init=False, slots=True)
class gaussian_kde:
    """Gaussian kernel density estimate of ``dataset`` (``(d, n)``, or ``(n,)`` for one dimension),
    with bandwidth ``bw_method`` ('scott', 'silverman', a scalar factor, or a callable of the
    estimate) and optional sample ``weights``."""

    neff: Array
    dataset: Array
    weights: Array
    covariance: Array
    inv_cov: Array

    def __init__(self, dataset: ArrayLike, bw_method: BwMethod = None, weights: ArrayLike | None = None) -> None:
        check_arraylike("gaussian_kde", dataset)
        data = jnp.atleast_2d(dataset)
        if dtypes.issubdtype(data.dtype, np.complexfloating):
            raise NotImplementedError("gaussian_kde does not support complex data")
        if not data.size > 1:
            raise ValueError("`dataset` input should have multiple elements.")
        d, n = data.shape
        if weights is not None:
            check_arraylike("gaussian_kde", weights)
            data_p, weights_p = promote_dtypes_inexact(data, weights)
            data = ensure_array(data_p)
            w = jnp.atleast_1d(weights_p)
            w = w / jnp.sum(w)
            if w.ndim != 1:
                raise ValueError("`weights` input should be one-dimensional.")
            if len(w) != n:
                raise ValueError("`weights` input should be of length n")
        else:
            data = ensure_array(promote_dtypes_inexact(data)[0])
            w = jnp.full(n, 1.0 / n, dtype=data.dtype)
        self._set("dataset", data)
        self._set("weights", w)
        neff = self._set("neff", 1 / jnp.sum(w**2))
        method = "scott" if bw_method is None else bw_method
        factor: ArrayLike
        if isinstance(method, str) and method == "scott":
            factor = jnp.power(neff, -1.0 / (d + 4))
        elif isinstance(method, str) and method == "silverman":
            factor = jnp.power(neff * (d + 2) / 4.0, -1.0 / (d + 4))
        elif not isinstance(method, str) and not callable(method) and jnp.isscalar(method):
            factor = method
        elif callable(method):
            factor = method(self)
        else:
            raise ValueError("`bw_method` should be 'scott', 'silverman', a scalar, or a callable.")
        data_covariance = jnp.atleast_2d(jnp.cov(data, rowvar=True, bias=False, aweights=w))
        data_inv_cov = jnp.linalg.inv(data_covariance)
        self._set("covariance", data_covariance * factor**2)
        self._set("inv_cov", data_inv_cov / factor**2)

    def _set(self, name: str, value: Array) -> Array:
        object.__setattr__(self, name, value)
        return value

    def tree_flatten(self) -> tuple[tuple[Array, Array, Array, Array, Array], None]:
        """The five arrays, no static data."""
        return (self.neff, self.dataset, self.weights, self.covariance, self.inv_cov), None

    @classmethod
    def tree_unflatten(cls, aux_data: None, children: Sequence[Array]) -> gaussian_kde:
        """An estimate from its five arrays (no recomputation)."""
        del aux_data
        kde = cls.__new__(cls)
        for name, child in zip(("neff", "dataset", "weights", "covariance", "inv_cov"), children, strict=True):
            kde._set(name, child)
        return kde

    @property
    def d(self) -> int:
        """The number of dimensions."""
        return int(self.dataset.shape[0])

    @property
    def n(self) -> int:
        """The number of data points."""
        return int(self.dataset.shape[1])

    def evaluate(self, points: ArrayLike) -> Array:
        """The estimated density at ``points`` (``(d, m)``)."""
        check_arraylike("evaluate", points)
        pts = self._reshape_points(points)
        return _gaussian_kernel_eval(False, self.dataset.T, self.weights[:, None], pts.T, self.inv_cov)[:, 0]

    def __call__(self, points: ArrayLike) -> Array:
        return self.evaluate(points)

    def pdf(self, x: ArrayLike) -> Array:
        """The estimated density (``evaluate``)."""
        return self.evaluate(x)

    def logpdf(self, x: ArrayLike) -> Array:
        """The log of the estimated density, by ``logsumexp`` over the kernels."""
        check_arraylike("logpdf", x)
        pts = self._reshape_points(x)
        return _gaussian_kernel_eval(True, self.dataset.T, self.weights[:, None], pts.T, self.inv_cov)[:, 0]

    def integrate_gaussian(self, mean: ArrayLike, cov: ArrayLike) -> Array:
        """The integral of the estimate times a Gaussian of ``mean`` and ``cov``."""
        mean_a = jnp.atleast_1d(jnp.squeeze(mean))
        cov_a = jnp.atleast_2d(cov)
        if mean_a.shape != (self.d,):
            raise ValueError(f"mean does not have dimension {self.d}")
        if cov_a.shape != (self.d, self.d):
            raise ValueError(f"covariance does not have dimension {self.d}")
        chol = cho_factor(self.covariance + cov_a)
        norm = 1.0 / (jnp.sqrt(2 * np.pi) ** self.d * jnp.prod(jnp.diag(chol[0])))
        return _gaussian_kernel_convolve(chol, norm, self.dataset, self.weights, mean_a)

    def integrate_box_1d(self, low: ArrayLike, high: ArrayLike) -> Array:
        """The mass of a one-dimensional estimate between the scalars ``low`` and ``high``."""
        return _integrate_box_1d(self, low, high)

    def integrate_kde(self, other: gaussian_kde) -> Array:
        """The integral of the product of this estimate and ``other``."""
        if other.d != self.d:
            raise ValueError("KDEs are not the same dimensionality")
        chol = cho_factor(self.covariance + other.covariance)
        norm = 1.0 / (jnp.sqrt(2 * np.pi) ** self.d * jnp.prod(jnp.diag(chol[0])))
        sm, lg = (self, other) if self.n < other.n else (other, self)
        convolve = partial(_gaussian_kernel_convolve, chol, norm, lg.dataset, lg.weights)
        result: Array = vmap(convolve, in_axes=1)(sm.dataset)
        return jnp.sum(result * sm.weights)

    def resample(self, key: Array, shape: Sequence[int] = ()) -> Array:
        """``shape`` new samples (``(d, *shape)``) drawn from the estimate."""
        return _resample(self, key, tuple(shape))

    def integrate_box(self, low_bounds: ArrayLike, high_bounds: ArrayLike, maxpts: int | None = None) -> Array:
        """Not implemented (as in JAX): only ``integrate_box_1d`` is."""
        del low_bounds, high_bounds, maxpts
        raise NotImplementedError("only 1D box integrations are supported; use `integrate_box_1d`")

    def set_bandwidth(self, bw_method: BwMethod = None) -> None:
        """Not implemented (as in JAX): the estimate is immutable."""
        del bw_method
        raise NotImplementedError("dynamically changing the bandwidth method is not supported")

    def _reshape_points(self, points: ArrayLike) -> Array:
        if dtypes.issubdtype(jnp.asarray(points).dtype, np.complexfloating):
            raise NotImplementedError("gaussian_kde does not support complex coordinates")
        pts = jnp.atleast_2d(points)
        d, m = pts.shape
        if d != self.d:
            if d == 1 and m == self.d:
                pts = jnp.reshape(pts, (self.d, 1))
            else:
                raise ValueError(f"points have dimension {d}, dataset has dimension {self.d}")
        return pts


@jitted(inline=False)
def _integrate_box_1d(kde: gaussian_kde, low: ArrayLike, high: ArrayLike) -> Array:
    if kde.d != 1:
        raise ValueError("integrate_box_1d() only handles 1D pdfs")
    if np.ndim(low) != 0 or np.ndim(high) != 0:
        raise ValueError("the limits of integration in integrate_box_1d must be scalars")
    sigma = jnp.squeeze(jnp.sqrt(kde.covariance))
    lo = jnp.squeeze((low - kde.dataset) / sigma)
    hi = jnp.squeeze((high - kde.dataset) / sigma)
    return jnp.sum(kde.weights * (ndtr(hi) - ndtr(lo)))


@jitted(static=("shape",), inline=False)
def _resample(kde: gaussian_kde, key: Array, shape: tuple[int, ...] = ()) -> Array:
    ind_key, eps_key = split(key)
    ind = choice(ind_key, kde.n, shape=shape, p=kde.weights)
    eps = multivariate_normal(
        eps_key, jnp.zeros(kde.d, kde.covariance.dtype), kde.covariance, shape=shape, dtype=kde.dataset.dtype
    ).T
    return kde.dataset[:, ind] + eps


def _gaussian_kernel_convolve(chol: tuple[Array, bool], norm: Array, target: Array, weights: Array, mean: Array) -> Array:
    diff = target - mean[:, None]
    alpha = cho_solve(chol, diff)
    arg = 0.5 * jnp.sum(diff * alpha, axis=0)
    return norm * jnp.sum(jnp.exp(-arg) * weights)


@jitted(static_argnums=(0,), inline=False)
def _gaussian_kernel_eval(in_log: bool, points: ArrayLike, values: ArrayLike, xi: ArrayLike, precision: ArrayLike) -> Array:
    pts, vals, x, prec = (ensure_array(v) for v in promote_dtypes_inexact(points, values, xi, precision))
    d = pts.shape[1]
    if x.shape[1] != d:
        raise ValueError("points and xi must have same trailing dim")
    if prec.shape != (d, d):
        raise ValueError("precision matrix must match data dims")
    whitening = cholesky(prec, lower=True)
    pts = jnp.dot(pts, whitening)
    x = jnp.dot(x, whitening)
    log_norm = jnp.sum(jnp.log(jnp.diag(whitening))) - 0.5 * d * jnp.log(2 * np.pi)

    def kernel(x_test: Array, x_train: Array, y_train: Array) -> Array:
        arg = log_norm - 0.5 * jnp.sum(jnp.square(x_train - x_test))
        if in_log:
            return jnp.log(y_train) + arg
        return y_train * jnp.exp(arg)

    def reduced_kernel(v: Array) -> Array:
        terms: Array = vmap(kernel, in_axes=(None, 0, 0))(v, pts, vals)
        return logsumexp(terms, axis=0) if in_log else jnp.sum(terms, axis=0)

    out: Array = vmap(reduced_kernel)(x)
    return out

