"""The tables of JAX's ``Exported`` flatbuffer schema, read and written as plain records.

JAX serializes an ``Exported`` with the flatbuffer schema of ``jax/_src/export/serialization.fbs``
(the field order there is the slot order here). This module knows the wire format and nothing of
jax_core's objects: ``serialization.py`` maps the records to ``Exported`` and back.

Writing goes through ``flatbuffers.Builder`` (the package ships no type hints: it is reached only
through the ``_Builder`` protocol below). Reading is done here, over the bytes, because the
blob may be corrupt or hostile: every offset, length and field is checked against the buffer and
the table's size, and a budget proportional to the buffer's size bounds the work (shared
subtables cannot make the reader walk more than the buffer holds). Any defect raises
``FlatbufferError``, a ``ValueError``.
"""

from __future__ import annotations

import dataclasses
import struct
from collections.abc import Callable, Sequence
from typing import Final, NamedTuple, Protocol, TypeVar, cast

import flatbuffers  # type: ignore[import-untyped]  # pyright: ignore[reportMissingTypeStubs]

_T = TypeVar("_T")

MAX_PYTREE_DEPTH: Final[int] = 1000
"""The deepest pytree read or written (JAX's recursive code stops near 500)."""

# The enums of the schema (the values are the wire format).
PYTREE_LEAF, PYTREE_NONE, PYTREE_TUPLE, PYTREE_LIST, PYTREE_DICT, PYTREE_CUSTOM = range(6)
ABSTRACT_VALUE_SHAPED_ARRAY: Final[int] = 0
MEMORY_SPACE_MISSING, MEMORY_SPACE_DEVICE, MEMORY_SPACE_HOST, MEMORY_SPACE_ANY = range(4)
AXIS_TYPE_MISSING, AXIS_TYPE_AUTO, AXIS_TYPE_EXPLICIT, AXIS_TYPE_MANUAL = range(4)
CHECK_PLATFORM, CHECK_CUSTOM_CALL, CHECK_SHAPE_ASSERTIONS = range(3)


class FlatbufferError(ValueError):
    """The bytes are not a well-formed flatbuffer of the ``Exported`` schema."""


# ---------------------------------------------------------------------------------------------
# Records: one per table of the schema
# ---------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class PyTreeNode:
    """One node of a ``PyTreeDef`` table; a tree is a tuple of them in pre-order, each followed
    by its ``num_children`` subtrees."""

    kind: int
    num_children: int = 0
    children_names: tuple[str, ...] | None = None
    custom_name: str | None = None
    custom_auxdata: bytes | None = None


@dataclasses.dataclass(frozen=True)
class AbstractValueRecord:
    """An ``AbstractValue`` table: shape dimensions as text, dtype and memory space enums."""

    shape: tuple[str, ...]
    dtype: int
    memory_space: int = MEMORY_SPACE_DEVICE
    kind: int = ABSTRACT_VALUE_SHAPED_ARRAY


@dataclasses.dataclass(frozen=True)
class AbstractDeviceRecord:
    """An ``AbstractDevice`` table."""

    device_kind: str | None
    num_cores: int | None
    platform: str | None


@dataclasses.dataclass(frozen=True)
class AbstractMeshRecord:
    """An ``AbstractMesh`` table (``axis_types`` are ``AXIS_TYPE_*`` values)."""

    axis_sizes: tuple[int, ...]
    axis_names: tuple[str, ...]
    axis_types: tuple[int, ...]
    abstract_device: AbstractDeviceRecord | None


@dataclasses.dataclass(frozen=True)
class PartitionSpecRecord:
    """A ``PartitionSpec`` table: per dimension the mesh axes it is split over."""

    partitions: tuple[tuple[str, ...], ...]
    reduced: tuple[str, ...]
    unreduced: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class NamedShardingRecord:
    """A ``NamedSharding`` table: the full mesh and its index in the unique meshes."""

    mesh: AbstractMeshRecord | None
    spec: PartitionSpecRecord | None
    memory_kind: str | None
    abstract_mesh_idx: int


@dataclasses.dataclass(frozen=True)
class ShardingRecord:
    """A ``Sharding`` table (pre-version-10 per-argument shardings); only the presence of the
    ``hlo_sharding_proto`` of versions before 9 is kept (JAX 0.12 rejects those as expired)."""

    named_sharding: NamedShardingRecord | None
    has_hlo_sharding: bool = False


