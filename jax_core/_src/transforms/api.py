"""The public transformation entry points of this issue: jit, make_jaxpr, eval_shape, ..."""

from __future__ import annotations

import contextlib
import functools
import operator
from collections.abc import Callable, Generator, Sequence
from typing import Any, Concatenate, Generic, Literal, ParamSpec, Protocol, TypeVar, cast, overload

from jax_core._src import config
from jax_core._src.core.avals import ShapeDtypeStruct
from jax_core._src.core.jaxpr import ClosedJaxpr
from jax_core._src.core.source_info import named_scope
from jax_core._src.core.trace import Tracer
from jax_core._src.interpreters.staging import DebugInfo, trace_to_jaxpr
from jax_core._src.runtime.tokens import effects_barrier
from jax_core._src.sharding.shardings import Device
from jax_core._src.transforms.ad_api import vjp
from jax_core._src.transforms.jit import Inline, abstractify, make_jit
from jax_core._src.transforms.jit_shardings import UNSPECIFIED
from jax_core._src.transforms.stages import Lowered, Traced
from jax_core._src.tree.tree_util import tree_flatten, tree_leaves, tree_unflatten
from jax_core._src.typing.basearray import Array

P = ParamSpec("P")
Q = ParamSpec("Q")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)
S = TypeVar("S")
K = TypeVar("K")


class Jitted(Protocol[P, R_co]):
    """A jit-compiled function: called like the original, plus its stages.

    Read from an instance (``@jit`` on a method), it binds the instance as the first
    argument, as a plain function does: ``obj.method`` is a ``Jitted`` of the remaining
    parameters.
    """

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R_co: ...

    # Method binding. Read from the class (``instance`` is None) the jitted function is
    # unchanged; read from an instance it loses its first parameter. The binding overload is
    # spelled twice: mypy binds a ``Callable`` self type correctly for every signature
    # (including ``partial(jit, ...)``'s ``[*Any, **Any]``, where the ``Jitted`` spelling
    # leaves ``[**Any]``), pyright matches only the ``Jitted`` spelling.
    @overload
    def __get__(self, instance: None, owner: type[Any] | None = None, /) -> Jitted[P, R_co]: ...
    @overload
    def __get__(
        self: Callable[Concatenate[S, Q], R], instance: S, owner: type[Any] | None = None, /
    ) -> Jitted[Q, R]: ...
    @overload
    def __get__(
        self: Jitted[Concatenate[S, Q], R], instance: S, owner: type[Any] | None = None, /
    ) -> Jitted[Q, R]: ...

    # ``lower``/``trace`` take the function's arguments, where ``ShapeDtypeStruct``s may stand in
    # for arrays (JAX's ahead-of-time idiom). A signature cannot swap the type of every ``Array``
    # parameter, so the overloads after the first accept any call with a ``ShapeDtypeStruct`` among
    # its first three arguments (the mypy plugin instead accepts one at each ``Array`` parameter).
    @overload
    def lower(self, *args: P.args, **kwargs: P.kwargs) -> Lowered[P, R_co]: ...
    @overload
    def lower(self, arg0: ShapeDtypeStruct, /, *args: Any, **kwargs: Any) -> Lowered[P, R_co]: ...
    @overload
    def lower(self, arg0: Any, arg1: ShapeDtypeStruct, /, *args: Any, **kwargs: Any) -> Lowered[P, R_co]: ...
    @overload
    def lower(self, arg0: Any, arg1: Any, arg2: ShapeDtypeStruct, /, *args: Any, **kwargs: Any) -> Lowered[P, R_co]: ...
    def lower(self, *args: Any, **kwargs: Any) -> Lowered[P, R_co]:
        """Traces and lowers for these arguments (arrays or ``ShapeDtypeStruct``s)."""
        ...

    @overload
    def trace(self, *args: P.args, **kwargs: P.kwargs) -> Traced[P, R_co]: ...
    @overload
    def trace(self, arg0: ShapeDtypeStruct, /, *args: Any, **kwargs: Any) -> Traced[P, R_co]: ...
    @overload
    def trace(self, arg0: Any, arg1: ShapeDtypeStruct, /, *args: Any, **kwargs: Any) -> Traced[P, R_co]: ...
    @overload
    def trace(self, arg0: Any, arg1: Any, arg2: ShapeDtypeStruct, /, *args: Any, **kwargs: Any) -> Traced[P, R_co]: ...
    def trace(self, *args: Any, **kwargs: Any) -> Traced[P, R_co]:
        """Traces for these arguments (arrays or ``ShapeDtypeStruct``s); returns the jaxpr stage."""
        ...

    @overload
    def eval_shape(self: Jitted[Q, Array], *args: Q.args, **kwargs: Q.kwargs) -> ShapeDtypeStruct: ...
    @overload
    def eval_shape(
        self: Jitted[Q, tuple[Array, Array]], *args: Q.args, **kwargs: Q.kwargs
    ) -> tuple[ShapeDtypeStruct, ShapeDtypeStruct]: ...
    @overload
    def eval_shape(self, *args: P.args, **kwargs: P.kwargs) -> Any: ...
    def eval_shape(self, *args: Any, **kwargs: Any) -> Any:
        """Output shapes and dtypes as ``ShapeDtypeStruct``s, without running: one for an
        ``Array`` result, a pair for a pair of arrays, else the output pytree (typed ``Any``)."""
        ...


