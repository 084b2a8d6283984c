"""Ordered effects happen in program order: hundreds of ordered ``debug.print``s and
``io_callback``s, in one computation, in loops and branches, across successive jitted calls, in
nested jit and from several threads (each thread has its own tokens), compared with the order
the program asks for. Also ``effects_barrier``: it returns once the callbacks of every call
dispatched so far have run.

Prints are captured with pytest's ``capsys``: ``debug.print`` writes with ``sys.stdout.write``
when its callback runs (on an XLA thread), and that looks ``sys.stdout`` up then, so the capture
sees it (``capfd`` does too). Ordered effects of different kinds (``OrderedDebug``,
``OrderedIO``) have separate tokens, so each kind's sequence is checked on its own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax
from jax_core.experimental import io_callback

I32 = jax.ShapeDtypeStruct((), jnp.int32)


def _jit_effect(
    effect: Callable[[jax.Array], object], add: int = 0
) -> Callable[[jax.Array], jax.Array]:
    """A jitted function that runs ``effect(x)`` and returns ``x + add``."""

    def f(x: jax.Array) -> jax.Array:
        effect(x)
        return x + add

    return jax.jit(f)


def _printed(capsys: pytest.CaptureFixture[str]) -> list[str]:
    jax.effects_barrier()
    return capsys.readouterr().out.splitlines()


def test_many_ordered_prints_in_one_computation(capsys: pytest.CaptureFixture[str]) -> None:
    n = 300

    @jax.jit
    def f(x: jax.Array) -> jax.Array:
        for i in range(n):
            jax.debug.print("p{} {}", i, x + i, ordered=True)
        return x

    f(jnp.int32(7))
    assert _printed(capsys) == [f"p{i} {7 + i}" for i in range(n)]


def test_ordered_prints_in_a_scan(capsys: pytest.CaptureFixture[str]) -> None:
    def body(carry: jax.Array, x: jax.Array) -> tuple[jax.Array, jax.Array]:
        jax.debug.print("step {} carry {}", x, carry, ordered=True)
        return carry + x, carry

    total, _ = jax.jit(lax.scan, static_argnums=0)(
        body, jnp.int32(0), jnp.arange(100, dtype=jnp.int32)
    )
    expected = [f"step {i} carry {i * (i - 1) // 2}" for i in range(100)]
    assert _printed(capsys) == expected
    assert int(total) == 4950
    lax.scan(body, jnp.int32(0), jnp.arange(100, dtype=jnp.int32), reverse=True)
    reverse = [f"step {i} carry {sum(range(i + 1, 100))}" for i in reversed(range(100))]
    assert _printed(capsys) == reverse


def test_ordered_effects_in_fori_and_while_loops(capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[int] = []

    def record(v: Any) -> Any:
        seen.append(int(v))
        return np.int32(int(v) * 2)

    def fori_body(i: jax.Array, c: jax.Array) -> jax.Array:
        jax.debug.print("fori {}", i, ordered=True)
        return c + io_callback(record, I32, i, ordered=True)

    def while_body(c: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
        i, acc = c
        jax.debug.print("while {} {}", i, acc, ordered=True)
        return i + 1, acc + i

    @jax.jit
    def f(x: jax.Array) -> tuple[jax.Array, jax.Array]:
        a = lax.fori_loop(0, 120, fori_body, x)
        _, b = lax.while_loop(lambda c: c[0] < 80, while_body, (jnp.int32(0), a))
        return a, b

    a, b = f(jnp.int32(0))
    assert int(a) == 2 * sum(range(120)) and int(b) == int(a) + sum(range(80))
    expected = [f"fori {i}" for i in range(120)]
    expected += [f"while {i} {int(a) + i * (i - 1) // 2}" for i in range(80)]
    assert _printed(capsys) == expected
    assert seen == list(range(120))


def test_ordered_effects_across_many_calls_of_several_functions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    seen: list[tuple[str, int]] = []

    def record(tag: str) -> Any:
        def cb(v: Any) -> Any:
            seen.append((tag, int(v)))
            return np.int32(v) if tag == "h" else None

        return cb

    @jax.jit
    def f(x: jax.Array) -> jax.Array:
        jax.debug.print("f {}", x, ordered=True)
        return x + 1

    @jax.jit
    def g(x: jax.Array) -> jax.Array:
        io_callback(record("g"), None, x, ordered=True)
        return x * 2

    @jax.jit
    def h(x: jax.Array) -> jax.Array:
        y = io_callback(record("h"), I32, x, ordered=True)
        jax.debug.print("h {}", y, ordered=True)
        return y

    def k(x: jax.Array) -> jax.Array:  # eager: not jitted, ordered all the same
        jax.debug.print("k {}", x, ordered=True)
        return x

    prints: list[str] = []
    calls: list[tuple[str, int]] = []
    for i in range(60):
        x = jnp.int32(i)
        f(x)
        g(x)
        h(x)
        k(x)
        prints += [f"f {i}", f"h {i}", f"k {i}"]
        calls += [("g", i), ("h", i)]
    assert _printed(capsys) == prints
    assert seen == calls


def test_each_thread_keeps_its_own_order() -> None:
    threads, calls = 4, 40
    logs: dict[int, list[tuple[str, int]]] = {t: [] for t in range(threads)}
    errors: list[BaseException] = []

    def record(t: int, tag: str) -> Any:
        def cb(v: Any) -> None:
            logs[t].append((tag, int(v)))

        return cb

    def work(t: int) -> None:
        try:
            f = _jit_effect(lambda x: jax.debug.callback(record(t, "dbg"), x, ordered=True), 1)
            g = _jit_effect(lambda x: io_callback(record(t, "io"), None, x, ordered=True))
            for i in range(calls):
                f(jnp.int32(i))
                g(jnp.int32(i))
            jax.effects_barrier()
        except BaseException as err:  # noqa: BLE001  (reported by the main thread)
            errors.append(err)

    workers = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=120)
    assert not errors, errors
    for t in range(threads):
        assert [i for tag, i in logs[t] if tag == "dbg"] == list(range(calls)), t
        assert [i for tag, i in logs[t] if tag == "io"] == list(range(calls)), t


def test_ordered_prints_from_threads(capsys: pytest.CaptureFixture[str]) -> None:
    threads, calls = 3, 50

    def work(t: int) -> None:
        f = _jit_effect(lambda x: jax.debug.print("t{} {}", t, x, ordered=True))
        for i in range(calls):
            f(jnp.int32(i))
        jax.effects_barrier()

    workers = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=120)
    lines = _printed(capsys)
    assert len(lines) == threads * calls
    for t in range(threads):
        assert [int(s.split()[1]) for s in lines if s.startswith(f"t{t} ")] == list(range(calls))


def test_ordered_prints_in_cond_and_switch_branches(capsys: pytest.CaptureFixture[str]) -> None:
    def branch(name: str) -> Callable[[jax.Array], jax.Array]:
        def run(x: jax.Array) -> jax.Array:
            jax.debug.print("{} {}", name, x, ordered=True)
            return x + 1

        return run

    @jax.jit
    def f(x: jax.Array) -> jax.Array:
        jax.debug.print("before {}", x, ordered=True)
        y = lax.cond(x % 2 == 0, branch("even"), branch("odd"), x)
        z = lax.switch(x % 3, [branch("s0"), branch("s1"), branch("s2")], y)
        jax.debug.print("after {}", z, ordered=True)
        return z

    expected: list[str] = []
    for i in range(50):
        f(jnp.int32(i))
        expected += [
            f"before {i}",
            f"{'odd' if i % 2 else 'even'} {i}",
            f"s{i % 3} {i + 1}",
            f"after {i + 2}",
        ]
    assert _printed(capsys) == expected


def test_ordered_prints_in_nested_jit(capsys: pytest.CaptureFixture[str]) -> None:
    @jax.jit
    def inner(x: jax.Array) -> jax.Array:
        jax.debug.print("inner {}", x, ordered=True)
        return x * 2

    @jax.jit
    def middle(x: jax.Array) -> jax.Array:
        jax.debug.print("middle {}", x, ordered=True)
        return inner(x) + inner(x + 1)

    @jax.jit
    def outer(x: jax.Array) -> jax.Array:
        y = middle(x)
        jax.debug.print("outer {}", y, ordered=True)
        return y

    expected: list[str] = []
    for i in range(40):
        outer(jnp.int32(i))
        inner(jnp.int32(-i))
        expected += [
            f"middle {i}",
            f"inner {i}",
            f"inner {i + 1}",
            f"outer {4 * i + 2}",
            f"inner {-i}",
        ]
    assert _printed(capsys) == expected


def test_unordered_prints_all_happen(capsys: pytest.CaptureFixture[str]) -> None:
    f = _jit_effect(lambda x: jax.debug.print("u {}", x))
    for i in range(100):
        f(jnp.int32(i))
    assert sorted(_printed(capsys), key=lambda s: int(s.split()[1])) == [
        f"u {i}" for i in range(100)
    ]


def test_effects_barrier_waits_for_dispatched_callbacks() -> None:
    done: list[int] = []
    lock = threading.Lock()

    def record(v: Any) -> None:
        with lock:
            done.append(int(v))

    f = _jit_effect(lambda x: jax.debug.callback(record, x), 1)
    g = _jit_effect(lambda x: io_callback(record, None, x))
    h = _jit_effect(lambda x: io_callback(record, None, x, ordered=True))
    for i in range(0, 90, 3):
        f(jnp.int32(i))
        g(jnp.int32(i + 1))
        h(jnp.int32(i + 2))
    jax.effects_barrier()
    assert sorted(done) == list(range(90))


def test_effects_barrier_returns_after_a_blocked_callback() -> None:
    release = threading.Event()
    order: list[str] = []

    def slow(v: Any) -> None:
        release.wait(timeout=60)
        order.append("callback")

    def unblock() -> None:
        order.append("released")
        release.set()

    f = _jit_effect(lambda x: jax.debug.callback(slow, x))
    timer = threading.Timer(0.2, unblock)
    timer.start()  # before the call: were dispatch synchronous, the call would wait for it
    f(jnp.int32(0))
    jax.effects_barrier()
    order.append("barrier")
    timer.join()
    assert order == ["released", "callback", "barrier"]


def test_block_until_ready_on_an_effectful_call_without_results(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def only_print(x: jax.Array) -> None:
        jax.debug.print("only {}", x, ordered=True)

    def ignore(v: Any) -> None:
        pass

    def empty(x: jax.Array) -> tuple[()]:
        io_callback(ignore, None, x, ordered=True)
        return ()

    out = jax.jit(only_print)(jnp.int32(5))
    assert out is None
    assert jax.block_until_ready(out) is None
    assert jax.block_until_ready(jax.jit(empty)(jnp.int32(1))) == ()
    assert _printed(capsys) == ["only 5"]
