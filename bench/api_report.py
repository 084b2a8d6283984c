"""Summaries of an API-benchmark run (bench/api_bench.py): per-column statistics, the ratio
distribution, the full table, the JSON written by ``--json``/``--record`` and the ``--check``
comparison with a recorded baseline.

A column is ``eager`` and ``jit`` (µs/call, the best batch) or ``first`` (ms, the median sample).
A cell of a row is a library's value, its error (``Class: message``) or why it was skipped. The
ratio is jax_core / JAX (lower is better), for rows timed in both libraries.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

Json = dict[str, Any]
LIBS = ("jax_core", "jax")
COLUMNS = ("eager", "jit", "first")
UNITS = {"eager": "us/call", "jit": "us/call", "first": "ms"}
TITLES = {
    "eager": "eager: best of the batches, us/call",
    "jit": "jit (dispatch of a compiled wrapper): best of the batches, us/call",
    "first": "first call of a fresh jit (trace + lower + compile + run): median, ms",
}
CHECKED = ("eager", "jit")  # the columns --check compares


@dataclass(frozen=True)
class Cell:
    value: float | None = None
    error: str | None = None
    skip: str | None = None
    n: int | None = None  # calls per batch


def cell(reply: Json, column: str) -> Cell:
    """One library's cell from a worker's ``run`` reply (or a driver-side failure)."""
    part = reply.get(column)
    if part is None:
        return Cell(error=str(reply.get("fatal") or reply.get("crash") or "no answer"))
    if "skip" in part:
        return Cell(skip=str(part["skip"]))
    if "error" in part:
        return Cell(error=str(part["error"]))
    samples = [float(s) for s in part["samples"]]
    if not samples:
        return Cell(error="no samples")
    value = statistics.median(samples) if column == "first" else min(samples)
    return Cell(value=value, n=part.get("n"))


@dataclass(frozen=True)
class Result:
    """A row's outcome: the call timed, and per column the two libraries' cells."""

    name: str
    module: str
    call: str
    cells: dict[str, dict[str, Cell]]  # column -> lib -> cell

    def ratio(self, column: str) -> float | None:
        core, jx = self.cells[column]["jax_core"].value, self.cells[column]["jax"].value
        if core is None or jx is None or jx <= 0:
            return None
        return core / jx

    def summary(self) -> Json:
        out: Json = {"name": self.name, "module": self.module, "call": self.call}
        for col in COLUMNS:
            entry: Json = {"ratio": self.ratio(col)}
            for lib in LIBS:
                c = self.cells[col][lib]
                entry[lib] = c.value
                if c.error is not None:
                    entry[f"{lib}_error"] = c.error
                if c.skip is not None:
                    entry["skip"] = c.skip
                if c.n is not None:
                    entry[f"{lib}_n"] = c.n
            out[col] = entry
        return out


def _fmt(value: float | None, width: int = 9) -> str:
    if value is None:
        return f"{'-':>{width}}"
    if value >= 1000:
        return f"{value:{width}.0f}"
    return f"{value:{width}.{1 if value >= 100 else 2}f}"


def _quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation, as numpy.percentile's default."""
    xs = sorted(values)
    pos = (len(xs) - 1) * q
    lo, hi = math.floor(pos), math.ceil(pos)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def distribution(results: Sequence[Result], column: str, worst: int = 20) -> list[str]:
    """The ratio's distribution over the rows timed in both libraries, and the worst rows."""
    timed = [(r, ratio) for r in results if (ratio := r.ratio(column)) is not None]
    lines = [f"{TITLES[column]}:"]
    if not timed:
        return lines + ["  no row timed in both libraries"]
    ratios = [x for _, x in timed]
    geo = math.exp(statistics.fmean(math.log(x) for x in ratios))
    faster = sum(1 for x in ratios if x <= 1.0)
    lines.append(
        f"  {len(timed)} rows timed in both; ratio jax_core/JAX: median {_quantile(ratios, 0.5):.2f}, "
        f"p90 {_quantile(ratios, 0.9):.2f}, geomean {geo:.2f}, max {max(ratios):.2f}; "
        f"{faster} rows at or below 1.0, {sum(1 for x in ratios if x > 2.0)} above 2.0"
    )
    lines.append(f"  worst {min(worst, len(timed))} ({UNITS[column]}):")
    lines.append(f"    {'function':34} {'jax_core':>9} {'jax':>9} {'ratio':>7}  call")
    for r, x in sorted(timed, key=lambda t: -t[1])[:worst]:
        core, jx = r.cells[column]["jax_core"].value, r.cells[column]["jax"].value
        lines.append(f"    {r.name:34} {_fmt(core)} {_fmt(jx)} {x:7.2f}  {r.call}")
    return lines


def _short(c: Cell) -> str:
    if c.value is not None:
        return _fmt(c.value)
    return f"{'ERR' if c.error is not None else 'n/a':>9}"


