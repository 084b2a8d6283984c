"""``jax.extend`` workloads, rows (v) and (w): a primitive a user defines with ``jax.extend.core``
and ``jax.interpreters`` (``mul_add`` with its abstract eval, a ``lower_fun`` lowering, jvp,
transpose and batching rules), used under ``jit(vmap(grad(...)))``.

(v) is the steady state of the compiled function (the rules ran at trace time; what is left is
dispatch and the computation). (w) is its first call with a fresh function object: tracing through
the user's rules, lowering and compiling, where the rule registries are read.
"""

from __future__ import annotations

import gc
import importlib
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from bench.timing import timed_batches

SHAPE = (64, 256)
_PRIMS: dict[str, Any] = {}


def _mul_add(jax: Any) -> Any:
    """``mul_add_p`` registered in this process (once per library)."""
    if jax.__name__ in _PRIMS:
        return _PRIMS[jax.__name__]
    core = importlib.import_module(jax.__name__ + ".extend.core")
    ad = importlib.import_module(jax.__name__ + ".interpreters.ad")
    batching = importlib.import_module(jax.__name__ + ".interpreters.batching")
    mlir = importlib.import_module(jax.__name__ + ".interpreters.mlir")
    p = core.Primitive("bench_mul_add")
    p.def_abstract_eval(lambda x, y, z: x)
    mlir.register_lowering(p, mlir.lower_fun(lambda x, y, z: x * y + z, multiple_results=False))

    def jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
        x, y, z = primals
        xt, yt, zt = (ad.instantiate_zeros(t) for t in tangents)
        return p.bind(x, y, z), p.bind(xt, y, p.bind(x, yt, zt))

    def transpose(ct: Any, x: Any, y: Any, z: Any) -> list[Any]:
        if ad.is_undefined_primal(x):
            return [ct * y, None, ct if ad.is_undefined_primal(z) else None]
        return [None, ct * x, ct if ad.is_undefined_primal(z) else None]

    def batch(args: Sequence[Any], dims: Sequence[int | None]) -> tuple[Any, int]:
        size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
        return p.bind(*(batching.bdim_at_front(a, d, size) for a, d in zip(args, dims))), 0

    ad.primitive_jvps[p] = jvp
    ad.primitive_transposes[p] = transpose
    batching.primitive_batchers[p] = batch
    _PRIMS[jax.__name__] = p
    return p


def _per_example_grads(jax: Any, jnp: Any) -> Callable[..., Any]:
    p = _mul_add(jax)

    def loss(x: Any, y: Any, z: Any) -> Any:
        return jnp.sum(jnp.tanh(p.bind(x, y, z)) * x)

    return jax.jit(jax.vmap(jax.grad(loss)))


def _inputs(jnp: Any) -> tuple[Any, Any, Any, np.ndarray[Any, Any]]:
    rng = np.random.default_rng(0)
    x, y, z = (rng.standard_normal(SHAPE).astype(np.float32) for _ in range(3))
    t = np.tanh(x * y + z)
    expected = (1 - t * t) * y * x + t  # d/dx sum(tanh(x*y+z) * x)
    return jnp.asarray(x), jnp.asarray(y), jnp.asarray(z), expected


def custom_primitive_step(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(v) steady-state ``jit(vmap(grad(loss)))`` of a loss built on the user primitive, on three
    f32[64,256] operands; µs/call."""
    x, y, z, expected = _inputs(jnp)
    f = _per_example_grads(jax, jnp)
    np.testing.assert_allclose(np.asarray(f(x, y, z)), expected, rtol=1e-4, atol=1e-5)
    return timed_batches(lambda: f(x, y, z), calls=300 if quick else 3000, repeats=3 if quick else 9, warmup=100)


def custom_primitive_compile(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(w) first call (trace through the user's rules, lower, compile, run) of that function, a
    fresh function object per sample; ms per sample."""
    x, y, z, _ = _inputs(jnp)
    _per_example_grads(jax, jnp)(x, y, z).block_until_ready()  # warm-up, untimed
    out: list[float] = []
    for _ in range(3 if quick else 7):
        f = _per_example_grads(jax, jnp)
        gc.collect()
        start = time.perf_counter()
        f(x, y, z).block_until_ready()
        out.append((time.perf_counter() - start) * 1e3)
    return out


WORKLOADS: dict[str, Callable[..., Any]] = {
    "custom_primitive_step": custom_primitive_step,
    "custom_primitive_compile": custom_primitive_compile,
}
AGGREGATE = {"custom_primitive_step": "min", "custom_primitive_compile": "median"}
