"""Coverage of JAX 0.12's public API by jax_core, module by module.

    python tools/api_coverage.py                    # the table: per module and totals
    python tools/api_coverage.py --missing jax.lax  # the names jax_core lacks in one module
    python tools/api_coverage.py --json out.json    # also write the figures
    python tools/api_coverage.py --record           # re-record api/jax_0.12_names.json
    python tools/api_coverage.py --write-floor      # set api/coverage_floor.json to today's counts

``--record`` runs real JAX (the ``.venv-jax`` interpreter, or ``$JAX_PYTHON``) in a subprocess,
since jax_core and JAX never share a process. For each module of ``MODULES`` that imports, it lists
the public names (``dir`` without ``_`` names; a name bound to a module counts only when it is that
module's own submodule and not itself in ``MODULES``, so ``np`` or ``jnp`` are left out) with their
kind and ``inspect.signature``. The default run reads that snapshot (JAX is not needed), imports
jax_core's counterpart of each module (``jax.numpy`` -> ``jax_core.numpy``) and counts a JAX name
as present when the counterpart has an attribute of that name.

A name is excluded (``api/coverage_exclusions.txt``, reviewed, with a reason each) when jax_core
means not to provide it; an excluded name that jax_core has anyway counts as present. Coverage is
``present / (present + missing)``. The names owned by other open issues (``MODULE_OWNERS``,
``NAME_OWNERS``) are counted in the overall total and left out of the second, "owned" total.
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib
import json
import os
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from types import ModuleType
from typing import TypedDict, cast

ROOT = Path(__file__).resolve().parents[1]
SNAPSHOT = ROOT / "api" / "jax_0.12_names.json"
EXCLUSIONS = ROOT / "api" / "coverage_exclusions.txt"
FLOOR = ROOT / "api" / "coverage_floor.json"
JAX_PYTHON = ROOT / ".venv-jax" / "bin" / "python"

STATS_DISTRIBUTIONS = (
    "norm", "expon", "laplace", "logistic", "beta", "gamma", "t", "uniform",
    "multivariate_normal", "poisson", "bernoulli", "binom", "cauchy", "chi2", "dirichlet", "geom",
    "gennorm", "truncnorm", "vonmises", "wrapcauchy", "pareto", "nbinom", "betabinom", "gumbel_l",
    "gumbel_r", "multinomial",
)  # fmt: skip

# The JAX 0.12 public modules compared; those that do not import in JAX are left out of the
# snapshot (and listed in its "not_importable").
MODULES: tuple[str, ...] = (
    "jax", "jax.numpy", "jax.numpy.linalg", "jax.numpy.fft", "jax.lax", "jax.lax.linalg",
    "jax.nn", "jax.nn.initializers", "jax.random",
    "jax.scipy.special", "jax.scipy.linalg", "jax.scipy.stats",
    *(f"jax.scipy.stats.{d}" for d in STATS_DISTRIBUTIONS),
    "jax.scipy.signal", "jax.scipy.fft", "jax.scipy.optimize", "jax.scipy.integrate",
    "jax.scipy.ndimage", "jax.scipy.interpolate", "jax.scipy.spatial.transform",
    "jax.scipy.cluster.vq", "jax.scipy.sparse.linalg",
    "jax.tree_util", "jax.tree", "jax.dtypes", "jax.errors", "jax.typing", "jax.sharding",
    "jax.ad_checkpoint", "jax.image", "jax.ops", "jax.custom_derivatives", "jax.stages",
    "jax.flatten_util", "jax.dlpack", "jax.profiler", "jax.monitoring",
    "jax.example_libraries.stax", "jax.example_libraries.optimizers",
    "jax.debug", "jax.export", "jax.extend", "jax.ffi", "jax.experimental.layout",
    "jax.distributed", "jax.test_util",
    "jax.extend.core", "jax.extend.core.primitives", "jax.extend.mlir", "jax.extend.random",
    "jax.extend.backend", "jax.extend.sharding", "jax.extend.linear_util",
    "jax.extend.source_info_util", "jax.interpreters.ad", "jax.interpreters.batching",
    "jax.interpreters.mlir", "jax.interpreters.partial_eval", "jax.interpreters.xla",
)  # fmt: skip

# Owners other than this issue ("the rest of JAX's public API"): the titles of the open issues.
SHARDING, EFFECTS, EXPORT, EXTEND, LAYOUTS, MULTI_PROCESS = (
    "sharding", "effects", "export", "extend", "layouts", "multi-process",
)  # fmt: skip
OWNERS = (SHARDING, EFFECTS, EXPORT, EXTEND, LAYOUTS, MULTI_PROCESS)

# A module (and everything under it) owned by another issue.
MODULE_OWNERS: dict[str, str] = {
    "jax.sharding": SHARDING,
    "jax.debug": EFFECTS,
    "jax.export": EXPORT,
    "jax.extend": EXTEND,
    "jax.ffi": EXTEND,
    "jax.interpreters": EXTEND,
    "jax.experimental.layout": LAYOUTS,
    "jax.distributed": MULTI_PROCESS,
}

# ``module.name`` patterns (fnmatch) owned by another issue.
NAME_OWNERS: dict[str, str] = {
    # shardings, meshes, shard_map, pmap and the collectives
    **dict.fromkeys(
        (
            "jax.NamedSharding", "jax.P", "jax.Shard", "jax.shard_map", "jax.smap", "jax.pmap",
            "jax.make_mesh", "jax.set_mesh", "jax.get_mesh", "jax.get_abstract_mesh",
            "jax.use_abstract_mesh", "jax.remove_size_one_mesh_axis_from_type", "jax.reshard",
            "jax.auto_pcast", "jax.make_array_from_callback",
            "jax.make_array_from_single_device_arrays", "jax.device_put_sharded",
            "jax.device_put_replicated",
            "jax.lax.psum*", "jax.lax.pmean*", "jax.lax.pmax*", "jax.lax.pmin*",
            "jax.lax.all_gather*", "jax.lax.all_to_all*", "jax.lax.ragged_all_to_all*",
            "jax.lax.ppermute*", "jax.lax.pshuffle*", "jax.lax.pswapaxes*", "jax.lax.psend*",
            "jax.lax.precv*", "jax.lax.axis_index*", "jax.lax.axis_size*", "jax.lax.pbroadcast*",
            "jax.lax.pcast*", "jax.lax.pvary*", "jax.lax.with_sharding_constraint",
            "jax.lax.sharding_constraint_p", "jax.memory", "jax.debug.visualize_array_sharding",
            "jax.debug.visualize_sharding", "jax.debug.inspect_array_sharding",
        ),
        SHARDING,
    ),
    # callbacks and effects
    **dict.fromkeys(
        ("jax.pure_callback", "jax.io_callback", "jax.debug_callback", "jax.effects_barrier"),
        EFFECTS,
    ),
    # the internals-facing modules transformation authors use, as jax.extend
    **dict.fromkeys(("jax.interpreters", "jax.core", "jax.api_util"), EXTEND),
    # mutable array references and their gradient accumulators are stateful effects
    **dict.fromkeys(
        ("jax.Ref", "jax.ref", "jax.new_ref", "jax.empty_ref", "jax.free_ref", "jax.freeze", "jax.ad", "jax.ds"),
        EFFECTS,
    ),
    # several processes
    **dict.fromkeys(
        (
            "jax.process_index", "jax.process_count", "jax.process_indices", "jax.host_count",
            "jax.host_id", "jax.host_ids", "jax.make_array_from_process_local_data", "jax.thread_guard",
        ),
        MULTI_PROCESS,
    ),
}  # fmt: skip


def owner(module: str, name: str) -> str | None:
    """The other issue that owns ``module.name``, or None when this issue owns it."""
    full = f"{module}.{name}"
    for pattern, who in NAME_OWNERS.items():  # a name's owner first: it may differ from its module's
        if fnmatch.fnmatchcase(full, pattern):
            return who
    for mod, who in MODULE_OWNERS.items():
        if module == mod or module.startswith(mod + "."):
            return who
    return None


# Runs under real JAX: argv[1] is the JSON list of modules; prints the JSON record.
_RECORD = r"""
import importlib, inspect, json, re, sys, types, warnings

