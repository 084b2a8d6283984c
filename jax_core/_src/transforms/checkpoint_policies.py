"""The saveable policies ``checkpoint(policy=...)`` accepts (``jax.checkpoint_policies``).

A policy is called as ``policy(prim, *avals_in, **params)`` for each equation whose output
the backward pass needs, and answers whether that output may be saved (else it is
recomputed): a bool, ``Saveable``/``Recompute``, or ``Offloadable(src, dst)`` (which jax_core's
one-memory-space CPU arrays cannot honour: using it raises ``NotImplementedError``).
"""

from __future__ import annotations

from typing import Any as _Any

from jax_core._src.core.avals import ShapedArray as _ShapedArray
from jax_core._src.core.primitive import Primitive as _Primitive
from jax_core._src.interpreters import partial_eval as _pe
from jax_core._src.lax.ad_ops import name_p as _name_p

__all__ = [
    "checkpoint_dots",
    "checkpoint_dots_with_no_batch_dims",
    "dots_saveable",
    "dots_with_no_batch_dims_saveable",
    "everything_saveable",
    "nothing_saveable",
    "offload_dot_with_no_batch_dims",
    "save_and_offload_only_these_names",
    "save_any_names_but_these",
    "save_anything_except_these_names",
    "save_from_both_policies",
    "save_only_these_names",
]

_DOTS = frozenset({"dot_general", "conv_general_dilated"})


def everything_saveable(prim: _Primitive, *avals: _ShapedArray, **params: _Any) -> bool:
    """Save every intermediate (no rematerialisation)."""
    return True


def nothing_saveable(prim: _Primitive, *avals: _ShapedArray, **params: _Any) -> bool:
    """Save nothing but the inputs; recompute every intermediate (the default)."""
    return False


def dots_saveable(prim: _Primitive, *avals: _ShapedArray, **params: _Any) -> bool:
    """Save the results of matrix multiplications and convolutions (``dot_general``,
    ``conv_general_dilated``); recompute the rest."""
    return prim.name in _DOTS


checkpoint_dots = dots_saveable


def _is_unbatched_dot(prim: _Primitive, params: dict[str, _Any]) -> bool:
    if prim.name != "dot_general":
        return False
    (_, _), (lhs_batch, rhs_batch) = params["dimension_numbers"]
    return not lhs_batch and not rhs_batch


def dots_with_no_batch_dims_saveable(prim: _Primitive, *avals: _ShapedArray, **params: _Any) -> bool:
    """Save the results of ``dot_general`` without batch dimensions; recompute the rest (a
    heuristic for transformers)."""
    return _is_unbatched_dot(prim, params)


checkpoint_dots_with_no_batch_dims = dots_with_no_batch_dims_saveable


def offload_dot_with_no_batch_dims(offload_src: str, offload_dst: str) -> _pe.SaveablePolicy:
    """``dots_with_no_batch_dims_saveable``, offloading those results to memory space
    ``offload_dst`` instead of saving them (jax_core: raises ``NotImplementedError`` when used)."""

    def policy(prim: _Primitive, *avals: _ShapedArray, **params: _Any) -> _pe.RematCase:
        return _pe.Offloadable(offload_src, offload_dst) if _is_unbatched_dot(prim, params) else _pe.Recompute

    return policy


def save_anything_except_these_names(*names_not_to_save: str) -> _pe.SaveablePolicy:
    """Save every value, the named ones included (JAX 0.12 ignores ``names_not_to_save``)."""
    return everything_saveable


def save_any_names_but_these(*names: str) -> _pe.SaveablePolicy:
    """Save every value tagged with ``checkpoint_name`` except those named in ``names``."""
    excluded = frozenset(names)

    def policy(prim: _Primitive, *avals: _ShapedArray, **params: _Any) -> bool:
        return prim is _name_p and params["name"] not in excluded

    return policy


def save_only_these_names(*names: str) -> _pe.SaveablePolicy:
    """Save only values tagged with ``checkpoint_name(x, name)`` for one of ``names``."""
    chosen = frozenset(names)

    def policy(prim: _Primitive, *avals: _ShapedArray, **params: _Any) -> bool:
        return prim is _name_p and params["name"] in chosen

    return policy


def save_and_offload_only_these_names(
    *,
    names_which_can_be_saved: _Any,
    names_which_can_be_offloaded: _Any,
    offload_src: str,
    offload_dst: str,
) -> _pe.SaveablePolicy:
    """``save_only_these_names``, also offloading the values named in
    ``names_which_can_be_offloaded`` (jax_core: raises ``NotImplementedError`` when one is)."""
    saved = set(names_which_can_be_saved)
    offloaded = set(names_which_can_be_offloaded)
    both = saved & offloaded
    if both:
        raise ValueError(
            "The names should be exclusive and should not intersect in `names_which_can_be_saved` and "
            f"`names_which_can_be_offloaded`. Got names_which_can_be_saved={saved}, "
            f"names_which_can_be_offloaded={offloaded} and the intersection={both}"
        )

    def policy(prim: _Primitive, *avals: _ShapedArray, **params: _Any) -> _pe.RematCase:
        if prim is _name_p and params["name"] in saved:
            return _pe.Saveable
        if prim is _name_p and params["name"] in offloaded:
            return _pe.Offloadable(offload_src, offload_dst)
        return _pe.Recompute

    return policy


def save_from_both_policies(policy_1: _pe.SaveablePolicy, policy_2: _pe.SaveablePolicy) -> _pe.SaveablePolicy:
    """Save what either policy saves (both must answer with bools)."""
    if policy_1 is everything_saveable or policy_2 is everything_saveable:
        return everything_saveable
    if policy_1 is nothing_saveable:
        return policy_2
    if policy_2 is nothing_saveable:
        return policy_1

    def policy(prim: _Primitive, *avals: _ShapedArray, **params: _Any) -> bool:
        out1 = policy_1(prim, *avals, **params)
        out2 = policy_2(prim, *avals, **params)
        if not (isinstance(out1, bool) and isinstance(out2, bool)):
            raise ValueError(
                f"The return value of the policies should be a boolean. Got: {out1} and {out2}. Please write a "
                "custom policy function directly, rather than using this helper function."
            )
        return out1 or out2

    return policy
