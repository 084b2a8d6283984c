"""The declarative table's language, and the calls generated from it.

A table is a block of lines, one public callable each, written like a call::

    sum(a, axis=_|0|-1|(0, 1)|2, keepdims=_|True, dtype=_|jnp.int32)
    reshape(a[6], (3, 2)|(2, -1), order=_|'F')                  -grad
    exp(a)                                                      ~

Positional arguments are array *kinds* (below), optionally with a fixed shape (``f[3, 3]``), or
Python literals; ``|`` separates alternatives, and ``_`` leaves a keyword out. What follows the
closing parenthesis are flags: ``~`` compares floats within a per-dtype ulp tolerance (``~8``: eight
times it), ``-grad``/``-vmap``/``-jit`` leave a transformation out, ``x64`` adds the 64-bit types.

From each line come: a sweep of the first widest kind's dtypes (every other array argument of a
kind with that dtype follows it); empty, 0-d and special-value (0, -0, ±1, ±inf, nan) inputs;
broadcasting pairs, Python and NumPy scalars (weak types) and mixed-dtype pairs when there are two
arrays of one kind; each alternative of each literal and keyword, one at a time; all of it eagerly
and under ``jit``, and the representative ones under ``vmap`` (every array argument batched) and
``grad`` (of the summed real part of the inexact outputs, by the first array argument).
"""

from __future__ import annotations

import ast
import copy
import re
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tests.oracle import client

BASE_SHAPE = (2, 3)
INTS = ("int8", "int16", "int32", "uint8", "uint32")
FLOATS = ("float16", "bfloat16", "float32")
ALL = ("bool", *INTS, *FLOATS, "complex64")


@dataclass(frozen=True)
class Kind:
    dtypes: tuple[str, ...]
    values: str = "any"  # any | pos | unit | small | key


KINDS: dict[str, Kind] = {
    "a": Kind(ALL),  # everything
    "n": Kind(ALL[1:]),  # numbers: no bool
    "r": Kind(ALL[:-1]),  # real: no complex
    "i": Kind(("bool", *INTS)),  # integer-like (bitwise)
    "z": Kind(INTS),  # integers
    "f": Kind((*FLOATS, "complex64")),  # inexact
    "x": Kind(FLOATS),  # real floating
    "s": Kind(("float32",)),  # single (matrices, linalg)
    "c": Kind(("float32", "complex64")),
    "b": Kind(("bool",)),
    "p": Kind(("int8", "int32", "uint8", *FLOATS), "pos"),  # positive
    "u": Kind(FLOATS, "unit"),  # in (-1, 1)
    "k": Kind(("int32",), "small"),  # small non-negative ints: indices, counts, shifts
    "q": Kind(("float32",), "unit"),  # probabilities in (0, 1): values |u|
    "key": Kind(("key",), "key"),  # a PRNG key (random.key(seed))
}

# Ulps allowed where a line says ``~`` (transcendental math: jax_core may reach a value by another
# sequence of XLA operations than JAX, so the last bits may differ, as they do between CPUs).
ULPS = {"float16": 2, "bfloat16": 2, "float32": 8, "float64": 16, "complex64": 8, "complex128": 16}
SCALARS = {"a": "2.5", "n": "2.5", "r": "2.5", "f": "2.5", "x": "2.5", "s": "2.5", "c": "2.5",
           "p": "2.5", "u": "0.5", "q": "0.5", "i": "3", "z": "3", "k": "1", "b": "True"}  # fmt: skip
PROMOTIONS = (("int8", "uint8"), ("int32", "float16"), ("bfloat16", "float16"),
              ("float32", "complex64"), ("bool", "int8"), ("uint32", "int32"), ("int16", "bfloat16"))  # fmt: skip


@dataclass(frozen=True)
class ArrayArg:
    kind: str
    shape: tuple[int, ...] | None  # None: the variant decides


@dataclass(frozen=True)
class Literal:
    choices: tuple[str, ...]  # Python source; "_" leaves a keyword out


