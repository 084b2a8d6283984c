"""What the control-flow primitives share: tracing user functions to closed jaxprs (with
their constants as leading inputs), JAX's output/carry type checks and messages, and the
jaxpr surgery the transformation rules use (joining constants, permuting binders,
batching along chosen axes, lowering a traced helper inline).

Every jaxpr held in a control-flow param is a ``ClosedJaxpr`` without constants: values a
body closes over are operands of the equation (omnistaging), so the params stay pure
structure and the jaxprs print as JAX prints them.
"""

from __future__ import annotations

import functools
import inspect
import weakref
from collections.abc import Callable, Hashable, Sequence
from typing import Any, ParamSpec, TypeVar

import numpy as np

from jax_core._src import config
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import ClosedJaxpr, Jaxpr, Var, eval_jaxpr
from jax_core._src.core.source_info import function_location
from jax_core._src.core.trace import Tracer, current_trace, get_aval, set_current_trace
from jax_core._src.interpreters.batching import BatchTrace, current_batch_axis
from jax_core._src.interpreters.batching_util import matchaxis
from jax_core._src.interpreters.staging import (
    DebugInfo,
    convert_constvars_to_invars,
    trace_to_jaxpr,
)
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.lower_jaxpr import lower_jaxpr_body
from jax_core._src.tree.tree_util import (
    PyTreeDef,
    equality_errors,
    equality_errors_pytreedef,
    keystr,
    tree_flatten,
    tree_flatten_with_path,
    tree_unflatten,
)

P = ParamSpec("P")
R = TypeVar("R")

CACHE_SIZE = 512
"""Entries kept by each cache of jaxpr transformations (bounded: they hold jaxprs strongly)."""


def cached(fn: Callable[P, R]) -> Callable[P, R]:
    """Memoizes a pure function of jaxprs (hashed by identity) and hashable static values.

    Transforming the same jaxpr the same way then gives the same jaxpr object, so eager
    evaluation of a transformed control-flow primitive finds its compiled executable.
    Results must be treated as immutable.
    """
    return functools.lru_cache(maxsize=CACHE_SIZE)(fn)  # type: ignore[return-value]  # pyright: ignore[reportReturnType]


_trace_cache: weakref.WeakKeyDictionary[Callable[..., Any], dict[Hashable, tuple[ClosedJaxpr, tuple[Any, ...], PyTreeDef]]] = (
    weakref.WeakKeyDictionary()
)


# -- tracing ---------------------------------------------------------------------------------
def trace_fun(
    fun: Callable[..., Any], in_tree: PyTreeDef, in_avals: Sequence[ShapedArray], traced_for: str
) -> tuple[ClosedJaxpr, list[Any], PyTreeDef]:
    """Traces ``fun(*args)`` for flat ``in_avals`` (``args`` rebuilt with ``in_tree``).

    Returns the jaxpr with the values it closes over as leading inputs, those values, and
    the structure of the output. As in JAX, the result is cached on the function object
    (held weakly) and the input types, unless it closes over values of an enclosing trace.
    """
    key = (in_tree, tuple(in_avals), traced_for, config.enable_x64.value)
    try:
        table = _trace_cache.get(fun)
    except TypeError:
        table = None
    if table is not None and key in table:
        hit_jaxpr, hit_consts, hit_tree = table[key]
        return hit_jaxpr, list(hit_consts), hit_tree
    jaxpr, consts, out_tree = _trace_fun(fun, in_tree, in_avals, traced_for)
    if not any(isinstance(c, Tracer) for c in consts):
        try:
            _trace_cache.setdefault(fun, {})[key] = (jaxpr, tuple(consts), out_tree)
        except TypeError:
            pass
    return jaxpr, consts, out_tree


def _trace_fun(
    fun: Callable[..., Any], in_tree: PyTreeDef, in_avals: Sequence[ShapedArray], traced_for: str
) -> tuple[ClosedJaxpr, list[Any], PyTreeDef]:
    out_trees: list[PyTreeDef] = []

    def flat(*leaves: Any) -> list[Any]:
        args = tree_unflatten(in_tree, leaves)
        out_leaves, out_tree = tree_flatten(fun(*args))
        out_trees.append(out_tree)
        return out_leaves

    closed = trace_to_jaxpr(flat, in_avals, DebugInfo(traced_for, fun))
    jaxpr, consts = convert_constvars_to_invars(closed)
    return ClosedJaxpr(jaxpr, []), consts, out_trees[0]


def trace_flat(fun: Callable[..., Sequence[Any]], in_avals: Sequence[ShapedArray], traced_for: str) -> tuple[ClosedJaxpr, list[Any]]:
    """Traces a flat function (list in, list out); constants become leading inputs."""
    closed = trace_to_jaxpr(fun, in_avals, DebugInfo(traced_for, None))
    jaxpr, consts = convert_constvars_to_invars(closed)
    return ClosedJaxpr(jaxpr, []), consts


