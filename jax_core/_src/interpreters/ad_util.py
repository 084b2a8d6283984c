"""What a primitive's autodiff rules are written with: symbolic zeros, undefined primals,
tangent avals, and factories for the common rule shapes.

The contract every primitive follows (checked by ``tests/transforms/test_rule_registry.py``):

``jvp(primals, tangents, **params) -> (primal_out, tangent_out)``
    ``tangents[i]`` is an array or a ``Zero``. The rule runs with the enclosing trace
    current, so it computes with primals and tangents as ordinary values (under
    ``linearize``/``grad`` tangent operations are staged automatically). It may return a
    ``Zero`` tangent. Multiple-result primitives take and return lists.

``transpose(ct, *args, **params) -> list``
    Defined for primitives that are linear in some operands. ``args[i]`` is an
    ``UndefinedPrimal`` for a linear operand and a value otherwise; ``ct`` is the output
    cotangent (never ``Zero`` for single-result primitives). Returns one cotangent per
    operand (``None`` for the non-linear ones), with the operand's exact shape and dtype.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import numpy as np
from typing_extensions import TypeIs

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters import array_ops
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext

JvpRule: TypeAlias = Callable[..., tuple[Any, Any]]
"""``(primals, tangents, **params) -> (primal_out, tangent_out)``."""
TransposeRule: TypeAlias = Callable[..., Sequence[Any]]
"""``(ct, *args, **params) -> one cotangent (or None) per operand``."""


def tangent_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The dtype of tangents for values of ``dtype``: ``float0`` for integers, bools and
    extended dtypes (PRNG keys)."""
    if dtypes.is_extended_dtype(dtype):
        return dtypes.float0
    if dtype == np.bool_ or dtypes.issubdtype(dtype, np.integer) or dtype == dtypes.float0:
        return dtypes.float0
    return dtype


def tangent_aval(aval: ShapedArray) -> ShapedArray:
    """The aval of tangents (and cotangents) for values of ``aval``."""
    dt = tangent_dtype(aval.dtype)
    return aval if dt == aval.dtype else ShapedArray(aval.shape, dt, False, aval.vma)


def is_differentiable(aval: ShapedArray) -> bool:
    """Whether values of ``aval`` have non-trivial tangents (inexact dtypes)."""
    return tangent_dtype(aval.dtype) != dtypes.float0


class Zero:
    """A symbolic zero tangent or cotangent of a given aval (never materialised unless needed)."""

    __slots__ = ("aval",)

    aval: ShapedArray

    def __init__(self, aval: ShapedArray) -> None:
        self.aval = aval

    @staticmethod
    def from_primal_value(x: Any) -> Zero:
        """The zero tangent for the primal value ``x``."""
        return Zero(tangent_aval(get_aval(x)))

    def __repr__(self) -> str:
        return f"Zero({self.aval.str_short()})"


def is_zero(x: object) -> TypeIs[Zero]:
    """Whether ``x`` is a symbolic zero."""
    return isinstance(x, Zero)


class UndefinedPrimal:
    """A linear operand of a primitive being transposed (its value is what is solved for)."""

    __slots__ = ("aval",)

    aval: ShapedArray

    def __init__(self, aval: ShapedArray) -> None:
        self.aval = aval

    def __repr__(self) -> str:
        return f"UndefinedPrimal({self.aval.str_short()})"


def is_undefined_primal(x: object) -> TypeIs[UndefinedPrimal]:
    """Whether ``x`` is a linear operand in a transpose rule."""
    return isinstance(x, UndefinedPrimal)


def zeros_like_aval(aval: ShapedArray) -> Any:
    """A materialised zero array of ``aval``, weakly typed if it is (a NumPy ``float0`` array
    for float0)."""
    if aval.dtype == dtypes.float0:
        return np.zeros(aval.shape, dtypes.float0)
    if dtypes.is_extended_dtype(aval.dtype):  # e.g. PRNG keys: keys with all-zero data
        return aval.dtype._rules.zeros(aval)  # pyright: ignore[reportPrivateUsage]
    broadcast_in_dim = array_ops.op("broadcast_in_dim")
    to_dtype = array_ops.op("to_dtype")

    return broadcast_in_dim(to_dtype(0, aval.dtype, aval.weak_type), aval.shape, ())


