"""JAX's type promotion lattice: ``promote_types``, ``result_type`` and weak types.

Split from ``dtypes`` (which re-exports these names) to keep each module small.
"""


from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any, Final, Literal, overload

import numpy as np

from jax_core._src import config
from jax_core._src.dtypes.canonicalize import (
    canonicalize_dtype,
    default_float_dtype,
    default_types,
    dtype,
    is_weakly_typed,
)
from jax_core._src.dtypes.scalar_types import (
    CUSTOM_FLOAT_DTYPES,
    CUSTOM_FLOAT_SCALAR_TYPES,
    FLOAT4_DTYPES,
    FLOAT6_DTYPES,
    FLOAT8_DTYPES,
    INTN_DTYPES,
    PROMOTABLE_DTYPES,
    SIGNED_INTN_SCALAR_TYPES,
    UNSIGNED_INTN_SCALAR_TYPES,
    WEAK_PYTHON_TYPES,
    bfloat16,
)
from jax_core._src.typing import DType, DTypeLike

# ---------------------------------------------------------------------------
# The type promotion lattice.
#
# Nodes are strings: the name of each promotable dtype (`"int32"`, `"bfloat16"`),
# and `"i*"`, `"f*"`, `"c*"` for the weak types of Python int, float and complex.
# Using strings (rather than mixing `np.dtype` objects and Python types, whose
# `==` NumPy overloads: `np.dtype("int64") == int` is True) keeps the sets exact.
# ---------------------------------------------------------------------------

_WEAK_INT: Final = "i*"
_WEAK_FLOAT: Final = "f*"
_WEAK_COMPLEX: Final = "c*"
_WEAK_NODES: Final[frozenset[str]] = frozenset({_WEAK_INT, _WEAK_FLOAT, _WEAK_COMPLEX})
_WEAK_NODE_OF_TYPE: Final[Mapping[type[Any], str]] = {
    int: _WEAK_INT,
    float: _WEAK_FLOAT,
    complex: _WEAK_COMPLEX,
}
_WEAK_NODE_DTYPE: Final[Mapping[str, DType]] = {
    _WEAK_INT: np.dtype("int64"),
    _WEAK_FLOAT: np.dtype("float64"),
    _WEAK_COMPLEX: np.dtype("complex128"),
}
_WEAK_NODE_DISPLAY: Final[Mapping[str, str]] = {
    _WEAK_INT: str(int),
    _WEAK_FLOAT: str(float),
    _WEAK_COMPLEX: str(complex),
}
_NODE_OF_DTYPE: Final[Mapping[DType, str]] = {d: d.name for d in PROMOTABLE_DTYPES}
_DTYPE_OF_NODE: Final[Mapping[str, DType]] = {d.name: d for d in PROMOTABLE_DTYPES}


def _type_promotion_lattice(x64: bool) -> dict[str, list[str]]:
    """The lattice as a DAG: each node mapped to the nodes immediately above it.

    Read bottom-up: bool < i* < {u8, i8} < ... ; the 64-bit integers lead to f*
    (so int64 + uint64 is a *weak* float); f* sits below every strong float, and
    f32 below both f64 and c64. The sub-byte integers and the 4/6/8-bit floats
    have nothing above them: they promote with nothing but themselves and weak
    types (and weak float only reaches the floats).
    """
    sub_byte_ints = [
        np.dtype(t).name for t in UNSIGNED_INTN_SCALAR_TYPES + SIGNED_INTN_SCALAR_TYPES
    ]
    small_floats = [np.dtype(t).name for t in CUSTOM_FLOAT_SCALAR_TYPES if t is not bfloat16]
    lattice: dict[str, list[str]] = {
        "bool": [_WEAK_INT],
        _WEAK_INT: ["uint8", "int8", *sub_byte_ints],
        "uint8": ["int16", "uint16"],
        "uint16": ["int32", "uint32"],
        # With x64 off, uint32 + int32 is int32 rather than int64: the one place
        # where the lattice would form a 64-bit type from narrower inputs.
        "uint32": ["int64", "uint64"] if x64 else ["int32", "uint64"],
        "uint64": [_WEAK_FLOAT],
        "int8": ["int16"],
        "int16": ["int32"],
        "int32": ["int64"],
        "int64": [_WEAK_FLOAT],
        _WEAK_FLOAT: [*small_floats, "bfloat16", "float16", _WEAK_COMPLEX],
        "bfloat16": ["float32"],
        "float16": ["float32"],
        "float32": ["float64", "complex64"],
        "float64": ["complex128"],
        _WEAK_COMPLEX: ["complex64"],
        "complex64": ["complex128"],
        "complex128": [],
    }
    for name in (*sub_byte_ints, *small_floats):
        lattice[name] = []
    return lattice


