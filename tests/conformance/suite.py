"""The conformance suite as a whole: the cases of every table, the reviewed exclusions, and one run
of both implementations summarised as a table per module.

    python -m tests.conformance.suite            # the seed-fixed sample make test runs
    python -m tests.conformance.suite --full     # every generated call (make conformance-full)
    python -m tests.conformance.suite --module lax --show 40
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tests.conformance import compare, runner, spec
from tests.conformance.tables import TABLES

EXCLUSIONS = Path(__file__).resolve().parent / "exclusions.txt"
RECORDED = Path(__file__).resolve().parent / "recorded_sample.json.gz"
"""JAX's outcomes of the sample, for a machine without ``.venv-jax`` (``--record`` rewrites it)."""
SAMPLE_FRACTION = 0.03  # make test: 873 of the 26,467 calls, two workers side by side
SAMPLE_SEED = 0


def entries() -> list[tuple[str, spec.Entry]]:
    return [(module, e) for module, prefix, text, _ in TABLES for e in spec.parse(prefix, text)]


def all_cases(modules: Sequence[str] = ()) -> list[spec.Case]:
    return [
        c for module, e in entries() if not modules or module in modules
        for c in spec.cases(e, module)
    ]  # fmt: skip


@dataclass(frozen=True)
class Exclusion:
    pattern: str  # over "<case id> [<mode>]": * matches anything, every other character itself
    kind: str  # a mismatch kind, or *
    reason: str

    def covers(self, case: spec.Case, kind: str) -> bool:
        regex = ".*".join(re.escape(part) for part in self.pattern.split("*"))
        return self.kind in ("*", kind) and re.fullmatch(regex, f"{case.id} [{case.mode}]") is not None


def exclusions() -> list[Exclusion]:
    out = []
    for raw in EXCLUSIONS.read_text().splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        pattern, kind, reason = (p.strip() for p in raw.split(" | ", 2))
        assert reason, f"an exclusion needs its reason: {raw!r}"
        out.append(Exclusion(pattern, kind, reason))
    return out


@dataclass(frozen=True)
class Finding:
    case: spec.Case
    kind: str
    ours: runner.Result
    theirs: runner.Result
    excluded: Exclusion | None

    def describe(self) -> str:
        return (f"{self.kind:12} {self.case.id} [{self.case.mode}]\n"
                f"    jax_core {self.ours.describe()[:300]}\n"
                f"    JAX      {self.theirs.describe()[:300]}")  # fmt: skip


def run(cases: Sequence[spec.Case], *, recorded: bool = False) -> list[Finding]:
    """Both implementations on every case (``recorded``: jax_core live, JAX from the recording,
    floats then compared within ``compare.RECORDED_RTOL``: the recording came from another CPU)."""
    if recorded:
        theirs = load_recorded(cases)
        ours = runner.run_worker("jax_core", [c.request() for c in cases])
    else:
        ours, theirs = runner.run_both([c.request() for c in cases])
    rules = exclusions()
    found = []
    for case, o, t in zip(cases, ours, theirs, strict=True):
        kind = compare.mismatch(o, t, case.ulps, recorded=recorded)
        if kind is not None:
            rule = next((r for r in rules if r.covers(case, kind)), None)
            found.append(Finding(case, kind, o, t, rule))
    return found


def _key(case: spec.Case) -> str:
    """A case's key in the recording: its id and mode, and its expression (two cases of one
    line can share an id, e.g. ``fold_in(key, 3)`` and ``fold_in(key, 2 ** 31)``)."""
    return f"{case.id} [{case.mode}] {case.expr}"


def record(cases: Sequence[spec.Case]) -> None:
    theirs = runner.run_worker("jax", [c.request() for c in cases])
    out = {_key(c): runner.encode_result(t) for c, t in zip(cases, theirs, strict=True)}
    with gzip.open(RECORDED, "wt") as f:
        json.dump(out, f, sort_keys=True, separators=(",", ":"))


def load_recorded(cases: Sequence[spec.Case]) -> list[runner.Result]:
    with gzip.open(RECORDED, "rt") as f:
        saved = json.load(f)
    missing = [_key(c) for c in cases if _key(c) not in saved]
    assert not missing, (
        f"{len(missing)} sample calls have no recorded JAX outcome (e.g. {missing[0]}): "
        "run `python -m tests.conformance.suite --record` where .venv-jax exists"
    )
    return [runner.decode_result(saved[_key(c)]) for c in cases]


def table(cases: Sequence[spec.Case], found: Sequence[Finding]) -> str:
    modules = list(dict.fromkeys(c.module for c in cases))
    calls = Counter(c.module for c in cases)
    lines = [f"{'module':15} {'calls':>7} {'mismatch':>8} {'excluded':>8}  by kind (not excluded)"]
    for m in modules:
        mine = [f for f in found if f.case.module == m]
        open_ = Counter(f.kind for f in mine if f.excluded is None)
        kinds = ", ".join(f"{k} {n}" for k, n in open_.most_common())
        lines.append(f"{m:15} {calls[m]:7} {len(mine) - sum(1 for f in mine if f.excluded):8} "
                     f"{sum(1 for f in mine if f.excluded):8}  {kinds}")  # fmt: skip
    total = len(found)
    excl = sum(1 for f in found if f.excluded)
    lines.append(f"{'total':15} {len(cases):7} {total - excl:8} {excl:8}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="every generated call, not the sample")
    parser.add_argument("--module", action="append", default=[], help="only these modules")
    parser.add_argument("--show", type=int, default=30, help="list this many open mismatches")
    parser.add_argument("--grep", default="", help="only cases whose id contains this")
    parser.add_argument("--record", action="store_true", help="rewrite the sample's recorded JAX outcomes")
    parser.add_argument("--recorded", action="store_true", help="compare with the recording, not live JAX")
    args = parser.parse_args(argv)
    cases = all_cases(args.module)
    if not args.full:
        cases = spec.sample(cases, SAMPLE_FRACTION, SAMPLE_SEED)
    if args.grep:
        cases = [c for c in cases if args.grep in c.id]
    start = time.perf_counter()
    if args.record:
        record(spec.sample(all_cases(), SAMPLE_FRACTION, SAMPLE_SEED))
        print(f"recorded {RECORDED.name} ({time.perf_counter() - start:.0f} s)")
        return 0
    found = run(cases, recorded=args.recorded)
    print(table(cases, found))
    print(f"({time.perf_counter() - start:.0f} s)")
    open_ = [f for f in found if f.excluded is None]
    for f in open_[: args.show]:
        print(f.describe())
    return 1 if open_ else 0


if __name__ == "__main__":
    sys.exit(main())
