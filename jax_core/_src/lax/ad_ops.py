"""Primitives that are the identity on values: ``stage``, ``stop_gradient``, ``checkpoint_name``, ``copy`` and
``optimization_barrier``.

``stage`` lifts a value (a Python scalar, a NumPy array) into the current trace; ``stop_gradient``
has a zero tangent; ``name`` tags a value so ``checkpoint`` policies
(``save_only_these_names``) can pick it out; ``copy`` gives a new buffer (``x.copy()``,
``jnp.array(x, copy=True)``), staged as an equation as JAX does. ``device_put`` (JAX's
``device_put_p``) places each operand on a device or sharding; ``dce_sink`` marks values as used
(no outputs).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.interpreters.ad_util import (
    Zero,
    is_undefined_primal,
    linear_jvp,
    linear_transpose,
)
from jax_core._src.interpreters.batching_util import vectorized_batcher
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.runtime.dispatch import apply_primitive
from jax_core._src.runtime.transfer import register_traced_put
from jax_core._src.tree.tree_util import tree_flatten, tree_map, tree_unflatten
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

T = TypeVar("T")


def _identity_abstract_eval(x: ShapedArray, **params: Any) -> ShapedArray:
    return x


def _identity_lower(ctx: LoweringRuleContext, x: ir.Value[ir.Type], **params: Any) -> ir.Value[ir.Type]:
    return x


# -- stage -----------------------------------------------------------------------------------------
def stage(x: ArrayLike, /) -> Array:
    """Lifts ``x`` into the active trace: the identity on values.

    Outside every transformation the result is a jax_core Array (an Array passes through
    unchanged); under ``jit`` no equation is recorded (a scalar becomes a literal, an array a
    constant of the jaxpr).
    """
    out: Array = stage_p.bind(x)
    return out


def _stage_impl(x: ArrayLike) -> Array:
    if isinstance(x, Array):
        return x
    out: Array = apply_primitive(stage_p, (x,), {})
    return out


def _stage_transpose(ct: Any) -> Any:
    return ct


def _stage_forward(x: ShapedArray) -> list[int | None]:
    return [0]


def _stage_const_fold(consts: Sequence[Any], avals_out: Sequence[ShapedArray]) -> list[Any] | None:
    return None if consts[0] is None else [consts[0]]


stage_p: Primitive = Primitive("stage")
stage_p.def_rules(
    Rules(
        abstract_eval=_identity_abstract_eval,
        lower=_identity_lower,
        impl=_stage_impl,
        jvp=linear_jvp(stage_p),
        transpose=linear_transpose(_stage_transpose),
        batch=vectorized_batcher(stage_p),
        forward=_stage_forward,
        const_fold=_stage_const_fold,
    )
)


def _stop_gradient_jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
    (x,) = primals
    return stop_gradient_p.bind(x), Zero.from_primal_value(x)


stop_gradient_p: Primitive = Primitive("stop_gradient")
stop_gradient_p.def_rules(
    Rules(
        abstract_eval=_identity_abstract_eval,
        lower=_identity_lower,
        jvp=_stop_gradient_jvp,
        batch=vectorized_batcher(stop_gradient_p),
    )
)


def stop_gradient(x: T) -> T:
    """The identity on values whose derivative is zero: gradients do not flow through ``x``.

    ``x`` may be any pytree; integer and boolean leaves pass through unchanged.
    """
    from jax_core._src.core.trace import get_aval
    from jax_core._src.interpreters.ad_util import is_differentiable

    def stop(leaf: Any) -> Any:
        return stop_gradient_p.bind(leaf) if is_differentiable(get_aval(leaf)) else leaf

    out: T = tree_map(stop, x)
    return out


def _name_transpose(ct: Any, *, name: str) -> Any:
    return ct


name_p: Primitive = Primitive("name")
name_p.def_rules(
    Rules(
        abstract_eval=_identity_abstract_eval,
        lower=_identity_lower,
        jvp=linear_jvp(name_p),
        transpose=linear_transpose(_name_transpose),
        batch=vectorized_batcher(name_p),
    )
)


def checkpoint_name(x: T, name: str) -> T:
    """Tags every array in ``x`` with ``name`` for ``checkpoint_policies.save_only_these_names``
    and ``save_any_names_but_these`` (the identity on values)."""
    out: T = tree_map(lambda leaf: name_p.bind(leaf, name=name), x)
    return out


def _copy_transpose(ct: Any) -> Any:
    return copy_p.bind(ct)


copy_p: Primitive = Primitive("copy")
copy_p.def_rules(
    Rules(
        abstract_eval=_identity_abstract_eval,
        lower=_identity_lower,
        jvp=linear_jvp(copy_p),
        transpose=linear_transpose(_copy_transpose),
        batch=vectorized_batcher(copy_p),
    )
)


# -- optimization_barrier -------------------------------------------------------------------------
def optimization_barrier[T](operand: T, /) -> T:
    """Prevents the compiler from moving operations across the barrier.

    ``operand`` is a pytree of arrays; the result has the same structure and values. Every
    output of the barrier that is used is evaluated before any operation that depends on one of
    the barrier's outputs; the barrier also prevents common-subexpression elimination and
    fusion across it. It has no effect outside a compiled function.
    """
    leaves, treedef = tree_flatten(operand)
    out: list[Any] = optimization_barrier_p.bind(*leaves)
    result: T = tree_unflatten(treedef, out)
    return result


def _barrier_abstract_eval(*avals: ShapedArray) -> list[ShapedArray]:
    return list(avals)


def _barrier_lower(ctx: LoweringRuleContext, *args: ir.Value[Any]) -> list[ir.Value[Any]]:
    if not args:
        return []
    barrier = hlo.OptimizationBarrierOp(list(args))
    return list(barrier.results)


def _barrier_nonzero(values: Sequence[Any]) -> list[Any]:
    """A barrier over the non-``Zero`` entries of ``values``; ``Zero`` entries pass through."""
    nz = [v for v in values if not isinstance(v, Zero)]
    if not nz:
        return list(values)
    out = iter(optimization_barrier_p.bind(*nz))
    return [v if isinstance(v, Zero) else next(out) for v in values]


def _barrier_jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    primals_out: list[Any] = optimization_barrier_p.bind(*primals)
    return primals_out, _barrier_nonzero(tangents)


def _barrier_transpose(cts: Sequence[Any], *args: Any) -> list[Any]:
    out = _barrier_nonzero(cts)
    return [ct if is_undefined_primal(a) else None for ct, a in zip(out, args)]


def _barrier_batch(
    args: Sequence[Any], dims: Sequence[int | None]
) -> tuple[list[Any], list[int | None]]:
    out: list[Any] = optimization_barrier_p.bind(*args)
    return out, list(dims)


optimization_barrier_p: Primitive = Primitive("optimization_barrier", multiple_results=True)
optimization_barrier_p.def_rules(
    Rules(
        abstract_eval=_barrier_abstract_eval,
        lower=_barrier_lower,
        jvp=_barrier_jvp,
        transpose=_barrier_transpose,
        batch=_barrier_batch,
    )
)


def checkpoint_name_fwd(x: T, name: str) -> T:
    """``checkpoint_name`` for values of the forward pass only (as JAX without ``jax_remat3``):
    tags every array in ``x`` with ``name``."""
    return checkpoint_name(x, name)


# -- dce_sink: marks values as used, so the computations producing them are kept ------------------
def dce_sink(val: Any, *, prevent_mlir_dce: bool = False) -> None:
    """Marks every leaf of ``val`` as used: the equations computing it stay in the jaxpr, and
    with ``prevent_mlir_dce`` also in the compiled program (a side-effecting ``dce_sink`` call)."""

    def sink(x: Any) -> None:
        dce_sink_p.bind(x, prevent_mlir_dce=bool(prevent_mlir_dce))

    tree_map(sink, val)


dce_sink_p: Primitive = Primitive("dce_sink", multiple_results=True)


def _dce_sink_impl(x: Any, *, prevent_mlir_dce: bool) -> list[Any]:
    return []


def _dce_sink_abstract_eval(x: ShapedArray, *, prevent_mlir_dce: bool) -> list[ShapedArray]:
    return []


def _dce_sink_lower(ctx: LoweringRuleContext, x: ir.Value[ir.Type], *, prevent_mlir_dce: bool) -> list[ir.Value[ir.Type]]:
    if prevent_mlir_dce:  # a side-effecting FFI call XLA keeps (JAX's ``ffi_lowering``)
        ndim = ctx.avals_in[0].ndim
        layout = ir.DenseIntElementsAttr.get(np.arange(ndim - 1, -1, -1, dtype=np.int64), type=ir.IndexType.get())
        op = hlo.CustomCallOp(
            [],
            [x],
            call_target_name=ir.StringAttr.get("dce_sink"),
            has_side_effect=ir.BoolAttr.get(True),
            backend_config=ir.StringAttr.get(""),
            operand_layouts=ir.ArrayAttr.get([layout]),
            result_layouts=ir.ArrayAttr.get([]),
        )
        op.attributes["mhlo.backend_config"] = ir.DictAttr.get({})
    return []


def _dce_sink_transpose(cts: Sequence[Any], x: Any, *, prevent_mlir_dce: bool) -> list[Any]:
    return [None]


def _dce_sink_batch(args: Sequence[Any], dims: Sequence[int | None], *, prevent_mlir_dce: bool) -> tuple[list[Any], list[Any]]:
    dce_sink_p.bind(args[0], prevent_mlir_dce=prevent_mlir_dce)
    return [], []


dce_sink_p.def_rules(
    Rules(
        abstract_eval=_dce_sink_abstract_eval,
        lower=_dce_sink_lower,
        impl=_dce_sink_impl,
        jvp=linear_jvp(dce_sink_p),
        transpose=_dce_sink_transpose,
        batch=_dce_sink_batch,
    )
)


# -- device_put: the identity on values, placing each operand on ``devices[i]`` ------------------
device_put_p: Primitive = Primitive("device_put", multiple_results=True)


def _copy_semantics() -> Any:
    """jaxlib's ``ArrayCopySemantics`` enum (the values of the ``copy_semantics`` param)."""
    from jax_core._src.lib import xla_client

    return getattr(xla_client, "ArrayCopySemantics")  # noqa: B009  (not in jaxlib's stubs)


