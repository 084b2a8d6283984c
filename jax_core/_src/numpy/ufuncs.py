"""Elementwise ``jax_core.numpy`` functions: NumPy names, JAX promotion, lax underneath."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import ParamSpec, TypeAlias, TypeVar

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.shape.compositions import full_like
from jax_core._src.numpy.util import (
    check_arraylike,
    check_for_prngkeys,
    promote_dtypes,
    promote_dtypes_inexact,
    promote_dtypes_numeric,
    promote_shapes,
)
from jax_core._src.transforms.jit import Inline, make_jit
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

_P = ParamSpec("_P")
_R = TypeVar("_R")
UnaryFn: TypeAlias = Callable[[ArrayLike], Array]
"""An elementwise function of one array (``jnp.sin``, ``jnp.negative``, ...)."""
BinaryFn: TypeAlias = Callable[[ArrayLike, ArrayLike], Array]
"""An elementwise function of two arrays, with JAX's type promotion (``jnp.add``, ...)."""


def _fast(fn: Callable[_P, _R], inline: bool = True) -> Callable[_P, _R]:
    """Eager calls go through the C++ jit fast path; under a trace the function is inlined (JAX's
    ``Inline.JAX_EARLY``), or, with ``inline=False``, staged as one ``jit[name=...]`` equation
    (the ufuncs JAX wraps in a plain ``jit``)."""
    return make_jit(fn, inline=Inline.JAX_EARLY if inline else Inline.AUTO)


def _one_to_one_unary(name: str, op: UnaryFn, *, inexact: bool = False, inline: bool = True) -> UnaryFn:
    def fn(x: ArrayLike, /) -> Array:
        check_arraylike(name, x)
        (arg,) = promote_dtypes_inexact(x) if inexact else promote_dtypes(x)
        return op(arg)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise ``{name}``, as ``numpy.{name}``{' (integer inputs promote to float)' if inexact else ''}."
    return _fast(fn, inline)


def _one_to_one_binary_shapes_only(name: str, op: BinaryFn) -> BinaryFn:
    """A binary ufunc whose ``op`` promotes dtypes itself (only ranks are promoted here)."""

    def fn(x: ArrayLike, y: ArrayLike, /) -> Array:
        check_arraylike(name, x, y)
        return op(*promote_shapes(name, x, y))

    fn.__name__ = fn.__qualname__ = name
    return _fast(fn)


def _one_to_one_binary(name: str, op: BinaryFn, *, inexact: bool = False, inline: bool = True) -> BinaryFn:
    def fn(x: ArrayLike, y: ArrayLike, /) -> Array:
        check_arraylike(name, x, y)
        check_for_prngkeys(name, x, y)
        a, b = promote_dtypes_inexact(x, y) if inexact else promote_dtypes(x, y)
        return op(*promote_shapes(name, a, b))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise ``{name}``, as ``numpy.{name}``, with JAX's type promotion."
    return _fast(fn, inline)


