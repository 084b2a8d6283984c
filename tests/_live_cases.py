"""The live comparisons a module of expression cases makes with real JAX, in three groups: values
bit for bit (``exact``), values within a tolerance (``close``: the same dtypes and shapes, values
within ``tolerance``, for results whose order of operations may differ), and errors (the same
exception class and message). A test module binds what :func:`live_case_tests` returns to its
own names, where pytest collects them::

    live, test_bit_identical, test_close, test_errors = live_case_tests(EXACT, CLOSE, ERRORS, tolerance=1e-4)
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from tests.oracle.client import (
    Call,
    Outcome,
    assert_same,
    concretization_head,
    evaluate,
    here,
    live_fixture,
    prefetch,
)

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


def same_outcome_tests(calls: Sequence[Call]) -> tuple[Any, Callable[[int, list[Outcome]], None]]:
    """The module's ``live`` fixture (real JAX's outcome of every call, in order: x64 variants of
    one expression stay apart) and ``test_same_as_live_jax``: values bit for bit, errors with JAX's
    class and message (a concretization error's up to its documentation link)."""
    prefetch(calls, sys._getframe(1).f_globals.get("__name__", ""))  # pyright: ignore[reportPrivateUsage]
    ids = [f"{c.expr}{' [x64]' if c.x64 else ''}" for c in calls]

    @pytest.fixture(scope="module")
    def live() -> list[Outcome]:
        return evaluate(calls)

    @pytest.mark.parametrize("index", range(len(calls)), ids=ids)
    def test_same_as_live_jax(index: int, live: list[Outcome]) -> None:
        call, theirs = calls[index], live[index]
        got = here(call)
        if theirs.error == "ConcretizationTypeError":
            assert (got.error, concretization_head(got.message)) == (theirs.error, concretization_head(theirs.message))
            return
        assert_same(got, theirs, call.expr, messages=theirs.error is not None)

    return live, test_same_as_live_jax
