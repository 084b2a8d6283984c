"""Layout workloads (``jax.experimental.layout``), rows (t) and (u), on one device.

(t) is the steady state of the layouts documentation's ``apply_exe``: compiled with
``Layout.AUTO`` input and output formats, called on the arrays ``init_exe`` produced in exactly
those formats. (u) is dispatch of a ``jit`` whose argument format asks for a column-major layout,
called on a committed array that already has it (no relayout: the check must stay cheap).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

from bench.timing import timed_batches

SEED_SHAPE = (4 * 128, 8 * 128)


def _layout(jax: Any) -> Any:
    return importlib.import_module(jax.__name__ + ".experimental.layout")


def _init_fn(x: Any, y: Any) -> tuple[Any, Any]:
    return x * 2, y * 3


def _apply_fn(x: Any, y: Any) -> tuple[Any, Any]:
    return x[0, :], y[:, 0]


def _first(pair: tuple[Any, Any]) -> Any:
    return pair[1]


def layout_apply(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(t) steady-state ``apply_exe(x, y)`` of the layouts documentation (AUTO formats), on the
    f32[512,1024] outputs of ``init_exe``; µs/call."""
    lay = _layout(jax)
    duck = jax.ShapeDtypeStruct(SEED_SHAPE, jnp.float32)
    auto = lay.Format(lay.Layout.AUTO)
    apply_exe = jax.jit(_apply_fn, in_shardings=auto, out_shardings=auto).trace(duck, duck).lower().compile()
    arg_formats, _ = apply_exe.input_formats
    init_exe = jax.jit(_init_fn, out_shardings=arg_formats).trace(duck, duck).lower().compile()
    x, y = init_exe(jnp.ones(SEED_SHAPE), jnp.ones(SEED_SHAPE))
    np.testing.assert_array_equal(np.asarray(apply_exe(x, y)[1]), np.full(SEED_SHAPE[0], 3.0, np.float32))
    return timed_batches(
        lambda: _first(apply_exe(x, y)), calls=300 if quick else 3000, repeats=3 if quick else 9, warmup=100
    )


def layout_dispatch(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(u) steady-state ``jit(a * 2)`` with ``in_shardings=Format(Layout((1, 0)), s)`` on a
    committed f32[8,16] array already in that layout; µs/call."""
    del jnp
    lay = _layout(jax)
    s = jax.sharding.SingleDeviceSharding(jax.devices()[0])
    fmt = lay.Format(lay.Layout((1, 0)), s)
    x_np = np.arange(128, dtype=np.float32).reshape(8, 16)
    x = jax.device_put(x_np, fmt)
    f = jax.jit(lambda a: a * 2, in_shardings=fmt)
    np.testing.assert_array_equal(np.asarray(f(x)), 2 * x_np)
    return timed_batches(lambda: f(x), calls=500 if quick else 5000, repeats=3 if quick else 9, warmup=200)


WORKLOADS: dict[str, Callable[..., Any]] = {"layout_apply": layout_apply, "layout_dispatch": layout_dispatch}
AGGREGATE = {"layout_apply": "min", "layout_dispatch": "min"}
