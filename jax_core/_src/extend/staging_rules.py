"""JAX's ``jax.interpreters.partial_eval`` and ``xla`` helpers over jax_core's jaxprs:
dead-code elimination rules (``Rules.dce``), closing jaxprs, and eager application."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jax_core._src.core.jaxpr import ClosedJaxpr, Jaxpr, dce_jaxpr_used
from jax_core._src.core.primitive import DceRule, Primitive
from jax_core._src.extend.rule_tables import RuleTable

dce_rules: RuleTable[DceRule] = RuleTable("dce", "dce_rules")
"""``dce_rules[p] = rule``: ``rule(used_outputs, eqn) -> (used_inputs, new_eqn | None)``
(``Rules.dce``)."""


def dce_jaxpr(
    jaxpr: Jaxpr,
    used_outputs: bool | Sequence[bool],
    instantiate: bool | Sequence[bool] = False,
    live_inputs: bool | Sequence[bool] = True,
) -> tuple[Jaxpr, list[bool]]:
    """``jaxpr`` computing only ``used_outputs``, without the equations and inputs they do not
    need (``instantiate``: inputs kept anyway); returns it and which inputs it reads. Only
    ``live_inputs=True`` is supported."""
    if live_inputs is not True:
        raise NotImplementedError("dce_jaxpr with live_inputs other than True is not supported by jax_core")
    used = [used_outputs] * len(jaxpr.outvars) if isinstance(used_outputs, bool) else list(used_outputs)
    return dce_jaxpr_used(jaxpr, used, instantiate)


def close_jaxpr(jaxpr: Jaxpr) -> ClosedJaxpr:
    """``jaxpr`` (without constant variables) closed over no constants."""
    if jaxpr.constvars:
        raise ValueError("close_jaxpr needs a jaxpr without constvars; use convert_constvars_jaxpr first")
    return ClosedJaxpr(jaxpr, [])


def convert_constvars_jaxpr(jaxpr: Jaxpr) -> Jaxpr:
    """``jaxpr`` with its constant variables made its leading inputs."""
    return Jaxpr([], [*jaxpr.constvars, *jaxpr.invars], list(jaxpr.outvars), list(jaxpr.eqns))


def apply_primitive(prim: Primitive, *args: Any, **params: Any) -> Any:
    """Evaluates ``prim`` eagerly on concrete ``args`` (compiled, for primitives without an
    ``impl`` rule)."""
    return prim.impl(*args, **params)
