"""``jax_core.distributed`` with wrong argument types."""

import jax_core as jax

jax.distributed.initialize(coordinator_address=1234)  # E:
jax.distributed.initialize("127.0.0.1:1234", num_processes="2")  # E:
jax.distributed.initialize("127.0.0.1:1234", 2, process_id=0.0)  # E:
jax.distributed.initialize("127.0.0.1:1234", 2, 0, initialization_timeout="60")  # E:
ok: str = jax.distributed.is_initialized()  # E:
jax.distributed.shutdown(True)  # E:
