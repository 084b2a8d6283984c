"""Exporting functions that run over a mesh (seed 004, "device-polymorphic export"): 8 host CPU
devices, each program run under jax_core and under real JAX in fresh processes and compared."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.oracle import client
from tests.sharding._programs import ROOT, close, run_both

PROGRAM = """
if sys.argv[1] == "jax_core":
    from jax_core import export
    from jax_core.sharding import Mesh
else:
    from jax import export
    from jax.sharding import Mesh

devices = jax.local_devices()

def shards(x):
    return [f"{s.device.id} {s.index}" for s in x.addressable_shards]

def f(x):
    return x.T * 2

export_mesh = Mesh(np.array(devices[:4]), ("a",))
exp = export.export(jax.jit(f))(
    jax.ShapeDtypeStruct((32,), dtype=np.int32, sharding=NamedSharding(export_mesh, P("a"))))
arg = jnp.arange(8 * 4)

@case
def fields():
    return [exp.nr_devices, str(exp.in_shardings_hlo), [str(a) for a in exp.in_avals],
            str(exp.in_shardings_jax(export_mesh)[0].spec), str(exp.out_shardings_jax(export_mesh))]

@case
def on_the_export_mesh():
    res = exp.call(jax.device_put(arg, NamedSharding(export_mesh, P("a"))))
    return [val(res), shards(res)]

@case
def on_another_mesh_of_four():
    other = Mesh(np.array(devices[2:6]).reshape((2, 2)), ("b", "c"))
    res = exp.call(jax.device_put(arg, NamedSharding(other, P("b"))))
    return [val(res), shards(res)]

@case
def with_in_shardings_jax():
    calling = Mesh(np.array(devices[:4][::-1]), ("a",))
    res = exp.call(jax.device_put(arg, exp.in_shardings_jax(calling)[0]))
    return [val(res), shards(res)]

@case
def mesh_of_other_axes():
    return str(exp.in_shardings_jax(Mesh(np.array(devices[:4]), ("b",))))

@case
def on_one_device():
    return val(exp.call(arg))

@case
def under_jit_on_the_mesh():
    g = jax.jit(lambda x: exp.call(x) + 1, in_shardings=NamedSharding(export_mesh, P("a")))
    return val(g(arg))

@case
def grad_through_the_vjp():
    x = jax.device_put(jnp.arange(32, dtype=np.float32), NamedSharding(export_mesh, P("a")))
    e = export.export(jax.jit(lambda x: jnp.sin(x) * 3))(x)
    return [e.nr_devices, val(jax.grad(lambda x: e.call(x).sum())(x))]

@case
def serialized_and_back():
    back = export.deserialize(exp.serialize())
    other = Mesh(np.array(devices[4:8]), ("a",))
    res = back.call(jax.device_put(arg, NamedSharding(other, P("a"))))
    return [back.nr_devices, str(back.in_shardings_jax(other)[0].spec), val(res), shards(res)]

@case
def one_device_export_on_sharded_arguments():
    e = export.export(jax.jit(jnp.cos))(jnp.arange(4))
    calling = Mesh(devices[:4], ("b",))
    res = e.call(jax.device_put(jnp.arange(4), NamedSharding(calling, P("b"))))
    return [e.nr_devices, val(res)]
"""


def test_device_polymorphic_export_matches_jax() -> None:
    ours, theirs = run_both(PROGRAM)
    assert ours.keys() == theirs.keys()
    differ = {name: (ours[name], theirs[name]) for name in theirs if not close(ours[name], theirs[name], rtol=1e-6)}
    assert not differ


def test_jax_runs_a_sharded_artifact_jax_core_wrote(tmp_path: Path) -> None:
    """A blob jax_core serialized for 4 devices: real JAX deserializes it and runs it on another
    mesh of 4 devices, sharded as exported."""
    blob = tmp_path / "sharded.bin"
    write = f"""
import numpy as np, jax_core as jax
from jax_core import export
from jax_core.sharding import Mesh, NamedSharding, PartitionSpec as P
m = Mesh(np.array(jax.local_devices()[:4]), ("a",))
e = export.export(jax.jit(lambda x: x.T * 2))(jax.ShapeDtypeStruct((32,), np.int32, sharding=NamedSharding(m, P("a"))))
open({str(blob)!r}, "wb").write(e.serialize())
"""
    read = f"""
import numpy as np, jax
from jax import export
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
e = export.deserialize(bytearray(open({str(blob)!r}, "rb").read()))
m = Mesh(np.array(jax.local_devices()[2:6]), ("a",))
r = e.call(jax.device_put(np.arange(32, dtype=np.int32), NamedSharding(m, P("a"))))
print(e.nr_devices, str(e.in_shardings_jax(m)[0].spec), np.asarray(r).tolist(), [s.device.id for s in r.addressable_shards])
"""
    client.need()
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=8"}
    for python, source in ((sys.executable, write), (str(client.python()), read)):
        done = subprocess.run([python, "-c", source], capture_output=True, text=True, timeout=240, env=env, cwd=ROOT, check=False)
        assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout.strip()
    assert out == f"4 P('a',) {[2 * i for i in range(32)]} [2, 3, 4, 5]"