class JitDecorator(Protocol):
    """What ``jit(static_argnames=...)`` without a function returns: applied to a function,
    it jits it with those options (``@jit(static_argnames="n")``)."""

    def __call__(self, fun: Callable[P, R], /) -> Jitted[P, R]: ...


@overload
def jit(
    fun: Callable[P, R],
    /,
    *,
    static_argnums: int | Sequence[int] | None = None,
    static_argnames: str | Sequence[str] | None = None,
    donate_argnums: int | Sequence[int] | None = None,
    donate_argnames: str | Sequence[str] | None = None,
    device: Device | None = None,
    backend: str | None = None,
    inline: bool | Inline = False,
    in_shardings: Any = UNSPECIFIED,
    out_shardings: Any = UNSPECIFIED,
) -> Jitted[P, R]: ...


@overload
def jit(
    fun: None = None,
    /,
    *,
    static_argnums: int | Sequence[int] | None = None,
    static_argnames: str | Sequence[str] | None = None,
    donate_argnums: int | Sequence[int] | None = None,
    donate_argnames: str | Sequence[str] | None = None,
    device: Device | None = None,
    backend: str | None = None,
    inline: bool | Inline = False,
    in_shardings: Any = UNSPECIFIED,
    out_shardings: Any = UNSPECIFIED,
) -> JitDecorator: ...


def jit(
    fun: Callable[P, R] | None = None,
    /,
    *,
    static_argnums: int | Sequence[int] | None = None,
    static_argnames: str | Sequence[str] | None = None,
    donate_argnums: int | Sequence[int] | None = None,
    donate_argnames: str | Sequence[str] | None = None,
    device: Device | None = None,
    backend: str | None = None,
    inline: bool | Inline = False,
    in_shardings: Any = UNSPECIFIED,
    out_shardings: Any = UNSPECIFIED,
) -> Jitted[P, R] | JitDecorator:
    """Compiles ``fun`` with XLA; calls with new shapes/dtypes/static values retrace.

    Every operation inside is staged (omnistaging). Arguments listed in
    ``static_argnums``/``static_argnames`` are passed as Python values (they must be
    hashable); ``donate_argnums`` lets XLA reuse those input buffers for outputs.
    Usable as ``@jit``, ``jit(f, ...)`` and ``@jit(static_argnames=...)``. With
    ``inline=Inline.JAX_EARLY`` a call made while tracing is traced straight into the caller's
    jaxpr instead of becoming a nested ``jit`` equation (``True``, ``Inline.JAX_LATE``, and the
    others keep the equation; its body is inlined when lowering). ``device`` runs it on that
    device (its results committed there); without it, it runs on the device of its committed
    arguments, else the default device. ``backend`` names the platform (``"cpu"``).

    ``in_shardings`` (a prefix of the positional arguments tuple) and ``out_shardings`` (a prefix
    of the results) lay arguments and results out over the devices of a mesh: ``Sharding``s,
    ``PartitionSpec``s (under ``set_mesh``) or ``None`` (left to XLA's partitioner). Arguments
    already laid out over several devices also run partitioned, by XLA's SPMD partitioner.
    """

    def wrap(f: Callable[Q, S], /) -> Jitted[Q, S]:
        out: Jitted[Q, S] = make_jit(
            f,
            static_argnums=static_argnums,
            static_argnames=static_argnames,
            donate_argnums=donate_argnums,
            donate_argnames=donate_argnames,
            device=device,
            backend=backend,
            inline=inline,
            in_shardings=in_shardings,
            out_shardings=out_shardings,
        )
        return out

    return wrap if fun is None else wrap(fun)


