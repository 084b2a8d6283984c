"""``vmap``: vectorise a function over an axis of its arguments (pytrees of in/out axes)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar, cast

from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.batching import infer_axis_size, vmap_flat
from jax_core._src.tree.tree_util import PyTreeDef, broadcast_prefix, tree_flatten, tree_unflatten

# ``vmap`` returns ``fun``'s own type (JAX annotates it ``F -> F``) rather than rebuilding
# ``Callable[P, R]``: in a ParamSpec context pyright types a lambda's ``*args`` as ``P.args`` and
# rejects ``vmap(lambda *x: g(*x))``. F has no bound: with ``bound=Callable[..., Any]`` pyright
# solves an argument's own type variables against the bound (``vmap(grad(f))`` came out with
# ``Any`` parameters and result). Calling ``vmap`` on a non-callable fails at run time.
F = TypeVar("F")


def _check_axis_spec(spec: Any, where: str) -> None:
    leaves = tree_flatten(spec, is_leaf=lambda x: x is None)[0]
    for a in leaves:
        if a is not None and (not isinstance(a, int) or isinstance(a, bool)):
            raise TypeError(
                f"vmap {where} must be an int, None, or (nested) container with those types as leaves, "
                f"but got {spec!r}."
            )


def _arg_names(fun: Callable[..., Any], n: int) -> list[str]:
    try:
        params = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        return [f"#{i}" for i in range(n)]
    names: list[str] = []
    for p in params:
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            names.append(p.name)
        elif p.kind == p.VAR_POSITIONAL:
            names.extend(f"{p.name}[{j}]" for j in range(n - len(names)))
    return (names + [f"#{i}" for i in range(len(names), n)])[:n]


def vmap(
    fun: F,
    in_axes: int | None | Sequence[Any] = 0,
    out_axes: Any = 0,
    axis_name: Hashable | None = None,
    axis_size: int | None = None,
) -> F:
    """Vectorises ``fun`` over axis ``in_axes`` of its arguments, stacking results along ``out_axes``.

    ``in_axes`` is an int, ``None`` (broadcast that argument) or a tuple with one entry per
    positional argument, each a pytree prefix of that argument. ``axis_name`` names the
    mapped axis for collectives (``lax.psum(x, axis_name)``); ``axis_size`` is needed only
    when no argument is mapped.
    """
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)  # JAX treats a top-level list like a tuple
    _check_axis_spec(in_axes, "in_axes")
    _check_axis_spec(out_axes, "out_axes")

    if not callable(fun):
        raise TypeError(f"Expected a callable value, got {fun}")
    f = cast(Callable[..., Any], fun)

    @functools.wraps(f)
    def vmap_f(*args: Any, **kwargs: Any) -> Any:
        if isinstance(in_axes, tuple) and len(in_axes) != len(args):
            raise ValueError(
                "vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional "
                f"arguments passed to the function, but got len(in_axes)={len(in_axes)}, len(args)={len(args)}"
            )
        leaves, in_tree = tree_flatten((args, kwargs))
        axes_spec = (in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(args), 0)
        try:
            dims: list[int | None] = broadcast_prefix(axes_spec, (args, kwargs), is_leaf=lambda x: x is None)
        except ValueError as e:
            raise ValueError(f"vmap in_axes specification must be a tree prefix of the corresponding value, got specification {in_axes} for value tree {in_tree}.") from e
        names = _arg_names(f, len(args))
        arg_of_leaf = [i for i, a in enumerate(args) for _ in range(len(tree_flatten(a)[0]))]
        for x, d in zip(leaves, dims):
            if d is None:
                continue
            nd = get_aval(x).ndim
            if not -nd <= d < nd:
                raise ValueError(
                    f"vmap was requested to map its argument along axis {d}, which implies that its rank "
                    f"should be at least {(d if d >= 0 else -d - 1) + 1}, but is only {nd} (its shape is {get_aval(x).shape})"
                )
        leaf_names = [names[i] if i < len(names) else "kwargs" for i in arg_of_leaf] + ["kwargs"] * (len(leaves) - len(arg_of_leaf))
        size = infer_axis_size(leaves, dims, axis_size, leaf_names)
        out_tree_box: list[PyTreeDef] = []

        def flat_fun(*flat: Any) -> list[Any]:
            a, k = tree_unflatten(in_tree, flat)
            out_leaves, out_tree = tree_flatten(f(*a, **k))
            out_tree_box.append(out_tree)
            return out_leaves

        def out_dims(n: int) -> list[int | None]:
            tree = out_tree_box[0]
            try:
                return broadcast_prefix(out_axes, tree_unflatten(tree, [0] * n), is_leaf=lambda x: x is None)
            except ValueError as e:
                raise ValueError(f"vmap out_axes specification must be a tree prefix of the corresponding value, got specification {out_axes} for value tree {tree}.") from e

        outs = vmap_flat(flat_fun, leaves, dims, out_dims, size, axis_name)
        return tree_unflatten(out_tree_box[0], outs)

    return cast(F, vmap_f)
