"""What the conformance suite (tests/conformance/) found, each case compared with live JAX bit for
bit (value, dtype, shape; or the exception class and message prefix), plus checks without the
oracle for the silently wrong results among them:

* ``x.at[i].get()`` (and ``x[i]``) promise in-bounds indices, as JAX's: the read clamps, and the
  gradient's scatter-add drops out-of-bounds positions (it added them to the clamped ends);
* ``put_along_axis`` broadcasts its indices along the other axes (it wrote one column);
* ``frexp``'s mantissa has derivative ``2**-e`` (it was 0);
* casting a NumPy float array to an integer type saturates as XLA does (it wrapped: -1.5 to
  uint32 gave 4294967295);
* ``matrix_rank(M, rtol)`` uses ``rtol`` as the threshold itself, as JAX 0.12;
* lax's elementwise ops: JAX's dtype rules (``rem`` of complex crashed the process; ``sign`` of
  unsigned and ``exp2`` of complex failed inside jaxlib) and equal-rank broadcasting;
* ``partition``/``argpartition``, ``sinc``, ``interp``, ``polyder``/``polyint``/``polyadd``,
  ``floor_divide``/``remainder``/``fmod``/``power``, ``norm`` of float16, ``lstsq``'s residuals.
"""

from __future__ import annotations

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture

X = "jnp.array([0.25, -1.5, 3.0, 2.5, -0.5])"
I = "jnp.array([0, 9, -7, 2])"
RS = "np.random.RandomState(0)"

