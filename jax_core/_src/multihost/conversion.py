"""Host-local blocks to global arrays and back: ``host_local_array_to_global_array`` and
``global_array_to_host_local_array`` (``jax.experimental.multihost_utils``).

A *host-local* array is the block of a global array that one process's devices hold, laid out
over ``global_mesh.local_mesh`` (the block of the mesh made of this process's devices) by the
same ``PartitionSpec``. Along a dimension split over mesh axis ``a``, the global size is the
local size times ``global_mesh.shape[a] / local_mesh.shape[a]``; other dimensions keep their
size. On one process the local mesh is the mesh, and both functions only place data.

Each conversion is a primitive (as in JAX), so it can appear under ``jit``, ``grad`` and
``vmap``: its abstract evaluation maps the aval's shape between the local and the global view,
it lowers to the identity (inside a computation the value already is what it is), it is linear
(its transpose applies the same primitive to the cotangent, as JAX's does), and under ``vmap``
the batch dimension is left unsplit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.interpreters.ad_util import instantiate_zeros, linear_jvp, linear_transpose
from jax_core._src.interpreters.batching_util import vectorized_batcher
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.runtime.array import ArrayImpl, device_put_host
from jax_core._src.runtime.assembly import make_array_from_single_device_arrays
from jax_core._src.runtime.transfer import device_put
from jax_core._src.sharding.partition_spec import array_mapping
from jax_core._src.sharding.shardings import AxisName, Mesh, NamedSharding, PartitionSpec
from jax_core._src.tree.errors import prefix_errors
from jax_core._src.tree.tree_util import PyTreeDef, broadcast_prefix, tree_flatten, tree_unflatten
from jax_core._src.typing.basearray import Array

__all__ = [
    "global_array_to_host_local_array",
    "global_array_to_host_local_array_p",
    "global_to_local_shape",
    "host_local_array_to_global_array",
    "host_local_array_to_global_array_p",
    "local_to_global_shape",
]

_NONE_SPEC = (
    "`None` is not a valid input to the pspecs argument. Please use jax.sharding.PartitionSpec() if you "
    "wanted to replicate your input."
)


# -- shapes --------------------------------------------------------------------------------------
def _rescaled(
    shape: Sequence[int],
    spec: PartitionSpec,
    divide: Mapping[AxisName, int],
    multiply: Mapping[AxisName, int],
) -> tuple[int, ...]:
    """``shape`` with each dimension split over mesh axes divided by their ``divide`` sizes, then
    multiplied by their ``multiply`` sizes (JAX's tile, then untile)."""
    mapping = array_mapping(spec)
    out = list(shape)
    if any(dim >= len(out) for dim in mapping.values()):
        # As JAX: a spec naming more dimensions than the value has fails indexing the shape.
        raise IndexError("list index out of range")
    for axis, dim in mapping.items():
        if out[dim] % divide[axis]:
            # JAX's check is a bare ``assert`` (an ``AssertionError`` without a message).
            raise AssertionError()
        out[dim] //= divide[axis]
    for axis, dim in mapping.items():
        out[dim] *= multiply[axis]
    return tuple(out)


def local_to_global_shape(mesh: Mesh, spec: PartitionSpec, shape: Sequence[int]) -> tuple[int, ...]:
    """The global shape of an array whose block on this process's devices has ``shape``.

    Raises:
      AssertionError: a dimension split over mesh axes is not divisible by their local sizes.
    """
    return _rescaled(shape, spec, mesh.local_mesh.shape, mesh.shape)


def global_to_local_shape(mesh: Mesh, spec: PartitionSpec, shape: Sequence[int]) -> tuple[int, ...]:
    """The shape of the block of a ``shape`` global array that this process's devices hold.

    Raises:
      AssertionError: a dimension split over mesh axes is not divisible by their global sizes.
    """
    return _rescaled(shape, spec, mesh.shape, mesh.local_mesh.shape)


# -- pspecs ---------------------------------------------------------------------------------------
def _flatten_pspecs(what: str, treedef: PyTreeDef, pspecs: Any) -> list[Any]:
    """One spec per leaf of ``treedef``: ``pspecs`` is a tree prefix of the value (a single spec
    applies to every leaf); ``None`` counts as a leaf. JAX's messages when it is not a prefix."""
    skeleton = tree_unflatten(treedef, [0] * treedef.num_leaves)
    try:
        return broadcast_prefix(pspecs, skeleton, is_leaf=lambda x: x is None)
    except ValueError:
        pass
    children = len(treedef.children())
    length = _tuple_length(pspecs)
    if length != children:
        message = (
            f"{what} specification must be a tree prefix of the positional arguments tuple. In particular, "
            f"{what} must either be a Sharding, a PartitionSpec, or a tuple of length equal to the number "
            "of positional arguments."
        )
        if length is None:
            message += f" But {what} is not a tuple: got {type(pspecs)} instead."
        else:
            message += (
                f" But {what} is the wrong length: got a tuple or list of length {length} for an args tuple "
                f"of length {children}."
            )
        if children == 1 and _is_prefix((pspecs,), skeleton):
            message += (
                f" Given the corresponding argument being passed, it looks like {what} might need to be "
                "wrapped in a singleton tuple."
            )
        raise ValueError(message)
    errors = prefix_errors(pspecs, skeleton, is_leaf=lambda x: x is None)
    details = "\n".join(str(e(what).args[0]) for e in errors)
    raise ValueError(f"Mismatch details ({len(errors)} found):\n{details}")


def _tuple_length(x: object) -> int | None:
    """``len(x)`` when ``x`` is exactly a tuple (not a list, nor a namedtuple), else ``None``."""
    return len(cast("tuple[object, ...]", x)) if type(x) is tuple else None


def _is_prefix(prefix: Any, full: Any) -> bool:
    try:
        broadcast_prefix(prefix, full, is_leaf=lambda x: x is None)
    except ValueError:
        return False
    return True


def _check_spec(pspec: PartitionSpec | None) -> PartitionSpec:
    if pspec is None:
        raise ValueError(_NONE_SPEC)
    return pspec


# -- values -----------------------------------------------------------------------------------
def _is_key_array(x: object) -> bool:
    """Whether ``x`` is a concrete array of PRNG keys (its data is ``x._base_array``)."""
    return hasattr(x, "_base_array") and dtypes.is_extended_dtype(getattr(x, "dtype", None))


def _rewrap_keys(like: Any, data: Array) -> Array:
    """``data`` (key data) as a key array of ``like``'s implementation."""
    out: Array = type(like)(like._impl, data)
    return out


def _host_value(x: Any) -> np.ndarray[Any, Any]:
    """A concrete value as a NumPy array of its canonical dtype (``float0`` as ``bool`` zeros)."""
    arr: np.ndarray[Any, Any] = np.asarray(x)
    if arr.dtype == dtypes.float0:
        return np.zeros(arr.shape, dtype=np.dtype(bool))
    canonical = dtypes.canonicalize_dtype(arr.dtype)
    return arr if arr.dtype == canonical else arr.astype(canonical)


def _placed(blocks: Sequence[Any], devices: Sequence[Any]) -> list[Array]:
    return [device_put_host(b, d, committed=True) for b, d in zip(blocks, devices, strict=True)]


def _on_mesh_devices(x: Any, shape: tuple[int, ...], sharding: NamedSharding) -> Array:
    """An array of ``shape`` laid out by ``sharding`` made of ``x``'s addressable single-device
    arrays, without copies: ``x``'s blocks on this process's devices must be those ``sharding``
    gives them (as JAX, only the avals change; no checks)."""
    by_id = {s.device.id: s.data for s in x.addressable_shards}
    order = sharding._addressable_device_assignment  # pyright: ignore[reportPrivateUsage]
    aval = ShapedArray(shape, x.dtype)
    out: Array = ArrayImpl(aval, sharding, [by_id[d.id] for d in order], True, True)
    return out


# -- host_local_array_to_global_array ----------------------------------------------------------
def _local_to_global_impl(arr: Any, *, global_mesh: Mesh, pspec: PartitionSpec | None) -> Any:
    spec = _check_spec(pspec)
    if isinstance(arr, ArrayImpl) and not arr.is_fully_addressable:
        return arr  # already global
    keys = arr if _is_key_array(arr) else None
    value: Any = arr._base_array if keys is not None else arr
    local_mesh = global_mesh.local_mesh
    local_sharding = NamedSharding(local_mesh, spec)
    devices = list(local_mesh.devices.flat)
    if isinstance(value, ArrayImpl) and value.sharding.is_equivalent_to(local_sharding, value.ndim):
        # Its blocks are already on the devices that hold them in the global array.
        global_shape = local_to_global_shape(global_mesh, spec, value.shape)
        out = _on_mesh_devices(value, global_shape, NamedSharding(global_mesh, spec))
    else:
        host = _host_value(value)
        index_map = local_sharding.devices_indices_map(host.shape)
        singles = _placed([host[index_map[d]] for d in devices], devices)
        global_shape = local_to_global_shape(global_mesh, spec, host.shape)
        out = make_array_from_single_device_arrays(
            global_shape, NamedSharding(global_mesh, spec), singles, dtype=host.dtype
        )
    return out if keys is None else _rewrap_keys(keys, out)


def _local_to_global_abstract_eval(
    x: ShapedArray, *, global_mesh: Mesh, pspec: PartitionSpec
) -> ShapedArray:
    return ShapedArray(local_to_global_shape(global_mesh, _check_spec(pspec), x.shape), x.dtype)


def _local_to_global_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, global_mesh: Mesh, pspec: PartitionSpec
) -> tuple[Any, int | None]:
    (x,), (d,) = args, dims
    entries: list[Any] = list(_check_spec(pspec).partitions)
    if d is not None:
        entries.insert(
            d, None
        )  # the batch dimension is not split (jax_core's vmap has no spmd axis)
    out = host_local_array_to_global_array_p.bind(
        x, global_mesh=global_mesh, pspec=PartitionSpec(*entries)
    )
    return out, d


