"""Type helpers shared by the hooks: callables and their positional parameters, the jit-boundary
view of parameter and result types, hashability, and formatting for messages."""

from __future__ import annotations

from collections.abc import Sequence

from mypy.checker import TypeChecker
from mypy.messages import format_type_bare
from mypy.nodes import ARG_OPT, ARG_POS, ARG_STAR, ArgKind, TypeAlias, TypeInfo
from mypy.plugin import CheckerPluginInterface
from mypy.subtypes import is_subtype
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    Parameters,
    TupleType,
    Type,
    TypeAliasType,
    TypeOfAny,
    UnionType,
    get_proper_type,
)

from jax_core.mypy_plugin import _names

POSITIONAL: tuple[ArgKind, ...] = (ARG_POS, ARG_OPT)
SCALARS = ("builtins.int", "builtins.float", "builtins.bool", "builtins.complex")


def checker(api: CheckerPluginInterface) -> TypeChecker | None:
    """mypy's checker behind the plugin interface (None in an unexpected host: then fall back)."""
    return api if isinstance(api, TypeChecker) else None


def as_callable(api: CheckerPluginInterface, t: Type) -> CallableType | None:
    """The signature of a function-like value: a plain (non-generic, non-overloaded) callable or
    an object with such a ``__call__``; None for anything else, where hooks fall back."""
    chk = checker(api)
    p = get_proper_type(t)
    bound_call = isinstance(p, Instance) and chk is not None and p.type.get("__call__") is not None
    if isinstance(p, Instance) and chk is not None and bound_call:
        p = get_proper_type(chk.extract_callable_type(p, ctx=p) or p)
    if not isinstance(p, CallableType) or p.variables or p.is_type_obj():
        return None
    # ``**kwargs: Unpack[TD]`` as the keyword parameters it stands for (a ``Parameters`` built
    # from the callable would drop the unpacking).
    c: CallableType = p.with_unpacked_kwargs()
    if bound_call:
        # An object's bound ``__call__``: drop its name and definition, whose ``self`` mypy
        # would print as a parameter of the result.
        c = c.copy_modified(name=None, definition=None)  # pyright: ignore[reportUnknownMemberType]  (mypy's Bogus[] parameters)
    return c


def positional(c: CallableType) -> list[int]:
    """Indices of the parameters that can be passed positionally (before any ``*args``)."""
    return [i for i, k in enumerate(c.arg_kinds) if k in POSITIONAL]


def has_star_args(c: CallableType) -> bool:
    """Whether ``c`` takes ``*args`` (so any positional index is in range)."""
    return ARG_STAR in c.arg_kinds


def parameters(c: CallableType) -> Parameters:
    """``c``'s parameter list, the first type argument of ``Jitted``/``Differentiated``."""
    return Parameters(c.arg_types, c.arg_kinds, c.arg_names)


