"""Elementwise primitives: arithmetic, transcendental functions, logic, comparisons, select.

Each primitive is one ``Rules`` registration; the op tables below keep the many
one-line ops (same shape rule, one StableHLO op) in one readable place. Their jvp,
transpose and batching rules live in ``elementwise_rules`` (tables keyed by name).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import AbstractEvalRule, LowerRule, Primitive, Rules
from jax_core._src.lax.elementwise import rules as _rules
from jax_core._src.lax.standard_rules import (
    DTypeRule,
    broadcast_operands,
    is_any,
    is_float,
    is_int,
    is_int_or_bool,
    is_number,
    is_real_float,
    lower_with,
    naryop_abstract_eval,
    unop_abstract_eval,
)
from jax_core._src.lib.mlir import chlo, hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext

UnaryLowering = Callable[[ir.Value[Any]], ir.Value[Any]]
"""Builds the StableHLO of an elementwise unary op from its operand."""
BinaryLowering = Callable[[ir.Value[Any], ir.Value[Any]], ir.Value[Any]]
"""Builds the StableHLO of an elementwise binary op from its (broadcast) operands."""


def _unop(
    name: str,
    accepts: DTypeRule,
    op: UnaryLowering,
    result_dtype: Callable[[np.dtype[Any]], np.dtype[Any]] | None = None,
) -> Primitive:
    return _register(Primitive(name), unop_abstract_eval(name, accepts, result_dtype), lower_with(op))


def _binop(name: str, accepts: DTypeRule, op: BinaryLowering) -> Primitive:
    return _register(Primitive(name), naryop_abstract_eval(name, accepts), lower_with(op))


def _register(prim: Primitive, abstract_eval: AbstractEvalRule, lower: LowerRule) -> Primitive:
    """Registers ``prim``'s rules; jvp, transpose and batching come from ``elementwise_rules``."""
    prim.def_rules(
        Rules(
            abstract_eval=abstract_eval,
            lower=lower,
            jvp=_rules.JVP[prim.name](prim),
            transpose=_rules.TRANSPOSE.get(prim.name),
            batch=_rules.batch_rule(prim),
        )
    )
    return prim


