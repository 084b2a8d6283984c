"""Transformation rules for call-like primitives: one closed ``jaxpr`` param applied to the
operands (``jit``, ``checkpoint``). Each rule transforms the inner jaxpr and binds the same
primitive on the result, so a jitted function stays one compiled call under every
transformation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from jax_core._src.core.jaxpr import ClosedJaxpr
from jax_core._src.core.primitive import Primitive
from jax_core._src.interpreters.ad import jvp_jaxpr, transpose_jaxpr
from jax_core._src.interpreters.ad_util import (
    UndefinedPrimal,
    Zero,
    instantiate_zeros,
    tangent_aval,
)
from jax_core._src.interpreters.batching import batch_jaxpr
from jax_core._src.interpreters.batching_util import axis_size, moveaxis
from jax_core._src.interpreters.partial_eval import (
    PartialEvalTrace,
    SaveablePolicy,
    partial_eval_call,
)

ParamsFor = Callable[[ClosedJaxpr, dict[str, Any]], dict[str, Any]]
"""Builds a call's params for a new inner jaxpr from the old params."""


def with_jaxpr(jaxpr: ClosedJaxpr, params: dict[str, Any]) -> dict[str, Any]:
    """The params with ``jaxpr`` replaced (the default ``ParamsFor``)."""
    return {**params, "jaxpr": jaxpr}


def call_jvp(prim: Primitive, params_for: ParamsFor = with_jaxpr) -> Callable[..., tuple[list[Any], list[Any]]]:
    """jvp: the call of the jvp of the inner jaxpr on primals and nonzero tangents."""

    def rule(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[list[Any], list[Any]]:
        jaxpr: ClosedJaxpr = params["jaxpr"]
        nonzeros = [not isinstance(t, Zero) for t in tangents]
        jvp_closed, out_nz = jvp_jaxpr(jaxpr, nonzeros, instantiate=False)
        outs = prim.bind(*primals, *(t for t in tangents if not isinstance(t, Zero)), **params_for(jvp_closed, params))
        n = len(jaxpr.out_avals)
        it = iter(outs[n:])
        touts = [next(it) if nz else Zero(tangent_aval(a)) for a, nz in zip(jaxpr.out_avals, out_nz)]
        return list(outs[:n]), touts

    return rule


def call_transpose(prim: Primitive, params_for: ParamsFor = with_jaxpr) -> Callable[..., list[Any]]:
    """transpose: the call of the transposed inner jaxpr on the non-linear operands and cotangents."""

    def rule(cts: Sequence[Any], *args: Any, **params: Any) -> list[Any]:
        jaxpr: ClosedJaxpr = params["jaxpr"]
        linear = [isinstance(a, UndefinedPrimal) for a in args]
        transposed = transpose_jaxpr(jaxpr, linear)
        nonlin = [a for a in args if not isinstance(a, UndefinedPrimal)]
        cts_in = iter(prim.bind(*nonlin, *map(instantiate_zeros, cts), **params_for(transposed, params)))
        return [next(cts_in) if lin else None for lin in linear]

    return rule


def call_batch(prim: Primitive, params_for: ParamsFor = with_jaxpr) -> Callable[..., tuple[list[Any], list[int | None]]]:
    """batch: the call of the batched inner jaxpr (batch axes moved to the front)."""

    def rule(args: Sequence[Any], dims: Sequence[int | None], **params: Any) -> tuple[list[Any], list[int | None]]:
        jaxpr: ClosedJaxpr = params["jaxpr"]
        size = axis_size(args, dims)
        moved = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args, dims)]
        batched, out_batched = batch_jaxpr(jaxpr, size, [d is not None for d in dims], instantiate=False)
        outs = prim.bind(*moved, **params_for(batched, params))
        return list(outs), [0 if b else None for b in out_batched]

    return rule


def call_partial_eval(
    prim: Primitive,
    params_for: ParamsFor = with_jaxpr,
    policy: Callable[[dict[str, Any]], SaveablePolicy | None] = lambda params: None,
) -> Callable[..., list[Any]]:
    """partial_eval: the known half of the inner jaxpr runs now, the rest is staged as a call."""

    def rule(trace: PartialEvalTrace, args: Sequence[Any], unknown: Sequence[bool], **params: Any) -> list[Any]:
        # Inside a checkpoint, the body is split under its policy too (as JAX splits a nested jit).
        own = policy(params)
        return partial_eval_call(trace, prim, args, unknown, params, lambda j: params_for(j, params), own if own is not None else trace.saveable)

    return rule
