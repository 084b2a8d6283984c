"""Lowering shapes with symbolic dimensions (shape polymorphism).

A module exported with symbolic argument shapes has dynamic tensor types (``tensor<?x3xf32>``):
``main`` computes each dimension variable from its arguments' sizes (``get_dimension_size``) and
the lowering rules build their shapes from those values, as 1-D shape tensors for the dynamic
StableHLO operations (``dynamic_broadcast_in_dim``, ``dynamic_reshape``, ``dynamic_iota``,
``real_dynamic_slice``). Before the module is compiled, XLA's shape refinement replaces them by
static shapes. The builders here take the static operation when every dimension is a constant, so
rules call them unconditionally.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.shape_poly import DimArith, DimSize, DimVarSolution
from jax_core._src.lib.mlir import hlo, ir


def dim_dtype() -> np.dtype[Any]:
    """The integer type of dimension values: ``int64`` with x64 enabled, ``int32`` without (as JAX)."""
    return np.dtype(dtypes.canonicalize_dtype(np.int64))


def is_static(shape: Sequence[DimSize]) -> bool:
    """Whether every dimension is a constant."""
    return all(isinstance(d, (int, np.integer)) for d in shape)


def _scalar_type() -> ir.RankedTensorType:
    bits = dim_dtype().itemsize * 8
    return ir.RankedTensorType.get([], ir.IntegerType.get_signless(bits))


def _const(v: int) -> ir.Value[ir.Type]:
    attr = ir.DenseElementsAttr.get(np.asarray(v, dim_dtype()), type=_scalar_type().element_type, shape=[])
    out: ir.Value[ir.Type] = hlo.constant(attr)
    return out


def _compare(a: ir.Value[ir.Type], b: ir.Value[ir.Type], direction: str) -> ir.Value[ir.Type]:
    out: ir.Value[ir.Type] = hlo.compare(
        a, b, hlo.ComparisonDirectionAttr.get(direction), compare_type=hlo.ComparisonTypeAttr.get("SIGNED")
    )
    return out


class IrArith:
    """Dimension arithmetic on scalar MLIR values, with Python's floor division and modulo."""

    def constant(self, v: int) -> ir.Value[ir.Type]:
        return _const(v)

    def add(self, a: ir.Value[ir.Type], b: ir.Value[ir.Type]) -> ir.Value[ir.Type]:
        out: ir.Value[ir.Type] = hlo.add(a, b)
        return out

    def sub(self, a: ir.Value[ir.Type], b: ir.Value[ir.Type]) -> ir.Value[ir.Type]:
        out: ir.Value[ir.Type] = hlo.subtract(a, b)
        return out

    def mul(self, a: ir.Value[ir.Type], b: ir.Value[ir.Type]) -> ir.Value[ir.Type]:
        out: ir.Value[ir.Type] = hlo.multiply(a, b)
        return out

    def max(self, a: ir.Value[ir.Type], b: ir.Value[ir.Type]) -> ir.Value[ir.Type]:
        out: ir.Value[ir.Type] = hlo.maximum(a, b)
        return out

    def min(self, a: ir.Value[ir.Type], b: ir.Value[ir.Type]) -> ir.Value[ir.Type]:
        out: ir.Value[ir.Type] = hlo.minimum(a, b)
        return out

    def _needs_floor(self, a: ir.Value[ir.Type], b: ir.Value[ir.Type]) -> tuple[ir.Value[ir.Type], ir.Value[ir.Type]]:
        # The truncated remainder, and whether floor semantics differ from truncation: a non-zero
        # remainder whose sign differs from the divisor's.
        zero = _const(0)
        rem: ir.Value[ir.Type] = hlo.remainder(a, b)
        signs_differ = _compare(_compare(rem, zero, "LT"), _compare(b, zero, "LT"), "NE")
        adjust: ir.Value[ir.Type] = hlo.and_(signs_differ, _compare(rem, zero, "NE"))
        return rem, adjust

    def floordiv(self, a: ir.Value[ir.Type], b: ir.Value[ir.Type]) -> ir.Value[ir.Type]:
        _, adjust = self._needs_floor(a, b)
        quotient: ir.Value[ir.Type] = hlo.divide(a, b)
        out: ir.Value[ir.Type] = hlo.select(adjust, hlo.subtract(quotient, _const(1)), quotient)
        return out

    def mod(self, a: ir.Value[ir.Type], b: ir.Value[ir.Type]) -> ir.Value[ir.Type]:
        rem, adjust = self._needs_floor(a, b)
        out: ir.Value[ir.Type] = hlo.select(adjust, hlo.add(rem, b), rem)
        return out


