"""Runs one multi-process program under jax_core and under real JAX (the oracle venv): N fresh
Python processes on this machine, joined through a coordinator on 127.0.0.1, each with
``local_devices`` host CPU devices, under one hard timeout; gives back what each process's cases
returned.

A program defines cases with ``@case`` (written against ``jax``'s names: the jax_core run binds
``jax`` to ``jax_core``), as in ``tests/sharding/_programs.py``; each process runs every case in
order and records ``{"ok": value}`` or ``{"error": class name, "message": text}``, so the results
are per process. ``val`` turns an array into a dtype/shape/values record through
``np.asarray`` (a fully addressable array, or a fully replicated one as JAX allows; otherwise the
library's own error is the case's result); ``local_val`` records each addressable shard (device
id, index as ``[start, stop, step]`` per dimension, replica id, value); ``sharding_of`` gives a
sharding's spec text; ``global_mesh(shape, names)`` makes (once) a mesh over every process's
devices, Auto axes unless ``axis_types`` says otherwise, when a case asks for it.

Before the program the prelude calls ``jax.distributed.initialize`` with the coordinator address,
process count and process id taken from ``JAX_COORDINATOR_ADDRESS``, ``JAX_NUM_PROCESSES`` and
``JAX_PROCESS_ID`` (passed explicitly: real JAX reads only the first from the environment). A
program whose text contains ``# no-initialize`` skips that call and does its own set-up (the
fault tests). After printing its results each child calls ``jax.distributed.shutdown()`` (a
barrier) and leaves with ``os._exit(0)``; a program containing ``# natural-exit`` exits through
the interpreter's teardown and the library's exit hooks instead (see ``FINISH`` for why).

Each child runs in its own session (so its process group can be killed as a whole), writes
stdout and stderr to files (no pipe can fill up and block it), and is killed when the overall
timeout expires, or ``kill_on_failure_s`` after a peer exited non-zero: a crashed peer cannot
leave the others waiting on a collective for the whole timeout.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.oracle import client

ROOT = Path(__file__).resolve().parents[2]
MARKER = "@@RESULTS@@"
NO_INITIALIZE = "# no-initialize"  # in a program's text: the prelude does not initialize
NATURAL_EXIT = "# natural-exit"  # the child exits through interpreter teardown (exit hooks)
POLL_S = 0.05
TAIL = 3000

PRELUDE = textwrap.dedent(
    """
    import json, os, sys, traceback
    import numpy as np
    if sys.argv[1] == "jax_core":
        import jax_core as jax
        import jax_core.numpy as jnp
        from jax_core import lax
        from jax_core.sharding import NamedSharding, PartitionSpec as P, AxisType
        from jax_core.experimental import multihost_utils
    else:
        import jax
        import jax.numpy as jnp
        from jax import lax
        from jax.sharding import NamedSharding, PartitionSpec as P, AxisType
        from jax.experimental import multihost_utils
    CASES = {}
    _MESHES = {}

    def case(fn):
        CASES[fn.__name__] = fn
        return fn

    def val(x):
        a = np.asarray(x)
        return {"dtype": str(a.dtype), "shape": list(a.shape), "values": a.tolist()}

    def _index(index, shape):
        return [list(s.indices(n)) if isinstance(s, slice) else s for s, n in zip(index, shape)]

    def local_val(x):
        shards = sorted(x.addressable_shards, key=lambda s: s.device.id)
        return [{"device": s.device.id, "index": _index(s.index, x.shape),
                 "replica_id": s.replica_id, "value": val(s.data)} for s in shards]

    def sharding_of(x):
        s = x.sharding
        return {"spec": str(getattr(s, "spec", None)),
                "devices": sorted(d.id for d in s.device_set),
                "mesh": str(getattr(getattr(s, "mesh", None), "shape_tuple", None))}

    def global_mesh(shape, names, axis_types=None):
        types = tuple(axis_types) if axis_types is not None else (AxisType.Auto,) * len(shape)
        key = (tuple(shape), tuple(names), types)
        if key not in _MESHES:
            _MESHES[key] = jax.make_mesh(tuple(shape), tuple(names), axis_types=types)
        return _MESHES[key]
    """
)

INITIALIZE = textwrap.dedent(
    """
    jax.distributed.initialize(
        coordinator_address=os.environ["JAX_COORDINATOR_ADDRESS"],
        num_processes=int(os.environ["JAX_NUM_PROCESSES"]),
        process_id=int(os.environ["JAX_PROCESS_ID"]),
    )
    """
)

EPILOGUE = textwrap.dedent(
    f"""
    results = {{}}
    for name, fn in CASES.items():
        try:
            results[name] = {{"ok": fn()}}
        except Exception as e:
            results[name] = {{"error": type(e).__name__, "message": str(e).split("\\n--------")[0]}}
    print({MARKER!r} + json.dumps(results), flush=True)
    """
)

# After the results: a shutdown barrier (no process drops the coordination service while a peer
# still needs it; nothing when the distributed system is not running), then an immediate exit.
# Tearing the client down at interpreter exit can hang for good on real JAX when a case left a
# cross-process collective in flight (a case that raised before reading its result): the
# client's destructor joins a thread blocked in gloo on a peer that has already exited.
FINISH = textwrap.dedent(
    """
    jax.distributed.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
    """
)


@dataclass(frozen=True)
class ProcessResult:
    """One child's outcome. ``timed_out``: killed at the overall timeout; ``killed_on_failure``:
    killed because a peer had exited non-zero ``kill_on_failure_s`` earlier. ``results`` is the
    cases' JSON (None when the child never printed it); ``returncode`` is negative for a signal."""

    process_id: int
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool
    killed_on_failure: bool
    results: dict[str, Any] | None
    elapsed: float

    def describe(self) -> str:
        """A few lines for a failure message: how it ended and the tails of its output."""
        how = "exited"
        if self.timed_out:
            how = "timed out"
        elif self.killed_on_failure:
            how = "killed after a peer failed"
        return (
            f"--- process {self.process_id}: {how}, returncode {self.returncode}, "
            f"{self.elapsed:.1f} s\n"
            f"stdout tail:\n{self.stdout[-TAIL:]}\nstderr tail:\n{self.stderr[-TAIL:]}"
        )


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def source_of(program: str) -> str:
    """The whole script a child runs: prelude, initialisation (unless ``# no-initialize``), the
    program, the epilogue that runs the cases, then shutdown and ``os._exit(0)`` (unless
    ``# natural-exit``: then the library's own exit hooks and teardown run)."""
    body = textwrap.dedent(program)
    init = "" if NO_INITIALIZE in body else INITIALIZE
    finish = "" if NATURAL_EXIT in body else FINISH
    return PRELUDE + init + body + EPILOGUE + finish


