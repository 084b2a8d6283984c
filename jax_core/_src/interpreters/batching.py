"""Batching: the trace behind ``vmap``.

A ``BatchTracer`` is a value with one extra axis, ``batch_dim``, that indexes the batch.
``BatchTrace`` applies each primitive's batching rule with its parent trace current;
values from outside the batch (or results a rule reports as unbatched) stay bare.
Collectives naming the trace's axis (``psum``, ``axis_index``) are batched here even
when no operand is batched.
"""

from __future__ import annotations

import contextlib
import numbers
import threading
from collections.abc import Callable, Generator, Hashable, Sequence
from typing import Any

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.axis_env import extend_axis_env
from jax_core._src.core.jaxpr import ClosedJaxpr, eval_jaxpr
from jax_core._src.core.primitive import Primitive
from jax_core._src.core.trace import Trace, Tracer, current_trace, get_aval, set_current_trace
from jax_core._src.interpreters.batching_util import matchaxis
from jax_core._src.interpreters.staging import DebugInfo, trace_to_jaxpr


class BatchTracer(Tracer):
    """A batched value: ``val`` holds every batch element along axis ``batch_dim``."""

    __slots__ = ("val", "batch_dim")

    _trace: BatchTrace

    def __init__(self, trace: BatchTrace, val: Any, batch_dim: int) -> None:
        super().__init__(trace)
        self.val: Any = val
        self.batch_dim: int = batch_dim

    @property
    def aval(self) -> ShapedArray:
        """The aval of one batch element."""
        a = get_aval(self.val)
        shape = a.shape[: self.batch_dim] + a.shape[self.batch_dim + 1 :]
        return ShapedArray(shape, a.dtype, a.weak_type)

    def provenance(self) -> str:
        """Batched values are never concrete: they stand for many values at once."""
        return f"This value is batched by vmap (axis size {self._trace.size})."


class _RuleAxis(threading.local):
    axis: tuple[Hashable, int] | None = None


_rule_axis: _RuleAxis = _RuleAxis()


def current_batch_axis() -> tuple[Hashable, int] | None:
    """``(axis_name, size)`` of the batching rule running now (for collectives' rules)."""
    return _rule_axis.axis


@contextlib.contextmanager
def _running_rule(name: Hashable, size: int) -> Generator[None]:
    prev = _rule_axis.axis
    _rule_axis.axis = (name, size)
    try:
        yield
    finally:
        _rule_axis.axis = prev


