"""Argument checks and type promotion shared by every ``jax_core.numpy`` function."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any, ParamSpec, TypeVar

import numpy as np

from jax_core._src import config, dtypes
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.lax import elementwise as lax
from jax_core._src.runtime.array import ArrayImpl, check_not_deleted
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array

_SCALARS = (bool, int, float, complex, np.generic)
_P = ParamSpec("_P")
_R = TypeVar("_R")


def jitted(
    static: Sequence[str] = (), *, inline: bool = True, static_argnums: Sequence[int] = ()
) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """Stages a library function as JAX stages it: an eager call is one compiled executable per
    signature, dispatched by the C++ jit fast path. Under a trace, ``inline=True`` traces straight
    through (JAX's ``Inline.JAX_EARLY``: no equation of its own), and ``inline=False`` stages one
    ``jit[name=<function name>]`` equation, as JAX prints its inner ``jit``s. ``static`` (and
    ``static_argnums``) name the parameters that are Python values (axes, flags, dtypes), as the
    JAX function declares them."""

    def wrap(fn: Callable[_P, _R]) -> Callable[_P, _R]:
        from jax_core._src.transforms.jit import Inline, make_jit

        return make_jit(fn, inline=Inline.JAX_EARLY if inline else Inline.AUTO, static_argnames=tuple(static) or None, static_argnums=tuple(static_argnums) or None)

    return wrap


def hashable(*values: object) -> bool:
    """Whether every value can be a static argument of a jit (the eager fast paths fall back to
    the function body, and its errors, when one cannot)."""
    try:
        hash(values)
    except TypeError:
        return False
    return True


def unstaged(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """The function under a ``jitted`` decorator, for library code that calls it where JAX traces
    straight through (no ``jit`` equation of its own)."""
    inner: Callable[_P, _R] = getattr(fn, "__wrapped__", fn)
    return inner


def is_arraylike(x: object) -> bool:
    """Whether ``x`` is accepted where ``ArrayLike`` is expected (lists and tuples are not)."""
    return isinstance(x, (Array, np.ndarray, *_SCALARS)) or hasattr(x, "__jax_array__")


def check_arraylike(fun_name: str, *args: object) -> None:
    """Raises JAX's ``TypeError`` if an argument is not array-like (e.g. a list)."""
    for pos, arg in enumerate(args):
        if not is_arraylike(arg) or isinstance(arg, np.str_):
            raise TypeError(f"{fun_name} requires ndarray or scalar arguments, got {type(arg)} at position {pos}.")


def check_for_prngkeys(fun_name: str, *args: ArrayLike) -> None:
    """JAX's error for PRNG key arrays mixed with other dtypes (``add does not accept dtypes
    key<fry>, int32.``); keys of one dtype go on to lax, which rejects arithmetic."""
    arg_dtypes = [get_aval(a).dtype for a in args]
    if len(set(arg_dtypes)) < 2:
        return
    if any(dtypes.issubdtype(dt, dtypes.prng_key) for dt in arg_dtypes):
        raise TypeError(f"{fun_name} does not accept dtypes {', '.join(map(str, arg_dtypes))}.")


def promote_shapes(name: str, *args: ArrayLike) -> list[ArrayLike]:
    """NumPy's rank promotion before a lax op, as JAX's: operands of different non-zero ranks get
    leading dimensions of 1 (lax broadcasts size-1 dimensions and rank-0 operands itself)."""
    from jax_core._src.lax.shape.dimensions import broadcast_in_dim
    from jax_core._src.lax.standard_rules import numpy_broadcast_shapes

    shapes = [get_aval(a).shape for a in args]
    if len({len(s) for s in shapes if s}) < 2:
        return list(args)
    mode = config.numpy_rank_promotion.value
    if mode != "allow":
        shown = " ".join(map(str, shapes))
        if mode == "raise":
            raise ValueError(
                f"Operands could not be broadcast together for {name} on shapes {shown} and with the "
                "config option jax_numpy_rank_promotion='raise'. For more information, see "
                "https://docs.jax.dev/en/latest/101/rank_promotion_warning.html."
            )
        warnings.warn(
            f"Following NumPy automatic rank promotion for {name} on shapes {shown}. Set the "
            "jax_numpy_rank_promotion config option to 'allow' to disable this warning; for more "
            "information, see https://docs.jax.dev/en/latest/101/rank_promotion_warning.html.",
            stacklevel=3,
        )
    try:
        rank = len(numpy_broadcast_shapes(name, *shapes))
    except TypeError:
        raise ValueError(f"Incompatible shapes for broadcasting: shapes={shapes}") from None
    return [
        a if len(s) in (0, rank) else broadcast_in_dim(a, (1,) * (rank - len(s)) + s, tuple(range(rank - len(s), rank)))
        for a, s in zip(args, shapes, strict=True)
    ]


def promote_dtypes(*args: ArrayLike) -> list[ArrayLike]:
    """Converts arguments to their common dtype under JAX's promotion lattice (weak types kept)."""
    if len(args) < 2:
        return list(args)
    pairs = [(get_aval(a).dtype, dtypes.is_weakly_typed(a) if not isinstance(a, (Tracer, Array)) else get_aval(a).weak_type) for a in args]
    if dtypes.is_extended_dtype(pairs[0][0]) and all(dt == pairs[0][0] for dt, _ in pairs):
        return list(args)  # extended dtypes (PRNG keys) take no part in promotion
    to_dtype, weak = dtypes.lattice_result_type(*pairs)
    return [lax.to_dtype(a, to_dtype, weak) for a in args]


def promote_dtypes_inexact(*args: ArrayLike) -> list[ArrayLike]:
    """Like ``promote_dtypes``, then to the default floating dtype if the result is not inexact."""
    promoted = promote_dtypes(*args)
    out: list[ArrayLike] = []
    for a in promoted:
        aval = get_aval(a)
        weak = aval.weak_type if isinstance(a, Array) else dtypes.is_weakly_typed(a)
        if not dtypes.issubdtype(aval.dtype, np.inexact):
            out.append(lax.to_dtype(a, dtypes.to_inexact_dtype(aval.dtype), weak))
        else:
            out.append(a)
    return out


def promote_dtypes_numeric(*args: ArrayLike) -> list[ArrayLike]:
    """Like ``promote_dtypes``, then bool to the default integer dtype."""
    out: list[ArrayLike] = []
    for a in promote_dtypes(*args):
        aval = get_aval(a)
        if aval.dtype == np.bool_:
            out.append(lax.to_dtype(a, dtypes.default_int_dtype(), aval.weak_type))
        else:
            out.append(a)
    return out


def ensure_array(x: ArrayLike) -> Array:
    """``x`` as an Array (device array or tracer)."""
    if isinstance(x, Array):
        if type(x) is ArrayImpl:
            check_not_deleted(x)
        return x
    jax_array = getattr(x, "__jax_array__", None)
    if jax_array is not None:
        out = jax_array()
        if isinstance(out, Array):
            return out
    return lax.convert_element_type(x, get_aval(x).dtype) if not dtypes.is_weakly_typed(x) else _weak_array(x)


def _weak_array(x: ArrayLike) -> Array:
    from jax_core._src.lax.elementwise import conversions as convert

    aval = get_aval(x)
    out: Array = convert.convert_element_type_p.bind(x, new_dtype=aval.dtype, weak_type=True)
    return out


def canonicalize_axis(axis: int, ndim: int) -> int:
    """A non-negative axis; ``ValueError`` (as numpy's AxisError) when out of range."""
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim


def canonicalize_axes(axis: int | Sequence[int] | None, ndim: int) -> tuple[int, ...]:
    """Axes as a sorted tuple of non-negative ints (all axes for ``None``)."""
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    out = tuple(canonicalize_axis(int(a), ndim) for a in axes)
    if len(set(out)) != len(out):
        raise ValueError(f"repeated axis in {axis}")
    return out


def user_dtype(dtype: DTypeLike | None, fun_name: str) -> np.dtype[Any] | None:
    """Canonicalizes a dtype the user asked for (warning if 64-bit is unavailable)."""
    if dtype is None:
        return None
    dtypes.check_user_dtype_supported(dtype, fun_name)
    return dtypes.canonicalize_dtype(dtype)
