"""What the windowed reductions share: JAX's window shape rule and checks and the (variadic)
``stablehlo.reduce_window`` builder (SAME/VALID pads and dilated shapes come from
``convolution_shapes.py``, as in JAX)."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.lax.conv.shapes import dilate_shape
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.ir_types import aval_to_ir_type

Pads = tuple[tuple[int, int], ...]
"""``(low, high)`` padding per dimension."""
Body = Callable[[Sequence[ir.Value[Any]]], Sequence[ir.Value[Any]]]
"""Builds a reduction body's results from its block arguments (accumulators, then inputs)."""


def ints(name: str, values: Sequence[int]) -> tuple[int, ...]:
    """``values`` as a tuple of ints (JAX's type check of a window parameter)."""
    if not isinstance(values, (tuple, list, np.ndarray)):
        raise TypeError(f"reduce_window {name} must be of type tuple/list/ndarray, got {type(values)}.")
    return tuple(operator.index(v) for v in values)


# -- shapes ----------------------------------------------------------------------------------


def _check_window_param(name: str, values: tuple[int, ...], positive: bool) -> None:
    lower, what = (1, "strictly positive") if positive else (0, "nonnegative")
    if not all(v >= lower for v in values):
        raise TypeError(f"reduce_window {name} must have every element be {what}, got {values}.")


def window_shape(
    operand: ShapedArray,
    window_dimensions: tuple[int, ...],
    window_strides: tuple[int, ...],
    padding: Pads,
    base_dilation: tuple[int, ...],
    window_dilation: tuple[int, ...],
) -> tuple[int, ...]:
    """The result shape of a windowed reduction, with JAX's checks and messages."""
    _check_window_param("window_dimensions", window_dimensions, True)
    _check_window_param("window_strides", window_strides, True)
    _check_window_param("base_dilation", base_dilation, False)
    _check_window_param("window_dilation", window_dilation, False)
    if operand.ndim != len(window_dimensions):
        raise TypeError(
            "reduce_window got the wrong number of window_dimensions for operand: got operand "
            f"shape {operand.shape} with window_dimensions {window_dimensions}."
        )
    for name, values in (
        ("window_strides", window_strides),
        ("base_dilation", base_dilation),
        ("window_dilation", window_dilation),
    ):
        if len(values) != len(window_dimensions):
            raise TypeError(
                f"reduce_window got inconsistent {name} and window_dimensions: got {name} "
                f"{values} and window_dimensions {window_dimensions}."
            )
    if len(padding) != operand.ndim:
        raise ValueError(
            f"safe_zip() argument 1 has length {len(padding)} but argument 0 has length "
            f"{operand.ndim}. All lengths: ({operand.ndim}, {len(padding)})"
        )
    shape = dilate_shape(operand.shape, base_dilation)
    window = dilate_shape(window_dimensions, window_dilation)
    padded = [d + lo + hi for d, (lo, hi) in zip(shape, padding)]
    return tuple(max((p - w) // s + 1, 0) for p, w, s in zip(padded, window, window_strides))


# -- lowering --------------------------------------------------------------------------------


def pads_attr(padding: Pads) -> ir.DenseIntElementsAttr:
    """The ``(n, 2)`` padding attribute of a window op."""
    return ir.DenseIntElementsAttr.get(np.asarray(padding, np.int64).reshape(len(padding), 2))


def lower_reduce_window(
    operands: Sequence[ir.Value[Any]],
    inits: Sequence[ir.Value[Any]],
    out_avals: Sequence[ShapedArray],
    body: Body,
    window_dimensions: tuple[int, ...],
    window_strides: tuple[int, ...],
    padding: Pads,
    base_dilation: tuple[int, ...],
    window_dilation: tuple[int, ...],
) -> list[ir.Value[Any]]:
    """A (variadic) ``stablehlo.reduce_window`` whose body ``body`` builds."""
    op = hlo.ReduceWindowOp(
        [aval_to_ir_type(a) for a in out_avals],
        list(operands),
        list(inits),
        list(window_dimensions),
        window_strides=list(window_strides),
        base_dilations=list(base_dilation),
        window_dilations=list(window_dilation),
        padding=pads_attr(padding),
    )
    scalars = [aval_to_ir_type(ShapedArray((), a.dtype)) for a in out_avals]
    block = op.regions[0].blocks.append(*scalars, *scalars)
    with ir.InsertionPoint(block):
        hlo.return_(list(body(list(block.arguments))))
    return list(op.results)


def reduce_window_shape_tuple(
    operand_shape: Sequence[int],
    window_dimensions: Sequence[int],
    window_strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    base_dilation: Sequence[int] | None = None,
    window_dilation: Sequence[int] | None = None,
) -> tuple[int, ...]:
    """The output shape of a ``reduce_window`` over ``operand_shape`` (JAX's helper)."""
    if base_dilation is not None:
        operand_shape = dilate_shape(operand_shape, base_dilation)
    if window_dilation is not None:
        window_dimensions = dilate_shape(window_dimensions, window_dilation)
    padded = tuple(d + lo + hi for d, (lo, hi) in zip(operand_shape, padding))
    return tuple(
        max((d - w) // s + 1, 0) for d, w, s in zip(padded, window_dimensions, window_strides)
    )


def params_with_front_window(params: dict[str, Any], at: int = 0) -> dict[str, Any]:
    """Window params with a size-1, unit-stride, unpadded window dimension inserted at ``at``."""
    out: dict[str, Any] = {}
    for k, v in params.items():
        if k in ("window_dimensions", "window_strides", "padding", "base_dilation", "window_dilation"):
            unit = (0, 0) if k == "padding" else 1
            out[k] = (*v[:at], unit, *v[at:])
        else:
            out[k] = v
    return out
