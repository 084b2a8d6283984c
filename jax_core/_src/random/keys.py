"""The key dtype (``key<fry>``), PRNG implementations, and concrete key arrays.

``KeyTy`` is an extended dtype: key avals are ``ShapedArray(shape, KeyTy(impl))``, whose
shape excludes the key data's trailing ``impl.key_shape``. Its ``_rules`` (``KeyTyRules``)
tell the layers below how keys are represented physically: the ``uint32`` aval their
MLIR type comes from, the data of a key constant, the result handler that wraps an
output buffer, and lowering overrides for structural primitives (``physical.py``).

``PRNGKeyArray`` is the concrete key array: an ``Array`` holding the ``uint32`` data
(``_base_array``, shape ``(*shape, *key_shape)``) and the implementation. As in JAX it
has no arithmetic (operators raise JAX's dtype errors); indexing, reshaping, iteration
and ``len`` act on keys.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn, TypeAlias, cast

import numpy as np
from typing_extensions import TypeIs

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.typing.basearray import Array


KeyLike: TypeAlias = Array | np.ndarray
"""What key parameters accept: a key array (``random.key``) or a raw ``uint32`` key
(``random.PRNGKey``, or its data as a NumPy array). JAX annotates them ``ArrayLike``, but its
runtime rejects Python and NumPy scalars (``random.normal(0, (3,))`` raises ``TypeError``), so
they are left out and checkers catch it."""

if TYPE_CHECKING:
    from jax_core._src.core.jaxpr import JaxprEqn
    from jax_core._src.core.primitive import LowerRule
    from jax_core._src.sharding.shardings import Device, Sharding

Shape = tuple[int, ...]
"""A static shape."""


class PRNGImpl(NamedTuple):
    """A PRNG implementation: its key data shape and its key functions (as JAX's ``PRNGImpl``).

    The functions take and return ``uint32`` key *data* arrays (traced with lax ops into
    the lowering of the key primitives): ``seed(seeds) -> data``, ``split(data, shape)``,
    ``random_bits(data, bit_width, shape)`` and ``fold_in(data, msgs)``; each handles a
    leading batch shape of keys (and broadcasts ``msgs`` against it).
    """

    key_shape: Shape
    seed: Callable[[Any], Any]
    split: Callable[[Any, Shape], Any]
    random_bits: Callable[[Any, int, Shape], Any]
    fold_in: Callable[[Any, Any], Any]
    name: str = "<unnamed>"
    tag: str = "?"

    def __hash__(self) -> int:
        return hash(self.tag)

    def __str__(self) -> str:
        return self.tag


prngs: dict[str, PRNGImpl] = {}
"""The registered PRNG implementations, by name."""


def register_prng(impl: PRNGImpl) -> None:
    """Makes ``impl`` available by name (``random.key(0, impl=name)``)."""
    if impl.name in prngs:
        raise ValueError(f"PRNG with name {impl.name} already registered: {impl}")
    prngs[impl.name] = impl


class KeyTy(dtypes.ExtendedDType):
    """The dtype of keys of one PRNG implementation, e.g. ``key<fry>`` for threefry2x32."""

    _impl: PRNGImpl

    def __init__(self, impl: PRNGImpl) -> None:
        self._impl = impl

    @property
    def type(self) -> type[dtypes.extended]:
        """The scalar class: ``dtypes.prng_key``."""
        return dtypes.prng_key

    @property
    def name(self) -> str:
        """``key<tag>``, e.g. ``key<fry>``."""
        return f"key<{self._impl.tag}>"

    @property
    def itemsize(self) -> int:
        """The bytes of one key's data."""
        return math.prod(self._impl.key_shape) * 4

    @property
    def kind(self) -> str:
        """NumPy's kind character for non-numeric data."""
        return "V"

    def __repr__(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> bool:
        return type(other) is KeyTy and self._impl == other._impl

    def __hash__(self) -> int:
        return hash((KeyTy, self._impl))


def key_aval(impl: PRNGImpl, shape: Shape) -> ShapedArray:
    """The aval of a key array of ``shape``."""
    # ShapedArray's dtype is annotated as a NumPy dtype; extended dtypes live there too (as in JAX).
    return ShapedArray(shape, cast(Any, KeyTy(impl)))


def is_key_dtype(dtype: object) -> TypeIs[KeyTy]:
    """Whether ``dtype`` is a PRNG key dtype."""
    return isinstance(dtype, KeyTy)


def key_impl_of(aval: ShapedArray) -> PRNGImpl:
    """The implementation of a key aval."""
    dt: object = aval.dtype
    assert is_key_dtype(dt), dt
    return dt._impl  # pyright: ignore[reportPrivateUsage]


def physical_aval(aval: ShapedArray) -> ShapedArray:
    """The ``uint32`` aval of a key aval's data (other avals are returned unchanged)."""
    dt: object = aval.dtype
    if not is_key_dtype(dt):
        return aval
    return ShapedArray((*aval.shape, *dt._impl.key_shape), np.dtype(np.uint32))  # pyright: ignore[reportPrivateUsage]


class KeyTyRules:
    """How key arrays are represented below the tracing layer (the extended-dtype hooks)."""

    @staticmethod
    def physical_aval(aval: ShapedArray) -> ShapedArray:
        """The aval of the data: ``uint32[*shape, *key_shape]``."""
        return physical_aval(aval)

    @staticmethod
    def physical_const(val: Any) -> Any:
        """The data of a concrete key array (for constants and executable inputs)."""
        assert isinstance(val, PRNGKeyArray), type(val)
        return val._base_array  # pyright: ignore[reportPrivateUsage]

    @staticmethod
    def zeros(aval: ShapedArray) -> Any:
        """Keys of ``aval`` whose data is all zeros (``zeros_like`` of keys, e.g. scan outputs)."""
        from jax_core._src.lax.shape.dimensions import broadcast_in_dim
        from jax_core._src.random.primitives import random_wrap_p

        phys = physical_aval(aval)
        return random_wrap_p.bind(
            broadcast_in_dim(np.uint32(0), phys.shape, ()), impl=key_impl_of(aval)
        )

    @staticmethod
    def wrap(aval: ShapedArray, data: Any) -> Any:
        """A computed data buffer as the key array of ``aval`` (the result handler)."""
        return PRNGKeyArray(key_impl_of(aval), data)

    @staticmethod
    def lowering_rule(eqn: JaxprEqn, default: LowerRule | None) -> LowerRule | None:
        """The lowering of an equation applied to key arrays (``physical.lowering_rule``)."""
        from jax_core._src.random.physical import lowering_rule

        dtype = next(
            v.aval.dtype for v in (*eqn.invars, *eqn.outvars) if is_key_dtype(v.aval.dtype)
        )
        return lowering_rule(eqn.primitive, eqn.params, default, dtype)


KeyTy._rules = KeyTyRules  # pyright: ignore[reportPrivateUsage]


def check_key_data(impl: PRNGImpl, key_data: object) -> None:
    """JAX's checks of key data passed to ``wrap_key_data`` or used as a raw key."""
    if not all(hasattr(key_data, attr) for attr in ("ndim", "shape", "dtype")):
        raise TypeError(
            "JAX encountered invalid PRNG key data: expected key_data to have ndim, shape, "
            f"and dtype attributes. Got {key_data}"
        )
    data: Any = key_data
    ndim = len(impl.key_shape)
    if data.ndim < 1:
        raise TypeError(
            f"JAX encountered invalid PRNG key data: expected key_data.ndim >= 1; got ndim={data.ndim}"
        )
    if tuple(data.shape[-ndim:]) != impl.key_shape:
        raise TypeError(
            "JAX encountered invalid PRNG key data: expected key_data.shape to end with "
            f"{impl.key_shape}; got shape={tuple(data.shape)} for impl={impl!r}"
        )
    if data.dtype not in (np.dtype(np.uint32), dtypes.float0):
        raise TypeError(
            f"JAX encountered invalid PRNG key data: expected key_data.dtype = uint32; got dtype={data.dtype}"
        )


class PRNGKeyArray(Array):
    """A concrete array of PRNG keys: the ``uint32`` key data and its implementation.

    Behaves like an array whose elements are keys: ``shape`` excludes the key data,
    ``dtype`` is the key dtype (``key<fry>``). Arithmetic raises, as in JAX; use
    ``jax_core.random.key_data`` to get the data.
    """

    __slots__ = ("_aval", "_base_array", "_impl")

    _impl: PRNGImpl
    _base_array: Any
    _aval: ShapedArray | None

    def __init__(self, impl: PRNGImpl, key_data: Any) -> None:
        self._impl = impl
        self._base_array = key_data
        self._aval = None

    @property
    def aval(self) -> ShapedArray:
        """The key aval: ``key<fry>[*shape]``."""
        if self._aval is None:
            self._aval = key_aval(self._impl, self.shape)
        return self._aval

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of the array of keys (without the key data's trailing axes)."""
        shape: tuple[int, ...] = self._base_array.shape
        return shape[: len(shape) - len(self._impl.key_shape)]

    @property
    def dtype(self) -> np.dtype[Any]:
        """The key dtype (``key<fry>``), an extended dtype."""
        return self.aval.dtype

    @property
    def weak_type(self) -> bool:
        """Key arrays are never weakly typed."""
        return False

    @property
    def itemsize(self) -> int:
        """The bytes of one key's data."""
        return math.prod(self._impl.key_shape) * 4

    @property
    def sharding(self) -> Sharding:
        """The sharding of the key data."""
        out: Sharding = self._base_array.sharding
        return out

    @property
    def is_fully_addressable(self) -> bool:
        """Whether this process holds every shard of the keys."""
        return bool(self._base_array.is_fully_addressable)

    @property
    def is_fully_replicated(self) -> bool:
        """Whether every device holds all keys."""
        return bool(self._base_array.is_fully_replicated)

    def devices(self) -> set[Device]:
        """The devices holding the key data."""
        out: set[Device] = self._base_array.devices()
        return out

    def block_until_ready(self) -> PRNGKeyArray:
        """Waits until the key data is computed; returns the key array."""
        self._base_array.block_until_ready()
        return self

    def copy_to_host_async(self) -> None:
        """Starts copying the key data to the host."""
        self._base_array.copy_to_host_async()

    def copy(self) -> PRNGKeyArray:
        """A copy of the key array in a new buffer."""
        return PRNGKeyArray(self._impl, self._base_array.copy())

    def is_deleted(self) -> bool:
        """Whether the key data buffer was deleted."""
        return bool(self._base_array.is_deleted())

    def delete(self) -> None:
        """Frees the key data buffer."""
        self._base_array.delete()

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self) -> Iterator[PRNGKeyArray]:
        if not self.shape:
            raise TypeError("iteration over a 0-d key array")
        return (PRNGKeyArray(self._impl, k) for k in iter(self._base_array))

    def __bool__(self) -> NoReturn:
        raise TypeError("key array cannot be converted to boolean.")

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> NoReturn:
        raise TypeError(
            "JAX array with PRNGKey dtype cannot be converted to a NumPy array. Use "
            "jax.random.key_data(arr) if you wish to extract the underlying integer array."
        )

    def __repr__(self) -> str:
        return f"Array({self.shape}, dtype={self.dtype.name}) overlaying:\n{self._base_array}"

    def __str__(self) -> str:
        return repr(self)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (_rebuild, (self._impl.name, np.asarray(self._base_array)))


def _rebuild(impl_name: str, data: np.ndarray[Any, Any]) -> PRNGKeyArray:
    from jax_core._src.runtime.array import device_put_host

    return PRNGKeyArray(prngs[impl_name], device_put_host(data))


_KEY_METHODS: Sequence[str] = (
    "__getitem__",
    "reshape",
    "ravel",
    "flatten",
    "squeeze",
    "swapaxes",
    "transpose",
    "T",
    "at",
)


def install_key_array_methods() -> None:
    """Gives ``PRNGKeyArray`` the operators and shape methods of every array (as JAX does).

    The operators raise JAX's dtype errors for keys; indexing and the shape methods run
    lax's structural primitives, which act on keys (``physical.py``).
    """
    from jax_core._src.numpy.array_methods import METHODS

    own = set(vars(PRNGKeyArray))  # repr, len, iter, bool, __array__, ...: the key array's own
    for name, value in METHODS.items():
        if name not in own and (name in _KEY_METHODS or name.startswith("__")):
            setattr(PRNGKeyArray, name, value)


install_key_array_methods()
