"""``einsum`` with contraction-path optimisation, and ``einsum_path``.

The contraction order comes from ``numpy.einsum_path`` at trace time (greedy by default,
``optimize="optimal"`` for the exhaustive search, ``False`` for left to right); each
pairwise contraction is one ``dot_general`` after summing out labels used by a single
operand and taking diagonals of repeated labels.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src.lax import elementwise as lax
from jax_core._src.numpy import shape as jshape
from jax_core._src.numpy.util import check_arraylike, ensure_array, hashable, jitted, promote_dtypes
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array

_LETTERS = string.ascii_letters


def _sublist_to_spec(args: Sequence[Any]) -> tuple[str, list[Any]]:
    """Converts the ``einsum(op0, sub0, op1, sub1, ..., [out])`` form to a subscripts string."""
    ops = list(args[0::2])
    subs = list(args[1::2])
    out_sub = None
    if len(ops) > len(subs):
        out_sub = ops.pop()  # the trailing output sublist sits in an operand slot

    def conv(sub: Sequence[Any]) -> str:
        s = ""
        for v in sub:
            s += "..." if v is Ellipsis else _LETTERS[int(v)]
        return s

    spec = ",".join(conv(s) for s in subs)
    if out_sub is not None:
        spec += "->" + conv(out_sub)
    return spec, ops


def _parse(spec: str, shapes: list[tuple[int, ...]]) -> tuple[list[str], str]:
    """Input label strings (ellipses expanded to unused letters) and the output labels."""
    spec = spec.replace(" ", "")
    if "->" in spec:
        lhs, out = spec.split("->")
        explicit = True
    else:
        lhs, out, explicit = spec, "", False
    ins = lhs.split(",")
    if len(ins) != len(shapes):
        raise ValueError(f"einsum: {len(ins)} subscripts for {len(shapes)} operands")
    used = set(spec) - {".", ",", "-", ">"}
    spare = [c for c in _LETTERS if c not in used]
    ell_rank = 0
    for term, shape in zip(ins, shapes):
        if "..." in term:
            ell_rank = max(ell_rank, len(shape) - (len(term) - 3))
    ell = "".join(spare[:ell_rank])
    expanded: list[str] = []
    for term, shape in zip(ins, shapes):
        if "..." in term:
            k = len(shape) - (len(term) - 3)
            term = term.replace("...", ell[ell_rank - k :] if k else "")
        if len(term) != len(shape):
            raise ValueError(f"einsum: operand has {len(shape)} dimensions but subscripts '{term}' name {len(term)}")
        expanded.append(term)
    if explicit:
        out = out.replace("...", ell)
    else:
        counts: dict[str, int] = {}
        for term in expanded:
            for c in term:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell))
    return expanded, out


def _diagonalize(x: Array, labels: str) -> tuple[Array, str]:
    """Takes the diagonal of every label repeated within one operand."""
    from jax_core._src.numpy.indexing_funcs import diagonal as staged_diagonal
    from jax_core._src.numpy.util import unstaged

    diagonal = unstaged(staged_diagonal)  # JAX's einsum takes diagonals without an inner jit

    while len(set(labels)) != len(labels):
        for i, c in enumerate(labels):
            j = labels.find(c, i + 1)
            if j >= 0:
                x = diagonal(x, 0, i, j)
                labels = labels[:i] + labels[i + 1 : j] + labels[j + 1 :] + c
                break
    return x, labels


def _sum_out(x: Array, labels: str, keep: set[str]) -> tuple[Array, str]:
    drop = tuple(i for i, c in enumerate(labels) if c not in keep)
    if not drop:
        return x, labels
    from jax_core._src.lax.reductions.reduce import reduce_sum

    if x.dtype == np.bool_:
        from jax_core._src.lax.reductions.reduce import reduce_or

        out = reduce_or(x, drop)
    else:
        out = reduce_sum(x, drop)
    return out, "".join(c for i, c in enumerate(labels) if i not in drop)


def _contract_pair(a: Array, la: str, b: Array, lb: str, keep: set[str], precision: Any, pet: DTypeLike | None) -> tuple[Array, str]:
    from jax_core._src.numpy.products import dot_general

    a, la = _sum_out(a, la, keep | set(lb))
    b, lb = _sum_out(b, lb, keep | set(la))
    batch = [c for c in la if c in lb and c in keep]
    contract = [c for c in la if c in lb and c not in keep]
    for c in batch + contract:
        if a.shape[la.index(c)] != b.shape[lb.index(c)]:
            a_s, b_s = a.shape[la.index(c)], b.shape[lb.index(c)]
            if a_s == 1:
                a = jshape.broadcast_to(a, tuple(b_s if k == la.index(c) else d for k, d in enumerate(a.shape)))
            elif b_s == 1:
                b = jshape.broadcast_to(b, tuple(a_s if k == lb.index(c) else d for k, d in enumerate(b.shape)))
            else:
                raise ValueError(f"einsum: size of label '{c}' differs between operands ({a_s} vs {b_s})")
    out = dot_general(
        a, b,
        (tuple(la.index(c) for c in contract), tuple(lb.index(c) for c in contract)),
        (tuple(la.index(c) for c in batch), tuple(lb.index(c) for c in batch)),
        precision, pet,
    )
    free_a = [c for c in la if c not in batch and c not in contract]
    free_b = [c for c in lb if c not in batch and c not in contract]
    return out, "".join(batch + free_a + free_b)


def _path(spec_in: list[str], out: str, shapes: list[tuple[int, ...]], optimize: Any) -> list[tuple[int, ...]]:
    n = len(shapes)
    if n <= 2 or optimize is False:
        return [(0, 1)] * (n - 1) if n >= 2 else []
    if isinstance(optimize, list):
        steps: list[Any] = optimize  # pyright: ignore[reportUnknownVariableType]
        return [tuple(p) for p in steps if p != "einsum_path"]
    mode = "optimal" if optimize == "optimal" else "greedy"
    dummies = [np.broadcast_to(np.zeros((), np.float32), s) for s in shapes]
    path, _ = np.einsum_path(",".join(spec_in) + "->" + out, *dummies, optimize=mode)
    return [tuple(p) for p in path[1:]]


def einsum(
    subscripts: Any,
    /,
    *operands: Any,
    out: None = None,
    optimize: str | bool | list[Any] = "auto",
    precision: Any = None,
    preferred_element_type: DTypeLike | None = None,
) -> Array:
    """Einstein summation (``einsum("ij,jk->ik", a, b)``), contracting in an optimised order."""
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.einsum is not supported.")
    if isinstance(subscripts, str):
        spec, ops = subscripts, list(operands)
    else:
        spec, ops = _sublist_to_spec((subscripts, *operands))
    if hashable(spec, optimize, precision, preferred_element_type):  # eagerly one executable
        out_: Array = _einsum_staged(ops, spec, optimize, precision, preferred_element_type)
        return out_
    return _einsum(ops, spec, optimize, precision, preferred_element_type)


def _einsum(ops: list[Any], spec: str, optimize: Any, precision: Any, preferred_element_type: DTypeLike | None) -> Array:
    check_arraylike("einsum", *ops)
    arrs = [ensure_array(a) for a in promote_dtypes(*ops)]
    labels, out_labels = _parse(spec, [a.shape for a in arrs])
    sizes: dict[str, int] = {}
    for k, (lab, a) in enumerate(zip(labels, arrs)):
        for c, d in zip(lab, a.shape):
            prev = sizes.setdefault(c, d)
            if d != prev and 1 not in (d, prev):
                raise ValueError(f"Size of label '{c}' for operand {k} ({prev}) does not match previous terms ({d}).")
            sizes[c] = max(prev, d)
    work: list[tuple[Array, str]] = [_diagonalize(a, lab) for a, lab in zip(arrs, labels)]
    for step in _path(labels, out_labels, [a.shape for a in arrs], optimize):
        picked = [work[i] for i in step]
        work = [w for i, w in enumerate(work) if i not in step]
        keep = set(out_labels).union(*(set(lab) for _, lab in work))
        if len(picked) == 1:
            work.append(_sum_out(picked[0][0], picked[0][1], keep))
            continue
        acc, lab = picked[0]
        for k in range(1, len(picked)):
            nxt, nlab = picked[k]
            later: set[str] = set()
            for _, lb in picked[k + 1 :]:
                later |= set(lb)
            acc, lab = _contract_pair(acc, lab, nxt, nlab, keep | later, precision, preferred_element_type)
        work.append((acc, lab))
    result, lab = work[0]
    result, lab = _sum_out(result, lab, set(out_labels))
    if len(work) > 1:
        raise ValueError("einsum: internal error, operands left after contraction")
    for c in out_labels:
        if c not in lab:
            raise ValueError(f"einsum: output subscript '{c}' does not appear in the inputs")
    perm = tuple(lab.index(c) for c in out_labels)
    if perm != tuple(range(len(perm))):
        result = jshape.transpose(result, perm)
    if preferred_element_type is not None and result.dtype != np.dtype(preferred_element_type):
        result = lax.convert_element_type(result, preferred_element_type)
    return result


_einsum_staged = jitted(static=("spec", "optimize", "precision", "preferred_element_type"))(_einsum)


def einsum_path(subscripts: str, /, *operands: ArrayLike, optimize: str | bool | list[Any] = "auto") -> tuple[list[Any], str]:
    """The contraction order ``einsum`` would use and a report (``numpy.einsum_path``'s format)."""
    check_arraylike("einsum_path", *operands)
    shapes = [jshape.shape(o) for o in operands]
    dummies = [np.broadcast_to(np.zeros((), np.float32), s) for s in shapes]
    mode: Any = "greedy" if optimize in ("auto", True, "greedy") else optimize
    path, report = np.einsum_path(subscripts, *dummies, optimize=mode)
    return list(path), str(report)
