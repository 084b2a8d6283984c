"""``all_gather``, ``psum_scatter``, ``all_to_all``, ``pswapaxes``, ``ppermute``, ``pshuffle`` and
``pbroadcast`` under ``vmap(..., axis_name=...)``, against real JAX run live (one oracle batch).

Each case runs the same ``PROGRAM`` on both sides and evaluates an expression: the collective over
the vmapped axis, over the outer axis of two nested vmaps (the inner one batches it through), over
both, through ``jit``, ``jvp`` and ``grad``. Where JAX's own batching rules fail (a collective over
several vmapped axes, a partial permutation, ``pbroadcast`` of a batched value, the gradient of
``all_to_all``, some unbatched operands) JAX evaluates a reference expression built from what it
supports instead. A few cases run inside ``shard_map`` on a one-device mesh, for the lowering rules.
Values are moved data or sums of small integers, exact by construction, and are compared bit for
bit; derivatives within ``TOLERANCE``. Then ``make_jaxpr`` text, and errors with JAX's class and
message.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.axis_env import extend_axis_env, manual_axes
from jax_core._src.lax.parallel.gather import all_gather, all_gather_invariant_p, all_gather_p
from jax_core._src.lax.parallel.permute import pbroadcast, ppermute
from tests._live_cases import assert_close
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture, program_call

TOLERANCE = 1e-6
COVERED = frozenset({"all_gather", "all_gather_invariant", "reduce_scatter", "all_to_all", "ppermute", "pbroadcast"})

PROGRAM = r"""
import numpy as np

if hasattr(lax, "all_gather"):
    C = lax
else:  # jax_core before jax_core.lax exports them
    import types
    from jax_core._src.lax.parallel import gather as _gather, permute as _permute
    C = types.SimpleNamespace(
        **{n: getattr(_gather, n) for n in ("all_gather", "psum_scatter", "all_to_all", "pswapaxes")},
        **{n: getattr(_permute, n) for n in ("ppermute", "pshuffle", "pbroadcast")},
    )

def v(f, **kw):  # one vmapped axis, "i" (size 4 below)
    return jax.jit(jax.vmap(f, axis_name="i", **kw))

def ev(f, **kw):  # the same, eager: op by op
    return jax.vmap(f, axis_name="i", **kw)

def vv(f, inner=0, outer=0):  # "i" (size 2) outside "j" (size 3)
    return jax.jit(jax.vmap(jax.vmap(f, in_axes=inner, axis_name="j"), in_axes=outer, axis_name="i"))

A = np.arange(96, dtype=np.float32).reshape(4, 4, 6)
AI = np.arange(96, dtype=np.int32).reshape(4, 4, 6)
W = (np.arange(96, dtype=np.float32).reshape(4, 4, 6) % 7) - 3
B = np.arange(144, dtype=np.float32).reshape(2, 3, 6, 4)
BI = np.arange(144, dtype=np.int32).reshape(2, 3, 6, 4)

def gathered_ij(x):  # all_gather over ("i", "j") from one-axis gathers (what JAX's vmap supports)
    g = C.all_gather(C.all_gather(x, "j"), "i")
    return g.reshape((-1,) + g.shape[2:])

def ij():  # the row-major position along ("i", "j")
    return lax.axis_index("i") * 3 + lax.axis_index("j")

P = jax.sharding.PartitionSpec
MESH = jax.make_mesh((1,), ("x",))  # one device: shard_map runs the lowering rules

def on_mesh(f, out_specs=P("x")):
    return jax.jit(jax.shard_map(f, mesh=MESH, in_specs=P("x"), out_specs=out_specs))

AS = jax.device_put(A[0], jax.sharding.NamedSharding(MESH, P("x")))

def text_inside(f, *args):  # make_jaxpr of f traced inside vmap: the collectives print
    out = []
    def body(*a):
        out.append(str(jax.make_jaxpr(f)(*a)))
        return a[0]
    ev(body)(*args)
    return out[0]
