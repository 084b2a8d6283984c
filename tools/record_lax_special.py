"""Records real JAX's special functions and small lax ops into ``tests/data/lax_special_jax.npz``.

Run with the interpreter of the venv that has real JAX installed::

    .venv-jax/bin/python tools/record_lax_special.py

For each case the file holds ``<case>/arg<i>`` and ``<case>/out`` (``out<i>`` for several
outputs) and ``<case>/call`` (JSON: the function's name, its module and keyword arguments), so
``tests/lax/test_special.py`` and ``tests/lax/test_clamp_precision_rng_top_k.py`` replay the call on jax_core
without JAX. The cases cover what scipy does not settle: JAX's values at the domain edges (NaN,
infinities, zeros), ``igamma_grad_a`` and ``random_gamma_grad`` (no scipy counterpart), the bits of
``rng_bit_generator`` per algorithm and dtype, and ``reduce_precision``.

jax_core never imports JAX; this script is the only place the two meet.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "lax_special_jax.npz"

_EDGE_A = [0.0, 0.0, 1.0, np.inf, np.inf, -1.0, np.nan, 2.0, 1e-3, 0.5, 3.0, 30.0, 200.0, 7.5]
_EDGE_X = [0.0, 1.0, 0.0, 1.0, np.inf, 1.0, 1.0, np.nan, 0.5, 1e-4, 40.0, 25.0, 180.0, 7.0]


def _grid(dtype: str) -> dict[str, list[np.ndarray]]:
    rng = np.random.default_rng(0)
    a = np.concatenate([_EDGE_A, rng.uniform(0.05, 20, 30)]).astype(dtype)
    x = np.concatenate([_EDGE_X, rng.uniform(0.0, 25, 30)]).astype(dtype)
    pos_a = np.abs(a) + 0.1
    b = np.concatenate([[0.0, 1.0, np.inf, 2.0, -1.0, 0.5], rng.uniform(0.1, 10, 38)]).astype(dtype)
    xb = np.concatenate([[0.5, 0.0, 0.5, 1.0, 0.5, 1.5], rng.uniform(0, 1, 38)]).astype(dtype)
    bx = np.concatenate([[0.0, 1e-5, -1e-5, 8.0, -8.0, 8.5, 30.0, -700.0, np.inf, np.nan], rng.uniform(-50, 50, 30)]).astype(dtype)
    m = np.array([0, 1, 2, 3, 5, 1, 2, 4, 0, 3], dtype)
    xm = np.array([0.5, 1.0, 2.5, 10.0, 3.0, -1.5, 0.0, 1e-3, -3.0, 40.0], dtype)
    s = np.array([2.0, 3.5, 1.5, 1.0, 0.5, 4.0, 2.0, 10.0, 2.0, -1.0], dtype)
    q = np.array([1.0, 0.5, 2.0, 3.0, 1.0, 10.0, -0.5, 1.0, 0.0, 1.0], dtype)
    return {
        "igamma": [a, x],
        "igammac": [a, x],
        "igamma_grad_a": [a, x],
        "random_gamma_grad": [pos_a, x],
        "betainc": [np.concatenate([[0.0, 0.0, 1.0, np.inf, 1.0, 2.0], pos_a[:38]]).astype(dtype), b, xb],
        "polygamma": [m, xm],
        "zeta": [s, q],
        "bessel_i0e": [bx],
        "bessel_i1e": [bx],
    }


def main() -> None:
    import jax
    from jax import lax

    jax.config.update("jax_enable_x64", True)
    data: dict[str, Any] = {}

    def record(case: str, fn_name: str, module: str, args: list[np.ndarray], out: Any, **kwargs: Any) -> None:
        for i, a in enumerate(args):
            data[f"{case}/arg{i}"] = np.asarray(a)
        outs = out if isinstance(out, (list, tuple)) else [out]
        for i, o in enumerate(outs):
            data[f"{case}/out{i}"] = np.asarray(o)
        kw = {k: (str(v) if not isinstance(v, (int, float, str, list)) else v) for k, v in kwargs.items()}
        data[f"{case}/call"] = np.asarray(json.dumps({"fn": fn_name, "module": module, "kwargs": kw, "nout": len(outs)}))

    for dtype in ("float32", "float64"):
        for name, args in _grid(dtype).items():
            fn = getattr(lax, name)
            record(f"{name}_{dtype}", name, "lax", args, fn(*args))

    # gradients JAX defines through its jvp rules (float64)
    a = np.array([0.5, 1.5, 3.0, 10.0], np.float64)
    x = np.array([0.3, 2.0, 2.5, 12.0], np.float64)
    record("grad_igamma_a", "igamma", "grad0", [a, x], jax.vmap(jax.grad(lax.igamma, 0))(a, x))
    record("grad_igammac_x", "igammac", "grad1", [a, x], jax.vmap(jax.grad(lax.igammac, 1))(a, x))
    xs = np.array([-3.0, -0.1, 1e-20, 0.7, 9.0], np.float64)
    record("grad_bessel_i0e", "bessel_i0e", "grad0", [xs], jax.vmap(jax.grad(lax.bessel_i0e))(xs))
    record("grad_bessel_i1e", "bessel_i1e", "grad0", [xs], jax.vmap(jax.grad(lax.bessel_i1e))(xs))

    # reduce_precision
    v = np.array([1.2345678, -3.3e-5, 65504.0, 70000.0, 1e-8, np.inf, np.nan, 0.1], np.float32)
    for e, m in ((5, 10), (8, 7), (4, 3), (11, 52)):
        record(f"reduce_precision_{e}_{m}", "reduce_precision", "lax", [v], lax.reduce_precision(v, e, m),
               exponent_bits=e, mantissa_bits=m)

    # rng_bit_generator
    key = np.array([1, 2, 3, 4], np.uint32)
    for alg in (lax.RandomAlgorithm.RNG_DEFAULT, lax.RandomAlgorithm.RNG_THREE_FRY, lax.RandomAlgorithm.RNG_PHILOX):
        for dt in ("uint8", "uint16", "uint32", "uint64"):
            out = lax.rng_bit_generator(key, (2, 3), np.dtype(dt), alg)
            record(f"rbg_{alg.name}_{dt}", "rng_bit_generator", "lax", [key], out,
                   shape=[2, 3], dtype=dt, algorithm=int(alg))
    keys = np.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 9, 9, 9]], np.uint32)
    out = jax.vmap(lambda k: lax.rng_bit_generator(k, (4,), algorithm=lax.RandomAlgorithm.RNG_PHILOX))(keys)
    record("rbg_vmap", "rng_bit_generator", "vmap", [keys], out, shape=[4], algorithm=2)

    # jax.scipy.special values JAX computes its own way
    import jax.scipy.special as jsp

    record("bernoulli_12", "bernoulli", "scipy", [], jsp.bernoulli(12), n=12)
    s = np.array([2.0, 3.5, 1.5, 4.0], np.float64)
    q = np.array([1.0, 0.5, 2.0, 10.0], np.float64)
    record("grad_zeta_x", "zeta", "scipy_grad0", [s, q], jax.vmap(jax.grad(jsp.zeta, 0))(s, q))
    record("grad_zeta_q", "zeta", "scipy_grad1", [s, q], jax.vmap(jax.grad(jsp.zeta, 1))(s, q))

    p = np.array([0.0, 0.0, 1.0, 2.0, 1e-30, 3.0, np.nan, 1.0, 1.0000001, 5.0, -1.0, 1.0, 0.3, 7.0])
    q = np.array([0.0, 2.0, 0.0, 3.0, 1e30, 3.0, 1.0, -1.0, 1.0, np.inf, 1.0, 1e-310, 0.31, 2.0])
    for name in ("rel_entr", "kl_div"):
        fn = getattr(jsp, name)
        for dt in ("float32", "float64"):
            args = [p.astype(dt), q.astype(dt)]
            record(f"{name}_{dt}", name, "scipy", args, fn(*args))
        record(f"grad_{name}", name, "scipy_grads", [p, q], jax.vmap(jax.grad(fn, (0, 1)))(p, q))

    import jax.scipy.stats as jst

    mu = np.array([0.0, 0.5, 3.0, 9.99, 10.0, 50.0, 99.0, 100.0, 1e4])
    for dt in ("float32", "float64"):
        record(f"poisson_entropy_{dt}", "poisson.entropy", "stats", [mu.astype(dt)], jst.poisson.entropy(mu.astype(dt)))
    record("grad_poisson_entropy", "poisson.entropy", "stats_grad", [mu[1:]], jax.vmap(jax.grad(jst.poisson.entropy))(mu[1:]))

    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT, **data)
    print(f"wrote {len(data)} arrays to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
