"""Registering pytree node types, and the node types JAX registers in Python.

``register_pytree_node`` and its variants (with keys, class decorators),
``register_dataclass`` (with ``static`` to mark meta fields) and
``register_static`` add a type to the process-wide ``default_registry``.
Importing this module also registers the standard-library containers JAX treats
as nodes in Python (``OrderedDict``, ``defaultdict``) and ``Partial``, a
``functools.partial`` whose bound arguments are pytree children.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import operator
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from jax_core._src.tree.flatten import DictKey, KeyLeafPair, default_registry

__all__ = [
    "Partial",
    "register_dataclass",
    "register_pytree_node",
    "register_pytree_node_class",
    "register_pytree_with_keys",
    "register_pytree_with_keys_class",
    "register_static",
    "static",
]

T = TypeVar("T")
_R = TypeVar("_R")
_H = TypeVar("_H", bound=Hashable)
_Typ = TypeVar("_Typ", bound=type[Any])
_Children = TypeVar("_Children", bound=Iterable[Any])
_AuxData = TypeVar("_AuxData", bound=Hashable)


def register_pytree_node(
    nodetype: type[T],
    flatten_func: Callable[[T], tuple[_Children, _AuxData]],
    unflatten_func: Callable[[_AuxData, _Children], T],
    flatten_with_keys_func: Callable[[T], tuple[Iterable[KeyLeafPair], _AuxData]] | None = None,
) -> None:
    """Registers ``nodetype`` as a pytree node type.

    Args:
      nodetype: the type to register (subclasses are not included).
      flatten_func: maps a node to ``(children, aux_data)``; the children are
        flattened recursively and the hashable ``aux_data`` is stored in the
        ``PyTreeDef``.
      unflatten_func: maps ``(aux_data, children)`` back to a node.
      flatten_with_keys_func: optional; like ``flatten_func`` but gives
        ``(key, child)`` pairs, used by the ``*_with_path`` functions (without
        it, children get ``FlattenedIndexKey`` keys).

    Raises:
      ValueError: if ``nodetype`` is already registered.
    """
    default_registry.register_node(
        nodetype,
        flatten_func,
        cast(Callable[[Any, Any], T], unflatten_func),
        flatten_with_keys_func,
    )


def register_pytree_with_keys(
    nodetype: type[T],
    flatten_with_keys: Callable[[T], tuple[Iterable[KeyLeafPair], _AuxData]],
    unflatten_func: Callable[[_AuxData, Iterable[Any]], T],
    flatten_func: Callable[[T], tuple[Iterable[Any], _AuxData]] | None = None,
) -> None:
    """Registers ``nodetype`` as a pytree node type whose children have keys.

    Args:
      nodetype: the type to register.
      flatten_with_keys: maps a node to ``(iterable of (key, child), aux_data)``.
      unflatten_func: maps ``(aux_data, children)`` back to a node.
      flatten_func: optional faster flattening without keys; must give the same
        children in the same order and the same aux data.
    """
    if flatten_func is None:

        def flatten_func_impl(tree: T) -> tuple[list[Any], _AuxData]:
            key_children, aux = flatten_with_keys(tree)
            return [c for _, c in key_children], aux

        flatten_func = flatten_func_impl
    register_pytree_node(nodetype, flatten_func, unflatten_func, flatten_with_keys)


def register_pytree_node_class(cls: _Typ) -> _Typ:
    """Class decorator registering ``cls`` as a pytree node type.

    ``cls`` must define a ``tree_flatten(self)`` method returning
    ``(children, aux_data)`` and a ``tree_unflatten(cls, aux_data, children)``
    classmethod. Returns ``cls`` unchanged.

    Example:
      >>> @register_pytree_node_class
      ... class Pair:
      ...     def __init__(self, a, b):
      ...         self.a, self.b = a, b
      ...     def tree_flatten(self):
      ...         return (self.a, self.b), None
      ...     @classmethod
      ...     def tree_unflatten(cls, aux_data, children):
      ...         return cls(*children)
      >>> tree_leaves(Pair(1, [2]))
      [1, 2]
    """
    unflatten = cast(Callable[[Any, Any], Any], cls.tree_unflatten)
    register_pytree_node(cls, operator.methodcaller("tree_flatten"), unflatten)
    return cls


def register_pytree_with_keys_class(cls: _Typ) -> _Typ:
    """Class decorator registering ``cls`` as a pytree node type with keys.

    ``cls`` must define ``tree_flatten_with_keys(self)`` returning
    ``(iterable of (key, child), aux_data)`` and a ``tree_unflatten(cls,
    aux_data, children)`` classmethod; a ``tree_flatten`` method, if present,
    is used for flattening without keys. Returns ``cls`` unchanged.
    """
    flatten_func: Callable[[Any], tuple[Iterable[Any], Any]] | None = (
        operator.methodcaller("tree_flatten") if hasattr(cls, "tree_flatten") else None
    )
    unflatten = cast(Callable[[Any, Iterable[Any]], Any], cls.tree_unflatten)
    register_pytree_with_keys(
        cls, operator.methodcaller("tree_flatten_with_keys"), unflatten, flatten_func
    )
    return cls


def register_dataclass(
    nodetype: _Typ,
    data_fields: Sequence[str] | None = None,
    meta_fields: Sequence[str] | None = None,
    drop_fields: Sequence[str] = (),
) -> _Typ:
    """Registers a dataclass-like type as a pytree node, by field names.

    ``data_fields`` are the children (traced by transformations);
    ``meta_fields`` are static aux data (hashable, part of the ``PyTreeDef``).
    For a dataclass both may be omitted: fields declared with
    ``dataclasses.field(metadata=dict(static=True))`` (or :func:`static`) are
    meta fields, the others data fields, except those in ``drop_fields``.
    Returns ``nodetype``, so it works as a class decorator.

    Raises:
      TypeError: if only one of ``data_fields``/``meta_fields`` is given, or
        neither is given for a non-dataclass.
      ValueError: if, for a dataclass, the fields do not cover exactly its
        ``init=True`` fields, or if data and meta fields overlap.

    Example:
      >>> @register_dataclass
      ... @dataclasses.dataclass
      ... class Op:
      ...     x: int
      ...     name: str = static(default="add")
      >>> tree_flatten(Op(1))
      ([1], PyTreeDef(CustomNode(Op[('add',)], [*])))
    """
    cls: type[Any] = nodetype
    is_dataclass = dataclasses.is_dataclass(cls)
    if data_fields is None or meta_fields is None:
        if (data_fields is None) != (meta_fields is None):
            raise TypeError(
                "register_dataclass: data_fields and meta_fields must both be specified"
                f" when either is specified. Got {data_fields=} {meta_fields=}."
            )
        if not is_dataclass:
            raise TypeError(
                "register_dataclass: data_fields and meta_fields are required when"
                f" nodetype is not a dataclass. Got {nodetype=}."
            )
        fields = dataclasses.fields(cls)
        data_fields = [
            f.name
            for f in fields
            if not f.metadata.get("static", False) and f.name not in drop_fields
        ]
        meta_fields = [
            f.name for f in fields if f.metadata.get("static", False) and f.name not in drop_fields
        ]

    # Immutable copies: later mutation of the caller's lists must not matter.
    meta = tuple(meta_fields)
    data = tuple(data_fields)

    if is_dataclass:
        init_fields = {f.name for f in dataclasses.fields(cls) if f.init}
        init_fields.difference_update(drop_fields)
        if {*meta, *data} != init_fields:
            msg = (
                "data_fields and meta_fields must include all dataclass fields with"
                " ``init=True`` and only them."
            )
            if missing := init_fields - {*meta, *data}:
                msg += (
                    f" Missing fields: {missing}. Add them to drop_fields to suppress this error."
                )
            if unexpected := {*meta, *data} - init_fields:
                msg += f" Unexpected fields: {unexpected}."
            raise ValueError(msg)

    if overlap := set(data) & set(meta):
        raise ValueError(
            f"data_fields and meta_fields must not overlap. Overlapping fields: {overlap}."
        )

    default_registry.register_dataclass_node(nodetype, list(data), list(meta))
    return nodetype


def register_static(cls: type[_H]) -> type[_H]:
    """Registers ``cls`` as a pytree node with no children: instances are static.

    An instance becomes the aux data of its ``PyTreeDef`` (so it must be
    hashable) and contributes no leaves. Returns ``cls``, so it works as a
    class decorator.

    Example:
      >>> @register_static
      ... class Tag(str):
      ...     pass
      >>> tree_leaves([1, Tag("t")])
      [1]
    """

    def flatten(obj: _H) -> tuple[tuple[()], _H]:
        return (), obj

    def unflatten(obj: _H, children: Iterable[Any]) -> _H:
        del children
        return obj

    register_pytree_with_keys(cls, flatten, unflatten)
    return cls


def _register_builtin_extras() -> None:
    """Registers the standard-library containers JAX treats as nodes in Python."""

    def od_flatten_with_keys(
        x: collections.OrderedDict[Any, Any],
    ) -> tuple[tuple[KeyLeafPair, ...], tuple[Any, ...]]:
        return tuple((DictKey(k), x[k]) for k in x), tuple(x)

    def od_unflatten(
        keys: tuple[Any, ...], values: Iterable[Any]
    ) -> collections.OrderedDict[Any, Any]:
        return collections.OrderedDict(zip(keys, values, strict=True))

    def dd_flatten_with_keys(
        d: collections.defaultdict[Any, Any],
    ) -> tuple[tuple[KeyLeafPair, ...], tuple[Callable[[], Any] | None, tuple[Any, ...]]]:
        keys = tuple(sorted(d))
        return tuple((DictKey(k), d[k]) for k in keys), (d.default_factory, keys)

    def dd_unflatten(
        s: tuple[Callable[[], Any] | None, tuple[Any, ...]], values: Iterable[Any]
    ) -> collections.defaultdict[Any, Any]:
        return collections.defaultdict(s[0], zip(s[1], values, strict=True))

    if not default_registry.is_node(collections.OrderedDict):
        register_pytree_with_keys(collections.OrderedDict, od_flatten_with_keys, od_unflatten)
    if not default_registry.is_node(collections.defaultdict):
        register_pytree_with_keys(collections.defaultdict, dd_flatten_with_keys, dd_unflatten)


_register_builtin_extras()


if TYPE_CHECKING:
    # Type checkers special-case ``dataclasses.field`` (PEP 681); ``static``
    # must be that very function for them to accept it as a field specifier.
    from dataclasses import field as static
else:

    def static(**kwargs):
        """A ``dataclasses.field`` with ``metadata={"static": True}`` (``jax.tree.static``).

        Marks a dataclass field as a meta (static) field for
        :func:`register_dataclass`; takes the arguments of ``dataclasses.field``.
        """
        metadata = {"static": True, **(kwargs.pop("metadata", {}) or {})}
        return dataclasses.field(metadata=metadata, **kwargs)


# ---------------------------------------------------------------------------
# Partial
# ---------------------------------------------------------------------------


class _HashableCallableShim:
    """Delegates ``__call__``, ``__hash__`` and ``__eq__`` to a wrapped callable."""

    func: Callable[..., Any]
    args: tuple[Any, ...]
    keywords: dict[str, Any]

    def __init__(self, fun: Callable[..., Any]) -> None:
        self.fun = fun

    def __call__(self, *args: Any, **kw: Any) -> Any:
        return self.fun(*args, **kw)

    def __hash__(self) -> int:
        return hash(self.fun)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _HashableCallableShim):
            return bool(self.fun == other.fun)
        return bool(self.fun == other)

    def __repr__(self) -> str:
        return f"_HashableCallableShim({self.fun!r})"


class Partial(functools.partial[_R]):
    """``functools.partial`` as a pytree: the bound arguments are its children.

    The wrapped function is static aux data (it must be hashable); the
    positional and keyword arguments are pytree children, so a ``Partial``
    can be passed through transformations, its arguments being traced.

    Example:
      >>> add_one = Partial(operator.add, 1)
      >>> add_one(2)
      3
      >>> tree_flatten(add_one)[0]
      [1]
    """

    def __new__(cls, func: Callable[..., _R], /, *args: Any, **kw: Any) -> Self:
        # ``functools.partial.__new__`` merges a partial ``func``'s arguments
        # into the new object; box it so exactly ``args``/``kw`` are children.
        if isinstance(func, functools.partial):
            original = cast("functools.partial[_R]", func)
            shim = _HashableCallableShim(original)
            out = super().__new__(cls, shim, *args, **kw)
            shim.func = original.func
            shim.args = original.args
            shim.keywords = original.keywords
            return out
        return super().__new__(cls, func, *args, **kw)


def _partial_flatten(
    p: Partial[Any],
) -> tuple[tuple[tuple[Any, ...], dict[str, Any]], Callable[..., Any]]:
    return (p.args, p.keywords), p.func


def _partial_unflatten(
    func: Callable[..., Any], xs: tuple[tuple[Any, ...], dict[str, Any]]
) -> Partial[Any]:
    return Partial(func, *xs[0], **xs[1])


register_pytree_node(Partial, _partial_flatten, _partial_unflatten)
