"""``dot_general``: tensor contraction with batch dimensions, and the ``dot`` convenience."""

from __future__ import annotations

import builtins
import enum
import operator
from collections.abc import Sequence
from typing import Any, TypeAlias

import numpy as np

from jax_core._src import config, dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.interpreters.ad_util import bilinear_jvp
from jax_core._src.lax.dot_algorithms import (
    DotAlgorithm,
    DotAlgorithmPreset,
    algorithm_attr,
    algorithm_compute_types,
    check_cpu_algorithm,
)
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.lax.shape.dimensions import shape_of
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array


class Precision(enum.Enum):
    """The precision of a matrix multiply on accelerators (no effect on CPU).

    ``DEFAULT`` (aliases ``'default'``, ``'fastest'``, ``'bfloat16'``) is fastest;
    ``HIGH`` (``'high'``, ``'bfloat16_3x'``, ``'tensorfloat32'``) is more accurate;
    ``HIGHEST`` (``'highest'``, ``'float32'``) is the most accurate.
    """

    DEFAULT = 0
    HIGH = 1
    HIGHEST = 2

    @classmethod
    def _missing_(cls, value: object) -> Precision | None:
        return _PRECISION_STRINGS.get(value) if isinstance(value, str) or value is None else None

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __str__(self) -> str:
        return self.name


_PRECISION_STRINGS: dict[str | None, Precision] = {
    "highest": Precision.HIGHEST,
    "float32": Precision.HIGHEST,
    "high": Precision.HIGH,
    "bfloat16_3x": Precision.HIGH,
    "tensorfloat32": Precision.HIGH,
    "default": Precision.DEFAULT,
    "bfloat16": Precision.DEFAULT,
    "fastest": Precision.DEFAULT,
    None: Precision.DEFAULT,
}

PrecisionLike: TypeAlias = (
    str
    | Precision
    | tuple[str, str]
    | tuple[Precision, Precision]
    | DotAlgorithm
    | DotAlgorithmPreset
    | None
)
"""What ``precision`` arguments accept: a name, a ``Precision``, a pair of them, a dot algorithm
(or a preset's name), or None."""

CanonicalPrecision: TypeAlias = tuple[Precision, Precision] | DotAlgorithm | DotAlgorithmPreset | None
"""The ``precision`` parameter of ``dot_general``: one ``Precision`` per operand, an algorithm,
or None."""

DotDimensionNumbers: TypeAlias = tuple[
    tuple[Sequence[int], Sequence[int]], tuple[Sequence[int], Sequence[int]]
]
"""``((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch))``."""

_DimensionNumbers: TypeAlias = tuple[
    tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]
]


def canonicalize_precision(precision: PrecisionLike) -> CanonicalPrecision:
    """A precision argument as a pair of ``Precision`` values (or None), with JAX's error. None
    means ``jax_default_matmul_precision`` (itself None by default)."""
    if precision is None:
        default = config.default_matmul_precision.value
        if default is None:
            return None
        try:
            return canonicalize_precision(default)
        except ValueError:
            raise ValueError(
                "jax_default_matmul_precision flag must be set to None, a value in "
                f"{list(_PRECISION_STRINGS)}, or the name of a lax.DotAlgorithmPreset, but got {default}"
            ) from None
    if isinstance(precision, Precision):
        return precision, precision
    if isinstance(precision, str) and precision in _PRECISION_STRINGS:
        return Precision(precision), Precision(precision)
    if isinstance(precision, str) and precision in DotAlgorithmPreset.__members__:
        return DotAlgorithmPreset[precision]
    if isinstance(precision, (DotAlgorithm, DotAlgorithmPreset)):
        return precision
    if isinstance(precision, tuple) and len(precision) == 2:
        first: object = precision[0]
        second: object = precision[1]
        if isinstance(first, Precision) and isinstance(second, Precision):
            return first, second
        if (
            isinstance(first, str)
            and isinstance(second, str)
            and first in _PRECISION_STRINGS
            and second in _PRECISION_STRINGS
        ):
            return Precision(first), Precision(second)
    raise ValueError(
        "Precision argument must be one of:\n"
        "- None,\n"
        f"- a string in {list(_PRECISION_STRINGS)},\n"
        "- a lax.Precision value,\n"
        "- a tuple of two lax.Precision values or strings,\n"
        "- a lax.DotAlgorithmPreset or the name of one of these presets, or\n"
        "- a lax.DotAlgorithm value;\n"
        f"but got {precision}."
    )


