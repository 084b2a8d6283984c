"""jax_core.scipy.ndimage.map_coordinates, .interpolate.RegularGridInterpolator,
.integrate.trapezoid and .cluster.vq.vq: against real JAX (live oracle, bit for bit, errors
included) and against SciPy (within a tolerance), with jit, grad and vmap."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.cluster.vq as scipy_vq
import scipy.integrate as scipy_integrate
import scipy.interpolate as scipy_interpolate
import scipy.ndimage as scipy_ndimage

import jax_core as jax
import jax_core.numpy as jnp
from jax_core._src.config import enable_x64
from jax_core._src.scipy.cluster import vq
from jax_core._src.scipy.integrate import trapezoid
from jax_core._src.scipy.interpolate import RegularGridInterpolator
from jax_core._src.scipy.ndimage import map_coordinates
from jax_core.test_util import check_grads
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture

rng = np.random.default_rng(7)
INPUTS = {
    "img": rng.standard_normal((5, 7)).astype(np.float32),
    "vol": rng.standard_normal((4, 5, 3)).astype(np.float32),
    "r": rng.uniform(-2.0, 7.0, 8).astype(np.float32),
    "c": rng.uniform(-2.0, 9.0, 8).astype(np.float32),
    "q": rng.uniform(-0.5, 6.5, (6, 2)).astype(np.float32),
}
MODES = ("constant", "nearest", "wrap", "mirror", "reflect")
GRID = "(jnp.arange(5.0), jnp.array([0.0, 0.5, 1.25, 3.0, 4.5, 5.0, 6.5]))"

EXPRS = [
    # map_coordinates
    *(f"jsp.ndimage.map_coordinates(img, [r, c], order={o}, mode='{m}')" for o in (0, 1) for m in MODES),
    "jsp.ndimage.map_coordinates(img, [r, c], order=1, cval=-3.5)",
    "jsp.ndimage.map_coordinates(img, (r, c), 0, 'constant', 2)",
    "jsp.ndimage.map_coordinates(vol, [r[:3], c[:3], r[3:6]], order=1, mode='reflect')",
    "jsp.ndimage.map_coordinates(img, [r.reshape(2, 4), c.reshape(2, 4)], order=1)",
    "jsp.ndimage.map_coordinates(img, [np.array([0, 4, 5]), np.array([1, 6, -1])], order=1)",
    "jsp.ndimage.map_coordinates(np.arange(35, dtype=np.int32).reshape(5, 7), [r, c], order=1, mode='nearest')",
    "jsp.ndimage.map_coordinates(np.arange(35, dtype=np.uint8).reshape(5, 7), [r, c], order=0)",
    "jsp.ndimage.map_coordinates(img.astype(jnp.bfloat16), [r, c], order=1)",
    "jsp.ndimage.map_coordinates(img.astype(jnp.float16), [r.astype(np.float16), c], order=1)",
    "jsp.ndimage.map_coordinates(img, [r.astype(jnp.bfloat16), c], order=1)",
    "jsp.ndimage.map_coordinates(img[0], [jnp.array(2.5)], order=1)",
    "jax.jit(lambda x, a, b: jsp.ndimage.map_coordinates(x, [a, b], order=1, mode='mirror'))(img, r, c)",
    "jax.grad(lambda x: jsp.ndimage.map_coordinates(x, [r, c], order=1).sum())(img)",
    "jax.grad(lambda a: jsp.ndimage.map_coordinates(img, [a, c], order=1, mode='wrap').sum())(r)",
    "jax.vmap(lambda x: jsp.ndimage.map_coordinates(x, [r, c], order=1))(jnp.stack([img, -img]))",
    "jax.vmap(lambda a: jsp.ndimage.map_coordinates(img, [a, c], order=0, mode='reflect'))(jnp.stack([r, r + 1]))",
    "jsp.ndimage.map_coordinates(img, [r, c], order=2)",
    "jsp.ndimage.map_coordinates(img, [r], order=1)",
    "jsp.ndimage.map_coordinates(img, [r, c], order=1, cval=jnp.array(1.0))",
    # RegularGridInterpolator
    f"jsp.interpolate.RegularGridInterpolator({GRID}, img)(q)",
    f"jsp.interpolate.RegularGridInterpolator({GRID}, img, method='nearest')(q)",
    f"jsp.interpolate.RegularGridInterpolator({GRID}, img, fill_value=None)(q)",
    f"jsp.interpolate.RegularGridInterpolator({GRID}, img, fill_value=0)(q, method='nearest')",
    f"jsp.interpolate.RegularGridInterpolator({GRID}, img)((q[:, 0], q[:, 1]))",
    f"jsp.interpolate.RegularGridInterpolator({GRID}, img)(q.reshape(3, 2, 2))",
    f"jsp.interpolate.RegularGridInterpolator({GRID}, vol[:, :, 0].T.reshape(5, 4)[:, :4].repeat(2, 1)[:, :7])(q)",
    "jsp.interpolate.RegularGridInterpolator((jnp.arange(4.0), jnp.arange(5.0)), vol)(q)",
    "jsp.interpolate.RegularGridInterpolator((jnp.arange(4.0),), vol, method='nearest')(r)",
    "jsp.interpolate.RegularGridInterpolator((jnp.arange(5),), np.arange(5))(r)",
    f"jsp.interpolate.RegularGridInterpolator({GRID}, img.astype(jnp.bfloat16))(q)",
    f"jax.tree_util.tree_structure(jsp.interpolate.RegularGridInterpolator({GRID}, img)).num_leaves",
    f"jax.jit(lambda f, x: f(x))(jsp.interpolate.RegularGridInterpolator({GRID}, img), q)",
    f"jax.grad(lambda v: jsp.interpolate.RegularGridInterpolator({GRID}, v, fill_value=None)(q).sum())(img)",
    f"jax.grad(lambda x: jsp.interpolate.RegularGridInterpolator({GRID}, img)(x).sum())(q[:3] * 0.5 + 1.0)",
    f"jax.vmap(lambda x: jsp.interpolate.RegularGridInterpolator({GRID}, img)(x))(q.reshape(3, 2, 2))",
    f"jsp.interpolate.RegularGridInterpolator({GRID}, img, method='cubic')",
    f"jsp.interpolate.RegularGridInterpolator({GRID}, img, bounds_error=True)",
    f"jsp.interpolate.RegularGridInterpolator({GRID} + (jnp.arange(2.0),), img)",
    f"jsp.interpolate.RegularGridInterpolator({GRID}, img, fill_value=1j)",
    f"jsp.interpolate.RegularGridInterpolator({GRID}, img.tolist())",
    f"jsp.interpolate.RegularGridInterpolator({GRID}, img)(jnp.ones((2, 3)))",
    f"jsp.interpolate.RegularGridInterpolator({GRID}, img)(q, method='spline')",
    # trapezoid
    "jsp.integrate.trapezoid(img)",
    "jsp.integrate.trapezoid(img, dx=0.25, axis=0)",
    "jsp.integrate.trapezoid(img, img.cumsum(1))",
    "jsp.integrate.trapezoid(img, jnp.arange(5.0) ** 2, axis=0)",
    "jsp.integrate.trapezoid(np.arange(7), dx=2)",
    "jsp.integrate.trapezoid(img.astype(jnp.float16), dx=np.float32(0.5))",
    "jsp.integrate.trapezoid(vol, axis=1)",
    "jax.grad(lambda y: jsp.integrate.trapezoid(y, jnp.arange(7.0) ** 2).sum())(img)",
    "jax.vmap(jsp.integrate.trapezoid)(img)",
    "jsp.integrate.trapezoid(img, axis=2)",
    "jsp.integrate.trapezoid([1.0, 2.0])",
    # vq
    "jsp.cluster.vq.vq(img, img[1:4])",
    "jsp.cluster.vq.vq(img[0], img[1, :3])",
    "jsp.cluster.vq.vq(np.arange(12).reshape(6, 2), np.arange(6).reshape(3, 2))",
    "jsp.cluster.vq.vq(img.astype(jnp.bfloat16), img[:2])",
    "jsp.cluster.vq.vq(img, img[:2], check_finite=False)",
    "jax.jit(jsp.cluster.vq.vq)(img, img[1:4])",
    "jax.grad(lambda o: jsp.cluster.vq.vq(o, img[1:4])[1].sum())(img + 0.1)",
    "jax.vmap(jsp.cluster.vq.vq, in_axes=(0, None))(vol[:, :, :2], img[:3, :2])",
    "jsp.cluster.vq.vq(vol, vol)",
    "jsp.cluster.vq.vq(img, img[0])",
    "jsp.cluster.vq.vq([1.0], img[0])",
]
CALLS = [Call(e, INPUTS) for e in EXPRS]
X64_CALLS = [
    Call(e, INPUTS, x64=True)
    for e in (
        "jsp.ndimage.map_coordinates(img.astype(np.float64), [r, c], order=1, mode='reflect')",
        f"jsp.interpolate.RegularGridInterpolator({GRID}, img)(q[::-1])",
        "jsp.integrate.trapezoid(img, jnp.arange(7.0))",
        "jsp.cluster.vq.vq(img.astype(np.float64), img[:3])",
    )
]
# The message lists the supported modes as a set, whose order changes between processes.
assert len({c.expr for c in CALLS + X64_CALLS}) == len(CALLS + X64_CALLS)  # the live results are keyed by expression
CLASS_ONLY = [Call("jsp.ndimage.map_coordinates(img, [r, c], order=1, mode='grid-wrap')", INPUTS)]
live = live_fixture(CALLS + X64_CALLS + CLASS_ONLY)


@pytest.mark.parametrize("call", CALLS + X64_CALLS, ids=[c.expr + (" x64" if c.x64 else "") for c in CALLS + X64_CALLS])
def test_same_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    theirs = live[call.expr]
    assert_same(here(call), theirs, call.expr, messages=theirs.error is not None)


@pytest.mark.parametrize("call", CLASS_ONLY, ids=[c.expr for c in CLASS_ONLY])
def test_unknown_mode(call: Call, live: dict[str, Outcome]) -> None:
    ours = here(call)
    assert ours.error == live[call.expr].error == "NotImplementedError"
    assert ours.message is not None and "does not yet support mode grid-wrap" in ours.message


# -- against SciPy ------------------------------------------------------------------------

SCIPY_MODES = {"constant": "grid-constant", "nearest": "nearest", "wrap": "grid-wrap",
               "mirror": "mirror", "reflect": "reflect"}  # fmt: skip


@pytest.mark.parametrize("mode", list(SCIPY_MODES))
@pytest.mark.parametrize("order", [0, 1])
def test_map_coordinates_matches_scipy(mode: str, order: int) -> None:
    x = rng.standard_normal((6, 5))
    coords = [rng.uniform(-3.0, 8.0, 20), rng.uniform(-3.0, 8.0, 20)]
    if order == 0:  # away from the rounding ties SciPy breaks differently
        coords = [np.round(c) + 0.25 for c in coords]
    with enable_x64(True):
        ours = map_coordinates(x, coords, order=order, mode=mode, cval=1.5)
    want = scipy_ndimage.map_coordinates(x, coords, order=order, mode=SCIPY_MODES[mode], cval=1.5)
    np.testing.assert_allclose(np.asarray(ours), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("method", ["linear", "nearest"])
def test_regular_grid_interpolator_matches_scipy(method: str) -> None:
    grid = (np.sort(rng.uniform(0, 5, 6)), np.sort(rng.uniform(0, 3, 4)), np.arange(3.0))
    values = rng.standard_normal((6, 4, 3, 2))
    pts = np.stack([rng.uniform(-0.5, 5.5, 30), rng.uniform(-0.5, 3.5, 30), rng.uniform(0, 2, 30)], -1)
    with enable_x64(True):
        ours = RegularGridInterpolator(grid, values, method=method)(pts)
    want = scipy_interpolate.RegularGridInterpolator(grid, values, method=method, bounds_error=False)(pts)
    np.testing.assert_allclose(np.asarray(ours), want, rtol=1e-10, atol=1e-12)


def test_trapezoid_and_vq_match_scipy() -> None:
    y, x = rng.standard_normal((4, 9)), np.sort(rng.uniform(0, 4, 9))
    with enable_x64(True):
        np.testing.assert_allclose(np.asarray(trapezoid(y, x)), scipy_integrate.trapezoid(y, x), rtol=1e-12)
        np.testing.assert_allclose(np.asarray(trapezoid(y, dx=0.3, axis=0)), scipy_integrate.trapezoid(y, dx=0.3, axis=0), rtol=1e-12)
        obs, book = rng.standard_normal((20, 3)), rng.standard_normal((5, 3))
        code, dist = vq(obs, book)
    want_code, want_dist = scipy_vq.vq(obs, book)
    np.testing.assert_array_equal(np.asarray(code), want_code)
    np.testing.assert_allclose(np.asarray(dist), want_dist, rtol=1e-12)


def test_grads_numerically() -> None:
    img = rng.standard_normal((5, 6))
    coords = [rng.uniform(0.2, 3.8, 7), rng.uniform(0.2, 4.8, 7)]
    with enable_x64(True):
        check_grads(lambda x: map_coordinates(x, coords, order=1), (img,), order=2, modes=["fwd", "rev"])
        interp = RegularGridInterpolator((np.arange(5.0), np.arange(6.0)), img)
        check_grads(lambda p: interp(p), (np.stack(coords, -1),), order=1, modes=["fwd", "rev"])
        check_grads(lambda y: trapezoid(y, np.arange(6.0) ** 2), (img,), order=1, modes=["fwd", "rev"])


def test_interpolator_is_a_pytree() -> None:
    interp = RegularGridInterpolator((jnp.arange(3.0),), jnp.arange(3.0) * 2, method="nearest", fill_value=-1.0)
    leaves, tree = jax.tree_util.tree_flatten(interp)
    assert len(leaves) == 3
    again = jax.tree_util.tree_unflatten(tree, leaves)
    assert isinstance(again, RegularGridInterpolator) and again.method == "nearest"
    assert jax.jit(lambda f: f(jnp.array([0.4, 1.6, 9.0])))(interp).tolist() == [0.0, 4.0, -1.0]
