"""Control flow: ``cond``, ``switch``, ``while_loop``, ``fori_loop``, ``scan``, ``map`` and
``associative_scan``.

Values are checked against NumPy / Python loops, eagerly and under ``jit``; gradients
numerically (``check_grads``, float64, forward and reverse); ``vmap`` against a Python
loop over the batch; jaxprs and error messages against text recorded from JAX 0.12.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from jax_core.test_util import check_grads

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src.config import enable_x64

COVERED: frozenset[str] = frozenset({"cond", "while", "scan"})

Fn = Callable[..., Any]


@pytest.fixture
def x64() -> Iterator[None]:
    with enable_x64(True):
        yield


def _close(a: Any, b: Any, tol: float = 1e-5) -> None:
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol, atol=tol)


def _loop(f: Fn, *args: Any) -> np.ndarray[Any, Any]:
    """``vmap(f)(*args)`` over axis 0 of every argument, as a Python loop."""
    n = len(args[0])
    return np.stack([np.asarray(f(*(a[i] for a in args))) for i in range(n)])


# -- cond / switch ----------------------------------------------------------------------------
def _cf(p: Any, x: Any, y: Any) -> Any:
    return lax.cond(p, lambda a, b: (jnp.sin(a) * b, b), lambda a, b: (jnp.cos(a) + b, -b), x, y)


@pytest.mark.parametrize("pred", [True, False, 1, 0, 2.5, 0.0, np.bool_(True)])
def test_cond_values(pred: Any) -> None:
    out = _cf(pred, 0.7, 2.0)
    ref = (np.sin(0.7) * 2.0, 2.0) if pred else (np.cos(0.7) + 2.0, -2.0)
    _close(out[0], ref[0])
    _close(out[1], ref[1])
    _close(jax.jit(_cf)(pred, 0.7, 2.0)[0], ref[0])


def test_cond_pytrees_consts_and_operand_kwarg() -> None:
    w = jnp.arange(3.0)

    def f(p: Any, d: dict[str, Any]) -> Any:
        return lax.cond(p, lambda d: {"a": d["a"] * w, "b": (d["b"],)}, lambda d: {"a": d["a"] + 1.0, "b": (d["b"] * 2,)}, d)

    d = {"a": jnp.ones(3), "b": jnp.float32(2.0)}
    for p in (True, False):
        out = jax.jit(f)(p, d)
        _close(out["a"], np.arange(3.0) if p else 2 * np.ones(3))
        _close(out["b"][0], 2.0 if p else 4.0)
    _close(lax.cond(False, lambda x: x, lambda x: x * 3, operand=2.0), 6.0)
    _close(lax.cond(True, lambda: w, lambda: w * 0), np.arange(3.0))


@pytest.mark.parametrize("index", [-3, 0, 1, 2, 7])
def test_switch_clamps(index: int) -> None:
    branches = [jnp.sin, jnp.cos, lambda z: z * 2]
    ref = [np.sin, np.cos, lambda z: z * 2][min(max(index, 0), 2)](0.5)
    _close(lax.switch(index, branches, 0.5), ref)
    _close(jax.jit(lambda i, x: lax.switch(i, branches, x))(index, 0.5), ref)


def _on_true(a: Any, b: Any) -> Any:
    return jnp.sin(a) * b


def _on_false(a: Any, b: Any) -> Any:
    return jnp.cos(a) + b * b


def test_cond_grads(x64: None) -> None:
    # Branches defined once are traced once (the trace is cached on the function, as in JAX),
    # so the many evaluations of check_grads reuse their compiled executables.
    def f(x: Any, y: Any) -> Any:
        return lax.cond(x > 0, _on_true, _on_false, x, y)

    check_grads(f, (0.8, 2.0), order=2, modes=("fwd", "rev"))
    check_grads(f, (-0.8, 2.0), order=2, modes=("fwd", "rev"))


def test_switch_grads(x64: None) -> None:
    branches = [lambda x: jnp.sin(x) * x, lambda x: x**3, jnp.exp]
    for i in range(3):
        check_grads(lambda x, i=i: lax.switch(i, branches, x), (0.7,), order=2, modes=("fwd", "rev"))


def test_cond_vmap_batched_and_unbatched_predicate() -> None:
    xs, ys = np.array([0.5, -1.0, 2.0], np.float32), np.array([1.0, 2.0, 3.0], np.float32)

    def f(x: Any, y: Any) -> Any:
        return lax.cond(x > 0, lambda a, b: jnp.sin(a) * b, lambda a, b: a - b, x, y)

    _close(jax.vmap(f)(xs, ys), _loop(f, xs, ys))
    _close(jax.vmap(f, (None, 0))(0.5, ys), _loop(lambda y: f(0.5, y), ys))
    _close(jax.vmap(f, (None, 0))(-0.5, ys), _loop(lambda y: f(-0.5, y), ys))
    idx = np.array([0, 1, 2, 5, -1])
    g = lambda i, x: lax.switch(i, [jnp.sin, jnp.cos, lambda z: z * 2], x)  # noqa: E731
    _close(jax.vmap(g)(idx, np.arange(5.0, dtype=np.float32)), _loop(g, idx, np.arange(5.0, dtype=np.float32)))
    # A batched predicate makes the cond a select: no cond equation is left.
    text = str(jax.make_jaxpr(jax.vmap(f))(xs, ys))
    assert "cond[" not in text and "select_n" in text
    assert "cond[" in str(jax.make_jaxpr(jax.vmap(f, (None, 0)))(0.5, ys))


def test_cond_jaxpr_matches_jax() -> None:
    def f(p: Any, x: Any, y: Any) -> Any:
        return lax.cond(p, lambda a, b: (a * 2.0 + y, b), lambda a, b: (a - 1.0, b * 3), x, x)

    expected = """\
{ lambda ; a:bool[] b:f32[] c:f32[]. let
    d:i32[] = convert_element_type[new_dtype=int32 weak_type=False] a
    e:f32[] f:f32[] = cond[
      branches=(
        { lambda ; g:f32[] h:f32[] i:f32[]. let
            j:f32[] = sub h 1.0:f32[]
            k:f32[] = mul i 3.0:f32[]
          in (j, k) }
        { lambda ; l:f32[] m:f32[] n:f32[]. let
            o:f32[] = mul m 2.0:f32[]
            p:f32[] = add o l
          in (p, n) }
      )
    ] d c b b
  in (e, f) }"""
    assert str(jax.make_jaxpr(f)(True, 1.0, 2.0)) == expected


def test_cond_linearize_splits_branches() -> None:
    f = lambda x: lax.cond(x > 0, lambda a: jnp.sin(a) * a, lambda a: a * a, x)  # noqa: E731
    jaxpr = str(jax.make_jaxpr(jax.grad(f))(1.0))
    assert jaxpr.count("cond[") == 2  # the primal cond (with residuals) and the transposed one
    y, f_jvp = jax.linearize(f, 0.8)
    _close(y, np.sin(0.8) * 0.8)
    _close(f_jvp(1.0), np.cos(0.8) * 0.8 + np.sin(0.8))


# -- while_loop / fori_loop ----------------------------------------------------------------------
def test_while_loop_values() -> None:
    def f(x: Any) -> Any:
        return lax.while_loop(lambda c: c[0] < 10, lambda c: (c[0] + 1, c[1] * x), (0, 1.0))

    i, v = f(1.1)
    assert int(i) == 10
    _close(v, 1.1**10)
    _close(jax.jit(f)(1.1)[1], 1.1**10)


@pytest.mark.parametrize("jit", [False, True])
def test_fori_loop_static_and_dynamic(jit: bool) -> None:
    body = lambda i, c: c * 2.0 + i  # noqa: E731
    ref = 1.0
    for i in range(2, 7):
        ref = ref * 2.0 + i
    f = lambda lo, hi: lax.fori_loop(lo, hi, body, 1.0)  # noqa: E731
    f = jax.jit(f) if jit else f
    _close(f(2, 7), ref)
    _close(lax.fori_loop(2, jnp.int32(7), body, 1.0), ref)
    _close(f(7, 2), 1.0)


def test_fori_loop_static_is_scan_dynamic_is_while() -> None:
    body = lambda i, c: c * 2.0  # noqa: E731
    assert "scan[" in str(jax.make_jaxpr(lambda x: lax.fori_loop(0, 3, body, x))(1.0))
    assert "while[" in str(jax.make_jaxpr(lambda x, n: lax.fori_loop(0, n, body, x))(1.0, 3))


def test_while_jaxpr_matches_jax() -> None:
    f = lambda x: lax.while_loop(lambda c: c[0] < 10, lambda c: (c[0] + 1, c[1] * x), (0, x))  # noqa: E731
    expected = """\
{ lambda ; a:f32[]. let
    b:i32[] c:f32[] = while[
      body_jaxpr={ lambda ; d:f32[] e:i32[] f:f32[]. let
          g:i32[] = add e 1:i32[]
          h:f32[] = mul f d
        in (g, h) }
      body_nconsts=1
      cond_jaxpr={ lambda ; i:i32[] j:f32[]. let
          k:bool[] = lt i 10:i32[]
        in (k,) }
      cond_nconsts=0
    ] a 0:i32[] a
  in (b, c) }"""
    assert str(jax.make_jaxpr(f)(2.0)) == expected


_WHILE_GRAD_ERROR = (
    "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with dynamic start/stop "
    "values. Try using lax.scan, or using fori_loop with static start/stop."
)


def test_while_forward_mode_and_reverse_mode_error() -> None:
    f = lambda x: lax.while_loop(lambda c: c < 10, lambda c: c * x, x)  # noqa: E731  (x**4 at x=2)
    y, t = jax.jvp(f, (2.0,), (1.0,))
    _close(y, 16.0)
    _close(t, 4 * 2.0**3)
    _close(jax.jacfwd(f)(2.0), 32.0)
    y, f_jvp = jax.linearize(f, 2.0)
    _close(f_jvp(1.0), 32.0)
    with pytest.raises(ValueError, match="^" + _WHILE_GRAD_ERROR.replace(".", r"\.") + "$"):
        jax.grad(f)(2.0)
    g = lambda x, n: lax.fori_loop(0, n, lambda i, c: c * x, 1.0)  # noqa: E731
    _close(jax.jvp(lambda x: g(x, jnp.int32(3)), (2.0,), (1.0,))[1], 12.0)
    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work"):
        jax.jit(jax.grad(g))(2.0, 3)


def _fori_body(i: Any, c: Any) -> Any:
    return jnp.sin(c) * 1.3 + i


def test_fori_loop_static_grads(x64: None) -> None:
    check_grads(lambda x: lax.fori_loop(0, 4, _fori_body, x), (0.3,), order=2, modes=("fwd", "rev"))
    # A body closing over the differentiated value (a loop constant with a tangent).
    check_grads(lambda x: lax.fori_loop(0, 4, lambda i, c: jnp.sin(c) * x + i, x), (0.3,), order=1, modes=("fwd", "rev"))


def test_while_vmap() -> None:
    f = lambda x: lax.while_loop(lambda c: c < 10.0, lambda c: c * 2.0, x)  # noqa: E731
    xs = np.array([1.0, 3.0, 20.0, 0.7], np.float32)
    _close(jax.vmap(f)(xs), _loop(f, xs))  # batched predicate
    g = lambda x, y: lax.while_loop(lambda c: c[0] < 5, lambda c: (c[0] + 1, c[1] * x + y), (0, 1.0))[1]  # noqa: E731
    _close(jax.vmap(g, (0, None))(xs, 0.5), _loop(lambda x: g(x, 0.5), xs))  # unbatched predicate
    h = lambda x, n: lax.fori_loop(0, n, lambda i, c: c * x, 1.0)  # noqa: E731
    ns = np.array([3, 0, 2, 1], np.int32)
    _close(jax.vmap(h)(xs, ns), _loop(h, xs, ns))
    # vmap of vmap: the inner predicate is already batched when the outer vmap sees it.
    xx = np.stack([xs, xs + 1.0])
    _close(jax.vmap(jax.vmap(f))(xx), np.stack([_loop(f, r) for r in xx]))
    _close(jax.vmap(jax.vmap(g, (0, None)), (None, 0))(xs, np.array([0.1, 0.2], np.float32)), np.stack([_loop(lambda x: g(x, y), xs) for y in (0.1, 0.2)]))


# -- scan / map ------------------------------------------------------------------------------
def _rnn_body(c: Any, x: Any) -> Any:
    h, s = c
    h = jnp.tanh(h * x["a"] + s) + x["b"]
    return (h, s + h), {"y": h * 2, "z": (s,)}


def _rnn_ref(h: float, s: float, xa: np.ndarray[Any, Any], xb: np.ndarray[Any, Any], reverse: bool = False) -> Any:
    ys, zs = [], []
    order = range(len(xa))[::-1] if reverse else range(len(xa))
    for i in order:
        h = np.tanh(h * xa[i] + s) + xb[i]
        zs.append(s)
        s = s + h
        ys.append(h * 2)
    if reverse:
        ys, zs = ys[::-1], zs[::-1]
    return h, s, np.array(ys), np.array(zs)


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("unroll", [1, 2, 3, True, 0])
def test_scan_values(reverse: bool, unroll: int | bool) -> None:
    xa, xb = np.linspace(0.1, 1.0, 5).astype(np.float32), np.linspace(-0.2, 0.2, 5).astype(np.float32)
    f = lambda h, xs: lax.scan(_rnn_body, (h, 0.5), xs, reverse=reverse, unroll=unroll)  # noqa: E731
    (h, s), ys = jax.jit(f)(0.3, {"a": xa, "b": xb})
    rh, rs, rys, rzs = _rnn_ref(0.3, 0.5, xa, xb, reverse)
    _close(h, rh)
    _close(s, rs)
    _close(ys["y"], rys)
    _close(ys["z"][0], rzs)


def test_scan_length_without_xs_and_weak_init() -> None:
    c, ys = lax.scan(lambda c, _: (c * 2.0, c), 1.0, None, length=4)
    _close(c, 16.0)
    _close(ys, [1.0, 2.0, 4.0, 8.0])
    c, ys = lax.scan(lambda c, x: (c + x, x), 1, jnp.ones(3))  # a weak int carry promoted to float32
    assert c.dtype == np.float32
    _close(c, 4.0)
    c, ys = lax.scan(lambda c, x: (c, x), 0.0, jnp.zeros((0, 2)))
    assert ys.shape == (0, 2)


def test_scan_grads(x64: None) -> None:
    xs = {"a": np.linspace(0.1, 1.0, 4), "b": np.linspace(-0.2, 0.2, 4)}

    def f(h: Any, xs: Any, reverse: bool = False, unroll: int = 1) -> Any:
        (h, s), ys = lax.scan(_rnn_body, (h, 0.5), xs, reverse=reverse, unroll=unroll)
        return h + s + ys["y"].sum() + (ys["z"][0] ** 2).sum()

    check_grads(f, (0.3, xs), order=2, modes=("fwd", "rev"))
    check_grads(lambda h, xs: f(h, xs, reverse=True, unroll=3), (0.3, xs), order=1, modes=("fwd", "rev"))
    check_grads(lambda h: lax.scan(_sin_body, h, None, length=3), (0.3,), order=2, modes=("fwd", "rev"))


def _sin_body(c: Any, _: Any) -> Any:
    return jnp.sin(c) * 1.1, c


def test_scan_grad_jaxpr_is_forward_and_reverse_scan() -> None:
    w = np.float32(0.5)
    f = lambda x, xs: lax.scan(lambda c, a: (jnp.sin(c) * w + a * x, c), x, xs)[0]  # noqa: E731
    text = str(jax.make_jaxpr(jax.grad(f))(0.3, jnp.ones(5)))
    assert text.count("scan[") == 2
    assert "reverse=False" in text and "reverse=True" in text


def test_scan_jaxpr_structure() -> None:
    text = str(jax.make_jaxpr(lambda x, xs: lax.scan(lambda c, a: (c + a * x, c * 2), x, xs))(2.0, jnp.ones(5)))
    assert "c:f32[] d:f32[5] = scan[" in text
    for p in ("jaxpr={ lambda ; e:f32[] f:f32[] g:f32[]. let", "length=5", "num_carry=1", "num_consts=1", "reverse=False", "unroll=1"):
        assert p in text
    assert text.endswith("] a a b\n  in (c, d) }")


def test_scan_vmap() -> None:
    def f(h: Any, w: Any, xs: Any) -> Any:
        (h, s), ys = lax.scan(lambda c, x: ((jnp.tanh(c[0] * w + x), c[1] + c[0]), c[0] * x), (h, 0.0), xs)
        return h, s, ys

    hs = np.array([0.1, 0.2, 0.3], np.float32)
    ws = np.array([0.5, 1.0, 1.5], np.float32)
    xss = np.linspace(0.0, 1.0, 12, dtype=np.float32).reshape(3, 4)
    for in_axes in [(0, None, None), (None, 0, None), (None, None, 0), (0, 0, 0), (None, None, 1)]:
        batched = [hs, ws, xss]
        args = [a if ax is not None else a[1] for a, ax in zip(batched, in_axes)]
        out = jax.vmap(f, in_axes)(*(a.T if ax == 1 else a for a, ax in zip(args, in_axes)))
        refs = [f(*(a[i] if ax is not None else a for a, ax in zip(args, in_axes))) for i in range(3)]
        for k in range(3):
            _close(out[k], np.stack([np.asarray(r[k]) for r in refs]))


def test_map() -> None:
    xs = np.arange(7.0, dtype=np.float32)
    ref = np.sin(xs) * 2
    f = lambda x: jnp.sin(x) * 2  # noqa: E731
    for bs in (None, 0, 2, 3, 7, 10):
        _close(lax.map(f, xs, batch_size=bs), ref)
    out = lax.map(lambda d: {"s": d["a"] + d["b"]}, {"a": xs, "b": xs})
    _close(out["s"], 2 * xs)


def test_rnn_100_steps_compiles_and_differentiates() -> None:
    rng = np.random.default_rng(0)
    W = (rng.normal(size=(16, 16)) * 0.3).astype(np.float32)
    U = (rng.normal(size=(8, 16)) * 0.3).astype(np.float32)
    xs = rng.normal(size=(100, 8)).astype(np.float32)

    def rnn(W: Any, U: Any, xs: Any) -> Any:
        def step(h: Any, x: Any) -> Any:
            h = jnp.tanh(h @ W + x @ U)
            return h, h.sum()

        h, ys = lax.scan(step, jnp.zeros(16, np.float32), xs)
        return h.sum() + ys.sum()

    v, (gW, gU) = jax.jit(jax.value_and_grad(rnn, (0, 1)))(W, U, xs)
    h, tot = np.zeros(16, np.float32), 0.0
    for x in xs:
        h = np.tanh(h @ W + x @ U)
        tot += h.sum()
    _close(v, tot + h.sum(), 1e-4)
    assert gW.shape == (16, 16) and gU.shape == (8, 16)
    assert np.isfinite(np.asarray(gW)).all()
    lowered = jax.jit(rnn).lower(W, U, xs).as_text()
    assert "stablehlo.while" in lowered


# -- associative_scan ------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 5, 8, 13])
def test_associative_scan(n: int) -> None:
    x = np.arange(1.0, n + 1, dtype=np.float32)
    _close(lax.associative_scan(jnp.add, x), np.cumsum(x))
    _close(lax.associative_scan(jnp.add, x, reverse=True), np.cumsum(x[::-1])[::-1])
    m = np.arange(2.0 * n * 3, dtype=np.float32).reshape(2, n, 3)
    _close(jax.jit(lambda m: lax.associative_scan(jnp.maximum, m, axis=1))(m), np.maximum.accumulate(m, axis=1))
    # A non-commutative pytree operation: composition of affine maps x -> a x + b.
    a, b = np.linspace(0.5, 1.5, n, dtype=np.float32), np.linspace(-1, 1, n, dtype=np.float32)
    fa, fb = lax.associative_scan(lambda p, q: (q[0] * p[0], q[0] * p[1] + q[1]), (a, b))
    ra, rb, ca, cb = [], [], 1.0, 0.0
    for i in range(n):
        ca, cb = a[i] * ca, a[i] * cb + b[i]
        ra.append(ca)
        rb.append(cb)
    _close(fa, ra)
    _close(fb, rb)


def test_associative_scan_has_no_primitive() -> None:
    text = str(jax.make_jaxpr(lambda x: lax.associative_scan(jnp.add, x))(jnp.ones(6)))
    assert "scan[" not in text and "pad" in text


# -- composition -----------------------------------------------------------------------------
def test_grad_of_vmap_of_jit_of_scan() -> None:
    def h(w: Any, xs: Any) -> Any:
        return lax.scan(lambda c, x: (jnp.tanh(c * w + x), c), 0.1, xs)[0]

    xss = np.ones((3, 4), np.float32) * np.arange(3, dtype=np.float32)[:, None]
    g = jax.grad(lambda w: jax.vmap(jax.jit(h), (None, 0))(w, xss).sum())(0.5)
    _close(g, sum(float(jax.grad(h)(0.5, xss[i])) for i in range(3)))


def test_vmap_of_grad_of_cond() -> None:
    f = jax.grad(lambda x: lax.cond(x > 0, jnp.sin, jnp.cos, x))
    xs = np.array([1.0, -1.0, 0.5], np.float32)
    _close(jax.vmap(f)(xs), np.where(xs > 0, np.cos(xs), -np.sin(xs)))


def test_grad_of_vmap_of_cond_ignores_the_branch_not_taken() -> None:
    # sqrt's derivative is nan at negative inputs; those elements take the other branch.
    f = lambda x: lax.cond(x > 0, jnp.sqrt, lambda x: x * 2.0, x)  # noqa: E731
    xs = np.array([4.0, -1.0], np.float32)
    _close(jax.grad(lambda xs: jax.vmap(f)(xs).sum())(xs), [0.25, 2.0])


def test_jit_of_grad_of_fori_loop() -> None:
    g = jax.jit(jax.grad(lambda x: lax.fori_loop(0, 3, lambda i, c: c * x, 1.0)))
    _close(g(2.0), 12.0)


def _cond_in_scan_body(c: Any, a: Any) -> Any:
    c = lax.cond(a > 0.5, lambda c, a: jnp.sin(c) * a, lambda c, a: c * c + a, c, a)
    return c, c * a


def test_nested_control_flow_grads(x64: None) -> None:
    def f(x: Any, xs: Any) -> Any:
        c, ys = lax.scan(_cond_in_scan_body, x, xs)
        return c + ys.sum()

    check_grads(f, (0.3, np.linspace(0.1, 1.0, 6)), order=2, modes=("fwd", "rev"))
    # A scan in a branch, its body closing over the branch operand.
    g = lambda x: lax.cond(x > 0, lambda x: lax.scan(lambda c, _: (jnp.sin(c) + x, c), x, None, length=3)[1].sum(), lambda x: x * 3.0, x)  # noqa: E731
    check_grads(g, (0.3,), order=1, modes=("fwd", "rev"))
    check_grads(g, (-0.3,), order=1, modes=("fwd", "rev"))


# -- errors (messages recorded from JAX 0.12) ---------------------------------------------------
def _raises(exc: type[Exception], fn: Fn, message: str) -> None:
    with pytest.raises(exc) as info:
        fn()
    assert str(info.value) == message, str(info.value)


def _loc(f: Fn) -> str:
    return f"{f.__name__} at {f.__code__.co_filename}:{f.__code__.co_firstlineno}"


def test_cond_errors() -> None:
    t, f = (lambda x: x), (lambda x: x.astype(jnp.int32))
    _raises(
        TypeError,
        lambda: lax.cond(True, t, f, 1.0),
        "cond branches must have equal output types but they differ.\n\n"
        f"true_fun is {_loc(t)}\nfalse_fun is {_loc(f)}\n\n"
        "The output of true_fun has type float32[] but the corresponding output of false_fun has type int32[], "
        "so the dtypes do not match.\n\nRevise true_fun and/or false_fun so that all output types match.",
    )
    t2, f2 = (lambda x: (x, x)), (lambda x: x)
    _raises(
        TypeError,
        lambda: lax.cond(True, t2, f2, 1.0),
        "cond branch outputs must have the same pytree structure, but they differ:\n\n"
        f"true_fun is {_loc(t2)}\nfalse_fun is {_loc(f2)}\n\n"
        "true_fun output is a <class 'tuple'> but false_fun output is a pytree leaf, so their Python types differ.\n\n"
        "Revise true_fun and/or false_fun so that they have the same pytree structure.",
    )
    ident = lambda x: x  # noqa: E731
    _raises(TypeError, lambda: lax.cond(jnp.ones(2), ident, ident, 1.0), "Pred must be a scalar, got [1. 1.] of shape (2,).")
    _raises(TypeError, lambda: lax.cond("a", ident, ident, 1.0), "Pred must be a scalar, got a of type <class 'str'>")
    _raises(TypeError, lambda: lax.cond(None, ident, ident, 1.0), "cond predicate is None")
    _raises(TypeError, lambda: lax.cond(1 + 2j, ident, ident, 1.0), "Pred type must be either boolean or number, got complex64.")
    _raises(TypeError, lambda: lax.cond(True, 1, ident, 1.0), "lax.cond: true_fun and false_fun arguments should be callable.")
    _raises(TypeError, lambda: lax.switch(1.0, [ident], 1.0), "Index type must be an integer, got 1.0 as float32")
    _raises(TypeError, lambda: lax.switch(jnp.array([1]), [ident], 1.0), "Branch index must be scalar, got [1] of shape (1,).")
    _raises(ValueError, lambda: lax.switch(1, [], 1.0), "Empty branch sequence")


def test_loop_errors() -> None:
    def body(c: Any, x: Any) -> Any:
        return c.astype(jnp.int32), x

    _raises(
        TypeError,
        lambda: lax.scan(body, 1.0, jnp.ones(3)),
        "scan body function carry input and carry output must have equal types, but they differ:\n\n"
        "The input carry c has type float32[] but the corresponding output carry component has type int32[], "
        "so the dtypes do not match.\n\nRevise the function so that all output types match the corresponding input types.",
    )
    _raises(TypeError, lambda: lax.scan(lambda c, x: c, 1.0, jnp.ones(3)), "scan body output must be a pair, got ~float32[].")
    _raises(ValueError, lambda: lax.scan(lambda c, x: (c, x), 1.0, None), "scan got no values to scan over and `length` not provided.")
    _raises(ValueError, lambda: lax.scan(lambda c, x: (c, x), 1.0, (jnp.ones(3), jnp.ones(4))), "scan got values with different leading axis sizes: 3, 4.")
    _raises(
        ValueError,
        lambda: lax.scan(lambda c, x: (c, x), 1.0, jnp.ones(3), length=4),
        "scan got `length` argument of 4 which disagrees with leading axis sizes [3].",
    )
    _raises(ValueError, lambda: lax.scan(lambda c, x: (c, x), 1.0, 1.0), "scan got value with no leading axis to scan over: 1.0.")

    def wbody(c: Any) -> Any:
        return c.astype(jnp.int32)

    _raises(
        TypeError,
        lambda: lax.while_loop(lambda c: c < 3, wbody, 1.0),
        "while_loop body function carry input and carry output must have equal types, but they differ:\n\n"
        "The input carry c has type float32[] but the corresponding output carry component has type int32[], "
        "so the dtypes do not match.\n\nRevise the function so that all output types match the corresponding input types.",
    )
    with pytest.raises(TypeError, match="must have the same pytree structure"):
        lax.while_loop(lambda c: c < 3, lambda c: (c, c), 1.0)
    _raises(
        TypeError,
        lambda: lax.while_loop(lambda c: jnp.array([True, False]), lambda c: c, 1.0),
        "cond_fun must return a boolean scalar, but got output type(s) [ShapedArray(bool[2])].",
    )
    with pytest.raises(TypeError, match="input carry component loop_carry\\[1\\] has type float32"):
        lax.fori_loop(0, 3, lambda i, c: c.astype(jnp.int32), 1.0)


def test_disable_jit_runs_python() -> None:
    with jax.disable_jit():
        _close(lax.cond(True, lambda x: x + 1, lambda x: x, 1.0), 2.0)
        _close(lax.while_loop(lambda c: c < 5, lambda c: c + 2, 0), 6)
        c, ys = lax.scan(lambda c, x: (c + x, c), 0.0, jnp.arange(3.0))
        _close(c, 3.0)
        _close(ys, [0.0, 0.0, 1.0])