def _interpreter(which: str) -> str:
    if which == "jax_core":
        return sys.executable
    if which == "jax":
        client.need()
        exe = client.python()
        assert exe is not None
        return str(exe)
    raise ValueError(f"which must be 'jax_core' or 'jax', not {which!r}")


def _xla_flags(local_devices: int) -> str:
    count = "--xla_force_host_platform_device_count"
    kept = [f for f in os.environ.get("XLA_FLAGS", "").split() if not f.startswith(count)]
    return " ".join([*kept, f"{count}={local_devices}"])


LAUNCHER_VARIABLES = frozenset(
    {"JAX_COORDINATOR_ADDRESS", "JAX_NUM_PROCESSES", "JAX_PROCESS_ID", "JAX_PLATFORMS", "JAX_NUM_CPU_DEVICES"}
)
"""The ``JAX_*`` variables ``child_env`` sets."""


def child_env(
    port: int,
    num_processes: int,
    process_id: int,
    local_devices: int,
    extra: Mapping[str, str | None] | None = None,
) -> dict[str, str]:
    """Process ``process_id``'s environment: this one's, with the coordinator, the process count
    and id, CPU only with ``local_devices`` host devices; ``extra`` on top (None removes)."""
    env = dict(os.environ)
    env.update(
        JAX_COORDINATOR_ADDRESS=f"127.0.0.1:{port}",
        JAX_NUM_PROCESSES=str(num_processes),
        JAX_PROCESS_ID=str(process_id),
        JAX_PLATFORMS="cpu",
        JAX_NUM_CPU_DEVICES=str(local_devices),
        XLA_FLAGS=_xla_flags(local_devices),
        TF_CPP_MIN_LOG_LEVEL="3",
    )
    env.pop("JAX_LOCAL_DEVICE_IDS", None)
    for key, value in (extra or {}).items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def _exited(proc: subprocess.Popen[bytes]) -> bool:
    """Whether the child has exited, without reaping it: its pid (and so its process group id)
    stays taken until we have killed whatever is left in the group."""
    try:
        return os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL to the child's whole process group (it leads its own session); the child is not
    yet reaped, so the group id cannot belong to anyone else."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _parse_results(stdout: str) -> dict[str, Any] | None:
    lines = [line for line in stdout.splitlines() if line.startswith(MARKER)]
    if not lines:
        return None
    try:
        out: dict[str, Any] = json.loads(lines[-1][len(MARKER) :])
    except json.JSONDecodeError:
        return None
    return out


