"""Data-parallel training of a small MLP across several processes, on one machine.

Run it with::

    .venv/bin/python examples/multiprocess_train.py --processes 2 --local-devices 4 --steps 20

The script is its own launcher. Without ``--worker`` it picks a free TCP port on 127.0.0.1 and
starts ``--processes`` copies of itself, each with ``--local-devices`` host CPU devices
(``XLA_FLAGS=--xla_force_host_platform_device_count``, ``JAX_NUM_CPU_DEVICES``,
``JAX_PLATFORMS=cpu``) and the coordinator's address, the process count and its own process id in
``JAX_COORDINATOR_ADDRESS``, ``JAX_NUM_PROCESSES`` and ``JAX_PROCESS_ID``. It waits for them under
a hard timeout (``--timeout``), and when one of them fails (or the time is up) it kills the others
and exits non-zero, so no process is left waiting on a collective whose peer is gone.

Each worker:

1. joins the run with ``jax.distributed.initialize`` (the arguments passed explicitly: real JAX
   reads only ``JAX_COORDINATOR_ADDRESS`` from the environment);
2. builds a one-axis mesh ``('data',)`` over ``jax.devices()``, i.e. every process's devices;
3. loads *only its own rows* of a deterministic synthetic regression data set (each row is drawn
   from a generator seeded with its row number, so a row is the same whichever process loads it)
   and makes the global batch with ``jax.make_array_from_process_local_data``, sharded on
   ``'data'``;
4. creates the parameters (the same NumPy initialisation in every process) replicated over the
   mesh with ``jax.make_array_from_callback``;
5. runs a jitted SGD step (``jax.value_and_grad`` of a mean squared error): XLA partitions it over
   all devices and all-reduces the gradients across processes.

Process 0 prints one line per step, ``step <i> loss <value>`` (the value with 9 significant
digits, enough to round-trip a float32).

``--single`` runs the same training in ONE process with ``processes * local_devices`` devices: the
same mesh size, global batch, data and initialisation, so it prints the same losses. They agree
to float32 rounding, not necessarily bit for bit: the gradients are summed over the devices by
Gloo across processes and by XLA's in-process collectives within one, which may add in another
order. Compare them with a relative tolerance of ``LOSS_RTOL`` (1e-5; measured: at most 1.4e-7
over 20 steps). jax_core and real JAX compile the same program and print the same losses (equal
to all 9 digits in the measured runs).

``--lib jax`` runs it under real JAX instead of jax_core (for comparison); run it with an
interpreter that has JAX installed, e.g. ``.venv-jax/bin/python examples/multiprocess_train.py
--lib jax``. The children use the launcher's interpreter.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np


def _library_from_argv(argv: Sequence[str]) -> str:
    """The ``--lib`` named on the command line (``jax_core`` unless it says ``jax``)."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--lib", choices=("jax_core", "jax"), default="jax_core")
    known, _ = pre.parse_known_args(argv)
    lib: str = known.lib
    return lib


LIBRARY = _library_from_argv(sys.argv[1:])

# Type-checked against jax_core; at run time the library named by --lib is imported (both share
# every name used below).
if TYPE_CHECKING:
    import jax_core as jax
    import jax_core.numpy as jnp
    from jax_core.sharding import Mesh, NamedSharding
    from jax_core.sharding import PartitionSpec as P
else:
    try:
        jax = importlib.import_module(LIBRARY)
        jnp = importlib.import_module(f"{LIBRARY}.numpy")
    except ImportError as e:
        raise SystemExit(
            f"cannot import {LIBRARY} ({e}); for --lib jax run this script with an interpreter "
            "that has JAX installed, e.g. .venv-jax/bin/python"
        ) from e
    Mesh = jax.sharding.Mesh
    NamedSharding = jax.sharding.NamedSharding
    P = jax.sharding.PartitionSpec

