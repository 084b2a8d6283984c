"""Function transformers: ``vectorize`` (with gufunc signatures, on ``vmap``),
``apply_along_axis``, ``apply_over_axes``, ``ufunc`` and ``frompyfunc``."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Sequence
from typing import Any, cast

import numpy as np

from jax_core._src.numpy import shape as jshape
from jax_core._src.numpy.util import canonicalize_axis, check_arraylike, ensure_array
from jax_core._src.typing.basearray import Array

_DIMENSION_NAME = r"\w+"
_CORE_DIMENSION_LIST = "(?:{0:}(?:,{0:})*)?".format(_DIMENSION_NAME)
_ARGUMENT = rf"\({_CORE_DIMENSION_LIST}\)"
_ARGUMENT_LIST = "{0:}(?:,{0:})*".format(_ARGUMENT)
_SIGNATURE = "^{0:}->{0:}$".format(_ARGUMENT_LIST)


def _parse_signature(signature: str) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    if not re.match(_SIGNATURE, signature):
        raise ValueError(f"not a valid gufunc signature: {signature}")
    ins, outs = (
        [tuple(re.findall(_DIMENSION_NAME, arg)) for arg in re.findall(_ARGUMENT, arg_list)] for arg_list in signature.split("->")
    )
    return ins, outs


def _update_dim_sizes(sizes: dict[str, int], shape: tuple[int, ...], core: tuple[str, ...], ctx: str, *, is_input: bool) -> None:
    n = len(core)
    if is_input and len(shape) < n:
        raise ValueError(f"input with shape {shape!r} does not have enough dimensions for all core dimensions {core!r} {ctx}")
    if not is_input and len(shape) != n:
        raise ValueError(f"output shape {shape!r} does not match core dimensions {core!r} {ctx}")
    core_shape = shape[-n:] if n else ()
    for dim, size in zip(core, core_shape):
        if dim not in sizes:
            sizes[dim] = size
        elif size != sizes[dim]:
            raise ValueError(f"inconsistent size for core dimension {dim!r}: {size!r} vs {sizes[dim]!r} {ctx}")


def vectorize(pyfunc: Callable[..., Any], *, excluded: Collection[int | str] = frozenset(), signature: str | None = None) -> Callable[..., Any]:
    """A function that maps ``pyfunc`` over the leading (broadcast) axes of its arguments.

    With a gufunc ``signature`` such as ``"(n),(n)->()"`` the trailing core dimensions are
    passed whole; batching uses ``vmap``. ``excluded`` positions/names are passed as is.
    """
    if any(not isinstance(e, (int, str)) for e in cast(Collection[object], excluded)):
        raise TypeError(f"jax.numpy.vectorize can only exclude integer or string arguments, but excluded={excluded!r}")
    if any(isinstance(e, int) and e < 0 for e in excluded):
        raise ValueError(f"excluded={excluded!r} contains negative numbers")

    @functools.wraps(pyfunc)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        from jax_core._src.transforms.vmap_api import vmap

        ctx = f"in {getattr(pyfunc, '__name__', 'function')} with signature {signature!r}" if signature else ""
        func, dyn_args, dyn_kwargs = _apply_excluded(pyfunc, excluded, args, kwargs)
        if dyn_kwargs:
            func = functools.partial(func, **dyn_kwargs)
        arrs = [ensure_array(a) if not isinstance(a, Array) else a for a in dyn_args]
        if signature is not None:
            in_core, out_core = _parse_signature(signature)
        else:
            in_core, out_core = [()] * len(arrs), None
        if len(arrs) != len(in_core):
            raise TypeError(f"wrong number of positional arguments: expected {len(in_core)!r}, got {len(arrs)!r} {ctx}")
        sizes: dict[str, int] = {}
        shapes: list[tuple[int, ...]] = []
        for arg, core in zip(arrs, in_core):
            _update_dim_sizes(sizes, arg.shape, core, ctx, is_input=True)
            shapes.append(arg.shape[: arg.ndim - len(core)])
        bshape = jshape.broadcast_shapes(*shapes) if shapes else ()
        checked = func if out_core is None else _check_output(func, sizes, out_core, ctx)
        squeezed: list[Array] = []
        rev_filled: list[tuple[int, ...]] = []
        for arg, core in zip(arrs, in_core):
            noncore = arg.shape[: arg.ndim - len(core)]
            filled = (1,) * (len(bshape) - len(noncore)) + noncore
            rev_filled.append(filled[::-1])
            sq = tuple(i for i, s in enumerate(noncore) if s == 1)
            squeezed.append(jshape.squeeze(arg, sq) if sq else arg)
        vf = checked
        expand: list[int] = []
        for negdim, sizes_at in enumerate(zip(*rev_filled)):
            in_axes = tuple(None if s == 1 else 0 for s in sizes_at)
            if all(a is None for a in in_axes):
                expand.append(len(bshape) - 1 - negdim)
            else:
                vf = vmap(vf, in_axes)
        result = vf(*squeezed)
        if not expand:
            return result
        if isinstance(result, tuple):
            parts: tuple[Any, ...] = result  # pyright: ignore[reportUnknownVariableType]
            return tuple(jshape.expand_dims(r, expand) for r in parts)
        return jshape.expand_dims(result, expand)

    return wrapped


def _check_output(func: Callable[..., Any], sizes: dict[str, int], out_core: list[tuple[str, ...]], ctx: str) -> Callable[..., Any]:
    def wrapped(*args: Any) -> Any:
        out: Any = func(*args)
        outs: list[Any] = list(out) if isinstance(out, tuple) else [out]  # pyright: ignore[reportUnknownArgumentType]
        if len(out_core) > 1 and not isinstance(out, tuple):
            raise TypeError(f"output must be a tuple when multiple outputs are expected, got: {out!r}\n{ctx}")
        if len(outs) != len(out_core):
            raise TypeError(f"wrong number of output arguments: expected {len(out_core)!r}, got {len(outs)!r} {ctx}")
        s = dict(sizes)
        for o, core in zip(outs, out_core):
            _update_dim_sizes(s, tuple(np.shape(o)), core, ctx, is_input=False)
        return cast(Any, out)

    return wrapped


def _apply_excluded(func: Callable[..., Any], excluded: Collection[int | str], args: Sequence[Any], kwargs: dict[str, Any]) -> tuple[Callable[..., Any], list[Any], dict[str, Any]]:
    if not excluded:
        return func, list(args), dict(kwargs)
    dyn_args = [a for i, a in enumerate(args) if i not in excluded]
    dyn_kwargs = {k: v for k, v in kwargs.items() if k not in excluded}
    static_args = [(i, args[i]) for i in sorted(e for e in excluded if isinstance(e, int)) if i < len(args)]
    static_kwargs = {k: v for k, v in kwargs.items() if k in excluded}

    def new_func(*a: Any, **kw: Any) -> Any:
        full = list(a)
        for i, v in static_args:
            full.insert(i, v)
        return func(*full, **kw, **static_kwargs)

    return new_func, dyn_args, dyn_kwargs


def apply_along_axis(func1d: Callable[..., Any], axis: int, arr: Any, *args: Any, **kwargs: Any) -> Array:
    """``func1d`` applied to the 1-D slices of ``arr`` along ``axis`` (via ``vmap``)."""
    from jax_core._src.transforms.vmap_api import vmap

    check_arraylike("apply_along_axis", arr)
    x = ensure_array(arr)
    nd = x.ndim
    ax = canonicalize_axis(axis, nd)

    def f(v: Any) -> Any:
        return func1d(v, *args, **kwargs)

    for i in range(1, nd - ax):
        f = vmap(f, in_axes=i, out_axes=-1)
    for _ in range(ax):
        f = vmap(f, in_axes=0, out_axes=0)
    out: Array = ensure_array(f(x))
    return out


def apply_over_axes(func: Callable[[Any, int], Array], a: Any, axes: Sequence[int]) -> Array:
    """``func(a, axis)`` applied repeatedly over ``axes``, keeping dimensions."""
    check_arraylike("apply_over_axes", a)
    x = ensure_array(a)
    for axis in axes:
        b = func(x, axis)
        if b.ndim == x.ndim:
            x = b
        elif b.ndim == x.ndim - 1:
            x = jshape.expand_dims(b, canonicalize_axis(axis, x.ndim))
        else:
            raise ValueError("function is not returning an array of the correct shape")
    return x


class ufunc:
    """A universal function: elementwise ``__call__`` plus ``outer``, ``reduce``,
    ``accumulate``, ``at`` and ``reduceat`` (generic implementations unless given).

    Example::

        add = jnp.frompyfunc(lambda x, y: x + y, nin=2, nout=1, identity=0)
        add.reduce(jnp.arange(5))   # Array(10, dtype=int32)
    """

    nin: int
    """The number of inputs."""
    nout: int
    """The number of outputs."""
    nargs: int
    """The number of arguments."""
    identity: Any
    """The identity of ``reduce`` (``None`` if there is none)."""
    __name__: str

    def __init__(
        self,
        func: Callable[..., Any],
        /,
        nin: int,
        nout: int,
        *,
        name: str | None = None,
        nargs: int | None = None,
        identity: Any = None,
        call: Callable[..., Any] | None = None,
        reduce: Callable[..., Any] | None = None,
        accumulate: Callable[..., Any] | None = None,
        at: Callable[..., Any] | None = None,
        reduceat: Callable[..., Any] | None = None,
    ) -> None:
        self._func = func
        self.nin = int(nin)
        self.nout = int(nout)
        self.nargs = int(nargs if nargs is not None else nin)
        self.identity = identity
        self.__name__ = str(name or getattr(func, "__name__", "ufunc"))
        self._call = call or vectorize(func)
        self._reduce = reduce
        self._accumulate = accumulate
        self._at = at
        self._reduceat = reduceat

    def __repr__(self) -> str:
        return f"<jnp.ufunc '{self.__name__}'>"

    def __call__(self, *args: Any, out: None = None, where: None = None) -> Any:
        """Applies the function elementwise with broadcasting."""
        if out is not None:
            raise NotImplementedError(f"out argument of {self}")
        if where is not None:
            raise NotImplementedError(f"where argument of {self}")
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__}() takes {self.nin} positional argument(s) but {len(args)} were given")
        return self._call(*args)

    def outer(self, A: Any, B: Any, /) -> Any:
        """``self(a, b)`` for every pair of elements of ``A`` and ``B`` (shape ``A.shape + B.shape``)."""
        if self.nin != 2:
            raise ValueError("outer only supported for binary ufuncs")
        check_arraylike(f"{self.__name__}.outer", A, B)
        a, b = ensure_array(A), ensure_array(B)
        return self(jshape.reshape(a, a.shape + (1,) * b.ndim), b)

    def reduce(self, a: Any, axis: int | None = 0, dtype: Any = None, out: None = None, keepdims: bool = False, initial: Any = None, where: Any = None) -> Array:
        """Reduces ``a`` along ``axis`` by repeated application (left to right)."""
        if self.nin != 2:
            raise ValueError("reduce only supported for binary ufuncs")
        if self._reduce is not None:
            return self._reduce(a, axis=axis, dtype=dtype, keepdims=keepdims, initial=initial, where=where)  # type: ignore[no-any-return]
        check_arraylike(f"{self.__name__}.reduce", a)
        x = ensure_array(a)
        if axis is None:
            x, axis = jshape.ravel(x), 0
        ax = canonicalize_axis(axis, x.ndim)
        from jax_core._src.numpy.manipulation import moveaxis

        x = moveaxis(x, ax, 0)
        if x.shape[0] == 0 and initial is None and self.identity is None:
            raise ValueError(f"zero-size array to reduction operation {self.__name__} which has no identity")
        acc = x[0] if initial is None else ensure_array(initial)
        start = 1 if initial is None else 0
        if x.shape[0] == 0:
            acc = jshape.broadcast_to(ensure_array(self.identity if initial is None else initial), x.shape[1:])
        for i in range(start, x.shape[0]):
            acc = self(acc, x[i])
        out_arr = ensure_array(acc)
        return jshape.expand_dims(out_arr, ax) if keepdims else out_arr

    def accumulate(self, a: Any, axis: int = 0, dtype: Any = None, out: None = None) -> Array:
        """The running ``reduce`` along ``axis``."""
        if self._accumulate is not None:
            return self._accumulate(a, axis=axis, dtype=dtype)  # type: ignore[no-any-return]
        check_arraylike(f"{self.__name__}.accumulate", a)
        x = ensure_array(a)
        from jax_core._src.numpy.manipulation import moveaxis

        ax = canonicalize_axis(axis, x.ndim)
        x = moveaxis(x, ax, 0)
        outs: list[Array] = []
        acc: Any = None
        for i in range(x.shape[0]):
            acc = x[i] if acc is None else self(acc, x[i])
            outs.append(ensure_array(acc))
        return moveaxis(jshape.stack(outs), 0, ax) if outs else moveaxis(x, 0, ax)

    def at(self, a: Any, indices: Any, b: Any = None, /, *, inplace: bool = True) -> Array:
        """A copy of ``a`` with ``self`` applied at ``indices`` (needs ``inplace=False``)."""
        if inplace:
            raise NotImplementedError("jax.numpy.ufunc.at does not support inplace=True. Use inplace=False instead.")
        if self._at is not None:
            return self._at(a, indices, b)  # type: ignore[no-any-return]
        x = ensure_array(a)
        cur = x[indices]
        new = self(cur) if b is None else self(cur, b)
        updated: Array = x.at[indices].set(new)
        return updated

    def reduceat(self, a: Any, indices: Any, axis: int = 0, dtype: Any = None, out: None = None) -> Array:
        """``reduce`` over the slices ``indices[i]:indices[i+1]`` along ``axis`` (``indices`` concrete)."""
        if self._reduceat is not None:
            return self._reduceat(a, indices, axis=axis, dtype=dtype)  # type: ignore[no-any-return]
        x = ensure_array(a)
        ax = canonicalize_axis(axis, x.ndim)
        idx = [int(i) for i in np.asarray(indices)]
        from jax_core._src.numpy.manipulation import slice_axis

        parts: list[Array] = []
        for k, start in enumerate(idx):
            stop = idx[k + 1] if k + 1 < len(idx) else x.shape[ax]
            if stop <= start:
                parts.append(jshape.expand_dims(x[(slice(None),) * ax + (start,)], ax))
            else:
                parts.append(self.reduce(slice_axis(x, ax, start, stop), axis=ax, keepdims=True))
        return jshape.concatenate(parts, ax)


def frompyfunc(func: Callable[..., Any], /, nin: int, nout: int, *, identity: Any = None) -> ufunc:
    """A ``ufunc`` from a Python function of scalars (vectorized with ``vmap``)."""
    return ufunc(func, nin, nout, identity=identity)
