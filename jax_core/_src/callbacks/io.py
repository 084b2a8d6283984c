"""``io_callback``: a Python function with side effects, called from staged code.

It has the ``IOEffect`` (kept by dead-code elimination, never duplicated) or, with
``ordered=True``, the ``OrderedIOEffect`` (calls happen in program order: a token is threaded).
``vmap`` calls it once per batch element (ordered ones cannot be ``vmap``ped), and it has no
derivative, as in JAX."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, overload

from jax_core._src.callbacks.flat import FlatCallback, check_callable, check_sharding, call_logged, result_avals, to_arrays
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.effects import (
    Effect,
    Effects,
    control_flow_allowed_effects,
    custom_derivatives_allowed_effects,
    ordered_effects,
    unrepeatable_effects,
)
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.interpreters.batching_util import moveaxis
from jax_core._src.lax.control_flow.scan import map as lax_map
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.host_callbacks import emit_python_callback
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.tree.tree_util import tree_flatten, tree_unflatten
from jax_core._src.sharding.shardings import Sharding
from jax_core._src.typing.aliases import DuckTypedArray
from jax_core._src.typing.basearray import Array

_Spec = TypeVar("_Spec", bound=DuckTypedArray)
_K = TypeVar("_K")


class IOEffect(Effect):
    """The effect of an unordered ``io_callback``."""

    __slots__ = ()

    def __str__(self) -> str:
        return "IO"


class OrderedIOEffect(Effect):
    """The effect of an ``io_callback(..., ordered=True)``."""

    __slots__ = ()

    def __str__(self) -> str:
        return "OrderedIO"


io_effect: IOEffect = IOEffect()
ordered_io_effect: OrderedIOEffect = OrderedIOEffect()
ordered_effects.add_type(OrderedIOEffect)
unrepeatable_effects.add_type(IOEffect)
for _type in (IOEffect, OrderedIOEffect):
    control_flow_allowed_effects.add_type(_type)
    custom_derivatives_allowed_effects.add_type(_type)


@overload
def io_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: DuckTypedArray,
    *args: Any,
    sharding: Sharding | None = None,
    ordered: bool = False,
    **kwargs: Any,
) -> Array: ...
@overload
def io_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: tuple[DuckTypedArray, DuckTypedArray],
    *args: Any,
    sharding: Sharding | None = None,
    ordered: bool = False,
    **kwargs: Any,
) -> tuple[Array, Array]: ...
@overload
def io_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: tuple[DuckTypedArray, DuckTypedArray, DuckTypedArray],
    *args: Any,
    sharding: Sharding | None = None,
    ordered: bool = False,
    **kwargs: Any,
) -> tuple[Array, Array, Array]: ...
@overload
def io_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: tuple[DuckTypedArray, ...],
    *args: Any,
    sharding: Sharding | None = None,
    ordered: bool = False,
    **kwargs: Any,
) -> tuple[Array, ...]: ...
@overload
def io_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: list[_Spec],
    *args: Any,
    sharding: Sharding | None = None,
    ordered: bool = False,
    **kwargs: Any,
) -> list[Array]: ...
@overload
def io_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: dict[_K, _Spec],
    *args: Any,
    sharding: Sharding | None = None,
    ordered: bool = False,
    **kwargs: Any,
) -> dict[_K, Array]: ...
@overload
def io_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: None,
    *args: Any,
    sharding: Sharding | None = None,
    ordered: bool = False,
    **kwargs: Any,
) -> None: ...
@overload
def io_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: Any,
    *args: Any,
    sharding: Sharding | None = None,
    ordered: bool = False,
    **kwargs: Any,
) -> Any: ...
def io_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: Any,
    *args: Any,
    sharding: Sharding | None = None,
    ordered: bool = False,
    **kwargs: Any,
) -> Any:
    """Calls an impure Python function from staged code, as ``jax.experimental.io_callback``.

    ``callback(*args, **kwargs)`` runs on the host with the arguments as arrays and returns
    values of the shapes and dtypes of ``result_shape_dtypes`` (``None`` or ``()`` for no
    result); the result has that structure, as arrays. The call is never removed or repeated;
    with ``ordered=True`` calls happen in program order, across jitted calls too (and cannot be
    ``vmap``ped); unordered ones are ``vmap``ped one call per element. It has no derivative.
    ``sharding`` is accepted for JAX's signature (one device: it changes nothing).
    """
    check_callable(callback, "jax.experimental.io_callback")
    check_sharding(sharding, "io_callback")
    flat_args, in_tree = tree_flatten((args, kwargs))
    avals, out_tree = result_avals(result_shape_dtypes)
    outs = io_callback_p.bind(
        *flat_args, callback=FlatCallback(callback, in_tree), result_avals=avals, sharding=sharding, ordered=ordered
    )
    return tree_unflatten(out_tree, outs)


io_callback_p: Primitive = Primitive("io_callback", multiple_results=True)


def _abstract_eval(*avals: ShapedArray, result_avals: tuple[ShapedArray, ...], **_: Any) -> list[ShapedArray]:
    return list(result_avals)


def _effects(*, ordered: bool, **_: Any) -> Effects:
    return {ordered_io_effect if ordered else io_effect}


def _jvp(*_: Any, **__: Any) -> Any:
    raise ValueError("IO callbacks do not support JVP.")


def _transpose(*_: Any, **__: Any) -> Any:
    raise ValueError("IO callbacks do not support transpose.")


def _batch(args: Any, dims: Any, *, callback: FlatCallback, result_avals: tuple[ShapedArray, ...], sharding: Any, ordered: bool) -> tuple[list[Any], list[int]]:
    if ordered:
        raise ValueError("Cannot `vmap` ordered IO callback.")
    is_batched = [d is not None for d in dims]
    front = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args, dims)]
    fixed = [a for a, b in zip(front, is_batched) if not b]
    mapped = [a for a, b in zip(front, is_batched) if b]

    def one(xs: list[Any]) -> list[Any]:
        it_fixed, it_xs = iter(fixed), iter(xs)
        merged = [next(it_xs) if b else next(it_fixed) for b in is_batched]
        out: list[Any] = io_callback_p.bind(*merged, callback=callback, result_avals=result_avals, sharding=sharding, ordered=False)
        return out

    outs: list[Any] = list(lax_map(one, mapped))
    return outs, [0] * len(outs)


def _lower(ctx: LoweringRuleContext, *args: ir.Value[ir.Type], callback: FlatCallback, ordered: bool, **_: Any) -> list[ir.Value[ir.Type]]:
    def host(*flat: Any) -> list[Any]:
        return call_logged(callback, to_arrays(flat), "jax.io_callback failed")

    if not ordered:
        results, _token = emit_python_callback(ctx, host, None, args, ctx.avals_in, ctx.avals_out, has_side_effect=True)
        return results
    results, token = emit_python_callback(
        ctx, host, ctx.token(ordered_io_effect), args, ctx.avals_in, ctx.avals_out, has_side_effect=True
    )
    assert token is not None
    ctx.set_token(ordered_io_effect, token)
    return results


io_callback_p.def_rules(
    Rules(abstract_eval=_abstract_eval, lower=_lower, jvp=_jvp, transpose=_transpose, batch=_batch, effects=_effects)
)