EXPRS = [
    f"jax.grad(lambda x: x.at[{I}].get().sum())({X})",
    f"jax.grad(lambda x: x[{I}].sum())({X})",
    f"jax.grad(lambda x: x.at[{I}].get(mode='clip').sum())({X})",
    f"{X}.at[{I}].get()",
    "jnp.put_along_axis(jnp.arange(6.0).reshape(2, 3), jnp.array([[1]]), 9.0, 0, inplace=False)",
    f"jax.grad(lambda x: jnp.frexp(x)[0].sum())({X})",
    "jnp.frexp(jnp.array([0.0, -0.0, 1.5, -3.0, jnp.inf, jnp.nan, 1e-40, 8.0]))",
    "jnp.astype(np.array([-1.5, -0.5, 3e9, 5e9, 300.0, -300.0, np.nan, 2.7], np.float32), jnp.uint32)",
    "jnp.astype(np.array([-1.5, 3e9, 300.0, -300.0, np.inf, 2.7], np.float32), jnp.int8)",
    f"jnp.linalg.matrix_rank({RS}.randn(3, 4).astype(np.float32), 0.5)",
    f"jnp.linalg.lstsq({RS}.randn(4, 3).astype(np.float32), np.arange(4.0, dtype=np.float32))[1].shape",
    "jnp.linalg.norm(np.array([[1, -2, 3], [0.5, 2, -1]], np.float16), ord=3, axis=1)",
    "jnp.linalg.vector_norm(np.array([[1, -2, 3], [0.5, 2, -1]], np.float16))",
    "jax.lax.rem(jnp.ones(2, jnp.complex64), jnp.ones(2, jnp.complex64))",
    "jax.lax.sign(jnp.array([0, 3, 255], jnp.uint8))",
    "jax.lax.abs(jnp.array([0, 3], jnp.uint8))",
    "jax.lax.exp2(jnp.array([1 + 1j, -0.5j], jnp.complex64))",
    "jax.lax.conj(jnp.array([1.5, -2.0]))",
    "jax.lax.add(jnp.ones((2, 3)), jnp.ones(3))",
    "jax.lax.add(jnp.ones((2, 3)), jnp.ones((2, 1)))",
    "jax.lax.add(jnp.array([True]), jnp.array([False]))",
    "jax.lax.mul(jnp.array([True]), jnp.array([False]))",
    "jax.lax.pow(jnp.array([0.0, 1.5, -2.0, 3.0]), jnp.array([0, 2, 3, -1]))",
    "jax.grad(lambda x: jax.lax.pow(x, jnp.array([0, 2, 3, -1])).sum())(jnp.array([0.0, 1.5, -2.0, 3.0]))",
    "jax.lax.integer_pow(jnp.arange(3), -1)",
    "jax.lax.bitcast_convert_type(jnp.ones((2, 3), jnp.int8), jnp.int32)",
    "jax.lax.bitcast_convert_type(jnp.ones((2, 4), jnp.bool_), jnp.int32)",
    "jax.lax.reduce_and(jnp.ones((), jnp.int32), (0,))",
    "jnp.array([[1 + 2j, -3.5 + 0.25j]], jnp.complex64).view(jnp.int32)",
    "jnp.partition(np.array([3, -1, 4, 1, -5, 9, 2], np.int8), 2)",
    "jnp.argpartition(np.array([3.0, 1.0, 2.0, 1.0, 5.0], np.float32), 2)",
    "jnp.sinc(np.array([0.0, 1.0, -2.0, 0.5, 2.5, 1e-8, np.inf, np.nan, 3.0000002], np.float32))",
    "jnp.sinc(np.array([1.0, 2.0, 0.25], np.float16))",
    f"jnp.interp(np.array([0.3, 2.9, 1.5, 0.2], np.float32), np.sort({RS}.randn(5)).astype(np.float32), {RS}.randn(5).astype(np.float32))",
    "jnp.polyder(np.array([1.5, -2.0, 3.0, 0.25], np.float16), 2)",
    "jnp.polyint(np.array([1, 2, 3]), 2, k=[1, 2])",
    "jnp.polyadd(np.array([True, False]), np.array([True]))",
    "jnp.floor_divide(jnp.array([-7, -3, 0, 3, 7, 5]), jnp.array([2, -2, 3, 0, -3, 0]))",
    "jnp.floor_divide(jnp.array([-7.5, 3.0, 7.25, jnp.inf, 5.0]), jnp.array([2.0, 0.0, -3.0, 2.0, -0.0]))",
    "jnp.remainder(jnp.array([-7, 3, 7]), jnp.array([2, 0, -3]))",
    "jnp.fmod(jnp.array([-7, 3, 7], jnp.uint8), jnp.array([2, 0, 3], jnp.uint8))",
    "jnp.divmod(jnp.array([-7.5, 3.0, 7.25]), jnp.array([2.0, 0.0, -3.0]))",
    "jnp.power(jnp.array([True, False]), 2)",
    "jnp.power(jnp.arange(3), -1)",
    "jnp.power(jnp.array([1.5, 2.0]), jnp.array([2, 3]))",
    "jnp.square(jnp.array([True, False]))",
    "jnp.imag(jnp.array([-1.0, 2.0]))",
    "jnp.outer(jnp.array([True, False]), jnp.array([True]))",
    "jnp.kron(jnp.array([True, False]), jnp.array([True]))",
    "jnp.round(jnp.array([True, False]))",
    "jnp.ediff1d(jnp.array([True, False]))",
    "jnp.concatenate([jnp.ones((2, 3)), 2.5])",
    "jnp.size(jnp.ones((2, 3)), 1)",
    "jnp.argmax(jnp.ones(3, jnp.complex64))",
    "jnp.delete(jnp.arange(5), [0, 2])",
    "jnp.diagonal(jnp.ones((3, 4)), axis1=1, axis2=1)",
    "jnp.array_repr(np.arange(3))",
    "jax.scipy.special.ndtr(jnp.ones(2, jnp.float16))",
    "jax.scipy.special.softmax(jnp.ones(0))",
    "jnp.arange(5.0).at[jnp.array([0, 2])].add(1.0, indices_are_sorted=True, unique_indices=True)",
    # a gradient is weakly typed exactly when its primal is (repr shows weak_type=True)
    "repr(jax.grad(lambda x: (jnp.ones(3) * x).sum())(1.0))",
    "repr(jax.grad(lambda x: (x * 1j).real)(1.0))",
    "repr(jax.jit(jax.grad(lambda x: jnp.dot(jnp.ones(3), jnp.ones(3) * x)))(1.0))",
    "repr(jax.value_and_grad(lambda x: x.astype(jnp.float32) * 2)(1.0))",
    "repr(jax.grad(lambda x: x * 2.0)(jnp.float32(1.0)))",
    "repr(jax.grad(lambda x, y: (x * y).sum(), argnums=(0, 1))(2.0, jnp.ones(2)))",
    # lists inside a tuple index are index arrays, eagerly and under jit
    "jnp.arange(20.0).reshape(4, 5)[([0, 1], [2, 3])]",
    "jax.jit(lambda v: v[[0, 1], [2, 3]])(jnp.arange(20.0).reshape(4, 5))",
    "jax.jit(lambda v, i: v[[i, 0], [1, i]])(jnp.arange(20.0).reshape(4, 5), 2)",
    "jnp.arange(20.0).reshape(4, 5)[([[0], [1]], 2)]",
    "jnp.arange(20.0).reshape(4, 5)[([],)]",
    "jnp.arange(20.0).reshape(4, 5).at[([0, 1], [2, 3])].set(0.0)",
    "jnp.argwhere(jnp.float32(2.0), size=4)",
    "jnp.intersect1d(jnp.array([1.0, 2.0, 3.0], jnp.float16), jnp.array([7.0, 5.0], jnp.float16))",
    "jnp.reshape(jnp.arange(6.0), (4, -1))",
    "jnp.linalg.slogdet(np.array([[2.0, 1.0], [1.0, -3.0]], np.float32), method='qr')",
    "jnp.linalg.slogdet(np.random.RandomState(0).randn(2, 4, 4).astype(np.float32), method='qr')",
    "jax.grad(lambda m: jnp.linalg.slogdet(m, method='qr')[1])(np.array([[2.0, 1.0], [1.0, 3.0]], np.float32))",
    "jnp.linalg.slogdet(jnp.ones((2, 2), jnp.complex64), method='qr')",
    "jax.lax.map(lambda v: v, jnp.float32(2.0))",
    "jax.lax.scan(lambda c, x: (c, x), 0.0, 2.0)",
    "jnp.cov(jnp.zeros(0))",
    "jnp.cov(jnp.zeros((2, 0)))",
    "jax.lax.conj(jnp.array([0.0, -0.0, jnp.inf, -jnp.inf, jnp.nan]))",
    "repr(jax.scipy.stats.poisson.pmf(jnp.arange(3), 2.0))",
    "repr(jax.scipy.stats.bernoulli.logpmf(jnp.arange(3), 0.3))",
    "[type(v).__name__ for v in jax.lax.conv_shape_tuple((1, 2, 5, 5), (3, 2, 2, 2), (1, 1), 'SAME')]",
    "[type(v).__name__ for v in jax.lax.conv_general_shape_tuple((1, 2, 5, 5), (3, 2, 2, 2), (1, 1), 'SAME', ('NCHW', 'OIHW', 'NCHW'))]",
    "jnp.argmax(jnp.ones((2, 3)), axis=2)",
    "jnp.unique_all(jnp.array([3, 1, 3, 0]), size=6, fill_value=9)",
    "jnp.unique(jnp.array([[3, 1], [0, 0], [3, 1]]), axis=0, return_index=True, size=4)",
    "jax.lax.convert_element_type(np.array([-1.5, -3.0, 2.7], np.float32), jnp.uint8)",
    "jnp.astype(np.array([-1.5, -3.0, 2.7], np.float32), jnp.uint8)",
    "jnp.nanmedian(jnp.zeros(0))",
    "jnp.nanquantile(jnp.zeros((2, 0)), jnp.array([0.2, 0.5]), axis=1)",
    "jnp.quantile(jnp.zeros(0), 0.5)",
    "jnp.median(jnp.zeros(0))",
    "jax.jit(lambda v, s: v.at[1].apply(lambda e: e * s))(jnp.ones(3), 2.0)",
    # logaddexp2 as JAX 0.12's (base-2 evaluation, its derivative; +inf only replaced there)
    "jnp.logaddexp2(np.array([0.0, 1.0, -np.inf, np.inf, np.nan, 1.0], np.float32), np.array([0.0, -2.5, -np.inf, 1.0, 1.0, np.inf], np.float32))",
    "jax.vmap(jax.grad(lambda x, y: jnp.logaddexp2(x, y), argnums=(0, 1)))(np.array([1.0, 0.0, np.inf, 1.0], np.float32), np.array([-np.inf, np.inf, 1.0, -2.5], np.float32))",
    "jax.grad(lambda x: jnp.logaddexp(x, -jnp.inf))(1.0)",
    "jnp.logaddexp2(jnp.array([1 + 2j, -1j], jnp.complex64), jnp.array([0.5j, 3 + 0j], jnp.complex64))",
    "repr(jnp.logaddexp2(jnp.arange(3), 2.5))",
    # trapezoid: JAX's sums (constant-spacing fast path), x and y promoted together
    "jnp.trapezoid(np.random.RandomState(0).randn(3, 7).astype(np.float32), np.sort(np.random.RandomState(1).randn(7)).astype(np.float32))",
    "jnp.trapezoid(np.random.RandomState(0).randn(3, 7).astype(np.float32))",
    "jnp.trapezoid(np.ones((3, 4), np.float32), dx=0.3, axis=0)",
    "jnp.trapezoid(jnp.arange(5))",
    "jnp.trapezoid(jnp.float32(1.0))",
    # lax.polynomial (JAX 0.12) and polyval on it
    "repr(jax.lax.polynomial(3.0, [1.0, 5.0, 2.0]))",
    "jax.lax.polynomial(jnp.array([np.inf, -np.inf, np.nan, 0.5]), list(np.arange(12.0, dtype=np.float32)))",
    "jax.lax.polynomial(jnp.ones((2, 3)), [jnp.arange(3.0).reshape(1, 3), jnp.ones((2, 1))])",
    "jax.grad(jax.grad(lambda v: jax.lax.polynomial(v, [1.0, 5.0, 2.0, -1.0])))(1.5)",
    "jax.grad(lambda c: jax.lax.polynomial(jnp.arange(3.0), [c[0], c[1], c[2]]).sum())(jnp.array([1.0, 2.0, 3.0]))",
    "jax.vmap(lambda v, c: jax.lax.polynomial(v, [c, 2.0, c]))(jnp.arange(3.0), jnp.arange(3.0))",
    "str(jax.make_jaxpr(lambda v: jax.lax.polynomial(v, [1.0, 5.0, 2.0], unroll=2))(jnp.ones(3)))",
    "jnp.polyval(np.random.RandomState(0).randn(20).astype(np.float32), np.random.RandomState(1).randn(5).astype(np.float32))",
    "jnp.polyval(np.random.RandomState(0).randn(3, 4).astype(np.float32), np.arange(4.0, dtype=np.float32))",
    "jnp.polyval(jnp.array([1.0, 2.0, 3.0], jnp.float16), jnp.array([0.5, -1.5], jnp.float16))",
    "jnp.polyval(jnp.array([1, 2, 3]), 2)",
]
CALLS = [Call(e) for e in EXPRS]
# jax_core's message says what is wrong where JAX's names an internal step (same class)
OWN_MESSAGE = {
    "jnp.diagonal(jnp.ones((3, 4)), axis1=1, axis2=1)",
    # JAX's says "tuple index out of range" or names a failed gather
    "jax.lax.map(lambda v: v, jnp.float32(2.0))",
    "jnp.argmax(jnp.ones((2, 3)), axis=2)",
    "jnp.quantile(jnp.zeros(0), 0.5)",
    "jnp.trapezoid(jnp.float32(1.0))",
}
live = live_fixture(CALLS)


