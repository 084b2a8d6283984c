"""Shape rules of the operations that rearrange dimensions: reshape, transposes, joining,
rank changes, creation from a shape, indexing. No mypy import."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from jax_core.mypy_plugin._shape_operands import (
    Call,
    Operand,
    Result,
    ShapeError,
    axes_of,
    axis_index,
    dims_of,
    dtype_of,
    fixed_dims,
    shapes_text,
)
from jax_core.mypy_plugin._shape_spec import Dim, Shape, Star, differ, format_dim, same
from jax_core.mypy_plugin._shape_types import UNKNOWN, Static, Sym, items_of, tuple_items


def _size(dims: Sequence[Dim]) -> int | None:
    n = 1
    for d in dims:
        if not isinstance(d, int):
            return None
        n *= d
    return n


def _new_shape(value: Static) -> tuple[Dim, ...] | None:
    """A shape argument: an int, or a tuple of ints and dimensions taken from shapes."""
    out: list[Dim] = []
    for v in items_of(value):
        if isinstance(v, Sym):
            out.append(int(v) if v.isdigit() else str(v))
        elif isinstance(v, int) and not isinstance(v, bool):
            out.append(v)
        else:
            return None
    return tuple(out)


def reshape(call: Call) -> Result:
    """``reshape(x, (b, -1))``: sizes known on both sides must have the same product."""
    x = call.get(0, "a")
    if x is None or x.shape is None:
        return None
    if len(call.args) > 2 and all(isinstance(a.value, (int, Sym)) for a in call.args[1:]):
        target = _new_shape(tuple(a.value for a in call.args[1:]))
    else:
        target = _new_shape(call.value(1, "shape", UNKNOWN))
    if target is None:
        return Shape(x.shape.dtype, None)
    source = fixed_dims(x.shape)
    if target.count(-1) > 1:
        raise ShapeError(f"reshape to {target}: can only specify one unknown dimension")
    if source is not None:
        total = _size(source)
        known = _size([d for d in target if d != -1])
        if total is not None and known is not None:
            if -1 in target:
                if known == 0 or total % known:
                    raise ShapeError(
                        f"cannot reshape {x.shape} (size {total}) into {_tuple(target)}"
                    )
                target = tuple(total // known if d == -1 else d for d in target)
            elif total != known:
                raise ShapeError(f"cannot reshape {x.shape} (size {total}) into {_tuple(target)}")
        elif -1 in target:
            rest = [d for d in source if not any(same(d, t) for t in target)]
            target = tuple((rest[0] if len(rest) == 1 else None) if d == -1 else d for d in target)
    else:
        target = tuple(None if d == -1 else d for d in target)
    return Shape(x.shape.dtype, target)


def _tuple(dims: Sequence[Dim]) -> str:
    return "(" + ", ".join(format_dim(d) for d in dims) + ("," if len(dims) == 1 else "") + ")"


def transpose(call: Call) -> Result:
    """``transpose(x, axes)`` (reversed without ``axes``), ``x.T``."""
    x = call.get(0, "a")
    if x is None or x.shape is None:
        return None
    fixed = fixed_dims(x.shape)
    if fixed is None:
        return Shape(x.shape.dtype, None)
    if len(call.args) > 2 and all(isinstance(a.value, int) for a in call.args[1:]):
        axes: Static = tuple(a.value for a in call.args[1:])
    else:
        axes = call.value(1, "axes", None)
    if axes is None or axes == ():
        return Shape(x.shape.dtype, tuple(reversed(fixed)))
    entries = tuple_items(axes)
    if entries is None:
        return Shape(x.shape.dtype, None)
    perm = [axis_index(a, len(fixed)) for a in entries]
    if len(perm) != len(fixed):
        raise ShapeError(f"transpose of {x.shape}: axes {axes} don't match the rank {len(fixed)}")
    if any(p is None for p in perm):
        return Shape(x.shape.dtype, None)
    return Shape(x.shape.dtype, tuple(fixed[p] for p in perm if p is not None))


def swapaxes(call: Call) -> Result:
    x = call.get(0, "a")
    if x is None or x.shape is None or (fixed := fixed_dims(x.shape)) is None:
        return None if x is None or x.shape is None else Shape(x.shape.dtype, None)
    i, j = (
        axis_index(call.value(1, "axis1", UNKNOWN), len(fixed)),
        axis_index(call.value(2, "axis2", UNKNOWN), len(fixed)),
    )
    if i is None or j is None:
        return Shape(x.shape.dtype, None)
    out = list(fixed)
    out[i], out[j] = out[j], out[i]
    return Shape(x.shape.dtype, tuple(out))


def moveaxis(call: Call) -> Result:
    x = call.get(0, "a")
    if x is None or x.shape is None or (fixed := fixed_dims(x.shape)) is None:
        return None if x is None or x.shape is None else Shape(x.shape.dtype, None)
    src, dst = call.value(1, "source", UNKNOWN), call.value(2, "destination", UNKNOWN)
    i, j = axis_index(src, len(fixed)), axis_index(dst, len(fixed))
    if i is None or j is None:
        return Shape(x.shape.dtype, None)
    out = list(fixed)
    out.insert(j, out.pop(i))
    return Shape(x.shape.dtype, tuple(out))


def expand_dims(call: Call) -> Result:
    x = call.get(0, "a")
    if x is None or x.shape is None or (fixed := fixed_dims(x.shape)) is None:
        return None if x is None or x.shape is None else Shape(x.shape.dtype, None)
    axis = call.value(1, "axis", UNKNOWN)
    axes = items_of(axis)
    rank = len(fixed) + len(axes)
    where_ = [axis_index(a, rank) for a in axes]
    if any(w is None for w in where_):
        return Shape(x.shape.dtype, None)
    rest = iter(fixed)
    return Shape(x.shape.dtype, tuple(1 if i in where_ else next(rest) for i in range(rank)))


def squeeze(call: Call) -> Result:
    x = call.get(0, "a")
    if x is None or x.shape is None or (fixed := fixed_dims(x.shape)) is None:
        return None if x is None or x.shape is None else Shape(x.shape.dtype, None)
    axis = call.value(1, "axis", None)
    if axis is None:
        if all(isinstance(d, int) for d in fixed):
            return Shape(x.shape.dtype, tuple(d for d in fixed if d != 1))
        return Shape(x.shape.dtype, None)
    axes = axes_of(axis, len(fixed))
    if axes is None:
        return Shape(x.shape.dtype, None)
    for a in axes:
        if differ(fixed[a], 1):
            raise ShapeError(
                f"squeeze of {x.shape}: dimension {a} is {format_dim(fixed[a])}, not 1"
            )
    return Shape(x.shape.dtype, tuple(d for i, d in enumerate(fixed) if i not in axes))


def _listed(call: Call) -> tuple[Operand, ...] | None:
    arrays = call.get(0, "arrays")
    return None if arrays is None else arrays.items


def concatenate(call: Call) -> Result:
    """``concatenate([a, b], axis)``: all dimensions but ``axis`` agree; ``axis`` adds up."""
    items = _listed(call)
    if not items or any(o.shape is None for o in items):
        return None
    dtype = dtype_of(items)
    dims = [fixed_dims(o.shape) for o in items]
    if any(d is None for d in dims):
        return Shape(dtype, None)
    known = [d for d in dims if d is not None]
    rank = len(known[0])
    for d in known:
        if len(d) != rank:
            raise ShapeError(
                f"{call.name}: all inputs must have the same rank; got {shapes_text([x.shape for x in items])}"
            )
    axis = axis_index(call.value(1, "axis", 0), rank) if rank else None
    if axis is None:
        return Shape(dtype, None)
    out: list[Dim] = []
    for i in range(rank):
        column = [d[i] for d in known]
        if i == axis:
            out.append(_sum(column))
            continue
        for c in column[1:]:
            if differ(column[0], c):
                raise ShapeError(
                    f"{call.name} along axis {axis}: {shapes_text([x.shape for x in items])} differ in dimension {i}"
                )
        out.append(column[0] if all(same(column[0], c) for c in column) else None)
    return Shape(dtype, tuple(out))


def _sum(column: Sequence[Dim]) -> Dim:
    if all(isinstance(c, int) for c in column):
        return sum(c for c in column if isinstance(c, int))
    if all(isinstance(c, (int, str)) for c in column):
        return "+".join(str(c) for c in column)
    return None


def stack(call: Call) -> Result:
    """``stack([a, b], axis)``: all operands have one shape; a new dimension of their count."""
    items = _listed(call)
    if not items or any(o.shape is None for o in items):
        return None
    dims = [fixed_dims(o.shape) for o in items]
    dtype = dtype_of(items)
    if any(d is None for d in dims):
        return Shape(dtype, None)
    known = [d for d in dims if d is not None]
    for d in known[1:]:
        if len(d) != len(known[0]) or any(map(differ, known[0], d)):
            raise ShapeError(
                f"{call.name}: all input arrays must have the same shape; got {shapes_text([x.shape for x in items])}"
            )
    axis = axis_index(call.value(1, "axis", 0), len(known[0]) + 1)
    if axis is None:
        return Shape(dtype, None)
    base = list(known[0])
    base.insert(axis, len(items))
    return Shape(dtype, tuple(base))


def creation(call: Call, *, fill: bool = False) -> Result:
    """``zeros((b, n))``, ``full(shape, value)``: the shape argument's dimensions."""
    dims = _new_shape(call.value(0, "shape", UNKNOWN))
    value = call.value(0, "shape", UNKNOWN)
    if dims is None or not any(isinstance(v, Sym) for v in items_of(value)):
        return None  # sizes written as numbers: an unannotated value stays shape-unknown
    dtype = _dtype_value(call.value(2 if fill else 1, "dtype", None))
    if fill and dtype is None:
        value = call.get(1, "fill_value")
        dtype = (
            value.shape.dtype
            if value is not None and value.shape is not None
            else {"int": "Int", "float": "Float", "bool": "Bool", "complex": "Complex"}.get(
                value.scalar or ""
            )
            if value is not None
            else None
        )
    return Shape(dtype or "Float", dims)


