"""The jaxpr type checker ``jax_enable_checks`` runs on every jaxpr tracing builds: each variable
is defined once before it is used, and each equation's outputs have the avals its primitive's
abstract evaluation gives for its inputs. Failures raise ``JaxprTypeError``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.errors import JaxprTypeError
from jax_core._src.core.jaxpr import ClosedJaxpr, Jaxpr, Literal, Var


def _same_type(a: ShapedArray, b: ShapedArray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype


def _subjaxprs(params: dict[str, Any]) -> Iterable[Jaxpr]:
    for value in params.values():
        items: tuple[object, ...] = tuple(cast(Iterable[object], value)) if isinstance(value, (tuple, list)) else (value,)
        for item in items:
            if isinstance(item, ClosedJaxpr):
                yield item.jaxpr
            elif isinstance(item, Jaxpr):
                yield item


def check_jaxpr(jaxpr: Jaxpr) -> None:
    """Raises ``JaxprTypeError`` where ``jaxpr`` is not well typed (its sub-jaxprs included)."""
    defined: set[Var] = set()

    def define(v: Var, where: str) -> None:
        if v in defined:
            raise JaxprTypeError(f"Variable '{v}' already bound ({where})")
        defined.add(v)

    for v in (*jaxpr.constvars, *jaxpr.invars):
        define(v, "as an input")
    for i, eqn in enumerate(jaxpr.eqns):
        name = eqn.primitive.name
        for a in eqn.invars:
            if not isinstance(a, Literal) and a not in defined:
                raise JaxprTypeError(f"Variable '{a}' not defined, used in equation {i} ({name})")
        expected = eqn.primitive.abstract_eval(*(a.aval for a in eqn.invars), **eqn.params)
        got = [v.aval for v in eqn.outvars]
        if len(expected) != len(got) or not all(_same_type(e, g) for e, g in zip(expected, got)):
            shown = ", ".join(e.str_short() for e in expected)
            raise JaxprTypeError(
                f"Value for variable(s) of equation {i} ({name}) has type(s) "
                f"{', '.join(g.str_short() for g in got)}, but its primitive gives {shown}"
            )
        for sub in _subjaxprs(eqn.params):
            check_jaxpr(sub)
        for v in eqn.outvars:
            define(v, f"by equation {i} ({name})")
    for a in jaxpr.outvars:
        if not isinstance(a, Literal) and a not in defined:
            raise JaxprTypeError(f"Variable '{a}' not defined, used as an output")
