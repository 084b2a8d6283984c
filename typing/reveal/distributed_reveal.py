"""``jax_core.distributed`` and the global-array helpers keep their types."""

from typing import Any, assert_type

import numpy as np

import jax_core as jax
from jax_core.sharding import NamedSharding, PartitionSpec as P



def join() -> None:  # not called: the corpus may be run, and joining needs a coordinator
    assert_type(jax.distributed.initialize("127.0.0.1:1234", 2, 0), None)
    assert_type(jax.distributed.shutdown(), None)


assert_type(jax.distributed.is_initialized(), bool)
assert_type(jax.process_index(), int)
assert_type(jax.process_count(), int)
assert_type(jax.process_indices(), list[int])

s = NamedSharding(jax.make_mesh((1,), ("x",)), P("x"))
assert_type(jax.make_array_from_process_local_data(s, np.zeros((4, 2))), jax.Array)
assert_type(jax.make_array_from_process_local_data(s, np.zeros((4, 2)), (4, 2)), jax.Array)
assert_type(jax.make_array_from_process_local_data(s, {"a": np.zeros(4)}), Any)
x = jax.make_array_from_process_local_data(s, np.zeros(4))
assert_type(x.is_fully_addressable, bool)
