"""``custom_gradient``: a function that returns its value and its VJP, TensorFlow style, built on
``custom_vjp`` (as in JAX). The VJP closure's captured arrays travel as residuals."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar, overload

from jax_core._src.transforms.ad_api import closure_convert
from jax_core._src.transforms.custom_derivatives import custom_vjp
from jax_core._src.tree.tree_util import register_pytree_node

P = ParamSpec("P")
R = TypeVar("R")


class _ClosureResiduals:
    """The VJP closure of one call, as residuals: the arrays it captured (the pytree's children)
    and the closure-converted function (static)."""

    __slots__ = ("consts", "converted")

    def __init__(self, consts: list[Any], converted: Callable[..., Any]) -> None:
        self.consts = consts
        self.converted = converted


register_pytree_node(
    _ClosureResiduals,
    lambda r: (r.consts, r.converted),
    lambda converted, consts: _ClosureResiduals(list(consts), converted),
)


@overload
def custom_gradient(
    fun: Callable[P, tuple[R, Callable[..., Any]]], *, with_logs: bool = False, remat: bool = False,
    with_accums: Any = None,
) -> Callable[P, R]: ...  # fmt: skip
@overload
def custom_gradient(
    fun: None = None, *, with_logs: bool = False, remat: bool = False, with_accums: Any = None
) -> Callable[[Callable[P, tuple[R, Callable[..., Any]]]], Callable[P, R]]: ...
def custom_gradient(
    fun: Callable[P, tuple[R, Callable[..., Any]]] | None = None, *, with_logs: bool = False,
    remat: bool = False, with_accums: Any = None,
) -> Callable[P, R] | Callable[[Callable[P, tuple[R, Callable[..., Any]]]], Callable[P, R]]:  # fmt: skip
    """Defines a function's gradient with the function: ``fun`` returns ``(value, vjp)``, where
    ``vjp(g)`` returns one cotangent per argument of ``fun`` (a tuple).

    ``with_logs``, ``remat`` and ``with_accums`` (JAX's backward-pass logs, custom
    rematerialization and gradient accumulators) are not implemented by jax_core.
    """
    if fun is None:
        return lambda f: custom_gradient(f, with_logs=with_logs, remat=remat, with_accums=with_accums)
    if with_logs or remat or with_accums is not None:
        raise NotImplementedError(
            "jax_core's custom_gradient does not implement with_logs, remat or with_accums; "
            "define the rule with jax_core.custom_vjp instead."
        )
    rule_fun = fun

    @functools.wraps(rule_fun)
    def primal(*args: Any, **kwargs: Any) -> Any:
        return rule_fun(*args, **kwargs)[0]

    wrapped: custom_vjp[..., Any] = custom_vjp(primal)

    def fwd(*args: Any, **kwargs: Any) -> tuple[Any, _ClosureResiduals]:
        ans, rule = rule_fun(*args, **kwargs)
        converted, consts = closure_convert(rule, ans)
        return ans, _ClosureResiduals(consts, converted)

    def bwd(res: _ClosureResiduals, g: Any) -> Any:
        return res.converted(g, *res.consts)

    wrapped.defvjp(fwd, bwd)
    return functools.wraps(rule_fun)(wrapped)
