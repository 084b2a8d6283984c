"""Callbacks under transformations, compared with real JAX by what the same program prints.

``debug.print``/``debug.callback`` under ``grad``/``jvp``/``vjp`` see the primal values (once, in
the forward pass), under ``vmap`` run once per element, under ``checkpoint`` run again when the
forward pass is recomputed; ``pure_callback`` under ``vmap`` sees the shapes its ``vmap_method``
says; an unordered ``io_callback`` under ``vmap`` runs once per element. Each case also runs
under ``jit``. The values printed are exact (small integers, products of them)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.effects.printed_oracle import assert_same_output, snippet
from tests.oracle.client import live_fixture

_F = """
def f(x):
    jax.debug.print("f x={}", x)
    y = x * x * x
    jax.debug.print("f y={y}", y=y, ordered=True)
    return y
"""

_G = """
def g(x):
    jax.debug.print("g x={}", x)
    return x * x * 3.0
"""

_CUSTOM = """
@jax.custom_jvp
def cj(x):
    jax.debug.print("cj primal {}", x)
    return x * x
@cj.defjvp
def cj_jvp(p, t):
    jax.debug.print("cj jvp {} {}", p[0], t[0])
    return cj(p[0]), 2 * p[0] * t[0]
@jax.custom_vjp
def cv(x):
    jax.debug.print("cv primal {}", x)
    return x * x
def cv_fwd(x):
    jax.debug.print("cv fwd {}", x)
    return x * x, x
def cv_bwd(r, g):
    jax.debug.print("cv bwd {} {}", r, g)
    return (2 * r * g,)
cv.defvjp(cv_fwd, cv_bwd)
"""

_SHAPES = """
def cb(a, b):
    print("callback sees", type(a).__name__, np.shape(a), np.shape(b), np.asarray(a).tolist())
    return (np.asarray(a) + np.asarray(b)).astype(np.float32)
def pc(x, y):
    return jax.pure_callback(cb, jax.ShapeDtypeStruct(jnp.shape(x), jnp.float32), x, y, vmap_method=METHOD)