class _MakeJaxpr(Generic[P]):
    def __init__(self, fun: Callable[P, Any], static_argnums: tuple[int, ...], return_shape: bool) -> None:
        # Called with arguments rebuilt from flat leaves, so kept without its signature.
        self._fun: Callable[..., Any] = fun
        self._static = static_argnums
        self._return_shape = return_shape

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> ClosedJaxpr | tuple[ClosedJaxpr, Any]:
        static = {i: a for i, a in enumerate(args) if i in self._static}
        dyn = [a for i, a in enumerate(args) if i not in self._static]
        leaves, in_tree = tree_flatten((tuple(dyn), dict(kwargs)))
        out_tree_box: list[Any] = []
        fun = self._fun

        def flat_fun(*flat: Any) -> list[Any]:
            d, k = tree_unflatten(in_tree, flat)
            it = iter(d)
            full = [static[i] if i in static else next(it) for i in range(len(d) + len(static))]
            out = fun(*full, **k)
            out_leaves, out_tree = tree_flatten(out)
            out_tree_box.append(out_tree)
            return out_leaves

        jaxpr = trace_to_jaxpr(flat_fun, [abstractify(x) for x in leaves], DebugInfo("make_jaxpr", fun))
        if self._return_shape:
            shapes = tree_unflatten(out_tree_box[0], [ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type) for a in jaxpr.out_avals])
            return jaxpr, shapes
        return jaxpr


@overload
def make_jaxpr(
    fun: Callable[P, Any], static_argnums: int | Sequence[int] = (), return_shape: Literal[False] = False
) -> Callable[P, ClosedJaxpr]: ...


@overload
def make_jaxpr(
    fun: Callable[P, Any], static_argnums: int | Sequence[int] = (), *, return_shape: Literal[True]
) -> Callable[P, tuple[ClosedJaxpr, Any]]: ...


@overload
def make_jaxpr(
    fun: Callable[P, Any], static_argnums: int | Sequence[int], return_shape: Literal[True]
) -> Callable[P, tuple[ClosedJaxpr, Any]]: ...


@overload
def make_jaxpr(
    fun: Callable[P, Any], static_argnums: int | Sequence[int] = (), return_shape: bool = False
) -> Callable[P, ClosedJaxpr | tuple[ClosedJaxpr, Any]]: ...


def make_jaxpr(
    fun: Callable[P, Any], static_argnums: int | Sequence[int] = (), return_shape: bool = False
) -> Callable[P, ClosedJaxpr | tuple[ClosedJaxpr, Any]]:
    """Returns a function that traces ``fun`` and gives its jaxpr (``ClosedJaxpr``).

    ``make_jaxpr(f)(x)`` prints as JAX's text format, e.g.
    ``{ lambda ; a:f32[3]. let b:f32[3] = sin a in (b,) }``. With
    ``return_shape=True`` it gives ``(jaxpr, out_shapes)``, the output shapes and
    dtypes as a pytree of ``ShapeDtypeStruct``.
    """
    nums = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    return _MakeJaxpr(fun, nums, return_shape)


# The output pytree with every array replaced by a ``ShapeDtypeStruct``: spelled out for the
# common output types; any other output is ``Any``. The arguments are not checked against
# ``fun``'s parameters, because ``ShapeDtypeStruct``s stand in for arrays.
@overload
def eval_shape(fun: Callable[..., Array], *args: Any, **kwargs: Any) -> ShapeDtypeStruct: ...
@overload
def eval_shape(
    fun: Callable[..., tuple[Array, Array]], *args: Any, **kwargs: Any
) -> tuple[ShapeDtypeStruct, ShapeDtypeStruct]: ...
@overload
def eval_shape(fun: Callable[..., tuple[Array, ...]], *args: Any, **kwargs: Any) -> tuple[ShapeDtypeStruct, ...]: ...
@overload
def eval_shape(fun: Callable[..., list[Array]], *args: Any, **kwargs: Any) -> list[ShapeDtypeStruct]: ...
@overload
def eval_shape(fun: Callable[..., dict[K, Array]], *args: Any, **kwargs: Any) -> dict[K, ShapeDtypeStruct]: ...
@overload
def eval_shape(fun: Callable[..., Any], *args: Any, **kwargs: Any) -> Any: ...