def _real_dtype(d: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(np.float32) if d == np.complex64 else np.dtype(np.float64) if d == np.complex128 else d


# -- unary ----------------------------------------------------------------------------
neg_p = _unop("neg", is_number, hlo.negate)
sign_p = _unop("sign", is_number, hlo.sign)
floor_p = _unop("floor", is_real_float, hlo.floor)
ceil_p = _unop("ceil", is_real_float, hlo.ceil)
is_finite_p = _unop("is_finite", is_real_float, hlo.is_finite, lambda d: np.dtype(np.bool_))
abs_p = _unop("abs", is_number, hlo.abs, _real_dtype)
exp_p = _unop("exp", is_float, hlo.exponential)
exp2_p = _unop("exp2", is_float, lambda x: hlo.exponential(hlo.multiply(x, _like(x, np.log(2)))))
log_p = _unop("log", is_float, hlo.log)
log1p_p = _unop("log1p", is_float, hlo.log_plus_one)
expm1_p = _unop("expm1", is_float, hlo.exponential_minus_one)
tanh_p = _unop("tanh", is_float, hlo.tanh)
logistic_p = _unop("logistic", is_float, hlo.logistic)
sin_p = _unop("sin", is_float, hlo.sine)
cos_p = _unop("cos", is_float, hlo.cosine)
tan_p = _unop("tan", is_float, hlo.tan)
asin_p = _unop("asin", is_float, chlo.asin)
acos_p = _unop("acos", is_float, chlo.acos)
atan_p = _unop("atan", is_float, chlo.atan)
sinh_p = _unop("sinh", is_float, chlo.sinh)
cosh_p = _unop("cosh", is_float, chlo.cosh)
asinh_p = _unop("asinh", is_float, chlo.asinh)
acosh_p = _unop("acosh", is_float, chlo.acosh)
atanh_p = _unop("atanh", is_float, chlo.atanh)
sqrt_p = _unop("sqrt", is_float, hlo.sqrt)
rsqrt_p = _unop("rsqrt", is_float, hlo.rsqrt)
cbrt_p = _unop("cbrt", is_real_float, hlo.cbrt)
erf_p = _unop("erf", is_real_float, chlo.erf)
erf_inv_p = _unop("erf_inv", is_real_float, chlo.erf_inv)
lgamma_p = _unop("lgamma", is_real_float, chlo.lgamma)
digamma_p = _unop("digamma", is_real_float, chlo.digamma)
not_p = _unop("not", is_int_or_bool, hlo.not_)
population_count_p = _unop("population_count", is_int, hlo.popcnt)
clz_p = _unop("clz", is_int, hlo.count_leading_zeros)
real_p = _unop("real", lambda d: d.kind == "c", hlo.real, _real_dtype)
imag_p = _unop("imag", lambda d: d.kind == "c", hlo.imag, _real_dtype)
conj_p = _unop("conj", lambda d: d.kind == "c", lambda x: hlo.complex(hlo.real(x), hlo.negate(hlo.imag(x))))


def _like(x: ir.Value[Any], value: float) -> ir.Value[Any]:
    """A constant of ``x``'s tensor type filled with ``value``."""
    t = ir.RankedTensorType(x.type)
    elt = t.element_type
    scalar = hlo.constant(ir.DenseElementsAttr.get_splat(ir.RankedTensorType.get([], elt), ir.FloatAttr.get(elt, value)))
    out: ir.Value[Any] = hlo.broadcast_in_dim(t, scalar, [])
    return out


# -- integer_pow and round carry params ------------------------------------------------
def _integer_pow_lower(ctx: LoweringRuleContext, x: ir.Value[Any], *, y: int) -> ir.Value[Any]:
    if y == 0:
        aval = ctx.avals_out[0]
        return hlo_util.broadcast_in_dim(hlo_util.constant(np.ones((), aval.dtype)), aval, ())
    is_reciprocal = y < 0
    n = -y if is_reciprocal else y
    acc: ir.Value[Any] | None = None
    base = x
    while n:
        if n & 1:
            acc = base if acc is None else hlo.multiply(acc, base)
        n >>= 1
        if n:
            base = hlo.multiply(base, base)
    assert acc is not None
    if not is_reciprocal:
        return acc
    aval = ctx.avals_out[0]
    one = hlo_util.broadcast_in_dim(hlo_util.constant(np.ones((), aval.dtype)), aval, ())
    reciprocal: ir.Value[Any] = hlo.divide(one, acc)
    return reciprocal


integer_pow_p = _register(Primitive("integer_pow"), unop_abstract_eval("integer_pow", is_number), _integer_pow_lower)


def _round_lower(ctx: LoweringRuleContext, x: ir.Value[Any], *, rounding_method: int) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.round_nearest_even(x) if rounding_method == 1 else hlo.round_nearest_afz(x)
    return out


round_p = _register(Primitive("round"), unop_abstract_eval("round", is_real_float), _round_lower)

square_p = _unop("square", is_number, lambda x: hlo.multiply(x, x))

# -- binary ---------------------------------------------------------------------------
add_p = _binop("add", is_any, hlo.add)
sub_p = _binop("sub", is_number, hlo.subtract)
mul_p = _binop("mul", is_any, hlo.multiply)
div_p = _binop("div", is_number, hlo.divide)
rem_p = _binop("rem", is_number, hlo.remainder)
pow_p = _binop("pow", is_float, hlo.power)
max_p = _binop("max", is_any, hlo.maximum)
min_p = _binop("min", is_any, hlo.minimum)
atan2_p = _binop("atan2", is_float, hlo.atan2)
nextafter_p = _binop("nextafter", is_real_float, chlo.next_after)
and_p = _binop("and", is_int_or_bool, hlo.and_)
or_p = _binop("or", is_int_or_bool, hlo.or_)
xor_p = _binop("xor", is_int_or_bool, hlo.xor)
shift_left_p = _binop("shift_left", is_int, hlo.shift_left)
shift_right_arithmetic_p = _binop("shift_right_arithmetic", is_int, hlo.shift_right_arithmetic)
shift_right_logical_p = _binop("shift_right_logical", is_int, hlo.shift_right_logical)


def _complex_abstract_eval(x: ShapedArray, y: ShapedArray) -> ShapedArray:
    out = naryop_abstract_eval("complex", lambda d: d in (np.dtype(np.float32), np.dtype(np.float64)))(x, y)
    return ShapedArray(out.shape, np.dtype(np.complex64 if x.dtype == np.float32 else np.complex128), x.weak_type and y.weak_type)


complex_p = _register(Primitive("complex"), _complex_abstract_eval, lower_with(hlo.complex))


# -- comparisons ----------------------------------------------------------------------
def _compare(name: str, direction: str, accepts: DTypeRule = is_any) -> Primitive:
    prim = Primitive(name)

    def lower(ctx: LoweringRuleContext, x: ir.Value[Any], y: ir.Value[Any]) -> ir.Value[Any]:
        x, y = broadcast_operands(ctx, (x, y))
        return hlo_util.compare(x, y, direction, ctx.avals_in[0].dtype)

    return _register(prim, naryop_abstract_eval(name, accepts, np.dtype(np.bool_)), lower)


eq_p = _compare("eq", "EQ")
ne_p = _compare("ne", "NE")
lt_p = _compare("lt", "LT", lambda d: d.kind != "c")
le_p = _compare("le", "LE", lambda d: d.kind != "c")
gt_p = _compare("gt", "GT", lambda d: d.kind != "c")
ge_p = _compare("ge", "GE", lambda d: d.kind != "c")


# -- select_n -------------------------------------------------------------------------
def _select_n_abstract_eval(which: ShapedArray, *cases: ShapedArray) -> ShapedArray:
    if not cases:
        raise TypeError("select_n must have at least one case")
    first = cases[0]
    if which.dtype != np.bool_ and not dtypes.issubdtype(which.dtype, np.integer):
        raise TypeError(f"select_n `which` must be boolean or integer type, got {which.dtype.name}")
    if which.dtype == np.bool_ and len(cases) > 2:
        raise TypeError("select_n with a boolean `which` cannot have > 2 cases.")
    if any(c.shape != first.shape for c in cases[1:]):
        raise TypeError(f"select_n cases must have the same shapes, got [{', '.join(str(c.shape) for c in cases)}].")
    if any(c.dtype != first.dtype for c in cases[1:]):
        raise TypeError(f"select_n cases must have the same dtypes, got [{', '.join(c.dtype.name for c in cases)}].")
    if which.shape and which.shape != first.shape:
        raise TypeError(
            f"select_n `which` must be scalar or have the same shape as cases, got `which` shape {which.shape} but case shape {first.shape}."
        )
    return ShapedArray(first.shape, first.dtype, all(c.weak_type for c in cases))


def _select_n_lower(ctx: LoweringRuleContext, which: ir.Value[Any], *cases: ir.Value[Any]) -> ir.Value[Any]:
    which_aval = ctx.avals_in[0]
    out_aval = ctx.avals_out[0]
    if which_aval.shape != out_aval.shape:
        which = hlo_util.broadcast_in_dim(which, ShapedArray(out_aval.shape, which_aval.dtype), ())
        which_aval = ShapedArray(out_aval.shape, which_aval.dtype)
    return _select_tree(which, which_aval, list(cases), 0)


def _select_tree(which: ir.Value[Any], aval: ShapedArray, cases: list[ir.Value[Any]], offset: int) -> ir.Value[Any]:
    if len(cases) == 1:
        return cases[0]
    if aval.dtype == np.bool_:
        selected: ir.Value[Any] = hlo.select(which, cases[1], cases[0])
        return selected
    mid = len(cases) // 2
    pivot = hlo_util.broadcast_in_dim(hlo_util.constant(np.asarray(offset + mid, aval.dtype)), aval, ())
    pred = hlo_util.compare(which, pivot, "LT", aval.dtype)
    out: ir.Value[Any] = hlo.select(pred, _select_tree(which, aval, cases[:mid], offset), _select_tree(which, aval, cases[mid:], offset + mid))
    return out


select_n_p = Primitive("select_n")
select_n_p.def_rules(
    Rules(
        abstract_eval=_select_n_abstract_eval,
        lower=_select_n_lower,
        jvp=_rules.select_n_jvp,
        transpose=_rules.select_n_transpose,
        batch=_rules.select_n_batch,
    )
)
