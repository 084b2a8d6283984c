"""Effects in staged programs, compared with real JAX: the effects jaxprs and their equations
carry (through jit, cond, switch, while_loop, fori_loop, scan, map, checkpoint, custom_jvp and
custom_vjp), which callbacks dead-code elimination keeps under jit (counted by calls), the jaxpr
text of the callback primitives, what staged ``debug.print``s print for various values and
format specs (and which types staged ``debug.callback`` arguments arrive as), ordered effects
through ``lower().compile()`` and ``disable_jit``, and the tokens in the StableHLO text (one
``!stablehlo.token`` per ordered effect: the first parameters and results of ``main``, carried
first through ``stablehlo.while`` and returned first by ``stablehlo.case``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.effects.printed_oracle import assert_same_output, snippet
from tests.oracle.client import live_fixture

_WALK = """
F = jax.ShapeDtypeStruct((), jnp.float32)
def names(effects):
    return sorted(str(e) for e in effects)
def subjaxprs(value):
    if hasattr(value, "eqns") or hasattr(value, "consts"):
        return [value]
    if isinstance(value, (tuple, list)):
        return [j for v in value for j in subjaxprs(v)]
    return []
def walk(jaxpr, depth=1):
    # Effectful equations, indented by nesting: a callback's name, or (for a higher-order
    # primitive, whose name may differ between the libraries) the union of its jaxprs' effects.
    for eqn in getattr(jaxpr, "jaxpr", jaxpr).eqns:
        subs = [j for v in eqn.params.values() for j in subjaxprs(v)]
        if not eqn.effects:
            continue
        inner = sorted({str(e) for j in subs for e in j.effects})
        label = f"inner {inner}" if subs else eqn.primitive.name
        print("  " * depth + label, names(eqn.effects))
        for j in subs:
            walk(j, depth + 1)
"""

_PROPAGATION = """
def body(x):
    jax.debug.print("{}", x, ordered=True)
    io_callback(lambda v: None, None, x)
    return x + 1.0
def with_jvp(f):
    f = jax.custom_jvp(f)
    f.defjvp(lambda p, t: (f(*p), t[0]))
    return f
def with_vjp(f):
    f = jax.custom_vjp(f)
    f.defvjp(lambda x: (f(x), None), lambda _, g: (g,))
    return f
wraps = {
    "jit": lambda g: jax.jit(g),
    "nested jit": lambda g: jax.jit(jax.jit(g)),
    "checkpoint": lambda g: jax.checkpoint(g),
    "cond": lambda g: (lambda x: lax.cond(x > 0, g, lambda v: v, x)),
    "switch": lambda g: (lambda x: lax.switch(1, [lambda v: v, g, lambda v: v * 2], x)),
    "fori_loop": lambda g: (lambda x: lax.fori_loop(0, 3, lambda i, c: g(c), x)),
    "while body": lambda g: (lambda x: lax.while_loop(lambda c: c < 10.0, g, x)),
    "while cond": lambda g: (lambda x: lax.while_loop(lambda c: g(c) < 10.0, lambda c: c * 2, x)),
    "scan": lambda g: (lambda x: lax.scan(lambda c, _: (g(c), None), x, None, length=4)[0]),
    "map": lambda g: (lambda x: lax.map(g, jnp.ones(2) * x)),
    "custom_jvp": with_jvp,
    "custom_vjp": with_vjp,
    "grad": lambda g: jax.grad(lambda x: (jax.debug.print("{}", x, ordered=True), x * x)[1]),
    "vmap": lambda g: (lambda x: jax.vmap(lambda v: io_callback(print, None, v) or g(v))(jnp.ones(2) * x)),
}
for name, wrap in wraps.items():
    closed = jax.make_jaxpr(wrap(body))(1.0)
    print(name, names(closed.effects))
    walk(closed)
