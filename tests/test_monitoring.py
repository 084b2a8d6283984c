"""jax_core.monitoring against real JAX: listeners of each kind receive what is recorded, in
registration order and with the metadata; unregistering, clearing (which, as in JAX, keeps the
scalar listeners), and unregistering an unknown callback."""

from __future__ import annotations

import pytest

from jax_core import monitoring
from jax_core._src import monitoring as monitoring_src
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture, program_call

PROGRAM = """
import importlib
M = importlib.import_module(jax.__name__ + ".monitoring")
M.clear_event_listeners()
log = []
ev = lambda event, **kw: log.append(("event", event, sorted(kw.items())))
ev2 = lambda event, **kw: log.append(("event2", event))
dur = lambda event, duration_secs, **kw: log.append(("duration", event, duration_secs, sorted(kw.items())))
span = lambda event, start_time, end_time, **kw: log.append(("span", event, start_time, end_time, sorted(kw.items())))
sc = lambda event, value, **kw: log.append(("scalar", event, value, sorted(kw.items())))
def everything():
    M.record_event("/e", a=1, b="x")
    M.record_event_duration_secs("/d", 0.5, k="v")
    M.record_event_time_span("/s", 1.0, 2.5, n=3)
    M.record_scalar("/v", 7, unit="ms")
    M.record_scalar("/f", 0.25)
def scenario(name):
    M.register_event_listener(ev)
    M.register_event_listener(ev2)
    M.register_event_duration_secs_listener(dur)
    M.register_event_time_span_listener(span)
    M.register_scalar_listener(sc)
    everything()
    if name == "unregister":
        M.unregister_event_listener(ev)
        M.unregister_event_duration_listener(dur)
        M.unregister_event_time_span_listener(span)
        M.unregister_scalar_listener(sc)
        everything()
    if name == "clear":
        M.clear_event_listeners()
        everything()
        M.unregister_scalar_listener(sc)
    if name == "unknown":
        M.unregister_event_listener(lambda event: None)
    out = [str(r) for r in log]
    M.clear_event_listeners()
    if name not in ("unregister", "clear"):
        M.unregister_scalar_listener(sc)
    return out
"""
CASES = ["scenario('all')", "scenario('unregister')", "scenario('clear')", "scenario('unknown')"]
CALLS = [program_call(PROGRAM, c) for c in CASES]
live = live_fixture(CALLS)


@pytest.fixture(autouse=True)
def _clean() -> None:
    monitoring.clear_event_listeners()
    for f in monitoring_src.get_scalar_listeners():
        monitoring.unregister_scalar_listener(f)


@pytest.mark.parametrize("call", CALLS, ids=CASES)
def test_same_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    theirs = live[call.expr]
    # JAX's unregister is a bare assert (no message); jax_core's names the callback
    assert_same(here(call), theirs, call.expr, messages=theirs.error is None)


def test_listeners_and_getters() -> None:
    seen: list[tuple[str, float]] = []

    def on_duration(event: str, duration_secs: float, **kwargs: str | int) -> None:
        seen.append((event, duration_secs))

    monitoring.register_event_duration_secs_listener(on_duration)
    assert monitoring_src.get_event_duration_listeners() == [on_duration]
    monitoring.record_event_duration_secs("/jax_core/x", 1.5)
    assert seen == [("/jax_core/x", 1.5)]
    monitoring.unregister_event_duration_listener(on_duration)
    with pytest.raises(AssertionError, match="not a registered event_duration_secs listener"):
        monitoring.unregister_event_duration_listener(on_duration)


def test_clear_keeps_scalar_listeners_as_jax_does() -> None:
    values: list[float] = []
    monitoring.register_scalar_listener(lambda event, value, **kw: values.append(value))
    monitoring.clear_event_listeners()
    monitoring.record_scalar("/s", 3)
    assert values == [3]


def test_monitoring_is_the_lowest_layer() -> None:
    import ast
    import pathlib

    for path in pathlib.Path(monitoring_src.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("jax_core")
            ):
                assert node.module.startswith(("jax_core._src.monitoring", "jax_core._src.lib")), (
                    path
                )
