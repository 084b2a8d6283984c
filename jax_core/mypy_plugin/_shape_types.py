"""Shapes inside mypy's types. ``Float32[Array, "b n"]`` is analysed to ``Array`` carrying one
type argument, the literal ``'Float32[b n]'``: ``Array`` has no type parameters, so mypy
compares two arrays without looking at it (shapes never make mypy itself reject anything), keeps
it through assignments and prints it in ``reveal_type``. A dimension taken from ``x.shape`` is an
``int`` carrying its dimension the same way, so ``b, n = x.shape`` then ``jnp.zeros((b, n))``
keeps the names. Everything else (a plain ``Array``) is shape-unknown."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, cast

from mypy.nodes import Expression, IntExpr, NameExpr, StrExpr, TupleExpr, UnaryExpr
from mypy.plugin import AnalyzeTypeContext, CheckerPluginInterface
from mypy.typeanal import TypeAnalyser
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    LiteralType,
    Overloaded,
    RawExpressionType,
    TupleType,
    Type,
    TypeAliasType,
    TypeOfAny,
    TypeTranslator,
    UnboundType,
    UnionType,
    get_proper_type,
)

from jax_core.mypy_plugin import _errors, _names
from jax_core.mypy_plugin._shape_spec import (
    DTYPES,
    Dim,
    Shape,
    SpecError,
    Star,
    format_dim,
    format_dims,
    parse_dims,
)

ANNOTATED = ("typing.Annotated", "typing_extensions.Annotated")
SCALAR_KINDS = {
    "builtins.bool": "bool",
    "builtins.int": "int",
    "builtins.float": "float",
    "builtins.complex": "complex",
}


# ---- annotations ---------------------------------------------------------------------------


def annotated_hook(ctx: AnalyzeTypeContext) -> Type:
    """``Float[Array, "b n"]`` (jax_core.typing's and jaxtyping's names both read as
    ``Annotated`` statically): ``Array`` with its shape; any other ``Annotated`` as mypy reads it."""
    t, analyser = ctx.type, ctx.api
    name = t.name.rpartition(".")[2]
    if not isinstance(analyser, TypeAnalyser):
        return AnyType(TypeOfAny.special_form)
    if name not in DTYPES or len(t.args) != 2:
        default = analyser.try_analyze_special_unbound_type(t, ANNOTATED[0])
        return default if default is not None else AnyType(TypeOfAny.from_error)
    base = analyser.anal_type(t.args[0])
    spec = t.args[1]
    text = spec.literal_value if isinstance(spec, RawExpressionType) else None
    if isinstance(spec, UnboundType) and spec.original_str_expr is not None:
        text = spec.original_str_expr
    p = get_proper_type(base)
    if not isinstance(text, str) or not isinstance(p, Instance) or p.type.fullname != _names.ARRAY:
        return base
    try:
        parse_dims(text)
    except SpecError as e:
        analyser.fail(f"jax-shape: {e}", t, code=_errors.SHAPE)
        return base
    return Instance(
        p.type, [_literal(analyser.named_type("builtins.str"), f"{name}[{text.strip()}]")]
    )


def _literal(fallback: Instance, text: str) -> LiteralType:
    return LiteralType(text, fallback)


# ---- reading and writing shapes in types ---------------------------------------------------


def shape_of(t: Type | None) -> Shape | None:
    """The shape a type carries: ``Shape()`` (unknown) for a plain ``Array``; None for a type
    that is not an array."""
    if t is None:
        return None
    p = get_proper_type(t)
    if not isinstance(p, Instance) or p.type.fullname != _names.ARRAY:
        return None
    if len(p.args) != 1:
        return Shape()
    arg = get_proper_type(p.args[0])
    if not isinstance(arg, LiteralType) or not isinstance(arg.value, str):
        return Shape()
    return decode(arg.value)


def decode(text: str) -> Shape:
    dtype, _, rest = text.partition("[")
    try:
        dims, broadcast = parse_dims(rest.rstrip("]"))
    except SpecError:
        return Shape()
    return Shape(dtype if dtype in DTYPES else "Shaped", dims, broadcast)


def encode(api: CheckerPluginInterface, shape: Shape | None) -> Type:
    """``Array`` carrying ``shape`` (a plain ``Array`` when nothing is known)."""
    from jax_core.mypy_plugin._types import array_type

    array = array_type(api)
    if shape is None or (shape.dims is None and shape.dtype == "Shaped"):
        return array
    dims = shape.dims if shape.dims is not None else (Star(None),)
    text = f"{shape.dtype}[{format_dims(dims)}]"
    return array.copy_modified(args=[_literal(api.named_generic_type("builtins.str", []), text)])  # pyright: ignore[reportUnknownMemberType]  (mypy's Bogus[] parameters)


def scalar_kind(t: Type | None) -> str | None:
    """``"int"``, ``"float"``... for a Python scalar type (literal or not)."""
    p = get_proper_type(t) if t is not None else None
    if isinstance(p, LiteralType):
        p = p.fallback
    if isinstance(p, Instance):
        return SCALAR_KINDS.get(p.type.fullname)
    return None


def dim_int(api: CheckerPluginInterface, d: Dim) -> Type:
    """``int`` carrying one dimension (``x.shape[0]``)."""
    base = api.named_generic_type("builtins.int", [])
    if d is None or isinstance(d, Star):
        return base
    return base.copy_modified(  # pyright: ignore[reportUnknownMemberType]  (mypy's Bogus[] parameters)
        args=[_literal(api.named_generic_type("builtins.str", []), format_dim(d))]
    )  # pyright: ignore[reportUnknownMemberType]  (mypy's Bogus[] parameters)


def dim_of(t: Type | None) -> Dim:
    """The dimension an ``int`` type carries: a literal's value, or a dimension from a shape."""
    p = get_proper_type(t) if t is not None else None
    if isinstance(p, LiteralType) and isinstance(p.value, int) and not isinstance(p.value, bool):
        return p.value
    if isinstance(p, Instance) and p.type.fullname == "builtins.int":
        if p.last_known_value is not None and isinstance(p.last_known_value.value, int):
            return p.last_known_value.value
        if len(p.args) == 1:
            arg = get_proper_type(p.args[0])
            if isinstance(arg, LiteralType) and isinstance(arg.value, str):
                try:
                    dims, _ = parse_dims(arg.value)
                except SpecError:
                    return None
                return dims[0] if len(dims) == 1 else None
    return None


