"""``jax.image``: ``resize`` and ``scale_and_translate`` by separable resampling kernels, and the
``ResizeMethod`` enum.

Each resampled dimension gets a weight matrix (input size x output size): the kernel evaluated at
the distance between every output pixel's centre, mapped back into the input, and every input
pixel (widened by the inverse scale when downsampling with ``antialias``), normalised per output
pixel, and zero where the sample falls outside the input. The image is then contracted with all
of them in one ``einsum``, as JAX computes it (same operations in the same order). ``NEAREST``
resizing is a gather instead.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import jax_core.numpy as jnp
from jax_core._src import dtypes
from jax_core._src.core.trace import Tracer
from jax_core._src.lax.linalg.dot import Precision, PrecisionLike
from jax_core._src.lax.shape.dimensions import broadcast_in_dim, canonicalize_shape
from jax_core._src.numpy.util import canonicalize_axis, ensure_array, jitted, promote_dtypes_inexact
from jax_core._src.typing import ArrayLike, ShapeLike
from jax_core._src.typing.basearray import Array

__all__ = ["ResizeMethod", "resize", "scale_and_translate"]

_Kernel = Callable[[Array], Array]


def _lanczos_kernel(radius: float, x: Array) -> Array:
    y = radius * jnp.sin(np.pi * x) * jnp.sin(np.pi * x / radius)
    # y / (pi^2 x^2) away from 0, where the limit is 1
    out = jnp.where(x > 1e-3, jnp.divide(y, jnp.where(x != 0, np.pi**2 * x**2, 1)), 1)
    return jnp.where(x > radius, 0.0, out)


def _keys_cubic_kernel(x: Array) -> Array:
    # Keys' cubic convolution kernel with a = -0.5 (Pillow, TensorFlow, PyTorch with antialias).
    out = ((1.5 * x - 2.5) * x) * x + 1.0
    out = jnp.where(x >= 1.0, ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0, out)
    return jnp.where(x >= 2.0, 0.0, out)


def _opencv_cubic_kernel(x: Array) -> Array:
    # The a = -0.75 cubic kernel of OpenCV, which PyTorch uses without antialias.
    a = -0.75
    out = ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
    out = jnp.where(x >= 1.0, ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a, out)
    return jnp.where(x >= 2.0, 0.0, out)


def _triangle_kernel(x: Array) -> Array:
    return jnp.maximum(0, 1 - jnp.abs(x))


def _lanczos3_kernel(x: Array) -> Array:
    return _lanczos_kernel(3.0, x)


def _lanczos5_kernel(x: Array) -> Array:
    return _lanczos_kernel(5.0, x)


class ResizeMethod(enum.Enum):
    """Image resize method.

    ``NEAREST``: nearest-neighbour. ``LINEAR``: (bi/tri)linear, a triangle filter.
    ``LANCZOS3``/``LANCZOS5``: Lanczos resampling of radius 3/5. ``CUBIC``: Keys' cubic kernel
    (a = -0.5). ``CUBIC_PYTORCH``: PyTorch's bicubic (``CUBIC`` with antialias; without it the
    a = -0.75 kernel with the edges repeated). ``AREA``: the average of the input pixels each
    output pixel covers (a box filter when upsampling, as TensorFlow's).
    """

    NEAREST = 0
    LINEAR = 1
    LANCZOS3 = 2
    LANCZOS5 = 3
    CUBIC = 4
    CUBIC_PYTORCH = 5
    AREA = 6

    @staticmethod
    def from_string(s: str) -> ResizeMethod:
        """The method a name stands for: ``"nearest"``, ``"linear"`` (``"bilinear"``,
        ``"trilinear"``, ``"triangle"``), ``"lanczos3"``, ``"lanczos5"``, ``"cubic"``
        (``"bicubic"``, ``"tricubic"``), ``"cubic-pytorch"`` (``"bicubic-pytorch"``), ``"area"``;
        ``ValueError`` for any other."""
        if s == "nearest":
            return ResizeMethod.NEAREST
        if s in ("linear", "bilinear", "trilinear", "triangle"):
            return ResizeMethod.LINEAR
        if s == "lanczos3":
            return ResizeMethod.LANCZOS3
        if s == "lanczos5":
            return ResizeMethod.LANCZOS5
        if s in ("cubic", "bicubic", "tricubic"):
            return ResizeMethod.CUBIC
        if s in ("cubic-pytorch", "bicubic-pytorch"):
            return ResizeMethod.CUBIC_PYTORCH
        if s == "area":
            return ResizeMethod.AREA
        raise ValueError(f'Unknown resize method "{s}"')


# radius and kernel of each method (None: the area kernel, computed from pixel overlaps)
_KERNELS: dict[ResizeMethod, tuple[int, _Kernel | None]] = {
    ResizeMethod.LINEAR: (1, _triangle_kernel),
    ResizeMethod.LANCZOS3: (3, _lanczos3_kernel),
    ResizeMethod.LANCZOS5: (5, _lanczos5_kernel),
    ResizeMethod.CUBIC: (2, _keys_cubic_kernel),
    ResizeMethod.CUBIC_PYTORCH: (2, _opencv_cubic_kernel),
    ResizeMethod.AREA: (1, None),
}

_Scalar = Array | float


def _arange(start: int, stop: int, dtype: np.dtype[Any]) -> Array:
    """``arange(start, stop)`` staged as an iota (plus ``start``), as JAX's: a constant array
    instead would let XLA fold the weights with other arithmetic."""
    if start == 0:
        return jnp.arange(stop, dtype=dtype)
    return start + jnp.arange(stop - start, dtype=dtype)


def _normalized(weights: Array) -> Array:
    """Columns scaled to sum to 1 (columns summing to about 0 become 0)."""
    total = jnp.sum(weights, axis=0, keepdims=True)
    return jnp.where(
        jnp.abs(total) > 1000.0 * float(np.finfo(np.float32).eps),
        jnp.divide(weights, jnp.where(total != 0, total, 1)),
        0,
    )


def _weight_matrix(
    input_size: int, output_size: int, scale: _Scalar, translation: _Scalar, kernel: _Kernel | None,
    antialias: bool, edge_padding: bool, radius: int,
) -> Array:  # fmt: skip
    """The (input_size, output_size) resampling weights of one dimension."""
    dtype = dtypes.result_type(scale, translation)
    inv_scale = 1.0 / scale
    # Downsampling widens the kernel (a low-pass filter); upsampling only interpolates.
    kernel_scale = jnp.maximum(inv_scale, 1.0) if antialias else 1.0
    # where each output pixel's centre falls in the input (pixel centres at i + 0.5)
    sample_f = (jnp.arange(output_size, dtype=dtype) + 0.5) * inv_scale - translation * inv_scale - 0.5
    if edge_padding and antialias:  # not reachable from resize/scale_and_translate, as in JAX
        if isinstance(scale, Tracer):
            scale.concretization_error("Antialiasing with edge padding requires a static scale.")
        k = math.ceil(radius * max(1.0 / float(scale), 1.0))
    else:
        k = radius if edge_padding else 0
    expanded = _arange(-k, input_size + k, dtype)
    if kernel is None:  # area: the overlap of the output pixel [L_i, R_i] with input pixel [L_j, R_j]
        left_out = jnp.arange(output_size, dtype=dtype) * inv_scale - translation * inv_scale
        right_out = left_out + inv_scale
        left_in = jnp.arange(input_size, dtype=dtype)
        right_in = left_in + 1.0
        weights = jnp.maximum(
            0.0,
            jnp.minimum(right_out[np.newaxis, :], right_in[:, np.newaxis])
            - jnp.maximum(left_out[np.newaxis, :], left_in[:, np.newaxis]),
        )
    else:
        x = jnp.abs(sample_f[np.newaxis, :] - expanded[:, np.newaxis])
        weights = kernel(x / kernel_scale)
    if edge_padding:
        # move the weight of the pixels past an edge onto that edge pixel
        clamped = jnp.clip(expanded.astype(jnp.int32), 0, input_size - 1)
        columns = broadcast_in_dim(jnp.arange(output_size), (expanded.shape[0], output_size), (1,))
        mat = jnp.zeros((input_size, output_size), dtype=dtype)
        mat = mat.at[clamped[:, np.newaxis], columns].add(weights)
        return _normalized(mat)
    weights = _normalized(weights)
    # no weight for a sample entirely outside the input (sample_f already has the 0.5 removed)
    inside = jnp.logical_and(sample_f >= -0.5, sample_f <= input_size - 0.5)
    return jnp.where(inside[np.newaxis, :], weights, 0)


def _scale_and_translate(
    x: Array, output_shape: tuple[int, ...], spatial_dims: Sequence[int], scale: Sequence[_Scalar],
    translation: Sequence[_Scalar], kernel: _Kernel | None, antialias: bool, precision: PrecisionLike,
    edge_padding: bool, radius: int,
) -> Array:  # fmt: skip
    if len(spatial_dims) == 0:
        return x
    operands: list[Any] = [x, list(range(len(output_shape)))]
    out_indices = list(range(len(output_shape)))
    for i, d in enumerate(spatial_dims):
        d = canonicalize_axis(d, x.ndim)
        w = _weight_matrix(x.shape[d], output_shape[d], scale[i], translation[i], kernel, antialias,
                           edge_padding, radius).astype(x.dtype)  # fmt: skip
        operands += [w, [d, len(output_shape) + i]]
        out_indices[d] = len(output_shape) + i
    return jnp.einsum(*operands, out_indices, precision=precision, optimize="optimal")


def _check_rank(shape: tuple[int, ...], image_shape: tuple[int, ...]) -> None:
    if len(shape) != len(image_shape):
        raise ValueError(
            "shape must have length equal to the number of dimensions of x; "
            f" {shape} vs {image_shape}"
        )


def _image_shape(image: ArrayLike) -> tuple[int, ...]:
    if isinstance(image, (Array, np.ndarray, np.generic)):
        return tuple(image.shape)
    raise AttributeError(f"'{type(image).__name__}' object has no attribute 'ndim'")


def scale_and_translate(
    image: ArrayLike,
    shape: ShapeLike,
    spatial_dims: Sequence[int],
    scale: ArrayLike,
    translation: ArrayLike,
    method: str | ResizeMethod,
    antialias: bool = True,
    precision: PrecisionLike = Precision.HIGHEST,
) -> Array:
    """Resamples ``image`` to ``shape`` under a scale and a translation of ``spatial_dims``.

    An input location ``x`` of dimension ``spatial_dims[i]`` maps to
    ``x * scale[i] + translation[i]`` in the output (pixel centres at half-integers; the inverse
    map picks the samples); outputs that map outside the input are 0. ``method`` is a
    ``ResizeMethod`` or its name, other than nearest. ``torch``'s ``align_corners=True`` is
    ``scale = (n - 1) / (m - 1)``, ``translation = 0.5 * (1 - scale)``.

    Example::

        scale_and_translate(img, (64, 64), (0, 1), jnp.array([2.0, 2.0]), jnp.zeros(2), "linear")
    """
    out_shape = canonicalize_shape(shape)
    _check_rank(out_shape, _image_shape(image))
    resize_method = ResizeMethod.from_string(method) if isinstance(method, str) else method
    if resize_method == ResizeMethod.NEAREST:
        raise ValueError("Nearest neighbor resampling is not currently supported for scale_and_translate.")
    if resize_method == ResizeMethod.CUBIC_PYTORCH and antialias:
        resize_method = ResizeMethod.CUBIC
    radius, kernel = _KERNELS[resize_method]
    edge_padding = resize_method == ResizeMethod.CUBIC_PYTORCH and not antialias
    img = ensure_array(promote_dtypes_inexact(image)[0])
    for v in (scale, translation):
        if isinstance(v, (list, tuple)):  # JAX's promotion cannot type a sequence
            raise TypeError(f"Cannot determine dtype of {v}")
    scale_arr, translation_arr = (ensure_array(v) for v in promote_dtypes_inexact(scale, translation))
    scales = [scale_arr[i] for i in range(len(spatial_dims))]
    translations = [translation_arr[i] for i in range(len(spatial_dims))]
    return _scale_and_translate(img, out_shape, spatial_dims, scales, translations, kernel, antialias,
                                precision, edge_padding, radius)  # fmt: skip


def _resize_nearest(x: Array, output_shape: tuple[int, ...]) -> Array:
    for d, (m, n) in enumerate(zip(x.shape, output_shape)):
        if m == n:
            continue
        # computed in float32 whatever the x64 flag, as JAX does
        offsets = (jnp.arange(n, dtype=np.float32) + 0.5) * m / n
        positions = jnp.floor(offsets.astype(np.float32)).astype(np.int32)
        index: list[Any] = [slice(None)] * x.ndim
        index[d] = positions
        x = x[tuple(index)]
    return x


@jitted(static_argnums=(1, 2, 3, 4), inline=False)
def _resize(image: ArrayLike, shape: tuple[int, ...], method: str | ResizeMethod, antialias: bool,
            precision: PrecisionLike) -> Array:  # fmt: skip
    img = ensure_array(image)
    _check_rank(shape, img.shape)
    resize_method = ResizeMethod.from_string(method) if isinstance(method, str) else method
    if resize_method == ResizeMethod.NEAREST:
        return _resize_nearest(img, shape)
    img = ensure_array(promote_dtypes_inexact(img)[0])
    # a dimension that keeps its size is left alone: every kernel interpolates
    spatial_dims = tuple(i for i in range(len(shape)) if img.shape[i] != shape[i])
    if resize_method == ResizeMethod.CUBIC_PYTORCH and antialias:
        resize_method = ResizeMethod.CUBIC
    radius, kernel = _KERNELS[resize_method]
    scale: list[_Scalar] = [1.0 if shape[d] == 0 else shape[d] / img.shape[d] for d in spatial_dims]
    translation: list[_Scalar] = [0.0] * len(spatial_dims)
    edge_padding = resize_method == ResizeMethod.CUBIC_PYTORCH and not antialias
    return _scale_and_translate(img, shape, spatial_dims, scale, translation, kernel, antialias,
                                precision, edge_padding, radius)  # fmt: skip


def resize(
    image: ArrayLike,
    shape: ShapeLike,
    method: str | ResizeMethod,
    antialias: bool = True,
    precision: PrecisionLike = Precision.HIGHEST,
) -> Array:
    """``image`` resized to ``shape`` (every dimension, batch and channel ones included: leave
    those unchanged) with ``method``: a ``ResizeMethod`` or its name (``"nearest"``,
    ``"linear"``/``"bilinear"``/``"trilinear"``/``"triangle"``, ``"cubic"``/``"bicubic"``/
    ``"tricubic"``, ``"cubic-pytorch"``, ``"lanczos3"``, ``"lanczos5"``, ``"area"``).

    ``antialias`` low-pass filters when downsampling. Nearest keeps the dtype (and ignores
    ``antialias`` and ``precision``); the other methods return a floating result.

    Example::

        resize(jnp.ones((32, 32, 3)), (64, 64, 3), "bilinear")
    """
    if not isinstance(image, (Array, np.ndarray, np.generic)):
        _image_shape(image)  # JAX's AttributeError
    return _resize(image, canonicalize_shape(shape), method, antialias, precision)
