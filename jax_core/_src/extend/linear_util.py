"""JAX's ``linear_util``: functions with a stack of transformations applied at call time.

A ``WrappedFun`` holds a function ``f`` and transformations written as generators. Each
generator receives the (transformed) positional and keyword arguments, yields new ones, is sent
the function's results, and yields the transformed results (and, for the ``*_with_aux`` kinds, an
auxiliary output kept in a ``Store``, read through the thunk the transformation returns)::

    @transformation_with_aux
    def scaled(factor, *args):
        out = yield tuple(a * factor for a in args), {}
        yield out, "scaled"

    f, aux = scaled(wrap_init(lambda x: x + 1), 2)
    f.call_wrapped(3)  # 7; aux() == "scaled"

The ``*2`` kinds take a plain function instead of a generator: ``gen(f, *static_args, *args)``
(with the store first after ``f`` for ``transformation_with_aux2``). ``WrappedFun``s compare equal
when they wrap the same function with the same transformations and parameters, so ``cache``
memoizes on them (keeping their stores' values).
"""

from __future__ import annotations

import functools
import inspect
import time
import warnings
import weakref
from collections.abc import Callable, Generator, Hashable, Mapping, Sequence
from typing import Any, NamedTuple

from jax_core._src import config


class StoreException(Exception):
    """Reading an empty ``Store``, or storing into an occupied one."""


class _Empty:
    """The value of an empty store."""


_EMPTY = _Empty()


class Store:
    """One auxiliary output: stored once, read any number of times."""

    __slots__ = ("_val",)

    def __init__(self) -> None:
        self._val: object = _EMPTY

    def store(self, val: object) -> None:
        """Stores ``val``; ``StoreException`` if a value is already stored."""
        if self._val is not _EMPTY:
            raise StoreException("Store occupied")
        self._val = val

    def reset(self) -> None:
        """Empties the store."""
        self._val = _EMPTY

    @property
    def val(self) -> Any:
        """The stored value; ``StoreException`` if empty."""
        if self._val is _EMPTY:
            raise StoreException("Store empty")
        return self._val

    def __bool__(self) -> bool:
        return self._val is not _EMPTY


class EqualStore:
    """A store that accepts storing again a value equal to the one it holds."""

    __slots__ = ("_store",)

    def __init__(self) -> None:
        self._store = Store()

    @property
    def val(self) -> Any:
        """The stored value; ``StoreException`` if empty."""
        return self._store.val

    def store(self, val: object) -> None:
        """Stores ``val``; ``StoreException`` if a different value is stored."""
        try:
            self._store.store(val)
        except StoreException as err:
            try:
                same = bool(self._store.val == val)
            except Exception:  # noqa: BLE001  (values that cannot be compared count as different)
                raise err from None
            if not same:
                raise StoreException("Store occupied with not-equal value") from None

    def reset(self) -> None:
        """Empties the store."""
        self._store.reset()


AnyStore = Store | EqualStore


class DebugInfo(NamedTuple):
    """What a function is traced for, where it is defined, and its argument and result names."""

    traced_for: str
    """Why it is traced, e.g. ``"jit"``."""
    func_src_info: str
    """``"name at file:line"``, or the name alone."""
    arg_names: tuple[str, ...] | None
    """The names of the flattened arguments (``None``: unknown)."""
    result_paths: tuple[str, ...] | Callable[[], tuple[str, ...]] | None
    """The paths of the flattened results, a thunk giving them, or ``None`` (unknown)."""

    @property
    def func_name(self) -> str:
        """The function's name (the first word of ``func_src_info``)."""
        return self.func_src_info.split(" ")[0]

    def replace_func_name(self, name: str) -> DebugInfo:
        """This debug info with the function's name replaced."""
        rest = self.func_src_info.split(" ")[1:]
        return self._replace(func_src_info=" ".join([name, *rest]))

    def with_unknown_names(self) -> DebugInfo:
        """This debug info without argument names and result paths."""
        return self._replace(arg_names=None, result_paths=None)


