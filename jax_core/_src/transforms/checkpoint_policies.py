"""The saveable policies ``checkpoint(policy=...)`` accepts (``jax.checkpoint_policies``).

A policy is called as ``policy(prim, *avals_in, **params)`` for each equation whose output
the backward pass needs, and answers whether that output may be saved (else it is
recomputed).
"""

from __future__ import annotations

from typing import Any

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive
from jax_core._src.interpreters.partial_eval import SaveablePolicy
from jax_core._src.lax.ad_ops import name_p

__all__ = [
    "checkpoint_dots",
    "dots_with_no_batch_dims_saveable",
    "everything_saveable",
    "nothing_saveable",
    "save_any_names_but_these",
    "save_only_these_names",
]


def everything_saveable(prim: Primitive, *avals: ShapedArray, **params: Any) -> bool:
    """Save every intermediate (no rematerialisation)."""
    return True


def nothing_saveable(prim: Primitive, *avals: ShapedArray, **params: Any) -> bool:
    """Save nothing but the inputs; recompute every intermediate (the default)."""
    return False


def checkpoint_dots(prim: Primitive, *avals: ShapedArray, **params: Any) -> bool:
    """Save the results of matrix multiplications (``dot_general``); recompute the rest."""
    return prim.name == "dot_general"


def dots_with_no_batch_dims_saveable(prim: Primitive, *avals: ShapedArray, **params: Any) -> bool:
    """Save the results of ``dot_general`` without batch dimensions; recompute the rest."""
    if prim.name != "dot_general":
        return False
    (_, _), (lhs_batch, rhs_batch) = params["dimension_numbers"]
    return not lhs_batch and not rhs_batch


def save_only_these_names(*names: str) -> SaveablePolicy:
    """Save only values tagged with ``checkpoint_name(x, name)`` for one of ``names``."""
    chosen = frozenset(names)

    def policy(prim: Primitive, *avals: ShapedArray, **params: Any) -> bool:
        return prim is name_p and params["name"] in chosen

    return policy


def save_any_names_but_these(*names: str) -> SaveablePolicy:
    """Save every value tagged with ``checkpoint_name`` except those named in ``names``."""
    excluded = frozenset(names)

    def policy(prim: Primitive, *avals: ShapedArray, **params: Any) -> bool:
        return prim is name_p and params["name"] not in excluded

    return policy
