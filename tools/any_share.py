"""The share of ``Any`` expressions in the public-code corpus (typing/public), jax_core vs real JAX.

The corpus is library-style code written against jax_core. ``jax_copy`` writes a copy of it that
imports real JAX instead (``jax_core`` -> ``jax``; names JAX does not export are defined the way a
JAX user would, in one extra module of the copy, so the corpus files keep their line numbers and
their expressions). mypy's ``--any-exprs-report`` is then run on both (typing/mypy.ini: strict),
and ``any-exprs.txt`` gives, per module, the expressions whose type is ``Any`` and all the
expressions; their ratio is the share. mypy's reports turn its cache off, so every run checks
jax_core (or jax) anew: about 8 s for jax_core, 20 s for jax; the two run concurrently.

``sources`` says where the ``Any`` expressions come from: mypy runs in-process (``mypy.build``)
with the report's own visitor (``mypy.stats.StatisticsVisitor``, so the counts are the report's),
and every ``Any`` expression is traced back through the names, attributes, operators and calls
that carried it to the one that produced it: a call whose arguments are precise but whose result
is ``Any`` (its callee is the source, e.g. ``jax.tree.map``), an attribute, an operator method,
or an ``Any`` written in the corpus. Names are the source text (``jnp.where``) or, for methods,
``Class.method``; both copies have the same text, so the two tables compare.

Usage: ``.venv/bin/python tools/any_share.py [--json PATH] [--top N] [--no-sources]``.
"""

from __future__ import annotations

import argparse
import ast
import collections
import concurrent.futures
import configparser
import dataclasses
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from mypy.nodes import Expression, MypyFile, Var
    from mypy.types import Type

ROOT: Final = Path(__file__).resolve().parent.parent
CORPUS: Final = ROOT / "typing" / "public"
CONFIG: Final = ROOT / "typing" / "mypy.ini"
JAX_PYTHON: Final = ROOT / ".venv-jax" / "bin" / "python"
CACHE_ROOT: Final = ROOT / ".mypy_cache"
OURS: Final = "jax_core"
THEIRS: Final = "jax"
COMPAT_MODULE: Final = "jax_user_aliases"  # the module of the copy that defines missing names

# jax_core names JAX does not export, as a JAX user would define them (jax_core's own definition
# in a comment where it differs). The key is the name; every such name of any jax_core module
# maps here (jax_core.typing is the only module that has any today).
SUBSTITUTES: Final[dict[str, str]] = {
    "Array": "from jax import Array as Array",
    "PRNGKeyArray": "PRNGKeyArray: TypeAlias = jax.Array",
    "Shape": "Shape: TypeAlias = tuple[int, ...]",
    "DimSize": "DimSize: TypeAlias = int",
    "DType": "DType: TypeAlias = np.dtype[Any]",
    "DTypeName": "DTypeName: TypeAlias = str  # jax_core: a Literal of the dtype names",
    "ShapeLike": "ShapeLike: TypeAlias = int | Sequence[int]  # jax_core: SupportsIndex | ...",
    "SupportsDType": (
        "class SupportsDType(Protocol):\n    @property\n    def dtype(self) -> np.dtype[Any]: ..."
    ),
    "DuckTypedArray": (
        "class DuckTypedArray(Protocol):\n"
        "    @property\n    def shape(self) -> tuple[int, ...]: ...\n"
        "    @property\n    def dtype(self) -> np.dtype[Any]: ..."
    ),
}
_COMPAT_HEADER: Final = '''"""Names jax_core exports and JAX does not, as a JAX user would define them (tools/any_share.py).
"""

from collections.abc import Sequence
from typing import Any, Protocol, TypeAlias

import jax
import numpy as np

'''

# Run by the JAX interpreter: which dotted chains (module, attribute, ...) resolve. Attributes
# of something that is not a module are not checked.
_RESOLVE_SCRIPT: Final = """
import importlib, json, sys, types
def resolve(chain):
    try:
        obj = importlib.import_module(chain[0])
    except ImportError:
        return False
    path = chain[0]
    for attr in chain[1:]:
        if not isinstance(obj, types.ModuleType):
            return True
        path += "." + attr
        if hasattr(obj, attr):
            obj = getattr(obj, attr)
            continue
        try:
            obj = importlib.import_module(path)
        except ImportError:
            return False
    return True
print(json.dumps([resolve(c) for c in json.load(sys.stdin)]))
"""


# --------------------------------------------------------------------------------------------
# The JAX copy
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass
class CopyReport:
    files: list[Path]  # the corpus files of the copy (not the compat module)
    substituted: dict[str, str]  # name -> its definition in the compat module
    unmapped: list[str]  # "file:line jax_core.dotted.name" JAX lacks, left as they are


def _swap(module: str) -> str:
    return THEIRS + module[len(OURS) :]


def _is_ours(module: str | None) -> bool:
    return module is not None and (module == OURS or module.startswith(OURS + "."))


