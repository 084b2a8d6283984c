"""The live comparisons a module of expression cases makes with real JAX, in three groups: values
bit for bit (``exact``), values within a tolerance (``close``: the same dtypes and shapes, values
within ``tolerance``, for results whose order of operations may differ), and errors (the same
exception class and message). A test module binds what :func:`live_case_tests` returns to its
own names, where pytest collects them::

    live, test_bit_identical, test_close, test_errors = live_case_tests(EXACT, CLOSE, ERRORS, tolerance=1e-4)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture

CaseTest = Callable[[str, dict[str, Outcome]], None]


def assert_close(ours: Outcome, theirs: Outcome, tolerance: float) -> None:
    """Both calls returned the same number of leaves, each of the same dtype and shape, with values
    within ``tolerance`` (relative and absolute)."""
    assert ours.leaves is not None and theirs.leaves is not None, (ours.describe(), theirs.describe())
    assert len(ours.leaves) == len(theirs.leaves)
    for a, b in zip(ours.leaves, theirs.leaves, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=tolerance, atol=tolerance)


def live_case_tests(
    exact: Sequence[str], close: Sequence[str], errors: Sequence[str], *, tolerance: float
) -> tuple[Any, CaseTest, CaseTest, CaseTest]:
    """The module's ``live`` fixture (one oracle batch for every case) and its three parametrized
    tests: ``exact`` cases bit-identical, ``close`` ones within ``tolerance``, ``errors`` with
    JAX's exception class and message."""
    live = live_fixture([Call(e) for e in (*exact, *close, *errors)])

    @pytest.mark.parametrize("expr", exact)
    def test_bit_identical(expr: str, live: dict[str, Outcome]) -> None:
        assert_same(here(Call(expr)), live[expr], expr)

    @pytest.mark.parametrize("expr", close)
    def test_close(expr: str, live: dict[str, Outcome]) -> None:
        assert_close(here(Call(expr)), live[expr], tolerance)

    @pytest.mark.parametrize("expr", errors)
    def test_errors(expr: str, live: dict[str, Outcome]) -> None:
        assert_same(here(Call(expr)), live[expr], expr, messages=True)

    return live, test_bit_identical, test_close, test_errors
