"""Collectives over named axes: the mesh axes of ``shard_map`` (and ``pmap``), or the axis a
``vmap(..., axis_name=...)`` binds.

``reductions.py``: ``psum``/``pmax``/``pmin``/``pmean``, ``psum_invariant`` and the variance
casts (``pvary``, ``pcast``); ``axis.py``: ``axis_index``, ``axis_size``; ``gather.py``:
``all_gather``, ``psum_scatter``, ``all_to_all``, ``pswapaxes``; ``permute.py``: ``ppermute``,
``pshuffle``, ``pbroadcast``; ``groups.py``: which devices a collective lowers over.
"""

from jax_core._src.lax.parallel.axis import axis_index as axis_index
from jax_core._src.lax.parallel.axis import axis_index_p as axis_index_p
from jax_core._src.lax.parallel.axis import axis_size as axis_size
from jax_core._src.lax.parallel.reductions import pcast as pcast
from jax_core._src.lax.parallel.reductions import pmax as pmax
from jax_core._src.lax.parallel.reductions import pmax_p as pmax_p
from jax_core._src.lax.parallel.reductions import pmin_p as pmin_p
from jax_core._src.lax.parallel.reductions import psum_invariant_p as psum_invariant_p
from jax_core._src.lax.parallel.reductions import psum_p as psum_p
from jax_core._src.lax.parallel.reductions import pvary_p as pvary_p
from jax_core._src.lax.parallel.reductions import pmean as pmean
from jax_core._src.lax.parallel.reductions import pmin as pmin
from jax_core._src.lax.parallel.reductions import psum as psum
from jax_core._src.lax.parallel.gather import all_gather as all_gather
from jax_core._src.lax.parallel.gather import all_gather_invariant_p as all_gather_invariant_p
from jax_core._src.lax.parallel.gather import all_gather_p as all_gather_p
from jax_core._src.lax.parallel.gather import all_to_all as all_to_all
from jax_core._src.lax.parallel.gather import all_to_all_p as all_to_all_p
from jax_core._src.lax.parallel.gather import psum_scatter as psum_scatter
from jax_core._src.lax.parallel.gather import pswapaxes as pswapaxes
from jax_core._src.lax.parallel.gather import reduce_scatter_p as reduce_scatter_p
from jax_core._src.lax.parallel.permute import pbroadcast as pbroadcast
from jax_core._src.lax.parallel.permute import pbroadcast_p as pbroadcast_p
from jax_core._src.lax.parallel.permute import ppermute as ppermute
from jax_core._src.lax.parallel.permute import ppermute_p as ppermute_p
from jax_core._src.lax.parallel.permute import pshuffle as pshuffle
