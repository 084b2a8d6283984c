"""jax_core.profiler: a trace writes ``<log_dir>/plugins/profile/<run>/<host>.xplane.pb`` (what
XProf/TensorBoard and Perfetto read) and its ProfileData holds the annotations and the XLA work;
one session at a time; the server, memory profiles and JAX's errors. Signatures match JAX's."""

from __future__ import annotations

import gzip
import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

import jax_core
import jax_core.numpy as jnp
from jax_core import profiler
from tests.oracle.client import python as jax_python


def _event_names(data: profiler.ProfileData) -> set[str]:
    return {e.name for plane in data.planes for line in plane.lines for e in line.events}


def test_trace_writes_xplane_and_records_annotations(tmp_path: Path) -> None:
    with profiler.trace(tmp_path) as session:
        assert session.is_running
        with profiler.TraceAnnotation("my_label"):
            jax_core.jit(lambda x: jnp.sin(x) * 2)(jnp.ones(64)).block_until_ready()
        with profiler.StepTraceAnnotation("train", step_num=3):
            pass
        profiler.annotate_function(lambda: 1, name="annotated")()
    assert not session.is_running
    runs = list((tmp_path / "plugins" / "profile").iterdir())
    assert len(runs) == 1
    xplanes = list(runs[0].glob("*.xplane.pb"))
    assert len(xplanes) == 1 and xplanes[0].stat().st_size > 0
    data = session.profile_data
    assert data is not None
    names = _event_names(data)
    assert {"my_label", "train", "annotated"} <= names
    assert any(p.name.startswith("/host:") for p in data.planes)
    # the file holds the same profile
    again = profiler.ProfileData.from_file(str(xplanes[0]))
    assert "my_label" in _event_names(again)


def test_start_stop_trace_and_perfetto_file(tmp_path: Path) -> None:
    session = profiler.start_trace(tmp_path, create_perfetto_trace=True)
    assert isinstance(session, profiler.ProfileSession)
    with pytest.raises(RuntimeError, match="Only one profile may be run at a time"):
        profiler.start_trace(tmp_path)
    jnp.arange(10.0).sum().block_until_ready()
    data = profiler.stop_trace()
    assert isinstance(data, profiler.ProfileData)
    (run,) = (tmp_path / "plugins" / "profile").iterdir()
    with gzip.open(run / "perfetto_trace.json.gz") as f:
        assert "traceEvents" in json.load(f)
    with pytest.raises(RuntimeError, match="No profile started"):
        profiler.stop_trace()


def test_in_memory_session_and_export(tmp_path: Path) -> None:
    session = profiler.ProfileSession()
    with pytest.raises(RuntimeError, match="No profile data to export"):
        profiler.export_profile_data(session, tmp_path)
    with session:
        with profiler.TraceAnnotation("inside"):
            pass
        with pytest.raises(RuntimeError, match="while it is running"):
            session.export_profile_data(tmp_path)
        session.stop()  # stopping early inside the block is allowed
    assert not (tmp_path / "plugins").exists()
    assert session.profile_data is not None
    options = profiler.ProfileOptions()
    options.session_id = "named_run"
    assert session.profile_data is not None
    profiler.export_profile_data(session.profile_data, tmp_path, session_id="named_run")
    assert list((tmp_path / "plugins" / "profile" / "named_run").glob("*.xplane.pb"))
    with pytest.raises(TypeError, match="Expected ProfileData or ProfileSession, got int"):
        profiler.export_profile_data(3, tmp_path)  # type: ignore[arg-type]


def test_profile_options_reject_unknown_attributes() -> None:
    options = profiler.ProfileOptions()
    options.host_tracer_level = 2
    options.python_tracer_level = 0
    with pytest.raises(AttributeError):
        options.not_an_option = 1  # type: ignore[attr-defined]


def test_memory_profile(tmp_path: Path) -> None:
    keep = jnp.ones((128, 128))
    profile = profiler.device_memory_profile()
    assert isinstance(profile, bytes) and gzip.decompress(profile)
    profiler.save_device_memory_profile(tmp_path / "memory.prof")
    assert (tmp_path / "memory.prof").stat().st_size > 0
    with pytest.raises(RuntimeError, match="Unknown backend"):
        profiler.device_memory_profile("tpu")
    del keep


def test_server_errors() -> None:
    with pytest.raises(ValueError, match="No active profiler server."):
        profiler.stop_server()


def test_annotate_function_keeps_the_function() -> None:
    def f(x: int, y: int = 2) -> int:
        return x + y

    g = profiler.annotate_function(f)
    assert g(1) == 3 and g.__name__ == "f" and g.__wrapped__ is f  # type: ignore[attr-defined]


SIGNATURES = [
    "trace", "start_trace", "stop_trace", "annotate_function", "device_memory_profile",
    "save_device_memory_profile", "start_server", "stop_server", "export_profile_data",
    "register_subprocess", "ProfileSession", "StepTraceAnnotation",
]  # fmt: skip


def _params(sig: inspect.Signature) -> list[tuple[str, str, str]]:
    return [(p.name, str(p.kind), repr(p.default)) for p in sig.parameters.values()]


def test_signatures_are_jax_s() -> None:
    exe = jax_python()
    if exe is None:
        pytest.skip("no JAX interpreter")
    code = (
        "import inspect, json, jax.profiler as P\n"
        f"print(json.dumps({{n: [(p.name, str(p.kind), repr(p.default)) for p in "
        f"inspect.signature(getattr(P, n)).parameters.values()] for n in {SIGNATURES!r}}}))"
    )
    out = subprocess.run([str(exe), "-c", code], capture_output=True, text=True, check=True)
    theirs = json.loads(out.stdout)
    for name in SIGNATURES:
        ours = _params(inspect.signature(getattr(profiler, name)))
        assert [list(p) for p in ours] == theirs[name], name


_ = sys
