"""Misuses of the effects API that the checkers report (each one JAX rejects too)."""

from collections.abc import Callable
from typing import Any

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, ShapeDtypeStruct
from jax_core.experimental import io_callback

x = jnp.arange(3.0)
spec = ShapeDtypeStruct(x.shape, x.dtype)


def host_sin(v: Any) -> Any:
    return np.sin(v)


def host_pair(v: Any) -> tuple[Any, Any]:
    return np.sin(v), np.cos(v)


def show(v: Array) -> None:
    print(v)


# debug.print: the format is a str, the options are bools, and there is no result
jax.debug.print(x)  # E: "Array"
jax.debug.print(42, x)  # E: debug_print
jax.debug.print("{}", x, ordered="yes")  # E: debug_print
jax.debug.print("{}", x, skip_format_check=1.0)  # E: debug_print
jax.debug.print(ordered="yes")  # E: debug_print
jax.debug.log(42)  # E: debug_log
jax.debug.log("{}", x, partitioned="no")  # E: debug_log
printed: Array = jax.debug.print("{}", x)  # E: "None"
jax.debug.print("{}", x) + 1  # E: "None"
printer: Callable[..., Array] = jax.debug.print(ordered=True)  # E: None

# debug.callback: the callback is callable
jax.debug.callback(3, x)  # E: debug_callback
jax.debug.callback("show", x)  # E: debug_callback
jax.debug.callback(show, x, ordered="yes")  # E: debug_callback
called: Array = jax.debug.callback(show, x)  # E: "None"

# pure_callback / io_callback
jax.pure_callback("host_sin", spec, x)  # E: pure_callback
jax.pure_callback(host_sin)  # E: pure_callback
jax.pure_callback(host_sin, spec, x, vmap_method=1)  # E: pure_callback
jax.pure_callback(host_sin, spec, x, sharding="cpu")  # E: pure_callback
s: str = jax.pure_callback(host_sin, spec, x)  # E: "str"
pair: list[Array] = jax.pure_callback(host_pair, (spec, spec), x)  # E: list[Array]
one: Array = jax.pure_callback(host_pair, (spec, spec), x)  # E: tuple[Array, Array]
io_callback(3, spec, x)  # E: io_callback
io_callback(host_sin, spec, x, ordered="yes")  # E: io_callback
io_callback(host_sin, spec, x, sharding="cpu")  # E: io_callback
t: tuple[Array, ...] = io_callback(host_sin, spec, x)  # E: tuple[Array, ...]

# effects_barrier takes nothing and returns nothing
jax.effects_barrier(x)  # E[mypy,ty]: effects_barrier  # E[pyright,pyrefly]: expected 0 positional
done: Array = jax.effects_barrier()  # E: "None"
