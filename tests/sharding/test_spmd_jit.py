"""``jit`` over 8 CPU devices (XLA's SPMD partitioner, Shardy), ``with_sharding_constraint`` and
``pmap``, compared case by case with real JAX run on the same machine: values, the shardings of
the results, and the exception class and message of bad input."""

from __future__ import annotations

from typing import Any

import pytest

from tests.sharding._programs import close, run_both

# with_sharding_constraint eagerly, under jit, grad (its transpose) and vmap (its batch rule).
COVERED = {"sharding_constraint"}

PROGRAM = """
x = np.arange(64, dtype=np.float32).reshape(8, 8)
xs = jax.device_put(x, NamedSharding(mesh, P("x", "y")))

@case
def sharded_input_propagates():
    y = jax.jit(lambda a: (a * 2).sum(0))(xs)
    return [val(y), sharding_of(y)]

@case
def uncommitted_joins_sharded():
    y = jax.jit(lambda a, b: a + b)(xs, np.ones((8, 8), np.float32))
    return [val(y), sharding_of(y), y.committed]

@case
def in_shardings_place_host_values():
    f = jax.jit(lambda a: a * 2, in_shardings=NamedSharding(mesh, P("x")))
    y = f(x)
    return [val(y), sharding_of(y), [sharding_of(s.data) for s in y.addressable_shards][:2]]

@case
def out_shardings_replicated():
    y = jax.jit(lambda a: a * 2, out_shardings=NamedSharding(mesh, P()))(np.ones(3, np.float32))
    return [val(y), sharding_of(y)]

@case
def out_shardings_prefix():
    f = jax.jit(lambda a: (a, {"b": a.T}), out_shardings=(NamedSharding(mesh, P("y")), {"b": NamedSharding(mesh, P(None, "x"))}))
    a, d = f(x)
    return [val(a), sharding_of(a), val(d["b"]), sharding_of(d["b"])]

@case
def matmul_shardings():
    w = jax.device_put(np.ones((8, 4), np.float32), NamedSharding(mesh, P("y", None)))
    y = jax.jit(lambda a, b: a @ b)(xs, w)
    return [val(y), sharding_of(y)]

@case
def compiled_shardings():
    c = jax.jit(lambda a, b: (a, b * 2), in_shardings=(NamedSharding(mesh, P("x")), None)).lower(
        np.ones(4, np.float32), np.ones(4, np.float32)).compile()
    ins, kw = c.input_shardings
    return [[str(s.spec) for s in ins], kw, [str(s.spec) for s in c.output_shardings]]

@case
def mismatched_committed_sharding():
    return val(jax.jit(lambda a: a * 2, in_shardings=NamedSharding(mesh, P("x")))(xs))

@case
def incompatible_devices():
    d1 = jax.device_put(np.ones((8, 8), np.float32), jax.devices()[1])
    return val(jax.jit(lambda a, b: a + b)(xs, d1))

@case
def unknown_axis():
    return val(jax.jit(lambda a: a, in_shardings=NamedSharding(mesh, P("z")))(np.ones(4)))

@case
def indivisible():
    return val(jax.jit(lambda a: a, in_shardings=NamedSharding(mesh, P("x")))(np.ones(3)))

@case
def in_shardings_wrong_length():
    return val(jax.jit(lambda a: a, in_shardings=(NamedSharding(mesh, P("x")), NamedSharding(mesh, P("x"))))(np.ones(4)))

@case
def constraint_in_jit():
    s = NamedSharding(mesh, P("x"))
    y = jax.jit(lambda a: lax.with_sharding_constraint(a * 2, s))(np.ones((8, 4), np.float32))
    return [val(y), sharding_of(y)]

@case
def constraint_eager():
    y = lax.with_sharding_constraint(np.arange(8.0, dtype=np.float32), NamedSharding(mesh, P("y")))
    return [val(y), sharding_of(y)]

@case
def constraint_grad():
    s = NamedSharding(mesh, P("x"))
    g = jax.jit(jax.grad(lambda a: (lax.with_sharding_constraint(a * 2, s) ** 2).sum()))(np.ones((8, 4), np.float32))
    return [val(g), sharding_of(g)]

@case
def constraint_vmap_jaxpr():
    s = NamedSharding(mesh, P("x"))
    j = jax.make_jaxpr(jax.vmap(lambda a: lax.with_sharding_constraint(a * 2, s), in_axes=1))(np.ones((8, 4), np.float32))
    return [str(e.params["sharding"].spec) + str(sorted(e.params["unconstrained_dims"])) for e in j.jaxpr.eqns if e.primitive.name == "sharding_constraint"]

@case
def constraint_indivisible():
    return val(lax.with_sharding_constraint(np.ones(3), NamedSharding(mesh, P("x"))))

@case
def device_put_in_jit():
    s = NamedSharding(mesh, P("x"))
    f = jax.jit(lambda a: jax.device_put(a * 2, s))
    y = f(np.ones((8, 4), np.float32))
    g = jax.grad(lambda a: jax.device_put(a * 2, s).sum())(np.ones((8, 4), np.float32))
    return [val(y), sharding_of(y), val(g)]

@case
def eager_ops_stay_sharded():
    y = xs + 1
    z = jnp.sin(xs).sum(0)
    return [val(y), sharding_of(y), val(z), sharding_of(z), sharding_of(xs @ xs.T), sharding_of(xs[0]), sharding_of(xs.T)]

@case
def data_parallel_mlp_step():
    # The data-parallel training step: the batch sharded over 8 devices, the parameters
    # replicated; the step must match the single-device step.
    mesh8 = jax.make_mesh((8,), ("i",), axis_types=(AxisType.Auto,))
    rng = np.random.RandomState(0)
    params = [(rng.randn(16, 32).astype(np.float32) * 0.1, np.zeros(32, np.float32)),
              (rng.randn(32, 4).astype(np.float32) * 0.1, np.zeros(4, np.float32))]
    xb = rng.randn(64, 16).astype(np.float32)
    yb = rng.randn(64, 4).astype(np.float32)

    def loss(p, x, y):
        (W1, b1), (W2, b2) = p
        return jnp.mean((jnp.tanh(x @ W1 + b1) @ W2 + b2 - y) ** 2)

    @jax.jit
    def step(p, x, y):
        l, g = jax.value_and_grad(loss)(p, x, y)
        return jax.tree_util.tree_map(lambda a, b: a - 0.1 * b, p, g), l

    batch = NamedSharding(mesh8, P("i"))
    p1, l1 = step(params, xb, yb)
    p2, l2 = step(params, jax.device_put(xb, batch), jax.device_put(yb, batch))
    leaves1, leaves2 = jax.tree_util.tree_leaves(p1), jax.tree_util.tree_leaves(p2)
    diff = max(float(np.max(np.abs(np.asarray(a) - np.asarray(b)))) for a, b in zip(leaves1, leaves2))
    return [diff < 1e-5, abs(float(l1) - float(l2)) < 1e-6, sharding_of(leaves2[0])["spec"], sharding_of(l2)["spec"]]

@case
def pmap_psum():
    y = jax.pmap(lambda a: lax.psum(a, "i") * a, axis_name="i")(np.arange(8.0, dtype=np.float32).reshape(4, 2))
    return [val(y), sharding_of(y)]

@case
def pmap_in_axes_none_and_static():
    y = jax.pmap(lambda a, b, s: a * s + b, in_axes=(0, None, None), static_broadcasted_argnums=2)(
        np.ones((2, 3), np.float32), np.arange(3.0, dtype=np.float32), 3.0)
    return [val(y), sharding_of(y)["devices"]]

@case
def pmap_axis_index_pmax():
    i, m = jax.pmap(lambda a: (lax.axis_index("i"), lax.pmax(a, "i")), axis_name="i")(np.arange(4.0, dtype=np.float32))
    return [val(i), val(m)]

@case
def pmap_devices():
    y = jax.pmap(lambda a: a * 2, devices=jax.devices()[2:4])(np.ones((2, 3), np.float32))
    return sorted(d.id for d in y.devices())

@case
def pmap_out_axes():
    y = jax.pmap(lambda a: a * 2, out_axes=1)(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    return val(y)

@case
def pmap_grad():
    f = jax.pmap(jax.grad(lambda a: lax.psum((a ** 2).sum(), "i")), axis_name="i")
    return val(f(np.arange(8.0, dtype=np.float32).reshape(4, 2)))
"""