def count(n: int, noun: str) -> str:
    """``"1 positional parameter"``, ``"2 positional parameters"``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def normalize_index(i: int, n: int) -> int | None:
    """A possibly negative index into ``n`` positional parameters; None when out of range."""
    j = i + n if i < 0 else i
    return j if 0 <= j < n else None


def instance(api: CheckerPluginInterface, fullname: str, args: Sequence[Type]) -> Instance:
    """``fullname[args]`` for a jax_core class, found in its module's symbol table (mypy's
    ``named_generic_type`` resolves through the current module's imports, which a module that
    imports jax_core only partly does not have)."""
    chk = checker(api)
    module_name, _, name = fullname.rpartition(".")
    module = chk.modules.get(module_name) if chk is not None else None
    node = module.names.get(name) if module is not None else None
    if node is None or not isinstance(node.node, TypeInfo):
        return api.named_generic_type(fullname, list(args))
    return Instance(node.node, list(args))


def array_type(api: CheckerPluginInterface) -> Instance:
    """``jax_core.Array``."""
    return instance(api, _names.ARRAY, [])


def array_like(api: CheckerPluginInterface) -> Type:
    """``jax_core.typing.ArrayLike`` (the alias, so messages print its name)."""
    chk = checker(api)
    module = chk.modules.get(_names.ARRAY_LIKE_MODULE) if chk is not None else None
    node = module.names.get(_names.ARRAY_LIKE) if module is not None else None
    if node is not None and isinstance(node.node, TypeAlias):
        return TypeAliasType(node.node, [])
    return AnyType(TypeOfAny.special_form)


def is_array(t: Type) -> bool:
    """Whether ``t`` is exactly ``jax_core.Array``."""
    p = get_proper_type(t)
    return isinstance(p, Instance) and p.type.fullname == _names.ARRAY


def widen_arrays(api: CheckerPluginInterface, c: CallableType, keep: set[int], *, abstract: bool = False) -> CallableType:
    """``c`` as called through ``jit``: a parameter annotated ``Array`` (alone or in a union)
    accepts any ``ArrayLike``, since jit converts its inputs (with ``abstract``, as ``lower``,
    ``trace`` and ``eval_shape`` take them: also a ``ShapeDtypeStruct``); parameters in ``keep``
    (static arguments, passed through unchanged) are left alone."""
    like = array_like(api)
    if abstract:
        like = UnionType.make_union([like, instance(api, _names.SHAPE_DTYPE_STRUCT, [])])

    def widen(t: Type) -> Type:
        p = get_proper_type(t)
        if is_array(p):
            return like
        if isinstance(p, UnionType) and any(is_array(i) for i in p.items):
            return UnionType.make_union([like if is_array(i) else i for i in p.items])
        return t

    types = [t if i in keep else widen(t) for i, t in enumerate(c.arg_types)]
    return c.copy_modified(arg_types=types)  # pyright: ignore[reportUnknownMemberType]  (mypy's Bogus[] parameters)


def as_outputs(api: CheckerPluginInterface, t: Type) -> Type:
    """A result type as a transformation returns it: Python scalars and NumPy arrays become
    ``Array`` (through tuples, lists and dicts); everything else is unchanged."""
    p = get_proper_type(t)
    if isinstance(p, Instance):
        if p.type.fullname in SCALARS or p.type.fullname == "numpy.ndarray":
            return array_type(api)
        if p.type.fullname in ("builtins.list", "builtins.dict") and p.args:
            return p.copy_modified(args=[*p.args[:-1], as_outputs(api, p.args[-1])])  # pyright: ignore[reportUnknownMemberType]  (mypy's Bogus[] parameters)
    if isinstance(p, TupleType):
        return p.copy_modified(items=[as_outputs(api, i) for i in p.items])
    return t


def is_hashable(api: CheckerPluginInterface, t: Type) -> bool:
    """Whether a value of type ``t`` is hashable (False for list, dict, set, ndarray, Array)."""
    p = get_proper_type(t)
    if isinstance(p, AnyType):
        return True
    # typeshed makes every tuple Hashable; a tuple is hashable only if its items are.
    if isinstance(p, (TupleType, UnionType)):
        return all(is_hashable(api, i) for i in p.items)
    if (
        isinstance(p, Instance)
        and p.type.fullname in ("builtins.tuple", "builtins.frozenset")
        and p.args
    ):
        return is_hashable(api, p.args[0])
    return is_subtype(p, api.named_generic_type("typing.Hashable", []))


def fmt(api: CheckerPluginInterface, t: Type) -> str:
    """A type as mypy prints it in messages, quoted."""
    return f'"{format_type_bare(t, api.options)}"'


def callable_name(c: CallableType) -> str:
    """``"f"`` for messages; ``"the function"`` for lambdas and unnamed callables."""
    name = c.name.split(" of ")[0] if c.name else None
    return f'"{name}"' if name and name != "<lambda>" else "the function"


def tuple_items(t: Type) -> Sequence[Type] | None:
    """The items of a fixed-length tuple type; None for anything else."""
    p = get_proper_type(t)
    return p.items if isinstance(p, TupleType) else None
