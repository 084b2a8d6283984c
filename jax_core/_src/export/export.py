"""``export(jitted)(*specs)``: a jitted function lowered to a portable StableHLO artifact with the
metadata to call it (an ``Exported``), following JAX 0.12's calling convention.

``main`` takes, in order: the platform index (an ``i32`` scalar with ``jax.global_constant =
"_platform_index"``) when lowered for several platforms, one ``!stablehlo.token`` per ordered
effect, then the arguments listed in ``module_kept_var_idx`` (unused ones are dropped); it returns
one token per ordered effect, then the results (each with its ``jax.result_info`` path).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from jax_core._src import config
from jax_core._src.core.avals import ShapeDtypeStruct
from jax_core._src.core.effects import ordered_effects as ordered_effect_types
from jax_core._src.core.jaxpr import ClosedJaxpr, Jaxpr, Var, eval_jaxpr
from jax_core._src.export import call as _call  # noqa: F401  # pyright: ignore[reportUnusedImport]  (registers call_exported_p)
from jax_core._src.export.exported import (
    DisabledSafetyCheck,
    Exported,
    maximum_supported_calling_convention_version,
    minimum_supported_calling_convention_version,
)
from jax_core._src.export.safety import check_custom_calls
from jax_core._src.export.symbolic import polymorphic_solution
from jax_core._src.interpreters.ad_util import tangent_aval
from jax_core._src.lib import mlir as lib_mlir
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.lower_jaxpr import SpmdLayout, lower_closed_jaxpr
from jax_core._src.sharding.partition_spec import PartitionSpec
from jax_core._src.sharding.shardings import NamedSharding
from jax_core._src.transforms.api import Jitted
from jax_core._src.transforms.jit import ExportTrace, _JitFunction  # pyright: ignore[reportPrivateUsage]
from jax_core._src.tree.paths import keystr
from jax_core._src.tree.tree_util import PyTreeDef, tree_flatten_with_path, tree_unflatten

_KNOWN_PLATFORMS = ("cpu", "cuda", "rocm", "tpu")


def default_export_platform() -> str:
    """The platform ``export`` lowers for when given none: the default backend's (``"cpu"``)."""
    return "cpu"


def _canonical_platform(platform: str) -> str:
    name = platform.lower()
    if name == "gpu":
        raise RuntimeError(
            "Unknown backend: 'gpu' requested, but no platforms that are instances of gpu are present. "
            "Platforms present are: cpu"
        )
    if name == "host":
        return "cpu"
    return name


def _jit_function(fun_jit: object) -> _JitFunction:
    jf = getattr(fun_jit, "_jit", None)
    if not isinstance(jf, _JitFunction):
        raise ValueError(f"Function to be exported must be the result of `jit` but is: {fun_jit}")
    return jf


def export(
    fun_jit: Jitted[..., Any], *, platforms: Sequence[str] | None = None, disabled_checks: Sequence[DisabledSafetyCheck] = ()
) -> Callable[..., Exported]:
    """Exports a jitted function: returns a function that takes ``(args, kwargs)`` given as
    ``ShapeDtypeStruct``s or arrays and returns the ``Exported``.

    ``platforms``: the platforms to lower for (default: ``(default_export_platform(),)``); with
    several, ``main`` takes the platform index. ``disabled_checks``: safety checks to skip.
    ``ValueError`` if ``fun_jit`` is not the result of ``jit``.
    """
    jf = _jit_function(fun_jit)
    checks = tuple(disabled_checks)
    for check in checks:
        if not isinstance(check, DisabledSafetyCheck):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(f"disabled_checks must be DisabledSafetyCheck values, got {check!r}")

    def do_export(*args_specs: Any, **kwargs_specs: Any) -> Exported:
        chosen = (default_export_platform(),) if platforms is None else tuple(_canonical_platform(p) for p in platforms)
        if not chosen:
            raise ValueError("export needs at least one platform: pass platforms=None for the default.")
        traced = jf.trace_for_export(args_specs, kwargs_specs)
        return export_traced(traced, chosen, checks)

    return do_export


def _calling_convention_version() -> int:
    version = config.export_calling_convention_version.value
    assert version is not None
    if not minimum_supported_calling_convention_version <= version <= maximum_supported_calling_convention_version:
        raise ValueError(
            f"The requested export calling convention version {version} is outside the range of supported "
            f"versions [{minimum_supported_calling_convention_version}..{maximum_supported_calling_convention_version}]"
        )
    return version


def _kept_inputs(jaxpr: Jaxpr) -> list[int]:
    """The inputs the jaxpr reads (the others are dropped from ``main``)."""
    used: set[Var] = {a for eqn in jaxpr.eqns for a in eqn.invars if isinstance(a, Var)}
    used |= {a for a in jaxpr.outvars if isinstance(a, Var)}
    return [i for i, v in enumerate(jaxpr.invars) if v in used]


def _result_infos(out_tree: PyTreeDef) -> list[str]:
    """``jax.result_info`` of each result: its path in the results (``result['a']``)."""
    paths = tree_flatten_with_path(tree_unflatten(out_tree, [0] * out_tree.num_leaves))[0]
    return ["result" + keystr(path) for path, _ in paths]


