"""jax_core.scipy.spatial.transform (Rotation, Slerp) against live JAX: every constructor and
representation bit-identical, composition, application, means and interpolation, jit/vmap/grad,
and JAX's errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.spatial.transform as sst

import jax_core as jax
import jax_core.numpy as jnp
from jax_core.scipy.spatial.transform import Rotation, Slerp
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture

rng = np.random.default_rng(2)
INPUTS: dict[str, Any] = {
    "q": rng.standard_normal((5, 4)).astype(np.float32),
    "v": rng.standard_normal((5, 3)).astype(np.float32),
    "m": np.asarray(sst.Rotation.from_quat(rng.standard_normal((4, 4))).as_matrix(), np.float32),
}
R = "jsp.spatial.transform.Rotation"
SL = "jsp.spatial.transform.Slerp"

VALUES = [
    f"{R}.from_quat(q)",
    f"{R}.from_quat(q[0])",
    f"{R}.from_quat(q).as_matrix()",
    f"{R}.from_matrix(m).as_quat()",
    f"{R}.from_matrix(m[0]).as_quat()",
    f"{R}.from_matrix(jnp.diag(jnp.array([1.0, -1.0, -1.0]))).as_quat()",
    f"{R}.from_matrix({R}.from_quat(q).as_matrix()).as_quat()",
    f"{R}.from_rotvec(v).as_quat()",
    f"{R}.from_rotvec(v * 1e-4).as_quat()",
    f"{R}.from_rotvec(v, degrees=True).as_rotvec(degrees=True)",
    f"{R}.from_quat(q).as_rotvec()",
    f"{R}.from_mrp(v).as_quat()",
    f"{R}.from_mrp(v).as_mrp()",
    f"{R}.from_euler('xyz', v).as_quat()",
    f"{R}.from_euler('xyz', v).as_euler('xyz')",
    f"{R}.from_euler('ZXZ', v, degrees=True).as_euler('zyx', degrees=True)",
    f"{R}.from_euler('xz', v[:, :2]).as_quat()",
    f"{R}.from_euler('y', 0.3).as_quat()",
    f"{R}.from_euler('zyz', jnp.array([0.1, 0.0, 0.2])).as_euler('zyz')",
    f"{R}.from_quat(q).apply(v)",
    f"{R}.from_quat(q).apply(v, inverse=True)",
    f"{R}.from_quat(q[0]).apply(v)",
    f"{R}.from_quat(q).inv().quat",
    f"{R}.from_quat(q).magnitude()",
    f"{R}.from_quat(q).mean().quat",
    f"{R}.from_quat(q).mean(jnp.arange(5.0)).quat",
    f"({R}.from_quat(q) * {R}.from_quat(q[::-1])).quat",
    f"({R}.from_quat(q) * {R}.from_quat(q[0])).quat",
    f"{R}.from_quat(q)[1:3].quat",
    f"{R}.from_quat(q)[2].quat",
    f"len({R}.from_quat(q))",
    f"{R}.from_quat(q[0]).single",
    f"{R}.concatenate([{R}.from_quat(q), {R}.from_quat(q[:2])]).quat",
    f"{R}.identity().quat",
    f"{R}.identity(dtype=jnp.float32).quat",
    f"{R}.from_quat(q).as_quat(canonical=True)",
    f"{R}.from_quat(q).as_quat(canonical=True, scalar_first=True)",
    f"{R}.from_quat(jnp.array([0.0, -1.0, 0.0, 0.0])).as_quat(canonical=True)",
    f"{SL}.init(jnp.arange(5.0), {R}.from_quat(q))(jnp.array([0.5, 1.2, 3.9, 4.0]))",
    f"{SL}.init(jnp.arange(5.0), {R}.from_quat(q))(2.5)",
    f"{SL}.init(jnp.array([0.0, 0.5, 2.0, 2.5, 7.0]), {R}.from_quat(q))",
    f"jax.jit(lambda a: {R}.from_quat(a).as_euler('zyz'))(q)",
    f"jax.jit(lambda a, b: {R}.from_quat(a).apply(b))(q, v)",
    f"jax.vmap(lambda a: {R}.from_quat(a).as_matrix())(q)",
    f"jax.vmap(lambda a: {R}.from_rotvec(a).as_quat())(v)",
    f"jax.grad(lambda a: {R}.from_rotvec(a).magnitude())(v[0])",
]
CLOSE = [
    f"{R}.from_euler('XYZ', v).as_euler('ZYX')",  # one element of 15 is 2 ulps from JAX's
    f"jax.grad(lambda a: jnp.sum({R}.from_quat(a).apply(v)))(q)",
    f"jax.grad(lambda a: jnp.sum({R}.from_euler('xyz', a).as_quat()))(v)",
]
X64 = [
    f"{R}.from_quat(q.astype(np.float64)).as_euler('xyz')",
    f"{R}.from_rotvec(v.astype(np.float64)).as_matrix()",
]
ERRORS = [
    f"{R}.from_euler('xyzx', v)",
    f"{R}.from_euler('', v)",
    f"{R}.from_euler('xYz', v)",
    f"{R}.from_euler('xxz', v)",
    f"{R}.from_euler('abc', v)",
    f"{R}.from_quat(q).as_euler('xy')",
    f"{R}.from_quat(q).as_euler('xyY')",
    f"{R}.from_quat(q).as_euler('zzy')",
    f"{R}.from_quat(q[0])[0]",
    f"len({R}.from_quat(q[0]))",
    f"{R}.from_quat(q).mean(jnp.ones(3))",
    f"{R}.from_quat(q).mean(jnp.ones((5, 1)))",
    f"{SL}.init(jnp.arange(4.0), {R}.from_quat(q))",
    f"{SL}.init(jnp.arange(5.0), q)",
    f"{SL}.init(jnp.arange(1.0), {R}.from_quat(q[:1]))",
    f"{SL}.init(0.0, {R}.from_quat(q[0]))",
    f"{SL}.init(jnp.ones((5, 1)), {R}.from_quat(q))",
    f"{SL}.init(jnp.arange(5.0), {R}.from_quat(q))(jnp.ones((2, 2)))",
]
CALLS = [Call(e, INPUTS) for e in VALUES + CLOSE + ERRORS] + [Call(e, INPUTS, x64=True) for e in X64]
live = live_fixture(CALLS)


@pytest.mark.parametrize("expr", VALUES)
def test_values_bit_identical(expr: str, live: dict[str, Outcome]) -> None:
    assert_same(here(Call(expr, INPUTS)), live[expr], expr)


@pytest.mark.parametrize("expr", X64)
def test_values_x64(expr: str, live: dict[str, Outcome]) -> None:
    assert_same(here(Call(expr, INPUTS, x64=True)), live[expr], expr)


@pytest.mark.parametrize("expr", CLOSE)
def test_gradients_close(expr: str, live: dict[str, Outcome]) -> None:
    # jax_core's transpose rules sum some cotangents in another order (about one ulp); XLA
    # fuses one as_euler sequence differently
    ours, theirs = here(Call(expr, INPUTS)), live[expr]
    assert ours.leaves is not None and theirs.leaves is not None, (ours.describe(), theirs.describe())
    for a, b in zip(ours.leaves, theirs.leaves, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("expr", ERRORS)
def test_errors_as_jax(expr: str, live: dict[str, Outcome]) -> None:
    theirs = live[expr]
    assert theirs.error is not None, f"JAX did not raise for {expr}"
    assert_same(here(Call(expr, INPUTS)), theirs, expr, messages=True)


def test_unsupported_as_jax() -> None:
    # JAX raises NotImplementedError for random and asserts num is None in identity
    with pytest.raises(NotImplementedError, match="Rotation.random is not implemented"):
        Rotation.random(jax.random.key(0))
    with pytest.raises(AssertionError, match="supports only num=None"):
        Rotation.identity(3)


def test_against_scipy() -> None:
    q, v = INPUTS["q"], INPUTS["v"]
    ours, ref = Rotation.from_quat(q), sst.Rotation.from_quat(q.astype(np.float64))
    np.testing.assert_allclose(np.asarray(ours.as_matrix()), ref.as_matrix(), atol=1e-5)
    np.testing.assert_allclose(np.asarray(ours.apply(v)), ref.apply(v), atol=1e-5)
    np.testing.assert_allclose(np.asarray(ours.as_euler("zxz")), ref.as_euler("zxz"), atol=1e-4)
    np.testing.assert_allclose(np.asarray(ours.magnitude()), ref.magnitude(), atol=1e-5)
    times = np.arange(5.0)
    got = Slerp.init(times, ours)(jnp.array([0.25, 3.5]))
    want = sst.Slerp(times, ref)([0.25, 3.5])
    np.testing.assert_allclose(np.abs(np.asarray(got.as_matrix()) - want.as_matrix()).max(), 0.0, atol=1e-5)


def test_pytree() -> None:
    rot = Rotation.from_quat(jnp.asarray(INPUTS["q"]))
    def inverse(r: Rotation) -> Rotation:
        return r.inv()

    out = jax.jit(inverse)(rot)
    assert isinstance(out, Rotation)
    leaves = jax.tree_util.tree_leaves(Slerp.init(jnp.arange(5.0), rot))
    assert len(leaves) == 4
