"""Convolution geometry: dimension numbers, padding modes and output shapes (no arrays).

JAX's ``ConvDimensionNumbers``, ``conv_dimension_numbers``/``conv_general_permutations``
(layout strings to permutations), ``padtype_to_pads``, the ``conv_*_shape_tuple`` helpers and the
shape and dtype checks of ``conv_general_dilated``, with JAX's messages.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, NamedTuple, TypeAlias, TypedDict, Unpack, cast

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray


class ConvDimensionNumbers(NamedTuple):
    """Where the batch, feature and spatial dimensions of a convolution are.

    ``lhs_spec`` is ``(batch dimension, feature dimension, spatial dimensions...)``,
    ``rhs_spec`` is ``(out feature dimension, in feature dimension, spatial dimensions...)``,
    ``out_spec`` is ``(batch dimension, feature dimension, spatial dimensions...)``.
    """

    lhs_spec: Sequence[int]
    rhs_spec: Sequence[int]
    out_spec: Sequence[int]


ConvGeneralDilatedDimensionNumbers: TypeAlias = tuple[str, str, str] | ConvDimensionNumbers | None
"""What ``dimension_numbers`` accepts: three layout strings, ``ConvDimensionNumbers`` or None."""

Pads: TypeAlias = tuple[tuple[int, int], ...]
"""Explicit ``(low, high)`` padding of each spatial dimension."""


# -- dimension numbers and padding -------------------------------------------------------------


def conv_dimension_numbers(
    lhs_shape: Sequence[int],
    rhs_shape: Sequence[int],
    dimension_numbers: ConvGeneralDilatedDimensionNumbers,
) -> ConvDimensionNumbers:
    """``dimension_numbers`` (None, three layout strings or ``ConvDimensionNumbers``) in canonical form."""
    if isinstance(dimension_numbers, ConvDimensionNumbers):
        return ConvDimensionNumbers(
            *(tuple(operator.index(d) for d in s) for s in dimension_numbers)
        )
    if len(lhs_shape) != len(rhs_shape):
        raise TypeError(
            f"convolution requires lhs and rhs ndim to be equal, got {len(lhs_shape)} and {len(rhs_shape)}."
        )
    if dimension_numbers is None:
        iota = tuple(range(len(lhs_shape)))
        return ConvDimensionNumbers(iota, iota, iota)
    if not isinstance(dimension_numbers, (list, tuple)):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(
            f"convolution dimension_numbers must be tuple/list or None, got {type(dimension_numbers)}."
        )
    if len(dimension_numbers) != 3:
        raise TypeError(
            f"convolution dimension_numbers list/tuple must be length 3, got {len(dimension_numbers)}."
        )
    if not all(isinstance(e, str) for e in dimension_numbers):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(
            "convolution dimension_numbers elements must be strings, got "
            f"{tuple(type(e) for e in dimension_numbers)}."
        )
    for i, elt in enumerate(dimension_numbers):
        if len(elt) != len(lhs_shape):
            raise TypeError(
                f"convolution dimension_numbers[{i}] must have len equal to the ndim of lhs and rhs, got "
                f"{len(elt)} for lhs and rhs shapes {tuple(lhs_shape)} and {tuple(rhs_shape)}."
            )
    return ConvDimensionNumbers(*conv_general_permutations(dimension_numbers))


def conv_general_permutations(
    dimension_numbers: tuple[str, str, str],
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The (lhs, rhs, out) dimension permutations of three layout strings, relative to XLA's Conv."""
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    charpairs = (("N", "C"), ("O", "I"), ("N", "C"))
    for i, (a, b) in enumerate(charpairs):
        spec = dimension_numbers[i]
        if not spec.count(a) == spec.count(b) == 1:
            raise TypeError(
                f"convolution dimension_numbers[{i}] must contain the characters '{a}' and '{b}' exactly "
                f"once, got {spec}."
            )
        if len(spec) != len(set(spec)):
            raise TypeError(
                f"convolution dimension_numbers[{i}] cannot have duplicate characters, got {spec}."
            )
    if not set(lhs_spec) - {"N", "C"} == set(rhs_spec) - {"O", "I"} == set(out_spec) - {"N", "C"}:
        raise TypeError(
            "convolution dimension_numbers elements must each have the same set of spatial characters, "
            f"got {dimension_numbers}."
        )

    def getperm(spec: str, charpair: tuple[str, str]) -> tuple[int, ...]:
        spatial = [i for i, c in enumerate(spec) if c not in charpair]
        if spec is not rhs_spec:
            spatial = sorted(spatial, key=lambda i: rhs_spec.index(spec[i]))
        return (spec.index(charpair[0]), spec.index(charpair[1]), *spatial)

    return (
        getperm(lhs_spec, charpairs[0]),
        getperm(rhs_spec, charpairs[1]),
        getperm(out_spec, charpairs[2]),
    )


