"""The calls bench/api_bench.py times: one per line of the conformance tables, plus host round trips.

The conformance suite's declarative tables (tests/conformance/tables/, language and generators in
tests/conformance/spec.py) list every public callable of ``jax_core.numpy`` (with ``linalg`` and
``fft``), ``lax``, ``random``, ``scipy.{special,linalg,signal,stats}``, the ``Array`` methods and
``.at[]``. Each line gives ONE timed call, the first of its candidates that JAX runs eagerly (the
driver asks JAX; jax_core is then timed on the same call, raising or not). The candidates, in
order, come from spec's own generators and seeded values:

1. the generator's representative variant (float32 where the kind allows it, else int32, bool or
   a key; every literal and keyword at its first choice, so ``_`` keywords are left out), with
   its arrays at f32[8,8] (as the issue measured) when no array of the line has a fixed shape and
   it is not a PRNG-key line, then at the table's shapes (base f32[2,3]);
2. the same for each literal and keyword alternative (``tensordot``'s ``axes=1`` when the
   default ``axes=2`` does not fit the line's shapes);
3. the dtype sweep at the representative's shapes (``lax.real`` of complex64);
4. the same for the line's other expansions (``comb(5.0|s, ...)``: one per array alternative),
   the first expansion with an array argument coming first.

So nearly every row times its line's representative call; the JSON and table name the call.

Before spec reads a line, ``prepare`` mends three spots where the table language gives a call
that raises in both libraries (harmless to the conformance suite, which compares outcomes, but
nothing to time): lambda parameters named like kinds (``lambda x: x * 2``), array kinds nested in
a ``|`` choice (``[a[2, 3], a[2, 2]]|...``) and curried calls (``vectorize(jnp.add)(a, a)``);
``make_call`` leaves out a trailing positional ``_``.

The host rows (``host.*``) time device-to-host round trips on f32[8,8], eagerly only.
"""

from __future__ import annotations

import ast
import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np

from tests.conformance import spec
from tests.conformance.tables import TABLES

Json = dict[str, Any]
BENCH_SHAPE = (8, 8)
CURRIED = "CURRIEDX"  # stands for a curried call's function while spec parses the line
MAX_CANDIDATES = 24

# (name, source): device-to-host round trips, each on one f32[8,8] argument x0
HOST_ROWS: tuple[tuple[str, str], ...] = (
    ("host.float(x.sum())", "lambda x0: float(x0.sum())"),
    ("host.x.sum().item()", "lambda x0: x0.sum().item()"),
    ("host.int(jnp.argmax(x))", "lambda x0: int(jnp.argmax(x0))"),
    ("host.bool(x[0, 0] > 0)", "lambda x0: bool(x0[0, 0] > 0)"),
    ("host.np.asarray(x + 1)", "lambda x0: np.asarray(x0 + 1)"),
)
HOST_NO_JIT = "a host round trip (eager only)"


@dataclass(frozen=True)
class Call:
    """One call as the workers receive it: a lambda's source over the array arguments, which
    are bound by name to the inputs (raw bytes, or an expression such as ``random.key(0)``)."""

    src: str
    args: tuple[str, ...]
    inputs: dict[str, Json]
    describe: str  # e.g. "jnp.sum(float32[8,8])"

    def wire(self) -> Json:
        return {"src": self.src, "args": list(self.args), "inputs": self.inputs}


@dataclass(frozen=True)
class Row:
    """A function of the table: the calls to try, in order (the first that JAX runs is timed)."""

    name: str  # "jnp.sum", "lax.sort#2" (a second line of one name), "host.float(x.sum())"
    module: str  # the table's module: numpy, lax, ..., Array.at; "host" for the host rows
    candidates: tuple[Call, ...]
    no_jit: str | None  # why jit and first call are not measured (table flag -jit), or None


def encode(arr: np.ndarray[Any, Any]) -> Json:
    return {
        "dtype": arr.dtype.name,
        "shape": list(arr.shape),
        "hex": np.ascontiguousarray(arr).tobytes().hex(),
    }


# ------------------------------------------------------------------------- reading a line


def _is_kind(node: ast.AST) -> bool:
    """An array kind of the table language (``a``, ``s[3, 3]``), as spec's parser reads one."""
    if isinstance(node, ast.Subscript):
        node = node.value
    return isinstance(node, ast.Name) and node.id in spec.KINDS


