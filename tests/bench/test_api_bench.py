"""The API benchmark's harness (bench/api_bench.py), without running it: every table line gives a
call whose source compiles, names are unique, ``--only`` selects as documented, and ``--check``
flags a ratio that grew (the timing itself is a bench, not a test)."""

from __future__ import annotations

from bench import api_bench, api_calls, api_report
from tests.conformance.tables import TABLES


def test_one_row_per_table_line_plus_the_host_rows() -> None:
    rows = api_calls.all_rows()
    lines = sum(
        1 for _, _, text, _ in TABLES for raw in text.splitlines() if raw.split("  #")[0].strip()
    )
    assert len(rows) == lines + len(api_calls.HOST_ROWS)
    assert len({r.name for r in rows}) == len(rows)
    for row in rows:
        assert row.candidates, row.name
        for call in row.candidates:
            compile(call.src, row.name, "eval")
            assert set(call.args) == set(call.inputs), row.name
    by_name = {r.name: r for r in rows}
    assert [c.describe for c in by_name["jnp.sum"].candidates[:3]] == [
        "jnp.sum(float32[8,8])",
        "jnp.sum(float32[2,3])",
        "jnp.sum(float32[8,8], axis=0)",
    ]
    assert by_name["jnp.dot"].candidates[0].describe == "jnp.dot(float32[2,3], float32[3])"
    assert by_name["jnp.transpose"].candidates[0].src == "lambda x0: jnp.transpose(x0)"
    assert by_name["jnp.array_repr"].no_jit is not None
    assert by_name["host.float(x.sum())"].candidates[0].src == "lambda x0: float(x0.sum())"


def test_lines_are_mended_before_spec_reads_them() -> None:
    # lambda parameters named like kinds stay parameters; nested kinds in a choice: the first
    assert api_calls.prepare("cond(b[-1], lambda x: x + 1, lambda x: x * 2, a)")[0] == (
        "cond(b[-1], lambda x_: x_ + 1, lambda x_: x_ * 2, a) "
    )
    assert api_calls.prepare("block([a[2, 3], a[2, 2]]|[[a[1, 3]]])  -grad") == (
        "block([a[2, 3], a[2, 2]]) -grad",
        None,
    )
    assert api_calls.prepare("vectorize(jnp.add)(a, a)") == (
        "CURRIEDX(a, a) ",
        "vectorize(jnp.add)",
    )


def test_only_takes_globs_and_substrings() -> None:
    names = ["jnp.sum", "jnp.cumsum", "jnp.linalg.inv", "lax.add"]
    assert api_bench.select(names, "jnp.linalg.*") == {"jnp.linalg.inv"}
    assert api_bench.select(names, "sum, lax.add") == {"jnp.sum", "jnp.cumsum", "lax.add"}
    assert api_bench.select(names, None) == set(names)


def _result(name: str, core: float, jax: float) -> api_report.Result:
    cells = {
        col: {
            "jax_core": api_report.Cell(value=core),
            "jax": api_report.Cell(value=jax),
        }
        for col in api_report.COLUMNS
    }
    return api_report.Result(name, "numpy", f"{name}(float32[8,8])", cells)


def test_check_flags_a_grown_ratio_and_ignores_noise() -> None:
    before = [_result("f", 10.0, 10.0), _result("g", 10.0, 10.0), _result("h", 2.0, 2.0)]
    baseline = api_report.payload({}, before, None)
    now = [_result("f", 20.0, 10.0), _result("g", 12.0, 10.0), _result("h", 2.7, 2.0)]
    lines, worse = api_report.check(now, baseline, factor=1.3, min_us=1.0)
    assert worse == 2  # f, eager and jit; g is within 1.3x; h is 1.35x but only 0.7 us
    assert all(" f [" in line for line in lines[1:])