sin: UnaryFn = _one_to_one_unary("sin", lax.sin, inexact=True)
cos: UnaryFn = _one_to_one_unary("cos", lax.cos, inexact=True)
tan: UnaryFn = _one_to_one_unary("tan", lax.tan, inexact=True)
arcsin: UnaryFn = _one_to_one_unary("arcsin", lax.asin, inexact=True)
arccos: UnaryFn = _one_to_one_unary("arccos", lax.acos, inexact=True)
arctan: UnaryFn = _one_to_one_unary("arctan", lax.atan, inexact=True)
sinh: UnaryFn = _one_to_one_unary("sinh", lax.sinh, inexact=True)
cosh: UnaryFn = _one_to_one_unary("cosh", lax.cosh, inexact=True)
tanh: UnaryFn = _one_to_one_unary("tanh", lax.tanh, inexact=True)
arcsinh: UnaryFn = _one_to_one_unary("arcsinh", lax.asinh, inexact=True)
arccosh: UnaryFn = _one_to_one_unary("arccosh", lax.acosh, inexact=True, inline=False)
arctanh: UnaryFn = _one_to_one_unary("arctanh", lax.atanh, inexact=True)
exp: UnaryFn = _one_to_one_unary("exp", lax.exp, inexact=True)
exp2: UnaryFn = _one_to_one_unary("exp2", lax.exp2, inexact=True)
log: UnaryFn = _one_to_one_unary("log", lax.log, inexact=True)
log1p: UnaryFn = _one_to_one_unary("log1p", lax.log1p, inexact=True)
expm1: UnaryFn = _one_to_one_unary("expm1", lax.expm1, inexact=True)
sqrt: UnaryFn = _one_to_one_unary("sqrt", lax.sqrt, inexact=True)
cbrt: UnaryFn = _one_to_one_unary("cbrt", lax.cbrt, inexact=True)
floor: UnaryFn = _one_to_one_unary("floor", lambda x: _as_array(x) if _is_int_or_bool(x) else lax.floor(x))
ceil: UnaryFn = _one_to_one_unary("ceil", lambda x: _as_array(x) if _is_int_or_bool(x) else lax.ceil(x))
negative: UnaryFn = _one_to_one_unary("negative", lax.neg)
positive: UnaryFn = _one_to_one_unary("positive", lambda x: _as_array(x))
sign: UnaryFn = _one_to_one_unary("sign", lax.sign)
def _isfinite(x: ArrayLike) -> Array:
    if _is_int_or_bool(x):
        return lax.eq(x, x)
    if _is_complex(x):
        return lax.bitwise_and(lax.is_finite(lax.real(x)), lax.is_finite(lax.imag(x)))
    return lax.is_finite(x)


isfinite: UnaryFn = _one_to_one_unary("isfinite", _isfinite)
logical_not: UnaryFn = _one_to_one_unary("logical_not", lambda x: lax.bitwise_not(lax.as_bool(x)))
bitwise_not: UnaryFn = _one_to_one_unary("bitwise_not", lax.bitwise_not)
invert: UnaryFn = bitwise_not
square: UnaryFn = _one_to_one_unary("square", lambda x: lax.square(promote_dtypes_numeric(x)[0]))
reciprocal: UnaryFn = _one_to_one_unary("reciprocal", lambda x: lax.integer_pow(x, -1), inexact=True)
real: UnaryFn = _one_to_one_unary("real", lambda x: lax.real(x) if _is_complex(x) else _as_array(x))
imag: UnaryFn = _one_to_one_unary("imag", lambda x: lax.imag(x) if _is_complex(x) else full_like(x, 0))
conjugate: UnaryFn = _one_to_one_unary("conjugate", lambda x: lax.conj(x) if _is_complex(x) else _as_array(x))
conj: UnaryFn = conjugate


def _absolute(x: ArrayLike) -> Array:
    if dtypes.issubdtype(get_aval(x).dtype, np.unsignedinteger) or get_aval(x).dtype == np.bool_:
        return _as_array(x)
    return lax.abs(x)


absolute: UnaryFn = _one_to_one_unary("absolute", _absolute)
abs: UnaryFn = absolute

add: BinaryFn = _one_to_one_binary("add", lambda x, y: lax.bitwise_or(x, y) if _is_bool(x) else lax.add(x, y))
subtract: BinaryFn = _one_to_one_binary("subtract", lax.sub)
multiply: BinaryFn = _one_to_one_binary("multiply", lambda x, y: lax.bitwise_and(x, y) if _is_bool(x) else lax.mul(x, y))
true_divide: BinaryFn = _one_to_one_binary("true_divide", lax.div, inexact=True)
divide: BinaryFn = true_divide
_power_promoted: BinaryFn = _one_to_one_binary_shapes_only("power", lambda x, y: _power(x, y))


