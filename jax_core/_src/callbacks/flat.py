"""What the callback primitives share: the flat callable they hold as a param, the checks on
``result_shape_dtypes``, and how a callback's arguments reach it (as device arrays)."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.runtime.transfer import device_put
from jax_core._src.sharding.shardings import SingleDeviceSharding
from jax_core._src.tree.tree_util import PyTreeDef, tree_flatten, tree_leaves, tree_unflatten

logger = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True, slots=True, weakref_slot=True)
class FlatCallback:
    """A Python callable taking and returning flat lists (the callback param of the primitives).

    Equal for the same function and argument structure, so a function traced twice with the
    same callback hits the compilation caches (as JAX's ``_FlatCallback``)."""

    callback_func: Callable[..., Any]
    in_tree: PyTreeDef  # the (args, kwargs) structure of ``callback_func``'s arguments

    def __call__(self, *flat_args: Any) -> list[Any]:
        args, kwargs = tree_unflatten(self.in_tree, flat_args)
        return tree_leaves(self.callback_func(*args, **kwargs))


def check_callable(callback: object, what: str) -> None:
    """JAX's ``TypeError`` for a callback that cannot be called."""
    if not callable(callback):
        raise TypeError(f"first argument to {what} must be callable, but got an object of type {type(callback)}")


def check_sharding(sharding: object, what: str) -> None:
    """JAX's ``NotImplementedError`` for a callback ``sharding`` other than one device's."""
    if sharding is not None and not isinstance(sharding, SingleDeviceSharding):
        raise NotImplementedError(f"{what} only supports SingleDeviceSharding, but got {type(sharding)}")


def result_avals(result_shape_dtypes: Any) -> tuple[tuple[ShapedArray, ...], PyTreeDef]:
    """The flat result avals of ``result_shape_dtypes`` (leaves with ``shape`` and ``dtype``), and
    their structure. A 64-bit dtype without x64 is JAX's ``ValueError``."""
    leaves, tree = tree_flatten(result_shape_dtypes)
    avals: list[ShapedArray] = []
    for leaf in leaves:
        shape, dtype = getattr(leaf, "shape", None), getattr(leaf, "dtype", None)
        if shape is None or dtype is None:
            raise TypeError(
                "result_shape_dtypes must be a pytree of values with `shape` and `dtype` attributes "
                f"(e.g. jax.ShapeDtypeStruct), got {leaf!r}"
            )
        dt = np.dtype(dtype)
        if dtypes.canonicalize_dtype(dt) != dt:
            raise ValueError("result_shape_dtypes cannot specify 64-bit types when `jax_enable_x64` is disabled")
        avals.append(ShapedArray(tuple(int(d) for d in shape), dt))
    return tuple(avals), tree


def to_arrays(args: Sequence[Any]) -> list[Any]:
    """A callback's host arguments as device arrays (what JAX's callbacks receive)."""
    return [device_put(np.asarray(a)) if a is not None else None for a in args]


def call_logged(callback: Callable[..., Sequence[Any]], args: Sequence[Any], failure: str) -> list[Any]:
    """``callback(*args)``'s results as NumPy arrays; an exception is logged (``failure``, with
    its traceback, as JAX logs it) and raised."""
    try:
        return [np.asarray(r) for r in callback(*args)]
    except BaseException:
        logger.exception(failure)
        raise


FlatCallback.__qualname__ = "_FlatCallback"  # printed in jaxprs as JAX prints its own
