"""``DTypeName`` (the names ``DTypeLike`` accepts) agrees with the runtime, both ways.

Every name in the ``Literal`` creates an array of the dtype ``np.dtype(name)`` names, and every
name or character code the runtime accepts (apart from byte-order-prefixed codes) is in it.
"""

from __future__ import annotations

import string
import typing
import warnings

import ml_dtypes
import numpy as np
import pytest

import jax_core.numpy as jnp
from jax_core._src import dtypes
from jax_core.typing import DTypeLike, DTypeName

NAMES: tuple[str, ...] = typing.get_args(DTypeName)


def _runtime_accepts(name: str) -> bool:
    try:
        dt = np.dtype(name)
    except TypeError:
        return False
    return dt in dtypes.PROMOTABLE_DTYPES


def _candidates() -> set[str]:
    """Every spelling NumPy knows: type names, aliases, character codes, sized codes."""
    names = {k for k in np.sctypeDict if isinstance(k, str)}
    names |= set(np.typecodes["All"])
    names |= {n for n in dir(ml_dtypes) if not n.startswith("_")}
    names |= {f"{c}{n}" for c in string.ascii_letters + "?" for n in (1, 2, 4, 8, 16)}
    return names


def test_names_are_unique() -> None:
    assert len(NAMES) == len(set(NAMES))


@pytest.mark.parametrize("name", NAMES)
def test_every_name_is_a_valid_user_dtype(name: DTypeName) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # 64-bit names truncate without x64
        got = dtypes.check_and_canonicalize_user_dtype(name, "zeros")
    assert got == dtypes.canonicalize_dtype(np.dtype(name))


@pytest.mark.parametrize("name", NAMES)
def test_every_name_creates_an_array_of_its_dtype(name: DTypeName) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        try:
            x = jnp.zeros(2, name)
        except NotImplementedError as e:  # the lowering lacks some ml_dtypes types
            pytest.xfail(str(e))
    assert x.dtype == dtypes.canonicalize_dtype(np.dtype(name))


def test_every_name_the_runtime_accepts_is_a_dtype_name() -> None:
    accepted = {name for name in _candidates() if _runtime_accepts(name)}
    assert sorted(accepted - set(NAMES)) == []


def test_every_dtype_name_is_accepted_by_the_runtime() -> None:
    assert sorted(n for n in NAMES if not _runtime_accepts(n)) == []


@pytest.mark.parametrize("name", ["flaot32", "f32", "bf16", "str", "U", "object", "float128"])
def test_misspelt_or_unsupported_names_fail_at_run_time(name: str) -> None:
    # What the Literal rejects statically also fails when run.
    assert name not in NAMES
    bad: typing.Any = name
    with pytest.raises(TypeError):
        jnp.zeros(2, bad)


def test_dtype_like_keeps_its_other_members() -> None:
    members = typing.get_args(DTypeLike)
    assert DTypeName in members and np.dtype[typing.Any] in members
