"""jaxtyping's array annotations: ``Float[Array, "batch n"]``, ``Int32[Array, ""]``, ...

For a type checker each name is ``typing.Annotated`` (the way jaxtyping itself presents them), so
``Float[Array, "batch n"]`` is ``Array`` to mypy, pyright, pyrefly and ty, with the dimension string
as metadata that jax_core's mypy plugin reads (docs/shape-typing.md). At run time each name is a
``DtypeAnnotation`` whose subscript checks the dimension string against jaxtyping's grammar
(``check_dims``) and returns jaxtyping's own annotation when jaxtyping is installed (so its
runtime checker, with beartype or typeguard, checks shapes and dtypes on jax_core arrays and
tracers as on JAX's), else ``typing.Annotated[array_type, spec]``. jax_core does not depend on
jaxtyping: it is imported at the first subscript, if present.

The dimension grammar (jaxtyping 0.3): dimensions are separated by spaces; each is a name
(``n``), a size (``3``), ``_`` (any one size), ``...`` (any number of dimensions), or an
expression of earlier names (``n+1``, ``min(a,b)``, ``{x}`` for an argument). A name takes
prefixes: ``*`` (a variadic run of dimensions), ``#`` (also size 1, broadcastable), ``_``
(anonymous), ``?`` (per pytree leaf), and ``label=`` (``rows=3`` is ``3``). At most one
dimension is variadic.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Annotated, Final, Protocol, cast, final

__all__ = [
    "BFloat16",
    "Bool",
    "Complex",
    "Complex64",
    "Complex128",
    "Float",
    "Float8e4m3b11fnuz",
    "Float8e4m3fn",
    "Float8e4m3fnuz",
    "Float8e5m2",
    "Float8e5m2fnuz",
    "Float16",
    "Float32",
    "Float64",
    "Inexact",
    "Int",
    "Int2",
    "Int4",
    "Int8",
    "Int16",
    "Int32",
    "Int64",
    "Integer",
    "Key",
    "Num",
    "Real",
    "Shaped",
    "UInt",
    "UInt2",
    "UInt4",
    "UInt8",
    "UInt16",
    "UInt32",
    "UInt64",
]

NAMES: Final[tuple[str, ...]] = tuple(__all__)
"""jaxtyping 0.3's dtype annotation names: its top-level ``AbstractDtype`` classes."""

_PREFIXES: Final = {
    "#": "Do not write '#' twice (as in '##n'): one '#' marks a dimension broadcastable",
    "*": "Do not write '*' twice (as in '**n'): one '*' marks a variadic dimension",
    "_": "Do not write '_' twice (as in '__n'): one '_' marks a dimension anonymous",
    "?": "Do not write '?' twice (as in '??n'): one '?' makes a dimension per pytree leaf",
}


def _check_expression(expr: str) -> str | None:
    """Why ``expr`` (a symbolic dimension such as ``n+1``) cannot be evaluated the way jaxtyping
    does at check time (an f-string over the arguments, then an expression over the
    dimension names); ``None`` if it can."""
    sources = [f"f'{expr}'"] if "{" in expr else [f"f'{expr}'", expr]
    for source in sources:
        try:
            compile(source, "<dimension>", "eval")
        except SyntaxError as error:
            return f"it is not a Python expression ({error.msg})"
        except ValueError as error:  # a null byte
            return f"it is not a Python expression ({error})"
    return None


def _check_token(token: str) -> bool:
    """Raises ``ValueError`` if ``token`` (one dimension) breaks jaxtyping's grammar; returns
    whether it is variadic (``*name``, ``*_`` or ``...``)."""
    if "," in token and "(" not in token:
        raise ValueError("Axes should be separated with spaces, not commas")
    if token.endswith("#"):
        raise ValueError(
            f"{token!r}: a broadcastable dimension has its '#' at the start ('#n'), not the end"
        )
    if "..." in token:
        if token != "...":
            raise ValueError(f"'...' (any number of dimensions) must stand alone; got {token!r}")
        return True
    seen: set[str] = set()
    rest = token
    while rest:
        if rest[0] in _PREFIXES:
            if rest[0] in seen:
                raise ValueError(f"{_PREFIXES[rest[0]]}; got {token!r}")
            seen.add(rest[0])
            rest = rest[1:]
        elif rest.count("=") == 1:
            rest = rest.split("=")[1]  # `rows=3`: the label is documentation only
        else:
            break
    variadic = "*" in seen
    if not rest or rest.isidentifier():
        if "_" in seen and "#" in seen:
            raise ValueError(
                f"A dimension cannot be both anonymous and broadcastable; got {token!r}"
            )
        return variadic
    try:
        int(rest)
    except ValueError:
        pass
    else:  # a fixed size
        for prefix, what in (("*", "variadic"), ("_", "anonymous"), ("?", "per pytree leaf")):
            if prefix in seen:
                raise ValueError(f"A fixed size cannot be {what}; got {token!r}")
        return False
    for prefix, what in (("_", "anonymous"), ("*", "variadic"), ("?", "per pytree leaf")):
        if prefix in seen:
            raise ValueError(f"A symbolic dimension cannot be {what}; got {token!r}")
    problem = _check_expression(rest)
    if problem is not None:
        raise ValueError(f"{token!r} is not a valid symbolic dimension: {problem}")
    return False


