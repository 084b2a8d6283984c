"""The public lax functions: thin, typed wrappers that bind primitives.

lax is strict, as in JAX: elementwise binary ops need equal shapes and dtypes
(use ``jax_core.numpy`` for broadcasting and type promotion).
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.interpreters import array_ops
from jax_core._src.lax.elementwise import conversions as _convert
from jax_core._src.lax.elementwise import definitions as _ew
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array

_PY_SCALARS = (bool, int, float, builtins.complex)
_PY_SCALAR_FOR_KIND: dict[str, type[Any]] = {"b": bool, "i": int, "u": int, "f": float, "c": builtins.complex}


def _bind(prim: Any, *args: Any, **params: Any) -> Array:
    out: Array = prim.bind(*args, **params)
    return out


def to_dtype(operand: ArrayLike, new_dtype: DTypeLike | None, weak_type: bool = False) -> ArrayLike:
    """Converts ``operand`` to ``new_dtype`` (the operand's own if ``None``) and ``weak_type``.

    Python and NumPy constants are converted on the host where possible (so under a trace
    they stay jaxpr literals); other operands go through ``convert_element_type``.
    """
    if isinstance(operand, _PY_SCALARS) or isinstance(operand, (np.ndarray, np.generic)):
        dtype = dtypes.canonicalize_dtype(new_dtype) if new_dtype is not None else dtypes.dtype(operand, canonicalize=True)
        if isinstance(operand, _PY_SCALARS):
            py_type = _PY_SCALAR_FOR_KIND.get(dtype.kind)
            if weak_type and py_type is not None and dtypes.dtype(py_type(0), canonicalize=True) == dtype:
                scalar: bool | int | float | builtins.complex = py_type(
                    operand.real if isinstance(operand, builtins.complex) and py_type is not builtins.complex else operand
                )
                return scalar
        if not weak_type:
            return np.asarray(operand).astype(dtype)[()] if np.ndim(operand) == 0 else np.asarray(operand).astype(dtype)
    aval = get_aval(operand)
    dtype = aval.dtype if new_dtype is None else dtypes.canonicalize_dtype(new_dtype)
    if isinstance(operand, Array) and aval.dtype == dtype and aval.weak_type == weak_type:
        return operand
    return _bind(_convert.convert_element_type_p, operand, new_dtype=dtype, weak_type=bool(weak_type))


def convert_element_type(operand: ArrayLike, new_dtype: DTypeLike) -> Array:
    """Converts ``operand`` to ``new_dtype`` elementwise (like a C cast; to bool compares with 0)."""
    out = to_dtype(operand, new_dtype, False)
    return out if isinstance(out, Array) else _bind(_convert.convert_element_type_p, out, new_dtype=dtypes.canonicalize_dtype(new_dtype), weak_type=False)


def integer_pow(x: ArrayLike, y: int) -> Array:
    """Elementwise power with a static integer exponent: x**y."""
    return _bind(_ew.integer_pow_p, x, y=int(y))


def round(x: ArrayLike, rounding_method: int = 0) -> Array:
    """Elementwise rounding: half away from zero (0) or half to even (1)."""
    return _bind(_ew.round_p, x, rounding_method=int(rounding_method))


def select_n(which: ArrayLike, *cases: ArrayLike) -> Array:
    """Selects ``cases[which]`` elementwise (``which`` bool or integer)."""
    return _bind(_ew.select_n_p, which, *cases)


def select(pred: ArrayLike, on_true: ArrayLike, on_false: ArrayLike) -> Array:
    """Selects ``on_true`` where ``pred`` is true, else ``on_false``."""
    return _bind(_ew.select_n_p, pred, on_false, on_true)


def is_traced(x: object) -> bool:
    """Whether ``x`` is a tracer."""
    return isinstance(x, Tracer)


def neg(x: ArrayLike, /) -> Array:
    """Elementwise negation: -x."""
    return _bind(_ew.neg_p, x)


def sign(x: ArrayLike, /) -> Array:
    """Elementwise sign."""
    return _bind(_ew.sign_p, x)


def floor(x: ArrayLike, /) -> Array:
    """Elementwise floor."""
    return _bind(_ew.floor_p, x)


def ceil(x: ArrayLike, /) -> Array:
    """Elementwise ceiling."""
    return _bind(_ew.ceil_p, x)


def is_finite(x: ArrayLike, /) -> Array:
    """Elementwise ``isfinite``."""
    return _bind(_ew.is_finite_p, x)


def abs(x: ArrayLike, /) -> Array:
    """Elementwise absolute value."""
    return _bind(_ew.abs_p, x)


def exp(x: ArrayLike, /) -> Array:
    """Elementwise exponential: e**x."""
    return _bind(_ew.exp_p, x)


def exp2(x: ArrayLike, /) -> Array:
    """Elementwise base-2 exponential: 2**x."""
    return _bind(_ew.exp2_p, x)


def log(x: ArrayLike, /) -> Array:
    """Elementwise natural logarithm."""
    return _bind(_ew.log_p, x)


def log1p(x: ArrayLike, /) -> Array:
    """Elementwise log(1 + x), accurate near 0."""
    return _bind(_ew.log1p_p, x)


def expm1(x: ArrayLike, /) -> Array:
    """Elementwise e**x - 1, accurate near 0."""
    return _bind(_ew.expm1_p, x)


def tanh(x: ArrayLike, /) -> Array:
    """Elementwise hyperbolic tangent."""
    return _bind(_ew.tanh_p, x)


def logistic(x: ArrayLike, /) -> Array:
    """Elementwise logistic (sigmoid): 1 / (1 + e**-x)."""
    return _bind(_ew.logistic_p, x)


def sin(x: ArrayLike, /) -> Array:
    """Elementwise sine."""
    return _bind(_ew.sin_p, x)


def cos(x: ArrayLike, /) -> Array:
    """Elementwise cosine."""
    return _bind(_ew.cos_p, x)


def tan(x: ArrayLike, /) -> Array:
    """Elementwise tangent."""
    return _bind(_ew.tan_p, x)


def asin(x: ArrayLike, /) -> Array:
    """Elementwise arc sine."""
    return _bind(_ew.asin_p, x)


def acos(x: ArrayLike, /) -> Array:
    """Elementwise arc cosine."""
    return _bind(_ew.acos_p, x)


def atan(x: ArrayLike, /) -> Array:
    """Elementwise arc tangent."""
    return _bind(_ew.atan_p, x)


def sinh(x: ArrayLike, /) -> Array:
    """Elementwise hyperbolic sine."""
    return _bind(_ew.sinh_p, x)


def cosh(x: ArrayLike, /) -> Array:
    """Elementwise hyperbolic cosine."""
    return _bind(_ew.cosh_p, x)


def asinh(x: ArrayLike, /) -> Array:
    """Elementwise inverse hyperbolic sine."""
    return _bind(_ew.asinh_p, x)


def acosh(x: ArrayLike, /) -> Array:
    """Elementwise inverse hyperbolic cosine."""
    return _bind(_ew.acosh_p, x)


def atanh(x: ArrayLike, /) -> Array:
    """Elementwise inverse hyperbolic tangent."""
    return _bind(_ew.atanh_p, x)


def sqrt(x: ArrayLike, /) -> Array:
    """Elementwise square root."""
    return _bind(_ew.sqrt_p, x)


def rsqrt(x: ArrayLike, /) -> Array:
    """Elementwise reciprocal square root: 1/sqrt(x)."""
    return _bind(_ew.rsqrt_p, x)


def cbrt(x: ArrayLike, /) -> Array:
    """Elementwise cube root."""
    return _bind(_ew.cbrt_p, x)


def erf(x: ArrayLike, /) -> Array:
    """Elementwise error function."""
    return _bind(_ew.erf_p, x)


def erf_inv(x: ArrayLike, /) -> Array:
    """Elementwise inverse error function."""
    return _bind(_ew.erf_inv_p, x)


def lgamma(x: ArrayLike, /) -> Array:
    """Elementwise log of the absolute value of the gamma function."""
    return _bind(_ew.lgamma_p, x)


def digamma(x: ArrayLike, /) -> Array:
    """Elementwise digamma function."""
    return _bind(_ew.digamma_p, x)


def bitwise_not(x: ArrayLike, /) -> Array:
    """Elementwise bitwise/logical NOT."""
    return _bind(_ew.not_p, x)


def population_count(x: ArrayLike, /) -> Array:
    """Elementwise popcount."""
    return _bind(_ew.population_count_p, x)


def clz(x: ArrayLike, /) -> Array:
    """Elementwise count of leading zeros."""
    return _bind(_ew.clz_p, x)


def real(x: ArrayLike, /) -> Array:
    """Elementwise real part."""
    return _bind(_ew.real_p, x)


def imag(x: ArrayLike, /) -> Array:
    """Elementwise imaginary part."""
    return _bind(_ew.imag_p, x)


def conj(x: ArrayLike, /) -> Array:
    """Elementwise complex conjugate."""
    return _bind(_ew.conj_p, x)


def square(x: ArrayLike, /) -> Array:
    """Elementwise square: x*x."""
    return _bind(_ew.square_p, x)


def add(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise addition: x + y."""
    return _bind(_ew.add_p, x, y)


def sub(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise subtraction: x - y."""
    return _bind(_ew.sub_p, x, y)


def mul(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise multiplication: x * y."""
    return _bind(_ew.mul_p, x, y)


def div(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise division: x / y (integer division rounds toward zero)."""
    return _bind(_ew.div_p, x, y)


def rem(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise remainder, with the sign of x (C's fmod)."""
    return _bind(_ew.rem_p, x, y)


def pow(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise power: x**y."""
    return _bind(_ew.pow_p, x, y)


def max(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise maximum."""
    return _bind(_ew.max_p, x, y)


def min(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise minimum."""
    return _bind(_ew.min_p, x, y)


def atan2(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise arc tangent of x/y."""
    return _bind(_ew.atan2_p, x, y)


def nextafter(x: ArrayLike, y: ArrayLike, /) -> Array:
    """The next representable value after x toward y."""
    return _bind(_ew.nextafter_p, x, y)


def bitwise_and(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise bitwise/logical AND."""
    return _bind(_ew.and_p, x, y)


def bitwise_or(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise bitwise/logical OR."""
    return _bind(_ew.or_p, x, y)


def bitwise_xor(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise bitwise/logical XOR."""
    return _bind(_ew.xor_p, x, y)


def shift_left(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise left shift."""
    return _bind(_ew.shift_left_p, x, y)


def shift_right_arithmetic(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise arithmetic right shift."""
    return _bind(_ew.shift_right_arithmetic_p, x, y)


def shift_right_logical(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise logical right shift."""
    return _bind(_ew.shift_right_logical_p, x, y)


def eq(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise equality: x == y."""
    return _bind(_ew.eq_p, x, y)


def ne(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise inequality: x != y."""
    return _bind(_ew.ne_p, x, y)


def lt(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise less-than: x < y."""
    return _bind(_ew.lt_p, x, y)


def le(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise less-or-equal: x <= y."""
    return _bind(_ew.le_p, x, y)


def gt(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise greater-than: x > y."""
    return _bind(_ew.gt_p, x, y)


def ge(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise greater-or-equal: x >= y."""
    return _bind(_ew.ge_p, x, y)


def complex(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Builds complex numbers x + yj from real parts."""
    return _bind(_ew.complex_p, x, y)


def as_bool(x: ArrayLike) -> ArrayLike:
    """``x != 0`` as bool (identity for bool inputs)."""
    aval = get_aval(x)
    if aval.dtype == np.bool_:
        return x
    return ne(x, to_dtype(0, aval.dtype, aval.weak_type))


# The interpreters (autodiff, batching) build values with these; see interpreters/array_ops.py.
array_ops.register("to_dtype", to_dtype)
