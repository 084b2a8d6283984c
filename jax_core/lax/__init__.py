"""``jax_core.lax``: the primitive operations, strictly typed and without NumPy's conveniences.

lax functions do not promote dtypes (``lax.add`` of float32 and int32 is an error);
they broadcast size-1 and rank-0 operands. Use ``jax_core.numpy`` for NumPy semantics.
"""

from jax_core._src.lax.ad_ops import optimization_barrier as optimization_barrier
from jax_core._src.lax.ann import approx_max_k as approx_max_k
from jax_core._src.lax.ann import approx_min_k as approx_min_k
from jax_core._src.lax.ann import approx_top_k_p as approx_top_k_p
from jax_core._src.lax.ad_ops import stage as stage
from jax_core._src.lax.ad_ops import stop_gradient as stop_gradient
from jax_core._src.lax.control_flow.associative_scan import associative_scan as associative_scan
from jax_core._src.lax.control_flow.conditionals import cond as cond
from jax_core._src.lax.control_flow.conditionals import switch as switch
from jax_core._src.lax.control_flow.loops import fori_loop as fori_loop
from jax_core._src.lax.control_flow.platform import platform_dependent as platform_dependent
from jax_core._src.lax.control_flow.solves import custom_linear_solve as custom_linear_solve
from jax_core._src.lax.control_flow.solves import custom_root as custom_root
from jax_core._src.lax.control_flow.solves import linear_solve_p as linear_solve_p
from jax_core._src.lax.control_flow.loops import while_loop as while_loop
from jax_core._src.lax.control_flow.scan import map as map
from jax_core._src.lax.control_flow.scan import scan as scan
from jax_core._src.lax.conv.convolution import conv as conv
from jax_core._src.lax.conv.convolution import conv_general_dilated as conv_general_dilated
from jax_core._src.lax.conv.convolution import conv_transpose as conv_transpose
from jax_core._src.lax.conv.convolution import (
    conv_with_general_padding as conv_with_general_padding,
)
from jax_core._src.lax.conv.patches import conv_general_dilated_local as conv_general_dilated_local
from jax_core._src.lax.conv.patches import (
    conv_general_dilated_patches as conv_general_dilated_patches,
)
from jax_core._src.lax.conv.shapes import ConvDimensionNumbers as ConvDimensionNumbers
from jax_core._src.lax.conv.shapes import (
    ConvGeneralDilatedDimensionNumbers as ConvGeneralDilatedDimensionNumbers,
)
from jax_core._src.lax.conv.shapes import conv_dimension_numbers as conv_dimension_numbers
from jax_core._src.lax.conv.shapes import (
    conv_general_permutations as conv_general_permutations,
)
from jax_core._src.lax.conv.shapes import (
    conv_general_shape_tuple as conv_general_shape_tuple,
)
from jax_core._src.lax.conv.shapes import conv_shape_tuple as conv_shape_tuple
from jax_core._src.lax.conv.shapes import (
    conv_transpose_shape_tuple as conv_transpose_shape_tuple,
)
from jax_core._src.lax.conv.shapes import padtype_to_pads as padtype_to_pads
from jax_core._src.lax.elementwise import bitcast_convert_type as bitcast_convert_type
from jax_core._src.lax.elementwise import clamp as clamp
from jax_core._src.lax.elementwise.conversions import reduce_precision as reduce_precision
from jax_core._src.lax.elementwise import erfc as erfc
from jax_core._src.lax.elementwise import log2 as log2
from jax_core._src.lax.elementwise import abs as abs
from jax_core._src.lax.elementwise.arithmetic import RoundingMethod as RoundingMethod
from jax_core._src.lax.elementwise import acos as acos
from jax_core._src.lax.elementwise import acosh as acosh
from jax_core._src.lax.elementwise import add as add
from jax_core._src.lax.elementwise import asin as asin
from jax_core._src.lax.elementwise import asinh as asinh
from jax_core._src.lax.elementwise import atan as atan
from jax_core._src.lax.elementwise import atan2 as atan2
from jax_core._src.lax.elementwise import atanh as atanh
from jax_core._src.lax.elementwise import bitwise_and as bitwise_and
from jax_core._src.lax.elementwise import bitwise_not as bitwise_not
from jax_core._src.lax.elementwise import bitwise_or as bitwise_or
from jax_core._src.lax.elementwise import bitwise_xor as bitwise_xor
from jax_core._src.lax.elementwise import cbrt as cbrt
from jax_core._src.lax.elementwise import ceil as ceil
from jax_core._src.lax.elementwise import clz as clz
from jax_core._src.lax.elementwise import complex as complex
from jax_core._src.lax.elementwise import conj as conj
from jax_core._src.lax.elementwise import convert_element_type as convert_element_type
from jax_core._src.lax.elementwise import cos as cos
from jax_core._src.lax.elementwise import cosh as cosh
from jax_core._src.lax.elementwise import digamma as digamma
from jax_core._src.lax.elementwise import div as div
from jax_core._src.lax.elementwise import eq as eq
from jax_core._src.lax.elementwise import erf as erf
from jax_core._src.lax.elementwise import erf_inv as erf_inv
from jax_core._src.lax.elementwise import exp as exp
from jax_core._src.lax.elementwise import exp2 as exp2
from jax_core._src.lax.elementwise import expm1 as expm1
from jax_core._src.lax.elementwise import floor as floor
from jax_core._src.lax.elementwise import ge as ge
from jax_core._src.lax.elementwise import gt as gt
from jax_core._src.lax.elementwise import imag as imag
from jax_core._src.lax.elementwise import integer_pow as integer_pow
from jax_core._src.lax.elementwise import is_finite as is_finite
from jax_core._src.lax.elementwise import le as le
from jax_core._src.lax.elementwise import lgamma as lgamma
from jax_core._src.lax.elementwise import log as log
from jax_core._src.lax.elementwise import log1p as log1p
from jax_core._src.lax.elementwise import logistic as logistic
from jax_core._src.lax.elementwise import lt as lt
from jax_core._src.lax.elementwise import max as max
from jax_core._src.lax.elementwise import min as min
from jax_core._src.lax.elementwise import mul as mul
from jax_core._src.lax.elementwise import mulhi as mulhi
from jax_core._src.lax.elementwise import ne as ne
from jax_core._src.lax.elementwise import neg as neg
from jax_core._src.lax.elementwise import nextafter as nextafter
from jax_core._src.lax.elementwise import population_count as population_count
from jax_core._src.lax.elementwise import pow as pow
from jax_core._src.lax.elementwise import real as real
from jax_core._src.lax.elementwise import rem as rem
from jax_core._src.lax.elementwise import round as round
from jax_core._src.lax.elementwise import rsqrt as rsqrt
from jax_core._src.lax.elementwise import select as select
from jax_core._src.lax.elementwise import select_n as select_n
from jax_core._src.lax.elementwise import shift_left as shift_left
from jax_core._src.lax.elementwise import shift_right_arithmetic as shift_right_arithmetic
from jax_core._src.lax.elementwise import shift_right_logical as shift_right_logical
from jax_core._src.lax.elementwise import sign as sign
from jax_core._src.lax.elementwise import sin as sin
from jax_core._src.lax.elementwise import sinh as sinh
from jax_core._src.lax.elementwise import sqrt as sqrt
from jax_core._src.lax.elementwise import square as square
from jax_core._src.lax.elementwise import one_minus_square as one_minus_square
from jax_core._src.lax.elementwise import polynomial as polynomial
from jax_core._src.lax.elementwise import sub as sub
from jax_core._src.lax.elementwise import tan as tan
from jax_core._src.lax.elementwise import tanh as tanh
from jax_core._src.lax.fft import FftType as FftType
from jax_core._src.lax.fft import dtype as dtype
from jax_core._src.lax.fft import fft as fft
from jax_core._src.lax.indexing.dimension_numbers import (
    GatherDimensionNumbers as GatherDimensionNumbers,
)
from jax_core._src.lax.indexing.dimension_numbers import GatherScatterMode as GatherScatterMode
from jax_core._src.lax.indexing.dimension_numbers import (
    ScatterDimensionNumbers as ScatterDimensionNumbers,
)
from jax_core._src.lax.indexing.gather import gather as gather
from jax_core._src.lax.indexing.scatter import scatter as scatter
from jax_core._src.lax.indexing.scatter import scatter_add as scatter_add
from jax_core._src.lax.indexing.scatter import scatter_max as scatter_max
from jax_core._src.lax.indexing.scatter import scatter_min as scatter_min
from jax_core._src.lax.indexing.scatter import scatter_mul as scatter_mul
from jax_core._src.lax.indexing.compositions import scatter_apply as scatter_apply
from jax_core._src.lax.indexing.scatter import scatter_sub as scatter_sub
from jax_core._src.lax.indexing.slicing import dynamic_index_in_dim as dynamic_index_in_dim
from jax_core._src.lax.indexing.slicing import dynamic_slice as dynamic_slice
from jax_core._src.lax.indexing.slicing import dynamic_slice_in_dim as dynamic_slice_in_dim
from jax_core._src.lax.indexing.slicing import (
    dynamic_update_index_in_dim as dynamic_update_index_in_dim,
)
from jax_core._src.lax.indexing.slicing import dynamic_update_slice as dynamic_update_slice
from jax_core._src.lax.indexing.slicing import (
    dynamic_update_slice_in_dim as dynamic_update_slice_in_dim,
)
from jax_core._src.lax.indexing.slicing import index_in_dim as index_in_dim
from jax_core._src.lax.indexing.slicing import slice as slice
from jax_core._src.lax.indexing.slicing import slice_in_dim as slice_in_dim
from jax_core._src.lax.dot_algorithms import AccuracyMode as AccuracyMode
from jax_core._src.lax.dot_algorithms import DotAlgorithm as DotAlgorithm
from jax_core._src.lax.dot_algorithms import DotAlgorithmPreset as DotAlgorithmPreset
from jax_core._src.lax.dot_algorithms import Tolerance as Tolerance
from jax_core._src.lax.linalg.dot import DotDimensionNumbers as DotDimensionNumbers
from jax_core._src.lax.linalg.dot import Precision as Precision
from jax_core._src.lax.linalg.dot import PrecisionLike as PrecisionLike
from jax_core._src.lax.linalg.dot import batch_matmul as batch_matmul
from jax_core._src.lax.linalg.dot import dot as dot
from jax_core._src.lax.linalg.dot import dot_general as dot_general
from jax_core._src.lax.elementwise.arithmetic import reciprocal as reciprocal
from jax_core._src.lax.parallel import axis_index as axis_index
from jax_core._src.lax.parallel import axis_size as axis_size
from jax_core._src.lax.parallel import pcast as pcast
from jax_core._src.lax.sharding_ops import sharding_constraint_p as sharding_constraint_p
from jax_core._src.lax.sharding_ops import with_sharding_constraint as with_sharding_constraint
from jax_core._src.lax.ragged_dot import RaggedDotDimensionNumbers as RaggedDotDimensionNumbers
from jax_core._src.lax.ragged_dot import ragged_dot as ragged_dot
from jax_core._src.lax.ragged_dot import ragged_dot_general as ragged_dot_general
from jax_core._src.lax.parallel import pmax as pmax
from jax_core._src.lax.parallel import pmean as pmean
from jax_core._src.lax.parallel import pmin as pmin
from jax_core._src.lax.parallel import psum as psum
from jax_core._src.lax.reductions.reduce import argmax as argmax
from jax_core._src.lax.reductions.reduce import argmin as argmin
from jax_core._src.lax.reductions.cumulative import cummax as cummax
from jax_core._src.lax.reductions.cumulative import cummin as cummin
from jax_core._src.lax.reductions.cumulative import cumprod as cumprod
from jax_core._src.lax.reductions.cumulative import cumsum as cumsum
from jax_core._src.lax.reductions.generic import reduce as reduce
from jax_core._src.lax.reductions.reduce import reduce_and as reduce_and
from jax_core._src.lax.reductions.reduce import reduce_max as reduce_max
from jax_core._src.lax.reductions.reduce import reduce_min as reduce_min
from jax_core._src.lax.reductions.reduce import reduce_or as reduce_or
from jax_core._src.lax.reductions.reduce import reduce_prod as reduce_prod
from jax_core._src.lax.reductions.reduce import reduce_sum as reduce_sum
from jax_core._src.lax.reductions.reduce import reduce_xor as reduce_xor
from jax_core._src.lax.rng import RandomAlgorithm as RandomAlgorithm
from jax_core._src.lax.rng import rng_bit_generator as rng_bit_generator
from jax_core._src.lax.shape.assembly import broadcasted_iota as broadcasted_iota
from jax_core._src.lax.shape.assembly import concatenate as concatenate
from jax_core._src.lax.shape.assembly import iota as iota
from jax_core._src.lax.shape.assembly import pad as pad
from jax_core._src.lax.shape.assembly import rev as rev
from jax_core._src.lax.shape.compositions import broadcast_like as broadcast_like
from jax_core._src.lax.shape.compositions import broadcast_shapes as broadcast_shapes
from jax_core._src.lax.shape.compositions import collapse as collapse
from jax_core._src.lax.shape.compositions import empty as empty
from jax_core._src.lax.shape.compositions import full as full
from jax_core._src.lax.shape.compositions import full_like as full_like
from jax_core._src.lax.indexing.compositions import index_take as index_take
from jax_core._src.lax.windowed.common import reduce_window_shape_tuple as reduce_window_shape_tuple
from jax_core._src.lax.ad_ops import dce_sink as dce_sink
from jax_core._src.lax.composite import composite as composite
from jax_core._src.lax.tokens import after_all as after_all
from jax_core._src.lax.tokens import create_token as create_token
from jax_core._src.lax.rng import rng_uniform as rng_uniform
from jax_core._src.lax.scaled_dot import scaled_dot as scaled_dot
from jax_core._src.lax.shape.compositions import shape_as_value as shape_as_value
from jax_core._src.lax.shape.compositions import split as split
from jax_core._src.lax.shape.compositions import stack as stack
from jax_core._src.lax.shape.compositions import tile as tile
from jax_core._src.lax.shape.compositions import unstack as unstack
from jax_core._src.lax.shape.dimensions import broadcast as broadcast
from jax_core._src.lax.shape.dimensions import broadcast_in_dim as broadcast_in_dim
from jax_core._src.lax.shape.dimensions import broadcast_to_rank as broadcast_to_rank
from jax_core._src.lax.shape.dimensions import expand_dims as expand_dims
from jax_core._src.lax.shape.dimensions import reshape as reshape
from jax_core._src.lax.shape.dimensions import squeeze as squeeze
from jax_core._src.lax.shape.dimensions import transpose as transpose
from jax_core._src.lax.sorting import sort as sort
from jax_core._src.lax.sorting import sort_key_val as sort_key_val
from jax_core._src.lax.sorting import top_k as top_k
from jax_core._src.lax.special.functions import bessel_i0e as bessel_i0e
from jax_core._src.lax.special.functions import bessel_i1e as bessel_i1e
from jax_core._src.lax.special.functions import betainc as betainc
from jax_core._src.lax.special.functions import igamma as igamma
from jax_core._src.lax.special.functions import igamma_grad_a as igamma_grad_a
from jax_core._src.lax.special.functions import igammac as igammac
from jax_core._src.lax.special.functions import polygamma as polygamma
from jax_core._src.lax.special.functions import random_gamma_grad as random_gamma_grad
from jax_core._src.lax.special.functions import zeta as zeta
from jax_core._src.lax.windowed.reduce_window import cumlogsumexp as cumlogsumexp
from jax_core._src.lax.windowed.reduce_window import reduce_window as reduce_window