class SymbolicZero:
    """A zero tangent or cotangent as custom rules with ``symbolic_zeros=True`` see it: its
    ``aval`` (``shape``, ``dtype``, ``ndim`` read through), never an array."""

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray) -> None:
        self.aval: ShapedArray = aval

    def __repr__(self) -> str:
        return "SymbolicZero"

    @property
    def shape(self) -> tuple[int, ...]:
        """The zero's shape."""
        return self.aval.shape

    @property
    def dtype(self) -> np.dtype[Any]:
        """The zero's dtype."""
        return self.aval.dtype

    @property
    def ndim(self) -> int:
        """The zero's rank."""
        return len(self.aval.shape)

    @property
    def size(self) -> int:
        """The zero's number of elements."""
        return int(np.prod(self.aval.shape, dtype=np.int64))

    @property
    def weak_type(self) -> bool:
        """Whether the zero is weakly typed."""
        return self.aval.weak_type

    def instantiate(self) -> Any:
        """The zero as an array."""
        return zeros_like_aval(self.aval)

    @staticmethod
    def from_primal_value(val: Any) -> SymbolicZero:
        """The symbolic zero tangent of primal value ``val``."""
        return SymbolicZero(tangent_aval(get_aval(val)))


def to_symbolic_zero(t: Any) -> Any:
    """A rule's view of an internal tangent: ``Zero`` as ``SymbolicZero``."""
    return SymbolicZero(t.aval) if isinstance(t, Zero) else t


def from_symbolic_zero(t: Any) -> Any:
    """A rule's output tangent as the internals use it: ``SymbolicZero`` as ``Zero``."""
    return Zero(t.aval) if isinstance(t, SymbolicZero) else t


def instantiate_zeros(t: Any) -> Any:
    """``t``, with a symbolic ``Zero`` materialised."""
    return zeros_like_aval(t.aval) if isinstance(t, Zero) else t


def add_tangents(x: Any, y: Any) -> Any:
    """The sum of two tangents or cotangents, either of which may be ``Zero``."""
    if isinstance(x, Zero):
        return y
    if isinstance(y, Zero):
        return x
    if get_aval(x).dtype == dtypes.float0:
        return x
    return add_any_p.bind(x, y)


def broadcast_to_shape(x: Any, shape: tuple[int, ...]) -> Any:
    """``x`` broadcast (NumPy rules) to ``shape``, for tangents of implicitly broadcast operands."""
    aval = get_aval(x)
    if aval.shape == shape:
        return x
    broadcast_in_dim = array_ops.op("broadcast_in_dim")

    return broadcast_in_dim(x, shape, tuple(range(len(shape) - aval.ndim, len(shape))))


def unbroadcast(aval: ShapedArray, ct: Any) -> Any:
    """The cotangent ``ct`` summed back to the shape of an implicitly broadcast operand."""
    ct_aval = get_aval(ct)
    if ct_aval.shape == aval.shape:
        return ct if ct_aval.dtype == aval.dtype else _to_dtype(ct, aval.dtype)
    reduce_sum = array_ops.op("reduce_sum")
    reshape = array_ops.op("reshape")

    lead = ct_aval.ndim - aval.ndim
    dims = tuple(range(lead)) + tuple(
        i + lead for i, d in enumerate(aval.shape) if d == 1 and ct_aval.shape[i + lead] != 1
    )
    summed = reduce_sum(ct, dims) if dims else ct
    out = reshape(summed, aval.shape) if get_aval(summed).shape != aval.shape else summed
    return out if get_aval(out).dtype == aval.dtype else _to_dtype(out, aval.dtype)


def _to_dtype(x: Any, dtype: np.dtype[Any]) -> Any:
    to_dtype = array_ops.op("to_dtype")

    return to_dtype(x, dtype)