def _identity_lower(ctx: LoweringRuleContext, x: ir.Value[Any], **params: Any) -> ir.Value[Any]:
    return x


def _local_to_global_transpose(ct: Any, **params: Any) -> Any:
    # As JAX's: the cotangent goes through the same conversion (not the inverse one).
    return host_local_array_to_global_array_p.bind(instantiate_zeros(ct), **params)


host_local_array_to_global_array_p: Primitive = Primitive("host_local_array_to_global_array")
host_local_array_to_global_array_p.def_rules(
    Rules(
        abstract_eval=_local_to_global_abstract_eval,
        lower=_identity_lower,
        impl=_local_to_global_impl,
        jvp=linear_jvp(host_local_array_to_global_array_p),
        transpose=linear_transpose(_local_to_global_transpose),
        batch=_local_to_global_batch,
    )
)


def host_local_array_to_global_array(local_inputs: Any, global_mesh: Mesh, pspecs: Any) -> Any:
    """Builds global arrays from the blocks this process holds.

    Each process passes its own block of every array (the blocks may differ between processes);
    the block is laid out over this process's devices (``global_mesh.local_mesh``) by the spec,
    and the result is the global array they form over all of ``global_mesh``. A dimension split
    over mesh axes grows by the ratio of their global to local sizes; a spec that replicates
    data across processes expects the same block on each (it is not checked).

    Example: with ``mesh = Mesh(np.array(jax.devices()).reshape(jax.process_count(), -1),
    ("host", "dev"))``, ``host_local_array_to_global_array(np.arange(4) * jax.process_index(),
    mesh, P("host"))`` has shape ``(4 * process_count,)``, each process's block replicated over
    its devices.

    Args:
      local_inputs: a pytree of this process's blocks (NumPy arrays, scalars, fully addressable
        ``jax_core.Array``s, key arrays). A non-fully-addressable array is returned as it is.
      global_mesh: the mesh over every process's devices; each process's devices must form a
        contiguous block of it.
      pspecs: a ``PartitionSpec`` or a tree prefix of ``local_inputs`` of them.

    Returns:
      A pytree of global ``jax_core.Array``s sharded by ``NamedSharding(global_mesh, pspec)``.

    Raises:
      ValueError: a spec is ``None``; ``pspecs`` is not a tree prefix of ``local_inputs``; a
        spec names an axis the mesh lacks; this process's devices do not form a contiguous block
        of the mesh (JAX's messages).
      IndivisibleError: a block's dimension is not divisible by its shard count.
    """
    leaves, treedef = tree_flatten(local_inputs)
    specs = _flatten_pspecs("input pspecs", treedef, pspecs)
    out = [
        host_local_array_to_global_array_p.bind(x, global_mesh=global_mesh, pspec=s)
        for x, s in zip(leaves, specs, strict=True)
    ]
    return tree_unflatten(treedef, out)


