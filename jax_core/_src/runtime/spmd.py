"""Compiling a module for the devices of a mesh with XLA's SPMD partitioner (Shardy).

``main``'s parameters and results carry ``sdy.sharding`` attributes where the caller fixed a
sharding; the others are left to the partitioner (``allow_spmd_sharding_propagation_to_*``), and
the shardings it chose are read back from the executable and turned into ``NamedSharding``s over
the module's mesh (as JAX reports them), or ``GSPMDSharding``s where no ``PartitionSpec`` over
that mesh describes them.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, cast

import numpy as np

from jax_core._src.backend import client
from jax_core._src.backend.client import CompileOptions
from jax_core._src.lib import xla_client
from jax_core._src.lowering.lower_jaxpr import LoweredModule
from jax_core._src.runtime.compile import Executable, _result_handler, compile_options  # pyright: ignore[reportPrivateUsage]
from jax_core._src.sharding.mesh import Mesh
from jax_core._src.sharding.op_shardings import hlo_shardings_equal
from jax_core._src.sharding.partition_spec import PartitionSpec
from jax_core._src.sharding.shardings import GSPMDSharding, NamedSharding, Sharding, _named_to_hlo  # pyright: ignore[reportPrivateUsage]

_xc: ModuleType = xla_client


def _candidate_specs(mesh: Mesh, ndim: int) -> list[PartitionSpec]:
    """Every ``PartitionSpec`` of rank ``ndim`` over ``mesh``'s axes of size > 1, the ones that
    keep mesh order within a dimension first."""
    axes = [n for n, s in mesh.shape_tuple if s != 1]
    out: list[PartitionSpec] = []
    for choice in itertools.product(range(-1, ndim), repeat=len(axes)):
        per_dim: list[list[Any]] = [[] for _ in range(ndim)]
        for name, d in zip(axes, choice, strict=True):
            if d >= 0:
                per_dim[d].append(name)
        for orders in itertools.product(*(itertools.permutations(p) for p in per_dim)):
            entries: list[Any] = [None if not o else o[0] if len(o) == 1 else tuple(o) for o in orders]
            while entries and entries[-1] is None:
                entries.pop()
            out.append(PartitionSpec(*entries))
    return out


@functools.lru_cache(maxsize=4096)
def _spec_for(mesh: Mesh, hlo_text: str, ndim: int, hlo: Any) -> PartitionSpec | None:
    for spec in _candidate_specs(mesh, ndim):
        if hlo_shardings_equal(_named_to_hlo(mesh.shape_tuple, spec, ndim), hlo):
            return spec
    return None


def named_from_hlo(mesh: Mesh, hlo: Any, ndim: int) -> Sharding:
    """The ``NamedSharding`` over ``mesh`` laid out as ``hlo`` (an ``HloSharding``), or a
    ``GSPMDSharding`` on the mesh's devices if no ``PartitionSpec`` is."""
    spec = _spec_for(mesh, str(hlo), ndim, hlo)
    if spec is None:
        return GSPMDSharding(mesh._flat_devices_tuple, hlo)  # pyright: ignore[reportPrivateUsage]
    return NamedSharding(mesh, spec)


def _read_shardings(raw: Sequence[Any] | None, mesh: Mesh, ndims: Sequence[int]) -> list[Sharding]:
    if raw is None:  # XLA reports nothing when every value is replicated
        return [NamedSharding(mesh, PartitionSpec()) for _ in ndims]
    hlos = [_xc.HloSharding.from_proto(op) for op in raw]
    return [named_from_hlo(mesh, h, n) for h, n in zip(hlos, ndims, strict=True)]


def compile_spmd(
    lowered: LoweredModule,
    mesh: Mesh,
    compiler_options: Mapping[str, Any] | None = None,
) -> Executable:
    """Compiles ``lowered`` (lowered with an ``SpmdLayout`` over ``mesh``) for the mesh's devices;
    its results are committed to the shardings the partitioner reports."""
    spmd = lowered.spmd
    assert spmd is not None, "compile_spmd needs a module lowered with an SpmdLayout"
    if lowered.has_effects:
        raise NotImplementedError(
            "jax_core does not yet run computations with side effects (callbacks, debug.print) "
            "partitioned over several devices; call them outside the sharded jit or on one device."
        )
    devices = mesh._flat_devices_tuple  # pyright: ignore[reportPrivateUsage]
    options_any = compile_options(compiler_options)
    options_any.num_partitions = len(devices)
    options_any.num_replicas = 1
    options_any.device_assignment = _xc.DeviceAssignment.create(np.array([[d.id for d in devices]]))
    build = options_any.executable_build_options
    build.use_spmd_partitioning = True
    build.use_shardy_partitioner = True
    build.allow_spmd_sharding_propagation_to_parameters = [s is None for s in spmd.arg_specs] or [False]
    build.allow_spmd_sharding_propagation_to_output = [s is None for s in spmd.result_specs] or [False]
    options = cast(CompileOptions, options_any)
    loaded = client.backend().compile_and_load(lowered.module, client.device_list(devices), options)
    raw: Any = loaded
    in_shardings = _read_shardings(raw.get_parameter_shardings(), mesh, [a.ndim for a in lowered.in_avals])
    out_shardings = _read_shardings(raw.get_output_shardings(), mesh, [a.ndim for a in lowered.out_avals])
    # Where the caller fixed a sharding, it is reported as given (XLA's reading drops size-1 axes).
    in_shardings = [s if spec is None else NamedSharding(mesh, spec) for s, spec in zip(in_shardings, spmd.arg_specs, strict=True)]
    out_shardings = [s if spec is None else NamedSharding(mesh, spec) for s, spec in zip(out_shardings, spmd.result_specs, strict=True)]
    handlers = tuple(_result_handler(a, s, True) for a, s in zip(lowered.out_avals, out_shardings, strict=True))
    return Executable(
        loaded,
        lowered.in_avals,
        lowered.out_avals,
        tuple(out_shardings),
        handlers,
        devices[0],
        True,
        input_shardings=tuple(in_shardings),
        output_shardings=tuple(out_shardings),
        devices=devices,
        custom_layouts=lowered.custom_layouts,
    )


def sharded_input(x: Any, sharding: Sharding) -> Any:
    """``x`` as an SPMD executable takes it: an array laid out as ``sharding`` (moved or copied
    there if it is not)."""
    from jax_core._src.runtime.array import ArrayImpl, check_not_deleted
    from jax_core._src.runtime.transfer import device_put
    from jax_core._src.sharding.shardings import from_cpp_sharding

    if type(x) is ArrayImpl:
        check_not_deleted(x)
        own = from_cpp_sharding(x._sharding)
        if own is sharding or own == sharding or own.is_equivalent_to(sharding, x.ndim):
            return x
    return device_put(x, sharding)
