"""``ffi_call``: calling a registered FFI target from JAX code, and its primitive ``ffi_call_p``.

``ffi_call(name, result_shape_dtypes, ...)(*args, **attrs)`` binds one ``ffi_call`` equation;
it lowers to a ``stablehlo.custom_call @name`` whose attributes are ``attrs``. Eager calls
compile that one equation, as every primitive. Under ``vmap`` the call is batched as
``vmap_method`` says (``callbacks/vmap_methods.py``, shared with ``pure_callback``), with the
layouts of the batched buffers extended by the batch axis (the most major one); it has no
derivative. With ``has_side_effect=True`` it has the ``FfiEffect``, so it is never removed,
even when its results are unused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias, cast, overload

import numpy as np

from jax_core._src import dtypes
from jax_core._src.callbacks.vmap_methods import check_vmap_method, foreign_call_batch
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.effects import (
    Effect,
    Effects,
    control_flow_allowed_effects,
    custom_derivatives_allowed_effects,
    no_effects,
    partial_eval_kept_effects,
    remat_allowed_effects,
)
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.tokens import AbstractToken, is_token_aval
from jax_core._src.core.trace import typeof
from jax_core._src.ffi.attributes import unwrap_kwargs_hashable, wrap_kwargs_hashable
from jax_core._src.ffi.lowering import FfiLayoutOptions, ffi_lowering, layout_for_lowering
from jax_core._src.layout.formats import Layout
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing.aliases import ArrayLike, DuckTypedArray
from jax_core._src.typing.basearray import Array

ResultMetadata: TypeAlias = DuckTypedArray | AbstractToken
"""What describes one result: anything with ``shape`` and ``dtype`` (``ShapeDtypeStruct``), or
``abstract_token`` for a token result."""

Layouts: TypeAlias = tuple[tuple[int, ...], ...]


class FfiEffect(Effect):
    """The effect of an ``ffi_call(..., has_side_effect=True)`` (printed ``FFI``)."""

    __slots__ = ()

    def __str__(self) -> str:
        return "FFI"

    def __repr__(self) -> str:
        return "FfiEffect()"


ffi_effect: FfiEffect = FfiEffect()
for _set in (control_flow_allowed_effects, remat_allowed_effects, custom_derivatives_allowed_effects, partial_eval_kept_effects):
    _set.add_type(FfiEffect)


def _result_avals(results: Sequence[Any]) -> tuple[ShapedArray, ...]:
    avals: list[ShapedArray] = []
    for idx, result in enumerate(results):
        if is_token_aval(result):
            avals.append(result)
            continue
        if not hasattr(result, "shape") or not hasattr(result, "dtype"):
            raise ValueError(
                "All elements of result_shape_dtypes must have 'shape' and 'dtype' attributes. "
                f"Got {result} at position {idx}."
            )
        # As JAX's: 64-bit dtypes are kept as given, without x64 too.
        dtype = cast("np.dtype[Any]", result.dtype if dtypes.is_extended_dtype(result.dtype) else np.dtype(result.dtype))
        avals.append(ShapedArray(tuple(int(d) for d in result.shape), dtype, bool(getattr(result, "weak_type", False))))
    return tuple(avals)


def _layouts_for_call(avals: Sequence[ShapedArray], layouts: Sequence[FfiLayoutOptions]) -> Layouts:
    """``ffi_call``'s layouts (sequences major to minor) as minor-to-major orders."""
    return tuple(
        layout_for_lowering(aval, layout if layout is None or isinstance(layout, Layout) else tuple(layout)[::-1])
        for aval, layout in zip(avals, layouts)
    )


def _call_layouts(
    avals: Sequence[ShapedArray], layouts: Sequence[FfiLayoutOptions] | None, values: str, kind: str
) -> Layouts:
    """The layouts of an ``ffi_call``'s operands or results: the default ones, or the ones asked
    for (JAX's ``ValueError`` when there are not as many as ``values``)."""
    if layouts is None:
        return tuple(layout_for_lowering(a) for a in avals)
    if len(layouts) != len(avals):
        raise ValueError(
            f"The number of {values} ({len(avals)}) must equal the number of {kind} layouts ({len(layouts)})."
        )
    return _layouts_for_call(avals, layouts)


def _compatible(a: ShapedArray, b: ShapedArray) -> bool:
    if is_token_aval(a) and is_token_aval(b):
        return True
    return a.shape == b.shape and a.dtype == b.dtype