"""

_KINDS = """
print(names(jax.make_jaxpr(lambda x: jax.pure_callback(lambda v: v, F, x))(1.0).effects))
print(names(jax.make_jaxpr(lambda x: jax.debug.print("{}", x))(1.0).effects))
print(names(jax.make_jaxpr(lambda x: jax.debug.print("{}", x, ordered=True))(1.0).effects))
print(names(jax.make_jaxpr(lambda x: jax.debug.callback(print, x))(1.0).effects))
print(names(jax.make_jaxpr(lambda x: jax.debug.callback(print, x, ordered=True))(1.0).effects))
print(names(jax.make_jaxpr(lambda x: io_callback(print, None, x))(1.0).effects))
print(names(jax.make_jaxpr(lambda x: io_callback(print, None, x, ordered=True))(1.0).effects))
print(names(jax.make_jaxpr(lambda x: jax.debug.print(ordered=True)("{x}", x=x))(1.0).effects))
def every(x):
    jax.debug.print("{}", x)
    jax.debug.callback(print, x, ordered=True)
    y = jax.pure_callback(lambda v: v, F, x)
    z = io_callback(lambda v: v, F, y, ordered=True)
    return io_callback(lambda v: v, F, z)
closed = jax.make_jaxpr(every)(1.0)
print(names(closed.effects), [names(e.effects) for e in closed.eqns])
"""

_DCE = """
calls = []
def rec(tag):
    def cb(*v):
        calls.append(tag)
        return v[0] if len(v) == 1 else v
    return cb
def report(label, out):
    jax.effects_barrier()
    print(label, out, sorted(calls))
    calls.clear()
def f(x):
    jax.pure_callback(rec("pure"), F, x)
    io_callback(rec("io"), F, x)
    io_callback(rec("ordered io"), F, x, ordered=True)
    jax.debug.callback(rec("debug"), x)
    jax.debug.callback(rec("ordered debug"), x, ordered=True)
    return x * 2
report("jit", jax.jit(f)(1.0))
report("eager", f(1.0))
report("used twice", jax.jit(lambda x: (lambda a: a + a)(jax.pure_callback(rec("pure"), F, x)))(1.0))
def in_scan(x):
    def step(c, _):
        jax.pure_callback(rec("pure"), F, c)
        io_callback(rec("io"), F, c)
        return c + 1, None
    return lax.scan(step, x, None, length=3)[0]
report("scan", jax.jit(in_scan)(1.0))
branch = lambda v: (jax.pure_callback(rec("pure"), F, v), io_callback(rec("io"), F, v), v)[2]
report("cond", jax.jit(lambda x: lax.cond(x > 0, branch, lambda v: v, x))(1.0))
report("while", jax.jit(lambda x: lax.while_loop(lambda c: c < 3.0, lambda c: branch(c) + 1.0, x))(1.0))
report("checkpoint", jax.jit(jax.checkpoint(lambda x: branch(x) * 2.0))(1.0))
report("inner jit", jax.jit(lambda x: (jax.jit(branch)(x), x)[1])(1.0))
report("unused outputs", jax.jit(lambda x: (io_callback(rec("io"), (F, F), x, x), x)[1])(1.0))
report("grad", jax.grad(lambda x: (jax.debug.callback(rec("debug"), x), x * x)[1])(3.0))
"""

_HLO = """
import re
def strip(text):
    # JAX also prints Shardy's ``sdy.sharding`` attribute and an ``sdy.mesh`` line, which
    # jax_core (one device, no Shardy) does not: remove them before comparing.
    text = re.sub(r", sdy\\.sharding = [^}]*", "", text)
    return "\\n".join(line for line in text.splitlines() if not line.lstrip().startswith("sdy.mesh"))
def lowered(f, *args):
    return strip(jax.jit(f).lower(*args).as_text())
def structure(f, *args):
    # For programs whose lowering differs elsewhere: main's signature, and the types of the
    # callback, while and case operations.
    text = lowered(f, *args)
    print(re.search(r"func\\.func public @main\\(.*", text).group(0))
    for line in text.splitlines():
        if "xla_ffi_python_cpu_callback" in line or "stablehlo.while" in line or "stablehlo.case" in line:
            print(" ", line.rsplit(" : ", 1)[-1])