def _upper_bounds(lattice: Mapping[str, Iterable[str]]) -> dict[str, frozenset[str]]:
    """Each node's set of upper bounds (itself and everything reachable above it)."""
    bounds: dict[str, frozenset[str]] = {}

    def visit(node: str, path: tuple[str, ...]) -> frozenset[str]:
        if node in path:
            raise ValueError(f"cycle detected in type promotion lattice for node {node}")
        if node not in bounds:
            above: set[str] = {node}
            for parent in lattice[node]:
                above |= visit(parent, (*path, node))
            bounds[node] = frozenset(above)
        return bounds[node]

    for node in lattice:
        visit(node, ())
    return bounds


_LATTICE_UPPER_BOUNDS: Final[Mapping[bool, Mapping[str, frozenset[str]]]] = {
    x64: _upper_bounds(_type_promotion_lattice(x64)) for x64 in (False, True)
}


def _strict_lattice() -> dict[str, list[str]]:
    """The lattice of ``jax_numpy_dtype_promotion='strict'``: a strong type promotes with nothing
    but itself; a weak (Python) scalar takes the type of a strong operand of its kind or above."""
    standard = _LATTICE_UPPER_BOUNDS[True]
    names = [n for n in standard if n not in _WEAK_NODES]
    complexes = [n for n in names if n in standard[_WEAK_COMPLEX]]
    floats = [n for n in names if n in standard[_WEAK_FLOAT] and n not in complexes]
    ints = [n for n in names if n in standard[_WEAK_INT] and n not in floats and n not in complexes]
    lattice: dict[str, list[str]] = {n: [] for n in names}
    lattice |= {_WEAK_INT: [_WEAK_FLOAT, *ints], _WEAK_FLOAT: [_WEAK_COMPLEX, *floats], _WEAK_COMPLEX: complexes}
    return lattice


_STRICT_UPPER_BOUNDS: Final[Mapping[str, frozenset[str]]] = _upper_bounds(_strict_lattice())


def _strict() -> bool:
    return config.numpy_dtype_promotion.value == "strict"


class TypePromotionError(ValueError):
    """Raised when JAX type promotion fails (no implicit promotion between the inputs)."""


def _display(node: str) -> str:
    return _WEAK_NODE_DISPLAY.get(node, node)