@dataclass(frozen=True)
class Entry:
    table: str
    name: str
    args: tuple[ArrayArg | Literal, ...]  # the slots: arrays and choices, in order
    positional: tuple[str, ...]  # each positional argument's source, with SLOT<i>X markers
    options: tuple[tuple[str, Literal], ...]
    flags: frozenset[str]
    ulps: int  # 0: exact

    @property
    def qualname(self) -> str:
        return f"{self.table}.{self.name}"


@dataclass(frozen=True)
class Case:
    """One call: the expression both workers evaluate and the inputs it names."""

    id: str
    module: str
    mode: str  # eager | jit | vmap | grad
    expr: str
    inputs: dict[str, Any] = field(hash=False)
    x64: bool
    ulps: int

    def request(self) -> dict[str, Any]:
        from tests.conformance.runner import encode

        return {"expr": self.expr, "x64": self.x64,
                "inputs": {k: encode(v) for k, v in self.inputs.items()}}  # fmt: skip


# ---------------------------------------------------------------------------------------- parsing


def _choices(node: ast.expr) -> tuple[str, ...]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return (*_choices(node.left), *_choices(node.right))
    return (ast.unparse(node),)


def _array(node: ast.AST) -> ArrayArg | None:
    if isinstance(node, ast.Name) and node.id in KINDS:
        return ArrayArg(node.id, None)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in KINDS:
        dims = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        shape = tuple(int(ast.literal_eval(d)) for d in dims)
        return ArrayArg(node.value.id, () if shape == (-1,) else shape)  # k[-1]: 0-d
    return None


class _Slots(ast.NodeTransformer):
    """Replaces each array kind and each ``|`` choice, at any depth, by a numbered slot."""

    def __init__(self) -> None:
        self.slots: list[ArrayArg | Literal] = []

    def _slot(self, slot: ArrayArg | Literal) -> ast.Name:
        self.slots.append(slot)
        return ast.Name(f"SLOT{len(self.slots) - 1}X")

    def visit_Name(self, node: ast.Name) -> ast.AST:
        arr = _array(node)
        return self._slot(arr) if arr else node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        arr = _array(node)
        return self._slot(arr) if arr else self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        if isinstance(node.op, ast.BitOr):
            return self._slot(Literal(_choices(node)))
        return self.generic_visit(node)


def _expand(call: ast.Call) -> list[ast.Call]:
    """One call per alternative of a ``|`` choice between array kinds (``a[3]|a[3, 3]``)."""
    for node in ast.walk(call):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            alternatives = _choices(node)
            if any(_array(ast.parse(c, mode="eval").body) for c in alternatives):
                return [
                    x
                    for c in alternatives
                    for x in _expand(_replace(call, node, ast.parse(c, mode="eval").body))
                ]
    return [call]


def _replace(call: ast.Call, old: ast.AST, new: ast.expr) -> ast.Call:
    """A copy of ``call`` with ``old`` (a node of it) replaced by ``new``."""
    position = next(i for i, n in enumerate(ast.walk(call)) if n is old)
    twin = copy.deepcopy(call)
    target = next(n for i, n in enumerate(ast.walk(twin)) if i == position)

    class Swap(ast.NodeTransformer):
        def visit(self, node: ast.AST) -> ast.AST:
            return new if node is target else super().visit(node)

    return Swap().visit(twin)  # type: ignore[no-any-return]


def parse(table: str, text: str) -> list[Entry]:
    entries = []
    for raw in text.splitlines():
        line = raw.split("  #")[0].strip()
        if not line:
            continue
        depth, end = 0, -1
        for pos, ch in enumerate(line):
            depth += ch in "([{"
            depth -= ch in ")]}"
            if ch == ")" and depth == 0:
                end = pos
                break
        assert end > 0, f"not a call: {raw!r}"
        parsed = ast.parse(line[: end + 1], mode="eval").body
        assert isinstance(parsed, ast.Call), raw
        flags = frozenset(line[end + 1 :].split())
        ulps = 0
        for flag in flags:
            if m := re.fullmatch(r"~(\d*)", flag):
                ulps = int(m.group(1) or 1)
        for call in _expand(parsed):
            slots = _Slots()
            positional = tuple(ast.unparse(slots.visit(a)) for a in call.args)
            entries.append(Entry(
                table, ast.unparse(call.func), tuple(slots.slots), positional,
                tuple((k.arg or "", Literal(_choices(k.value))) for k in call.keywords),
                flags, ulps,
            ))  # fmt: skip
    return entries


