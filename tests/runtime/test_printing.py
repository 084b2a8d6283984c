"""``Array`` ``repr``/``str`` as JAX's for every dtype and rank (issue 14, item 4), compared with
live JAX on this machine: bool, the integer widths (int4 too), float16/bfloat16/float8, float32,
complex64; 0-d, empty, 1-d to 4-d and summarised (over 1000 elements) shapes; weak types; NaN,
inf and wide-ranging floats; typed PRNG keys of each implementation and raw key data."""

from __future__ import annotations

import pytest

from tests.oracle.client import Outcome, assert_same, here, live_fixture, program_call

PROGRAM = """
import numpy as np

def sample(dt, shape):
    n = int(np.prod(shape))
    x = jnp.arange(n).reshape(shape)
    if dt == 'bool':
        return x % 2 == 0
    x = (x * 3 - 5).astype(dt)
    if dt in ('float32', 'float16', 'bfloat16', 'complex64') and n:
        x = x / 7
        if dt == 'complex64':
            x = x + 1j * x
    return x

def both(x):
    return repr(x) + '\\n' + str(x)
"""

DTYPES = ["bool", "int8", "int16", "int32", "uint8", "uint16", "uint32", "float16", "bfloat16", "float32", "complex64", "float8_e4m3fn", "int4"]
SHAPES = [(), (0,), (3,), (2, 3), (2, 0, 3), (1, 2, 2, 2), (12,), (1001,)]
CASES = [f"both(sample({dt!r}, {shape!r}))" for dt in DTYPES for shape in SHAPES] + [
    "both(jnp.asarray(1.0) + 0)",
    "both(jnp.asarray(2) * 3)",
    "both(jnp.zeros(3) * 1.5)",
    "both(jax.jit(lambda: 1.0)())",
    "both(jnp.asarray(1j))",
    "both(jnp.array([1e10, 1e-5, np.nan, np.inf, -np.inf]))",
    "both(jnp.array([[6e4, 1e-5], [np.nan, -np.inf]], dtype=jnp.float16))",
    "both(jnp.array([0.1, 123456.7, -3.0]))",
    "both(jax.random.key(0))",
    "both(jax.random.split(jax.random.key(0), 3))",
    "both(jax.random.split(jax.random.key(0), 0))",
    "both(jax.random.PRNGKey(1))",
    "both(jax.random.key(0, impl='rbg'))",
    "both(jax.random.key(5, impl='unsafe_rbg'))",
    "jnp.array_repr(jnp.arange(4.0).reshape(2, 2))",
    "jnp.array_str(jnp.arange(4.0).reshape(2, 2))",
]
CALLS = {case: program_call(PROGRAM, case) for case in CASES}
live = live_fixture(list(CALLS.values()))


@pytest.mark.parametrize("case", CASES)
def test_same_text_as_live_jax(case: str, live: dict[str, Outcome]) -> None:
    call = CALLS[case]
    assert_same(here(call), live[call.expr], case)
