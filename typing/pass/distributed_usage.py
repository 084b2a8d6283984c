"""Multi-process runs as JAX code writes them: joining, querying the processes, building global
arrays from each process's data, leaving."""

import os

import numpy as np

import jax_core as jax
from jax_core.sharding import NamedSharding, PartitionSpec as P


def join() -> None:
    jax.distributed.initialize(
        coordinator_address=os.environ["JAX_COORDINATOR_ADDRESS"],
        num_processes=int(os.environ["JAX_NUM_PROCESSES"]),
        process_id=int(os.environ["JAX_PROCESS_ID"]),
        local_device_ids=[0, 1],
        initialization_timeout=60,
        heartbeat_timeout_seconds=10,
    )
    jax.distributed.initialize("10.0.0.1:1234", 2, 0, local_device_ids=0, cluster_detection_method="deactivate")
    jax.distributed.initialize()  # from JAX_COORDINATOR_ADDRESS / JAX_NUM_PROCESSES / JAX_PROCESS_ID


def global_batch(rows: np.ndarray) -> jax.Array:
    mesh = jax.make_mesh((jax.process_count(), jax.local_device_count()), ("hosts", "devices"))
    sharding = NamedSharding(mesh, P(("hosts", "devices")))
    batch: jax.Array = jax.make_array_from_process_local_data(sharding, rows)
    sized = jax.make_array_from_process_local_data(sharding, rows, (rows.shape[0] * jax.process_count(),))
    tree = jax.make_array_from_process_local_data(sharding, {"x": rows, "y": rows})
    print(tree["x"].shape, sized.is_fully_addressable, mesh.local_mesh.devices.shape)
    for shard in batch.addressable_shards:
        print(shard.device.process_index, shard.index, shard.data.shape)
    print(len(batch.global_shards), jax.process_index(), jax.process_indices())
    return batch


def leave() -> None:
    if jax.distributed.is_initialized():
        jax.distributed.shutdown()


def across_processes(loss: jax.Array, params: dict[str, jax.Array], mesh: jax.sharding.Mesh) -> None:
    from jax_core.experimental import multihost_utils

    losses = multihost_utils.process_allgather(loss)
    print(losses.mean(), multihost_utils.process_allgather({"p": params["w"]}, tiled=True)["p"].shape)
    params = multihost_utils.broadcast_one_to_all(params)
    multihost_utils.sync_global_devices("after init")
    multihost_utils.assert_equal(np.zeros(3), "params differ")
    g = multihost_utils.host_local_array_to_global_array(np.zeros((4, 2)), mesh, P("hosts"))
    local = multihost_utils.global_array_to_host_local_array(g, mesh, P("hosts"))
    print(local, multihost_utils.reached_preemption_sync_point(10))
