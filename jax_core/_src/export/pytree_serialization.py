"""Which custom pytree nodes ``Exported`` serialization can write and read, and how.

Tuples, lists, dicts with string keys and ``None`` need nothing; any other node type in an
exported function's ``in_tree``/``out_tree`` (namedtuples, registered classes) must be registered
here under a name that is stored in the flatbuffer (``jax.export.register_pytree_node_serialization``
and ``register_namedtuple_serialization``, as in JAX 0.12). ``collections.OrderedDict`` with string
keys is registered on import, under JAX's name.
"""

from __future__ import annotations

import collections
import json
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, cast

from jax_core._src.tree.tree_util import default_registry

__all__ = ["register_namedtuple_serialization", "register_pytree_node_serialization"]

type SerializeAuxData = Callable[[Any], bytes]
"""Serializes a node's auxiliary data (what its ``flatten_func`` returned beside the children)."""
type DeserializeAuxData = Callable[[bytes], Any]
"""The inverse of ``SerializeAuxData``."""
type BuildFromChildren = Callable[[Any, Sequence[Any]], Any]
"""Builds a node from its deserialized auxiliary data and its children."""


class NodeSerialization(NamedTuple):
    """How one node type is serialized: its stored name and its auxiliary-data codecs."""

    nodetype: type[Any]
    serialized_name: str
    serialize_auxdata: SerializeAuxData
    deserialize_auxdata: DeserializeAuxData
    from_children: BuildFromChildren | None  # None: the type's pytree unflatten function


_by_type: dict[type[Any], NodeSerialization] = {}
_by_name: dict[str, NodeSerialization] = {}


def serialization_of_type(nodetype: type[Any]) -> NodeSerialization | None:
    """The registration of ``nodetype``, if any."""
    return _by_type.get(nodetype)


def serialization_named(serialized_name: str) -> NodeSerialization | None:
    """The registration stored under ``serialized_name``, if any."""
    return _by_name.get(serialized_name)


def is_namedtuple_class(nodetype: object) -> bool:
    """Whether ``nodetype`` is a ``collections.namedtuple`` (or ``typing.NamedTuple``) class."""
    fields: object = getattr(nodetype, "_fields", None)
    return (
        isinstance(nodetype, type)
        and issubclass(nodetype, tuple)
        and isinstance(fields, Sequence)
        and all(isinstance(f, str) for f in fields)  # pyright: ignore[reportUnknownVariableType]
    )


def register_pytree_node_serialization[T](
    nodetype: type[T],
    *,
    serialized_name: str,
    serialize_auxdata: SerializeAuxData,
    deserialize_auxdata: DeserializeAuxData,
    from_children: BuildFromChildren | None = None,
) -> type[T]:
    """Registers a custom pytree node type for ``Exported`` serialization.

    Needed for every node type other than tuple, list, dict and ``None`` that appears in the
    ``in_tree`` or ``out_tree`` of an exported function; register the type as a pytree node
    first (``jax_core.tree_util.register_pytree_node``), except for namedtuples (see
    ``register_namedtuple_serialization``).

    Args:
      nodetype: the node type; it may be registered only once.
      serialized_name: the name stored in the serialization, looked up on deserialization;
        it may be registered only once.
      serialize_auxdata: maps the node's auxiliary data to ``bytes``.
      deserialize_auxdata: maps those bytes back to the auxiliary data.
      from_children: builds a node from the auxiliary data and the children (default: the
        type's registered unflatten function); only used to recover the node's structure.

    Returns:
      ``nodetype``, so that this can decorate a class.

    Raises:
      ValueError: for a duplicate type or name, or, without ``from_children``, a type that is
        not a registered pytree node.
    """
    if nodetype in _by_type:
        raise ValueError(
            f"Duplicate serialization registration for type `{nodetype}`. "
            f"Previous registration was with serialized_name `{_by_type[nodetype].serialized_name}`."
        )
    if serialized_name in _by_name:
        raise ValueError(
            f"Duplicate serialization registration for serialized_name `{serialized_name}`. "
            f"Previous registration was for type `{_by_name[serialized_name].nodetype}`."
        )
    if from_children is None and (
        not default_registry.is_node(nodetype) or is_namedtuple_class(nodetype)
    ):
        raise ValueError(
            "If `from_children` is not present, you must call first"
            f"`jax.tree_util.register_pytree_node` for `{nodetype}`"
        )
    entry = NodeSerialization(
        nodetype, serialized_name, serialize_auxdata, deserialize_auxdata, from_children
    )
    _by_type[nodetype] = entry
    _by_name[serialized_name] = entry
    return nodetype


def register_namedtuple_serialization[T](nodetype: type[T], *, serialized_name: str) -> type[T]:
    """Registers a namedtuple class for ``Exported`` serialization.

    Namedtuples are pytree nodes without registration, but serializing a function whose
    arguments or results contain one needs this. The field names are stored; on
    deserialization the registered class must have the same fields.

    Args:
      nodetype: the namedtuple class; it may be registered only once.
      serialized_name: the name stored in the serialization; it may be registered only once.

    Returns:
      ``nodetype``, so that this can decorate a class.

    Raises:
      ValueError: if ``nodetype`` is not a namedtuple class, or for a duplicate registration.
    """
    if not is_namedtuple_class(nodetype):
        raise ValueError(
            "Use `jax.export.register_pytree_node_serialization` for "
            "types other than `collections.namedtuple`."
        )
    fields: tuple[str, ...] = tuple(cast(Sequence[str], getattr(nodetype, "_fields")))  # noqa: B009

    def serialize_auxdata(aux_data: Any) -> bytes:
        del aux_data  # None for a namedtuple: the field names are what is stored
        return json.dumps(fields).encode("utf-8")

    def deserialize_auxdata(serialized: bytes) -> Any:
        return json.loads(serialized.decode("utf-8"))

    def from_children(aux_data: Any, children: Sequence[Any]) -> Any:
        names = list(aux_data)
        if len(names) != len(children):
            raise ValueError(
                f"The serialized {serialized_name} has {len(names)} fields but "
                f"{len(children)} children"
            )
        return nodetype(**dict(zip(names, children, strict=True)))

    return register_pytree_node_serialization(
        nodetype,
        serialized_name=serialized_name,
        serialize_auxdata=serialize_auxdata,
        deserialize_auxdata=deserialize_auxdata,
        from_children=from_children,
    )


def _serialize_ordereddict_keys(keys: Any) -> bytes:
    if isinstance(keys, Sequence) and all(isinstance(k, str) for k in keys):  # pyright: ignore[reportUnknownVariableType]
        return json.dumps(list(keys)).encode("utf-8")  # pyright: ignore[reportUnknownArgumentType]
    raise NotImplementedError(
        "Serialization of collections.OrderedDict is supported only when the "
        f"keys are strings. Found keys: {keys}."
    )


def _deserialize_json(serialized: bytes) -> Any:
    return json.loads(serialized.decode("utf-8"))


register_pytree_node_serialization(
    collections.OrderedDict,
    serialized_name="collections.OrderedDict",
    serialize_auxdata=_serialize_ordereddict_keys,
    deserialize_auxdata=_deserialize_json,
)
