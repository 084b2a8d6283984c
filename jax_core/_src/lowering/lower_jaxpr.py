"""Lowering a jaxpr to a StableHLO module: one lowering rule per equation."""

from __future__ import annotations

import contextlib
import dataclasses
import re
import threading
from collections.abc import Callable, Generator, Sequence
from typing import Any, cast

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.effects import Effect, ordered_in
from jax_core._src.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var
from jax_core._src.core.shape_poly import DimVarSolution
from jax_core._src.core.primitive import LowerRule, Primitive, raise_if_misfit
from jax_core._src.lib.mlir import func, ir
from jax_core._src.lib import mlir as lib_mlir
from jax_core._src.lowering import dynamic_shapes, hlo
from jax_core._src.lowering import sdy
from jax_core._src.lowering.ir_types import make_ir_context, value_ir_type
from jax_core._src.sharding.partition_spec import PartitionSpec


@dataclasses.dataclass
class ModuleContext:
    """What the lowering of one module accumulates: the Python callables its host callbacks
    call (passed to the compiler; a callback's custom call names its index here), and the current
    token of each ordered effect at the insertion point (the value the next operation with that
    effect consumes, and replaces with the token it produces)."""

    host_callbacks: list[Callable[..., Any]] = dataclasses.field(default_factory=lambda: [])
    tokens: dict[Effect, ir.Value[ir.Type]] = dataclasses.field(default_factory=lambda: {})
    mesh_shape: sdy.MeshShape | None = None
    """The mesh of a module that runs on several devices (``@mesh``); ``None`` for one device."""
    manual_axes: frozenset[Any] = frozenset()
    """The mesh axes the code being lowered sees per device (inside ``shard_map``)."""
    channels: list[int] = dataclasses.field(default_factory=lambda: [0])
    """The last channel id a collective used (each cross-device collective needs its own)."""
    platforms: tuple[str, ...] = ("cpu",)
    """The platforms the module is lowered for (several for a multi-platform export)."""
    module: ir.Module | None = None
    """The module being built (a rule that adds functions to it, e.g. an exported call's)."""
    platform_index: ir.Value[ir.Type] | None = None
    """With several ``platforms``: ``main``'s argument holding the index of the platform the
    module runs on (``jax.global_constant = "_platform_index"``)."""
    dim_var_values: dict[str, ir.Value[ir.Type]] | None = None
    """In a shape-polymorphic module: the value of each dimension variable (computed in ``main``
    from its arguments' sizes); what rules build the shapes of dynamic operations from."""
    refine_shapes: bool = False
    """Whether the module calls a shape-polymorphic exported function: its dynamic shapes are
    refined to the static ones of the call before the module is compiled."""

    def next_channel(self) -> int:
        """A fresh channel id for a collective."""
        self.channels[0] += 1
        return self.channels[0]


@dataclasses.dataclass(frozen=True)
class SpmdLayout:
    """How a module runs on the devices of a mesh: the mesh's axes and sizes, and the sharding of
    each of ``main``'s parameters and results (``None``: the partitioner chooses)."""

    mesh_shape: sdy.MeshShape
    arg_specs: tuple[PartitionSpec | None, ...]
    result_specs: tuple[PartitionSpec | None, ...]

    @property
    def num_partitions(self) -> int:
        """The number of devices."""
        return int(np.prod([size for _, size in self.mesh_shape], dtype=np.int64))


class _CurrentModule(threading.local):
    context: ModuleContext | None = None


_current_module = _CurrentModule()


@contextlib.contextmanager
def lowering_module(context: ModuleContext) -> Generator[ModuleContext]:
    """Makes ``context`` the module being lowered on this thread."""
    previous = _current_module.context
    _current_module.context = context
    try:
        yield context
    finally:
        _current_module.context = previous


def module_context() -> ModuleContext:
    """The module being lowered on this thread."""
    context = _current_module.context
    if context is None:
        raise AssertionError("no module is being lowered (lower_closed_jaxpr sets one)")
    return context


