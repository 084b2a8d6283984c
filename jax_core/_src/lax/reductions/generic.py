"""The generic ``reduce`` (XLA's Reduce): a pytree of operands reduced over ``dimensions`` with a
Python computation, as JAX's ``lax.reduce`` has it.

``reduce`` recognises ``lax.add``/``mul``/``max``/``min``/``bitwise_and``/``or``/``xor`` with
their identity as the one (concrete, scalar) init value and calls the monoid reducers of
``reduce.py`` (``reduce_sum`` ...), as JAX does; any other computation is traced to a jaxpr
once per function and init types (``reduction_jaxpr``, which ``reduce_window`` shares) and
bound as the variadic ``reduce`` primitive, lowered to ``stablehlo.reduce`` with the jaxpr
as its region. Its jvp is JAX's: the reduced axes flattened to the front and combined
pairwise in a tree with the vectorised computation, differentiated through; batching moves
the batch axes to the front (batched init values are not supported, as in JAX).
"""

from __future__ import annotations

import math
import operator
import weakref
from collections.abc import Callable, Hashable, Sequence
from typing import Any, overload

import numpy as np

from jax_core._src import config, dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import ClosedJaxpr, eval_jaxpr
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.interpreters.ad import jvp_flat
from jax_core._src.interpreters.ad_util import Zero, is_zero, tangent_aval
from jax_core._src.interpreters.batching import vmap_flat
from jax_core._src.interpreters.batching_util import axis_size, bdim_at_front
from jax_core._src.interpreters.staging import DebugInfo, trace_to_jaxpr
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.elementwise.conversions import to_dtype
from jax_core._src.lax.indexing.slicing import slice_in_dim
from jax_core._src.lax.reductions import reduce as monoids
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.lax.shape.compositions import full
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.tree.tree_util import PyTreeDef, tree_flatten, tree_unflatten
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

# -- tracing the computation -----------------------------------------------------------------

_comp_cache: weakref.WeakKeyDictionary[Callable[..., Any], dict[Hashable, tuple[ClosedJaxpr, PyTreeDef]]] = (
    weakref.WeakKeyDictionary()
)


def reduction_jaxpr(
    computation: Callable[..., Any],
    init_avals: Sequence[ShapedArray],
    init_tree: PyTreeDef,
    traced_for: str,
) -> tuple[ClosedJaxpr, PyTreeDef]:
    """``computation(x, y)`` over scalars of ``init_avals`` (each a tree like ``init_tree``),
    traced once per function and input types, and the tree of its result (JAX's
    ``_variadic_reduction_jaxpr``)."""
    key = (tuple(init_avals), init_tree, traced_for, config.enable_x64.value)
    try:
        table = _comp_cache.get(computation)
    except TypeError:
        table = None
    if table is not None and key in table:
        return table[key]
    n = len(init_avals)
    out_trees: list[PyTreeDef] = []

    def flat(*args: Any) -> list[Any]:
        x, y = tree_unflatten(init_tree, args[:n]), tree_unflatten(init_tree, args[n:])
        leaves, tree = tree_flatten(computation(x, y))
        out_trees.append(tree)
        return leaves

    closed = trace_to_jaxpr(flat, [*init_avals, *init_avals], DebugInfo(traced_for, computation))
    if any(isinstance(c, Tracer) for c in closed.consts):
        raise NotImplementedError(
            "Reduction computations can't close over Tracers. Please open an issue at "
            "https://github.com/jax-ml/jax."
        )
    result = (closed, out_trees[0])
    try:
        _comp_cache.setdefault(computation, {})[key] = result
    except TypeError:
        pass
    return result


# -- the monoid reducers -----------------------------------------------------------------------

MonoidReducer = Callable[[ArrayLike, Sequence[int]], Array]


def _monoid_reducer(computation: Callable[..., Any], inits: Sequence[Any]) -> MonoidReducer | None:
    """The monoid reducer when ``computation`` is one of lax's monoid ops and the one init
    value is concrete, scalar and its identity (JAX's ``_get_monoid_reducer``)."""
    if len(inits) != 1:
        return None
    (x,) = inits
    value = x.to_concrete_value() if isinstance(x, Tracer) else x
    aval = get_aval(x)
    if value is None or aval.shape != ():
        return None
    val, dtype = np.asarray(value), aval.dtype
    intlike = dtype == np.bool_ or dtypes.issubdtype(dtype, np.integer)
    candidates: list[tuple[Callable[..., Any], MonoidReducer, Callable[[np.dtype[Any]], Any], bool]] = [
        (lax.add, monoids.reduce_sum, monoids.zero_of, True),
        (lax.mul, monoids.reduce_prod, monoids.one_of, True),
        (lax.bitwise_or, monoids.reduce_or, monoids.zero_of, intlike),
        (lax.bitwise_and, monoids.reduce_and, _all_ones, intlike),
        (lax.bitwise_xor, monoids.reduce_xor, monoids.zero_of, intlike),
        (lax.max, monoids.reduce_max, monoids.max_identity, True),
        (lax.min, monoids.reduce_min, monoids.min_identity, True),
    ]
    for op, reducer, identity, allowed in candidates:
        if computation is op and allowed:
            return reducer if bool(np.equal(val, identity(dtype))) else None
    return None


