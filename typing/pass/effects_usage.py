"""Effects in real code: debug.print/callback/log, pure_callback, io_callback, effects_barrier.

Inside jitted functions, under vmap, grad and lax loops, as JAX programs write them: no checker
reports anything.
"""

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, ShapeDtypeStruct, lax
from jax_core.experimental import io_callback

x = jnp.arange(3.0)
spec = ShapeDtypeStruct(x.shape, x.dtype)


# -- debug.print / debug.callback / debug.log inside jit ------------------------------------------
def show(label: str, v: Array) -> None:
    print(label, v.shape)


def count(v: Array) -> int:  # a callback's result is ignored, whatever its type
    return int(v.size)


class Recorder:
    def __init__(self) -> None:
        self.seen: list[np.ndarray[Any, np.dtype[Any]]] = []

    def __call__(self, v: Array) -> None:
        self.seen.append(np.asarray(v))

    def record(self, v: Array, *, scale: float) -> None:
        self.seen.append(np.asarray(v) * scale)


recorder = Recorder()


@jax.jit
def step(v: Array) -> Array:
    jax.debug.print("v = {}", v)
    jax.debug.print("v = {v}, sum = {s}", v=v, s=jnp.sum(v))
    jax.debug.print("in order: {}", v, ordered=True)
    jax.debug.print("{x} {y}", x=v, y=1, partitioned=False)
    jax.debug.print("unchecked {}", v, 2, skip_format_check=True)
    jax.debug.print("no placeholder:", v, skip_format_check=True)  # appended
    jax.debug.print(f"shape {v.shape}: {{}}", v)  # an f-string for static parts only
    jax.debug.print(ordered=True)("two-call {}", v)
    printer = jax.debug.print(ordered=True, skip_format_check=True)
    printer("{}", v)
    jax.debug.log("logged {}", v)
    jax.debug.log("logged {v}", v=v, ordered=True)
    jax.debug.callback(show, "v", v)
    jax.debug.callback(count, v, ordered=True)
    jax.debug.callback(recorder, v)
    jax.debug.callback(recorder.record, v, scale=2.0)
    jax.debug.callback(partial(show, "partial"), v, partitioned=True)
    jax.debug.callback(ordered=True)(show, "two-call", v)
    jax.debug.callback(print, v)
    return v * 2


fmt: str = "runtime format {}"


def log_with(message: str, v: Array) -> None:
    jax.debug.print(message, v)


# -- under vmap, grad, and lax loops -------------------------------------------------------------
def loss(w: Array, xb: Array) -> Array:
    pred = xb @ w
    jax.debug.print("pred {}", pred)
    jax.debug.callback(show, "pred", pred)
    return jnp.sum(pred**2)


def per_example(w: Array, xb: Array) -> Array:
    return jax.vmap(loss, in_axes=(None, 0))(w, xb[:, None, :])


def body(i: int, carry: Array) -> Array:
    jax.debug.print("i={i} carry={c}", i=i, c=carry, ordered=True)
    return carry + 1.0


def cell(h: Array, xt: Array) -> tuple[Array, Array]:
    jax.debug.print("h {} x {}", h, xt)
    return h + xt, h


def keep_going(c: Array) -> Array:
    jax.debug.callback(show, "cond", c)
    return c < 3.0


def grow(c: Array) -> Array:
    return c + 1.0


@jax.jit
def loops(v: Array) -> Array:
    a = lax.fori_loop(0, 3, body, v)
    h, _ = lax.scan(cell, jnp.zeros(()), v)
    c = lax.while_loop(keep_going, grow, jnp.asarray(0.0))
    return a + h + c


# -- pure_callback ---------------------------------------------------------------------------------
def host_sin(v: np.ndarray[Any, np.dtype[np.float32]]) -> np.ndarray[Any, np.dtype[np.float32]]:
    return np.sin(v).astype(np.float32)


def host_pair(v: Any) -> tuple[Any, Any]:
    return np.sin(v), np.cos(v)


def host_list(v: Any) -> list[Any]:
    return [np.cos(v)]


def host_dict(v: Any) -> dict[str, Any]:
    return {"s": np.sin(v)}


def host_sum(a: Any, b: Any, *, scale: float) -> Any:
    return np.asarray((a + b) * scale, dtype=np.float32)