LOSS_RTOL = 1e-5  # multi-process vs --single (and jax_core vs JAX): relative tolerance per step
IN_DIM, HIDDEN, OUT_DIM = 16, 64, 1
DATA_SEED, INIT_SEED = 1234, 0
NUM_BATCHES = 4  # the data set holds this many global batches; the steps cycle through them
LEARNING_RATE = 0.1
COORDINATION_VARS = (
    "JAX_COORDINATOR_ADDRESS",
    "JAX_NUM_PROCESSES",
    "JAX_PROCESS_ID",
    "JAX_LOCAL_DEVICE_IDS",
)

Params = list[tuple[jax.Array, jax.Array]]  # (weight, bias) per dense layer


@dataclass(frozen=True)
class Config:
    """What the launcher and its workers agree on (all from the command line)."""

    processes: int
    local_devices: int
    steps: int
    batch_per_device: int
    single: bool
    timeout: float

    @property
    def total_devices(self) -> int:
        """Devices in the mesh: the same with or without ``--single``."""
        return self.processes * self.local_devices

    @property
    def global_batch(self) -> int:
        return self.total_devices * self.batch_per_device


# -- Data ------------------------------------------------------------------------------------


def _teacher() -> tuple[np.ndarray, np.ndarray]:
    """The fixed random network the targets come from (the same in every process)."""
    rng = np.random.default_rng(DATA_SEED)
    a = rng.standard_normal((IN_DIM, 8)).astype(np.float32) / np.sqrt(IN_DIM)
    c = rng.standard_normal((8, OUT_DIM)).astype(np.float32)
    return a, c


def dataset_rows(rows: range) -> tuple[np.ndarray, np.ndarray]:
    """Rows ``rows`` of the synthetic data set: ``x`` f32[len(rows), IN_DIM] with each row drawn
    from a generator seeded by ``(DATA_SEED, row)``, and ``y = tanh(x @ a) @ c`` f32[len, OUT_DIM].
    A process calls this for its own rows only."""
    x = np.stack(
        [
            np.random.default_rng((DATA_SEED, row)).standard_normal(IN_DIM).astype(np.float32)
            for row in rows
        ]
    )
    a, c = _teacher()
    y = (np.tanh(x @ a) @ c).astype(np.float32)
    return x, y


def local_row_range(sharding: NamedSharding, global_batch: int) -> range:
    """The rows of a ``(global_batch, ...)`` batch sharded by ``sharding`` that this process's
    devices hold (one contiguous block, as the mesh lists each process's devices together)."""
    index_map = sharding.addressable_devices_indices_map((global_batch, IN_DIM))
    spans = sorted({index[0].indices(global_batch)[:2] for index in index_map.values()})
    start, stop = spans[0][0], spans[-1][1]
    covered = sum(b - a for a, b in spans)
    if covered != stop - start:
        raise RuntimeError(f"this process's rows are not one block: {spans}")
    return range(start, stop)


# -- Model -----------------------------------------------------------------------------------


def init_params() -> list[tuple[np.ndarray, np.ndarray]]:
    """Layer sizes IN_DIM -> HIDDEN -> HIDDEN -> OUT_DIM, scaled normal weights, zero biases."""
    rng = np.random.default_rng(INIT_SEED)
    sizes = [IN_DIM, HIDDEN, HIDDEN, OUT_DIM]
    return [
        (
            (rng.standard_normal((m, n)) / np.sqrt(m)).astype(np.float32),
            np.zeros((n,), np.float32),
        )
        for m, n in itertools.pairwise(sizes)
    ]


def mlp(params: Params, x: jax.Array) -> jax.Array:
    """tanh hidden layers, a linear output layer."""
    for w, b in params[:-1]:
        x = jnp.tanh(x @ w + b)
    w, b = params[-1]
    return x @ w + b


def loss_fn(params: Params, x: jax.Array, y: jax.Array) -> jax.Array:
    """Mean squared error over the global batch (the mean spans every process's rows)."""
    return jnp.mean((mlp(params, x) - y) ** 2)


