"""``pure_callback``: a Python function the compiled program calls for a value.

It has no effect: an unused result lets dead-code elimination remove the call, and XLA may call
it any number of times. Eager calls compile the one-primitive program like any primitive (as
JAX's ``apply_primitive``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, overload

from jax_core._src.callbacks.flat import FlatCallback, check_callable, check_sharding, call_logged, result_avals, to_arrays
from jax_core._src.callbacks.vmap_methods import check_vmap_method, foreign_call_batch
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.host_callbacks import emit_python_callback
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.tree.tree_util import tree_flatten, tree_unflatten
from jax_core._src.sharding.shardings import Sharding
from jax_core._src.typing.aliases import DuckTypedArray
from jax_core._src.typing.basearray import Array

_Spec = TypeVar("_Spec", bound=DuckTypedArray)
_K = TypeVar("_K")


@overload
def pure_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: DuckTypedArray,
    *args: Any,
    sharding: Sharding | None = None,
    vmap_method: str | None = None,
    **kwargs: Any,
) -> Array: ...
@overload
def pure_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: tuple[DuckTypedArray, DuckTypedArray],
    *args: Any,
    sharding: Sharding | None = None,
    vmap_method: str | None = None,
    **kwargs: Any,
) -> tuple[Array, Array]: ...
@overload
def pure_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: tuple[DuckTypedArray, DuckTypedArray, DuckTypedArray],
    *args: Any,
    sharding: Sharding | None = None,
    vmap_method: str | None = None,
    **kwargs: Any,
) -> tuple[Array, Array, Array]: ...
@overload
def pure_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: tuple[DuckTypedArray, ...],
    *args: Any,
    sharding: Sharding | None = None,
    vmap_method: str | None = None,
    **kwargs: Any,
) -> tuple[Array, ...]: ...
@overload
def pure_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: list[_Spec],
    *args: Any,
    sharding: Sharding | None = None,
    vmap_method: str | None = None,
    **kwargs: Any,
) -> list[Array]: ...
@overload
def pure_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: dict[_K, _Spec],
    *args: Any,
    sharding: Sharding | None = None,
    vmap_method: str | None = None,
    **kwargs: Any,
) -> dict[_K, Array]: ...
@overload
def pure_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: None,
    *args: Any,
    sharding: Sharding | None = None,
    vmap_method: str | None = None,
    **kwargs: Any,
) -> None: ...
@overload
def pure_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: Any,
    *args: Any,
    sharding: Sharding | None = None,
    vmap_method: str | None = None,
    **kwargs: Any,
) -> Any: ...
def pure_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: Any,
    *args: Any,
    sharding: Sharding | None = None,
    vmap_method: str | None = None,
    **kwargs: Any,
) -> Any:
    """Calls a pure Python function from staged code, as ``jax.pure_callback``.

    ``callback(*args, **kwargs)`` runs on the host with the arguments as arrays and must return
    values of the shapes and dtypes of ``result_shape_dtypes`` (a pytree of
    ``jax_core.ShapeDtypeStruct``, or of anything with ``shape`` and ``dtype``); the result has
    that structure, as arrays. The function must be pure: when its result is unused the call may
    be removed, and it may be called more than once. ``vmap_method`` says how ``vmap`` batches
    it: ``"sequential"`` (one call per element), ``"sequential_unrolled"``, ``"expand_dims"``
    (unbatched arguments get a leading axis of size 1), ``"broadcast_all"`` (every argument gets
    the full batch axis), ``"legacy_vectorized"``; ``None`` (the default) makes ``vmap`` raise.
    ``jvp``/``grad`` raise: wrap it in ``custom_jvp``/``custom_vjp``. ``sharding`` is accepted for
    JAX's signature (one device: it changes nothing).
    """
    check_callable(callback, "jax.pure_callback")
    check_sharding(sharding, "pure_callback")
    check_vmap_method(vmap_method)
    flat_args, in_tree = tree_flatten((args, kwargs))
    avals, out_tree = result_avals(result_shape_dtypes)
    outs = pure_callback_p.bind(
        *flat_args, callback=FlatCallback(callback, in_tree), result_avals=avals, sharding=sharding, vmap_method=vmap_method
    )
    return tree_unflatten(out_tree, outs)


pure_callback_p: Primitive = Primitive("pure_callback", multiple_results=True)


def _abstract_eval(*avals: ShapedArray, callback: FlatCallback, result_avals: tuple[ShapedArray, ...], **_: Any) -> list[ShapedArray]:
    return list(result_avals)


def _jvp(*_: Any, **__: Any) -> Any:
    raise ValueError("Pure callbacks do not support JVP. Please use `jax.custom_jvp` to use callbacks while taking gradients.")


def _transpose(*_: Any, **__: Any) -> Any:
    raise ValueError(
        "Pure callbacks do not support transpose. Please use `jax.custom_vjp` to use callbacks while taking gradients."
    )


def _batch(args: Any, dims: Any, **params: Any) -> tuple[list[Any], list[int]]:
    return foreign_call_batch(pure_callback_p, args, dims, **params)


def _lower(ctx: LoweringRuleContext, *args: ir.Value[ir.Type], callback: FlatCallback, **_: Any) -> list[ir.Value[ir.Type]]:
    def host(*flat: Any) -> list[Any]:
        return call_logged(callback, to_arrays(flat), "jax.pure_callback failed")

    results, _token = emit_python_callback(ctx, host, None, args, ctx.avals_in, ctx.avals_out, has_side_effect=False)
    return results


pure_callback_p.def_rules(
    Rules(abstract_eval=_abstract_eval, lower=_lower, jvp=_jvp, transpose=_transpose, batch=_batch)
)
