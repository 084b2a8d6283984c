"""What the tests of jax_core._src.lax share: dtypes, inputs, value checks, jaxpr text, error cases.

Imported as ``tests.lax._helpers``: pytest's importlib mode imports ``tests`` and ``tests.lax`` as
namespace packages, so no ``__init__.py`` and no ``sys.path`` change is needed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

import jax_core._src.runtime.dispatch  # noqa: F401  (installs eager evaluation)
from jax_core._src.basearray import Array
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import ClosedJaxpr
from jax_core._src.interpreters.staging import DebugInfo, trace_to_jaxpr

F32, F16, I32, I8, U8, BOOL = (
    np.dtype(t) for t in (np.float32, np.float16, np.int32, np.int8, np.uint8, np.bool_)
)
DTYPES = [F32, I32, BOOL]

# (test id, call, JAX's exception class, JAX's exact message)
ErrorCase = tuple[str, Callable[[], object], type[Exception], str]


def arange(shape: Sequence[int], dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    """0, 1, 2, ... in ``shape`` (alternating False, True for bool)."""
    n = int(np.prod(shape, dtype=np.int64))
    values = np.arange(n) % 2 == 1 if dtype == BOOL else np.arange(n)
    return np.asarray(values, dtype).reshape(shape)


def check(out: Array, expected: np.ndarray[Any, Any], *, rtol: float | None = None) -> None:
    """``out`` is an Array of ``expected``'s dtype and shape, equal to it (or within ``rtol``)."""
    assert isinstance(out, Array)
    got = np.asarray(out)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if rtol is None:
        np.testing.assert_array_equal(got, expected)
    else:
        np.testing.assert_allclose(got, expected, rtol=rtol)


def make_jaxpr(
    fun: Callable[..., Any], *avals: ShapedArray | tuple[tuple[int, ...], np.dtype[Any]]
) -> ClosedJaxpr:
    """Stages ``fun`` as ``jax.make_jaxpr`` does; ``fun`` returns an array or a list/tuple of them.

    Each aval is a ShapedArray or a ``(shape, dtype)`` pair.
    """

    def flat(*args: Any) -> list[Any]:
        out = fun(*args)
        return list(out) if isinstance(out, (list, tuple)) else [out]

    in_avals = [a if isinstance(a, ShapedArray) else ShapedArray(*a) for a in avals]
    return trace_to_jaxpr(flat, in_avals, DebugInfo("make_jaxpr", None))


def jaxpr_text(fun: Callable[..., Any], *avals: tuple[tuple[int, ...], np.dtype[Any]]) -> str:
    """``str(jax.make_jaxpr(fun)(...))``: the text compared with the strings recorded from JAX."""
    return str(make_jaxpr(fun, *avals))


def errors_test(cases: Sequence[ErrorCase]) -> Callable[..., None]:
    """A test that each case's call raises JAX's exception class with exactly JAX's message.

    Parametrized over ``cases`` with each case's name as its id. A test module binds it as
    ``test_errors = errors_test(ERRORS)``, and pytest collects it there under that name.
    """

    @pytest.mark.parametrize(
        ("call", "exc", "msg"), [c[1:] for c in cases], ids=[c[0] for c in cases]
    )
    def test_errors(call: Callable[[], object], exc: type[Exception], msg: str) -> None:
        with pytest.raises(exc, match=f"^{re.escape(msg)}$"):
            call()

    return test_errors
