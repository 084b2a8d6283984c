"""``stablehlo.custom_call``: the typed builder lowering rules call (JAX's ``mlir.custom_call``).

A custom call names a target registered with XLA (a LAPACK kernel, a user's FFI handler, the
Python callback target). Its attributes say how XLA calls it:

- ``backend_config``: a string handed to the target, or a dictionary of attributes. XLA's
  StableHLO verifier only accepts a string there, so a dictionary is stored as the unregistered
  ``mhlo.backend_config`` attribute and the API version set to 1, where XLA reads it (the typed
  FFI reads its attributes from it); this is what JAX emits.
- ``operand_layouts`` / ``result_layouts``: the minor-to-major dimension order of each buffer
  (XLA relayouts arguments and results to them).
- ``output_operand_aliases``: results that reuse an operand's buffer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from jax_core._src.lib.mlir import hlo, ir


def _index_tensor_attr(values: Sequence[int]) -> ir.Attribute:
    """A ``tensor<Nxindex>`` attribute (how layouts and tiles are spelled)."""
    return ir.DenseIntElementsAttr.get(np.atleast_1d(np.asarray(values, dtype=np.int64)), type=ir.IndexType.get())


def _backend_config_attr(backend_config: str | bytes | Mapping[str, ir.Attribute] | None) -> ir.Attribute:
    if backend_config is None or isinstance(backend_config, Mapping):
        return ir.StringAttr.get("")
    if isinstance(backend_config, (str, bytes)):  # pyright: ignore[reportUnnecessaryIsInstance]
        return ir.StringAttr.get(backend_config)
    raise ValueError("custom_call backend_config unexpected type: " + str(backend_config))


def custom_call(
    call_target_name: str,
    *,
    result_types: Sequence[ir.Type],
    operands: Sequence[ir.Value[Any]],
    backend_config: str | bytes | Mapping[str, ir.Attribute] | None = "",
    has_side_effect: bool = False,
    result_shapes: Sequence[ir.Value[Any]] | None = None,
    called_computations: Sequence[str] = (),
    api_version: int = 2,
    operand_output_aliases: Mapping[int, int] | None = None,
    operand_layouts: Sequence[Sequence[int]] | None = None,
    result_layouts: Sequence[Sequence[int]] | None = None,
    result_tilings: Sequence[Sequence[Sequence[int]] | None] | None = None,
    extra_attributes: Mapping[str, ir.Attribute] | None = None,
) -> ir.OpView:
    """Emits one ``stablehlo.custom_call`` of ``call_target_name`` and returns the op (its
    ``.results`` are the values), as JAX's ``mlir.custom_call``.

    ``result_types`` are the MLIR types of the results and ``operands`` the values passed.
    ``backend_config`` is an opaque string for the target, or a dictionary of attributes (then
    stored in ``mhlo.backend_config`` with API version 1, what XLA's typed FFI reads).
    ``has_side_effect`` keeps the call even when its results are unused. ``result_shapes``
    (dynamic shapes) are appended to the operands and listed in ``indices_of_shape_operands``.
    ``called_computations`` names functions of the module the target calls. ``api_version`` is
    the ABI of the target (1 or 2: the untyped API, 4: the typed FFI).
    ``operand_output_aliases`` maps operand indices to the result indices reusing their buffers.
    ``operand_layouts``/``result_layouts`` give each buffer's dimension order, minor to major;
    ``result_tilings`` each result's tiles. ``extra_attributes`` are set on the op as given.
    """
    ops = list(operands)
    if isinstance(backend_config, Mapping):
        api_version = 1
    attributes: dict[str, ir.Attribute] = {
        "call_target_name": ir.StringAttr.get(call_target_name),
        "has_side_effect": ir.BoolAttr.get(has_side_effect),
        "backend_config": _backend_config_attr(backend_config),
        "api_version": ir.IntegerAttr.get(ir.IntegerType.get_signless(32), api_version),
        "called_computations": ir.ArrayAttr.get([ir.FlatSymbolRefAttr.get(name) for name in called_computations]),
    }
    if operand_output_aliases is not None:
        attributes["output_operand_aliases"] = ir.ArrayAttr.get(
            [
                hlo.OutputOperandAlias.get(
                    # One result: the alias refers to it without a tuple index.
                    output_tuple_indices=[output] if len(result_types) > 1 else [],
                    operand_index=operand,
                    operand_tuple_indices=[],
                )
                for operand, output in operand_output_aliases.items()
            ]
        )
    if extra_attributes is not None:
        attributes.update(extra_attributes)
    if result_shapes is not None:
        first = len(ops)
        attributes["indices_of_shape_operands"] = ir.DenseIntElementsAttr.get(
            np.arange(first, first + len(result_shapes), dtype=np.int64)
        )
        if operand_layouts is not None:
            if len(operand_layouts) != len(ops):
                raise ValueError(f"custom_call got {len(operand_layouts)} operand layouts for {len(ops)} operands")
            operand_layouts = [*operand_layouts, *([(0,)] * len(result_shapes))]
        ops.extend(result_shapes)
    if operand_layouts is not None:
        if len(operand_layouts) != len(ops):
            raise ValueError(f"custom_call got {len(operand_layouts)} operand layouts for {len(ops)} operands")
        attributes["operand_layouts"] = ir.ArrayAttr.get([_index_tensor_attr(layout) for layout in operand_layouts])
    if result_layouts is not None:
        if len(result_layouts) != len(result_types):
            raise ValueError(f"custom_call got {len(result_layouts)} result layouts for {len(result_types)} results")
        attributes["result_layouts"] = ir.ArrayAttr.get([_index_tensor_attr(layout) for layout in result_layouts])
    if result_tilings is not None:
        if len(result_tilings) != len(result_types):
            raise ValueError(f"custom_call got {len(result_tilings)} result tilings for {len(result_types)} results")
        attributes["result_tilings"] = ir.ArrayAttr.get(
            [
                ir.ArrayAttr.get([] if tiling is None else [_index_tensor_attr(tile) for tile in tiling])
                for tiling in result_tilings
            ]
        )
    op: ir.OpView = hlo.CustomCallOp.build_generic(results=list(result_types), operands=ops, attributes=attributes)
    if isinstance(backend_config, Mapping):
        op.operation.attributes["mhlo.backend_config"] = ir.DictAttr.get(dict(backend_config))
    return op
