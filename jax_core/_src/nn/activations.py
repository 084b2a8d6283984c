"""``jax_core.nn``'s elementwise activations, built from ``jnp``/``lax`` operations in JAX's order.

Each function is staged as JAX stages it: those JAX wraps in ``jit`` are one ``jit`` equation
(one executable eagerly), so the XLA program, and therefore every bit of the result, is the
same; ``gelu`` is not jitted in JAX and is not here. ``relu``, ``relu6`` and ``log1mexp`` are
``custom_jvp`` functions whose rules pick JAX's derivative at the kinks (``relu'(0) = 0``).
"""

from __future__ import annotations

import numpy as np

import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src.numpy.util import check_arraylike, ensure_array, jitted
from jax_core._src.scipy.special import promote_args_inexact
from jax_core._src.transforms.custom_derivatives import custom_jvp
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

__all__ = [
    "celu", "elu", "gelu", "glu", "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh",
    "identity", "leaky_relu", "log1mexp", "log_sigmoid", "mish", "relu", "relu6", "selu",
    "sigmoid", "silu", "soft_sign", "softplus", "sparse_plus", "sparse_sigmoid", "squareplus",
    "swish",
]  # fmt: skip

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def arraylike(name: str, x: ArrayLike) -> Array:
    """JAX's ``ensure_arraylike``: ``TypeError`` naming ``name`` for a list, else ``x`` as an array."""
    check_arraylike(name, x)
    return ensure_array(x)


@jitted(inline=False)
def identity(x: ArrayLike) -> Array:
    """The identity activation: returns ``x`` (as an array) unchanged."""
    return arraylike("identity", x)


@custom_jvp
@jitted(inline=False)
def relu(x: ArrayLike) -> Array:
    """Rectified linear unit ``max(x, 0)``; its derivative at 0 is taken to be 0."""
    return jnp.maximum(x, 0)


def _relu_tangent(g: Array, ans: Array, x: Array) -> Array:
    return lax.select(x > 0, g, lax.full_like(g, 0))


relu.defjvps(_relu_tangent)


@jitted(inline=False)
def squareplus(x: ArrayLike, b: ArrayLike = 4) -> Array:
    """Squareplus ``(x + sqrt(x**2 + b)) / 2`` (arXiv:2112.11687); ``b`` sets the smoothness."""
    check_arraylike("squareplus", x, b)
    xa, ba = ensure_array(x), ensure_array(b)
    y = xa + jnp.sqrt(jnp.square(xa) + ba)
    return y / 2


@jitted(inline=False)
def softplus(x: ArrayLike) -> Array:
    """Softplus ``log(1 + exp(x))``, computed as ``logaddexp(x, 0)``."""
    return jnp.logaddexp(x, 0)


@jitted(inline=False)
def sparse_plus(x: ArrayLike) -> Array:
    """Sparse plus: 0 for ``x <= -1``, ``(x + 1)**2 / 4`` on ``(-1, 1)``, ``x`` for ``x >= 1``."""
    xa = arraylike("sparse_plus", x)
    return jnp.where(xa <= -1.0, 0.0, jnp.where(xa >= 1.0, xa, (xa + 1.0) ** 2 / 4))


@jitted(inline=False)
def soft_sign(x: ArrayLike) -> Array:
    """Soft-sign ``x / (|x| + 1)``."""
    xa = arraylike("soft_sign", x)
    return xa / (jnp.abs(xa) + 1)


@jitted()
def sigmoid(x: ArrayLike) -> Array:
    """The logistic sigmoid ``1 / (1 + exp(-x))`` (``lax.logistic``)."""
    return lax.logistic(x)


@jitted(inline=False)
def sparse_sigmoid(x: ArrayLike) -> Array:
    """Sparse sigmoid ``clip((x + 1) / 2, 0, 1)``, the derivative of ``sparse_plus``."""
    return 0.5 * jnp.clip(x + 1.0, 0.0, 2.0)


@jitted(inline=False)
def silu(x: ArrayLike) -> Array:
    """SiLU (swish) ``x * sigmoid(x)``."""
    xa = arraylike("silu", x)
    return xa * sigmoid(xa)


swish = silu


@jitted(inline=False)
def mish(x: ArrayLike) -> Array:
    """Mish ``x * tanh(softplus(x))`` (arXiv:1908.08681)."""
    xa = arraylike("mish", x)
    return xa * jnp.tanh(softplus(xa))


@jitted(inline=False)
def log_sigmoid(x: ArrayLike) -> Array:
    """``log(sigmoid(x)) = -softplus(-x)``."""
    xa = arraylike("log_sigmoid", x)
    return -softplus(-xa)