def _index_tuple(xs: Sequence[int] | int) -> tuple[int, ...]:
    return (
        (operator.index(xs),)
        if isinstance(xs, (int, np.integer))
        else tuple(operator.index(x) for x in xs)
    )


def _type_properties(dt: np.dtype[Any]) -> tuple[bool, int, int, int, bool]:
    """XLA's ordering of element types for mixed-type dots (``HigherPrecisionType``)."""
    is_complex = dtypes.issubdtype(dt, np.complexfloating)
    real = np.dtype(np.float32 if dt == np.complex64 else np.float64) if is_complex else dt
    is_float = dtypes.issubdtype(real, np.floating)
    return (
        is_complex,
        int(dtypes.finfo(real).maxexp) if is_float else -1,
        int(dtypes.finfo(real).nmant) if is_float else -1,
        _bit_width(real),
        not dtypes.issubdtype(real, np.unsignedinteger),
    )


def _bit_width(dt: np.dtype[Any]) -> int:
    if dtypes.issubdtype(dt, np.inexact):
        return int(dtypes.finfo(dt).bits)
    if dtypes.issubdtype(dt, np.integer):
        return int(dtypes.iinfo(dt).bits)
    return 1


def _dot_general_shape(
    lhs: ShapedArray, rhs: ShapedArray, dimension_numbers: _DimensionNumbers
) -> tuple[int, ...]:
    (lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch) = dimension_numbers
    if not all(0 <= d < lhs.ndim for d in (*lhs_contracting, *lhs_batch)):
        raise TypeError(
            "dot_general requires lhs dimension numbers to be nonnegative and less than the number "
            f"of axes of the lhs value, got lhs_batch of {lhs_batch} and lhs_contracting of "
            f"{lhs_contracting} for lhs of rank {lhs.ndim}"
        )
    if not all(0 <= d < rhs.ndim for d in (*rhs_contracting, *rhs_batch)):
        raise TypeError(
            "dot_general requires rhs dimension numbers to be nonnegative and less than the number "
            f"of axes of the rhs value, got rhs_batch of {rhs_batch} and rhs_contracting of "
            f"{rhs_contracting} for rhs of rank {rhs.ndim}"
        )
    if len(lhs_batch) != len(rhs_batch):
        raise TypeError(
            "dot_general requires equal numbers of lhs_batch and rhs_batch dimensions, got "
            f"lhs_batch {lhs_batch} and rhs_batch {rhs_batch}."
        )
    for side, batch in (("lhs", lhs_batch), ("rhs", rhs_batch)):
        if len(set(batch)) != len(batch):
            raise TypeError(
                f"dot_general requires {side} batch dimensions to be distinct, got {side}_batch "
                f"{batch}."
            )
    for side, contracting in (("lhs", lhs_contracting), ("rhs", rhs_contracting)):
        if len(set(contracting)) != len(contracting):
            raise TypeError(
                f"dot_general requires {side} contracting dimensions to be distinct, got "
                f"{side}_contracting {contracting}."
            )
    for side, batch, contracting in (
        ("lhs", lhs_batch, lhs_contracting),
        ("rhs", rhs_batch, rhs_contracting),
    ):
        if set(batch) & set(contracting):
            raise TypeError(
                f"dot_general requires {side} batch dimensions to be disjoint from contracting "
                f"dimensions, got {side}_batch {batch} and {side}_contracting {contracting}."
            )
    lhs_batch_shape = tuple(lhs.shape[i] for i in lhs_batch)
    rhs_batch_shape = tuple(rhs.shape[i] for i in rhs_batch)
    if lhs_batch_shape != rhs_batch_shape:
        raise TypeError(
            "dot_general requires lhs batch dimensions and rhs batch dimensions to have the same "
            f"shape, got {lhs_batch_shape} and {rhs_batch_shape}."
        )
    lhs_contracting_shape = tuple(lhs.shape[i] for i in lhs_contracting)
    rhs_contracting_shape = tuple(rhs.shape[i] for i in rhs_contracting)
    if lhs_contracting_shape != rhs_contracting_shape:
        raise TypeError(
            "dot_general requires contracting dimensions to have the same shape, got "
            f"{lhs_contracting_shape} and {rhs_contracting_shape}."
        )
    lhs_free = tuple(
        d for i, d in enumerate(lhs.shape) if i not in lhs_contracting and i not in lhs_batch
    )
    rhs_free = tuple(
        d for i, d in enumerate(rhs.shape) if i not in rhs_contracting and i not in rhs_batch
    )
    return lhs_batch_shape + lhs_free + rhs_free


