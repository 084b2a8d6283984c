"""JAX's dtype layer: the dtypes JAX supports, canonicalization and type promotion.

JAX departs from NumPy in two ways that this module implements:

* the set of types: ml_dtypes' ``bfloat16``, the 4/6/8-bit floats and the 1/2/4-bit
  integers are first-class, and with x64 mode off (the default) every 64-bit type is
  *canonicalized* to its 32-bit counterpart (``canonicalize_dtype``);
* type promotion: a lattice (``promote_types``, ``result_type``) in which Python
  scalars are *weakly typed* (nodes ``i*``, ``f*``, ``c*``): they take the width of
  the strongly typed operand they meet instead of forcing 64 bits.

The package is what callers import (``from jax_core._src import dtypes``): the types in
``scalar_types.py``, defaults and canonicalization in ``canonicalize.py``, kinds and ``finfo`` in
``kinds.py``, the lattice in ``promotion.py``. Only numpy, ml_dtypes, ``config`` and ``typing``
are imported, so every layer above can use it.
"""

from jax_core._src.dtypes.canonicalize import canonicalize_dtype as canonicalize_dtype
from jax_core._src.dtypes.canonicalize import (
    check_and_canonicalize_user_dtype as check_and_canonicalize_user_dtype,
)
from jax_core._src.dtypes.canonicalize import (
    check_user_dtype_supported as check_user_dtype_supported,
)
from jax_core._src.dtypes.canonicalize import check_valid_dtype as check_valid_dtype
from jax_core._src.dtypes.canonicalize import coerce_to_array as coerce_to_array
from jax_core._src.dtypes.canonicalize import default_complex_dtype as default_complex_dtype
from jax_core._src.dtypes.canonicalize import default_float_dtype as default_float_dtype
from jax_core._src.dtypes.canonicalize import default_int_dtype as default_int_dtype
from jax_core._src.dtypes.canonicalize import default_types as default_types
from jax_core._src.dtypes.canonicalize import default_uint_dtype as default_uint_dtype
from jax_core._src.dtypes.canonicalize import dtype as dtype
from jax_core._src.dtypes.canonicalize import is_python_scalar as is_python_scalar
from jax_core._src.dtypes.canonicalize import is_weakly_typed as is_weakly_typed
from jax_core._src.dtypes.canonicalize import scalar_type_of as scalar_type_of
from jax_core._src.dtypes.canonicalize import scalar_type_to_dtype as scalar_type_to_dtype
from jax_core._src.dtypes.kinds import finfo as finfo
from jax_core._src.dtypes.kinds import iinfo as iinfo
from jax_core._src.dtypes.kinds import isdtype as isdtype
from jax_core._src.dtypes.kinds import issubdtype as issubdtype
from jax_core._src.dtypes.kinds import itemsize_bits as itemsize_bits
from jax_core._src.dtypes.kinds import short_dtype_name as short_dtype_name
from jax_core._src.dtypes.kinds import supports_inf as supports_inf
from jax_core._src.dtypes.kinds import to_complex_dtype as to_complex_dtype
from jax_core._src.dtypes.kinds import to_floating_dtype as to_floating_dtype
from jax_core._src.dtypes.kinds import to_inexact_dtype as to_inexact_dtype
from jax_core._src.dtypes.kinds import to_numeric_dtype as to_numeric_dtype
from jax_core._src.dtypes.promotion import TypePromotionError as TypePromotionError
from jax_core._src.dtypes.promotion import lattice_result_type as lattice_result_type
from jax_core._src.dtypes.promotion import promote_types as promote_types
from jax_core._src.dtypes.promotion import result_type as result_type
from jax_core._src.dtypes.promotion import safe_to_cast as safe_to_cast
from jax_core._src.dtypes.scalar_types import PROMOTABLE_DTYPES as PROMOTABLE_DTYPES
from jax_core._src.dtypes.scalar_types import ExtendedDType as ExtendedDType
from jax_core._src.dtypes.scalar_types import bfloat16 as bfloat16
from jax_core._src.dtypes.scalar_types import bool_ as bool_
from jax_core._src.dtypes.scalar_types import complex_ as complex_
from jax_core._src.dtypes.scalar_types import extended as extended
from jax_core._src.dtypes.scalar_types import float0 as float0
from jax_core._src.dtypes.scalar_types import float4_e2m1fn as float4_e2m1fn
from jax_core._src.dtypes.scalar_types import float6_e2m3fn as float6_e2m3fn
from jax_core._src.dtypes.scalar_types import float6_e3m2fn as float6_e3m2fn
from jax_core._src.dtypes.scalar_types import float8_e3m4 as float8_e3m4
from jax_core._src.dtypes.scalar_types import float8_e4m3 as float8_e4m3
from jax_core._src.dtypes.scalar_types import float8_e4m3b11fnuz as float8_e4m3b11fnuz
from jax_core._src.dtypes.scalar_types import float8_e4m3fn as float8_e4m3fn
from jax_core._src.dtypes.scalar_types import float8_e4m3fnuz as float8_e4m3fnuz
from jax_core._src.dtypes.scalar_types import float8_e5m2 as float8_e5m2
from jax_core._src.dtypes.scalar_types import float8_e5m2fnuz as float8_e5m2fnuz
from jax_core._src.dtypes.scalar_types import float8_e8m0fnu as float8_e8m0fnu
from jax_core._src.dtypes.scalar_types import float_ as float_
from jax_core._src.dtypes.scalar_types import int1 as int1
from jax_core._src.dtypes.scalar_types import int2 as int2
from jax_core._src.dtypes.scalar_types import int4 as int4
from jax_core._src.dtypes.scalar_types import int_ as int_
from jax_core._src.dtypes.scalar_types import is_extended_dtype as is_extended_dtype
from jax_core._src.dtypes.scalar_types import prng_key as prng_key
from jax_core._src.dtypes.scalar_types import python_scalar_dtypes as python_scalar_dtypes
from jax_core._src.dtypes.scalar_types import python_scalar_types as python_scalar_types
from jax_core._src.dtypes.scalar_types import string_dtype as string_dtype
from jax_core._src.dtypes.scalar_types import uint as uint
from jax_core._src.dtypes.scalar_types import uint1 as uint1
from jax_core._src.dtypes.scalar_types import uint2 as uint2
from jax_core._src.dtypes.scalar_types import uint4 as uint4
from jax_core._src.typing import DType as DType

