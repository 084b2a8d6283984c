"""Records real JAX's windowed reductions into ``tests/data/windowed_reductions_jax.json``.

Run with the interpreter of the venv that has real JAX installed::

    .venv-jax/bin/python tools/record_windowed_reductions.py

Each case is a Python expression over ``lax``, ``jnp``, ``jax``, ``np`` and the inputs
``X`` (float32 4x5 with ties), ``P`` (NHWC float32 2x4x4x3 with ties) and ``V`` (float32
vector) that JAX and jax_core both evaluate (``tests/lax/test_windowed_reductions.py``
evaluates the same text with jax_core): the value as a nested list with its dtype and
shape; ``jaxprs`` the text of ``make_jaxpr``. These pin down what a NumPy reference cannot: JAX's SAME/SAME_LOWER pads, which
tied element max/min pooling differentiates through, and the generic reduce_window jvp.
``errors`` records JAX's exception class and message for bad input.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "windowed_reductions_jax.json"

INPUTS = {
    "X": "np.array([[1, 3, 3, 0, 2], [4, 4, 1, 5, 5], [0, 2, 6, 6, 1], [3, 1, 2, 0, 4]], np.float32)",
    "P": "(np.arange(96) % 7).astype(np.float32).reshape(2, 4, 4, 3)",
    "V": "np.array([0.5, -1.0, 2.0, -np.inf, 3.0, 1.5], np.float32)",
}

CASES = [
    "lax.reduce_window(X, 0., lax.add, (2, 3), (1, 2), 'SAME')",
    "lax.reduce_window(X, 0., lax.add, (2, 3), (2, 2), 'SAME_LOWER')",
    "lax.reduce_window(X, -np.inf, lax.max, (3, 2), (2, 1), 'SAME', window_dilation=(1, 2))",
    "lax.reduce_window(X, np.inf, lax.min, (2, 2), (1, 1), 'SAME', base_dilation=(2, 1))",
    "lax.reduce_window(X, 1., lax.mul, (2, 2), (1, 2), 'SAME')",
    "lax.reduce_window(X, 1., lax.add, (2, 2), (1, 1), 'VALID')",
    "lax.reduce_window(X.astype(np.int32), 0, lax.add, (2, 2), (1, 1), ((1, 0), (0, 2)))",
    "lax.reduce_window(X > 2, False, lax.max, (2, 2), (1, 1), 'VALID')",
    "lax.reduce_window(X > 2, True, lax.min, (2, 2), (1, 1), 'SAME')",
    "lax.reduce_window((X, X * 2), (0., 0.), lambda a, b: (a[0] + b[0], jnp.maximum(a[1], b[1])), (2, 2), (1, 1), 'VALID')[1]",
    "jax.grad(lambda x: lax.reduce_window(x, -np.inf, lax.max, (2, 2, 2, 1), (1, 2, 2, 1), ((0, 0), (1, 0), (0, 1), (0, 0))).sum())(P)",
    "jax.grad(lambda x: lax.reduce_window(x, -np.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), 'VALID').sum())(P)",
    "jax.grad(lambda x: (lax.reduce_window(x, -np.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), 'SAME') ** 2).sum())(P)",
    "jax.grad(lambda x: (lax.reduce_window(x, np.inf, lax.min, (1, 2, 2, 1), (1, 1, 1, 1), 'SAME') ** 2).sum())(P)",
    "jax.grad(lambda x: (lax.reduce_window(x, 0., lax.add, (1, 2, 2, 1), (1, 2, 2, 1), 'VALID') / 4 * x[:, ::2, ::2]).sum())(P)",
    "jax.grad(lambda x: (lax.reduce_window(x, 0., lax.add, (3, 2), (2, 1), 'SAME', base_dilation=(2, 1), window_dilation=(1, 2)) ** 2).sum())(X)",
    "jax.grad(lambda x: (lax.reduce_window(x, -np.inf, lax.max, (3, 2), (2, 1), 'SAME', base_dilation=(2, 1)) ** 2).sum())(X)",
    "jax.jvp(lambda x: lax.reduce_window(x, -np.inf, lax.max, (2, 2), (1, 1), 'SAME'), (X,), (X * 10 + 1,))[1]",
    "jax.jvp(lambda x: lax.reduce_window(x, -np.inf, lax.max, (2, 2), (1, 1), 'VALID', window_dilation=(2, 2)), (X,), (X + 1,))[1]",
    "jax.jvp(lambda x: lax.reduce_window(x, 1., lax.mul, (2, 2), (1, 1), 'SAME'), (X,), (X + 1,))[1]",
    "lax.cumlogsumexp(V)",
    "lax.cumlogsumexp(V, reverse=True)",
    "lax.cumlogsumexp(X, axis=1)",
    "jax.grad(lambda v: lax.cumlogsumexp(v).sum())(V)",
    "jax.grad(lambda v: lax.cumlogsumexp(v, reverse=True)[1])(V)",
]

JAXPRS = [
    "jax.make_jaxpr(lambda x: lax.reduce_window(x, 1., lax.mul, (2, 2), (1, 1), 'SAME'))(X)",
    "jax.make_jaxpr(lambda x: lax.reduce_window(x, 0., lax.add, (2, 3), (1, 2), 'SAME', base_dilation=(2, 1)))(X)",
    "jax.make_jaxpr(lambda x, t: jax.jvp(lambda v: lax.reduce_window(v, -np.inf, lax.max, (2, 2), (1, 1), 'SAME'), (x,), (t,)))(X, X)",
    "jax.make_jaxpr(jax.vmap(lambda x: lax.reduce_window(x, np.inf, lax.min, (2,), (1,), 'VALID')))(X)",
    "jax.make_jaxpr(lambda v: lax.cumlogsumexp(v, axis=1))(X)",
]

ERRORS = [
    "lax.reduce_window(X, 0., lax.add, (2,), (1,), 'VALID')",
    "lax.reduce_window(X, 0., lax.add, (2, 2), (1,), 'VALID')",
    "lax.reduce_window(X, 0., lax.add, (0, 2), (1, 1), 'VALID')",
    "lax.reduce_window(X, 0., lax.add, (2, 2), (0, 1), 'VALID')",
    "lax.reduce_window(X, 0., lax.add, (2, 2), (1, 1), 'FOO')",
    "lax.reduce_window(X, 0., lax.add, (2, 2), (1, 1), 'VALID', base_dilation=(1,))",
    "lax.reduce_window(X, 0., lax.add, (2, 2), (1, 1), 'VALID', window_dilation=(1,))",
    "lax.reduce_window(X, 0., lax.add, (2, 2), (1, 1), 'VALID', base_dilation=(0, 1))",
    "lax.reduce_window((X, X), (0.,), lax.add, (2, 2), (1, 1), 'VALID')",
    "lax.reduce_window((), (), lax.add, (2, 2), (1, 1), 'VALID')",
    "lax.reduce_window(X, np.int32(1), lax.mul, (2, 2), (1, 1), 'VALID')",
    "lax.reduce_window(X, np.ones(2, np.float32), lax.mul, (2, 2), (1, 1), 'VALID')",
    "lax.reduce_window((X, X), (1., 1.), lambda a, b: a[0] * b[0], (2, 2), (1, 1), 'VALID')",
    "lax.reduce_window(X > 0, False, lax.add, (2, 2), (1, 1), 'VALID')",
    "lax.reduce_window(X, 0., lax.add, (2, 2), (1, 1), [(1, 0)])",
    "jax.grad(lambda x: lax.reduce_window(x, -np.inf, lax.max, (2, 2), (1, 1), 'VALID', window_dilation=(2, 1)).sum())(X)",
    "jax.grad(lambda x: lax.reduce_window(x, 1., lax.mul, (2, 2), (1, 1), 'VALID').sum())(X)",
    "jax.vmap(lambda x, i: lax.reduce_window(x, i, lax.mul, (2,), (1,), 'VALID'))(X, jnp.ones(4, np.float32))",
    "lax.cumlogsumexp(X > 0)",
    "lax.cumlogsumexp(X, axis=2)",
    "lax.cumlogsumexp(X, axis=-1)",
]


def _record() -> dict[str, Any]:
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import lax

    env: dict[str, Any] = {"jax": jax, "jnp": jnp, "lax": lax, "np": np}
    env.update({k: eval(v, env) for k, v in INPUTS.items()})
    cases = []
    for expr in CASES:
        out = np.asarray(eval(expr, env))
        cases.append({"expr": expr, "dtype": out.dtype.name, "shape": list(out.shape), "value": out.tolist()})
    jaxprs = [{"expr": expr, "text": str(eval(expr, env))} for expr in JAXPRS]
    errors = []
    for expr in ERRORS:
        try:
            eval(expr, env)
        except Exception as e:  # noqa: BLE001  (recording whatever JAX raises)
            errors.append({"expr": expr, "error": type(e).__name__, "message": str(e)})
        else:
            raise AssertionError(f"JAX accepted {expr}")
    return {"jax_version": jax.__version__, "inputs": INPUTS, "cases": cases, "jaxprs": jaxprs, "errors": errors}


def main() -> None:
    data = _record()
    OUT.write_text(json.dumps(data, indent=1, allow_nan=True) + "\n")
    print(f"wrote {OUT} ({len(data['cases'])} cases, {len(data['errors'])} errors)")


if __name__ == "__main__":
    main()
