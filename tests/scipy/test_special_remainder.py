"""The rest of ``jax_core.scipy.special`` (bessel_jn, dawsn, erfcx, exp1, expi, expn, hyp1f1,
owens_t, sici, spence, wofz) against live JAX, bit for bit (the same XLA operations in the same
order), except real ``erfcx``: JAX evaluates piecewise polynomial fits, jax_core the Faddeeva
function ``w(ix)`` by Weideman's rational approximation (JAX's complex path), so those values are
compared within a stated tolerance (and against SciPy)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sps

import jax_core as jax
import jax_core.numpy as jnp
import jax_core.scipy.special as jsp_special
from jax_core._src.config import enable_x64
from tests.oracle.client import Call, Outcome, assert_same, live_fixture

X = np.array([-np.inf, -30.0, -5.0, -1.5, -0.0, 0.0, 1e-3, 0.3, 1.0, 2.5, 3.9, 4.1, 7.0, 9.0, 33.0, 70.0, 1e10,
              np.inf, np.nan], np.float32)  # fmt: skip
INPUTS = {"x": X, "x64": X.astype(np.float64)}

EXACT = [
    "jsp.special.expi(x)", "jsp.special.expi(x64)", "jsp.special.exp1(x)", "jsp.special.exp1(x64)",
    "jsp.special.expn(3, x)", "jsp.special.expn(jnp.array([0, 1, 2, 6000.0])[:, None], x64)",
    "jsp.special.expn(-1, x)", "jsp.special.expn(2.7, 0.5)",
    "jsp.special.sici(x)", "jsp.special.sici(x64)", "jsp.special.spence(jnp.abs(x))", "jsp.special.spence(x64)",
    "jsp.special.dawsn(x)", "jsp.special.dawsn(x64)", "jsp.special.dawsn(x[1:-3].astype(jnp.float16))",
    "jsp.special.dawsn(jnp.arange(4))",
    "jsp.special.wofz(x + 0.5j)", "jsp.special.wofz(x64 - 0.5j)", "jsp.special.wofz(x)", "jsp.special.wofz(2)",
    "jsp.special.erfcx(x + 1j)", "jsp.special.erfcx(x64 - 2j)",
    "jsp.special.bessel_jn(x, v=3)", "jsp.special.bessel_jn(jnp.array([[0.5, 1.0], [2.0, 10.0]]), v=2, n_iter=30)",
    "jsp.special.bessel_jn(x64, v=2)", "jsp.special.bessel_jn(3, v=0)",
    "jsp.special.hyp1f1(0.5, 1.5, x)", "jsp.special.hyp1f1(2, 3, 150.0)",
    "jsp.special.hyp1f1(jnp.array([0.0, 1.5, 2.0])[:, None], jnp.array([0.0, 1.5, 3.0])[:, None], x64)",
    "jsp.special.owens_t(x, 0.5)", "jsp.special.owens_t(x64, 3.0)",
    "jsp.special.owens_t(x[:, None], jnp.array([-3.0, -1.0, 0.0, 0.3, 1.0, 2.5, np.nan]))",
    # derivatives and batching
    "jax.grad(jsp.special.expi)(1.5)", "jax.grad(jsp.special.expi)(-2.5)", "jax.grad(jsp.special.exp1)(0.5)",
    "jax.grad(lambda v: jsp.special.sici(v)[1])(1.5)", "jax.grad(lambda v: jsp.special.sici(v)[0])(6.5)",
    "jax.grad(jsp.special.expn, argnums=1)(2.0, 1.5)", "jax.grad(jsp.special.expn, argnums=1)(0.0, 1.5)",
    "jax.grad(jsp.special.dawsn)(1.5)", "jax.grad(lambda z: jsp.special.wofz(z).real)(1.0 + 0.5j)",
    "jax.grad(jsp.special.hyp1f1, argnums=(0, 1, 2))(0.5, 1.5, 0.7)",
    "jax.grad(jsp.special.owens_t, argnums=(0, 1))(0.5, 2.0)",
    "jax.jacfwd(lambda z: jsp.special.bessel_jn(z, v=2))(1.5)",
    "jax.vmap(jsp.special.exp1)(x)", "jax.vmap(jsp.special.owens_t)(x, x)", "jax.vmap(jsp.special.dawsn)(x)",
    "jax.jit(jsp.special.sici)(x)", "jax.jit(jsp.special.spence)(jnp.abs(x))",
    "jax.vmap(lambda v: jsp.special.hyp1f1(1.0, 2.0, v))(jnp.array([0.5, -3.0, 120.0]))",
    # bad input
    "jsp.special.expi(1 + 1j)", "jsp.special.exp1(1j)", "jsp.special.expn(1, 1j)", "jsp.special.sici(1j)",
    "jsp.special.dawsn(1j)", "jsp.special.spence(1)", "jsp.special.spence(jnp.float16(1))",
    "jsp.special.hyp1f1(1.0, 2.0, 1j)", "jsp.special.expi([1.0])",
    "jsp.special.bessel_jn(1.0, v=-1)",
]  # fmt: skip
CALLS = [Call(e, {n: v for n, v in INPUTS.items() if n in e}, "x64" in e) for e in EXACT]
ERFCX = ["jsp.special.erfcx(x)", "jsp.special.erfcx(x64)", "jsp.special.erfcx(x.astype(jnp.bfloat16))",
         "jax.grad(jsp.special.erfcx)(0.7)", "jax.grad(jsp.special.erfcx)(-1.5)"]  # fmt: skip
CLOSE_CALLS = [Call(e, {n: v for n, v in INPUTS.items() if n in e}, "x64" in e) for e in ERFCX]
live = live_fixture(CALLS + CLOSE_CALLS)


def here(call: Call) -> Outcome:
    """jax_core's outcome of ``call`` (``tests.oracle.client.here`` over only the modules these
    expressions use, so a half-built unrelated submodule cannot break them)."""
    env = {"jax": jax, "jnp": jnp, "lax": jax.lax, "random": jax.random, "jsp": jax.scipy, "np": np, **call.inputs}
    with enable_x64(call.x64):
        try:
            value = eval(call.expr, env)
            return Outcome(leaves=tuple(np.asarray(v) for v in jax.tree_util.tree_leaves(value)))
        except Exception as err:  # noqa: BLE001  (compared with what JAX raised)
            return Outcome(error=type(err).__name__, message=str(err))


@pytest.mark.parametrize("call", CALLS, ids=[c.expr for c in CALLS])
def test_same_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    theirs = live[call.expr]
    assert_same(here(call), theirs, call.expr, messages=theirs.error is not None)


@pytest.mark.parametrize("call", CLOSE_CALLS, ids=[c.expr for c in CLOSE_CALLS])
def test_real_erfcx_close_to_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    """Within 4 ulps (float32, bfloat16) or 1e-13 relative (float64) of JAX's polynomial fits."""
    ours, theirs = here(call), live[call.expr]
    assert ours.leaves is not None and theirs.leaves is not None
    for a, b in zip(ours.leaves, theirs.leaves, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        tol = 1e-13 if a.dtype == np.float64 else 4 * float(jnp.finfo(a.dtype).eps)
        np.testing.assert_allclose(a64, b64, rtol=tol, atol=0)


def test_against_scipy() -> None:
    x = np.linspace(-6, 40, 93)
    with enable_x64(True):
        for ours, theirs in [(jsp_special.expi, sps.expi), (jsp_special.exp1, sps.exp1), (jsp_special.dawsn, sps.dawsn),
                             (jsp_special.erfcx, sps.erfcx)]:  # fmt: skip
            np.testing.assert_allclose(ours(x), theirs(x), rtol=1e-12, err_msg=ours.__name__)
        si, ci = jsp_special.sici(x)
        want_si, want_ci = sps.sici(x)
        np.testing.assert_allclose(si, want_si, rtol=1e-12)
        np.testing.assert_allclose(ci, want_ci, rtol=1e-9, atol=1e-14)
        np.testing.assert_allclose(jsp_special.spence(np.abs(x)), sps.spence(np.abs(x)), rtol=1e-12)
        np.testing.assert_allclose(jsp_special.expn(3, np.abs(x)), sps.expn(3, np.abs(x)), rtol=1e-12)
        np.testing.assert_allclose(jsp_special.bessel_jn(x[:40] + 0.25, v=3), np.stack([sps.jv(k, x[:40] + 0.25) for k in range(4)]),
                                   atol=1e-10)  # fmt: skip
        np.testing.assert_allclose(jsp_special.hyp1f1(0.5, 1.5, x[:60]), sps.hyp1f1(0.5, 1.5, x[:60]), rtol=1e-10)
        np.testing.assert_allclose(jsp_special.owens_t(x, 0.7), sps.owens_t(x, 0.7), rtol=1e-9, atol=1e-15)  # JAX's quadrature: absolute accuracy in the tails
        z = x + 0.5j
        np.testing.assert_allclose(jsp_special.wofz(z), sps.wofz(z), rtol=1e-12)
