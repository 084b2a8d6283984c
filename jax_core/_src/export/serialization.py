"""``Exported`` to and from JAX 0.12's flatbuffer (``Exported.serialize``, ``jax.export.deserialize``).

Artifacts are interchangeable with real JAX 0.12 both ways. jax_core writes serialization version
12: the unique avals, abstract meshes and named shardings with per-argument indices, and also the
older per-argument ``in_avals``/``out_avals``/``in_shardings``/``out_shardings`` vectors (as JAX
0.12 does), ``nr_devices`` as 32 bits and ``jax_version`` (``JAX_VERSION_WRITTEN``). It reads
what JAX 0.12 reads: the index vectors when present, else the per-argument vectors.

Mapping decisions:

- Avals: jax_core's ``ShapedArray`` has no memory space: ``Device`` is written, and an aval in
  ``Host``/``Any`` memory is rejected on reading. The weak type is not stored (as in JAX).
  Symbolic (shape-polymorphic) dimensions are written as JAX prints them and read with
  ``symbolic_shape`` in one scope per artifact (JAX does not serialize constraints). Extended dtypes (PRNG keys)
  are written once registered with ``register_dtype_code`` (as JAX's ``register_dtype_kind``).
- Effects are stored by type name, JAX's ``str(type(effect))``. jax_core's effects with a JAX
  counterpart are written under JAX's name (``FfiEffect``) and read back from it as jax_core's
  singleton (``FfiEffect``; ``DebugEffect``/``OrderedDebugEffect``/``IOEffect``/
  ``OrderedIOEffect``, which JAX, like jax_core, reads but refuses to write). Other effects follow
  JAX's rule: a nullary constructor must give an equal effect.
- Shardings: JAX stores ``NamedSharding``s over abstract meshes; jax_core's ``NamedSharding``
  needs a concrete ``Mesh``, so a mesh read back is laid over this process's first devices of the
  recorded platform (``ValueError`` when there are too few).
- The VJP chain is read whole and eagerly (a corrupt VJP fails ``deserialize``, not ``vjp()``).
- ``mlir_module_serialized`` is checked to be MLIR bytecode (its magic number) but not parsed:
  a corrupt module body fails when the module is parsed, in ``Exported.call``/``mlir_module``.

``deserialize`` raises ``ValueError`` for anything it cannot read, never another exception.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from collections.abc import Sequence
from typing import Any, Final, cast

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.effects import Effect
from jax_core._src.core.shape_poly import SymbolicScope, symbolic_shape
from jax_core._src.export import flatbuffer_tables as fb
from jax_core._src.export.exported import (
    DisabledSafetyCheck,
    Exported,
    maximum_supported_calling_convention_version,
    minimum_supported_calling_convention_version,
)
from jax_core._src.export.pytree_serialization import serialization_named, serialization_of_type
from jax_core._src.sharding.mesh import AbstractDevice, AbstractMesh, AxisType, Mesh
from jax_core._src.sharding.partition_spec import PartitionSpec
from jax_core._src.sharding.shardings import NamedSharding
from jax_core._src.tree.tree_util import PyTreeDef, default_registry
from jax_core.version import __version__ as _jax_core_version

__all__ = [
    "DTYPE_KEY_FRY",
    "DTYPE_KEY_RBG",
    "DTYPE_KEY_UNSAFE_RBG",
    "JAX_VERSION_WRITTEN",
    "SERIALIZATION_VERSION",
    "deserialize",
    "register_dtype_code",
    "serialize",
]

SERIALIZATION_VERSION: Final[int] = 12
"""The flatbuffer schema version written (JAX 0.12.0.1's)."""

JAX_VERSION_WRITTEN: Final[str] = f"0.12.0.1+jaxcore.{_jax_core_version}"
"""The ``jax_version`` field written: the JAX release whose format this is, with jax_core's
version as a PEP 440 local label (readers that parse it as a version still can)."""

_MLIR_BYTECODE_MAGIC: Final[bytes] = b"ML\xefR"

# ---------------------------------------------------------------------------------------------
# Vocabularies: dtypes, axis types, effects
# ---------------------------------------------------------------------------------------------


@functools.cache
def _builtin_dtype_codes() -> dict[Any, int]:
    """NumPy dtype -> the schema's ``DType`` value (its order is the schema's)."""
    import ml_dtypes

    names = (
        "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
        "float16", "float32", "float64", "complex64", "complex128",
    )  # fmt: skip
    codes: dict[Any, int] = {np.dtype(n): i for i, n in enumerate(names)}
    ml = (
        "bfloat16", "int4", "uint4", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz",
        "float8_e5m2", "float8_e5m2fnuz",
    )  # fmt: skip
    codes.update({np.dtype(getattr(ml_dtypes, n)): 14 + i for i, n in enumerate(ml)})
    codes[dtypes.float0] = 22
    later = ("float8_e4m3", "float8_e3m4", "float8_e8m0fnu", "float4_e2m1fn")
    codes.update({np.dtype(getattr(ml_dtypes, n)): 23 + i for i, n in enumerate(later)})
    return codes


DTYPE_KEY_FRY: Final[int] = 27
"""The ``DType`` value of ``key<fry>`` (threefry2x32 keys); 28: ``rbg``, 29: ``unsafe_rbg``."""
DTYPE_KEY_RBG: Final[int] = 28
DTYPE_KEY_UNSAFE_RBG: Final[int] = 29

_registered_dtype_codes: dict[Any, int] = {}


def register_dtype_code(dtype: Any, code: int) -> None:
    """Serializes ``dtype`` (an extended dtype, e.g. a PRNG key dtype) as the schema's ``DType``
    value ``code`` (as JAX's ``register_dtype_kind``; the PRNG implementations register their
    key dtypes: ``DTYPE_KEY_FRY``, ...). Registering the same pair again does nothing."""
    known = _dtypes_by_code().get(code)
    if known is not None and known != dtype:
        raise ValueError(f"the dtype code {code} is already used by {known}")
    if _dtype_code(dtype) not in (None, code):
        raise ValueError(f"the dtype {dtype} already has the code {_dtype_code(dtype)}")
    _registered_dtype_codes[dtype] = code


def _dtype_code(dtype: Any) -> int | None:
    code = _builtin_dtype_codes().get(dtype)
    return _registered_dtype_codes.get(dtype) if code is None else code


def _dtypes_by_code() -> dict[int, Any]:
    codes = {**_builtin_dtype_codes(), **_registered_dtype_codes}
    return {code: dtype for dtype, code in codes.items()}


_AXIS_TYPES: Final[dict[AxisType, int]] = {
    AxisType.Auto: fb.AXIS_TYPE_AUTO,
    AxisType.Explicit: fb.AXIS_TYPE_EXPLICIT,
    AxisType.Manual: fb.AXIS_TYPE_MANUAL,
}
_AXIS_TYPES_BY_CODE: Final[dict[int, AxisType]] = {c: t for t, c in _AXIS_TYPES.items()}


@functools.cache
def _effects_with_jax_names() -> tuple[tuple[Effect, str, bool], ...]:
    """jax_core's effects with a JAX counterpart: (singleton, JAX's type name, JAX writes it)."""
    from jax_core._src.callbacks.debugging import debug_effect, ordered_debug_effect
    from jax_core._src.callbacks.io import io_effect, ordered_io_effect
    from jax_core._src.ffi.call import ffi_effect

    return (
        (ffi_effect, "<class 'jax._src.ffi.FfiEffect'>", True),
        (debug_effect, "<class 'jax._src.debugging.DebugEffect'>", False),
        (ordered_debug_effect, "<class 'jax._src.debugging.OrderedDebugEffect'>", False),
        (io_effect, "<class 'jax._src.callback.IOEffect'>", False),
        (ordered_io_effect, "<class 'jax._src.callback.OrderedIOEffect'>", False),
    )


def _effect_name(effect: Effect) -> str:
    for singleton, jax_name, jax_writes in _effects_with_jax_names():
        if jax_writes and type(effect) is type(singleton):
            return jax_name
    try:
        replica = type(effect)()
    except Exception:  # noqa: BLE001  (any failure means: no nullary constructor)
        raise NotImplementedError(
            f"Effect {effect} must have a nullary constructor to be serializable"
        ) from None
    try:
        same_hash = hash(effect) == hash(replica)
    except Exception:  # noqa: BLE001  (any failure means: not hashable)
        raise NotImplementedError(f"Effect {effect} must be hashable to be serializable") from None
    if effect != replica or not same_hash:
        raise NotImplementedError(
            f"Effect {effect} must have a nullary class constructor that produces an "
            "equal effect object."
        )
    return str(type(effect))


def _effect_named(name: str | None) -> Effect:
    for singleton, jax_name, _ in _effects_with_jax_names():
        if name in (jax_name, str(type(singleton))):
            return singleton
    pending: list[type[Effect]] = [Effect]
    while pending:  # every subclass of Effect, without recursion
        cls = pending.pop()
        if str(cls) == name:
            try:
                return cls()
            except Exception:  # noqa: BLE001  (as above)
                raise NotImplementedError(
                    f"deserializing effect {name} that does not have a nullary class constructor"
                ) from None
        pending.extend(cls.__subclasses__())
    raise NotImplementedError(f"cannot deserialize effect type {name}")


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------


def serialize(exp: Exported, vjp_order: int = 0) -> bytearray:
    """``exp`` in JAX 0.12's flatbuffer format, with ``vjp_order`` levels of VJP nested
    (``exp.vjp()``, its ``vjp()``, ...): 2 lets the deserialized function be differentiated
    twice in reverse mode.

    Raises:
      ValueError: if ``exp`` has fewer than ``vjp_order`` levels of VJP, or a pytree node
        type is not registered for serialization.
      NotImplementedError: for an effect or a dtype that cannot be serialized.
    """
    chain = [exp]
    for _ in range(vjp_order):
        if not chain[-1].has_vjp():
            raise ValueError(
                "serialization of an Exported that does not have vjps of high-enough order"
            )
        chain.append(chain[-1].vjp())
    return fb.write_exported_chain([_exported_record(e) for e in chain])


class _Uniques:
    """The unique avals, abstract meshes and named shardings of an Exported, by first use."""

    def __init__(self) -> None:
        self.avals: dict[fb.AbstractValueRecord, int] = {}
        self.meshes: dict[fb.AbstractMeshRecord, int] = {}
        self.shardings: dict[fb.NamedShardingRecord, int] = {}

    def aval(self, aval: ShapedArray) -> int:
        return _index(self.avals, _aval_record(aval))

    def sharding(self, sharding: NamedSharding | None) -> tuple[fb.ShardingRecord, int]:
        """The per-argument record and index (0: unspecified, ``1 + i``: unique sharding i)."""
        if sharding is None:
            return fb.ShardingRecord(None), 0
        mesh = _mesh_record(sharding.mesh.abstract_mesh)
        record = fb.NamedShardingRecord(
            mesh=mesh,
            spec=_spec_record(sharding.spec),
            memory_kind=sharding.memory_kind,
            abstract_mesh_idx=_index(self.meshes, mesh),
        )
        return fb.ShardingRecord(record), 1 + _index(self.shardings, record)


def _index[T](table: dict[T, int], item: T) -> int:
    return table.setdefault(item, len(table))


def _exported_record(exp: Exported) -> fb.ExportedRecord:
    uniques = _Uniques()
    in_avals_idxs = tuple(uniques.aval(a) for a in exp.in_avals)
    out_avals_idxs = tuple(uniques.aval(a) for a in exp.out_avals)
    in_shardings = [uniques.sharding(s) for s in exp._in_named_shardings]  # pyright: ignore[reportPrivateUsage]
    out_shardings = [uniques.sharding(s) for s in exp._out_named_shardings]  # pyright: ignore[reportPrivateUsage]
    kept = tuple(exp.module_kept_var_idx)
    if any(not 0 <= i < 1 << 16 for i in kept):
        raise ValueError(f"module_kept_var_idx must fit 16 bits, got {kept}")
    return fb.ExportedRecord(
        serialization_version=SERIALIZATION_VERSION,
        function_name=exp.fun_name,
        in_tree=_tree_records(exp.in_tree),
        in_avals=tuple(_aval_record(a) for a in exp.in_avals),
        out_tree=_tree_records(exp.out_tree),
        out_avals=tuple(_aval_record(a) for a in exp.out_avals),
        in_shardings=tuple(r for r, _ in in_shardings),
        out_shardings=tuple(r for r, _ in out_shardings),
        platforms=tuple(exp.platforms),
        ordered_effects=tuple(_effect_name(e) for e in exp.ordered_effects),
        unordered_effects=tuple(_effect_name(e) for e in exp.unordered_effects),
        disabled_checks=tuple(_check_record(c) for c in exp.disabled_safety_checks),
        mlir_module_serialized=bytes(exp.mlir_module_serialized),
        calling_convention_version=exp.calling_convention_version,
        module_kept_var_idx=kept,
        uses_global_constants=exp.uses_global_constants,
        nr_devices=exp.nr_devices,
        unique_avals=tuple(uniques.avals),
        unique_abstract_meshes=tuple(uniques.meshes),
        unique_named_shardings=tuple(uniques.shardings),
        in_avals_idxs=in_avals_idxs,
        out_avals_idxs=out_avals_idxs,
        in_shardings_idxs=tuple(i for _, i in in_shardings),
        out_shardings_idxs=tuple(i for _, i in out_shardings),
        jax_version=JAX_VERSION_WRITTEN,
    )


def _aval_record(aval: ShapedArray) -> fb.AbstractValueRecord:
    code = _dtype_code(aval.dtype)
    if code is None:
        raise NotImplementedError(f"Exported serialization does not support the dtype {aval.dtype}")
    return fb.AbstractValueRecord(shape=tuple(str(d) for d in aval.shape), dtype=code)


def _mesh_record(mesh: AbstractMesh) -> fb.AbstractMeshRecord:
    device = mesh.abstract_device
    return fb.AbstractMeshRecord(
        axis_sizes=tuple(mesh.axis_sizes),
        axis_names=tuple(_axis_name(n) for n in mesh.axis_names),
        axis_types=tuple(_AXIS_TYPES[t] for t in mesh.axis_types),
        abstract_device=None
        if device is None
        else fb.AbstractDeviceRecord(device.device_kind, device.num_cores, device.platform),
    )


def _axis_name(name: object) -> str:
    if not isinstance(name, str):
        raise TypeError(f"Exported serialization needs string mesh axis names, got {name!r}")
    return name


def _spec_record(spec: PartitionSpec) -> fb.PartitionSpecRecord:
    partitions: list[tuple[str, ...]] = []
    for entry in spec.partitions:
        if entry is None:
            partitions.append(())
        elif isinstance(entry, tuple):
            partitions.append(tuple(_axis_name(n) for n in cast(tuple[object, ...], entry)))
        elif entry is PartitionSpec.UNCONSTRAINED:
            raise NotImplementedError("serializing a PartitionSpec with UNCONSTRAINED entries")
        else:
            partitions.append((_axis_name(entry),))
    return fb.PartitionSpecRecord(
        partitions=tuple(partitions),
        reduced=tuple(sorted(_axis_name(n) for n in spec.reduced)),
        unreduced=tuple(sorted(_axis_name(n) for n in spec.unreduced)),
    )


def _check_record(check: DisabledSafetyCheck) -> fb.DisabledCheckRecord:
    target = check.is_custom_call()
    if target is not None:
        return fb.DisabledCheckRecord(fb.CHECK_CUSTOM_CALL, target)
    if check == DisabledSafetyCheck.platform():
        return fb.DisabledCheckRecord(fb.CHECK_PLATFORM)
    raise NotImplementedError(f"serializing DisabledSafetyCheck: {check}")


def _tree_records(tree: PyTreeDef) -> tuple[fb.PyTreeNode, ...]:
    nodes: list[fb.PyTreeNode] = []
    stack = [(tree, 1)]
    while stack:  # pre-order, without recursion
        node, depth = stack.pop()
        if depth > fb.MAX_PYTREE_DEPTH:
            raise ValueError(f"Cannot serialize a pytree nested deeper than {fb.MAX_PYTREE_DEPTH}")
        children = node.children()
        nodes.append(_tree_node_record(node.node_data(), len(children)))
        stack.extend((c, depth + 1) for c in reversed(children))
    return tuple(nodes)


def _tree_node_record(node_data: tuple[type[Any], Any] | None, n: int) -> fb.PyTreeNode:
    if node_data is None:
        return fb.PyTreeNode(fb.PYTREE_LEAF)
    node_type, aux = node_data
    simple = {type(None): fb.PYTREE_NONE, tuple: fb.PYTREE_TUPLE, list: fb.PYTREE_LIST}
    if node_type in simple:
        return fb.PyTreeNode(simple[node_type], n)
    if node_type is dict:
        for key in aux:
            if not isinstance(key, str):
                raise TypeError(
                    "Serialization is supported only for dictionaries with string keys."
                    f" Found key {key} of type {type(key)}."
                )
        return fb.PyTreeNode(fb.PYTREE_DICT, n, children_names=tuple(aux))
    registration = serialization_of_type(node_type)
    if registration is None:
        raise ValueError(
            "Cannot serialize PyTreeDef containing an "
            f"unregistered type `{node_type}`. "
            "Use `export.register_pytree_node_serialization` or "
            "`export.register_namedtuple_serialization`."
        )
    auxdata = cast(object, registration.serialize_auxdata(aux))  # a user function: check it
    if not isinstance(auxdata, (bytes, bytearray)):
        raise ValueError(  # noqa: TRY004  (JAX raises ValueError)
            "The custom serialization function for `node_type` must "
            f"return a `bytes` object. It returned a {type(auxdata)}."
        )
    return fb.PyTreeNode(
        fb.PYTREE_CUSTOM, n, custom_name=registration.serialized_name, custom_auxdata=bytes(auxdata)
    )


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------


class _Expired(ValueError):
    """JAX's error for an artifact older than the compatibility window (its message as JAX's)."""


def deserialize(blob: bytes | bytearray) -> Exported:
    """The ``Exported`` serialized in ``blob`` (by ``Exported.serialize`` or by JAX 0.12).

    Deserialize only trusted artifacts: calling the function runs whatever custom calls its
    module makes.

    Raises:
      ValueError: if ``blob`` is not a valid serialized ``Exported`` jax_core can read
        (corrupt, too old, or using features jax_core lacks); the cause is chained.
    """
    try:
        chain = fb.read_exported_chain(bytes(blob))
        exp: Exported | None = None
        for record in reversed(chain):  # the innermost VJP first
            exp = _exported(record, exp)
        assert exp is not None
        return exp
    except _Expired as err:
        raise ValueError(str(err)) from None
    except Exception as err:
        raise ValueError(f"The bytes are not a valid serialized Exported: {err}") from err


def _expired_message(record: fb.ExportedRecord) -> str:
    message = (
        "Exported being deserialized seems to be older than the 6-month "
        "backward-compatibility window and cannot be deserialized anymore."
        f"The Exported uses serialization version {record.serialization_version}."
    )
    if record.jax_version is not None:
        message += f" It was created with JAX version {record.jax_version}."
    return message + " See https://docs.jax.dev/en/latest/501/export.html#compatibility-guarantees."


def _required[T](value: T | None, what: str) -> T:
    if value is None:
        raise ValueError(f"the {what} field is missing")
    return value


def _exported(record: fb.ExportedRecord, vjp: Exported | None) -> Exported:
    version = record.calling_convention_version
    low, high = (
        minimum_supported_calling_convention_version,
        maximum_supported_calling_convention_version,
    )
    if not low <= version <= high:
        raise ValueError(
            f"its calling convention version {version} is outside the range of supported "
            f"versions [{low}..{high}]"
        )
    nr_devices = record.nr_devices
    if nr_devices == 0 and record.nr_devices_short > 0:
        raise _Expired(_expired_message(record))
    module = _required(record.mlir_module_serialized, "mlir_module_serialized")
    if not module.startswith(_MLIR_BYTECODE_MAGIC):
        raise ValueError("mlir_module_serialized is not a StableHLO portable artifact")

    scope = SymbolicScope(())  # as JAX: one scope for all the avals; constraints are not serialized
    unique_avals = [_aval(a, scope) for a in record.unique_avals]
    meshes = [_mesh(m) for m in record.unique_abstract_meshes]
    unique_shardings = [_named_sharding(s, meshes) for s in record.unique_named_shardings]

    def shardings(
        idxs: Sequence[int], olds: Sequence[fb.ShardingRecord]
    ) -> tuple[NamedSharding | None, ...]:
        if idxs:
            return tuple(
                None if i == 0 else _item(unique_shardings, i - 1, "sharding") for i in idxs
            )
        return tuple(_old_sharding(s, meshes, record) for s in olds)

    def avals(
        idxs: Sequence[int], olds: Sequence[fb.AbstractValueRecord]
    ) -> tuple[ShapedArray, ...]:
        if idxs:
            return tuple(_item(unique_avals, i, "aval") for i in idxs)
        return tuple(_aval(a, scope) for a in olds)

    in_shardings = shardings(record.in_shardings_idxs, record.in_shardings)
    out_shardings = shardings(record.out_shardings_idxs, record.out_shardings)
    in_avals = avals(record.in_avals_idxs, record.in_avals)
    out_avals = avals(record.out_avals_idxs, record.out_avals)
    for what, avs, shs in (("in", in_avals, in_shardings), ("out", out_avals, out_shardings)):
        if len(avs) != len(shs):
            raise ValueError(f"it has {len(avs)} {what}_avals but {len(shs)} {what}_shardings")
    in_tree = _tree(_required(record.in_tree, "in_tree"), len(in_avals), "in_tree")
    out_tree = _tree(_required(record.out_tree, "out_tree"), len(out_avals), "out_tree")
    kept = record.module_kept_var_idx
    if any(b <= a for a, b in itertools.pairwise(kept)) or any(i >= len(in_avals) for i in kept):
        raise ValueError(f"module_kept_var_idx {kept} is not a sorted subset of the arguments")

    return Exported(
        fun_name=_required(record.function_name, "function_name"),
        in_tree=in_tree,
        in_avals=in_avals,
        out_tree=out_tree,
        out_avals=out_avals,
        _in_named_shardings=in_shardings,
        _out_named_shardings=out_shardings,
        in_shardings_hlo=(None,) * len(in_avals),
        out_shardings_hlo=(None,) * len(out_avals),
        nr_devices=nr_devices,
        platforms=record.platforms,
        ordered_effects=tuple(_effect_named(e) for e in record.ordered_effects),
        unordered_effects=tuple(_effect_named(e) for e in record.unordered_effects),
        disabled_safety_checks=tuple(_check(c) for c in record.disabled_checks),
        mlir_module_serialized=module,
        calling_convention_version=version,
        module_kept_var_idx=kept,
        uses_global_constants=record.uses_global_constants,
        _get_vjp=None if vjp is None else _ReadVjp(vjp),
    )


@dataclasses.dataclass(frozen=True)
class _ReadVjp:
    """The ``_get_vjp`` of a deserialized Exported: the VJP read with it (a value, so that two
    Exporteds deserialized from one blob compare equal)."""

    vjp: Exported

    def __call__(self, primal: Exported) -> Exported:
        del primal
        return self.vjp


def _item[T](items: Sequence[T], index: int, what: str) -> T:
    if not 0 <= index < len(items):
        raise ValueError(f"{what} index {index} is out of range (there are {len(items)})")
    return items[index]


_DIM: Final = re.compile(r"\s*([0-9]+)\s*")


def _aval(record: fb.AbstractValueRecord, scope: SymbolicScope) -> ShapedArray:
    if record.kind != fb.ABSTRACT_VALUE_SHAPED_ARRAY:
        raise ValueError(f"abstract value kind {record.kind} is not supported")
    dtype = _dtypes_by_code().get(record.dtype)
    if dtype is None:
        raise ValueError(f"unknown dtype code {record.dtype}")
    if record.memory_space not in (fb.MEMORY_SPACE_MISSING, fb.MEMORY_SPACE_DEVICE):
        raise ValueError(f"memory space {record.memory_space} (host or any) is not supported")
    if all(_DIM.fullmatch(dim) for dim in record.shape):
        return ShapedArray(tuple(int(dim) for dim in record.shape), dtype)
    # Symbolic dimensions, as JAX writes them (``b``, ``2*h``): parsed in the artifact's scope.
    shape = symbolic_shape(",".join(record.shape), scope=scope)
    return ShapedArray(cast("tuple[int, ...]", shape), dtype)


def _platform_of_kind(device_kind: str) -> str:
    kind = device_kind.lower()
    if "cpu" in kind:
        return "cpu"
    if "tpu" in kind:
        return "tpu"
    if any(x in kind for x in ("nvidia", "tesla", "amd")):
        return "gpu"
    raise ValueError(f"Got unexpected {device_kind=}")


def _mesh(record: fb.AbstractMeshRecord) -> Mesh:
    device: AbstractDevice | None = None
    if record.abstract_device is not None:
        kind = _required(record.abstract_device.device_kind, "device_kind")
        platform = record.abstract_device.platform or _platform_of_kind(kind)
        device = AbstractDevice(kind, record.abstract_device.num_cores, platform)
    types = tuple(_item_of(_AXIS_TYPES_BY_CODE, t, "axis type") for t in record.axis_types)
    abstract = AbstractMesh(record.axis_sizes, record.axis_names, types, abstract_device=device)
    return _concrete_mesh(abstract)


def _item_of[T](table: dict[int, T], code: int, what: str) -> T:
    if code not in table:
        raise ValueError(f"unknown {what} code {code}")
    return table[code]


def _concrete_mesh(mesh: AbstractMesh) -> Mesh:
    """``mesh`` laid over this process's first devices of its platform (jax_core's
    ``NamedSharding`` needs devices)."""
    from jax_core._src.backend.client import devices

    if not mesh.axis_names:
        raise ValueError("a sharding's mesh has no axes")
    platform = None if mesh.abstract_device is None else mesh.abstract_device.platform
    found = [d for d in devices() if platform is None or d.platform == platform]
    if len(found) < mesh.size:
        raise ValueError(
            f"its shardings are over a mesh of {mesh.size} {platform or ''} devices "
            f"({dict(mesh.shape)}), but this process has {len(found)}: jax_core's NamedSharding "
            "needs a concrete Mesh"
        )
    grid = np.empty(len(found[: mesh.size]), dtype=object)
    grid[:] = found[: mesh.size]
    return Mesh(grid.reshape(mesh.axis_sizes), mesh.axis_names, mesh.axis_types)


def _spec(record: fb.PartitionSpecRecord) -> PartitionSpec:
    entries = [None if not p else p[0] if len(p) == 1 else p for p in record.partitions]
    return PartitionSpec(
        *entries, reduced=frozenset(record.reduced), unreduced=frozenset(record.unreduced)
    )


def _named_sharding(record: fb.NamedShardingRecord, meshes: Sequence[Mesh]) -> NamedSharding:
    if meshes:
        mesh = _item(meshes, record.abstract_mesh_idx, "abstract mesh")
    else:
        mesh = _mesh(_required(record.mesh, "NamedSharding.mesh"))
    spec = _spec(_required(record.spec, "NamedSharding.spec"))
    return NamedSharding(mesh, spec, memory_kind=record.memory_kind)


def _old_sharding(
    record: fb.ShardingRecord, meshes: Sequence[Mesh], exported: fb.ExportedRecord
) -> NamedSharding | None:
    if record.named_sharding is not None:
        return _named_sharding(record.named_sharding, meshes)
    if record.has_hlo_sharding:
        raise _Expired(_expired_message(exported))
    return None


def _check(record: fb.DisabledCheckRecord) -> DisabledSafetyCheck:
    if record.kind == fb.CHECK_CUSTOM_CALL:
        return DisabledSafetyCheck.custom_call(_required(record.custom_call_target, "target"))
    if record.kind == fb.CHECK_PLATFORM:
        return DisabledSafetyCheck.platform()
    raise ValueError(f"Cannot deserialize DisabledSafetyCheck with unknown kind: {record.kind}")


def _tree(nodes: Sequence[fb.PyTreeNode], num_leaves: int, what: str) -> PyTreeDef:
    built: list[PyTreeDef] = []  # finished subtrees, the next sibling on top
    for node in reversed(nodes):  # children before their parent, without recursion
        if node.num_children > len(built):
            raise ValueError(f"{what} is not a tree")
        built.append(_tree_node(node, [built.pop() for _ in range(node.num_children)]))
    if len(built) != 1:
        raise ValueError(f"{what} is not a tree")
    if built[0].num_leaves != num_leaves:
        raise ValueError(
            f"{what} has {built[0].num_leaves} leaves but there are {num_leaves} avals"
        )
    return built[0]


_LEAF: Final[PyTreeDef] = PyTreeDef.from_node_data_and_children(default_registry, None, [])


def _tree_node(node: fb.PyTreeNode, children: list[PyTreeDef]) -> PyTreeDef:
    def make(node_data: tuple[type[Any], Any] | None, kids: Sequence[PyTreeDef]) -> PyTreeDef:
        return PyTreeDef.from_node_data_and_children(default_registry, node_data, kids)

    kind = node.kind
    if kind in (fb.PYTREE_LEAF, fb.PYTREE_NONE) and children:
        raise ValueError("a pytree leaf or None has children")
    if kind == fb.PYTREE_LEAF:
        return _LEAF
    if kind == fb.PYTREE_NONE:
        return make((type(None), None), [])
    if kind in (fb.PYTREE_TUPLE, fb.PYTREE_LIST):
        return make((tuple if kind == fb.PYTREE_TUPLE else list, None), children)
    if kind == fb.PYTREE_DICT:
        keys = node.children_names or ()
        if len(keys) != len(children) or len(set(keys)) != len(keys):
            raise ValueError(f"a dict node has keys {keys} for {len(children)} children")
        order = sorted(range(len(keys)), key=lambda i: keys[i])  # as flattening a dict sorts
        return make((dict, [keys[i] for i in order]), [children[i] for i in order])
    if kind == fb.PYTREE_CUSTOM:
        return _custom_node(
            _required(node.custom_name, "custom_name"), node.custom_auxdata or b"", children
        )
    raise ValueError(f"Cannot deserialize PyTreeDef with unknown kind: {kind}")


def _custom_node(name: str, auxdata: bytes, children: list[PyTreeDef]) -> PyTreeDef:
    """The node registered as ``name``: built from placeholder children by its
    ``from_children`` (or unflatten function) and flattened again, so that its node data is
    what flattening such a node gives."""
    registration = serialization_named(name)
    if registration is None:
        raise ValueError(
            "Cannot deserialize a PyTreeDef containing an "
            f"unregistered type `{name}`. "
            "Use `export.register_pytree_node_serialization` or "
            "`export.register_namedtuple_serialization`."
        )
    aux = registration.deserialize_auxdata(auxdata)
    holes = [object() for _ in children]
    if registration.from_children is None:
        one_level = PyTreeDef.from_node_data_and_children(
            default_registry, (registration.nodetype, aux), [_LEAF] * len(children)
        )
        node = one_level.unflatten(holes)
    else:
        node = registration.from_children(aux, holes)
    leaves, structure = default_registry.flatten(node)
    position = {id(h): i for i, h in enumerate(holes)}
    node_data = structure.node_data()
    kids = structure.children()
    if (
        node_data is None
        or len(kids) != len(holes)
        or any(k.node_data() is not None for k in kids)
        or sorted(position.get(id(x), -1) for x in leaves) != list(range(len(holes)))
    ):
        raise ValueError(f"the node built for `{name}` does not have its children as children")
    return PyTreeDef.from_node_data_and_children(
        default_registry, node_data, [children[position[id(x)]] for x in leaves]
    )
