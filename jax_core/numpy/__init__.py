"""``jax_core.numpy``: NumPy's API on jax_core arrays, with JAX's semantics.

Differences from NumPy are JAX's: arrays are immutable (use ``x.at[i].set(v)``),
default dtypes are 32-bit unless ``jax_enable_x64`` is set, Python scalars are
weakly typed, and lists are not accepted where arrays are (use ``jnp.array``).
"""

from typing import TypeAlias as _TypeAlias

import numpy as _np

from jax_core._src.basearray import Array as _Array
from jax_core._src.numpy.creation import arange as arange
from jax_core._src.numpy.creation import array as array
from jax_core._src.numpy.creation import asarray as asarray
from jax_core._src.numpy.creation import empty as empty
from jax_core._src.numpy.creation import full as full
from jax_core._src.numpy.creation import full_like as full_like
from jax_core._src.numpy.creation import ones as ones
from jax_core._src.numpy.creation import ones_like as ones_like
from jax_core._src.numpy.creation import promote_types as promote_types
from jax_core._src.numpy.creation import result_type as result_type
from jax_core._src.numpy.creation import zeros as zeros
from jax_core._src.numpy.creation import zeros_like as zeros_like
from jax_core._src.numpy.reductions import all as all
from jax_core._src.numpy.reductions import any as any
from jax_core._src.numpy.reductions import argmax as argmax
from jax_core._src.numpy.reductions import argmin as argmin
from jax_core._src.numpy.reductions import dot as dot
from jax_core._src.numpy.reductions import matmul as matmul
from jax_core._src.numpy.reductions import max as max
from jax_core._src.numpy.reductions import mean as mean
from jax_core._src.numpy.reductions import min as min
from jax_core._src.numpy.reductions import prod as prod
from jax_core._src.numpy.reductions import sum as sum
from jax_core._src.numpy.shape import broadcast_shapes as broadcast_shapes
from jax_core._src.numpy.shape import broadcast_to as broadcast_to
from jax_core._src.numpy.shape import concatenate as concatenate
from jax_core._src.numpy.shape import expand_dims as expand_dims
from jax_core._src.numpy.shape import ndim as ndim
from jax_core._src.numpy.shape import ravel as ravel
from jax_core._src.numpy.shape import reshape as reshape
from jax_core._src.numpy.shape import shape as shape
from jax_core._src.numpy.shape import size as size
from jax_core._src.numpy.shape import squeeze as squeeze
from jax_core._src.numpy.shape import stack as stack
from jax_core._src.numpy.shape import swapaxes as swapaxes
from jax_core._src.numpy.shape import transpose as transpose
from jax_core._src.numpy.ufuncs import abs as abs
from jax_core._src.numpy.ufuncs import absolute as absolute
from jax_core._src.numpy.ufuncs import add as add
from jax_core._src.numpy.ufuncs import arccos as arccos
from jax_core._src.numpy.ufuncs import arccosh as arccosh
from jax_core._src.numpy.ufuncs import arcsin as arcsin
from jax_core._src.numpy.ufuncs import arcsinh as arcsinh
from jax_core._src.numpy.ufuncs import arctan as arctan
from jax_core._src.numpy.ufuncs import arctan2 as arctan2
from jax_core._src.numpy.ufuncs import arctanh as arctanh
from jax_core._src.numpy.ufuncs import bitwise_and as bitwise_and
from jax_core._src.numpy.ufuncs import bitwise_not as bitwise_not
from jax_core._src.numpy.ufuncs import bitwise_or as bitwise_or
from jax_core._src.numpy.ufuncs import bitwise_xor as bitwise_xor
from jax_core._src.numpy.ufuncs import cbrt as cbrt
from jax_core._src.numpy.ufuncs import ceil as ceil
from jax_core._src.numpy.ufuncs import conj as conj
from jax_core._src.numpy.ufuncs import conjugate as conjugate
from jax_core._src.numpy.ufuncs import cos as cos
from jax_core._src.numpy.ufuncs import cosh as cosh
from jax_core._src.numpy.ufuncs import divide as divide
from jax_core._src.numpy.ufuncs import equal as equal
from jax_core._src.numpy.ufuncs import exp as exp
from jax_core._src.numpy.ufuncs import exp2 as exp2
from jax_core._src.numpy.ufuncs import expm1 as expm1
from jax_core._src.numpy.ufuncs import floor as floor
from jax_core._src.numpy.ufuncs import floor_divide as floor_divide
from jax_core._src.numpy.ufuncs import fmod as fmod
from jax_core._src.numpy.ufuncs import greater as greater
from jax_core._src.numpy.ufuncs import greater_equal as greater_equal
from jax_core._src.numpy.ufuncs import imag as imag
from jax_core._src.numpy.ufuncs import invert as invert
from jax_core._src.numpy.ufuncs import isfinite as isfinite
from jax_core._src.numpy.ufuncs import left_shift as left_shift
from jax_core._src.numpy.ufuncs import less as less
from jax_core._src.numpy.ufuncs import less_equal as less_equal
from jax_core._src.numpy.ufuncs import log as log
from jax_core._src.numpy.ufuncs import log1p as log1p
from jax_core._src.numpy.ufuncs import logical_and as logical_and
from jax_core._src.numpy.ufuncs import logical_not as logical_not
from jax_core._src.numpy.ufuncs import logical_or as logical_or
from jax_core._src.numpy.ufuncs import logical_xor as logical_xor
from jax_core._src.numpy.ufuncs import maximum as maximum
from jax_core._src.numpy.ufuncs import minimum as minimum
from jax_core._src.numpy.ufuncs import mod as mod
from jax_core._src.numpy.ufuncs import multiply as multiply
from jax_core._src.numpy.ufuncs import negative as negative
from jax_core._src.numpy.ufuncs import nextafter as nextafter
from jax_core._src.numpy.ufuncs import not_equal as not_equal
from jax_core._src.numpy.ufuncs import positive as positive
from jax_core._src.numpy.ufuncs import power as power
from jax_core._src.numpy.ufuncs import real as real
from jax_core._src.numpy.ufuncs import reciprocal as reciprocal
from jax_core._src.numpy.ufuncs import remainder as remainder
from jax_core._src.numpy.ufuncs import right_shift as right_shift
from jax_core._src.numpy.ufuncs import sign as sign
from jax_core._src.numpy.ufuncs import sin as sin
from jax_core._src.numpy.ufuncs import sinh as sinh
from jax_core._src.numpy.ufuncs import sqrt as sqrt
from jax_core._src.numpy.ufuncs import square as square
from jax_core._src.numpy.ufuncs import subtract as subtract
from jax_core._src.numpy.ufuncs import tan as tan
from jax_core._src.numpy.ufuncs import tanh as tanh
from jax_core._src.numpy.ufuncs import true_divide as true_divide
from jax_core._src.numpy.where import where as where
from jax_core._src.dtypes import bfloat16 as bfloat16