# -- global_array_to_host_local_array ----------------------------------------------------------
def _global_to_local_impl(arr: Any, *, global_mesh: Mesh, pspec: PartitionSpec | None) -> Any:
    spec = _check_spec(pspec)
    if isinstance(arr, ArrayImpl) and arr.is_fully_addressable:
        return arr  # already host local
    keys = arr if _is_key_array(arr) else None
    value: Any = arr._base_array if keys is not None else arr
    local_mesh = global_mesh.local_mesh
    local_sharding = NamedSharding(local_mesh, spec)
    devices = list(local_mesh.devices.flat)
    if isinstance(value, ArrayImpl):
        local_shape = global_to_local_shape(global_mesh, spec, value.shape)
        global_sharding = NamedSharding(global_mesh, spec)
        if not value.sharding.is_equivalent_to(global_sharding, value.ndim):
            value = device_put(value, global_sharding)
        out = _on_mesh_devices(value, local_shape, local_sharding)
    else:
        # A host value (cotangents of a gradient can be NumPy arrays): cut by the local sharding.
        host = _host_value(value)
        local_shape = global_to_local_shape(global_mesh, spec, host.shape)
        index_map = local_sharding.devices_indices_map(host.shape)
        singles = _placed([host[index_map[d]] for d in devices], devices)
        out = make_array_from_single_device_arrays(
            local_shape, local_sharding, singles, dtype=host.dtype
        )
    return out if keys is None else _rewrap_keys(keys, out)


