"""``jax.experimental.multihost_utils``: moving values between the processes of a multi-process
run (see ``jax_core.distributed.initialize``).

Example::

    import jax_core as jax
    from jax_core.experimental import multihost_utils

    jax.distributed.initialize("127.0.0.1:1234", num_processes=2, process_id=pid)
    rows = multihost_utils.process_allgather(np.arange(3) * jax.process_index())  # shape (2, 3)
    multihost_utils.sync_global_devices("after step 1")

Every function also works on one process (``process_allgather`` then adds the leading axis,
``broadcast_one_to_all`` returns the values as NumPy arrays).
"""

from jax_core._src.multihost.conversion import (
    global_array_to_host_local_array as global_array_to_host_local_array,
)
from jax_core._src.multihost.conversion import (
    global_array_to_host_local_array_p as global_array_to_host_local_array_p,
)
from jax_core._src.multihost.conversion import (
    host_local_array_to_global_array as host_local_array_to_global_array,
)
from jax_core._src.multihost.conversion import (
    host_local_array_to_global_array_p as host_local_array_to_global_array_p,
)
from jax_core._src.multihost.gather import assert_equal as assert_equal
from jax_core._src.multihost.gather import broadcast_one_to_all as broadcast_one_to_all
from jax_core._src.multihost.gather import process_allgather as process_allgather
from jax_core._src.multihost.gather import (
    reached_preemption_sync_point as reached_preemption_sync_point,
)
from jax_core._src.multihost.gather import sync_global_devices as sync_global_devices

__all__ = [
    "assert_equal",
    "broadcast_one_to_all",
    "global_array_to_host_local_array",
    "global_array_to_host_local_array_p",
    "host_local_array_to_global_array",
    "host_local_array_to_global_array_p",
    "process_allgather",
    "reached_preemption_sync_point",
    "sync_global_devices",
]