import jax

modules = json.loads(sys.argv[1])
loaded = {}
not_importable = {}
for name in modules:
    try:
        loaded[name] = importlib.import_module(name)
    except Exception as e:
        not_importable[name] = f"{type(e).__name__}: {e}".splitlines()[0]

# A listed module, or a package holding one (jax.scipy, jax.example_libraries, jax.experimental):
# counted through the listed modules, and present in dir() only because they were imported here.
containers = {".".join(m.split(".")[:i]) for m in loaded for i in range(2, m.count(".") + 2)}

ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def signature(value):
    try:
        return ADDRESS.sub("", str(inspect.signature(value)))
    except Exception:
        return None


out = {}
for modname, mod in loaded.items():
    entries = {}
    for attr in sorted(dir(mod)):
        if attr.startswith("_"):
            continue
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                value = getattr(mod, attr)
            except Exception:
                continue
        entry = {}
        if isinstance(value, types.ModuleType):
            # Listed modules (and their packages) are recorded on their own; other modules (np,
            # jnp, functools) are imports, not API, unless they are this module's own submodule.
            if value.__name__ in containers or value.__name__ != f"{modname}.{attr}":
                continue
            entry["kind"] = "module"
        elif isinstance(value, type):
            entry["kind"] = "class"
        elif callable(value):
            entry["kind"] = "function"
        else:
            entry["kind"] = "other"
        entry["signature"] = signature(value) if entry["kind"] in ("class", "function") else None
        if any(issubclass(w.category, DeprecationWarning) for w in caught):
            entry["deprecated"] = True
        entries[attr] = entry
    out[modname] = entries
