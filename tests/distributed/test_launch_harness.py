"""The multi-process harness itself (``tests/distributed/_launch.py``), run under real JAX only:
a two-process program joined through the coordinator with a cross-process reduction, and the
guards that keep a run from hanging (the overall timeout, a crashed peer)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.distributed import _launch
from tests.distributed._launch import free_port, results_of, run_processes
from tests.oracle import client

PROGRAM = """
@case
def topology():
    return {"index": jax.process_index(), "count": jax.process_count(),
            "devices": len(jax.devices()), "local": sorted(d.id for d in jax.local_devices()),
            "local_processes": sorted({d.process_index for d in jax.local_devices()})}

@case
def environment():
    return {"id": os.environ["JAX_PROCESS_ID"], "argv": sys.argv[1:],
            "flags": os.environ["XLA_FLAGS"], "extra": os.environ.get("HARNESS_EXTRA"),
            "dropped": os.environ.get("HARNESS_DROPPED")}

@case
def global_sum():
    mesh = global_mesh((8,), ("x",))
    s = NamedSharding(mesh, P("x"))
    local = np.arange(4, dtype=np.float32) + 4 * jax.process_index()
    x = jax.make_array_from_process_local_data(s, local, (8,))
    total = jax.jit(lambda a: jnp.sum(a * 2), out_shardings=NamedSharding(mesh, P()))(x)
    return {"x": local_val(x), "total": local_val(total), "whole": val(total),
            "addressable": total.is_fully_addressable}

@case
def val_of_a_sharded_global_array():
    s = NamedSharding(global_mesh((8,), ("x",)), P("x"))
    return val(jax.make_array_from_process_local_data(s, np.ones(4, np.float32), (8,)))

@case
def allgather():
    return val(multihost_utils.process_allgather(np.array([jax.process_index() * 10], np.int32)))
"""


def test_free_port_is_bindable() -> None:
    import socket

    port = free_port()
    assert 1024 <= port < 65536
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", port))


def test_child_environment_keeps_other_xla_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    count = "--xla_force_host_platform_device_count"
    monkeypatch.setenv("XLA_FLAGS", f"--xla_cpu_max_isa=SSE4_2 {count}=2")
    monkeypatch.setenv("JAX_LOCAL_DEVICE_IDS", "0")
    child_env = _launch.child_env
    env = child_env(1234, 3, 2, 4, {"JAX_PLATFORMS": None, "EXTRA": "1"})
    assert env["XLA_FLAGS"] == f"--xla_cpu_max_isa=SSE4_2 {count}=4"
    assert env["JAX_COORDINATOR_ADDRESS"] == "127.0.0.1:1234"
    assert (env["JAX_NUM_PROCESSES"], env["JAX_PROCESS_ID"]) == ("3", "2")
    assert env["JAX_NUM_CPU_DEVICES"] == "4"
    assert env["TF_CPP_MIN_LOG_LEVEL"] == "3" and env["EXTRA"] == "1"
    assert "JAX_PLATFORMS" not in env and "JAX_LOCAL_DEVICE_IDS" not in env


def test_markers_select_initialize_and_exit() -> None:
    plain = _launch.source_of("x = 1\n")
    assert "jax.distributed.initialize(" in plain and "os._exit(0)" in plain
    own = _launch.source_of("# no-initialize\n# natural-exit\nx = 1\n")
    assert "jax.distributed.initialize(" not in own and "os._exit(0)" not in own
    compile(plain, "<plain>", "exec")


def test_two_processes_under_jax(monkeypatch: pytest.MonkeyPatch) -> None:
    client.need()
    monkeypatch.setenv("HARNESS_DROPPED", "yes")
    procs = run_processes(
        PROGRAM, "jax", timeout_s=60, extra_args=["a1"],
        env={"HARNESS_EXTRA": "e", "HARNESS_DROPPED": None},
    )  # fmt: skip
    assert [p.process_id for p in procs] == [0, 1]
    got = results_of(procs)
    for pid, res in enumerate(got):
        assert res["topology"]["ok"]["index"] == pid
        assert res["topology"]["ok"]["count"] == 2
        assert res["topology"]["ok"]["devices"] == 8
        assert len(res["topology"]["ok"]["local"]) == 4
        assert res["topology"]["ok"]["local_processes"] == [pid]
        env = res["environment"]["ok"]
        assert env["id"] == str(pid) and env["argv"] == ["jax", "a1"]
        assert env["extra"] == "e" and env["dropped"] is None
        assert "--xla_force_host_platform_device_count=4" in env["flags"].split()
        glob = res["global_sum"]["ok"]
        assert glob["addressable"] is False
        mine = range(4 * pid, 4 * pid + 4)
        assert [s["index"] for s in glob["x"]] == [[[k, k + 1, 1]] for k in mine]
        assert [s["value"]["values"] for s in glob["x"]] == [[float(k)] for k in mine]
        assert [s["device"] for s in glob["x"]] == res["topology"]["ok"]["local"]
        total: dict[str, Any] = {"dtype": "float32", "shape": [], "values": 56.0}
        assert [s["value"] for s in glob["total"]] == [total] * 4
        assert [s["index"] for s in glob["total"]] == [[]] * 4
        assert [s["replica_id"] for s in glob["total"]] == list(mine)
        assert glob["whole"] == total  # fully replicated: np.asarray works
        assert res["val_of_a_sharded_global_array"]["error"] == "RuntimeError"
        assert res["allgather"]["ok"] == {"dtype": "int32", "shape": [2, 1], "values": [[0], [10]]}
    assert set(got[0]["topology"]["ok"]["local"]).isdisjoint(got[1]["topology"]["ok"]["local"])


def _alive(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().split(")")[-1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def test_timeout_kills_every_process_and_its_group() -> None:
    client.need()
    program = """
    # no-initialize
    import subprocess, time
    child = subprocess.Popen(["sleep", "300"])
    print("grandchild", child.pid, flush=True)
    time.sleep(300)
    """
    start = time.monotonic()
    procs = run_processes(program, "jax", timeout_s=4)
    wall = time.monotonic() - start
    assert wall < 10, wall
    assert [p.timed_out for p in procs] == [True, True]
    assert all(p.returncode < 0 and p.results is None and p.elapsed < 6 for p in procs)
    lines = [line for p in procs for line in p.stdout.splitlines()]
    grandchildren = [int(line.split()[1]) for line in lines if line.startswith("grandchild")]
    assert len(grandchildren) == 2, [p.stdout + p.stderr for p in procs]
    deadline = time.monotonic() + 5
    while any(map(_alive, grandchildren)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(map(_alive, grandchildren))
    with pytest.raises(AssertionError, match="timed out"):
        results_of(procs)


def test_crashed_peer_gets_the_rest_killed() -> None:
    client.need()
    program = """
    # no-initialize
    import time
    if os.environ["JAX_PROCESS_ID"] == "1":
        print("peer-crash-marker", file=sys.stderr, flush=True)
        sys.exit(3)
    time.sleep(300)
    """
    start = time.monotonic()
    procs = run_processes(program, "jax", timeout_s=60, kill_on_failure_s=1)
    assert time.monotonic() - start < 15
    zero, one = procs
    assert (one.returncode, one.timed_out, one.killed_on_failure) == (3, False, False)
    assert zero.killed_on_failure and not zero.timed_out and zero.returncode < 0
    with pytest.raises(AssertionError, match="peer-crash-marker") as failure:
        results_of(procs)
    assert "killed after a peer failed" in str(failure.value)
    assert os.environ.get("JAX_PROCESS_ID") is None  # the children's variables stay theirs
