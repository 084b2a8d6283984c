"""Which constants a staged jaxpr writes inline, compared with live JAX.

As JAX's ``core.is_literalable`` decides: Python scalars, NumPy scalars and 0-d NumPy arrays are
literals (weakly typed for Python scalars), also as outputs (``{ lambda ; . let  in (1.0:f32[],) }``,
and ``jit`` returns them weakly typed); device arrays, even 0-d ones, are constant variables.
Staging folds ``convert_element_type`` of a literal into a literal and forwards conversions and
broadcasts that change nothing (JAX's ``const_fold_rules`` and ``forwarding_rules``), so
``jnp.asarray(2.0)`` and the zero padding value of ``pad``'s jvp are literals, and ``grad``'s seed
is one under a trace. ``switch`` clamps its index with one ``clamp``, and branches returning
constants take no operands. Zero tangents and cotangents keep the weak type.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.oracle.client import Call, assert_same, here, live_fixture, program_call

PROGRAM = """
import numpy as np
c0 = jnp.float32(2.0) + 0
c1 = jnp.ones(3)
n1 = np.ones(2, np.float32)

def text(f, *args):
    return str(jax.make_jaxpr(f)(*args))
"""

CASES: dict[str, str] = {
    "python_float": "text(lambda: 1.0)",
    "python_int": "text(lambda: 1)",
    "python_bool": "text(lambda: True)",
    "python_complex": "text(lambda: 1j)",
    "numpy_scalar": "text(lambda: np.float32(1.0))",
    "numpy_0d": "text(lambda: np.array(1.0, np.float32))",
    "numpy_int64_canonical": "text(lambda: np.array(2, np.int64))",
    "numpy_scalar_operand": "text(lambda x: x + np.int64(2), 1)",
    "mixed_outputs": "text(lambda x: (x, 2.0, 3), 1.0)",
    "output_weak_type": "str(jax.make_jaxpr(lambda: 1.0)().out_avals)",
    "jit_literal_weak": "repr(jax.jit(lambda: 1.0)())",
    "jit_literal_outputs": "repr(jax.jit(lambda x: (x, 2))(1.0))",
    "device_scalar_is_constvar": "text(lambda x: x * c0, 1.0)",
    "device_scalar_output": "text(lambda: c0)",
    "numpy_array_is_constvar": "text(lambda x: x + n1, 1.0)",
    "device_array_is_constvar": "text(lambda x: x + c1, 1.0)",
    "switch_clamps": "text(lambda i: lax.switch(i, [lambda: 1.0, lambda: 2.0]), 0)",
    "switch_value": "lax.switch(7, [lambda: 1.0, lambda: 2.0, lambda: 3.0])",
    "cond_constant_branches": "text(lambda p: lax.cond(p, lambda: 1.0, lambda: 2.0), True)",
    "cond_literal_in_branch": "text(lambda p, x: lax.cond(p, lambda x: x + 1.0, lambda x: 2.0 * x, x), True, 1.0)",
    "while_constant_body": "text(lambda x: lax.while_loop(lambda c: c < 3.0, lambda c: 1.0, x), 0.0)",
    "jit_literal_output": "text(lambda x: jax.jit(lambda y: (y, 1.0))(x), 1.0)",
    "vmap_constant": "text(jax.vmap(lambda x: 2.0), jnp.ones(3))",
    "vmap_constant_value": "repr(jax.vmap(lambda x: 2.0)(jnp.ones(3)))",
    "asarray_folds": "text(lambda x: x + jnp.asarray(2.0), 1.0)",
    "scalar_type_folds": "text(lambda x: x * jnp.float32(2.0) + jnp.int8(1), 1.0)",
    "numpy_asarray_staged": "text(lambda x: x + jnp.asarray(np.float32(2)) + jnp.array([1.0, 2.0]), 1.0)",
    "numpy_asarray_not_concrete": "jax.jit(lambda x: int(jnp.asarray(np.int32(3))) + x)(1)",
    "module_name_lambda": "jax.jit(lambda x: x).lower(1.0).as_text().splitlines()[0]",
    "module_name_symbols": "jax.jit(jax.grad(lambda x: x)).lower(1.0).as_text().splitlines()[0]",
    "convert_folds": "text(lambda: lax.convert_element_type(2, jnp.float32))",
    "convert_same_forwards": "text(lambda x: lax.convert_element_type(x, jnp.float32), jnp.float32(1.0))",
    "convert_traced": "text(lambda x: x.astype(jnp.int32), 1.0)",
    "broadcast_same_forwards": "text(lambda x: lax.broadcast_in_dim(x, (3,), (0,)), jnp.ones(3))",
    "broadcast_literal": "text(lambda: lax.broadcast_in_dim(2.0, (2,), ()))",
    "pad_jvp_literal": "text(lambda x, t: jax.jvp(lambda x: lax.pad(x, 0.0, [(0, 1, 0)]), (x,), (t,)), jnp.ones(2), jnp.ones(2))",
    "grad_seed_literal": "text(jax.grad(lambda x: 2.0 * x), 1.0)",
    "grad_unused_argument": "text(jax.grad(lambda x, y: x * 2.0, argnums=(0, 1)), 1.0, 2.0)",
    "linearize": "text(jax.linearize(lambda x: x * 2.0, 1.0)[1], 1.0)",
    "jvp_constant_output": "text(lambda x, t: jax.jvp(lambda x: (x, 3.0), (x,), (t,)), 1.0, 1.0)",
    "zero_tangent_weak": "repr(jax.jvp(lambda x: (x, 3.0, jnp.float32(2)), (1.0,), (1.0,)))",
    "zero_cotangent_weak": "repr(jax.grad(lambda x, y: x * 2.0, argnums=(0, 1))(1.0, 2.0))",
    "zero_cotangent_strong": "repr(jax.grad(lambda x, y: x * 2.0, argnums=(0, 1))(1.0, jnp.float32(2.0)))",
    "vjp_zero_weak": "repr(jax.vjp(lambda x, y: x * 2.0, 1.0, 2.0)[1](1.0))",
}


def _call(case: str) -> Call:
    return program_call(PROGRAM, CASES[case])


CALLS = [_call(c) for c in CASES]
live = live_fixture(CALLS)


@pytest.mark.parametrize("case", list(CASES))
def test_same_as_jax(case: str, live: dict[str, Any]) -> None:
    call = _call(case)
    assert_same(here(call), live[call.expr], case, messages=True)