@dataclasses.dataclass(frozen=True)
class DisabledCheckRecord:
    """A ``DisabledSafetyCheck`` table (``kind`` is a ``CHECK_*`` value)."""

    kind: int
    custom_call_target: str | None = None


@dataclasses.dataclass(frozen=True)
class ExportedRecord:
    """An ``Exported`` table, without its ``vjp`` (a chain of records holds the levels)."""

    serialization_version: int = 0
    function_name: str | None = None
    in_tree: tuple[PyTreeNode, ...] | None = None
    in_avals: tuple[AbstractValueRecord, ...] = ()
    out_tree: tuple[PyTreeNode, ...] | None = None
    out_avals: tuple[AbstractValueRecord, ...] = ()
    nr_devices_short: int = 0
    in_shardings: tuple[ShardingRecord, ...] = ()
    out_shardings: tuple[ShardingRecord, ...] = ()
    platforms: tuple[str, ...] = ()
    ordered_effects: tuple[str | None, ...] = ()
    unordered_effects: tuple[str | None, ...] = ()
    disabled_checks: tuple[DisabledCheckRecord, ...] = ()
    mlir_module_serialized: bytes | None = None
    calling_convention_version: int = 0
    module_kept_var_idx: tuple[int, ...] = ()
    uses_global_constants: bool = False
    nr_devices: int = 0
    unique_avals: tuple[AbstractValueRecord, ...] = ()
    unique_abstract_meshes: tuple[AbstractMeshRecord, ...] = ()
    unique_named_shardings: tuple[NamedShardingRecord, ...] = ()
    in_avals_idxs: tuple[int, ...] = ()
    out_avals_idxs: tuple[int, ...] = ()
    in_shardings_idxs: tuple[int, ...] = ()
    out_shardings_idxs: tuple[int, ...] = ()
    jax_version: str | None = None


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------

_U8, _I8, _U16, _I16, _U32, _I32 = (struct.Struct(f) for f in ("<B", "<b", "<H", "<h", "<I", "<i"))


class _Buffer:
    """The bytes being read, with bounds-checked scalar reads and the work budget."""

    __slots__ = ("budget", "data", "size")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.size = len(data)
        # Each element a well-formed buffer holds takes at least one byte of it.
        self.budget = 4 * self.size + 1024

    def charge(self, units: int) -> None:
        self.budget -= units
        if self.budget < 0:
            raise FlatbufferError("the buffer refers to more data than it holds")

    def read(self, fmt: struct.Struct, pos: int) -> int:
        if pos < 0 or pos + fmt.size > self.size:
            raise FlatbufferError(f"an offset points outside the buffer ({pos} of {self.size})")
        value: int = fmt.unpack_from(self.data, pos)[0]
        return value

    def vector(self, pos: int, elem_size: int) -> tuple[int, int]:
        """The start and length of the vector at ``pos``, checked to fit the buffer."""
        length = self.read(_U32, pos)
        start = pos + 4
        if start + length * elem_size > self.size:
            raise FlatbufferError(f"a vector of {length} elements overruns the buffer")
        self.charge(length)
        return start, length

    def table(self, pos: int) -> TableView:
        return TableView(self, pos)


