"""What the effects API returns: callbacks' results follow their result_shape_dtypes."""

from collections.abc import Callable
from typing import Any, assert_type

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, ShapeDtypeStruct, experimental, jit, vmap
from jax_core.experimental import io_callback

x = jnp.arange(3.0)
xs = jnp.ones((2, 3))
spec = ShapeDtypeStruct(x.shape, x.dtype)


def host_sin(v: Any) -> Any:
    return np.sin(v)


def host_pair(v: Any) -> tuple[Any, Any]:
    return np.sin(v), np.cos(v)


def host_list(v: Any) -> list[Any]:
    return [np.sin(v), np.cos(v)]


def host_dict(v: Any) -> dict[str, Any]:
    return {"s": np.sin(v)}


def write(v: Any) -> None:
    pass


def show(v: Array) -> None:
    pass


# debug.print / debug.callback: the two-call form returns the printer
assert_type(jax.debug.print(ordered=True), Callable[..., None])
assert_type(jax.debug.print(ordered=True, skip_format_check=True), Callable[..., None])
assert_type(jax.debug.print(), Callable[..., None])
assert_type(jax.debug.callback(ordered=True), Callable[..., None])
assert_type(jax.debug.callback(partitioned=True), Callable[..., None])

# pure_callback: a spec -> Array, a tuple -> a tuple, a list -> a list, a dict -> a dict; other pytrees -> Any
assert_type(jax.pure_callback(host_sin, spec, x), Array)
assert_type(jax.pure_callback(host_sin, spec, x, vmap_method="sequential"), Array)
assert_type(jax.pure_callback(host_pair, (spec, spec), x), tuple[Array, Array])
assert_type(jax.pure_callback(host_list, [spec, spec], x), list[Array])
assert_type(jax.pure_callback(host_dict, {"s": spec}, x), dict[str, Array])
assert_type(jax.pure_callback(host_sin, jax.eval_shape(jnp.sin, x), x), Array)
specs: tuple[ShapeDtypeStruct, ...] = tuple(spec for _ in range(3))
assert_type(jax.pure_callback(host_pair, specs[:2], x), tuple[Array, ...])

# io_callback: the same
assert_type(io_callback(host_sin, spec, x), Array)
assert_type(io_callback(host_sin, spec, x, ordered=True), Array)
assert_type(io_callback(host_pair, (spec, spec), x), tuple[Array, Array])
assert_type(experimental.io_callback(host_list, [spec, spec], x), list[Array])
assert_type(io_callback(host_dict, {"s": spec}, x), dict[str, Array])


# through jit and vmap
@jit
def staged(v: Array) -> tuple[Array, Array]:
    jax.debug.print("v = {}", v)
    y = jax.pure_callback(host_sin, ShapeDtypeStruct(v.shape, v.dtype), v)
    assert_type(y, Array)
    a, b = io_callback(host_pair, (spec, spec), v)
    assert_type(a, Array)
    return y + a, b


assert_type(staged(x), tuple[Array, Array])


def per_row(v: Array) -> Array:
    return jax.pure_callback(
        host_sin, ShapeDtypeStruct(v.shape, v.dtype), v, vmap_method="sequential"
    )


assert_type(vmap(per_row)(xs), Array)
assert_type(jit(vmap(per_row))(xs), Array)

assert_type(jax.effects_barrier(), None)
barrier: Callable[[], None] = jax.effects_barrier

# A pair of specs gives a pair; an array (or any object with shape and dtype) as the spec gives an
# Array; None (no result) gives None
assert_type(jax.pure_callback(host_pair, (spec, spec), x), tuple[Array, Array])
assert_type(jax.pure_callback(host_sin, x, x), Array)
assert_type(io_callback(write, None, x), None)