@dataclasses.dataclass(frozen=True)
class LoweringRuleContext:
    """What a lowering rule knows besides its operands: input and output avals, and the module
    being lowered (its tokens and host callbacks)."""

    avals_in: Sequence[ShapedArray]
    avals_out: Sequence[ShapedArray]
    primitive: Primitive | None = None
    """The primitive being lowered (``None`` for a rule called directly)."""

    @property
    def module_context(self) -> ModuleContext:
        """The module being lowered."""
        return module_context()

    @property
    def platforms(self) -> tuple[str, ...]:
        """The platforms the module is lowered for (jax_core compiles for the CPU; an export
        may lower for several)."""
        context = _current_module.context
        return ("cpu",) if context is None else context.platforms

    def replace(self, **changes: Any) -> LoweringRuleContext:
        """A copy with some fields changed (e.g. ``avals_in`` for a rule that lowers a helper)."""
        return dataclasses.replace(self, **changes)

    def token(self, effect: Effect) -> ir.Value[ir.Type]:
        """The current token of the ordered ``effect``."""
        tokens = module_context().tokens
        if effect not in tokens:
            raise AssertionError(f"no token is threaded for the ordered effect {effect}")
        return tokens[effect]

    def set_token(self, effect: Effect, token: ir.Value[ir.Type]) -> None:
        """Makes ``token`` (produced by an operation with ``effect``) the current token."""
        module_context().tokens[effect] = token

    def add_host_callback(self, callback: Callable[..., Any]) -> int:
        """Registers a Python callable the compiled module calls; returns its index."""
        callbacks = module_context().host_callbacks
        callbacks.append(callback)
        return len(callbacks) - 1

    def lower_jaxpr(
        self, jaxpr: Jaxpr, consts: Sequence[Any], args: Sequence[ir.Value[ir.Type]]
    ) -> list[ir.Value[ir.Type]]:
        """Lowers a sub-jaxpr inline (for call-like primitives such as ``jit``)."""
        return lower_jaxpr_body(jaxpr, [hlo.constant(c) for c in consts], args)


def tokens_of(effects: Sequence[Effect]) -> list[ir.Value[ir.Type]]:
    """The current tokens of the ordered ``effects`` (what a region takes in)."""
    tokens = module_context().tokens
    return [tokens[e] for e in effects]


def set_tokens(effects: Sequence[Effect], values: Sequence[ir.Value[ir.Type]]) -> None:
    """Makes ``values`` the current tokens of ``effects`` (what a region gave back)."""
    module_context().tokens.update(zip(effects, values, strict=True))


@contextlib.contextmanager
def token_region(effects: Sequence[Effect], tokens_in: Sequence[ir.Value[ir.Type]]) -> Generator[None]:
    """Lowering a region (a branch, a loop body) that threads the tokens of ``effects``: inside,
    their current tokens are ``tokens_in`` (the region's token arguments, or captured values);
    the region returns ``tokens_of(effects)`` before leaving; afterwards the tokens are the
    enclosing region's again (the caller sets them to the op's token results)."""
    tokens = module_context().tokens
    saved = dict(tokens)
    tokens.update(zip(effects, tokens_in, strict=True))
    try:
        yield
    finally:
        tokens.clear()
        tokens.update(saved)