class TableView:
    """A table of the buffer: its fields by slot number, checked to lie inside it."""

    __slots__ = ("_buf", "_pos", "_size", "_vtable", "_vtable_size")

    def __init__(self, buf: _Buffer, pos: int) -> None:
        buf.charge(1)
        vtable = pos - buf.read(_I32, pos)
        vtable_size = buf.read(_U16, vtable)
        size = buf.read(_U16, vtable + 2)
        if vtable_size < 4 or vtable_size % 2 or vtable + vtable_size > buf.size:
            raise FlatbufferError("a table has a malformed vtable")
        if size < 4 or pos + size > buf.size:
            raise FlatbufferError("a table overruns the buffer")
        self._buf, self._pos, self._size = buf, pos, size
        self._vtable, self._vtable_size = vtable, vtable_size

    def _field(self, slot: int, width: int) -> int:
        """The position of the field in ``slot`` (``width`` bytes inline), or 0 if absent."""
        entry = 4 + 2 * slot
        if entry + 2 > self._vtable_size:
            return 0
        offset = self._buf.read(_U16, self._vtable + entry)
        if offset == 0:
            return 0
        if offset < 4 or offset + width > self._size:
            raise FlatbufferError(f"field {slot} of a table lies outside it")
        return self._pos + offset

    def scalar(self, slot: int, fmt: struct.Struct, default: int) -> int:
        """A scalar field."""
        at = self._field(slot, fmt.size)
        return default if at == 0 else self._buf.read(fmt, at)

    def optional_scalar(self, slot: int, fmt: struct.Struct) -> int | None:
        """A scalar field with no default (``None`` when absent)."""
        at = self._field(slot, fmt.size)
        return None if at == 0 else self._buf.read(fmt, at)

    def _target(self, slot: int) -> int:
        at = self._field(slot, 4)
        return 0 if at == 0 else at + self._buf.read(_U32, at)

    def has(self, slot: int) -> bool:
        """Whether the (offset) field in ``slot`` is present."""
        return self._field(slot, 4) != 0

    def table(self, slot: int) -> TableView | None:
        """A subtable field."""
        target = self._target(slot)
        return None if target == 0 else self._buf.table(target)

    def raw_bytes(self, slot: int) -> bytes | None:
        """A ``[byte]``/``[ubyte]`` vector field, or a string's bytes."""
        target = self._target(slot)
        if target == 0:
            return None
        start, length = self._buf.vector(target, 1)
        return self._buf.data[start : start + length]

    def string(self, slot: int) -> str | None:
        """A string field."""
        return _decode(self.raw_bytes(slot))

    def _elements(self, slot: int, elem_size: int) -> tuple[int, int]:
        target = self._target(slot)
        return (0, 0) if target == 0 else self._buf.vector(target, elem_size)

    def scalars(self, slot: int, fmt: struct.Struct) -> tuple[int, ...]:
        """A vector of scalars."""
        start, length = self._elements(slot, fmt.size)
        return tuple(
            x[0] for x in fmt.iter_unpack(self._buf.data[start : start + length * fmt.size])
        )

    def _indirect(self, slot: int) -> list[int]:
        start, length = self._elements(slot, 4)
        return [at + self._buf.read(_U32, at) for at in range(start, start + 4 * length, 4)]

    def tables(self, slot: int) -> list[TableView]:
        """A vector of tables."""
        return [self._buf.table(at) for at in self._indirect(slot)]

    def strings(self, slot: int) -> tuple[str, ...]:
        """A vector of strings."""
        out: list[str] = []
        for at in self._indirect(slot):
            start, length = self._buf.vector(at, 1)
            out.append(cast(str, _decode(self._buf.data[start : start + length])))
        return tuple(out)

    def table_list(self, slot: int, read: Callable[[TableView], _T]) -> tuple[_T, ...]:
        """A vector of tables, each read with ``read``."""
        return tuple(read(t) for t in self.tables(slot))


def _decode(raw: bytes | None) -> str | None:
    if raw is None:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise FlatbufferError(f"a string is not UTF-8: {err}") from None


def _read_pytree(root: TableView) -> tuple[PyTreeNode, ...]:
    nodes: list[PyTreeNode] = []
    stack = [(root, 1)]
    while stack:  # pre-order, without recursion
        table, depth = stack.pop()
        if depth > MAX_PYTREE_DEPTH:
            raise FlatbufferError(f"a pytree is nested deeper than {MAX_PYTREE_DEPTH} levels")
        children = table.tables(1)
        nodes.append(
            PyTreeNode(
                kind=table.scalar(0, _I8, 0),
                num_children=len(children),
                children_names=table.strings(2) if table.has(2) else None,
                custom_name=table.string(3),
                custom_auxdata=table.raw_bytes(4),
            )
        )
        stack.extend((child, depth + 1) for child in reversed(children))
    return tuple(nodes)


def _read_aval(t: TableView) -> AbstractValueRecord:
    return AbstractValueRecord(
        kind=t.scalar(0, _I8, 0),
        shape=t.strings(1),
        dtype=t.scalar(2, _I8, 0),
        memory_space=t.scalar(3, _I8, 0),
    )


def _read_device(t: TableView) -> AbstractDeviceRecord:
    return AbstractDeviceRecord(t.string(0), t.optional_scalar(1, _U32), t.string(2))


