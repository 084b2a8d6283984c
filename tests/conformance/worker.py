"""Evaluates conformance calls under one implementation: ``jax`` (real JAX 0.12, run with the
interpreter of ``.venv-jax``) or ``jax_core``; the two are never imported by the same process.

Reads a JSON list of calls ``{"expr", "x64", "inputs"}`` on stdin and writes one JSON line per call
on stdout, flushed as it goes, so the runner knows how far a worker got if it crashes or hangs:
``{"leaves": [...], "weak": [...]}`` (the result's pytree leaves, a key array as its key data, and
each leaf's weak type) or ``{"error", "message"}``. Arrays travel as ``{"dtype", "shape", "hex"}``.
The expressions see ``jax``, ``jnp``, ``lax``, ``random``, ``jsp`` (``jax.scipy``, its submodules
imported), ``np`` and the inputs by name.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import numpy as np

from tests.oracle.worker import decode  # the oracle's wire format for inputs
from tests.oracle.worker import namespace as oracle_namespace


def encode(arr: np.ndarray[Any, Any]) -> dict[str, Any]:
    if arr.dtype.kind in "USO":  # strings (a repr) and objects: compared as text
        return {"text": repr(arr.tolist())}
    return {
        "dtype": arr.dtype.name,
        "shape": list(arr.shape),
        "hex": np.ascontiguousarray(arr).tobytes().hex(),
    }


def namespace(impl: str) -> dict[str, Any]:
    return oracle_namespace("jax" if impl == "jax" else "jax_core")


def main() -> None:
    impl = sys.argv[1]
    base = namespace(impl)
    jax, random = base["jax"], base["random"]

    def leaf_array(leaf: Any) -> np.ndarray[Any, Any]:
        try:
            return np.asarray(leaf)
        except TypeError:  # a key array: compared through its key data
            return np.asarray(random.key_data(leaf))

    calls = json.load(sys.stdin)
    stdout = sys.stdout
    sys.stdout = sys.stderr  # what the expressions print must not mix with the answers
    for call in calls:
        jax.config.update("jax_enable_x64", bool(call["x64"]))
        env = {**base, **{k: decode(v) for k, v in call["inputs"].items()}}
        try:
            value = eval(call["expr"], env)
            leaves = jax.tree_util.tree_leaves(value)
            arrays = [leaf_array(x) for x in leaves]
            out = {
                "leaves": [encode(a) for a in arrays],
                "weak": [bool(getattr(x, "weak_type", False)) for x in leaves],
            }
        except Exception as err:  # noqa: BLE001  (the outcome is whatever is raised)
            out = {"error": type(err).__name__, "message": str(err)[:500]}
        stdout.write(json.dumps(out) + "\n")
        stdout.flush()


if __name__ == "__main__":
    main()
