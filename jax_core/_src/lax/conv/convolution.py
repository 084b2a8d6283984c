"""``conv_general_dilated``: XLA's general N-d convolution, its convenience wrappers and its rules.

As in JAX: dimension numbers as ``ConvDimensionNumbers`` or ``('NCHW', 'OIHW', 'NCHW')``-style
strings, padding as 'SAME'/'SAME_LOWER'/'VALID' or explicit pairs, lhs ("transposed") and rhs
("atrous") dilation, feature and batch groups. Lowered to ``stablehlo.convolution``; complex
convolutions become three real ones (Gauss's trick), as JAX lowers them on CPU. The rules are
JAX's: bilinear jvp, transposes w.r.t. lhs and rhs (convolutions with strides and dilations
swapped, groups moved between features and batch), and batching that folds the vmapped axis
into the batch, feature or group dimensions. The geometry (dimension numbers, padding, output
shapes) is in ``convolution_shapes.py``.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, Unpack

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import bilinear_jvp, is_undefined_primal
from jax_core._src.lax.conv.shapes import (
    ConvDimensionNumbers,
    ConvGeneralDilatedDimensionNumbers,
    ConvGeometry,
    Pads,
    check_preferred_element_type,
    conv_dimension_numbers,
    conv_general_dilated_shape,
    conv_transpose_padding,
    conv_vjp_padding,
    dilate_dim,
    padtype_to_pads,
)
from jax_core._src.lax.elementwise import convert_element_type
from jax_core._src.lax.linalg.dot import (
    CanonicalPrecision,
    Precision,
    PrecisionLike,
    canonicalize_precision,
)
from jax_core._src.lax.shape.assembly import rev
from jax_core._src.lax.shape.dimensions import broadcast, reshape, shape_of, transpose
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array

# -- the public functions ------------------------------------------------------------------------


def conv_general_dilated(
    lhs: ArrayLike,
    rhs: ArrayLike,
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: ConvGeneralDilatedDimensionNumbers = None,
    feature_group_count: int = 1,
    batch_group_count: int = 1,
    precision: PrecisionLike = None,
    preferred_element_type: DTypeLike | None = None,
) -> Array:
    """General N-d convolution with optional dilation (XLA's Conv).

    ``lhs`` is a rank ``n+2`` input, ``rhs`` a rank ``n+2`` kernel; ``window_strides`` has
    ``n`` entries. ``padding`` is 'SAME', 'SAME_LOWER', 'VALID' or ``n`` ``(low, high)``
    pairs. ``lhs_dilation`` (transposed convolution) and ``rhs_dilation`` (atrous
    convolution) default to 1. ``dimension_numbers`` is None (``('NCHW', 'OIHW', 'NCHW')``
    order), a ``ConvDimensionNumbers`` or three layout strings such as
    ``('NHWC', 'HWIO', 'NHWC')``; spatial dimensions are matched by their order in the rhs
    string. ``feature_group_count``/``batch_group_count`` give grouped convolutions;
    ``preferred_element_type`` sets the result (and accumulation) dtype.
    """
    lhs_shape, rhs_shape = shape_of(lhs), shape_of(rhs)
    dnums = conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers)
    if lhs_dilation is None:
        lhs_dilation = (1,) * (len(lhs_shape) - 2)
    elif isinstance(padding, str) and any(d != 1 for d in lhs_dilation):
        raise ValueError(
            "String padding is not implemented for transposed convolution using this op. Please either "
            "exactly specify the required padding or use conv_transpose."
        )
    if rhs_dilation is None:
        rhs_dilation = (1,) * (len(rhs_shape) - 2)
    pads: Pads
    if isinstance(padding, str):
        kernel = [rhs_shape[i] for i in dnums.rhs_spec[2:]]
        effective = [dilate_dim(k, r) for k, r in zip(kernel, rhs_dilation)]
        in_space = [lhs_shape[i] for i in dnums.lhs_spec[2:]]
        pads = tuple(padtype_to_pads(in_space, effective, window_strides, padding))
    else:
        try:
            pads = tuple((operator.index(lo), operator.index(hi)) for lo, hi in padding)
        except (ValueError, TypeError) as e:
            raise ValueError(
                "padding argument to conv_general_dilated should be a string or a sequence of (low, high) "
                f"pairs, got {padding}"
            ) from e
    pet = (
        None
        if preferred_element_type is None
        else dtypes.check_and_canonicalize_user_dtype(
            preferred_element_type, "conv_general_dilated"
        )
    )
    out: Array = conv_general_dilated_p.bind(
        lhs,
        rhs,
        window_strides=tuple(operator.index(s) for s in window_strides),
        padding=pads,
        lhs_dilation=tuple(operator.index(d) for d in lhs_dilation),
        rhs_dilation=tuple(operator.index(d) for d in rhs_dilation),
        dimension_numbers=dnums,
        feature_group_count=operator.index(feature_group_count),
        batch_group_count=operator.index(batch_group_count),
        precision=canonicalize_precision(precision),
        preferred_element_type=pet,
        out_sharding=None,
    )
    return out


def conv(
    lhs: ArrayLike,
    rhs: ArrayLike,
    window_strides: Sequence[int],
    padding: str,
    precision: PrecisionLike = None,
    preferred_element_type: DTypeLike | None = None,
) -> Array:
    """``conv_general_dilated`` in NCHW/OIHW layout with 'SAME' or 'VALID' padding."""
    return conv_general_dilated(
        lhs,
        rhs,
        window_strides,
        padding,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )


def conv_with_general_padding(
    lhs: ArrayLike,
    rhs: ArrayLike,
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int] | None,
    rhs_dilation: Sequence[int] | None,
    precision: PrecisionLike = None,
    preferred_element_type: DTypeLike | None = None,
) -> Array:
    """``conv_general_dilated`` in NCHW/OIHW layout with padding and dilations."""
    return conv_general_dilated(
        lhs,
        rhs,
        window_strides,
        padding,
        lhs_dilation=lhs_dilation,
        rhs_dilation=rhs_dilation,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )


_TRANSPOSE_LAYOUTS: dict[int, tuple[str, str, str]] = {
    2: ("NC", "IO", "NC"),
    3: ("NHC", "HIO", "NHC"),
    4: ("NHWC", "HWIO", "NHWC"),
    5: ("NHWDC", "HWDIO", "NHWDC"),
}


def conv_transpose(
    lhs: ArrayLike,
    rhs: ArrayLike,
    strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: ConvGeneralDilatedDimensionNumbers = None,
    transpose_kernel: bool = False,
    precision: PrecisionLike = None,
    preferred_element_type: DTypeLike | None = None,
    use_consistent_padding: bool = False,
) -> Array:
    """The N-d convolution "transpose": a fractionally strided convolution (lhs dilated by ``strides``).

    ``dimension_numbers`` defaults to TensorFlow's layouts (``('NHWC', 'HWIO', 'NHWC')`` in 2-D).
    'SAME'/'VALID' padding means the padding of the corresponding forward convolution; explicit
    pairs are the transposed convolution's own padding unless ``use_consistent_padding``, where
    they too are the forward padding (PyTorch's convention). ``transpose_kernel`` flips the
    spatial axes of the kernel and swaps its input/output feature axes (Keras' Conv2DTranspose).
    """
    lhs_shape, rhs_shape = shape_of(lhs), shape_of(rhs)
    assert len(lhs_shape) == len(rhs_shape) and len(lhs_shape) >= 2
    ndims = len(lhs_shape)
    if dimension_numbers is None:
        if ndims not in _TRANSPOSE_LAYOUTS:
            raise ValueError("No 4+ dimensional dimension_number defaults.")
        dimension_numbers = _TRANSPOSE_LAYOUTS[ndims]
    dn = conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers)
    k_sdims = [rhs_shape[i] for i in dn.rhs_spec[2:]]
    if rhs_dilation is None:
        rhs_dilation = (1,) * (ndims - 2)
    pads: str | Sequence[tuple[int, int]]
    if use_consistent_padding or padding in ("SAME", "VALID"):
        effective = [dilate_dim(k, r) for k, r in zip(k_sdims, rhs_dilation)]
        per_dim: Sequence[str | tuple[int, int]] = (
            [padding] * len(strides) if isinstance(padding, str) else padding
        )
        pads = tuple(
            conv_transpose_padding(k, s, p) for k, s, p in zip(effective, strides, per_dim)
        )
    else:
        pads = padding
    if transpose_kernel:
        rhs = rev(rhs, dn.rhs_spec[2:])
        perm = list(range(ndims))
        perm[dn.rhs_spec[0]], perm[dn.rhs_spec[1]] = dn.rhs_spec[1], dn.rhs_spec[0]
        rhs = transpose(rhs, perm)
    return conv_general_dilated(
        lhs,
        rhs,
        (1,) * (ndims - 2),
        pads,
        strides,
        rhs_dilation,
        dn,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )


# -- the primitive: shape and dtype rules, lowering ----------------------------------------------

conv_general_dilated_p: Primitive = Primitive("conv_general_dilated")


def _conv_abstract_eval(
    lhs: ShapedArray,
    rhs: ShapedArray,
    *,
    precision: CanonicalPrecision,
    preferred_element_type: np.dtype[Any] | None,
    out_sharding: None,
    **geometry: Unpack[ConvGeometry],
) -> ShapedArray:
    if lhs.dtype != rhs.dtype:
        raise TypeError(
            f"lax.conv_general_dilated requires arguments to have the same dtypes, got {lhs.dtype}, {rhs.dtype}."
        )
    shape = conv_general_dilated_shape(lhs, rhs, **geometry)
    dtype = lhs.dtype
    if preferred_element_type is not None:
        check_preferred_element_type(dtype, preferred_element_type)
        dtype = preferred_element_type
    return ShapedArray(shape, dtype, lhs.weak_type and rhs.weak_type)


def _convolution(
    result: ir.Type,
    lhs: ir.Value[Any],
    rhs: ir.Value[Any],
    *,
    precision: CanonicalPrecision,
    **geometry: Unpack[ConvGeometry],
) -> ir.Value[Any]:
    """One ``stablehlo.convolution``."""
    lhs_spec, rhs_spec, out_spec = geometry["dimension_numbers"]
    strides, padding = geometry["window_strides"], geometry["padding"]
    dnums = hlo.ConvDimensionNumbers.get(
        input_batch_dimension=lhs_spec[0],
        input_feature_dimension=lhs_spec[1],
        input_spatial_dimensions=list(lhs_spec[2:]),
        kernel_output_feature_dimension=rhs_spec[0],
        kernel_input_feature_dimension=rhs_spec[1],
        kernel_spatial_dimensions=list(rhs_spec[2:]),
        output_batch_dimension=out_spec[0],
        output_feature_dimension=out_spec[1],
        output_spatial_dimensions=list(out_spec[2:]),
    )
    # A dot algorithm (or none) means default precision for a convolution, as in JAX.
    pair = precision if isinstance(precision, tuple) else (Precision.DEFAULT, Precision.DEFAULT)
    out: ir.Value[Any] = hlo.convolution(
        result,
        lhs,
        rhs,
        dimension_numbers=dnums,
        feature_group_count=geometry["feature_group_count"],
        batch_group_count=geometry["batch_group_count"],
        window_strides=list(strides),
        padding=np.asarray(padding, np.int64).reshape(len(padding), 2),
        lhs_dilation=list(geometry["lhs_dilation"]),
        rhs_dilation=list(geometry["rhs_dilation"]),
        window_reversal=[False] * len(strides),
        precision_config=ir.ArrayAttr.get([hlo.PrecisionAttr.get(str(p)) for p in pair]),
    )
    return out


def _conv_lower(
    ctx: LoweringRuleContext,
    lhs: ir.Value[Any],
    rhs: ir.Value[Any],
    *,
    preferred_element_type: np.dtype[Any] | None,
    out_sharding: None,
    **params: Any,
) -> ir.Value[Any]:
    aval_out = ctx.avals_out[0]
    if not dtypes.issubdtype(aval_out.dtype, np.complexfloating):
        return _convolution(aval_to_ir_type(aval_out), lhs, rhs, **params)
    # Complex: three real convolutions (Gauss's trick), as JAX lowers them on CPU and GPU.
    real_dt = np.dtype(np.float32 if aval_out.dtype == np.complex64 else np.float64)
    real_out = aval_to_ir_type(ShapedArray(aval_out.shape, real_dt))

    def conv(x: ir.Value[Any], y: ir.Value[Any]) -> ir.Value[Any]:
        return _convolution(real_out, x, y, **params)

    x_re, x_im, y_re, y_im = hlo.real(lhs), hlo.imag(lhs), hlo.real(rhs), hlo.imag(rhs)
    k1 = conv(hlo.add(x_re, x_im), y_re)
    k2 = conv(x_re, hlo.subtract(y_im, y_re))
    k3 = conv(x_im, hlo.add(y_re, y_im))
    out: ir.Value[Any] = hlo.complex(hlo.subtract(k1, k3), hlo.add(k1, k2))
    return out


# -- autodiff (JAX's defbilinear with _conv_general_dilated_transpose_lhs/_rhs) -----------------
#
# Ignoring spatial dimensions, with m = batch, j = input feature and k = output feature, the
# convolution contracts [m, j] [j, k] -> [m, k]; the transposes are [m, k] [k, j] -> [m, j]
# (lhs) and [j, m] [m, k] -> [j, k] (rhs). Feature groups [m, gj] [j, gk] -> [m, gk]: the lhs
# transpose moves the group from the kernel's input to its output features, the rhs transpose
# is batch grouping. Batch groups [gm, j] [j, gk] -> [m, gk]: the lhs transpose is feature
# grouping with the group moved on the kernel and on the output, the rhs transpose is feature
# grouping.


def _spec_transpose(spec: Sequence[int]) -> tuple[int, ...]:
    return (spec[1], spec[0], *spec[2:])


def _reshape_axis_into(src: int, dst: int, x: Any) -> Array:
    """Merges axis ``src`` into axis ``dst`` (numbered with ``src`` removed), ``src`` major."""
    shape = shape_of(x)
    perm = [i for i in range(len(shape)) if i != src]
    perm.insert(dst, src)
    new_shape = [d for i, d in enumerate(shape) if i != src]
    new_shape[dst] *= shape[src]
    return reshape(x, new_shape, perm)


def _reshape_axis_out_of(src: int, size1: int, x: Any) -> Array:
    """Splits axis ``src`` into ``(size1, rest)``."""
    shape = list(shape_of(x))
    size2, ragged = divmod(shape[src], size1)
    assert not ragged
    shape[src : src + 1] = [size1, size2]
    return reshape(x, shape)


def _conv_transpose(
    ct: Any,
    lhs: Any,
    rhs: Any,
    *,
    precision: CanonicalPrecision,
    preferred_element_type: np.dtype[Any] | None,
    out_sharding: None,
    **geometry: Unpack[ConvGeometry],
) -> list[Array | None]:
    """JAX's ``_conv_general_dilated_transpose_lhs`` and ``_rhs``: convolutions of the cotangent
    with the other operand, strides and dilations swapped (see the comment above)."""
    lhs_spec, rhs_spec, out_spec = geometry["dimension_numbers"]
    fgc, bgc = geometry["feature_group_count"], geometry["batch_group_count"]
    lhs_aval, rhs_aval = (x.aval if is_undefined_primal(x) else get_aval(x) for x in (lhs, rhs))
    ct_aval = get_aval(ct)

    def conv(x: Any, y: Any, side: str, dn: ConvDimensionNumbers, **kw: Any) -> Array:
        pads = conv_vjp_padding(side, lhs_aval.shape, rhs_aval.shape, ct_aval.shape, **geometry)
        x, y = (
            a if get_aval(a).dtype == ct_aval.dtype else convert_element_type(a, ct_aval.dtype)
            for a in (x, y)
        )
        out = conv_general_dilated(
            x,
            y,
            padding=pads,
            dimension_numbers=dn,
            precision=precision,
            preferred_element_type=preferred_element_type,
            **kw,
        )
        aval = lhs_aval if side == "lhs" else rhs_aval
        return out if out.dtype == aval.dtype else convert_element_type(out, aval.dtype)

    lhs_ct = rhs_ct = None
    if is_undefined_primal(lhs):
        groups = max(fgc, bgc)
        if groups > 1:  # the group moves from the kernel's output features to its input features
            rhs = _reshape_axis_into(
                rhs_spec[0], rhs_spec[1], _reshape_axis_out_of(rhs_spec[0], groups, rhs)
            )
        lhs_ct = conv(
            ct,
            rev(rhs, rhs_spec[2:]),
            "lhs",
            ConvDimensionNumbers(out_spec, _spec_transpose(rhs_spec), lhs_spec),
            window_strides=geometry["lhs_dilation"],
            lhs_dilation=geometry["window_strides"],
            rhs_dilation=geometry["rhs_dilation"],
            feature_group_count=groups,
        )
        if bgc > 1:
            lhs_ct = _reshape_axis_into(
                lhs_spec[1], lhs_spec[0], _reshape_axis_out_of(lhs_spec[1], bgc, lhs_ct)
            )
    if is_undefined_primal(rhs) and ct_aval.size:  # (an empty ct would need an empty kernel)
        rhs_ct = conv(
            lhs,
            ct,
            "rhs",
            ConvDimensionNumbers(*map(_spec_transpose, (lhs_spec, out_spec, rhs_spec))),
            window_strides=geometry["rhs_dilation"],
            lhs_dilation=geometry["lhs_dilation"],
            rhs_dilation=geometry["window_strides"],
            feature_group_count=bgc,
            batch_group_count=fgc,
        )
    return [lhs_ct, rhs_ct]


# -- batching (JAX's _conv_general_dilated_batch_rule) ----------------------------------------


def _conv_batch(
    args: Sequence[Any],
    dims: Sequence[int | None],
    *,
    dimension_numbers: ConvDimensionNumbers,
    feature_group_count: int,
    batch_group_count: int,
    out_sharding: None,
    **params: Any,
) -> tuple[Any, int | None]:
    """Both operands batched: the axis joins the lhs features and the kernel's output features
    as extra feature groups (or the lhs batch, as extra batch groups); lhs only: the lhs batch;
    rhs only: the kernel's output features (inside each group)."""
    lhs, rhs = args
    lhs_bdim, rhs_bdim = dims
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    fgc, bgc = feature_group_count, batch_group_count

    def conv(x: Any, y: Any, fgc: int, bgc: int) -> Array:
        return conv_general_dilated(
            x,
            y,
            dimension_numbers=dimension_numbers,
            feature_group_count=fgc,
            batch_group_count=bgc,
            **params,
        )

    if lhs_bdim is None and rhs_bdim is None:
        return conv(lhs, rhs, fgc, bgc), None
    lhs_shape, rhs_shape = list(shape_of(lhs)), list(shape_of(rhs))
    size = lhs_shape[lhs_bdim] if lhs_bdim is not None else rhs_shape[rhs_bdim or 0]
    if size == 0:  # folding a size-0 axis into another loses the other's size
        lhs_un = [d for i, d in enumerate(lhs_shape) if i != lhs_bdim]
        rhs_un = [d for i, d in enumerate(rhs_shape) if i != rhs_bdim]
        shape = conv_general_dilated_shape(
            ShapedArray(tuple(lhs_un), get_aval(lhs).dtype),
            ShapedArray(tuple(rhs_un), get_aval(rhs).dtype),
            dimension_numbers=dimension_numbers,
            feature_group_count=fgc,
            batch_group_count=bgc,
            **{k: params[k] for k in ("window_strides", "padding", "lhs_dilation", "rhs_dilation")},
        )
        pet = params["preferred_element_type"]
        dtype = get_aval(lhs).dtype if pet is None else pet
        return broadcast(np.zeros((), dtype), (0, *shape)), 0
    if lhs_bdim is not None and rhs_bdim is not None:
        if bgc > 1:
            new_lhs, bgc = _reshape_axis_into(lhs_bdim, lhs_spec[0], lhs), bgc * size
        else:
            new_lhs, fgc = _reshape_axis_into(lhs_bdim, lhs_spec[1], lhs), fgc * size
        out = conv(new_lhs, _reshape_axis_into(rhs_bdim, rhs_spec[0], rhs), fgc, bgc)
        return _reshape_axis_out_of(out_spec[1], size, out), out_spec[1]
    if lhs_bdim is not None:
        if bgc == 1:
            out = conv(_reshape_axis_into(lhs_bdim, lhs_spec[0], lhs), rhs, fgc, bgc)
        else:  # the batch groups stay outermost in the lhs batch dimension
            new_lhs = _reshape_axis_out_of(lhs_spec[0] + int(lhs_bdim <= lhs_spec[0]), bgc, lhs)
            new_lhs = _reshape_axis_into(
                lhs_bdim + int(lhs_spec[0] < lhs_bdim), lhs_spec[0] + 1, new_lhs
            )
            out = conv(_reshape_axis_into(lhs_spec[0], lhs_spec[0], new_lhs), rhs, fgc, bgc)
        return _reshape_axis_out_of(out_spec[0], size, out), out_spec[0]
    assert rhs_bdim is not None
    if fgc == 1 and bgc == 1:
        out = conv(lhs, _reshape_axis_into(rhs_bdim, rhs_spec[0], rhs), fgc, bgc)
        return _reshape_axis_out_of(out_spec[1], size, out), out_spec[1]
    # The groups stay outermost in the kernel's output features, the batch axis inside them.
    groups = max(fgc, bgc)
    new_rhs = _reshape_axis_out_of(rhs_spec[0] + int(rhs_bdim <= rhs_spec[0]), groups, rhs)
    new_rhs = _reshape_axis_into(rhs_bdim + int(rhs_spec[0] < rhs_bdim), rhs_spec[0] + 1, new_rhs)
    out = conv(lhs, _reshape_axis_into(rhs_spec[0], rhs_spec[0], new_rhs), fgc, bgc)
    out = _reshape_axis_out_of(
        out_spec[1] + 1, size, _reshape_axis_out_of(out_spec[1], groups, out)
    )
    return _reshape_axis_into(out_spec[1], out_spec[1] + 1, out), out_spec[1]


conv_general_dilated_p.def_rules(
    Rules(
        abstract_eval=_conv_abstract_eval,
        lower=_conv_lower,
        jvp=bilinear_jvp(conv_general_dilated_p),
        transpose=_conv_transpose,
        batch=_conv_batch,
    )
)