def _fun_name(f: object, default: str = "<unnamed function>") -> str:
    if isinstance(f, functools.partial):
        return _fun_name(f.func, default)  # pyright: ignore[reportUnknownMemberType]
    return str(getattr(f, "__name__", default))


Transform = tuple[Callable[..., Any], tuple[Hashable, ...]]
"""A transformation of a ``WrappedFun``: its generator (or function) and static arguments."""


class WrappedFun:
    """A function ``f`` with transformations applied when it is called (``call_wrapped``).

    ``transforms`` lists the transformations innermost last (the last one added first), each with
    its static arguments; ``stores`` their auxiliary-output stores (``None`` without one);
    ``params`` the keyword arguments always passed to ``f``.
    """

    f: Callable[..., Any]
    f_transformed: Callable[..., Any]
    transforms: tuple[Transform, ...]
    stores: tuple[AnyStore | None, ...]
    params: tuple[tuple[str, Hashable], ...]
    in_type: tuple[Any, ...] | None
    debug_info: DebugInfo

    __slots__ = ("debug_info", "f", "f_transformed", "in_type", "params", "stores", "transforms")

    def __init__(
        self,
        f: Callable[..., Any],
        f_transformed: Callable[..., Any],
        transforms: tuple[Transform, ...],
        stores: tuple[AnyStore | None, ...],
        params: tuple[tuple[str, Hashable], ...],
        in_type: tuple[Any, ...] | None,
        debug_info: DebugInfo,
    ) -> None:
        self.f = f
        self.f_transformed = f_transformed
        self.transforms = transforms
        self.stores = stores
        self.params = params
        self.in_type = in_type
        self.debug_info = debug_info

    @property
    def __name__(self) -> str:
        return _fun_name(self.f, "<unnamed wrapped function>")

    def wrap(
        self,
        gen: Callable[..., Any],
        gen_static_args: tuple[Hashable, ...],
        out_store: AnyStore | None,
    ) -> WrappedFun:
        """This function with one more transformation (applied outside the others)."""
        inner = (self.f_transformed,) if out_store is None else (self.f_transformed, out_store)
        return WrappedFun(
            self.f,
            functools.partial(gen, *inner, *gen_static_args),
            ((gen, gen_static_args), *self.transforms),
            (out_store, *self.stores),
            self.params,
            None,
            self.debug_info,
        )

    def populate_stores(self, stores: Sequence[AnyStore | None]) -> None:
        """Copies the values of ``stores`` (another call's) into this function's stores."""
        for mine, theirs in zip(self.stores, stores):
            if mine is not None and theirs is not None:
                mine.store(theirs.val)

    def call_wrapped(self, *args: Any, **kwargs: Any) -> Any:
        """Calls ``f`` through every transformation."""
        return self.f_transformed(*args, **kwargs)

    def replace_debug_info(self, dbg: DebugInfo) -> WrappedFun:
        """This function with another debug info."""
        return WrappedFun(
            self.f, self.f_transformed, self.transforms, self.stores, self.params, self.in_type, dbg
        )

    def with_unknown_names(self) -> WrappedFun:
        """This function with its debug info's argument and result names forgotten."""
        return self.replace_debug_info(self.debug_info.with_unknown_names())

    def __repr__(self) -> str:
        lines = [
            f"{i}   : {_fun_name(gen)}   {_fun_name(args)}"
            for i, (gen, args) in enumerate(self.transforms)
        ]
        return "Wrapped function:\n" + "\n".join(lines) + "\nCore: " + _fun_name(self.f) + "\n"

    def __hash__(self) -> int:
        return hash((self.f, self.transforms, self.params, self.in_type, self.debug_info))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WrappedFun):
            return NotImplemented
        return (
            self.f == other.f
            and self.transforms == other.transforms
            and self.params == other.params
            and self.in_type == other.in_type
            and self.debug_info == other.debug_info
        )