def lower_jaxpr_body(
    jaxpr: Jaxpr, consts: Sequence[ir.Value[ir.Type]], args: Sequence[ir.Value[ir.Type]]
) -> list[ir.Value[ir.Type]]:
    """Emits the ops of ``jaxpr`` at the current insertion point; returns its outputs."""
    env: dict[Var, ir.Value[ir.Type]] = {}

    def read(a: Var | Literal) -> ir.Value[ir.Type]:
        if isinstance(a, Literal):
            return hlo.constant(np.asarray(a.val, a.aval.dtype))
        return env[a]

    for v, x in zip(jaxpr.constvars, consts, strict=True):
        env[v] = x
    for v, x in zip(jaxpr.invars, args, strict=True):
        env[v] = x
    for eqn in jaxpr.eqns:
        rule = _lowering_rule(eqn)
        if rule is None:
            raise NotImplementedError(f"MLIR translation rule for primitive '{eqn.primitive.name}' not found for platform cpu")
        ctx = LoweringRuleContext([a.aval for a in eqn.invars], [v.aval for v in eqn.outvars], eqn.primitive)
        names = eqn.source_info.name_stack if eqn.source_info is not None else ()
        operands = list(map(read, eqn.invars))
        try:
            if names:  # named_scope: the op's location names it (and XLA's op_name metadata)
                with ir.Location.name("/".join((*names, eqn.primitive.name))):
                    out = rule(ctx, *operands, **eqn.params)
            else:
                out = rule(ctx, *operands, **eqn.params)
        except TypeError as e:
            raise_if_misfit(eqn.primitive, "lowering", rule, [ctx, *operands], eqn.params, e)
            raise
        outs = _checked_results(eqn, out)
        for v, x in zip(eqn.outvars, outs):
            env[v] = x
    return [read(a) for a in jaxpr.outvars]


def _checked_results(eqn: JaxprEqn, out: object) -> Sequence[ir.Value[ir.Type]]:
    """The values a lowering rule returned, as a sequence (JAX's rules return ``op.results`` or a
    list; a one-element list of one value's list is flattened); a ``ValueError`` naming the
    primitive when their number or types do not match the equation's outputs."""
    name = eqn.primitive.name
    if isinstance(out, ir.Value):
        outs: list[object] = [out]
    elif isinstance(out, (ir.OpResultList, list, tuple)):
        outs = [_single(o) for o in cast("Sequence[object]", out)]
    elif isinstance(out, ir.OpView):
        op: Any = out
        outs = list(op.results)
    else:
        raise ValueError(f"The lowering rule of primitive '{name}' must return a sequence of ir.Values; got {out!r}")
    if len(outs) != len(eqn.outvars):
        raise ValueError(
            f"The lowering rule of primitive '{name}' returned {len(outs)} values for {len(eqn.outvars)} outputs "
            f"({', '.join(v.aval.str_short() for v in eqn.outvars)})"
        )
    checked: list[ir.Value[ir.Type]] = []
    for i, (v, x) in enumerate(zip(eqn.outvars, outs)):
        if not isinstance(x, ir.Value):
            raise ValueError(f"The lowering rule of primitive '{name}' returned {x!r} for output {i}; expected an ir.Value")
        value = cast("ir.Value[ir.Type]", x)
        want = value_ir_type(v.aval)
        if value.type != want and not dtypes.is_extended_dtype(v.aval.dtype):
            raise ValueError(
                f"The lowering rule of primitive '{name}' returned a value of type {value.type} for output {i}, "
                f"whose aval {v.aval.str_short()} is {want}"
            )
        checked.append(value)
    return checked


def _single(value: object) -> object:
    """A rule's value for one output: JAX's rules may give it as a one-element list."""
    items: Any = value
    if isinstance(items, (list, tuple)) and len(items) == 1:  # pyright: ignore[reportUnknownArgumentType]
        return cast(object, items[0])
    return value


def _lowering_rule(eqn: JaxprEqn) -> LowerRule | None:
    """The primitive's rule, or the one an extended dtype (a PRNG key) among its avals gives."""
    rule = eqn.primitive.rules.lower
    for v in (*eqn.invars, *eqn.outvars):
        dt = v.aval.dtype
        if dtypes.is_extended_dtype(dt):
            ext_rule: LowerRule | None = dt._rules.lowering_rule(eqn, rule)  # pyright: ignore[reportPrivateUsage]
            return ext_rule
    return rule


