"""jvp, linearize, vjp, grad, value_and_grad, jacobians, hessian, linear_transpose,
closure_convert and stop_gradient: values against numpy and finite differences, the jaxprs
they stage, and JAX's errors for bad input."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import dtypes, lax
from jax_core._src.config import enable_x64
from jax_core.test_util import check_grads

COVERED = frozenset({"jit", "add_any", "stop_gradient", "copy"})


def f(x: Any) -> Any:
    return jnp.sin(x) * x


def df(x: Any) -> Any:
    return np.cos(x) * x + np.sin(x)


X = np.arange(1.0, 4.0, dtype=np.float32)


def test_jvp_matches_the_derivative() -> None:
    y, t = jax.jvp(f, (X,), (np.ones(3, np.float32),))
    np.testing.assert_allclose(y, np.sin(X) * X, rtol=1e-6)
    np.testing.assert_allclose(t, df(X), rtol=1e-5)


def test_linearize_applies_the_linear_map_without_retracing() -> None:
    y, f_jvp = jax.linearize(f, X)
    np.testing.assert_allclose(y, np.sin(X) * X, rtol=1e-6)
    np.testing.assert_allclose(f_jvp(np.full(3, 2.0, np.float32)), 2 * df(X), rtol=1e-5)


def test_vjp_returns_one_cotangent_per_argument() -> None:
    y, pullback = jax.vjp(lambda a, b: a * b, X, np.float32(3.0))
    ga, gb = pullback(np.ones(3, np.float32))
    np.testing.assert_allclose(ga, np.full(3, 3.0))
    np.testing.assert_allclose(gb, X.sum())


def test_grad_and_value_and_grad() -> None:
    loss = lambda w, x: jnp.sum((w * x - 1.0) ** 2)  # noqa: E731
    g = jax.grad(loss)(X, X)
    np.testing.assert_allclose(g, 2 * (X * X - 1) * X, rtol=1e-5)
    v, (gw, gx) = jax.value_and_grad(loss, argnums=(0, 1))(X, X)
    np.testing.assert_allclose(v, np.sum((X * X - 1) ** 2), rtol=1e-6)
    np.testing.assert_allclose(gw, gx, rtol=1e-6)


def test_grad_negative_argnums_and_has_aux() -> None:
    def loss(a: Any, b: Any) -> tuple[Any, dict[str, Any]]:
        return jnp.sum(a * b), {"b": b}

    g, aux = jax.grad(loss, argnums=-1, has_aux=True)(X, 2 * X)
    np.testing.assert_allclose(g, X)
    np.testing.assert_allclose(aux["b"], 2 * X)
    (v, aux2), g2 = jax.value_and_grad(loss, has_aux=True)(X, X)
    np.testing.assert_allclose(v, np.sum(X * X), rtol=1e-6)
    np.testing.assert_allclose(aux2["b"], X)
    np.testing.assert_allclose(g2, X)


def test_grad_of_pytrees() -> None:
    params = {"w": X, "b": (np.float32(1.0), np.float32(2.0))}
    g = jax.grad(lambda p: jnp.sum(p["w"]) * p["b"][0] + p["b"][1] ** 2)(params)
    np.testing.assert_allclose(g["w"], np.ones(3))
    np.testing.assert_allclose(g["b"][0], X.sum())
    np.testing.assert_allclose(g["b"][1], 4.0)


def test_python_control_flow_on_primal_values_works_under_grad() -> None:
    absval = lambda x: x if x > 0 else -x  # noqa: E731
    assert float(jax.grad(absval)(-2.0)) == -1.0
    assert float(jax.grad(absval)(3.0)) == 1.0


def test_higher_order_derivatives() -> None:
    d2 = jax.grad(jax.grad(jnp.sin))(0.5)
    np.testing.assert_allclose(d2, -np.sin(0.5), rtol=1e-6)
    d3 = jax.grad(jax.grad(jax.grad(jnp.sin)))(0.5)
    np.testing.assert_allclose(d3, -np.cos(0.5), rtol=1e-6)


def test_jacobians_and_hessian() -> None:
    g = lambda x: jnp.sin(x) * x[0]  # noqa: E731
    expected = np.diag(np.cos(X) * X[0])
    expected[:, 0] += np.sin(X)
    np.testing.assert_allclose(jax.jacfwd(g)(X), expected, rtol=1e-5)
    np.testing.assert_allclose(jax.jacrev(g)(X), expected, rtol=1e-5)
    np.testing.assert_allclose(jax.jacobian(g)(X), expected, rtol=1e-5)
    h = jax.hessian(lambda x: jnp.sum(x**3))(X)
    np.testing.assert_allclose(h, np.diag(6 * X), rtol=1e-5)
    jf = jax.jacfwd(lambda a, b: a * b, argnums=(0, 1))(X, X)
    np.testing.assert_allclose(jf[0], np.diag(X))


def test_jacobian_of_pytree_output_and_matrix_input() -> None:
    m = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    jr = jax.jacrev(lambda a: {"s": jnp.sum(a, axis=1), "m": a * 2})(m)
    assert jr["s"].shape == (2, 2, 3)
    assert jr["m"].shape == (2, 3, 2, 3)
    np.testing.assert_allclose(jr["s"][1], np.array([[0, 0, 0], [1, 1, 1]]))


def test_linear_transpose() -> None:
    t = jax.linear_transpose(lambda x: 2 * x + jnp.sum(x), X)
    (ct,) = t(np.ones(3, np.float32))
    np.testing.assert_allclose(ct, np.full(3, 5.0))


def test_closure_convert_lifts_closed_over_arrays() -> None:
    w = jnp.asarray(X)
    conv, consts = jax.closure_convert(lambda x: x * w, np.float32(1.0))
    assert len(consts) == 1
    np.testing.assert_allclose(conv(np.float32(2.0), *consts), 2 * X)


def test_stop_gradient() -> None:
    g = jax.grad(lambda x: x * lax.stop_gradient(x))(3.0)
    assert float(g) == 3.0
    assert "stop_gradient" in str(jax.make_jaxpr(lax.stop_gradient)(1.0))


def test_copy_is_a_staged_linear_identity() -> None:
    # x.copy() / jnp.array(x) stage a ``copy`` equation as JAX does (asarray does not), give a
    # new array eagerly, and differentiate, transpose and batch as the identity.
    x = jnp.arange(3.0)
    assert x.copy() is not x and jnp.asarray(x) is x
    np.testing.assert_array_equal(x.copy(), x)
    assert str(jax.make_jaxpr(lambda v: v.copy())(x)) == "{ lambda ; a:f32[3]. let b:f32[3] = copy a in (b,) }"
    assert "copy" not in str(jax.make_jaxpr(jnp.asarray)(x))
    with enable_x64(True):
        check_grads(lambda v: jnp.sin(jnp.array(v)) * v.copy(), (np.arange(1.0, 4.0),), order=2, modes=("fwd", "rev"))
    t = jax.linear_transpose(lambda v: v.copy(), x)(jnp.ones(3))
    np.testing.assert_array_equal(t[0], np.ones(3))
    np.testing.assert_array_equal(jax.vmap(lambda v: v.copy() * 2, in_axes=1)(jnp.ones((2, 3))), 2 * np.ones((3, 2)))


def test_allow_int_gives_float0_gradients() -> None:
    g = jax.grad(lambda x, n: x * n, argnums=(0, 1), allow_int=True)(2.0, 3)
    assert float(g[0]) == 3.0
    assert g[1].dtype == dtypes.float0


def test_grad_jaxpr_matches_jax() -> None:
    text = str(jax.make_jaxpr(jax.grad(lambda x: jnp.sin(x) * x))(1.0))
    # Recorded from JAX 0.12 (which prints the dead primal product as ``_``).
    for line in ("b:f32[] = sin a", "c:f32[] = cos a", "mul b 1.0:f32[]", "mul 1.0:f32[] a", "add_any"):
        assert line in text


def test_grad_of_jit_keeps_one_jit_per_pass() -> None:
    text = str(jax.make_jaxpr(jax.grad(jax.jit(lambda x: jnp.sum(jnp.sin(x)))))(X))
    assert text.count("jit[") == 2  # the forward (known) half and the transposed half


@pytest.mark.parametrize(
    "fun",
    [
        lambda x: jnp.sum(jnp.tanh(x) * jnp.exp(-x)),
        lambda x: jnp.sum(jax.jit(lambda y: jnp.sin(y) ** 2)(x)),
        lambda x: jnp.dot(x, x) / (1.0 + jnp.sum(x)),
    ],
)
def test_check_grads_on_composite_programs(fun: Any) -> None:
    with enable_x64(True):
        check_grads(fun, (np.array([0.3, 0.7, 1.1]),), order=2)


# -- bad input: JAX's classes and messages --------------------------------------------------------
def test_grad_of_non_scalar_output() -> None:
    with pytest.raises(TypeError, match=r"Gradient only defined for scalar-output functions. Output had shape: \(3,\)"):
        jax.grad(lambda x: x * 2)(X)


def test_grad_of_integer_input() -> None:
    with pytest.raises(TypeError, match="grad requires real- or complex-valued inputs .* but got int32"):
        jax.grad(lambda x: x * 2)(1)


def test_grad_of_integer_or_complex_output() -> None:
    with pytest.raises(TypeError, match="grad requires real-valued outputs .* but got int32"):
        jax.grad(lambda x: (x * 2).astype(int))(1.0)
    with pytest.raises(TypeError, match="but got complex64. For holomorphic differentiation, pass holomorphic=True"):
        jax.grad(lambda x: x * 2)(1j)


def test_argnums_out_of_range() -> None:
    with pytest.raises(TypeError, match="differentiating with respect to argnums=3 requires at least 4 positional arguments"):
        jax.grad(lambda x: x * 2, argnums=3)(1.0)


def test_has_aux_needs_a_pair() -> None:
    with pytest.raises(TypeError, match="expected function with aux output to return a two-element tuple"):
        jax.grad(lambda x: (x * 2, 1, 2), has_aux=True)(1.0)
    with pytest.raises(TypeError, match="expected function with aux output to return a two-element tuple"):
        jax.grad(lambda x: x * 2, has_aux=True)(1.0)


def test_jvp_argument_errors() -> None:
    with pytest.raises(TypeError, match="must be tuples or lists; found float and float"):
        jax.jvp(lambda x: x, 1.0, 1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Got primal dtype float32 and so expected tangent dtype float32, but got tangent dtype int32"):
        jax.jvp(lambda x: x, (1.0,), (1,))
    with pytest.raises(ValueError, match=r"Got primal shape \(\) and tangent shape as \(2,\)"):
        jax.jvp(lambda x: x, (1.0,), (np.ones(2, np.float32),))


def test_vjp_cotangent_structure_error() -> None:
    _, pullback = jax.vjp(lambda x: x, 1.0)
    with pytest.raises(ValueError, match="unexpected tree structure"):
        pullback((1.0, 2.0))


def test_holomorphic_grad() -> None:
    z = 1.0 + 2.0j
    g = jax.grad(lambda z: z**2 * jnp.sin(z), holomorphic=True)(z)
    np.testing.assert_allclose(g, 2 * z * np.sin(z) + z**2 * np.cos(z), rtol=1e-5)
    with pytest.raises(TypeError, match="holomorphic=True requires inputs with complex dtype"):
        jax.grad(lambda x: x, holomorphic=True)(1.0)