def check_dims(spec: object) -> None:
    """Raises ``ValueError``, as jaxtyping does, for a dimension string its grammar rejects:
    not a string, a misplaced or repeated prefix, commas between dimensions, more than one
    variadic dimension (``*name`` or ``...``). Also rejects a symbolic dimension that is not a
    Python expression (jaxtyping finds that only when it checks a value)."""
    if not isinstance(spec, str):
        raise ValueError(  # noqa: TRY004 (jaxtyping raises ValueError here)
            f"The dimensions must be a string with the axes separated by spaces, such as "
            f"'batch n'; got {spec!r}"
        )
    variadic: list[str] = []
    for token in spec.split():
        if _check_token(token):
            variadic.append(token)
    if len(variadic) > 1:
        raise ValueError(
            f"Cannot use variadic specifiers (`*name` or `...`) more than once; {spec!r} has "
            f"{' and '.join(variadic)}"
        )


class _Subscriptable(Protocol):
    """jaxtyping's dtype classes: ``Float[array_type, spec]`` (a metaclass ``__getitem__``)."""

    def __getitem__(self, item: tuple[object, object], /) -> object: ...


@final
class DtypeAnnotation:
    """One of jaxtyping's dtype names at run time: ``Float[Array, "batch n"]``."""

    __slots__ = ("__name__",)

    def __init__(self, name: str) -> None:
        self.__name__ = name

    def __getitem__(self, item: object) -> object:
        """``jaxtyping.<name>[array_type, spec]`` if jaxtyping is installed, else
        ``typing.Annotated[array_type, spec]``; ``spec`` is checked first (``check_dims``)."""
        if not isinstance(item, tuple) or len(cast("tuple[object, ...]", item)) != 2:
            raise ValueError(
                f"{self.__name__}[...] takes an array type and a dimension string, such as "
                f"{self.__name__}[Array, 'batch n'] ('...' for any shape); got {item!r}"
            )
        array_type, spec = cast("tuple[object, object]", item)
        check_dims(spec)
        try:
            jaxtyping = importlib.import_module("jaxtyping")
        except ImportError:
            return Annotated[array_type, spec]
        dtype: object = getattr(jaxtyping, self.__name__, None)
        if dtype is None:
            raise ImportError(
                f"the installed jaxtyping has no {self.__name__}: jax_core.typing.{self.__name__} "
                "needs jaxtyping 0.3 or later"
            )
        return cast(_Subscriptable, dtype)[array_type, spec]

    def __repr__(self) -> str:
        return f"jax_core.typing.{self.__name__}"


if TYPE_CHECKING:
    from typing import Annotated as BFloat16
    from typing import Annotated as Bool
    from typing import Annotated as Complex
    from typing import Annotated as Complex64
    from typing import Annotated as Complex128
    from typing import Annotated as Float
    from typing import Annotated as Float8e4m3b11fnuz
    from typing import Annotated as Float8e4m3fn
    from typing import Annotated as Float8e4m3fnuz
    from typing import Annotated as Float8e5m2
    from typing import Annotated as Float8e5m2fnuz
    from typing import Annotated as Float16
    from typing import Annotated as Float32
    from typing import Annotated as Float64
    from typing import Annotated as Inexact
    from typing import Annotated as Int
    from typing import Annotated as Int2
    from typing import Annotated as Int4
    from typing import Annotated as Int8
    from typing import Annotated as Int16
    from typing import Annotated as Int32
    from typing import Annotated as Int64
    from typing import Annotated as Integer
    from typing import Annotated as Key
    from typing import Annotated as Num
    from typing import Annotated as Real
    from typing import Annotated as Shaped
    from typing import Annotated as UInt
    from typing import Annotated as UInt2
    from typing import Annotated as UInt4
    from typing import Annotated as UInt8
    from typing import Annotated as UInt16
    from typing import Annotated as UInt32
    from typing import Annotated as UInt64
else:
    BFloat16 = DtypeAnnotation("BFloat16")
    Bool = DtypeAnnotation("Bool")
    Complex = DtypeAnnotation("Complex")
    Complex64 = DtypeAnnotation("Complex64")
    Complex128 = DtypeAnnotation("Complex128")
    Float = DtypeAnnotation("Float")
    Float8e4m3b11fnuz = DtypeAnnotation("Float8e4m3b11fnuz")
    Float8e4m3fn = DtypeAnnotation("Float8e4m3fn")
    Float8e4m3fnuz = DtypeAnnotation("Float8e4m3fnuz")
    Float8e5m2 = DtypeAnnotation("Float8e5m2")
    Float8e5m2fnuz = DtypeAnnotation("Float8e5m2fnuz")
    Float16 = DtypeAnnotation("Float16")
    Float32 = DtypeAnnotation("Float32")
    Float64 = DtypeAnnotation("Float64")
    Inexact = DtypeAnnotation("Inexact")
    Int = DtypeAnnotation("Int")
    Int2 = DtypeAnnotation("Int2")
    Int4 = DtypeAnnotation("Int4")
    Int8 = DtypeAnnotation("Int8")
    Int16 = DtypeAnnotation("Int16")
    Int32 = DtypeAnnotation("Int32")
    Int64 = DtypeAnnotation("Int64")
    Integer = DtypeAnnotation("Integer")
    Key = DtypeAnnotation("Key")
    Num = DtypeAnnotation("Num")
    Real = DtypeAnnotation("Real")
    Shaped = DtypeAnnotation("Shaped")
    UInt = DtypeAnnotation("UInt")
    UInt2 = DtypeAnnotation("UInt2")
    UInt4 = DtypeAnnotation("UInt4")
    UInt8 = DtypeAnnotation("UInt8")
    UInt16 = DtypeAnnotation("UInt16")
    UInt32 = DtypeAnnotation("UInt32")
    UInt64 = DtypeAnnotation("UInt64")
