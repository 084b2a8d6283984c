"""Evaluates test expressions under real JAX: the live oracle's other half.

Run by ``tests/oracle/client.py`` with the interpreter of ``.venv-jax`` (real JAX 0.12.0.1), never
imported by the test suite: it reads a JSON list of calls on stdin and writes a JSON list of
outcomes on stdout. A call is ``{"expr", "x64", "inputs"}``; the expression sees ``jax``, ``jnp``,
``lax``, ``random``, ``jsp`` (``jax.scipy``), ``np`` and the inputs by name. An outcome is
``{"leaves": [array, ...]}`` (the result's pytree leaves) or ``{"error", "message"}``; arrays travel
as ``{"dtype", "shape", "hex"}`` (raw little-endian bytes, so floats compare bit for bit and
ml_dtypes types such as bfloat16 survive), strings as ``{"text"}``. What the expressions print goes
to stderr.
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

import ml_dtypes
import numpy as np


# The public submodules an expression may reach through ``jax.``/``jsp.``, imported under both
# libraries so that ``jax.nn.relu`` or ``jsp.ndimage.map_coordinates`` resolve in either process.
SUBMODULES = (
    "numpy", "numpy.fft", "numpy.linalg", "lax", "lax.linalg", "random", "nn", "nn.initializers",
    "image", "ops", "flatten_util", "custom_derivatives", "ad_checkpoint", "dtypes", "tree_util",
    "scipy", "scipy.linalg", "scipy.signal", "scipy.special", "scipy.stats", "scipy.fft",
    "scipy.optimize", "scipy.integrate", "scipy.ndimage", "scipy.interpolate", "scipy.cluster",
    "scipy.cluster.vq", "scipy.spatial.transform", "scipy.sparse", "scipy.sparse.linalg",
    "example_libraries.stax", "example_libraries.optimizers", "dlpack", "profiler", "monitoring",
    "stages",
)  # fmt: skip


def namespace(root: str) -> dict[str, Any]:
    """What an expression sees: ``jax`` (``root``: "jax" or "jax_core"), ``jnp``, ``lax``,
    ``random``, ``jsp`` and ``np``, with every module of ``SUBMODULES`` that ``root`` has imported."""
    jax = importlib.import_module(root)
    for sub in SUBMODULES:
        try:
            importlib.import_module(f"{root}.{sub}")
        except ModuleNotFoundError:  # not in this library: an expression using it fails visibly
            pass
    return {"jax": jax, "jnp": jax.numpy, "lax": jax.lax, "random": jax.random, "jsp": jax.scipy, "np": np}


def _dtype(name: str) -> np.dtype[Any]:
    return np.dtype(getattr(ml_dtypes, name)) if hasattr(ml_dtypes, name) else np.dtype(name)


def decode(value: Any) -> Any:
    if isinstance(value, dict) and "hex" in value:
        raw = bytes.fromhex(value["hex"])
        return np.frombuffer(raw, dtype=_dtype(value["dtype"])).reshape(value["shape"]).copy()
    return value


def encode(leaf: Any) -> dict[str, Any]:
    if isinstance(leaf, str):  # e.g. a repr: compared as text
        return {"text": leaf}
    arr = np.asarray(leaf)
    return {
        "dtype": arr.dtype.name,
        "shape": list(arr.shape),
        "hex": np.ascontiguousarray(arr).tobytes().hex(),
    }


def main() -> None:
    base = namespace("jax")
    jax = base["jax"]
    out: list[dict[str, Any]] = []
    stdout = sys.stdout
    sys.stdout = sys.stderr  # what the expressions print must not mix with the answer
    for call in json.load(sys.stdin):
        jax.config.update("jax_enable_x64", bool(call["x64"]))
        env = {**base, **{k: decode(v) for k, v in call["inputs"].items()}}
        try:
            value = eval(call["expr"], env)
            out.append({"leaves": [encode(x) for x in jax.tree_util.tree_leaves(value)]})
        except Exception as err:  # noqa: BLE001  (the outcome is whatever JAX raises)
            out.append({"error": type(err).__name__, "message": str(err)})
    json.dump(out, stdout)


if __name__ == "__main__":
    main()
