"""``custom_vjp.defvjp(..., optimize_remat=True)`` and its ``remat_opt`` primitive, compared with
live JAX: values and gradients (eager, ``jit``, ``vmap``, ``checkpoint``, ``cond``, ``scan``), the
primitives of the staged programs (under ``checkpoint`` the forward pass calls the primal
function, not the fwd rule), and the errors (``symbolic_zeros``, second-order reverse mode).

The functions' fwd rules differ from the primal function on purpose (an extra ``exp``, or another
value altogether, as JAX's gh21303 test): which of the two runs is visible.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core._src.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Var, dce_jaxpr, dce_jaxpr_used
from jax_core._src.transforms.remat_opt import eval_jaxpr_p
from jax_core.custom_derivatives import remat_opt_p
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture, program_call

COVERED = frozenset({"remat_opt", "eval_jaxpr"})

PROGRAM = """
import importlib
import numpy as np
custom_batching = importlib.import_module(jax.__name__ + '.custom_batching')

@jax.custom_vjp
def f(x):
    return jnp.sin(x)
def f_fwd(x):
    return jnp.sin(x) + 0.0 * lax.exp(x), (jnp.cos(x),)
def f_bwd(res, g):
    c, = res
    return (c * g,)
f.defvjp(f_fwd, f_bwd, optimize_remat=True)

# JAX's gh21303: the fwd rule's primal output is not the function's (tan): which one runs shows.
@jax.custom_vjp
def t(x):
    return jnp.tan(x)
def t_fwd(x):
    return jnp.sin(x), (x,)
def t_bwd(res, g):
    x, = res
    return (jnp.cos(x) * g,)
t.defvjp(t_fwd, t_bwd, optimize_remat=True)

def temp(x):
    return jax.remat(t)(x) ** 2

# two arguments, three residuals (one an argument), a keyword-only fwd parameter
@jax.custom_vjp
def g(x, y):
    return jnp.sin(x) * y
def g_fwd(x, y, *, keyword=False):
    return g(x, y), (jnp.cos(x), jnp.sin(x), y)
def g_bwd(res, ct):
    cos_x, sin_x, y = res
    return (cos_x * ct * y, sin_x * ct)
g.defvjp(g_fwd, g_bwd, optimize_remat=True)

# constants in the function and the fwd rule (JAX's test_optimize_remat)
@jax.custom_vjp
def c(x):
    return np.array([1.0], np.float32) * x
def c_fwd(x):
    return np.array([2.0], np.float32) * x * x / np.array([1.0], np.float32), (2 * x,)
def c_bwd(res, ct):
    return (res[0] * ct,)
c.defvjp(c_fwd, c_bwd, optimize_remat=True)

# pytrees: a dict argument, a tuple output, dict residuals; a non-differentiable argument
@jax.custom_vjp
def p(d):
    return d['a'] * d['b'], jnp.exp(d['a'])
def p_fwd(d):
    return p(d), {'e': jnp.exp(d['a']), 'b': d['b'], 'a': d['a']}
def p_bwd(res, cts):
    u, v = cts
    return ({'a': u * res['b'] + v * res['e'], 'b': u * res['a']},)
p.defvjp(p_fwd, p_bwd, optimize_remat=True)

def pf(x):
    o1, o2 = p({'a': x, 'b': 2.0 * x})
    return (o1 + o2).sum()

@jax.custom_vjp
def n(k, x):
    return jnp.sin(x) ** k
def n_fwd(k, x):
    return n(k, x), (jnp.cos(x), jnp.sin(x))
def n_bwd(k, res, ct):
    cos_x, sin_x = res
    return (k * sin_x ** (k - 1) * cos_x * ct,)
n = jax.custom_vjp(n.__wrapped__, nondiff_argnums=(0,))
n.defvjp(n_fwd, n_bwd, optimize_remat=True)

# a fwd rule with its own vmap rule, which adds a constant (JAX's test_optimize_remat_custom_vmap)
@jax.custom_vjp
def v(x, y):
    return jnp.sin(x) * y
@custom_batching.custom_vmap
def v_fwd(x, y):
    return v(x, y), (jnp.cos(x), jnp.sin(x), y)
@v_fwd.def_vmap
def v_fwd_vmap(_, in_batched, x, y):
    out = np.array([2.0], np.float32) * v(x, y)
    return (out, (jnp.cos(x), jnp.sin(x), y)), (True, (True, True, True))
def v_bwd(res, ct):
    cos_x, sin_x, y = res
    return (cos_x * ct * y, sin_x * ct)
v.defvjp(v_fwd, v_bwd, optimize_remat=True)

x = jnp.float32(0.7)
xs = jnp.linspace(0.0, 1.0, 5, dtype=jnp.float32)
ys = jnp.linspace(2.0, 5.0, 5, dtype=jnp.float32)

def names(closed):
    # the primitives of a jaxpr, sub-jaxprs in brackets (by param order); JAX's checkpoint is 'remat2'
    out = []
    for e in closed.eqns:
        name = e.primitive.name
        out.append('checkpoint' if name == 'remat2' else name)
        for k in sorted(e.params):
            val = e.params[k]
            if hasattr(val, 'eqns'):
                out.append('[' + ' '.join(names(val)) + ']')
    return out