__all__ = [
    "DType",
    "ExtendedDType",
    "TypePromotionError",
    "bfloat16",
    "bool_",
    "canonicalize_dtype",
    "check_and_canonicalize_user_dtype",
    "check_user_dtype_supported",
    "check_valid_dtype",
    "coerce_to_array",
    "complex_",
    "default_complex_dtype",
    "default_float_dtype",
    "default_int_dtype",
    "default_types",
    "default_uint_dtype",
    "dtype",
    "extended",
    "finfo",
    "float0",
    "float4_e2m1fn",
    "float6_e2m3fn",
    "float6_e3m2fn",
    "float8_e3m4",
    "float8_e4m3",
    "float8_e4m3b11fnuz",
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
    "float_",
    "iinfo",
    "int1",
    "int2",
    "int4",
    "int_",
    "is_extended_dtype",
    "is_python_scalar",
    "is_weakly_typed",
    "isdtype",
    "issubdtype",
    "itemsize_bits",
    "lattice_result_type",
    "prng_key",
    "promote_types",
    "python_scalar_dtypes",
    "python_scalar_types",
    "result_type",
    "safe_to_cast",
    "scalar_type_of",
    "scalar_type_to_dtype",
    "short_dtype_name",
    "string_dtype",
    "supports_inf",
    "to_complex_dtype",
    "to_floating_dtype",
    "to_inexact_dtype",
    "to_numeric_dtype",
    "uint",
    "uint1",
    "uint2",
    "uint4",
]
