"""Suite-wide hooks."""

from __future__ import annotations

from collections.abc import Generator

import pytest

from tests._xla_target import F16_CODEGEN_REASON, raised_f16_codegen_failure
from tests.oracle import client as oracle


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Starts real JAX's side of the selected modules' live comparisons in the background
    (``tests/oracle/client.py``: the oracle computes on one core while the tests run)."""
    modules = {item.module.__name__ for item in items if isinstance(item, pytest.Function) and item.module is not None}
    oracle.start_prefetch(modules)


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
