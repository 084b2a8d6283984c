"""Bitwise primitives: ``not``, ``and``, ``or``, ``xor``, the shifts, ``population_count`` and ``clz``
(integer or boolean operands; zero derivatives).
"""

from __future__ import annotations

from jax_core._src.core.primitive import Primitive
from jax_core._src.interpreters.ad_util import (
    zero_jvp,
)
from jax_core._src.lax.elementwise.factories import binop, unop
from jax_core._src.lax.standard_rules import (
    bind_one,
    is_int,
    is_int_or_bool,
)
from jax_core._src.lib.mlir import hlo
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


def bitwise_not(x: ArrayLike, /) -> Array:
    """Elementwise bitwise/logical NOT."""
    return bind_one(not_p, x)


not_p: Primitive = unop("not", is_int_or_bool, hlo.not_, jvp=zero_jvp)


def population_count(x: ArrayLike, /) -> Array:
    """Elementwise popcount."""
    return bind_one(population_count_p, x)


population_count_p: Primitive = unop("population_count", is_int, hlo.popcnt, jvp=zero_jvp)


def clz(x: ArrayLike, /) -> Array:
    """Elementwise count of leading zeros."""
    return bind_one(clz_p, x)


clz_p: Primitive = unop("clz", is_int, hlo.count_leading_zeros, jvp=zero_jvp)


def bitwise_and(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise bitwise/logical AND."""
    return bind_one(and_p, x, y)


and_p: Primitive = binop(
    "and",
    is_int_or_bool,
    hlo.and_,
jvp=zero_jvp,
)


def bitwise_or(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise bitwise/logical OR."""
    return bind_one(or_p, x, y)


or_p: Primitive = binop(
    "or",
    is_int_or_bool,
    hlo.or_,
jvp=zero_jvp,
)


def bitwise_xor(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise bitwise/logical XOR."""
    return bind_one(xor_p, x, y)


xor_p: Primitive = binop(
    "xor",
    is_int_or_bool,
    hlo.xor,
jvp=zero_jvp,
)


def shift_left(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise left shift."""
    return bind_one(shift_left_p, x, y)


shift_left_p: Primitive = binop(
    "shift_left",
    is_int,
    hlo.shift_left,
jvp=zero_jvp,
)


def shift_right_arithmetic(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise arithmetic right shift."""
    return bind_one(shift_right_arithmetic_p, x, y)


shift_right_arithmetic_p: Primitive = binop(
    "shift_right_arithmetic",
    is_int,
    hlo.shift_right_arithmetic,
jvp=zero_jvp,
)


def shift_right_logical(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise logical right shift."""
    return bind_one(shift_right_logical_p, x, y)


shift_right_logical_p: Primitive = binop(
    "shift_right_logical",
    is_int,
    hlo.shift_right_logical,
jvp=zero_jvp,
)
