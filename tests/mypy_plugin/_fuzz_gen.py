"""Hypothesis strategies that write odd programs using jax_core's transformations, for the mypy
plugin's fuzz test (test_fuzz.py).

A drawn ``Module`` is Python source with two placeholders, ``{prev}`` and ``{nxt}``: the batch
fills them with the names of other generated modules (the previous one, and sometimes the next,
making an import cycle), so types the plugin made travel through imports and mypy's cache. Every
module exports ``out0`` and ``out1`` (transformed functions) for the modules importing it.

The programs need not type-check (most do not): the test asks only that mypy, with the plugin on
and its exceptions raised (``JAX_CORE_MYPY_PLUGIN_DEBUG=1``), ends normally. They must parse and
pass semantic analysis without blocking errors, which ``Module.source`` checks by compiling.

What is drawn, per snippet: a callable (plain functions with every parameter kind and a mix of
annotations, lambdas, overloads, TypeVar and PEP 695 generics, ParamSpec-decorated functions,
callable objects, methods, staticmethods, classmethods, properties, ``functools.partial`` of a
function, ``Any``, unannotated, forward references to classes defined at the end of the module),
a chain of transformations around it (``jit`` in its three spellings, ``partial(jit, ...)``
nested, the grad family, ``vmap``, ``checkpoint``/``remat``, ``custom_jvp``/``custom_vjp``, a
ParamSpec decorator, ``cast``), with option values that are literals, wrong types (strings,
floats, None, lists), variables, ``Final`` constants and expressions; then calls of the result,
``reveal_type``, re-transformation of earlier results, ``custom_jvp``/``custom_vjp`` rules and
``lax.cond``/``lax.switch`` branches. A snippet's statements sit at module level, in a function
(local definitions), or in a function written *before* the module-level definitions it uses, so
mypy defers it to a second pass.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from hypothesis import strategies as st

HEADER = """\
{future}import functools
from functools import partial
from enum import IntEnum
from typing import (
    Any, Callable, Concatenate, Final, Generic, Literal, Never, NoReturn, ParamSpec, Protocol,
    TypedDict, TypeVar, TypeVarTuple, Unpack, cast, overload,
)

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, lax
from jax_core.typing import ArrayLike

import {prev} as prev

P_ = ParamSpec("P_")
R_ = TypeVar("R_")
T_ = TypeVar("T_")
A_ = TypeVar("A_", bound=Array)
Ts_ = TypeVarTuple("Ts_")


class Idx(IntEnum):
    A = 0
    B = 1


class KwTD(TypedDict):
    x: Array
    n: int


class ArrayFn(Protocol):
    def __call__(self, x: Array, /, n: int = ...) -> Array: ...

_D: Any = None
ANY: Any = 0
N0 = 1
N1: int = 2
F0: Final = 1
FN: Final = -1
FT: Final = (0, 1)
FS: Final = "x"
FST: Final = ("x", "y")
FLAG = True
FLAG_F: Final = False
XS = jnp.ones(3)
LIT: Literal[0, 1] = 0
LIT1: Literal[1] = 1
PROTO: ArrayFn = _D
UNION_FN: Callable[[Array], Array] | Callable[[float, int], float] = _D


def pdeco(f: Callable[P_, R_]) -> Callable[P_, R_]:
    return f


def pdeco_int(f: Callable[P_, R_]) -> Callable[Concatenate[int, P_], R_]:
    raise NotImplementedError


def pdeco_list(f: Callable[P_, R_]) -> Callable[P_, list[R_]]:
    raise NotImplementedError


def ident(f: T_) -> T_:
    return f

"""

BASE_MODULE = (
    HEADER.format(future="", prev="builtins")
    + """

def base_f(x: Array, n: int) -> Array:
    return x * n


