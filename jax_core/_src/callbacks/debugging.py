"""``debug.callback`` and ``debug.print``: Python calls for inspecting values, from staged code.

They have the ``DebugEffect`` (or, with ``ordered=True``, the ``OrderedDebugEffect``): never
removed as dead code, and ordered ones happen in program order. As in JAX they follow the
program's transformations: under ``jvp``/``grad`` they see the primal values (once, in the forward
pass), under ``vmap`` they run once per batch element, and they have no outputs.
"""

from __future__ import annotations

import copy
import logging
import string
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, overload

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.effects import (
    Effect,
    Effects,
    control_flow_allowed_effects,
    custom_derivatives_allowed_effects,
    ordered_effects,
    partial_eval_kept_effects,
    remat_allowed_effects,
)
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.source_info import user_frame
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.batching_util import axis_size
from jax_core._src.lax.indexing.slicing import index_in_dim
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.host_callbacks import emit_python_callback
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.runtime.transfer import device_put
from jax_core._src.tree.tree_util import PyTreeDef, tree_flatten, tree_unflatten
from jax_core._src.typing.basearray import Array

logger = logging.getLogger(__name__)


class DebugEffect(Effect):
    """The effect of an unordered ``debug.callback``/``debug.print``."""

    __slots__ = ()

    def __str__(self) -> str:
        return "Debug"


class OrderedDebugEffect(Effect):
    """The effect of a ``debug.callback``/``debug.print`` with ``ordered=True``."""

    __slots__ = ()

    def __str__(self) -> str:
        return "OrderedDebug"


debug_effect: DebugEffect = DebugEffect()
ordered_debug_effect: OrderedDebugEffect = OrderedDebugEffect()
ordered_effects.add_type(OrderedDebugEffect)
for _type in (DebugEffect, OrderedDebugEffect):
    control_flow_allowed_effects.add_type(_type)
    remat_allowed_effects.add_type(_type)
    custom_derivatives_allowed_effects.add_type(_type)
    partial_eval_kept_effects.add_type(_type)


def _call_on_host(callback: Callable[..., Any], args: Sequence[Any]) -> None:
    """Calls ``callback`` with the arguments as device arrays (what JAX's debug callbacks get)."""
    arrays = [a if a is None or isinstance(a, Array) else device_put(a) for a in args]
    try:
        callback(*arrays)
    except BaseException:
        logger.exception("jax.debug.callback failed")
        raise


def _lower_debug(ctx: LoweringRuleContext, args: Sequence[ir.Value[ir.Type]], callback: Callable[..., Any], effect: Effect) -> list[ir.Value[ir.Type]]:
    def host(*flat: Any) -> tuple[()]:
        _call_on_host(callback, flat)
        return ()

    if effect is ordered_debug_effect:
        _, token = emit_python_callback(ctx, host, ctx.token(effect), args, ctx.avals_in, [], has_side_effect=True)
        assert token is not None
        ctx.set_token(effect, token)
    else:
        emit_python_callback(ctx, host, None, args, ctx.avals_in, [], has_side_effect=True)
    return []


def _unrolled_batch(prim: Primitive) -> Callable[..., tuple[list[Any], list[int]]]:
    """One call per batch element, in order (JAX's ``debug_batching_rule``)."""

    def rule(args: Sequence[Any], dims: Sequence[int | None], **params: Any) -> tuple[list[Any], list[int]]:
        for i in range(axis_size(args, dims)):
            prim.bind(*(a if d is None else index_in_dim(a, i, d, keepdims=False) for a, d in zip(args, dims)), **params)
        return [], []

    return rule


