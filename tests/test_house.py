"""The house rules of docs/architecture.md that no other test checks: small modules."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 800


def _generated(path: Path) -> bool:
    """A generated file says so in its first line and names its generator."""
    first = path.read_text().split("\n", 1)[0]
    return "Generated" in first or "generated" in first


def test_no_module_over_800_lines() -> None:
    big = []
    for folder in ("jax_core", "mypy_plugin", "stubs"):
        for path in sorted((ROOT / folder).rglob("*.py*")):
            if path.suffix not in (".py", ".pyi") or _generated(path):
                continue
            n = len(path.read_text().splitlines())
            if n > LIMIT:
                big.append(f"{path.relative_to(ROOT)}: {n} lines")
    assert not big, "modules over 800 lines (split them by what they hold):\n" + "\n".join(big)


def test_the_house_rule_catches_a_big_module(tmp_path: Path) -> None:
    module = tmp_path / "big.py"
    module.write_text("x = 1\n" * (LIMIT + 1))
    assert len(module.read_text().splitlines()) > LIMIT and not _generated(module)
