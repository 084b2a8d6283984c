"""How a dot product is computed (``DotAlgorithm``, ``DotAlgorithmPreset``) and how accurately a
unary function is (``Tolerance``, ``AccuracyMode``): the values ``precision=`` and ``accuracy=``
accept, and their StableHLO attributes.

A ``DotAlgorithm`` names the types the operands are rounded to, the accumulation type and how many
operations emulate a higher precision; a ``DotAlgorithmPreset`` is one of the combinations some
platform supports. ``dot_general`` lowers either to the ``algorithm`` attribute of
``stablehlo.dot_general`` after converting the operands to the algorithm's input types. The CPU
compiler ignores algorithms it cannot honour, so (as JAX does) only the presets it runs are
accepted there; the others raise ``ValueError`` when the dot is lowered.
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

import numpy as np

from jax_core._src import dtypes
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.ir_types import dtype_to_ir_type
from jax_core._src.typing import DTypeLike


class Tolerance:
    """The tolerances a unary function's implementation must meet (``accuracy=`` of ``exp`` ...).

    At most two are meaningful together: ``atol`` and ``rtol``, or ``atol`` and ``ulps``.
    """

    atol: float
    rtol: float
    ulps: int

    def __init__(self, atol: float = 0.0, rtol: float = 0.0, ulps: int = 0) -> None:
        if atol < 0.0 or rtol < 0.0 or ulps < 0:
            raise ValueError("Tolerances must be non-negative.")
        if atol == 0.0 and rtol == 0.0 and ulps == 0:
            raise ValueError("At least one of atol, rtol, or ulps must be set.")
        self.atol = atol
        self.rtol = rtol
        self.ulps = ulps


class AccuracyMode(enum.Enum):
    """A named accuracy for a unary function: the most accurate implementation, or the default."""

    HIGHEST = 1
    DEFAULT = 2


def accuracy_attr(accuracy: Tolerance | AccuracyMode | None) -> ir.Attribute | None:
    """The ``result_accuracy`` attribute of a unary op (None: the compiler's default)."""
    if accuracy is None:
        return None
    if isinstance(accuracy, AccuracyMode):
        out: ir.Attribute = hlo.ResultAccuracyAttr.get(0.0, 0.0, 0, accuracy.name)
        return out
    tol: ir.Attribute = hlo.ResultAccuracyAttr.get(
        atol=accuracy.atol, rtol=accuracy.rtol, ulps=accuracy.ulps, mode="TOLERANCE"
    )
    return tol


class DotAlgorithm(NamedTuple):
    """How a dot product is computed: the types the operands are rounded to, the accumulation
    type, and (for algorithms emulating a higher precision) the number of components each operand
    is split into and of primitive products; ``allow_imprecise_accumulation`` permits accumulating
    some steps in a lower precision. Pass it as ``precision=`` of ``dot``/``dot_general``.
    """

    lhs_precision_type: DTypeLike
    rhs_precision_type: DTypeLike
    accumulation_type: DTypeLike
    lhs_component_count: int = 1
    rhs_component_count: int = 1
    num_primitive_operations: int = 1
    allow_imprecise_accumulation: bool = False


def _f8_dtypes() -> tuple[np.dtype[Any], ...]:
    names = (
        "float8_e4m3b11fnuz",
        "float8_e4m3fn",
        "float8_e4m3fnuz",
        "float8_e5m2",
        "float8_e5m2fnuz",
        "float8_e3m4",
        "float8_e4m3",
        "float8_e8m0fnu",
    )
    return tuple(np.dtype(getattr(dtypes, n)) for n in names if hasattr(dtypes, n))


class DotAlgorithmPreset(enum.Enum):
    """The dot algorithms known to be supported on at least one platform, named
    ``LHS_RHS_ACCUMULATION`` (``_X3``/``_X6``/``_X9``: emulated with that many products;
    ``ANY_F8``: any float8 input; ``_FAST_ACCUM``: imprecise accumulation allowed). Pass a member,
    or its name as a string, as ``precision=``.
    """

    DEFAULT = enum.auto()
    ANY_F8_ANY_F8_F32 = enum.auto()
    ANY_F8_ANY_F8_F32_FAST_ACCUM = enum.auto()
    ANY_F8_ANY_F8_ANY = enum.auto()
    ANY_F8_ANY_F8_ANY_FAST_ACCUM = enum.auto()
    F16_F16_F16 = enum.auto()
    F16_F16_F32 = enum.auto()
    BF16_BF16_BF16 = enum.auto()
    BF16_BF16_F32 = enum.auto()
    BF16_BF16_F32_X3 = enum.auto()
    BF16_BF16_F32_X6 = enum.auto()
    BF16_BF16_F32_X9 = enum.auto()
    TF32_TF32_F32 = enum.auto()
    TF32_TF32_F32_X3 = enum.auto()
    F32_F32_F32 = enum.auto()
    F64_F64_F64 = enum.auto()

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __str__(self) -> str:
        return self.name

    @property
    def supported_lhs_types(self) -> tuple[DTypeLike, ...] | None:
        """The operand types the algorithm takes as they are (others are converted to the first);
        None: any."""
        name = self.name
        if name == "DEFAULT" or name.startswith("ANY_F8"):
            return None
        if name.startswith("F16_"):
            return (np.float16,)
        if name in ("BF16_BF16_BF16", "BF16_BF16_F32"):
            return (dtypes.bfloat16, np.float32)
        if name == "F64_F64_F64":
            return (np.float64,)
        return (np.float32,)

    @property
    def supported_rhs_types(self) -> tuple[DTypeLike, ...] | None:
        """As ``supported_lhs_types``, for the right operand."""
        return self.supported_lhs_types

    @property
    def accumulation_type(self) -> DTypeLike | None:
        """The accumulation type (None: set by ``preferred_element_type``)."""
        name = self.name
        if name in ("DEFAULT", "ANY_F8_ANY_F8_ANY", "ANY_F8_ANY_F8_ANY_FAST_ACCUM"):
            return None
        if name == "F16_F16_F16":
            return np.float16
        if name == "BF16_BF16_BF16":
            return dtypes.bfloat16
        if name == "F64_F64_F64":
            return np.float64
        return np.float32

    def supported_output_types(
        self, lhs_dtype: DTypeLike, rhs_dtype: DTypeLike
    ) -> tuple[DTypeLike, ...] | None:
        """The result types the algorithm produces directly (None: any)."""
        name = self.name
        if name in ("ANY_F8_ANY_F8_F32", "ANY_F8_ANY_F8_F32_FAST_ACCUM"):
            return (np.float32, np.float16, dtypes.bfloat16, *_f8_dtypes()[:5])
        if name == "F16_F16_F32":
            if dtypes.promote_types(lhs_dtype, rhs_dtype) == np.float16:
                return (np.float32, np.float16)
            return (np.float32,)
        if name == "BF16_BF16_F32":
            if dtypes.promote_types(lhs_dtype, rhs_dtype) == dtypes.bfloat16:
                return (np.float32, dtypes.bfloat16)
            return (np.float32,)
        acc = self.accumulation_type
        return None if acc is None else (acc,)


CPU_PRESETS: frozenset[DotAlgorithmPreset] = frozenset(
    {
        DotAlgorithmPreset.DEFAULT,
        DotAlgorithmPreset.F16_F16_F16,
        DotAlgorithmPreset.F32_F32_F32,
        DotAlgorithmPreset.F64_F64_F64,
        DotAlgorithmPreset.BF16_BF16_F32,
        DotAlgorithmPreset.BF16_BF16_F32_X3,
        DotAlgorithmPreset.BF16_BF16_F32_X6,
    }
)
"""The algorithms the CPU compiler honours (it ignores the others silently, so lowering refuses)."""


def check_cpu_algorithm(algorithm: DotAlgorithm | DotAlgorithmPreset, op: str = "dot_general") -> None:
    """JAX's ``ValueError`` for an algorithm CPU does not run."""
    if not (isinstance(algorithm, DotAlgorithmPreset) and algorithm in CPU_PRESETS):
        raise ValueError(f"The precision '{algorithm}' is not supported by {op} on CPU")


def algorithm_compute_types(
    algorithm: DotAlgorithm | DotAlgorithmPreset,
    lhs_dtype: np.dtype[Any],
    rhs_dtype: np.dtype[Any],
    out_dtype: np.dtype[Any],
) -> tuple[np.dtype[Any], np.dtype[Any], np.dtype[Any]]:
    """The types the operands are converted to and the type the dot accumulates in."""
    if isinstance(algorithm, DotAlgorithm):
        return (
            dtypes.dtype(algorithm.lhs_precision_type),
            dtypes.dtype(algorithm.rhs_precision_type),
            dtypes.dtype(algorithm.accumulation_type),
        )

    def pick(given: np.dtype[Any], allowed: tuple[DTypeLike, ...] | None) -> np.dtype[Any]:
        if allowed is None or any(given == np.dtype(a) for a in allowed):
            return given
        return dtypes.dtype(allowed[0])

    lhs = pick(lhs_dtype, algorithm.supported_lhs_types)
    rhs = pick(rhs_dtype, algorithm.supported_rhs_types)
    return lhs, rhs, pick(out_dtype, algorithm.supported_output_types(lhs, rhs))


def _ir(dtype: DTypeLike) -> ir.Type:
    return dtype_to_ir_type(dtypes.dtype(dtype))


def algorithm_attr(
    algorithm: DotAlgorithm | DotAlgorithmPreset, lhs_dtype: np.dtype[Any], rhs_dtype: np.dtype[Any]
) -> ir.Attribute | None:
    """The ``algorithm`` attribute of ``stablehlo.dot_general`` (None for ``DEFAULT``)."""
    if isinstance(algorithm, DotAlgorithm):
        out: ir.Attribute = hlo.DotAlgorithm.get(
            _ir(algorithm.lhs_precision_type),
            _ir(algorithm.rhs_precision_type),
            _ir(algorithm.accumulation_type),
            algorithm.lhs_component_count,
            algorithm.rhs_component_count,
            algorithm.num_primitive_operations,
            algorithm.allow_imprecise_accumulation,
        )
        return out
    name = algorithm.name
    if name == "DEFAULT":
        return None
    if name.startswith("ANY_F8"):
        f8 = _f8_dtypes()
        if lhs_dtype not in f8 or rhs_dtype not in f8:
            raise ValueError(
                f"The dot algorithm '{algorithm}' requires both inputs to have float8 dtypes. "
                f"Got {lhs_dtype} and {rhs_dtype} instead."
            )
        f8_attr: ir.Attribute = hlo.DotAlgorithm.get(
            _ir(lhs_dtype), _ir(rhs_dtype), ir.F32Type.get(), 1, 1, 1, name.endswith("FAST_ACCUM")
        )
        return f8_attr
    *inputs, acc = name.split("_X")[0].split("_")
    ops = int(name.split("_X")[1]) if "_X" in name else 1
    types: dict[str, ir.Type] = {
        "F16": ir.F16Type.get(),
        "BF16": ir.BF16Type.get(),
        "F32": ir.F32Type.get(),
        "F64": ir.F64Type.get(),
        "TF32": ir.FloatTF32Type.get(),
    }
    attr: ir.Attribute = hlo.DotAlgorithm.get(types[inputs[0]], types[inputs[1]], types[acc], 1, 1, ops, False)
    return attr
