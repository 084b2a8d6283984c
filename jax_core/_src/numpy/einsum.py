"""``einsum`` with contraction-path optimisation, and ``einsum_path``.

The contraction order is the one JAX gets from opt_einsum (our own port of its exhaustive
``"optimal"`` search, used for ``"auto"`` up to four operands; NumPy's greedy search beyond);
each step follows JAX's ``_einsum``: labels used by a single operand summed out, repeated
labels masked to their diagonal and summed, then one ``dot_general`` with the operands in the
order that avoids a transpose.
"""

from __future__ import annotations

import builtins
import collections
import functools
import itertools
import string
from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.trace import get_aval
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.elementwise.conversions import convert_element_type_p
from jax_core._src.lax.shape import dimensions as shape_dims
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
            raise ValueError(f"Einstein sum subscript '{term}' does not contain the correct number of indices for operand {len(expanded)}.")
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


def _flops(labels: frozenset[str], inner: bool, num_terms: int, sizes: dict[str, int]) -> int:
    """opt_einsum's cost model: the size of the index space times ``max(1, terms - 1)``, plus one
    if some index is summed away."""
    size = 1
    for c in labels:
        size *= sizes[c]
    return size * (builtins.max(1, num_terms - 1) + (1 if inner else 0))


def _optimal_ssa(inputs: list[frozenset[str]], output: frozenset[str], sizes: dict[str, int]) -> tuple[tuple[int, ...], ...]:
    """The exhaustive depth-first search opt_einsum's ``"optimal"`` runs (the path JAX takes for
    up to four operands): every pair in the order Python's ``itertools.combinations`` visits a
    set of ids, a path kept only when strictly cheaper, pair results cached by their two label
    sets. Ids are static single assignment: a contraction's result takes the next new id."""
    best: list[Any] = [float("inf"), (tuple(range(len(inputs))),)]
    cache: dict[tuple[frozenset[str], frozenset[str]], tuple[frozenset[str], int]] = {}

    def search(path: tuple[tuple[int, ...], ...], remaining: set[int], sets: tuple[frozenset[str], ...], flops: int) -> None:
        if len(remaining) == 1:
            best[0], best[1] = flops, path
            return
        for i, j in itertools.combinations(remaining, 2):
            i, j = (j, i) if i > j else (i, j)
            key = (sets[i], sets[j])
            if key not in cache:
                keep = output.union(*(sets[r] for r in remaining - {i, j}))
                either = sets[i] | sets[j]
                cache[key] = (either & keep, _flops(either, bool((sets[i] & sets[j]) - keep), 2, sizes))
            k12, cost = cache[key]
            total = flops + cost
            if total >= best[0]:
                continue
            search(path + ((i, j),), remaining - {i, j} | {len(sets)}, sets + (k12,), total)

    search((), set(range(len(inputs))), tuple(inputs), 0)
    found: tuple[tuple[int, ...], ...] = best[1]
    return found