xs = jnp.arange(6.0).reshape(3, 2)
"""

CASES: dict[str, Any] = {
    "grad": snippet(_F + "print(jax.grad(f)(2.0))\nprint(jax.jit(jax.grad(f))(2.0))"),
    "jvp": snippet(
        _F
        + "print(jax.jvp(f, (2.0,), (1.0,)))\nprint(jax.jit(lambda x: jax.jvp(f, (x,), (1.0,)))(2.0))"
    ),
    "vjp": snippet(_F + "y, back = jax.vjp(f, 2.0)\nprint('forward done', y)\nprint(back(1.0))"),
    "value_and_grad": snippet(
        _F + "print(jax.value_and_grad(f)(3.0))\nprint(jax.jit(jax.value_and_grad(f))(3.0))"
    ),
    "linearize": snippet(
        _F + "y, lin = jax.linearize(f, 2.0)\nprint('linearized', y)\nprint(lin(1.0), lin(2.0))"
    ),
    "hessian": snippet(_G + "print(jax.hessian(g)(2.0))\nprint(jax.jit(jax.hessian(g))(2.0))"),
    "vmap": snippet(
        _F + "print(jax.vmap(f)(jnp.arange(4.0)))\nprint(jax.jit(jax.vmap(f))(jnp.arange(4.0)))"
    ),
    "vmap_nested": snippet(_G + "print(jax.vmap(jax.vmap(g))(jnp.arange(4.0).reshape(2, 2)))"),
    "vmap_in_axes": snippet(
        _G + "print(jax.vmap(g, in_axes=1)(jnp.arange(6.0).reshape(2, 3)))\n"
        "print(jax.jit(jax.vmap(g, in_axes=1))(jnp.arange(6.0).reshape(2, 3)))"
    ),
    "vmap_grad": snippet(
        _G
        + "print(jax.vmap(jax.grad(g))(jnp.arange(3.0)))\nprint(jax.grad(lambda x: jax.vmap(g)(x).sum())(jnp.arange(3.0)))"
    ),
    "vmap_ordered": snippet(
        "f = lambda x: jax.debug.print('o {} {}', x, x * 2, ordered=True)\n"
        "jax.vmap(f)(jnp.arange(3))\njax.jit(jax.vmap(f))(jnp.arange(3, 6))"
    ),
    "vmap_while_batched_predicate": snippet(
        """
        def w(x):
            def body(c):
                jax.debug.print("w {}", c)
                return c + 1
            return lax.while_loop(lambda c: c < 3, body, x)
        print(jax.vmap(w)(jnp.array([0, 1, 2])))
        print(jax.jit(jax.vmap(w))(jnp.array([2, 0])))
        """
    ),
    "vmap_cond_batched_predicate": snippet(
        """
        def c(x):
            t = lambda v: (jax.debug.print("T {}", v), v)[1]
            e = lambda v: (jax.debug.print("F {}", v), v)[1]
            return lax.cond(x > 1, t, e, x)
        print(jax.vmap(c)(jnp.array([0, 1, 2, 3])))
        print(jax.vmap(c, in_axes=None, axis_size=2)(jnp.int32(5)))
        """
    ),
    "vmap_scan": snippet(
        """
        def s(x):
            def body(c, i):
                jax.debug.print("s {} {}", i, c)
                return c + i, None
            return lax.scan(body, x, jnp.arange(3))[0]
        print(jax.vmap(s)(jnp.array([10, 20])))
        print(jax.grad(lambda x: lax.scan(lambda c, _: ((jax.debug.print("gs {}", c), c * 2.0)[1], None), x, None, length=3)[0])(1.0))
        """
    ),
    "checkpoint_grad": snippet(
        _G
        + "print(jax.grad(jax.checkpoint(g))(2.0))\nprint(jax.jit(jax.grad(jax.checkpoint(g)))(2.0))\n"
        "print(jax.grad(jax.remat(g, prevent_cse=False))(2.0))"
    ),
    "checkpoint_policies": snippet(
        _G
        + "for p in (jax.checkpoint_policies.everything_saveable, jax.checkpoint_policies.nothing_saveable,"
        " jax.checkpoint_policies.checkpoint_dots):\n"
        "    print(jax.grad(jax.checkpoint(g, policy=p))(2.0))"
    ),
    "checkpoint_other": snippet(
        _G
        + "print(jax.value_and_grad(jax.checkpoint(g))(2.0))\nprint(jax.jvp(jax.checkpoint(g), (2.0,), (1.0,)))\n"
        "print(jax.vjp(jax.checkpoint(g), 2.0)[0])\n"
        "print(jax.grad(lambda x: jax.checkpoint(g)(x) * jax.checkpoint(g)(x + 1.0))(1.0))"
    ),
    "custom_jvp": snippet(
        _CUSTOM
        + "print(cj(3.0))\nprint(jax.grad(cj)(3.0))\nprint(jax.jit(jax.grad(cj))(3.0))\nprint(jax.jvp(cj, (3.0,), (2.0,)))"
    ),
    "custom_vjp": snippet(
        _CUSTOM + "print(cv(3.0))\nprint(jax.grad(cv)(3.0))\nprint(jax.jit(jax.grad(cv))(3.0))\n"
        "print(jax.vmap(jax.grad(cv))(jnp.arange(2.0)))"
    ),
    "debug_callback_vmap": snippet(
        """
        def show(a, tag, pair):
            print("cb", tag, np.asarray(a).tolist(), np.asarray(pair[1]).tolist())
        f = lambda x: jax.debug.callback(show, x, tag="T", pair=(1, x * 2))
        jax.vmap(f)(jnp.arange(3))
        jax.jit(jax.vmap(f))(jnp.arange(2))
        print(jax.grad(lambda x: (jax.debug.callback(show, x, "G", (0, x)), x * x)[1])(3.0))
        """
    ),
    "io_callback_vmap": snippet(
        """
        F = jax.ShapeDtypeStruct((), jnp.float32)
        def cb(v, w):
            print("io sees", np.shape(v), np.shape(w), np.asarray(v).tolist(), np.asarray(w).tolist())
            return (np.asarray(v) * 2).astype(np.float32)
        f = lambda x, y: io_callback(cb, F, x, y)
        print(jax.vmap(f)(jnp.arange(3.0), jnp.ones(3)))
        print(jax.jit(jax.vmap(f, in_axes=(0, None)))(jnp.arange(3.0), 5.0))
        print(jax.vmap(jax.vmap(f), in_axes=(1, None))(jnp.arange(4.0).reshape(2, 2), jnp.ones(2)))
        """
    ),
    "pure_callback_no_vmap_method": snippet(
        "F = jax.ShapeDtypeStruct((), jnp.float32)\n"
        "jax.vmap(lambda x: jax.pure_callback(lambda v: v, F, x))(jnp.ones(3))"
    ),
}

VMAP_METHODS = [
    "sequential",
    "sequential_unrolled",
    "expand_dims",
    "broadcast_all",
    "legacy_vectorized",
]
for _method in VMAP_METHODS:
    CASES[f"pure_callback_vmap_{_method}"] = snippet(
        f"METHOD = {_method!r}\n"
        + _SHAPES
        + """
print(jax.vmap(pc, in_axes=(0, None))(xs, jnp.ones(2)))
print(jax.jit(jax.vmap(pc, in_axes=(None, 1)))(jnp.ones(2), xs.T))
print(jax.vmap(pc)(xs, xs))
print(jax.vmap(jax.vmap(pc), in_axes=(0, None))(jnp.stack([xs, xs + 1]), xs))
if not METHOD.startswith("sequential"):  # (a scan's jaxpr prints other params than JAX 0.12's)
    print(jax.make_jaxpr(jax.vmap(pc, in_axes=(0, None)))(xs, jnp.ones(2)))
"""
    )

live = live_fixture(list(CASES.values()))

# How many lines each case prints at least (the comparison with JAX is the real check; this
# catches a case that silently prints nothing on both sides).
_MIN_LINES = {
    "pure_callback_no_vmap_method": 1,
    "vmap": 16,
    "vmap_ordered": 6,
    "vmap_while_batched_predicate": 12,
    "io_callback_vmap": 9,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_output_as_jax(name: str, live: Any) -> None:
    text = assert_same_output(CASES[name], live)
    assert len(text.splitlines()) >= _MIN_LINES.get(name, 2), text