def fill(template: str, texts: Sequence[str]) -> str:
    return re.sub(r"SLOT(\d+)X", lambda m: texts[int(m.group(1))], template)


# ------------------------------------------------------------------------------------- values


_dtype = client.dtype_named


SPECIAL = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -2.5, np.inf, -np.inf, np.nan])


def values(kind: str, dtype: str, shape: tuple[int, ...], seed: str, special: bool = False) -> np.ndarray[Any, Any]:
    rs = np.random.RandomState(zlib.crc32(f"{seed}|{kind}|{dtype}|{shape}".encode()))
    dt = _dtype(dtype)
    style = KINDS[kind].values
    n = int(np.prod(shape))
    if special and dt.kind in "fc":
        x: np.ndarray[Any, Any] = np.resize(SPECIAL, n)
        if dt.kind == "c":
            x = x + 1j * np.resize(SPECIAL[::-1], n)
        return x.astype(dt).reshape(shape)
    if special:
        info = np.iinfo(dt) if dt.kind in "iu" else None
        ext = [0, 1] if info is None else [info.min, info.max, 0, 1, info.max - 1, info.min + 1, 2, 3, 5]
        return np.resize(np.array(ext), n).astype(dt).reshape(shape)
    if dt == np.bool_:
        return (rs.rand(n) < 0.5).reshape(shape)
    if dt.kind in "iu":
        lo, hi = {"pos": (1, 9), "small": (0, 4)}.get(style, (0 if dt.kind == "u" else -5, 11 if dt.kind == "u" else 6))
        return rs.randint(lo, hi, size=n).astype(dt).reshape(shape)
    lo, hi = {"pos": (0.25, 4.0), "unit": (-0.9, 0.9), "small": (0.0, 3.0)}.get(style, (-3.0, 3.0))
    if kind == "q":
        lo, hi = 0.05, 0.95
    real = rs.uniform(lo, hi, size=n)
    if dt.kind == "c":
        return (real + 1j * rs.uniform(lo, hi, size=n)).astype(dt).reshape(shape)
    return real.astype(dt).reshape(shape)


# ----------------------------------------------------------------------------------- variants


@dataclass(frozen=True)
class Variant:
    dtypes: tuple[str | None, ...]  # per argument: an array's dtype, or None for a literal
    shapes: tuple[tuple[int, ...] | None, ...]
    picks: tuple[str, ...]  # per argument: a literal's choice, or a Python scalar for an array
    options: tuple[tuple[str, str], ...]
    special: bool = False
    x64: bool = False
    representative: bool = False  # also run under vmap and grad


def _rep(kind: str) -> str:
    dts = KINDS[kind].dtypes
    return next((d for d in ("float32", "int32") if d in dts), dts[0])


