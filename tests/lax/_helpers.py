"""What the tests of jax_core._src.lax share: dtypes, inputs, value checks, jaxpr text, error cases,
and what the comparisons with JAX's recorded values need (also used by tests/scipy): the calls
recorded in ``tests/data/lax_special_jax.npz``, an elementwise tolerance check, and which CPU
target XLA compiles for.

Imported as ``tests.lax._helpers``: pytest's importlib mode imports ``tests`` and ``tests.lax`` as
namespace packages, so no ``__init__.py`` and no ``sys.path`` change is needed.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jax_core._src.runtime.dispatch  # noqa: F401  (installs eager evaluation)
from jax_core._src.typing.basearray import Array
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import ClosedJaxpr
from jax_core._src.interpreters.staging import DebugInfo, trace_to_jaxpr
from tests.oracle.client import Call, Outcome, evaluate, need, prefetch

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


# -- comparisons with values recorded from JAX on another machine ---------------------------------


def _parts(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """float64 values; a complex array as (..., 2) real and imaginary parts."""
    a = np.asarray(a)
    return np.stack([a.real, a.imag], -1).astype(np.float64) if a.dtype.kind == "c" else a.astype(np.float64)


def assert_within(got: np.ndarray[Any, Any], want: np.ndarray[Any, Any], bound: Any, what: str = "") -> None:
    """``got`` has ``want``'s dtype and shape, NaN and the same infinities where ``want`` has them,
    and ``|got - want| <= bound`` elsewhere (elementwise; real and imaginary parts separately).

    A bound of 0 asks for the exact value (``-0.0 == 0.0``). So does a non-finite one, which an
    error model gives where a function returns a special value (0, 1, inf) exactly.
    """
    label = f" for {what}" if what else ""
    assert (got.dtype, got.shape) == (want.dtype, want.shape), (
        f"got {got.dtype}{list(got.shape)}, JAX recorded {want.dtype}{list(want.shape)}{label}"
    )
    g, w = _parts(got), _parts(want)
    b = np.broadcast_to(np.asarray(bound, np.float64), want.shape)
    b = np.where(np.isfinite(b), b, 0.0)
    b = np.stack([b, b], -1) if want.dtype.kind == "c" else b
    with np.errstate(invalid="ignore"):
        ok = (g == w) | (np.isnan(g) & np.isnan(w)) | (np.isfinite(w) & (np.abs(g - w) <= b))
    if not ok.all():
        bad = np.argwhere(~ok)[:5].tolist()
        rows = "\n".join(f"  at {i}: got {g[tuple(i)]!r}, want {w[tuple(i)]!r}, allowed {b[tuple(i)]:.3g}" for i in bad)
        raise AssertionError(f"{int((~ok).sum())} of {ok.size} values outside the tolerance{label}:\n{rows}")


SPECIAL_DATA = Path(__file__).resolve().parent.parent / "data" / "lax_special_jax.npz"

# How tools/record_lax_special.py called each recorded function (the "module" of its call).
_SPECIAL_FORMS = {
    "lax": "lax.{fn}({args})",
    "grad0": "jax.vmap(jax.grad(lax.{fn}, 0))({args})",
    "grad1": "jax.vmap(jax.grad(lax.{fn}, 1))({args})",
    "vmap": "jax.vmap(lambda k: lax.{fn}(k, {kwargs}))({args})",
    "scipy": "jsp.special.{fn}({args})",
    "scipy_grad0": "jax.vmap(jax.grad(jsp.special.{fn}, 0))({args})",
    "scipy_grad1": "jax.vmap(jax.grad(jsp.special.{fn}, 1))({args})",
    "scipy_grads": "jax.vmap(jax.grad(jsp.special.{fn}, (0, 1)))({args})",
    "stats": "jsp.stats.{fn}({args})",
    "stats_grad": "jax.vmap(jax.grad(jsp.stats.{fn}))({args})",
}


def _keyword(name: str, value: Any) -> str:
    if name == "dtype":
        return f"{name}=np.dtype({value!r})"
    if name == "algorithm":
        return f"{name}=lax.RandomAlgorithm({value})"
    return f"{name}={tuple(value) if isinstance(value, list) else value!r}"


def special_call(data: Mapping[str, np.ndarray[Any, Any]], case: str) -> Call:
    """The call recorded as ``case`` in ``lax_special_jax.npz``, as an expression over its inputs
    ``arg0, arg1, ...`` that jax_core and JAX both evaluate. The recording ran with x64 enabled; the
    call enables it exactly when an input or output is 64-bit (float32 results do not depend on it)."""
    call = json.loads(str(data[f"{case}/call"]))
    inputs = {k.split("/")[1]: data[k] for k in sorted(data) if k.startswith(f"{case}/arg")}
    kwargs = ", ".join(_keyword(k, v) for k, v in call["kwargs"].items())
    form = _SPECIAL_FORMS[call["module"]]
    args = ", ".join(inputs) if "{kwargs}" in form else ", ".join([*inputs, *([kwargs] if kwargs else [])])
    expr = form.format(fn=call["fn"], args=args, kwargs=kwargs)
    arrays = [*inputs.values(), *special_outputs(data, case)]
    return Call(expr, inputs, x64=any(a.dtype.itemsize == 8 for a in arrays))


def prefetch_special(data: Mapping[str, np.ndarray[Any, Any]], cases: Sequence[str]) -> None:
    """Registers ``live_special``'s batch for the oracle's prefetch (at import of a test module)."""
    prefetch([special_call(data, c) for c in cases], sys._getframe(1).f_globals.get("__name__", ""))  # pyright: ignore[reportPrivateUsage]


def live_special(data: Mapping[str, np.ndarray[Any, Any]], cases: Sequence[str]) -> dict[str, Outcome]:
    """Real JAX's outcome of each recorded ``case`` on this machine (one oracle batch)."""
    need()
    return dict(zip(cases, evaluate([special_call(data, c) for c in cases]), strict=True))


def special_outputs(data: Mapping[str, np.ndarray[Any, Any]], case: str) -> list[np.ndarray[Any, Any]]:
    """JAX's outputs recorded for ``case`` (``out0``, ``out1``, ...)."""
    return [data[k] for k in sorted(data) if k.startswith(f"{case}/out")]


# Why jax_core's float32 igamma, igammac, igamma_grad_a, betainc and poisson.entropy are not bit
# for bit JAX's (on every CPU target): they go through lgamma, which jax_core lowers to chlo.lgamma
# for every dtype while JAX 0.12 lowers float16/bfloat16/float32 lgamma through its own
# lgamma_impl (jax/_src/lax/lgamma.py). chlo's float32 lgamma is a few ulp off (lgamma(3) =
# 0.69314742, JAX 0.69314718 = log 2).
LGAMMA_FLOAT32 = "float32 lgamma: jax_core lowers it to chlo.lgamma, JAX 0.12 to its own lgamma_impl"


def live_params(cases: Sequence[str], known: Mapping[str, tuple[bool, str]]) -> list[Any]:
    """``cases`` as pytest parameters for a bit-equality test against live JAX. A case listed in
    ``known`` as ``(everywhere, reason)`` is computed differently by jax_core: a strict xfail when it
    differs on every CPU target (a fix shows up as a failure), a plain xfail when whether it differs
    depends on the target (where XLA contracts a multiply-add into an FMA)."""
    return [
        pytest.param(c, id=c, marks=[pytest.mark.xfail(reason=known[c][1], strict=known[c][0])] if c in known else [])
        for c in cases
    ]
