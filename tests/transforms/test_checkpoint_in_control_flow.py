"""``checkpoint`` policies reach inside ``cond`` and ``scan`` (issue 14, item 5), compared with
live JAX: what reverse mode saves (each residual's type and kind: an argument, a named value, an
equation's output) and the gradients.

A ``cond`` or ``scan`` inside a checkpointed function splits its body with the policy: it saves
the values the policy allows (a ``checkpoint_name``d value, a dot's output), stacked per
iteration in a scan, and recomputes the rest, replaying the known loop from the saved initial
carry rather than saving every iteration's carry. A ``cond``'s residual that is one of its
operands is not returned by the known ``cond``: the staged one reads the operand (as JAX).
"""

from __future__ import annotations

import pytest

from tests.oracle.client import Outcome, assert_same, here, live_fixture, program_call

PROGRAM = """
import importlib
ad_checkpoint = importlib.import_module(jax.__name__ + '.ad_checkpoint')
checkpoint_name = ad_checkpoint.checkpoint_name
saved_residuals = getattr(ad_checkpoint, 'saved_residuals', None) or importlib.import_module('jax._src.ad_checkpoint').saved_residuals
P = jax.checkpoint_policies
POLICIES = {
    'nothing': P.nothing_saveable, 'names': P.save_only_these_names('a'), 'dots': P.checkpoint_dots,
    'not_b': P.save_any_names_but_these('b'), 'dots_no_batch': P.dots_with_no_batch_dims_saveable,
}

def inner(x):
    a = checkpoint_name(jnp.sin(x), 'a')
    b = checkpoint_name(jnp.cos(a) * x, 'b')
    return jnp.tanh(b) @ jnp.ones((3, 3)) @ x

def program(kind, policy):
    pol = POLICIES[policy]
    f = jax.checkpoint(inner, policy=pol)
    if kind == 'cond':
        return lambda x: lax.cond(x.sum() > 0, f, lambda x: f(x) * 2, x).sum()
    if kind == 'scan':
        return lambda x: lax.scan(lambda c, _: (f(c) * c, None), x, None, length=3)[0].sum()
    if kind == 'fori':
        return lambda x: lax.fori_loop(0, 3, lambda i, c: f(c) * c, x).sum()
    if kind == 'checkpointed_scan':
        body = lambda c, _: (inner(c) * c, None)
        return jax.checkpoint(lambda x: lax.scan(body, x, None, length=2)[0].sum(), policy=pol)
    if kind == 'checkpointed_cond':
        return jax.checkpoint(lambda x: lax.cond(x.sum() > 0, inner, lambda x: inner(x) * 2, x).sum(), policy=pol)
    raise ValueError(kind)

def kind_of(what):
    return what.split(' ')[0] if what.startswith(('from', 'named')) else 'output'

def residuals(kind, policy):
    x = jnp.arange(3.0) / 4
    return [f"{a.dtype.name}{list(a.shape)} {kind_of(w)}" for a, w in saved_residuals(program(kind, policy), x)]

def grad(kind, policy):
    return jax.grad(program(kind, policy))(jnp.arange(3.0) / 4)
"""

KINDS = ["cond", "scan", "fori", "checkpointed_scan", "checkpointed_cond"]
POLICIES = ["nothing", "names", "dots", "not_b", "dots_no_batch"]
CASES = [f"{fn}({k!r}, {p!r})" for fn in ("residuals", "grad") for k in KINDS for p in POLICIES]
CALLS = {case: program_call(PROGRAM, case) for case in CASES}
live = live_fixture(list(CALLS.values()))


@pytest.mark.parametrize("case", CASES)
def test_same_as_live_jax(case: str, live: dict[str, Outcome]) -> None:
    call = CALLS[case]
    ours, theirs = here(call), live[call.expr]
    if case.startswith("grad"):  # same float32 ops in the same order: equal on this machine
        assert_same(ours, theirs, case)
    else:
        assert ours.leaves is not None and theirs.leaves is not None, (ours.describe(), theirs.describe())
        assert [str(x) for x in ours.leaves] == [str(x) for x in theirs.leaves], case


def test_policy_saves_named_values_inside_a_scan() -> None:
    out = here(CALLS["residuals('checkpointed_scan', 'names')"])
    assert out.leaves is not None
    assert [str(x) for x in out.leaves] == ["float32[3] from", "float32[2, 3] output"]
    nothing = here(CALLS["residuals('checkpointed_scan', 'nothing')"])
    assert nothing.leaves is not None and [str(x) for x in nothing.leaves] == ["float32[3] from"]
