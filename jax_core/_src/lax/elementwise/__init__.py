"""Elementwise primitives: arithmetic, transcendental, bitwise, comparisons, select, conversions.

The package is the family's face: every wrapper and primitive, for callers that use the family as a
namespace (``from jax_core._src.lax import elementwise as lax``). Each primitive's block (wrapper,
``<name>_p`` and rules) is in the module of its kind; the modules import one another, never this face.
"""

from jax_core._src.lax.elementwise.arithmetic import abs as abs
from jax_core._src.lax.elementwise.arithmetic import abs_p as abs_p
from jax_core._src.lax.elementwise.arithmetic import add as add
from jax_core._src.lax.elementwise.arithmetic import add_p as add_p
from jax_core._src.lax.elementwise.arithmetic import ceil as ceil
from jax_core._src.lax.elementwise.arithmetic import ceil_p as ceil_p
from jax_core._src.lax.elementwise.arithmetic import clamp as clamp
from jax_core._src.lax.elementwise.arithmetic import clamp_p as clamp_p
from jax_core._src.lax.elementwise.arithmetic import complex as complex
from jax_core._src.lax.elementwise.arithmetic import complex_p as complex_p
from jax_core._src.lax.elementwise.arithmetic import conj as conj
from jax_core._src.lax.elementwise.arithmetic import conj_p as conj_p
from jax_core._src.lax.elementwise.arithmetic import div as div
from jax_core._src.lax.elementwise.arithmetic import div_p as div_p
from jax_core._src.lax.elementwise.arithmetic import floor as floor
from jax_core._src.lax.elementwise.arithmetic import floor_p as floor_p
from jax_core._src.lax.elementwise.arithmetic import imag as imag
from jax_core._src.lax.elementwise.arithmetic import imag_p as imag_p
from jax_core._src.lax.elementwise.arithmetic import integer_pow as integer_pow
from jax_core._src.lax.elementwise.arithmetic import integer_pow_p as integer_pow_p
from jax_core._src.lax.elementwise.arithmetic import is_finite as is_finite
from jax_core._src.lax.elementwise.arithmetic import is_finite_p as is_finite_p
from jax_core._src.lax.elementwise.arithmetic import max as max
from jax_core._src.lax.elementwise.arithmetic import max_p as max_p
from jax_core._src.lax.elementwise.arithmetic import min as min
from jax_core._src.lax.elementwise.arithmetic import min_p as min_p
from jax_core._src.lax.elementwise.arithmetic import mul as mul
from jax_core._src.lax.elementwise.arithmetic import mul_p as mul_p
from jax_core._src.lax.elementwise.arithmetic import neg as neg
from jax_core._src.lax.elementwise.arithmetic import neg_p as neg_p
from jax_core._src.lax.elementwise.arithmetic import real as real
from jax_core._src.lax.elementwise.arithmetic import real_p as real_p
from jax_core._src.lax.elementwise.arithmetic import rem as rem
from jax_core._src.lax.elementwise.arithmetic import rem_p as rem_p
from jax_core._src.lax.elementwise.arithmetic import replace_zero as replace_zero
from jax_core._src.lax.elementwise.arithmetic import round as round
from jax_core._src.lax.elementwise.arithmetic import round_p as round_p
from jax_core._src.lax.elementwise.arithmetic import sign as sign
from jax_core._src.lax.elementwise.arithmetic import sign_p as sign_p
from jax_core._src.lax.elementwise.arithmetic import square as square
from jax_core._src.lax.elementwise.arithmetic import one_minus_square as one_minus_square
from jax_core._src.lax.elementwise.arithmetic import one_minus_square_p as one_minus_square_p
from jax_core._src.lax.elementwise.polynomial import polynomial as polynomial
from jax_core._src.lax.elementwise.polynomial import polynomial_p as polynomial_p
from jax_core._src.lax.elementwise.arithmetic import square_p as square_p
from jax_core._src.lax.elementwise.arithmetic import sub as sub
from jax_core._src.lax.elementwise.arithmetic import sub_p as sub_p
from jax_core._src.lax.elementwise.bitwise import and_p as and_p
from jax_core._src.lax.elementwise.bitwise import bitwise_and as bitwise_and
from jax_core._src.lax.elementwise.bitwise import bitwise_not as bitwise_not
from jax_core._src.lax.elementwise.bitwise import bitwise_or as bitwise_or
from jax_core._src.lax.elementwise.bitwise import bitwise_xor as bitwise_xor
from jax_core._src.lax.elementwise.bitwise import clz as clz
from jax_core._src.lax.elementwise.bitwise import clz_p as clz_p
from jax_core._src.lax.elementwise.bitwise import not_p as not_p
from jax_core._src.lax.elementwise.bitwise import or_p as or_p
from jax_core._src.lax.elementwise.bitwise import population_count as population_count
from jax_core._src.lax.elementwise.bitwise import population_count_p as population_count_p
from jax_core._src.lax.elementwise.bitwise import shift_left as shift_left
from jax_core._src.lax.elementwise.bitwise import shift_left_p as shift_left_p
from jax_core._src.lax.elementwise.bitwise import shift_right_arithmetic as shift_right_arithmetic
from jax_core._src.lax.elementwise.bitwise import (
    shift_right_arithmetic_p as shift_right_arithmetic_p,
)
from jax_core._src.lax.elementwise.bitwise import shift_right_logical as shift_right_logical
from jax_core._src.lax.elementwise.bitwise import shift_right_logical_p as shift_right_logical_p
from jax_core._src.lax.elementwise.bitwise import xor_p as xor_p
from jax_core._src.lax.elementwise.comparisons import as_bool as as_bool
from jax_core._src.lax.elementwise.comparisons import eq as eq
from jax_core._src.lax.elementwise.comparisons import eq_p as eq_p
from jax_core._src.lax.elementwise.comparisons import ge as ge
from jax_core._src.lax.elementwise.comparisons import ge_p as ge_p
from jax_core._src.lax.elementwise.comparisons import gt as gt
from jax_core._src.lax.elementwise.comparisons import gt_p as gt_p
from jax_core._src.lax.elementwise.comparisons import le as le
from jax_core._src.lax.elementwise.comparisons import le_p as le_p
from jax_core._src.lax.elementwise.comparisons import lt as lt
from jax_core._src.lax.elementwise.comparisons import lt_p as lt_p
from jax_core._src.lax.elementwise.comparisons import ne as ne
from jax_core._src.lax.elementwise.comparisons import ne_p as ne_p
from jax_core._src.lax.elementwise.comparisons import select as select
from jax_core._src.lax.elementwise.comparisons import select_n as select_n
from jax_core._src.lax.elementwise.comparisons import select_n_p as select_n_p
from jax_core._src.lax.elementwise.conversions import bitcast_convert_type as bitcast_convert_type
from jax_core._src.lax.elementwise.conversions import (
    bitcast_convert_type_p as bitcast_convert_type_p,
)
from jax_core._src.lax.elementwise.conversions import convert_element_type as convert_element_type
from jax_core._src.lax.elementwise.conversions import (
    convert_element_type_p as convert_element_type_p,
)
from jax_core._src.lax.elementwise.conversions import reduce_precision as reduce_precision
from jax_core._src.lax.elementwise.conversions import reduce_precision_p as reduce_precision_p
from jax_core._src.lax.elementwise.conversions import to_dtype as to_dtype
from jax_core._src.lax.elementwise.factories import const_like as const_like
from jax_core._src.lax.elementwise.factories import is_traced as is_traced
from jax_core._src.lax.elementwise.transcendental import acos as acos
from jax_core._src.lax.elementwise.transcendental import acos_p as acos_p
from jax_core._src.lax.elementwise.transcendental import acosh as acosh
from jax_core._src.lax.elementwise.transcendental import acosh_p as acosh_p
from jax_core._src.lax.elementwise.transcendental import asin as asin
from jax_core._src.lax.elementwise.transcendental import asin_p as asin_p
from jax_core._src.lax.elementwise.transcendental import asinh as asinh
from jax_core._src.lax.elementwise.transcendental import asinh_p as asinh_p
from jax_core._src.lax.elementwise.transcendental import atan as atan
from jax_core._src.lax.elementwise.transcendental import atan2 as atan2
from jax_core._src.lax.elementwise.transcendental import atan2_p as atan2_p
from jax_core._src.lax.elementwise.transcendental import atan_p as atan_p
from jax_core._src.lax.elementwise.transcendental import atanh as atanh
from jax_core._src.lax.elementwise.transcendental import atanh_p as atanh_p
from jax_core._src.lax.elementwise.transcendental import cbrt as cbrt
from jax_core._src.lax.elementwise.transcendental import cbrt_p as cbrt_p
from jax_core._src.lax.elementwise.transcendental import cos as cos
from jax_core._src.lax.elementwise.transcendental import cos_p as cos_p
from jax_core._src.lax.elementwise.transcendental import cosh as cosh
from jax_core._src.lax.elementwise.transcendental import cosh_p as cosh_p
from jax_core._src.lax.elementwise.transcendental import digamma as digamma
from jax_core._src.lax.elementwise.transcendental import digamma_p as digamma_p
from jax_core._src.lax.elementwise.transcendental import erf as erf
from jax_core._src.lax.elementwise.transcendental import erf_inv as erf_inv
from jax_core._src.lax.elementwise.transcendental import erf_inv_p as erf_inv_p
from jax_core._src.lax.elementwise.transcendental import erf_p as erf_p
from jax_core._src.lax.elementwise.transcendental import erfc as erfc
from jax_core._src.lax.elementwise.transcendental import erfc_p as erfc_p
from jax_core._src.lax.elementwise.transcendental import exp as exp
from jax_core._src.lax.elementwise.transcendental import exp2 as exp2
from jax_core._src.lax.elementwise.transcendental import exp2_p as exp2_p
from jax_core._src.lax.elementwise.transcendental import exp_p as exp_p
from jax_core._src.lax.elementwise.transcendental import expm1 as expm1
from jax_core._src.lax.elementwise.transcendental import expm1_p as expm1_p
from jax_core._src.lax.elementwise.transcendental import lgamma as lgamma
from jax_core._src.lax.elementwise.transcendental import lgamma_p as lgamma_p
from jax_core._src.lax.elementwise.transcendental import log as log
from jax_core._src.lax.elementwise.transcendental import log1p as log1p
from jax_core._src.lax.elementwise.transcendental import log1p_p as log1p_p
from jax_core._src.lax.elementwise.transcendental import log2 as log2
from jax_core._src.lax.elementwise.transcendental import log2_p as log2_p
from jax_core._src.lax.elementwise.transcendental import log_p as log_p
from jax_core._src.lax.elementwise.transcendental import logistic as logistic
from jax_core._src.lax.elementwise.transcendental import logistic_p as logistic_p
from jax_core._src.lax.elementwise.transcendental import nextafter as nextafter
from jax_core._src.lax.elementwise.transcendental import nextafter_p as nextafter_p
from jax_core._src.lax.elementwise.transcendental import pow as pow
from jax_core._src.lax.elementwise.transcendental import pow_p as pow_p
from jax_core._src.lax.elementwise.transcendental import rsqrt as rsqrt
from jax_core._src.lax.elementwise.transcendental import rsqrt_p as rsqrt_p
from jax_core._src.lax.elementwise.transcendental import sin as sin
from jax_core._src.lax.elementwise.transcendental import sin_p as sin_p
from jax_core._src.lax.elementwise.transcendental import sinh as sinh
from jax_core._src.lax.elementwise.transcendental import sinh_p as sinh_p
from jax_core._src.lax.elementwise.transcendental import sqrt as sqrt
from jax_core._src.lax.elementwise.transcendental import sqrt_p as sqrt_p
from jax_core._src.lax.elementwise.transcendental import tan as tan
from jax_core._src.lax.elementwise.transcendental import tan_p as tan_p
from jax_core._src.lax.elementwise.transcendental import tanh as tanh
from jax_core._src.lax.elementwise.transcendental import tanh_p as tanh_p
from jax_core._src.lax.elementwise.transcendental import trigamma as trigamma