def like(call: Call) -> Result:
    """``zeros_like(x)``: x's shape (and dtype unless given)."""
    x = call.get(0, "a")
    if x is None or x.shape is None:
        return None
    shape = _new_shape(call.kwargs["shape"].value) if "shape" in call.kwargs else x.shape.dims
    return Shape(_dtype_value(call.value(99, "dtype", None)) or x.shape.dtype, shape)


_DTYPE_NAMES: Final = {
    "bool": "Bool",
    "bool_": "Bool",
    "int8": "Int8",
    "int16": "Int16",
    "int32": "Int32",
    "int64": "Int64",
    "uint8": "UInt8",
    "uint16": "UInt16",
    "uint32": "UInt32",
    "uint64": "UInt64",
    "float16": "Float16",
    "bfloat16": "BFloat16",
    "float32": "Float32",
    "float64": "Float64",
    "complex64": "Complex64",
    "complex128": "Complex128",
}


def _dtype_value(v: Static) -> str | None:
    return _DTYPE_NAMES.get(v) if isinstance(v, str) else None


def astype(call: Call) -> Result:
    x = call.get(0, "x")
    if x is None or x.shape is None:
        return None
    return Shape(_dtype_value(call.value(1, "dtype", None)) or "Shaped", x.shape.dims)


