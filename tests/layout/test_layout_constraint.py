"""``with_layout_constraint`` (``layout_constraint_p``): compared case by case with real JAX 0.12
run on the same machine (jaxprs, the ``LayoutConstraint`` custom call in the StableHLO, values
under ``jit``/``grad``/``vmap``, eager relayouts, the layouts of the results, and the exception
class and message of bad input), plus in-process checks of what is exact by construction."""

from __future__ import annotations

import itertools
import re
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core._src.lax.layout_ops import out_layouts_via_propagation, with_layout_constraint
from jax_core._src.layout.formats import Format, Layout
from tests.sharding._programs import close, run_both, run_json_program

COVERED: frozenset[str] = frozenset({"layout_constraint"})

PROGRAM = r"""
import itertools, re
if sys.argv[1] == "jax_core":
    from jax_core._src.layout.formats import Layout, Format
    from jax_core._src.lax.layout_ops import with_layout_constraint
else:
    from jax.experimental.layout import Layout, Format, with_layout_constraint
wlc = with_layout_constraint
x2 = jnp.arange(6.0).reshape(2, 3) / 3
x3 = jnp.arange(24.0).reshape(2, 3, 4) / 7
w3 = jnp.cos(jnp.arange(24.0)).reshape(2, 3, 4)
PERMS = [p for r in (2, 3) for p in itertools.permutations(range(r))]
X = {2: x2, 3: x3}

def err(thunk):
    try:
        thunk()
    except Exception as e:  # class paths differ (jax._src.layout.Format): keep the class names
        return [type(e).__name__, re.sub(r"<class '(?:[\w]+\.)*(\w+)'>", r"<class '\1'>", str(e))]
    return "no error"

def m2m(a):
    return list(a.format.layout.major_to_minor)

def calls(f, *args):  # the LayoutConstraint lines of the StableHLO, SSA names dropped
    text = jax.jit(f).lower(*args).as_text()
    return [re.sub(r"%[\w#]+", "%", l.strip()) for l in text.splitlines() if "LayoutConstraint" in l]

@case
def not_layouts():
    bad = [Layout.AUTO, None, Format(None), 3, (Layout((0, 1)), Layout.AUTO)]
    return [err(lambda: wlc(x2, b)) for b in bad[:4]] + [err(lambda: wlc((x2, x2), bad[4]))]

@case
def wrong_rank():
    return [err(lambda: wlc(x2, Layout((0,)))), err(lambda: wlc({"a": x2, "b": [x3]}, {"a": Layout((1, 0)), "b": Layout((0, 1))})),
            err(lambda: jax.jit(lambda x: wlc(x, Layout((0, 1, 2))))(x2))]

@case
def not_a_prefix():
    return [err(lambda: wlc((x2, x2), (Layout((0, 1)),) * 3)),
            err(lambda: wlc([x2, {"a": x2}], [Layout((0, 1)), {"b": Layout((0, 1))}]))]

@case
def not_an_array():
    return [err(lambda: wlc(np.ones((2, 3)), Layout((1, 0))))[1].split(" Got")[0],
            err(lambda: wlc(3.0, Layout(())))[1].split(" Got")[0]]

@case
def not_a_permutation_under_jit():
    return err(lambda: jax.jit(lambda x: wlc(x, Layout((1, 0, 0))))(x3))[0]

@case
def jaxprs():
    L2, L3 = Layout((1, 0)), Layout((2, 0, 1))
    fs = [
        (lambda x: wlc(x * 2, L3) + 1, x3),
        (jax.grad(lambda x: (wlc(jnp.sin(x), L3) * w3).sum()), x3),
        (lambda x: jax.jvp(lambda x: wlc(x, L3), (x,), (x,)), x3),
        (jax.linear_transpose(lambda x: wlc(x, L3), x3), x3),
        (jax.vmap(lambda x: wlc(x, L2)), x3),
        (jax.vmap(lambda x: wlc(x, L2), in_axes=1), x3),
        (jax.vmap(lambda x: wlc(x, L2), in_axes=2), x3),
        (lambda: wlc(3.0, Layout(())), None),
        (lambda x: wlc({"a": x, "b": [x, x]}, {"a": L3, "b": Layout((0, 1, 2), tiling=((2,),))}), x3),
    ]
    return [str(jax.make_jaxpr(f)(*(() if a is None else (a,)))) for f, a in fs]

@case
def stablehlo():
    out = [calls(lambda x: wlc(x * 2, Layout(p)) + 1, X[len(p)]) for p in PERMS]
    out.append(calls(lambda x: wlc(x, Layout((1, 0, 2), tiling=((2,), (1, 3)))) * 2, x3))
    out.append(calls(lambda x: wlc(x, Layout((1, 0, 2), tiling=())) * 2, x3))
    out.append(calls(lambda: wlc(3.0, Layout(())) * 2))
    return out

@case
def jit_values():
    out = []
    for p in PERMS:
        x = X[len(p)]
        out.append(val(jax.jit(lambda x: jnp.sin(wlc(x * 2, Layout(p))) + 1)(x)))
        out.append(val(jax.jit(lambda x: wlc(x * 2, Layout(p)))(x)))
    return out

@case
def integer_and_bool():
    xi = jnp.arange(12, dtype=jnp.int32).reshape(3, 4)
    yi = wlc(xi, Layout((1, 0)))
    return [val(yi), m2m(yi), val(jax.jit(lambda x: wlc(x, Layout((1, 0))) * 2)(xi)),
            val(jax.jit(lambda x: wlc(x > 4, Layout((1, 0))))(xi))]

@case
def eager():
    out = []
    for p in PERMS:
        y = wlc(X[len(p)], Layout(p))
        back = wlc(y, Layout(tuple(range(len(p)))))
        out.append([m2m(y), val(y), m2m(back), val(back), val(y * 2)])
    return out

@case
def eager_same_layout_is_the_input():
    y = wlc(x2, Layout((1, 0)))
    return [wlc(x2, x2.format.layout) is x2, y is x2, wlc(y, y.format.layout) is y]

@case
def eager_pytree():
    r = wlc({"a": x3, "b": [x3, x2]}, {"a": Layout((2, 1, 0)), "b": [Layout((1, 0, 2)), Layout((1, 0))]})
    return [jax.tree.map(m2m, r), jax.tree.map(val, r)]

@case
def sharded():
    xs = jax.device_put(jnp.arange(64.0).reshape(8, 8) / 3, NamedSharding(mesh, P("x", "y")))
    y = wlc(xs, Layout((1, 0)))
    z = jax.jit(lambda x: jnp.sin(wlc(x * 2, Layout((1, 0)))) + 1)(xs)
    return [m2m(y), sharding_of(y), val(y), val(y + 1), sharding_of(z), val(z)]

@case
def grads():
    L = Layout((2, 0, 1))
    f = lambda x: (wlc(jnp.sin(x) * x, L) * w3).sum()
    t, = jax.linear_transpose(lambda x: wlc(x, L), x3)(w3)
    return [val(jax.grad(f)(x3)), val(jax.jit(jax.grad(f))(x3)), val(t),
            val(jax.jvp(lambda x: wlc(jnp.sin(x), L), (x3,), (w3,))[1]),
            val(jax.jit(lambda x: jax.jvp(lambda x: wlc(jnp.sin(x), L), (x,), (w3,))[1])(x3))]

@case
def vmaps():
    f = lambda x, y: (wlc(jnp.sin(x), Layout((1, 0))), wlc(y * 2, Layout((0,))))
    out = []
    for d in (0, 1, 2):
        out.append(jax.tree.map(val, jax.vmap(f, in_axes=(d, None))(x3, x2[0])))
        out.append(jax.tree.map(val, jax.jit(jax.vmap(f, in_axes=(d, None)))(x3, x2[0])))
    out.append(val(jax.vmap(jax.grad(lambda x: (wlc(x * x, Layout((1, 0))) * w3[0]).sum()))(x3)))
    return out

@case
def result_layouts_under_jit():
    fs = [
        lambda x: wlc(x, Layout((1, 0, 2))),
        lambda x: wlc(x * 2, Layout((2, 1, 0))) + 0,
        lambda x: (wlc(x, Layout((1, 0, 2))), x + 1, wlc(x, Layout((0, 1, 2)))),
        lambda x: jax.jit(lambda y: wlc(y, Layout((2, 1, 0))))(x),
        jax.vmap(lambda x: wlc(x, Layout((1, 0)))),
        lambda x: {"a": wlc(x[0], Layout((1, 0)))},
    ]
    if sys.argv[1] == "jax":
        return [[m2m(o) for o in jax.tree.leaves(jax.jit(f)(x3))] for f in fs]
    from jax_core._src.lax.layout_ops import out_layouts_via_propagation
    out = []
    for f in fs:
        closed = jax.make_jaxpr(f)(x3)
        layouts = out_layouts_via_propagation(closed.jaxpr)
        out.append([list(range(a.ndim)) if l is None else list(l.major_to_minor) for l, a in zip(layouts, closed.out_avals)])
    return out
"""