@functools.lru_cache(maxsize=512)
def _least_upper_bound(x64: bool, nodes: tuple[str, ...], strict: bool = False) -> str:
    """The least upper bound of ``nodes`` on the (x64 or x32) lattice.

    With UB(n) the upper bounds of n, the common upper bounds are
    CUB = ∩ UB(n); the least one is the c in CUB with CUB ⊆ UB(c). If an input
    is itself a common upper bound, it is that least one.
    """
    ub = _STRICT_UPPER_BOUNDS if strict else _LATTICE_UPPER_BOUNDS[x64]
    distinct = set(nodes)
    common: frozenset[str] = ub[nodes[0]]
    for n in distinct:
        common &= ub[n]
    least: set[str] = set(common & distinct) or {c for c in common if common <= ub[c]}
    if len(least) == 1:
        return next(iter(least))
    shown = tuple(_display(n) for n in nodes)
    if least:
        raise TypePromotionError(
            f"Internal Type Promotion error: {shown} do not have a unique least upper bound "
            f"on the specified lattice; options are {least}. This is an unexpected error in "
            "JAX's internal logic; please report it to the JAX maintainers."
        )
    dtypes_in = {_DTYPE_OF_NODE[n] for n in distinct if n not in _WEAK_NODES}
    prefix = f"Input dtypes {shown} have no available implicit dtype promotion path."
    if strict:
        raise TypePromotionError(
            f"{prefix[:-1]} when jax_numpy_dtype_promotion=strict. Try explicitly casting inputs "
            "to the desired output type, or set jax_numpy_dtype_promotion=standard."
        )
    narrow: str | None = None
    if dtypes_in & FLOAT8_DTYPES:
        narrow = "8-bit floats do not"
    elif dtypes_in & FLOAT6_DTYPES:
        narrow = "6-bit floats do not"
    elif dtypes_in & FLOAT4_DTYPES:
        narrow = "4-bit floats do not"
    if narrow is not None:
        raise TypePromotionError(
            f"{prefix} To avoid unintended promotion, {narrow} support "
            "implicit promotion. If you'd like your inputs to be promoted to another type, "
            "you can do so explicitly using e.g. x.astype('float32')"
        )
    if dtypes_in & INTN_DTYPES:
        raise TypePromotionError(
            f"{prefix} To avoid unintended promotion, 1-bit, 2-bit and 4-bit integers do "
            "not support implicit promotion. If you'd like your inputs to be promoted to "
            "another type, you can do so explicitly using e.g. x.astype('int32')"
        )
    raise TypePromotionError(f"{prefix} Try explicitly casting inputs to the desired output type.")


def _strong_node(dt: DType) -> str:
    node = _NODE_OF_DTYPE.get(dt)
    if node is None:
        raise ValueError(f"dtype={dt!r} is not a valid dtype for JAX type promotion.")
    return node


def _node(dt: DType, weak: bool) -> str:
    """The lattice node of a ``(dtype, weak_type)`` pair."""
    if not weak or dt == np.dtype(bool):
        return _strong_node(dt)
    if dt in CUSTOM_FLOAT_DTYPES:
        return _WEAK_FLOAT
    if dt in INTN_DTYPES:
        return _WEAK_INT
    kind_node = {"i": _WEAK_INT, "u": _WEAK_INT, "f": _WEAK_FLOAT, "c": _WEAK_COMPLEX}.get(dt.kind)
    if kind_node is None:
        raise ValueError(f"dtype={dt!r} is not a valid dtype for JAX type promotion.")
    return kind_node


def promote_types(a: DTypeLike, b: DTypeLike) -> DType:
    """The dtype a binary operation casts ``a`` and ``b`` to (``jnp.promote_types``).

    The Python types ``int``, ``float`` and ``complex`` are weak: they do not widen
    a strong operand (``promote_types('uint8', int)`` is uint8). The result is not
    canonicalized for x64 mode (``promote_types(int, float)`` is float64), but with
    x64 off the lattice never forms a 64-bit type from narrower inputs.
    Raises ``TypePromotionError`` when there is no implicit promotion.
    """
    nodes = tuple(
        _WEAK_NODE_OF_TYPE[t]
        if (t := _weak_python_type(x)) is not None
        else _strong_node(np.dtype(x))
        for x in (a, b)
    )
    return _node_dtype(_least_upper_bound(config.enable_x64.value, nodes, _strict()))


def _weak_python_type(x: object) -> type[Any] | None:
    # Identity, not equality: NumPy makes `np.dtype("int64") == int` true.
    for t in WEAK_PYTHON_TYPES:
        if x is t:
            return t
    return None


def _node_dtype(node: str) -> DType:
    """The (uncanonicalized) dtype of a lattice node."""
    weak = _WEAK_NODE_DTYPE.get(node)
    return weak if weak is not None else _DTYPE_OF_NODE[node]