# -- jvp rule factories --------------------------------------------------------------------
def linear_jvp(prim: Primitive) -> JvpRule:
    """The jvp of a primitive linear in all its operands: apply it to the tangents too."""

    def rule(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[Any, Any]:
        out = prim.bind(*primals, **params)
        if all(isinstance(t, Zero) for t in tangents):
            return out, _zero_like_out(out, prim)
        return out, prim.bind(*map(instantiate_zeros, tangents), **params)

    return rule


def bilinear_jvp(prim: Primitive) -> JvpRule:
    """The jvp of a primitive linear in each of its two operands (``dot_general``,
    ``conv_general_dilated``): ``prim(t_x, y) + prim(x, t_y)``, skipping zero (or float0)
    tangents."""

    def rule(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[Any, Any]:
        (x, y), (t_x, t_y) = primals, tangents
        out = prim.bind(x, y, **params)
        t_out: Any = Zero.from_primal_value(out)
        if not is_differentiable(get_aval(out)):
            return out, t_out
        for t, args in ((t_x, (t_x, y)), (t_y, (x, t_y))):
            if not isinstance(t, Zero) and is_differentiable(get_aval(t)):
                t_out = add_tangents(t_out, prim.bind(*args, **params))
        return out, t_out

    return rule


DerivativeFn: TypeAlias = Callable[..., Any]
"""``(g, *primals, **params) -> tangent contribution`` for one operand (JAX's ``defjvp``)."""


def per_arg_jvp(prim: Primitive, *fns: DerivativeFn | None) -> JvpRule:
    """A jvp from one function per operand, each mapping that operand's tangent to its
    contribution to the output tangent; contributions are summed. ``None`` marks an operand
    whose tangent does not matter (it must be zero or float0).
    """
    return _per_arg(prim, fns, with_ans=False)


def per_arg_jvp_with_ans(prim: Primitive, *fns: DerivativeFn | None) -> JvpRule:
    """Like ``per_arg_jvp``, but each function is ``(g, ans, *primals, **params)``."""
    return _per_arg(prim, fns, with_ans=True)


def _per_arg(prim: Primitive, fns: Sequence[DerivativeFn | None], *, with_ans: bool) -> JvpRule:
    def rule(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[Any, Any]:
        ans = prim.bind(*primals, **params)
        out_shape = get_aval(ans).shape
        total: Any = _zero_like_out(ans, prim)
        for fn, t in zip(fns, tangents, strict=True):
            if fn is None or isinstance(t, Zero):
                continue
            contrib = fn(t, ans, *primals, **params) if with_ans else fn(t, *primals, **params)
            total = add_tangents(total, broadcast_to_shape(contrib, out_shape))
        return ans, total

    return rule


def zero_jvp(prim: Primitive) -> JvpRule:
    """The jvp of a primitive whose output does not vary (integer/bool results, rounding)."""

    def rule(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[Any, Any]:
        out = prim.bind(*primals, **params)
        return out, _zero_like_out(out, prim)

    return rule


def _zero_like_out(out: Any, prim: Primitive) -> Any:
    if prim.multiple_results:
        return [Zero.from_primal_value(o) for o in out]
    return Zero.from_primal_value(out)


# -- transpose rule factories -----------------------------------------------------------
def linear_transpose(fn: Callable[..., Any]) -> TransposeRule:
    """The transpose of a unary linear primitive: ``fn(ct, **params)`` gives the operand's cotangent."""

    def rule(ct: Any, x: Any, **params: Any) -> list[Any]:
        return [fn(ct, **params)]

    return rule


# -- add_any: the sum of two tangents (JAX's ``add_any``; the accumulation of cotangents) --------
def _add_any_lower(ctx: LoweringRuleContext, x: ir.Value[Any], y: ir.Value[Any]) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.add(x, y)
    return out


def _add_any_transpose(ct: Any, x: Any, y: Any) -> list[Any]:
    return [ct, ct]


def _add_any_batch(args: Sequence[Any], dims: Sequence[int | None]) -> tuple[Any, int]:
    from jax_core._src.interpreters.batching_util import axis_size, bdim_at_front

    size = axis_size(args, dims)
    x, y = (bdim_at_front(a, d, size) for a, d in zip(args, dims))
    return add_any_p.bind(x, y), 0


def _add_any_abstract_eval(x: ShapedArray, y: ShapedArray) -> ShapedArray:
    if x.shape != y.shape or x.dtype != y.dtype:
        raise TypeError(f"add_any requires equal avals, got {x.str_short()} and {y.str_short()}")
    return ShapedArray(x.shape, x.dtype, x.weak_type and y.weak_type)


add_any_p: Primitive = Primitive("add_any")
add_any_p.def_rules(
    Rules(
        abstract_eval=_add_any_abstract_eval,
        lower=_add_any_lower,
        jvp=linear_jvp(add_any_p),
        transpose=_add_any_transpose,
        batch=_add_any_batch,
    )
)