CASES = re.findall(r"@case\ndef (\w+)\(", PROGRAM)


@pytest.fixture(scope="module")
def results() -> tuple[dict[str, Any], dict[str, Any]]:
    return run_both(PROGRAM)


@pytest.mark.parametrize("name", CASES)
def test_case_matches_jax(name: str, results: tuple[dict[str, Any], dict[str, Any]]) -> None:
    ours, theirs = results[0][name], results[1][name]
    assert "ok" in theirs, theirs
    assert "ok" in ours, ours
    assert close(ours["ok"], theirs["ok"]), (ours["ok"], theirs["ok"])


def test_every_case_is_listed() -> None:
    assert PROGRAM.count("@case") == len(CASES) == 16


# -- in-process checks: exact by construction --------------------------------------------------
X3 = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


@pytest.mark.parametrize("perm", list(itertools.permutations(range(3))))
def test_layout_never_changes_values(perm: tuple[int, ...]) -> None:
    x = jnp.asarray(X3)
    eager = with_layout_constraint(x, Layout(perm))
    jitted = jax.jit(lambda v: with_layout_constraint(v + 0, Layout(perm)))(x)
    assert eager.format.layout is not None and eager.format.layout.major_to_minor == perm
    np.testing.assert_array_equal(np.asarray(eager), X3)
    np.testing.assert_array_equal(np.asarray(jitted), X3)


