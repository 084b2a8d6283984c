"""Bad input: the exception class and message JAX 0.12 gives (recorded in
``tests/data/random_errors.json``), for keys used as data, wrong key shapes and dtypes,
bad seeds, dtypes and sampler arguments."""

from __future__ import annotations

import json
import pathlib
import re
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import random

DATA = pathlib.Path(__file__).parent.parent / "data" / "random_errors.json"
CASES: list[dict[str, Any]] = json.loads(DATA.read_text())["cases"]
ENV: dict[str, Any] = {"jax": jax, "jnp": jnp, "np": np, "random": random}

# Where jax_core's message legitimately differs from JAX's, the part that must match
# (a regex), and why. Every other case must match class and message exactly.
DIFFERENT: dict[str, tuple[str, str]] = {
    # JAX lists the six PRNG implementations it registers; jax_core has threefry2x32, rbg, unsafe_rbg.
    "random.key(0, impl='foo')": (
        r'unrecognized PRNG implementation "foo"\. Did you mean one of: .*"threefry2x32", "rbg", "unsafe_rbg"',
        "impls",
    ),
    # lax's dtype messages (jax_core.lax words them its own way).
    "random.key(0) * random.key(0)": (r"mul does not accept dtype key<fry>", "lax"),
    "-random.key(0)": (
        r"neg does not accept dtype key<fry>\. Accepted dtypes are subtypes of",
        "lax",
    ),
    "random.uniform(random.key(0), (2,), minval=jnp.zeros(3))": (
        r"incompatible shapes for broadcasting",
        "lax",
    ),
    # jax_core.numpy's indexing message.
    "random.key(0)[0]": (r"Too many indices", "indexing"),
}
NOT_IMPLEMENTED: set[str] = set()


def _check_message(case: dict[str, Any], message: str) -> None:
    want: str = case["message"]
    if "for impl=PRNGImpl(" in want:
        # The impl's repr names function addresses: compare the rest.
        head, _, _ = want.partition("for impl=")
        assert message.startswith(
            head + "for impl=PRNGImpl(key_shape=(2,), seed=<function threefry_seed at "
        )
        assert message.endswith("name='threefry2x32', tag='fry')")
        return
    assert message == want


@pytest.mark.parametrize("case", CASES, ids=[c["expr"] for c in CASES])
def test_error_matches_jax(case: dict[str, Any]) -> None:
    expr = case["expr"]
    if case["error"] is None:
        if expr in NOT_IMPLEMENTED:
            with pytest.raises(NotImplementedError, match="is not implemented"):
                eval(expr, dict(ENV))
        else:
            eval(expr, dict(ENV))
        return
    with pytest.raises(Exception) as info:
        eval(expr, dict(ENV))
    assert type(info.value).__name__ == case["error"], str(info.value)
    if expr in DIFFERENT:
        assert re.search(DIFFERENT[expr][0], str(info.value)), str(info.value)
    else:
        _check_message(case, str(info.value))


def test_every_recorded_error_is_checked() -> None:
    exprs = {c["expr"] for c in CASES}
    assert set(DIFFERENT) <= exprs and NOT_IMPLEMENTED <= exprs
    assert len(CASES) >= 45


def test_arithmetic_on_keys_under_jit_and_vmap() -> None:
    k = random.key(0)
    with pytest.raises(TypeError, match=re.escape("add does not accept dtypes key<fry>, int32.")):
        jax.vmap(lambda k: k + 1)(random.split(k, 3))
    with pytest.raises(
        TypeError, match=re.escape("multiply does not accept dtypes key<fry>, float32.")
    ):
        jax.jit(lambda k: k * 2.0)(k)
    with pytest.raises(TypeError, match="key<fry>"):
        jax.jit(lambda k: jax.lax.add(k, k))(k)


def test_key_data_is_not_a_float() -> None:
    k = random.key(0)
    with pytest.raises(TypeError, match="convert_element_type does not accept dtype key<fry>"):
        jax.jit(lambda k: jax.lax.convert_element_type(k, jnp.float32))(k)
    with pytest.raises(TypeError, match="iteration over a 0-d key array"):
        iter(k)


def test_multivariate_normal_method() -> None:
    with pytest.raises(ValueError, match="method must be one of"):
        random.multivariate_normal(random.key(0), jnp.zeros(2), jnp.ones((2, 2)), method="qr")
    with pytest.raises(ValueError, match=r"requires cov.shape == \(\.\.\., n, n\)"):
        random.multivariate_normal(random.key(0), jnp.zeros(2), jnp.ones((3, 3)))
