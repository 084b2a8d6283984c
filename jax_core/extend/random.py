"""``jax.extend.random``: defining PRNG implementations and working with their keys.

``define_prng_impl`` builds an implementation from functions on one key; the built-in
implementations (``threefry_prng_impl``, ``rbg_prng_impl``, ``unsafe_rbg_prng_impl``) and the
threefry2x32 hash (``threefry2x32_p``, ``threefry_2x32``) are the building blocks::

    >>> import jax_core as jax
    >>> from jax_core.extend import random as jex_random
    >>> k = jex_random.seed_with_impl(jex_random.rbg_prng_impl, 0)
    >>> k.dtype
    key<rbg>
"""

from jax_core._src.random.api import random_seed as random_seed
from jax_core._src.random.api import random_unwrap as random_unwrap
from jax_core._src.random.api import random_wrap as random_wrap
from jax_core._src.random.custom_impls import define_prng_impl as define_prng_impl
from jax_core._src.random.custom_impls import seed_with_impl as seed_with_impl
from jax_core._src.random.custom_impls import threefry2x32_p as threefry2x32_p
from jax_core._src.random.custom_impls import threefry_2x32 as threefry_2x32
from jax_core._src.random.keys import PRNGImpl as PRNGImpl
from jax_core._src.random.rbg import rbg_prng_impl as rbg_prng_impl
from jax_core._src.random.rbg import unsafe_rbg_prng_impl as unsafe_rbg_prng_impl
from jax_core._src.random.threefry import threefry_prng_impl as threefry_prng_impl

__all__ = [
    "PRNGImpl",
    "define_prng_impl",
    "random_seed",
    "random_unwrap",
    "random_wrap",
    "rbg_prng_impl",
    "seed_with_impl",
    "threefry2x32_p",
    "threefry_2x32",
    "threefry_prng_impl",
    "unsafe_rbg_prng_impl",
]