def module_to_bytecode(module: ir.Module) -> bytes:
    """The module as a portable artifact (VHLO), at a StableHLO version about 4 weeks old, as JAX
    (consumers up to a month behind can read it)."""
    target = hlo.get_version_from_compatibility_requirement(hlo.StablehloCompatibilityRequirement.WEEK_4)
    with module.context:
        artifact: bytes = lib_mlir.serialize_portable_artifact(module, target, True)
    return artifact


def export_traced(traced: ExportTrace, platforms: tuple[str, ...], disabled_checks: tuple[DisabledSafetyCheck, ...]) -> Exported:
    """The ``Exported`` of a jitted function traced for export."""
    version = _calling_convention_version()
    closed = traced.jaxpr
    jaxpr = closed.jaxpr
    dim_vars = polymorphic_solution(closed.in_avals, traced.in_tree)
    # With effects or dimension variables (read from every argument's shape), every argument is kept.
    kept = _kept_inputs(jaxpr) if not jaxpr.effects and dim_vars is None else list(range(len(jaxpr.invars)))
    pruned = Jaxpr(jaxpr.constvars, [jaxpr.invars[i] for i in kept], jaxpr.outvars, jaxpr.eqns)
    mesh = traced.mesh
    in_shardings = traced.in_shardings if mesh is not None else (None,) * len(jaxpr.invars)
    out_shardings = traced.out_shardings if mesh is not None else (None,) * len(jaxpr.outvars)
    spmd = None
    if mesh is not None:  # partitioned over a mesh: main's parameters and results carry shardings
        spmd = SpmdLayout(
            mesh.shape_tuple,
            tuple(None if (s := in_shardings[i]) is None else s.spec for i in kept),
            tuple(None if s is None else s.spec for s in out_shardings),
        )
    lowered = lower_closed_jaxpr(
        ClosedJaxpr(pruned, closed.consts),
        traced.fun_name,
        spmd=spmd,
        platforms=platforms,
        arg_names=[traced.arg_names[i] for i in kept],
        result_infos=_result_infos(traced.out_tree),
        dim_vars=dim_vars,
    )
    if lowered.host_callbacks:
        raise NotImplementedError(
            f"jax_core cannot export '{traced.fun_name}': it calls back into Python (a host callback, e.g. "
            "debug.print or pure_callback), which a serialized module cannot hold."
        )
    uses_global_constants = len(platforms) > 1 or dim_vars is not None
    module = lowered.module
    with lowered.context:
        module.operation.attributes["jax.uses_shape_polymorphism"] = ir.BoolAttr.get(uses_global_constants)
        check_custom_calls(module, disabled_checks)
    serialized = module_to_bytecode(module)
    effects = list(jaxpr.effects)
    in_avals = tuple(closed.in_avals)
    out_avals = tuple(closed.out_avals)

    def get_vjp(primal: Exported) -> Exported:
        return _export_vjp(primal, closed)

    return Exported(
        fun_name=traced.fun_name,
        in_tree=traced.in_tree,
        in_avals=in_avals,
        out_tree=traced.out_tree,
        out_avals=out_avals,
        _in_named_shardings=tuple(in_shardings),
        _out_named_shardings=tuple(out_shardings),
        in_shardings_hlo=(None,) * len(in_avals),
        out_shardings_hlo=(None,) * len(out_avals),
        nr_devices=1 if spmd is None else spmd.num_partitions,
        platforms=platforms,
        ordered_effects=tuple(lowered.ordered_effects),
        unordered_effects=tuple(e for e in effects if not ordered_effect_types.contains(e)),
        disabled_safety_checks=disabled_checks,
        mlir_module_serialized=serialized,
        calling_convention_version=version,
        module_kept_var_idx=tuple(kept),
        uses_global_constants=uses_global_constants,
        _get_vjp=get_vjp,
    )


def _export_vjp(primal: Exported, closed: ClosedJaxpr) -> Exported:
    """The exported VJP of ``primal``: flat primal arguments then one cotangent per flat result,
    to the cotangents of the flat arguments (``float0`` for integer ones)."""
    from jax_core._src.transforms.ad_api import vjp
    from jax_core._src.transforms.api import jit

    n = len(primal.in_avals)

    def fun(*args: Any) -> list[Any]:
        return eval_jaxpr(closed.jaxpr, closed.consts, *args)

    def fun_vjp(*args_and_cts: Any) -> Any:
        _, pullback = vjp(fun, *args_and_cts[:n])
        return pullback(list(args_and_cts[n:]))

    fun_vjp.__name__ = "fun_vjp_jax"
    avals = [*primal.in_avals, *(tangent_aval(a) for a in primal.out_avals)]
    shardings = [*primal.in_shardings_jax(), *primal.out_shardings_jax()]
    mesh = next((s.mesh for s in shardings if s is not None), None)
    if mesh is None:
        jitted = jit(fun_vjp)
    else:  # as JAX: the cotangents are sharded as the primals they belong to
        full = [NamedSharding(mesh, PartitionSpec()) if s is None else s for s in shardings]
        jitted = jit(fun_vjp, in_shardings=tuple(full), out_shardings=tuple(full[:n]))
    specs = tuple(ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type) for a in avals)
    traced = _jit_function(jitted).trace_for_export(specs, {})
    return export_traced(traced, primal.platforms, tuple(primal.disabled_safety_checks))
