"""Shapes as the shape checker sees them: jaxtyping's dimension grammar parsed into ``Shape``,
dtype names and their promotion, and the binding of a callee's dimension names to a call's
actual shapes. Pure data: no mypy import, so every rule is testable on its own.

A dimension is an ``int`` (a fixed size), a ``str`` (a symbol: a name such as ``"n"`` or an
expression such as ``"n+1"``), ``None`` (unknown) or a ``Star`` (a variadic run of dimensions,
``*batch``; ``Star(None)`` for ``...``). Two different symbols are different sizes: that is what
a shape-generic annotation says, and it is the check users want (``"b n"`` + ``"n b"`` is a bug
even on the run where ``b == n``). A symbol against an ``int`` is undecided and never an error.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final


@dataclass(frozen=True)
class Star:
    """A variadic run of dimensions: ``*name`` (bound per call) or ``...`` (``name`` None)."""

    name: str | None


Dim = int | str | None | Star

_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_EXPR: Final = re.compile(r"[A-Za-z0-9_+\-*/() ]+")

#: jaxtyping's dtype annotations, each as the set of dtype kinds it admits ("b" bool, "u"
#: unsigned, "i" signed, "f" floating, "c" complex, "k" PRNG key) and a width (None: any).
DTYPES: Final[Mapping[str, tuple[str, int | None]]] = {
    "Shaped": ("buifck", None),
    "Bool": ("b", None),
    "Key": ("k", None),
    "Num": ("uifc", None),
    "Real": ("uif", None),
    "Inexact": ("fc", None),
    "Integer": ("ui", None),
    "Int": ("i", None),
    "Int2": ("i", 2),
    "Int4": ("i", 4),
    "Int8": ("i", 8),
    "Int16": ("i", 16),
    "Int32": ("i", 32),
    "Int64": ("i", 64),
    "UInt": ("u", None),
    "UInt2": ("u", 2),
    "UInt4": ("u", 4),
    "UInt8": ("u", 8),
    "UInt16": ("u", 16),
    "UInt32": ("u", 32),
    "UInt64": ("u", 64),
    "Float": ("f", None),
    "Float8e4m3b11fnuz": ("f", 8),
    "Float8e4m3fn": ("f", 8),
    "Float8e4m3fnuz": ("f", 8),
    "Float8e5m2": ("f", 8),
    "Float8e5m2fnuz": ("f", 8),
    "BFloat16": ("f", 16),
    "Float16": ("f", 16),
    "Float32": ("f", 32),
    "Float64": ("f", 64),
    "Complex": ("c", None),
    "Complex64": ("c", 64),
    "Complex128": ("c", 128),
}
_KIND_ORDER: Final = "buifc"


class SpecError(ValueError):
    """A dimension string jaxtyping would reject."""


@dataclass(frozen=True)
class Shape:
    """An array's dtype annotation name and its dimensions (``dims`` None: rank unknown)."""

    dtype: str = "Shaped"
    dims: tuple[Dim, ...] | None = None
    broadcast: frozenset[int] = field(default=frozenset[int]())  # positions written ``#name``

    @property
    def known(self) -> bool:
        return self.dims is not None

    @property
    def fixed_rank(self) -> int | None:
        """The rank when no dimension is variadic."""
        if self.dims is None or any(isinstance(d, Star) for d in self.dims):
            return None
        return len(self.dims)

    def with_dims(self, dims: Sequence[Dim] | None, dtype: str | None = None) -> Shape:
        return Shape(dtype or self.dtype, None if dims is None else tuple(dims))

    def __str__(self) -> str:
        return f'{self.dtype}[Array, "{format_dims(self.dims)}"]'


def format_dim(d: Dim) -> str:
    if isinstance(d, Star):
        return "..." if d.name is None else f"*{d.name}"
    return "_" if d is None else str(d)


def format_dims(dims: Sequence[Dim] | None) -> str:
    return "..." if dims is None else " ".join(format_dim(d) for d in dims)


