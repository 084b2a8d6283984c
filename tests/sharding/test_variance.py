"""Device-variance types inside ``shard_map`` (seed 000 part 7), in process on a one-device mesh:
how avals print, where ``pvary`` is inserted, what ``psum`` becomes, the static check of
``out_specs``, and the device count options (in fresh processes)."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src.core.avals import ShapedArray
from jax_core.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((1,), ("i",), axis_types=(AxisType.Auto,))
x = np.arange(4.0, dtype=np.float32)


def _body(jaxpr: object) -> list[str]:
    eqn = jaxpr.jaxpr.eqns[0]  # type: ignore[attr-defined]
    assert eqn.primitive.name == "shard_map"
    inner = eqn.params["jaxpr"]
    return [str(e.primitive) + ":" + ",".join(str(v.aval) for v in e.outvars) for e in inner.eqns]


def test_avals_carry_variance_and_print_it() -> None:
    a = ShapedArray((4, 2), np.dtype(np.float32))
    v = a.update(vma=frozenset({"i"}))
    assert a != v and hash(a) != hash(v) and v == ShapedArray((4, 2), np.dtype(np.float32), False, frozenset({"i"}))
    assert v.str_short() == "f32[4,2]{V:i}" and str(v) == "float32[4,2]{V:i}"
    assert v.strip_weak_type().vma == frozenset({"i"})


def test_operands_varying_over_fewer_axes_get_pvary() -> None:
    f = jax.shard_map(lambda a, b: a * b + 1.0, mesh=mesh, in_specs=(P("i"), P()), out_specs=P("i"))
    body = _body(jax.make_jaxpr(f)(x, x))
    # b (invariant) is cast to vary before the multiply; the literal 1.0 is not cast.
    assert body == ["pvary:float32[4]{V:i}", "mul:float32[4]{V:i}", "add:float32[4]{V:i}"]
    np.testing.assert_array_equal(np.asarray(f(x, x)), x * x + 1)


def test_psum_of_varying_is_psum_invariant_and_of_invariant_first_pvary() -> None:
    varying = jax.shard_map(lambda a: lax.psum(a, "i"), mesh=mesh, in_specs=P("i"), out_specs=P())
    assert _body(jax.make_jaxpr(varying)(x)) == ["psum_invariant:float32[4]"]
    invariant = jax.shard_map(lambda a: lax.psum(a, "i"), mesh=mesh, in_specs=P(), out_specs=P())
    assert _body(jax.make_jaxpr(invariant)(x)) == ["pvary:float32[4]{V:i}", "psum_invariant:float32[4]"]
    np.testing.assert_array_equal(np.asarray(invariant(x)), x)  # one device: the sum is x
    assert jax.shard_map(lambda a: a * lax.psum(1, "i"), mesh=mesh, in_specs=P(), out_specs=P())(x).shape == (4,)


def test_unchecked_bodies_use_psum_p_without_variance() -> None:
    f = jax.shard_map(lambda a: lax.psum(a, "i"), mesh=mesh, in_specs=P("i"), out_specs=P(), check_vma=False)
    assert _body(jax.make_jaxpr(f)(x)) == ["psum:float32[4]"]


def test_out_specs_that_claim_replication_of_a_varying_value_are_rejected() -> None:
    f = jax.shard_map(lambda a: a, mesh=mesh, in_specs=P("i"), out_specs=P())
    with pytest.raises(ValueError, match=r"out_specs is P\(\) which implies that the corresponding output value is only varying across mesh axes \{\} and not \{i\}"):
        f(x)
    # the same program without the check runs
    np.testing.assert_array_equal(np.asarray(jax.shard_map(lambda a: a, mesh=mesh, in_specs=P("i"), out_specs=P(), check_vma=False)(x)), x)


def test_axis_index_varies_over_its_axis() -> None:
    f = jax.shard_map(lambda a: a + lax.axis_index("i"), mesh=mesh, in_specs=P(), out_specs=P("i"))
    assert _body(jax.make_jaxpr(f)(jnp.zeros(4, jnp.int32))) == [
        "axis_index:int32[]{V:i}", "pvary:int32[4]{V:i}", "add:int32[4]{V:i}",
    ]  # fmt: skip


def test_pcast_to_varying() -> None:
    f = jax.shard_map(lambda a: lax.pcast(a, "i", to="varying"), mesh=mesh, in_specs=P(), out_specs=P("i"))
    assert _body(jax.make_jaxpr(f)(x)) == ["pvary:float32[4]{V:i}"]
    g = jax.shard_map(lambda a: lax.pcast(a, "i", to="varying"), mesh=mesh, in_specs=P("i"), out_specs=P("i"))
    with pytest.raises(ValueError, match="Unsupported pcast from=varying"):
        g(x)
    with pytest.raises(ValueError, match="Got unexpected `to` value"):
        lax.pcast(x, "i", to="sideways")


def test_grad_transposes_psum_to_pvary() -> None:
    f = jax.shard_map(lambda a: lax.psum(jnp.sin(a), "i"), mesh=mesh, in_specs=P("i"), out_specs=P())
    j = jax.make_jaxpr(jax.grad(lambda a: f(a).sum()))(x)
    names = [[e.primitive.name for e in q.params["jaxpr"].eqns] for q in j.jaxpr.eqns if q.primitive.name == "shard_map"]
    assert "psum_invariant" in names[0]
    assert "pvary" in names[-1] and "psum_invariant" not in names[-1] and "psum" not in names[-1]
    np.testing.assert_allclose(np.asarray(jax.grad(lambda a: f(a).sum())(x)), np.cos(x), rtol=1e-6)


def _devices_in_fresh_process(code: str, env: dict[str, str]) -> str:
    full = {k: v for k, v in os.environ.items() if k not in ("XLA_FLAGS", "JAX_NUM_CPU_DEVICES")}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env={**full, **env}, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.strip()


def test_num_cpu_devices_option_and_environment_variable() -> None:
    code = (
        "import jax_core as jax\n"
        "jax.config.update('jax_num_cpu_devices', 4)\n"
        "print(jax.device_count(), jax.local_device_count(), jax.process_count(), jax.process_index())\n"
        "try:\n    jax.config.update('jax_num_cpu_devices', 2)\nexcept RuntimeError as e:\n    print(str(e)[:60])\n"
    )
    assert _devices_in_fresh_process(code, {}).splitlines() == [
        "4 4 1 0", "jax_num_cpu_devices config should be updated before backends",
    ]  # fmt: skip
    assert _devices_in_fresh_process("import jax_core as jax; print(jax.device_count())", {"JAX_NUM_CPU_DEVICES": "3"}) == "3"
