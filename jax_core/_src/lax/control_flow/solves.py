"""Solves differentiated implicitly: ``custom_linear_solve`` (the ``custom_linear_solve``
primitive, JAX's ``linear_solve_p``) and ``custom_root``.

``custom_linear_solve(matvec, b, solve)`` returns ``solve(matvec, b)`` and differentiates it by
assuming ``matvec(x) == b``: the tangent of ``x`` is another solve, of ``b_dot - matvec_dot(x)``,
and the transpose solves with ``transpose_solve`` and the transposed operator (``vecmat``). The
four functions are staged into jaxprs whose constants are leading operands.

``custom_root(f, initial_guess, solve, tangent_solve)`` returns ``solve(f, initial_guess)`` and
differentiates it by the implicit function theorem at the root: with ``f(p, x*) = 0``,
``x*_dot = -(d_x f)^-1 (d_p f . p_dot)``, the inverse applied with ``tangent_solve``. It is the
``custom_root`` primitive here, whose jvp rule evaluates that formula with ordinary operations
(so reverse mode linearizes and transposes them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import ClosedJaxpr, eval_jaxpr
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad import jvp_flat, transpose_jaxpr
from jax_core._src.interpreters.ad_util import (
    Zero,
    add_tangents,
    instantiate_zeros,
    is_undefined_primal,
    tangent_aval,
)
from jax_core._src.interpreters.batching import batch_jaxpr
from jax_core._src.interpreters.batching_util import axis_size, bdim_at_front, moveaxis
from jax_core._src.lax.control_flow.common import batch_axis_name, split, trace_fun
from jax_core._src.lax.elementwise import neg
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext, lower_jaxpr_body
from jax_core._src.tree.tree_util import PyTreeDef, tree_flatten, tree_leaves, tree_unflatten


class LinearSolveTuple[T](NamedTuple):
    """One value per function of a linear solve (``const_lengths``, ``jaxprs`` params)."""

    matvec: T
    vecmat: T
    solve: T
    transpose_solve: T

    def transpose(self) -> LinearSolveTuple[T]:
        """The same values for the transposed system (matvec <-> vecmat, solve <-> transpose)."""
        return LinearSolveTuple(self.vecmat, self.matvec, self.transpose_solve, self.solve)


# The name JAX prints for the params.
LinearSolveTuple.__name__ = LinearSolveTuple.__qualname__ = "_LinearSolveTuple"

_Jaxprs = LinearSolveTuple[ClosedJaxpr | None]
_Lengths = LinearSolveTuple[int]


def check_tree(
    func_name: str, expected_name: str, actual: PyTreeDef, expected: PyTreeDef, has_aux: bool = False
) -> None:
    """JAX's check that a traced function returns ``expected``'s structure (``(out, aux)`` with aux)."""
    if has_aux:
        children = actual.children()
        if len(children) != 2:
            raise ValueError(
                f"{func_name}() produced a pytree with structure {actual}, but a pytree tuple "
                "with auxiliary output was expected because has_aux was set to True."
            )
        actual = children[0]
    if actual != expected:
        raise TypeError(
            f"{func_name}() output pytree structure must match {expected_name}, "
            f"got {actual} and {expected}."
        )


def _check_shapes(func_name: str, expected_name: str, actual: Sequence[Any], expected: Sequence[Any]) -> None:
    actual_shapes = [np.shape(x) for x in actual]
    expected_shapes = [np.shape(x) for x in expected]
    if actual_shapes != expected_shapes:
        raise ValueError(
            f"{func_name}() output shapes must match {expected_name}, "
            f"got {actual_shapes} and {expected_shapes}"
        )


def _shape_checked(fun: Callable[[Any], Any], name: str, b_leaves: Sequence[Any], has_aux: bool) -> Callable[[Any], Any]:
    def checked(x: Any) -> Any:
        y = fun(x)
        _check_shapes(name, "b", tree_leaves(y[0] if has_aux else y), b_leaves)
        return y

    return checked


def custom_linear_solve(
    matvec: Callable[[Any], Any],
    b: Any,
    solve: Callable[[Callable[[Any], Any], Any], Any],
    transpose_solve: Callable[[Callable[[Any], Any], Any], Any] | None = None,
    symmetric: bool = False,
    has_aux: bool = False,
) -> Any:
    """A matrix-free linear solve differentiated implicitly: ``solve(matvec, b)``, with
    derivatives computed as if the result ``x`` satisfied ``matvec(x) == b``.

    ``matvec`` must be linear (and differentiable); ``solve(matvec, v)`` must solve
    ``matvec(x) == v`` and need not be differentiable. ``transpose_solve(vecmat, v)`` solves the
    transposed system (``vecmat`` is ``matvec``'s transpose, computed automatically); it is
    required for reverse mode unless ``symmetric=True`` (then ``solve`` serves). With
    ``has_aux`` the solvers return ``(x, aux)``. ``b`` may be any pytree of arrays.
    """
    if transpose_solve is None and symmetric:
        transpose_solve = solve
    b_leaves, tree = tree_flatten(b)
    b_avals = [get_aval(x) for x in b_leaves]
    _, args_tree = tree_flatten((b,))

    matvec_jaxpr, matvec_consts, out_tree = trace_fun(
        _shape_checked(matvec, "matvec", b_leaves, False), args_tree, b_avals, "custom_linear_solve"
    )
    check_tree("matvec", "b", out_tree, tree)

    def solve_with(solver: Callable[[Callable[[Any], Any], Any], Any], op: Callable[[Any], Any]) -> Callable[[Any], Any]:
        return lambda x: solver(op, x)

    solve_jaxpr, solve_consts, solve_tree = trace_fun(
        _shape_checked(solve_with(solve, matvec), "solve", b_leaves, has_aux),
        args_tree,
        b_avals,
        "custom_linear_solve solve",
    )
    check_tree("solve", "b", solve_tree, tree, has_aux)

    vecmat_jaxpr: ClosedJaxpr | None = None
    tr_solve_jaxpr: ClosedJaxpr | None = None
    vecmat_consts: list[Any] = []
    tr_solve_consts: list[Any] = []
    if transpose_solve is not None:
        if symmetric:
            vecmat = matvec
            vecmat_jaxpr, vecmat_consts = matvec_jaxpr, matvec_consts
        else:
            n = len(matvec_consts)
            vecmat_jaxpr = transpose_jaxpr(matvec_jaxpr, [False] * n + [True] * len(b_leaves))
            vecmat_consts = matvec_consts
            transposed = vecmat_jaxpr

            def transposed_matvec(x: Any) -> Any:
                outs = eval_jaxpr(transposed.jaxpr, transposed.consts, *matvec_consts, *tree_leaves(x))
                return tree_unflatten(tree, outs)

            vecmat = transposed_matvec
        tr_solve_jaxpr, tr_solve_consts, tr_tree = trace_fun(
            _shape_checked(solve_with(transpose_solve, vecmat), "transpose_solve", b_leaves, has_aux),
            args_tree,
            b_avals,
            "custom_linear_solve transpose_solve",
        )
        check_tree("transpose_solve", "b", tr_tree, tree, has_aux)

    all_consts = [matvec_consts, vecmat_consts, solve_consts, tr_solve_consts]
    lengths = LinearSolveTuple(*(len(c) for c in all_consts))
    jaxprs: _Jaxprs = LinearSolveTuple(matvec_jaxpr, vecmat_jaxpr, solve_jaxpr, tr_solve_jaxpr)
    out = linear_solve_p.bind(
        *(c for cs in all_consts for c in cs), *b_leaves, const_lengths=lengths, jaxprs=jaxprs
    )
    return tree_unflatten(solve_tree, out)


def _split_args(args: Sequence[Any], lengths: _Lengths) -> tuple[LinearSolveTuple[list[Any]], list[Any]]:
    parts = split(args, list(lengths))
    return LinearSolveTuple(*parts[:4]), parts[4]


def _flatten(params: LinearSolveTuple[list[Any]]) -> list[Any]:
    return [x for p in params for x in p]


def _solve_jaxpr(jaxprs: _Jaxprs) -> ClosedJaxpr:
    assert jaxprs.solve is not None
    return jaxprs.solve


def _linear_solve_abstract_eval(*avals: ShapedArray, const_lengths: _Lengths, jaxprs: _Jaxprs) -> list[ShapedArray]:
    b = list(avals[sum(const_lengths) :])
    solve_out = _solve_jaxpr(jaxprs).out_avals
    return b + list(solve_out[len(b) :])


def _linear_solve_impl(*args: Any, const_lengths: _Lengths, jaxprs: _Jaxprs) -> list[Any]:
    params, b = _split_args(args, const_lengths)
    solve = _solve_jaxpr(jaxprs)
    return eval_jaxpr(solve.jaxpr, solve.consts, *params.solve, *b)


def _linear_solve_lower(
    ctx: LoweringRuleContext, *args: ir.Value[ir.Type], const_lengths: _Lengths, jaxprs: _Jaxprs
) -> list[ir.Value[ir.Type]]:
    params, b = _split_args(args, const_lengths)
    solve = _solve_jaxpr(jaxprs)
    assert not solve.consts
    return lower_jaxpr_body(solve.jaxpr, [], [*params.solve, *b])


def _linear_solve_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, const_lengths: _Lengths, jaxprs: _Jaxprs
) -> tuple[list[Any], list[Any]]:
    # A x = b  =>  A x_dot = b_dot - A_dot x
    x = linear_solve_p.bind(*primals, const_lengths=const_lengths, jaxprs=jaxprs)
    params, b = _split_args(primals, const_lengths)
    params_dot, b_dot = _split_args(tangents, const_lengths)
    x_leaves = x[: len(b)]
    rhs = list(b_dot)
    if not all(isinstance(t, Zero) for t in params_dot.matvec):
        matvec = jaxprs.matvec
        assert matvec is not None
        zeros = [Zero(tangent_aval(get_aval(v))) for v in x_leaves]
        _, matvec_dot = jvp_flat(
            lambda *a: eval_jaxpr(matvec.jaxpr, matvec.consts, *a),
            [*params.matvec, *x_leaves],
            [*params_dot.matvec, *zeros],
        )
        rhs = [r if isinstance(m, Zero) else add_tangents(r, neg(m)) for r, m in zip(rhs, matvec_dot)]
    rhs = [instantiate_zeros(t) for t in rhs]
    x_dot = linear_solve_p.bind(*_flatten(params), *rhs, const_lengths=const_lengths, jaxprs=jaxprs)
    aux_dot = [Zero(tangent_aval(get_aval(a))) for a in x[len(b) :]]
    return list(x), [*x_dot[: len(b)], *aux_dot]


def _linear_solve_transpose(
    cts: Sequence[Any], *primals: Any, const_lengths: _Lengths, jaxprs: _Jaxprs
) -> list[Any]:
    if jaxprs.transpose_solve is None:
        raise TypeError(
            "transpose_solve required for backwards mode automatic differentiation of "
            "custom_linear_solve"
        )
    params, b = _split_args(primals, const_lengths)
    if any(is_undefined_primal(p) for ps in params for p in ps):
        raise NotImplementedError(
            "custom_linear_solve is not linear in the constants its functions close over; "
            "only the right-hand side b can be transposed"
        )
    x_ct, aux_ct = cts[: len(b)], cts[len(b) :]
    if any(not isinstance(ct, Zero) for ct in aux_ct):
        raise NotImplementedError(
            "custom_linear_solve cannot transpose with respect to its auxiliary outputs"
        )
    x_ct = [instantiate_zeros(ct) for ct in x_ct]
    b_ct = linear_solve_p.bind(
        *_flatten(params.transpose()),
        *x_ct,
        const_lengths=const_lengths.transpose(),
        jaxprs=jaxprs.transpose(),
    )
    return [None] * sum(const_lengths) + list(b_ct[: len(b)])


def _batch_or_none(
    closed: ClosedJaxpr | None, size: int, in_batched: list[bool], instantiate: list[bool] | bool
) -> tuple[ClosedJaxpr | None, list[bool]]:
    if closed is None:
        return None, []
    return batch_jaxpr(closed, size, in_batched, instantiate, batch_axis_name())


def _linear_solve_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, const_lengths: _Lengths, jaxprs: _Jaxprs
) -> tuple[list[Any], list[int | None]]:
    size = axis_size(args, dims)
    params, b = _split_args(args, const_lengths)
    params_dims, b_dims = _split_args(dims, const_lengths)
    p_bat = LinearSolveTuple(*([d is not None for d in ds] for ds in params_dims))
    orig_b_bat = [d is not None for d in b_dims]
    solve = _solve_jaxpr(jaxprs)
    n_x = len(b)
    num_aux = len(solve.out_avals) - n_x
    # Fixpoint: which of x and b end up batched, given the operators and solvers.
    b_bat = list(orig_b_bat)
    x_bat = [False] * len(solve.out_avals)
    batched: _Jaxprs | None = None
    solve_x_bat: list[bool] = []
    for _ in range(2 + len(b) + len(solve.out_avals)):
        solve_b, solve_x_bat = batch_jaxpr(solve, size, p_bat.solve + b_bat, x_bat, batch_axis_name())
        vecmat_b, vecmat_x_bat = _batch_or_none(jaxprs.vecmat, size, p_bat.vecmat + b_bat, b_bat)
        x_bat_out = (
            solve_x_bat
            if vecmat_b is None
            else [v or s for v, s in zip(vecmat_x_bat + [True] * num_aux, solve_x_bat)]
        )
        matvec = jaxprs.matvec
        assert matvec is not None
        matvec_b, matvec_b_bat = batch_jaxpr(
            matvec, size, p_bat.matvec + x_bat_out[:n_x], b_bat, batch_axis_name()
        )
        tr_b, tr_out_bat = _batch_or_none(
            jaxprs.transpose_solve, size, p_bat.transpose_solve + x_bat_out[:n_x], x_bat_out
        )
        tr_b_bat = tr_out_bat[:n_x] if tr_b is not None else [False] * n_x
        b_bat_out = [m or s or o for m, s, o in zip(matvec_b_bat, tr_b_bat, orig_b_bat)]
        batched = LinearSolveTuple(matvec_b, vecmat_b, solve_b, tr_b)
        if x_bat_out == x_bat and b_bat_out == b_bat:
            break
        x_bat, b_bat = x_bat_out, b_bat_out
    else:
        raise AssertionError("custom_linear_solve batching: no fixpoint")
    assert batched is not None
    new_params = [
        x if d is None else moveaxis(x, d, 0) for x, d in zip(_flatten(params), _flatten(params_dims))
    ]
    new_b = [
        bdim_at_front(x, d, size) if now else x for x, d, now in zip(b, b_dims, b_bat)
    ]
    outs = linear_solve_p.bind(*new_params, *new_b, const_lengths=const_lengths, jaxprs=batched)
    return list(outs), [0 if bat else None for bat in solve_x_bat]


def _linear_solve_pp(params: dict[str, Any]) -> list[tuple[str, Any]]:
    return [("const_lengths", params["const_lengths"]), ("jaxprs", params["jaxprs"])]


linear_solve_p: Primitive = Primitive("custom_linear_solve", multiple_results=True)
linear_solve_p.def_rules(
    Rules(
        abstract_eval=_linear_solve_abstract_eval,
        lower=_linear_solve_lower,
        impl=_linear_solve_impl,
        jvp=_linear_solve_jvp,
        transpose=_linear_solve_transpose,
        batch=_linear_solve_batch,
        pp=_linear_solve_pp,
    )
)


# -- custom_root -------------------------------------------------------------------------------
class _RootJaxprs(NamedTuple):
    f: ClosedJaxpr
    solve: ClosedJaxpr
    l_and_s: ClosedJaxpr


def custom_root(
    f: Callable[[Any], Any],
    initial_guess: Any,
    solve: Callable[[Callable[[Any], Any], Any], Any],
    tangent_solve: Callable[[Callable[[Any], Any], Any], Any],
    has_aux: bool = False,
) -> Any:
    """Differentiably solves for a root of ``f``: ``solve(f, initial_guess)``, differentiated
    with respect to the values ``f`` closes over by the implicit function theorem.

    ``f`` maps a pytree to one of the same structure; ``solve(f, x0)`` returns ``x`` with
    ``f(x) == 0`` (with ``has_aux``: ``(x, aux)``; aux gets zero derivatives);
    ``tangent_solve(g, y)`` solves the linear system ``g(x) == y`` for ``g`` the linearization
    of ``f`` at the root (for scalars: ``lambda g, y: y / g(1.0)``).
    """
    guess_leaves, tree = tree_flatten(initial_guess)
    guess_avals = [get_aval(x) for x in guess_leaves]
    _, args_tree = tree_flatten((initial_guess,))
    f_jaxpr, f_consts, f_tree = trace_fun(f, args_tree, guess_avals, "custom_root")
    check_tree("f", "initial_guess", f_tree, tree)
    def solve_f(x: Any) -> Any:
        return solve(f, x)

    solve_jaxpr, solve_consts, solution_tree = trace_fun(solve_f, args_tree, guess_avals, "custom_root solve")
    check_tree("solve", "initial_guess", solution_tree, tree, has_aux)

    def linearize_and_solve(x: Any, b: Any) -> Any:
        x_leaves = tree_leaves(x)

        def f_jvp(v: Any) -> Any:
            _, out = jvp_flat(
                lambda *xs: tree_leaves(f(tree_unflatten(tree, list(xs)))), x_leaves, tree_leaves(v)
            )
            return tree_unflatten(tree, [instantiate_zeros(t) for t in out])

        return tangent_solve(f_jvp, b)

    _, pair_tree = tree_flatten((initial_guess, initial_guess))
    ls_jaxpr, ls_consts, ls_tree = trace_fun(
        linearize_and_solve, pair_tree, [*guess_avals, *(tangent_aval(a) for a in guess_avals)], "custom_root tangent_solve"
    )
    check_tree("tangent_solve", "x", ls_tree, tree)
    lengths = (len(f_consts), len(solve_consts), len(ls_consts))
    out = custom_root_p.bind(
        *f_consts,
        *solve_consts,
        *ls_consts,
        *guess_leaves,
        const_lengths=lengths,
        jaxprs=_RootJaxprs(f_jaxpr, solve_jaxpr, ls_jaxpr),
    )
    return tree_unflatten(solution_tree, out)


def _root_split(args: Sequence[Any], lengths: tuple[int, int, int]) -> list[list[Any]]:
    return split(args, list(lengths))


def _root_abstract_eval(*avals: ShapedArray, const_lengths: tuple[int, int, int], jaxprs: _RootJaxprs) -> list[ShapedArray]:
    return list(jaxprs.solve.out_avals)


def _root_impl(*args: Any, const_lengths: tuple[int, int, int], jaxprs: _RootJaxprs) -> list[Any]:
    _, solve_consts, _, guess = _root_split(args, const_lengths)
    return eval_jaxpr(jaxprs.solve.jaxpr, jaxprs.solve.consts, *solve_consts, *guess)


def _root_lower(
    ctx: LoweringRuleContext, *args: ir.Value[ir.Type], const_lengths: tuple[int, int, int], jaxprs: _RootJaxprs
) -> list[ir.Value[ir.Type]]:
    _, solve_consts, _, guess = _root_split(args, const_lengths)
    return lower_jaxpr_body(jaxprs.solve.jaxpr, [], [*solve_consts, *guess])


def _root_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, const_lengths: tuple[int, int, int], jaxprs: _RootJaxprs
) -> tuple[list[Any], list[Any]]:
    # f(p, x*(p)) = 0  =>  x*_dot = -(d_x f)^-1 (d_p f . p_dot), the inverse by tangent_solve.
    sol = custom_root_p.bind(*primals, const_lengths=const_lengths, jaxprs=jaxprs)
    f_consts, _, ls_consts, _ = _root_split(primals, const_lengths)
    f_dot = _root_split(tangents, const_lengths)[0]
    n = len(jaxprs.f.out_avals)
    solution, aux = list(sol[:n]), list(sol[n:])
    aux_dot = [Zero(tangent_aval(get_aval(a))) for a in aux]
    if all(isinstance(t, Zero) for t in f_dot):
        return list(sol), [Zero(tangent_aval(get_aval(s))) for s in solution] + aux_dot
    fj = jaxprs.f
    _, rhs = jvp_flat(
        lambda *ps: eval_jaxpr(fj.jaxpr, fj.consts, *ps, *solution), f_consts, f_dot
    )
    rhs = [instantiate_zeros(t) for t in rhs]
    ls = jaxprs.l_and_s
    sol_dot = eval_jaxpr(ls.jaxpr, ls.consts, *ls_consts, *solution, *rhs)
    return list(sol), [neg(t) for t in sol_dot] + aux_dot


def _root_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, const_lengths: tuple[int, int, int], jaxprs: _RootJaxprs
) -> tuple[list[Any], list[int | None]]:
    # Every solution is batched (a batched root may depend on any batched value).
    size = axis_size(args, dims)
    name = batch_axis_name()
    f_b, s_b, l_b, g_b = (
        [d is not None for d in ds] for ds in _root_split(dims, const_lengths)
    )
    n = len(g_b)
    f_jaxpr, _ = batch_jaxpr(jaxprs.f, size, f_b + [True] * n, True, name)
    solve_jaxpr, _ = batch_jaxpr(jaxprs.solve, size, s_b + [True] * n, True, name)
    ls_jaxpr, _ = batch_jaxpr(jaxprs.l_and_s, size, l_b + [True] * (2 * n), True, name)
    f_c, s_c, l_c, guess = _root_split(args, const_lengths)
    f_d, s_d, l_d, g_d = _root_split(dims, const_lengths)
    front = [x if d is None else moveaxis(x, d, 0) for x, d in zip([*f_c, *s_c, *l_c], [*f_d, *s_d, *l_d])]
    guess = [bdim_at_front(x, d, size) for x, d in zip(guess, g_d)]
    outs = custom_root_p.bind(
        *front, *guess, const_lengths=const_lengths, jaxprs=_RootJaxprs(f_jaxpr, solve_jaxpr, ls_jaxpr)
    )
    return list(outs), [0] * len(outs)


def _root_pp(params: dict[str, Any]) -> list[tuple[str, Any]]:
    return [("solve_jaxpr", params["jaxprs"].solve)]


custom_root_p: Primitive = Primitive("custom_root", multiple_results=True)
custom_root_p.def_rules(
    Rules(
        abstract_eval=_root_abstract_eval,
        lower=_root_lower,
        impl=_root_impl,
        jvp=_root_jvp,
        batch=_root_batch,
        pp=_root_pp,
    )
)
