"""The shape rules: one small function per family of operations, and one table entry per
operation naming its rule. A rule sees the call's operands (shapes of arrays, kinds of Python
scalars, values known statically) and answers the result's shape and, when the operands certainly
cannot go together, what is wrong. An unknown operand never makes an error: it makes an unknown
result. No mypy import: every rule is plain data in, plain data out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Final

from jax_core.mypy_plugin import _shape_manipulation as m
from jax_core.mypy_plugin._shape_operands import (
    Call,
    Result,
    Rule,
    ShapeError,
    axes_of,
    dims_of,
    dtype_of,
    fixed_dims,
    shapes_text,
)
from jax_core.mypy_plugin._shape_spec import Dim, Shape, Star, differ, format_dim, promote, same
from jax_core.mypy_plugin._shape_types import UNKNOWN

# ---- elementwise and broadcasting -----------------------------------------------------------


def broadcast(shapes: Sequence[Shape | None], what: str) -> tuple[Dim, ...] | None:
    """NumPy broadcasting, right-aligned; a variadic run on the left is kept."""
    dims = [dims_of(s) for s in shapes]
    if any(d is None for d in dims):
        return None
    known = [d for d in dims if d is not None]
    lead: list[tuple[Dim, ...]] = []
    tails: list[tuple[Dim, ...]] = []
    for dims_ in known:
        star = next((i for i, x in enumerate(dims_) if isinstance(x, Star)), None)
        if star is None:
            tails.append(dims_)
        else:
            lead.append(dims_[: star + 1])
            tails.append(dims_[star + 1 :])
    width = max((len(t) for t in tails), default=0)
    out: list[Dim] = []
    for k in range(1, width + 1):
        column = [t[-k] for t in tails if len(t) >= k]
        result: Dim = 1
        for d in column:
            if d == 1:
                continue
            if result == 1:
                result = d
            elif differ(result, d):
                raise ShapeError(
                    f"{what}: cannot broadcast {shapes_text(shapes)}: {format_dim(result)} != {format_dim(d)}"
                )
            elif not same(result, d):
                result = None
        out.append(result)
    out.reverse()
    if lead:
        stars = {t for t in lead}
        if len(stars) != 1:
            return None
        prefix = next(iter(stars))
        if len(prefix) > 1 or any(len(t) > width for t in tails):
            return None
        return (*prefix, *out)
    return tuple(out)


def elementwise(call: Call, *, n: int, result: str | None = None, floating: bool = False) -> Result:
    """``n`` operands broadcast together; the dtype promotes, or is ``result`` (comparisons:
    ``Bool``), or is floating (``sqrt`` of an ``Int`` is a ``Float``)."""
    named = [call.get(i, name) for i, name in enumerate(("x", "y", "z")[:n])]
    ops = [o for o in named if o is not None] or call.args[:n]
    arrays = [o.shape for o in ops if o.shape is not None]
    if not arrays:
        return None
    if any(o.shape is None and o.scalar is None for o in ops):
        return None  # a non-array, non-scalar operand: not ours to judge
    dims = broadcast(arrays, call.name)
    dtype = result or dtype_of(ops)
    if floating and dtype not in ("Shaped",) and dtype[0] in "IUB":
        dtype = "Float"
    return Shape(dtype, dims)


def where(call: Call) -> Result:
    """``where(condition, x, y)``: the three broadcast together; the dtype is x's and y's."""
    ops = [call.get(i, n) for i, n in enumerate(("condition", "x", "y"))]
    if any(o is None for o in ops):
        return None
    present = [o for o in ops if o is not None]
    if any(o.shape is None and o.scalar is None for o in present):
        return None
    dims = broadcast([o.shape for o in present if o.shape is not None], call.name)
    return Shape(dtype_of(present[1:]), dims)


# ---- contractions ---------------------------------------------------------------------------


def matmul(call: Call) -> Result:
    """``a @ b``: the contracted dimensions agree; batch dimensions broadcast."""
    a, b = call.get(0, "a"), call.get(1, "b")
    if a is None or b is None or a.shape is None or b.shape is None:
        return None
    da, db = dims_of(a.shape), dims_of(b.shape)
    dtype = promote(a.shape.dtype, b.shape.dtype)
    if da is None or db is None:
        return Shape(dtype, None)
    if len(da) == 0 or len(db) == 0:
        raise ShapeError(f"{call.name} of {a.shape} and {b.shape}: operands must not be scalars")
    if isinstance(da[-1], Star) or isinstance(db[0 if len(db) == 1 else -2], Star):
        return Shape(dtype, None)
    k_a, k_b = da[-1], db[0] if len(db) == 1 else db[-2]
    if differ(k_a, k_b):
        raise ShapeError(
            f"{call.name} of {a.shape} and {b.shape}: {format_dim(k_a)} != {format_dim(k_b)}"
        )
    if len(da) == 1 and len(db) == 1:
        return Shape(dtype, ())
    if len(da) == 1:
        return Shape(dtype, (*db[:-2], db[-1]))
    if len(db) == 1:
        return Shape(dtype, da[:-1])
    batch = broadcast([Shape(dims=da[:-2]), Shape(dims=db[:-2])], call.name)
    if batch is None:
        return Shape(dtype, None)
    return Shape(dtype, (*batch, da[-2], db[-1]))


def dot(call: Call) -> Result:
    """``dot(a, b)``: ``matmul`` for rank <= 2; otherwise a's last against b's second-to-last."""
    a, b = call.get(0, "a"), call.get(1, "b")
    if a is None or b is None or a.shape is None or b.shape is None:
        return None
    fa, fb = fixed_dims(a.shape), fixed_dims(b.shape)
    if fa is None or fb is None or (len(fa) <= 2 and len(fb) <= 2):
        if fa is not None and fb is not None and (len(fa) == 0 or len(fb) == 0):
            return Shape(promote(a.shape.dtype, b.shape.dtype), fa or fb)
        return matmul(call)
    last_a: Dim = list(fa)[-1]
    k_b = fb[0] if len(fb) == 1 else fb[-2]
    if differ(last_a, k_b):
        raise ShapeError(
            f"{call.name} of {a.shape} and {b.shape}: {format_dim(last_a)} != {format_dim(k_b)}"
        )
    rest_b: tuple[Dim, ...] = () if len(fb) == 1 else (*fb[:-2], fb[-1])
    return Shape(promote(a.shape.dtype, b.shape.dtype), (*fa[:-1], *rest_b))


def einsum(call: Call) -> Result:
    """``einsum("bn,nm->bm", x, w)``: every letter is one size across the operands."""
    spec = call.args[0].value if call.args else UNKNOWN
    if not isinstance(spec, str) or "." in spec:
        return None
    operands = call.args[1:]
    inputs, arrow, output = spec.replace(" ", "").partition("->")
    terms = inputs.split(",")
    if len(terms) != len(operands):
        raise ShapeError(
            f"einsum {spec!r}: {len(terms)} operand subscripts for {len(operands)} operands"
        )
    sizes: dict[str, Dim] = {}
    seen_in: dict[str, int] = {}
    for k, (term, op) in enumerate(zip(terms, operands, strict=True)):
        dims = fixed_dims(op.shape)
        if op.shape is None or dims is None:
            continue
        if len(term) != len(dims):
            raise ShapeError(
                f"einsum {spec!r}: subscripts {term!r} for {op.shape} of rank {len(dims)}"
            )
        for letter, d in zip(term, dims, strict=True):
            if letter in sizes and differ(sizes[letter], d) and d != 1 and sizes[letter] != 1:
                raise ShapeError(
                    f"einsum {spec!r}: {letter!r} is {format_dim(sizes[letter])} in operand "
                    f"{seen_in[letter]} ({operands[seen_in[letter]].shape}) but {format_dim(d)} in "
                    f"operand {k} ({op.shape})"
                )
            if letter not in sizes or sizes[letter] == 1:
                sizes[letter] = d
                seen_in[letter] = k
    if not arrow:
        letters = "".join(terms)
        output = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    dtype = dtype_of(operands)
    if any(op.shape is None or fixed_dims(op.shape) is None for op in operands):
        return Shape(dtype, None)
    return Shape(dtype, tuple(sizes.get(c) for c in output))


# ---- reductions and axis functions ------------------------------------------------------------


def reduction(
    call: Call, *, dtype: str | None = None, floating: bool = False, single_axis: bool = False
) -> Result:
    """``sum(x, axis, keepdims)`` and its kin: the axes go (or become 1)."""
    x = call.get(0, "a")
    if x is None or x.shape is None:
        return None
    out_dtype = dtype or x.shape.dtype
    if floating and out_dtype[0] in "IUB":
        out_dtype = "Float"
    axis = call.value(1, "axis", None)
    keepdims = call.value(2 if single_axis else 3, "keepdims", False)
    dims = dims_of(x.shape)
    if dims is None:
        return Shape(out_dtype, None)
    fixed = fixed_dims(x.shape)
    if fixed is None:
        # a variadic run: only negative axes, counted from the right, are known
        if (
            isinstance(axis, int)
            and not isinstance(axis, bool)
            and axis < 0
            and -axis
            <= len(dims)
            - 1
            - dims.index(
                Star(None) if Star(None) in dims else next(d for d in dims if isinstance(d, Star))
            )
        ):
            j = len(dims) + axis
            return Shape(out_dtype, dims[:j] + ((1,) if keepdims is True else ()) + dims[j + 1 :])
        return Shape(out_dtype, None)
    axes = axes_of(axis, len(fixed))
    if axes is None or not isinstance(keepdims, bool):
        return Shape(out_dtype, None)
    kept = (
        [1 if i in axes else d for i, d in enumerate(fixed)]
        if keepdims
        else [d for i, d in enumerate(fixed) if i not in axes]
    )
    return Shape(out_dtype, tuple(kept))


def same_shape(call: Call, *, dtype: str | None = None, floating: bool = False) -> Result:
    """An operation that keeps its operand's shape (``softmax(x, axis)``, ``cumsum``, ``sort``),
    checking ``axis`` is in range when the rank is known."""
    x = call.args[0] if call.args else call.kwargs.get("x", call.kwargs.get("a"))
    if x is None or x.shape is None:
        return None
    fixed = fixed_dims(x.shape)
    axis = call.kwargs["axis"].value if "axis" in call.kwargs else UNKNOWN
    if fixed is not None and axis is not UNKNOWN:
        axes_of(axis, len(fixed))
    out = dtype or x.shape.dtype
    if floating and out[0] in "IUB":
        out = "Float"
    return Shape(out, x.shape.dims)


def _unary(call: Call) -> Result:
    return elementwise(call, n=1)


# ---- the table ------------------------------------------------------------------------------

_UNARY: Final = [
    "negative",
    "positive",
    "abs",
    "absolute",
    "sign",
    "square",
    "conj",
    "conjugate",
    "real",
    "imag",
    "floor",
    "ceil",
    "round",
    "rint",
    "trunc",
    "fix",
    "clip",
    "nan_to_num",
]
_FLOATING: Final = [
    "sin",
    "cos",
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "arcsinh",
    "arccosh",
    "arctanh",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "sqrt",
    "cbrt",
    "reciprocal",
    "deg2rad",
    "rad2deg",
]
_BINARY: Final = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "true_divide",
    "floor_divide",
    "power",
    "float_power",
    "mod",
    "remainder",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "arctan2",
    "hypot",
    "copysign",
    "logaddexp",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "left_shift",
    "right_shift",
]
_COMPARE: Final = [
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "logical_and",
    "logical_or",
    "logical_xor",
    "isclose",
]
_PREDICATE: Final = ["isnan", "isinf", "isfinite", "logical_not", "signbit"]
_REDUCE: Final = [
    "sum",
    "prod",
    "max",
    "min",
    "amax",
    "amin",
    "nansum",
    "nanprod",
    "nanmax",
    "nanmin",
]
_REDUCE_FLOAT: Final = ["mean", "std", "var", "nanmean", "nanstd", "nanvar", "median"]
_NN_SAME: Final = [
    "relu",
    "relu6",
    "gelu",
    "sigmoid",
    "silu",
    "swish",
    "softplus",
    "soft_sign",
    "elu",
    "celu",
    "selu",
    "leaky_relu",
    "hard_tanh",
    "hard_sigmoid",
    "hard_silu",
    "log_sigmoid",
    "tanh",
]

JNP: Final = "jax_core.numpy"
NN: Final = "jax_core.nn"

#: Public name -> rule. Methods of ``Array`` are ``Array.<name>``, with ``self`` as operand 0.
TABLE: Final[Mapping[str, Rule]] = {
    **{f"{JNP}.{n}": _unary for n in _UNARY},
    **{f"{JNP}.{n}": partial(elementwise, n=1, floating=True) for n in _FLOATING},
    **{f"{JNP}.{n}": partial(elementwise, n=2) for n in _BINARY},
    **{f"{JNP}.{n}": partial(elementwise, n=2, result="Bool") for n in _COMPARE},
    **{f"{JNP}.{n}": partial(elementwise, n=1, result="Bool") for n in _PREDICATE},
    f"{JNP}.where": where,
    f"{JNP}.matmul": matmul,
    f"{JNP}.dot": dot,
    f"{JNP}.einsum": einsum,
    **{f"{JNP}.{n}": reduction for n in _REDUCE},
    **{f"{JNP}.{n}": partial(reduction, floating=True) for n in _REDUCE_FLOAT},
    f"{JNP}.any": partial(reduction, dtype="Bool"),
    f"{JNP}.all": partial(reduction, dtype="Bool"),
    f"{JNP}.argmax": partial(reduction, dtype="Int", single_axis=True),
    f"{JNP}.argmin": partial(reduction, dtype="Int", single_axis=True),
    **{f"{JNP}.{n}": same_shape for n in ("cumsum", "cumprod", "sort", "flip", "roll")},
    f"{JNP}.argsort": partial(same_shape, dtype="Int"),
    f"{JNP}.reshape": m.reshape,
    f"{JNP}.transpose": m.transpose,
    f"{JNP}.swapaxes": m.swapaxes,
    f"{JNP}.moveaxis": m.moveaxis,
    f"{JNP}.expand_dims": m.expand_dims,
    f"{JNP}.squeeze": m.squeeze,
    f"{JNP}.concatenate": m.concatenate,
    f"{JNP}.stack": m.stack,
    **{f"{JNP}.{n}": m.creation for n in ("zeros", "ones", "empty")},
    f"{JNP}.full": partial(m.creation, fill=True),
    **{f"{JNP}.{n}": m.like for n in ("zeros_like", "ones_like", "empty_like", "full_like")},
    **{f"{NN}.{n}": partial(elementwise, n=1, floating=True) for n in _NN_SAME},
    **{
        f"{NN}.{n}": partial(same_shape, floating=True)
        for n in ("softmax", "log_softmax", "standardize")
    },
    f"{NN}.logsumexp": partial(reduction, floating=True),
    "jax_core.scipy.special.logsumexp": partial(reduction, floating=True),
}

#: ``Array`` methods and operators -> (rule, name for messages).
METHODS: Final[Mapping[str, Rule]] = {
    **{
        f"__{op}__": partial(elementwise, n=2)
        for op in [
            "add",
            "radd",
            "sub",
            "rsub",
            "mul",
            "rmul",
            "truediv",
            "rtruediv",
            "floordiv",
            "rfloordiv",
            "pow",
            "rpow",
            "mod",
            "rmod",
            "and",
            "rand",
            "or",
            "ror",
            "xor",
            "rxor",
        ]
    },
    **{
        f"__{op}__": partial(elementwise, n=2, result="Bool")
        for op in ["lt", "le", "gt", "ge", "eq", "ne"]
    },
    **{f"__{op}__": partial(elementwise, n=1) for op in ["neg", "pos", "abs", "invert"]},
    "__matmul__": matmul,
    "__rmatmul__": lambda c: (
        matmul(Call(c.name, [c.args[1], c.args[0]])) if len(c.args) == 2 else None
    ),
    "__getitem__": m.getitem,
    **{n: reduction for n in ("sum", "prod", "max", "min")},
    **{n: partial(reduction, floating=True) for n in ("mean", "std", "var")},
    "any": partial(reduction, dtype="Bool"),
    "all": partial(reduction, dtype="Bool"),
    "argmax": partial(reduction, dtype="Int", single_axis=True),
    "argmin": partial(reduction, dtype="Int", single_axis=True),
    "cumsum": same_shape,
    "reshape": m.reshape,
    "transpose": m.transpose,
    "swapaxes": m.swapaxes,
    "squeeze": m.squeeze,
    "astype": m.astype,
}