def _device_put_impl(
    *xs: Any, devices: Sequence[Any], srcs: Sequence[Any], copy_semantics: Sequence[Any]
) -> list[Any]:
    from jax_core._src.runtime.transfer import device_put

    semantics = _copy_semantics()
    return [
        device_put(
            x,
            d,
            donate=cp == semantics.DONATE_INPUT,
            may_alias=None if cp == semantics.REUSE_INPUT else False,
        )
        for x, d, cp in zip(xs, devices, copy_semantics, strict=True)
    ]


def _device_put_abstract_eval(
    *xs: ShapedArray, devices: Sequence[Any], srcs: Sequence[Any], copy_semantics: Sequence[Any]
) -> list[ShapedArray]:
    return list(xs)


def _device_put_lower(
    ctx: LoweringRuleContext, *xs: ir.Value[ir.Type], devices: Sequence[Any], srcs: Sequence[Any], copy_semantics: Sequence[Any]
) -> list[ir.Value[ir.Type]]:
    """The identity on values (as in JAX: a ``jit`` whose ``device_put`` names a mesh runs over
    that mesh, and XLA's partitioner lays the value out)."""
    return list(xs)


def _traced_put(x: Any, target: Any, donate: bool, may_alias: bool | None) -> Any:
    semantics = _copy_semantics()
    copy = semantics.DONATE_INPUT if donate else semantics.ALWAYS_COPY if may_alias is False else semantics.REUSE_INPUT
    (y,) = device_put_p.bind(x, devices=(target,), srcs=(None,), copy_semantics=(copy,))
    return y