@dataclasses.dataclass(frozen=True)
class LoweredModule:
    """A lowered StableHLO module and the facts the runtime needs to compile and call it."""

    module: ir.Module
    context: ir.Context
    in_avals: tuple[ShapedArray, ...]
    out_avals: tuple[ShapedArray, ...]
    donated_invars: tuple[bool, ...]
    ordered_effects: tuple[Effect, ...] = ()
    """One token parameter and result each, before the others (``!stablehlo.token``)."""
    host_callbacks: tuple[Callable[..., Any], ...] = ()
    has_effects: bool = False
    """Whether it has any effect (then the runtime keeps its output token for ``effects_barrier``)."""
    spmd: SpmdLayout | None = None
    """Its mesh and the shardings of its parameters and results, when it runs on several devices."""
    custom_layouts: bool = False
    """Whether some parameter or result asks for a layout (``mhlo.layout_mode``)."""

    def as_text(self, debug_info: bool = False) -> str:
        """The module as MLIR text (StableHLO); ``debug_info``: with the ops' locations."""
        if not debug_info:
            return str(self.module)
        with self.context:
            return str(self.module.operation.get_asm(enable_debug_info=True))


def _module_name(name: str) -> str:
    # As JAX: characters XLA would alter become ``_``, and trailing ``_`` go (``jit__lambda``).
    return re.sub(r"[^\w.-]", "_", "jit_" + name).rstrip("_")


