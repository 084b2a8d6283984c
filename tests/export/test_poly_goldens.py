"""Shape-polymorphic artifacts, both ways (``tools/record_poly_goldens.py``): the ones real JAX
0.12 wrote (``poly__*``) load here, print the same symbolic avals and compute the recorded results
on every shape; the ones jax_core wrote (``jax_core__poly__*``) load and run in real JAX."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import export
from tests.oracle import client

GOLDENS = Path(__file__).resolve().parent / "goldens" / "poly"
JAX_WRITTEN = sorted(p.stem for p in GOLDENS.glob("poly__*.bin"))
OURS = sorted(p.stem for p in GOLDENS.glob("jax_core__poly__*.bin"))


def _array(record: dict[str, Any]) -> np.ndarray[Any, Any]:
    return np.frombuffer(bytes.fromhex(record["hex"]), dtype=np.dtype(record["dtype"])).reshape(record["shape"])


def _check_calls(loaded: export.Exported, meta: dict[str, Any]) -> None:
    for call in meta["calls"]:
        args = [_array(a) for a in call["args"]]
        outs = jax.tree_util.tree_leaves(loaded.call(*args))
        assert len(outs) == len(call["outputs"])
        for got, want in zip(outs, call["outputs"]):
            # Recorded on another machine: transcendental functions may differ in the last bits.
            np.testing.assert_allclose(np.asarray(got), _array(want), rtol=2e-6, atol=1e-6)
        if "grad" in call:
            grad = jax.grad(lambda x, *rest: sum(jnp.sum(o) for o in jax.tree_util.tree_leaves(loaded.call(x, *rest))))
            np.testing.assert_allclose(np.asarray(grad(*args)), _array(call["grad"]), rtol=2e-6, atol=1e-6)


def test_goldens_are_present() -> None:
    assert len(JAX_WRITTEN) >= 7 and len(OURS) == len(JAX_WRITTEN)


@pytest.mark.parametrize("name", JAX_WRITTEN)
def test_jax_written_polymorphic_artifact_runs_here(name: str) -> None:
    meta = json.loads((GOLDENS / f"{name}.json").read_text())
    loaded = export.deserialize(bytearray((GOLDENS / f"{name}.bin").read_bytes()))
    assert [str(a) for a in loaded.in_avals] == meta["in_avals"]
    assert [str(a) for a in loaded.out_avals] == meta["out_avals"]
    assert loaded.uses_global_constants == meta["uses_global_constants"]
    _check_calls(loaded, meta)


@pytest.mark.parametrize("name", OURS)
def test_our_polymorphic_artifact_matches_jax_metadata(name: str) -> None:
    ours = json.loads((GOLDENS / f"{name}.json").read_text())
    theirs = json.loads((GOLDENS / f"{name.removeprefix('jax_core__')}.json").read_text())
    for key in ("in_avals", "out_avals", "uses_global_constants", "vjp_order"):
        assert ours[key] == theirs[key], key
    loaded = export.deserialize(bytearray((GOLDENS / f"{name}.bin").read_bytes()))
    _check_calls(loaded, ours)


_JAX_RUNS = r"""
import json, sys
import numpy as np
import jax, jax.numpy as jnp
from jax import export
out = {}
for path in sys.argv[1:]:
    meta = json.load(open(path[:-4] + ".json"))
    exp = export.deserialize(bytearray(open(path, "rb").read()))
    errors = []
    for call in meta["calls"]:
        arr = lambda r: np.frombuffer(bytes.fromhex(r["hex"]), dtype=r["dtype"]).reshape(r["shape"])
        args = [arr(a) for a in call["args"]]
        got = jax.tree_util.tree_leaves(exp.call(*args))
        for g, w in zip(got, call["outputs"]):
            if not np.allclose(np.asarray(g), arr(w), rtol=2e-6, atol=1e-6):
                errors.append(f"{np.asarray(g)} != {arr(w)}")
        if "grad" in call:
            grad = jax.grad(lambda x, *rest: sum(jnp.sum(o) for o in jax.tree_util.tree_leaves(exp.call(x, *rest))))
            if not np.allclose(np.asarray(grad(*args)), arr(call["grad"]), rtol=2e-6, atol=1e-6):
                errors.append("grad differs")
    out[path] = {"in_avals": [str(a) for a in exp.in_avals], "errors": errors}
print(json.dumps(out))
"""


def test_jax_runs_our_polymorphic_artifacts() -> None:
    client.need()
    exe = client.python()
    assert exe is not None
    paths = [str(GOLDENS / f"{name}.bin") for name in OURS]
    done = subprocess.run([exe, "-c", _JAX_RUNS, *paths], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(done.stdout.strip().splitlines()[-1])
    for path in paths:
        meta = json.loads(Path(path[:-4] + ".json").read_text())
        assert results[path]["in_avals"] == meta["in_avals"], path
        assert results[path]["errors"] == [], (path, results[path]["errors"])


def test_fresh_export_agrees_with_jax_artifact() -> None:
    """Exported here now, a case prints the avals JAX recorded and computes what JAX's artifact
    computes, on each recorded shape."""
    meta = json.loads((GOLDENS / "poly__reshape_concat_slice.json").read_text())
    x = jax.ShapeDtypeStruct(export.symbolic_shape("b, 2*h"), np.float32)
    fun = lambda x: (jnp.concatenate([x, 2 * x], axis=0).reshape(-1), x[1:, ::2])
    ours = export.export(jax.jit(fun))(x)
    assert [str(a) for a in ours.out_avals] == meta["out_avals"]
    _check_calls(ours, meta)
