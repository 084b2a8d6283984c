"""The last names of ``jax.lax`` compared with live JAX 0.12: tokens (``create_token``, ``after_all``),
``composite``, the ``split``/``tile``/``stack``/``unstack``/``top_k`` primitives, ``scatter_sub_p``,
``select_and_scatter_p``, ``device_put_p``, ``rng_uniform``, ``shape_as_value``, ``dce_sink`` and
``scaled_dot``: values, staged jaxprs, lowered text, transformations and errors."""

from __future__ import annotations

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture, program_call

COVERED: frozenset[str] = frozenset(
    {"create_token", "after_all", "composite", "split", "tile", "stack", "unstack", "top_k",
     "scatter-sub", "select_and_scatter", "device_put", "rng_uniform", "dce_sink", "scaled_dot"}
)

X = "jnp.arange(6.0).reshape(2, 3)"
T = "jnp.array([[9.0, 3.0, 6.0, 4.0, 10.0], [1.0, 1.0, 2.0, 2.0, 0.0]])"
MJ = "(lambda f, *a: str(jax.make_jaxpr(f)(*a)))"
EXPRS = [
    # names of the primitives
    ("[p.name for p in (lax.split_p, lax.tile_p, lax.stack_p, lax.unstack_p, lax.top_k_p, "
    "lax.scatter_sub_p, lax.select_and_scatter_p, lax.device_put_p, lax.rng_uniform_p, "
    "lax.create_token_p, lax.after_all_p)]"),
    ("[lax.split_p.multiple_results, lax.unstack_p.multiple_results, lax.top_k_p.multiple_results, "
    "lax.device_put_p.multiple_results, lax.tile_p.multiple_results]"),
    # tile / split / stack / unstack as primitives
    f"lax.tile({X}, (2, 3))",
    f"{MJ}(lambda x: lax.tile(x, (2, 1)), {X})",
    f"jax.grad(lambda x: (lax.tile(x, (2, 2)) ** 2).sum())({X})",
    f"jax.vmap(lambda x: lax.tile(x, (3,)))({X})",
    f"jax.jit(lambda x: lax.tile(x, (1, 2)))({X})",
    f"lax.tile({X}, (2,))",
    f"lax.split({X}, (1, 2), axis=1)",
    f"lax.split({X}, [2], axis=0)",
    f"{MJ}(lambda x: lax.split(x, (1, 2), axis=-1), {X})",
    f"jax.grad(lambda x: sum((p ** 2).sum() * i for i, p in enumerate(lax.split(x, (1, 2), 1))))({X})",
    f"jax.vmap(lambda x: lax.split(x, (2, 1)))({X})",
    f"jax.vmap(lambda x: lax.split(x, (1, 1)), 1)({X})",
    f"jax.jit(lambda x: lax.split(x, (1, 1, 1), 1))({X})",
    f"lax.split({X}, (1, 1), axis=1)",
    f"lax.split({X}, (-1, 4), axis=1)",
    f"lax.stack([{X}, {X} + 1], axis=1)",
    "lax.stack([1.0, 2.0])",
    f"{MJ}(lambda x: lax.stack([x, x * 2], -1), {X})",
    f"jax.grad(lambda x: (lax.stack([x, x * 2], 1) ** 2).sum())({X})",
    f"jax.vmap(lambda x, y: lax.stack([x, y], 1), (0, 1))({X}, {X}.T)",
    f"jax.vmap(lambda x: lax.stack([x, jnp.ones(3)]))({X})",
    f"jax.jit(lambda x: lax.stack([x] * 20, 1))({X})",
    f"lax.stack([{X}, {X}.T])",
    f"lax.stack([{X}, {X}.astype(jnp.int32)])",
    f"lax.unstack({X}, 1)",
    f"{MJ}(lambda x: lax.unstack(x), {X})",
    f"jax.grad(lambda x: sum((p ** 2).sum() * i for i, p in enumerate(lax.unstack(x, 1))))({X})",
    f"jax.vmap(lambda x: lax.unstack(x))({X})",
    f"jax.vmap(lambda x: lax.unstack(x), 1)({X})",
    f"jax.jit(lambda x: lax.unstack(x, 1))({X})",
    "lax.unstack(jnp.float32(1.0))",
    # top_k
    f"lax.top_k({T}, 3)",
    f"lax.top_k({T}, 1, axis=0)",
    f"{MJ}(lambda x: lax.top_k(x, 2), {T})",
    f"{MJ}(lambda x: lax.top_k(x, 2, axis=0, is_stable=False), {T})",
    f"jax.grad(lambda x: lax.top_k(x, 2)[0].sum())({T})",
    f"jax.jvp(lambda x: lax.top_k(x, 2, axis=0)[0], ({T},), (jnp.ones((2, 5)),))",
    f"jax.vmap(lambda x: lax.top_k(x, 2), 1)({T})",
    f"jax.jit(lambda x: lax.top_k(x, 2, axis=0))({T})",
    f"[l.strip() for l in jax.jit(lambda x: lax.top_k(x, 2)).lower({T}).as_text().splitlines() if 'top_k' in l]",
    f"lax.top_k({T}, 6)",
    f"lax.top_k({T}, -1)",
    "lax.top_k(jnp.float32(1.0), 1)",
    "lax.top_k(jnp.ones(3, jnp.complex64), 1)",
    "lax.top_k(jnp.array([3, 1, 2], jnp.int8), 2)",
    # scatter-sub
    ("lax.scatter_sub(jnp.ones(3), jnp.array([[1], [1]]), jnp.array([2.0, 3.0]), "
    "lax.ScatterDimensionNumbers((), (0,), (0,)))"),
    (f"{MJ}(lambda x, u: lax.scatter_sub(x, jnp.array([[1], [2]]), u, lax.ScatterDimensionNumbers((), (0,), (0,))), "
    "jnp.ones(3), jnp.ones(2))"),
    ("jax.grad(lambda x, u: (lax.scatter_sub(x, jnp.array([[1], [1]]), u, "
    "lax.ScatterDimensionNumbers((), (0,), (0,))) ** 2).sum(), (0, 1))(jnp.ones(3), jnp.array([2.0, 3.0]))"),
    ("jax.vmap(lambda x, u: lax.scatter_sub(x, jnp.array([[0], [2]]), u, "
    "lax.ScatterDimensionNumbers((), (0,), (0,))))(jnp.ones((2, 3)), jnp.arange(4.0).reshape(2, 2))"),
    # device_put_p
    ("lax.device_put_p.bind(jnp.ones(2), jnp.arange(3), devices=(None, None), srcs=(None, None), "
    "copy_semantics=(jax._src.lib.xla_client.ArrayCopySemantics.REUSE_INPUT,) * 2)"),
    ("jax.grad(lambda x: lax.device_put_p.bind(x * 2.0, devices=(None,), srcs=(None,), "
    "copy_semantics=(jax._src.lib.xla_client.ArrayCopySemantics.REUSE_INPUT,))[0])(1.0)"),
    ("jax.vmap(lambda x: lax.device_put_p.bind(x, devices=(None,), srcs=(None,), "
    "copy_semantics=(jax._src.lib.xla_client.ArrayCopySemantics.ALWAYS_COPY,))[0])(jnp.ones(2))"),
    # rng_uniform (values are backend-defined: shapes, dtypes and bounds)
    ("[(np.shape(v), np.asarray(v).dtype.name, bool(((0 <= np.asarray(v)) & (np.asarray(v) < 1)).all())) "
    "for v in (lax.rng_uniform(0.0, 1.0, (3,)), jax.jit(lambda: lax.rng_uniform(0.0, 1.0, (2, 2)))())]"),
    ("[np.asarray(lax.rng_uniform(jnp.int32(2), jnp.int32(3), (4,))).tolist(), "
    "np.asarray(lax.rng_uniform(jnp.int32(0), jnp.int32(10), (5,))).dtype.name]"),
    "str(jax.make_jaxpr(lambda a: lax.rng_uniform(a, 1.0, (3,)))(0.0))",
    "lax.rng_uniform(0.0, jnp.int32(1), (2,))",
    "lax.rng_uniform(jnp.zeros(2), jnp.ones(2), (2,))",
    "jax.grad(lambda a: lax.rng_uniform(a, 1.0, (2,)).sum())(0.0)",
    "jax.vmap(lambda a: lax.rng_uniform(a, 1.0, (2,)))(jnp.zeros(2))",
    # shape_as_value
    "lax.shape_as_value((2, 3))",
    "lax.shape_as_value(())",
    "lax.shape_as_value((2**31, 1))",
    # dce_sink
    "lax.dce_sink(1.0)",
    f"{MJ}(lambda x: (lax.dce_sink((x * 2, x + 1)), x)[1], 1.0)",
    f"{MJ}(lambda x: (lax.dce_sink(x, prevent_mlir_dce=True), x)[1], 1.0)",
    ("[l.strip() for l in jax.jit(lambda x: (lax.dce_sink(x * 2, prevent_mlir_dce=True), x)[1]).lower(1.0)"
    ".as_text().splitlines() if 'dce_sink' in l]"),
    "jax.jit(lambda x: (lax.dce_sink(x * 2, prevent_mlir_dce=True), x)[1])(1.0)",
    "jax.grad(lambda x: (lax.dce_sink(x * 2), x)[1])(1.0)",
    "jax.vmap(lambda x: (lax.dce_sink(x * 2), x)[1])(jnp.ones(2))",
    # tokens
    "str(jax.typeof(lax.create_token()))",
    "repr(jax.typeof(lax.create_token()))",
    "type(lax.create_token()).__name__",
    "lax.create_token().block_until_ready()",
    "type(lax.after_all(lax.create_token(), lax.create_token())).__name__",
    "type(lax.after_all()).__name__",
    "lax.after_all(1.0)",
    "lax.after_all(lax.create_token(), jnp.ones(2))",
    f"{MJ}(lambda: lax.create_token())",
    f"{MJ}(lambda x: lax.create_token(x), 1.0)",
    f"{MJ}(lambda t: lax.after_all(t, lax.create_token()), lax.create_token())",
    "jax.jit(lambda t: lax.after_all(t, t)).lower(lax.create_token()).as_text().splitlines()[1:]",
    "[type(v).__name__ for v in jax.jit(lambda t, x: (lax.after_all(t), x * 2))(lax.create_token(), 3.0)]",
    "jax.jit(lambda t, x: (lax.after_all(t), x * 2))(lax.create_token(), 3.0)[1]",
    "type(jax.jit(lambda: lax.create_token())()).__name__",
    "jax.grad(lambda x: (lax.create_token(x), x * 3)[1])(1.0)",
    "jax.vmap(lambda x: (lax.after_all(lax.create_token()), x + 1)[1])(jnp.ones(2))",
    # scaled_dot
    "lax.scaled_dot(jnp.ones((2, 3)), jnp.ones((3, 2)))",
    "lax.scaled_dot(jnp.ones(3), jnp.ones(3))",
    "jax.grad(lambda a: lax.scaled_dot(a, jnp.ones((4, 2))).astype(jnp.float32).sum())(jnp.ones((2, 4)))",
]

