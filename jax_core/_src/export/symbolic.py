"""Shape polymorphism in exports: argument specs with symbolic shapes, the dimension variables an
export solves for, and the concrete shapes of a call.

The symbolic-dimension algebra itself (``symbolic_shape``, the normal forms and the decision
procedure, solving dimension variables from argument shapes) is ``core/shape_poly``: avals hold
symbolic dimensions, so it sits below them.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, cast

from jax_core._src.core.avals import ShapedArray, ShapeDtypeStruct
from jax_core._src.core.shape_poly import (
    INT_ARITH,
    DimSize,
    DimVarSolution,
    SymbolicScope,
    is_symbolic_dim,
    solve_dim_vars,
    symbolic_shape,
)
from jax_core._src.core.trace import get_aval
from jax_core._src.tree.errors import prefix_errors
from jax_core._src.tree.paths import keystr
from jax_core._src.tree.tree_util import (
    KeyPath,
    PyTreeDef,
    tree_flatten,
    tree_flatten_with_path,
    tree_unflatten,
)


def path_str(path: KeyPath) -> str:
    """``args[1]['a']`` / ``kwargs['k']`` for a path into ``(args, kwargs)``."""
    if not path:
        return "args and kwargs"
    head = "args" if getattr(path[0], "idx", None) == 0 else "kwargs"
    return head + keystr(tuple(path[1:]))


def arg_names(in_tree: PyTreeDef) -> list[str]:
    """How messages name each flat argument of ``(args, kwargs)``."""
    paths = tree_flatten_with_path(tree_unflatten(in_tree, [0] * in_tree.num_leaves))[0]
    return [path_str(path) for path, _ in paths]


def is_polymorphic(avals: Sequence[ShapedArray]) -> bool:
    """Whether some aval has a symbolic dimension."""
    return any(is_symbolic_dim(d) for a in avals for d in a.shape)


@functools.lru_cache(maxsize=256)
def _solution(shapes: tuple[tuple[DimSize, ...], ...], names: tuple[str, ...]) -> DimVarSolution:
    return solve_dim_vars(shapes, names)


def polymorphic_solution(in_avals: Sequence[ShapedArray], in_tree: PyTreeDef) -> DimVarSolution | None:
    """The dimension variables of arguments with symbolic shapes, solved from the arguments'
    sizes (with the shape assertions a call must satisfy); ``None`` when every shape is static."""
    if not is_polymorphic(in_avals):
        return None
    return _solution(tuple(tuple(a.shape) for a in in_avals), tuple(arg_names(in_tree)))


def concrete_out_avals(
    in_avals: Sequence[ShapedArray], out_avals: Sequence[ShapedArray], in_tree: PyTreeDef, call_avals: Sequence[ShapedArray]
) -> list[ShapedArray]:
    """The results' avals of a call of a shape-polymorphic export with ``call_avals``: the
    dimension variables are computed from the call's shapes (JAX's errors when they violate the
    specification) and substituted into the exported result shapes."""
    solution = polymorphic_solution(in_avals, in_tree)
    if solution is None:
        return [ShapedArray(a.shape, a.dtype, a.weak_type) for a in out_avals]
    if is_polymorphic(call_avals):
        raise NotImplementedError(
            "jax_core cannot call a shape-polymorphic exported function with symbolic argument shapes "
            "(inside another shape-polymorphic export); call it with concrete shapes."
        )
    shapes = [tuple(int(d) for d in a.shape) for a in call_avals]
    env = solution.check_concrete(shapes)
    return [ShapedArray(tuple(_evaluate(d, env) for d in a.shape), a.dtype, a.weak_type) for a in out_avals]


def _evaluate(d: DimSize, env: dict[str, int]) -> int:
    return d.evaluate(env, INT_ARITH) if is_symbolic_dim(d) else int(d)


def _shape_and_dtype(a: Any) -> tuple[Sequence[int | None], Any]:
    if hasattr(a, "shape") and hasattr(a, "dtype"):
        return tuple(a.shape), a.dtype
    aval = get_aval(a)
    return aval.shape, aval.dtype


def symbolic_args_specs(
    args: Any,
    shapes_specs: Any,
    constraints: Sequence[str] = (),
    scope: SymbolicScope | None = None,
) -> Any:
    """A pytree of ``ShapeDtypeStruct`` like ``args`` (arrays or ``ShapeDtypeStruct``s), with the
    shapes ``shapes_specs`` gives: ``None`` (static shapes), one specification string for every
    argument, or a pytree prefix of ``args`` of them. ``_`` and ``...`` in a specification take
    the argument's own sizes."""
    args_flat, args_tree = tree_flatten(args)
    shapes_and_dtypes = [_shape_and_dtype(a) for a in args_flat]
    # As JAX: a list of specifications for a tuple of arguments is read as a tuple.
    specs: Any = tuple(cast("list[Any]", shapes_specs)) if isinstance(args, tuple) and isinstance(shapes_specs, list) else shapes_specs  # type: ignore[redundant-cast]

    def is_none(x: Any) -> bool:
        return x is None

    errors = prefix_errors(specs, args, is_leaf=is_none)
    if errors:
        raise errors[0]("export.symbolic_args_specs shapes_specs")
    spec_leaves, spec_tree = tree_flatten(specs, is_leaf=is_none)
    flat_specs: list[Any] = []
    for spec, subtree in zip(spec_leaves, spec_tree.flatten_up_to(args), strict=True):
        flat_specs.extend([spec] * len(tree_flatten(subtree)[0]))
    if scope is None:
        scope = SymbolicScope(constraints)
    elif constraints:
        raise ValueError("Cannot use both `scope` and `constraints`")
    out = [
        ShapeDtypeStruct(symbolic_shape(spec, like=shape, scope=scope), dtype)
        for (shape, dtype), spec in zip(shapes_and_dtypes, flat_specs, strict=True)
    ]
    return tree_unflatten(args_tree, out)