def parse_dims(spec: str) -> tuple[tuple[Dim, ...], frozenset[int]]:
    """jaxtyping's grammar: space-separated dimensions, each a fixed size (``3``), a name
    (``n``, ``_n``: documentation only, so unknown), ``_`` (anonymous), ``#n`` (also accepts
    size 1), ``*name``/``...``/``*_`` (variadic, at most one), or an expression (``n+1``)."""
    dims: list[Dim] = []
    broadcast: set[int] = set()
    for raw in spec.split():
        token = raw
        if token.startswith("#"):
            broadcast.add(len(dims))
            token = token[1:]
        if token == "...":
            dims.append(Star(None))
        elif token.startswith("*"):
            name = token[1:]
            if not _NAME.fullmatch(name):
                raise SpecError(f"invalid variadic dimension {raw!r} in {spec!r}")
            dims.append(Star(None if name.startswith("_") else name))
        elif token.isdigit():
            dims.append(int(token))
        elif _NAME.fullmatch(token):
            dims.append(None if token.startswith("_") else token)
        elif "=" in token:  # ``name=expr``: jaxtyping checks the expression, names it ``name``
            dims.append(normalize(token.split("=", 1)[1]))
        elif _EXPR.fullmatch(token):
            dims.append(normalize(token))
        else:
            raise SpecError(f"invalid dimension {raw!r} in {spec!r}")
    if sum(isinstance(d, Star) for d in dims) > 1:
        raise SpecError(f"at most one variadic dimension ('*name' or '...') in {spec!r}")
    return tuple(dims), frozenset(broadcast)


def normalize(expr: str) -> Dim:
    """An expression dimension: its value if it is constant, else its text without spaces."""
    text = expr.replace(" ", "")
    value = evaluate(text, {})
    return value if value is not None else text


def evaluate(expr: str, env: Mapping[str, Dim]) -> int | None:
    """The value of an arithmetic dimension expression (``+ - * //`` over integers and names)
    where every name is bound to an int; None otherwise."""
    try:
        tree = ast.parse(expr, mode="eval").body
    except SyntaxError:
        return None
    return _value(tree, env)


def _floordiv(a: int, b: int) -> int:
    return a // b


_OPS: Final[Mapping[type[ast.operator], Callable[[int, int], int]]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: _floordiv,
}


def _value(node: ast.expr, env: Mapping[str, Dim]) -> int | None:
    if isinstance(node, ast.Constant):
        constant: object = node.value
        return constant if isinstance(constant, int) and not isinstance(constant, bool) else None
    if isinstance(node, ast.Name):
        bound = env.get(node.id)
        return bound if isinstance(bound, int) else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _value(node.operand, env)
        return None if inner is None else -inner
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        left, right = _value(node.left, env), _value(node.right, env)
        if left is None or right is None or (isinstance(node.op, ast.FloorDiv) and right == 0):
            return None
        return _OPS[type(node.op)](left, right)
    return None


def substitute(d: Dim, env: Mapping[str, Dim]) -> Dim:
    """A callee's dimension with its names replaced by what the call bound them to."""
    if isinstance(d, Star) or d is None or isinstance(d, int):
        return d
    if d in env:
        return env[d]
    if _NAME.fullmatch(d):
        return None  # a name the call did not bind: unknown to the caller
    value = evaluate(d, env)
    if value is not None:
        return value
    # an expression over symbols: rewrite it in the caller's names where all are symbols
    parts = {n: env.get(n) for n in _NAME.findall(d)}
    if all(isinstance(v, str) and _NAME.fullmatch(v) for v in parts.values()):
        return re.sub(r"[A-Za-z_][A-Za-z0-9_]*", lambda m: str(parts[m.group(0)]), d)
    return None


def differ(a: Dim, b: Dim) -> bool:
    """Whether two dimensions are certainly different sizes."""
    if a is None or b is None or isinstance(a, Star) or isinstance(b, Star):
        return False
    if isinstance(a, int) and isinstance(b, int):
        return a != b
    if isinstance(a, str) and isinstance(b, str):
        return a != b
    return False  # a symbol and a size: undecided


