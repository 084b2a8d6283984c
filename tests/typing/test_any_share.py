"""The share of ``Any`` expressions in the public-code corpus (typing/public) may not grow.

tools/any_share.py runs mypy's ``--any-exprs-report`` (typing/mypy.ini, strict) over the corpus;
jax_core's share must stay at or below the ceiling recorded in any_share_ceiling.json (the
figure measured when it was recorded, plus slack). With .venv-jax (``make test`` builds it) the
same corpus, rewritten to import real JAX, is checked too, concurrently, and jax_core's share
must be below JAX's. After a change that lowers the share, lower the ceiling: run
``.venv/bin/python tools/any_share.py`` and record its figure plus 0.5 points.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

from tests._tools import load_tool

ROOT = Path(__file__).resolve().parents[2]
CEILING = Path(__file__).with_name("any_share_ceiling.json")


def _tool() -> ModuleType:
    return load_tool("any_share")


def test_any_share(tmp_path: Path) -> None:
    tool = _tool()
    ceiling = json.loads(CEILING.read_text())
    setup = tool.setup(tmp_path)
    ours, theirs = tool.both_shares(setup)
    assert ours.exprs > 1000, f"the corpus looks empty: {ours}"
    measured = f"jax_core: {ours.anys} Any of {ours.exprs} expressions, {ours.share:.2%}"
    assert 100 * ours.share <= ceiling["ceiling_percent"], (
        f"{measured}, above the ceiling {ceiling['ceiling_percent']}% "
        "(tools/any_share.py lists where the Anys come from)"
    )
    if theirs is not None:
        assert setup.copy is not None and not setup.copy.unmapped, setup.copy
        assert ours.share < theirs.share, (
            f"{measured}; JAX: {theirs.anys} of {theirs.exprs}, {theirs.share:.2%}"
        )