def _read_mesh(t: TableView) -> AbstractMeshRecord:
    device = t.table(3)
    return AbstractMeshRecord(
        axis_sizes=t.scalars(0, _U32),
        axis_names=t.strings(1),
        axis_types=t.scalars(2, _I8),
        abstract_device=None if device is None else _read_device(device),
    )


def _read_spec(t: TableView) -> PartitionSpecRecord:
    return PartitionSpecRecord(
        partitions=t.table_list(0, lambda axis: axis.strings(0)),
        reduced=t.strings(1),
        unreduced=t.strings(2),
    )


def _read_named_sharding(t: TableView) -> NamedShardingRecord:
    mesh, spec = t.table(0), t.table(1)
    return NamedShardingRecord(
        mesh=None if mesh is None else _read_mesh(mesh),
        spec=None if spec is None else _read_spec(spec),
        memory_kind=t.string(2),
        abstract_mesh_idx=t.scalar(3, _U32, 0),
    )


def _read_sharding(t: TableView) -> ShardingRecord:
    named = t.table(2)
    return ShardingRecord(
        named_sharding=None if named is None else _read_named_sharding(named),
        has_hlo_sharding=t.has(1),
    )


def _read_exported(t: TableView) -> ExportedRecord:
    in_tree, out_tree = t.table(2), t.table(4)
    return ExportedRecord(
        serialization_version=t.scalar(0, _U16, 0),
        function_name=t.string(1),
        in_tree=None if in_tree is None else _read_pytree(in_tree),
        in_avals=t.table_list(3, _read_aval),
        out_tree=None if out_tree is None else _read_pytree(out_tree),
        out_avals=t.table_list(5, _read_aval),
        nr_devices_short=t.scalar(6, _I16, 0),
        in_shardings=t.table_list(7, _read_sharding),
        out_shardings=t.table_list(8, _read_sharding),
        platforms=t.strings(9),
        ordered_effects=t.table_list(10, lambda e: e.string(0)),
        unordered_effects=t.table_list(11, lambda e: e.string(0)),
        disabled_checks=t.table_list(
            12, lambda c: DisabledCheckRecord(c.scalar(0, _I8, 0), c.string(1))
        ),
        mlir_module_serialized=t.raw_bytes(13),
        calling_convention_version=t.scalar(14, _U16, 0),
        module_kept_var_idx=t.scalars(15, _U16),
        uses_global_constants=t.scalar(16, _U8, 0) != 0,
        nr_devices=t.scalar(18, _U32, 0),
        unique_avals=t.table_list(19, _read_aval),
        unique_abstract_meshes=t.table_list(20, _read_mesh),
        unique_named_shardings=t.table_list(21, _read_named_sharding),
        in_avals_idxs=t.scalars(22, _U32),
        out_avals_idxs=t.scalars(23, _U32),
        in_shardings_idxs=t.scalars(24, _U32),
        out_shardings_idxs=t.scalars(25, _U32),
        jax_version=t.string(26),
    )


def read_exported_chain(data: bytes) -> list[ExportedRecord]:
    """The ``Exported`` table at the root of ``data`` followed by its nested ``vjp`` tables
    (level ``i`` is the ``i``-th order VJP). ``FlatbufferError`` if ``data`` is malformed."""
    buf = _Buffer(data)
    chain: list[ExportedRecord] = []
    table: TableView | None = buf.table(buf.read(_U32, 0))
    while table is not None:  # each vjp lies further into the buffer: the loop ends
        chain.append(_read_exported(table))
        table = table.table(17)
    return chain


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------


class _Builder(Protocol):
    """The part of ``flatbuffers.Builder`` used here."""

    def StartObject(self, numfields: int) -> None: ...
    def EndObject(self) -> int: ...
    def StartVector(self, elemSize: int, numElems: int, alignment: int) -> None: ...
    def EndVector(self) -> int: ...
    def CreateString(self, s: str) -> int: ...
    def CreateByteVector(self, x: bytes) -> int: ...
    def PrependUOffsetTRelative(self, off: int) -> None: ...
    def PrependUint32(self, x: int) -> None: ...
    def PrependUint16(self, x: int) -> None: ...
    def PrependInt8(self, x: int) -> None: ...
    def PrependUOffsetTRelativeSlot(self, o: int, x: int, d: int) -> None: ...
    def PrependInt8Slot(self, o: int, x: int, d: int) -> None: ...
    def PrependInt16Slot(self, o: int, x: int, d: int) -> None: ...
    def PrependUint16Slot(self, o: int, x: int, d: int) -> None: ...
    def PrependUint32Slot(self, o: int, x: int, d: int | None) -> None: ...
    def PrependBoolSlot(self, o: int, x: bool, d: bool) -> None: ...
    def Finish(self, rootTable: int) -> None: ...
    def Output(self) -> bytearray: ...