def dot_general(
    lhs: ArrayLike,
    rhs: ArrayLike,
    dimension_numbers: DotDimensionNumbers,
    precision: PrecisionLike = None,
    preferred_element_type: DTypeLike | None = None,
) -> Array:
    """Contracts ``lhs`` with ``rhs`` (XLA's DotGeneral).

    ``dimension_numbers`` is ``((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch))``.
    The result has the batch dimensions, then the free dimensions of ``lhs``, then those
    of ``rhs``. ``preferred_element_type`` sets the result (and accumulation) dtype.
    """
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers
    dnums: _DimensionNumbers = (
        (_index_tuple(lhs_contract), _index_tuple(rhs_contract)),
        (_index_tuple(lhs_batch), _index_tuple(rhs_batch)),
    )
    pet = (
        None
        if preferred_element_type is None
        else dtypes.check_and_canonicalize_user_dtype(preferred_element_type, "dot")
    )
    out: Array = dot_general_p.bind(
        lhs,
        rhs,
        dimension_numbers=dnums,
        precision=canonicalize_precision(precision),
        preferred_element_type=pet,
    )
    return out


dot_general_p: Primitive = Primitive("dot_general")


def _dot_general_abstract_eval(
    lhs: ShapedArray,
    rhs: ShapedArray,
    *,
    dimension_numbers: _DimensionNumbers,
    precision: CanonicalPrecision,
    preferred_element_type: np.dtype[Any] | None,
) -> ShapedArray:
    shape = _dot_general_shape(lhs, rhs, dimension_numbers)
    lhs_prop, rhs_prop = _type_properties(lhs.dtype), _type_properties(rhs.dtype)
    if lhs_prop > rhs_prop:
        result = lhs.dtype
    elif rhs_prop > lhs_prop:
        result = rhs.dtype
    elif lhs.dtype != rhs.dtype:
        raise TypeError(f"lax.dot_general argument type error: {lhs.dtype}, {rhs.dtype}")
    else:
        result = lhs.dtype
    if preferred_element_type is not None and preferred_element_type != result:
        has_algorithm = isinstance(precision, (DotAlgorithm, DotAlgorithmPreset))
        if not has_algorithm and not dtypes.issubdtype(result, np.floating) and _bit_width(
            preferred_element_type
        ) < _bit_width(result):
            raise TypeError(
                "`preferred_element_type` must not be narrower than the original type, got "
                f"preferred_element_type of {preferred_element_type} for result type of {result}."
            )
        result = preferred_element_type
    return ShapedArray(shape, result, lhs.weak_type and rhs.weak_type)


def _dot_general_lower(
    ctx: LoweringRuleContext,
    lhs: ir.Value[Any],
    rhs: ir.Value[Any],
    *,
    dimension_numbers: _DimensionNumbers,
    precision: CanonicalPrecision,
    preferred_element_type: np.dtype[Any] | None,
) -> ir.Value[Any]:
    lhs_aval, rhs_aval = ctx.avals_in
    aval_out = ctx.avals_out[0]
    acc_aval = aval_out
    algorithm: ir.Attribute | None = None
    if isinstance(precision, (DotAlgorithm, DotAlgorithmPreset)):
        # The operands are converted to the algorithm's input types, the dot accumulates in its
        # accumulation type and the result is converted to the output type, as JAX lowers it.
        check_cpu_algorithm(precision)
        lhs_t, rhs_t, acc_t = algorithm_compute_types(
            precision, lhs_aval.dtype, rhs_aval.dtype, aval_out.dtype
        )
        if lhs_t != lhs_aval.dtype:
            lhs = hlo_util.convert(lhs, lhs_aval, ShapedArray(lhs_aval.shape, lhs_t))
        if rhs_t != rhs_aval.dtype:
            rhs = hlo_util.convert(rhs, rhs_aval, ShapedArray(rhs_aval.shape, rhs_t))
        acc_aval = ShapedArray(aval_out.shape, acc_t)
        algorithm = algorithm_attr(precision, lhs_t, rhs_t)
        precision = None
    elif lhs_aval.dtype != rhs_aval.dtype:  # CPU/GPU codegen wants equal operand types
        lhs = hlo_util.convert(lhs, lhs_aval, ShapedArray(lhs_aval.shape, aval_out.dtype))
        rhs = hlo_util.convert(rhs, rhs_aval, ShapedArray(rhs_aval.shape, aval_out.dtype))
    (lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch) = dimension_numbers
    dnums = hlo.DotDimensionNumbers.get(
        lhs_batching_dimensions=list(lhs_batch),
        rhs_batching_dimensions=list(rhs_batch),
        lhs_contracting_dimensions=list(lhs_contracting),
        rhs_contracting_dimensions=list(rhs_contracting),
    )
    pair = precision if precision is not None else (Precision.DEFAULT, Precision.DEFAULT)
    precision_config = ir.ArrayAttr.get([hlo.PrecisionAttr.get(str(p)) for p in pair])
    out: ir.Value[Any] = hlo.dot_general(
        aval_to_ir_type(acc_aval),
        lhs,
        rhs,
        dnums,
        precision_config=precision_config,
        **({} if algorithm is None else {"algorithm": algorithm}),
    )
    if acc_aval.dtype != aval_out.dtype:
        out = hlo_util.convert(out, acc_aval, aval_out)
    return out