def _alternatives(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return [*_alternatives(node.left), *_alternatives(node.right)]
    return [node]


class _Mend(ast.NodeTransformer):
    """A lambda's parameters named like kinds are renamed (``x`` -> ``x_``: spec would read them
    as array arguments); a ``|`` choice with array kinds nested inside an alternative (spec would
    pass it on as text) becomes its first alternative. A choice whose alternative *is* an array
    (``a[3]|a[3, 3]``) is left to spec, which expands it."""

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        params = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        renamed = {p.arg for p in params if p.arg in spec.KINDS}
        for p in params:
            if p.arg in renamed:
                p.arg += "_"
        for sub in ast.walk(node.body):
            if isinstance(sub, ast.Name) and sub.id in renamed:
                sub.id += "_"
        return self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        node = self.generic_visit(node)  # type: ignore[assignment]  # a BinOp stays a BinOp
        if isinstance(node.op, ast.BitOr):
            alternatives = _alternatives(node)
            if any(
                _is_kind(sub) for alt in alternatives if not _is_kind(alt) for sub in ast.walk(alt)
            ):
                return alternatives[0]
        return node


def _split(line: str) -> tuple[str, str]:
    """(the call, its flags); the call may be curried: ``vectorize(jnp.add)(a, a)``."""
    depth = 0
    for pos, ch in enumerate(line):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == ")" and depth == 0 and line[pos + 1 : pos + 2] != "(":
            return line[: pos + 1], line[pos + 1 :]
    raise ValueError(f"not a call: {line!r}")


def prepare(line: str) -> tuple[str, str | None]:
    """The line as spec.parse should read it (see _Mend); and for a curried call, which
    spec.parse would cut after ``vectorize(jnp.add)``, that function's source, which stands in
    the returned line as CURRIED."""
    text, flags = _split(line)
    call = ast.parse(text, mode="eval").body
    assert isinstance(call, ast.Call), line
    curried = None
    if isinstance(call.func, ast.Call):
        curried = ast.unparse(call.func)
        call.func = ast.Name(CURRIED)
    mended = _Mend().visit(call)
    return f"{ast.unparse(mended)} {flags.strip()}", curried


# ----------------------------------------------------------------------------- the calls


def _representative(entry: spec.Entry) -> spec.Variant:
    """The generator's representative variant (float32/int32 arrays, first literals)."""
    first: spec.Variant | None = None
    for v in spec.variants(entry):
        if v.representative:
            return v
        first = first or v
    assert first is not None, entry
    return first


def _resized(entry: spec.Entry, v: spec.Variant) -> spec.Variant | None:
    """``v`` with every (unfixed) array at BENCH_SHAPE, or None when the line does not allow it
    (a fixed shape somewhere, a key line, no array)."""
    arrays = [a for a in entry.args if isinstance(a, spec.ArrayArg)]
    if not arrays or any(a.shape is not None or a.kind == "key" for a in arrays):
        return None
    shapes = tuple(
        BENCH_SHAPE if isinstance(a, spec.ArrayArg) else s
        for a, s in zip(entry.args, v.shapes, strict=True)
    )
    return dataclasses.replace(v, shapes=shapes)


def _variants(entry: spec.Entry) -> list[spec.Variant]:
    """The variants to try, in order: the representative one, its literal and keyword
    alternatives, then the dtype sweep at its shapes; each at BENCH_SHAPE first if allowed."""
    rep = _representative(entry)
    others = [v for v in spec.variants(entry) if v != rep and not v.x64 and not v.special]
    sweep = [
        v
        for v in others
        if not v.representative
        and v.shapes == rep.shapes
        and "scalar" not in v.dtypes
        and (v.picks, v.options) == (rep.picks, rep.options)
    ]
    out: list[spec.Variant] = []
    for v in [rep, *(v for v in others if v.representative), *sweep]:
        big = _resized(entry, v)
        out += [big, v] if big is not None else [v]
    return out


def make_call(entry: spec.Entry, v: spec.Variant, curried: str | None = None) -> Call:
    """The lambda of ``v`` and its inputs, as spec.cases builds them (the same seeds). Trailing
    positional ``_`` (a choice meaning "left out", which spec renders as is) are left out."""
    names: list[str] = []
    args: list[str] = []
    inputs: dict[str, Json] = {}
    for i, (dt, shape, pick) in enumerate(zip(v.dtypes, v.shapes, v.picks, strict=True)):
        if dt is None or dt == "scalar":
            names.append(pick)
            continue
        name = f"x{i}"
        names.append(name)
        args.append(name)
        arg = entry.args[i]
        assert isinstance(arg, spec.ArrayArg)
        if dt == "key":
            inputs[name] = {"expr": f"random.key({i})"}
            continue
        assert shape is not None
        inputs[name] = encode(spec.values(arg.kind, dt, shape, f"{entry.qualname}|{i}"))
    positional = list(entry.positional)
    while positional and spec.fill(positional[-1], names) == "_":
        positional.pop()
    entry = dataclasses.replace(entry, positional=tuple(positional))
    # the generator's own rendering and naming of a variant
    body = spec._render(entry, names, v)  # pyright: ignore[reportPrivateUsage]
    describe = spec._describe(entry, v)  # pyright: ignore[reportPrivateUsage]
    while describe.endswith(", _)"):
        describe = describe[: -len(", _)")] + ")"
    if curried is not None:
        body = body.replace(CURRIED, curried, 1)
        describe = describe.replace(CURRIED, curried, 1)
    return Call(f"lambda {', '.join(args)}: {body}", tuple(args), inputs, describe)


def _display(qualname: str, curried: str | None) -> str:
    if curried is not None:
        qualname = qualname.replace(CURRIED, curried, 1)
    return "Array.at[]." + qualname[3:] if qualname.startswith("at.") else qualname


def table_rows() -> list[Row]:
    """One row per line of every conformance table, in table order."""
    rows: list[Row] = []
    seen: dict[str, int] = {}
    for module, prefix, text, _ in TABLES:
        for raw in text.splitlines():
            line = raw.split("  #")[0].strip()
            if not line:
                continue
            prepared, curried = prepare(line)
            entries = spec.parse(prefix, prepared)
            entries.sort(key=lambda e: not any(isinstance(a, spec.ArrayArg) for a in e.args))
            calls = [make_call(e, v, curried) for e in entries for v in _variants(e)]
            name = _display(entries[0].qualname, curried)
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                name = f"{name}#{seen[name]}"
            no_jit = "not jittable (table: -jit)" if "-jit" in entries[0].flags else None
            rows.append(Row(name, module, tuple(calls[:MAX_CANDIDATES]), no_jit))
    return rows


def host_rows() -> list[Row]:
    x = encode(spec.values("s", "float32", BENCH_SHAPE, "host"))
    return [
        Row(name, "host", (Call(src, ("x0",), {"x0": x}, f"{name[5:]}, x f32[8,8]"),), HOST_NO_JIT)
        for name, src in HOST_ROWS
    ]


def all_rows() -> list[Row]:
    return table_rows() + host_rows()
