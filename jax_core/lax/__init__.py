"""``jax_core.lax``: the primitive operations, strictly typed and without NumPy's conveniences.

lax functions do not promote dtypes (``lax.add`` of float32 and int32 is an error);
they broadcast size-1 and rank-0 operands. Use ``jax_core.numpy`` for NumPy semantics.
"""

from jax_core._src.lax.ad_ops import optimization_barrier as optimization_barrier
from jax_core._src.lax.ad_ops import stop_gradient as stop_gradient
from jax_core._src.lax.control_flow.associative_scan import associative_scan as associative_scan
from jax_core._src.lax.control_flow.conditionals import cond as cond
from jax_core._src.lax.control_flow.conditionals import switch as switch
from jax_core._src.lax.control_flow.loops import fori_loop as fori_loop
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
from jax_core._src.lax.indexing.compositions import scatter_sub as scatter_sub
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
from jax_core._src.lax.linalg.dot import Precision as Precision
from jax_core._src.lax.linalg.dot import batch_matmul as batch_matmul
from jax_core._src.lax.linalg.dot import dot as dot
from jax_core._src.lax.linalg.dot import dot_general as dot_general
from jax_core._src.lax.elementwise.arithmetic import reciprocal as reciprocal
from jax_core._src.lax.parallel import axis_index as axis_index
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