def variants(entry: Entry) -> Iterator[Variant]:
    arrays = [i for i, a in enumerate(entry.args) if isinstance(a, ArrayArg)]
    kinds = {i: entry.args[i].kind for i in arrays}  # type: ignore[union-attr]
    fixed = any(entry.args[i].shape is not None for i in arrays)  # type: ignore[union-attr]
    lead = max(arrays, key=lambda i: len(KINDS[kinds[i]].dtypes), default=None)
    base_opts = tuple((k, lit.choices[0]) for k, lit in entry.options)
    base_picks = tuple(a.choices[0] if isinstance(a, Literal) else "" for a in entry.args)

    def shape_of(i: int, default: tuple[int, ...] = BASE_SHAPE) -> tuple[int, ...] | None:
        arg = entry.args[i]
        if not isinstance(arg, ArrayArg):
            return None
        return arg.shape if arg.shape is not None else default

    def make(dtype_of: dict[int, str], shapes: dict[int, tuple[int, ...]] | None = None, **kw: Any) -> Variant:
        return Variant(
            tuple(dtype_of.get(i) for i in range(len(entry.args))),
            tuple((shapes or {}).get(i, shape_of(i)) for i in range(len(entry.args))),
            kw.pop("picks", base_picks), kw.pop("options", base_opts), **kw,
        )  # fmt: skip

    rep = {i: _rep(kinds[i]) for i in arrays}
    if lead is None:
        yield make({}, representative=True)
        yield from _option_variants(entry, make, {}, base_picks, base_opts)
        return
    # the dtype sweep
    for dt in KINDS[kinds[lead]].dtypes:
        dtype_of = {i: dt if dt in KINDS[kinds[i]].dtypes else rep[i] for i in arrays}
        yield make(dtype_of, representative=dtype_of == rep)
    yield from _option_variants(entry, make, rep, base_picks, base_opts)
    if "x64" in entry.flags:
        wide = {"float32": "float64", "int32": "int64", "complex64": "complex128"}
        yield make({i: wide.get(d, d) for i, d in rep.items()}, x64=True)
    if fixed or KINDS[kinds[lead]].values == "key":
        return
    # shapes: 0-d, empty, special values
    yield make(rep, {i: () for i in arrays})
    yield make(rep, {i: (0,) for i in arrays})
    for i in arrays:
        if any(_dtype(d).kind in "fc" for d in KINDS[kinds[i]].dtypes if d != "key"):
            sp = "float32" if "float32" in KINDS[kinds[i]].dtypes else rep[i]
            yield make({**rep, i: sp}, {j: (9,) for j in arrays}, special=True)
            break
    if len(arrays) < 2:
        return
    first, last = arrays[0], arrays[-1]
    yield make(rep, {j: (2, 1) if j == first else (3,) for j in arrays})
    yield make(rep, {j: () if j == first else BASE_SHAPE for j in arrays})
    same = [i for i in arrays if kinds[i] == kinds[first]]
    if len(same) >= 2:
        for a, b in PROMOTIONS:
            kd = KINDS[kinds[first]].dtypes
            if a in kd and b in kd:
                yield make({**rep, same[0]: a, same[1]: b})
    # Python and NumPy scalars in place of the last array, and of the first
    scalar = SCALARS.get(kinds[last])
    if scalar is None:
        return
    lows = [d for d in ("float16", "bfloat16", "int8", "uint8") if d in KINDS[kinds[first]].dtypes]
    for dt in dict.fromkeys([rep[first], *lows[:2]]):
        for text in dict.fromkeys([scalar, "2" if scalar == "2.5" else scalar]):
            picks = tuple(text if j == last else p for j, p in enumerate(base_picks))
            yield make({**rep, first: dt, last: "scalar"}, picks=picks)
    if scalar == "2.5":
        picks = tuple("np.float32(2.5)" if j == last else p for j, p in enumerate(base_picks))
        yield make({**rep, last: "scalar"}, picks=picks)
    picks = tuple(scalar if j == first else p for j, p in enumerate(base_picks))
    yield make({**rep, first: "scalar"}, picks=picks)


def _option_variants(entry: Entry, make: Any, rep: dict[int, str], picks: tuple[str, ...], opts: tuple[tuple[str, str], ...]) -> Iterator[Variant]:
    for j, arg in enumerate(entry.args):
        if isinstance(arg, Literal):
            for choice in arg.choices[1:]:
                yield make(rep, picks=tuple(choice if k == j else p for k, p in enumerate(picks)), representative=True)
    for j, (key, lit) in enumerate(entry.options):
        for choice in lit.choices[1:]:
            yield make(rep, options=tuple((k, choice if m == j else v) for m, (k, v) in enumerate(opts)), representative=True)


# ---------------------------------------------------------------------------------------- cases


def _render(entry: Entry, names: Sequence[str], v: Variant) -> str:
    args = [fill(p, names) for p in entry.positional]
    opts = [f"{k}={c}" for k, c in v.options if c != "_"]
    if entry.table == "Array":  # x0.name(rest) or, for a property, x0.name
        head, rest = args[0], args[1:]
        if "prop" in entry.flags:
            return f"{head}.{entry.name}"
        return f"{head}.{entry.name}({', '.join(rest + opts)})"
    if entry.table == "at":  # x0.at[index].name(rest)
        head, index, rest = args[0], args[1], args[2:]
        return f"{head}.at[{index}].{entry.name}({', '.join(rest + opts)})"
    return f"{entry.table}.{entry.name}({', '.join(args + [a for a in opts])})"


