"""``jax.extend.linear_util``: functions with a stack of transformations applied when called.

``wrap_init(f)`` makes a ``WrappedFun``; ``transformation``/``transformation_with_aux`` (generator
style) and their ``*2`` forms (plain functions) add transformations; ``call_wrapped`` calls it;
``cache`` memoizes functions of ``WrappedFun``s.
"""

from collections.abc import Callable as Callable

from jax_core._src.extend.linear_util import StoreException as StoreException
from jax_core._src.extend.linear_util import WrappedFun as WrappedFun
from jax_core._src.extend.linear_util import cache as cache
from jax_core._src.extend.linear_util import merge_linear_aux as merge_linear_aux
from jax_core._src.extend.linear_util import transformation as transformation
from jax_core._src.extend.linear_util import transformation2 as transformation2
from jax_core._src.extend.linear_util import transformation_with_aux as transformation_with_aux
from jax_core._src.extend.linear_util import transformation_with_aux2 as transformation_with_aux2
from jax_core._src.extend.linear_util import wrap_init as wrap_init

__all__ = [
    "Callable",
    "StoreException",
    "WrappedFun",
    "cache",
    "merge_linear_aux",
    "transformation",
    "transformation2",
    "transformation_with_aux",
    "transformation_with_aux2",
    "wrap_init",
]