@cached
def hoist_consts(closed: ClosedJaxpr) -> tuple[ClosedJaxpr, tuple[Any, ...]]:
    """``closed`` with its constants moved to leading inputs, and those constants."""
    if not closed.consts:
        return closed, ()
    jaxpr, consts = convert_constvars_to_invars(closed)
    return ClosedJaxpr(jaxpr, []), tuple(consts)


def join_consts(jaxprs: Sequence[ClosedJaxpr], consts: Sequence[Sequence[Any]]) -> tuple[list[ClosedJaxpr], list[Any]]:
    """Gives jaxprs whose first ``len(consts[i])`` inputs are their own constants one shared
    list of leading constant inputs (the union, deduplicated by identity)."""
    union: list[Any] = []
    index: dict[int, int] = {}
    for cs in consts:
        for c in cs:
            if id(c) not in index:
                index[id(c)] = len(union)
                union.append(c)
    patterns = tuple(tuple(index[id(c)] for c in cs) for cs in consts)
    if all(p == tuple(range(len(union))) for p in patterns):
        return list(jaxprs), union
    return list(_pad_const_inputs(tuple(jaxprs), patterns, tuple(get_aval(c) for c in union))), union


@cached
def _pad_const_inputs(
    jaxprs: tuple[ClosedJaxpr, ...], patterns: tuple[tuple[int, ...], ...], avals: tuple[ShapedArray, ...]
) -> tuple[ClosedJaxpr, ...]:
    out: list[ClosedJaxpr] = []
    for closed, pattern in zip(jaxprs, patterns, strict=True):
        j = closed.jaxpr
        own = dict(zip(pattern, j.invars))
        lead = [own[i] if i in own else Var(a) for i, a in enumerate(avals)]
        out.append(ClosedJaxpr(Jaxpr([], [*lead, *j.invars[len(pattern) :]], j.outvars, j.eqns), []))
    return tuple(out)


@cached
def hoist_and_join(jaxprs: tuple[ClosedJaxpr, ...]) -> tuple[tuple[ClosedJaxpr, ...], tuple[Any, ...]]:
    """Jaxprs (possibly with constants) rewritten to share one list of leading constant inputs."""
    hoisted = [hoist_consts(j) for j in jaxprs]
    joined, consts = join_consts([h[0] for h in hoisted], [h[1] for h in hoisted])
    return tuple(joined), tuple(consts)


def with_invars(closed: ClosedJaxpr, invars: Sequence[Var]) -> ClosedJaxpr:
    """The same jaxpr with its (constant-free) input binders replaced by ``invars``."""
    j = closed.jaxpr
    assert not j.constvars and not closed.consts
    return ClosedJaxpr(Jaxpr([], list(invars), j.outvars, j.eqns), [])


def permute_binders(closed: ClosedJaxpr, in_order: Sequence[int] | None, out_order: Sequence[int] | None) -> ClosedJaxpr:
    """The jaxpr whose i-th input is the old input ``in_order[i]`` (likewise outputs)."""
    j = closed.jaxpr
    assert not j.constvars
    invars = j.invars if in_order is None else [j.invars[i] for i in in_order]
    outvars = j.outvars if out_order is None else [j.outvars[i] for i in out_order]
    return ClosedJaxpr(Jaxpr([], list(invars), list(outvars), j.eqns), [])


@cached
def prune_outputs(closed: ClosedJaxpr, keep: tuple[bool, ...]) -> ClosedJaxpr:
    """The jaxpr with only the outputs marked in ``keep`` (dead equations stay; XLA removes them)."""
    j = closed.jaxpr
    return ClosedJaxpr(Jaxpr(j.constvars, j.invars, [v for v, k in zip(j.outvars, keep, strict=True) if k], j.eqns), closed.consts)


def forwarded_inputs(closed: ClosedJaxpr) -> list[int | None]:
    """For each output, the index of the input it returns unchanged (else None)."""
    index = {v: i for i, v in enumerate(closed.jaxpr.invars)}
    return [index.get(v) if isinstance(v, Var) else None for v in closed.jaxpr.outvars]


def split(xs: Sequence[Any], sizes: Sequence[int]) -> list[list[Any]]:
    """``xs`` cut into consecutive pieces of ``sizes`` (and the rest)."""
    out: list[list[Any]] = []
    start = 0
    for n in sizes:
        out.append(list(xs[start : start + n]))
        start += n
    out.append(list(xs[start:]))
    return out


def merge(mask: Sequence[bool], if_true: Sequence[Any], if_false: Sequence[Any]) -> list[Any]:
    """Interleaves two lists back by ``mask`` (``True`` takes from ``if_true``)."""
    t, f = iter(if_true), iter(if_false)
    out = [next(t) if m else next(f) for m in mask]
    assert next(t, None) is None and next(f, None) is None
    return out