def lattice_result_type(*pairs: tuple[DType, bool]) -> tuple[DType, bool]:
    """Promotes ``(dtype, weak_type)`` pairs on the lattice; returns ``(dtype, weak_type)``.

    The core's entry point (avals carry dtype and weak_type). Unlike ``result_type``
    a weak result keeps its dtype (two weak int16 give weak int16); a result that
    is a weak lattice node gets the canonical dtype of its kind. bool is never weak.
    Identical dtypes (extended ones included) promote trivially.
    """
    if not pairs:
        raise ValueError("at least one array or dtype is required")
    dtypes = [d for d, _ in pairs]
    weaks = [w for _, w in pairs]
    out_weak: bool
    if len(pairs) == 1:
        out_dtype, out_weak = pairs[0]
    elif all(d == dtypes[0] for d in dtypes) and not all(weaks):
        out_dtype, out_weak = dtypes[0], False
    else:
        x64 = config.enable_x64.value
        strict = _strict()
        if all(weaks) and not strict:
            # All weak: promote the strong counterparts, then make the result weak.
            # (Promoting the weak nodes would widen e.g. weak int16 to int32.)
            nodes = tuple(dict.fromkeys(_strong_node(d) for d in dtypes))
            out_dtype = _node_dtype(_least_upper_bound(x64, nodes))
            out_weak = True
        else:
            nodes = tuple(dict.fromkeys(_node(d, w) for d, w in pairs))
            lub = _least_upper_bound(x64, nodes, strict)
            out_dtype, out_weak = _node_dtype(lub), lub in _WEAK_NODES
        out_dtype = canonicalize_dtype(out_dtype)
    return out_dtype, out_weak and out_dtype != np.dtype(bool)


def _dtype_and_weak_type(value: object) -> tuple[DType, bool]:
    weak = _weak_python_type(value) is not None or is_weakly_typed(value)
    return dtype(value, canonicalize=True), weak


@overload
def result_type(*args: Any, return_weak_type_flag: Literal[True]) -> tuple[DType, bool]: ...
@overload
def result_type(*args: Any, return_weak_type_flag: Literal[False] = False) -> DType: ...
@overload
def result_type(*args: Any, return_weak_type_flag: bool = False) -> DType | tuple[DType, bool]: ...
def result_type(*args: Any, return_weak_type_flag: bool = False) -> DType | tuple[DType, bool]:
    """The dtype of the result of an operation on ``args`` (``jax.numpy.result_type``).

    Arguments may be values (arrays, Python and NumPy scalars), dtypes or type
    specifiers; ``None`` stands for the default float dtype. Python scalars and
    the types ``int``/``float``/``complex`` are weak. The result is canonical for
    x64 mode (``result_type(1.0)`` is float32 with x64 off), and a weak result is
    the default dtype of its kind. With ``return_weak_type_flag`` the result is a
    ``(dtype, weak_type)`` pair.
    """
    if not args:
        raise ValueError("at least one array or dtype is required")
    pairs = [_dtype_and_weak_type(default_float_dtype() if arg is None else arg) for arg in args]
    out_dtype, weak = lattice_result_type(*pairs)
    if weak:
        kind = "f" if out_dtype in CUSTOM_FLOAT_DTYPES else _kind_of(out_dtype)
        out_dtype = default_types[kind]()
    return (out_dtype, weak) if return_weak_type_flag else out_dtype


def _kind_of(dt: DType) -> str:
    """The dtype's kind character, with ml_dtypes' sub-byte integers as 'i'/'u'."""
    if dt in INTN_DTYPES:
        return "i" if dt.type in SIGNED_INTN_SCALAR_TYPES else "u"
    return dt.kind


def safe_to_cast(input_dtype_or_value: Any, output_dtype_or_value: Any) -> bool:
    """Whether casting to the output dtype is what default promotion would give.

    ``safe_to_cast('int16', 'float32')`` is True; ``safe_to_cast('float32', 'int16')``
    is False. Raises ``TypePromotionError`` where promotion itself fails.
    """
    input_dtype = dtype(input_dtype_or_value, canonicalize=True)
    output_dtype = dtype(output_dtype_or_value, canonicalize=True)
    if input_dtype == output_dtype:
        return True
    return result_type(input_dtype_or_value, output_dtype) == output_dtype
