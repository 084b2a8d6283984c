"""The snippets of the mypy plugin's fuzz programs (see _fuzz_gen.py, which draws the callables
and transformation chains they use) and the ``module`` strategy that assembles them: methods,
custom rules, cond/switch branches, static arguments, imports between generated modules."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from tests.mypy_plugin._fuzz_gen import (
    HEADER,
    VALUES,
    Module,
    _def,
    _indent,
    _join,
    _Names,
    call,
    callable_source,
    transform,
)


@dataclass
class Snippet:
    defs: str  # module-level (or function-level) definitions
    uses: str  # statements using them
    result: str | None  # a module-level name bound to a transformed function, for reuse


@st.composite
def transform_snippet(draw: st.DrawFn, names: _Names, quoted: bool, pool: list[str]) -> Snippet:
    """A callable, transformed, bound to a name, then called / revealed / transformed again."""
    if pool and draw(st.integers(0, 3)) == 0:
        code, expr = "", draw(st.sampled_from(pool))
    else:
        code, expr = draw(callable_source(names, quoted))
    r = names.fresh("r")
    annotate = draw(
        st.sampled_from(["", "", "", ": Any", ": Callable[..., Any]", ": Callable[[Array], Array]"])
    )
    defs = f"{code}{r}{annotate} = {draw(transform(expr))}\n"
    uses: list[str] = []
    for _ in range(draw(st.integers(0, 3))):
        uses.append(draw(call(r)))
    if draw(st.booleans()):
        uses.append(f"reveal_type({r})")
    if draw(st.integers(0, 2)) == 0:
        uses.append(f"{names.fresh('again')} = {draw(transform(r))}")
    if draw(st.integers(0, 4)) == 0:  # re-assignment of the same name
        uses.append(f"{r} = {draw(transform(r))}")
    return Snippet(defs, "\n".join(uses) + "\n" if uses else "", r if not annotate else None)


def _as_decorator(expr: str) -> str:
    """A decorator expression applying ``expr`` (with ``§`` for the function): ``jax.jit`` for
    ``jax.jit(§)``, else a lambda (any expression is a decorator since Python 3.9)."""
    if expr.endswith("(§)") and expr.count("§") == 1:
        return expr[: -len("(§)")]
    if expr == "§":
        return "jax.jit"
    return f"(lambda fn: {expr.replace('§', 'fn')})"


@st.composite
def decorator_snippet(draw: st.DrawFn, names: _Names, quoted: bool) -> Snippet:
    """A function under a stack of decorators (transformations, partial, ParamSpec ones)."""
    inner, name = draw(_def(names, quoted))
    decos: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        decos.append(_as_decorator(draw(transform("§"))))
    defs = "".join(f"@{d}\n" for d in decos) + inner
    uses = "\n".join(draw(call(name)) for _ in range(draw(st.integers(0, 2))))
    return Snippet(defs, uses + "\n" if uses else "", name)


@st.composite
def method_snippet(draw: st.DrawFn, names: _Names, quoted: bool) -> Snippet:
    """A class with transformed methods, staticmethods, classmethods and ``__call__``."""
    cls = names.fresh("K")
    members: list[str] = []
    method_names: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        wrapper = draw(st.sampled_from(["", "", "staticmethod", "classmethod", "property"]))
        first = {"": "self", "staticmethod": None, "classmethod": "cls", "property": "self"}[
            wrapper
        ]
        inner, name = draw(_def(names, quoted, stem="m", first=first))
        deco = _as_decorator(draw(transform("§")))
        order = [f"@{wrapper}\n" if wrapper else "", f"@{deco}\n"]
        if wrapper and draw(st.integers(0, 3)) == 0:
            order.reverse()  # the transformation outside the descriptor
        members.append("".join(order) + inner)
        method_names.append(name)
    if draw(st.booleans()):
        inner, _ = draw(_def(names, quoted, first="self", name="__call__"))
        deco = draw(
            st.sampled_from(["jax.jit", "partial(jax.jit, static_argnums=1)", "jax.vmap", "pdeco"])
        )
        members.append(f"@{deco}\n{inner}")
        method_names.append("__call__")
    defs = f"class {cls}:\n" + "\n".join(_indent(m) for m in members)
    inst = names.fresh("k")
    defs += f"\n{inst} = {cls}()\n"
    uses: list[str] = []
    for m in method_names:
        target = draw(st.sampled_from([f"{inst}.{m}", f"{cls}.{m}"]))
        if draw(st.booleans()):
            uses.append(draw(call(target)))
        if draw(st.integers(0, 2)) == 0:
            uses.append(f"{names.fresh('bm')} = {draw(transform(target))}")
    return Snippet(defs, "\n".join(uses) + "\n" if uses else "", f"{inst}.{method_names[0]}")


def _rule_params(draw: st.DrawFn, names: _Names, quoted: bool) -> str:
    n = draw(st.integers(0, 4))
    used = [f"p{i}" for i in range(n)]
    parts = []
    for p in used:
        t = draw(
            st.sampled_from(
                [
                    None,
                    "Any",
                    "tuple[Array, ...]",
                    "tuple[Array]",
                    "tuple[Array, Array]",
                    "tuple[float, int]",
                    "tuple[Any, ...]",
                    "Array",
                    "int",
                    "tuple[()]",
                    "list[Array]",
                    "tuple[str]",
                ]
            )
        )
        parts.append(p if t is None else f"{p}: {t}")
    if draw(st.integers(0, 4)) == 0:
        parts.append("*rest: Any")
    return ", ".join(parts)


RULE_RETURNS = [
    None,
    "Any",
    "tuple[Array, Array]",
    "tuple[float, Array]",
    "Array",
    "tuple[Array, Array, Array]",
    "tuple[Array, ...]",
    "tuple[Array]",
    "tuple[None, Array]",
    "tuple[Any, Any]",
    "None",
    "tuple[str, str]",
    "tuple[Array, tuple[Array, Array]]",
    "tuple[tuple[Array, Array], Array]",
]


@st.composite
def custom_snippet(draw: st.DrawFn, names: _Names, quoted: bool) -> Snippet:
    """``custom_jvp``/``custom_vjp`` with rules of drawn shapes, as decorators or calls."""
    fn = draw(st.sampled_from(["custom_jvp", "custom_vjp"]))
    inner, name = draw(_def(names, quoted))
    nondiff = draw(
        st.sampled_from(["", "", "(0,)", "(1,)", "(0, 1)", "0", "(5,)", "N0", "FT", "(-1,)", "[0]"])
    )
    opts = f", nondiff_argnums={nondiff}" if nondiff else ""
    spelled = draw(st.sampled_from(["decorator", "call", "partial"]))
    if spelled == "decorator" and not opts:
        defs = f"@jax.{fn}\n{inner}"
    elif spelled in ("decorator", "partial"):
        defs = f"@partial(jax.{fn}{opts})\n{inner}"
    else:
        raw = names.fresh("raw")
        defs = inner.replace(f"def {name}", f"def {raw}", 1) + f"{name} = jax.{fn}({raw}{opts})\n"

    def rule(stem: str) -> tuple[str, str]:
        rname = names.fresh(stem)
        if draw(st.integers(0, 4)) == 0:
            lams = ["lambda p, t: (p[0], t[0])", "lambda r, g: (g,)", "lambda x: (x, x)"]
            lam = draw(st.sampled_from([*lams, "lambda *a: a"]))
            return "", f"({lam})"
        ret = draw(st.sampled_from(RULE_RETURNS))
        arrow = f" -> {ret}" if ret else ""
        return (
            f"def {rname}({_rule_params(draw, names, quoted)}){arrow}:\n    raise NotImplementedError\n",
            rname,
        )

    if fn == "custom_jvp":
        r_code, r_name = rule("jvp")
        if r_code and draw(st.booleans()):
            defs += f"@{name}.defjvp\n{r_code}"
        else:
            defs += f"{r_code}{name}.defjvp({r_name})\n"
        if draw(st.integers(0, 4)) == 0:
            defs += f"{name}.defjvps(lambda t, ans, x: t)\n"
    else:
        f_code, f_name = rule("fwd")
        b_code, b_name = rule("bwd")
        form = draw(st.sampled_from(["pos", "kw", "zeros"]))
        args = {
            "pos": f"{f_name}, {b_name}",
            "kw": f"fwd={f_name}, bwd={b_name}",
            "zeros": f"{f_name}, {b_name}, symbolic_zeros=True",
        }[form]
        defs += f"{f_code}{b_code}{name}.defvjp({args})\n"
    uses = []
    if draw(st.booleans()):
        uses.append(draw(call(name)))
    if draw(st.booleans()):
        uses.append(f"{names.fresh('cg')} = {draw(transform(name))}")
    return Snippet(defs, "\n".join(uses) + "\n" if uses else "", name)


BRANCHES = [
    "lambda: 1.0",
    "lambda: 1",
    "lambda: jnp.ones(1)",
    "lambda x: x",
    "lambda x: x + 1",
    "lambda x: (x, x)",
    "lambda x: 'no'",
    "lambda x, y: x",
    "lambda *a: a",
    "ANY",
    "_D",
    "jnp.sin",
    "len",
    "None",
    "1",
]


@st.composite
def branch_snippet(draw: st.DrawFn, names: _Names, quoted: bool, pool: list[str]) -> Snippet:
    """``lax.cond``/``lax.switch`` with branches of drawn result types."""
    defs = ""
    branches: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        src = draw(st.sampled_from(["lambda", "def", "pool"]))
        if src == "def":
            code, name = draw(_def(names, quoted))
            defs += code
            branches.append(name)
        elif src == "pool" and pool:
            branches.append(draw(st.sampled_from(pool)))
        else:
            branches.append(draw(st.sampled_from(BRANCHES)))
    ops = draw(st.lists(st.sampled_from(VALUES[:10]), max_size=3))
    pred = draw(st.sampled_from(["True", "XS[0] > 0", "1", "ANY", "'x'", "jnp.bool_(True)"]))
    r = names.fresh("br")
    which = draw(st.sampled_from(["cond", "cond_kw", "switch", "switch_var", "switch_star"]))
    if which.startswith("cond"):
        a, b = branches[0], branches[-1]
        rest = f"operand={ops[0] if ops else 'XS'}" if which == "cond_kw" else _join(*ops)
        expr = f"lax.cond({_join(pred, a, b, rest)})"
    elif which == "switch":
        seq = draw(st.sampled_from(["[{}]", "({},)"])).format(", ".join(branches))
        expr = f"lax.switch({_join('0', seq, *ops)})"
    elif which == "switch_var":
        v = names.fresh("bs")
        defs += f"{v} = [{', '.join(branches)}]\n"
        expr = f"lax.switch({_join('N0', v, *ops)})"
    else:
        expr = f"lax.switch({_join('0', '[*[' + ', '.join(branches) + ']]', *ops)})"
    return Snippet(defs, f"{r} = {expr}\nreveal_type({r})\n", None)


UNHASHABLE = [
    "[1, 2]",
    "{'a': 1}",
    "{1}",
    "XS",
    "([1],)",
    "(1, [2])",
    "bytearray()",
    "ANY",
    "(1, 2)",
    "'s'",
]


@st.composite
def static_snippet(draw: st.DrawFn, names: _Names) -> Snippet:
    """A jitted function with static parameters called with (un)hashable values, and grad of
    functions with integer parameters: the checks that need a call or a parameter type."""
    f = names.fresh("sf")
    t = draw(
        st.sampled_from(["int", "tuple[int, ...]", "Any", "object", "list[int]", "str | None"])
    )
    defs = f"def {f}(x: Array, n: {t}, *rest: Any, k: {t} = _D) -> Array:\n    raise NotImplementedError\n"
    r = names.fresh("sj")
    spelled = draw(
        st.sampled_from(
            [
                f"jax.jit({f}, static_argnums=1)",
                f"jax.jit({f}, static_argnums=(1,), static_argnames='k')",
                f"jax.jit({f}, static_argnames=('n', 'k'))",
                f"jax.jit({f}, static_argnums=-1)",
                f"partial(jax.jit, static_argnums=1)({f})",
                f"partial(partial(jax.jit, static_argnums=1), donate_argnums=0)({f})",
                f"jax.jit(static_argnames='n')({f})",
                f"jax.pmap({f}, static_broadcasted_argnums=1)",
                f"partial(jax.pmap, static_broadcasted_argnums=(1,))({f})",
                f"jax.jit(jax.jit({f}, static_argnums=1))",
                f"jax.vmap(jax.jit({f}, static_argnums=1))",
                f"jax.checkpoint(jax.jit({f}, static_argnums=1), static_argnums=1)",
            ]
        )
    )
    uses: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        v = draw(st.sampled_from(UNHASHABLE))
        form = draw(st.sampled_from(["pos", "kw", "k", "star", "lower"]))
        uses.append(
            {
                "pos": f"{r}(XS, {v})",
                "kw": f"{r}(XS, n={v})",
                "k": f"{r}(XS, 1, k={v})",
                "star": f"{r}(*[XS], {v}, *[{v}])",
                "lower": f"{r}.lower(XS, {v})",
            }[form]
        )
    g = names.fresh("gi")
    p0, p1 = (
        draw(st.sampled_from(["int", "bool", "float", "Array", "Any"])),
        draw(st.sampled_from(["int", "bool", "float", "Array"])),
    )
    defs += f"{r} = {spelled}\ndef {g}(x: {p0}, n: {p1}) -> float:\n    raise NotImplementedError\n"
    fn = draw(st.sampled_from(["grad", "value_and_grad", "jacfwd", "hessian"]))
    argnums = draw(st.sampled_from(["0", "1", "(0, 1)", "-1", "(1,)"]))
    allow = draw(st.sampled_from(["", ", allow_int=True", ", allow_int=False", ", allow_int=FLAG"]))
    uses.append(f"{names.fresh('gr')} = jax.{fn}({g}, argnums={argnums}{allow})")
    return Snippet(defs, "\n".join(uses) + "\n", r)


@st.composite
def import_snippet(draw: st.DrawFn, names: _Names, cyclic: bool) -> Snippet:
    """Uses of the transformed functions another module exports (types read from its cache)."""
    mods = ["prev", "nxt"] if cyclic else ["prev"]
    uses: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        target = f"{draw(st.sampled_from(mods))}.{draw(st.sampled_from(['out0', 'out1']))}"
        what = draw(st.sampled_from(["call", "transform", "reveal", "partial"]))
        if what == "call":
            uses.append(draw(call(target)))
        elif what == "transform":
            uses.append(f"{names.fresh('imp')} = {draw(transform(target))}")
        elif what == "reveal":
            uses.append(f"reveal_type({target})")
        else:
            uses.append(
                f"{names.fresh('pp')} = partial({target}, {draw(st.sampled_from(VALUES[:6]))})"
            )
    body = "\n".join(uses) + "\n"
    if cyclic:  # inside a function: module attributes of an import cycle may be deferred
        return Snippet("", f"def {names.fresh('_cyc')}() -> None:\n{_indent(body)}", None)
    return Snippet("", body, None)


@st.composite
def module(draw: st.DrawFn) -> Module:
    """One module of snippets, each placed at module level, in a function, or deferred."""
    names = _Names()
    future = draw(st.booleans())
    quoted = not future
    cyclic = draw(st.integers(0, 4)) == 0
    pool: list[str] = []
    top: list[str] = []  # functions written before the definitions they use
    body: list[str] = []
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(
            st.sampled_from(
                [
                    "transform",
                    "transform",
                    "decorator",
                    "method",
                    "custom",
                    "branch",
                    "import",
                    "static",
                ]
            )
        )
        if kind == "transform":
            s = draw(transform_snippet(names, quoted, pool))
        elif kind == "decorator":
            s = draw(decorator_snippet(names, quoted))
        elif kind == "method":
            s = draw(method_snippet(names, quoted))
        elif kind == "custom":
            s = draw(custom_snippet(names, quoted))
        elif kind == "branch":
            s = draw(branch_snippet(names, quoted, pool))
        elif kind == "static":
            s = draw(static_snippet(names))
        else:
            s = draw(import_snippet(names, cyclic))
        layout = draw(st.sampled_from(["module", "module", "local", "deferred"]))
        if layout == "local":
            fn = names.fresh("_local")
            code = s.defs + s.uses
            body.append(f"def {fn}() -> None:\n{_indent(code) if code.strip() else '    pass'}\n")
            continue
        if layout == "deferred" and s.uses.strip():
            fn = names.fresh("_early")
            top.append(f"def {fn}() -> None:\n{_indent(s.uses)}\n")
            body.append(s.defs)
        else:
            body.append(s.defs + s.uses)
        if s.result is not None:
            pool.append(s.result)
    exports: list[str] = []
    for out in ("out0", "out1"):
        src = draw(st.sampled_from(["pool", "fresh", "fresh"])) if pool else "fresh"
        if src == "pool":
            exports.append(f"{out} = {draw(transform(draw(st.sampled_from(pool))))}\n")
        else:
            code, expr = draw(callable_source(names, quoted))
            exports.append(f"{code}{out} = {draw(transform(expr))}\n")
    later = "".join(f"class {c}:\n    v: Array\n" for c in names.later)
    imports = "import {nxt} as nxt\n" if cyclic else ""
    text = (
        HEADER.format(
            future="from __future__ import annotations\n\n" if future else "", prev="{prev}"
        )
        + imports
        + "\n\n".join(top + body + exports)
        + "\n\n"
        + later
    )
    return Module(text, cyclic)