def _checked_aliases(
    aliases: dict[int, int] | None, in_avals: Sequence[ShapedArray], out_avals: Sequence[ShapedArray], in_layouts: Layouts, out_layouts: Layouts
) -> tuple[tuple[int, int], ...]:
    checked: list[tuple[int, int]] = []
    for i, o in sorted((aliases or {}).items()):
        i, o = int(i), int(o)
        if i >= len(in_avals):
            raise ValueError(
                f"input_output_aliases contains the mapping '{i}:{o}' with input index {i} outside the range [0, {len(in_avals)})."
            )
        if o >= len(out_avals):
            raise ValueError(
                f"input_output_aliases contains the mapping '{i}:{o}' with output index {o} outside the range [0, {len(out_avals)})."
            )
        if not _compatible(in_avals[i], out_avals[o]):
            raise ValueError(
                f"input_output_aliases contains the mapping '{i}:{o}' referring to an input with abstract value "
                f"{in_avals[i]} and an output with a different abstract value {out_avals[o]}."
            )
        if in_layouts[i] != out_layouts[o]:
            raise ValueError(
                f"input_output_aliases contains the mapping '{i}:{o}' referring to an input with layout {in_layouts[i]} "
                f"and an output with a different layout {out_layouts[o]}."
            )
        checked.append((i, o))
    return tuple(checked)


@overload
def ffi_call(
    target_name: str,
    result_shape_dtypes: ResultMetadata,
    *,
    has_side_effect: bool = ...,
    vmap_method: str | None = ...,
    input_layouts: Sequence[FfiLayoutOptions] | None = ...,
    output_layouts: FfiLayoutOptions | Sequence[FfiLayoutOptions] | None = ...,
    input_output_aliases: dict[int, int] | None = ...,
    custom_call_api_version: int = ...,
    legacy_backend_config: str | None = ...,
) -> Callable[..., Array]: ...
@overload
def ffi_call(
    target_name: str,
    result_shape_dtypes: Sequence[ResultMetadata],
    *,
    has_side_effect: bool = ...,
    vmap_method: str | None = ...,
    input_layouts: Sequence[FfiLayoutOptions] | None = ...,
    output_layouts: FfiLayoutOptions | Sequence[FfiLayoutOptions] | None = ...,
    input_output_aliases: dict[int, int] | None = ...,
    custom_call_api_version: int = ...,
    legacy_backend_config: str | None = ...,
) -> Callable[..., Sequence[Array]]: ...
def ffi_call(
    target_name: str,
    result_shape_dtypes: ResultMetadata | Sequence[ResultMetadata],
    *,
    has_side_effect: bool = False,
    vmap_method: str | None = None,
    input_layouts: Sequence[FfiLayoutOptions] | None = None,
    output_layouts: FfiLayoutOptions | Sequence[FfiLayoutOptions] | None = None,
    input_output_aliases: dict[int, int] | None = None,
    custom_call_api_version: int = 4,
    legacy_backend_config: str | None = None,
) -> Callable[..., Array | Sequence[Array]]:
    """Calls the FFI target ``target_name`` (registered with ``register_ffi_target``).

    Returns a function taking the input arrays positionally; its keyword arguments are passed to
    the handler as named attributes (NumPy scalars keep their type: pass ``np.float32(eps)`` to
    a handler declaring a ``float`` attribute; Python ints are ``int64``, floats ``double``).

    ``result_shape_dtypes`` is one object with ``shape`` and ``dtype`` (``ShapeDtypeStruct``;
    ``abstract_token`` for a token result), giving one array, or a sequence of them, giving a
    list (a tuple for a tuple). ``has_side_effect=True`` runs the call even when its results are
    unused. ``vmap_method`` says how ``vmap`` batches it: ``"sequential"``,
    ``"sequential_unrolled"``, ``"expand_dims"``, ``"broadcast_all"``, ``"legacy_vectorized"``
    (as for ``pure_callback``); ``None`` makes ``vmap`` raise. ``input_layouts``/``output_layouts``
    give each buffer's layout as ``None`` (row-major), a ``Layout``, or a dimension order major
    to minor (``[0, 2, 1]``: a batch of column-major matrices); XLA relayouts to them.
    ``input_output_aliases`` maps input indices to the output indices reusing their buffers
    (same shape, dtype and layout). ``custom_call_api_version`` is 4, the typed FFI; an older
    version calls a legacy custom call, which takes its configuration as the opaque string
    ``legacy_backend_config`` and no attributes.
    """
    check_vmap_method(vmap_method)
    output_layouts_: Sequence[FfiLayoutOptions] | None
    if isinstance(result_shape_dtypes, Sequence):
        multiple_results = True
        result_avals = _result_avals(result_shape_dtypes)
        output_layouts_ = cast("Sequence[FfiLayoutOptions] | None", output_layouts)
    else:
        multiple_results = False
        result_avals = _result_avals([result_shape_dtypes])
        output_layouts_ = (cast("FfiLayoutOptions", output_layouts),)
    if custom_call_api_version >= 4 and legacy_backend_config is not None:
        raise ValueError(
            "The use of the legacy_backend_config parameter requires "
            f"custom_call_api_version < 4; got {custom_call_api_version}."
        )

    def wrapped(*args: ArrayLike, **kwargs: Any) -> Array | Sequence[Array]:
        in_avals = [typeof(x) for x in args]
        in_layouts = _call_layouts(in_avals, input_layouts, "input arguments", "input")
        out_layouts = _call_layouts(result_avals, output_layouts_, "outputs", "output")
        aliases = _checked_aliases(input_output_aliases, in_avals, result_avals, in_layouts, out_layouts)
        results: list[Array] = ffi_call_p.bind(
            *args,
            result_avals=result_avals,
            vmap_method=vmap_method,
            target_name=target_name,
            has_side_effect=has_side_effect,
            input_layouts=in_layouts,
            output_layouts=out_layouts,
            input_output_aliases=aliases,
            custom_call_api_version=custom_call_api_version,
            legacy_backend_config=legacy_backend_config,
            attributes=wrap_kwargs_hashable(kwargs),
        )
        if not multiple_results:
            return results[0]
        return tuple(results) if isinstance(result_shape_dtypes, tuple) else results

    return wrapped


