"""The differential conformance suite, the seed-fixed sample: jax_core and real JAX 0.12 evaluate
the same generated calls (tests/conformance/tables/, language in spec.py), each in its own worker
process, and every outcome must agree (value, dtype, weak type, shape, or the exception class) or be
a reviewed exclusion. The exhaustive run is ``make conformance-full``."""

from __future__ import annotations

import importlib
import inspect
import os
from typing import Any

import pytest

from tests.conformance import compare, spec, suite
from tests.conformance.runner import Result
from tests.conformance.tables import TABLES
from tests.oracle import client

SAMPLE = spec.sample(suite.all_cases(), suite.SAMPLE_FRACTION, suite.SAMPLE_SEED)
MODULES = list(dict.fromkeys(c.module for c in SAMPLE))


@pytest.fixture(scope="module")
def findings() -> list[suite.Finding]:
    """Live against real JAX where ``.venv-jax`` exists (``make test`` builds it and requires it);
    elsewhere against JAX's recorded outcomes of the same sample, floats within a tolerance."""
    if client.available():
        return suite.run(SAMPLE)
    if os.environ.get(client.MODE_ENV) == "require":
        client.need()  # fails: make test promised the oracle
    return suite.run(SAMPLE, recorded=True)


def test_the_recording_covers_the_sample() -> None:
    """The recorded mode has JAX's outcome for every sampled call (else: ``--record``)."""
    assert len(suite.load_recorded(SAMPLE)) == len(SAMPLE)


@pytest.mark.parametrize("module", MODULES)
def test_sample_agrees_with_jax(module: str, findings: list[suite.Finding]) -> None:
    open_ = [f for f in findings if f.case.module == module and f.excluded is None]
    assert not open_, f"{len(open_)} calls differ from JAX:\n" + "\n".join(
        f.describe() for f in open_[:25]
    )


_PUBLIC = {"numpy": "jax_core.numpy", "numpy.linalg": "jax_core.numpy.linalg",
           "numpy.fft": "jax_core.numpy.fft", "lax": "jax_core.lax", "random": "jax_core.random",
           "scipy.special": "jax_core.scipy.special", "scipy.linalg": "jax_core.scipy.linalg",
           "scipy.signal": "jax_core.scipy.signal"}  # fmt: skip


def _callables(module: Any) -> set[str]:
    return {
        n for n in dir(module)
        if not n.startswith("_") and callable(getattr(module, n))
        and not inspect.ismodule(getattr(module, n))
        and not (inspect.isclass(getattr(module, n)) and not _is_scalar_type(getattr(module, n)))
    }  # fmt: skip


def _is_scalar_type(obj: Any) -> bool:
    """jax_core's scalar types (``jnp.float32(x)`` makes an array); NumPy's abstract classes
    re-exported as they are (``jnp.floating``) are not calls to compare."""
    return hasattr(obj, "dtype") and callable(obj) and getattr(obj, "__module__", "") != "numpy"


@pytest.mark.parametrize("module", sorted(_PUBLIC))
def test_every_public_callable_is_generated(module: str) -> None:
    """Every public callable of the module has a line in its table, or a reason it has none."""
    (prefix, left_out) = next((p, n) for m, p, _, n in TABLES if m == module)
    names = {e.name.split(".")[0].split("(")[0] for m, e in suite.entries() if m == module}
    public = _callables(importlib.import_module(_PUBLIC[module]))
    missing = sorted(public - names - set(left_out))
    assert not missing, f"{prefix}: no table line and no reason for {missing}"
    stale = sorted((names | set(left_out)) - public)
    assert not stale, f"{prefix}: the table names what the module lacks: {stale}"


def test_exclusions_have_reasons_and_kinds() -> None:
    for rule in suite.exclusions():
        assert rule.kind in (*compare.KINDS, "*"), rule
        assert len(rule.reason) > 15, rule


def test_the_comparison_catches_each_kind() -> None:
    """The checker itself: each kind of difference is reported, and equal outcomes are not."""
    import numpy as np

    f32 = np.array([1.0, np.nan], np.float32)
    same = Result(leaves=(f32,), weak=(False,))
    assert compare.mismatch(same, same, 0) is None
    nudged = Result(leaves=(np.nextafter(f32, np.float32(2)),), weak=(False,))
    assert compare.mismatch(nudged, same, 0) == "value"
    assert compare.mismatch(nudged, same, 1) is None  # one ulp, within ~
    far = Result(leaves=(f32 * 1.001,), weak=(False,))
    assert compare.mismatch(far, same, 1) == "value"
    assert compare.mismatch(Result(leaves=(f32,), weak=(True,)), same, 0) == "weak"
    assert compare.mismatch(Result(leaves=(f32.astype(np.float16),), weak=(False,)), same, 0) == "dtype"
    assert compare.mismatch(Result(leaves=(f32[:1],), weak=(False,)), same, 0) == "shape"
    assert compare.mismatch(Result(leaves=(), weak=()), same, 0) == "structure"
    boom = Result(error="TypeError", message="")
    assert compare.mismatch(boom, same, 0) == "raises-here"
    assert compare.mismatch(same, boom, 0) == "raises-there"
    assert compare.mismatch(Result(error="ValueError"), boom, 0) == "error-class"
    assert compare.mismatch(Result(error="crash"), boom, 0) == "crash"
    neg0 = Result(leaves=(np.array([-0.0], np.float32),), weak=(False,))
    pos0 = Result(leaves=(np.array([0.0], np.float32),), weak=(False,))
    assert compare.mismatch(neg0, pos0, 0) == "value"
    ints = Result(leaves=(np.array([1, 2], np.int32),), weak=(False,))
    assert compare.mismatch(Result(leaves=(np.array([1, 3], np.int32),), weak=(False,)), ints, 8) == "value"


def test_the_generator_covers_what_the_issue_lists() -> None:
    """dtypes incl. bool/int8/uint/float16/bfloat16/complex, 0-d and empty shapes, Python and NumPy
    scalars, broadcasting pairs and every mode, for one binary function."""
    (entry,) = spec.parse("jnp", "add(a, a)")
    cases = list(spec.cases(entry, "numpy"))
    ids = " ".join(c.id for c in cases)
    for piece in ("bool[2,3]", "int8[2,3]", "uint32[2,3]", "float16[2,3]", "bfloat16[2,3]",
                  "complex64[2,3]", "float32[]", "float32[0]", "float32[9]!", "float32[2,1], float32[3]",
                  "2.5", "np.float32(2.5)", "int8[2,3], uint8[2,3]"):  # fmt: skip
        assert piece in ids, piece
    assert {c.mode for c in cases} == {"eager", "jit", "vmap", "grad"}
