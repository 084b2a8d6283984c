"""Dtype utilities: JAX's extra dtypes, canonicalization and type promotion.

The public mirror of ``jax.dtypes``: ``canonicalize_dtype`` (64-bit types become
32-bit ones unless x64 mode is on), ``result_type`` and ``issubdtype`` with JAX's
rules (weakly typed Python scalars, ``bfloat16`` and the other ml_dtypes types),
``finfo``/``iinfo`` that know the ml_dtypes types, ``float0`` (the dtype of
tangents of integer values) and the ``extended``/``prng_key`` scalar classes.
"""

from jax_core._src.dtypes import TypePromotionError as TypePromotionError
from jax_core._src.dtypes import bfloat16 as bfloat16
from jax_core._src.dtypes import canonicalize_dtype as canonicalize_dtype
from jax_core._src.dtypes import extended as extended
from jax_core._src.dtypes import finfo as finfo
from jax_core._src.dtypes import float0 as float0
from jax_core._src.dtypes import iinfo as iinfo
from jax_core._src.dtypes import issubdtype as issubdtype
from jax_core._src.dtypes import itemsize_bits as itemsize_bits
from jax_core._src.dtypes import prng_key as prng_key
from jax_core._src.dtypes import result_type as result_type
from jax_core._src.dtypes import scalar_type_of as scalar_type_of
