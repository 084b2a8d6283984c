"""``jit``: trace once per abstract signature, compile with XLA, dispatch from C++.

Calls go through jaxlib's C++ ``pjit`` fast path: it checks the argument signature
(shapes, dtypes, weak types, static arguments, x64 mode) against its own cache and
runs the executable without entering Python. On a miss it calls ``_cache_miss``,
which traces the function to a jaxpr (omnistaging: every operation inside is
staged), lowers it to StableHLO, compiles it, runs it, and hands the executable
back to C++ for the next call. Under an enclosing trace (``jit`` inside ``jit``,
``make_jaxpr``) the jitted function is staged as one ``jit`` equation instead.
"""

from __future__ import annotations

import enum
import functools
import inspect
import warnings
import weakref
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, ParamSpec, NoReturn, TypeVar, cast

import numpy as np

from jax_core._src import config, dtypes
from jax_core._src.backend.client import CppSharding
from jax_core._src.core.avals import ShapedArray, ShapeDtypeStruct
from jax_core._src.core.shape_poly import is_symbolic_dim
from jax_core._src.core.jaxpr import ClosedJaxpr
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.source_info import function_location
from jax_core._src.core.trace import Tracer, current_trace, eval_trace, get_aval
from jax_core._src.interpreters.call_rules import (
    call_batch,
    call_jvp,
    call_partial_eval,
    call_transpose,
)
from jax_core._src.interpreters.staging import (
    DebugInfo,
    convert_constvars_to_invars,
    trace_to_jaxpr,
)
from jax_core._src.lax.layout_ops import out_layouts_via_propagation
from jax_core._src.layout.formats import Layout, LayoutOptions, layout_mode
from jax_core._src.lib import jax_ext
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import (
    LoweredModule,
    LoweringRuleContext,
    lower_closed_jaxpr,
)
from jax_core._src.runtime.array import ArrayImpl, device_put_host, spans_devices
from jax_core._src.runtime import relayout
from jax_core._src.runtime.compile import Executable, compile_module
from jax_core._src.runtime.spmd import compile_spmd, sharded_input
from jax_core._src.runtime.checks import InvalidValue, check_execution, check_values, checking_values, log_compile, logger
from jax_core._src.runtime.transfer import placement, to_device_input
from jax_core._src.transforms import jit_layouts, jit_shardings
from jax_core._src.transforms.jit_shardings import UNSPECIFIED, SpmdPlan, UnspecifiedValue
from jax_core._src.transforms.stages import Compiled, Lowered, Traced
from jax_core._src.tree.tree_util import (
    PyTreeDef,
    default_registry,
    keystr,
    tree_flatten,
    tree_flatten_with_path,
    tree_unflatten,
)
from jax_core._src.typing.basearray import Array

from jax_core._src.sharding.mesh import Mesh
from jax_core._src.sharding.shardings import Device, NamedSharding, Sharding

if TYPE_CHECKING:
    from jax_core._src.transforms.api import Jitted

P = ParamSpec("P")
R = TypeVar("R")


# -- the jit primitive (a staged call) ---------------------------------------------------
def _jit_abstract_eval(*avals: ShapedArray, jaxpr: ClosedJaxpr, name: str) -> list[ShapedArray]:
    return jaxpr.out_avals


def _jit_lower(
    ctx: LoweringRuleContext, *args: ir.Value[ir.Type], jaxpr: ClosedJaxpr, name: str
) -> list[ir.Value[ir.Type]]:
    return ctx.lower_jaxpr(jaxpr.jaxpr, jaxpr.consts, args)


def _jit_pp(params: dict[str, Any]) -> list[tuple[str, Any]]:
    return [("name", params["name"]), ("jaxpr", params["jaxpr"])]


jit_p: Primitive = Primitive("jit", multiple_results=True)
jit_p.def_rules(
    Rules(
        abstract_eval=_jit_abstract_eval,
        lower=_jit_lower,
        jvp=call_jvp(jit_p),
        transpose=call_transpose(jit_p),
        batch=call_batch(jit_p),
        partial_eval=call_partial_eval(jit_p),
        pp=_jit_pp,
    )
)


# -- argument handling --------------------------------------------------------------------
def _normalize_argnums(argnums: int | Sequence[int] | None, nargs: int | None, what: str) -> tuple[int, ...]:
    if argnums is None:
        return ()
    items = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    out: list[int] = []
    for i in items:
        # Validates callers that are not type-checked (e.g. ``static_argnums="x"``).
        if not isinstance(i, (int, np.integer)) or isinstance(i, bool):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(f"{what} must be an int or a sequence of ints, got {argnums!r}")
        i = int(i)
        if nargs is not None:
            if not -nargs <= i < nargs:
                raise ValueError(
                    f"jitted function has {what}={argnums} but was called with only {nargs} positional arguments."
                )
            i %= nargs
        out.append(i)
    return tuple(sorted(set(out)))


