"""examples/ under mypy with the plugin (tools/typecheck_examples.py, run by ``make demo``): the
examples are clean, and in examples/mistakes.py the plugin reports exactly the error codes named
by its ``# plugin: jax-<code>`` comments, on those lines."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from tests._tools import load_tool

ROOT = Path(__file__).resolve().parents[2]


def _tool() -> ModuleType:
    return load_tool("typecheck_examples")


def test_mistakes_mark_every_plugin_check() -> None:
    """mistakes.py shows each of the plugin's error codes at least once."""
    tool = _tool()
    from jax_core.mypy_plugin import _errors

    marked = set[str]().union(*tool.markers().values())
    codes = {code.code for code in _errors.ALL}
    assert marked == codes, f"add a mistake to examples/mistakes.py for {sorted(codes - marked)}"


def test_plugin_on_examples_matches_the_comments() -> None:
    tool = _tool()
    report = tool.check_plugin()
    assert not report.problems, "\n".join(report.problems)
    assert "examples/demo.py" in report.clean
    assert {d.line for d in report.found if d.code.startswith("jax-")} == set(report.expected)


def test_doc_messages_are_what_mypy_prints() -> None:
    """Every ``error: ...`` line quoted in docs/mypy-plugin.md is mypy's output, verbatim, on the
    page's examples (tests/mypy_plugin/doc_examples.py)."""
    tool = _tool()
    quoted = [
        line
        for line in (ROOT / "docs" / "mypy-plugin.md").read_text().splitlines()
        if line.startswith("error: ")
    ]
    examples = Path(__file__).with_name("doc_examples.py")
    found = tool.run_mypy(
        [
            "--config-file",
            str(tool.MYPY_INI),
            "--cache-dir",
            str(tool.CACHE / "examples"),
            str(examples),
        ]
    )
    printed = {f"error: {d.message}  [{d.code}]" for d in found}
    assert quoted
    missing = [line for line in quoted if line not in printed]
    assert not missing, "update docs/mypy-plugin.md:\n" + "\n".join(missing)