FRESH_JIT_RESULT = """
import json
import numpy as np
import jax_core as jax
from jax_core._src.lax.layout_ops import with_layout_constraint
from jax_core._src.layout.formats import Layout
x3 = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
z = jax.jit(lambda v: with_layout_constraint(v * 3, Layout((2, 1, 0))))(x3)
outs = [z, z + 1, jax.jit(lambda a: a * 2)(z), z.T, jax.jit(lambda a: a[1, :, 2])(z)]
print(json.dumps([np.asarray(o).tolist() for o in outs]))
"""


def test_jit_result_in_a_constrained_layout_is_read_right() -> None:
    # Real JAX 0.12 gets this wrong: its jit result takes the constraint's layout (2, 1, 0) and
    # the eager ``z + 1`` and the second jit read that buffer as row-major (transposed values).
    # A fresh process: no earlier relayout has armed the runtime's layout checks.
    got = run_json_program(FRESH_JIT_RESULT, "constrained jit result", devices=1)
    want = [X3 * 3, X3 * 3 + 1, X3 * 6, (X3 * 3).T, X3[1, :, 2] * 3]
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(np.asarray(g, dtype=np.float32), w)


def test_bad_layouts_raise_before_binding() -> None:
    x = jnp.asarray(X3)
    for bad in (Layout.AUTO, None, Format(None)):
        with pytest.raises(ValueError, match="must be of type `Layout`"):
            with_layout_constraint(x, bad)
    with pytest.raises(ValueError, match="is incompatible with its layout annotation"):
        with_layout_constraint(x, Layout((1, 0)))
    with pytest.raises(ValueError, match="in eager mode can only be applied to jax.Arrays"):
        with_layout_constraint(X3, Layout((0, 1, 2)))
    with pytest.raises(TypeError, match="is not a valid JAX type"):
        with_layout_constraint("a", Layout(()))


def test_out_layouts_via_propagation_reads_only_the_outputs() -> None:
    lay = Layout((2, 0, 1))
    closed = jax.make_jaxpr(
        lambda v: (with_layout_constraint(v, lay), with_layout_constraint(v, lay) * 2, v)
    )(X3)
    assert out_layouts_via_propagation(closed.jaxpr) == (lay, None, None)