out0 = jax.jit(base_f, static_argnums=1)
out1 = jax.grad(base_f)
"""
)

# Branches of the generator left out while a plugin bug they reach is open: name -> the bug.
# (Each name is checked where the branch is drawn; an empty dict means everything is generated.)
SKIPPED: dict[str, str] = {
    # Not a plugin bug: mypy 2.4.1 itself crashes (NotImplementedError in
    # expandtype.visit_type_var_tuple), plugin or not, on `jax.grad(f, has_aux=0.5)` where
    # `def f(*xs: *Ts) -> tuple[*Ts]` (overload inference with a TypeVarTuple function).
    "typevartuple": "mypy 2.4.1 crash without the plugin: a TypeVarTuple function passed to "
    "grad's overloads (NotImplementedError in expandtype.visit_type_var_tuple)",
}  # (plugin bugs F1-F5 of the fuzzing session are fixed)


def _on(branch: str) -> bool:
    return branch not in SKIPPED


# -- leaves -------------------------------------------------------------------------------------

PARAM_TYPES = [
    "Array",
    "float",
    "int",
    "bool",
    "Any",
    "ArrayLike",
    "tuple[Array, Array]",
    "list[Array]",
    "dict[str, Array]",
    "Array | None",
    "str",
    "object",
    "T_",
    "A_",
    "Callable[[Array], Array]",
    "{later}",
    "Idx",
    "Literal[1, 2]",
    "type[Array]",
    None,  # unannotated
]
RETURN_TYPES = [
    "Array",
    "float",
    "int",
    "bool",
    "complex",
    "Any",
    "None",
    "str",
    "ArrayLike",
    "tuple[Array, Array]",
    "tuple[Array, int]",
    "tuple[float, dict[str, Array]]",
    "tuple[Array, Array, Array]",
    "tuple[Array, ...]",
    "list[Array]",
    "dict[str, float]",
    "Array | float",
    "T_",
    "{later}",
    "NoReturn",
    "Never",
    "Literal[1]",
    "tuple[()]",
    "tuple[Array, *tuple[int, ...]]",
    None,
]
INTS = ["0", "1", "2", "-1", "-2", "3", "7", "100", "-100"]
NUMS = [
    *INTS,
    "()",
    "(0,)",
    "(0, 1)",
    "(1, 0)",
    "(0, 0)",
    "(-1, 2)",
    "(5,)",
    "(0, 1, 2, 3)",
    "[0, 1]",
    "[]",
    "'x'",
    "1.0",
    "None",
    "True",
    "N0",
    "N1",
    "F0",
    "FN",
    "FT",
    "ANY",
    "1 + 0",
    "len([1])",
    "(0,) + (1,)",
    "tuple(range(2))",
    "-(1)",
    "~0",
    "(F0, 0)",
    "(N0,)",
    "(ANY, 1)",
    "[F0]",
    "{0}",
    "(0, 'x')",
    "(0.5,)",
    "(None,)",
    "((0,),)",
    "Idx.A",
    "(Idx.A, Idx.B)",
    "LIT",
    "LIT1",
    "(LIT1,)",
    "(0, 1, 2, 3, 4, 5, 6, 7)",
    "False",
    "2**70",
]
NAMES = [
    "'x'",
    "'a'",
    "'b'",
    "'n'",
    "'nonexistent'",
    "('a', 'a')",
    "['x']",
    "()",
    "FS",
    "ANY",
    "1",
    "None",
    "(1, 'x')",
    "'x' + ''",
    "b'x'",
    "('x', 'n')",
    "FST",
    "('q', 'x', 'z')",
]
FLAGS = ["True", "False", "None", "1", "0", "'yes'", "0.5", "FLAG", "FLAG_F", "ANY", "not FLAG"]
IN_AXES = [
    "0",
    "1",
    "-1",
    "None",
    "(0,)",
    "(0, None)",
    "(None, 0)",
    "[0, None]",
    "(0, 0, 0, 0, 0)",
    "()",
    "{'a': 0}",
    "(None,)",
    "'x'",
    "1.5",
    "((0, 1),)",
    "({'a': 0}, None)",
    "(0, [0, None])",
    "(0, {'k': None})",
    "ANY",
    "(ANY, 0)",
    "F0",
    "FT",
    "(N0, None)",
    "[0]",
    "(0, (None, 'x'))",
    "(jnp.ones(1), 0)",
]
VALUES = [
    "XS",
    "jnp.ones(3)",
    "jnp.zeros((2, 2))",
    "1.0",
    "2",
    "True",
    "1j",
    "[1, 2]",
    "[XS]",
    "{'a': XS}",
    "{1, 2}",
    "(1, 2)",
    "(XS, XS)",
    "'x'",
    "None",
    "ANY",
    "_D",
    "object()",
    "lambda: 0",
    "bytearray()",
]
KW_NAMES = ["x", "y", "n", "a", "b", "kw", "self", "fun", "argnums"]
GRAD_FAMILY = ["grad", "value_and_grad", "jacfwd", "jacrev", "jacobian", "hessian"]


@dataclass(frozen=True)
class Module:
    """One generated module: source text with ``{prev}``/``{nxt}`` placeholders."""

    text: str
    cyclic: bool

    def source(self, prev: str, nxt: str) -> str:
        out = self.text.replace("{prev}", prev).replace("{nxt}", nxt)
        compile(out, "<generated>", "exec")  # a generator bug, not a plugin bug, if this fails
        return out


class _Names:
    """Fresh identifiers within one module."""

    def __init__(self) -> None:
        self.n = 0
        self.later: list[str] = []  # classes to define at the end of the module

    def fresh(self, stem: str) -> str:
        self.n += 1
        return f"{stem}{self.n}"


def _indent(code: str, by: str = "    ") -> str:
    return textwrap.indent(code, by)


# -- types and functions --------------------------------------------------------------------------


@st.composite
def _type(draw: st.DrawFn, names: _Names, pool: list[str | None], quoted: bool) -> str | None:
    t = draw(st.sampled_from(pool))
    if t is not None and "{later}" in t:
        later = names.fresh("Later")
        names.later.append(later)
        t = t.replace("{later}", f'"{later}"' if quoted else later)
    return t


@st.composite
def _params(
    draw: st.DrawFn, names: _Names, quoted: bool, first: str | None = None
) -> tuple[str, int]:
    """A parameter list with any mix of kinds; returns (source, number of positional params)."""
    kinds = draw(
        st.lists(
            st.sampled_from(
                ["pos", "pos", "pos", "posonly", "default", "star", "kwonly", "kwargs"]
            ),
            max_size=5,
        )
    )
    posonly = [k for k in kinds if k == "posonly"]
    pos = [k for k in kinds if k in ("pos", "default")]
    pos.sort(key=lambda k: k == "default")
    star = "star" in kinds
    kwonly = [k for k in kinds if k == "kwonly"]
    kwargs = "kwargs" in kinds
    parts: list[str] = [] if first is None else [first]
    used: set[str] = set()

    def name() -> str:
        n = draw(
            st.sampled_from(["x", "y", "n", "a", "b", "k", "z", "w"]).filter(
                lambda s: s not in used
            )
        )
        used.add(n)
        return n

    def ann() -> str:
        t = draw(_type(names, PARAM_TYPES, quoted))
        return "" if t is None else f": {t}"

    for _ in posonly:
        parts.append(f"{name()}{ann()}")
    if posonly:
        parts.append("/")
    for k in pos:
        parts.append(f"{name()}{ann()}" + (" = _D" if k == "default" else ""))
    if star:
        parts.append(f"*{name()}{ann()}")
    elif kwonly:
        parts.append("*")
    for _ in kwonly:
        parts.append(f"{name()}{ann()}" + draw(st.sampled_from(["", " = _D"])))
    if kwargs:
        parts.append(f"**{name()}{ann()}")
    return ", ".join(parts), len(posonly) + len(pos)


@st.composite
def _def(
    draw: st.DrawFn,
    names: _Names,
    quoted: bool,
    stem: str = "f",
    first: str | None = None,
    name: str | None = None,
) -> tuple[str, str]:
    """A ``def`` (sometimes PEP 695 generic, sometimes async); returns (code, name)."""
    name = name or names.fresh(stem)
    params, _ = draw(_params(names, quoted, first))
    ret = draw(_type(names, RETURN_TYPES, quoted))
    pep695 = draw(st.sampled_from(["", "", "", "[T]", "[T: Array]", "[**Q]"]))
    if pep695 and first is None:
        params = params.replace("T_", "T")
        ret = None if ret is None else ret.replace("T_", "T")
    else:
        pep695 = ""
    is_async = draw(st.sampled_from(["", "", "", "", "async "]))
    arrow = "" if ret is None else f" -> {ret}"
    body = (
        "raise NotImplementedError"
        if ret is not None
        else draw(st.sampled_from(["return 1.0", "return jnp.ones(1)", "pass", "return (1.0, 2)"]))
    )
    return f"{is_async}def {name}{pep695}({params}){arrow}:\n    {body}\n", name


@st.composite
def callable_source(draw: st.DrawFn, names: _Names, quoted: bool) -> tuple[str, str]:
    """Definitions and an expression for a function-like value."""
    kind = draw(
        st.sampled_from(
            [
                "def",
                "def",
                "def",
                "def",
                "lambda",
                "overload",
                "generic",
                "generic_class",
                "pspec",
                "callable_obj",
                "method",
                "staticmethod",
                "classmethod",
                "property",
                "partial",
                "any",
                "unannotated",
                "callable_var",
                "class_obj",
                "builtin",
                "protocol",
            ]
        )
    )
    if kind == "def":
        return draw(_def(names, quoted))
    if kind == "lambda":
        lam = draw(
            st.sampled_from(
                [
                    "lambda x: x",
                    "lambda x, y: x * y",
                    "lambda: 1.0",
                    "lambda *a: a[0]",
                    "lambda x, *, k=1: x",
                    "lambda x, **kw: (x, x)",
                    "lambda x=0.0: x",
                    "lambda x: jnp.sum(x)",
                    "lambda x: 'no'",
                    "lambda x, y, z: (x, y)",
                ]
            )
        )
        return "", f"({lam})"
    if kind == "overload":
        name = names.fresh("ov")
        r1 = draw(_type(names, RETURN_TYPES[:12], quoted)) or "Array"
        code = (
            f"@overload\ndef {name}(x: Array) -> {r1}: ...\n"
            f"@overload\ndef {name}(x: float, y: int = 0) -> float: ...\n"
            f"def {name}(x: Any, y: Any = 0) -> Any:\n    return x\n"
        )
        return code, name
    if kind == "generic":
        name = names.fresh("gen")
        sig = draw(
            st.sampled_from(
                [
                    "(x: T_, n: int) -> T_",
                    "(x: A_) -> A_",
                    "(x: A_, y: A_) -> Array",
                    "(f: Callable[P_, R_], *args: P_.args, **kwargs: P_.kwargs) -> R_",
                    "(x: T_) -> tuple[T_, T_]",
                    "(*xs: T_) -> T_",
                    *(
                        ["(*xs: *Ts_) -> tuple[*Ts_]", "(x: Array, *xs: Unpack[Ts_]) -> Array"]
                        if _on("typevartuple")
                        else []
                    ),
                    "(*xs: Unpack[tuple[Array, int]]) -> Array",
                    "(**kw: Unpack[KwTD]) -> Array",
                ]
            )
        )
        return f"def {name}{sig}:\n    raise NotImplementedError\n", name
    if kind == "generic_class":
        name = names.fresh("G")
        pep = draw(st.booleans())
        head = f"class {name}[T]:" if pep else f"class {name}(Generic[T_]):"
        tv = "T" if pep else "T_"
        code = (
            f"{head}\n    def __call__(self, x: {tv}, n: int = 0) -> {tv}:\n        return x\n"
            f"    def m(self, x: {tv}, y: Array) -> Array:\n        return y\n"
        )
        inst = draw(
            st.sampled_from(
                [f"{name}[Array]()", f"{name}()", f"{name}[float]().m", f"{name}[Any]()"]
            )
        )
        return code, inst
    if kind == "pspec":
        inner, fname = draw(_def(names, quoted))
        deco = draw(
            st.sampled_from(["pdeco", "pdeco_int", "pdeco_list", "ident", "functools.cache"])
        )
        return f"@{deco}\n{inner}", fname
    if kind in ("callable_obj", "method", "staticmethod", "classmethod", "property", "class_obj"):
        cls = names.fresh("C")
        call, _ = draw(_def(names, quoted, first="self", name="__call__"))
        meth, _ = draw(_def(names, quoted, first="self", name="m"))
        static, _ = draw(_def(names, quoted, name="s"))
        clsm, _ = draw(_def(names, quoted, first="cls", name="c"))
        body = "\n".join(
            [
                _indent(call),
                _indent(meth),
                _indent("@staticmethod\n" + static),
                _indent("@classmethod\n" + clsm),
                _indent(
                    "@property\ndef p(self) -> Callable[[Array, int], Array]:\n    raise NotImplementedError"
                ),
            ]
        )
        code = f"class {cls}:\n{body}\n"
        expr = {
            "callable_obj": f"{cls}()",
            "method": f"{cls}().m",
            "staticmethod": draw(st.sampled_from([f"{cls}.s", f"{cls}().s"])),
            "classmethod": draw(st.sampled_from([f"{cls}.c", f"{cls}().c"])),
            "property": f"{cls}().p",
            "class_obj": draw(st.sampled_from([cls, f"{cls}.m", f"{cls}.__call__"])),
        }[kind]
        return code, expr
    if kind == "partial":
        inner, fname = draw(_def(names, quoted))
        args = draw(st.lists(st.sampled_from(VALUES[:8]), max_size=2))
        kws = draw(st.lists(st.sampled_from(KW_NAMES[:5]), max_size=2, unique=True))
        call = ", ".join([fname, *args, *(f"{k}={draw(st.sampled_from(VALUES[:6]))}" for k in kws)])
        spelled = draw(st.sampled_from(["partial", "functools.partial"]))
        expr = f"{spelled}({call})"
        if draw(st.booleans()):
            expr = f"{spelled}({expr}, {draw(st.sampled_from(VALUES[:6]))})"
        return inner, expr
    if kind == "protocol":
        return "", draw(st.sampled_from(["PROTO", "UNION_FN", "Idx", "Idx.A", "jnp.ones"]))
    if kind == "any":
        return "", draw(
            st.sampled_from(["ANY", "_D", "cast(Any, base_any)", "cast(Callable[..., Any], ANY)"])
        ).replace("base_any", "ANY")
    if kind == "unannotated":
        name = names.fresh("u")
        body = draw(
            st.sampled_from(["return x", "return x * 2.0", "return (x, y)", "return jnp.sum(x)"])
        )
        return f"def {name}(x, y=1):\n    {body}\n", name
    if kind == "callable_var":
        name = names.fresh("cv")
        t = draw(
            st.sampled_from(
                [
                    "Callable[..., Array]",
                    "Callable[[Array, int], Array]",
                    "Callable[..., Any]",
                    "Callable[[], float]",
                    "Callable[Concatenate[Array, P_], Array]",
                    "Callable[[Array], tuple[Array, Any]]",
                ]
            )
        )
        return f"{name}: {t} = _D\n", name
    if kind == "builtin":
        return "", draw(
            st.sampled_from(["len", "print", "jnp.sin", "jnp.sum", "max", "int", "str.upper"])
        )
    raise AssertionError(kind)


# -- transformations ------------------------------------------------------------------------------


def _opt(draw: st.DrawFn, key: str, pool: list[str]) -> str:
    return f"{key}={draw(st.sampled_from(pool))}"


def _jit_kwargs(draw: st.DrawFn) -> list[str]:
    keys = draw(
        st.lists(
            st.sampled_from(
                ["static_argnums", "static_argnames", "donate_argnums", "donate_argnames", "inline"]
            ),
            max_size=3,
            unique=True,
        )
    )
    pools = {
        "static_argnums": NUMS,
        "static_argnames": NAMES,
        "donate_argnums": NUMS,
        "donate_argnames": NAMES,
        "inline": FLAGS,
    }
    return [_opt(draw, k, pools[k]) for k in keys]


def _grad_kwargs(draw: st.DrawFn, positional_ok: bool) -> list[str]:
    out: list[str] = []
    if draw(st.booleans()):
        v = draw(st.sampled_from(NUMS))
        out.append(v if positional_ok and draw(st.booleans()) else f"argnums={v}")
    if draw(st.booleans()):
        out.append(_opt(draw, "has_aux", FLAGS))
    if draw(st.integers(0, 3)) == 0:
        out.append(_opt(draw, "allow_int", FLAGS))
    if draw(st.integers(0, 5)) == 0:
        out.append(_opt(draw, "holomorphic", FLAGS))
    return out


def _join(*parts: str) -> str:
    return ", ".join(p for p in parts if p)


def _grad_calls(expr: str) -> int:
    return sum(expr.count(f"{g}(") + expr.count(f"{g},") for g in GRAD_FAMILY)


@st.composite
def transform(draw: st.DrawFn, inner: str, depth: int = 0) -> str:
    """An expression applying a drawn transformation to the expression ``inner``."""
    expr = draw(_transform(inner, depth))
    if not _on("nested_grad") and _grad_calls(expr) > max(1, _grad_calls(inner)):
        return f"jax.jit({inner})"  # (the branch's name, for a skip: nested grad-family calls)
    return expr


@st.composite
def _transform(draw: st.DrawFn, inner: str, depth: int = 0) -> str:
    kind = draw(
        st.sampled_from(
            [
                "jit",
                "jit",
                "jit_factory",
                "partial_jit",
                "partial_jit_nested",
                "grad",
                "grad",
                "partial_grad",
                "partial_grad_fun",
                "vmap",
                "partial_vmap",
                "checkpoint",
                "custom",
                "pspec",
                "cast",
                "none",
                "pmap",
            ]
        )
    )
    if kind == "jit":
        expr = f"jax.jit({_join(inner, *_jit_kwargs(draw))})"
    elif kind == "jit_factory":
        expr = f"jax.jit({_join(*_jit_kwargs(draw))})({inner})"
    elif kind == "partial_jit":
        p = draw(st.sampled_from(["partial", "functools.partial"]))
        expr = f"{p}({_join('jax.jit', *_jit_kwargs(draw))})({inner})"
    elif kind == "partial_jit_nested":
        a, b = _jit_kwargs(draw), _jit_kwargs(draw)
        extra = _jit_kwargs(draw) if draw(st.booleans()) else []
        expr = (
            f"partial({_join('partial(' + _join('jax.jit', *a) + ')', *b)})({_join(inner, *extra)})"
        )
    elif kind == "grad":
        fn = draw(st.sampled_from(GRAD_FAMILY))
        expr = f"jax.{fn}({_join(inner, *_grad_kwargs(draw, True))})"
    elif kind == "partial_grad":
        fn = draw(st.sampled_from(GRAD_FAMILY))
        expr = f"partial({_join('jax.' + fn, *_grad_kwargs(draw, False))})({inner})"
    elif kind == "partial_grad_fun":  # partial with the function positionally, options later
        fn = draw(st.sampled_from([*GRAD_FAMILY, "jit", "vmap", "checkpoint", "pmap"]))
        expr = f"partial(jax.{fn}, {inner})({_join(*_grad_kwargs(draw, False)[:1])})"
    elif kind in ("vmap", "partial_vmap"):
        opts: list[str] = []
        if draw(st.booleans()):
            v = draw(st.sampled_from(IN_AXES))
            opts.append(v if kind == "vmap" and draw(st.booleans()) else f"in_axes={v}")
        if draw(st.integers(0, 2)) == 0:
            opts.append(_opt(draw, "out_axes", ["0", "1", "None", "(0, 1)", "'x'"]))
        if draw(st.integers(0, 3)) == 0:
            opts.append(_opt(draw, "axis_name", ["'i'", "None", "1", "[1]"]))
        expr = (
            f"jax.vmap({_join(inner, *opts)})"
            if kind == "vmap"
            else f"partial({_join('jax.vmap', *opts)})({inner})"
        )
    elif kind == "checkpoint":
        fn = draw(st.sampled_from(["checkpoint", "remat"]))
        opts = []
        if draw(st.booleans()):
            opts.append(_opt(draw, "static_argnums", NUMS))
        if draw(st.integers(0, 2)) == 0:
            opts.append(_opt(draw, "prevent_cse", FLAGS))
        if draw(st.booleans()):
            expr = f"jax.{fn}({_join(inner, *opts)})"
        else:
            expr = f"partial({_join('jax.' + fn, *opts)})({inner})"
    elif kind == "custom":
        fn = draw(st.sampled_from(["custom_jvp", "custom_vjp"]))
        opts = [_opt(draw, "nondiff_argnums", NUMS)] if draw(st.booleans()) else []
        if draw(st.booleans()):
            expr = f"jax.{fn}({_join(inner, *opts)})"
        else:
            expr = f"partial({_join('jax.' + fn, *opts)})({inner})"
    elif kind == "pmap":
        opts = []
        if draw(st.booleans()):
            opts.append(_opt(draw, "static_broadcasted_argnums", NUMS))
        if draw(st.booleans()):
            opts.append(_opt(draw, "donate_argnums", NUMS))
        if draw(st.integers(0, 2)) == 0:
            opts.append(_opt(draw, "in_axes", IN_AXES))
        if draw(st.integers(0, 3)) == 0:
            opts.insert(0, draw(st.sampled_from(["'i'", "axis_name='i'", "axis_name=None"])))
        spelled = draw(st.sampled_from(["call", "partial"]))
        if spelled == "call":
            expr = f"jax.pmap({_join(inner, *opts)})"
        else:
            expr = f"partial({_join('jax.pmap', *[o for o in opts if '=' in o])})({inner})"
    elif kind == "pspec":
        expr = f"{draw(st.sampled_from(['pdeco', 'pdeco_int', 'pdeco_list', 'ident']))}({inner})"
    elif kind == "cast":
        expr = f"cast({draw(st.sampled_from(['Any', 'Callable[..., Array]', 'Callable[[Array], Array]']))}, {inner})"
    else:
        expr = inner
    if depth < 3 and draw(st.integers(0, 2)) == 0:
        return draw(_transform(expr, depth + 1))
    return expr


@st.composite
def call(draw: st.DrawFn, target: str) -> str:
    """A call of ``target`` (or of one of its attributes) with drawn arguments."""
    args = draw(st.lists(st.sampled_from(VALUES), max_size=4))
    kws = draw(st.lists(st.sampled_from(KW_NAMES), max_size=2, unique=True))
    star = draw(st.sampled_from(["", "", "", "*(XS,)", "**{'x': XS}", "*[1, 2]"]))
    parts = [*args, star, *(f"{k}={draw(st.sampled_from(VALUES))}" for k in kws)]
    attr = draw(
        st.sampled_from(
            ["", "", "", "", ".lower", ".trace", ".eval_shape", ".__get__(None, object)", ".fun"]
        )
    )
    return f"{target}{attr}({_join(*parts)})"


# -- snippets -------------------------------------------------------------------------------------