def _signature(fun: Callable[..., Any]) -> inspect.Signature | None:
    try:
        return inspect.signature(fun)
    except (ValueError, TypeError):
        return None


class _FastpathData(NamedTuple):
    xla_executable: Any
    out_pytree_def: Any
    in_shardings: Any
    out_shardings: Any
    out_avals: Any
    out_committed: Any
    kept_var_bitvec: Any
    in_device_local_layouts: Any
    const_args: Any


class ExportTrace(NamedTuple):
    """A jitted function traced for ``jax.export`` (``_JitFunction.trace_for_export``)."""

    fun_name: str
    jaxpr: ClosedJaxpr
    in_tree: PyTreeDef
    out_tree: PyTreeDef
    donated: list[bool]
    arg_names: list[str]
    mesh: Mesh | None
    """The mesh a call is partitioned over (``None``: one device)."""
    in_shardings: tuple[NamedSharding | None, ...]
    """Over ``mesh``, each argument leaf's sharding (``None``: the partitioner's choice)."""
    out_shardings: tuple[NamedSharding | None, ...]
    """Over ``mesh``, each result leaf's sharding (``None``: the partitioner's choice)."""


class _Entry(NamedTuple):
    jaxpr: ClosedJaxpr
    out_tree: PyTreeDef
    lowered: LoweredModule | None
    executable: Executable | None
    where: Any = None
    """Where it runs: a device, an ``SpmdPlan``, or ``None`` (the default device)."""
    committed: bool = False
    in_layouts: tuple[LayoutOptions, ...] | None = None
    """The layout each argument is compiled for (``None``: the default; all default: ``None``)."""


def abstractify(x: Any) -> ShapedArray:
    """The aval of a jit argument: an array, a scalar, or a ``ShapeDtypeStruct``."""
    if isinstance(x, ShapeDtypeStruct):
        return x.to_aval()
    return get_aval(x)


def _check_int_arguments(leaves: Sequence[Any], avals: Sequence[ShapedArray], names: Sequence[str]) -> None:
    """A Python int argument that its (weak, int32 without x64) type cannot hold raises JAX's
    ``OverflowError`` now, naming the argument, rather than after compiling."""
    for x, aval, name in zip(leaves, avals, names, strict=True):
        if type(x) is int and dtypes.issubdtype(aval.dtype, np.integer):
            info = np.iinfo(aval.dtype)
            if not int(info.min) <= x <= int(info.max):
                raise OverflowError(
                    "An overflow was encountered while parsing an argument to a jitted computation, "
                    f"whose argument path is {name}. Got {type(x)} with value {x}"
                )


class Inline(enum.Enum):
    """How a nested jitted function is inlined into its caller (``jit(..., inline=)``):
    ``JAX_EARLY`` traces it straight into the caller's jaxpr (no ``jit`` equation); the others keep
    its ``jit`` equation, which jax_core's lowering inlines (``True`` means ``JAX_LATE``, ``False``
    ``AUTO``)."""

    JAX_EARLY = "jax_early"
    JAX_LATE = "jax_late"
    XLA_EARLY = "xla_early"
    XLA_LATE = "xla_late"
    AUTO = "auto"


def canonicalize_inline(inline: bool | Inline) -> Inline:
    """``inline`` as an ``Inline`` member (JAX's reading of ``True`` and ``False``)."""
    if isinstance(inline, Inline):
        return inline
    if isinstance(inline, bool):  # pyright: ignore[reportUnnecessaryIsInstance]
        return Inline.JAX_LATE if inline else Inline.AUTO
    raise ValueError(f"Invalid inline option: {inline!r}")