@pytest.mark.parametrize("call", CALLS, ids=EXPRS)
def test_same_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    ours, theirs = here(call), live[call.expr]
    assert_same(ours, theirs, call.expr)
    if theirs.error is not None and call.expr not in OWN_MESSAGE:  # the start of the message too (JAX's lists dtype classes in set order)
        assert (ours.message or "")[:20] == (theirs.message or "")[:20], (ours.message, theirs.message)


def test_silently_wrong_results_without_the_oracle() -> None:
    x = jnp.array([0.25, -1.5, 3.0, 2.5, -0.5])
    idx = jnp.array([0, 9, -7, 2])
    assert jax.grad(lambda v: v.at[idx].get().sum())(x).tolist() == [1.0, 0.0, 1.0, 0.0, 0.0]
    out = jnp.put_along_axis(jnp.arange(6.0).reshape(2, 3), jnp.array([[1]]), 9.0, 0, inplace=False)
    assert out.tolist() == [[0.0, 1.0, 2.0], [9.0, 9.0, 9.0]]
    assert jax.grad(lambda v: jnp.frexp(v)[0].sum())(jnp.array([3.0, 0.25])).tolist() == [0.25, 2.0]
    cast = jnp.astype(np.array([-1.5, 5e9, np.nan], np.float32), jnp.uint32)
    assert cast.tolist() == [0, 4294967295, 0]
    with pytest.raises(TypeError, match="rem does not accept dtype complex64"):
        jax.lax.rem(jnp.ones(2, jnp.complex64), jnp.ones(2, jnp.complex64))
