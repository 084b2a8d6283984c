"""custom_jvp and custom_vjp: the user's rules are used under grad, jit, vmap and nested
differentiation; nondiff_argnums; JAX's errors for malformed rules."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core._src.config import enable_x64
from jax_core.test_util import check_grads

COVERED = frozenset({"custom_jvp_call", "custom_vjp_call", "custom_lin"})

X = np.array([0.5, 1.0, 2.0], dtype=np.float32)


@jax.custom_jvp
def log1pexp(x: Any) -> Any:
    return jnp.log(1.0 + jnp.exp(x))


@log1pexp.defjvp
def _log1pexp_jvp(primals: tuple[Any, ...], tangents: tuple[Any, ...]) -> tuple[Any, Any]:
    (x,), (t,) = primals, tangents
    return log1pexp(x), t * (1.0 - 1.0 / (1.0 + jnp.exp(x)))


@jax.custom_vjp
def clip_gradient(x: Any) -> Any:
    return x


def _clip_fwd(x: Any) -> tuple[Any, None]:
    return x, None


def _clip_bwd(_: None, g: Any) -> tuple[Any]:
    return (jnp.minimum(jnp.maximum(g, -1.0), 1.0),)


clip_gradient.defvjp(_clip_fwd, _clip_bwd)


def sigmoid(x: Any) -> Any:
    return 1.0 / (1.0 + np.exp(-x))


def test_custom_jvp_rule_is_used_and_numerically_stable() -> None:
    g = jax.grad(log1pexp)(np.float32(100.0))
    assert float(g) == pytest.approx(1.0)  # the naive derivative would be nan
    np.testing.assert_allclose(jax.vmap(jax.grad(log1pexp))(X), sigmoid(X), rtol=1e-6)
    np.testing.assert_allclose(jax.jit(jax.grad(log1pexp))(np.float32(0.5)), sigmoid(0.5), rtol=1e-6)
    np.testing.assert_allclose(jax.grad(lambda x: jnp.sum(jax.vmap(log1pexp)(x)))(X), sigmoid(X), rtol=1e-6)
    with enable_x64(True):
        check_grads(log1pexp, (np.array([0.3, -1.2]),), order=2)


def test_custom_jvp_staged_as_one_equation() -> None:
    text = str(jax.make_jaxpr(log1pexp)(1.0))
    assert "custom_jvp_call[" in text


def test_defjvps_and_nondiff_argnums() -> None:
    @jax.custom_jvp
    def f(x: Any, y: Any) -> Any:
        return jnp.sin(x) * y

    f.defjvps(lambda t, ans, x, y: jnp.cos(x) * t * y, lambda t, ans, x, y: jnp.sin(x) * t)
    np.testing.assert_allclose(jax.grad(f, argnums=(0, 1))(0.5, 2.0), (2 * np.cos(0.5), np.sin(0.5)), rtol=1e-6)

    @partial(jax.custom_jvp, nondiff_argnums=(0,))
    def app(fn: Any, x: Any) -> Any:
        return fn(x)

    @app.defjvp
    def _app_jvp(fn: Any, primals: tuple[Any, ...], tangents: tuple[Any, ...]) -> tuple[Any, Any]:
        return app(fn, primals[0]), 10.0 * tangents[0]

    assert float(jax.grad(lambda x: app(jnp.sin, x))(1.0)) == 10.0


def test_custom_vjp_rule_is_used_under_transformations() -> None:
    f = lambda x: jnp.sum(clip_gradient(5.0 * x))  # noqa: E731
    np.testing.assert_allclose(jax.grad(f)(X), np.full(3, 5.0))  # bwd clipped 1.0 then * 5
    np.testing.assert_allclose(jax.jit(jax.grad(f))(X), np.full(3, 5.0))
    np.testing.assert_allclose(jax.vmap(jax.grad(lambda x: clip_gradient(3.0 * x) * 2.0))(X), np.full(3, 3.0))
    np.testing.assert_allclose(jax.grad(lambda x: jnp.sum(jax.vmap(clip_gradient)(x * 4.0)))(X), np.full(3, 4.0))


def test_custom_vjp_residuals_and_second_order() -> None:
    @jax.custom_vjp
    def sin(x: Any) -> Any:
        return jnp.sin(x)

    sin.defvjp(lambda x: (jnp.sin(x), jnp.cos(x)), lambda c, g: (g * c,))
    np.testing.assert_allclose(jax.grad(sin)(0.3), np.cos(0.3), rtol=1e-6)
    # The bwd rule is differentiable, so grad of grad works (the residual carries the tangent).
    np.testing.assert_allclose(jax.grad(jax.grad(sin))(0.3), -np.sin(0.3), rtol=1e-5)
    with enable_x64(True):
        check_grads(sin, (np.array([0.3, 0.9]),), order=1, modes=("rev",))


def test_custom_vjp_nondiff_argnums_and_none_cotangent() -> None:
    @partial(jax.custom_vjp, nondiff_argnums=(1,))
    def scale(x: Any, k: float) -> Any:
        return x * k

    scale.defvjp(lambda x, k: (x * k, None), lambda k, _, g: (g * k * 100,))
    assert float(jax.grad(scale)(1.0, 2.0)) == 200.0

    @jax.custom_vjp
    def first(x: Any, y: Any) -> Any:
        return x + y

    first.defvjp(lambda x, y: (x + y, None), lambda _, g: (g, None))
    assert jax.grad(first, argnums=(0, 1))(1.0, 2.0) == (1.0, 0.0)


def test_custom_vjp_forward_mode_is_rejected() -> None:
    with pytest.raises(TypeError, match=r"can't apply forward-mode autodiff \(jvp\) to a custom_vjp function."):
        jax.jvp(clip_gradient, (1.0,), (1.0,))


def test_bwd_with_wrong_structure() -> None:
    @jax.custom_vjp
    def f(x: Any) -> Any:
        return x

    f.defvjp(lambda x: (x, None), lambda r, g: (g, g))
    with pytest.raises(TypeError, match=r"Custom VJP bwd rule must produce an output with the same container \(pytree\) structure as the args tuple of the primal function, and in particular must produce a tuple of length equal to the number of arguments to the primal function, but got bwd output structure PyTreeDef\(\(\*, \*\)\) for primal input structure PyTreeDef\(\(\*,\)\)."):
        jax.grad(f)(1.0)

    @jax.custom_vjp
    def g(x: Any) -> Any:
        return x

    g.defvjp(lambda x: (x, None), lambda r, ct: ct)
    with pytest.raises(TypeError, match=r"but got bwd output structure PyTreeDef\(\*\) for primal input structure PyTreeDef\(\(\*,\)\)"):
        jax.grad(g)(1.0)


def test_rules_must_be_defined_and_well_formed() -> None:
    @jax.custom_jvp
    def nojvp(x: Any) -> Any:
        return x

    with pytest.raises(AttributeError, match="No JVP defined for custom_jvp function nojvp"):
        jax.jit(nojvp)(1.0)

    @jax.custom_jvp
    def bad(x: Any) -> Any:
        return x

    bad.defjvp(lambda p, t: (p[0], (t[0], t[0])))
    with pytest.raises(TypeError, match="equal container"):
        jax.grad(bad)(1.0)

    @jax.custom_vjp
    def bad_fwd(x: Any) -> Any:
        return x

    bad_fwd.defvjp(lambda x: x, lambda r, g: (g,))
    with pytest.raises(TypeError, match="fwd rule bad_fwd must produce a pair"):
        jax.grad(bad_fwd)(1.0)


def test_differentiating_a_closed_over_value_is_an_error() -> None:
    def outer(y: Any) -> Any:
        @jax.custom_vjp
        def f(x: Any) -> Any:
            return x * y

        f.defvjp(lambda x: (x * y, None), lambda _, g: (g,))
        return f(1.0)

    with pytest.raises(TypeError, match="closed-over value"):
        jax.grad(outer)(2.0)


def test_custom_vjp_with_an_argument_not_differentiated() -> None:
    @jax.custom_vjp
    def scale(x: Any, k: Any) -> Any:
        return x * k

    scale.defvjp(lambda x, k: (x * k, (x, k)), lambda r, g: (g * r[1], g * r[0]))
    assert float(jax.grad(scale, argnums=1)(2.0, 3.0)) == 2.0
    assert float(jax.grad(scale)(2.0, 3.0)) == 3.0


def test_rules_get_the_defaulted_arguments() -> None:
    # As JAX resolves them: the function's defaults are applied before fwd / the jvp rule run,
    # so rules are written with every parameter (and without the defaults).
    @jax.custom_vjp
    def safe_norm(x: Any, eps: float = 1e-6) -> Any:
        return jnp.sqrt(jnp.sum(x * x) + eps)

    def fwd(x: Any, eps: float) -> tuple[Any, Any]:
        n = safe_norm(x, eps)
        return n, (x, n)

    def bwd(res: Any, g: Any) -> tuple[Any, None]:
        x, n = res
        return g * x / n, None

    safe_norm.defvjp(fwd, bwd)
    np.testing.assert_allclose(jax.grad(safe_norm)(jnp.ones(3)), np.full(3, 1 / np.sqrt(3)), rtol=1e-6)
    np.testing.assert_allclose(
        jax.grad(lambda v: safe_norm(v, eps=1.0))(jnp.ones(3)), np.full(3, 0.5), rtol=1e-6
    )

    @jax.custom_jvp
    def scale(x: Any, k: float = 2.0) -> Any:
        return x * k

    @scale.defjvp
    def scale_jvp(primals: Any, tangents: Any) -> Any:
        (x, k), (dx, _) = primals, tangents
        return scale(x, k), dx * k

    assert jax.jvp(scale, (1.0,), (1.0,)) == (2.0, 2.0)

    def keyword_only(x: Any, *, k: float = 2.0) -> Any:
        return x * k

    kw = jax.custom_jvp(keyword_only)
    kw.defjvp(lambda p, t: (kw(*p), t[0]))
    assert kw(1.0) == 2.0
    with pytest.raises(TypeError, match="could not be resolved to positions: k"):
        kw(1.0, k=3.0)