def _all_ones(dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    return np.array(-1).astype(dtype)


# -- reduce ------------------------------------------------------------------------------------


@overload
def reduce(
    operands: ArrayLike,
    init_values: ArrayLike,
    computation: Callable[[Array, Array], Array],
    dimensions: Sequence[int],
) -> Array: ...
@overload
def reduce(
    operands: Any, init_values: Any, computation: Callable[[Any, Any], Any], dimensions: Sequence[int]
) -> Any: ...
def reduce(
    operands: Any, init_values: Any, computation: Callable[[Any, Any], Any], dimensions: Sequence[int]
) -> Any:
    """Reduces ``operands`` (an array or a pytree of arrays) over ``dimensions`` with
    ``computation``, starting from ``init_values`` (scalars, a tree like ``operands``).

    Wraps XLA's Reduce. ``init_values`` and ``computation`` must form a monoid (an identity
    and an associative operation) for the result to be defined. ``lax.add``, ``mul``,
    ``max``, ``min`` and the bitwise ops with their identity as a concrete init value call
    ``reduce_sum`` and friends, as in JAX. Returns a tree like ``computation``'s result.
    """
    flat_operands, operand_tree = tree_flatten(operands)
    flat_inits, init_tree = tree_flatten(init_values)
    if operand_tree != init_tree:
        raise ValueError(
            f"Operands must have the same tree structure as init_values: {operand_tree} vs. {init_tree}"
        )
    if len(flat_operands) != len(flat_inits):
        raise ValueError(
            "Must have same total number of operands as init_values:  "
            f"{len(flat_operands)} vs. {len(flat_inits)}"
        )
    monoid = _monoid_reducer(computation, flat_inits)
    if monoid is not None:
        # The monoid primitives keep the operand's weak type; JAX's result is weak only
        # when the init value is too.
        weak = dtypes.is_weakly_typed(flat_operands[0]) and dtypes.is_weakly_typed(flat_inits[0])
        return to_dtype(monoid(flat_operands[0], dimensions), None, weak)
    if not flat_operands:
        raise ValueError("reduce needs at least one operand (JAX: max() iterable argument is empty)")
    jaxpr, out_tree = reduction_jaxpr(computation, [get_aval(v) for v in flat_inits], init_tree, "reduce comp")
    outs = reduce_p.bind(
        *flat_operands,
        *flat_inits,
        computation=computation,
        jaxpr=jaxpr,
        dimensions=tuple(operator.index(d) for d in dimensions),
    )
    return tree_unflatten(out_tree, outs)


reduce_p: Primitive = Primitive("reduce", multiple_results=True)


def _reduce_abstract_eval(
    *avals: ShapedArray, computation: Callable[..., Any], jaxpr: ClosedJaxpr, dimensions: tuple[int, ...]
) -> list[ShapedArray]:
    n = len(avals) // 2
    operands, inits = list(avals[:n]), list(avals[n:])
    if any(a.shape != () for a in inits):
        raise ValueError(f"reduce found non-scalar initial value: {[a.shape for a in inits]}")
    # np.delete, as JAX: negative dimensions count from the end here (the lowering rejects
    # them), an out-of-range one raises IndexError.
    shapes = [tuple(int(d) for d in np.delete(np.array(a.shape, np.int64), dimensions)) for a in operands]
    if [a.dtype for a in operands] != [a.dtype for a in inits]:
        raise TypeError(
            "reduce operand dtypes should match corresponding initial value dtypes, "
            f"got operands={operands} and initial_values={inits}"
        )
    return [
        ShapedArray(s, a.dtype, a.weak_type and i.weak_type) for s, a, i in zip(shapes, operands, inits)
    ]


def _check_lowerable(avals_in: Sequence[ShapedArray], jaxpr: ClosedJaxpr, dimensions: tuple[int, ...]) -> None:
    """What XLA's verifier rejects, raised as the ``ValueError`` JAX raises when lowering."""
    n = len(avals_in) // 2
    ndim = avals_in[0].ndim
    problem = None
    outs = jaxpr.out_avals
    mismatched = [k for k in range(1, n) if avals_in[k].shape != avals_in[0].shape]
    if mismatched:
        problem = (
            "expects all inputs to have compatible shapes. Shape at input-index "
            f"{mismatched[0]} is not compatible with shape at input-index 0"
        )
    elif len(outs) != n:
        problem = f"Reduction-region here must produce {n} tensors, but produces {len(outs)} instead"
    elif any(o.dtype != i.dtype or o.shape != () for o, i in zip(outs, avals_in[n:])):
        k, (o, i) = next(
            (k, p) for k, p in enumerate(zip(outs, avals_in[n:])) if p[0].dtype != p[1].dtype or p[0].shape != ()
        )
        problem = (
            f"The type of reduction-region's parameter at index {k} is different than the "
            f"corresponding result type: '{aval_to_ir_type(i)}' vs '{aval_to_ir_type(o)}'"
        )
    elif any(not 0 <= d < ndim for d in dimensions):
        d = next(d for d in dimensions if not 0 <= d < ndim)
        problem = f"Out-of-bounds dimension {d}, expected to be in range [0, {ndim})"
    elif len(set(dimensions)) != len(dimensions):
        d = next(d for i, d in enumerate(dimensions) if d in dimensions[:i])
        problem = f"Duplicate reduction dimension: {d}"
    if problem is not None:
        raise ValueError(f"Cannot lower jaxpr with verifier errors:\n\t{problem}")


def _reduce_lower(
    ctx: LoweringRuleContext,
    *args: ir.Value[Any],
    computation: Callable[..., Any],
    jaxpr: ClosedJaxpr,
    dimensions: tuple[int, ...],
) -> list[ir.Value[Any]]:
    _check_lowerable(ctx.avals_in, jaxpr, dimensions)
    n = len(args) // 2
    op = hlo.ReduceOp(
        [aval_to_ir_type(a) for a in ctx.avals_out], list(args[:n]), list(args[n:]), list(dimensions)
    )
    scalars = [aval_to_ir_type(a) for a in ctx.avals_in[n:]]
    block = op.regions[0].blocks.append(*scalars, *scalars)
    with ir.InsertionPoint(block):
        hlo.return_(ctx.lower_jaxpr(jaxpr.jaxpr, jaxpr.consts, list(block.arguments)))
    return list(op.results)


def _reduce_jvp(
    primals: Sequence[Any],
    tangents: Sequence[Any],
    *,
    computation: Callable[..., Any],
    jaxpr: ClosedJaxpr,
    dimensions: tuple[int, ...],
) -> tuple[list[Any], list[Any]]:
    """JAX's ``_reduce_jvp``: the reduced axes flattened to the front, then halves combined
    with the computation vectorised over the other axes (padding an odd half with the init
    values) until one row is left, all differentiated in forward mode. The init values
    must have zero tangents."""
    n = len(primals) // 2
    xs, inits = list(primals[:n]), list(primals[n:])
    if not all(is_zero(t) for t in tangents[n:]):
        raise NotImplementedError(
            "Gradient of general lax.reduce with non-zero tangents for initial values to "
            "reduction not implemented"
        )
    shape = get_aval(xs[0]).shape
    kept = [i for i in range(len(shape)) if i not in dimensions]
    rows = math.prod(shape[a] for a in dimensions)
    new_shape = (rows, *(shape[i] for i in kept))
    perm = (*dimensions, *kept)
    xs = [shape_dims.reshape(x, new_shape, perm) for x in xs]
    ts = [
        Zero(tangent_aval(get_aval(x))) if is_zero(t) else shape_dims.reshape(t, new_shape, perm)
        for x, t in zip(xs, tangents[:n])
    ]

    def combine(*args: Any) -> list[Any]:
        return eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *args)

    levels = len(kept) + 1

    def vectorised(*args: Any, depth: int = levels) -> list[Any]:
        if depth == 0:
            return combine(*args)
        size = get_aval(args[0]).shape[0]
        return vmap_flat(
            lambda *a: vectorised(*a, depth=depth - 1), args, [0] * len(args), lambda m: [0] * m, size
        )

    def tree(*vals: Any) -> list[Any]:
        cur = list(vals)
        while get_aval(cur[0]).shape[0] > 1:
            m = get_aval(cur[0]).shape[0]
            m1 = (m + 1) // 2
            firsts = [slice_in_dim(v, 0, m1) for v in cur]
            seconds = [slice_in_dim(v, m1, None) for v in cur]
            if m - m1 != m1:
                config_ = [(0, 1, 0)] + [(0, 0, 0)] * len(kept)
                seconds = [shape_assembly.pad(v, i, config_) for v, i in zip(seconds, inits)]
            cur = vectorised(*firsts, *seconds)
        if get_aval(cur[0]).shape[0] == 0:
            return [full(new_shape[1:], i) for i in inits]
        return [shape_dims.squeeze(v, (0,)) for v in cur]

    return jvp_flat(tree, xs, ts)


def _reduce_batch(
    args: Sequence[Any],
    dims: Sequence[int | None],
    *,
    computation: Callable[..., Any],
    jaxpr: ClosedJaxpr,
    dimensions: tuple[int, ...],
) -> tuple[list[Any], list[int]]:
    """Batching as JAX: every operand's batch axis to the front, the reduced axes shifted
    past it; batched init values raise ``NotImplementedError`` (JAX's, without a message)."""
    n = len(args) // 2
    if any(d is not None for d in dims[n:]):
        raise NotImplementedError
    size = axis_size(args, dims)
    operands = [bdim_at_front(x, d, size) for x, d in zip(args[:n], dims[:n])]
    outs = reduce_p.bind(
        *operands, *args[n:], computation=computation, jaxpr=jaxpr, dimensions=tuple(d + 1 for d in dimensions)
    )
    return list(outs), [0] * n


reduce_p.def_rules(
    Rules(abstract_eval=_reduce_abstract_eval, lower=_reduce_lower, jvp=_reduce_jvp, batch=_reduce_batch)
)