@jitted(inline=False)
def elu(x: ArrayLike, alpha: ArrayLike = 1.0) -> Array:
    """Exponential linear unit: ``x`` for ``x > 0``, ``alpha * (exp(x) - 1)`` otherwise."""
    xa = arraylike("elu", x)
    return jnp.where(xa > 0, xa, alpha * jnp.expm1(jnp.where(xa > 0, 0.0, xa)))


@jitted(inline=False)
def leaky_relu(x: ArrayLike, negative_slope: ArrayLike = 1e-2) -> Array:
    """Leaky ReLU: ``x`` for ``x >= 0``, ``negative_slope * x`` otherwise."""
    xa = arraylike("leaky_relu", x)
    return jnp.where(xa >= 0, xa, negative_slope * xa)


@jitted(inline=False)
def hard_tanh(x: ArrayLike) -> Array:
    """Hard tanh: ``x`` clipped to ``[-1, 1]``."""
    xa = arraylike("hard_tanh", x)
    return jnp.where(xa > 1, 1, jnp.where(xa < -1, -1, xa))


@jitted(inline=False)
def celu(x: ArrayLike, alpha: ArrayLike = 1.0) -> Array:
    """Continuously differentiable ELU ``max(x, 0) + alpha * expm1(min(x, 0) / alpha)``."""
    return jnp.maximum(x, 0.0) + alpha * jnp.expm1(jnp.minimum(x, 0.0) / alpha)


@jitted(inline=False)
def selu(x: ArrayLike) -> Array:
    """Scaled ELU ``lambda * elu(x, alpha)`` with the self-normalising constants."""
    return _SELU_SCALE * elu(x, _SELU_ALPHA)


def gelu(x: ArrayLike, approximate: bool = True) -> Array:
    """Gaussian error linear unit: ``x * Phi(x)``, or (``approximate=True``, the default) its
    tanh approximation ``x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x**3)))``."""
    (xa,) = promote_args_inexact("gelu", x)
    if approximate:
        sqrt_2_over_pi = np.sqrt(2 / np.pi).astype(xa.dtype)
        cdf = 0.5 * (1.0 + jnp.tanh(sqrt_2_over_pi * (xa + 0.044715 * (xa**3))))
        return xa * cdf
    sqrt_half = np.sqrt(0.5).astype(xa.dtype)
    return jnp.array(0.5 * xa * lax.erfc(-xa * sqrt_half), dtype=xa.dtype)


@jitted(("axis",), inline=False)
def glu(x: ArrayLike, axis: int = -1) -> Array:
    """Gated linear unit: ``x`` split in two halves ``a, b`` along ``axis``, then ``a * sigmoid(b)``."""
    xa = arraylike("glu", x)
    size = xa.shape[axis]
    assert size % 2 == 0, "axis size must be divisible by 2"
    x1, x2 = jnp.split(xa, 2, axis)
    return x1 * sigmoid(x2)


@custom_jvp
@jitted(inline=False)
def relu6(x: ArrayLike) -> Array:
    """``min(max(x, 0), 6)``; its derivative is taken to be 0 at 0 and at 6."""
    return jnp.minimum(jnp.maximum(x, 0), 6.0)


def _relu6_tangent(g: Array, ans: Array, x: Array) -> Array:
    return lax.select((x > 0) & (x < 6), g, lax.full_like(g, 0))


relu6.defjvps(_relu6_tangent)


@jitted(inline=False)
def hard_sigmoid(x: ArrayLike) -> Array:
    """Hard sigmoid ``relu6(x + 3) / 6``."""
    return relu6(x + 3.0) / 6.0


@jitted(inline=False)
def hard_silu(x: ArrayLike) -> Array:
    """Hard SiLU (hard swish) ``x * hard_sigmoid(x)``."""
    xa = arraylike("hard_silu", x)
    return xa * hard_sigmoid(xa)


hard_swish = hard_silu


@custom_jvp
@jitted(inline=False)
def log1mexp(x: ArrayLike) -> Array:
    """``log(1 - exp(-x))`` computed stably (Maechler's split at ``log 2``); undefined for ``x < 0``."""
    xa = arraylike("log1mexp", x)
    c = jnp.log(2.0)
    return jnp.where(xa < c, jnp.log(-jnp.expm1(-xa)), jnp.log1p(-jnp.exp(-xa)))


def _log1mexp_tangent(g: Array, ans: Array, x: Array) -> Array:
    return g / jnp.expm1(x)


log1mexp.defjvps(_log1mexp_tangent)
