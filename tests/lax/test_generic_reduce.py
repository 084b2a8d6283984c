"""``lax.reduce``, JAX's generic reduction (``jax_core._src.lax.reductions.generic``), compared
with live JAX: the monoid computations with their identity dispatch to ``reduce_sum`` and
friends (the same jaxpr text and weak types), any other computation is one ``reduce`` equation
(the same text, values, result tree and errors), and its jvp, gradient and batching give JAX's
values. The rules are also checked numerically (``check_grads``) and against a loop (``vmap``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jax_core as jax
from jax_core import lax
from jax_core._src.config import enable_x64
from jax_core.test_util import check_grads
from tests.oracle.client import Call, assert_same, here, live_fixture, program_call

COVERED: frozenset[str] = frozenset({"reduce"})

PROGRAM = """
import numpy as np
x = jnp.arange(6.0).reshape(2, 3)
xi = jnp.arange(6).reshape(2, 3)
v = jnp.array([0.5, -2.0, 3.0, 0.25, 1.5])

def affine(a, b):
    return a + 2.0 * b

def times(a, b):
    return a * b

def pair(a, b):
    return (a[0] + b[0], a[1] * b[1])

def keyed(a, b):
    return {"s": lax.max(a["s"], b["s"]), "n": a["n"] + b["n"]}

def first_max(a, b):
    pick = a[0] >= b[0]
    return (lax.select(pick, a[0], b[0]), lax.select(pick, a[1], b[1]))

def text(f, *args):
    return str(jax.make_jaxpr(f)(*args))

def out_avals(f, *args):
    return str(jax.make_jaxpr(f)(*args).out_avals)

def structure(tree):
    return str(jax.tree_util.tree_structure(tree))