def _dot_general_pp(params: dict[str, Any]) -> list[tuple[str, Any]]:
    # As JAX prints it: None-valued params hidden, dimension numbers as lists.
    (lc, rc), (lb, rb) = params["dimension_numbers"]
    shown = dict(params, dimension_numbers=((list(lc), list(rc)), (list(lb), list(rb))))
    return [(k, v) for k, v in sorted(shown.items()) if v is not None]


# -- autodiff and batching (JAX's defbilinear rules and _dot_general_batch_rule) ---------------


def _ranges_like(*xs: Sequence[int]) -> list[list[int]]:
    """Consecutive index ranges with the lengths of ``xs``."""
    out: list[list[int]] = []
    start = 0
    for x in xs:
        out.append(list(range(start, start + len(x))))
        start += len(x)
    return out


def _remaining(n: int, *removed: Sequence[int]) -> list[int]:
    gone = {d for r in removed for d in r}
    return [i for i in range(n) if i not in gone]


def _transpose_lhs(
    g: Any,
    x_aval: ShapedArray,
    y: Any,
    dimension_numbers: _DimensionNumbers,
    precision: CanonicalPrecision,
    preferred_element_type: np.dtype[Any] | None,
    swap_ans: bool = False,
) -> Array:
    """The cotangent of ``x`` in ``dot_general(x, y)`` (``y``'s result dims come first when
    ``swap_ans``, i.e. when ``x`` is really the rhs)."""
    from jax_core._src.lax.elementwise import convert_element_type
    from jax_core._src.lax.shape.dimensions import transpose

    (x_contract, y_contract), (x_batch, y_batch) = dimension_numbers
    x_kept = _remaining(x_aval.ndim, x_contract, x_batch)
    y_kept = _remaining(len(shape_of(y)), y_contract, y_batch)
    if swap_ans:
        ans_batch, ans_y, _ = _ranges_like(x_batch, y_kept, x_kept)
    else:
        ans_batch, _, ans_y = _ranges_like(x_batch, x_kept, y_kept)
    dims: DotDimensionNumbers = ((ans_y, y_kept), (ans_batch, y_batch))
    x_contract_sorted_by_y = [x_contract[int(i)] for i in np.argsort(y_contract)]
    out_axes = np.argsort([*x_batch, *x_kept, *x_contract_sorted_by_y])
    out = dot_general(g, y, dims, precision, preferred_element_type)
    x_bar = transpose(out, tuple(int(a) for a in out_axes))
    if x_bar.dtype != x_aval.dtype:
        x_bar = convert_element_type(x_bar, x_aval.dtype)
    return x_bar


def _dot_general_transpose(
    ct: Any,
    lhs: Any,
    rhs: Any,
    *,
    dimension_numbers: _DimensionNumbers,
    precision: CanonicalPrecision,
    preferred_element_type: np.dtype[Any] | None,
) -> list[Array | None]:
    from jax_core._src.interpreters.ad_util import is_undefined_primal

    (lc, rc), (lb, rb) = dimension_numbers
    lhs_ct = rhs_ct = None
    if is_undefined_primal(lhs):
        lhs_ct = _transpose_lhs(
            ct, lhs.aval, rhs, dimension_numbers, precision, preferred_element_type
        )
    if is_undefined_primal(rhs):
        rhs_ct = _transpose_lhs(
            ct, rhs.aval, lhs, ((rc, lc), (rb, lb)), precision, preferred_element_type, True
        )
    return [lhs_ct, rhs_ct]