# -- the primitives, under JAX's names (`lax.add_p.name == 'add'`) --------------------------------
from jax_core._src.lax.ad_ops import device_put_p as device_put_p
from jax_core._src.lax.tokens import after_all_p as after_all_p
from jax_core._src.lax.tokens import create_token_p as create_token_p
from jax_core._src.lax.indexing.scatter import scatter_sub_p as scatter_sub_p
from jax_core._src.lax.rng import rng_uniform_p as rng_uniform_p
from jax_core._src.lax.shape.compositions import split_p as split_p
from jax_core._src.lax.shape.compositions import stack_p as stack_p
from jax_core._src.lax.shape.compositions import tile_p as tile_p
from jax_core._src.lax.shape.compositions import unstack_p as unstack_p
from jax_core._src.lax.sorting import top_k_p as top_k_p
from jax_core._src.lax.windowed.select_and_scatter import select_and_scatter_p as select_and_scatter_p
from jax_core._src.lax.elementwise import abs_p as abs_p
from jax_core._src.lax.elementwise import acos_p as acos_p
from jax_core._src.lax.elementwise import acosh_p as acosh_p
from jax_core._src.lax.elementwise import add_p as add_p
from jax_core._src.lax.elementwise import and_p as and_p
from jax_core._src.lax.reductions.reduce import argmax_p as argmax_p
from jax_core._src.lax.reductions.reduce import argmin_p as argmin_p
from jax_core._src.lax.elementwise import asin_p as asin_p
from jax_core._src.lax.elementwise import asinh_p as asinh_p
from jax_core._src.lax.elementwise import atan2_p as atan2_p
from jax_core._src.lax.elementwise import atan_p as atan_p
from jax_core._src.lax.elementwise import atanh_p as atanh_p
from jax_core._src.lax.special.functions import bessel_i0e_p as bessel_i0e_p
from jax_core._src.lax.special.functions import bessel_i1e_p as bessel_i1e_p
from jax_core._src.lax.elementwise import bitcast_convert_type_p as bitcast_convert_type_p
from jax_core._src.lax.shape.dimensions import broadcast_in_dim_p as broadcast_in_dim_p
from jax_core._src.lax.elementwise import cbrt_p as cbrt_p
from jax_core._src.lax.elementwise import ceil_p as ceil_p
from jax_core._src.lax.elementwise import clamp_p as clamp_p
from jax_core._src.lax.elementwise import clz_p as clz_p
from jax_core._src.lax.elementwise import complex_p as complex_p
from jax_core._src.lax.shape.assembly import concatenate_p as concatenate_p
from jax_core._src.lax.control_flow.conditionals import cond_p as cond_p
from jax_core._src.lax.elementwise import conj_p as conj_p
from jax_core._src.lax.conv.convolution import conv_general_dilated_p as conv_general_dilated_p
from jax_core._src.lax.elementwise import convert_element_type_p as convert_element_type_p
from jax_core._src.lax.ad_ops import copy_p as copy_p
from jax_core._src.lax.elementwise import cos_p as cos_p
from jax_core._src.lax.elementwise import cosh_p as cosh_p
from jax_core._src.lax.windowed.reduce_window import cumlogsumexp_p as cumlogsumexp_p
from jax_core._src.lax.reductions.cumulative import cummax_p as cummax_p
from jax_core._src.lax.reductions.cumulative import cummin_p as cummin_p
from jax_core._src.lax.reductions.cumulative import cumprod_p as cumprod_p
from jax_core._src.lax.reductions.cumulative import cumsum_p as cumsum_p
from jax_core._src.lax.elementwise import digamma_p as digamma_p
from jax_core._src.lax.elementwise import div_p as div_p
from jax_core._src.lax.linalg.dot import dot_general_p as dot_general_p
from jax_core._src.lax.indexing.slicing import dynamic_slice_p as dynamic_slice_p
from jax_core._src.lax.indexing.slicing import dynamic_update_slice_p as dynamic_update_slice_p
from jax_core._src.lax.elementwise import eq_p as eq_p
from jax_core._src.lax.elementwise import eq_to_p as eq_to_p
from jax_core._src.lax.elementwise import erf_inv_p as erf_inv_p
from jax_core._src.lax.elementwise import erf_p as erf_p
from jax_core._src.lax.elementwise import erfc_p as erfc_p
from jax_core._src.lax.elementwise import exp2_p as exp2_p
from jax_core._src.lax.elementwise import exp_p as exp_p
from jax_core._src.lax.elementwise import expm1_p as expm1_p
from jax_core._src.lax.fft import fft_p as fft_p
from jax_core._src.lax.elementwise import floor_p as floor_p
from jax_core._src.lax.indexing.gather import gather_p as gather_p
from jax_core._src.lax.elementwise import ge_p as ge_p
from jax_core._src.lax.elementwise import gt_p as gt_p
from jax_core._src.lax.special.functions import igamma_grad_a_p as igamma_grad_a_p
from jax_core._src.lax.special.functions import igamma_p as igamma_p
from jax_core._src.lax.special.functions import igammac_p as igammac_p
from jax_core._src.lax.elementwise import imag_p as imag_p
from jax_core._src.lax.elementwise import integer_pow_p as integer_pow_p
from jax_core._src.lax.shape.assembly import iota_p as iota_p
from jax_core._src.lax.elementwise import is_finite_p as is_finite_p
from jax_core._src.lax.elementwise import le_p as le_p
from jax_core._src.lax.elementwise import le_to_p as le_to_p
from jax_core._src.lax.elementwise import lgamma_p as lgamma_p
from jax_core._src.lax.elementwise import log1p_p as log1p_p
from jax_core._src.lax.elementwise import log2_p as log2_p
from jax_core._src.lax.elementwise import log_p as log_p
from jax_core._src.lax.elementwise import logistic_p as logistic_p
from jax_core._src.lax.elementwise import lt_p as lt_p
from jax_core._src.lax.elementwise import lt_to_p as lt_to_p
from jax_core._src.lax.elementwise import max_p as max_p
from jax_core._src.lax.elementwise import min_p as min_p
from jax_core._src.lax.elementwise import mul_p as mul_p
from jax_core._src.lax.elementwise import mulhi_p as mulhi_p
from jax_core._src.lax.elementwise import ne_p as ne_p
from jax_core._src.lax.elementwise import neg_p as neg_p
from jax_core._src.lax.elementwise import nextafter_p as nextafter_p
from jax_core._src.lax.elementwise import not_p as not_p
from jax_core._src.lax.elementwise import one_minus_square_p as one_minus_square_p
from jax_core._src.lax.ad_ops import optimization_barrier_p as optimization_barrier_p
from jax_core._src.lax.elementwise import or_p as or_p
from jax_core._src.lax.shape.assembly import pad_p as pad_p
from jax_core._src.lax.special.functions import polygamma_p as polygamma_p
from jax_core._src.lax.elementwise import polynomial_p as polynomial_p
from jax_core._src.lax.elementwise import population_count_p as population_count_p
from jax_core._src.lax.elementwise import pow_p as pow_p
from jax_core._src.lax.elementwise import real_p as real_p
from jax_core._src.lax.reductions.reduce import reduce_and_p as reduce_and_p
from jax_core._src.lax.reductions.reduce import reduce_max_p as reduce_max_p
from jax_core._src.lax.reductions.reduce import reduce_min_p as reduce_min_p
from jax_core._src.lax.reductions.reduce import reduce_or_p as reduce_or_p
from jax_core._src.lax.reductions.generic import reduce_p as reduce_p
from jax_core._src.lax.elementwise import reduce_precision_p as reduce_precision_p
from jax_core._src.lax.reductions.reduce import reduce_prod_p as reduce_prod_p
from jax_core._src.lax.reductions.reduce import reduce_sum_p as reduce_sum_p
from jax_core._src.lax.windowed.reduce_window import reduce_window_max_p as reduce_window_max_p
from jax_core._src.lax.windowed.reduce_window import reduce_window_min_p as reduce_window_min_p
from jax_core._src.lax.windowed.reduce_window import reduce_window_p as reduce_window_p
from jax_core._src.lax.windowed.reduce_window import reduce_window_sum_p as reduce_window_sum_p
from jax_core._src.lax.reductions.reduce import reduce_xor_p as reduce_xor_p
from jax_core._src.lax.special.functions import regularized_incomplete_beta_p as regularized_incomplete_beta_p
from jax_core._src.lax.elementwise import rem_p as rem_p
from jax_core._src.lax.shape.dimensions import reshape_p as reshape_p
from jax_core._src.lax.shape.assembly import rev_p as rev_p
from jax_core._src.lax.rng import rng_bit_generator_p as rng_bit_generator_p
from jax_core._src.lax.elementwise import round_p as round_p
from jax_core._src.lax.elementwise import rsqrt_p as rsqrt_p
from jax_core._src.lax.control_flow.scan import scan_p as scan_p
from jax_core._src.lax.indexing.scatter import scatter_add_p as scatter_add_p
from jax_core._src.lax.indexing.scatter import scatter_max_p as scatter_max_p
from jax_core._src.lax.indexing.scatter import scatter_min_p as scatter_min_p
from jax_core._src.lax.indexing.scatter import scatter_mul_p as scatter_mul_p
from jax_core._src.lax.indexing.scatter import scatter_p as scatter_p
from jax_core._src.lax.windowed.select_and_scatter import select_and_gather_add_p as select_and_gather_add_p
from jax_core._src.lax.windowed.select_and_scatter import select_and_scatter_add_p as select_and_scatter_add_p
from jax_core._src.lax.elementwise import select_n_p as select_n_p
from jax_core._src.lax.elementwise import shift_left_p as shift_left_p
from jax_core._src.lax.elementwise import shift_right_arithmetic_p as shift_right_arithmetic_p
from jax_core._src.lax.elementwise import shift_right_logical_p as shift_right_logical_p
from jax_core._src.lax.elementwise import sign_p as sign_p
from jax_core._src.lax.elementwise import sin_p as sin_p
from jax_core._src.lax.elementwise import sinh_p as sinh_p
from jax_core._src.lax.indexing.slicing import slice_p as slice_p
from jax_core._src.lax.sorting import sort_p as sort_p
from jax_core._src.lax.elementwise import sqrt_p as sqrt_p
from jax_core._src.lax.elementwise import square_p as square_p
from jax_core._src.lax.shape.dimensions import squeeze_p as squeeze_p
from jax_core._src.lax.ad_ops import stage_p as stage_p
from jax_core._src.lax.ad_ops import stop_gradient_p as stop_gradient_p
from jax_core._src.lax.elementwise import sub_p as sub_p
from jax_core._src.lax.elementwise import tan_p as tan_p
from jax_core._src.lax.elementwise import tanh_p as tanh_p
from jax_core._src.lax.shape.dimensions import transpose_p as transpose_p
from jax_core._src.lax.control_flow.loops import while_p as while_p
from jax_core._src.lax.elementwise import xor_p as xor_p
from jax_core._src.lax.special.functions import zeta_p as zeta_p
from jax_core.lax import linalg as linalg
