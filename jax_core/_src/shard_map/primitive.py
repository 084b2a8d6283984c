"""``shard_map_p``: a function applied per device to the blocks of its arguments (seed 000 part 5).

Its ``jaxpr`` is the body on per-device avals (which, with ``check_vma``, carry the mesh axes they
vary over); ``in_specs``/``out_specs`` say how global arguments split into blocks and result
blocks concatenate. It lowers to ``sdy.manual_computation`` inside a module partitioned over the
mesh; eagerly it runs as a ``jit`` over the mesh. Its transformation rules transform the body
inside the body's context (its mesh axes bound, their variance tracked), so collectives in it
keep their meaning: jvp adds tangents with the primals' specs, transpose swaps the roles of
``in_specs`` and ``out_specs`` (the body's collectives transpose efficiently, see
``lax/parallel/reductions.py``), and ``vmap`` adds an unsplit leading dimension.
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator, Sequence
from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray, register_axis_order
from jax_core._src.core.axis_env import extend_axis_env, manual_axes
from jax_core._src.core.jaxpr import ClosedJaxpr, dce_jaxpr_used, eval_jaxpr
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.interpreters.ad import jvp_jaxpr, transpose_jaxpr
from jax_core._src.interpreters.ad_util import UndefinedPrimal, Zero, instantiate_zeros, tangent_aval
from jax_core._src.interpreters.batching import batch_jaxpr
from jax_core._src.interpreters.batching_util import axis_size, moveaxis
from jax_core._src.interpreters.partial_eval import (
    PartialEvalTrace,
    forward_input_residuals,
    merge_outputs,
    partial_eval_jaxpr,
)
from jax_core._src.interpreters.staging import DebugInfo, trace_to_jaxpr
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import sdy
from jax_core._src.lowering.ir_types import value_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext, lower_jaxpr_body, module_context
from jax_core._src.shard_map.specs import global_aval
from jax_core._src.sharding.mesh import Mesh
from jax_core._src.sharding.partition_spec import PartitionSpec
from jax_core._src.sharding.shardings import NamedSharding

Specs = tuple[PartitionSpec, ...]


@contextlib.contextmanager
def body_context(mesh: Mesh, manual: frozenset[Any], check_vma: bool) -> Generator[None]:
    """Where a body is traced or transformed: its manual mesh axes bound (for collectives), and
    with ``check_vma`` their variance tracked."""
    register_axis_order(mesh.axis_names)
    with contextlib.ExitStack() as stack:
        for name in mesh.axis_names:
            if name in manual:
                stack.enter_context(extend_axis_env(name, mesh.shape[name]))
        if check_vma:
            stack.enter_context(manual_axes(manual))
        yield


def _abstract_eval(*avals: ShapedArray, jaxpr: ClosedJaxpr, mesh: Mesh, in_specs: Specs, out_specs: Specs, **params: Any) -> list[ShapedArray]:
    return [global_aval(mesh, spec, a) for spec, a in zip(out_specs, jaxpr.out_avals, strict=True)]


def _impl(*args: Any, **params: Any) -> Any:
    from jax_core._src.transforms.jit import make_jit

    def run(*xs: Any) -> Any:
        return shard_map_p.bind(*xs, **params)

    mesh: Mesh = params["mesh"]
    outs = [NamedSharding(mesh, spec) for spec in params["out_specs"]]
    return make_jit(run, out_shardings=outs)(*args)


def _lower(
    ctx: LoweringRuleContext,
    *args: ir.Value[ir.Type],
    jaxpr: ClosedJaxpr,
    mesh: Mesh,
    in_specs: Specs,
    out_specs: Specs,
    check_vma: bool,
    newly_manual_axes: frozenset[Any],
) -> list[ir.Value[ir.Type]]:
    context = module_context()
    if mesh.size == 1:
        # One device: each block is the whole array, and the body runs as it is (its collectives
        # see groups of one device; XLA does not partition a one-device program, so a manual
        # computation would stay unexpanded).
        previous_mesh = context.mesh_shape
        context.mesh_shape = mesh.shape_tuple
        try:
            with body_context(mesh, newly_manual_axes, check_vma):
                return lower_jaxpr_body(jaxpr.jaxpr, [hlo.constant(c) for c in jaxpr.consts], list(args))
        finally:
            context.mesh_shape = previous_mesh
    if context.mesh_shape is None:
        raise NotImplementedError(
            "shard_map inside a computation on one device: jax_core lowers shard_map in a jit over its mesh "
            "(call it eagerly, or from a jit whose arguments or shardings name the mesh)."
        )
    if tuple(context.mesh_shape) != tuple(mesh.shape_tuple):
        raise NotImplementedError(
            f"jax_core lowers shard_map over the computation's own mesh {dict(context.mesh_shape)} only; got {mesh}."
        )
    if set(newly_manual_axes) != {n for n in mesh.axis_names if mesh.shape[n] > 0} or context.manual_axes:
        raise NotImplementedError(
            "jax_core's shard_map is manual over every mesh axis, once (axis_names naming a subset, and nested "
            "shard_map, are not supported yet)."
        )
    manual = [n for n in mesh.axis_names if n in newly_manual_axes]
    op, block = sdy.manual_computation(
        args,
        [value_ir_type(a) for a in ctx.avals_out],
        [value_ir_type(a) for a in jaxpr.in_avals],
        [(spec, a.ndim) for spec, a in zip(in_specs, ctx.avals_in, strict=True)],
        [(spec, a.ndim) for spec, a in zip(out_specs, ctx.avals_out, strict=True)],
        manual,
    )
    previous = context.manual_axes
    context.manual_axes = frozenset(manual)
    try:
        # Lowering rules that trace (loops lowered through a traced function) see the mesh axes.
        with ir.InsertionPoint(block), body_context(mesh, newly_manual_axes, check_vma):
            consts = [hlo.constant(c) for c in jaxpr.consts]
            outs = lower_jaxpr_body(jaxpr.jaxpr, consts, list(block.arguments))
            sdy.return_values(outs)
    finally:
        context.manual_axes = previous
    return list(op.results)


def _jvp(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[list[Any], list[Any]]:
    jaxpr: ClosedJaxpr = params["jaxpr"]
    nonzeros = [not isinstance(t, Zero) for t in tangents]
    with body_context(params["mesh"], params["newly_manual_axes"], params["check_vma"]):
        jvp_closed, out_nz = jvp_jaxpr(jaxpr, nonzeros, instantiate=False)
    in_specs = (*params["in_specs"], *(s for s, nz in zip(params["in_specs"], nonzeros) if nz))
    out_specs = (*params["out_specs"], *(s for s, nz in zip(params["out_specs"], out_nz) if nz))
    outs = shard_map_p.bind(
        *primals,
        *(t for t in tangents if not isinstance(t, Zero)),
        **{**params, "jaxpr": jvp_closed, "in_specs": in_specs, "out_specs": out_specs},
    )
    n = len(jaxpr.out_avals)
    it = iter(outs[n:])
    out_avals = _abstract_eval(**params)
    touts = [next(it) if nz else Zero(tangent_aval(a)) for a, nz in zip(out_avals, out_nz)]
    return list(outs[:n]), touts


def _transpose(cts: Sequence[Any], *args: Any, **params: Any) -> list[Any]:
    jaxpr: ClosedJaxpr = params["jaxpr"]
    linear = [isinstance(a, UndefinedPrimal) for a in args]
    with body_context(params["mesh"], params["newly_manual_axes"], params["check_vma"]):
        transposed = transpose_jaxpr(jaxpr, linear)
    # Only what the cotangents need: the forward recomputation of unused primal results goes.
    pruned, used = dce_jaxpr_used(transposed.jaxpr, [True] * len(transposed.jaxpr.outvars))
    in_specs: Specs = params["in_specs"]
    new_in = [*(s for s, lin in zip(in_specs, linear) if not lin), *params["out_specs"]]
    new_out = tuple(s for s, lin in zip(in_specs, linear) if lin)
    operands = [*(a for a in args if not isinstance(a, UndefinedPrimal)), *cts]
    cts_in = iter(
        shard_map_p.bind(
            *(instantiate_zeros(x) for x, u in zip(operands, used, strict=True) if u),
            **{
                **params,
                "jaxpr": ClosedJaxpr(pruned, transposed.consts),
                "in_specs": tuple(s for s, u in zip(new_in, used, strict=True) if u),
                "out_specs": new_out,
            },
        )
    )
    return [next(cts_in) if lin else None for lin in linear]


def _with_leading(spec: PartitionSpec) -> PartitionSpec:
    return PartitionSpec(None, *spec)


def _batch(args: Sequence[Any], dims: Sequence[int | None], **params: Any) -> tuple[list[Any], list[int | None]]:
    jaxpr: ClosedJaxpr = params["jaxpr"]
    size = axis_size(args, dims)
    moved = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args, dims)]
    with body_context(params["mesh"], params["newly_manual_axes"], params["check_vma"]):
        batched, out_batched = batch_jaxpr(jaxpr, size, [d is not None for d in dims], instantiate=False)
    in_specs = tuple(_with_leading(s) if d is not None else s for s, d in zip(params["in_specs"], dims))
    out_specs = tuple(_with_leading(s) if b else s for s, b in zip(params["out_specs"], out_batched))
    outs = shard_map_p.bind(*moved, **{**params, "jaxpr": batched, "in_specs": in_specs, "out_specs": out_specs})
    return list(outs), [0 if b else None for b in out_batched]


shard_map_p: Primitive = Primitive("shard_map", multiple_results=True)


# -- partial evaluation: the known half runs now, its residuals flow to the staged half ---------
def _residual_spec(mesh: Mesh, aval: ShapedArray, manual: frozenset[Any], check_vma: bool) -> PartitionSpec:
    """A residual leaves the known body with a new leading axis of size 1 per device, split over
    the mesh axes it may vary over (every manual axis when variance is not tracked)."""
    axes = tuple(a for a in mesh.axis_names if a in manual and (not check_vma or a in aval.vma))
    return PartitionSpec(axes) if axes else PartitionSpec()


def _partial_eval(trace: PartialEvalTrace, args: Sequence[Any], unknown: Sequence[bool], **params: Any) -> list[Any]:
    from jax_core._src.lax.shape.dimensions import expand_dims, squeeze

    closed: ClosedJaxpr = params["jaxpr"]
    mesh: Mesh = params["mesh"]
    manual: frozenset[Any] = params["newly_manual_axes"]
    check: bool = params["check_vma"]
    in_specs: Specs = params["in_specs"]
    out_specs: Specs = params["out_specs"]
    with body_context(mesh, manual, check):
        known, staged, out_unknowns, num_res = partial_eval_jaxpr(closed, unknown, False, trace.saveable)
        known, forwarded = forward_input_residuals(known, num_res)
        n_known_out = len(known.jaxpr.outvars) - sum(f is None for f in forwarded)
        res_avals = known.out_avals[n_known_out:]

        def known_body(*xs: Any) -> list[Any]:
            outs = eval_jaxpr(known.jaxpr, known.consts, *xs)
            return [*outs[:n_known_out], *(expand_dims(r, (0,)) for r in outs[n_known_out:])]

        known_in_avals = [a for a, u in zip(closed.in_avals, unknown) if not u]
        known_wrapped = trace_to_jaxpr(known_body, known_in_avals, DebugInfo("shard_map", None))
        res_specs = [_residual_spec(mesh, a, manual, check) for a in res_avals]
        known_specs = [s for s, u in zip(in_specs, unknown) if not u]
        forwarded_specs = [known_specs[f] for f in forwarded if f is not None]
        staged_res_avals = [
            known_in_avals[f] if f is not None else a.update(shape=(1, *a.shape))
            for f, a in zip(forwarded, _spread(res_avals, forwarded), strict=True)
        ]
        n_res = len(forwarded)
        unknown_avals = [a for a, u in zip(closed.in_avals, unknown) if u]

        def staged_body(*xs: Any) -> list[Any]:
            res = [x if f is not None else squeeze(x, (0,)) for x, f in zip(xs[:n_res], forwarded, strict=True)]
            return eval_jaxpr(staged.jaxpr, staged.consts, *res, *xs[n_res:])

        staged_wrapped = trace_to_jaxpr(staged_body, [*staged_res_avals, *unknown_avals], DebugInfo("shard_map", None))
    known_out_specs = tuple(s for s, u in zip(out_specs, out_unknowns) if not u)
    known_args = [a for a, u in zip(args, unknown) if not u]
    known_outs = trace.bind_known(
        shard_map_p,
        known_args,
        {**params, "jaxpr": known_wrapped, "in_specs": tuple(known_specs), "out_specs": (*known_out_specs, *res_specs)},
    )
    computed = iter(known_outs[n_known_out:])
    residuals = [next(computed) if f is None else known_args[f] for f in forwarded]
    res_in_specs: list[PartitionSpec] = []
    it_specs = iter(res_specs)
    it_fwd = iter(forwarded_specs)
    for f in forwarded:
        res_in_specs.append(next(it_specs) if f is None else next(it_fwd))
    unknown_args = [a for a, u in zip(args, unknown) if u]
    staged_outs = trace.bind_staged(
        shard_map_p,
        [*residuals, *unknown_args],
        {
            **params,
            "jaxpr": staged_wrapped,
            "in_specs": (*res_in_specs, *(s for s, u in zip(in_specs, unknown) if u)),
            "out_specs": tuple(s for s, u in zip(out_specs, out_unknowns) if u),
        },
    )
    return merge_outputs(known_outs[:n_known_out], staged_outs, out_unknowns)


def _spread(computed: Sequence[ShapedArray], forwarded: Sequence[int | None]) -> list[ShapedArray]:
    """The computed residuals' avals in residual order (a placeholder where one is forwarded)."""
    it = iter(computed)
    out: list[ShapedArray] = []
    for f in forwarded:
        out.append(next(it) if f is None else ShapedArray((), np.dtype(np.float32)))
    return out


shard_map_p.def_rules(
    Rules(
        abstract_eval=_abstract_eval,
        lower=_lower,
        impl=_impl,
        jvp=_jvp,
        transpose=_transpose,
        batch=_batch,
        partial_eval=_partial_eval,
    )
)