def _ssa_to_linear(ssa_path: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Static single assignment ids as positions in the shrinking operand list (results last)."""
    live = list(range(builtins.sum(len(p) for p in ssa_path) - len(ssa_path) + 1))
    out: list[tuple[int, ...]] = []
    fresh = len(live)
    for step in ssa_path:
        pos = sorted(live.index(k) for k in step)
        for q in reversed(pos):
            live.pop(q)
        live.append(fresh)
        fresh += 1
        out.append(tuple(pos))
    return out


def _path(spec_in: list[str], out: str, sizes: dict[str, int], optimize: Any) -> list[tuple[int, ...]]:
    """The contraction path JAX gets from opt_einsum: ``False`` left to right, an explicit list as
    given, two operands at once; the ``"optimal"`` search for ``True``/``"optimal"`` and for
    ``"auto"`` with up to four operands; otherwise NumPy's greedy search."""
    n = len(spec_in)
    if optimize is False:
        return [(0, 1)] * (n - 1)
    if isinstance(optimize, list):
        steps: list[Any] = optimize  # pyright: ignore[reportUnknownVariableType]
        return [tuple(p) for p in steps if p != "einsum_path"]
    if n <= 2:
        return [tuple(range(n))]
    inputs = [frozenset(lab) for lab in spec_in]
    if optimize in (True, "optimal") or (optimize == "auto" and n <= 4):
        return _ssa_to_linear(_optimal_ssa(inputs, frozenset(out), sizes))
    dummies = [np.broadcast_to(np.zeros((), np.float32), tuple(sizes[c] for c in lab)) for lab in spec_in]
    path, _ = np.einsum_path(",".join(spec_in) + "->" + out, *dummies, optimize="greedy")
    return [tuple(p) for p in path[1:]]


def _contractions(labels: list[str], out: str, path: list[tuple[int, ...]]) -> list[tuple[tuple[int, ...], list[str], str, list[str]]]:
    """Each step as opt_einsum's ``contract_path`` describes it: the positions (highest first), the
    input label strings, the result labels (the output at the last step, else in order of first
    appearance in the inputs) and the sorted labels summed away."""
    terms = list(labels)
    steps: list[tuple[tuple[int, ...], list[str], str, list[str]]] = []
    for k, pos in enumerate(path):
        order = tuple(sorted(pos, reverse=True))
        picked = [terms.pop(q) for q in order]
        contracted = set("".join(picked))
        kept = set(out).union(*terms) & contracted
        joined = "".join(picked)
        result = out if k == len(path) - 1 else "".join(sorted(kept, key=joined.find))
        terms.append(result)
        steps.append((order, picked, result, sorted(contracted - kept)))
    return steps


def _reduce_axes(x: Array, axes: Sequence[int], pet: np.dtype[Any]) -> Array:
    from jax_core._src.lax.reductions.reduce import reduce_or, reduce_sum

    if dtypes.result_type(x, pet) != x.dtype:
        x = lax.convert_element_type(x, pet)
    return reduce_or(x, tuple(axes)) if x.dtype == np.bool_ else reduce_sum(x, tuple(axes))


def _sum_uniques(x: Array, names: str, uniques: Sequence[str], pet: np.dtype[Any]) -> tuple[Array, str]:
    if not uniques:
        return x, names
    x = _reduce_axes(x, [names.index(c) for c in uniques], pet)
    return x, "".join(c for c in names if c not in uniques)


def _sum_repeats(x: Array, names: str, keep: str, pet: np.dtype[Any]) -> tuple[Array, str]:
    """Labels repeated within one operand: masked to their diagonal by a delta of iotas and summed,
    down to one axis when the label is kept, as JAX does."""
    from jax_core._src.lax.shape import assembly

    for c, count in collections.Counter(names).items():
        if count < 2:
            continue
        axes = [i for i, n in enumerate(names) if n == c]
        base = tuple(x.shape[i] for i in axes)
        iotas = [assembly.broadcasted_iota(np.uint32, base, i) for i in range(len(base))]
        eye = functools.reduce(lax.bitwise_and, [lax.eq(a, b) for a, b in zip(iotas[:-1], iotas[1:])])
        mask = shape_dims.broadcast_in_dim(eye, x.shape, tuple(axes))
        x = lax.select(mask, x, jshape.broadcast_to(np.zeros((), x.dtype), x.shape))
        if c not in keep:
            x, names = _reduce_axes(x, axes, pet), names.replace(c, "")
        else:
            x, names = _reduce_axes(x, axes[:-1], pet), names.replace(c, "", count - 1)
    return x, names


def _squeeze_broadcast(x: Array, names: str, other_shape: tuple[int, ...], other: str) -> tuple[Array, str]:
    """Drops size-1 axes whose label the other operand has with a larger size (broadcasting)."""
    drop = [i for i, c in enumerate(names) if x.shape[i] == 1 and c in other and other_shape[other.find(c)] != 1]
    if not drop:
        return x, names
    return shape_dims.squeeze(x, tuple(drop)), "".join(c for i, c in enumerate(names) if i not in drop)


def _contract_two(lhs: Array, ln: str, rhs: Array, rn: str, result: str, removed: list[str], precision: Any, pet: np.dtype[Any]) -> tuple[Array, str]:
    from jax_core._src.numpy.products import dot_general

    lhs, ln = _squeeze_broadcast(lhs, ln, rhs.shape, rn)
    rhs, rn = _squeeze_broadcast(rhs, rn, lhs.shape, ln)
    lc, rc = collections.Counter(ln), collections.Counter(rn)
    lhs, ln = _sum_uniques(lhs, ln, [c for c in removed if lc[c] == 1 and rc[c] == 0], pet)
    rhs, rn = _sum_uniques(rhs, rn, [c for c in removed if rc[c] == 1 and lc[c] == 0], pet)
    lhs, ln = _sum_repeats(lhs, ln, result + rn, pet)
    rhs, rn = _sum_repeats(rhs, rn, result + ln, pet)
    contracted = [c for c in removed if c in set(ln) | set(rn)]
    batch = [c for c in result if c in ln and c in rn]
    for c in contracted + batch:
        if lhs.shape[ln.index(c)] != rhs.shape[rn.index(c)]:
            raise ValueError(f"einsum: size of label '{c}' differs between operands ({lhs.shape[ln.index(c)]} vs {rhs.shape[rn.index(c)]})")
    gone = set(batch) | set(contracted)
    rest_l, rest_r = "".join(c for c in ln if c not in gone), "".join(c for c in rn if c not in gone)
    l_dims = (tuple(ln.index(c) for c in contracted), tuple(ln.index(c) for c in batch))
    r_dims = (tuple(rn.index(c) for c in contracted), tuple(rn.index(c) for c in batch))
    names = "".join(batch) + rest_r + rest_l
    if names == result:  # (rhs, lhs) first: opt_einsum contracts right to left, so no transpose
        return dot_general(rhs, lhs, (r_dims[0], l_dims[0]), (r_dims[1], l_dims[1]), precision, pet), names
    names = "".join(batch) + rest_l + rest_r
    return dot_general(lhs, rhs, (l_dims[0], r_dims[0]), (l_dims[1], r_dims[1]), precision, pet), names


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
            sizes[c] = builtins.max(prev, d)
    for c in out_labels:
        if c not in sizes:
            raise ValueError(f"Output character '{c}' did not appear in the input")
    if preferred_element_type is None:
        pet, weak = dtypes.dtype(arrs[0].dtype), all(get_aval(a).weak_type for a in arrs)
    else:
        pet, weak = dtypes.check_and_canonicalize_user_dtype(preferred_element_type, "einsum"), False
    work: list[Array] = list(arrs)
    for order, names_in, result, removed in _contractions(labels, out_labels, _path(labels, out_labels, sizes, optimize)):
        if len(order) == 1:
            x, names = work.pop(order[0]), names_in[0]
            counts = collections.Counter(names)
            x, names = _sum_uniques(x, names, [c for c in removed if counts[c] == 1], pet)
            x, names = _sum_repeats(x, names, result, pet)
        elif len(order) == 2:
            lhs, rhs = work.pop(order[0]), work.pop(order[1])
            x, names = _contract_two(lhs, names_in[0], rhs, names_in[1], result, removed, precision, pet)
        else:
            raise NotImplementedError(
                "jax.numpy.einsum does not support simultaneous contraction of 3 or more operands. "
                "Typically this means you've passed an unsupported path to the einsum optimize parameter."
            )
        if names != result:
            x = jshape.transpose(x, tuple(names.index(c) for c in result))
        work.append(x)
    res = work[0]
    if res.dtype != pet or get_aval(res).weak_type != weak:
        res = convert_element_type_p.bind(res, new_dtype=pet, weak_type=weak)
    return res


_einsum_staged = jitted(static=("spec", "optimize", "precision", "preferred_element_type"))(_einsum)


def einsum_path(subscripts: str, /, *operands: ArrayLike, optimize: str | bool | list[Any] = "auto") -> tuple[list[Any], str]:
    """The contraction order ``einsum`` would use and a report (``numpy.einsum_path``'s format)."""
    check_arraylike("einsum_path", *operands)
    shapes = [jshape.shape(o) for o in operands]
    dummies = [np.broadcast_to(np.zeros((), np.float32), s) for s in shapes]
    mode: Any = "greedy" if optimize in ("auto", True, "greedy") else optimize
    path, report = np.einsum_path(subscripts, *dummies, optimize=mode)
    return list(path), str(report)