class BatchTrace(Trace):
    """Applies batching rules for one ``vmap`` axis."""

    __slots__ = ("parent", "axis_name", "size", "_live")

    def __init__(self, parent: Trace, axis_name: Hashable | None, size: int) -> None:
        self.parent: Trace = parent
        self.axis_name: Hashable | None = axis_name
        self.size: int = size
        self._live = True

    def is_live(self) -> bool:
        """Whether the vmapped function is still running."""
        return self._live

    def close(self) -> None:
        """Ends the trace."""
        self._live = False

    def describe(self) -> str:
        """``BatchTrace``."""
        return "BatchTrace"

    def lift(self, x: Any) -> tuple[Any, int | None]:
        """``(value, batch_dim)``; values from outside are unbatched."""
        if isinstance(x, BatchTracer) and x.belongs_to(self):
            return x.val, x.batch_dim
        if isinstance(x, Tracer):
            x.check_live()
        return x, None

    def wrap(self, val: Any, dim: int | None) -> Any:
        """A tracer for a batched value; unbatched values stay bare."""
        return val if dim is None else BatchTracer(self, val, dim)

    def _names_me(self, params: dict[str, Any]) -> bool:
        axes = params.get("axes")
        return self.axis_name is not None and isinstance(axes, tuple) and self.axis_name in axes  # pyright: ignore[reportUnknownMemberType]

    def process_primitive(self, primitive: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
        """Applies ``primitive``'s batching rule (or the primitive itself if nothing is batched)."""
        pairs = [self.lift(a) for a in args]
        vals = [v for v, _ in pairs]
        dims = [d for _, d in pairs]
        if all(d is None for d in dims) and not self._names_me(params):
            with set_current_trace(self.parent):
                return primitive.bind(*vals, **params)
        rule = primitive.rule("batch")
        with set_current_trace(self.parent), _running_rule(self.axis_name, self.size):
            out, out_dim = rule(vals, dims, **params)
        if primitive.multiple_results:
            if len(out) != len(out_dim):
                raise ValueError(
                    f"The batching rule of primitive '{primitive.name}' returned {len(out)} outputs and "
                    f"{len(out_dim)} batch dimensions; it must return one batch dimension per output"
                )
            for v, d in zip(out, out_dim):
                self._check_out_dim(primitive, v, d)
            return [self.wrap(v, d) for v, d in zip(out, out_dim, strict=True)]
        self._check_out_dim(primitive, out, out_dim)
        return self.wrap(out, out_dim)

    def _check_out_dim(self, primitive: Primitive, out: Any, dim: object) -> None:
        """A ``ValueError`` naming the primitive when its batching rule returned a batch dimension
        that is not an axis of its output of this vmap's size."""
        if dim is None:
            return
        shape = get_aval(out).shape
        if not isinstance(dim, numbers.Integral) or not -len(shape) <= int(dim) < len(shape) or shape[dim] != self.size:
            raise ValueError(
                f"The batching rule of primitive '{primitive.name}' returned batch dimension {dim!r} for an "
                f"output of shape {shape}; it must be None or an axis of size {self.size} (the vmapped axis)"
            )


def _describe_arg(names: Sequence[str] | None, i: int) -> str:
    return f"argument {names[i]}" if names is not None and i < len(names) else f"argument #{i}"


def infer_axis_size(
    args: Sequence[Any], in_dims: Sequence[int | None], axis_size: int | None, arg_names: Sequence[str] | None = None
) -> int:
    """The batch size the mapped axes agree on (``ValueError`` listing each size otherwise)."""
    sizes = [(i, get_aval(x).shape[d]) for i, (x, d) in enumerate(zip(args, in_dims)) if d is not None]
    if axis_size is not None:
        if any(s != axis_size for _, s in sizes):
            raise ValueError(f"vmap got inconsistent sizes for array axes to be mapped: axis_size={axis_size} but got {[s for _, s in sizes]}")
        return axis_size
    if not sizes:
        raise ValueError("vmap must have at least one non-None value in in_axes")
    if len({s for _, s in sizes}) > 1:
        lines = [
            f"  * one axis had size {s}: axis {in_dims[i]} of {_describe_arg(arg_names, i)} of type {get_aval(args[i])}"
            for i, s in sizes
        ]
        raise ValueError("vmap got inconsistent sizes for array axes to be mapped:\n" + ";\n".join(lines))
    return sizes[0][1]


def vmap_flat(
    fun: Callable[..., Sequence[Any]],
    args: Sequence[Any],
    in_dims: Sequence[int | None],
    out_dims: Callable[[int], Sequence[int | None]],
    size: int,
    axis_name: Hashable | None = None,
) -> list[Any]:
    """Runs ``fun`` batched over flat ``args``; ``out_dims(n)`` gives where each of the ``n``
    outputs puts its batch axis (``None``: it must be unbatched)."""
    trace = BatchTrace(current_trace(), axis_name, size)
    ins = [trace.wrap(x, None if d is None else d % max(get_aval(x).ndim, 1)) for x, d in zip(args, in_dims)]
    env = extend_axis_env(axis_name, size) if axis_name is not None else contextlib.nullcontext()
    try:
        with env, set_current_trace(trace):
            outs = fun(*ins)
        pairs = [trace.lift(o) for o in outs]
    finally:
        trace.close()
    dims_out = out_dims(len(pairs))
    result: list[Any] = []
    for (val, d), dst in zip(pairs, dims_out, strict=True):
        if dst is None and d is not None:
            raise ValueError(
                "vmap has mapped output but out_axes is None. Use out_axes=0 (or another int) for "
                "outputs that depend on the mapped inputs."
            )
        if dst is not None and dst < 0:
            dst += get_aval(val).ndim + (d is None)
        result.append(matchaxis(val, d, dst, size))
    return result


def batch_jaxpr(
    closed: ClosedJaxpr,
    size: int,
    in_batched: Sequence[bool],
    instantiate: bool | Sequence[bool],
    axis_name: Hashable | None = None,
) -> tuple[ClosedJaxpr, list[bool]]:
    """The jaxpr of ``closed`` batched along axis 0 of the ``in_batched`` inputs.

    Returns it with which outputs are batched (at axis 0); ``instantiate`` forces outputs to
    be batched (broadcast) even if they do not vary.
    """
    n_out = len(closed.jaxpr.outvars)
    inst = [instantiate] * n_out if isinstance(instantiate, bool) else list(instantiate)
    out_batched: list[bool] = []
    if axis_name is None and _rule_axis.axis is not None:
        axis_name = _rule_axis.axis[0]  # called by a batching rule: collectives inside name its axis

    def fun(*args: Any) -> list[Any]:
        trace = BatchTrace(current_trace(), axis_name, size)
        ins = [trace.wrap(x, 0 if b else None) for x, b in zip(args, in_batched)]
        try:
            with set_current_trace(trace):
                outs = eval_jaxpr(closed.jaxpr, closed.consts, *ins)
            pairs = [trace.lift(o) for o in outs]
        finally:
            trace.close()
        out_batched[:] = [d is not None or i for (_, d), i in zip(pairs, inst)]
        return [matchaxis(v, d, 0 if b else None, size) for (v, d), b in zip(pairs, out_batched)]

    avals = [a.update(shape=(size, *a.shape)) if b else a for a, b in zip(closed.in_avals, in_batched)]
    return trace_to_jaxpr(fun, avals, DebugInfo("vmap", None)), out_batched