def getitem(call: Call) -> Result:
    """``x[i, :, None, ...]``: integers drop a dimension, full slices keep it, ``None`` adds one,
    ``...`` stands for the rest; array indices make the result unknown."""
    x = call.args[0] if call.args else None
    if x is None or x.shape is None or len(call.args) < 2:
        return None
    index = call.args[1]
    parts = index.items if index.items is not None else (index,)
    dims = dims_of(x.shape)
    if dims is None:
        return Shape(x.shape.dtype, None)
    kinds: list[str] = []
    for p in parts:
        if p.shape is not None or p.value is UNKNOWN:
            return Shape(x.shape.dtype, None)
        kinds.append(
            "int" if isinstance(p.value, int) and not isinstance(p.value, bool) else str(p.value)
        )
    if kinds.count("...") > 1:
        raise ShapeError("an index can only have a single ellipsis ('...')")
    consumed = sum(k in ("int", "slice", "part") for k in kinds)
    fixed = fixed_dims(x.shape)
    if fixed is not None and consumed > len(fixed):
        raise ShapeError(
            f"too many indices for {x.shape}: {consumed} indices for rank {len(fixed)}"
        )
    if fixed is None and "..." not in kinds:
        kinds.append("...")
    if "..." not in kinds:
        kinds.append("...")
    e = kinds.index("...")
    head, tail = kinds[:e], kinds[e + 1 :]
    n_head = sum(k in ("int", "slice", "part") for k in head)
    n_tail = sum(k in ("int", "slice", "part") for k in tail)
    if fixed is None:
        star = next(i for i, d in enumerate(dims) if isinstance(d, Star))
        if n_head > star or n_tail > len(dims) - star - 1:
            return Shape(x.shape.dtype, None)
    middle = dims[n_head : len(dims) - n_tail]
    out = [*_indexed(head, dims[:n_head]), *middle, *_indexed(tail, dims[len(dims) - n_tail :])]
    return Shape(x.shape.dtype, tuple(out))


def _indexed(kinds: Sequence[str], dims: Sequence[Dim]) -> list[Dim]:
    """The dimensions left by index parts (``int``, ``slice``, ``part``, ``None``) over ``dims``."""
    out: list[Dim] = []
    source = iter(dims)
    for kind in kinds:
        if kind == "None":
            out.append(1)
            continue
        d = next(source)
        if kind == "slice":
            out.append(d)
        elif kind == "part":
            out.append(None)
    return out