def run_commands(
    commands: Sequence[Sequence[str]],
    envs: Sequence[Mapping[str, str]],
    timeout_s: float = 120,
    kill_on_failure_s: float = 20,
) -> list[ProcessResult]:
    """Runs one child per command (process ``i``: ``commands[i]`` with ``envs[i]``, cwd the
    repository) and returns one result per child, in order. Never waits longer than
    ``timeout_s``: at the deadline every child still running is killed and reported
    ``timed_out``; ``kill_on_failure_s`` after the first child exits non-zero, the others are
    killed and reported ``killed_on_failure``. (Also the launcher of ``bench/distributed_bench.py``.)"""
    procs: list[subprocess.Popen[bytes]] = []
    ended: dict[int, float] = {}
    timed_out: set[int] = set()
    killed: set[int] = set()
    with tempfile.TemporaryDirectory(prefix="jax_core_dist_") as tmp:
        outs = [(Path(tmp) / f"{i}.out", Path(tmp) / f"{i}.err") for i in range(len(commands))]
        start = time.monotonic()
        first_failure: float | None = None
        try:
            for (out, err), command, env in zip(outs, commands, envs, strict=True):
                with out.open("wb") as fo, err.open("wb") as fe:
                    procs.append(
                        subprocess.Popen(
                            list(command), stdin=subprocess.DEVNULL, stdout=fo, stderr=fe, cwd=ROOT,
                            env=dict(env), start_new_session=True,
                        )
                    )  # fmt: skip
            while len(ended) < len(procs):
                now = time.monotonic()
                for i, proc in enumerate(procs):
                    if i not in ended and _exited(proc):
                        _kill_group(proc)  # anything it left behind in its group
                        proc.wait()
                        ended[i] = now - start
                        if proc.returncode != 0 and first_failure is None:
                            first_failure = now
                if len(ended) == len(procs):
                    break
                expired = now - start >= timeout_s
                peer_failed = first_failure is not None and now - first_failure >= kill_on_failure_s
                if expired or peer_failed:
                    for i, proc in enumerate(procs):
                        if i not in ended:
                            (timed_out if expired else killed).add(i)
                            _kill_group(proc)
                            proc.wait()
                            ended[i] = time.monotonic() - start
                    break
                time.sleep(POLL_S)
        finally:
            for i, proc in enumerate(procs):  # an exception here (Ctrl-C): leave nothing running
                if proc.returncode is None:
                    _kill_group(proc)
                    proc.wait()
                    ended.setdefault(i, time.monotonic() - start)
        results: list[ProcessResult] = []
        for i, (proc, (out, err)) in enumerate(zip(procs, outs, strict=True)):
            stdout = out.read_bytes().decode("utf-8", "replace")
            results.append(
                ProcessResult(
                    process_id=i, returncode=proc.returncode, stdout=stdout,
                    stderr=err.read_bytes().decode("utf-8", "replace"), timed_out=i in timed_out,
                    killed_on_failure=i in killed, results=_parse_results(stdout), elapsed=ended[i],
                )
            )  # fmt: skip
    return results


def run_processes(
    program: str,
    which: str,
    num_processes: int = 2,
    local_devices: int = 4,
    timeout_s: float = 120,
    env: Mapping[str, str | None] | None = None,
    extra_args: Sequence[str] = (),
    kill_on_failure_s: float = 20,
) -> list[ProcessResult]:
    """Runs ``program`` in ``num_processes`` fresh processes under ``which`` ("jax_core": this
    interpreter, "jax": the oracle's) and returns one result per process, in process-id order
    (``run_commands``'s timeouts).

    ``env`` overrides the children's environment (None removes a variable); ``extra_args``
    follow ``which`` on each child's command line (``sys.argv[2:]``)."""
    exe = _interpreter(which)
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="jax_core_prog_") as tmp:
        script = Path(tmp) / "program.py"
        script.write_text(source_of(program))
        command = [exe, str(script), which, *extra_args]
        envs = [child_env(port, num_processes, i, local_devices, env) for i in range(num_processes)]
        return run_commands([command] * num_processes, envs, timeout_s, kill_on_failure_s)


def run_both(program: str, **kw: Any) -> tuple[list[ProcessResult], list[ProcessResult]]:
    """jax_core's processes' results and real JAX's, the same program run one after the other
    (the oracle is required under ``make test``; elsewhere its absence skips the test)."""
    client.need()
    return run_processes(program, "jax_core", **kw), run_processes(program, "jax", **kw)


def results_of(procs: Sequence[ProcessResult]) -> list[dict[str, Any]]:
    """Each process's case results; fails, with the tails of every process's output, unless all
    exited 0 and printed their results."""
    bad = [p for p in procs if p.returncode != 0 or p.results is None]
    detail = "\n".join(p.describe() for p in procs)
    assert not bad, f"{len(bad)} of {len(procs)} processes failed:\n{detail}"
    return [p.results for p in procs if p.results is not None]