ndarray: _TypeAlias = _Array
"""The array type, ``jax_core.Array`` (``isinstance(x, jnp.ndarray)`` tests for one)."""

bool_: _TypeAlias = _np.bool_
"""The boolean scalar type (``numpy.bool_``); usable wherever a dtype is expected."""
int8: _TypeAlias = _np.int8
"""The 8-bit signed integer scalar type (``numpy.int8``)."""
int16: _TypeAlias = _np.int16
"""The 16-bit signed integer scalar type (``numpy.int16``)."""
int32: _TypeAlias = _np.int32
"""The 32-bit signed integer scalar type (``numpy.int32``)."""
int64: _TypeAlias = _np.int64
"""The 64-bit signed integer scalar type (``numpy.int64``; int32 arrays unless x64 is enabled)."""
uint8: _TypeAlias = _np.uint8
"""The 8-bit unsigned integer scalar type (``numpy.uint8``)."""
uint16: _TypeAlias = _np.uint16
"""The 16-bit unsigned integer scalar type (``numpy.uint16``)."""
uint32: _TypeAlias = _np.uint32
"""The 32-bit unsigned integer scalar type (``numpy.uint32``)."""
uint64: _TypeAlias = _np.uint64
"""The 64-bit unsigned integer scalar type (``numpy.uint64``; uint32 arrays unless x64 is enabled)."""
float16: _TypeAlias = _np.float16
"""The IEEE half-precision float scalar type (``numpy.float16``)."""
float32: _TypeAlias = _np.float32
"""The IEEE single-precision float scalar type (``numpy.float32``)."""
float64: _TypeAlias = _np.float64
"""The IEEE double-precision float scalar type (``numpy.float64``; float32 arrays unless x64 is enabled)."""
complex64: _TypeAlias = _np.complex64
"""The complex scalar type with float32 parts (``numpy.complex64``)."""
complex128: _TypeAlias = _np.complex128
"""The complex scalar type with float64 parts (``numpy.complex128``; complex64 arrays unless x64 is enabled)."""
pi: float = _np.pi
"""The constant pi."""
e: float = _np.e
"""Euler's number, the base of the natural logarithm."""
inf: float = _np.inf
"""Positive infinity."""
nan: float = _np.nan
"""Not a number."""
newaxis: None = None
"""An alias for ``None``: indexing with it inserts a size-1 dimension (``x[:, jnp.newaxis]``)."""
