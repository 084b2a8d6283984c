"""Every transformation composes with every other: a matrix of wrapper pairs, each checked
against the plain function's value and by finite differences (``check_grads``)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src.config import enable_x64
from jax_core.test_util import check_grads

Fn = Callable[[Any], Any]
X = np.array([0.3, -0.7, 1.2])


@pytest.fixture(autouse=True)
def _x64() -> Iterator[None]:
    with enable_x64(True):
        yield


def base(x: Any) -> Any:
    return jnp.sum(jnp.sin(x) * x + jnp.tanh(x) ** 2)


def _custom_vjp_wrap(f: Fn) -> Fn:
    @jax.custom_vjp
    def g(x: Any) -> Any:
        return f(x)

    def fwd(x: Any) -> tuple[Any, Any]:
        y, pullback = jax.vjp(f, x)
        return y, x

    def bwd(x: Any, ct: Any) -> tuple[Any]:
        return (jax.vjp(f, x)[1](ct)[0],)

    g.defvjp(fwd, bwd)
    return g


def _custom_jvp_wrap(f: Fn) -> Fn:
    @jax.custom_jvp
    def g(x: Any) -> Any:
        return f(x)

    @g.defjvp
    def _(primals: tuple[Any, ...], tangents: tuple[Any, ...]) -> tuple[Any, Any]:
        return jax.jvp(f, primals, tangents)

    return g


def _cond_wrap(f: Fn) -> Fn:
    def zero(y: Any) -> Any:
        return 0.0 * f(y)

    return lambda x: lax.cond(jnp.sum(x) > -100.0, f, zero, x)


def _scan_wrap(f: Fn) -> Fn:
    def step(carry: tuple[Any, Any], _: None) -> tuple[tuple[Any, Any], None]:
        total, x = carry
        return (total + f(x), x), None

    return lambda x: lax.scan(step, (0.0, x), None, length=2)[0][0] / 2.0


# Each wrapper maps a function f32[3] -> f32[] to one with the same value. The functions that
# cond and scan trace are made once per wrapped function, not per call, so that check_grads'
# repeated evaluations find their traces and executables cached (as a user's loop would).
WRAPPERS: dict[str, Callable[[Fn], Fn]] = {
    "jit": lambda f: jax.jit(f),
    "checkpoint": lambda f: jax.checkpoint(f),
    "vmap": lambda f: lambda x: jax.vmap(f)(jnp.stack([x, 2 * x]))[0],
    "vmap_named": lambda f: lambda x: jax.vmap(lambda y: f(y) + 0 * lax.psum(y[0], "b"), axis_name="b")(jnp.stack([x, x]))[1],
    "custom_jvp": _custom_jvp_wrap,
    "custom_vjp": _custom_vjp_wrap,
    "grad_then_dot": lambda f: lambda x: f(x) + 0.0 * jnp.sum(jax.grad(f)(x)),
}
if hasattr(lax, "cond"):
    WRAPPERS["cond"] = _cond_wrap
if hasattr(lax, "scan"):
    WRAPPERS["scan"] = _scan_wrap


def _modes(names: tuple[str, ...]) -> tuple[str, ...]:
    return ("rev",) if "custom_vjp" in names else ("fwd", "rev")


@pytest.mark.parametrize(("outer", "inner"), list(itertools.product(WRAPPERS, repeat=2)))
def test_pairs_of_transformations(outer: str, inner: str) -> None:
    h = WRAPPERS[outer](WRAPPERS[inner](base))
    np.testing.assert_allclose(h(X), base(X), rtol=1e-10)
    check_grads(h, (X,), order=1, modes=_modes((outer, inner)))


@pytest.mark.parametrize("name", list(WRAPPERS))
def test_second_order_through_each_transformation(name: str) -> None:
    check_grads(WRAPPERS[name](base), (X,), order=2, modes=_modes((name,)))


def test_grad_of_vmap_of_jit() -> None:
    per_example = jax.jit(base)
    g = jax.grad(lambda xs: jnp.sum(jax.vmap(per_example)(xs)))(np.stack([X, 2 * X]))
    np.testing.assert_allclose(g[1], jax.grad(base)(2 * X), rtol=1e-10)


def test_vmap_of_grad_matches_a_loop() -> None:
    xs = np.stack([X, -X, 0.5 * X])
    got = jax.vmap(jax.grad(base))(xs)
    np.testing.assert_allclose(got, np.stack([np.asarray(jax.grad(base)(x)) for x in xs]), rtol=1e-10)


def test_jacfwd_of_jacrev_is_the_hessian() -> None:
    h1 = jax.jacfwd(jax.jacrev(base))(X)
    h2 = jax.jacrev(jax.jacfwd(base))(X)
    np.testing.assert_allclose(h1, h2, rtol=1e-10)
    np.testing.assert_allclose(h1, h1.T, rtol=1e-10)
    np.testing.assert_allclose(np.diag(jax.hessian(lambda x: jnp.sum(jnp.sin(x)))(X)), -np.sin(X), rtol=1e-10)


@pytest.mark.skipif(not hasattr(lax, "scan"), reason="control flow not available")
def test_jit_of_checkpoint_of_scan_and_custom_vjp_inside_scan_inside_vmap() -> None:
    def rnn(w: Any, xs: Any) -> Any:
        step = jax.checkpoint(lambda h, x: (jnp.tanh(w * h + x), None))
        return lax.scan(step, 0.0, xs)[0]

    xs = np.linspace(-1, 1, 5)
    g = jax.jit(jax.grad(rnn))(0.5, xs)
    check_grads(lambda w: rnn(w, xs), (0.5,), order=1)
    assert np.isfinite(g)

    clipped = _custom_vjp_wrap(lambda v: jnp.sin(v) * 2.0)

    def body(c: Any, x: Any) -> tuple[Any, Any]:
        return c + clipped(x * c), None

    def total(c0: Any) -> Any:
        return lax.scan(body, c0, xs)[0]

    batched = jax.vmap(jax.grad(total))(np.array([0.1, 0.2]))
    np.testing.assert_allclose(batched, [jax.grad(total)(0.1), jax.grad(total)(0.2)], rtol=1e-10)
