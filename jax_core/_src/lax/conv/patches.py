"""``conv_general_dilated_patches`` and ``conv_general_dilated_local`` (JAX's ``lax/other.py``):
patch extraction as a grouped convolution with an identity kernel, and the unshared
("locally connected") convolution as patches contracted with a per-position kernel."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from jax_core._src.core.trace import get_aval
from jax_core._src.lax.conv.convolution import conv_general_dilated
from jax_core._src.lax.conv.shapes import (
    ConvGeneralDilatedDimensionNumbers,
    conv_dimension_numbers,
)
from jax_core._src.lax.elementwise import convert_element_type, eq
from jax_core._src.lax.linalg.dot import (
    Precision,
    PrecisionLike,
    canonicalize_precision,
    dot_general,
)
from jax_core._src.lax.shape.assembly import broadcasted_iota
from jax_core._src.lax.shape.dimensions import broadcast_in_dim, reshape, shape_of, transpose
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array


def _moveaxes(x: Array, src: Sequence[int], dst: Sequence[int]) -> Array:
    """``x`` with axes ``src`` moved to positions ``dst`` (``np.moveaxis`` for Arrays)."""
    order = [i for i in range(len(shape_of(x))) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(x, order)


def conv_general_dilated_patches(
    lhs: ArrayLike,
    filter_shape: Sequence[int],
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: ConvGeneralDilatedDimensionNumbers = None,
    precision: Precision | None = None,
    preferred_element_type: DTypeLike | None = None,
) -> Array:
    """The patches ``conv_general_dilated`` would contract with a kernel of spatial shape
    ``filter_shape``: the output's feature dimension holds, for each input channel (major),
    the ``prod(filter_shape)`` values of the receptive field (in ``filter_shape`` order)."""
    shape, dtype = shape_of(lhs), get_aval(lhs).dtype
    filter_shape = tuple(filter_shape)
    dn = conv_dimension_numbers(shape, (1, 1, *filter_shape), dimension_numbers)
    lhs_spec, rhs_spec, _ = dn
    size = math.prod(filter_shape)
    n_channels = shape[lhs_spec[1]]
    iotas = (broadcasted_iota(np.int32, (size, size), d) for d in (0, 1))
    rhs = convert_element_type(eq(*iotas), dtype)
    rhs = broadcast_in_dim(rhs, (n_channels, size, size), (1, 2))
    rhs = reshape(rhs, (n_channels * size, 1, *filter_shape))
    rhs = _moveaxes(rhs, (0, 1), (rhs_spec[0], rhs_spec[1]))
    return conv_general_dilated(
        lhs,
        rhs,
        window_strides,
        padding,
        lhs_dilation,
        rhs_dilation,
        dn,
        feature_group_count=n_channels,
        precision=None if precision is None else (precision, Precision.DEFAULT),
        preferred_element_type=preferred_element_type,
    )


def conv_general_dilated_local(
    lhs: ArrayLike,
    rhs: ArrayLike,
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    filter_shape: Sequence[int],
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: ConvGeneralDilatedDimensionNumbers = None,
    precision: PrecisionLike = None,
) -> Array:
    """Unshared convolution (a locally connected layer): a separate kernel at each output
    position. ``rhs`` has the output's spatial dimensions (in ``dimension_numbers``' rhs
    layout), an input-feature dimension of size ``C * prod(filter_shape)`` (channel major) and
    the output features."""
    c_precision = canonicalize_precision(precision)
    first = c_precision[0] if isinstance(c_precision, tuple) else None
    patches = conv_general_dilated_patches(
        lhs,
        filter_shape,
        window_strides,
        padding,
        lhs_dilation,
        rhs_dilation,
        dimension_numbers,
        precision=first if isinstance(first, Precision) else None,
    )
    _, rhs_spec, out_spec = conv_dimension_numbers(
        shape_of(lhs), (1, 1, *filter_shape), dimension_numbers
    )
    lhs_b = list(out_spec[2:])
    rhs_b = [rhs_spec[2:][i] for i in sorted(range(len(lhs_b)), key=lambda k: lhs_b[k])]
    out = dot_general(
        patches,
        rhs,
        (([out_spec[1]], [rhs_spec[1]]), (sorted(lhs_b), rhs_b)),
        precision=precision,
    )
    return _moveaxes(out, (out.ndim - 2, out.ndim - 1), (out_spec[0], out_spec[1]))
