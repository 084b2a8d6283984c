"""What ``jax_core.extend.core`` adds to the jaxpr IR for libraries: building equations and
jaxprs directly, evaluating them, walking sub-jaxprs, mapping avals, and peeking at the trace
state (JAX 0.12's ``jax.extend.core`` functions)."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Generator, Iterator, Sequence, Set
from typing import Any, TypeVar, cast

import numpy as np

from jax_core._src.core import axis_env
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.effects import Effect
from jax_core._src.core.errors import ConcretizationTypeError
from jax_core._src.core.jaxpr import Atom, ClosedJaxpr, Jaxpr, JaxprEqn, Var, eval_jaxpr
from jax_core._src.core.primitive import Primitive
from jax_core._src.core.source_info import SourceInfo
from jax_core._src.core.trace import Trace, Tracer, current_trace, eval_trace, get_aval, set_current_trace
from jax_core._src.interpreters.batching import BatchTrace
from jax_core._src.interpreters.staging import JaxprTrace
from jax_core._src.runtime.array import ArrayImpl

T = TypeVar("T")


class DropVar(Var):
    """An equation output nothing reads (printed ``_``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "_"


class TraceTag:
    """An identity for a transformation's traces (JAX's ``TraceTag``: compared by identity)."""

    __slots__ = ()


array_types: frozenset[type] = frozenset((np.ndarray, ArrayImpl, *(np.dtype(t).type for t in "?bhilqBHILQefdgFDG")))
"""The concrete array types values of jaxprs may be (besides Python scalars)."""


def jaxpr_as_fun(closed_jaxpr: ClosedJaxpr, *args: Any) -> Callable[..., list[Any]]:
    """The function ``closed_jaxpr`` computes: ``jaxpr_as_fun(cj)(*args)`` evaluates it in the
    current trace (so it can be jitted, differentiated, vmapped), returning its outputs as a list.
    Extra ``args`` are bound first, as JAX's curried form."""
    if not isinstance(closed_jaxpr, ClosedJaxpr):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"jaxpr_as_fun takes a ClosedJaxpr; got {type(closed_jaxpr).__name__}")

    def fun(*xs: Any) -> list[Any]:
        return eval_jaxpr(closed_jaxpr.jaxpr, closed_jaxpr.consts, *xs)

    return functools.partial(fun, *args)


def new_jaxpr_eqn(
    invars: Sequence[Atom],
    outvars: Sequence[Var],
    primitive: Primitive,
    params: dict[str, Any],
    effects: Set[Effect],
    source_info: SourceInfo | None = None,
    ctx: object = None,
) -> JaxprEqn:
    """An equation applying ``primitive`` with ``params`` to ``invars``, defining ``outvars``
    (whose avals must be the primitive's abstract evaluation of the inputs', checked now);
    ``effects`` are the equation's effects. ``ctx`` is accepted as JAX's and unused."""
    del ctx
    expected = primitive.abstract_eval(*(a.aval for a in invars), **params)
    got = [v.aval for v in outvars]
    if len(expected) != len(got) or any(e.shape != g.shape or e.dtype != g.dtype for e, g in zip(expected, got)):
        raise ValueError(
            f"new_jaxpr_eqn: '{primitive.name}' applied to ({', '.join(a.aval.str_short() for a in invars)}) "
            f"gives ({', '.join(a.str_short() for a in expected)}); the outvars are ({', '.join(a.str_short() for a in got)})"
        )
    eqn = JaxprEqn(list(invars), list(outvars), primitive, dict(params), source_info)
    eqn._effects = frozenset(effects)  # pyright: ignore[reportPrivateUsage]
    return eqn


def gensym() -> Callable[[ShapedArray], Var]:
    """A maker of fresh variables: ``gensym()(aval)`` is a new ``Var`` of ``aval``."""
    return Var


def subjaxprs(jaxpr: Jaxpr) -> Iterator[Jaxpr]:
    """The jaxprs among the params of ``jaxpr``'s equations (one level down)."""
    for eqn in jaxpr.eqns:
        yield from jaxprs_in_params(eqn.params)