json.dump({"jax_version": jax.__version__, "not_importable": not_importable, "modules": out},
          sys.stdout)
"""


class Entry(TypedDict, total=False):
    kind: str
    signature: str | None
    deprecated: bool


class Snapshot(TypedDict):
    jax_version: str
    not_importable: dict[str, str]
    modules: dict[str, dict[str, Entry]]


def jax_python() -> str:
    """The interpreter with real JAX: ``$JAX_PYTHON``, else ``.venv-jax``."""
    return os.environ.get("JAX_PYTHON") or str(JAX_PYTHON)


def record_text(python: str | None = None) -> str:
    """The snapshot file's text, recorded now from real JAX run with ``python``."""
    proc = subprocess.run(
        [python or jax_python(), "-c", _RECORD, json.dumps(list(MODULES))],
        check=True,
        capture_output=True,
        text=True,
    )
    return format_snapshot(cast(Snapshot, json.loads(proc.stdout)))


def format_snapshot(snap: Snapshot) -> str:
    """Valid JSON with one line per name (sorted), so that a re-recording diffs readably."""
    dumps = json.dumps
    lines = ["{", f'  "jax_version": {dumps(snap["jax_version"])},']
    lines.append(f'  "not_importable": {dumps(snap["not_importable"], sort_keys=True)},')
    lines.append('  "modules": {')
    mods = sorted(snap["modules"])
    for i, mod in enumerate(mods):
        names = snap["modules"][mod]
        lines.append(f"    {dumps(mod)}: {{")
        keys = sorted(names)
        for j, name in enumerate(keys):
            comma = "," if j < len(keys) - 1 else ""
            lines.append(f"      {dumps(name)}: {dumps(names[name], sort_keys=True)}{comma}")
        lines.append("    }" + ("," if i < len(mods) - 1 else ""))
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def load_snapshot(path: Path = SNAPSHOT) -> Snapshot:
    return cast(Snapshot, json.loads(path.read_text()))


def load_exclusions(path: Path = EXCLUSIONS) -> dict[str, str]:
    """``module.name`` -> reason, from lines ``module.name  # reason``."""
    out: dict[str, str] = {}
    for line in path.read_text().splitlines():
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        key, _, reason = text.partition("#")
        out[key.strip()] = reason.strip()
    return out


def split_name(full: str, modules: set[str]) -> tuple[str, str]:
    """``jax.scipy.stats.norm.pdf`` -> ``("jax.scipy.stats.norm", "pdf")``: the longest module."""
    parts = full.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        mod = ".".join(parts[:cut])
        if mod in modules:
            return mod, ".".join(parts[cut:])
    raise ValueError(f"{full!r} names no module of the snapshot")


def counterpart(module: str) -> str:
    """``jax.numpy`` -> ``jax_core.numpy``."""
    return "jax_core" + module[len("jax") :]


def import_counterpart(module: str) -> ModuleType | None:
    try:
        return importlib.import_module(counterpart(module))
    except ImportError:
        return None


