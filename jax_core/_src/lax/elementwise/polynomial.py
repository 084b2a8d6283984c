"""``polynomial``: a polynomial by Horner's rule as one primitive (JAX 0.12's ``lax.polynomial``).

``polynomial(x, (a_0, ..., a_N))`` is ``a_0 + x (a_1 + x (... + x a_N))``. As one primitive it
differentiates in ``x`` as the lower-degree polynomial of ``k a_k`` (cheaper than differentiating
the open-coded loop, and so at every order) and is linear in the coefficients. It lowers to the
unrolled recurrence for up to ``unroll`` (default 8) terms, otherwise to a scan over the stacked
coefficients starting from zero, as JAX's, so both evaluate the same operations in the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.interpreters.ad_util import (
    Zero,
    add_tangents,
    broadcast_to_shape,
    is_undefined_primal,
    is_zero,
    unbroadcast,
)
from jax_core._src.interpreters.batching_util import broadcast_batcher
from jax_core._src.lax.elementwise.arithmetic import add, mul
from jax_core._src.lax.elementwise.conversions import convert_element_type
from jax_core._src.lax.elementwise.factories import full_like_value
from jax_core._src.lax.standard_rules import bind_one, broadcast_shapes, is_number, naryop_abstract_eval
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

_UNROLL = 8  # terms evaluated unrolled when ``unroll`` is not given


def polynomial(x: ArrayLike, coeffs: Sequence[ArrayLike], *, unroll: int | None = None) -> Array:
    """``coeffs[0] + x * (coeffs[1] + x * (... + x * coeffs[-1]))`` (lowest degree first).

    Scalar coefficients take ``x``'s dtype (weakly typed only when ``x`` is a Python scalar);
    array coefficients are converted to it and broadcast against ``x`` (equal ranks, or rank 0).
    """
    aval = get_aval(x)
    dtype = aval.dtype
    args = [
        _scalar_like(x, c) if not isinstance(c, Tracer) and get_aval(c).ndim == 0 else convert_element_type(c, dtype)
        for c in coeffs
    ]
    out: Array
    if not args:
        out = full_like_value(x, 0)
        return out
    if len(args) == 1:
        shape = broadcast_shapes("polynomial", aval.shape, get_aval(args[0]).shape)
        out = broadcast_to_shape(convert_element_type(args[0], dtype), shape)
        return out
    params: dict[str, Any] = {} if unroll is None else {"unroll": int(unroll)}
    return bind_one(polynomial_p, x, *args, **params)


def _scalar_like(x: Any, c: Any) -> Any:
    """``c`` as a constant of ``x``'s type: a Python scalar when ``x`` is one (weak), else a
    NumPy scalar (strong), as JAX's ``lax._const``."""
    if isinstance(x, (int, float, complex)) and not isinstance(x, bool):
        return type(x)(c)
    return np.asarray(c, get_aval(x).dtype)


_abstract_eval = naryop_abstract_eval("polynomial", is_number)


def _polynomial_abstract_eval(*avals: ShapedArray, unroll: int | None = None) -> ShapedArray:
    return _abstract_eval(*avals)


def _horner(x: Any, coeffs: Sequence[Any], unroll: int, shape: tuple[int, ...]) -> Any:
    """The recurrence with lax ops, every operand broadcast to the result's shape."""
    from jax_core._src.lax.shape.assembly import concatenate
    from jax_core._src.lax.shape.dimensions import expand_dims

    def full(v: Any) -> Any:
        return broadcast_to_shape(v, shape)

    x = full(x)
    if len(coeffs) <= unroll:
        acc = full(coeffs[-1])
        for c in reversed(coeffs[:-1]):
            acc = add(mul(acc, x), full(c))
        return acc
    from jax_core._src.lax.control_flow.scan import scan

    stacked = concatenate([expand_dims(full(c), (0,)) for c in reversed(coeffs)], 0)
    zero = full_like_value(x, 0)
    out, _ = scan(lambda acc, c: (add(mul(acc, x), c), None), zero, stacked, unroll=unroll)
    return out


def _polynomial_lower(ctx: LoweringRuleContext, x: ir.Value[Any], *coeffs: ir.Value[Any], unroll: int | None = None) -> list[ir.Value[Any]]:
    from jax_core._src.lax.control_flow.common import lower_fun

    shape = ctx.avals_out[0].shape
    threshold = _UNROLL if unroll is None else unroll
    avals = [a.update(weak_type=False) for a in ctx.avals_in]
    def horner(x: Any, *cs: Any) -> list[Any]:
        return [_horner(x, cs, threshold, shape)]

    return lower_fun(horner, avals, [x, *coeffs])


def _polynomial_jvp(primals: Sequence[Any], tangents: Sequence[Any], *, unroll: int | None = None) -> tuple[Any, Any]:
    x, *coeffs = primals
    dx, *dcoeffs = tangents
    params: dict[str, Any] = {} if unroll is None else {"unroll": unroll}
    y = polynomial_p.bind(x, *coeffs, **params)
    dy: Any = Zero.from_primal_value(y)
    if not is_zero(dx):  # d/dx: the polynomial of k * a_k
        deriv = [mul(np.asarray(k, get_aval(c).dtype), c) for k, c in enumerate(coeffs[1:], 1)]
        dy = add_tangents(dy, mul(dx, polynomial(x, deriv, unroll=unroll)))
    if any(not is_zero(t) for t in dcoeffs):  # linear in the coefficients
        filled = [full_like_value(c, 0) if is_zero(t) else t for c, t in zip(coeffs, dcoeffs)]
        dy = add_tangents(dy, polynomial(x, filled, unroll=unroll))
    return y, dy


def _polynomial_transpose(ct: Any, x: Any, *coeffs: Any, unroll: int | None = None) -> list[Any]:
    if is_undefined_primal(x):
        raise NotImplementedError("polynomial is linear only in its coefficients, not in x")
    if isinstance(ct, Zero):
        return [None, *(Zero(c.aval) if is_undefined_primal(c) else None for c in coeffs)]
    out: list[Any] = [None]
    xk_ct = ct  # ct * x**k for the coefficient of degree k
    for k, c in enumerate(coeffs):
        out.append(unbroadcast(c.aval, xk_ct) if is_undefined_primal(c) else None)
        if k + 1 < len(coeffs):
            xk_ct = mul(xk_ct, x)
    return out


polynomial_p: Primitive = Primitive("polynomial")
polynomial_p.def_rules(
    Rules(
        abstract_eval=_polynomial_abstract_eval,
        lower=_polynomial_lower,
        jvp=_polynomial_jvp,
        transpose=_polynomial_transpose,
        batch=broadcast_batcher(polynomial_p),
    )
)