# composite: the decomposition, its staged equation and its lowering; scaled_dot with real scales.
PROGRAM = """
import numpy as np
tan = lax.composite(lambda x, *, k=1: lax.sin(x) / lax.cos(x) * k, name='my.tan')
pair = lax.composite(lambda x, y: (x + y, x * np.arange(3.0, dtype=np.float32)), name='my.pair', version=2)
attrs = lax.composite(lambda x, *, a, b, c, d, e: x, name='my.attrs')
def text(f, *a):
    return jax.jit(f).lower(*a).as_text().splitlines()[1:]
r = np.random.RandomState(0)
A = jnp.array(r.randn(2, 4, 8).astype(np.float32)).astype(jnp.float8_e4m3fn)
B = jnp.array(r.randn(2, 8, 3).astype(np.float32)).astype(jnp.float8_e4m3fn)
SA = jnp.array(2.0 ** r.randint(-2, 3, (2, 4, 2)).astype(np.float32)).astype(jnp.float8_e8m0fnu)
SB = jnp.array(2.0 ** r.randint(-2, 3, (2, 2, 3)).astype(np.float32)).astype(jnp.float8_e8m0fnu)
try:  # JAX's private wrapper binding select_and_scatter_p, and ours
    from jax._src.lax.windowed_reductions import _select_and_scatter as sas
except ImportError:
    from jax_core._src.lax.windowed.select_and_scatter import select_and_scatter as sas
def sd(a, b, **kw):
    return lax.scaled_dot(a, b, lhs_scale=SA, rhs_scale=SB, **kw)
"""
CASES = [
    "tan(jnp.array([0.0, 0.5, 1.0]))",
    "tan(1.0, k=2)",
    "jax.jit(lambda x: tan(tan(x, k=2), k=3.5))(jnp.ones(2))",
    "str(jax.make_jaxpr(lambda x: tan(x, k=2))(1.0))",
    "text(lambda x: tan(x, k=2), 1.0)",
    "text(lambda x: tan(tan(x)), 1.0)",
    "text(lambda x: pair(x, jnp.float32(1.0)), jnp.ones(3))",
    "str(jax.make_jaxpr(lambda x: pair(x, np.float32(1.0)))(jnp.ones(3)))",
    "pair(jnp.ones(3), jnp.float32(2.0))",
    "text(lambda x: attrs(x, a=np.arange(2), b='s', c=None, d=True, e=(1, 2.5)), 1.0)",
    "jax.grad(tan)(1.0)",
    "jax.vmap(tan)(jnp.ones(2))",
    "jax.jit(lambda x: tan(1.0, k=x))(1.0)",
    "sd(A, B)",
    "sd(A, B, preferred_element_type=jnp.float32)",
    "lax.scaled_dot(A, B)",
    "str(jax.make_jaxpr(sd)(A, B))",
    "jax.vmap(lambda a, b: lax.scaled_dot(a, b, lhs_scale=SA[0], rhs_scale=SB[0], preferred_element_type=jnp.float32))(A, B)",
    "jax.jit(lambda a, b: sd(a, b))(A, B)",
    "lax.scaled_dot(A, B, lhs_scale=jnp.repeat(SA[:, :, :1], 8, 2))",
    "lax.scaled_dot(A, B[:1])",
    "lax.scaled_dot(A, B, lhs_scale=SA[:, :2])",
    "lax.scaled_dot(A, B, lhs_scale=SA[0])",
    "sas(jnp.array([1.0, 5, 2, 7, 3, 0]), lax.ge, (2,), (2,), ((0, 0),), jnp.array([10.0, 20, 30]), jnp.float32(0), lax.add)",
    "sas(jnp.arange(16.0).reshape(4, 4) % 5, lax.le, (2, 2), (1, 1), ((0, 1), (1, 0)), jnp.ones((4, 4)), jnp.float32(1), lax.mul)",
    "str(jax.make_jaxpr(lambda x: sas(x, lax.ge, (2,), (2,), ((0, 0),), x[:3], np.float32(0), lax.add))(jnp.ones(6)))",
    "jax.jit(lambda x: sas(x, lax.ge, (3,), (1,), ((1, 1),), x, jnp.float32(0), lax.add))(jnp.array([1.0, 5, 2, 7, 3, 0]))",
    "sas(jnp.ones(6), lax.ge, (2,), (2, 1), ((0, 0),), jnp.ones(3), jnp.float32(0), lax.add)",
    "jax.grad(lambda x: sas(x, lax.ge, (2,), (2,), ((0, 0),), x[:1], np.float32(0), lax.add).sum())(jnp.ones(2))",
    "jax.vmap(lambda x: sas(x, lax.ge, (2,), (2,), ((0, 0),), x[:1], np.float32(0), lax.add))(jnp.ones((2, 2)))",
]

