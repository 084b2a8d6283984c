"""Effects in the core: what jaxprs and equations carry, what dead-code elimination keeps, and the
tokens lowering threads (the callback primitives' own behaviour is tested in tests/effects/)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src.callbacks.io import io_effect, ordered_io_effect
from jax_core._src.core.effects import ordered_effects, ordered_in
from jax_core._src.core.jaxpr import Jaxpr, dce_jaxpr
from jax_core.debug import DebugEffect, OrderedDebugEffect
from jax_core.experimental import io_callback

COVERED = {"debug_callback", "debug_print", "io_callback", "pure_callback"}

F32 = jax.ShapeDtypeStruct((), jnp.float32)


def _kinds(effects: Any) -> set[str]:
    return {type(e).__name__ for e in effects}


def test_primitives_declare_their_effects() -> None:
    def f(x: jax.Array) -> jax.Array:
        jax.debug.print("{}", x)
        jax.debug.callback(lambda v: None, x, ordered=True)
        y = jax.pure_callback(lambda v: v, F32, x)
        z = io_callback(lambda v: v, F32, y, ordered=True)
        return io_callback(lambda v: v, F32, z)

    closed = jax.make_jaxpr(f)(1.0)
    assert [_kinds(e.effects) for e in closed.eqns] == [
        {"DebugEffect"}, {"OrderedDebugEffect"}, set(), {"OrderedIOEffect"}, {"IOEffect"},
    ]  # fmt: skip
    assert _kinds(closed.effects) == {"DebugEffect", "OrderedDebugEffect", "OrderedIOEffect", "IOEffect"}
    assert ordered_effects.contains(ordered_io_effect) and not ordered_effects.contains(io_effect)
    assert [type(e) for e in ordered_in(closed.effects)] == [OrderedDebugEffect, type(ordered_io_effect)]


def _with_jvp(f: Any) -> Any:
    f.defjvp(lambda p, t: (f(*p), t[0]))
    return f


def _with_vjp(f: Any) -> Any:
    f.defvjp(lambda x: (f(x), None), lambda _, g: (g,))
    return f


@pytest.mark.parametrize(
    "wrap",
    [
        lambda g: jax.jit(g),
        lambda g: jax.checkpoint(g),
        lambda g: (lambda x: lax.cond(x > 0, g, lambda v: v, x)),
        lambda g: (lambda x: lax.switch(1, [lambda v: v, g], x)),
        lambda g: (lambda x: lax.fori_loop(0, 3, lambda i, c: g(c), x)),
        lambda g: (lambda x: lax.while_loop(lambda c: c < 10.0, g, x)),
        lambda g: (lambda x: lax.scan(lambda c, _: (g(c), None), x, None, length=4)[0]),
        lambda g: _with_jvp(jax.custom_jvp(g)),
        lambda g: _with_vjp(jax.custom_vjp(g)),
    ],
    ids=["jit", "checkpoint", "cond", "switch", "fori_loop", "while_loop", "scan", "custom_jvp", "custom_vjp"],
)
def test_effects_propagate_through_higher_order_primitives(wrap: Any) -> None:
    def g(x: jax.Array) -> jax.Array:
        jax.debug.print("{}", x, ordered=True)
        return x + 1.0

    closed = jax.make_jaxpr(wrap(g))(1.0)
    assert _kinds(closed.effects) == {"OrderedDebugEffect"}
    assert any(e.effects for e in closed.eqns)


def test_dce_keeps_effectful_equations() -> None:
    def f(x: jax.Array) -> jax.Array:
        io_callback(lambda v: v, F32, x)  # unused result: still an effect
        jax.pure_callback(lambda v: v, F32, x)  # unused and pure: removable
        jax.debug.print("{}", x)
        return x * 2.0

    jaxpr: Jaxpr = jax.make_jaxpr(f)(1.0).jaxpr
    kept = [e.primitive.name for e in dce_jaxpr(jaxpr).eqns]
    assert kept == ["io_callback", "debug_print", "mul"]


def test_unused_results_under_jit() -> None:
    calls: list[str] = []

    def f(x: jax.Array) -> jax.Array:
        io_callback(lambda v: calls.append("io") or v, F32, x)
        return x * 2.0

    assert float(jax.jit(f)(1.0)) == 2.0
    jax.effects_barrier()
    assert calls == ["io"]


def _main_signature(text: str) -> str:
    match = re.search(r"func\.func public @main\((.*)\) -> \((.*)\) \{", text)
    assert match is not None, text
    return match.group(0)


def test_tokens_are_threaded_through_main_loops_and_branches() -> None:
    def f(x: jax.Array) -> jax.Array:
        jax.debug.print("a {}", x, ordered=True)
        x = lax.fori_loop(0, 3, lambda i, c: (jax.debug.print("i {}", i, ordered=True), c + 1.0)[1], x)
        return lax.cond(x > 0, lambda v: (io_callback(lambda a: None, None, v, ordered=True), v)[1], lambda v: v, x)

    text = jax.jit(f).lower(np.float32(1.0)).as_text()
    sig = _main_signature(text)
    # One token per ordered effect, first among the parameters and the results.
    assert sig.count("!stablehlo.token {jax.token = true}") == 4
    assert re.search(r"@main\(%arg0: !stablehlo.token \{jax.token = true\}, %arg1: !stablehlo.token \{jax.token = true\}, %arg2: tensor<f32>", sig)
    # The loop carries the token the first print produced, first; the case returns its token first.
    assert re.search(r"%0 = stablehlo.custom_call @xla_ffi_python_cpu_callback\(%arg0, %arg2\)", text)
    assert re.search(r"stablehlo.while\(%iterArg = %0,", text)
    assert '"stablehlo.case"' in text and "}) : (tensor<i32>) -> !stablehlo.token" in text
    assert text.count("@xla_ffi_python_cpu_callback") == 3


def test_unordered_effects_thread_no_token() -> None:
    def f(x: jax.Array) -> jax.Array:
        jax.debug.print("{}", x)
        return io_callback(lambda v: v, F32, x)

    text = jax.jit(f).lower(np.float32(1.0)).as_text()
    assert "!stablehlo.token" not in text
    assert text.count("has_side_effect = true") == 2


def test_effect_names_print_as_jax() -> None:
    assert (str(DebugEffect()), str(OrderedDebugEffect()), str(io_effect), str(ordered_io_effect)) == (
        "Debug", "OrderedDebug", "IO", "OrderedIO",
    )  # fmt: skip


def test_io_effects_in_a_vmapped_while_with_batched_predicate_raise() -> None:
    def w(x: jax.Array) -> jax.Array:
        def body(c: jax.Array) -> jax.Array:
            io_callback(lambda v: None, None, c)
            return c + 1

        return lax.while_loop(lambda c: c < 3, body, x)

    with pytest.raises(Exception, match="Unordered IO effects not supported in while_loop with batched predicate"):
        jax.vmap(w)(jnp.array([0, 1]))


def test_ordered_effects_in_a_while_cond_run_before_each_test(capsys: pytest.CaptureFixture[str]) -> None:
    def cond(c: jax.Array) -> jax.Array:
        jax.debug.print("c {}", c, ordered=True)
        return c < 2

    def body(c: jax.Array) -> jax.Array:
        jax.debug.print("b {}", c, ordered=True)
        return c + 1

    assert int(jax.jit(lambda x: lax.while_loop(cond, body, x))(0)) == 2
    jax.effects_barrier()
    assert capsys.readouterr().out.split("\n") == ["c 0", "b 0", "c 1", "b 1", "c 2", ""]


def test_io_effects_cannot_be_rematerialized() -> None:
    def f(a: jax.Array) -> jax.Array:
        return a * io_callback(lambda: np.float32(2), F32)

    assert float(jax.checkpoint(f)(np.float32(1))) == 2.0  # without AD it runs once, as in JAX
    with pytest.raises(NotImplementedError, match="Effects not supported in AD of `checkpoint`/`remat`"):
        jax.grad(jax.checkpoint(f))(np.float32(1))
