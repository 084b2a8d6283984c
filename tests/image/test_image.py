"""jax_core.image against real JAX (live oracle): every method up and down, with and without
antialias, scale_and_translate, dtypes, errors, jit and vmap bit for bit; gradients within a
stated tolerance (the transposed contractions may sum in another order)."""

from __future__ import annotations

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core._src.config import enable_x64
from jax_core._src.image.scale import resize, scale_and_translate
from jax_core.test_util import check_grads
from tests.oracle.client import Call, Outcome, assert_same, evaluate, here, prefetch

rng = np.random.default_rng(5)
INPUTS = {
    "img": rng.standard_normal((5, 7)).astype(np.float32),
    "rgb": rng.standard_normal((2, 6, 5, 3)).astype(np.float32),
    "vol": rng.standard_normal((4, 5, 3)).astype(np.float32),
}
# Each case is a compilation on both sides (resize is jitted on its shape and method), so the grid
# is sampled: one name per kernel (ResizeMethod's members), each up and down in both dimensions
# and on two of the edge shapes (a rotation: each edge shape with three or four kernels); the
# other names JAX accepts for a kernel (ResizeMethod.from_string maps them) once each, on a
# downsampling shape; antialias=False where it changes anything, downsampling (upsampling
# ignores it); a ResizeMethod member in place of its name twice.
METHODS = ("nearest", "linear", "cubic", "cubic-pytorch", "lanczos3", "lanczos5", "area")
ALIASES = ("bilinear", "trilinear", "triangle", "bicubic", "tricubic", "bicubic-pytorch")
SHAPES = ("(9, 11)", "(3, 4)")
EDGE_SHAPES = ("(5, 3)", "(2, 13)", "(1, 1)", "(0, 4)")

EXPRS = [
    *(f"jax.image.resize(img, {s}, '{m}')" for m in METHODS for s in SHAPES),
    *(f"jax.image.resize(img, {s}, '{m}')" for i, m in enumerate(METHODS) for j, s in enumerate(EDGE_SHAPES) if (j - i) % 4 < 2),
    *(f"jax.image.resize(img, (3, 4), '{m}')" for m in ALIASES),
    *(f"jax.image.resize(img, {s}, '{m}', antialias=False)" for m in METHODS[1:] for s in ("(3, 4)", "(5, 3)")),
    *(f"jax.image.resize(img, (9, 11), jax.image.ResizeMethod.{m})" for m in ("LINEAR", "LANCZOS5")),
    "jax.image.resize(rgb, (2, 9, 3, 3), 'linear')",
    "jax.image.resize(rgb, (2, 3, 10, 3), 'lanczos3')",
    "jax.image.resize(img, (9, 11), 'linear', precision=lax.Precision.DEFAULT)",
    "jax.image.resize(img, (9, 11), 'linear', precision=None)",
    "jax.image.resize(img.astype(jnp.float16), (9, 4), 'cubic')",
    "jax.image.resize(img.astype(jnp.bfloat16), (3, 11), 'linear')",
    "jax.image.resize(np.arange(12, dtype=np.uint8).reshape(3, 4), (5, 7), 'nearest')",
    "jax.image.resize(np.arange(12, dtype=np.int32).reshape(3, 4), (5, 7), 'linear')",
    "jax.image.resize(np.arange(12).reshape(3, 4) > 5, (5, 7), 'nearest')",
    "jax.image.resize(img, [9, 11], 'linear')",
    "jax.image.resize(img, (np.int32(9), 11), 'linear')",
    *(f"jax.image.scale_and_translate(img, (9, 11), (0, 1), jnp.array([1.5, 1.7]), jnp.array([0.3, -1.0]), '{m}'{a})"
      for m in (*METHODS[1:], "bicubic") for a in ("", ", antialias=False")),
    "jax.image.scale_and_translate(img, (4, 3), (0, 1), jnp.array([0.5, 0.4]), jnp.array([0.0, 2.0]), 'lanczos5')",
    "jax.image.scale_and_translate(img, (5, 11), (1,), jnp.array([1.5]), jnp.array([0.5]), 'cubic')",
    "jax.image.scale_and_translate(img, (5, 11), (-1,), np.array([1.5]), np.array([-0.5]), 'linear')",
    "jax.image.scale_and_translate(img, (5, 7), (), jnp.zeros(0), jnp.zeros(0), 'linear')",
    "jax.image.scale_and_translate(np.arange(35).reshape(5, 7), (9, 11), (0, 1), np.array([2, 2]), np.array([0, 1]), 'linear')",
    "jax.image.scale_and_translate(rgb, (2, 9, 8, 3), (1, 2), jnp.array([1.5, 1.6]), jnp.array([0.0, 0.0]), 'area')",
    "jax.image.ResizeMethod.from_string('tricubic').value",
    "jax.image.ResizeMethod.CUBIC_PYTORCH.value",
    # jit and vmap
    "jax.jit(lambda x: jax.image.resize(x, (9, 11), 'linear'))(img)",
    "jax.jit(lambda x, s, t: jax.image.scale_and_translate(x, (9, 11), (0, 1), s, t, 'cubic'))(img, jnp.array([1.5, 1.7]), jnp.array([0.3, -1.0]))",
    "jax.vmap(lambda x: jax.image.resize(x, (9, 11), 'nearest'))(jnp.stack([img, -img]))",
    # bad input: JAX's class and message
    "jax.image.resize(img, (9, 11), 'foo')",
    "jax.image.resize(img, (9, 11), 'Linear')",
    "jax.image.resize(img, (9, 11, 1), 'linear')",
    "jax.image.resize(img, 9, 'linear')",
    "jax.image.resize(img.tolist(), (9, 11), 'linear')",
    "jax.image.ResizeMethod.from_string('bilinear ')",
    "jax.image.scale_and_translate(img, (9, 11), (0, 1), jnp.array([1.5, 1.7]), jnp.array([0.3, -1.0]), 'nearest')",
    "jax.image.scale_and_translate(img, (9, 11), (0, 1), jnp.array([1.5, 1.7]), jnp.array([0.3, -1.0]), 'bad')",
    "jax.image.scale_and_translate(img, (9,), (0,), jnp.array([1.5]), jnp.array([0.3]), 'linear')",
    "jax.image.scale_and_translate(img, (9, 11), (0, 1), [1.5, 1.7], [0.3, -1.0], 'linear')",
    "jax.image.scale_and_translate(img.tolist(), (9, 11), (0, 1), jnp.array([1.5, 1.7]), jnp.array([0.3, -1.0]), 'linear')",
]
CALLS = [Call(e, INPUTS) for e in EXPRS]
X64_CALLS = [
    Call(e, INPUTS, x64=True)
    for e in (
        "jax.image.resize(img, (9, 4), 'linear')",
        "jax.image.resize(img.astype(np.float64), (9, 4), 'cubic')",
        "jax.image.resize(img.astype(np.float64), (3, 11), 'nearest')",
    )
]