def train_step(params: Params, x: jax.Array, y: jax.Array) -> tuple[Params, jax.Array]:
    """One SGD step; returns the new parameters and the loss before the step."""
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    new = [
        (w - LEARNING_RATE * gw, b - LEARNING_RATE * gb) for (w, b), (gw, gb) in zip(params, grads)
    ]
    return new, loss


# -- Worker ----------------------------------------------------------------------------------


def replicate(value: np.ndarray, sharding: NamedSharding) -> jax.Array:
    """A global array with ``value`` on every device of ``sharding`` (each process supplies its
    own devices' copies from the same host value)."""
    return jax.make_array_from_callback(value.shape, sharding, lambda index: value[index])


def worker(cfg: Config) -> None:
    """One process of the run: join, shard the data, train, print (process 0) the losses."""
    # The launcher's deadline, enforced here too: a worker outlives a SIGKILLed launcher by at
    # most a few seconds (SIGALRM's default action ends the process).
    signal.alarm(int(cfg.timeout) + 5)
    num_processes = int(os.environ.get("JAX_NUM_PROCESSES", "1"))
    if num_processes > 1:
        jax.distributed.initialize(
            coordinator_address=os.environ["JAX_COORDINATOR_ADDRESS"],
            num_processes=num_processes,
            process_id=int(os.environ["JAX_PROCESS_ID"]),
        )
    devices = jax.devices()  # every process's devices
    if len(devices) != cfg.total_devices:
        raise RuntimeError(f"expected {cfg.total_devices} devices in all, found {len(devices)}")
    mesh = Mesh(np.array(devices), ("data",))
    batch_sharding = NamedSharding(mesh, P("data"))  # rows split over all devices
    replicated = NamedSharding(mesh, P())

    rows = local_row_range(batch_sharding, cfg.global_batch)
    batches: list[tuple[jax.Array, jax.Array]] = []
    for b in range(NUM_BATCHES):
        offset = b * cfg.global_batch
        x_local, y_local = dataset_rows(range(offset + rows.start, offset + rows.stop))
        x = jax.make_array_from_process_local_data(
            batch_sharding, x_local, (cfg.global_batch, IN_DIM)
        )
        y = jax.make_array_from_process_local_data(
            batch_sharding, y_local, (cfg.global_batch, OUT_DIM)
        )
        batches.append((x, y))

    params: Params = [
        (replicate(w, replicated), replicate(b, replicated)) for w, b in init_params()
    ]
    step = jax.jit(train_step, out_shardings=replicated)

    leader = jax.process_index() == 0
    if leader:
        mode = "1 process (--single)" if cfg.single else f"{num_processes} processes"
        print(
            f"# {LIBRARY} {jax.__version__}: {mode} x {jax.local_device_count()} CPU devices, "
            f"mesh {dict(mesh.shape)}, global batch {cfg.global_batch}, "
            f"this process's rows {rows.start}:{rows.stop}",
            flush=True,
        )
    start = time.perf_counter()
    for i in range(cfg.steps):
        x, y = batches[i % NUM_BATCHES]
        params, loss = step(params, x, y)
        if leader:
            # The loss is replicated: this process's own copy is the global value.
            value = float(np.asarray(loss.addressable_shards[0].data))
            print(f"step {i} loss {value:.9g}", flush=True)
    jax.block_until_ready(params)
    if leader:
        elapsed = time.perf_counter() - start
        print(f"# {cfg.steps} steps in {elapsed:.2f} s (the first compiles)", flush=True)
    if num_processes > 1:
        jax.distributed.shutdown()  # waits for every process to get here, then leaves the run