def padtype_to_pads(
    in_shape: Sequence[int] | np.ndarray[Any, Any],
    window_shape: Sequence[int] | np.ndarray[Any, Any],
    window_strides: Sequence[int] | np.ndarray[Any, Any],
    padding: str,
) -> list[tuple[int, int]]:
    """The ``(low, high)`` pads of each spatial dimension for 'SAME', 'SAME_LOWER' or 'VALID'.

    'SAME' pads so that the output has ``ceil(in / stride)`` elements, the odd element at the
    end; 'SAME_LOWER' puts it at the start; 'VALID' does not pad.
    """
    if not isinstance(padding, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"Unknown padding type: {padding}.")
    mode = padding.upper()
    if mode not in ("VALID", "SAME", "SAME_LOWER"):
        raise RuntimeError(
            f"Unrecognized padding type: expected 'VALID', 'SAME', or 'SAME_LOWER', got {padding}."
        )
    if mode == "VALID":
        return [(0, 0)] * len(in_shape)
    pads: list[tuple[int, int]] = []
    for d, w, s in zip(in_shape, window_shape, window_strides):
        out = -(-int(d) // int(s))
        size = max((out - 1) * int(s) + int(w) - int(d), 0)
        lo, hi = size // 2, size - size // 2
        pads.append((lo, hi) if mode == "SAME" else (hi, lo))
    return pads


def dilate_dim(d: int, dilation: int) -> int:
    """The size of a dimension of size ``d`` dilated by ``dilation``: ``max(0, 1 + dilation * (d - 1))``."""
    return d if dilation == 1 else max(1 + dilation * (d - 1), 0)


def dilate_shape(shape: Sequence[int], dilation: Sequence[int]) -> tuple[int, ...]:
    """``shape`` with its trailing dimensions dilated (JAX's ``_dilate_shape``, with its error)."""
    if not all(d > 0 for d in dilation):
        raise TypeError(f"All dilations must be positive, got {tuple(dilation)}.")
    full = (1,) * (len(shape) - len(dilation)) + tuple(dilation)
    return tuple(dilate_dim(d, r) for d, r in zip(shape, full))


def conv_shape_tuple(
    lhs_shape: Sequence[int] | np.ndarray[Any, Any],
    rhs_shape: Sequence[int],
    strides: Sequence[int],
    pads: str | Sequence[tuple[int, int]],
    batch_group_count: int = 1,
) -> tuple[int, ...]:
    """The output shape of a convolution of shapes in canonical (NC..., OI...) order.

    As JAX's: the batch and feature sizes are Python ints, the spatial sizes NumPy ``int64``s."""
    n, f, *space = _conv_shape(lhs_shape, rhs_shape, strides, pads, batch_group_count)
    return (n, f, *(_np_int(d) for d in space))


def _np_int(d: int) -> int:
    """``d`` as a NumPy ``int64`` (what JAX's shape helpers compute with NumPy return)."""
    return cast(int, np.int64(d))


def _conv_shape(
    lhs_shape: Sequence[int] | np.ndarray[Any, Any],
    rhs_shape: Sequence[int],
    strides: Sequence[int],
    pads: str | Sequence[tuple[int, int]],
    batch_group_count: int = 1,
) -> tuple[int, ...]:
    """``conv_shape_tuple`` as Python ints (for abstract evaluation)."""
    if isinstance(pads, str):
        pads = padtype_to_pads(lhs_shape[2:], rhs_shape[2:], strides, pads)
    if len(pads) != len(lhs_shape) - 2:
        raise TypeError(
            f"Wrong number of explicit pads for convolution: expected {len(lhs_shape) - 2}, got {len(pads)}."
        )
    padded = [int(d) + lo + hi for d, (lo, hi) in zip(lhs_shape[2:], pads)]
    if any(p < 0 for p in padded):
        raise ValueError(
            "Negative padding is larger than the size of the corresponding dimension: got padding="
            f"{pads} for lhs_shape[2:]={tuple(lhs_shape[2:])}"
        )
    space = tuple(max((p - int(k)) // s + 1, 0) for p, k, s in zip(padded, rhs_shape[2:], strides))
    return (int(lhs_shape[0]) // batch_group_count, int(rhs_shape[0]), *space)


def conv_general_shape_tuple(
    lhs_shape: Sequence[int],
    rhs_shape: Sequence[int],
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    dimension_numbers: tuple[str, str, str],
) -> tuple[int, ...]:
    """The output shape of ``conv_general_dilated`` without dilations, in the output's layout."""
    lhs_perm, rhs_perm, out_perm = conv_general_permutations(dimension_numbers)
    out = _conv_shape(
        [lhs_shape[i] for i in lhs_perm], [rhs_shape[i] for i in rhs_perm], window_strides, padding
    )
    return tuple(_np_int(out[int(i)]) for i in np.argsort(out_perm))


def conv_transpose_shape_tuple(
    lhs_shape: Sequence[int],
    rhs_shape: Sequence[int],
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    dimension_numbers: tuple[str, str, str],
) -> tuple[int, ...]:
    """The output shape of ``conv_transpose``, in the output's layout."""
    lhs_perm, rhs_perm, out_perm = conv_general_permutations(dimension_numbers)
    lhs_t, rhs_t = [lhs_shape[i] for i in lhs_perm], [rhs_shape[i] for i in rhs_perm]
    if isinstance(padding, str):
        padding = [conv_transpose_padding(k, s, padding) for k, s in zip(rhs_t[2:], window_strides)]
    space = [
        (i - 1) * s - k + 2 + lo + hi
        for i, k, s, (lo, hi) in zip(lhs_t[2:], rhs_t[2:], window_strides, padding)
    ]
    out = (lhs_t[0], rhs_t[0], *space)
    return tuple(_np_int(out[int(i)]) for i in np.argsort(out_perm))


def conv_transpose_padding(k: int, s: int, padding: str | tuple[int, int]) -> tuple[int, int]:
    """Before and after padding of one dimension of a transposed convolution."""
    if padding == "SAME":
        pad_len = k + s - 2
        pad_a = k - 1 if s > k - 1 else int(np.ceil(pad_len / 2))
    elif padding == "VALID":
        pad_len = k + s - 2 + max(k - s, 0)
        pad_a = k - 1
    elif isinstance(padding, tuple):
        pads = tuple(k - p - 1 for p in padding)
        pad_a, pad_len = pads[0], sum(pads)
    else:
        raise ValueError(f"Invalid padding mode: {padding}")
    return pad_a, pad_len - pad_a


class ConvGeometry(TypedDict):
    """The params of ``conv_general_dilated`` that decide its output shape."""

    window_strides: tuple[int, ...]
    padding: Pads
    lhs_dilation: tuple[int, ...]
    rhs_dilation: tuple[int, ...]
    dimension_numbers: ConvDimensionNumbers
    feature_group_count: int
    batch_group_count: int


def conv_vjp_padding(
    side: str,
    lhs_shape: Sequence[int],
    rhs_shape: Sequence[int],
    out_shape: Sequence[int],
    **geometry: Unpack[ConvGeometry],
) -> Pads:
    """The padding of the convolution that transposes one w.r.t. its ``side`` ('lhs' or 'rhs')
    operand (JAX's ``_conv_general_vjp_lhs_padding``/``_conv_general_vjp_rhs_padding``)."""
    lhs_spec, rhs_spec, out_spec = geometry["dimension_numbers"]
    lhs_d = dilate_shape([lhs_shape[i] for i in lhs_spec[2:]], geometry["lhs_dilation"])
    rhs_d = dilate_shape([rhs_shape[i] for i in rhs_spec[2:]], geometry["rhs_dilation"])
    out_d = dilate_shape([out_shape[i] for i in out_spec[2:]], geometry["window_strides"])
    padding = geometry["padding"]
    if side == "lhs":
        before = [r - lo - 1 for r, (lo, _) in zip(rhs_d, padding)]
        return tuple((b, l + r - 1 - o - b) for b, l, r, o in zip(before, lhs_d, rhs_d, out_d))
    return tuple((lo, o - l + r - lo - 1) for (lo, _), l, r, o in zip(padding, lhs_d, rhs_d, out_d))


def conv_general_dilated_shape(
    lhs: ShapedArray, rhs: ShapedArray, **geometry: Unpack[ConvGeometry]
) -> tuple[int, ...]:
    """JAX's ``_conv_general_dilated_shape_rule``, with its errors."""
    dimension_numbers, window_strides = geometry["dimension_numbers"], geometry["window_strides"]
    feature_group_count, batch_group_count = (
        geometry["feature_group_count"],
        geometry["batch_group_count"],
    )
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    if lhs.ndim != rhs.ndim:
        raise ValueError(
            "conv_general_dilated lhs and rhs must have the same number of dimensions, but got "
            f"{lhs.shape} and {rhs.shape}."
        )
    if not feature_group_count > 0:
        raise ValueError(
            f"conv_general_dilated feature_group_count must be a positive integer, got {feature_group_count}."
        )
    lhs_features, rhs_in, rhs_out = (
        lhs.shape[lhs_spec[1]],
        rhs.shape[rhs_spec[1]],
        rhs.shape[rhs_spec[0]],
    )
    quot, rem = divmod(lhs_features, feature_group_count)
    if rem:
        raise ValueError(
            "conv_general_dilated feature_group_count must divide lhs feature dimension size, but "
            f"{feature_group_count} does not divide {lhs_features}."
        )
    if quot != rhs_in:
        raise ValueError(
            "conv_general_dilated lhs feature dimension size divided by feature_group_count must equal the "
            f"rhs input feature dimension size, but {lhs_features} // {feature_group_count} != {rhs_in}."
        )
    if rhs_out % feature_group_count:
        raise ValueError(
            "conv_general_dilated rhs output feature dimension size must be a multiple of "
            f"feature_group_count, but {rhs_out} is not a multiple of {feature_group_count}."
        )
    if not batch_group_count > 0:
        raise ValueError(
            f"conv_general_dilated batch_group_count must be a positive integer, got {batch_group_count}."
        )
    lhs_batch = lhs.shape[lhs_spec[0]]
    if batch_group_count > 1 and lhs_batch % batch_group_count != 0:
        raise ValueError(
            "conv_general_dilated batch_group_count must divide lhs batch dimension size, but "
            f"{batch_group_count} does not divide {lhs_batch}."
        )
    if rhs_out % batch_group_count:
        raise ValueError(
            "conv_general_dilated rhs output feature dimension size must be a multiple of "
            f"batch_group_count, but {rhs_out} is not a multiple of {batch_group_count}."
        )
    if batch_group_count > 1 and feature_group_count > 1:
        raise ValueError(
            "At most one of batch_group_count and feature_group_count may be > 1, got "
            f"batch_group_count={batch_group_count} and feature_group_count={feature_group_count}"
        )
    if len(rhs_spec) - 2 != len(window_strides):
        raise ValueError(
            "conv_general_dilated window and window_strides must have the same number of dimensions, but "
            f"got {len(rhs_spec) - 2} and {len(window_strides)}"
        )
    # (as numpy integers: JAX's message for too negative padding shows them so)
    lhs_t = np.array(
        dilate_shape([lhs.shape[i] for i in lhs_spec], geometry["lhs_dilation"]), np.int64
    )
    rhs_t = dilate_shape([rhs.shape[i] for i in rhs_spec], geometry["rhs_dilation"])
    out_t = _conv_shape(lhs_t, rhs_t, window_strides, geometry["padding"], batch_group_count)
    return tuple(out_t[int(i)] for i in np.argsort(out_spec))


def check_preferred_element_type(input_dtype: np.dtype[Any], preferred: np.dtype[Any]) -> None:
    """JAX's ``_validate_preferred_element_type``."""
    sub = dtypes.issubdtype
    if not (sub(input_dtype, np.integer) and sub(preferred, np.floating)):
        if any(
            sub(input_dtype, t) and not sub(preferred, t)
            for t in (np.integer, np.floating, np.complexfloating)
        ):
            raise TypeError(
                "Input type is incompatible with `preferred_element_type`. The compatible combinations of "
                "(input_type, preferred_element_type) are (integral, integral), (integral, floating), "
                "(floating, floating), (complex, complex."
            )
        if sub(input_dtype, np.signedinteger) and not sub(preferred, np.signedinteger):
            raise TypeError(
                "`preferred_element_type` must have the same signedness as the original type."
            )
    if preferred.itemsize < input_dtype.itemsize:
        raise TypeError("`preferred_element_type` must not be narrower than the original type.")