def _device_put_transpose(
    cts: Sequence[Any], *args: Any, devices: Sequence[Any], srcs: Sequence[Any], copy_semantics: Sequence[Any]
) -> list[Any]:
    """Puts each cotangent back where its operand came from (``srcs``), copying."""
    semantics = _copy_semantics()
    results: list[Any] = [None] * len(cts)
    moved: list[tuple[int, Any, Any, Any]] = []
    for i, (ct, arg, device, src, cp) in enumerate(zip(cts, args, devices, srcs, copy_semantics)):
        if not is_undefined_primal(arg):
            continue
        if isinstance(ct, Zero):
            results[i] = Zero(arg.aval)
            continue
        if cp == semantics.DONATE_INPUT:
            raise ValueError(
                "donate=True is not allowed during tranposition of device_put. Please file an issue "
                "if you want this to be supported."
            )
        moved.append((i, ct, src, device))
    if moved:
        ys = device_put_p.bind(
            *[ct for _, ct, _, _ in moved],
            devices=tuple(src for _, _, src, _ in moved),
            srcs=tuple(dev for _, _, _, dev in moved),
            copy_semantics=(semantics.ALWAYS_COPY,) * len(moved),
        )
        for (i, _, _, _), y in zip(moved, ys):
            results[i] = y
    return results


def _device_put_batch(args: Sequence[Any], dims: Sequence[int | None], **params: Any) -> tuple[Any, Sequence[int | None]]:
    return device_put_p.bind(*args, **params), dims


device_put_p.def_rules(
    Rules(
        abstract_eval=_device_put_abstract_eval,
        lower=_device_put_lower,
        impl=_device_put_impl,
        jvp=linear_jvp(device_put_p),
        transpose=_device_put_transpose,
        batch=_device_put_batch,
    )
)
register_traced_put(_traced_put)
