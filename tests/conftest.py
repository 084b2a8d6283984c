"""Suite-wide hooks."""

from __future__ import annotations

import os
from collections.abc import Generator

import pytest

from tests._xla_target import F16_CODEGEN_REASON, raised_f16_codegen_failure
from tests.oracle import client as oracle

_XDIST_WORKER = "PYTEST_XDIST_WORKER" in os.environ
_STARTED: set[str] = set()  # the modules whose oracle batch this xdist worker has started


def _module_name(item: pytest.Item) -> str | None:
    return item.module.__name__ if isinstance(item, pytest.Function) and item.module is not None else None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Starts real JAX's side of the selected modules' live comparisons in the background
    (``tests/oracle/client.py``: the oracle computes on one core while the tests run).

    Under pytest-xdist (``make pytest``: one worker per core, whole files each) every worker collects
    every test but runs only the files it is sent, so a worker starts a module's batch when it
    runs that module's first test instead (``pytest_runtest_setup``)."""
    if not _XDIST_WORKER:
        oracle.start_prefetch({m for m in map(_module_name, items) if m is not None})


def pytest_runtest_setup(item: pytest.Item) -> None:
    module = _module_name(item)
    if _XDIST_WORKER and module is not None and module not in _STARTED:
        _STARTED.add(module)
        oracle.start_prefetch({module})


def pytest_sessionfinish() -> None:
    oracle.stop_prefetch()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A test that fails only because XLA cannot compile float16 for the CPU target it was told to
    use (``--xla_cpu_max_isa=SSE4_2``) is reported as skipped: real JAX fails the same way."""
    report = yield
    if (
        report.failed
        and call.excinfo is not None
        and raised_f16_codegen_failure(call.excinfo.value)
    ):
        report.outcome = "skipped"
        report.longrepr = (str(item.path), item.location[1] or 0, f"Skipped: {F16_CODEGEN_REASON}")
    return report
