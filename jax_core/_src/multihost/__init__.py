"""Multi-process helpers behind ``jax_core.experimental.multihost_utils``.

``gather``: collectives over the processes of a run, done with one small ``jit`` over a
``(processes, local_devices)`` mesh (``process_allgather``, ``broadcast_one_to_all``,
``sync_global_devices``, ``assert_equal``), and ``reached_preemption_sync_point``.
``conversion``: the two primitives that turn a process's local block into a global array and
back (``host_local_array_to_global_array``, ``global_array_to_host_local_array``).

Every function also works on one process, where they reduce to JAX's fast paths.
"""