# -- Launcher --------------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def child_env(local_devices: int, port: int, num_processes: int, process_id: int) -> dict[str, str]:
    """The environment of one worker: CPU only, ``local_devices`` host devices, and (for a
    multi-process run) where the coordinator is and who this process is."""
    env = {k: v for k, v in os.environ.items() if k not in COORDINATION_VARS}
    kept = [
        f
        for f in env.get("XLA_FLAGS", "").split()
        if not f.startswith("--xla_force_host_platform_device_count")
    ]
    env.update(
        JAX_PLATFORMS="cpu",
        JAX_NUM_CPU_DEVICES=str(local_devices),
        XLA_FLAGS=" ".join([*kept, f"--xla_force_host_platform_device_count={local_devices}"]),
        TF_CPP_MIN_LOG_LEVEL=env.get("TF_CPP_MIN_LOG_LEVEL", "3"),
    )
    if num_processes > 1:
        env.update(
            JAX_COORDINATOR_ADDRESS=f"127.0.0.1:{port}",
            JAX_NUM_PROCESSES=str(num_processes),
            JAX_PROCESS_ID=str(process_id),
        )
    # The children find this checkout's jax_core however the script was started.
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    return env


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL to a worker's process group (it leads its own session), unless already reaped."""
    if proc.returncode is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()


def launch(cfg: Config, worker_argv: Sequence[str]) -> int:
    """Starts the workers, waits for them under ``cfg.timeout``; 0 if all succeeded. When one
    fails or time runs out the others are killed and the result is non-zero."""
    num = 1 if cfg.single else cfg.processes
    local = cfg.total_devices if cfg.single else cfg.local_devices
    port = free_port()
    cmd = [sys.executable, os.path.abspath(__file__), *worker_argv, "--worker"]
    # SIGTERM (e.g. from a test's timeout) unwinds through the `finally` below like Ctrl-C.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    procs: list[subprocess.Popen[bytes]] = []
    deadline = time.monotonic() + cfg.timeout
    try:
        for pid in range(num):
            procs.append(
                subprocess.Popen(
                    cmd,
                    stdin=subprocess.DEVNULL,
                    env=child_env(local, port, num, pid),
                    start_new_session=True,
                    stdout=None if pid == 0 else sys.stderr,  # stdout: only process 0's lines
                )
            )
        while True:
            codes = [p.poll() for p in procs]
            failed = [(i, c) for i, c in enumerate(codes) if c is not None and c != 0]
            if failed:
                for i, code in failed:
                    print(
                        f"launcher: process {i} exited with code {code}; killing the others",
                        file=sys.stderr,
                    )
                return 1
            if all(c == 0 for c in codes):
                return 0
            if time.monotonic() > deadline:
                print(
                    f"launcher: timed out after {cfg.timeout:.0f} s; killing the workers",
                    file=sys.stderr,
                )
                return 124
            time.sleep(0.05)
    finally:
        for p in procs:
            _kill(p)


# -- Command line ----------------------------------------------------------------------------


def parse_args(argv: Sequence[str]) -> tuple[Config, bool]:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--processes", type=int, default=2, help="processes (default 2)")
    ap.add_argument(
        "--local-devices", type=int, default=4, help="CPU devices per process (default 4)"
    )
    ap.add_argument("--steps", type=int, default=20, help="training steps (default 20)")
    ap.add_argument(
        "--batch-per-device", type=int, default=32, help="rows per device per step (default 32)"
    )
    ap.add_argument(
        "--single", action="store_true", help="one process with processes*local-devices devices"
    )
    ap.add_argument(
        "--lib", choices=("jax_core", "jax"), default="jax_core", help="library (default jax_core)"
    )
    ap.add_argument(
        "--timeout", type=float, default=120.0, help="hard limit for the whole run, s (default 120)"
    )
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ns = ap.parse_args(argv)
    if ns.processes < 1 or ns.local_devices < 1 or ns.steps < 1 or ns.batch_per_device < 1:
        ap.error("--processes, --local-devices, --steps and --batch-per-device must be positive")
    cfg = Config(
        processes=ns.processes,
        local_devices=ns.local_devices,
        steps=ns.steps,
        batch_per_device=ns.batch_per_device,
        single=ns.single,
        timeout=ns.timeout,
    )
    is_worker: bool = ns.worker
    return cfg, is_worker


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    cfg, is_worker = parse_args(args)
    if is_worker:
        worker(cfg)
        return 0
    return launch(cfg, args)


if __name__ == "__main__":
    sys.exit(main())
