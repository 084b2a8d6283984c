"""JAX's ``jax.interpreters.ad`` registration API over the ``Rules`` record.

``primitive_jvps`` and ``primitive_transposes`` are views of ``Rules.jvp`` and
``Rules.transpose``; ``defjvp``, ``defjvp2``, ``deflinear``, ``deflinear2`` and ``defbilinear``
build those rules from JAX's shorter forms with the factories jax_core's own primitives use.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from jax_core._src.core.jaxpr import Jaxpr
from jax_core._src.core.primitive import Primitive
from jax_core._src.extend.rule_tables import RuleTable
from jax_core._src.interpreters import ad as ad_trace
from jax_core._src.interpreters.ad_util import (
    DerivativeFn,
    JvpRule,
    TransposeRule,
    Zero,
    add_any_p,
    is_undefined_primal,
    linear_jvp,
    per_arg_jvp,
    per_arg_jvp_with_ans,
)

primitive_jvps: RuleTable[JvpRule] = RuleTable("jvp", "primitive_jvps")
"""``primitive_jvps[p] = rule``: ``rule(primals, tangents, **params) -> (primal_out, tangent_out)``
(``Rules.jvp``); tangents may be ``Zero``."""

primitive_transposes: RuleTable[TransposeRule] = RuleTable("transpose", "primitive_transposes")
"""``primitive_transposes[p] = rule``: ``rule(ct, *args, **params)`` returns one cotangent per
operand (``None`` for operands that are not ``UndefinedPrimal``) (``Rules.transpose``)."""


def defjvp(primitive: Primitive, *jvprules: DerivativeFn | None) -> None:
    """The jvp of ``primitive`` from one rule per operand, ``rule(g, *primals, **params)`` giving
    that operand's tangent ``g``'s contribution to the output tangent (``None``: the operand is
    not differentiable); contributions are summed."""
    primitive_jvps[primitive] = per_arg_jvp(primitive, *jvprules)


def defjvp2(primitive: Primitive, *jvprules: DerivativeFn | None) -> None:
    """As ``defjvp``, with each rule also given the primal output: ``rule(g, ans, *primals, **params)``."""
    primitive_jvps[primitive] = per_arg_jvp_with_ans(primitive, *jvprules)


def deflinear(primitive: Primitive, transpose_rule: Callable[..., Sequence[Any]]) -> None:
    """A primitive linear in all its operands: its jvp applies it to the tangents, and its
    transpose is ``transpose_rule(ct, **params)`` (one cotangent per operand)."""
    primitive_jvps[primitive] = linear_jvp(primitive)

    def transpose(ct: Any, *args: Any, **params: Any) -> Sequence[Any]:
        if isinstance(ct, Zero):
            return [Zero(a.aval) if is_undefined_primal(a) else None for a in args]
        return _linear_cts(primitive, args, transpose_rule(ct, **params))

    primitive_transposes[primitive] = transpose


def deflinear2(primitive: Primitive, transpose_rule: Callable[..., Sequence[Any]]) -> None:
    """As ``deflinear``, with the transpose rule also given the operands:
    ``transpose_rule(ct, *args, **params)`` (linear ones are ``UndefinedPrimal``)."""
    primitive_jvps[primitive] = linear_jvp(primitive)

    def transpose(ct: Any, *args: Any, **params: Any) -> Sequence[Any]:
        if isinstance(ct, Zero):
            return [Zero(a.aval) if is_undefined_primal(a) else None for a in args]
        return _linear_cts(primitive, args, transpose_rule(ct, *args, **params))

    primitive_transposes[primitive] = transpose


def _linear_cts(primitive: Primitive, args: Sequence[Any], cts: Sequence[Any]) -> list[Any]:
    cts = list(cts)
    if len(cts) != len(args):
        raise ValueError(
            f"The transpose rule of primitive '{primitive.name}' returned {len(cts)} cotangents for "
            f"{len(args)} operands; it must return one per operand"
        )
    return [ct if is_undefined_primal(a) else None for a, ct in zip(args, cts)]


def defbilinear(
    prim: Primitive, lhs_rule: Callable[..., Any], rhs_rule: Callable[..., Any]
) -> None:
    """A primitive of two operands, linear in each: ``prim(g, y)`` and ``prim(x, g)`` are its
    jvp's terms, and its transpose is ``lhs_rule(ct, x, y, **params)`` for the first operand,
    ``rhs_rule(ct, x, y, **params)`` for the second (the other one is the known value)."""

    def lhs_jvp(g: Any, x: Any, y: Any, **params: Any) -> Any:
        return prim.bind(g, y, **params)

    def rhs_jvp(g: Any, x: Any, y: Any, **params: Any) -> Any:
        return prim.bind(x, g, **params)

    primitive_jvps[prim] = per_arg_jvp(prim, lhs_jvp, rhs_jvp)

    def transpose(ct: Any, x: Any, y: Any, **params: Any) -> list[Any]:
        if is_undefined_primal(x) == is_undefined_primal(y):
            raise ValueError(f"The bilinear primitive '{prim.name}' is transposed in exactly one operand")
        if is_undefined_primal(x):
            return [Zero(x.aval) if isinstance(ct, Zero) else lhs_rule(ct, x, y, **params), None]
        assert is_undefined_primal(y)
        return [None, Zero(y.aval) if isinstance(ct, Zero) else rhs_rule(ct, x, y, **params)]

    primitive_transposes[prim] = transpose


def get_primitive_transpose(p: Primitive) -> TransposeRule:
    """The transpose rule of ``p`` (``NotImplementedError`` naming it when it has none)."""
    try:
        return primitive_transposes[p]
    except KeyError:
        raise NotImplementedError(
            f"Transpose rule (for reverse-mode differentiation) for '{p.name}' not implemented"
        ) from None


def add_jaxvals(x: Any, y: Any) -> Any:
    """The sum of two tangent values (``add_jaxvals_p``, JAX's ``add_any``)."""
    return add_any_p.bind(x, y)


add_jaxvals_p: Primitive = add_any_p
"""The primitive that sums tangents and accumulates cotangents."""


def backward_pass(
    jaxpr: Jaxpr, transform_stack: bool, consts: Sequence[Any], primals_in: Sequence[Any], cts_in: Sequence[Any]
) -> list[Any]:
    """Transposes the linear ``jaxpr``: the cotangents of its inputs that are ``UndefinedPrimal``
    in ``primals_in`` (``None`` for the others), given the cotangents ``cts_in`` of its outputs
    (JAX's signature; ``transform_stack`` is accepted and has no effect)."""
    del transform_stack
    return ad_trace.backward_pass(jaxpr, consts, primals_in, cts_in)