CALLS = [Call(e) for e in EXPRS] + [program_call(PROGRAM, c) for c in CASES]
IDS = EXPRS + [f"program: {c}" for c in CASES]
live = live_fixture(CALLS)


@pytest.mark.parametrize("call", CALLS, ids=IDS)
def test_same_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    assert_same(here(call), live[call.expr], call.expr, messages=live[call.expr].error is not None)


def test_select_and_scatter_matches_numpy() -> None:
    from jax_core._src.lax.windowed.select_and_scatter import select_and_scatter

    x = jnp.array([1.0, 5.0, 2.0, 7.0, 3.0, 0.0])
    out = select_and_scatter(x, lax.ge, (2,), (2,), ((0, 0),), jnp.array([10.0, 20.0, 30.0]), jnp.float32(0), lax.add)
    np.testing.assert_array_equal(np.asarray(out), [0.0, 10.0, 0.0, 20.0, 30.0, 0.0])

    def f(v: jax.Array) -> jax.Array:
        return select_and_scatter(v, lax.ge, (2,), (2,), ((0, 0),), v[:3], 0.0, lax.add)

    staged = str(jax.make_jaxpr(f)(x))
    assert "select_and_scatter[" in staged and "select_jaxpr={ lambda ; " in staged


def test_tokens_pass_through_jit_repeatedly() -> None:
    from jax_core._src.core.tokens import Token, abstract_token
    from jax_core._src.core.trace import get_aval

    def step(t: Token | jax.Array, x: float) -> tuple[Token | jax.Array, jax.Array]:
        return lax.after_all(t), jnp.asarray(x) + 1

    f = jax.jit(step)
    tok = lax.create_token()
    for i in range(3):
        tok, y = f(tok, float(i))
        assert isinstance(tok, Token)
        assert float(y) == i + 1
    assert get_aval(tok) is abstract_token
    assert str(get_aval(tok)) == "AbstractToken()" and get_aval(tok).str_short() == "Tok"
