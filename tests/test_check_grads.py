"""``jax_core.test_util.check_grads`` passes and fails where JAX's does (issue 24, item 4): the same
random directions, finite differences in each input's dtype, projection and tolerances. Each case
runs under both on this machine; the verdicts (and the first line of a failure) must be equal."""

from __future__ import annotations

import pytest

from tests.oracle.client import Call, assert_same, here, live_fixture, program_call

PROGRAM = """
import numpy as np
check_grads = __import__(jax.__name__ + ".test_util", fromlist=["_"]).check_grads
rng = np.random.RandomState(0)
x = jnp.asarray(rng.randn(50).astype(np.float32))
W = jnp.asarray(rng.randn(50, 50).astype(np.float32))
X = jnp.asarray(rng.randn(20, 5).astype(np.float32))
y = jnp.asarray(np.sign(rng.randn(20)).astype(np.float32))
w = jnp.asarray(rng.randn(5).astype(np.float32))
z = jnp.asarray((rng.randn(4) + 1j * rng.randn(4)).astype(np.complex64))
cases = {
    "exp": (lambda x: jnp.exp(x) * 3.0, (x,)),
    "tanh_mlp": (lambda x: jnp.tanh(W @ jnp.tanh(W @ x)), (x,)),
    "logsumexp": (lambda x: jnp.log(jnp.sum(jnp.exp(W @ x))), (x,)),
    "logistic_loss": (lambda w, b: jnp.mean(jnp.log1p(jnp.exp(-y * (X @ w + b)))), (w, 0.3)),
    "complex": (lambda z: jnp.sin(z) * z, (z,)),
    "python_scalar": (lambda t: jnp.sin(t) * t ** 3, (0.7,)),
    # real in, complex out (and back): the real part of the inner product, as JAX's
    "real_to_complex": (lambda t: jnp.exp(1j * t) * t, (x[:4],)),
    "complex_to_real": (lambda z: jnp.abs(z) ** 2 + jnp.real(z), (z,)),
}

def verdict(name, order, modes=("fwd", "rev"), **kw):
    f, args = cases[name]
    try:
        check_grads(f, args, order, modes=modes, **kw)
        return "ok"
    except AssertionError as e:
        return "FAIL " + str(e).strip().splitlines()[0]
"""

CASES = {
    f"{name}_{order}_{'_'.join(modes)}": f"verdict({name!r}, {order}, {modes!r})"
    for name in ("exp", "tanh_mlp", "logsumexp", "logistic_loss", "complex", "python_scalar", "real_to_complex", "complex_to_real")
    for order in (1, 2)
    for modes in (("fwd",), ("rev",))
}
CASES["strict_tolerance"] = "verdict('python_scalar', 1, atol=1e-12, rtol=1e-12)"


def _call(case: str) -> Call:
    return program_call(PROGRAM, CASES[case])


CALLS = [_call(c) for c in CASES]
live = live_fixture(CALLS)


@pytest.mark.parametrize("case", list(CASES))
def test_same_verdict_as_jax(case: str, live: dict[str, object]) -> None:
    call = _call(case)
    assert_same(here(call), live[call.expr], case, messages=True)  # type: ignore[arg-type]


def test_verdicts_without_the_oracle() -> None:
    import jax_core as jax
    import jax_core.numpy as jnp

    ns: dict[str, object] = {"jax": jax, "jnp": jnp}
    exec(PROGRAM, ns)  # noqa: S102
    verdict = ns["verdict"]
    # Errors accumulate over the 50 outputs: JAX's tolerance scales with the size, so this passes.
    assert verdict("exp", 2) == "ok"  # type: ignore[operator]
    assert verdict("logistic_loss", 2) == "ok"  # type: ignore[operator]
    assert verdict("python_scalar", 1, atol=1e-12, rtol=1e-12).startswith("FAIL")  # type: ignore[operator]
    assert verdict("real_to_complex", 2) == "ok"  # type: ignore[operator]