class _Curried[R]:
    """``fn`` taking its arguments in any number of calls: calling gives ``partial(fn, *args)``
    (JAX's ``curry``), so ``@transformation`` makes a transformation ``t(fun, *static)``."""

    def __init__(self, fn: Callable[..., R]) -> None:
        self._fn = fn
        functools.update_wrapper(self, fn)
        self.__signature__: inspect.Signature = inspect.signature(fn)

    def __call__(self, *args: Any, **kwargs: Any) -> functools.partial[R]:
        return functools.partial(self._fn, *args, **kwargs)


def _transformation2(
    gen: Callable[..., Any], fun: WrappedFun, *gen_static_args: Hashable
) -> WrappedFun:
    """``fun`` transformed by ``gen(f, *gen_static_args, *args, **kwargs)``, a plain function that
    calls ``f`` (the inner function) itself."""
    return fun.wrap(gen, gen_static_args, None)


GenFn = Callable[..., Generator[Any, Any, Any]]


def _transformation(gen: GenFn, fun: WrappedFun, *gen_static_args: Hashable) -> WrappedFun:
    """``fun`` transformed by the generator ``gen(*gen_static_args, *args, **kwargs)``: it yields
    ``(args, kwargs)`` for the inner function, is sent its result, and yields the result."""

    def apply(f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        inst = gen(*args, **kwargs)
        inner_args, inner_kwargs = next(inst)
        return inst.send(f(*inner_args, **inner_kwargs))

    apply.__name__ = _fun_name(gen)
    return _transformation2(apply, fun, *gen_static_args)


def _transformation_with_aux2(
    gen: Callable[..., Any],
    fun: WrappedFun,
    *gen_static_args: Hashable,
    use_eq_store: bool = False,
    unk_names: bool = False,
) -> tuple[WrappedFun, Callable[[], Any]]:
    """``fun`` transformed by ``gen(f, store, *gen_static_args, *args, **kwargs)``, which stores an
    auxiliary output; returns the function and a thunk reading the output (after a call).
    ``use_eq_store``: storing an equal value again is allowed; ``unk_names``: forget the debug
    info's argument and result names."""
    out_store: AnyStore = EqualStore() if use_eq_store else Store()
    wrapped = fun.wrap(gen, gen_static_args, out_store)
    if unk_names:
        wrapped = wrapped.with_unknown_names()

    def aux() -> Any:
        return out_store.val

    return wrapped, aux


def _transformation_with_aux(
    gen: GenFn, fun: WrappedFun, *gen_static_args: Hashable
) -> tuple[WrappedFun, Callable[[], Any]]:
    """``fun`` transformed by the generator ``gen``, whose second yield is ``(result, aux)``;
    returns the function and a thunk reading ``aux`` (after a call)."""

    def apply(f: Callable[..., Any], store: AnyStore, *args: Any, **kwargs: Any) -> Any:
        inst = gen(*args, **kwargs)
        inner_args, inner_kwargs = next(inst)
        ans, aux = inst.send(f(*inner_args, **inner_kwargs))
        store.store(aux)
        return ans

    apply.__name__ = _fun_name(gen)
    return _transformation_with_aux2(apply, fun, *gen_static_args)


transformation2: _Curried[WrappedFun] = _Curried(_transformation2)
"""``transformation2(gen)(fun, *static_args)``: ``fun`` with the plain-function transformation
``gen(f, *static_args, *args, **kwargs)`` added."""

transformation: _Curried[WrappedFun] = _Curried(_transformation)
"""``transformation(gen)(fun, *static_args)`` (or ``@transformation`` on ``gen``): ``fun`` with the
generator transformation ``gen`` added."""

transformation_with_aux2: _Curried[tuple[WrappedFun, Callable[[], Any]]] = _Curried(
    _transformation_with_aux2
)
"""``transformation_with_aux2(gen)(fun, *static_args)``: ``(fun transformed, aux thunk)`` for the
plain-function transformation ``gen(f, store, *static_args, *args, **kwargs)``."""

transformation_with_aux: _Curried[tuple[WrappedFun, Callable[[], Any]]] = _Curried(
    _transformation_with_aux
)
"""``transformation_with_aux(gen)(fun, *static_args)``: ``(fun transformed, aux thunk)`` for the
generator transformation ``gen`` (its second yield is ``(result, aux)``)."""


def _missing_debug_info(for_what: str) -> DebugInfo:
    warnings.warn(
        f"{for_what} was called without debug_info; passing a DebugInfo will be required "
        "(see https://github.com/jax-ml/jax/issues/26480).",
        DeprecationWarning,
        stacklevel=3,
    )
    return DebugInfo("missing_debug_info", "<missing_debug_info>", None, None)


def wrap_init(
    f: Callable[..., Any],
    params: Mapping[str, Any] | None = None,
    *,
    debug_info: DebugInfo | None = None,
) -> WrappedFun:
    """``f`` as a ``WrappedFun`` with no transformations; ``params`` are keyword arguments always
    passed to ``f``. Without ``debug_info``, a ``DeprecationWarning`` (as in JAX)."""
    dbg = debug_info if debug_info is not None else _missing_debug_info("linear_util.wrap_init")
    kwargs = {} if params is None else dict(params)
    frozen = tuple(sorted(kwargs.items()))
    return WrappedFun(
        f, functools.partial(f, **kwargs), (), (), frozen, None, dbg._replace(result_paths=None)
    )


Explain = Callable[[WrappedFun, bool, dict[Any, Any], tuple[Any, ...], float], None]


class _Memoized[R]:
    """``call`` memoized on its ``WrappedFun`` (its function, transformations, parameters and input
    type), its other arguments and the configuration tracing depends on."""

    def __init__(self, call: Callable[..., R], explain: Explain | None) -> None:
        self._call = call
        self._explain = explain
        self._caches: weakref.WeakKeyDictionary[
            Any, dict[Any, tuple[R, tuple[AnyStore | None, ...]]]
        ] = weakref.WeakKeyDictionary()
        functools.update_wrapper(self, call)

    def __call__(self, fun: WrappedFun, *args: Any) -> R:
        fresh: dict[Any, tuple[R, tuple[AnyStore | None, ...]]] = {}
        table = self._caches.setdefault(fun.f, fresh)
        key = (fun.transforms, fun.params, fun.in_type, args, config.jit_key())
        hit = table.get(key)
        if hit is not None:
            ans, stores = hit
            fun.populate_stores(stores)
            return ans
        start = time.time()
        ans = self._call(fun, *args)
        if self._explain is not None and config.explain_cache_misses.value:
            self._explain(fun, table is fresh, table, key, time.time() - start)
        table[key] = (ans, fun.stores)
        return ans

    def cache_clear(self) -> None:
        """Forgets every memoized result."""
        self._caches.clear()

    def evict_function(self, f: Callable[..., Any]) -> None:
        """Forgets the memoized results of the function ``f``."""
        self._caches.pop(f, None)


def cache[R](call: Callable[..., R], *, explain: Explain | None = None) -> _Memoized[R]:
    """``call`` (whose first argument is a ``WrappedFun``) memoized: a repeated call returns the
    first result and fills the ``WrappedFun``'s stores with the first call's auxiliary outputs.
    ``explain(fun, first_use, cache, key, seconds)`` is called on misses when
    ``jax_explain_cache_misses`` is set."""
    return _Memoized(call, explain)


def merge_linear_aux(aux1: Callable[[], Any], aux2: Callable[[], Any]) -> tuple[bool, Any]:
    """The output of whichever of two aux thunks has one: ``(True, out1)`` or ``(False, out2)``;
    ``StoreException`` if both or neither has."""
    try:
        out1 = aux1()
    except StoreException:
        try:
            out2 = aux2()
        except StoreException:
            raise StoreException("neither store occupied") from None
        return False, out2
    try:
        aux2()
    except StoreException:
        return True, out1
    raise StoreException("both stores occupied")
