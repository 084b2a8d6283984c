"""What ``jax.extend.random`` offers for building PRNG implementations: ``define_prng_impl``,
``seed_with_impl``, and the threefry2x32 hash as a primitive (``threefry2x32_p``, ``threefry_2x32``).

A user's implementation is written, as in JAX, for **one** key: ``seed(int[]) -> K``,
``split(K, shape) -> K[*shape]``, ``random_bits(K, bit_width, shape) -> uint<bit_width>[*shape]``
and ``fold_in(K, uint32[]) -> K``, where ``K`` is ``uint32[*key_shape]``. jax_core's key
primitives call an implementation's functions on a leading batch of keys (``keys.PRNGImpl``), so
``define_prng_impl`` maps the user's functions over that batch with ``vmap`` (as JAX's primitives
do), and checks what each returns, so a wrong shape or dtype is reported by rule and impl name.
Implementations are not registered by name (as in JAX): pass the returned object as ``impl=``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import zero_jvp
from jax_core._src.interpreters.batching_util import broadcast_batcher
from jax_core._src.lax.standard_rules import numpy_broadcast_shapes
from jax_core._src.lax.indexing import slicing
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.numpy import creation
from jax_core._src.random import threefry
from jax_core._src.random.api import random_seed
from jax_core._src.random.keys import PRNGImpl, Shape
from jax_core._src.random.physical import lower_fun
from jax_core._src.transforms.vmap_api import vmap
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


_U32 = np.dtype(np.uint32)


# -- user-defined implementations ----------------------------------------------------------------


def _check_result(out: Any, expected: ShapedArray, rule: str, impl_name: str) -> Any:
    """``out`` if it has the shape and dtype ``expected``, else a ``TypeError`` naming ``rule``."""
    try:
        aval = get_aval(out)
    except TypeError:
        raise TypeError(
            f"The {rule} rule of PRNG implementation {impl_name!r} must return an array, got {type(out)}."
        ) from None
    if aval.shape != expected.shape or aval.dtype != expected.dtype:
        raise TypeError(
            f"The {rule} rule of PRNG implementation {impl_name!r} returned "
            f"{aval.dtype}{list(aval.shape)} for one key, expected {expected.dtype}{list(expected.shape)}."
        )
    return out


def _over_leading(n: int, f: Callable[..., Any]) -> Callable[..., Any]:
    """``f`` mapped over ``n`` leading axes of all its arguments."""
    for _ in range(n):
        f = vmap(f)
    return f


def _shape_of(x: Any) -> Shape:
    return get_aval(x).shape


def _batched_impl(
    key_shape: Shape,
    seed: Callable[[Any], Any],
    split: Callable[[Any, Shape], Any],
    random_bits: Callable[[Any, int, Shape], Any],
    fold_in: Callable[[Any, Any], Any],
    name: str,
    tag: str,
) -> PRNGImpl:
    """A ``PRNGImpl`` whose functions take a leading batch of keys, from per-key functions."""
    key_aval = ShapedArray(key_shape, _U32)
    nk = len(key_shape)

    def batched_seed(seeds: Any) -> Any:
        def one(s: Any) -> Any:
            return _check_result(seed(s), key_aval, "seed", name)

        return _over_leading(len(_shape_of(seeds)), one)(seeds)

    def batched_split(data: Any, shape: Shape) -> Any:
        expected = ShapedArray((*shape, *key_shape), _U32)

        def one(k: Any) -> Any:
            return _check_result(split(k, shape), expected, "split", name)

        return _over_leading(len(_shape_of(data)) - nk, one)(data)

    def batched_random_bits(data: Any, bit_width: int, shape: Shape) -> Any:
        expected = ShapedArray(shape, np.dtype(f"uint{bit_width}"))

        def one(k: Any) -> Any:
            return _check_result(random_bits(k, bit_width, shape), expected, "random_bits", name)

        return _over_leading(len(_shape_of(data)) - nk, one)(data)

    def batched_fold_in(data: Any, msgs: Any) -> Any:
        keys_shape = _shape_of(data)[: len(_shape_of(data)) - nk]
        out = tuple(np.broadcast_shapes(keys_shape, _shape_of(msgs)))
        full = (*out, *key_shape)
        data_b = shape_dims.broadcast_in_dim(
            data, full, tuple(range(len(out) - len(keys_shape), len(full)))
        )
        msgs_b = shape_dims.broadcast_in_dim(
            msgs, out, tuple(range(len(out) - len(_shape_of(msgs)), len(out)))
        )

        def one(k: Any, m: Any) -> Any:
            return _check_result(fold_in(k, m), key_aval, "fold_in", name)

        return _over_leading(len(out), one)(data_b, msgs_b)

    return PRNGImpl(
        key_shape=key_shape,
        seed=batched_seed,
        split=batched_split,
        random_bits=batched_random_bits,
        fold_in=batched_fold_in,
        name=name,
        tag=tag,
    )


def _check_key_shape(key_shape: object) -> Shape:
    if not isinstance(key_shape, (tuple, list)):
        raise TypeError(f"define_prng_impl: key_shape must be a tuple of ints, got {key_shape!r}.")
    items = cast("Sequence[Any]", key_shape)
    try:
        shape = tuple(operator.index(d) for d in items)
    except TypeError:
        raise TypeError(
            f"define_prng_impl: key_shape must be a tuple of ints, got {key_shape!r}."
        ) from None
    if any(d < 0 for d in shape):
        raise ValueError(f"define_prng_impl: key_shape must not have negative sizes, got {shape}.")
    return shape


def define_prng_impl(
    *,
    key_shape: Shape,
    seed: Callable[[Array], Array],
    split: Callable[[Array, Shape], Array],
    random_bits: Callable[[Array, int, Shape], Array],
    fold_in: Callable[[Array, int], Array],
    name: str = "<unnamed>",
    tag: str = "?",
) -> PRNGImpl:
    """A PRNG implementation from functions on one key (``uint32[*key_shape]``).

    ``seed(seed: int[]) -> key``, ``split(key, shape) -> keys[*shape]``,
    ``random_bits(key, bit_width, shape) -> uint<bit_width>[*shape]`` and
    ``fold_in(key, data: uint32[]) -> key``, written with jax_core array operations. Pass the
    result as ``impl=`` to ``jax_core.random.key`` (its keys have dtype ``key<tag>``); every
    ``jax_core.random`` function then uses it, eagerly and under ``jit``/``vmap``. As JAX's, the
    implementation is not registered by ``name``.
    """
    shape = _check_key_shape(key_shape)
    rules: dict[str, object] = {
        "seed": seed,
        "split": split,
        "random_bits": random_bits,
        "fold_in": fold_in,
    }
    for rule, fn in rules.items():
        if not callable(fn):
            raise TypeError(f"define_prng_impl: {rule} must be callable, got {fn!r}.")
    if not isinstance(name, str) or not isinstance(tag, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(
            f"define_prng_impl: name and tag must be strings, got {name!r} and {tag!r}."
        )
    return _batched_impl(shape, seed, split, random_bits, fold_in, name, tag)


def seed_with_impl(impl: PRNGImpl, seed: int | ArrayLike) -> Array:
    """Keys of implementation ``impl`` from integer seeds (any shape): ``random_seed(seed, impl)``."""
    return random_seed(seed, impl)


# -- threefry2x32 as a primitive -----------------------------------------------------------------
threefry2x32_p: Primitive = Primitive("threefry2x32", multiple_results=True)
"""The threefry2x32 hash ``(key1, key2, x1, x2) -> (y1, y2)`` of ``uint32`` arrays, which broadcast
(scalars, or arrays of one rank whose sizes agree or are 1)."""


def _broadcast_shape(shapes: Sequence[Shape]) -> Shape:
    ranked = [s for s in shapes if s]
    if not ranked:
        return ()
    ranks = {len(s) for s in ranked}
    if len(ranks) != 1:
        raise TypeError(
            f"threefry2x32: arrays must have the same number of dimensions, got {ranks}"
        )
    return numpy_broadcast_shapes("threefry2x32", *ranked)


def _threefry2x32_abstract_eval(*args: ShapedArray) -> list[ShapedArray]:
    if any(a.dtype != _U32 for a in args):
        raise TypeError(f"Arguments to threefry2x32 must have uint32 type, got {tuple(args)}")
    shape = _broadcast_shape([a.shape for a in args])
    return [ShapedArray(shape, _U32)] * 2


def _threefry2x32_on(k1: Array, k2: Array, x1: Array, x2: Array) -> list[Array]:
    out = _broadcast_shape([_shape_of(v) for v in (k1, k2, x1, x2)])

    def full(v: Array) -> Array:
        if _shape_of(v) == out:
            return v
        return shape_dims.broadcast_in_dim(v, out, tuple(range(len(out))) if _shape_of(v) else ())

    y1, y2 = threefry.threefry2x32(full(k1), full(k2), full(x1), full(x2))
    return [y1, y2]


def _threefry2x32_lower(ctx: LoweringRuleContext, *args: ir.Value[Any]) -> list[ir.Value[Any]]:
    return lower_fun(_threefry2x32_on, ctx, *args)


_broadcast_batch = broadcast_batcher(threefry2x32_p)


def _threefry2x32_batch(args: Sequence[Any], dims: Sequence[int | None]) -> tuple[Any, list[Any]]:
    # NumPy-style broadcasting, as for one output; both outputs share the batch axis.
    outs, dim = _broadcast_batch(args, dims)
    return outs, [dim, dim]


threefry2x32_p.def_rules(
    Rules(
        abstract_eval=_threefry2x32_abstract_eval,
        lower=_threefry2x32_lower,
        jvp=zero_jvp(threefry2x32_p),
        batch=_threefry2x32_batch,
    )
)


def threefry_2x32(
    keypair: Array | np.ndarray[Any, Any] | tuple[ArrayLike, ArrayLike],
    count: Array | np.ndarray[Any, Any],
) -> Array:
    """The threefry2x32 hash of the ``uint32`` array ``count`` under ``keypair`` (a ``uint32[2]``
    key, or two ``uint32`` scalars): a ``uint32`` array of the shape of ``count`` (JAX's)."""
    key1, key2 = keypair
    k1, k2, cnt = creation.asarray(key1), creation.asarray(key2), creation.asarray(count)
    dts = [get_aval(x).dtype for x in (k1, k2, cnt)]
    if any(d != _U32 for d in dts):
        raise TypeError(f"threefry_2x32 requires uint32 arguments, got {dts}")
    shape = _shape_of(cnt)
    size = int(np.prod(shape, dtype=np.int64))
    flat = shape_dims.reshape(cnt, (size,))
    odd = size % 2
    if odd:
        flat = shape_assembly.concatenate([flat, np.zeros((1,), _U32)], 0)
    half = (size + odd) // 2
    x1 = slicing.slice(flat, (0,), (half,))
    x2 = slicing.slice(flat, (half,), (2 * half,))
    y1, y2 = threefry2x32_p.bind(k1, k2, x1, x2)
    out = shape_assembly.concatenate([y1, y2], 0)
    if odd:
        out = slicing.slice(out, (0,), (size,))
    return shape_dims.reshape(out, shape)