def staged(fun, *args):
    return ' '.join(names(jax.make_jaxpr(fun)(*args)))

def sym_and_remat():
    h = jax.custom_vjp(lambda x: x)
    h.defvjp(lambda x: (x, None), lambda r, ct: (ct,), symbolic_zeros=True, optimize_remat=True)
"""

CASES = [
    # values and gradients
    "f(x)",
    "jax.jit(f)(x)",
    "jax.grad(f)(x)",
    "jax.grad(jax.checkpoint(f))(x)",
    "jax.jit(jax.grad(jax.checkpoint(f)))(x)",
    "jax.value_and_grad(jax.checkpoint(f))(x)",
    "jax.vmap(jax.grad(f))(xs)",
    "jax.vmap(jax.grad(jax.checkpoint(f)))(xs)",
    "jax.jit(jax.vmap(jax.grad(jax.checkpoint(f))))(xs)",
    "jax.grad(lambda x: jax.vmap(jax.checkpoint(f))(x).sum())(xs)",
    "jax.grad(lambda x: jax.checkpoint(jax.vmap(f))(x).sum())(xs)",
    "jax.grad(jax.checkpoint(lambda x: f(f(x)) * x))(x)",
    "jax.grad(jax.checkpoint(f, policy=jax.checkpoint_policies.everything_saveable))(x)",
    "jax.jacrev(f)(xs)",
    "jax.hessian(f)(x)",
    "jax.linear_transpose(lambda t: jax.jvp(f, (x,), (t,))[1], x)(1.0)",
    "jax.linearize(jax.checkpoint(f), x)[1](2.0)",
    "jax.vjp(jax.checkpoint(f), x)[1](2.0)",
    "jax.grad(lambda x: lax.cond(x > 0, jax.checkpoint(f), jnp.cos, x))(x)",
    "jax.grad(lambda x: lax.scan(lambda c, _: (jax.checkpoint(f)(c), None), x, None, length=3)[0])(x)",
    "jax.value_and_grad(temp)(3.2)",
    "jax.jit(jax.value_and_grad(temp))(3.2)",
    "jax.value_and_grad(t)(3.2)",
    "jax.grad(g, argnums=(0, 1))(3.2, 1.0)",
    "jax.grad(jax.checkpoint(g), argnums=(0, 1))(3.2, 1.0)",
    "jax.vmap(jax.grad(jax.checkpoint(g), argnums=(0, 1)))(xs, ys)",
    "jax.grad(lambda x: jax.checkpoint(c)(x).sum())(xs)",
    "jax.value_and_grad(lambda x: jax.checkpoint(c)(x).sum())(xs)",
    "jax.vmap(jax.grad(lambda x: jax.checkpoint(c)(x).sum()))(xs[:, None])",
    "jax.grad(pf)(xs)",
    "jax.grad(jax.checkpoint(pf))(xs)",
    "jax.grad(jax.checkpoint(lambda x: n(3, x)))(x)",
    "jax.jit(jax.vmap(jax.grad(v)))(xs, ys)",
    "jax.vmap(jax.grad(jax.checkpoint(v)))(xs, ys)",
    # what is staged: the forward pass under checkpoint calls the primal function (no exp)
    "staged(jax.grad(jax.checkpoint(f)), x)",
    "staged(jax.grad(f), x)",
    "staged(lambda x: jax.linearize(jax.checkpoint(f), x)[0], x)",
    "staged(lambda x: jax.vjp(jax.checkpoint(f), x)[0], x)",
    "staged(jax.vmap(jax.grad(jax.checkpoint(f))), xs)",
    "staged(jax.grad(lambda x: jax.checkpoint(jax.vmap(f))(x).sum()), xs)",
    "staged(jax.value_and_grad(temp), 3.2)",
    "staged(jax.grad(jax.checkpoint(g), argnums=(0, 1)), 3.2, 1.0)",
    "staged(jax.grad(lambda x: jax.checkpoint(c)(x).sum()), xs)",
    "staged(jax.grad(jax.checkpoint(f, policy=jax.checkpoint_policies.everything_saveable)), x)",
    "staged(jax.grad(jax.checkpoint(pf)), xs)",
    "'exp' in staged(lambda x: jax.vjp(jax.checkpoint(f), x)[0], x)",
    # errors
    "sym_and_remat()",
    "jax.grad(jax.grad(f))(x)",
    "jax.jit(jax.grad(jax.grad(f)))(x)",
    "jax.grad(jax.grad(jax.checkpoint(f)))(x)",
    "jax.jvp(f, (x,), (x,))",
    "jax.jacfwd(f)(x)",
]

CALLS = [program_call(PROGRAM, case) for case in CASES]
live = live_fixture(CALLS)


@pytest.mark.parametrize("call", CALLS, ids=CASES)
def test_same_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    theirs = live[call.expr]
    assert_same(here(call), theirs, call.expr, messages=theirs.error is not None)


def test_forward_pass_under_checkpoint_runs_the_primal_function() -> None:
    @jax.custom_vjp
    def f(x: jax.Array) -> jax.Array:
        return jnp.sin(x)

    def f_fwd(x: jax.Array) -> tuple[jax.Array, tuple[jax.Array]]:
        return jnp.sin(x) + 0.0 * jnp.exp(x), (jnp.cos(x),)

    def f_bwd(res: tuple[jax.Array], g: jax.Array) -> tuple[jax.Array]:
        return (res[0] * g,)

    f.defvjp(f_fwd, f_bwd, optimize_remat=True)
    x = jnp.float32(0.5)

    def forward(x: jax.Array) -> jax.Array:
        return jax.vjp(jax.checkpoint(f), x)[0]

    fwd_part = str(jax.make_jaxpr(forward)(x))
    assert "exp" not in fwd_part and "eval_jaxpr" in fwd_part and "remat_opt" not in fwd_part
    # without checkpoint the residuals are used: the fwd rule runs
    assert "remat_opt" in str(jax.make_jaxpr(jax.grad(f))(x))


def test_function_closing_over_a_traced_value_keeps_its_fwd_rule() -> None:
    # (JAX fails here: its primal call would hold the enclosing jit's tracer as a constant.)
    def make(y: jax.Array, optimize: bool) -> Callable[[jax.Array], jax.Array]:
        @jax.custom_vjp
        def f(x: jax.Array) -> jax.Array:
            return jnp.sin(x) * y

        def f_fwd(x: jax.Array) -> tuple[jax.Array, tuple[jax.Array]]:
            return jnp.sin(x) * y, (jnp.cos(x) * y,)

        def f_bwd(res: tuple[jax.Array], g: jax.Array) -> tuple[jax.Array]:
            return (res[0] * g,)

        f.defvjp(f_fwd, f_bwd, optimize_remat=optimize)
        return f

    def run(optimize: bool) -> Callable[[jax.Array, jax.Array], tuple[jax.Array, jax.Array]]:
        def both(x: jax.Array, y: jax.Array) -> tuple[jax.Array, jax.Array]:
            return jax.value_and_grad(jax.checkpoint(make(y, optimize)))(x)

        return jax.jit(both)

    x, y = jnp.float32(0.7), jnp.float32(2.0)
    for got, want in zip(run(True)(x, y), run(False)(x, y), strict=True):
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_remat_opt_is_exported_and_has_every_rule() -> None:
    assert remat_opt_p.name == "remat_opt" and remat_opt_p.multiple_results
    rules = remat_opt_p.rules
    assert None not in (rules.jvp, rules.batch, rules.transpose, rules.lower, rules.impl, rules.dce)
    with pytest.raises(NotImplementedError, match="remat optimization for custom_vjp does not support higher-order AD"):
        remat_opt_p.rule("transpose")([1.0])


def test_symbolic_zeros_with_optimize_remat_is_refused_at_defvjp() -> None:
    def ident(x: jax.Array) -> jax.Array:
        return x

    def fwd(x: jax.Array) -> tuple[jax.Array, None]:
        return x, None

    def bwd(res: None, ct: jax.Array) -> tuple[jax.Array]:
        return (ct,)

    h = jax.custom_vjp(ident)
    with pytest.raises(NotImplementedError, match="does not support symbolic zeros"):
        h.defvjp(fwd, bwd, symbolic_zeros=True, optimize_remat=True)


def _eqn(prim: Any, ins: list[Var], n_out: int, **params: Any) -> JaxprEqn:
    from jax_core._src.core.avals import ShapedArray

    outs = [Var(ShapedArray((), np.dtype("float32"))) for _ in range(n_out)]
    return JaxprEqn(list(ins), outs, prim, params, None)


def test_dce_uses_a_primitive_dce_rule() -> None:
    from jax_core._src.core.avals import ShapedArray

    aval = ShapedArray((), np.dtype("float32"))
    a, b = Var(aval), Var(aval)
    # an inner jaxpr (a, b) -> (a, b): the call's dce rule keeps only what is used
    inner = Jaxpr([], [a, b], [a, b], [])
    x, y = Var(aval), Var(aval)
    call = _eqn(eval_jaxpr_p, [x, y], 2, jaxpr=ClosedJaxpr(inner, []))
    outer = Jaxpr([], [x, y], [call.outvars[1]], [call])
    pruned = dce_jaxpr(outer)
    (eqn,) = pruned.eqns
    assert eqn.invars == [y] and eqn.outvars == [call.outvars[1]]
    assert pruned.invars == [x, y]  # dce_jaxpr keeps the inputs
    assert len(eqn.params["jaxpr"].jaxpr.invars) == 1
    # dce_jaxpr_used drops unused inputs and outputs too
    both = Jaxpr([], [x, y], list(call.outvars), [call])
    used, used_ins = dce_jaxpr_used(both, [True, False])
    assert used_ins == [True, False] and used.invars == [x] and len(used.outvars) == 1
    # nothing to remove: the same jaxpr
    assert dce_jaxpr(both) is both
