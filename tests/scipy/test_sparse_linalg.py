"""jax_core.scipy.sparse.linalg (cg, bicgstab, gmres) against live JAX: bit-identical solutions
for matrices, functions, preconditioners and pytrees, implicit derivatives (grad, jvp) through
``lax.custom_linear_solve``, vmap and jit, and JAX's errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core.scipy.sparse.linalg import bicgstab, cg, gmres
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture

rng = np.random.default_rng(5)
_a = rng.standard_normal((6, 6))
INPUTS: dict[str, Any] = {
    "s": (_a @ _a.T + 6 * np.eye(6)).astype(np.float32),  # symmetric positive definite
    "n": (_a + 6 * np.eye(6)).astype(np.float32),  # nonsymmetric, well conditioned
    "b": rng.standard_normal(6).astype(np.float32),
    "c": rng.standard_normal(2).astype(np.float32),
}
L = "jsp.sparse.linalg"
TREE_A = "lambda t: {'a': s @ t['a'], 'b': 3.0 * t['b']}"
TREE_B = "{'a': b, 'b': c}"

VALUES = [
    f"{L}.cg(s, b)",
    f"{L}.cg(lambda v: s @ v, b, tol=1e-3, maxiter=3)",
    f"{L}.cg(s, b, M=jnp.diag(1 / jnp.diag(s)))",
    f"{L}.cg(s, b, M=lambda v: v / jnp.diag(s), atol=1e-2)",
    f"{L}.cg(s, b, x0=jnp.ones(6))",
    f"{L}.cg(s, b.astype(np.int32))",
    f"{L}.cg(s.astype(np.complex64), b + 1j * b)",
    f"{L}.cg({TREE_A}, {TREE_B})",
    f"{L}.bicgstab(n, b)",
    f"{L}.bicgstab(n, b, M=jnp.diag(1 / jnp.diag(n)), maxiter=2)",
    f"{L}.bicgstab(lambda v: n @ v, b, x0=b, tol=1e-2)",
    f"{L}.bicgstab({TREE_A}, {TREE_B})",
    f"{L}.bicgstab(n.astype(np.complex64), b - 2j * b)",
    f"{L}.gmres(n, b)",
    f"{L}.gmres(n, b, solve_method='incremental', restart=3)",
    f"{L}.gmres(n, b, restart=2, maxiter=2)",
    f"{L}.gmres(n, b, M=jnp.diag(1 / jnp.diag(n)), atol=1e-3)",
    f"{L}.gmres({TREE_A}, {TREE_B})",
    f"{L}.gmres({TREE_A}, {TREE_B}, solve_method='incremental')",
    f"{L}.gmres(n.astype(np.complex64), b + 1j * b)",
    f"{L}.gmres(n.astype(np.complex64), b + 1j * b, solve_method='incremental')",
    f"{L}.gmres(n, b * 0)",
    # transformations
    f"jax.jit(lambda v: {L}.cg(s, v)[0])(b)",
    f"jax.jit(lambda m, v: {L}.gmres(m, v)[0])(n, b)",
    f"jax.grad(lambda v: jnp.sum({L}.cg(s, v)[0] ** 2))(b)",
    f"jax.grad(lambda m: jnp.sum({L}.cg(lambda v: m @ v, b)[0]))(s)",
    f"jax.grad(lambda m: jnp.sum({L}.bicgstab(m, b)[0]))(n)",
    f"jax.grad(lambda v: jnp.sum({L}.gmres(n, v)[0]))(b)",
    f"jax.jvp(lambda v: {L}.gmres(n, v)[0], (b,), (b,))",
    f"jax.jvp(lambda m: {L}.cg(m, b)[0], (s,), (jnp.eye(6),))",
    f"jax.vmap(lambda v: {L}.bicgstab(n, v)[0])(jnp.stack([b, 2 * b]))",
    f"jax.vmap(lambda v: {L}.cg(s, v)[0])(jnp.stack([b, -b, b + 1]))",
    f"jax.vmap(lambda m: {L}.gmres(m, b)[0])(jnp.stack([n, n.T]))",
]
X64 = [
    f"{L}.cg(s.astype(np.float64), b.astype(np.float64))",
    f"{L}.gmres(n.astype(np.float64), b.astype(np.float64), solve_method='incremental')",
    f"{L}.bicgstab(n.astype(np.float64), b.astype(np.float64))",
]
ERRORS = [
    f"{L}.gmres(s, b, solve_method='bad')",
    f"{L}.cg(s, {TREE_B})",
    f"{L}.cg(s[:, :3], b)",
    f"{L}.cg(s, b, x0=b[:3])",
    f"{L}.cg(s, b, x0=(b,))",
    f"{L}.gmres(s, b, x0=(b,))",
    f"{L}.cg(3, b)",
    f"{L}.bicgstab(s, b, M=s[:2])",
    f"{L}.cg(lambda v: v[:3], b)",
]
CALLS = [Call(e, INPUTS) for e in VALUES + ERRORS] + [Call(e, INPUTS, x64=True) for e in X64]
live = live_fixture(CALLS)


@pytest.mark.parametrize("expr", VALUES)
def test_values_bit_identical(expr: str, live: dict[str, Outcome]) -> None:
    assert_same(here(Call(expr, INPUTS)), live[expr], expr)


@pytest.mark.parametrize("expr", X64)
def test_values_x64(expr: str, live: dict[str, Outcome]) -> None:
    assert_same(here(Call(expr, INPUTS, x64=True)), live[expr], expr)


@pytest.mark.parametrize("expr", ERRORS)
def test_errors_as_jax(expr: str, live: dict[str, Outcome]) -> None:
    theirs = live[expr]
    assert theirs.error is not None, f"JAX did not raise for {expr}"
    assert_same(here(Call(expr, INPUTS)), theirs, expr, messages=True)


@pytest.mark.parametrize("solver", [cg, bicgstab, gmres])
def test_solutions_solve(solver: Any) -> None:
    s, b = INPUTS["s"], INPUTS["b"]
    x, info = solver(s, b, tol=1e-6)
    np.testing.assert_allclose(s @ np.asarray(x), b, atol=1e-4)
    assert info is None if solver is not gmres else int(info) == 0
    jac = jax.jacobian(lambda v: solver(s, v, tol=1e-6)[0])(jnp.asarray(b))
    np.testing.assert_allclose(np.asarray(jac), np.linalg.inv(s), atol=1e-4)
