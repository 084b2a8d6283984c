"""Key construction and manipulation: ``key``, ``PRNGKey``, ``split``, ``fold_in``,
``key_data``, ``wrap_key_data``, ``key_impl``, ``bits`` (JAX's ``jax.random`` surface).

Every function accepts typed keys (``key<fry>`` arrays) and raw ``uint32[2]`` keys (wrapped
on the way in with ``random_wrap``; key-valued results are unwrapped again for raw keys,
as in JAX).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import config, dtypes
from jax_core._src.core.avals import canonical_shape
from jax_core._src.core.trace import get_aval
from jax_core._src.numpy import creation
from jax_core._src.random import threefry
from jax_core._src.random import rbg as rbg  # registers the rbg and unsafe_rbg implementations
from jax_core._src.random.keys import KeyLike, KeyTy, PRNGImpl, check_key_data, key_impl_of, prngs
from jax_core._src.random.primitives import (
    random_bits_p,
    random_fold_in_p,
    random_seed_p,
    random_split_p,
    random_unwrap_p,
    random_wrap_p,
)
from jax_core._src.typing import ArrayLike, DTypeLike, ShapeLike
from jax_core._src.typing.basearray import Array

DEFAULT_PRNG_IMPL = threefry.threefry_prng_impl.name
"""The implementation ``key`` and raw keys use by default (JAX's ``jax_default_prng_impl``)."""

PRNGSpecDesc = str | PRNGImpl | KeyTy
"""How a PRNG implementation may be named: ``"threefry2x32"``, or a key dtype."""


def _bind(prim: Any, *args: Any, **params: Any) -> Array:
    out: Array = prim.bind(*args, **params)
    return out


def default_prng_impl() -> PRNGImpl:
    """The default PRNG implementation: ``jax_default_prng_impl`` (threefry2x32 by default)."""
    name = config.default_prng_impl.value
    impl = prngs.get(name)
    if impl is None:
        raise NotImplementedError(
            f"jax_default_prng_impl={name!r}: jax_core implements the PRNGs {sorted(prngs)}; set one of them."
        )
    return impl


def resolve_prng_impl(impl_spec: PRNGSpecDesc | None) -> PRNGImpl:
    """The implementation named by ``impl_spec`` (``None``: the default), with JAX's errors."""
    if impl_spec is None:
        return default_prng_impl()
    if type(impl_spec) is PRNGImpl:
        return impl_spec
    if isinstance(impl_spec, KeyTy):
        return impl_spec._impl  # pyright: ignore[reportPrivateUsage]
    if type(impl_spec) is str:
        if impl_spec in prngs:
            return prngs[impl_spec]
        keys_fmt = ", ".join(f'"{s}"' for s in prngs)
        raise ValueError(
            f'unrecognized PRNG implementation "{impl_spec}". Did you mean one of: {keys_fmt}?'
        )
    raise TypeError(f"unrecognized type {type(impl_spec)} for specifying PRNG implementation.")


def _is_arraylike(x: object) -> bool:
    return (
        isinstance(x, (Array, np.ndarray, np.generic))
        or hasattr(x, "__jax_array__")
        or bool(np.isscalar(x))
    )


def is_typed_key(x: object) -> bool:
    """Whether ``x`` is a typed key array (its dtype is a PRNG key dtype)."""
    return isinstance(x, Array) and dtypes.issubdtype(getattr(x, "dtype", None), dtypes.prng_key)


def check_prng_key(name: str, key: object, *, allow_batched: bool = False) -> tuple[Array, bool]:
    """``key`` as a typed key array, and whether it was a raw ``uint32`` key (JAX's checks)."""
    if is_typed_key(key):
        assert isinstance(key, Array)
        typed, wrapped = key, False
    elif _is_arraylike(key):
        typed, wrapped = random_wrap(key, impl=default_prng_impl()), True
        legacy = config.legacy_prng_key.value
        message = (
            "Legacy uint32 key array passed as key to jax.random function. Please create keys using "
            'jax.random.key(). If use of a raw key array was intended, set jax_legacy_prng_key="allow".'
        )
        if legacy == "error":
            raise ValueError(message)
        if legacy == "warn":
            warnings.warn(message, stacklevel=3)
        elif config.enable_custom_prng.value:
            warnings.warn(
                "Raw arrays as random keys to jax.random functions are deprecated. Assuming valid "
                "threefry2x32 key for now.",
                FutureWarning,
                stacklevel=3,
            )
    else:
        raise TypeError(f"unexpected PRNG key type {type(key)}")
    if not allow_batched and typed.ndim:
        raise ValueError(
            f"{name} accepts a single key, but was given a key array of shape {get_aval(key).shape} != (). "
            "Use jax.vmap for batching."
        )
    return typed, wrapped


def _return_keys(was_wrapped: bool, keys: Array) -> Array:
    return random_unwrap(keys) if was_wrapped else keys


def random_wrap(base_arr: object, *, impl: PRNGImpl) -> Array:
    """Key data (``uint32[..., 2]``) as a typed key array (no copy)."""
    check_key_data(impl, base_arr)
    return _bind(random_wrap_p, base_arr, impl=impl)


def random_unwrap(keys: Array) -> Array:
    """The ``uint32`` data of a typed key array."""
    if not dtypes.issubdtype(keys.dtype, dtypes.prng_key):
        raise TypeError(f"random_unwrap takes key array operand, got keys.dtype={keys.dtype}")
    return _bind(random_unwrap_p, keys)


def random_seed(seeds: ArrayLike, impl: PRNGImpl) -> Array:
    """Keys from integer seeds (any shape)."""
    seeds_arr: ArrayLike
    if isinstance(seeds, int):
        # As JAX: a Python int is an int64 first, then truncated to 32 bits without x64.
        seeds_arr = np.asarray(np.int64(seeds)).astype(dtypes.default_int_dtype())
    else:
        seeds_arr = creation.asarray(seeds)
    offset = config.random_seed_offset.value
    if offset:
        seeds_arr = seeds_arr + offset
    return _bind(random_seed_p, seeds_arr, impl=impl)


def _key(ctor_name: str, seed: ArrayLike, impl_spec: PRNGSpecDesc | None) -> Array:
    impl = resolve_prng_impl(impl_spec)
    if is_typed_key(seed):
        raise TypeError(f"{ctor_name} accepts a scalar seed, but was given a PRNG key.")
    if get_aval(seed).ndim:
        raise TypeError(
            f"{ctor_name} accepts a scalar seed, but was given an array of shape {get_aval(seed).shape} != (). "
            "Use jax.vmap for batching"
        )
    return random_seed(seed, impl)


def key(
    seed: int | ArrayLike, *, impl: PRNGSpecDesc | None = None, dtype: KeyTy | str | None = None
) -> Array:
    """A typed PRNG key (a scalar array of dtype ``key<fry>``) from an integer seed.

    ``impl`` or ``dtype`` names the implementation (default ``"threefry2x32"``)::

        >>> k = jax_core.random.key(0)
        >>> k.shape, k.dtype
        ((), key<fry>)
    """
    if dtype is not None:
        if impl is not None:
            raise ValueError("Cannot specify both `impl` and `dtype` arguments to jax.random.key")
        impl = dtype
    return _key("key", seed, impl)


def PRNGKey(seed: int | ArrayLike, *, impl: PRNGSpecDesc | None = None) -> Array:
    """A legacy raw PRNG key: the ``uint32[2]`` data of ``key(seed)``."""
    return random_unwrap(_key("PRNGKey", seed, impl))


def key_data(keys: KeyLike) -> Array:
    """The ``uint32`` data of keys (shape ``(*keys.shape, 2)``); raw keys are returned as is."""
    typed, _ = check_prng_key("key_data", keys, allow_batched=True)
    return random_unwrap(typed)


def wrap_key_data(
    key_bits_array: ArrayLike, *, impl: PRNGSpecDesc | None = None, dtype: KeyTy | str | None = None
) -> Array:
    """Key data (``uint32[..., 2]``) as a typed key array of the given implementation."""
    if dtype is not None:
        if impl is not None:
            raise ValueError(
                "Cannot specify both `impl` and `dtype` arguments to jax.random.wrap_key_data"
            )
        impl = dtype
    return random_wrap(key_bits_array, impl=resolve_prng_impl(impl))


def key_impl(keys: KeyLike) -> str:
    """The name of the keys' PRNG implementation (``"threefry2x32"``)."""
    typed, _ = check_prng_key("key_impl", keys, allow_batched=True)
    return key_impl_of(get_aval(typed)).name


def key_dtype(impl: PRNGSpecDesc | None = None) -> KeyTy:
    """The key dtype of an implementation (``key<fry>`` by default)."""
    return KeyTy(resolve_prng_impl(impl))


def clone(key: KeyLike) -> Array:
    """A copy of ``key`` for reuse (only meaningful to key-reuse checking; returns ``key``)."""
    typed, wrapped = check_prng_key("clone", key, allow_batched=True)
    return _return_keys(wrapped, typed)


def split_keys(key: Array, num: int | Sequence[int] = 2) -> Array:
    """``split`` for a typed scalar key (used inside the samplers)."""
    if key.ndim:
        raise TypeError(
            f"split accepts a single key, but was given a key array of shape {key.shape} != (). "
            "Use jax.vmap for batching."
        )
    shape = tuple(int(n) for n in num) if isinstance(num, Sequence) else (int(num),)
    return _bind(random_split_p, key, shape=shape)


def split(key: KeyLike, num: int | Sequence[int] = 2) -> Array:
    """``num`` new keys from ``key`` (a leading axis, or the shape ``num`` if a tuple)."""
    typed, wrapped = check_prng_key("split", key)
    return _return_keys(wrapped, split_keys(typed, num))


def fold_in(key: KeyLike, data: ArrayLike) -> Array:
    """A new key from ``key`` and the 32-bit integer ``data``."""
    typed, wrapped = check_prng_key("fold_in", key)
    if get_aval(data).ndim:
        raise TypeError(
            f"fold_in accepts a scalar, but was given an array ofshape {get_aval(data).shape} != (). "
            "Use jax.vmap for batching."
        )
    msgs = creation.asarray(data, dtype=np.uint32)
    return _return_keys(wrapped, _bind(random_fold_in_p, typed, msgs))


def random_bits(key: Array, bit_width: int, shape: Sequence[int]) -> Array:
    """``uint<bit_width>`` random bits of ``shape`` from a typed key."""
    return _bind(random_bits_p, key, bit_width=bit_width, shape=tuple(shape))


def bits(key: KeyLike, shape: ShapeLike = (), dtype: DTypeLike | None = None) -> Array:
    """Uniform random bits as unsigned integers (``uint32`` by default, ``uint64`` with x64)."""
    typed, _ = check_prng_key("bits", key)
    if dtype is None:
        dt = dtypes.default_uint_dtype()
    else:
        dt = dtypes.check_and_canonicalize_user_dtype(dtype)
    if not dtypes.issubdtype(dt, np.unsignedinteger):
        raise ValueError(f"dtype argument to `bits` must be an unsigned int dtype, got {dt}")
    return random_bits(typed, dt.itemsize * 8, canonical_shape(shape, "bits"))
