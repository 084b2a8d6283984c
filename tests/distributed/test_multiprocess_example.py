"""examples/multiprocess_train.py, run as a user would: 2 processes x 4 CPU devices against one
process with 8 devices (``--single``), and against real JAX running the same script (``--lib jax``
under the oracle's interpreter).

The losses are parsed from the ``step <i> loss <value>`` lines process 0 prints. Multi-process and
single-process runs partition the same program over 8 devices but sum the gradients through
different collectives (Gloo across processes), so the losses agree to float32 rounding; the
example's ``LOSS_RTOL`` (1e-5 relative) is the bound. The launcher's own duties are checked too:
it kills every worker and exits non-zero when a worker dies or the time runs out.
"""

from __future__ import annotations

import functools
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from tests.oracle import client

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "multiprocess_train.py"
LOSS_RTOL = 1e-5  # examples/multiprocess_train.py's LOSS_RTOL (not imported: it imports a library)
STEPS = 20
TIMEOUT_S = 90.0
STEP_LINE = re.compile(r"^step (\d+) loss (\S+)$", re.MULTILINE)


def _env() -> dict[str, str]:
    """This environment without JAX_* settings (both libraries run on their defaults), with the
    checkout importable."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def run_example(
    python: str, args: Sequence[str], timeout: float = TIMEOUT_S
) -> subprocess.CompletedProcess[str]:
    """Runs the example's launcher; past ``timeout`` it gets SIGTERM (it then kills its workers),
    and SIGKILL 5 s later."""
    proc = subprocess.Popen(
        [python, str(EXAMPLE), *args], cwd=ROOT, env=_env(), stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGTERM)
        try:
            out, err = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
        what = f"{EXAMPLE.name} {' '.join(args)}"
        pytest.fail(f"{what} took over {timeout:.0f} s:\n{out[-2000:]}\n{err[-2000:]}")
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def losses_of(done: subprocess.CompletedProcess[str]) -> list[float]:
    """The per-step losses, checked to be steps 0..STEPS-1 in order from a successful run."""
    assert done.returncode == 0, (
        f"exit {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    )
    found = [(int(i), float(v)) for i, v in STEP_LINE.findall(done.stdout)]
    assert [i for i, _ in found] == list(range(STEPS)), done.stdout
    return [v for _, v in found]


def assert_close(got: Sequence[float], want: Sequence[float], what: str) -> None:
    worst = max(abs(g - w) / abs(w) for g, w in zip(got, want, strict=True))
    assert worst <= LOSS_RTOL, (
        f"{what}: worst relative difference {worst:.2e} > {LOSS_RTOL}\n{got}\n{want}"
    )


@functools.cache
def core_multiprocess() -> tuple[float, ...]:
    """jax_core's 2-process losses (run once, shared by the tests)."""
    done = run_example(
        sys.executable, ["--processes", "2", "--local-devices", "4", "--steps", str(STEPS)]
    )
    return tuple(losses_of(done))


def test_two_processes_match_one_process() -> None:
    multi = core_multiprocess()
    single = losses_of(
        run_example(
            sys.executable,
            ["--processes", "2", "--local-devices", "4", "--steps", str(STEPS), "--single"],
        )
    )
    assert_close(multi, single, "2 processes x 4 devices vs 1 process x 8 devices")
    # Training works: the loss falls by more than half, and the last steps are all below the first.
    assert multi[-1] < 0.5 * multi[0], multi
    assert max(multi[-5:]) < min(multi[:2]), multi


def test_matches_real_jax() -> None:
    client.need()
    exe = client.python()
    assert exe is not None
    theirs = losses_of(
        run_example(
            str(exe),
            ["--lib", "jax", "--processes", "2", "--local-devices", "4", "--steps", str(STEPS)],
        )
    )
    assert_close(core_multiprocess(), theirs, "jax_core vs real JAX, 2 processes x 4 devices")


# -- The launcher ----------------------------------------------------------------------------


def _workers_with(marker: str) -> Iterator[tuple[int, int]]:
    """(pid, JAX_PROCESS_ID) of the running workers whose command line holds ``marker``."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            if marker.encode() not in argv or b"--worker" not in argv:
                continue
            env = (entry / "environ").read_bytes().split(b"\0")
        except OSError:  # exited meanwhile, or not ours
            continue
        ids = [e.split(b"=", 1)[1] for e in env if e.startswith(b"JAX_PROCESS_ID=")]
        yield int(entry.name), int(ids[0]) if ids else -1


def _wait_for(predicate: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_launcher_kills_the_others_when_a_worker_dies() -> None:
    marker = "987651"  # a step count no other run uses: it finds this run's workers
    proc = subprocess.Popen(
        [sys.executable, str(EXAMPLE), "--steps", marker, "--timeout", "60"], cwd=ROOT, env=_env(),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        # Wait until process 0 trains (its first step line), then kill worker 1.
        assert proc.stdout is not None
        deadline = time.monotonic() + 60
        line = ""
        while not line.startswith("step ") and time.monotonic() < deadline:
            line = proc.stdout.readline()
            assert line, "the launcher's output ended before the first step"
        workers = dict(_workers_with(marker))
        assert sorted(workers.values()) == [0, 1], workers
        victim = next(p for p, rank in workers.items() if rank == 1)
        os.kill(victim, signal.SIGKILL)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 1, err[-2000:]
        assert "process 1 exited with code -9; killing the others" in err
        assert _wait_for(lambda: not list(_workers_with(marker)), 5), list(_workers_with(marker))
    finally:
        if proc.returncode is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        for pid_, _ in _workers_with(marker):
            os.kill(pid_, signal.SIGKILL)


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_launcher_timeout_kills_every_worker() -> None:
    marker = "987652"
    done = run_example(sys.executable, ["--steps", marker, "--timeout", "3"], timeout=30)
    assert done.returncode == 124, done.stderr[-2000:]
    assert "timed out after 3 s" in done.stderr
    assert not list(_workers_with(marker))