class _ChainCollector(ast.NodeVisitor):
    """Attribute chains rooted at names bound to jax_core imports (skipping scopes that rebind
    the name: a local ``stats`` is not ``jax_core.scipy.stats``)."""

    def __init__(self, aliases: dict[str, list[str]]) -> None:
        self.aliases = aliases
        self.chains: list[tuple[int, list[str]]] = []
        self.shadowed: list[set[str]] = [set()]

    @staticmethod
    def _bound(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
        a = node.args
        names = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
        names |= {x.arg for x in (a.vararg, a.kwarg) if x is not None}
        body: list[ast.AST] = [node.body] if isinstance(node.body, ast.expr) else list(node.body)
        for stmt in body:
            for sub in ast.walk(stmt):
                if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    names.add(sub.id)
        return names

    def _scope(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        self.shadowed.append(self.shadowed[-1] | self._bound(node))
        self.generic_visit(node)
        self.shadowed.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._scope(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._scope(node)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._scope(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        attrs: list[str] = []
        cur: ast.expr = node
        while isinstance(cur, ast.Attribute):
            attrs.append(cur.attr)
            cur = cur.value
        if isinstance(cur, ast.Name) and cur.id in self.aliases and cur.id not in self.shadowed[-1]:
            self.chains.append((node.lineno, self.aliases[cur.id] + attrs[::-1]))
            return  # the inner attributes are part of this chain
        self.generic_visit(node)


def _resolve(chains: Sequence[list[str]], python: Path) -> list[bool]:
    if not chains:
        return []
    out = subprocess.run(
        [str(python), "-c", _RESOLVE_SCRIPT],
        input=json.dumps(list(chains)),
        capture_output=True,
        text=True,
        check=True,
    )
    result: list[bool] = json.loads(out.stdout)
    return result


def jax_copy(src_dir: Path, dest_dir: Path, *, python: Path = JAX_PYTHON) -> CopyReport:
    """Copy the ``*.py`` files of ``src_dir`` into ``dest_dir`` importing JAX instead of jax_core.

    Only import statements change, each in place on its own lines (a statement may become several
    joined by ``;``), so every other line and expression is the same in both copies. Names JAX
    lacks (checked with ``python``, the JAX interpreter) come from ``SUBSTITUTES`` through
    ``COMPAT_MODULE``, written beside the files; those without a substitute, and attribute chains
    through jax_core modules that JAX lacks, are listed in ``unmapped``.
    """
    dest_dir.mkdir(parents=True, exist_ok=True)
    parsed: list[tuple[Path, str, ast.Module]] = []
    for path in sorted(src_dir.glob("*.py")):
        if path.stem == COMPAT_MODULE:
            continue
        text = path.read_text()
        parsed.append((path, text, ast.parse(text, str(path))))

    # Every jax_core name the files import, and every attribute chain they use through them.
    queries: list[list[str]] = []
    where: list[str] = []
    is_import: list[bool] = []
    per_file: list[tuple[dict[str, list[str]], list[ast.Import | ast.ImportFrom]]] = []
    for path, _, tree in parsed:
        aliases: dict[str, list[str]] = {}
        imports: list[ast.Import | ast.ImportFrom] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Import) and any(_is_ours(a.name) for a in node.names):
                imports.append(node)
                for a in node.names:
                    if _is_ours(a.name):
                        queries.append([_swap(a.name)])
                        where.append(f"{path.name}:{node.lineno} {a.name}")
                        is_import.append(True)
                        if a.asname:
                            aliases[a.asname] = [_swap(a.name)]
                        else:
                            aliases[OURS] = [THEIRS]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and _is_ours(node.module):
                assert node.module is not None
                imports.append(node)
                for a in node.names:
                    queries.append([_swap(node.module), a.name])
                    where.append(f"{path.name}:{node.lineno} {node.module}.{a.name}")
                    is_import.append(True)
                    aliases[a.asname or a.name] = [_swap(node.module), a.name]
        collector = _ChainCollector(aliases)
        collector.visit(tree)
        for line, chain in collector.chains:
            queries.append(chain)
            dotted = ".".join([OURS + chain[0][len(THEIRS) :], *chain[1:]])
            where.append(f"{path.name}:{line} {dotted}")
            is_import.append(False)
        per_file.append((aliases, imports))
    found = dict(zip(map(tuple, queries), _resolve(queries, python), strict=True))
    # An imported name with a substitute is mapped; a chain through a module is not rewritten.
    unmapped = sorted(
        {
            w
            for q, w, imported in zip(queries, where, is_import, strict=True)
            if not found[tuple(q)] and not (imported and len(q) == 2 and q[1] in SUBSTITUTES)
        }
    )

    substituted: dict[str, str] = {}
    files: list[Path] = []
    for (path, text, _), (_, imports) in zip(parsed, per_file, strict=True):
        lines = text.splitlines(keepends=True)
        offsets = [0]
        for row in lines:
            offsets.append(offsets[-1] + len(row))
        edits: list[tuple[int, int, str]] = []
        for node in imports:
            assert node.end_lineno is not None and node.end_col_offset is not None
            stmts: list[str] = []
            if isinstance(node, ast.Import):
                for a in node.names:
                    if not _is_ours(a.name):
                        stmts.append(f"import {a.name}" + (f" as {a.asname}" if a.asname else ""))
                    elif a.asname:
                        stmts.append(f"import {_swap(a.name)} as {a.asname}")
                    elif a.name == OURS:
                        stmts.append(f"import {THEIRS} as {OURS}")
                    else:  # `import jax_core.numpy` binds jax_core
                        stmts += [f"import {_swap(a.name)}", f"import {THEIRS} as {OURS}"]
            else:
                assert node.module is not None
                module = _swap(node.module)
                kept: list[str] = []
                compat: list[str] = []
                for a in node.names:
                    spelled = a.name + (f" as {a.asname}" if a.asname else "")
                    if not found[(module, a.name)] and a.name in SUBSTITUTES:
                        compat.append(spelled)
                        substituted[a.name] = SUBSTITUTES[a.name]
                    else:
                        kept.append(spelled)
                if kept:
                    stmts.append(f"from {module} import {', '.join(kept)}")
                if compat:
                    stmts.append(f"from {COMPAT_MODULE} import {', '.join(compat)}")
            start = offsets[node.lineno - 1] + node.col_offset
            end = offsets[node.end_lineno - 1] + node.end_col_offset
            # Same number of lines: what followed on the statement's last line stays there.
            edits.append((start, end, "; ".join(stmts) + "\n" * (node.end_lineno - node.lineno)))
        out = text
        for start, end, new in sorted(edits, reverse=True):
            out = out[:start] + new + out[end:]
        if out.count("\n") != text.count("\n"):
            raise AssertionError(f"{path}: the rewrite changed the line count")
        target = dest_dir / path.name
        target.write_text(out)
        files.append(target)
    if substituted:
        names = [SUBSTITUTES[n] for n in SUBSTITUTES if n in substituted]  # a fixed order
        (dest_dir / f"{COMPAT_MODULE}.py").write_text(_COMPAT_HEADER + "\n".join(names) + "\n")
    return CopyReport(files=files, substituted=substituted, unmapped=unmapped)


def jax_config(config: Path, dest: Path) -> Path:
    """``config`` for the JAX copy, written to ``dest``: without ``mypy_path`` (jax_core's
    stubs must not apply) and with the ``[mypy-jax_core.*]`` sections for ``jax`` instead.
    Relative paths in the config (there are none but mypy_path) would need ``dest``'s directory."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(config)
    out = configparser.ConfigParser(interpolation=None)
    out.optionxform = str  # type: ignore[assignment,method-assign]
    for section in parser.sections():
        name = re.sub(rf"\b{OURS}\b", THEIRS, section)
        out[name] = {k: v for k, v in parser[section].items() if k != "mypy_path"}
    with dest.open("w") as f:
        out.write(f)
    return dest


# --------------------------------------------------------------------------------------------
# The share
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass
class Share:
    files: int
    lines: int
    exprs: int
    anys: int
    modules: dict[str, tuple[int, int]]  # module -> (Anys, Exprs)
    types_of_anys: dict[str, int]  # mypy's kinds (Explicit, Error, ...) -> Any types in exprs
    errors: int  # the error lines mypy printed

    @property
    def share(self) -> float:
        return self.anys / self.exprs if self.exprs else 0.0


def _rows(path: Path) -> Iterator[list[str]]:
    """The body rows of one of mypy's text tables (between the two dashed lines)."""
    lines = path.read_text().splitlines()
    dashes = [i for i, line in enumerate(lines) if line and set(line) == {"-"}]
    if len(dashes) != 2:
        raise ValueError(f"{path}: not a mypy report table")
    yield lines[0].split()  # the header
    for line in lines[dashes[0] + 1 : dashes[1]]:
        yield line.split()


def _types_header(path: Path) -> list[str]:
    # Column names contain spaces ("Omitted Generics"): split at runs of 3+ spaces.
    return re.split(r"\s{3,}", path.read_text().splitlines()[0].strip())


def parse_report(report_dir: Path, files: Sequence[Path], mypy_output: str = "") -> Share:
    """Totals of ``any-exprs.txt`` and ``types-of-anys.txt`` over the modules of ``files``."""
    wanted = {f.stem for f in files}
    modules: dict[str, tuple[int, int]] = {}
    rows = _rows(report_dir / "any-exprs.txt")
    next(rows)
    for name, anys, exprs, _coverage in rows:
        if name.rsplit(".", 1)[-1] in wanted:
            modules[name] = (int(anys), int(exprs))
    kinds = dict.fromkeys(_types_header(report_dir / "types-of-anys.txt")[1:], 0)
    rows = _rows(report_dir / "types-of-anys.txt")
    next(rows)
    for row in rows:
        if row[0].rsplit(".", 1)[-1] in wanted:
            for kind, count in zip(kinds, row[1:], strict=True):
                kinds[kind] += int(count)
    return Share(
        files=len(files),
        lines=sum(len(f.read_text().splitlines()) for f in files),
        exprs=sum(e for _, e in modules.values()),
        anys=sum(a for a, _ in modules.values()),
        modules=modules,
        types_of_anys=kinds,
        errors=len(re.findall(r"^\S+:\d+: error:", mypy_output, re.MULTILINE)),
    )


def _mypy_args(
    files: Sequence[Path], python: Path, config: Path, report_dir: Path, cache_dir: Path
) -> list[str]:
    return [
        "--config-file",
        str(config),
        "--python-executable",
        str(python),
        "--cache-dir",
        str(cache_dir),
        "--any-exprs-report",
        str(report_dir),
        *(str(f.resolve()) for f in files),
    ]


def _check_ran(proc: subprocess.CompletedProcess[str], what: str) -> None:
    # 0: clean, 1: type errors (real JAX gets some): the report is written either way.
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{what} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")


def any_share(
    files: Sequence[Path], python: Path, config: Path, *, cache_dir: Path | None = None
) -> Share:
    """mypy ``--any-exprs-report`` over ``files`` (checked with ``config``, run from its
    directory, against the packages of the interpreter ``python``), totalled."""
    cache = cache_dir or CACHE_ROOT / f"any-share-{Path(python).parent.parent.name}"
    with tempfile.TemporaryDirectory(prefix="any-share-report-") as tmp:
        proc = subprocess.run(
            [sys.executable, "-m", "mypy", *_mypy_args(files, python, config, Path(tmp), cache)],
            check=False,
            cwd=config.parent,
            capture_output=True,
            text=True,
        )
        _check_ran(proc, "mypy")
        return parse_report(Path(tmp), files, proc.stdout)


# --------------------------------------------------------------------------------------------
# Where the Anys come from
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Source:
    name: str  # source text of the callee / attribute / operator method, or "(...)"
    kind: str  # "lib" (jax_core or jax), "numpy", "corpus", "other"


@dataclasses.dataclass
class Sources:
    share: Share
    total: collections.Counter[Source]  # every Any expression, at the source it came from
    direct: collections.Counter[Source]  # only the expressions a source produced itself
    any_kinds: dict[Source, collections.Counter[str]]  # TypeOfAny names per source

    def top(self, n: int, kind: str | None = "lib") -> list[tuple[Source, int, int]]:
        """The ``n`` sources (of ``kind``; all when None) with the most Any expressions:
        (source, all of them, those it produced directly)."""
        items = [(s, c, self.direct[s]) for s, c in self.total.items()]
        items = [i for i in items if kind is None or i[0].kind == kind]
        return sorted(items, key=lambda i: (-i[1], i[0].name))[:n]


def _kind(fullname: str | None, corpus: set[str]) -> str:
    top = (fullname or "").split(".", 1)[0]
    if top in (OURS, THEIRS, "jaxlib"):
        return "lib"
    if top in ("numpy", "ml_dtypes"):
        return "numpy"
    if top in corpus:
        return "corpus"
    return "other"


# Attributes of mypy's nodes that refer to other definitions rather than hold children.
_NOT_CHILDREN: Final = frozenset(
    {
        "node",
        "info",
        "expanded",
        "original_def",
        "var",
        "def_var",
        "variable",
        "original_decorators",
        "unanalyzed_items",
        "removed_base_type_exprs",
        "base_type_exprs",
        "analyzed",
        "names",
        "imports",
        "type",
        "unanalyzed_type",
    }
)
_SPECIAL_NAMES: Final = frozenset(
    {"builtins.None", "builtins.True", "builtins.False", "builtins.Ellipsis"}
)


def _walk(
    tree: MypyFile,
    typemap: dict[Expression, Type],
    found: list[tuple[Expression | None, int, Type | None]],
    assigned: dict[Var, Expression],
    params: set[Var],
) -> None:
    """The expressions (and annotations) that mypy's ``StatisticsVisitor`` (all_nodes, untyped
    defs skipped) counts, those of type ``Any`` appended to ``found``; and, on the way, what each
    variable was first bound to. mypy's visitors are compiled traits a Python class cannot
    extend, so this walks the nodes by their attributes, with the visitor's special cases."""
    from mypy import nodes
    from mypy.stats import get_original_any
    from mypy.types import AnyType, TypeOfAny, get_proper_type

    counted = (
        nodes.NameExpr,
        nodes.CallExpr,
        nodes.MemberExpr,
        nodes.OpExpr,
        nodes.ComparisonExpr,
        nodes.IndexExpr,
        nodes.AssignmentExpr,
        nodes.UnaryExpr,
    )

    def count(node: Expression | None, line: int, t: Type | None) -> None:
        p = get_proper_type(t)
        if isinstance(p, AnyType) and get_original_any(p).type_of_any != TypeOfAny.special_form:
            found.append((node, line, t))

    def bind(target: Expression, src: Expression) -> None:
        items = target.items if isinstance(target, (nodes.TupleExpr, nodes.ListExpr)) else [target]
        pair = isinstance(src, nodes.TupleExpr) and len(src.items) == len(items)
        for i, item in enumerate(items):
            if isinstance(item, nodes.StarExpr):
                item = item.expr
            if isinstance(item, nodes.NameExpr) and isinstance(item.node, nodes.Var):
                value = src.items[i] if pair and isinstance(src, nodes.TupleExpr) else src
                assigned.setdefault(item.node, value)

    def children(node: object) -> Iterator[object]:
        for attr in getattr(type(node), "__mypyc_attrs__", ()):
            if attr in _NOT_CHILDREN or attr.startswith("__"):
                continue
            yield from _nodes_in(getattr(node, attr, None))

    def visit(node: object) -> None:
        if isinstance(node, nodes.FuncItem):
            expanded = node.expanded if isinstance(node, nodes.FuncDef) else []
            if len(expanded) > 1 and expanded != [node] * len(expanded):
                for defn in expanded:
                    visit(defn)
                return
            params.update(a.variable for a in node.arguments)
            sig = node.type
            if isinstance(node, nodes.FuncDef):
                if sig is None:
                    return  # untyped: not visited
                from mypy.types import CallableType

                assert isinstance(sig, CallableType)
                for t in [*sig.arg_types, sig.ret_type]:
                    count(None, node.line, t)
            for arg in node.arguments:
                if arg.initializer is not None:
                    visit(arg.initializer)
            visit(node.body)
            return
        if isinstance(node, nodes.ClassDef):
            for d in node.decorators:
                visit(d)
            visit(node.defs)
            return
        if isinstance(node, nodes.Decorator):
            visit(node.func)
            for d in node.decorators:
                visit(d)
            return
        if isinstance(node, nodes.AssignmentStmt):
            rv = node.rvalue
            if isinstance(rv, nodes.CallExpr) and isinstance(rv.analyzed, nodes.TypeVarExpr):
                return
            for lv in node.lvalues:
                bind(lv, rv)
            if node.type is not None:
                count(None, node.line, node.type)
                visit(rv)
                return
            visit(rv)
            for lv in node.lvalues:
                visit(lv)
            return
        if isinstance(node, nodes.ExpressionStmt) and isinstance(
            node.expr, (nodes.StrExpr, nodes.BytesExpr)
        ):
            return
        if isinstance(node, nodes.ForStmt):
            bind(node.index, node.expr)
        if isinstance(node, nodes.WithStmt):
            for e, target in zip(node.expr, node.target, strict=True):
                if target is not None:
                    bind(target, e)
        if isinstance(node, (nodes.GeneratorExpr, nodes.DictionaryComprehension)):
            for idx, seq in zip(node.indices, node.sequences, strict=True):
                bind(idx, seq)
        if isinstance(node, nodes.YieldFromExpr):
            visit(node.expr)
            return
        if isinstance(node, nodes.TypeApplication):
            for t in node.types:
                count(None, node.line, t)
        special = isinstance(node, nodes.NameExpr) and node.fullname in _SPECIAL_NAMES
        if isinstance(node, counted) and not special:
            count(node, node.line, typemap.get(node))
        if isinstance(node, nodes.CallExpr) and node.analyzed is not None:
            visit(node.analyzed)
            return
        for child in children(node):
            visit(child)
        if isinstance(node, nodes.IndexExpr) and node.analyzed is not None:
            visit(node.analyzed)

    for d in tree.defs:
        visit(d)


def _nodes_in(value: object) -> Iterator[object]:
    from mypy import nodes

    if isinstance(value, (nodes.Expression, nodes.Statement, nodes.Block)):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _nodes_in(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _nodes_in(v)


def _worker(argv: list[str]) -> int:
    """In-process mypy (the report's options and visitor) printing, as JSON, one record per Any
    expression: [module, line, source name, source kind, TypeOfAny name, direct]."""
    import mypy.build  # noqa: F401  (imported first: mypy.stats alone hits an import cycle)
    from mypy import build, nodes
    from mypy.main import process_options
    from mypy.modulefinder import get_search_dirs
    from mypy.operators import op_methods, unary_op_methods
    from mypy.stats import TYPE_UNANALYZED, StatisticsVisitor, get_original_any
    from mypy.types import (
        AnyType,
        CallableType,
        Instance,
        Overloaded,
        TupleType,
        TypedDictType,
        TypeOfAny,
        TypeType,
        get_proper_type,
    )

    sources, options = process_options(argv)
    options.export_types = True
    corpus = {s.module for s in sources}
    # Each tree is emptied once checked unless preserve_asts; but that, for modules whose errors
    # are ignored (jax_core's, the packages'), also keeps the function bodies mypy otherwise
    # strips: 10 times slower. So preserve_asts only for the corpus (per module), by keeping it
    # off for every top-level name of the search path.
    options.preserve_asts = True
    sys_path, site_packages = get_search_dirs(options.python_executable)
    names = {OURS, THEIRS}
    for d in [*sys_path, *site_packages, *options.mypy_path]:
        if os.path.isdir(d):
            names.update(n.split(".")[0].removesuffix("-stubs") for n in os.listdir(d))
    for name in names - corpus:
        if name.isidentifier():
            for key in (name, name + ".*"):
                options.per_module_options.setdefault(key, {})["preserve_asts"] = False
    options.warn_unused_configs = False
    result = build.build(sources, options)
    typemap = result.types
    any_names = {v: k for k, v in vars(TypeOfAny).items() if isinstance(v, int)}

    def is_any(e: Expression | None) -> bool:
        t = get_proper_type(typemap.get(e)) if e is not None else None
        return isinstance(t, AnyType) and get_original_any(t).type_of_any != TypeOfAny.special_form

    def owner(t: Type | None) -> tuple[str, str]:
        """(short name, fullname) of the class of a value of type ``t``."""
        p = get_proper_type(t)
        if isinstance(p, TupleType):
            p = p.partial_fallback
        if isinstance(p, TypedDictType):
            p = p.fallback
        if isinstance(p, TypeType):
            p = get_proper_type(p.item)
        if isinstance(p, Instance):
            return p.type.name, p.type.fullname
        if isinstance(p, (CallableType, Overloaded)):
            return "function", "builtins.function"
        return (type(p).__name__ if p is not None else "?"), "?"

    def text(e: Expression) -> str:
        if isinstance(e, nodes.NameExpr):
            return e.name
        if isinstance(e, nodes.MemberExpr):
            return f"{text(e.expr)}.{e.name}"
        if isinstance(e, nodes.CallExpr):
            return f"{text(e.callee)}(...)"
        if isinstance(e, nodes.IndexExpr):
            return f"{text(e.base)}[...]"
        return f"<{type(e).__name__}>"

    def ref_fullname(e: Expression) -> str | None:
        while isinstance(e, (nodes.CallExpr, nodes.IndexExpr)):
            e = e.callee if isinstance(e, nodes.CallExpr) else e.base
        return e.fullname if isinstance(e, nodes.RefExpr) else None

    def named(e: Expression) -> Source:
        """The source a name, attribute or callee expression stands for."""
        on_module = isinstance(e, nodes.MemberExpr) and (
            isinstance(e.expr, nodes.RefExpr) and isinstance(e.expr.node, nodes.MypyFile)
        )
        if isinstance(e, nodes.MemberExpr) and not on_module:
            short, full = owner(typemap.get(e.expr))
            return Source(f"{short}.{e.name}", _kind(full, corpus))
        return Source(text(e), _kind(ref_fullname(e), corpus))

    def decorated(callee: Expression) -> Source | None:
        """The decorator that made a function of the corpus return Any (``@partial(jax.jit,
        ...)``), when ``callee`` is one whose own return type is not Any."""
        node: object = callee.node if isinstance(callee, nodes.RefExpr) else None
        if isinstance(callee, nodes.MemberExpr) and not isinstance(node, nodes.Decorator):
            p = get_proper_type(typemap.get(callee.expr))
            if isinstance(p, TupleType):
                p = p.partial_fallback
            if isinstance(p, Instance):
                sym = p.type.get(callee.name)
                node = sym.node if sym is not None else None
        if not isinstance(node, nodes.Decorator) or not node.decorators:
            return None
        sig = node.func.type
        if isinstance(sig, CallableType) and isinstance(get_proper_type(sig.ret_type), AnyType):
            return None
        deco = node.decorators[0]
        inner = deco
        label = text(deco)
        if isinstance(deco, nodes.CallExpr) and text(deco.callee) in (
            "partial",
            "functools.partial",
        ):
            inner = deco.args[0]
            label = f"partial({text(inner)}, ...)"
        return Source("@" + label, _kind(ref_fullname(inner), corpus))

    assigned: dict[Var, Expression] = {}
    params: set[Var] = set()

    memo: dict[Expression, tuple[Source, bool]] = {}
    busy: set[Expression] = set()
    corpus_any = Source("(Any written in the corpus)", "corpus")

    def origin(e: Expression) -> tuple[Source, bool]:
        """Where the Any of ``e`` comes from, and whether ``e`` itself is that source."""
        if e in memo:
            return memo[e]
        if e in busy:
            return Source("(cycle)", "other"), False
        busy.add(e)
        try:
            memo[e] = found = _origin(e)
        finally:
            busy.discard(e)
        return found

    def first_any(exprs: Iterable[Expression | None]) -> Expression | None:
        return next((x for x in exprs if x is not None and is_any(x)), None)

    def _origin(e: Expression) -> tuple[Source, bool]:
        if isinstance(e, nodes.CallExpr):
            if e.analyzed is not None:
                inner = getattr(e.analyzed, "expr", None)
                if isinstance(inner, nodes.Expression) and is_any(inner):
                    return origin(inner)[0], False
                return Source(text(e.callee), "other"), True
            if is_any(e.callee):
                return origin(e.callee)[0], False
            arg = first_any(e.args)
            if arg is not None:  # e.g. an overload that Any arguments make ambiguous
                return origin(arg)[0], False
            return decorated(e.callee) or named(e.callee), True
        if isinstance(e, nodes.MemberExpr):
            if is_any(e.expr):
                return origin(e.expr)[0], False
            return named(e), True
        if isinstance(e, nodes.NameExpr):
            node = e.node
            if isinstance(node, nodes.Var):
                if node in assigned:
                    src = assigned[node]
                    return (origin(src)[0] if is_any(src) else named(src)), False
                if node in params or node.is_inferred is False:
                    kind = _kind(node.fullname, corpus)
                    if kind == "corpus" or node in params:
                        return corpus_any, False
                    return Source(text(e), kind), True
            return Source(text(e), _kind(e.fullname, corpus)), True
        if isinstance(e, (nodes.OpExpr, nodes.ComparisonExpr)):
            operands = [e.left, e.right] if isinstance(e, nodes.OpExpr) else e.operands
            arg = first_any(operands)
            if arg is not None:
                return origin(arg)[0], False
            op = e.op if isinstance(e, nodes.OpExpr) else e.operators[0]
            short, full = owner(typemap.get(operands[0]))
            return Source(f"{short}.{op_methods.get(op, op)}", _kind(full, corpus)), True
        if isinstance(e, nodes.UnaryExpr):
            if is_any(e.expr):
                return origin(e.expr)[0], False
            short, full = owner(typemap.get(e.expr))
            method = unary_op_methods.get(e.op, e.op)
            return Source(f"{short}.{method}", _kind(full, corpus)), True
        if isinstance(e, nodes.IndexExpr):
            arg = first_any([e.base, e.index])
            if arg is not None:
                return origin(arg)[0], False
            short, full = owner(typemap.get(e.base))
            return Source(f"{short}.__getitem__", _kind(full, corpus)), True
        if isinstance(e, nodes.AssignmentExpr):
            return origin(e.value)[0], False
        if isinstance(e, nodes.ConditionalExpr):
            arg = first_any([e.if_expr, e.else_expr])
            if arg is not None:
                return origin(arg)[0], False
        if isinstance(e, (nodes.AwaitExpr, nodes.StarExpr)):
            return origin(e.expr)[0], False
        return Source(f"<{type(e).__name__}>", "other"), True

    records: list[tuple[str, int, str, str, str, bool]] = []
    walked = [0, 0]  # Any expressions found by the walk, and by mypy's own visitor

    def record(module: str, line: int, t: Type | None, src: Source, direct: bool) -> None:
        p = get_proper_type(t)
        assert isinstance(p, AnyType)
        kind = any_names.get(get_original_any(p).type_of_any, "?")
        records.append((module, line, src.name, src.kind, kind, direct))

    for s in sources:
        tree: MypyFile = result.files[s.module]
        found: list[tuple[Expression | None, int, Type | None]] = []
        _walk(tree, typemap, found, assigned, params)
        for node, line, t in found:
            if node is None:  # an annotation: a signature's, an assignment's
                record(tree.fullname, line, t, corpus_any, True)
            else:
                src, direct = origin(node)
                record(tree.fullname, line, t, src, direct)
        # mypy's own visitor, for the dead lines (each counts as one Any) and as a check.
        visitor = StatisticsVisitor(
            inferred=True,
            filename=tree.fullname,
            modules=result.files,
            typemap=typemap,
            all_nodes=True,
            visit_untyped_defs=False,
        )
        tree.accept(visitor)
        walked[0] += len(found)
        walked[1] += visitor.num_any_exprs
        for line, precision in sorted(visitor.line_map.items()):
            if precision == TYPE_UNANALYZED:
                records.append(
                    (
                        tree.fullname,
                        line,
                        "(lines without types: dead code, del)",
                        "other",
                        "-",
                        True,
                    )
                )
    if walked[0] != walked[1]:
        print(
            f"any_share: the walk found {walked[0]} Any expressions, mypy {walked[1]}",
            file=sys.stderr,
        )
    errors = sum(": error:" in line for line in result.errors)
    json.dump({"records": records, "errors": errors}, sys.stdout)
    return 0


def _worker_cmd(
    files: Sequence[Path], python: Path, config: Path, report_dir: Path, cache_dir: Path
) -> list[str]:
    args = _mypy_args(files, python, config, report_dir, cache_dir)
    return [sys.executable, str(Path(__file__).resolve()), "--worker", *args]


def _sources_from(proc: subprocess.CompletedProcess[str], share: Share) -> Sources:
    data = json.loads(proc.stdout)
    total: collections.Counter[Source] = collections.Counter()
    direct: collections.Counter[Source] = collections.Counter()
    kinds: dict[Source, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for _module, _line, name, kind, any_kind, is_direct in data["records"]:
        src = Source(name, kind)
        total[src] += 1
        direct[src] += bool(is_direct)
        kinds[src][any_kind] += 1
    share.errors = int(data["errors"])
    if sum(total.values()) != share.anys:
        raise AssertionError(f"attributed {sum(total.values())} Anys, the report {share.anys}")
    return Sources(share=share, total=total, direct=direct, any_kinds=dict(kinds))


def _run_sources(
    files: Sequence[Path], python: Path, config: Path, cache_dir: Path | None = None
) -> Sources:
    cache = cache_dir or CACHE_ROOT / f"any-share-{Path(python).parent.parent.name}"
    with tempfile.TemporaryDirectory(prefix="any-share-report-") as tmp:
        proc = subprocess.run(
            _worker_cmd(files, python, config, Path(tmp), cache),
            check=False,
            cwd=config.parent,
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"the worker exited {proc.returncode}:\n{proc.stderr}")
        return _sources_from(proc, parse_report(Path(tmp), files))


def sources(files: Sequence[Path], python: Path, config: Path) -> Sources:
    """Where the Any expressions of ``files`` come from (and the share, from the same run)."""
    return _run_sources(files, python, config)


# --------------------------------------------------------------------------------------------
# Both sides
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass
class Side:
    name: str
    files: list[Path]
    python: Path
    config: Path


@dataclasses.dataclass
class Setup:
    ours: Side
    theirs: Side | None  # None without .venv-jax
    copy: CopyReport | None


def setup(tmp: Path, corpus: Path = CORPUS, config: Path = CONFIG) -> Setup:
    """jax_core's side (the corpus in place) and, when .venv-jax exists, JAX's (a copy in
    ``tmp``)."""
    ours = Side(OURS, sorted(corpus.glob("*.py")), Path(sys.executable), config)
    if not JAX_PYTHON.exists():
        return Setup(ours, None, None)
    report = jax_copy(corpus, tmp / corpus.name)
    theirs = Side(THEIRS, report.files, JAX_PYTHON, jax_config(config, tmp / config.name))
    return Setup(ours, theirs, report)


def both_shares(s: Setup) -> tuple[Share, Share | None]:
    """``any_share`` of both sides, the two mypy runs concurrently."""
    sides = [s.ours] + ([s.theirs] if s.theirs else [])
    with concurrent.futures.ThreadPoolExecutor(len(sides)) as pool:
        got = list(pool.map(lambda d: any_share(d.files, d.python, d.config), sides))
    return got[0], (got[1] if len(got) > 1 else None)


def both_sources(s: Setup) -> tuple[Sources, Sources | None]:
    sides = [s.ours] + ([s.theirs] if s.theirs else [])
    with concurrent.futures.ThreadPoolExecutor(len(sides)) as pool:
        got = list(pool.map(lambda d: sources(d.files, d.python, d.config), sides))
    return got[0], (got[1] if len(got) > 1 else None)


def _table(shares: list[tuple[str, Share]]) -> str:
    head = f"{'':10}{'files':>7}{'lines':>8}{'Exprs':>8}{'Anys':>7}{'share':>9}{'errors':>8}"
    rows = [head, "-" * len(head)]
    for name, sh in shares:
        rows.append(
            f"{name:10}{sh.files:>7}{sh.lines:>8}{sh.exprs:>8}{sh.anys:>7}"
            f"{sh.share:>9.2%}{sh.errors:>8}"
        )
    return "\n".join(rows)


def _sources_table(name: str, src: Sources, n: int) -> str:
    rows = [f"top {n} sources of Any expressions in {name} names (all / produced directly):"]
    for s, count, direct in src.top(n):
        kinds = ", ".join(f"{k} {c}" for k, c in src.any_kinds[s].most_common())
        rows.append(f"  {count:>5} {direct:>5}  {s.name:40} [{kinds}]")
    others = collections.Counter[str]()
    for s, count in src.total.items():
        if s.kind != "lib":
            others[s.kind] += count
    rows.append("  elsewhere: " + ", ".join(f"{k} {c}" for k, c in others.most_common()))
    return "\n".join(rows)


def _as_json(share: Share, src: Sources | None, n: int) -> dict[str, object]:
    out: dict[str, object] = {
        "files": share.files,
        "lines": share.lines,
        "exprs": share.exprs,
        "anys": share.anys,
        "share": round(share.share, 6),
        "errors": share.errors,
        "modules": {m: {"anys": a, "exprs": e} for m, (a, e) in share.modules.items()},
        "types_of_anys": share.types_of_anys,
    }
    if src is not None:
        out["top_sources"] = [
            {"name": s.name, "anys": c, "direct": d, "any_kinds": dict(src.any_kinds[s])}
            for s, c, d in src.top(n)
        ]
        out["by_kind"] = dict(
            collections.Counter({s.kind: 0 for s in src.total}) + _kind_totals(src)
        )
    return out


def _kind_totals(src: Sources) -> collections.Counter[str]:
    totals = collections.Counter[str]()
    for s, count in src.total.items():
        totals[s.kind] += count
    return totals


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["--worker"]:
        return _worker(args_list[1:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument("--top", type=int, default=25, help="how many sources (default 25)")
    parser.add_argument("--no-sources", action="store_true", help="only the shares (faster)")
    parser.add_argument("--keep", type=Path, help="write the JAX copy here (and keep it)")
    args = parser.parse_args(args_list)
    with tempfile.TemporaryDirectory(prefix="any-share-") as tmp:
        s = setup(args.keep or Path(tmp))
        if s.copy is not None:
            for name, definition in s.copy.substituted.items():
                print(f"JAX copy: {name} from {COMPAT_MODULE}: {definition.splitlines()[0]}")
            for name in s.copy.unmapped:
                print(f"JAX copy: not in JAX, left as it is: {name}")
        if args.no_sources:
            ours, theirs = both_shares(s)
            src_ours: Sources | None = None
            src_theirs: Sources | None = None
        else:
            src_ours, src_theirs = both_sources(s)
            ours, theirs = src_ours.share, (src_theirs.share if src_theirs else None)
    shares = [(OURS, ours)] + ([(THEIRS, theirs)] if theirs else [])
    print(_table(shares))
    for name, src in ((OURS, src_ours), (THEIRS, src_theirs)):
        if src is not None:
            print()
            print(_sources_table(name, src, args.top))
    if args.json:
        figures: dict[str, object] = {OURS: _as_json(ours, src_ours, args.top)}
        if theirs:
            figures[THEIRS] = _as_json(theirs, src_theirs, args.top)
        if s.copy is not None:
            figures["jax_copy"] = {
                "substituted": s.copy.substituted,
                "unmapped": s.copy.unmapped,
            }
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    raise SystemExit(main())
