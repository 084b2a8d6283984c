"""The autodiff entry points: jvp, linearize, vjp, grad, value_and_grad, jacobians, hessian,
linear_transpose and closure_convert (pytree in, pytree out).

The public ``grad``, ``value_and_grad``, ``jacfwd``, ``jacrev`` and ``hessian`` are the typed
wrappers in ``ad_signatures`` (generated overloads over these implementations)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, TypeVar, cast, overload

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import ClosedJaxpr, eval_jaxpr
from jax_core._src.core.source_info import function_location
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters import ad
from jax_core._src.interpreters.ad_util import (
    UndefinedPrimal,
    Zero,
    instantiate_zeros,
    tangent_aval,
    zeros_like_aval,
)
from jax_core._src.interpreters.staging import DebugInfo, trace_to_jaxpr
from jax_core._src.lax.elementwise.conversions import convert_element_type_p, to_dtype
from jax_core._src.tree.tree_util import PyTreeDef, register_pytree_node, tree_flatten, tree_map, tree_unflatten

# Typing jvp, vjp, linearize and linear_transpose: one overload per number of primals (1..4),
# a TypeVar per primal, so the function, its primals and tangents/cotangents must agree.
# More primals are accepted with ``Any`` for them. (A TypeVarTuple would say it for every
# arity, but mypy does not solve one from two tuples, as jvp's primals and tangents are.)
T0 = TypeVar("T0")
T1 = TypeVar("T1")
T2 = TypeVar("T2")
T3 = TypeVar("T3")
R = TypeVar("R")
Aux = TypeVar("Aux")
_Tuple5 = tuple[Any, Any, Any, Any, Any, *tuple[Any, ...]]
"""Five or more primals: the arities the overloads do not spell out."""


def _flat_fun(fun: Callable[..., Any], in_tree: PyTreeDef, out_tree_box: list[PyTreeDef]) -> Callable[..., list[Any]]:
    def flat(*leaves: Any) -> list[Any]:
        args = tree_unflatten(in_tree, leaves)
        out_leaves, out_tree = tree_flatten(fun(*args))
        out_tree_box.append(out_tree)
        return out_leaves

    return flat


def _as_pair(x: object) -> tuple[Any, Any] | None:
    if not isinstance(x, tuple):
        return None
    items = cast("tuple[object, ...]", x)
    return (items[0], items[1]) if len(items) == 2 else None


def _split_aux(fun: Callable[..., Any], has_aux: bool, aux_box: list[Any]) -> Callable[..., Any]:
    if not has_aux:
        return fun

    def main(*args: Any) -> Any:
        out: Any = fun(*args)
        pair = _as_pair(out)
        if pair is None:
            raise TypeError(
                "expected function with aux output to return a two-element tuple, but got type "
                f"{type(out)} with value {out!r}"
            )
        aux_box.append(pair[1])
        return pair[0]

    return main


def _strip_aux_tracers(aux: Any) -> Any:
    """Aux outputs leave the transformation as their primal values."""
    return tree_map(lambda x: x.primal if isinstance(x, ad.JVPTracer) else x, aux)


def _nonzero(ct: Any, primal: Any) -> Any:
    """The cotangent of ``primal`` as a value of its tangent type, weakly typed exactly when the
    primal is (as JAX's: ``grad(f)(1.0)`` is weak, ``grad(f)(jnp.float32(1))`` is not)."""
    aval = tangent_aval(primal if isinstance(primal, ShapedArray) else get_aval(primal))
    if isinstance(ct, Zero):
        return zeros_like_aval(aval)
    ct_aval = get_aval(ct)
    if ct_aval.dtype == aval.dtype and ct_aval.weak_type != aval.weak_type:
        return to_dtype(ct, aval.dtype, aval.weak_type)
    return ct


# -- forward mode ----------------------------------------------------------------------------
@overload
def jvp(fun: Callable[[T0], R], primals: tuple[T0], tangents: tuple[T0], has_aux: Literal[False] = False) -> tuple[R, R]: ...
@overload
def jvp(
    fun: Callable[[T0, T1], R], primals: tuple[T0, T1], tangents: tuple[T0, T1], has_aux: Literal[False] = False
) -> tuple[R, R]: ...
@overload
def jvp(
    fun: Callable[[T0, T1, T2], R],
    primals: tuple[T0, T1, T2],
    tangents: tuple[T0, T1, T2],
    has_aux: Literal[False] = False,
) -> tuple[R, R]: ...
@overload
def jvp(
    fun: Callable[[T0, T1, T2, T3], R],
    primals: tuple[T0, T1, T2, T3],
    tangents: tuple[T0, T1, T2, T3],
    has_aux: Literal[False] = False,
) -> tuple[R, R]: ...
@overload
def jvp(
    fun: Callable[..., R], primals: _Tuple5 | list[Any], tangents: _Tuple5 | list[Any], has_aux: Literal[False] = False
) -> tuple[R, R]: ...
@overload
def jvp(
    fun: Callable[[T0], tuple[R, Aux]], primals: tuple[T0], tangents: tuple[T0], has_aux: Literal[True]
) -> tuple[R, R, Aux]: ...
@overload
def jvp(
    fun: Callable[[T0, T1], tuple[R, Aux]], primals: tuple[T0, T1], tangents: tuple[T0, T1], has_aux: Literal[True]
) -> tuple[R, R, Aux]: ...
@overload
def jvp(
    fun: Callable[[T0, T1, T2], tuple[R, Aux]],
    primals: tuple[T0, T1, T2],
    tangents: tuple[T0, T1, T2],
    has_aux: Literal[True],
) -> tuple[R, R, Aux]: ...
@overload
def jvp(
    fun: Callable[[T0, T1, T2, T3], tuple[R, Aux]],
    primals: tuple[T0, T1, T2, T3],
    tangents: tuple[T0, T1, T2, T3],
    has_aux: Literal[True],
) -> tuple[R, R, Aux]: ...
@overload
def jvp(
    fun: Callable[..., tuple[R, Aux]], primals: _Tuple5 | list[Any], tangents: _Tuple5 | list[Any], has_aux: Literal[True]
) -> tuple[R, R, Aux]: ...


def jvp(fun: Callable[..., Any], primals: Sequence[Any], tangents: Sequence[Any], has_aux: bool = False) -> Any:
    """``(fun(*primals), directional derivative along tangents)``; with ``has_aux`` also aux."""
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError(
            "primal and tangent arguments to jax.jvp must be tuples or lists; found "
            f"{type(primals).__name__} and {type(tangents).__name__}."
        )
    p_leaves, p_tree = tree_flatten(tuple(primals))
    t_leaves, t_tree = tree_flatten(tuple(tangents))
    if p_tree != t_tree:
        raise TypeError(
            "primal and tangent arguments to jax.jvp must have the same tree structure; "
            f"primals have tree structure {p_tree} whereas tangents have tree structure {t_tree}."
        )
    for p, t in zip(p_leaves, t_leaves):
        pa, ta = get_aval(p), get_aval(t)
        expected = tangent_aval(pa)
        if ta.dtype != expected.dtype:
            raise TypeError(
                "primal and tangent arguments to jax.jvp do not match; dtypes must be equal, or in "
                "case of int/bool primal dtype the tangent dtype must be float0. Got primal dtype "
                f"{pa.dtype.name} and so expected tangent dtype {expected.dtype.name}, but got "
                f"tangent dtype {ta.dtype.name} instead."
            )
        if ta.shape != pa.shape:
            raise ValueError(
                "jvp called with different primal and tangent shapes; Got primal shape "
                f"{pa.shape} and tangent shape as {ta.shape}"
            )
    aux_box: list[Any] = []
    out_tree: list[PyTreeDef] = []
    flat = _flat_fun(_split_aux(fun, has_aux, aux_box), p_tree, out_tree)
    t_in = [Zero(tangent_aval(get_aval(p))) if get_aval(t).dtype == dtypes.float0 else t for p, t in zip(p_leaves, t_leaves)]
    outs, touts = ad.jvp_flat(flat, p_leaves, t_in)
    touts = [_nonzero(t, o) for t, o in zip(touts, outs)]
    result = (tree_unflatten(out_tree[0], outs), tree_unflatten(out_tree[0], touts))
    return (*result, _strip_aux_tracers(aux_box[0])) if has_aux else result


@overload
def linearize(fun: Callable[[T0], R], p0: T0, /, *, has_aux: Literal[False] = False) -> tuple[R, Callable[[T0], R]]: ...
@overload
def linearize(
    fun: Callable[[T0, T1], R], p0: T0, p1: T1, /, *, has_aux: Literal[False] = False
) -> tuple[R, Callable[[T0, T1], R]]: ...
@overload
def linearize(
    fun: Callable[[T0, T1, T2], R], p0: T0, p1: T1, p2: T2, /, *, has_aux: Literal[False] = False
) -> tuple[R, Callable[[T0, T1, T2], R]]: ...
@overload
def linearize(
    fun: Callable[[T0, T1, T2, T3], R], p0: T0, p1: T1, p2: T2, p3: T3, /, *, has_aux: Literal[False] = False
) -> tuple[R, Callable[[T0, T1, T2, T3], R]]: ...
@overload
def linearize(
    fun: Callable[..., R], p0: Any, p1: Any, p2: Any, p3: Any, p4: Any, /, *primals: Any, has_aux: Literal[False] = False
) -> tuple[R, Callable[..., R]]: ...
@overload
def linearize(
    fun: Callable[[T0], tuple[R, Aux]], p0: T0, /, *, has_aux: Literal[True]
) -> tuple[R, Callable[[T0], R], Aux]: ...
@overload
def linearize(
    fun: Callable[[T0, T1], tuple[R, Aux]], p0: T0, p1: T1, /, *, has_aux: Literal[True]
) -> tuple[R, Callable[[T0, T1], R], Aux]: ...
@overload
def linearize(
    fun: Callable[[T0, T1, T2], tuple[R, Aux]], p0: T0, p1: T1, p2: T2, /, *, has_aux: Literal[True]
) -> tuple[R, Callable[[T0, T1, T2], R], Aux]: ...
@overload
def linearize(
    fun: Callable[[T0, T1, T2, T3], tuple[R, Aux]], p0: T0, p1: T1, p2: T2, p3: T3, /, *, has_aux: Literal[True]
) -> tuple[R, Callable[[T0, T1, T2, T3], R], Aux]: ...
@overload
def linearize(
    fun: Callable[..., tuple[R, Aux]], p0: Any, p1: Any, p2: Any, p3: Any, p4: Any, /, *primals: Any, has_aux: Literal[True]
) -> tuple[R, Callable[..., R], Aux]: ...


def linearize(fun: Callable[..., Any], *primals: Any, has_aux: bool = False) -> Any:
    """``(fun(*primals), f_jvp)`` where ``f_jvp(*tangents)`` evaluates the linear map (no re-tracing)."""
    p_leaves, p_tree = tree_flatten(primals)
    aux_box: list[Any] = []
    out_tree: list[PyTreeDef] = []
    flat = _flat_fun(_split_aux(fun, has_aux, aux_box), p_tree, out_tree)
    outs, lin = ad.linearize_flat(flat, p_leaves, DebugInfo("linearize", fun))

    def f_jvp(*tangents: Any) -> Any:
        t_leaves, t_tree = tree_flatten(tangents)
        if t_tree != p_tree:
            raise ValueError(f"linearized function called on tangent values inconsistent with the original primal values: expected {p_tree}, got {t_tree}")
        touts = lin.apply(t_leaves)
        return tree_unflatten(out_tree[0], [_nonzero(t, o) for t, o in zip(touts, outs)])

    result = (tree_unflatten(out_tree[0], outs), f_jvp)
    return (*result, _strip_aux_tracers(aux_box[0])) if has_aux else result


# -- reverse mode ----------------------------------------------------------------------------
class _VJPFunction:
    """The pullback returned by ``vjp``: maps output cotangents to input cotangents. A pytree
    whose leaves are the residuals, so it can be passed to and returned from ``jit`` (as JAX's)."""

    def __init__(self, lin: ad.Linearized, primals: list[Any], in_tree: PyTreeDef, out_tree: PyTreeDef, fun: Callable[..., Any]) -> None:
        self._lin = lin
        self._primals = [p if isinstance(p, ShapedArray) else get_aval(p) for p in primals]
        self._in_tree = in_tree
        self._out_tree = out_tree
        self._fun = fun

    def _flatten(self) -> tuple[list[Any], _VJPStructure]:
        lin = self._lin
        structure = _VJPStructure(lin, self._primals, self._in_tree, self._out_tree, self._fun)
        return list(lin.jaxpr.consts), structure

    @staticmethod
    def _unflatten(structure: _VJPStructure, residuals: Sequence[Any]) -> _VJPFunction:
        old = structure.lin
        lin = ad.Linearized(ClosedJaxpr(old.jaxpr.jaxpr, list(residuals)), old.in_avals, old.in_nonzero, old.out_avals, old.out_zero)
        return _VJPFunction(lin, structure.primals, structure.in_tree, structure.out_tree, structure.fun)

    def __call__(self, ct: Any) -> tuple[Any, ...]:
        ct_leaves, ct_tree = tree_flatten(ct)
        if ct_tree != self._out_tree:
            raise ValueError(
                "unexpected tree structure.\n\nThe argument to a VJP function returned by `jax.vjp` must "
                f"match the pytree structure of the differentiated function {function_location(self._fun)}.\n\n"
                f"Expected {self._out_tree}, got {ct_tree}."
            )
        for c, a in zip(ct_leaves, self._lin.out_avals):
            ca, ta = get_aval(c), tangent_aval(a)
            if ca.shape != ta.shape or (ca.dtype != ta.dtype and ta.dtype != dtypes.float0):
                raise ValueError(
                    f"Shape/dtype of cotangent input to vjp pullback function ({ca.str_short()}) is not "
                    f"the expected shape/dtype of the output of the primal function ({ta.str_short()})."
                )
        cts = [Zero(tangent_aval(a)) if get_aval(c).dtype == dtypes.float0 else c for c, a in zip(ct_leaves, self._lin.out_avals)]
        cts_in = self._lin.transpose(cts)
        leaves = [_nonzero(c, p) for c, p in zip(cts_in, self._primals)]
        out: tuple[Any, ...] = tree_unflatten(self._in_tree, leaves)
        return out


class _VJPStructure:
    """The static part of a ``vjp`` pullback as a pytree (compared by identity)."""

    __slots__ = ("lin", "primals", "in_tree", "out_tree", "fun")

    def __init__(self, lin: ad.Linearized, primals: list[Any], in_tree: PyTreeDef, out_tree: PyTreeDef, fun: Callable[..., Any]) -> None:
        self.lin = lin
        self.primals = primals
        self.in_tree = in_tree
        self.out_tree = out_tree
        self.fun = fun


register_pytree_node(_VJPFunction, lambda f: f._flatten(), _VJPFunction._unflatten)  # pyright: ignore[reportPrivateUsage]


@overload
def vjp(fun: Callable[[T0], R], p0: T0, /, *, has_aux: Literal[False] = False) -> tuple[R, Callable[[R], tuple[T0]]]: ...
@overload
def vjp(
    fun: Callable[[T0, T1], R], p0: T0, p1: T1, /, *, has_aux: Literal[False] = False
) -> tuple[R, Callable[[R], tuple[T0, T1]]]: ...
@overload
def vjp(
    fun: Callable[[T0, T1, T2], R], p0: T0, p1: T1, p2: T2, /, *, has_aux: Literal[False] = False
) -> tuple[R, Callable[[R], tuple[T0, T1, T2]]]: ...
@overload
def vjp(
    fun: Callable[[T0, T1, T2, T3], R], p0: T0, p1: T1, p2: T2, p3: T3, /, *, has_aux: Literal[False] = False
) -> tuple[R, Callable[[R], tuple[T0, T1, T2, T3]]]: ...
@overload
def vjp(
    fun: Callable[..., R], p0: Any, p1: Any, p2: Any, p3: Any, p4: Any, /, *primals: Any, has_aux: Literal[False] = False
) -> tuple[R, Callable[[R], tuple[Any, ...]]]: ...
@overload
def vjp(
    fun: Callable[[T0], tuple[R, Aux]], p0: T0, /, *, has_aux: Literal[True]
) -> tuple[R, Callable[[R], tuple[T0]], Aux]: ...
@overload
def vjp(
    fun: Callable[[T0, T1], tuple[R, Aux]], p0: T0, p1: T1, /, *, has_aux: Literal[True]
) -> tuple[R, Callable[[R], tuple[T0, T1]], Aux]: ...
@overload
def vjp(
    fun: Callable[[T0, T1, T2], tuple[R, Aux]], p0: T0, p1: T1, p2: T2, /, *, has_aux: Literal[True]
) -> tuple[R, Callable[[R], tuple[T0, T1, T2]], Aux]: ...
@overload
def vjp(
    fun: Callable[[T0, T1, T2, T3], tuple[R, Aux]], p0: T0, p1: T1, p2: T2, p3: T3, /, *, has_aux: Literal[True]
) -> tuple[R, Callable[[R], tuple[T0, T1, T2, T3]], Aux]: ...
@overload
def vjp(
    fun: Callable[..., tuple[R, Aux]], p0: Any, p1: Any, p2: Any, p3: Any, p4: Any, /, *primals: Any, has_aux: Literal[True]
) -> tuple[R, Callable[[R], tuple[Any, ...]], Aux]: ...


def vjp(fun: Callable[..., Any], *primals: Any, has_aux: bool = False) -> Any:
    """``(fun(*primals), f_vjp)`` where ``f_vjp(ct)`` returns one cotangent per primal (a tuple)."""
    p_leaves, p_tree = tree_flatten(primals)
    aux_box: list[Any] = []
    out_tree: list[PyTreeDef] = []
    flat = _flat_fun(_split_aux(fun, has_aux, aux_box), p_tree, out_tree)
    outs, lin = ad.linearize_flat(flat, p_leaves, DebugInfo("vjp", fun))
    f_vjp = _VJPFunction(lin, p_leaves, p_tree, out_tree[0], fun)
    result = (tree_unflatten(out_tree[0], outs), f_vjp)
    return (*result, _strip_aux_tracers(aux_box[0])) if has_aux else result


# The public overloads take ``has_aux`` as a literal only; the implementations below pass a bool.
_jvp: Callable[..., Any] = jvp
_vjp: Callable[..., Any] = vjp


def _normalize_argnums(argnums: int | Sequence[int], nargs: int) -> tuple[int, ...]:
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for i in nums:
        if not -nargs <= i < nargs:
            raise TypeError(
                f"differentiating with respect to argnums={argnums} requires at least {max(i, -i - 1) + 1} "
                f"positional arguments to be passed by the caller, but got only {nargs} positional arguments."
            )
    return tuple(i % nargs for i in nums)


def _check_input_dtypes(args: Any, holomorphic: bool, allow_int: bool, what: str) -> None:
    """Checks every differentiated leaf. As in JAX this maps over the arguments, so a pytree
    node's unflatten sees the check's ``None`` results (one that converts its children raises
    there, as it does in JAX)."""
    tree_map(lambda leaf: _check_input_dtype(leaf, holomorphic, allow_int, what), args)


def _check_input_dtype(x: Any, holomorphic: bool, allow_int: bool, what: str) -> None:
    d = get_aval(x).dtype
    if holomorphic:
        if not dtypes.issubdtype(d, np.complexfloating):
            raise TypeError(f"{what} with holomorphic=True requires inputs with complex dtype, but got {d.name}.")
    elif dtypes.issubdtype(d, np.inexact) or d == dtypes.float0:
        return
    elif not allow_int:
        raise TypeError(
            f"{what} requires real- or complex-valued inputs (input dtype that is a sub-dtype of "
            f"np.inexact), but got {d.name}. If you want to use Boolean- or integer-valued inputs, "
            "use vjp or set allow_int to True."
        )


def _check_scalar_output(out: Any, holomorphic: bool, what: str) -> None:
    aval = get_aval(out)
    if aval.shape != ():
        raise TypeError(
            f"Gradient only defined for scalar-output functions. Output had shape: {aval.shape}. "
            "To get the gradient, reduce the output to a scalar with output.sum(), or use "
            "jax.jacobian to differentiate a function with a non-scalar output."
        )
    d = aval.dtype
    if holomorphic:
        if not dtypes.issubdtype(d, np.complexfloating):
            raise TypeError(f"{what} with holomorphic=True requires outputs with complex dtype, but got {d.name}.")
    elif dtypes.issubdtype(d, np.complexfloating):
        raise TypeError(
            f"{what} requires real-valued outputs (output dtype that is a sub-dtype of np.floating), but got "
            f"{d.name}. For holomorphic differentiation, pass holomorphic=True. For differentiation of "
            "non-holomorphic functions involving complex outputs, use jax.vjp directly."
        )
    elif not dtypes.issubdtype(d, np.floating):
        raise TypeError(
            f"{what} requires real-valued outputs (output dtype that is a sub-dtype of np.floating), but got "
            f"{d.name}. For differentiation of functions with integer outputs, use jax.vjp directly."
        )


def _seed(out: Any) -> Any:
    """The cotangent ``grad`` pulls back: a ``1`` with the output's dtype and weak type, as JAX
    seeds it: bound in the current trace, so eagerly it is an Array (a custom ``bwd`` receives
    an Array) and under a trace the conversion of a constant folds to a literal."""
    aval = get_aval(out)
    return convert_element_type_p.bind(np.ones((), aval.dtype), new_dtype=aval.dtype, weak_type=aval.weak_type)


def value_and_grad(
    fun: Callable[..., Any],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[..., Any]:
    """A function computing ``fun``'s value and its gradient with respect to ``argnums``."""
    what = "value_and_grad"

    def value_and_grad_f(*args: Any, **kwargs: Any) -> Any:
        nums = _normalize_argnums(argnums, len(args))
        diff_args = tuple(args[i] for i in nums)
        for leaf in tree_flatten(diff_args)[0]:
            _check_input_dtype(leaf, holomorphic, allow_int, what.replace("value_and_grad", "grad"))

        def partial_fun(*dargs: Any) -> Any:
            full = list(args)
            for i, a in zip(nums, dargs):
                full[i] = a
            return fun(*full, **kwargs)

        res = _vjp(partial_fun, *diff_args, has_aux=has_aux)
        out, f_vjp = res[0], res[1]
        _check_scalar_output(out, holomorphic, "grad")
        grads = f_vjp(_seed(out))
        g = grads[0] if isinstance(argnums, int) else grads
        return ((out, res[2]), g) if has_aux else (out, g)

    value_and_grad_f.__name__ = getattr(fun, "__name__", "fun")
    value_and_grad_f.__doc__ = getattr(fun, "__doc__", None)
    return value_and_grad_f


def grad(
    fun: Callable[..., Any],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[..., Any]:
    """A function computing the gradient of scalar-valued ``fun`` with respect to ``argnums``."""
    vg = value_and_grad(fun, argnums, has_aux, holomorphic, allow_int)

    def grad_f(*args: Any, **kwargs: Any) -> Any:
        (out_or_pair, g) = vg(*args, **kwargs)
        return (g, out_or_pair[1]) if has_aux else g

    grad_f.__name__ = getattr(fun, "__name__", "fun")
    grad_f.__doc__ = getattr(fun, "__doc__", None)
    return grad_f


# -- jacobians ---------------------------------------------------------------------------------
def _std_basis(leaves: Sequence[Any]) -> tuple[Any, list[int]]:
    """The standard basis for the flattened inputs: one (N, *shape) array per leaf."""
    sizes = [int(np.prod(get_aval(x).shape, dtype=np.int64)) for x in leaves]
    total = sum(sizes)
    return np.eye(total, dtype=_jac_dtype(leaves)), sizes


def _jac_dtype(leaves: Sequence[Any]) -> np.dtype[Any]:
    return dtypes.result_type(*(get_aval(x).dtype for x in leaves)) if leaves else np.dtype(np.float32)


def jacfwd(fun: Callable[..., Any], argnums: int | Sequence[int] = 0, has_aux: bool = False, holomorphic: bool = False) -> Callable[..., Any]:
    """The Jacobian of ``fun`` by forward mode (one jvp per input element, batched with vmap)."""
    from jax_core._src.transforms.vmap_api import vmap

    def jacfun(*args: Any, **kwargs: Any) -> Any:
        nums = _normalize_argnums(argnums, len(args))
        dargs = tuple(args[i] for i in nums)
        _check_input_dtypes(dargs, holomorphic, False, "jacfwd")
        d_leaves, d_tree = tree_flatten(dargs)

        def partial_fun(*xs: Any) -> Any:
            full = list(args)
            for i, a in zip(nums, xs):
                full[i] = a
            return fun(*full, **kwargs)

        basis, sizes = _std_basis(d_leaves)

        def push(row: Any) -> Any:
            tans = _split_row(row, d_leaves, sizes)
            res = _jvp(partial_fun, dargs, tree_unflatten(d_tree, tans), has_aux=has_aux)
            return (res[1], res[2]) if has_aux else res[1]

        out = vmap(push, out_axes=-1)(basis)
        jac, aux = out if has_aux else (out, None)
        jac = tree_map(lambda j: _reshape_trailing(j, d_leaves, sizes, d_tree, isinstance(argnums, int)), jac)
        return (jac, _unbatch_aux(aux)) if has_aux else jac

    return jacfun


def _unbatch_aux(aux: Any) -> Any:
    return tree_map(lambda a: a[..., 0] if hasattr(a, "shape") else a, aux)


def _split_row(row: Any, leaves: Sequence[Any], sizes: Sequence[int]) -> list[Any]:
    from jax_core._src.lax.indexing.slicing import slice as lax_slice
    from jax_core._src.lax.shape.dimensions import reshape

    out: list[Any] = []
    start = 0
    for x, n in zip(leaves, sizes):
        aval = get_aval(x)
        piece = lax_slice(row, (start,), (start + n,))
        piece = reshape(piece, aval.shape)
        out.append(instantiate_zeros(piece) if aval.dtype == get_aval(piece).dtype else _astype(piece, aval.dtype))
        start += n
    return out


def _slice_axis(x: Any, start: int, stop: int, axis: int) -> Any:
    from jax_core._src.lax.indexing.slicing import slice as lax_slice

    shape = get_aval(x).shape
    starts = [0] * len(shape)
    limits = list(shape)
    starts[axis], limits[axis] = start, stop
    return lax_slice(x, starts, limits)


def _astype(x: Any, dtype: np.dtype[Any]) -> Any:
    from jax_core._src.lax.elementwise import to_dtype

    return to_dtype(x, dtype)


def _reshape_trailing(j: Any, leaves: Sequence[Any], sizes: Sequence[int], d_tree: PyTreeDef, single: bool) -> Any:
    """Splits a Jacobian's trailing basis axis into one block per input leaf, shaped like it."""
    from jax_core._src.lax.shape.dimensions import reshape

    aval = get_aval(j)
    lead = aval.shape[:-1]
    blocks: list[Any] = []
    start = 0
    for x, n in zip(leaves, sizes):
        piece = _slice_axis(j, start, start + n, aval.ndim - 1)
        blocks.append(reshape(piece, (*lead, *get_aval(x).shape)))
        start += n
    tree = tree_unflatten(d_tree, blocks)
    return tree[0] if single else tree


def jacrev(
    fun: Callable[..., Any],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[..., Any]:
    """The Jacobian of ``fun`` by reverse mode (one vjp per output element, batched with vmap)."""
    from jax_core._src.lax.shape.dimensions import reshape
    from jax_core._src.transforms.vmap_api import vmap

    def jacfun(*args: Any, **kwargs: Any) -> Any:
        nums = _normalize_argnums(argnums, len(args))
        dargs = tuple(args[i] for i in nums)
        _check_input_dtypes(dargs, holomorphic, allow_int, "jacrev")

        def partial_fun(*xs: Any) -> Any:
            full = list(args)
            for i, a in zip(nums, xs):
                full[i] = a
            return fun(*full, **kwargs)

        res = _vjp(partial_fun, *dargs, has_aux=has_aux)
        y, f_vjp = res[0], res[1]
        y_leaves, y_tree = tree_flatten(y)
        basis, sizes = _std_basis(y_leaves)

        def pull(row: Any) -> Any:
            return f_vjp(tree_unflatten(y_tree, _split_row(row, y_leaves, sizes)))

        cts = vmap(pull)(basis)  # tuple over dargs, each leaf (N_out, *in_shape)
        blocks_per_out: list[Any] = []
        start = 0
        for yl, n in zip(y_leaves, sizes):
            stop = start + n
            yshape = get_aval(yl).shape

            def cut(c: Any, start: int = start, stop: int = stop, yshape: tuple[int, ...] = yshape) -> Any:
                piece = _slice_axis(c, start, stop, 0)
                return reshape(piece, (*yshape, *get_aval(c).shape[1:]))

            per = tree_map(cut, cts)
            blocks_per_out.append(per[0] if isinstance(argnums, int) else per)
            start = stop
        jac = tree_unflatten(y_tree, blocks_per_out)
        return (jac, res[2]) if has_aux else jac

    return jacfun


jacobian = jacrev
"""Alias of ``jacrev``."""


def hessian(fun: Callable[..., Any], argnums: int | Sequence[int] = 0, has_aux: bool = False, holomorphic: bool = False) -> Callable[..., Any]:
    """The Hessian of scalar ``fun``: ``jacfwd(jacrev(fun))``."""
    return jacfwd(jacrev(fun, argnums, has_aux=has_aux, holomorphic=holomorphic), argnums, has_aux=has_aux, holomorphic=holomorphic)


# -- linear_transpose and closure_convert -----------------------------------------------------
@overload
def linear_transpose(
    fun: Callable[[T0], R], p0: T0, /, *, reduce_axes: tuple[Any, ...] = ()
) -> Callable[[R], tuple[T0]]: ...
@overload
def linear_transpose(
    fun: Callable[[T0, T1], R], p0: T0, p1: T1, /, *, reduce_axes: tuple[Any, ...] = ()
) -> Callable[[R], tuple[T0, T1]]: ...
@overload
def linear_transpose(
    fun: Callable[[T0, T1, T2], R], p0: T0, p1: T1, p2: T2, /, *, reduce_axes: tuple[Any, ...] = ()
) -> Callable[[R], tuple[T0, T1, T2]]: ...
@overload
def linear_transpose(
    fun: Callable[[T0, T1, T2, T3], R], p0: T0, p1: T1, p2: T2, p3: T3, /, *, reduce_axes: tuple[Any, ...] = ()
) -> Callable[[R], tuple[T0, T1, T2, T3]]: ...
@overload
def linear_transpose(
    fun: Callable[..., R], p0: Any, p1: Any, p2: Any, p3: Any, p4: Any, /, *primals: Any, reduce_axes: tuple[Any, ...] = ()
) -> Callable[[R], tuple[Any, ...]]: ...


def linear_transpose(fun: Callable[..., Any], *primals: Any, reduce_axes: tuple[Any, ...] = ()) -> Callable[..., Any]:
    """The transpose of the linear function ``fun``, for inputs shaped like ``primals``."""
    p_leaves, p_tree = tree_flatten(primals)
    avals = [get_aval(p).strip_weak_type() for p in p_leaves]
    for a in avals:
        if not dtypes.issubdtype(a.dtype, np.inexact):
            raise TypeError(f"linear_transpose only supports [float or complex] -> [float or complex], got {a.dtype.name}")
    out_tree: list[PyTreeDef] = []
    jaxpr = trace_to_jaxpr(_flat_fun(fun, p_tree, out_tree), avals, DebugInfo("linear_transpose", fun))

    def transposed(*cts: Any) -> tuple[Any, ...]:
        ct_arg = cts[0] if len(cts) == 1 else cts
        ct_leaves, ct_tree = tree_flatten(ct_arg)
        if ct_tree != out_tree[0]:
            raise TypeError(f"cotangent tree does not match function output, expected {out_tree[0]} but got {ct_tree}")
        undefined = [UndefinedPrimal(a) for a in avals]
        res = ad.backward_pass(jaxpr.jaxpr, jaxpr.consts, undefined, ct_leaves)
        out: tuple[Any, ...] = tree_unflatten(p_tree, [_nonzero(c, p) for c, p in zip(res, p_leaves)])
        return out

    return transposed


def closure_convert(fun: Callable[..., Any], *example_args: Any) -> tuple[Callable[..., Any], list[Any]]:
    """``(converted, consts)``: ``converted(*args, *consts)`` computes ``fun(*args)`` with the
    arrays ``fun`` closes over passed explicitly (so custom rules can differentiate them)."""
    leaves, in_tree = tree_flatten(example_args)
    out_tree: list[PyTreeDef] = []
    closed = trace_to_jaxpr(
        _flat_fun(fun, in_tree, out_tree), [get_aval(x) for x in leaves], DebugInfo("closure_convert", fun)
    )
    consts = [c for c in closed.consts]
    jaxpr = closed.jaxpr
    n = len(leaves)

    def converted(*args: Any) -> Any:
        arg_leaves = tree_flatten(args[: len(args) - len(consts)])[0]
        if len(arg_leaves) != n:
            raise TypeError(f"closure-converted function expected {n} array arguments, got {len(arg_leaves)}")
        outs = eval_jaxpr(jaxpr, list(args[len(args) - len(consts) :]), *arg_leaves)
        return tree_unflatten(out_tree[0], outs)

    return converted, consts