def same(a: Dim, b: Dim) -> bool:
    """Whether two dimensions are certainly the same size."""
    return a is not None and not isinstance(a, Star) and a == b


# ---- dtypes --------------------------------------------------------------------------------


def dtype_name(kind: str, width: int | None) -> str:
    """The narrowest jaxtyping name for one kind and width."""
    base = {"b": "Bool", "u": "UInt", "i": "Int", "f": "Float", "c": "Complex", "k": "Key"}[kind]
    if kind in "bk" or width is None:
        return base
    return f"{base}{width}"


def promote(a: str, b: str | None) -> str:
    """The result dtype name of an elementwise operation on two annotated dtypes (``b`` None:
    the other operand is a Python scalar, which never widens an array's dtype)."""
    ka, wa = DTYPES.get(a, ("buifck", None))
    if b is None:
        return a
    kb, wb = DTYPES.get(b, ("buifck", None))
    if len(ka) != 1 or len(kb) != 1 or "k" in ka + kb:
        return "Shaped"
    ia, ib = _KIND_ORDER.index(ka), _KIND_ORDER.index(kb)
    if ia == ib:
        width = None if wa is None or wb is None else max(wa, wb)
        return dtype_name(ka, width)
    kind, width = (ka, wa) if ia > ib else (kb, wb)
    if kind in "uic" and {ka, kb} != {"u", "i"}:
        return dtype_name(kind, width)
    return dtype_name(kind, width if {ka, kb} != {"u", "i"} else None)


def scalar_promote(a: str, scalar: str) -> str:
    """An array dtype with a Python scalar (``"int"``, ``"float"``, ``"complex"``, ``"bool"``):
    weakly typed, so the array's dtype stays unless the scalar's kind is higher."""
    ka, _ = DTYPES.get(a, ("buifck", None))
    sk = {"bool": "b", "int": "i", "float": "f", "complex": "c"}.get(scalar)
    if sk is None or len(ka) != 1 or ka == "k":
        return a if sk is not None and len(ka) == 1 else "Shaped"
    if _KIND_ORDER.index(sk) <= _KIND_ORDER.index(ka):
        return a
    return dtype_name(sk, None)


def dtype_conflict(expected: str, actual: str) -> bool:
    """Whether no dtype satisfies both annotations (a ``Float`` value where ``Int32`` is
    expected); overlapping names (``Float`` where ``Float32`` is expected) are accepted."""
    ke, we = DTYPES.get(expected, ("buifck", None))
    ka, wa = DTYPES.get(actual, ("buifck", None))
    if not set(ke) & set(ka):
        return True
    return we is not None and wa is not None and we != wa and len(set(ke) & set(ka)) == 1


# ---- binding a callee's names to a call's shapes ---------------------------------------------


@dataclass
class Binding:
    """Dimension names bound by one call, and what went wrong."""

    dims: dict[str, Dim] = field(default_factory=dict[str, Dim])
    stars: dict[str, tuple[Dim, ...]] = field(default_factory=dict[str, tuple[Dim, ...]])

    @classmethod
    def identity(cls, shape: Shape) -> Binding:
        """Every name of ``shape`` bound to itself: comparing two shapes in one function's
        names (a result against the annotation of the place it goes to)."""
        dims = shape.dims or ()
        binding = cls(dims={n: n for n in names_in(dims)})
        binding.stars = {d.name: (d,) for d in dims if isinstance(d, Star) and d.name}
        return binding

    def bind(self, name: str, actual: Dim, broadcast: bool, position: int = 0) -> str | None:
        if name not in self.dims or self.dims[name] is None:
            if not (broadcast and actual == 1):
                self.dims[name] = actual
            return None
        bound = self.dims[name]
        if differ(bound, actual) and not (broadcast and actual == 1):
            if bound == name:
                return f"dimension {position} is {format_dim(actual)}, not {name}"
            return f"{name} is {format_dim(bound)} (bound earlier in the call) but dimension {position} here is {format_dim(actual)}"
        return None