def power(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise ``x ** y``; a concrete integer exponent becomes ``integer_pow`` (as in JAX)."""
    check_arraylike("power", x, y)
    if not isinstance(y, Tracer):
        try:
            exponent = operator.index(y)  # type: ignore[arg-type]
        except TypeError:
            pass
        else:
            (base,) = promote_dtypes_numeric(x)
            return lax.integer_pow(base, exponent)
    return _power_promoted(x, y)


maximum: BinaryFn = _one_to_one_binary("maximum", lax.max)
minimum: BinaryFn = _one_to_one_binary("minimum", lax.min)
arctan2: BinaryFn = _one_to_one_binary("arctan2", lax.atan2, inexact=True)
equal: BinaryFn = _one_to_one_binary("equal", lax.eq)
not_equal: BinaryFn = _one_to_one_binary("not_equal", lax.ne)


def _complex_comparison(op: BinaryFn) -> BinaryFn:
    """``op`` on real operands; complex ones compare lexicographically, as JAX's: the real parts,
    and where they are equal the imaginary parts."""

    def compare(x: ArrayLike, y: ArrayLike) -> Array:
        if not _is_complex(x):
            return op(x, y)
        xr, yr = lax.real(x), lax.real(y)
        return lax.select(lax.eq(xr, yr), op(lax.imag(x), lax.imag(y)), op(xr, yr))

    return compare


less: BinaryFn = _one_to_one_binary("less", _complex_comparison(lax.lt))
less_equal: BinaryFn = _one_to_one_binary("less_equal", _complex_comparison(lax.le))
greater: BinaryFn = _one_to_one_binary("greater", _complex_comparison(lax.gt))
greater_equal: BinaryFn = _one_to_one_binary("greater_equal", _complex_comparison(lax.ge))
bitwise_and: BinaryFn = _one_to_one_binary("bitwise_and", lax.bitwise_and)
bitwise_or: BinaryFn = _one_to_one_binary("bitwise_or", lax.bitwise_or)
bitwise_xor: BinaryFn = _one_to_one_binary("bitwise_xor", lax.bitwise_xor)
left_shift: BinaryFn = _one_to_one_binary("left_shift", lax.shift_left)
right_shift: BinaryFn = _one_to_one_binary("right_shift", lambda x, y: lax.shift_right_logical(x, y) if dtypes.issubdtype(get_aval(x).dtype, np.unsignedinteger) else lax.shift_right_arithmetic(x, y))
logical_and: BinaryFn = _one_to_one_binary("logical_and", lambda x, y: lax.bitwise_and(lax.as_bool(x), lax.as_bool(y)))
logical_or: BinaryFn = _one_to_one_binary("logical_or", lambda x, y: lax.bitwise_or(lax.as_bool(x), lax.as_bool(y)))
logical_xor: BinaryFn = _one_to_one_binary("logical_xor", lambda x, y: lax.bitwise_xor(lax.as_bool(x), lax.as_bool(y)))
nextafter: BinaryFn = _one_to_one_binary("nextafter", lax.nextafter, inexact=True)


def _numeric(x: ArrayLike, y: ArrayLike) -> tuple[ArrayLike, ArrayLike]:
    a, b = promote_dtypes_numeric(x, y)
    return a, b


def _floor_divide(x: ArrayLike, y: ArrayLike) -> Array:
    x, y = _numeric(x, y)
    dt = get_aval(x).dtype
    if dtypes.issubdtype(dt, np.unsignedinteger):
        return lax.div(x, y)
    if dtypes.issubdtype(dt, np.integer):  # truncation, one lower where the signs differ and r != 0
        q = lax.div(x, y)
        zero = lax.to_dtype(0, dt, True)
        fix = lax.bitwise_and(lax.ne(lax.sign(x), lax.sign(y)), lax.ne(lax.rem(x, y), zero))
        return lax.select(fix, lax.sub(q, lax.to_dtype(1, dt, True)), q)
    if dtypes.issubdtype(dt, np.complexfloating):
        raise TypeError("floor_divide does not support complex-valued inputs")
    return float_divmod(x, y)[0]


def float_divmod(x: ArrayLike, y: ArrayLike) -> tuple[Array, Array]:
    """NumPy's float ``divmod`` as JAX computes it: ``fmod``, then the quotient of the exact
    difference, both corrected where the remainder's sign differs from the divisor's."""
    from jax_core._src.numpy.where import select_promoted, where_jit as _where

    mod = lax.rem(x, y)
    zero = lax.to_dtype(0, get_aval(mod).dtype, True)
    div = lax.div(_where(lax.eq(y, zero), x, lax.sub(x, mod)), y)  # x / 0: inf, not nan
    fix = lax.bitwise_and(lax.ne(mod, zero), lax.ne(lax.sign(y), lax.sign(mod)))
    mod = select_promoted(fix, lax.add(mod, y), mod)
    div = select_promoted(fix, lax.sub(div, lax.to_dtype(1, get_aval(div).dtype, True)), div)
    return lax.round(div), mod


def _remainder(x: ArrayLike, y: ArrayLike) -> Array:
    x, y = _numeric(x, y)
    dt = get_aval(x).dtype
    zero = lax.to_dtype(0, dt, True)
    if dtypes.issubdtype(get_aval(y).dtype, np.integer):  # x % 0 is 0 (XLA's rem would be x)
        y = lax.select(lax.eq(y, zero), full_like(y, 1), y)
    r = lax.rem(x, y)
    fix = lax.bitwise_and(lax.ne(lax.lt(r, zero), lax.lt(y, zero)), lax.ne(r, zero))
    return lax.select(fix, lax.add(r, y), r)


floor_divide: BinaryFn = _one_to_one_binary("floor_divide", _floor_divide, inline=False)
remainder: BinaryFn = _one_to_one_binary("remainder", _remainder, inline=False)
mod: BinaryFn = remainder
def _fmod(x: ArrayLike, y: ArrayLike) -> Array:
    if dtypes.issubdtype(get_aval(y).dtype, np.integer):  # x fmod 0 is 0 for integers
        y = lax.select(lax.eq(y, lax.to_dtype(0, get_aval(y).dtype, True)), full_like(y, 1), y)
    return lax.rem(x, y)


fmod: BinaryFn = _one_to_one_binary("fmod", _fmod, inline=False)


def _power(x: ArrayLike, y: ArrayLike) -> Array:
    xn, yn = _numeric(x, y)
    if dtypes.issubdtype(get_aval(xn).dtype, np.integer):
        return _pow_int_int(xn, yn)
    if dtypes.issubdtype(get_aval(x).dtype, np.inexact) and dtypes.issubdtype(get_aval(y).dtype, np.integer):
        return lax.pow(x, y)  # lax.pow takes an integer exponent as it is
    return lax.pow(xn, yn)


def _pow_int_int(x: ArrayLike, y: ArrayLike) -> Array:
    """Integer power by binary exponentiation over 6 exponent bits (larger exponents overflow
    every base above 1), as JAX's ``_pow_int_int``."""
    from jax_core._src.numpy.where import where_jit as _where

    base, exp = _as_array(x), _as_array(y)  # same rank: lax broadcasts their size-1 dimensions
    dt = base.dtype
    zero, one = np.zeros((), dt), np.ones((), dt)
    acc = _where(lax.bitwise_and(lax.eq(base, zero), lax.ne(exp, zero)), zero, one)
    for _ in range(6):
        acc = _where(lax.bitwise_and(exp, one), lax.mul(acc, base), acc)
        base = lax.mul(base, base)
        exp = lax.shift_right_logical(exp, one)
    return acc


def _is_bool(x: ArrayLike) -> bool:
    return get_aval(x).dtype == np.bool_


def _is_int_or_bool(x: ArrayLike) -> bool:
    dt = get_aval(x).dtype
    return dt == np.bool_ or dtypes.issubdtype(dt, np.integer)


def _is_complex(x: ArrayLike) -> bool:
    return dtypes.issubdtype(get_aval(x).dtype, np.complexfloating)


def _as_array(x: ArrayLike) -> Array:
    from jax_core._src.numpy.util import ensure_array

    return ensure_array(x)
