"""Lowering rules that call an FFI target: ``ffi_lowering`` and ``build_ffi_lowering_function``.

A primitive whose lowering is ``ffi_lowering("my_target")`` lowers each application to one
``stablehlo.custom_call @my_target`` with its operands and results in the row-major layouts of
their avals (unless given), and its parameters as the call's attributes (``mhlo.backend_config``),
which the handler reads by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import LowerRule
from jax_core._src.core.tokens import is_token_aval
from jax_core._src.ffi.attributes import ir_attribute
from jax_core._src.layout.formats import Layout
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.custom_call import custom_call
from jax_core._src.lowering.ir_types import value_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext

FfiLayoutOptions: TypeAlias = Sequence[int] | Layout | None
"""A buffer's layout: ``None`` (row-major), a ``Layout``, or a dimension order (major to minor
for ``ffi_call``; minor to major, as XLA spells it, for the lowering functions)."""


def aval_shape(aval: ShapedArray) -> tuple[int, ...]:
    """The shape of a buffer of ``aval`` (a token has none)."""
    return () if is_token_aval(aval) else aval.shape


def layout_for_lowering(aval: ShapedArray, layout: FfiLayoutOptions = None) -> tuple[int, ...]:
    """``layout`` as the minor-to-major dimension order a custom call takes: ``None`` is
    row-major, a ``Layout`` its ``major_to_minor`` reversed, a sequence is already that order."""
    if layout is None:
        return tuple(reversed(range(len(aval_shape(aval)))))
    if isinstance(layout, Layout):
        if layout.tiling is not None:
            raise ValueError("The FFI does not support layouts with tiling")
        return layout.major_to_minor[::-1]
    return tuple(layout)


def build_ffi_lowering_function(
    call_target_name: str,
    *,
    operand_layouts: Sequence[FfiLayoutOptions] | None = None,
    result_layouts: Sequence[FfiLayoutOptions] | None = None,
    backend_config: Mapping[str, ir.Attribute] | str | None = None,
    skip_ffi_layout_processing: bool = False,
    **lowering_args: Any,
) -> Callable[..., ir.OpView]:
    """A function ``(ctx, *operands, **params) -> op`` emitting the custom call of the FFI target
    ``call_target_name`` (the op, so a rule can use it further).

    The result types come from ``ctx.avals_out``. Layouts given as sequences are minor to major
    (XLA's order); by default every operand and result is row-major. The keyword ``params`` of the
    call become attributes, added to the ``backend_config`` dictionary (API version 4, the
    default; an older ``api_version`` takes a string ``backend_config`` and no ``params``).
    ``skip_ffi_layout_processing`` leaves the layouts out (or as given in ``lowering_args``).
    Other ``lowering_args`` (``has_side_effect``, ``operand_output_aliases``, ``api_version``,
    ...) are passed to ``custom_call``.
    """

    def lowering_op(ctx: LoweringRuleContext, *operands: ir.Value[Any], **params: Any) -> ir.OpView:
        kwargs = dict(lowering_args)
        api_version: int = kwargs.setdefault("api_version", 4)
        if api_version >= 4:
            if backend_config is not None and not isinstance(backend_config, Mapping):
                raise ValueError("When api_version > 4, backend_config must be a dictionary.")
            kwargs["backend_config"] = dict(backend_config or {}, **{k: ir_attribute(v) for k, v in params.items()})
        else:
            if params:
                raise ValueError(
                    "The use of ffi_call attributes requires a custom call API version "
                    f"of at least 4; got api_version={api_version}."
                )
            kwargs["backend_config"] = backend_config
        if "result_types" not in kwargs:
            kwargs["result_types"] = [value_ir_type(a) for a in ctx.avals_out]
        if not skip_ffi_layout_processing:
            if operand_layouts is None:
                kwargs["operand_layouts"] = [layout_for_lowering(a) for a in ctx.avals_in]
            else:
                kwargs["operand_layouts"] = [layout_for_lowering(a, l) for a, l in zip(ctx.avals_in, operand_layouts)]
            if result_layouts is None:
                kwargs["result_layouts"] = [layout_for_lowering(a) for a in ctx.avals_out]
            else:
                kwargs["result_layouts"] = [layout_for_lowering(a, l) for a, l in zip(ctx.avals_out, result_layouts)]
        return custom_call(call_target_name, operands=operands, **kwargs)

    return lowering_op


def ffi_lowering(
    call_target_name: str,
    *,
    operand_layouts: Sequence[FfiLayoutOptions] | None = None,
    result_layouts: Sequence[FfiLayoutOptions] | None = None,
    backend_config: Mapping[str, ir.Attribute] | str | None = None,
    skip_ffi_layout_processing: bool = False,
    **lowering_args: Any,
) -> LowerRule:
    """A lowering rule (``Rules(lower=...)``, or ``mlir.register_lowering``) calling the FFI
    target ``call_target_name``: the rule of ``build_ffi_lowering_function`` with the same
    arguments, returning the call's results. The primitive's parameters become the call's
    attributes; layouts given as sequences are minor to major (XLA's order).
    """
    build = build_ffi_lowering_function(
        call_target_name,
        operand_layouts=operand_layouts,
        result_layouts=result_layouts,
        backend_config=backend_config,
        skip_ffi_layout_processing=skip_ffi_layout_processing,
        **lowering_args,
    )

    def lowering(ctx: LoweringRuleContext, *operands: ir.Value[Any], **params: Any) -> list[ir.Value[Any]]:
        op: Any = build(ctx, *operands, **params)  # the op's results are untyped in jaxlib's stubs
        return list(op.results)

    return lowering