def _describe(entry: Entry, v: Variant) -> str:
    parts = []
    for dt, shape, pick in zip(v.dtypes, v.shapes, v.picks, strict=True):
        if dt is None or dt == "scalar":
            parts.append(pick)
        elif dt == "key":
            parts.append("key")
        else:
            parts.append(f"{dt}[{','.join(map(str, shape or ()))}]" + ("!" if v.special else ""))
    parts += [f"{k}={c}" for k, c in v.options if c != "_"]
    return f"{entry.qualname}({', '.join(parts)})" + (" x64" if v.x64 else "")


def cases(entry: Entry, module: str, modes: Sequence[str] = ("eager", "jit", "vmap", "grad")) -> Iterator[Case]:
    seed = f"{entry.qualname}"
    for v in variants(entry):
        names, inputs, batched = [], {}, {}
        for i, (dt, shape, pick) in enumerate(zip(v.dtypes, v.shapes, v.picks, strict=True)):
            if dt is None or dt == "scalar":
                names.append(pick)
                continue
            names.append(f"x{i}")
            kind = entry.args[i].kind  # type: ignore[union-attr]
            if dt == "key":
                inputs[f"x{i}"] = f"random.key({i})"
                batched[f"x{i}"] = f"random.split(random.key({i + 7}), 2)"
                continue
            assert shape is not None
            inputs[f"x{i}"] = values(kind, dt, shape, f"{seed}|{i}", v.special)
            batched[f"x{i}"] = values(kind, dt, (2, *shape), f"{seed}|{i}|batch", v.special)
        call = _render(entry, names, v)
        arrays = [n for n in names if n.startswith("x") and n[1:].isdigit()]
        lam = f"lambda {', '.join(arrays)}: {call}"
        ident = _describe(entry, v)

        def bind(values_: dict[str, Any]) -> tuple[str, dict[str, Any]]:
            exprs = [values_[n] if isinstance(values_[n], str) else f"i_{n}" for n in arrays]
            return ", ".join(exprs), {f"i_{n}": x for n, x in values_.items() if not isinstance(x, str)}

        args_text, data = bind(inputs)
        yield Case(ident, module, "eager", f"({lam})({args_text})", data, v.x64, entry.ulps)
        if "jit" in modes and "-jit" not in entry.flags:
            yield Case(ident, module, "jit", f"jax.jit({lam})({args_text})", data, v.x64, entry.ulps)
        if not v.representative or not arrays:
            continue
        if "vmap" in modes and "-vmap" not in entry.flags:
            b_text, b_data = bind(batched)
            yield Case(ident, module, "vmap", f"jax.vmap({lam})({b_text})", b_data, v.x64, entry.ulps)
        first = arrays[0]
        grad_ok = "-grad" not in entry.flags and isinstance(inputs[first], np.ndarray) and inputs[first].dtype.kind == "f"
        if "grad" in modes and grad_ok:
            others = ", ".join(arrays)
            loss = (f"lambda {others}: sum(jnp.sum(jnp.real(l)) for l in jax.tree_util.tree_leaves({call}) "
                    f"if jnp.issubdtype(l.dtype, jnp.inexact))")  # fmt: skip
            yield Case(ident, module, "grad", f"jax.grad({loss})({args_text})", data, v.x64, max(entry.ulps, 1) * 4 if entry.ulps else 0)


def all_cases(tables: Sequence[tuple[str, list[Entry]]]) -> list[Case]:
    return [c for module, entries in tables for e in entries for c in cases(e, module)]


def sample(cases_: Sequence[Case], fraction: float, seed: int = 0) -> list[Case]:
    """A seed-fixed subset: each case is kept with probability ``fraction``."""
    rs = np.random.RandomState(seed)
    keep = rs.uniform(size=len(cases_)) < fraction
    return [c for c, k in zip(cases_, keep, strict=True) if k]