def jaxprs_in_params(params: dict[str, Any]) -> Iterator[Jaxpr]:
    """The jaxprs (closed ones' inner jaxprs) among ``params``' values and their tuples/lists."""
    for value in params.values():
        items: Sequence[object] = cast("Sequence[object]", value) if isinstance(value, (tuple, list)) else (value,)
        for item in items:
            if isinstance(item, ClosedJaxpr):
                yield item.jaxpr
            elif isinstance(item, Jaxpr):
                yield item


def mapped_aval(size: int, axis: int | None, aval: ShapedArray) -> ShapedArray:
    """The aval of one element of ``aval`` mapped over ``axis`` (of ``size``); ``None``: unmapped."""
    if axis is None:
        return aval
    if aval.shape[axis] != size:
        raise ValueError(f"mapped_aval: axis {axis} of {aval.str_short()} has size {aval.shape[axis]}, not {size}")
    return aval.update(shape=aval.shape[:axis] + aval.shape[axis + 1 :])


def unmapped_aval(size: int, axis: int | None, aval: ShapedArray, explicit_mesh_axis: object = None) -> ShapedArray:
    """The aval of ``size`` values of ``aval`` stacked at ``axis`` (``None``: unmapped)."""
    del explicit_mesh_axis
    if axis is None:
        return aval
    return aval.update(shape=aval.shape[:axis] + (size,) + aval.shape[axis:])


def valid_jaxtype(x: object) -> bool:
    """Whether ``x`` is a value jaxprs compute with (an array, a scalar, a key array)."""
    try:
        get_aval(x)
    except TypeError:
        return False
    return True


def concrete_or_error(force: Callable[[Any], T] | None, val: Any, context: str = "") -> T | Any:
    """``force(val)`` for a concrete ``val`` (or a tracer whose value is known now, as a primal
    under ``grad``); ``ConcretizationTypeError`` with ``context`` for a traced one."""
    fn: Callable[[Any], Any] = force if force is not None else (lambda v: v)
    if isinstance(val, Tracer):
        concrete = val.to_concrete_value()
        if concrete is None:
            raise ConcretizationTypeError(
                f"Abstract tracer value encountered where concrete value is expected: {val.aval.str_short()}\n{context}"
            )
        return fn(concrete)
    return fn(val)


def find_top_trace(args: Sequence[Any]) -> Trace:
    """The trace ``bind`` would apply a primitive to ``args`` in (the current one)."""
    del args
    return current_trace()


@contextlib.contextmanager
def take_current_trace() -> Generator[Trace]:
    """The current trace, with eager evaluation current inside the block (for a rule that
    applies primitives in a trace of its choosing, with ``bind_with_trace``)."""
    trace = current_trace()
    with set_current_trace(eval_trace):
        yield trace


def get_opaque_trace_state(convention: object = None) -> object:
    """An opaque token of the current trace state (compared by identity; for caches)."""
    del convention
    return current_trace()


def _traces() -> Iterator[Trace]:
    trace: Trace | None = current_trace()
    while trace is not None:
        yield trace
        parent = getattr(trace, "parent", None)
        trace = parent if isinstance(parent, Trace) else None


def unsafe_am_i_under_a_jit_DO_NOT_USE() -> bool:
    """Whether the code runs while being staged out (under ``jit`` or ``make_jaxpr``)."""
    return any(isinstance(t, JaxprTrace) for t in _traces())


def unsafe_am_i_under_a_vmap_DO_NOT_USE() -> bool:
    """Whether the code runs under ``vmap``."""
    return any(isinstance(t, BatchTrace) for t in _traces())


def unsafe_get_axis_names_DO_NOT_USE() -> list[Any]:
    """The names of the named axes in scope (``vmap``/``pmap`` axis names)."""
    return [name for name, _ in axis_env.bound_axes()]


def nonempty_axis_env_DO_NOT_USE() -> bool:
    """Whether some named axis is in scope."""
    return bool(axis_env.bound_axes())


def pp_jaxpr(jaxpr: Jaxpr | ClosedJaxpr, width: int = 80) -> str:
    """``jaxpr`` as JAX prints it (``{ lambda ; a:f32[]. let ... in (b,) }``)."""
    return jaxpr.pretty_print(width)