def eval_shape(fun: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """The output shapes and dtypes of ``fun(*args)`` as a pytree of ``ShapeDtypeStruct``, without computing."""
    leaves, in_tree = tree_flatten((args, kwargs))
    out_tree_box: list[Any] = []

    def flat_fun(*flat: Any) -> list[Any]:
        a, k = tree_unflatten(in_tree, flat)
        out_leaves, out_tree = tree_flatten(fun(*a, **k))
        out_tree_box.append(out_tree)
        return out_leaves

    jaxpr = trace_to_jaxpr(flat_fun, [abstractify(x) for x in leaves], DebugInfo("eval_shape", fun))
    return tree_unflatten(out_tree_box[0], [ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type) for a in jaxpr.out_avals])


@contextlib.contextmanager
def disable_jit(disable: bool = True) -> Generator[None]:
    """Runs ``jit``-decorated functions op by op (for debugging with print and pdb)."""
    with config.disable_jit(disable):
        yield


def block_until_ready(x: R) -> R:
    """Waits until every array in the pytree ``x`` has been computed; returns ``x``. With no
    arrays in ``x`` (the empty results of an effectful call) it waits for the effects dispatched
    so far on this thread (``effects_barrier``)."""
    leaves = tree_leaves(x)
    for leaf in leaves:
        if hasattr(leaf, "block_until_ready") and not isinstance(leaf, Tracer):
            leaf.block_until_ready()
    if not leaves:
        effects_barrier()
    return x


_Fn = TypeVar("_Fn", bound=Callable[..., Any])


def named_call(fun: _Fn, *, name: str | None = None) -> _Fn:
    """``fun``, with the operations of each call named ``name`` (default: ``fun.__name__``), as
    if its body ran in ``named_scope(name)``."""
    scope = name if name is not None else getattr(fun, "__name__", None)
    if scope is None:
        raise TypeError(f"named_call: {fun!r} has no __name__; pass name=.")

    @functools.wraps(fun)
    def named(*args: Any, **kwargs: Any) -> Any:
        with named_scope(scope):
            return fun(*args, **kwargs)

    return cast(_Fn, named)


def fwd_and_bwd(
    fun: Callable[..., Any], argnums: int | Sequence[int], has_aux: bool = False, jitted: bool = True
) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The forward and backward passes of ``fun`` as two functions: ``fwd(*args)`` returns
    ``(fun(*args), residuals)`` (``(out, residuals, aux)`` with ``has_aux``) as ``vjp`` does, and
    ``bwd(residuals, cotangent)`` the cotangents of the arguments ``argnums`` names (one, for an
    int). With ``jitted`` (the default) both are ``jit``-compiled, so ``bwd`` compiles once."""
    if not callable(fun):
        raise TypeError(f"Expected a callable value, got {fun!r}")
    nums = (operator.index(argnums),) if isinstance(argnums, int) else tuple(operator.index(i) for i in argnums)

    def fwd(*args: Any, **kwargs: Any) -> Any:
        def partial_fun(*dyn: Any) -> Any:
            full = list(args)
            for i, v in zip(nums, dyn, strict=True):
                full[i] = v
            return fun(*full, **kwargs)

        untyped_vjp: Callable[..., Any] = vjp
        return untyped_vjp(partial_fun, *(args[i] for i in nums), has_aux=has_aux)

    def bwd(f_vjp: Callable[[Any], tuple[Any, ...]], outgrad: Any) -> Any:
        grads = f_vjp(outgrad)
        return grads[0] if isinstance(argnums, int) else grads

    if jitted:
        return make_jit(fwd), make_jit(bwd)
    return fwd, bwd