def _primal_jvp(prim: Primitive) -> Callable[..., tuple[list[Any], list[Any]]]:
    def rule(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[list[Any], list[Any]]:
        prim.bind(*primals, **params)
        return [], []

    return rule


def _no_cotangents(ct: Any, *args: Any, **params: Any) -> list[None]:
    return [None] * len(args)


def _no_outputs(*avals: ShapedArray, **params: Any) -> list[ShapedArray]:
    return []


# -- debug_callback -------------------------------------------------------------------------------
debug_callback_p: Primitive = Primitive("debug_callback", multiple_results=True)


def _debug_callback_impl(*args: Any, callback: Callable[..., Any], effect: Effect, partitioned: bool) -> list[Any]:
    _call_on_host(callback, args)
    return []


def _debug_callback_effects(*, effect: Effect, **_: Any) -> Effects:
    return {effect}


def _debug_callback_lower(ctx: LoweringRuleContext, *args: ir.Value[ir.Type], callback: Callable[..., Any], effect: Effect, partitioned: bool) -> list[ir.Value[ir.Type]]:
    return _lower_debug(ctx, args, callback, effect)


debug_callback_p.def_rules(
    Rules(
        abstract_eval=_no_outputs,
        lower=_debug_callback_lower,
        impl=_debug_callback_impl,
        jvp=_primal_jvp(debug_callback_p),
        transpose=_no_cotangents,
        batch=_unrolled_batch(debug_callback_p),
        effects=_debug_callback_effects,
    )
)


def _split_callback_args(args: Sequence[Any], kwargs: Mapping[str, Any]) -> tuple[PyTreeDef, list[Any], dict[int, Any]]:
    """The arguments' structure, their array leaves, and the other leaves by position (static)."""
    leaves, in_tree = tree_flatten((tuple(args), dict(kwargs)))
    dyn: list[Any] = []
    static: dict[int, Any] = {}
    for i, leaf in enumerate(leaves):
        try:
            get_aval(leaf)
        except TypeError:
            static[i] = leaf
        else:
            dyn.append(leaf)
    return in_tree, dyn, static


def _merge_callback_args(in_tree: PyTreeDef, dyn: Sequence[Any], static: Mapping[int, Any]) -> tuple[Any, Any]:
    it = iter(dyn)
    leaves = [static[i] if i in static else next(it) for i in range(len(dyn) + len(static))]
    args, kwargs = tree_unflatten(in_tree, leaves)
    return args, kwargs


@overload
def debug_callback(
    callback: Callable[..., object], *args: Any, ordered: bool = False, partitioned: bool = False, **kwargs: Any
) -> None: ...
@overload
def debug_callback(*, ordered: bool = False, partitioned: bool = False) -> Callable[..., None]: ...
def debug_callback(
    callback: Callable[..., object] | None = None,
    *args: Any,
    ordered: bool = False,
    partitioned: bool = False,
    **kwargs: Any,
) -> Callable[..., None] | None:
    """Calls ``callback(*args, **kwargs)`` on the host from staged code, as ``jax.debug.callback``.

    The arguments arrive as arrays (non-array leaves as they were given); the result is ignored.
    It is never removed as dead code; with ``ordered=True`` calls happen in program order, across
    jitted calls too. Under ``vmap`` it is called once per batch element, under ``grad`` with the
    primal values. Two-call form: ``debug.callback(ordered=True)(callback, *args, **kwargs)``.
    ``partitioned`` is accepted for JAX's signature (one device: it changes nothing).
    """

    def call(callback: Callable[..., object], *c_args: Any, **c_kwargs: Any) -> None:
        if not callable(callback):
            raise TypeError(f"first argument to jax.debug.callback must be callable, but got an object of type {type(callback)}")
        in_tree, dyn, static = _split_callback_args(c_args, c_kwargs)

        def flat_callback(*flat: Any) -> tuple[()]:
            a, k = _merge_callback_args(in_tree, flat, static)
            callback(*a, **k)
            return ()

        flat_callback.__qualname__ = "debug_callback.<locals>._debug_callback.<locals>._flat_callback"
        effect = ordered_debug_effect if ordered else debug_effect
        debug_callback_p.bind(*dyn, callback=flat_callback, effect=effect, partitioned=partitioned)

    if callback is not None:
        call(callback, *args, **kwargs)
        return None
    if args or kwargs:
        raise TypeError(f"debug_callback received unexpected arguments in the two-call form: args={args} kwargs={kwargs}")
    return call


# -- debug_print ----------------------------------------------------------------------------------
class _FormatChecker(string.Formatter):
    """Checks a format string against its arguments without formatting them (JAX's messages)."""

    def format_field(self, value: Any, format_spec: str) -> str:
        return ""

    def check_unused_args(self, used_args: set[int | str], args: Sequence[Any], kwargs: Mapping[str, Any]) -> None:
        unused_args = [arg for i, arg in enumerate(args) if i not in used_args]
        unused_kwargs = [k for k in kwargs if k not in used_args]
        if unused_args:
            raise ValueError(f"Unused positional arguments to `jax.debug.print`: {unused_args}")
        if unused_kwargs:
            raise ValueError(
                f"Unused keyword arguments to `jax.debug.print`: {unused_kwargs}. You may be passing an f-string "
                '(i.e, `f"{x}"`) into `jax.debug.print` and instead should pass in a regular string.'
            )


_checker = _FormatChecker()


def _format_and_print(fmt: str, np_printoptions: dict[str, Any], has_placeholders: bool, logging_record: logging.LogRecord | None, *args: Any, **kwargs: Any) -> None:
    if has_placeholders:
        with np.printoptions(**np_printoptions):
            msg = fmt.format(*args, **kwargs)
    else:
        msg = " ".join((fmt, *(str(a) for a in args)))
    if logging_record is not None:
        record = copy.copy(logging_record)
        record.msg = msg
        logger.handle(record)
    else:
        sys.stdout.write(msg + "\n")


def _print_callback(
    fmt: str,
    in_tree: PyTreeDef,
    static_args: tuple[tuple[int, Any], ...],
    np_printoptions: tuple[tuple[str, Any], ...],
    has_placeholders: bool,
    logging_record: logging.LogRecord | None,
) -> Callable[..., tuple[()]]:
    static = dict(static_args)

    def flat_callback(*flat: Any) -> tuple[()]:
        a, k = _merge_callback_args(in_tree, flat, static)
        _format_and_print(fmt, dict(np_printoptions), has_placeholders, logging_record, *a, **k)
        return ()

    return flat_callback


debug_print_p: Primitive = Primitive("debug_print", multiple_results=True)


def _debug_print_impl(*args: Any, fmt: str, ordered: bool, partitioned: bool, **params: Any) -> list[Any]:
    _call_on_host(_print_callback(fmt, **params), args)
    return []


def _debug_print_effects(*, ordered: bool, **_: Any) -> Effects:
    return {ordered_debug_effect if ordered else debug_effect}


def _debug_print_lower(ctx: LoweringRuleContext, *args: ir.Value[ir.Type], fmt: str, ordered: bool, partitioned: bool, **params: Any) -> list[ir.Value[ir.Type]]:
    effect = ordered_debug_effect if ordered else debug_effect
    return _lower_debug(ctx, args, _print_callback(fmt, **params), effect)


debug_print_p.def_rules(
    Rules(
        abstract_eval=_no_outputs,
        lower=_debug_print_lower,
        impl=_debug_print_impl,
        jvp=_primal_jvp(debug_print_p),
        transpose=_no_cotangents,
        batch=_unrolled_batch(debug_print_p),
        effects=_debug_print_effects,
    )
)


def _logging_record(level: int) -> logging.LogRecord:
    frame = user_frame()
    file_name, line_no = "(unknown file)", 0
    if frame is not None:
        file_name, line_no = frame.code.co_filename, frame.lineno
    return logger.makeRecord(logger.name, level, file_name, line_no, "", (), None)


@overload
def debug_print(
    fmt: str,
    *args: Any,
    ordered: bool = False,
    partitioned: bool = False,
    skip_format_check: bool = False,
    _use_logging: bool = False,
    **kwargs: Any,
) -> None: ...
@overload
def debug_print(
    *, ordered: bool = False, partitioned: bool = False, skip_format_check: bool = False, _use_logging: bool = False
) -> Callable[..., None]: ...
def debug_print(
    fmt: str | None = None,
    *args: Any,
    ordered: bool = False,
    partitioned: bool = False,
    skip_format_check: bool = False,
    _use_logging: bool = False,
    **kwargs: Any,
) -> Callable[..., None] | None:
    """Prints ``fmt.format(*args, **kwargs)`` on the host from staged code, as ``jax.debug.print``.

    Formatting is ``str.format`` applied when the values are known, to the arrays (under NumPy's
    print options as they were when ``debug.print`` was called), so pass a plain string, not an
    f-string. Arguments that the format does not use, and placeholders without arguments, are
    JAX's ``ValueError``/``IndexError`` when it is called (``skip_format_check`` skips the check).
    It is never removed as dead code; with ``ordered=True`` prints happen in program order, across
    jitted calls too. Under ``vmap`` it prints once per batch element, under ``grad`` the primal
    values. Two-call form: ``debug.print(ordered=True)("x={x}", x=x)``.
    """

    def call(fmt: str, *c_args: Any, **c_kwargs: Any) -> None:
        if not skip_format_check:
            _checker.format(fmt, *c_args, **c_kwargs)
        has_placeholders = False
        if fmt:
            _, field_name, *_ = next(iter(string.Formatter().parse(fmt)))
            has_placeholders = field_name is not None
        in_tree, dyn, static = _split_callback_args(c_args, c_kwargs)
        debug_print_p.bind(
            *dyn,
            fmt=fmt,
            ordered=ordered,
            partitioned=partitioned,
            in_tree=in_tree,
            static_args=tuple(static.items()),
            np_printoptions=tuple(np.get_printoptions().items()),
            has_placeholders=has_placeholders,
            logging_record=_logging_record(logging.INFO) if _use_logging else None,
        )

    if fmt is not None:
        call(fmt, *args, **kwargs)
        return None
    if args or kwargs:
        raise TypeError(f"debug_print received unexpected arguments in the two-call form: args={args} kwargs={kwargs}")
    return call


@overload
def debug_log(
    fmt: str, *args: Any, ordered: bool = False, partitioned: bool = False, skip_format_check: bool = False, **kwargs: Any
) -> None: ...
@overload
def debug_log(*, ordered: bool = False, partitioned: bool = False, skip_format_check: bool = False) -> Callable[..., None]: ...
def debug_log(
    fmt: str | None = None,
    *args: Any,
    ordered: bool = False,
    partitioned: bool = False,
    skip_format_check: bool = False,
    **kwargs: Any,
) -> Callable[..., None] | None:
    """``debug_print`` through the ``logging`` module: an INFO record of this module's logger,
    located where it was called (as ``jax.debug.log``); also in the two-call form."""
    if fmt is not None:
        debug_print(fmt, *args, ordered=ordered, partitioned=partitioned, skip_format_check=skip_format_check, _use_logging=True, **kwargs)
        return None
    if args or kwargs:
        raise TypeError(f"debug_print received unexpected arguments in the two-call form: args={args} kwargs={kwargs}")
    return debug_print(ordered=ordered, partitioned=partitioned, skip_format_check=skip_format_check, _use_logging=True)
