"""``Exported``: a function lowered to StableHLO, with what a caller needs to call it.

The record and its small vocabulary (``DisabledSafetyCheck``, the calling-convention versions).
``export.py`` builds one, ``serialization.py`` writes and reads it in JAX's flatbuffer format, and
``call.py`` calls it (``Exported.call``).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from typing import Any, Final, Literal, overload

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.effects import Effect
from jax_core._src.lib import mlir as lib_mlir
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.ir_types import make_ir_context
from jax_core._src.sharding.mesh import AbstractMesh, Mesh
from jax_core._src.sharding.shardings import NamedSharding
from jax_core._src.tree.tree_util import PyTreeDef

minimum_supported_calling_convention_version: Final[int] = 9
"""The oldest calling convention (``Exported.calling_convention_version``) jax_core can call."""
maximum_supported_calling_convention_version: Final[int] = 10
"""The newest calling convention jax_core can call and export (the default for ``export``)."""


class DisabledSafetyCheck:
    """A safety check that ``export`` should skip (its ``disabled_checks`` argument).

    ``DisabledSafetyCheck.platform()`` lets the exported function run on a platform it was not
    lowered for; ``DisabledSafetyCheck.custom_call(target)`` lets the module call the custom call
    ``target``, which has no compatibility guarantee.
    """

    __slots__ = ("_impl",)
    _impl: str

    @classmethod
    def platform(cls) -> DisabledSafetyCheck:
        """Allows calling the exported function on a platform it was not exported for."""
        return DisabledSafetyCheck("platform")

    @classmethod
    def custom_call(cls, target_name: str) -> DisabledSafetyCheck:
        """Allows the module to call the custom call ``target_name``."""
        return DisabledSafetyCheck(f"custom_call:{target_name}")

    def is_custom_call(self) -> str | None:
        """The custom-call target this check is for, or ``None``."""
        return self._impl[len("custom_call:") :] if self._impl.startswith("custom_call:") else None

    def __init__(self, _impl: str) -> None:
        # Use the class methods to construct: their strings are the ones the flatbuffer stores.
        self._impl = _impl

    def __str__(self) -> str:
        return self._impl

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DisabledSafetyCheck) and self._impl == other._impl

    def __hash__(self) -> int:
        return hash(self._impl)


@dataclasses.dataclass(frozen=True)
class Exported:
    """A JAX function lowered to StableHLO, with the metadata a caller needs (JAX's fields).

    - ``fun_name``: the function's name, for messages.
    - ``in_tree``/``out_tree``: the pytree of ``(args, kwargs)`` and of the results.
    - ``in_avals``/``out_avals``: the flat abstract values of the arguments and results.
    - ``in_shardings_hlo``/``out_shardings_hlo``: kept for compatibility, always ``None`` per
      argument (JAX 0.12 stores shardings as ``NamedSharding``s, see ``in_shardings_jax``).
    - ``nr_devices``: how many devices the module was lowered for.
    - ``platforms``: the platforms it was lowered for (``"cpu"``, ``"cuda"``, ``"rocm"``, ``"tpu"``).
    - ``ordered_effects``/``unordered_effects``: the effects of the module (one token parameter
      and result per ordered effect in ``main``).
    - ``disabled_safety_checks``: the checks ``export`` was told to skip.
    - ``mlir_module_serialized``: the module as a portable StableHLO artifact (VHLO bytecode).
    - ``calling_convention_version``: the convention of ``main`` (see ``docs/export.md``).
    - ``module_kept_var_idx``: the sorted indices of ``in_avals`` that ``main`` takes (unused
      arguments are dropped).
    - ``uses_global_constants``: whether ``main`` takes a platform index (or dimension variables).

    Fields starting with ``_`` are internal and change without notice, as in JAX. Equal
    ``Exported``s (e.g. deserialized twice from one blob) share compiled calls.
    """

    fun_name: str
    in_tree: PyTreeDef
    in_avals: tuple[ShapedArray, ...]
    out_tree: PyTreeDef
    out_avals: tuple[ShapedArray, ...]
    _in_named_shardings: tuple[NamedSharding | None, ...]
    _out_named_shardings: tuple[NamedSharding | None, ...]
    in_shardings_hlo: tuple[None, ...]
    out_shardings_hlo: tuple[None, ...]
    nr_devices: int
    platforms: tuple[str, ...]
    ordered_effects: tuple[Effect, ...]
    unordered_effects: tuple[Effect, ...]
    disabled_safety_checks: Sequence[DisabledSafetyCheck]
    mlir_module_serialized: bytes
    calling_convention_version: int
    module_kept_var_idx: tuple[int, ...]
    uses_global_constants: bool
    _get_vjp: Callable[[Exported], Exported] | None

    def __hash__(self) -> int:
        return self._hash

    @functools.cached_property
    def _hash(self) -> int:
        # Computed once: an ``Exported`` keys the compiled executables of its calls.
        return hash(
            (
                self.fun_name, self.in_tree, self.in_avals, self.out_tree, self.out_avals,
                self._in_named_shardings, self._out_named_shardings, self.nr_devices, self.platforms,
                self.ordered_effects, self.unordered_effects, tuple(self.disabled_safety_checks),
                self.mlir_module_serialized, self.calling_convention_version, self.module_kept_var_idx,
            )
        )  # fmt: skip

    @overload
    def mlir_module(self, serialized: Literal[True] = True) -> str: ...
    @overload
    def mlir_module(self, serialized: Literal[False]) -> ir.Module: ...
    @overload
    def mlir_module(self, serialized: bool) -> str | ir.Module: ...
    def mlir_module(self, serialized: bool = True) -> str | ir.Module:
        """The module as MLIR text (the StableHLO of ``mlir_module_serialized``, with its
        locations); ``serialized=False``: the parsed ``ir.Module``."""
        module = parse_module(self, make_ir_context())
        if not serialized:
            return module
        with module.context:
            return str(module.operation.get_asm(enable_debug_info=True))

    def __str__(self) -> str:
        # As JAX: short, since it can end up in source locations.
        return f"Exported(fun_name={self.fun_name}, ...)"

    def in_shardings_jax(self, mesh: Mesh | AbstractMesh | None = None) -> tuple[NamedSharding | None, ...]:
        """The argument shardings, on ``mesh`` (a concrete mesh of the same shape for calling;
        ``None``: on the mesh of the export), for ``jit`` or ``device_put``."""
        from jax_core._src.export.shardings import on_mesh

        return tuple(on_mesh(s, mesh) for s in self._in_named_shardings)

    def out_shardings_jax(self, mesh: Mesh | AbstractMesh | None = None) -> tuple[NamedSharding | None, ...]:
        """The result shardings, on ``mesh`` (see ``in_shardings_jax``)."""
        from jax_core._src.export.shardings import on_mesh

        return tuple(on_mesh(s, mesh) for s in self._out_named_shardings)

    def has_vjp(self) -> bool:
        """Whether a VJP is available (exported now, or serialized with ``vjp_order`` > 0)."""
        return self._get_vjp is not None

    def vjp(self) -> Exported:
        """The exported VJP: it takes the flat primal arguments then one cotangent per flat
        result, and returns the cotangents of the flat arguments. ``ValueError`` if none."""
        if self._get_vjp is None:
            raise ValueError("No VJP is available")
        return self._get_vjp(self)

    def serialize(self, vjp_order: int = 0) -> bytearray:
        """The exported function in JAX's flatbuffer format, with ``vjp_order`` orders of VJP
        (2 allows ``grad(grad(f))`` of the deserialized function)."""
        from jax_core._src.export.serialization import serialize

        return serialize(self, vjp_order=vjp_order)

    def call(self, *args: Any, **kwargs: Any) -> Any:
        """Calls the exported function with arguments of the pytree structure, shapes and dtypes
        it was exported for, eagerly or inside ``jit``; differentiable with ``grad`` up to the
        serialized ``vjp_order``. Returns the results with ``out_tree``'s structure."""
        return self._caller(*args, **kwargs)

    @functools.cached_property
    def _caller(self) -> Callable[..., Any]:
        # Built once per ``Exported`` (its ``custom_vjp`` and checks), not on every call.
        from jax_core._src.export.call import call_exported  # call.py imports this module

        return call_exported(self)


def parse_module(exported: Exported, context: ir.Context) -> ir.Module:
    """``exported``'s module parsed into ``context`` (an MLIR context jax_core made)."""
    with context:
        module: ir.Module = lib_mlir.deserialize_portable_artifact(exported.mlir_module_serialized)
        return module