@pytest.mark.parametrize("call", CALLS + X64_CALLS, ids=[c.expr + (" x64" if c.x64 else "") for c in CALLS + X64_CALLS])
def test_same_as_live_jax(call: Call, live: dict[tuple[str, bool], Outcome]) -> None:
    theirs = live[call.expr, call.x64]
    assert_same(here(call), theirs, call.expr, messages=theirs.error is not None)


# jax_core's jnp.einsum picks its contraction order and operand order with NumPy's einsum_path,
# JAX's with opt_einsum (and its own operand swaps): with three resampled dimensions, under vmap,
# with float64 weights, and in gradients (transposed contractions), the products are summed in
# another order and the last bits can differ (values within a few float32 ulps).
CLOSE = [
    "jax.image.resize(vol, (7, 3, 6), 'linear')",
    "jax.image.resize(vol, (2, 8, 5), 'cubic')",
    "jax.vmap(lambda x: jax.image.resize(x, (9, 4), 'lanczos3'))(rgb[0].transpose(2, 0, 1))",
    "x64: jax.image.scale_and_translate(img, (9, 11), (0, 1), jnp.array([1.5, 1.7]), jnp.array([0.3, -1.0]), 'linear')",
    "jax.grad(lambda x: jax.image.resize(x, (9, 11), 'linear').sum())(img)",
    "jax.grad(lambda x: (jax.image.resize(x, (3, 4), 'lanczos3') ** 2).sum())(img)",
    "jax.grad(lambda s: jax.image.scale_and_translate(img, (9, 11), (0, 1), s, jnp.array([0.3, -1.0]), 'cubic').sum())(jnp.array([1.5, 1.7]))",
    "jax.grad(lambda t: jax.image.scale_and_translate(img, (9, 11), (0, 1), jnp.array([1.5, 1.7]), t, 'linear').sum())(jnp.array([0.3, -1.0]))",
]
CLOSE_CALLS = {e: Call(e.removeprefix("x64: "), INPUTS, x64=e.startswith("x64: ")) for e in CLOSE}
ALL_CALLS = [*CALLS, *X64_CALLS, *CLOSE_CALLS.values()]
prefetch(ALL_CALLS)


@pytest.fixture(scope="module")
def live() -> dict[tuple[str, bool], Outcome]:
    """Real JAX's outcome of every call of this module, by (expression, x64): one oracle batch."""
    return {(c.expr, c.x64): o for c, o in zip(ALL_CALLS, evaluate(ALL_CALLS), strict=True)}


@pytest.mark.parametrize("expr", CLOSE)
def test_close_to_jax(expr: str, live: dict[tuple[str, bool], Outcome]) -> None:
    call = CLOSE_CALLS[expr]
    theirs = live[call.expr, call.x64]
    ours = here(call)
    assert ours.leaves is not None and theirs.leaves is not None, (ours.describe(), theirs.describe())
    for a, b in zip(ours.leaves, theirs.leaves, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=2e-6, atol=1e-5)


def test_check_grads() -> None:
    x = rng.standard_normal((4, 5))

    # jitted: check_grads' many evaluations reuse one executable (test_close_to_jax checks the
    # eager gradients against JAX's)
    @jax.jit
    def scaled(s: jax.Array) -> jax.Array:
        return scale_and_translate(x, (6, 7), (0, 1), s, jnp.array([0.2, -0.4]), "linear")

    with enable_x64(True):
        check_grads(lambda v: resize(v, (6, 3), "cubic"), (x,), order=2, modes=["fwd", "rev"])
        check_grads(scaled, (np.array([1.3, 1.6]),), order=1, modes=["fwd", "rev"])


def test_nearest_keeps_dtype_and_others_promote() -> None:
    x = jnp.arange(12, dtype=jnp.int16).reshape(3, 4)
    assert resize(x, (6, 8), "nearest").dtype == jnp.int16
    assert resize(x, (6, 8), "linear").dtype == jnp.float32
    assert jax.jit(lambda v: resize(v, (6, 8), "area"))(x).shape == (6, 8)
