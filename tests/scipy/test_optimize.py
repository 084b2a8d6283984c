"""jax_core.scipy.optimize.minimize (BFGS and the experimental L-BFGS, on JAX's strong-Wolfe
line search) against live JAX: every field of ``OptimizeResults`` bit-identical for BFGS, close
for L-BFGS, the same errors, and the same results under jit and vmap."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core.scipy.optimize import OptimizeResults, minimize
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture

INPUTS: dict[str, Any] = {
    "x": np.array([-1.2, 1.0, 0.5], np.float32),
    "y": np.array([1.0, 2.0], np.float32),
    "w": np.linspace(-1.0, 1.0, 8).astype(np.float32),
}
ROSEN = "lambda v: jnp.sum(100.0 * (v[1:] - v[:-1] ** 2) ** 2 + (1 - v[:-1]) ** 2)"
QUAD = "lambda v: jnp.sum((v - jnp.arange(v.size)) ** 2 * (1.0 + jnp.arange(v.size))) + jnp.sum(v ** 4)"
MIN = "jsp.optimize.minimize"
LBFGS = "'l-bfgs-experimental-do-not-rely-on-this'"

VALUES = [
    f"{MIN}({ROSEN}, x, method='BFGS')",
    f"{MIN}({ROSEN}, x, method='bfgs', options=dict(maxiter=4))",
    f"{MIN}({ROSEN}, x, method='BFGS', options=dict(gtol=1e-2, norm=2, line_search_maxiter=3))",
    f"{MIN}(lambda v, a, b: jnp.sum((v - a) ** 2) * b, y, args=(3.0, 2.0), method='BFGS')",
    f"{MIN}(lambda v: jnp.sum(v ** 2), jnp.zeros(2), method='BFGS')",
    f"{MIN}(lambda v: jnp.sum(jnp.abs(v - 1j) ** 2), y.astype(np.complex64), method={LBFGS})",
    f"jax.jit(lambda x0: {MIN}({ROSEN}, x0, method='BFGS', options=dict(maxiter=5)))(x)",
    f"jax.vmap(lambda x0: {MIN}({ROSEN}, x0, method='BFGS').x)(jnp.stack([x, x * 0.5]))",
    f"jax.jit(lambda a: {MIN}(lambda v: jnp.sum((v - a) ** 2), y, method='BFGS').x)(2.0)",
]
# These reach JAX's iterates within a few ulps (XLA compiles the loop bodies' fusions a little
# differently); the counts and flags agree exactly
CLOSE = [
    f"{MIN}({QUAD}, w, method='BFGS', options=dict(gtol=1e-2))",
    f"{MIN}({QUAD}, y, method={LBFGS}, options=dict(maxcor=2, maxiter=3))",
    f"{MIN}({QUAD}, w, method={LBFGS})",
    f"{MIN}({QUAD}, w, method={LBFGS}, options=dict(maxfun=6))",
    f"{MIN}({QUAD}, w, method={LBFGS}, options=dict(maxgrad=6, gtol=1e-8))",
]
X64 = [
    f"{MIN}({QUAD}, w.astype(np.float64), method='BFGS')",
    f"{MIN}({ROSEN}, x.astype(np.float64), method='BFGS')",
]
ERRORS = [
    f"{MIN}(lambda v: jnp.sum(v ** 2), y, method='nelder-mead')",
    f"{MIN}(lambda v: jnp.sum(v ** 2), y, args=[1], method='BFGS')",
    f"{MIN}(lambda v: jnp.sum(v ** 2), y, method='BFGS', options=dict(bogus=1))",
    f"{MIN}(lambda v: v, y, method='BFGS')",
]
CALLS = [Call(e, INPUTS) for e in VALUES + CLOSE + ERRORS] + [Call(e, INPUTS, x64=True) for e in X64]
live = live_fixture(CALLS)


@pytest.mark.parametrize("expr", VALUES)
def test_values_bit_identical(expr: str, live: dict[str, Outcome]) -> None:
    assert_same(here(Call(expr, INPUTS)), live[expr], expr)


@pytest.mark.parametrize("expr", CLOSE + X64)
def test_values_close(expr: str, live: dict[str, Outcome]) -> None:
    ours, theirs = here(Call(expr, INPUTS, x64=expr in X64)), live[expr]
    assert ours.leaves is not None and theirs.leaves is not None, (ours.describe(), theirs.describe())
    for a, b in zip(ours.leaves, theirs.leaves, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        if a.dtype.kind in "biu":
            np.testing.assert_array_equal(a, b)
        else:
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("expr", ERRORS)
def test_errors_as_jax(expr: str, live: dict[str, Outcome]) -> None:
    theirs = live[expr]
    assert theirs.error is not None, f"JAX did not raise for {expr}"
    assert_same(here(Call(expr, INPUTS)), theirs, expr, messages=True)


def test_result_type_and_convergence() -> None:
    res = minimize(lambda v: jnp.sum((v - 3.0) ** 2), jnp.zeros(4), method="BFGS")
    assert isinstance(res, OptimizeResults)
    assert OptimizeResults._fields == ("x", "success", "status", "fun", "jac", "hess_inv", "nfev", "njev", "nit")
    assert bool(res.success) and int(res.status) == 0
    np.testing.assert_allclose(np.asarray(res.x), np.full(4, 3.0), rtol=1e-5)
    lres = minimize(lambda v: jnp.sum((v - 3.0) ** 2), jnp.zeros(4), method="l-bfgs-experimental-do-not-rely-on-this")
    assert lres.hess_inv is None
    np.testing.assert_allclose(np.asarray(lres.x), np.full(4, 3.0), rtol=1e-5)


def test_grad_through_minimize_raises_as_jax() -> None:
    # the solver is a while_loop: reverse mode is refused, as in JAX
    def f(a: jax.Array) -> jax.Array:
        return minimize(lambda v: jnp.sum((v - a) ** 2), jnp.zeros(2), method="BFGS").fun

    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work for lax.while_loop"):
        jax.grad(f)(jnp.float32(1.0))