class Sym(str):
    """A dimension value read from an ``int`` (a name), as opposed to a string literal."""


#: A statically known argument value: int, str, bool, None, ``Sym``, tuples of those, or UNKNOWN.
Static = object
UNKNOWN: Final = object()


def tuple_items(value: Static) -> tuple[Static, ...] | None:
    """A static tuple's items (None for any other value)."""
    return tuple(cast("tuple[Static, ...]", value)) if isinstance(value, tuple) else None


def items_of(value: Static) -> tuple[Static, ...]:
    """A static value as a tuple: its items if it is one, else the value alone."""
    items = tuple_items(value)
    return items if items is not None else (value,)


def static(expr: Expression | None, t: Type | None) -> Static:
    """A call argument's value when it is known statically: literal ints, strings, ``None``,
    booleans and tuples of those; dimensions carried by ``int`` types as ``Sym``/``int``."""
    if isinstance(expr, IntExpr):
        return expr.value
    if isinstance(expr, UnaryExpr) and expr.op == "-" and isinstance(expr.expr, IntExpr):
        return -expr.expr.value
    if isinstance(expr, StrExpr):
        return expr.value
    if isinstance(expr, NameExpr) and expr.fullname in (
        "builtins.True",
        "builtins.False",
        "builtins.None",
    ):
        return {"builtins.True": True, "builtins.False": False, "builtins.None": None}[
            expr.fullname
        ]
    p = get_proper_type(t) if t is not None else None
    if isinstance(expr, TupleExpr):
        items = p.items if isinstance(p, TupleType) else [None] * len(expr.items)
        return tuple(static(e, i) for e, i in zip(expr.items, items, strict=True))
    if isinstance(p, TupleType) and expr is None:
        return tuple(static(None, i) for i in p.items)
    if isinstance(p, TupleType):
        return tuple(static(None, i) for i in p.items)
    if isinstance(p, LiteralType):
        return p.value
    d = dim_of(p)
    carried = isinstance(p, Instance) and bool(p.args)  # a dimension read from a shape
    if carried and d is not None and not isinstance(d, Star):
        return Sym(str(d))
    if isinstance(d, int):
        return d
    return UNKNOWN


class Rewrite(TypeTranslator):
    """Applies a function to every shape in a type (a callee's result in the caller's names)."""

    def __init__(self, api: CheckerPluginInterface, fn: Callable[[Shape], Shape | None]) -> None:
        super().__init__()
        self.api = api
        self.fn = fn

    def visit_instance(self, t: Instance, /) -> Type:
        if t.type.fullname == _names.ARRAY and t.args:
            shape = shape_of(t)
            return encode(self.api, self.fn(shape) if shape is not None else None)
        if t.type.fullname == "builtins.int" and t.args:
            return t.copy_modified(args=[])  # pyright: ignore[reportUnknownMemberType]  (mypy's Bogus[] parameters)
        return super().visit_instance(t)

    def visit_union_type(self, t: UnionType, /) -> Type:
        return UnionType([i.accept(self) for i in t.items], t.line, t.column)

    def visit_type_alias_type(self, t: TypeAliasType, /) -> Type:
        return get_proper_type(t).accept(self) if has_shapes(t) else t


def has_shapes(t: Type, depth: int = 0) -> bool:
    """Whether any array in ``t`` (through tuples, unions, callables, generics) carries a shape."""
    if depth > 8:
        return False
    p = get_proper_type(t)
    if isinstance(p, Instance):
        if p.type.fullname == _names.ARRAY:
            return bool(p.args)
        return any(has_shapes(a, depth + 1) for a in p.args)
    if isinstance(p, (TupleType, UnionType)):
        return any(has_shapes(i, depth + 1) for i in p.items)
    if isinstance(p, CallableType):
        return has_shapes(p.ret_type, depth + 1) or any(
            has_shapes(a, depth + 1) for a in p.arg_types
        )
    if isinstance(p, Overloaded):
        return any(has_shapes(i, depth + 1) for i in p.items)
    return False