"""

# name: (expression, JAX's reference expression or None for the same one)
EXACT: dict[str, tuple[str, str | None]] = {
    # One vmapped axis.
    "ag": ("v(lambda x: C.all_gather(x, 'i'))(A)", None),
    "ag_axis1": ("v(lambda x: C.all_gather(x, 'i', axis=1))(AI)", None),
    "ag_axis_neg": ("v(lambda x: C.all_gather(x, 'i', axis=-1))(A)", None),
    "ag_tiled": ("v(lambda x: C.all_gather(x, 'i', axis=1, tiled=True))(A)", None),
    "ag_name_tuple": ("v(lambda x: C.all_gather(x, ('i',), axis=0, tiled=True))(AI)", None),
    "ag_in_axes1": ("v(lambda x: C.all_gather(x, 'i', axis=1), in_axes=1)(A)", None),
    "ag_unbatched": ("v(lambda x: C.all_gather(jnp.float32(3.0), 'i') + x[0, 0])(A)", None),
    "ag_weak": ("v(lambda x: C.all_gather(3.0, 'i') + x[0, :4])(AI)", None),
    "ag_pytree": ("v(lambda x: C.all_gather({'a': x, 'b': x[0]}, 'i', axis=1))(AI)", None),
    "ag_to_reduced_outside_shard_map": ("v(lambda x: C.all_gather(x, 'i', to='reduced'))(A)", None),
    "ag_inner_jit": ("v(jax.jit(lambda x: C.all_gather(x, 'i', tiled=True)))(A)", None),
    "ps": ("v(lambda x: C.psum_scatter(x, 'i'))(AI)", None),
    "ps_tiled": ("v(lambda x: C.psum_scatter(x, 'i', tiled=True))(AI)", None),
    "ps_dim1": ("v(lambda x: C.psum_scatter(x.T, 'i', scatter_dimension=1))(AI)", None),
    "ps_unbatched": ("v(lambda x: C.psum_scatter(jnp.arange(8), 'i', tiled=True) + x[0, 0])(AI)", None),
    "a2a_same_axis": ("v(lambda x: C.all_to_all(x, 'i', 0, 0))(A)", None),
    "a2a_0_1": ("v(lambda x: C.all_to_all(x, 'i', 0, 1))(A)", None),
    "a2a_1_0": ("v(lambda x: C.all_to_all(x.T, 'i', 1, 0))(A)", None),
    "a2a_tiled": ("v(lambda x: C.all_to_all(x, 'i', 1, 0, tiled=True))(A[:, :, :4])", None),
    "a2a_in_axes2": ("v(lambda x: C.all_to_all(x, 'i', 0, 1), in_axes=2)(A[:, :, :4])", None),
    "pswapaxes": ("v(lambda x: C.pswapaxes(x, 'i', 0))(AI)", None),
    "pp_shift": ("v(lambda x: C.ppermute(x, 'i', [(k, (k + 1) % 4) for k in range(4)]))(A)", None),
    "pp_reverse": ("v(lambda x: C.ppermute(x, 'i', [(k, 3 - k) for k in range(4)]), in_axes=1)(AI)", None),
    "pp_jit_of_vmap": ("jax.jit(v(lambda x: C.ppermute(x, 'i', [(1, 0), (2, 1), (3, 2), (0, 3)])))(AI)", None),
    "pshuffle": ("v(lambda x: C.pshuffle(x, 'i', [2, 0, 3, 1]))(A)", None),
    "pp_partial": (
        "v(lambda x: C.ppermute(x, 'i', [(0, 1), (1, 3)]))(A)",
        "v(lambda x: jnp.where(jnp.isin(lax.axis_index('i'), jnp.array([1, 3])),"
        " C.all_gather(x, 'i')[jnp.array([0, 0, 0, 1])[lax.axis_index('i')]], 0))(A)",
    ),
    "pb": ("v(lambda x: C.pbroadcast(x, 'i', 2))(A)", "v(lambda x: C.all_gather(x, 'i')[2])(A)"),
    "pb_traced_source": ("v(lambda x: C.pbroadcast(x, 'i', jnp.int32(1)))(AI)", "v(lambda x: C.all_gather(x, 'i')[1])(AI)"),
    # Eager (op by op).
    "eager_ag": ("ev(lambda x: C.all_gather(x, 'i', axis=1, tiled=True))(A)", None),
    "eager_ps": ("ev(lambda x: C.psum_scatter(x, 'i', scatter_dimension=0))(AI)", None),
    "eager_a2a": ("ev(lambda x: C.all_to_all(x, 'i', 0, 1))(A)", None),
    "eager_pp": (
        "ev(lambda x: C.ppermute(x, 'i', [(0, 2), (2, 0)]))(A)",
        "ev(lambda x: jnp.where(lax.axis_index('i') % 2 == 0, C.all_gather(x, 'i')[2 - lax.axis_index('i')], 0))(A)",
    ),
    "eager_pb": ("ev(lambda x: C.pbroadcast(x, 'i', 3))(A)", "ev(lambda x: C.all_gather(x, 'i')[3])(A)"),
    "eager_both_axes": (
        "jax.vmap(jax.vmap(lambda x: C.all_gather(x, ('i', 'j')), axis_name='j'), axis_name='i')(B)",
        "jax.vmap(jax.vmap(gathered_ij, axis_name='j'), axis_name='i')(B)",
    ),
    # Nested vmaps, the collective over the outer axis: the inner vmap binds it again.
    "outer_ag": ("vv(lambda x: C.all_gather(x, 'i', axis=1))(B)", None),
    "outer_ag_in_axes1": ("vv(lambda x: C.all_gather(x, 'i', axis=1), inner=1)(B)", None),
    "outer_ag_tiled": ("vv(lambda x: C.all_gather(x, 'i', axis=0, tiled=True), inner=1)(B)", None),
    "outer_ps": ("vv(lambda x: C.psum_scatter(x[:2], 'i'))(BI)", None),
    "outer_ps_batch_after_scatter": (
        "vv(lambda x: C.psum_scatter(x[:, :2], 'i', scatter_dimension=1), inner=1)(jnp.swapaxes(BI, 1, 2))",
        "vv(lambda x: C.psum_scatter(x[:, :2], 'i', scatter_dimension=1))(BI)",
    ),
    "outer_a2a": ("vv(lambda x: C.all_to_all(x[:2], 'i', 0, 1))(B)", None),
    "outer_pp": ("vv(lambda x: C.ppermute(x, 'i', [(0, 1), (1, 0)]))(B)", None),
    "outer_pb": ("vv(lambda x: C.pbroadcast(x, 'i', 1))(B)", "vv(lambda x: C.all_gather(x, 'i')[1])(B)"),
    # Nested vmaps, the collective over both axes (positions row-major in the order named).
    "both_ag": ("vv(lambda x: C.all_gather(x, ('i', 'j'), axis=1))(B)", "vv(lambda x: jnp.moveaxis(gathered_ij(x), 0, 1))(B)"),
    "both_ag_inner_first_tiled": (
        "vv(lambda x: C.all_gather(x, ('j', 'i'), tiled=True))(B)",
        "vv(lambda x: jnp.concatenate(list(C.all_gather(C.all_gather(x, 'i'), 'j').reshape((6,) + x.shape)), 0))(B)",
    ),
    "both_ag_unbatched": (
        "vv(lambda x: C.all_gather(jnp.arange(2.0), ('i', 'j')) + x[0, 0])(B)",
        "vv(lambda x: gathered_ij(jnp.arange(2.0) + 0 * x[0, 0]) + x[0, 0])(B)",
    ),
    "both_ps": ("vv(lambda x: C.psum_scatter(x, ('i', 'j')))(BI)", "vv(lambda x: lax.psum(x, ('i', 'j'))[ij()])(BI)"),
    "both_ps_tiled": (
        "vv(lambda x: C.psum_scatter(x.T, ('i', 'j'), scatter_dimension=1, tiled=True))(BI)",
        "vv(lambda x: lax.psum(x.T, ('i', 'j'))[:, ij(), None])(BI)",
    ),
    "both_ps_unbatched": (
        "vv(lambda x: C.psum_scatter(jnp.arange(12), ('j', 'i'), tiled=True) + x[0, 0])(BI)",
        "vv(lambda x: (6 * jnp.arange(12)).reshape(6, 2)[lax.axis_index('j') * 2 + lax.axis_index('i')] + x[0, 0])(BI)",
    ),
    "both_a2a": ("vv(lambda x: C.all_to_all(x, ('i', 'j'), 0, 1, tiled=True))(B)", None),
    "both_a2a_inner_first": ("vv(lambda x: C.all_to_all(x, ('j', 'i'), 0, 0, tiled=True))(B)", None),
    "both_a2a_unbatched": (
        "vv(lambda x: C.all_to_all(jnp.arange(12.0).reshape(6, 2), ('i', 'j'), 0, 1) + x[:2, :1])(B)",
        "vv(lambda x: C.all_to_all(jnp.arange(12.0).reshape(6, 2) + 0 * x[0, 0], ('i', 'j'), 0, 1) + x[:2, :1])(B)",
    ),
    "both_pp": (
        "vv(lambda x: C.ppermute(x, ('i', 'j'), [(0, 5), (5, 1), (1, 0), (2, 4)]))(B)",
        "vv(lambda x: jnp.where(jnp.isin(ij(), jnp.array([5, 1, 0, 4])), gathered_ij(x)[jnp.array([1, 5, 0, 0, 2, 0])[ij()]], 0))(B)",
    ),
    "both_pp_unbatched": (
        "vv(lambda x: C.ppermute(jnp.float32(1.0), ('i', 'j'), [(0, 1)]) + x[0, 0])(B)",
        "vv(lambda x: jnp.where(ij() == 1, 1.0, 0.0) + x[0, 0])(B)",
    ),
    "both_pb": ("vv(lambda x: C.pbroadcast(x, ('i', 'j'), 4))(B)", "vv(lambda x: gathered_ij(x)[4])(B)"),
}

# Inside shard_map on a one-device mesh: the lowering rules (a collective among one device).
EXACT.update({
    "mesh_ag": ("on_mesh(lambda b: C.all_gather(b, 'x', axis=1))(AS)", None),
    "mesh_ag_invariant": ("on_mesh(lambda b: C.all_gather(b, 'x', tiled=True, to='invarying'), P())(AS)", None),
    "mesh_ps": ("on_mesh(lambda b: C.psum_scatter(b, 'x', scatter_dimension=1, tiled=True))(AS)", None),
    "mesh_a2a": ("on_mesh(lambda b: C.all_to_all(b, 'x', 0, 1, tiled=True))(AS)", None),
    "mesh_pp": ("on_mesh(lambda b: C.ppermute(b, 'x', [(0, 0)]))(AS)", None),
    "mesh_pp_nothing_received": ("on_mesh(lambda b: C.ppermute(b, 'x', []))(AS)", None),
    "mesh_pb": ("on_mesh(lambda b: C.pbroadcast(b, 'x', 0))(AS)", "on_mesh(lambda b: b)(AS)"),  # JAX: no CPU lowering
})

CLOSE: dict[str, tuple[str, str | None]] = {
    "mesh_grad_ag_invariant": (
        "jax.jit(jax.grad(lambda a: (on_mesh(lambda b: C.all_gather(b, 'x', tiled=True, to='invarying'), P())(a) * W[0]).sum()))(AS)",
        None,
    ),
    "mesh_grad_ag": ("jax.jit(jax.grad(lambda a: (on_mesh(lambda b: C.all_gather(b, 'x', axis=1))(a) ** 2).sum()))(AS)", None),
    "jvp_ag": ("jax.jvp(v(lambda x: C.all_gather(x, 'i', axis=1, tiled=True)), (A,), (W,))", None),
    "jvp_a2a": ("jax.jvp(v(lambda x: C.all_to_all(x, 'i', 0, 1)), (A,), (W,))", None),
    "jvp_pp": ("jax.jvp(v(lambda x: C.ppermute(x, 'i', [(0, 1), (1, 2), (2, 3), (3, 0)])), (A,), (W,))", None),
    "grad_ag": ("jax.grad(lambda a: (v(lambda x: C.all_gather(x, 'i', axis=1))(a) ** 2).sum())(A)", None),
    "grad_inside_ag_tiled": (
        "v(jax.grad(lambda x: (C.all_gather(x, 'i', axis=1, tiled=True) * jnp.arange(96.0).reshape(4, 24)).sum()))(A)",
        None,
    ),
    "grad_ps": ("jax.grad(lambda a: (v(lambda x: C.psum_scatter(x, 'i'))(a) ** 2).sum())(A)", None),
    "grad_inside_ps_tiled": ("v(jax.grad(lambda x: (C.psum_scatter(x, 'i', tiled=True) ** 2).sum()))(A)", None),
    "grad_inside_a2a": (
        "v(jax.grad(lambda x: (C.all_to_all(x, 'i', 0, 1) * jnp.arange(24.0).reshape(6, 4)).sum()))(A)",
        "v(lambda x: C.all_to_all(0.0 * x.T + jnp.arange(24.0).reshape(6, 4), 'i', 1, 0))(A)",
    ),
    "grad_inside_pp": ("v(jax.grad(lambda x: (C.ppermute(x, 'i', [(0, 1), (1, 2), (2, 3), (3, 0)]) * x).sum()))(A)", None),
    "grad_inside_pb": (
        "v(jax.grad(lambda x: (C.pbroadcast(x, 'i', 1) * x).sum()))(A)",
        "v(lambda x: C.all_gather(x, 'i')[1] + jnp.where(lax.axis_index('i') == 1, lax.psum(x, 'i'), 0))(A)",
    ),
    "grad_both_ag": (
        "jax.grad(lambda b: (vv(lambda x: C.all_gather(x, ('i', 'j'), axis=1))(b) * jnp.arange(4.0)).sum())(B)",
        "jax.grad(lambda b: (vv(lambda x: jnp.moveaxis(gathered_ij(x), 0, 1))(b) * jnp.arange(4.0)).sum())(B)",
    ),
    "grad_outer_ps": ("jax.grad(lambda b: (vv(lambda x: C.psum_scatter(x[:2], 'i'))(b) ** 2).sum())(B)", None),
}

ALL_COLLECTIVES = (
    "C.all_gather(y, 'i', axis=1, tiled=True), C.psum_scatter(y, 'i', tiled=True), C.all_to_all(y, 'i', 0, 1),"
    " C.ppermute(y, 'i', [(0, 1), (1, 0)]), C.pbroadcast(y, 'i', 1), C.pshuffle(y, 'i', [1, 0]),"
    " C.all_gather(y, ('i',)), C.pswapaxes(y, 'i', 0), C.all_gather(y, 'i', axis_index_groups=[[0, 1]]),"
    " C.all_to_all(y, 'i', 1, 1, tiled=True), C.psum_scatter(y, 'i', scatter_dimension=1, tiled=True)"
)
JAXPRS: dict[str, str] = {
    "inside_vmap": f"text_inside(lambda y: ({ALL_COLLECTIVES}), np.ones((2, 2, 4), np.float32))",
    "batched_ag": "str(jax.make_jaxpr(ev(lambda x: C.all_gather(x, 'i', axis=1, tiled=True), out_axes=None))(A))",
    "batched_ps": "str(jax.make_jaxpr(ev(lambda x: C.psum_scatter(x, 'i', tiled=True)))(A))",
    "batched_a2a_same_axis": "str(jax.make_jaxpr(ev(lambda x: C.all_to_all(x, 'i', 0, 0)))(A))",
    "batched_a2a": "str(jax.make_jaxpr(ev(lambda x: C.all_to_all(x, 'i', 0, 1)))(A))",
    "grad_ag": "str(jax.make_jaxpr(ev(jax.grad(lambda x: (C.all_gather(x, 'i', axis=1, tiled=True) ** 2).sum())))(A))",
    "outer_ag": (
        "str(jax.make_jaxpr(jax.vmap(jax.vmap(lambda x: C.all_gather(x, 'i', axis=1), in_axes=1, axis_name='j'),"
        " axis_name='i', out_axes=None))(B))"
    ),
}

ERRORS: dict[str, str] = {
    "unbound_ag": "v(lambda x: C.all_gather(x, 'j'))(A)",
    "unbound_ps": "v(lambda x: C.psum_scatter(x, 'j'))(A)",
    "unbound_a2a": "v(lambda x: C.all_to_all(x, 'j', 0, 0))(A)",
    "unbound_pp": "v(lambda x: C.ppermute(x, 'j', [(0, 1)]))(A)",
    "unbound_pb": "v(lambda x: C.pbroadcast(x, 'j', 0))(A)",
    "unbound_ag_groups": "v(lambda x: C.all_gather(x, 'j', axis_index_groups=[[0, 1]]))(A)",
    "perm_not_a_list": "v(lambda x: C.ppermute(x, 'i', 3))(A)",
    "pshuffle_not_a_permutation": "v(lambda x: C.pshuffle(x, 'i', [1, 1, 0, 2]))(A)",
    "pb_source_out_of_range": "v(lambda x: C.pbroadcast(x, 'i', 4))(A)",
    "ag_bad_axis": "v(lambda x: C.all_gather(x, 'i', axis=3))(A)",
    "ag_bad_axis_tiled": "v(lambda x: C.all_gather(x, 'i', axis=2, tiled=True))(A)",
    "ag_float_axis": "v(lambda x: C.all_gather(x, 'i', axis=1.5))(A)",
    "ps_bad_dimension": "v(lambda x: C.psum_scatter(x, 'i', scatter_dimension=5))(A)",
    "a2a_bad_split_axis": "v(lambda x: C.all_to_all(x, 'i', 5, 0))(A)",
    "a2a_split_size": "v(lambda x: C.all_to_all(x, 'i', 1, 0))(A)",
    "a2a_tiled_split_size": "v(lambda x: C.all_to_all(x, 'i', 1, 0, tiled=True))(A[:, :, :3])",
    "ag_groups_under_vmap": "v(lambda x: C.all_gather(x, 'i', axis_index_groups=[[0, 1], [2, 3]]))(A)",
    "ps_groups_under_vmap": "v(lambda x: C.psum_scatter(x, 'i', axis_index_groups=[[0, 1], [2, 3]]))(A[:, :2])",
    "a2a_groups_under_vmap": "v(lambda x: C.all_to_all(x, 'i', 0, 0, axis_index_groups=[[0, 1], [2, 3]]))(A[:, :2])",
    "groups_not_covering": "v(lambda x: C.all_gather(x, 'i', axis_index_groups=[[0, 1], [1, 3]]))(A)",
}

# JAX prints a set here, whose order varies from process to process: the class and the text before it.
BAD_TO = "v(lambda x: C.all_gather(x, 'i', to='foo'))(A)"


def _call(expr: str) -> Call:
    return program_call(PROGRAM, expr)


def _theirs(cases: dict[str, tuple[str, str | None]]) -> list[Call]:
    return [_call(ref if ref is not None else expr) for expr, ref in cases.values()]


CALLS = [*_theirs(EXACT), *_theirs(CLOSE), *map(_call, JAXPRS.values()), *map(_call, ERRORS.values()), _call(BAD_TO)]
live = live_fixture(CALLS)


def _live(cases: dict[str, tuple[str, str | None]], name: str, live: dict[str, Outcome]) -> tuple[Outcome, Outcome]:
    expr, ref = cases[name]
    return here(_call(expr)), live[_call(ref if ref is not None else expr).expr]


@pytest.mark.parametrize("name", list(EXACT))
def test_values_bit_identical(name: str, live: dict[str, Outcome]) -> None:
    ours, theirs = _live(EXACT, name, live)
    assert_same(ours, theirs, name)


@pytest.mark.parametrize("name", list(CLOSE))
def test_derivatives_close(name: str, live: dict[str, Outcome]) -> None:
    ours, theirs = _live(CLOSE, name, live)
    assert_close(ours, theirs, TOLERANCE)


@pytest.mark.parametrize("name", list(JAXPRS))
def test_jaxpr_text(name: str, live: dict[str, Outcome]) -> None:
    call = _call(JAXPRS[name])
    assert_same(here(call), live[call.expr], name)


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors(name: str, live: dict[str, Outcome]) -> None:
    call = _call(ERRORS[name])
    assert_same(here(call), live[call.expr], name, messages=True)


def test_bad_to_error(live: dict[str, Outcome]) -> None:
    call = _call(BAD_TO)
    ours, theirs = here(call), live[call.expr]
    head = re.compile(r"^(.*are: )\{'(varying|reduced|invarying)', '(varying|reduced|invarying)', '(varying|reduced|invarying)'\}$")
    ours_match, theirs_match = head.match(ours.message or ""), head.match(theirs.message or "")
    assert ours.error == theirs.error == "ValueError"
    assert ours_match is not None and theirs_match is not None, (ours.message, theirs.message)
    assert ours_match.group(1) == theirs_match.group(1)
    assert {ours_match.group(i) for i in (2, 3, 4)} == {"varying", "reduced", "invarying"}


# -- Checks without an oracle counterpart ------------------------------------------------------
def test_repeated_perm_entries_raise_jax_lowering_error() -> None:
    """JAX's vmap rule ignores repeats (its result is then wrong); jax_core raises the error JAX's
    shard_map lowering raises, under vmap as well."""
    import jax_core as jax

    def f(x: Any) -> Any:
        return ppermute(x, "i", [(0, 1), (0, 1)])

    with pytest.raises(ValueError, match=re.escape("ppermute sources and destinations must be unique, got ((0, 1), (0, 1)).")):
        jax.vmap(f, axis_name="i")(np.arange(4.0))


def test_traced_pbroadcast_source_must_be_an_int32_scalar() -> None:
    import jax_core as jax
    import jax_core.numpy as jnp

    def from_source(source: Any) -> Any:
        def f(y: Any) -> Any:
            return pbroadcast(y, "i", source)

        return jax.vmap(f, axis_name="i")(np.arange(4.0))

    with pytest.raises(TypeError, match="pbroadcast dynamic source must be an i32 array, got float32"):
        from_source(jnp.float32(1))
    with pytest.raises(ValueError, match=re.escape("pbroadcast dynamic source must be a scalar, got shape (2,)")):
        from_source(jnp.zeros(2, jnp.int32))


def test_vma_rules_inside_checked_mesh_axes() -> None:
    """Inside shard_map with check_vma: all_gather keeps its operand's variance (which must include
    the axis), all_gather(to='invarying') drops the axis."""
    f32 = np.dtype(np.float32)
    params = {"all_gather_dimension": 0, "axes": ("x",), "axis_size": 2, "tiled": False}
    varying = ShapedArray((3,), f32, vma=frozenset({"x", "y"}))
    with extend_axis_env("x", 2), extend_axis_env("y", 2), manual_axes(frozenset({"x", "y"})):
        (out,) = all_gather_p.abstract_eval(varying, axis_index_groups=None, **params)
        assert (out.shape, out.vma) == ((2, 3), frozenset({"x", "y"}))
        (inv,) = all_gather_invariant_p.abstract_eval(varying, **params)
        assert (inv.shape, inv.vma) == ((2, 3), frozenset({"y"}))
        with pytest.raises(ValueError, match="Collective all_gather must be applied to a device-varying"):
            all_gather_p.abstract_eval(ShapedArray((3,), f32, vma=frozenset({"y"})), axis_index_groups=None, **params)
    with extend_axis_env("x", 2):  # outside shard_map nothing varies
        (plain,) = all_gather_p.abstract_eval(ShapedArray((3,), f32), axis_index_groups=None, **params)
        assert plain.vma == frozenset()


def test_all_gather_of_no_axes_is_the_identity() -> None:
    x = np.arange(3.0)
    assert all_gather(x, ()) is x