def _bump(dims: Sequence[int], b: int) -> tuple[int, ...]:
    return tuple(d + (d >= b) for d in dims)


def _dot_general_batch(
    args: Sequence[Any],
    dims: Sequence[int | None],
    *,
    dimension_numbers: _DimensionNumbers,
    precision: CanonicalPrecision,
    preferred_element_type: np.dtype[Any] | None,
) -> tuple[Any, int]:
    """Both operands batched: the vmapped axis becomes a leading dot batch dimension; one
    batched: it becomes a free dimension of that operand."""
    lhs, rhs = args
    lbd, rbd = dims
    (lc, rc), (lb, rb) = dimension_numbers
    if lbd is not None and rbd is not None:
        lb, rb = (lbd, *_bump(lb, lbd)), (rbd, *_bump(rb, rbd))
        lc, rc = _bump(lc, lbd), _bump(rc, rbd)
        out_dim = 0
    elif lbd is not None:
        lhs_free = _remaining(len(shape_of(lhs)), lb, lc)
        out_dim = len(lb) + sum(d < lbd for d in lhs_free)
        lb, lc = _bump(lb, lbd), _bump(lc, lbd)
    else:
        assert rbd is not None
        rhs_free = _remaining(len(shape_of(rhs)), rb, rc)
        out_dim = len(shape_of(lhs)) - len(lc) + sum(d < rbd for d in rhs_free)
        rb, rc = _bump(rb, rbd), _bump(rc, rbd)
    out = dot_general_p.bind(
        lhs,
        rhs,
        dimension_numbers=((lc, rc), (lb, rb)),
        precision=precision,
        preferred_element_type=preferred_element_type,
    )
    return out, out_dim


dot_general_p.def_rules(
    Rules(
        abstract_eval=_dot_general_abstract_eval,
        lower=_dot_general_lower,
        jvp=bilinear_jvp(dot_general_p),
        transpose=_dot_general_transpose,
        batch=_dot_general_batch,
        pp=_dot_general_pp,
    )
)


def dot(
    lhs: ArrayLike,
    rhs: ArrayLike,
    *,
    dimension_numbers: DotDimensionNumbers | None = None,
    precision: PrecisionLike = None,
    preferred_element_type: DTypeLike | None = None,
) -> Array:
    """Vector/matrix products: contracts the last axis of ``lhs`` with the first of ``rhs``.

    Without ``dimension_numbers`` both operands must have rank 1 or 2.
    """
    lhs_shape, rhs_shape = shape_of(lhs), shape_of(rhs)
    if dimension_numbers is None:
        if 1 <= len(lhs_shape) <= 2 and 1 <= len(rhs_shape) <= 2 and lhs_shape[-1] == rhs_shape[0]:
            dimension_numbers = (((len(lhs_shape) - 1,), (0,)), ((), ()))
        else:
            raise ValueError(
                "jax.lax.dot: dimension_numbers must be specified when not performing simple "
                "un-batched matrix-matrix, matrix-vector, or vector-vector products; got "
                f"lhs_shape={lhs_shape} rhs_shape={rhs_shape}"
            )
    return dot_general(lhs, rhs, dimension_numbers, precision, preferred_element_type)


# -- arithmetic ---------------------------------------------------------------------------------
def batch_matmul(lhs: ArrayLike, rhs: ArrayLike, precision: PrecisionLike = None) -> Array:
    """Matrix products over the last two dimensions, batched over the leading ones (same rank)."""
    lnd, rnd = len(shape_dims.shape_of(lhs)), len(shape_dims.shape_of(rhs))
    if builtins.min(lnd, rnd) < 2:
        raise ValueError(f"Arguments to batch_matmul must be at least 2D, got {lnd}, {rnd}")
    if lnd != rnd:
        raise ValueError(f"Arguments to batch_matmul must have same ndim, got {lnd}, {rnd}")
    batch = tuple(range(lnd - 2))
    return dot_general(
        lhs, rhs, (((lnd - 1,), (rnd - 2,)), (batch, batch)), precision=precision
    )