# -- batching along chosen axes -------------------------------------------------------------
def batch_axis_name() -> Hashable | None:
    """The vmap axis name of the batching rule running now (kept for collectives in bodies)."""
    axis = current_batch_axis()
    return axis[0] if axis is not None else None


@cached
def batch_jaxpr_axes(
    closed: ClosedJaxpr,
    size: int,
    in_axes: tuple[int | None, ...],
    out_axes: tuple[int | None, ...] | None,
    name: Hashable | None,
) -> tuple[ClosedJaxpr, tuple[bool, ...]]:
    """``closed`` batched with input ``i`` mapped along ``in_axes[i]``.

    With ``out_axes`` each output is put at its axis (broadcast if it does not vary; None
    requires it not to vary); without, outputs that vary are batched at axis 0. Returns the
    jaxpr (constants as leading inputs are not introduced: consts stay closed) and which
    outputs are batched. ``name`` is the vmap axis name (see ``batch_axis_name``).
    """
    out_batched: list[bool] = []

    def fun(*args: Any) -> list[Any]:
        trace = BatchTrace(current_trace(), name, size)
        ins = [trace.wrap(x, d) for x, d in zip(args, in_axes, strict=True)]
        try:
            with set_current_trace(trace):
                outs = eval_jaxpr(closed.jaxpr, closed.consts, *ins)
            pairs = [trace.lift(o) for o in outs]
        finally:
            trace.close()
        dsts = out_axes if out_axes is not None else [None if d is None else 0 for _, d in pairs]
        out_batched[:] = [d is not None for d in dsts]
        return [matchaxis(v, d, dst, size) for (v, d), dst in zip(pairs, dsts, strict=True)]

    avals = [a if d is None else a.update(shape=(*a.shape[:d], size, *a.shape[d:])) for a, d in zip(closed.in_avals, in_axes)]
    return trace_to_jaxpr(fun, avals, DebugInfo("vmap", None)), tuple(out_batched)


def batched_outputs(closed: ClosedJaxpr, size: int, in_batched: Sequence[bool], name: Hashable | None) -> list[bool]:
    """Which outputs of ``closed`` vary when the ``in_batched`` inputs are batched (at axis 0)."""
    return list(batch_jaxpr_axes(closed, size, tuple(0 if b else None for b in in_batched), None, name)[1])


# -- lowering --------------------------------------------------------------------------------
def lower_fun(
    fun: Callable[..., Sequence[Any]], avals_in: Sequence[ShapedArray], args: Sequence[ir.Value[ir.Type]]
) -> list[ir.Value[ir.Type]]:
    """Traces ``fun`` (flat lists of arrays) and emits its ops inline on the ``args`` values."""
    closed = trace_to_jaxpr(fun, avals_in, DebugInfo("lowering", None))
    consts = [hlo_util.constant(np.asarray(c)) for c in closed.consts]
    return lower_jaxpr_body(closed.jaxpr, consts, args)


# -- JAX's type checks and messages ------------------------------------------------------------
def typematch(a: ShapedArray, b: ShapedArray) -> bool:
    """Equal shapes and dtypes (weak types are ignored, as in JAX)."""
    return a.shape == b.shape and a.dtype == b.dtype


def _mismatch_extra(a: ShapedArray, b: ShapedArray) -> str:
    what: list[str] = []
    if a.dtype != b.dtype:
        what.append("the dtypes do not match")
    if a.shape != b.shape:
        what.append("the shapes do not match")
    if not what:
        return ""
    return ", so " + (what[0] if len(what) == 1 else ", ".join(what[:-1]) + ", and " + what[-1])


def _capitalize(s: str) -> str:
    return s[0].upper() + s[1:]


class AvalRepr:
    """Prints an aval as JAX does inside pytrees in messages (``~float32[]`` when weak)."""

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray) -> None:
        self.aval = aval

    def __repr__(self) -> str:
        return str(self.aval)


def avals_tree_str(tree: PyTreeDef, avals: Sequence[ShapedArray]) -> str:
    """The unflattened tree of avals as JAX shows it in messages."""
    return repr(tree_unflatten(tree, [AvalRepr(a) for a in avals]))


