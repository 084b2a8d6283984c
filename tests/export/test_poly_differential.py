"""One shape-polymorphic export, called on several concrete shapes, computes what the function
jitted for each shape computes (the polymorphic-vs-monomorphic differential test)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import export, lax


@dataclass(frozen=True)
class Fn:
    name: str
    fun: Callable[..., Any]
    specs: tuple[str, ...]
    shapes: tuple[tuple[tuple[int, ...], ...], ...]
    constraints: tuple[str, ...] = ()
    dtype: Any = np.float32


def _scan_cumsum(x: Any) -> Any:
    def step(c: Any, row: Any) -> Any:
        return c + row, jnp.sum(c)

    return lax.scan(step, jnp.zeros(x.shape[1:], x.dtype), x)


def _while_rows(x: Any) -> Any:
    def body(state: Any) -> Any:
        i, acc = state
        return i + 1, acc + x[i]

    return lax.while_loop(lambda s: s[0] < x.shape[0], body, (0, jnp.zeros(x.shape[1:], x.dtype)))[1]


def _fori(x: Any) -> Any:
    return lax.fori_loop(0, 3, lambda i, acc: acc * 0.5 + x, jnp.zeros_like(x))


FUNS = [
    Fn("sin_add", lambda x: jnp.sin(x) + 1.0, ("b, 4",), (((3, 4),), ((5, 4),))),
    Fn("broadcast_rows", lambda x, y: x * y[None, :] - y, ("b, h", "h"), (((2, 3), (3,)), ((4, 6), (6,)))),
    Fn("reductions", lambda x: (jnp.sum(x, axis=0), jnp.max(x, axis=1), jnp.argmax(x, axis=1), jnp.mean(x)),
       ("b, h",), (((2, 3),), ((5, 1),))),
    Fn("reshape_minus_one", lambda x: x.reshape(-1) * 2, ("b, 4",), (((1, 4),), ((3, 4),))),
    Fn("reshape_dims", lambda x: x.reshape((x.shape[0] * 2, x.shape[1] // 2)), ("b, 2*h",), (((2, 4),), ((3, 6),))),
    Fn("concatenate", lambda x, y: jnp.concatenate([x, y, x], axis=0), ("b, 3", "c, 3"), (((2, 3), (1, 3)), ((3, 3), (4, 3)))),
    Fn("slices", lambda x: (x[1:], x[:, ::2], x[: x.shape[0] // 2], x[-1]), ("b, h",), (((4, 3),), ((6, 5),))),
    Fn("matmul", lambda x, w: x @ w, ("b, k", "k, n"), (((2, 3), (3, 4)), ((5, 1), (1, 2)))),
    Fn("dot_einsum", lambda x, w: (jnp.dot(x, w), jnp.einsum("bk,kn->nb", x, w)), ("b, k", "k, n"), (((2, 3), (3, 4)),)),
    Fn("iota_arange", lambda x: x + jnp.arange(x.shape[0], dtype=x.dtype), ("b",), (((3,),), ((7,),))),
    Fn("zeros_ones", lambda x: (jnp.zeros((x.shape[0], 2)), jnp.ones_like(x), jnp.full(x.shape, 3.0)), ("b, h",), (((2, 3),),)),
    Fn("dim_as_value", lambda x: (x * x.shape[0], x / x.size, x.shape[0] + jnp.sum(x)), ("b, h",), (((2, 3),), ((4, 1),))),
    Fn("transpose", lambda x: (x.T, jnp.swapaxes(x, 0, 1) + 1, jnp.moveaxis(x[None], 0, 2)), ("b, h",), (((2, 3),),)),
    Fn("softmax", lambda x: jax.nn.softmax(x, axis=-1), ("b, h",), (((2, 3),), ((3, 5),))),
    Fn("where_clip", lambda x: jnp.where(x > 0.5, x, -x).clip(-1, 1), ("b",), (((4,),), ((9,),))),
    Fn("vmap", lambda x, y: jax.vmap(jnp.dot)(x, y), ("b, h", "b, h"), (((2, 3), (2, 3)), ((5, 2), (5, 2)))),
    Fn("grad", lambda x: jax.grad(lambda v: jnp.sum(jnp.sin(v) * v))(x), ("b, h",), (((2, 3),), ((4, 2),))),
    Fn("scan", _scan_cumsum, ("t, f",), (((3, 2),), ((5, 4),))),
    Fn("cond", lambda x: lax.cond(jnp.sum(x) > 0, lambda v: v * 2, lambda v: -v, x), ("b",), (((3,),), ((6,),))),
    Fn("while_loop", _while_rows, ("b, f",), (((3, 2),), ((4, 1),))),
    Fn("fori_loop", _fori, ("b",), (((2,),), ((5,),))),
    Fn("constraint", lambda x: x[2:] + x[: x.shape[0] - 2], ("b",), (((2,),), ((5,),)), constraints=("b >= 2",)),
    Fn("int_ops", lambda x: (x * 3 + x.shape[0], x // 2, jnp.sum(x, axis=0)), ("b, 3",), (((4, 3),),), dtype=np.int32),
]


def _arg(shape: tuple[int, ...], i: int, dtype: Any) -> np.ndarray[Any, Any]:
    n = int(np.prod(shape))
    if np.issubdtype(dtype, np.integer):
        return (np.arange(n) - i).reshape(shape).astype(dtype)
    return ((np.arange(n) - 2 * i) * 0.25 - 0.5).reshape(shape).astype(dtype)


@pytest.mark.parametrize("fn", FUNS, ids=lambda f: f.name)
def test_polymorphic_export_matches_monomorphic_jit(fn: Fn) -> None:
    scope = export.SymbolicScope(fn.constraints)
    specs = [jax.ShapeDtypeStruct(export.symbolic_shape(s, scope=scope), fn.dtype) for s in fn.specs]
    exported = export.export(jax.jit(fn.fun))(*specs)
    assert exported.uses_global_constants
    assert any(export.is_symbolic_dim(d) for a in exported.in_avals for d in a.shape)
    for shapes in fn.shapes:
        args = [_arg(s, i, fn.dtype) for i, s in enumerate(shapes)]
        got = jax.tree_util.tree_leaves(exported.call(*args))
        want = jax.tree_util.tree_leaves(jax.jit(fn.fun)(*args))
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.shape == w.shape and g.dtype == w.dtype, (shapes, g.shape, w.shape)
            np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("fn", [f for f in FUNS if f.name in ("sin_add", "matmul", "scan", "reshape_dims")], ids=lambda f: f.name)
def test_round_trip_serialization_serves_every_shape(fn: Fn) -> None:
    scope = export.SymbolicScope()
    specs = [jax.ShapeDtypeStruct(export.symbolic_shape(s, scope=scope), fn.dtype) for s in fn.specs]
    exported = export.export(jax.jit(fn.fun))(*specs)
    loaded = export.deserialize(exported.serialize())
    assert [str(a) for a in loaded.in_avals] == [str(a) for a in exported.in_avals]
    assert [str(a) for a in loaded.out_avals] == [str(a) for a in exported.out_avals]
    for shapes in fn.shapes:
        args = [_arg(s, i, fn.dtype) for i, s in enumerate(shapes)]
        for g, w in zip(jax.tree_util.tree_leaves(loaded.call(*args)), jax.tree_util.tree_leaves(exported.call(*args))):
            np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


def test_vjp_order_with_polymorphic_shapes() -> None:
    f = lambda x: jnp.sum(jnp.sin(x) * x, axis=-1)
    spec = jax.ShapeDtypeStruct(export.symbolic_shape("b, n"), np.float32)
    exported = export.deserialize(export.export(jax.jit(f))(spec).serialize(vjp_order=1))
    for shape in ((2, 3), (5, 2)):
        x = _arg(shape, 0, np.float32)
        got = jax.grad(lambda v: jnp.sum(exported.call(v)))(x)
        want = jax.grad(lambda v: jnp.sum(f(v)))(x)
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6, atol=1e-6)