x = np.float32(1.0)
"""

_FORMATTING = """
x = jnp.array([1.5, 2.25], jnp.float32)
attempt(lambda: jax.debug.print("{:.2f} {}", jnp.float32(1.5), x))
attempt(lambda: jax.jit(lambda v: jax.debug.print("{x[0]} {y}", x=v, y={"a": v}))(x))
attempt(lambda: jax.debug.print("{} {} {} {}", jnp.bfloat16(1.5), jnp.bool_(True), jnp.int8(-3), jnp.complex64(1+2j)))
attempt(lambda: jax.jit(lambda v: jax.debug.print("{} {} {}", v.astype(jnp.bfloat16), v > 2, v.astype(jnp.uint8)))(x))
attempt(lambda: jax.jit(lambda v: jax.debug.print("{}", v))(jnp.arange(2000)))
attempt(lambda: jax.debug.print("{}", jnp.zeros((2, 0))))
attempt(lambda: jax.jit(lambda v: jax.debug.print("[{:>8}] {!r}", v, v))(jnp.int32(3)))
attempt(lambda: jax.jit(lambda v: jax.debug.print("{} {} {}", v, 7, None))(jnp.int32(3)))
attempt(lambda: jax.jit(lambda v: jax.debug.print("{}", (v, "s", 2.5)))(jnp.int32(3)))
attempt(lambda: jax.jit(lambda v: jax.debug.print("no placeholders", v, "s"))(jnp.int32(3)))
show = lambda *a, **k: print("types", [type(t).__name__ for t in a], {n: type(v).__name__ for n, v in k.items()})
attempt(lambda: jax.jit(lambda v: jax.debug.callback(show, v, 1, 2.5, "s", np.int32(3), k=v, s="z"))(jnp.int32(3)))
attempt(lambda: jax.jit(lambda v: jax.debug.callback(lambda a: a * 2, v))(1.0))
"""

_AOT = """
f = lambda v: (jax.debug.print("aot {}", v, ordered=True), io_callback(lambda a: a * 2, F, v, ordered=True))[1]
compiled = jax.jit(f).lower(jnp.float32(1)).compile()
attempt(lambda: [compiled(jnp.float32(i)) for i in range(3)])
attempt(lambda: jax.jit(f).trace(jnp.float32(1)).lower().compile()(jnp.float32(5)))
with jax.disable_jit():
    attempt(lambda: jax.jit(f)(2.0))
    attempt(lambda: lax.fori_loop(0, 2, lambda i, c: (jax.debug.print("loop {}", i, ordered=True), c)[1], 0))
"""

CASES: dict[str, Any] = {
    "print_formatting": snippet(_FORMATTING),
    "aot_and_disable_jit": snippet("F = jax.ShapeDtypeStruct((), jnp.float32)\n" + _AOT),
    "effect_kinds": snippet(_WALK + _KINDS),
    "propagation": snippet(_WALK + _PROPAGATION),
    "dce_under_jit": snippet(_WALK + _DCE),
    "jaxpr_text": snippet(
        """
F = jax.ShapeDtypeStruct((), jnp.float32)
def f(x):
    jax.debug.print("{} {a} {b}", "s", a=x, b=(1, x))
    jax.debug.print("plain", ordered=True)
    jax.debug.callback(lambda *a, **k: None, x, 3, k="v", ordered=True)
    a, b = io_callback(lambda v: (v, v), (F, jax.ShapeDtypeStruct((2,), jnp.int32)), x)
    c = io_callback(lambda v: v, [F], a, ordered=True)
    d = jax.pure_callback(lambda v: {"p": v}, {"p": F}, x, vmap_method="expand_dims")
    return a + d["p"] + c[0]
print(jax.make_jaxpr(f)(1.0))
with np.printoptions(precision=3, suppress=True):
    g = lambda x: jax.debug.print("p {}", x)
    print(jax.make_jaxpr(g)(1.0))
    jg = jax.jit(g)
    g(jnp.array([1, 2], jnp.float32) / 3)
jg(jnp.array([1, 2], jnp.float32) / 3)
print(jax.make_jaxpr(jax.jit(lambda x: jax.debug.print("in jit {}", x, ordered=True)))(1))
"""
    ),
    "debug_log": snippet(
        """