CASES = [
    "sharded_input_propagates", "uncommitted_joins_sharded", "in_shardings_place_host_values",
    "out_shardings_replicated", "out_shardings_prefix", "matmul_shardings", "compiled_shardings",
    "mismatched_committed_sharding", "incompatible_devices", "unknown_axis", "indivisible",
    "in_shardings_wrong_length", "constraint_in_jit", "constraint_eager", "constraint_grad",
    "constraint_vmap_jaxpr", "constraint_indivisible", "device_put_in_jit", "eager_ops_stay_sharded", "data_parallel_mlp_step", "pmap_psum", "pmap_in_axes_none_and_static",
    "pmap_axis_index_pmax", "pmap_devices", "pmap_out_axes", "pmap_grad",
]  # fmt: skip

# Messages that differ from JAX's only in what follows the first sentence JAX appends (its
# source location), compared up to there.
PREFIX_ONLY = {"unknown_axis", "indivisible", "constraint_indivisible"}


@pytest.fixture(scope="module")
def results() -> tuple[dict[str, Any], dict[str, Any]]:
    return run_both(PROGRAM)


@pytest.mark.parametrize("name", CASES)
def test_case_matches_jax(name: str, results: tuple[dict[str, Any], dict[str, Any]]) -> None:
    ours, theirs = results[0][name], results[1][name]
    if "error" in theirs:
        assert ours.get("error") == theirs["error"], (ours, theirs)
        expected: str = theirs["message"]
        if name in PREFIX_ONLY:
            expected = expected.split(" This error occurs at source")[0].split("\n/tmp")[0].split("\n<string>")[0].rstrip()
            assert ours["message"].startswith(expected), (ours["message"], expected)
        else:
            assert ours["message"] == expected
    else:
        assert "ok" in ours, ours
        assert close(ours["ok"], theirs["ok"]), (ours["ok"], theirs["ok"])


def test_every_case_is_listed() -> None:
    assert PROGRAM.count("@case") == len(CASES)