"""

# Each case: an expression over the names PROGRAM defines.
CASES: dict[str, str] = {
    # The monoid computations with their identity become the monoid primitives, as in JAX.
    "add": "text(lambda x: lax.reduce(x, 0.0, lax.add, (1,)), x)",
    "add_numpy_init": "text(lambda x: lax.reduce(x, np.float32(0), lax.add, (1,)), x)",
    "add_int_init": "text(lambda x: lax.reduce(x, 0, lax.add, (1,)), x)",
    "mul": "text(lambda x: lax.reduce(x, 1.0, lax.mul, (0,)), x)",
    "max": "text(lambda x: lax.reduce(x, -np.inf, lax.max, (0,)), x)",
    "min": "text(lambda x: lax.reduce(x, np.inf, lax.min, (0, 1)), x)",
    "max_int": "text(lambda x: lax.reduce(x, np.iinfo(np.int32).min, lax.max, (0,)), xi)",
    "max_bool": "text(lambda x: lax.reduce(x, False, lax.max, (0,)), xi > 2)",
    "and_bool": "text(lambda x: lax.reduce(x, True, lax.bitwise_and, (0,)), xi > 2)",
    "and_int": "text(lambda x: lax.reduce(x, -1, lax.bitwise_and, (0,)), xi)",
    "or": "text(lambda x: lax.reduce(x, 0, lax.bitwise_or, (0,)), xi)",
    "xor": "text(lambda x: lax.reduce(x, 0, lax.bitwise_xor, (0,)), xi)",
    "add_weak_operand": "out_avals(lambda s: lax.reduce(s * x, 0.0, lax.add, (0,)), 2.0)",
    "add_strong_init_weak_operand": "text(lambda s: lax.reduce(s + 0 * x, np.float32(0), lax.add, (0,)), 2.0)",
    "add_value": "lax.reduce(x, 0.0, lax.add, (1,))",
    # Anything else is one generic reduce equation (the computation prints with its address masked).
    "add_not_identity": "text(lambda x: lax.reduce(x, 1.0, lax.add, (1,)), x)",
    "generic": "text(lambda x: lax.reduce(x, 0.0, affine, (1,)), x)",
    "generic_traced_init": "text(lambda x, i: lax.reduce(x, i, lax.add, (1,)), x, 0.0)",
    "generic_pair": "text(lambda x, y: lax.reduce((x, y), (0.0, 1.0), pair, (0,)), x, x)",
    "generic_weak": "out_avals(lambda s: lax.reduce(s * x, 0.0, affine, (0,)), 2.0)",
    "generic_value": "lax.reduce(x, 0.0, affine, (1,))",
    "generic_jit_value": "jax.jit(lambda x: lax.reduce(x, 0.0, affine, (1,)))(x)",
    "generic_no_dims": "lax.reduce(x, 0.0, affine, ())",
    "generic_all_dims": "lax.reduce(x, 0.0, affine, (0, 1))",
    "pair_value": "lax.reduce((x, x), (0.0, 1.0), pair, (0,))",
    "keyed_value": "lax.reduce({'s': x, 'n': xi}, {'s': -np.inf, 'n': 0}, keyed, (1,))",
    "first_max_value": "lax.reduce((x, xi), (-np.inf, 0), first_max, (1,))",
    "result_tree": "structure(lax.reduce(x, 0.0, lambda a, b: (a + b,), (0,)))",
    "list_tree": "structure(lax.reduce([x], [0.0], lambda a, b: [a[0] + b[0]], (0,)))",
    # Errors, with JAX's messages.
    "err_tree": "lax.reduce((x, x), (0.0,), lax.add, (0,))",
    "err_tree_scalar": "lax.reduce((x, x), 0.0, lax.add, (0,))",
    "err_non_scalar_init": "lax.reduce(x, jnp.zeros(3), lax.add, (0,))",
    "err_non_scalar_init_generic": "lax.reduce(x, jnp.zeros(3), times, (0,))",
    "err_dtype_weak": "lax.reduce(x, 0, affine, (0,))",
    "err_dtype": "lax.reduce(x, np.int32(0), times, (0,))",
    "err_dims": "lax.reduce(x, 0.0, affine, (5,))",
    "err_dims_monoid": "lax.reduce(x, 0.0, lax.add, (5,))",
    "err_closure": "jax.make_jaxpr(lambda x, c: lax.reduce(x, 0.0, lambda a, b: a + c * b, (1,)))(x, 2.0)",
    "err_init_tangent": "jax.jvp(lambda x, i: lax.reduce(x, i, times, (1,)), (x, 0.0), (x, 1.0))",
    "err_batched_init": "jax.vmap(lambda x, i: lax.reduce(x, i, affine, (0,)))(x, jnp.zeros(2))",
    # Differentiation and batching.
    "grad": "jax.grad(lambda x: lax.reduce(x, 0.0, affine, (0, 1)))(x)",
    "grad_product": "jax.grad(lambda v: lax.reduce(v, 1.0, times, (0,)))(v)",
    "grad_max": "jax.grad(lambda v: lax.reduce(v, -np.inf, lambda a, b: lax.max(a, b), (0,)))(v)",
    "jvp": "jax.jvp(lambda x: lax.reduce(x, 0.0, lambda a, b: a * b + b, (1,)), (x,), (jnp.ones_like(x),))",
    "jvp_product_jaxpr": "text(lambda x, t: jax.jvp(lambda x: lax.reduce(x, 1.0, times, (1,)), (x,), (t,)), x, x)",
    "jvp_empty": "jax.jvp(lambda x: lax.reduce(x, 0.0, affine, (0,)), (jnp.zeros((0, 2)),), (jnp.zeros((0, 2)),))",
    "jvp_no_dims": "jax.jvp(lambda v: lax.reduce(v, 1.0, times, ()), (v,), (jnp.ones(5),))",
    "vmap": "jax.vmap(lambda x: lax.reduce(x, 0.0, affine, (0,)))(x)",
    "vmap_jaxpr": "text(jax.vmap(lambda x: lax.reduce(x, 0.0, affine, (0,)), in_axes=1), x)",
    # (JAX's jaxpr here prints a broadcast dimension as np.int64(1): values compared.)
    "vmap_unbatched_operand": "jax.vmap(lambda x, y: lax.reduce((x, y), (0.0, 1.0), pair, (0,)), in_axes=(1, None))(x, v[:2])",
}

# The lowering rejects what XLA's verifier rejects, as a ValueError; JAX's message adds MLIR locations.
CLASS_ONLY = {
    "err_empty", "err_result_count", "err_result_dtype", "err_negative_dim", "err_duplicate_dims", "err_shapes"
}
CASES.update(
    {
        "err_empty": "lax.reduce((), (), lambda a, b: a, (0,))",
        "err_result_count": "lax.reduce((x, x), (0.0, 0.0), lambda a, b: a[0], (0,))",
        "err_result_dtype": "lax.reduce(x, 0.0, lambda a, b: (a + b).astype(jnp.int32), (0,))",
        "err_negative_dim": "lax.reduce(x, 0.0, affine, (-1,))",
        "err_duplicate_dims": "lax.reduce(x, 0.0, affine, (0, 0))",
        "err_shapes": "lax.reduce((x, v), (0.0, 0.0), pair, (0,))",
    }
)


def _call(case: str) -> Call:
    return program_call(PROGRAM, CASES[case])


CALLS = [_call(c) for c in CASES]
live = live_fixture(CALLS)


@pytest.mark.parametrize("case", list(CASES))
def test_same_as_jax(case: str, live: dict[str, Any]) -> None:
    call = _call(case)
    assert_same(here(call), live[call.expr], case, messages=case not in CLASS_ONLY)


def _add(a: Any, b: Any) -> Any:
    return a + b  # lax's add, but not the function lax.add: a generic reduce


def _rand(shape: tuple[int, ...], seed: int = 0) -> np.ndarray[Any, Any]:
    return np.random.default_rng(seed).standard_normal(shape)


# The computations must be monoids: the jvp reduces in a tree, XLA in its own order.
@pytest.mark.parametrize("dims", [(0,), (1,), (0, 2), (0, 1, 2), ()])
def test_grads_numerically(dims: tuple[int, ...]) -> None:
    with enable_x64(True):
        x = _rand((3, 2, 5))
        check_grads(lambda v: lax.reduce(v, 0.0, _add, dims), (x,), 2, modes=("fwd", "rev"))
        check_grads(lambda v: lax.reduce(v, 1.0, lambda a, b: a * b, dims), (x,), 2, modes=("fwd", "rev"))
        check_grads(lambda v: lax.reduce(v, -np.inf, lambda a, b: lax.max(a, b), dims), (x,), 1, modes=("fwd", "rev"))


def test_pair_grads_numerically() -> None:
    with enable_x64(True):
        x, y = _rand((4, 3)), _rand((4, 3), 1)

        def f(a: Any, b: Any) -> Any:
            s, p = lax.reduce((a, b), (0.0, 1.0), lambda u, w: (u[0] + w[0], u[1] * w[1]), (0,))
            return s * p

        check_grads(f, (x, y), 2, modes=("fwd", "rev"))


@pytest.mark.parametrize("in_axis", [0, 1, 2])
def test_vmap_is_a_loop(in_axis: int) -> None:
    x = _rand((3, 4, 2)).astype(np.float32)

    def f(v: Any) -> Any:
        return lax.reduce(v, np.float32(0), _add, (1,))

    batched = np.asarray(jax.vmap(f, in_axes=in_axis)(x))
    looped = np.stack([np.asarray(f(np.take(x, i, axis=in_axis))) for i in range(x.shape[in_axis])])
    np.testing.assert_allclose(batched, looped, rtol=1e-6)