class _Field(NamedTuple):
    slot: int
    kind: str  # "ref" (an offset), "i8", "i16", "u16", "u32", "u32?" (no default) or "bool"
    value: int | None  # None: absent


class _Writer:
    """Writes records bottom-up into a ``flatbuffers.Builder``."""

    def __init__(self) -> None:
        self.b = cast(_Builder, flatbuffers.Builder(1024))

    def table(self, num_slots: int, fields: Sequence[_Field]) -> int:
        b = self.b
        b.StartObject(num_slots)
        for slot, kind, value in fields:
            if value is None:
                continue
            if kind == "ref":
                b.PrependUOffsetTRelativeSlot(slot, value, 0)
            elif kind == "i8":
                b.PrependInt8Slot(slot, value, 0)
            elif kind == "i16":
                b.PrependInt16Slot(slot, value, 0)
            elif kind == "u16":
                b.PrependUint16Slot(slot, value, 0)
            elif kind == "u32":
                b.PrependUint32Slot(slot, value, 0)
            elif kind == "u32?":
                b.PrependUint32Slot(slot, value, None)
            else:
                b.PrependBoolSlot(slot, bool(value), False)
        return b.EndObject()

    def refs(self, offsets: Sequence[int]) -> int:
        self.b.StartVector(4, len(offsets), 4)
        for off in reversed(offsets):
            self.b.PrependUOffsetTRelative(off)
        return self.b.EndVector()

    def strings(self, items: Sequence[str]) -> int:
        return self.refs([self.b.CreateString(s) for s in items])

    def string(self, s: str | None) -> int | None:
        return None if s is None else self.b.CreateString(s)

    def scalars(self, values: Sequence[int], width: int) -> int:
        prepend = {1: self.b.PrependInt8, 2: self.b.PrependUint16, 4: self.b.PrependUint32}[width]
        self.b.StartVector(width, len(values), width)
        for v in reversed(values):
            prepend(v)
        return self.b.EndVector()

    def pytree(self, nodes: Sequence[PyTreeNode]) -> int:
        done: list[int] = []  # offsets of finished subtrees, the next sibling on top
        for node in reversed(nodes):  # children before their parent, without recursion
            if node.num_children > len(done):
                raise ValueError("the pytree nodes do not form one tree")
            children = [done.pop() for _ in range(node.num_children)]
            fields = [
                _Field(0, "i8", node.kind),
                _Field(1, "ref", self.refs(children) if children else None),
                _Field(
                    2,
                    "ref",
                    None if node.children_names is None else self.strings(node.children_names),
                ),
                _Field(3, "ref", self.string(node.custom_name)),
                _Field(
                    4,
                    "ref",
                    None
                    if node.custom_auxdata is None
                    else self.b.CreateByteVector(node.custom_auxdata),
                ),
            ]
            done.append(self.table(5, fields))
        if len(done) != 1:
            raise ValueError("the pytree nodes do not form one tree")
        return done[0]

    def aval(self, a: AbstractValueRecord) -> int:
        shape = self.strings(a.shape)
        return self.table(
            4,
            [
                _Field(0, "i8", a.kind),
                _Field(1, "ref", shape),
                _Field(2, "i8", a.dtype),
                _Field(3, "i8", a.memory_space),
            ],
        )

    def device(self, d: AbstractDeviceRecord) -> int:
        kind, platform = self.string(d.device_kind), self.string(d.platform)
        return self.table(
            3, [_Field(0, "ref", kind), _Field(1, "u32?", d.num_cores), _Field(2, "ref", platform)]
        )

    def mesh(self, m: AbstractMeshRecord) -> int:
        sizes, names = self.scalars(m.axis_sizes, 4), self.strings(m.axis_names)
        types = self.scalars(m.axis_types, 1)
        device = None if m.abstract_device is None else self.device(m.abstract_device)
        return self.table(
            4,
            [
                _Field(0, "ref", sizes),
                _Field(1, "ref", names),
                _Field(2, "ref", types),
                _Field(3, "ref", device),
            ],
        )

    def spec(self, s: PartitionSpecRecord) -> int:
        axes = [self.table(1, [_Field(0, "ref", self.strings(p))]) for p in s.partitions]
        partitions, reduced, unreduced = (
            self.refs(axes),
            self.strings(s.reduced),
            self.strings(s.unreduced),
        )
        return self.table(
            3,
            [_Field(0, "ref", partitions), _Field(1, "ref", reduced), _Field(2, "ref", unreduced)],
        )

    def named_sharding(self, s: NamedShardingRecord) -> int:
        mesh = None if s.mesh is None else self.mesh(s.mesh)
        spec = None if s.spec is None else self.spec(s.spec)
        memory_kind = self.string(s.memory_kind)
        return self.table(
            4,
            [
                _Field(0, "ref", mesh),
                _Field(1, "ref", spec),
                _Field(2, "ref", memory_kind),
                _Field(3, "u32", s.abstract_mesh_idx),
            ],
        )

    def sharding(self, s: ShardingRecord) -> int:
        named = None if s.named_sharding is None else self.named_sharding(s.named_sharding)
        hlo = self.b.CreateByteVector(b"") if s.has_hlo_sharding else None  # only read back
        return self.table(3, [_Field(1, "ref", hlo), _Field(2, "ref", named)])

    def effect(self, type_name: str | None) -> int:
        return self.table(1, [_Field(0, "ref", self.string(type_name))])

    def check(self, c: DisabledCheckRecord) -> int:
        target = self.string(c.custom_call_target)
        return self.table(2, [_Field(0, "i8", c.kind), _Field(1, "ref", target)])

    def exported(self, e: ExportedRecord, vjp: int | None) -> int:
        def many(items: Sequence[_T], write: Callable[[_T], int]) -> int:
            return self.refs([write(x) for x in items])

        refs: dict[int, int | None] = {
            1: self.string(e.function_name),
            2: None if e.in_tree is None else self.pytree(e.in_tree),
            3: many(e.in_avals, self.aval),
            4: None if e.out_tree is None else self.pytree(e.out_tree),
            5: many(e.out_avals, self.aval),
            7: many(e.in_shardings, self.sharding),
            8: many(e.out_shardings, self.sharding),
            9: self.strings(e.platforms),
            10: many(e.ordered_effects, self.effect),
            11: many(e.unordered_effects, self.effect),
            12: many(e.disabled_checks, self.check),
            13: None
            if e.mlir_module_serialized is None
            else self.b.CreateByteVector(e.mlir_module_serialized),
            15: self.scalars(e.module_kept_var_idx, 2),
            17: vjp,
            19: many(e.unique_avals, self.aval),
            20: many(e.unique_abstract_meshes, self.mesh),
            21: many(e.unique_named_shardings, self.named_sharding),
            22: self.scalars(e.in_avals_idxs, 4),
            23: self.scalars(e.out_avals_idxs, 4),
            24: self.scalars(e.in_shardings_idxs, 4),
            25: self.scalars(e.out_shardings_idxs, 4),
            26: self.string(e.jax_version),
        }
        fields = [_Field(slot, "ref", off) for slot, off in refs.items()]
        fields += [
            _Field(0, "u16", e.serialization_version),
            _Field(6, "i16", e.nr_devices_short or None),
            _Field(14, "u16", e.calling_convention_version),
            _Field(16, "bool", int(e.uses_global_constants)),
            _Field(18, "u32", e.nr_devices),
        ]
        return self.table(27, fields)


def write_exported_chain(chain: Sequence[ExportedRecord]) -> bytearray:
    """The flatbuffer of ``chain[0]`` whose ``vjp`` is ``chain[1]``, and so on (the inverse of
    ``read_exported_chain``)."""
    if not chain:
        raise ValueError("write_exported_chain needs at least one Exported record")
    w = _Writer()
    vjp: int | None = None
    for record in reversed(chain):  # the innermost vjp first: a table's children precede it
        vjp = w.exported(record, vjp)
    assert vjp is not None
    w.b.Finish(vjp)
    return w.b.Output()