def check_branch_outputs(
    api_name: str,
    name1: str,
    name2: str,
    f1: Callable[..., Any],
    f2: Callable[..., Any],
    tree1: PyTreeDef,
    avals1: Sequence[ShapedArray],
    tree2: PyTreeDef,
    avals2: Sequence[ShapedArray],
) -> None:
    """Raises JAX's ``TypeError`` when two branches' outputs differ in structure or type."""
    info1, info2 = function_location(f1), function_location(f2)
    leaves_paths, _ = tree_flatten_with_path(tree_unflatten(tree1, list(range(len(avals1)))))
    paths = [p for p, _ in leaves_paths]

    def component(p: Any) -> str:
        return f" at path {keystr(p)}" if p else ""

    if tree1 != tree2:
        diffs = [
            f"{name1} output{component(p)} is a {t1} but {name2} output{component(p)} is a {t2}, so {expl}"
            for p, t1, t2, expl in equality_errors_pytreedef(tree1, tree2)
        ]
        if not diffs:
            return
        differences = f"{diffs[0]}.\n" if len(diffs) == 1 else "\n".join(f"  * {d};\n" for d in diffs[:-1]) + f"  * {diffs[-1]}.\n"
        raise TypeError(
            f"{api_name} branch outputs must have the same pytree structure, but they differ:\n\n"
            f"{name1} is {info1}\n{name2} is {info2}\n\n{differences}\n"
            f"Revise {name1} and/or {name2} so that they have the same pytree structure."
        )
    if all(typematch(a, b) for a, b in zip(avals1, avals2, strict=True)):
        return
    diffs = [
        f"the output of {name1}{component(p)} has type {_shown(a1)} but the corresponding output of {name2} "
        f"has type {_shown(a2)}{_mismatch_extra(a1, a2)}"
        for p, a1, a2 in zip(paths, avals1, avals2)
        if not typematch(a1, a2)
    ]
    differences = f"{_capitalize(diffs[0])}.\n" if len(diffs) == 1 else "\n".join(f"  * {d};" for d in diffs[:-1]) + f"\n  * {diffs[-1]}.\n"
    raise TypeError(
        f"{api_name} branches must have equal output types but they differ.\n\n"
        f"{name1} is {info1}\n{name2} is {info2}\n\n{differences}\n"
        f"Revise {name1} and/or {name2} so that all output types match."
    )


def check_carry_type(
    name: str,
    body_fun: Callable[..., Any],
    in_tree: PyTreeDef,
    in_avals: Sequence[ShapedArray],
    out_tree: PyTreeDef,
    out_avals: Sequence[ShapedArray],
) -> None:
    """Raises JAX's ``TypeError`` when a loop body's carry output differs from its input."""
    try:
        params = list(inspect.signature(body_fun).parameters)
    except (ValueError, TypeError):
        params = []
    carry_name = params[0] if params else None

    def component(p: Any) -> str:
        if carry_name:
            return f"the input carry component {carry_name}{keystr(p)}" if p else f"the input carry {carry_name}"
        return f"the input carry at path {keystr(p)}" if p else "the input carry"

    if in_tree != out_tree:
        in_unflat = tree_unflatten(in_tree, list(in_avals))
        try:
            out_unflat = tree_unflatten(out_tree, list(out_avals))
        except Exception:
            out_unflat = None
        if out_unflat is None:
            differences = f"the input tree structure is:\n{in_tree}\nthe output tree structure is:\n{out_tree}\n"
        else:
            diffs = [
                f"{component(p)} is a {t1} but the corresponding component of the carry output is a {t2}, so {expl}"
                for p, t1, t2, expl in equality_errors(in_unflat, out_unflat)
            ]
            if not diffs:
                return
            differences = (
                f"{_capitalize(diffs[0])}.\n" if len(diffs) == 1 else "\n".join(f"  * {d};\n" for d in diffs[:-1]) + f"  * {diffs[-1]}.\n"
            )
        raise TypeError(
            f"{name} function carry input and carry output must have the same pytree structure, but they differ:\n\n"
            f"{differences}\nRevise the function so that the carry output has the same pytree structure as the carry input."
        )
    if all(typematch(a, b) for a, b in zip(in_avals, out_avals, strict=True)):
        return
    leaves_paths, _ = tree_flatten_with_path(tree_unflatten(in_tree, list(range(len(in_avals)))))
    diffs = [
        f"{component(p)} has type {_shown(a)} but the corresponding output carry component has type {_shown(b)}{_mismatch_extra(a, b)}"
        for (p, _), a, b in zip(leaves_paths, in_avals, out_avals)
        if not typematch(a, b)
    ]
    differences = f"{_capitalize(diffs[0])}.\n" if len(diffs) == 1 else "\n".join(f"  * {d};\n" for d in diffs[:-1]) + f"  * {diffs[-1]}.\n"
    raise TypeError(
        f"{name} function carry input and carry output must have equal types, but they differ:\n\n"
        f"{differences}\nRevise the function so that all output types match the corresponding input types."
    )


def _shown(aval: ShapedArray) -> str:
    """An aval as JAX's type-mismatch messages print it (``float32[3]``: no weak-type mark)."""
    return f"{aval.dtype.name}[{','.join(map(str, aval.shape))}]"
