"""``jax.export`` workloads, rows (x), (y) and (z), on the MLP training step of row (e).

(x) exports the jitted training step and serializes it (trace, lower, the safety checks, the
portable artifact, the flatbuffer); (y) deserializes that blob and makes the first call (parsing,
lowering the call, compiling, running); (z) is the steady state of ``exp.call`` made eagerly.
"""

from __future__ import annotations

import gc
import importlib
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from bench.timing import timed_batches
from bench.workloads_transforms import _data, _make_step  # pyright: ignore[reportPrivateUsage]


def _export_module(jax: Any) -> Any:
    return importlib.import_module(jax.__name__ + ".export")


def _exported_step(jax: Any, jnp: Any) -> tuple[Any, tuple[Any, Any, Any]]:
    export = _export_module(jax)
    params, x, y = _data(jnp)
    return export.export(_make_step(jax, jnp))(params, x, y), (params, x, y)


def export_serialize(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(x) ``export(jit(step))(...)`` then ``.serialize()`` of the MLP training step, a fresh
    jitted function per sample; ms per sample."""
    _exported_step(jax, jnp)[0].serialize()  # warm-up, untimed
    params, x, y = _data(jnp)
    export = _export_module(jax)
    out: list[float] = []
    for _ in range(3 if quick else 7):
        step = _make_step(jax, jnp)
        gc.collect()
        start = time.perf_counter()
        blob = export.export(step)(params, x, y).serialize()
        out.append((time.perf_counter() - start) * 1e3)
        assert len(blob) > 1000
    return out


def deserialize_first_call(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(y) ``deserialize(blob).call(...)`` once, blocked on: a fresh ``Exported`` per sample (no
    compiled call to reuse); ms per sample."""
    exp, (params, x, y) = _exported_step(jax, jnp)
    blob = exp.serialize()
    export = _export_module(jax)
    expected = float(_make_step(jax, jnp)(params, x, y)[1])
    first = export.deserialize(blob).call(params, x, y)
    np.testing.assert_allclose(float(first[1]), expected, rtol=1e-5)
    out: list[float] = []
    for _ in range(3 if quick else 7):
        gc.collect()
        start = time.perf_counter()
        export.deserialize(blob).call(params, x, y)[1].block_until_ready()
        out.append((time.perf_counter() - start) * 1e3)
    return out


def exported_call(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(z) steady-state eager ``exp.call(params, x, y)`` of the deserialized training step;
    µs/call."""
    exp, (params, x, y) = _exported_step(jax, jnp)
    call: Callable[..., Any] = _export_module(jax).deserialize(exp.serialize()).call
    call(params, x, y)[1].block_until_ready()
    return timed_batches(lambda: call(params, x, y)[1], calls=100 if quick else 1000, repeats=3 if quick else 9, warmup=50)


WORKLOADS: dict[str, Callable[..., Any]] = {
    "export_serialize": export_serialize,
    "deserialize_first_call": deserialize_first_call,
    "exported_call": exported_call,
}
AGGREGATE = {"export_serialize": "median", "deserialize_first_call": "median", "exported_call": "min"}