import logging, sys
handler = logging.StreamHandler(sys.stdout)
handler.setFormatter(logging.Formatter("%(levelname)s %(funcName)s:%(lineno)d %(message)s"))
root = logging.getLogger()
saved = (root.level, root.handlers[:])
root.handlers[:] = [handler]
root.setLevel(logging.INFO)
try:
    jax.debug.log("log {}", 3)
    def traced(x):
        jax.debug.log("jlog {} {y}", x, y=x * 2, ordered=True)
        return x
    jax.jit(traced)(4)
    jax.vmap(traced)(jnp.arange(2))
    jax.effects_barrier()
finally:
    root.setLevel(saved[0])
    root.handlers[:] = saved[1]
"""
    ),
    "stablehlo_one_ordered_effect": snippet(
        _HLO
        + """
def printed(x):
    jax.debug.print("a {}", x, ordered=True)
    jax.debug.print("b {}", x * 2, ordered=True)
    return x + 1
def fori(x):
    return lax.fori_loop(0, 3, lambda i, c: (jax.debug.print("i {}", i, ordered=True), c + 1.0)[1], x)
def cond(x):
    return lax.cond(x > 0, lambda v: (io_callback(lambda a: None, None, v, ordered=True), v)[1], lambda v: v * 2, x)
def switch(x):
    jax.debug.print("a {}", x, ordered=True)
    return lax.switch(1, [lambda v: v, lambda v: (jax.debug.print("b {}", v, ordered=True), v + 1)[1], lambda v: v], x)
def while_body(x):
    return lax.while_loop(lambda c: c < 3, lambda c: io_callback(lambda v: v + 1, F, c, ordered=True), x)
def returns(x):
    return io_callback(lambda v: (v, v), (F, F), x, ordered=True)
def unordered(x):
    jax.debug.print("un {}", x)
    return io_callback(lambda v: v, F, x) + jax.pure_callback(lambda v: v, F, x)
F = jax.ShapeDtypeStruct((), jnp.float32)
for f in (printed, fori, cond, switch, while_body, returns, unordered):
    print(lowered(f, x))
"""
    ),
    "stablehlo_structure": snippet(
        _HLO
        + """
F = jax.ShapeDtypeStruct((), jnp.float32)
def scan(x):
    def body(c, _):
        y = io_callback(lambda v: v, F, c, ordered=True)
        return y + 1, y
    return lax.scan(body, x, None, length=4)
def nested(x):
    return jax.jit(lambda y: (jax.debug.print("in {}", y, ordered=True), y * 2)[1])(x)
def two_kinds(x):
    jax.debug.print("a {}", x, ordered=True)
    return io_callback(lambda v: v, F, x, ordered=True)
for f in (scan, nested, two_kinds):
    structure(f, x)
"""
    ),
}

live = live_fixture(list(CASES.values()))

# What each case must show, besides being JAX's text (a case printing nothing on both sides, or
# the wrong thing on both, fails here).
_EXPECT = {
    "print_formatting": "[   0    1    2 ... 1997 1998 1999]",
    "aot_and_disable_jit": "aot 5.0\nok 10.0\naot 2.0\nok 4.0\nloop 0\nloop 1",
    "effect_kinds": "['Debug', 'IO', 'OrderedDebug', 'OrderedIO']",
    "propagation": "vmap ['IO', 'OrderedDebug']",
    "dce_under_jit": (
        "jit 2.0 ['debug', 'io', 'ordered debug', 'ordered io']\n"
        "eager 2.0 ['debug', 'io', 'ordered debug', 'ordered io', 'pure']"
    ),
    "jaxpr_text": "ordered=True",
    "debug_log": "jlog 4 8",
    "stablehlo_one_ordered_effect": "!stablehlo.token {jax.token = true}",
    "stablehlo_structure": (
        "-> (!stablehlo.token {jax.token = true}, !stablehlo.token {jax.token = true}, tensor<f32>"
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_output_as_jax(name: str, live: Any) -> None:
    text = assert_same_output(CASES[name], live)
    assert _EXPECT[name] in text, text
