"""Rules of ``polynomial`` (JAX 0.12's Horner primitive): its jvp in ``x`` (the derivative
polynomial, at every order) and in the coefficients, its transpose in the coefficients (the
adjoint of the linear map), batching against a loop, and the unrolled and scan lowerings agreeing."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src.config import enable_x64
from jax_core.test_util import check_grads

COVERED = frozenset({"polynomial"})

rng = np.random.default_rng(3)
X = rng.standard_normal(5)
C = rng.standard_normal(11)


@pytest.fixture(autouse=True)
def _x64() -> Iterator[None]:
    with enable_x64(True):
        yield


@pytest.mark.parametrize("unroll", [None, 2, 20])
def test_grads_in_x_and_coefficients(unroll: int | None) -> None:
    check_grads(lambda x: lax.polynomial(x, list(C[:4]), unroll=unroll), (X,), order=3, modes=["fwd", "rev"])
    check_grads(lambda c: lax.polynomial(X, [c[i] for i in range(11)], unroll=unroll), (C,), order=2, modes=["fwd", "rev"])


def test_values_match_numpy_and_lowerings_agree() -> None:
    want = np.polyval(C[::-1], X)
    for unroll in (None, 1, 3, 11, 20):
        np.testing.assert_allclose(np.asarray(lax.polynomial(X, list(C), unroll=unroll)), want, rtol=1e-12)


def test_transpose_is_the_adjoint() -> None:
    ct = rng.standard_normal(5)
    f = lambda c: lax.polynomial(X, [c[0], c[1], c[2]])  # noqa: E731
    (g,) = jax.vjp(f, jnp.asarray(C[:3]))[1](jnp.asarray(ct))
    powers = np.stack([X**0, X**1, X**2])
    np.testing.assert_allclose(np.asarray(g), powers @ ct, rtol=1e-12)


def test_vmap_matches_loop() -> None:
    cs = rng.standard_normal((3, 4))
    f = lambda x, c: lax.polynomial(x, [c[0], c[1], c[2], c[3]])  # noqa: E731
    got = jax.vmap(f)(jnp.asarray(X[:3]), jnp.asarray(cs))
    want = np.stack([np.asarray(f(jnp.asarray(X[i]), jnp.asarray(cs[i]))) for i in range(3)])
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12)