@jax.jit
def with_pure(v: Array) -> Array:
    y: Array = jax.pure_callback(host_sin, spec, v)
    s, c = jax.pure_callback(host_pair, (spec, spec), v)
    pair: tuple[Array, ...] = jax.pure_callback(host_pair, (spec, spec), v)
    (first,) = jax.pure_callback(host_list, [spec], v)
    z = jax.pure_callback(host_sum, spec, v, v, scale=2.0)
    u = jax.pure_callback(np.sin, jax.ShapeDtypeStruct(v.shape, v.dtype), v)
    t = jax.pure_callback(np.tanh, jax.eval_shape(jnp.tanh, v), v)
    scalar = jax.pure_callback(lambda: np.float32(1.0), ShapeDtypeStruct((), jnp.float32))
    tree: dict[str, Array] = jax.pure_callback(host_dict, {"s": spec}, v)  # other pytrees: Any
    like: Array = jax.pure_callback(np.sin, v, v)  # anything with shape and dtype: Any
    return y + s + c + pair[0] + first + z + u + t + scalar + tree["s"] + like


def batched_sin(v: Array) -> Array:
    return jax.pure_callback(
        np.sin, jax.ShapeDtypeStruct(v.shape, v.dtype), v, vmap_method="sequential"
    )


def broadcast_sin(v: Array) -> Array:
    out = ShapeDtypeStruct(v.shape, v.dtype)
    return jax.pure_callback(np.sin, out, v, vmap_method="broadcast_all", sharding=None)


def expand_sin(v: Array) -> Array:
    out = ShapeDtypeStruct(v.shape, v.dtype)
    return jax.pure_callback(np.sin, out, v, vmap_method="expand_dims")


method: str | None = "sequential"


def configured(v: Array) -> Array:
    return jax.pure_callback(np.sin, ShapeDtypeStruct(v.shape, v.dtype), v, vmap_method=method)


@jax.custom_jvp
def host_exp(v: Array) -> Array:
    return jax.pure_callback(
        np.exp, ShapeDtypeStruct(v.shape, v.dtype), v, vmap_method="sequential"
    )


@host_exp.defjvp
def _host_exp_jvp(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (v,) = primals
    (t,) = tangents
    e = host_exp(v)
    return e, e * t


# -- io_callback -----------------------------------------------------------------------------------
log_lines: list[str] = []


def write_line(v: Any) -> None:
    log_lines.append(str(np.asarray(v)))


def read_counter(v: Any) -> Any:
    return np.asarray(len(log_lines), dtype=np.int32)


@jax.jit
def with_io(v: Array) -> Array:
    io_callback(write_line, None, v)
    io_callback(write_line, None, v, ordered=True)
    n: Array = io_callback(read_counter, ShapeDtypeStruct((), jnp.int32), v, ordered=True)
    a, b = io_callback(host_pair, (spec, spec), v, sharding=None)
    (only,) = jax.experimental.io_callback(host_list, [spec], v)
    return v + n + a + b + only


def io_body(i: Array, carry: Array) -> Array:
    io_callback(write_line, None, carry)
    return carry * 2.0


def io_loop(v: Array) -> Array:
    return lax.fori_loop(0, 2, io_body, v)


def count_io(v: Array) -> Array:
    return io_callback(read_counter, ShapeDtypeStruct((), jnp.int32), v)


def exp_total(v: Array) -> Array:
    return jnp.sum(host_exp(v))


# -- running it ------------------------------------------------------------------------------------
def main() -> None:
    xs = jnp.ones((2, 3))
    w = jnp.ones(3)
    ys: list[Array] = [
        step(x),
        loops(x),
        jax.grad(loss)(w, x[None, :]),
        per_example(w, xs),
        jax.jit(jax.grad(loss))(w, x[None, :]),
        with_pure(x),
        jax.vmap(batched_sin)(xs),
        jax.vmap(broadcast_sin)(xs),
        jax.vmap(expand_sin)(xs),
        jax.jit(configured)(x),
        jax.grad(exp_total)(x),
        with_io(x),
        jax.jit(io_loop)(x),
        jax.vmap(count_io)(xs),
    ]
    log_with(fmt, x)
    jax.effects_barrier()
    done: Callable[[], None] = jax.effects_barrier
    done()
    assert len(ys) == 14 and recorder.seen and log_lines


main()
