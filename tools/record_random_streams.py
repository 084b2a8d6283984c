"""Records real JAX's random streams and key errors into ``tests/data/random_*.json``.

Run with the interpreter of the venv that has real JAX installed::

    .venv-jax/bin/python tools/record_random_streams.py

Each case is a Python expression over ``random``, ``jnp``, ``jax`` and ``np`` that both
JAX and jax_core evaluate (tests/random/test_streams.py evaluates the same text with
``jax_core``):

* ``random_streams.json``: ``{"cases": [{"expr", "dtype", "shape", "hex"}]}``, the
  result's raw bytes (little-endian) as hex, so floats compare bit for bit; key-valued
  expressions are recorded through ``random.key_data``. ``x64_cases`` are recorded with
  ``jax_enable_x64`` on.
* ``random_errors.json``: ``{"cases": [{"expr", "error", "message"}]}`` for bad input.

JAX's defaults are used (threefry2x32, ``jax_threefry_partitionable=True``, x64 off);
the config values are recorded too. jax_core never imports JAX; this script and the
tests' data are where the two meet.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
STREAMS = ROOT / "tests" / "data" / "random_streams.json"
ERRORS = ROOT / "tests" / "data" / "random_errors.json"

SEEDS = (0, 1, 42, 1234567, -1, 2**31 - 1, 2**32 - 1, 2**33 + 5, 2**40)
FLOATS = ("float32", "float16", "bfloat16")


def _key_cases() -> list[str]:
    out: list[str] = []
    for s in SEEDS:
        out.append(f"random.key_data(random.key({s}))")
        out.append(f"random.PRNGKey({s})")
    out += [
        "random.key_data(random.key(np.uint32(7)))",
        "random.key_data(random.key(np.int8(-3)))",
        "random.key_data(random.key(jnp.int32(9)))",
        "random.key_data(random.key(True))",
        "random.key_data(jax.vmap(random.key)(jnp.arange(4)))",
        "jax.vmap(random.PRNGKey)(jnp.arange(3))",
    ]
    for s in (0, 1, 42, 2**32 - 1):
        for n in ("2", "3", "5", "(2, 3)", "1", "(4,)", "()"):
            out.append(f"random.key_data(random.split(random.key({s}), {n}))")
        out.append(f"random.split(random.PRNGKey({s}))")
        for d in (0, 1, 7, 2**31 - 1, "np.uint32(2**32 - 1)", "jnp.int32(-5)"):
            out.append(f"random.key_data(random.fold_in(random.key({s}), {d}))")
        out.append(f"random.fold_in(random.PRNGKey({s}), 3)")
    out += [
        "random.key_data(random.split(random.split(random.key(3))[1], 4)[2])",
        "random.key_data(random.fold_in(random.split(random.fold_in(random.key(0), 3))[0], 5))",
        "random.key_data(random.split(random.split(random.key(8), (2, 2))[1, 0], 3))",
        "random.key_data(jax.vmap(random.split)(random.split(random.key(6), 3)))",
        "random.key_data(jax.vmap(lambda k, i: random.fold_in(k, i))(random.split(random.key(6), 4), jnp.arange(4)))",
        "random.key_data(jax.jit(lambda k: random.split(k, 3))(random.key(11)))",
        "random.key_data(random.wrap_key_data(jnp.array([[1, 2], [3, 4]], dtype=jnp.uint32)))",
    ]
    return out


def _bits_cases() -> list[str]:
    out: list[str] = []
    for s in (0, 1, 42, 2**32 - 1):
        for shape in ("()", "(7,)", "(3, 4)", "(2, 3, 5)", "(1000,)"):
            out.append(f"random.bits(random.key({s}), {shape})")
        for dt in ("uint8", "uint16", "uint32"):
            out.append(f"random.bits(random.key({s}), (9,), jnp.{dt})")
    out.append("random.bits(random.PRNGKey(3), (4,))")
    out.append("jax.vmap(lambda k: random.bits(k, (3,)))(random.split(random.key(2), 5))")
    return out


def _float_cases() -> list[str]:
    out: list[str] = []
    for s in (0, 1, 42, 2**33 + 5):
        k = f"random.key({s})"
        for dt in FLOATS:
            out.append(f"random.uniform({k}, (17,), jnp.{dt})")
            out.append(f"random.normal({k}, (17,), jnp.{dt})")
            out.append(f"random.exponential({k}, (9,), jnp.{dt})")
            out.append(f"random.laplace({k}, (9,), jnp.{dt})")
            out.append(f"random.logistic({k}, (9,), jnp.{dt})")
            out.append(f"random.cauchy({k}, (9,), jnp.{dt})")
            out.append(f"random.truncated_normal({k}, -1.5, 0.5, (9,), jnp.{dt})")
            for mode in ("low", "high"):
                out.append(f"random.gumbel({k}, (9,), jnp.{dt}, mode='{mode}')")
        out += [
            f"random.uniform({k})",
            f"random.uniform({k}, (2, 3, 4))",
            f"random.uniform({k}, (5,), minval=-3.0, maxval=2.0)",
            f"random.uniform({k}, (2, 3), minval=jnp.array([0.0, 1.0, 2.0]), maxval=jnp.array([[10.0], [20.0]]))",
            f"random.uniform({k}, (300,))",
            f"random.normal({k})",
            f"random.normal({k}, (4, 5))",
            f"random.normal({k}, (6,), jnp.complex64)",
            f"random.normal({k}, (1000,))",
            f"random.truncated_normal({k}, jnp.array([-1.0, 0.0, 1.0]), 2.0)",
            f"random.truncated_normal({k}, -2.0, 2.0, (2, 3))",
            f"random.gumbel({k}, (9,), mode='highest')",
            f"random.bernoulli({k})",
            f"random.bernoulli({k}, 0.3, (20,))",
            f"random.bernoulli({k}, jnp.array([0.1, 0.5, 0.9]))",
            f"random.bernoulli({k}, jnp.array([0.1, 0.5, 0.9]), (4, 3))",
            f"random.bernoulli({k}, 1e-8, (20,), mode='high')",
            f"random.bernoulli({k}, jnp.float16(0.7), (8,))",
        ]
    return out


def _discrete_cases() -> list[str]:
    out: list[str] = []
    for s in (0, 1, 42, 7777):
        k = f"random.key({s})"
        out += [
            f"random.randint({k}, (10,), 0, 10)",
            f"random.randint({k}, (3, 4), -100, 100)",
            f"random.randint({k}, (10,), 5, 5)",
            f"random.randint({k}, (10,), 7, 3)",
            f"random.randint({k}, (6,), 0, 256, jnp.uint8)",
            f"random.randint({k}, (6,), -3, 300, jnp.uint8)",
            f"random.randint({k}, (6,), -200, 200, jnp.int8)",
            f"random.randint({k}, (6,), 0, 2**15, jnp.int16)",
            f"random.randint({k}, (6,), -2**31, 2**31 - 1)",
            f"random.randint({k}, (2, 3), jnp.array([0, 10, 100]), jnp.array([[5], [1000]]))",
            f"random.categorical({k}, jnp.array([0.1, 1.0, 2.0, -1.0]))",
            f"random.categorical({k}, jnp.array([0.1, 1.0, 2.0, -1.0]), shape=(12,))",
            f"random.categorical({k}, jnp.log(jnp.array([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])), axis=1, shape=(5, 2))",
            f"random.categorical({k}, jnp.zeros((3, 5)), axis=0)",
            f"random.categorical({k}, jnp.array([0.1, 1.0, 2.0, -1.0, 0.5]), shape=(3,), replace=False)",
            f"random.permutation({k}, 10)",
            f"random.permutation({k}, 1)",
            f"random.permutation({k}, jnp.arange(20.0))",
            f"random.permutation({k}, jnp.arange(12).reshape(3, 4))",
            f"random.permutation({k}, jnp.arange(12).reshape(3, 4), axis=1)",
            f"random.permutation({k}, jnp.arange(12).reshape(3, 4), axis=1, independent=True)",
            f"random.choice({k}, 10)",
            f"random.choice({k}, 10, (6,))",
            f"random.choice({k}, 10, (2, 3), replace=False)",
            f"random.choice({k}, jnp.arange(30.0).reshape(5, 6), (2,), axis=1)",
            f"random.choice({k}, 4, (8,), p=jnp.array([0.125, 0.25, 0.5, 0.125]))",
            f"random.choice({k}, 4, (3,), replace=False, p=jnp.array([0.125, 0.25, 0.5, 0.125]))",
            f"random.choice({k}, jnp.arange(8) * 3, (4,), replace=False)",
        ]
    return out


def _gamma_cases() -> list[str]:
    out: list[str] = []
    for s in (0, 1, 42):
        k = f"random.key({s})"
        out += [
            f"random.gamma({k}, 1.0)",
            f"random.gamma({k}, jnp.array([0.1, 0.5, 1.0, 3.0, 10.0]))",
            f"random.gamma({k}, 2.5, (3, 4))",
            f"random.gamma({k}, jnp.array([0.5, 4.0]), (3, 2))",
            f"random.gamma({k}, 0.7, (5,), jnp.bfloat16)",
            f"random.gamma({k}, 0.7, (5,), jnp.float16)",
            f"random.loggamma({k}, jnp.array([0.01, 0.5, 1.0, 3.0]))",
            f"random.beta({k}, 2.0, 3.0, (6,))",
            f"random.beta({k}, jnp.array([0.5, 1.0, 5.0]), jnp.array([[0.5], [2.0]]))",
            f"random.dirichlet({k}, jnp.array([1.0, 2.0, 3.0]))",
            f"random.dirichlet({k}, jnp.array([0.1, 0.2, 0.3, 5.0]), (3,))",
            f"random.poisson({k}, 3.0, (10,))",
            f"random.poisson({k}, jnp.array([0.5, 3.0, 9.9, 10.0, 30.0, 1000.0, 0.0]))",
            f"random.poisson({k}, 25.0, (2, 5))",
            "jax.vmap(lambda k: random.gamma(k, 2.0, (3,)))(random.split(" + k + ", 4))",
            "jax.vmap(lambda a: random.gamma(" + k + ", a))(jnp.array([0.3, 3.0]))",
        ]
    return out


def _transform_cases() -> list[str]:
    return [
        "jax.vmap(lambda k: random.normal(k))(random.split(random.key(0), 4))",
        "jax.vmap(lambda k: random.uniform(k, (3,)))(random.split(random.key(1), 4))",
        "jax.vmap(lambda k: random.uniform(k, (3,)), out_axes=1)(random.split(random.key(1), 4))",
        "jax.vmap(lambda k: random.randint(k, (2,), 0, 100))(random.split(random.key(2), 3))",
        "jax.vmap(lambda k: random.permutation(k, 6))(random.split(random.key(3), 3))",
        "jax.vmap(lambda k: random.categorical(k, jnp.array([0.0, 1.0, 2.0])))(random.split(random.key(4), 5))",
        "jax.vmap(lambda i: random.normal(random.fold_in(random.key(9), i), (2,)))(jnp.arange(3))",
        "jax.vmap(jax.vmap(lambda k: random.bits(k, (2,))))(random.split(random.key(5), (2, 3)))",
        "jax.jit(lambda k: random.normal(k, (5,)))(random.key(0))",
        "jax.jit(lambda k: random.normal(random.split(k)[1], (5,)))(random.key(1))",
        "jax.jit(lambda s: random.uniform(random.key(s), (3,)))(7)",
        "jax.jit(lambda k: random.gamma(k, 1.5, (4,)))(random.key(3))",
        "random.normal(random.PRNGKey(0), (5,))",
        "random.uniform(random.split(random.PRNGKey(1))[0], (5,))",
        "random.randint(random.PRNGKey(2), (5,), 0, 10)",
    ]


def _x64_cases() -> list[str]:
    """Recorded with ``jax_enable_x64`` on: 64-bit seeds, bits, floats and integers."""
    out: list[str] = []
    for s in (0, 2**40 + 3, -(2**35)):
        k = f"random.key({s})"
        out += [
            f"random.key_data({k})",
            f"random.bits({k}, (5,))",
            f"random.bits({k}, (5,), jnp.uint32)",
            f"random.uniform({k}, (7,))",
            f"random.uniform({k}, (7,), jnp.float32)",
            f"random.normal({k}, (7,))",
            f"random.normal({k}, (3,), jnp.complex128)",
            f"random.randint({k}, (5,), 0, 10**12)",
            f"random.randint({k}, (5,), -5, 5, jnp.int32)",
            f"random.gamma({k}, jnp.array([0.5, 2.0]))",
            f"random.poisson({k}, 4.0, (4,))",
            f"random.permutation({k}, 8)",
        ]
    return out


def _linalg_cases() -> list[str]:
    """``multivariate_normal``: the normal draws times a factor of ``cov`` (LAPACK in both)."""
    cov = "jnp.array([[2.0, 0.5, 0.1], [0.5, 1.0, 0.2], [0.1, 0.2, 0.5]])"
    out: list[str] = []
    for s in (0, 1):
        for method in ("cholesky", "eigh", "svd"):
            out.append(
                f"random.multivariate_normal(random.key({s}), jnp.array([1.0, -1.0, 0.0]), {cov}, (4,), method='{method}')"
            )
    return out


def _error_cases() -> list[str]:
    return [
        "random.key(0) + 1",
        "jnp.add(random.key(0), 1)",
        "random.key(0) - 1.5",
        "jax.jit(lambda k: k + 1)(random.key(0))",
        "jnp.equal(random.key(0), 1)",
        "jnp.sin(random.key(0))",
        "random.normal(random.key(0), dtype=jnp.int32)",
        "random.uniform(random.key(0), dtype=jnp.int32)",
        "random.bits(random.key(0), dtype=jnp.int32)",
        "random.randint(random.key(0), (2,), 0, 3, dtype=jnp.float32)",
        "random.gamma(random.key(0), 1.0, dtype=jnp.int32)",
        "random.bernoulli(random.key(0), 1)",
        "random.bernoulli(random.key(0), 0.5, mode='mid')",
        "random.gumbel(random.key(0), mode='mid')",
        "random.gamma(random.key(0), 1.0, method='fast')",
        "random.split(jnp.zeros(3, jnp.uint32))",
        "random.normal(jnp.zeros(3, jnp.float32))",
        "random.normal(jnp.zeros(2, jnp.float32))",
        "random.normal(1)",
        "random.normal([0, 0])",
        "random.split(random.split(random.key(0)))",
        "random.normal(random.split(random.PRNGKey(0)))",
        "random.fold_in(random.key(0), jnp.arange(2))",
        "random.key(jnp.array([1, 2]))",
        "random.key(random.key(0))",
        "random.key(1.5)",
        "random.key(jnp.float32(1.0))",
        "random.key(0, impl='foo')",
        "random.key(0, impl=3)",
        "random.wrap_key_data(jnp.zeros(2, jnp.int32))",
        "random.wrap_key_data(jnp.zeros((3,), jnp.uint32))",
        "random.key_data(jnp.zeros(3))",
        "bool(random.key(0))",
        "np.asarray(random.key(0))",
        "len(random.key(0))",
        "list(random.key(0))",
        "random.choice(random.key(0), 3, (5,), replace=False)",
        "random.choice(random.key(0), 0, (2,))",
        "random.choice(random.key(0), 3, 5)",
        "random.choice(random.key(0), 4, (2,), p=jnp.ones(3) / 3)",
        "random.categorical(random.key(0), jnp.zeros(3), shape=(5,), replace=False)",
        "random.permutation(random.key(0), 2.5)",
        "random.uniform(random.key(0), (2,), minval=jnp.zeros(3))",
        "random.dirichlet(random.key(0), 1.0)",
        "random.beta(random.key(0), jnp.float32(1.0), 2.0, dtype=jnp.bfloat16)",
        "random.key(0) * random.key(0)",
        "-random.key(0)",
        "random.key(0)[0]",
        "random.gamma(random.key(0), 1.0, method='approximate')",
    ]


def _encode(x: Any) -> dict[str, Any]:
    import numpy as np

    arr = np.asarray(x)
    return {
        "dtype": arr.dtype.name,
        "shape": list(arr.shape),
        "hex": np.ascontiguousarray(arr).tobytes().hex(),
    }


def main() -> None:
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import random

    env = {"jax": jax, "jnp": jnp, "np": np, "random": random}
    config = {
        "jax_version": jax.__version__,
        "jax_threefry_partitionable": bool(jax.config.jax_threefry_partitionable),
        "jax_default_prng_impl": str(jax.config.jax_default_prng_impl),
        "jax_enable_x64": bool(jax.config.jax_enable_x64),
    }
    exprs = (
        _key_cases() + _bits_cases() + _float_cases() + _discrete_cases() + _gamma_cases()
        + _linalg_cases() + _transform_cases()
    )  # fmt: skip
    cases = []
    for e in exprs:
        value = eval(e, env)
        cases.append({"expr": e, **_encode(value)})
    jax.config.update("jax_enable_x64", True)
    x64 = [{"expr": e, **_encode(eval(e, env))} for e in _x64_cases()]
    jax.config.update("jax_enable_x64", False)
    doc = {"config": config, "cases": cases, "x64_cases": x64}
    STREAMS.write_text(json.dumps(doc, indent=0) + "\n")
    errors = []
    for e in _error_cases():
        try:
            eval(e, env)
        except Exception as err:  # noqa: BLE001  (recording whatever JAX raises)
            errors.append({"expr": e, "error": type(err).__name__, "message": str(err)})
        else:
            errors.append({"expr": e, "error": None, "message": None})
    ERRORS.write_text(json.dumps({"config": config, "cases": errors}, indent=1) + "\n")
    print(
        f"{len(cases)} stream cases -> {STREAMS}\n{len(errors)} error cases -> {ERRORS}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
