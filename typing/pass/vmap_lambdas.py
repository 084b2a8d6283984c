"""vmap of lambdas, including ``*args`` lambdas (issue 15, class 6).

pyright's strict mode reports every lambda parameter it cannot infer (reportUnknownLambdaType
and the unknown arguments that follow), with JAX's annotations as with jax_core's: a lambda
passed to a transformation has no declared parameter types. Those reports are turned off for
this file only; what is checked here is that nothing else is reported, in any checker. (Under
a ParamSpec context pyright types ``*x`` as ``P.args`` and rejects ``g(*x)`` in every mode,
which is why ``vmap`` keeps its argument's type, as JAX annotates it; ``jit`` keeps ``P`` for its
typed wrapper, so ``jit(lambda *x: g(*x))`` still meets that under pyright: see docs/typing.md.)
"""
# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownVariableType=false

from __future__ import annotations

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array


def total(*xs: Array) -> Array:
    return jnp.stack(xs).sum(0)


def mul(a: Array, b: Array) -> Array:
    return a * b


xs = jnp.ones((2, 3))
summed = jax.vmap(lambda *x: total(*x))(xs, xs)  # E[pyrefly]: implicit-any-lambda
assert summed.shape == (2, 3)
scaled = jax.vmap(lambda a, b: mul(a, b), in_axes=(0, None))(xs, jnp.ones(3))  # E[pyrefly]: implicit-any-lambda
assert scaled.shape == (2, 3)