IR_ARITH: DimArith[ir.Value[ir.Type]] = IrArith()


def dim_value(d: DimSize, env: Mapping[str, ir.Value[ir.Type]]) -> ir.Value[ir.Type]:
    """A dimension as a scalar of ``dim_dtype()``, computed from the dimension variables' values."""
    if isinstance(d, (int, np.integer)):
        return _const(int(d))
    return d.evaluate(env, IR_ARITH)


def _as_dim(x: ir.Value[ir.Type]) -> ir.Value[ir.Type]:
    """A scalar integer as one of ``dim_dtype()``."""
    scalar = _scalar_type()
    out: ir.Value[ir.Type] = x if x.type == scalar else hlo.convert(scalar, x)
    return out


def _size(x: ir.Value[ir.Type], axis: int) -> ir.Value[ir.Type]:
    """The size of ``x`` along ``axis`` when the module runs."""
    return _as_dim(hlo.get_dimension_size(x, axis))


def _vector(scalars: Sequence[ir.Value[ir.Type]]) -> ir.Value[ir.Type]:
    """Scalars of ``dim_dtype()`` as a 1-D tensor."""
    element = _scalar_type().element_type
    if not scalars:
        empty = ir.DenseElementsAttr.get(np.zeros((0,), dim_dtype()), type=element, shape=[0])
        out: ir.Value[ir.Type] = hlo.constant(empty)
        return out
    one = ir.RankedTensorType.get([1], element)
    pieces: list[ir.Value[ir.Type]] = [hlo.reshape(one, s) for s in scalars]
    joined: ir.Value[ir.Type] = pieces[0] if len(pieces) == 1 else hlo.concatenate(pieces, 0)
    return joined


def shape_tensor(shape: Sequence[DimSize], env: Mapping[str, ir.Value[ir.Type]]) -> ir.Value[ir.Type]:
    """``shape`` as a 1-D tensor of ``dim_dtype()`` (what the dynamic operations take)."""
    return _vector([dim_value(d, env) for d in shape])


def _env() -> Mapping[str, ir.Value[ir.Type]]:
    from jax_core._src.lowering.lower_jaxpr import module_context

    values = module_context().dim_var_values
    if values is None:
        raise AssertionError("a shape with symbolic dimensions is lowered outside a shape-polymorphic module")
    return values


def broadcast_in_dim(
    result_type: ir.RankedTensorType, x: ir.Value[ir.Type], dims: Sequence[int], shape: Sequence[DimSize]
) -> ir.Value[ir.Type]:
    """``broadcast_in_dim`` of ``x`` to ``shape`` (``dynamic_broadcast_in_dim`` for a symbolic one)."""
    if is_static(shape):
        out: ir.Value[ir.Type] = hlo.broadcast_in_dim(result_type, x, list(dims))
        return out
    dyn: ir.Value[ir.Type] = hlo.dynamic_broadcast_in_dim(result_type, x, shape_tensor(shape, _env()), list(dims))
    return dyn


def reshape(result_type: ir.RankedTensorType, x: ir.Value[ir.Type], shape: Sequence[DimSize]) -> ir.Value[ir.Type]:
    """``reshape`` of ``x`` to ``shape`` (``dynamic_reshape`` for a symbolic one)."""
    if is_static(shape):
        out: ir.Value[ir.Type] = hlo.reshape(result_type, x)
        return out
    dyn: ir.Value[ir.Type] = hlo.dynamic_reshape(result_type, x, shape_tensor(shape, _env()))
    return dyn


def iota(result_type: ir.RankedTensorType, dimension: int, shape: Sequence[DimSize]) -> ir.Value[ir.Type]:
    """``iota`` of ``shape`` (``dynamic_iota`` for a symbolic one)."""
    if is_static(shape):
        out: ir.Value[ir.Type] = hlo.iota(result_type, dimension)
        return out
    dyn: ir.Value[ir.Type] = hlo.dynamic_iota(result_type, shape_tensor(shape, _env()), dimension)
    return dyn


