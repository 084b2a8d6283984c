"""Calling the artifacts real JAX 0.12 recorded (``tests/export/goldens``) with jax_core's
``Exported.call``, eagerly and under ``jit``, and differentiating them to the VJP order they were
serialized with: the results match what JAX computed.

Integers, booleans and PRNG keys compare exactly; floats within a tolerance per dtype, since the
goldens were computed on another CPU (``sin``/``cos``/``tanh`` may differ in the last bits).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.export import _goldens

# (rtol, atol) by dtype name, for values recorded on another machine.
TOLERANCE = {"float32": (1e-5, 1e-6), "float16": (2e-3, 1e-3), "bfloat16": (2e-2, 1e-2)}


def _make_key(impl: str, data: np.ndarray[Any, Any]) -> Any:
    import jax_core

    return jax_core.random.wrap_key_data(data, impl=impl)


def _inputs(meta: dict[str, Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return _goldens.decode(meta["args"], _make_key), _goldens.decode(meta["kwargs"], _make_key)


def assert_matches(got: Any, recorded: Any, what: str) -> None:
    """``got`` (jax_core's result) has the structure, dtypes and values of ``recorded``."""
    import jax_core

    want = _goldens.decode(recorded)
    assert jax_core.tree_util.tree_structure(got) == jax_core.tree_util.tree_structure(want), what
    for g, w in zip(
        jax_core.tree_util.tree_leaves(got), jax_core.tree_util.tree_leaves(want), strict=True
    ):
        if isinstance(w, _goldens.KeyData):
            assert str(jax_core.random.key_impl(g)) == w.impl, what
            np.testing.assert_array_equal(
                np.asarray(jax_core.random.key_data(g)), w.data, err_msg=what
            )
            continue
        g = np.asarray(g)
        assert (g.dtype, g.shape) == (w.dtype, w.shape), what
        if w.dtype.name in TOLERANCE:
            rtol, atol = TOLERANCE[w.dtype.name]
            np.testing.assert_allclose(
                g.astype(np.float64), w.astype(np.float64), rtol=rtol, atol=atol, err_msg=what
            )
        else:
            np.testing.assert_array_equal(g, w, err_msg=what)


@pytest.mark.parametrize("name", _goldens.NAMES)
def test_golden_call(name: str) -> None:
    import jax_core
    from jax_core import export

    blob, meta = _goldens.load(name)
    exp = export.deserialize(blob)
    args, kwargs = _inputs(meta)
    assert_matches(exp.call(*args, **kwargs), meta["outputs"], f"{name}: call")
    assert_matches(jax_core.jit(exp.call)(*args, **kwargs), meta["outputs"], f"{name}: jit(call)")


@pytest.mark.parametrize(
    "name", [n for n in _goldens.NAMES if _goldens.load(n)[1]["vjp_order"] > 0]
)
def test_golden_grad(name: str) -> None:
    import jax_core
    import jax_core.numpy as jnp
    from jax_core import export

    blob, meta = _goldens.load(name)
    exp = export.deserialize(blob)
    args, kwargs = _inputs(meta)

    def loss(first: Any) -> Any:
        outs = jax_core.tree_util.tree_leaves(exp.call(first, *args[1:], **kwargs))
        return sum(
            jnp.sum(x.astype(jnp.float32)) for x in outs if jnp.issubdtype(x.dtype, jnp.floating)
        )

    assert_matches(jax_core.grad(loss)(args[0]), meta["grad"], f"{name}: grad")
    if meta["vjp_order"] >= 2:
        grad2 = jax_core.grad(lambda x: jnp.sum(jax_core.grad(loss)(x)))(args[0])
        assert_matches(grad2, meta["grad2"], f"{name}: grad of grad")


# Real JAX runs, in a subprocess, each artifact jax_core wrote (``jax_core__<case>``) and the one
# JAX wrote for the same case, on the recorder's inputs, to the VJP order serialized: the results
# agree (exactly for integers, booleans and keys; floats within the tolerance per dtype).
_JAX_RUNS_JAX_CORE_GOLDENS = """
import sys
import numpy as np
import jax, jax.numpy as jnp
from jax import export
sys.path.insert(0, {root!r})
from tools import record_export_goldens as rec

TOL = {{"float32": (1e-5, 1e-6), "float16": (2e-3, 1e-3), "bfloat16": (2e-2, 1e-2)}}

def leaves(tree):
    out = []
    for x in jax.tree.leaves(tree):
        if jnp.issubdtype(x.dtype, jax.dtypes.prng_key):
            x = jax.random.key_data(x)
        out.append(np.asarray(x))
    return out

def run(path, case):
    back = export.deserialize(bytearray(open(path, "rb").read()))
    out = [back.call(*case.args, **case.kwargs)]
    if case.vjp_order:
        rest = case.args[1:]
        loss = lambda first: rec._float_sum(back.call(first, *rest, **case.kwargs))
        out.append(jax.grad(loss)(case.args[0]))
    return leaves(out)

for case in rec.CASES:
    try:
        theirs = run({goldens!r} + "/" + case.name + ".bin", case)
    except jax.errors.JaxRuntimeError as e:
        # XLA's CPU backend limited to an old ISA (--xla_cpu_max_isa=SSE4_2) cannot compile
        # float16 arithmetic at all: JAX fails on its own artifact.
        assert "Failed to materialize symbols" in str(e), e
        print("skip", case.name)
        continue
    ours = run({goldens!r} + "/jax_core__" + case.name + ".bin", case)
    assert len(ours) == len(theirs), case.name
    for a, b in zip(ours, theirs):
        assert (a.dtype, a.shape) == (b.dtype, b.shape), (case.name, a.dtype, b.dtype)
        if a.dtype.name in TOL:
            rtol, atol = TOL[a.dtype.name]
            np.testing.assert_allclose(a.astype(np.float64), b.astype(np.float64), rtol=rtol, atol=atol, err_msg=case.name)
        else:
            np.testing.assert_array_equal(a, b, err_msg=case.name)
    print("ok", case.name)
"""


def test_jax_runs_the_artifacts_jax_core_wrote() -> None:
    import subprocess
    from pathlib import Path

    from tests.oracle import client

    client.need()
    root = Path(__file__).resolve().parents[2]
    source = _JAX_RUNS_JAX_CORE_GOLDENS.format(root=str(root), goldens=str(_goldens.GOLDENS))
    done = subprocess.run([str(client.python()), "-c", source], capture_output=True, text=True, timeout=300, cwd=root, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    ran = [line.split()[1] for line in done.stdout.splitlines() if line.startswith(("ok ", "skip "))]
    assert sorted(ran) == sorted(n for n in _goldens.NAMES if not n.startswith("jax_core__"))
    assert sum(line.startswith("ok ") for line in done.stdout.splitlines()) >= len(ran) - 1
