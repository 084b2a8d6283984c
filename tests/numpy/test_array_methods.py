"""Array methods and indexing: JAX's Array surface, NumPy semantics, ``x.at[...]`` with ``mode=``."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp

# dir(jax.Array) of JAX 0.12 (public names and the dunders NumPy code reaches for).
JAX_ARRAY_NAMES = (
    "T __array__ __array_namespace__ __bool__ __complex__ __contains__ __copy__ __deepcopy__ __divmod__ __dlpack__ "
    "__dlpack_device__ __float__ __format__ __index__ __int__ __iter__ __len__ __rdivmod__ __reduce__ __reversed__ "
    "__round__ __setitem__ addressable_data addressable_shards all any argmax argmin argpartition argsort astype at aval "
    "block_until_ready byteswap choose clip clone committed compress conj conjugate copy copy_to_host_async cumprod "
    "cumsum delete device devices diagonal dot dtype flatten global_shards imag is_deleted "
    "is_fully_addressable is_fully_replicated is_ready item itemsize mT max mean min nbytes ndim nonzero "
    "on_device_size_in_bytes platform prod ptp ravel real repeat reshape round searchsorted shape sharding size sort "
    "squeeze std sum swapaxes take to_device tobytes tolist trace traceback transpose unsafe_buffer_pointer "
    "unsafe_raw_buffer var view weak_type"
).split()
# Left out on purpose: ``flat`` raises NotImplementedError (as in JAX), ``format`` (layouts) and the removed
# ``device_buffer(s)`` (AttributeError with a hint).

rng = np.random.default_rng(3)
F = rng.standard_normal((3, 4)).astype(np.float32)
I = rng.integers(0, 5, (3, 4)).astype(np.int32)


def test_every_jax_array_name_is_present() -> None:
    x = jnp.asarray(F)
    missing = [n for n in JAX_ARRAY_NAMES if not hasattr(x, n)]
    assert missing == []
    with pytest.raises(NotImplementedError, match="arr.flat"):
        _ = x.flat


METHOD_CASES: list[tuple[str, Callable[[Any], Any], Callable[[Any], Any]]] = [
    ("sum", lambda x: x.sum(1, keepdims=True), lambda x: x.sum(1, keepdims=True)),
    ("mean", lambda x: x.mean(0), lambda x: x.mean(0)),
    ("std", lambda x: x.std(1, ddof=1), lambda x: x.std(1, ddof=1)),
    ("var", lambda x: x.var(), lambda x: x.var()),
    ("min", lambda x: x.min(0), lambda x: x.min(0)),
    ("max", lambda x: x.max(initial=10.0), lambda x: x.max(initial=10.0)),
    ("prod", lambda x: x.prod(1), lambda x: x.prod(1)),
    ("ptp", lambda x: x.ptp(1), lambda x: np.ptp(x, 1)),
    ("argmin", lambda x: x.argmin(1), lambda x: x.argmin(1)),
    ("argmax", lambda x: x.argmax(), lambda x: x.argmax()),
    ("all", lambda x: (x > -5).all(0), lambda x: (x > -5).all(0)),
    ("any", lambda x: (x > 1).any(1), lambda x: (x > 1).any(1)),
    ("cumsum", lambda x: x.cumsum(1), lambda x: x.cumsum(1)),
    ("cumprod", lambda x: x.cumprod(), lambda x: x.cumprod()),
    ("clip", lambda x: x.clip(-0.5, 0.5), lambda x: x.clip(-0.5, 0.5)),
    ("round", lambda x: x.round(2), lambda x: x.round(2)),
    ("astype", lambda x: x.astype(jnp.int32), lambda x: x.astype(np.int32)),
    ("reshape", lambda x: x.reshape(2, 6), lambda x: x.reshape(2, 6)),
    ("reshape tuple", lambda x: x.reshape((4, -1)), lambda x: x.reshape((4, -1))),
    ("ravel", lambda x: x.ravel(), lambda x: x.ravel()),
    ("flatten", lambda x: x.flatten(), lambda x: x.flatten()),
    ("squeeze", lambda x: x[None].squeeze(0), lambda x: x[None].squeeze(0)),
    ("swapaxes", lambda x: x.swapaxes(0, 1), lambda x: x.swapaxes(0, 1)),
    ("transpose", lambda x: x.transpose(1, 0), lambda x: x.transpose(1, 0)),
    ("T", lambda x: x.T, lambda x: x.T),
    ("mT", lambda x: x[None].mT, lambda x: np.swapaxes(x[None], -1, -2)),
    ("conj", lambda x: (x * 1j).conj(), lambda x: (x * 1j).conj()),
    ("real", lambda x: (x + 2j).real, lambda x: (x + 2j).real),
    ("imag", lambda x: (x + 2j).imag, lambda x: (x + 2j).imag),
    ("dot", lambda x: x.dot(x.T), lambda x: x.dot(x.T)),
    ("diagonal", lambda x: x.diagonal(1), lambda x: x.diagonal(1)),
    ("trace", lambda x: x.trace(), lambda x: x.trace()),
    ("sort", lambda x: x.sort(0), lambda x: np.sort(x, 0)),
    ("argsort", lambda x: x.argsort(1), lambda x: x.argsort(1, kind="stable")),
    ("take", lambda x: x.take(jnp.array([1, 5])), lambda x: x.take([1, 5])),
    ("repeat", lambda x: x.repeat(2, 1), lambda x: x.repeat(2, 1)),
    ("nonzero", lambda x: (x > 0).nonzero(), lambda x: (x > 0).nonzero()),
    ("compress", lambda x: x.compress(jnp.array([True, False, True]), 0), lambda x: x.compress([True, False, True], 0)),
    ("searchsorted", lambda x: jnp.sort(x.ravel()).searchsorted(0.1), lambda x: np.sort(x.ravel()).searchsorted(0.1)),
    ("view", lambda x: x.view(jnp.int32), lambda x: x.view(np.int32)),
    ("byteswap", lambda x: x.byteswap(), lambda x: x.byteswap()),
    ("divmod", lambda x: divmod(x, 0.7), lambda x: divmod(x, np.float32(0.7))),
    ("rdivmod", lambda x: divmod(2.0, x), lambda x: divmod(np.float32(2.0), x)),
    ("round builtin", lambda x: round(x), lambda x: np.round(x).astype(np.int32)),
    ("reversed", lambda x: list(reversed(x)), lambda x: list(reversed(x))),
]


@pytest.mark.parametrize("name,method,reference", METHOD_CASES, ids=[c[0] for c in METHOD_CASES])
def test_method_matches_numpy(name: str, method: Callable[[Any], Any], reference: Callable[[Any], Any]) -> None:
    got = method(jnp.asarray(F))
    want = reference(F)

    def close(g: Any, w: Any) -> None:
        if isinstance(w, (tuple, list)):
            assert len(g) == len(w)
            for a, b in zip(g, w):
                close(a, b)
            return
        w = np.asarray(w)
        assert np.asarray(g).shape == w.shape
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-5, atol=1e-6)

    close(got, want)


def test_methods_under_jit_and_vmap() -> None:
    f = jax.jit(lambda x: x.sort(1).cumsum(1).std(0).clip(0, 1).round(1))
    np.testing.assert_allclose(np.asarray(f(F)), np.sort(F, 1).cumsum(1).std(0).clip(0, 1).round(1), rtol=1e-5)
    g = jax.vmap(lambda row: row.argsort().take(jnp.array([0])))
    np.testing.assert_array_equal(np.asarray(g(F)), np.argsort(F, 1)[:, :1])


def test_misc_dunders_and_device_methods() -> None:
    x = jnp.asarray(F)
    assert copy.copy(x) is x and copy.deepcopy(x) is x
    assert bool(1.0 in jnp.array([0.0, 1.0])) and x.__array_namespace__() is jnp
    assert x.tobytes() == F.tobytes()
    np.testing.assert_array_equal(np.from_dlpack(x), F)
    assert x.device == next(iter(x.devices())) and x.committed in (True, False) and x.is_fully_addressable
    (shard,) = x.addressable_shards
    np.testing.assert_array_equal(np.asarray(shard.data), F)
    np.testing.assert_array_equal(np.asarray(x.addressable_data(0)), F)
    np.testing.assert_array_equal(np.asarray(x.to_device(x.device)), F)
    with pytest.raises(AttributeError, match="addressable_data"):
        _ = x.device_buffer


# -- indexing -----------------------------------------------------------------------------------

A = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
INDEXES: list[Any] = [
    1, -1, slice(None), slice(1, None, 2), slice(None, None, -1), (0, 1), (Ellipsis, 2), (None, 1), (1, None, slice(2)),
    np.array([2, 0]), (np.array([0, 2]), np.array([1, 3])), (slice(None), np.array([0, 3])), (np.array([[0], [2]]), np.array([1, 2])),
    (Ellipsis, np.array([4, 0, 1])), (np.array([1]), slice(None), np.array([2])), A[..., 0] > 20, (A[:, :, 0] > 20,),
    (slice(None), A[0, :, 0] > 5), (np.int32(1), np.array([-1, 0])), (slice(-2, None), Ellipsis, np.array(-1)),
]


@pytest.mark.parametrize("idx", INDEXES, ids=[str(i)[:40] for i in range(len(INDEXES))])
def test_getitem_matches_numpy(idx: Any) -> None:
    np.testing.assert_array_equal(np.asarray(jnp.asarray(A)[idx]), A[idx])


@pytest.mark.parametrize("idx", [i for i in INDEXES if not (isinstance(i, np.ndarray) and i.dtype == bool)][:14])
def test_getitem_under_jit(idx: Any) -> None:
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda a: a[idx])(A)), A[idx])


def test_traced_scalar_index_and_out_of_bounds_clamping() -> None:
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda a, i: a[i])(A, 1)), A[1])
    assert float(jnp.arange(3.0)[5]) == 2.0 and float(jnp.arange(3.0)[-7]) == 0.0  # clamped, as in JAX
    np.testing.assert_array_equal(np.asarray(jnp.arange(4)[jnp.array([9, -1])]), [3, 3])


AT_OPS: list[tuple[str, Any, Callable[[np.ndarray[Any, Any], Any, Any], None]]] = [
    ("set", 7.0, lambda y, i, v: y.__setitem__(i, v)),
    ("add", 2.0, lambda y, i, v: np.add.at(y, i, v)),
    ("subtract", 2.0, lambda y, i, v: np.subtract.at(y, i, v)),
    ("multiply", 3.0, lambda y, i, v: np.multiply.at(y, i, v)),
    ("divide", 4.0, lambda y, i, v: np.divide.at(y, i, v)),
    ("power", 2.0, lambda y, i, v: np.power.at(y, i, v)),
    ("min", 10.0, lambda y, i, v: np.minimum.at(y, i, v)),
    ("max", 30.0, lambda y, i, v: np.maximum.at(y, i, v)),
]


@pytest.mark.parametrize("op,value,ref", AT_OPS, ids=[o[0] for o in AT_OPS])
@pytest.mark.parametrize("idx", [(0, 1), (slice(None), 2), (np.array([0, 0, 2]), np.array([1, 1, 3])), A[..., 0] > 30])
def test_at_updates_match_numpy(op: str, value: float, ref: Callable[..., None], idx: Any) -> None:
    got = getattr(jnp.asarray(A).at[idx], op)(value)
    want = A.copy()
    ref(want, idx, value)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)


def test_at_get_apply_and_modes() -> None:
    x = jnp.arange(5.0)
    np.testing.assert_array_equal(np.asarray(x.at[jnp.array([1, 9])].get(mode="fill", fill_value=-1.0)), [1.0, -1.0])
    np.testing.assert_array_equal(np.asarray(x.at[jnp.array([1, 9])].get(mode="clip")), [1.0, 4.0])
    np.testing.assert_array_equal(np.asarray(x.at[jnp.array([1, 9])].set(0.0, mode="drop")), [0, 0, 2, 3, 4])
    np.testing.assert_array_equal(np.asarray(x.at[jnp.array([1, 9])].set(0.0, mode="clip")), [0, 0, 2, 3, 0])
    np.testing.assert_array_equal(np.asarray(x.at[1:3].apply(jnp.sin)), np.r_[0.0, np.sin([1.0, 2.0]), 3.0, 4.0].astype(np.float32))
    f = jax.jit(lambda v, i: v.at[i].add(1.0))
    np.testing.assert_array_equal(np.asarray(f(x, 2)), [0, 1, 3, 3, 4])
    g = jax.grad(lambda v: jnp.sum(v.at[jnp.array([0, 0])].add(v[1]) ** 2))(x)
    assert g.shape == (5,)


def test_boolean_constants_lower_under_jit() -> None:
    # Non-uniform bool constants (tril masks, NumPy masks closed over) become i1 constants.
    np.testing.assert_array_equal(np.asarray(jax.jit(jnp.tril)(jnp.ones((3, 3)))), np.tri(3))
    mask = np.array([[True, False], [False, True]])
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda v: v & mask)(jnp.ones((2, 2), bool))), mask)
