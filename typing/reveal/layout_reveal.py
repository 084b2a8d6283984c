"""Device-local layouts: ``x.format`` on every array, ``Format``'s layout kinds, ``device_put`` to a
``Format`` and ``jit`` with ``Format``s keep their types (the layouts documentation's program
type-checks as written)."""

from typing import Any, assert_type

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array
from jax_core.experimental.layout import Format, Layout, with_layout_constraint
from jax_core.sharding import Sharding, SingleDeviceSharding

x = jnp.ones((4, 8))
assert_type(x.format, Format[Layout])
assert_type(x.format.layout.major_to_minor, tuple[int, ...])
assert_type(x.format.layout.tiling, tuple[tuple[int, ...], ...] | None)

s = SingleDeviceSharding(jax.devices()[0])
column_major = Format(Layout((1, 0)), s)
assert_type(column_major, Format[Layout])
assert_type(Format(), Format[None])
assert_type(Format(None, s).sharding, Sharding | None)
y = jax.device_put(np.ones((4, 8)), column_major)
assert_type(y, Array)


def apply_fn(a: Array, b: Array) -> tuple[Array, Array]:
    return a[0, :], b[:, 0]


duck = jax.ShapeDtypeStruct((4, 8), jnp.float32)
auto = Format(Layout.AUTO)
apply_exe = jax.jit(apply_fn, in_shardings=auto, out_shardings=auto).trace(duck, duck).lower().compile()
arg_formats, kwarg_formats = apply_exe.input_formats
assert_type(apply_exe.output_formats, Any)
assert_type(apply_exe(x, x), tuple[Array, Array])
assert_type(jax.jit(apply_fn, in_shardings=(column_major, None))(y, x), tuple[Array, Array])


def constrained(a: Array) -> Array:
    return with_layout_constraint(a.T, Layout((0, 1))) * 2


assert_type(with_layout_constraint(x, Layout((1, 0))), Array)
assert_type(with_layout_constraint((x, x), Layout((1, 0))), tuple[Array, Array])
assert_type(jax.jit(constrained)(x), Array)