def bind(formal: Shape, actual: Shape, binding: Binding) -> str | None:
    """Binds ``formal``'s names to ``actual``'s dimensions; the reason they cannot match, if they
    certainly cannot (rank, a fixed size, a name bound to two different sizes, dtype)."""
    if dtype_conflict(formal.dtype, actual.dtype):
        return f"dtype {actual.dtype} is not {formal.dtype}"
    if formal.dims is None or actual.dims is None:
        return None
    pairs = _align(formal.dims, actual.dims)
    if pairs is None:
        return f"rank {_rank(actual.dims)} is not {_rank(formal.dims)}"
    deferred: list[tuple[str, Dim]] = []
    for i, (f, a) in enumerate(pairs):
        broadcast = i in formal.broadcast
        if isinstance(f, Star):
            if f.name is not None and isinstance(a, tuple):
                seen = binding.stars.get(f.name)
                if seen is not None and len(seen) == len(a) and any(map(differ, seen, a)):
                    return f"*{f.name} = {format_dims(seen)} and *{f.name} = {format_dims(a)}"
                binding.stars.setdefault(f.name, a)
            continue
        if isinstance(a, tuple):
            continue
        if isinstance(f, int):
            if differ(f, a) and not (broadcast and a == 1):
                return f"dimension {i}: {format_dim(a)} != {f}"
        elif isinstance(f, str):
            if _NAME.fullmatch(f):
                problem = binding.bind(f, a, broadcast, i)
                if problem is not None:
                    return problem
            else:
                deferred.append((f, a))
    for expr, a in deferred:
        value = substitute(expr, binding.dims)
        if differ(value, a):
            return f"{expr} = {format_dim(value)} but the dimension is {format_dim(a)}"
    return None


def _rank(dims: Sequence[Dim]) -> str:
    fixed = sum(not isinstance(d, Star) for d in dims)
    return f">= {fixed}" if len(dims) != fixed else str(fixed)


def _align(
    formal: Sequence[Dim], actual: Sequence[Dim]
) -> list[tuple[Dim, Dim | tuple[Dim, ...]]] | None:
    """Pairs each formal dimension with the actual one (a variadic formal with the run it
    covers); None when the ranks cannot match. An actual variadic run makes everything after
    (or before) it undecided."""
    fstar = next((i for i, d in enumerate(formal) if isinstance(d, Star)), None)
    astar = next((i for i, d in enumerate(actual) if isinstance(d, Star)), None)
    if astar is not None:
        # align from both ends up to the actual's variadic run; the rest is unknown
        pairs: list[tuple[Dim, Dim | tuple[Dim, ...]]] = []
        for f, a in zip(formal, actual[:astar], strict=False):
            if isinstance(f, Star):
                break
            pairs.append((f, a))
        tail = actual[astar + 1 :]
        for f, a in zip(reversed(formal), reversed(tail), strict=False):
            if isinstance(f, Star):
                break
            pairs.append((f, a))
        return pairs
    if fstar is None:
        if len(formal) != len(actual):
            return None
        return list(zip(formal, actual, strict=True))
    before, after = formal[:fstar], formal[fstar + 1 :]
    if len(actual) < len(before) + len(after):
        return None
    cut = len(actual) - len(after)
    return [
        *zip(before, actual[: len(before)], strict=True),
        (formal[fstar], tuple(actual[len(before) : cut])),
        *zip(after, actual[cut:], strict=True),
    ]


def apply(formal: Shape, binding: Binding) -> Shape:
    """A callee's result shape in the caller's names."""
    if formal.dims is None:
        return formal
    out: list[Dim] = []
    for d in formal.dims:
        if isinstance(d, Star):
            run = binding.stars.get(d.name) if d.name is not None else None
            out.extend(run if run is not None else (Star(None),))
        else:
            out.append(substitute(d, binding.dims))
    return Shape(formal.dtype, tuple(out))


def names_in(dims: Iterable[Dim]) -> set[str]:
    """The symbols a shape mentions."""
    out: set[str] = set()
    for d in dims:
        if isinstance(d, Star) and d.name:
            out.add(d.name)
        elif isinstance(d, str):
            out.update(_NAME.findall(d))
    return out