class _JitFunction:
    """The Python side of one ``jit``-wrapped function (caches, tracing, stages)."""

    def __init__(
        self,
        fun: Callable[..., Any],
        static_argnums: int | Sequence[int] | None,
        static_argnames: str | Sequence[str] | None,
        donate_argnums: int | Sequence[int] | None,
        donate_argnames: str | Sequence[str] | None,
        inline: bool | Inline = False,
        device: Device | None = None,
        in_shardings: Any = UNSPECIFIED,
        out_shardings: Any = UNSPECIFIED,
    ) -> None:
        if not callable(fun):
            raise TypeError(f"Expected a callable value, got {fun!r}")
        if device is not None and not (isinstance(in_shardings, UnspecifiedValue) and isinstance(out_shardings, UnspecifiedValue)):
            raise ValueError(
                "If backend or device is specified on jit, then in_shardings and out_shardings should not be specified."
            )
        self.fun = fun
        self.device = device
        self.in_shardings: Any = in_shardings
        self.out_shardings: Any = out_shardings
        self.sharded = not (isinstance(in_shardings, UnspecifiedValue) and isinstance(out_shardings, UnspecifiedValue))
        in_formats = jit_shardings.check_no_bare_layouts(in_shardings)
        self.formats = jit_shardings.check_no_bare_layouts(out_shardings) or in_formats
        """Whether ``in_shardings``/``out_shardings`` ask for layouts (``Format``s with one)."""
        self.inline = canonicalize_inline(inline)
        inline = self.inline
        self.name = getattr(fun, "__name__", type(fun).__name__)
        self.signature = _signature(fun)
        nums = _normalize_argnums(static_argnums, None, "static_argnums")
        names: tuple[str, ...] = (static_argnames,) if isinstance(static_argnames, str) else tuple(static_argnames or ())
        donate = _normalize_argnums(donate_argnums, None, "donate_argnums")
        donate_names: tuple[str, ...] = (donate_argnames,) if isinstance(donate_argnames, str) else tuple(donate_argnames or ())
        params = list(self.signature.parameters.values()) if self.signature else []
        positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if self.signature is not None:
            kinds = {p.name: p.kind for p in params}
            has_var_kw = any(p.kind is p.VAR_KEYWORD for p in params)
            for n in (*names, *donate_names):
                if n not in kinds and not has_var_kw:
                    what = "static_argnames" if n in names else "donate_argnames"
                    raise ValueError(
                        f"jitted function has {what}={names if n in names else donate_names}, "
                        f"but {n!r} is not a parameter of {self.name}{self.signature}."
                    )
            has_var_pos = any(p.kind is p.VAR_POSITIONAL for p in params)
            if not has_var_pos:
                n_pos = len(positional)
                for i in nums:
                    if not -n_pos <= i < n_pos:
                        raise ValueError(
                            f"jitted function has static_argnums={static_argnums}, but only accepts {n_pos} positional arguments."
                        )
                nums = tuple(sorted({i % n_pos for i in nums}))
                donate = tuple(sorted({i % n_pos for i in donate if -n_pos <= i < n_pos}))
            # static_argnums and static_argnames name the same parameters (as in JAX).
            if nums and not names:
                names = tuple(positional[i] for i in nums if i < len(positional))
            elif names and not nums:
                nums = tuple(i for i, n in enumerate(positional) if n in names)
            if donate and not donate_names:
                donate_names = tuple(positional[i] for i in donate if i < len(positional))
            elif donate_names and not donate:
                donate = tuple(i for i, n in enumerate(positional) if n in donate_names)
        if set(donate) & set(nums):
            raise ValueError(f"static_argnums {nums} and donate_argnums {donate} cannot overlap.")
        self.static_argnums = nums
        self.static_argnames = names
        self.donate_argnums = donate
        self.donate_argnames = donate_names
        self.positional_names = positional
        self.options: Hashable = (
            nums, names, donate, donate_names, inline, device,
            jit_shardings.hashable_spec_tree(in_shardings), jit_shardings.hashable_spec_tree(out_shardings),
        )  # fmt: skip
        self._cache: dict[Hashable, _Entry] = _shared_trace_cache(fun, self.options)

    # -- splitting arguments ---------------------------------------------------------
    def _split(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[list[Any], PyTreeDef, tuple[Any, ...], list[bool], list[str]]:
        nargs = len(args)
        static_nums = {i for i in self.static_argnums if i < nargs}
        statics: list[tuple[str, Any]] = []
        dyn_args: list[Any] = []
        for i, a in enumerate(args):
            if i in static_nums:
                statics.append((str(i), _check_hashable(a, f"static argument {i}")))
            else:
                dyn_args.append(a)
        dyn_kwargs: dict[str, Any] = {}
        for k, v in kwargs.items():
            if k in self.static_argnames:
                statics.append((k, _check_hashable(v, f"static argument {k!r}")))
            else:
                dyn_kwargs[k] = v
        donated_pos = {i for i in self.donate_argnums if i < nargs}
        leaves_paths, in_tree = tree_flatten_with_path((tuple(dyn_args), dyn_kwargs))
        leaves = [leaf for _, leaf in leaves_paths]
        dyn_positions = [i for i in range(nargs) if i not in static_nums]
        donated: list[bool] = []
        names: list[str] = []
        for path, _ in leaves_paths:
            first = path[0]
            if getattr(first, "idx", None) == 0:  # positional
                pos = dyn_positions[int(getattr(path[1], "idx", 0))]
                donated.append(pos in donated_pos)
                base = self.positional_names[pos] if pos < len(self.positional_names) else f"args[{pos}]"
            else:
                key = str(getattr(path[1], "key", ""))
                donated.append(key in self.donate_argnames)
                base = key
            names.append(base + keystr(tuple(path[2:])))
        return leaves, in_tree, tuple(statics), donated, names

    def _merge(self, in_tree: PyTreeDef, statics: tuple[Any, ...], leaves: Sequence[Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
        dyn_args, dyn_kwargs = tree_unflatten(in_tree, leaves)
        static_pos = {int(k): v for k, v in statics if k.isdigit()}
        static_kw = {k: v for k, v in statics if not k.isdigit()}
        merged: list[Any] = []
        it = iter(dyn_args)
        for i in range(len(dyn_args) + len(static_pos)):
            merged.append(static_pos[i] if i in static_pos else next(it))
        return tuple(merged), {**dyn_kwargs, **static_kw}

    # -- tracing and compiling -------------------------------------------------------
    def _trace(self, args: tuple[Any, ...], kwargs: dict[str, Any], avals: list[ShapedArray] | None = None) -> tuple[_Entry, list[Any], list[bool], Hashable]:
        leaves, in_tree, statics, donated, names = self._split(args, kwargs)
        if avals is None:
            try:
                avals = [abstractify(x) for x in leaves]
            except TypeError:
                for x, name in zip(leaves, names):
                    try:
                        abstractify(x)
                    except TypeError:
                        raise TypeError(
                            f"Error interpreting argument to {self.fun} as an abstract array. The problematic "
                            f"value is of type {type(x)} and was passed to the function at path {name}.\n"
                            "This typically means that a jit-wrapped function was called with a non-array "
                            "argument, and this argument was not marked as static using the static_argnums "
                            "or static_argnames parameters of jax.jit."
                        ) from None
                raise
            _check_int_arguments(leaves, avals, names)
        # Where it runs: JAX's rule (``device=``, else committed arguments' device, else the default),
        # or partitioned over a mesh when shardings are requested or arguments span several devices.
        placed: tuple[Any, bool] = (None, False)
        committed = [x for x in leaves if type(x) is ArrayImpl and x._committed]
        abstract_sharded = any(isinstance(x, ShapeDtypeStruct) and x.sharding is not None for x in leaves)
        if self.sharded or abstract_sharded or any(spans_devices(x) for x in committed):
            where = self._plan(args, kwargs, leaves, avals, names)
            placed = (None, False) if where is None else (where, True)
        elif self.device is not None or committed:
            placed = placement(leaves, self.device, self.name, names)
        layouts = self.formats or relayout.armed() or any(jit_layouts.abstract_layout(x) is not None for x in leaves)
        in_layouts = self._in_layouts(args, kwargs, leaves, avals, names, placed[0]) if layouts else None
        key = (in_tree, tuple(avals), statics, tuple(donated), config.jit_key(), *placed, in_layouts)
        entry = self._cache.get(key)
        if entry is None:
            if config.no_tracing.value:
                raise RuntimeError(f"re-tracing function {function_location(self.fun)} for `jit`, but 'no_tracing' is set")
            if config.explain_cache_misses.value:
                self._explain_miss(key, names)
            out_tree_box: list[PyTreeDef] = []

            def flat_fun(*flat_args: Any) -> list[Any]:
                a, k = self._merge(in_tree, statics, flat_args)
                out = self.fun(*a, **k)
                out_leaves, out_tree = tree_flatten(out)
                for leaf in out_leaves:
                    if not isinstance(leaf, (Tracer, ArrayImpl)):
                        _abstractify_output(leaf, self.name)
                out_tree_box.append(out_tree)
                return out_leaves

            jaxpr = trace_to_jaxpr(flat_fun, avals, DebugInfo("jit", self.fun, names))
            where, committed_out = placed
            constraints = jit_shardings.constraint_shardings(jaxpr.jaxpr)
            if constraints and not isinstance(where, SpmdPlan):
                # The function names a mesh inside (``with_sharding_constraint``): it runs over it.
                planned = self._plan(args, kwargs, leaves, avals, names, constraints)
                if planned is not None:
                    where, committed_out = planned, True
            entry = _Entry(jaxpr, out_tree_box[0], None, None, where, committed_out, in_layouts)
            self._cache[key] = entry
        return entry, leaves, donated, key

    def _dynamic(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[tuple[Any, ...], int]:
        """The positional arguments that are not static, and the number of keyword leaves."""
        static = {i for i in self.static_argnums if i < len(args)}
        dyn_args = tuple(a for i, a in enumerate(args) if i not in static)
        n_kw = len(tree_flatten({k: v for k, v in kwargs.items() if k not in self.static_argnames})[0])
        return dyn_args, n_kw

    def _in_layouts(
        self,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        leaves: Sequence[Any],
        avals: Sequence[ShapedArray],
        names: Sequence[str],
        where: Any,
    ) -> tuple[LayoutOptions, ...] | None:
        """The layout each argument is compiled for (``jit_layouts.resolve_in_layouts``)."""
        dyn_args, n_kw = self._dynamic(args, kwargs)
        asked = jit_shardings.in_leaf_layouts(self.in_shardings, dyn_args, n_kw)
        requested = jit_shardings.in_leaf_shardings(self.in_shardings, dyn_args, n_kw)
        return jit_layouts.resolve_in_layouts(leaves, avals, names, asked, requested, where)

    def _out_layouts(self, entry: _Entry) -> list[str | None] | None:
        """The ``mhlo.layout_mode`` of each result (``None``: all default)."""
        asked = jit_shardings.out_leaf_layouts(self.out_shardings, entry.out_tree)
        # A result a ``with_layout_constraint`` produces keeps its layout, as in JAX.
        # (A constraint that is not a permutation is left to its lowering rule to reject, as JAX.)
        propagated = out_layouts_via_propagation(entry.jaxpr.jaxpr)
        asked = [
            p if a is None and p is not None and sorted(p.major_to_minor) == list(range(v.ndim)) else a
            for a, p, v in zip(asked, propagated, entry.jaxpr.out_avals, strict=True)
        ]
        if all(a is None for a in asked):
            return None
        requested = jit_shardings.out_leaf_shardings(self.out_shardings, entry.out_tree)
        return jit_layouts.result_layout_modes(asked, requested, entry.jaxpr.out_avals, entry.out_tree, entry.where)

    def _plan(
        self,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        leaves: Sequence[Any],
        avals: Sequence[ShapedArray],
        names: Sequence[str],
        inner: Sequence[Sharding] = (),
    ) -> SpmdPlan | Device | None:
        dyn_args, n_kw = self._dynamic(args, kwargs)
        requested = jit_shardings.in_leaf_shardings(self.in_shardings, dyn_args, n_kw)
        out_leaves = jit_shardings.requested_out_shardings(self.out_shardings)
        where = getattr(self.fun, "__qualname__", self.name)
        return jit_shardings.plan(leaves, avals, requested, [*out_leaves, *inner], where, names)

    def _lower_module(self, entry: _Entry, donated: list[bool], key: Hashable) -> LoweredModule:
        if entry.lowered is not None:
            return entry.lowered
        where = entry.where
        in_modes = None if entry.in_layouts is None else [layout_mode(l, a.dtype) for l, a in zip(entry.in_layouts, entry.jaxpr.in_avals, strict=True)]
        out_modes = self._out_layouts(entry)
        if not isinstance(where, SpmdPlan):
            return lower_closed_jaxpr(entry.jaxpr, self.name, donated_invars=donated, arg_layouts=in_modes, result_layouts=out_modes)
        requested = jit_shardings.out_leaf_shardings(self.out_shardings, entry.out_tree)
        outs = jit_shardings.out_shardings_on(where, requested, entry.jaxpr.out_avals)
        return lower_closed_jaxpr(
            entry.jaxpr, self.name, donated_invars=donated, spmd=where.layout(outs), arg_layouts=in_modes, result_layouts=out_modes
        )

    def _compile(self, lowered: LoweredModule, entry: _Entry, compiler_options: Mapping[str, Any] | None = None) -> Executable:
        where = entry.where
        if isinstance(where, SpmdPlan):
            return compile_spmd(lowered, where.mesh, compiler_options)
        return compile_module(lowered, where, compiler_options, committed=entry.committed)

    def _compiled(self, entry: _Entry, donated: list[bool], key: Hashable) -> _Entry:
        if entry.executable is None:
            lowered = self._lower_module(entry, donated, key)
            log_compile(f"jit({self.name})", entry.jaxpr.in_avals)
            entry = entry._replace(lowered=lowered, executable=self._compile(lowered, entry))
            self._cache[key] = entry
        return entry

    def cache_miss(self, *args: Any, **kwargs: Any) -> tuple[Any, Any, bool]:
        """Called by the C++ fast path when it has no executable for these arguments."""
        if self.inline is Inline.JAX_EARLY and current_trace() is not eval_trace:
            # Inlined: trace straight through into the enclosing jaxpr (no ``jit`` equation).
            return self.fun(*args, **kwargs), None, False
        entry, leaves, donated, key = self._trace(args, kwargs)
        if current_trace() is not eval_trace or any(isinstance(x, Tracer) for x in leaves):
            # A symbolic dimension passed as a value (shape polymorphism) is staged as one.
            leaves = [x.__jax_array__() if is_symbolic_dim(x) else x for x in leaves]
            fun_jaxpr, consts = convert_constvars_to_invars(entry.jaxpr)
            outs = jit_p.bind(*consts, *leaves, jaxpr=ClosedJaxpr(fun_jaxpr, []), name=self.name)
            return tree_unflatten(entry.out_tree, outs), None, False
        entry = self._compiled(entry, donated, key)
        exe = entry.executable
        assert exe is not None
        check_execution(f"jit({self.name})")
        inputs, relaid = _inputs(exe, leaves)
        out_flat = exe.call(inputs)
        if checking_values():
            try:
                check_values(out_flat, exe.out_avals)
            except InvalidValue as err:
                self._deoptimized(err, args, kwargs)
            return tree_unflatten(entry.out_tree, out_flat), None, False
        fastpath = None if relaid else _fastpath(exe, entry, len(leaves))
        return tree_unflatten(entry.out_tree, out_flat), fastpath, False

    def _explain_miss(self, key: tuple[Any, ...], names: Sequence[str]) -> None:
        """``jax_explain_cache_misses``: logs why this call traces again (JAX's "TRACING CACHE
        MISS"), naming the arguments whose types differ from the closest earlier trace."""
        where = function_location(self.fun)
        keys: list[Any] = list(self._cache)
        earlier: list[tuple[Any, ...]] = [k for k in keys if isinstance(k, tuple) and len(cast(tuple[Any, ...], k)) == len(key)]  # type: ignore[redundant-cast]
        if not earlier:
            why = f"  never seen function:\n    {where}"
        else:
            def differences(old: tuple[Any, ...]) -> list[str]:
                out: list[str] = []
                if old[0] != key[0]:
                    out.append(f"  the arguments' tree structure is now {key[0]}, it was {old[0]}")
                elif len(old[1]) == len(key[1]):
                    for name, now, was in zip(names, key[1], old[1]):
                        if now != was:
                            out.append(f"  {name}: now {now}, it was {was}")
                if old[2] != key[2]:
                    out.append(f"  the static arguments are now {key[2]}, they were {old[2]}")
                if old[4] != key[4]:
                    out.append("  a config option that tracing depends on changed")
                return out or ["  the donated arguments differ"]

            closest = min((differences(k) for k in earlier), key=len)
            why = f"  for {where}\n  the closest earlier trace differs:\n" + "\n".join(closest)
        logger.warning("TRACING CACHE MISS at %s because:\n%s", where, why)

    def _deoptimized(self, err: InvalidValue, args: tuple[Any, ...], kwargs: dict[str, Any]) -> NoReturn:
        """A NaN or infinity came out: runs the function op by op to name the operation that made
        it (``jax_debug_nans``/``jax_debug_infs``), as JAX does."""
        print("Invalid nan value encountered in the output of a jax.jit function. Calling the de-optimized version.")
        try:
            self.fun(*args, **kwargs)
        except (FloatingPointError, ZeroDivisionError) as inner:
            raise inner from None
        raise FloatingPointError(
            f"{err.kind}. Because jax_config.debug_nans.value and/or config.jax_debug_infs is set, the "
            "de-optimized function (i.e., the function as if the `jit` decorator were removed) was called "
            "in an attempt to get a more precise error message. However, the de-optimized function did "
            "not produce invalid values during its execution. This behavior can result from `jit` "
            "optimizations causing the invalid value to be produced. It may also arise from having "
            "nan/inf literals as inputs or outputs, like `jax.jit(lambda ...: jax.numpy.nan)(...)`."
        ) from None

    # -- stages ----------------------------------------------------------------------
    def trace(self, *args: Any, **kwargs: Any) -> Traced[Any, Any]:
        """Traces for these (possibly abstract) arguments; returns the ``Traced`` stage."""
        entry, _, donated, key = self._trace(args, kwargs)
        return Traced(entry.jaxpr, lambda: self._lower(entry, donated, key), entry.out_tree)

    def trace_for_export(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> ExportTrace:
        """What ``jax.export`` lowers: the jaxpr for these (possibly abstract) arguments, the
        pytrees of ``(args, kwargs)`` and of the results, and each argument leaf's name."""
        entry, _, donated, key = self._trace(args, kwargs)
        names = self._split(args, kwargs)[4]
        in_tree = cast(tuple[Any, ...], key)[0]
        where = entry.where
        if not isinstance(where, SpmdPlan):
            return ExportTrace(self.name, entry.jaxpr, in_tree, entry.out_tree, donated, names, None, (), ())
        requested = jit_shardings.out_leaf_shardings(self.out_shardings, entry.out_tree)
        outs = jit_shardings.out_shardings_on(where, requested, entry.jaxpr.out_avals)
        return ExportTrace(
            self.name, entry.jaxpr, in_tree, entry.out_tree, donated, names, where.mesh, where.in_shardings, outs
        )

    def lower(self, *args: Any, **kwargs: Any) -> Lowered[Any, Any]:
        """Traces and lowers to StableHLO for these (possibly abstract) arguments."""
        entry, _, donated, key = self._trace(args, kwargs)
        return self._lower(entry, donated, key)

    def _lower(self, entry: _Entry, donated: list[bool], key: Hashable) -> Lowered[Any, Any]:
        in_tree = cast(tuple[Any, ...], key)[0]
        lowered = self._lower_module(entry, donated, key)
        entry = entry._replace(lowered=lowered)

        def compile_fn(compiler_options: Mapping[str, Any] | None = None) -> Compiled[Any, Any]:
            exe: Executable | None
            if compiler_options:  # compiled for this call only, not cached with the function
                exe = self._compile(lowered, entry, compiler_options)
            else:
                exe = self._compiled(entry, donated, key).executable
            assert exe is not None
            in_avals = list(entry.jaxpr.in_avals)

            def call(*a: Any, **k: Any) -> tuple[Any, _FastpathData | None, bool]:
                leaves, _, _, _, names = self._split(a, k)
                got = [abstractify(x) for x in leaves]
                if [(g.shape, g.dtype) for g in got] != [(e.shape, e.dtype) for e in in_avals]:
                    raise TypeError(
                        "Argument types differ from the types for which this computation was compiled. "
                        f"Expected {[str(e) for e in in_avals]}, got {[str(g) for g in got]}."
                    )
                inputs, relaid = _inputs(exe, leaves, names)
                out = tree_unflatten(entry.out_tree, exe.call(inputs))
                return out, None if relaid else _fastpath(exe, entry, len(leaves)), False

            if self.static_argnums or self.static_argnames:
                return Compiled(exe, lambda *a, **k: call(*a, **k)[0], entry.out_tree, in_tree)
            # As ``jit`` calls: jaxlib's C++ dispatch runs the executable on arguments whose types
            # (and layouts) it has seen; the others go through ``call``, which checks them.
            cpp: Any = jax_ext.pjit(
                self.name, self.fun, call, [], [], (self.options, "aot", id(exe)), default_registry,
                _shard_arg_fallback, jax_ext.PjitFunctionCache(capacity=8),
            )  # fmt: skip
            return Compiled(exe, cpp, entry.out_tree, in_tree)

        return Lowered(lowered, compile_fn, entry.out_tree)

    def eval_shape(self, *args: Any, **kwargs: Any) -> Any:
        """The shapes and dtypes of the outputs, as ``ShapeDtypeStruct``s, without running."""
        return self.trace(*args, **kwargs).out_info


def _abstractify_output(x: Any, name: str) -> None:
    try:
        get_aval(x)
    except TypeError:
        raise TypeError(
            f"function {name} traced for jit returned a value of type {type(x)}, which is not a "
            "valid JAX type"
        ) from None


def _check_hashable(x: Any, what: str) -> Any:
    try:
        hash(x)
    except TypeError:
        raise ValueError(
            f"Non-hashable static arguments are not supported. An error occurred while trying to hash "
            f"an object of type {type(x)}, {x!r}. The error was:\nTypeError: unhashable type: "
            f"'{type(x).__name__}'\n"
        ) from None
    return x


def _inputs(exe: Executable, leaves: Sequence[Any], names: Sequence[str] | None = None) -> tuple[list[Any], bool]:
    """The arguments as the executable takes them: on its device, or laid out as its inputs'
    shardings (an SPMD executable's), in the layouts it was compiled for; and whether some
    argument had to be relaid out."""
    if exe.input_shardings is None:
        placed = [to_device_input(x, exe.device) for x in leaves]
    else:
        placed = [sharded_input(x, s) for x, s in zip(leaves, exe.input_shardings, strict=True)]
    if exe.custom_layouts or relayout.armed():
        return relayout.match_parameters(exe, placed, names)
    return placed, False


def _fastpath(exe: Executable, entry: _Entry, n: int) -> _FastpathData | None:
    """What jaxlib's C++ dispatch needs to run ``exe`` itself next time (``None``: it cannot)."""
    if exe.has_effects or any(dtypes.is_extended_dtype(a.dtype) for a in (*exe.in_avals, *exe.out_avals)):
        # Effects go through the runtime tokens (``Executable.call``), which C++ does not know;
        # Key arrays (extended dtypes) are Python objects the C++ path cannot build or read.
        return None
    return _FastpathData(
        exe.loaded,
        entry.out_tree,
        list(exe.input_shardings) if exe.input_shardings is not None else [_jax_sharding(exe) for _ in range(n)],
        list(exe.out_shardings),
        list(exe.out_avals),
        [exe.committed] * len(exe.out_avals),
        [True] * n,
        jit_layouts.dispatch_layouts(exe, entry.in_layouts, entry.where, n),
        [],
    )


def _jax_sharding(exe: Executable) -> CppSharding:
    from jax_core._src.backend import client

    return client.single_device_sharding(exe.device)


def _shard_arg_fallback(x: object, sharding: object, layout: object, *rest: object) -> Array:
    # jaxlib's C++ dispatch calls this for an array in a layout other than the one the
    # executable takes (``layout``; ``None``: the default): it is relaid out.
    if type(x) is ArrayImpl:
        moved = sharded_input(x, sharding) if isinstance(sharding, Sharding) else x
        if layout is None and not relayout.armed():
            # Every array is in its default layout until an executable with custom layouts has
            # been compiled: nothing to relay out (and no shard to read, which costs a failed
            # ``import jax`` in jaxlib per shard). jax_core's Python shardings always come here
            # for a multi-device executable: jaxlib's C++ path cannot count their devices.
            return cast(Array, moved)
        relaid: Array = relayout.relayout(moved, layout if isinstance(layout, Layout) else None)
        return relaid
    if isinstance(layout, Layout):
        relaid_new: Array = relayout.relayout(_shard_arg_fallback(x, sharding, None), layout)
        return relaid_new
    if isinstance(sharding, Sharding) and sharding.num_devices > 1:
        placed: Array = sharded_input(x, sharding)
        return placed
    return device_put_host(x)


# Traces and executables are keyed on the function itself (held weakly) and the jit options, so
# that every ``jit(f)`` wrapper of the same ``f`` shares them, as in JAX: ``jax.jit(f)(x)`` written
# in a loop compiles once (it retraced and recompiled on every call: 37 ms instead of 0.2 ms),
# and what ``f`` read from globals while it was traced stays baked in for later wrappers.
_trace_caches: weakref.WeakKeyDictionary[Callable[..., Any], dict[Hashable, dict[Hashable, _Entry]]] = (
    weakref.WeakKeyDictionary()
)
_cpp_cache: Any = jax_ext.PjitFunctionCache(capacity=4096)  # the C++ fast path's, shared likewise


def _shared_trace_cache(fun: Callable[..., Any], options: Hashable) -> dict[Hashable, _Entry]:
    """The trace/compile cache of ``fun`` under these jit options (a private one when ``fun``
    cannot be referenced weakly)."""
    try:
        return _trace_caches.setdefault(fun, {}).setdefault(options, {})
    except TypeError:
        return {}


def clear_caches() -> None:
    """Clears every compilation and staging cache: the traces and executables of ``jit``ted
    functions (shared by all wrappers of a function) and of eager operations (``jax.clear_caches``).
    Later calls trace and compile again."""
    from jax_core._src.runtime import dispatch

    # Jitted wrappers hold these dicts (``_shared_trace_cache``): they are emptied, not dropped,
    # so a later clear still reaches what the wrappers cache meanwhile.
    for per_function in list(_trace_caches.values()):
        for entries in per_function.values():
            entries.clear()
    _cpp_cache.clear()
    jax_ext.PjitFunctionCache.clear_all()  # the per-wrapper fast-path caches too
    dispatch.clear_cache()


def make_jit(
    fun: Callable[P, R],
    *,
    static_argnums: int | Sequence[int] | None = None,
    static_argnames: str | Sequence[str] | None = None,
    donate_argnums: int | Sequence[int] | None = None,
    donate_argnames: str | Sequence[str] | None = None,
    device: Device | None = None,
    backend: str | None = None,
    inline: bool | Inline = False,
    in_shardings: Any = UNSPECIFIED,
    out_shardings: Any = UNSPECIFIED,
) -> Jitted[P, R]:
    """Builds the C++-dispatched jitted callable for ``fun`` (see ``jax_core.jit``)."""
    if backend is not None and backend != "cpu":
        raise RuntimeError(
            f"Unknown backend: '{backend}' requested, but no platforms that are instances of {backend} are present. "
            "Platforms present are: cpu"
        )
    if device is not None or backend is not None:
        warnings.warn(
            "backend and device argument on jit is deprecated. You can use `jax.device_put(..., "
            'jax.local_devices(backend="cpu")[0])` on the inputs to the jitted function to get the same behavior.',
            DeprecationWarning,
            stacklevel=3,
        )
    jf = _JitFunction(
        fun, static_argnums, static_argnames, donate_argnums, donate_argnames, inline, device, in_shardings, out_shardings
    )
    # jaxlib's C++ ``PjitFunction`` is untyped; the attributes set below make it a ``Jitted``.
    cpp: Any = jax_ext.pjit(
        jf.name,
        fun,
        jf.cache_miss,
        list(jf.static_argnums),
        list(jf.static_argnames),
        jf.options,
        default_registry,
        _shard_arg_fallback,
        _cpp_cache,
    )
    wrapped: Any = functools.wraps(fun)(cpp)
    wrapped._fun = fun
    wrapped._jit = jf
    wrapped.lower = jf.lower
    wrapped.trace = jf.trace
    wrapped.eval_shape = jf.eval_shape
    return cast("Jitted[P, R]", wrapped)