def slice_op(
    result_type: ir.RankedTensorType,
    x: ir.Value[ir.Type],
    start: Sequence[DimSize],
    limit: Sequence[DimSize],
    strides: Sequence[DimSize],
) -> ir.Value[ir.Type]:
    """A strided slice (``real_dynamic_slice`` when a bound or stride is symbolic)."""
    if is_static([*start, *limit, *strides]):
        out: ir.Value[ir.Type] = hlo.slice(x, [int(s) for s in start], [int(s) for s in limit], [int(s) for s in strides])
        return out
    env = _env()
    dyn: ir.Value[ir.Type] = hlo.real_dynamic_slice(
        result_type, x, shape_tensor(start, env), shape_tensor(limit, env), shape_tensor(strides, env)
    )
    return dyn


def assert_op(condition: ir.Value[ir.Type], message: str, inputs: Sequence[ir.Value[ir.Type]]) -> None:
    """JAX's ``shape_assertion`` custom call: fails the compilation (after shape refinement) or the
    execution with ``message`` (``{0}``, ``{1}``, ... replaced by ``inputs``) when ``condition`` is false."""
    i32 = ir.IntegerType.get_signless(32)
    op = hlo.CustomCallOp([], [condition, *inputs], call_target_name=ir.StringAttr.get("shape_assertion"),
                          has_side_effect=ir.BoolAttr.get(True), api_version=ir.IntegerAttr.get(i32, 2))
    op.attributes["error_message"] = ir.StringAttr.get(message)


def value_shape(x: ir.Value[ir.Type]) -> ir.Value[ir.Type]:
    """The shape of a (possibly dynamic) tensor value, as a 1-D tensor of ``dim_dtype()``."""
    t = ir.RankedTensorType(x.type)
    return _vector([_size(x, i) if t.is_dynamic_dim(i) else _const(t.get_dim_size(i)) for i in range(t.rank)])


def broadcast_like(result_type: ir.RankedTensorType, scalar: ir.Value[ir.Type], like: ir.Value[ir.Type]) -> ir.Value[ir.Type]:
    """A scalar broadcast to ``result_type``, whose dynamic dimensions are those of ``like``."""
    if result_type.has_static_shape:
        out: ir.Value[ir.Type] = hlo.broadcast_in_dim(result_type, scalar, [])
        return out
    dyn: ir.Value[ir.Type] = hlo.dynamic_broadcast_in_dim(result_type, scalar, value_shape(like), [])
    return dyn


def bind_dim_vars(solution: DimVarSolution, args: Sequence[ir.Value[ir.Type]]) -> dict[str, ir.Value[ir.Type]]:
    """``main``'s prologue in a shape-polymorphic module: reads the arguments' sizes, asserts
    every constraint the tracing assumed (``shape_assertion``, with JAX's messages) and returns
    the value of each dimension variable."""
    sizes: dict[str, ir.Value[ir.Type]] = {}
    for arg, dim in solution.synthetic_dims:
        sizes[solution.arg_dim_var(arg, dim)] = _size(args[arg], dim)
    for check in solution.assertions:
        left, right = dim_value(check.left, sizes), dim_value(check.right, sizes)
        condition = _compare(left, right, "EQ" if check.comp == "eq" else "GE")
        assert_op(condition, check.error_message, [dim_value(e, sizes) for e in check.error_message_inputs])
    return {name: dim_value(solution.solution[name], sizes) for name in solution.dim_vars}


def dynamic_slice(
    result_type: ir.RankedTensorType, x: ir.Value[ir.Type], starts: Sequence[ir.Value[ir.Type]], sizes: Sequence[DimSize]
) -> ir.Value[ir.Type]:
    """``dynamic_slice`` (``real_dynamic_slice`` when a size is symbolic, with the start indices
    clamped into bounds as ``dynamic_slice`` clamps them)."""
    if is_static(sizes):
        out: ir.Value[ir.Type] = hlo.dynamic_slice(x, list(starts), [int(s) for s in sizes])
        return out
    # As JAX: starts clamped into [0, size of x - slice size] (real_dynamic_slice does not clamp),
    # limits ``starts + sizes`` (the form shape refinement turns back into a dynamic_slice).
    env = _env()
    start_tensor = _vector([_as_dim(s) for s in starts])
    size_tensor = shape_tensor(sizes, env)
    upper = hlo.subtract(value_shape(x), size_tensor)
    clamped: ir.Value[ir.Type] = hlo.clamp(shape_tensor([0] * len(sizes), env), start_tensor, upper)
    dyn: ir.Value[ir.Type] = hlo.real_dynamic_slice(
        result_type, x, clamped, hlo.add(clamped, size_tensor), shape_tensor([1] * len(sizes), env)
    )
    return dyn
