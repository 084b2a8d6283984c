"""Faults in a multi-process run never hang: a process that never joins, or dies mid-run, makes
the others fail within the configured timeout, with a message naming the missing process; a taken
coordinator port and a second ``initialize`` are Python errors (JAX's classes); ``initialize``'s
argument errors are JAX's. Every run has a hard timeout (the harness kills what is left)."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import textwrap

from tests.distributed._launch import ROOT, run_processes
from tests.oracle import client

JOIN = """
# no-initialize
import time
start = time.monotonic()
jax.distributed.initialize(os.environ["JAX_COORDINATOR_ADDRESS"], {n}, int(os.environ["JAX_PROCESS_ID"]),
                           initialization_timeout={timeout}, heartbeat_timeout_seconds={heartbeat})
print("joined", time.monotonic() - start, flush=True)
"""


def test_wrong_num_processes_fails_in_time_naming_the_missing_process() -> None:
    # Two processes start, both told there are three: neither may wait past the timeout.
    procs = run_processes(JOIN.format(n=3, timeout=4, heartbeat=10), "jax_core", timeout_s=60, kill_on_failure_s=30)
    for p in procs:
        assert not p.timed_out and not p.killed_on_failure, p.describe()
        assert p.returncode != 0 and "joined" not in p.stdout, p.describe()
        assert p.elapsed < 30, p.describe()
        others = sorted({0, 1, 2} - {p.process_id})
        assert f"some of processes {others} have not joined" in p.stderr, p.describe()
        assert "num_processes=3" in p.stderr


PEER_DIES = """
# no-initialize
import signal, time
jax.distributed.initialize(os.environ["JAX_COORDINATOR_ADDRESS"], 2, int(os.environ["JAX_PROCESS_ID"]),
                           heartbeat_timeout_seconds=3, initialization_timeout=30)
mesh = jax.make_mesh((8,), ("x",))
x = jax.make_array_from_callback((8,), NamedSharding(mesh, P("x")), lambda i: np.arange(8.0, dtype=np.float32)[i])
total = jax.jit(lambda v: v.sum(), out_shardings=NamedSharding(mesh, P()))
print("first", float(total(x)), flush=True)
if jax.process_index() == 1:
    os.kill(os.getpid(), signal.SIGKILL)  # dies without a word
time.sleep(0.5)
start = time.monotonic()
print("second", float(total(x)), flush=True)  # needs the dead peer
time.sleep(30)
print("survived", flush=True)
"""


def test_peer_killed_mid_run_stops_the_survivor_naming_it() -> None:
    procs = run_processes(PEER_DIES, "jax_core", timeout_s=90, kill_on_failure_s=60)
    survivor, dead = procs
    assert dead.returncode == -9, dead.describe()
    assert "first 28.0" in survivor.stdout, survivor.describe()
    assert not survivor.timed_out and not survivor.killed_on_failure, survivor.describe()
    assert survivor.returncode != 0 and "survived" not in survivor.stdout and "second" not in survivor.stdout
    # Heartbeats every few seconds; 3 s timeout: the survivor is stopped well within 30 s of the death.
    assert survivor.elapsed - dead.elapsed < 30, (survivor.elapsed, dead.elapsed)
    # jaxlib's coordination service names the task that stopped sending heartbeats: process 1.
    assert re.search(r"tasks are unhealthy \(stopped sending heartbeats\):\s*1\b", survivor.stderr), survivor.describe()


def _run_alone(source: str, python: str = sys.executable, env: dict[str, str] | None = None) -> dict[str, object]:
    done = subprocess.run(
        [python, "-c", textwrap.dedent(source)], capture_output=True, text=True, timeout=120, cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "JAX_PLATFORMS": "cpu", "TF_CPP_MIN_LOG_LEVEL": "3", **(env or {})},
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    out: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def test_coordinator_port_in_use_is_a_runtime_error_naming_the_port() -> None:
    for family, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::")):
        with socket.socket(family, socket.SOCK_STREAM) as taken:
            taken.bind((host, 0))
            taken.listen()
            port = taken.getsockname()[1]
            out = _run_alone(
                f"""
                import json, jax_core as jax
                try:
                    jax.distributed.initialize("127.0.0.1:{port}", 1, 0, initialization_timeout=5)
                    print(json.dumps({{"ok": True}}))
                except Exception as e:
                    print(json.dumps({{"error": type(e).__name__, "message": str(e)}}))
                """
            )
            assert out["error"] == "JaxRuntimeError", out
            assert f"the port {port} is already in use" in str(out["message"])


ERRORS = """
import json, os, sys
lib = sys.argv[1]
if lib == "jax_core":
    import jax_core as jax
else:
    import jax
out = {}
def attempt(name, **kw):
    try:
        jax.distributed.initialize(**kw)
        out[name] = "ok"
    except Exception as e:
        out[name] = [type(e).__name__, str(e)]
attempt("no_address", num_processes=1, process_id=0, cluster_detection_method="deactivate")
attempt("no_count", coordinator_address="127.0.0.1:1", process_id=0, cluster_detection_method="deactivate")
attempt("no_id", coordinator_address="127.0.0.1:1", num_processes=1, cluster_detection_method="deactivate")
attempt("bad_id", coordinator_address="127.0.0.1:1", num_processes=2, process_id=2)
attempt("negative_id", coordinator_address="127.0.0.1:1", num_processes=2, process_id=-1)
attempt("float_id", coordinator_address="127.0.0.1:1", num_processes=2, process_id=1.0)
attempt("str_count", coordinator_address="127.0.0.1:1", num_processes="2", process_id=0)
attempt("first", coordinator_address=f"127.0.0.1:{os.environ['PORT']}", num_processes=1, process_id=0)
attempt("second", coordinator_address=f"127.0.0.1:{os.environ['PORT']}", num_processes=1, process_id=0)
out["initialized"] = jax.distributed.is_initialized()
jax.distributed.shutdown()
out["after_shutdown"] = jax.distributed.is_initialized()
jax.devices()
attempt("after_backend", coordinator_address=f"127.0.0.1:{os.environ['PORT']}", num_processes=1, process_id=0)
print(json.dumps(out))
"""


def test_initialize_errors_match_jax() -> None:
    client.need()
    python = client.python()
    assert python is not None
    from tests.distributed._launch import free_port

    mine = _run_alone(ERRORS.replace("sys.argv[1]", '"jax_core"'), env={"PORT": str(free_port())})
    theirs = _run_alone(ERRORS.replace("sys.argv[1]", '"jax"'), python=str(python), env={"PORT": str(free_port())})
    assert mine == theirs
    assert mine["first"] == "ok" and mine["second"][0] == "RuntimeError"  # type: ignore[index]
    assert mine["initialized"] is True and mine["after_shutdown"] is False
    assert "must be called before any JAX calls" in mine["after_backend"][1]  # type: ignore[index]