def _global_to_local_abstract_eval(
    x: ShapedArray, *, global_mesh: Mesh, pspec: PartitionSpec
) -> ShapedArray:
    return ShapedArray(global_to_local_shape(global_mesh, _check_spec(pspec), x.shape), x.dtype)


def _global_to_local_transpose(ct: Any, **params: Any) -> Any:
    return global_array_to_host_local_array_p.bind(instantiate_zeros(ct), **params)


global_array_to_host_local_array_p: Primitive = Primitive("global_array_to_host_local_array")
global_array_to_host_local_array_p.def_rules(
    Rules(
        abstract_eval=_global_to_local_abstract_eval,
        lower=_identity_lower,
        impl=_global_to_local_impl,
        jvp=linear_jvp(global_array_to_host_local_array_p),
        transpose=linear_transpose(_global_to_local_transpose),
        # As JAX's (``defvectorized``): the same conversion applies, the batch dimension stays.
        batch=vectorized_batcher(global_array_to_host_local_array_p),
    )
)


def global_array_to_host_local_array(global_inputs: Any, global_mesh: Mesh, pspecs: Any) -> Any:
    """The blocks of global arrays this process's devices hold, as host-local arrays.

    The inverse of :func:`host_local_array_to_global_array`: each result is laid out over
    ``global_mesh.local_mesh`` by its spec, its dimensions split over mesh axes shrunk by the
    ratio of their global to local sizes. No data moves unless an input's sharding differs from
    ``NamedSharding(global_mesh, pspec)`` (it is resharded first).

    Args:
      global_inputs: a pytree of global ``jax_core.Array``s. A fully addressable array (every
        array, on one process) is returned as it is.
      global_mesh: the mesh over every process's devices; each process's devices must form a
        contiguous block of it.
      pspecs: a ``PartitionSpec`` or a tree prefix of ``global_inputs`` of them.

    Returns:
      A pytree of host-local ``jax_core.Array``s sharded by
      ``NamedSharding(global_mesh.local_mesh, pspec)``.

    Raises:
      ValueError: a spec is ``None``; ``pspecs`` is not a tree prefix of ``global_inputs``; a spec
        names an axis the mesh lacks (JAX's messages).
      AssertionError: a dimension split over mesh axes is not divisible by their sizes.
    """
    leaves, treedef = tree_flatten(global_inputs)
    specs = _flatten_pspecs("output pspecs", treedef, pspecs)
    out = [
        global_array_to_host_local_array_p.bind(x, global_mesh=global_mesh, pspec=s)
        for x, s in zip(leaves, specs, strict=True)
    ]
    return tree_unflatten(treedef, out)