@dataclass
class Row:
    module: str
    jax: int = 0
    present: int = 0
    excluded: int = 0
    missing: int = 0

    @property
    def coverage(self) -> float:
        wanted = self.present + self.missing
        return 100.0 * self.present / wanted if wanted else 100.0

    def add(self, other: Row) -> None:
        self.jax += other.jax
        self.present += other.present
        self.excluded += other.excluded
        self.missing += other.missing


@dataclass
class Report:
    rows: list[Row]
    total: Row
    owned: Row
    by_owner: dict[str, Row]
    missing: dict[str, list[str]]
    absent_modules: list[str]


def compute(snap: Snapshot, exclusions: dict[str, str]) -> Report:
    """The figures: per module, overall, for this issue's names, and per other issue."""
    rows: list[Row] = []
    total, owned = Row("total"), Row("owned by this issue")
    by_owner = {who: Row(who) for who in OWNERS}
    missing: dict[str, list[str]] = {}
    absent: list[str] = []
    for module in sorted(snap["modules"]):
        ours = import_counterpart(module)
        if ours is None:
            absent.append(module)
        row = Row(module)
        missing[module] = []
        for name in sorted(snap["modules"][module]):
            cell = Row(module, jax=1)
            if ours is not None and hasattr(ours, name):
                cell.present = 1
            elif f"{module}.{name}" in exclusions:
                cell.excluded = 1
            else:
                cell.missing = 1
                missing[module].append(name)
            row.add(cell)
            who = owner(module, name)
            (owned if who is None else by_owner[who]).add(cell)
        rows.append(row)
        total.add(row)
    return Report(rows, total, owned, by_owner, missing, absent)


def table(report: Report) -> str:
    width = max(len(r.module) for r in report.rows + [report.owned])
    head = f"{'module':<{width}}  {'jax':>5}  {'present':>7}  {'excluded':>8}  {'missing':>7}  {'cov%':>6}"

    def line(r: Row) -> str:
        return (
            f"{r.module:<{width}}  {r.jax:>5}  {r.present:>7}  {r.excluded:>8}  {r.missing:>7}  "
            f"{r.coverage:>6.1f}"
        )

    rule = "-" * len(head)
    out = [head, rule]
    for r in report.rows:
        flag = "  (no jax_core module)" if r.module in report.absent_modules else ""
        out.append(line(r) + flag)
    out += [rule, line(report.total), line(report.owned), rule, "owned by other issues:"]
    out += [line(report.by_owner[who]) for who in OWNERS]
    return "\n".join(out)


def figures(report: Report) -> dict[str, object]:
    return {
        "modules": {r.module: asdict(r) | {"coverage": round(r.coverage, 2)} for r in report.rows},
        "total": asdict(report.total) | {"coverage": round(report.total.coverage, 2)},
        "owned": asdict(report.owned) | {"coverage": round(report.owned.coverage, 2)},
        "by_owner": {
            who: asdict(r) | {"coverage": round(r.coverage, 2)}
            for who, r in report.by_owner.items()
        },
        "absent_modules": report.absent_modules,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--record", action="store_true", help="re-record the snapshot from JAX")
    parser.add_argument("--missing", metavar="MODULE", help="list one module's missing names")
    parser.add_argument("--json", metavar="PATH", type=Path, help="write the figures as JSON")
    parser.add_argument(
        "--write-floor", action="store_true", help="raise api/coverage_floor.json to today's counts"
    )
    args = parser.parse_args(argv)
    if args.record:
        SNAPSHOT.write_text(record_text())
        snap = load_snapshot()
        print(f"wrote {SNAPSHOT.relative_to(ROOT)}: {len(snap['modules'])} modules")
        for mod, why in snap["not_importable"].items():
            print(f"  not importable in JAX: {mod} ({why})")
        return 0
    report = compute(load_snapshot(), load_exclusions())
    if args.missing is not None:
        if args.missing not in report.missing:
            print(f"{args.missing}: not a module of the snapshot", file=sys.stderr)
            return 2
        for name in report.missing[args.missing]:
            who = owner(args.missing, name)
            print(name if who is None else f"{name}  [{who}]")
        return 0
    print(table(report))
    if args.write_floor:
        floor = {row.module: row.present for row in report.rows}
        FLOOR.write_text(json.dumps(floor, indent=1, sort_keys=True) + "\n")
        print(f"wrote {FLOOR.relative_to(ROOT)}")
    if args.json is not None:
        args.json.write_text(json.dumps(figures(report), indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