ffi_call_p: Primitive = Primitive("ffi_call", multiple_results=True)


def _abstract_eval(*avals_in: ShapedArray, result_avals: tuple[ShapedArray, ...], **_: Any) -> list[ShapedArray]:
    return list(result_avals)


def _effects(*, has_side_effect: bool, **_: Any) -> Effects:
    return {ffi_effect} if has_side_effect else no_effects


def _no_derivative(*_: Any, target_name: str, **__: Any) -> Any:
    raise ValueError(
        f"The FFI call to `{target_name}` cannot be differentiated. "
        "You can use `jax.custom_jvp` or `jax.custom_vjp` to add support."
    )


def _with_batch_axis(layout: tuple[int, ...]) -> tuple[int, ...]:
    """A minor-to-major layout with a new leading (most major) dimension."""
    return (*(n + 1 for n in layout), 0)


def _batch(
    args: Sequence[Any],
    dims: Sequence[int | None],
    *,
    vmap_method: str | None,
    result_avals: tuple[ShapedArray, ...],
    input_layouts: Layouts,
    output_layouts: Layouts,
    **params: Any,
) -> tuple[list[Any], list[int]]:
    if any(is_token_aval(a) for a in result_avals) and vmap_method is not None:
        raise NotImplementedError(f"vmap of an ffi_call of `{params['target_name']}` with token results is not supported.")
    if vmap_method in ("expand_dims", "broadcast_all", "legacy_vectorized"):
        # One call on the batched buffers: their layouts gain the batch axis, as the most major.
        output_layouts = tuple(_with_batch_axis(layout) for layout in output_layouts)
        input_layouts = tuple(
            layout if d is None and vmap_method == "legacy_vectorized" else _with_batch_axis(layout)
            for layout, d in zip(input_layouts, dims)
        )
    return foreign_call_batch(
        ffi_call_p,
        args,
        dims,
        vmap_method=vmap_method,
        result_avals=result_avals,
        input_layouts=input_layouts,
        output_layouts=output_layouts,
        **params,
    )


def _lower(
    ctx: LoweringRuleContext,
    *operands: ir.Value[Any],
    target_name: str,
    has_side_effect: bool,
    input_layouts: Layouts,
    output_layouts: Layouts,
    input_output_aliases: tuple[tuple[int, int], ...],
    custom_call_api_version: int,
    legacy_backend_config: str | None,
    attributes: tuple[tuple[str, Any], ...],
    **_: Any,
) -> list[ir.Value[Any]]:
    rule = ffi_lowering(
        target_name,
        has_side_effect=has_side_effect,
        operand_layouts=input_layouts,
        result_layouts=output_layouts,
        operand_output_aliases=dict(input_output_aliases),
        api_version=custom_call_api_version,
        backend_config=legacy_backend_config,
    )
    out = rule(ctx, *operands, **unwrap_kwargs_hashable(attributes))
    assert not isinstance(out, ir.Value)
    return list(out)


ffi_call_p.def_rules(
    Rules(
        abstract_eval=_abstract_eval,
        lower=_lower,
        jvp=_no_derivative,
        transpose=_no_derivative,
        batch=_batch,
        effects=_effects,
    )
)
