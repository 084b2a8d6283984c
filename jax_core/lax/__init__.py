"""``jax_core.lax``: the primitive operations, strictly typed and without NumPy's conveniences.

lax functions do not promote dtypes (``lax.add`` of float32 and int32 is an error);
they broadcast size-1 and rank-0 operands. Use ``jax_core.numpy`` for NumPy semantics.
"""

from jax_core._src.lax.api import abs as abs
from jax_core._src.lax.api import acos as acos
from jax_core._src.lax.api import acosh as acosh
from jax_core._src.lax.api import add as add
from jax_core._src.lax.api import asin as asin
from jax_core._src.lax.api import asinh as asinh
from jax_core._src.lax.api import atan as atan
from jax_core._src.lax.api import atan2 as atan2
from jax_core._src.lax.api import atanh as atanh
from jax_core._src.lax.api import bitwise_and as bitwise_and
from jax_core._src.lax.api import bitwise_not as bitwise_not
from jax_core._src.lax.api import bitwise_or as bitwise_or
from jax_core._src.lax.api import bitwise_xor as bitwise_xor
from jax_core._src.lax.api import cbrt as cbrt
from jax_core._src.lax.api import ceil as ceil
from jax_core._src.lax.api import clz as clz
from jax_core._src.lax.api import complex as complex
from jax_core._src.lax.api import conj as conj
from jax_core._src.lax.api import convert_element_type as convert_element_type
from jax_core._src.lax.api import cos as cos
from jax_core._src.lax.api import cosh as cosh
from jax_core._src.lax.api import digamma as digamma
from jax_core._src.lax.api import div as div
from jax_core._src.lax.api import eq as eq
from jax_core._src.lax.api import erf as erf
from jax_core._src.lax.api import erf_inv as erf_inv
from jax_core._src.lax.api import exp as exp
from jax_core._src.lax.api import exp2 as exp2
from jax_core._src.lax.api import expm1 as expm1
from jax_core._src.lax.api import floor as floor
from jax_core._src.lax.api import ge as ge
from jax_core._src.lax.api import gt as gt
from jax_core._src.lax.api import imag as imag
from jax_core._src.lax.api import integer_pow as integer_pow
from jax_core._src.lax.api import is_finite as is_finite
from jax_core._src.lax.api import le as le
from jax_core._src.lax.api import lgamma as lgamma
from jax_core._src.lax.api import log as log
from jax_core._src.lax.api import log1p as log1p
from jax_core._src.lax.api import logistic as logistic
from jax_core._src.lax.api import lt as lt
from jax_core._src.lax.api import max as max
from jax_core._src.lax.api import min as min
from jax_core._src.lax.api import mul as mul
from jax_core._src.lax.api import ne as ne
from jax_core._src.lax.api import neg as neg
from jax_core._src.lax.api import nextafter as nextafter
from jax_core._src.lax.api import population_count as population_count
from jax_core._src.lax.api import pow as pow
from jax_core._src.lax.api import real as real
from jax_core._src.lax.api import rem as rem
from jax_core._src.lax.api import round as round
from jax_core._src.lax.api import rsqrt as rsqrt
from jax_core._src.lax.api import select as select
from jax_core._src.lax.api import select_n as select_n
from jax_core._src.lax.api import shift_left as shift_left
from jax_core._src.lax.api import shift_right_arithmetic as shift_right_arithmetic
from jax_core._src.lax.api import shift_right_logical as shift_right_logical
from jax_core._src.lax.api import sign as sign
from jax_core._src.lax.api import sin as sin
from jax_core._src.lax.api import sinh as sinh
from jax_core._src.lax.api import sqrt as sqrt
from jax_core._src.lax.api import square as square
from jax_core._src.lax.api import sub as sub
from jax_core._src.lax.api import tan as tan
from jax_core._src.lax.api import tanh as tanh