def full_table(results: Sequence[Result]) -> list[str]:
    """Every row: per column both libraries' values and the ratio; then the errors."""
    head = f"{'function':34}"
    for col in COLUMNS:
        head += f" | {col + ' ' + UNITS[col]:>17} {'':>9} {'':>6}"
    sub = f"{'':34}" + "".join(f" | {'jax_core':>17} {'jax':>9} {'ratio':>6}" for _ in COLUMNS)
    lines = [head, sub, "-" * len(sub)]
    for r in results:
        line = f"{r.name:34}"
        for col in COLUMNS:
            core, jx = r.cells[col]["jax_core"], r.cells[col]["jax"]
            ratio = r.ratio(col)
            line += f" | {_short(core):>17} {_short(jx)} {(f'{ratio:6.2f}' if ratio else '     -')}"
        lines.append(f"{line}  {r.call}")
    lines += ["", *problems(results)]
    return lines


def problems(results: Sequence[Result]) -> list[str]:
    """The rows not timed in both libraries, grouped: raised in jax_core only, in JAX only, in
    both (usually a call the table marks for eager use, such as a Python-level query), skipped."""
    groups: dict[str, list[str]] = {"jax_core only": [], "jax only": [], "both": []}
    skipped: dict[str, list[str]] = {}
    for r in results:
        for col in COLUMNS:
            core, jx = r.cells[col]["jax_core"], r.cells[col]["jax"]
            if core.skip is not None:
                skipped.setdefault(core.skip, []).append(f"{r.name} [{col}]")
                continue
            if core.error is None and jx.error is None:
                continue
            key = (
                "both" if core.error and jx.error else "jax_core only" if core.error else "jax only"
            )
            msg = f"  {r.name} [{col}] {r.call}"
            if core.error:
                msg += f"\n      jax_core: {core.error}"
            if jx.error:
                msg += f"\n      jax:      {jx.error}"
            groups[key].append(msg)
    lines: list[str] = []
    for key, items in groups.items():
        lines.append(f"raised in {key} ({len(items)} cells, not timed):")
        lines += items or ["  none"]
    for why, names in skipped.items():
        lines.append(f"skipped, {why} ({len(names)} cells): {', '.join(names)}")
    return lines


def payload(meta: Json, results: Sequence[Result], raw: Sequence[Json] | None) -> Json:
    """The JSON of ``--json``: every row's summary, with every worker reply when ``raw`` is given."""
    rows = [r.summary() for r in results]
    if raw is not None:
        rows = [{**row, "raw": x} for row, x in zip(rows, raw, strict=True)]
    return {"meta": meta, "rows": rows}


def _round(value: float | None) -> float | None:
    return None if value is None else float(f"{value:.4g}")


def baseline_text(meta: Json, results: Sequence[Result]) -> str:
    """The ``--record`` file: per row the call and, per column, ``[jax_core, jax]`` (4
    significant digits; null where a library raised or the column does not apply); one row per
    line, so a re-recording diffs line by line."""
    rows: list[str] = []
    for r in results:
        row: Json = {"name": r.name, "call": r.call}
        for col in COLUMNS:
            row[col] = [_round(r.cells[col][lib].value) for lib in LIBS]
        rows.append(json.dumps(row, separators=(",", ":")))
    body = ",\n".join(rows)
    return f'{{"meta": {json.dumps(meta, sort_keys=True)},\n"rows": [\n{body}\n]}}\n'


def _recorded(row: Json, col: str) -> tuple[float | None, float | None]:
    """(jax_core, jax) of a column of a baseline row: a ``--record`` file's pair, or a
    ``--json`` file's summary."""
    entry = row.get(col)
    if isinstance(entry, list):
        core, jx = cast("list[float | None]", entry)
        return core, jx
    if isinstance(entry, dict):
        d = cast(Json, entry)
        return d.get("jax_core"), d.get("jax")
    return None, None


def check(
    results: Sequence[Result], baseline: Json, factor: float, min_us: float
) -> tuple[list[str], int]:
    """The rows whose eager or jit ratio grew by more than ``factor`` over the baseline's, and
    those that jax_core timed in the baseline but that now raise in jax_core; with their count.

    A ratio that grew is only reported when jax_core's time also exceeds what the baseline's
    ratio predicts from JAX's time now (``ratio_before * jax_now``) by more than ``min_us``: a
    sub-microsecond wobble of a 5 µs dispatch is noise on a shared machine, not a regression."""
    base = {row["name"]: row for row in baseline["rows"]}
    worse: list[str] = []
    compared = 0
    for r in results:
        old = base.get(r.name)
        if old is None:
            continue
        for col in CHECKED:
            core_was, jax_was = _recorded(old, col)
            core = r.cells[col]["jax_core"]
            if core_was is not None and core.error is not None:
                worse.append(f"  {r.name} [{col}] now raises in jax_core: {core.error}")
                continue
            now = r.ratio(col)
            if now is None or core_was is None or not jax_was:
                continue
            was = core_was / jax_was
            compared += 1
            jx = r.cells[col]["jax"].value
            assert core.value is not None and jx is not None
            if now > was * factor and core.value - was * jx > min_us:
                worse.append(
                    f"  {r.name} [{col}] ratio {was:.2f} -> {now:.2f} ({now / was:.2f}x); "
                    f"jax_core {_fmt(core_was).strip()} -> {_fmt(core.value).strip()} "
                    f"{UNITS[col]}, jax {_fmt(jax_was).strip()} -> {_fmt(jx).strip()}"
                )
    head = (
        f"check against the baseline: {compared} ratios compared ({', '.join(CHECKED)}); "
        f"{len(worse)} worse by more than {factor:g}x (and by more than {min_us:g} us)"
    )
    return [head, *worse], len(worse)
