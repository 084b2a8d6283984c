"""``jax.extend.sharding``: XLA shardings as jaxlib objects and serialized ``OpSharding`` protos.

``GSPMDSharding`` is a device list plus an XLA ``HloSharding``; the functions convert between
``HloSharding``, ``OpSharding`` (``XlaOpShardingProto``) and the proto's serialized bytes.
"""

from types import ModuleType as _ModuleType
from typing import Any as _Any

from jax_core._src import lib as _lib
from jax_core._src.lib import xla_client as xla_client
from jax_core._src.sharding.shardings import GSPMDSharding as GSPMDSharding

_xc: _ModuleType = getattr(_lib, "xla_client")  # noqa: B009  (typed as ModuleType: _hlo has no stubs)

XlaOpShardingProto: _Any = _xc.OpSharding
"""jaxlib's ``OpSharding`` (XLA's ``OpSharding`` proto message)."""

type _OpSharding = _Any
"""A jaxlib ``OpSharding`` (jaxlib ships no stubs for it)."""

type _HloSharding = _Any
"""A jaxlib ``HloSharding`` (jaxlib ships no stubs for it)."""

__all__ = [
    "GSPMDSharding",
    "XlaOpShardingProto",
    "get_hlo_sharding_from_serialized_proto",
    "get_op_sharding_from_serialized_proto",
    "get_serialized_proto_from_hlo_sharding",
    "xla_client",
]


def get_op_sharding_from_serialized_proto(sharding: bytes) -> _OpSharding:
    """The ``OpSharding`` a serialized ``OpSharding`` proto holds."""
    proto: _OpSharding = _xc.OpSharding()
    proto.ParseFromString(sharding)
    return proto


def get_hlo_sharding_from_serialized_proto(sharding: bytes) -> _HloSharding:
    """The ``HloSharding`` of a serialized ``OpSharding`` proto."""
    hlo: _HloSharding = _xc.HloSharding.from_proto(get_op_sharding_from_serialized_proto(sharding))
    return hlo


def get_serialized_proto_from_hlo_sharding(sharding: _HloSharding) -> bytes:
    """An ``HloSharding`` as a serialized ``OpSharding`` proto."""
    data: bytes = sharding.to_proto().SerializeToString()
    return data
