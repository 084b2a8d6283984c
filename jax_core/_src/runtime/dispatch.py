"""Eager evaluation: each primitive runs as a cached one-equation compiled computation.

This is JAX's design: eager execution is ``jit`` of a single primitive, so there is
one execution path. Executables are cached on (primitive, params, input avals,
x64 mode); host inputs (NumPy arrays, Python scalars) are copied to the device first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from jax_core._src import config
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Var
from jax_core._src.core.primitive import Primitive, set_default_impl
from jax_core._src.core.trace import get_aval
from jax_core._src.lowering.lower_jaxpr import SpmdLayout, lower_closed_jaxpr
from jax_core._src.runtime import relayout
from jax_core._src.runtime.array import ArrayImpl, spans_devices
from jax_core._src.runtime.checks import InvalidValue, check_execution, check_values, checking_values, log_compile
from jax_core._src.runtime.compile import Executable, compile_module
from jax_core._src.runtime.spmd import compile_spmd, named_from_hlo, sharded_input
from jax_core._src.runtime.transfer import placement, to_device_input
from jax_core._src.sharding.mesh import Mesh
from jax_core._src.sharding.shardings import NamedSharding, from_cpp_sharding

if TYPE_CHECKING:
    from jax_core._src.sharding.shardings import Device

_CACHE_SIZE = 4096
_cache: OrderedDict[tuple[Any, ...], Executable] = OrderedDict()
# Guards _cache's LRU bookkeeping (a hit's move_to_end can race an eviction). Compiling happens
# outside it: two threads that miss together both compile, and the first result is kept.
_cache_lock = threading.Lock()


def _hashable_params(params: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(sorted(params.items()))


def _cached(key: tuple[Any, ...], build: Callable[[], Executable]) -> Executable:
    """The executable cached under ``key``, built (outside the lock) on a miss."""
    with _cache_lock:
        exe = _cache.get(key)
        if exe is not None:
            _cache.move_to_end(key)
            return exe
    compiled = build()
    with _cache_lock:
        exe = _cache.setdefault(key, compiled)
        if len(_cache) > _CACHE_SIZE:
            # Bounded: keys of higher-order primitives hold jaxprs, so an eager loop that builds
            # a fresh function each time must not keep every executable alive.
            _cache.popitem(last=False)
    return exe


def _one_equation(primitive: Primitive, avals: tuple[ShapedArray, ...], params: dict[str, Any]) -> ClosedJaxpr:
    invars = [Var(a) for a in avals]
    outvars = [Var(a) for a in primitive.abstract_eval(*avals, **params)]
    log_compile(primitive.name, avals)
    return ClosedJaxpr(Jaxpr([], invars, list(outvars), [JaxprEqn(list(invars), outvars, primitive, params, None)]), [])


def primitive_executable(
    primitive: Primitive,
    avals: tuple[ShapedArray, ...],
    params: dict[str, Any],
    device: Device | None = None,
    committed: bool = False,
) -> Executable:
    """The cached executable that applies ``primitive`` to inputs with these avals (on ``device``,
    default: the default device)."""
    key = (primitive, _hashable_params(params), avals, config.jit_key(), device, committed)

    def build() -> Executable:
        lowered = lower_closed_jaxpr(_one_equation(primitive, avals, params), primitive.name)
        return compile_module(lowered, device, committed=committed)

    return _cached(key, build)


def _spmd_executable(
    primitive: Primitive, avals: tuple[ShapedArray, ...], params: dict[str, Any], mesh: Mesh, specs: tuple[Any, ...]
) -> Executable:
    key = (primitive, _hashable_params(params), avals, config.jit_key(), "spmd", mesh, specs)

    def build() -> Executable:
        jaxpr = _one_equation(primitive, avals, params)
        layout = SpmdLayout(mesh.shape_tuple, specs, (None,) * len(jaxpr.out_avals))
        return compile_spmd(lower_closed_jaxpr(jaxpr, primitive.name, spmd=layout), mesh)

    return _cached(key, build)


def _apply_spmd(
    primitive: Primitive, args: Sequence[Any], params: dict[str, Any], avals: tuple[ShapedArray, ...]
) -> tuple[list[Any], Executable] | None:
    """Inputs laid out over several devices: the primitive runs partitioned over their mesh (as
    JAX's eager ``jit`` of one primitive does), its results laid out as XLA's partitioner chose.
    ``None`` when no input names a mesh (the caller falls back to one device)."""
    shardings = [from_cpp_sharding(x._sharding) if type(x) is ArrayImpl and x._committed else None for x in args]
    mesh = next((s.mesh for s in shardings if isinstance(s, NamedSharding) and s.num_devices > 1), None)
    if mesh is None:
        return None
    devices = mesh._flat_devices_tuple  # pyright: ignore[reportPrivateUsage]
    specs: list[Any] = []
    for s, aval in zip(shardings, avals, strict=True):
        if s is None:
            specs.append(None)
        elif s._device_assignment != devices:  # pyright: ignore[reportPrivateUsage]
            ids = [[d.id for d in devices], [d.id for d in s._device_assignment]]  # pyright: ignore[reportPrivateUsage]
            raise ValueError(
                f"Received incompatible devices for jitted computation. Got argument with device ids {ids[0]} on "
                f"platform CPU and argument with device ids {ids[1]} on platform CPU (in {primitive.name})"
            )
        elif isinstance(s, NamedSharding) and s.mesh.shape_tuple == mesh.shape_tuple:
            specs.append(s.spec)
        else:
            named = named_from_hlo(mesh, s._to_xla_hlo_sharding(aval.ndim), aval.ndim)  # pyright: ignore[reportPrivateUsage]
            specs.append(named.spec if isinstance(named, NamedSharding) else None)
    exe = _spmd_executable(primitive, avals, params, mesh, tuple(specs))
    check_execution(primitive.name)
    assert exe.input_shardings is not None
    outs: list[Any] = exe.call([sharded_input(x, s) for x, s in zip(args, exe.input_shardings, strict=True)])
    return outs, exe


def apply_primitive(primitive: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
    """Evaluates ``primitive`` on concrete inputs."""
    if relayout.armed():  # its executables take default layouts (``runtime/relayout.py``)
        args = relayout.default_layout_args(args)
    avals = tuple(x.aval if type(x) is ArrayImpl else get_aval(x) for x in args)
    spread = any(type(x) is ArrayImpl and x._committed and spans_devices(x) for x in args)
    spmd_outs = _apply_spmd(primitive, args, params, avals) if spread else None
    if spmd_outs is not None:
        outs, exe = spmd_outs
    elif any(type(x) is ArrayImpl and x._committed for x in args):
        # Committed inputs: it runs on their device, and so do its results (as in JAX).
        device, committed = placement(args, None, primitive.name)
        exe = primitive_executable(primitive, avals, params, device, committed)
        check_execution(primitive.name)
        outs = exe.call([to_device_input(x, device) for x in args])
    else:
        exe = primitive_executable(primitive, avals, params)
        check_execution(primitive.name)
        outs = exe.call([to_device_input(x) for x in args])
    if checking_values():
        try:
            check_values(outs, exe.out_avals)
        except InvalidValue as err:
            raise FloatingPointError(f"invalid value ({err.kind}) encountered in {primitive.name}") from None
    return outs if primitive.multiple_results else outs[0]


def clear_cache() -> None:
    """Forgets every cached one-primitive executable."""
    with _cache_lock:
        _cache.clear()


set_default_impl(apply_primitive)