def lower_closed_jaxpr(
    closed: ClosedJaxpr,
    name: str,
    *,
    donated_invars: Sequence[bool] | None = None,
    spmd: SpmdLayout | None = None,
    arg_layouts: Sequence[str | None] | None = None,
    result_layouts: Sequence[str | None] | None = None,
    platforms: Sequence[str] = ("cpu",),
    arg_names: Sequence[str] | None = None,
    result_infos: Sequence[str] | None = None,
    dim_vars: DimVarSolution | None = None,
) -> LoweredModule:
    """Lowers a closed jaxpr to a module whose ``main`` takes the jaxpr's inputs (with ``spmd``:
    partitioned over a mesh, its parameters and results annotated with their shardings; with
    ``arg_layouts``/``result_layouts``: their ``mhlo.layout_mode``s, ``"auto"`` or an XLA layout
    such as ``"{0,1}"``, ``None`` for the default). With several ``platforms`` (an export),
    ``main`` first takes the index of the platform it runs on; ``arg_names`` become the locations
    of ``main``'s array parameters, ``result_infos`` the ``jax.result_info`` of its results.
    With ``dim_vars`` (symbolic input shapes), ``main`` first computes the dimension variables
    from its arguments' sizes and asserts the shape constraints; a module that calls a
    shape-polymorphic exported function has its shapes refined to static ones at the end."""
    jaxpr = closed.jaxpr
    in_avals = tuple(jaxpr.in_avals)
    out_avals = tuple(jaxpr.out_avals)
    donated = tuple(donated_invars) if donated_invars is not None else (False,) * len(in_avals)
    ordered = tuple(ordered_in(jaxpr.effects))
    ctx = make_ir_context()
    context = ModuleContext(mesh_shape=None if spmd is None else spmd.mesh_shape, platforms=tuple(platforms))
    indexed = len(platforms) > 1
    with ctx, ir.Location.unknown(), lowering_module(context):
        module = ir.Module.create()
        context.module = module
        module.operation.attributes["sym_name"] = ir.StringAttr.get(_module_name(name))
        i32 = ir.IntegerType.get_signless(32)
        partitions = 1 if spmd is None else spmd.num_partitions
        module.operation.attributes["mhlo.num_partitions"] = ir.IntegerAttr.get(i32, partitions)
        if spmd is not None:
            sdy.add_mesh(module, spmd.mesh_shape)
        module.operation.attributes["mhlo.num_replicas"] = ir.IntegerAttr.get(i32, 1)
        token_types: list[ir.Type] = [hlo.token_type() for _ in ordered]
        index_types: list[ir.Type] = [ir.RankedTensorType.get([], i32)] if indexed else []
        in_types = [*index_types, *token_types, *(value_ir_type(a) for a in in_avals)]
        out_types = [*token_types, *(value_ir_type(a) for a in out_avals)]
        token_attr = ir.DictAttr.get({"jax.token": ir.BoolAttr.get(True)})
        with ir.InsertionPoint(module.body):
            fn = func.FuncOp("main", ir.FunctionType.get(in_types, out_types))
            fn.attributes["sym_visibility"] = ir.StringAttr.get("public")
            index_attr = ir.DictAttr.get({"jax.global_constant": ir.StringAttr.get("_platform_index")})
            arg_attrs: list[ir.Attribute] = [*(index_attr for _ in index_types), *(token_attr for _ in ordered)]
            aliased: set[int] = set()
            for i, aval in enumerate(in_avals):
                attrs: dict[str, ir.Attribute] = {}
                if donated[i]:
                    out_index = next(
                        (j for j, o in enumerate(out_avals) if j not in aliased and o.shape == aval.shape and o.dtype == aval.dtype),
                        None,
                    )
                    if out_index is not None:
                        aliased.add(out_index)
                        attrs["tf.aliasing_output"] = ir.IntegerAttr.get(i32, len(ordered) + out_index)
                arg_spec = None if spmd is None else spmd.arg_specs[i]
                if arg_spec is not None:
                    attrs["sdy.sharding"] = sdy.sharding_attr(arg_spec, aval.ndim)
                mode = None if arg_layouts is None else arg_layouts[i]
                if mode is not None:
                    attrs["mhlo.layout_mode"] = ir.StringAttr.get(mode)
                arg_attrs.append(ir.DictAttr.get(attrs))
            fn.arg_attrs = ir.ArrayAttr.get(arg_attrs)
            result_attrs: list[ir.Attribute] = [token_attr for _ in ordered]
            for i, aval in enumerate(out_avals):
                info = _result_info(i, len(out_avals)) if result_infos is None else result_infos[i]
                attrs = {"jax.result_info": ir.StringAttr.get(info)}
                out_spec = None if spmd is None else spmd.result_specs[i]
                if out_spec is not None:
                    attrs["sdy.sharding"] = sdy.sharding_attr(out_spec, aval.ndim)
                mode = None if result_layouts is None else result_layouts[i]
                if mode is not None:
                    attrs["mhlo.layout_mode"] = ir.StringAttr.get(mode)
                result_attrs.append(ir.DictAttr.get(attrs))
            fn.result_attrs = ir.ArrayAttr.get(result_attrs)
            unknown = ir.Location.unknown()
            names = [unknown] * len(in_avals) if arg_names is None else [ir.Location.name(n) for n in arg_names]
            entry = fn.add_entry_block([*(unknown for _ in (*index_types, *ordered)), *names])
            with ir.InsertionPoint(entry):
                consts = [hlo.constant(c) for c in closed.consts]
                params: list[ir.Value[ir.Type]] = list(entry.arguments)
                if indexed:
                    context.platform_index, params = params[0], params[1:]
                context.tokens.update(zip(ordered, params[: len(ordered)]))
                if dim_vars is not None:
                    context.dim_var_values = dynamic_shapes.bind_dim_vars(dim_vars, params[len(ordered) :])
                outs = lower_jaxpr_body(jaxpr, consts, params[len(ordered) :])
                func.ReturnOp([*(context.tokens[e] for e in ordered), *outs])
    if context.refine_shapes:
        module = _refined(module, ctx)
    custom = any(m is not None for m in (*(arg_layouts or ()), *(result_layouts or ())))
    return LoweredModule(
        module, ctx, in_avals, out_avals, donated, ordered, tuple(context.host_callbacks), bool(jaxpr.effects), spmd, custom
    )


def _refined(module: ir.Module, ctx: ir.Context) -> ir.Module:
    """The module with its dynamic shapes refined to static ones (XLA's shape refinement, which
    also checks its shape assertions)."""
    with ctx:
        text = module.operation.get_asm(binary=True, enable_debug_info=True)
    refined: bytes = lib_mlir.refine_polymorphic_shapes(text, enable_shape_assertions=True, validate_static_shapes=True)
    return ir.Module.parse(refined, context=ctx)


def _result_info(i: int, n: int) -> str:
    return "result" if n == 1 else f"result[{i}]"
