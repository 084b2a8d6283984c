"""jax_core.dlpack against real JAX: importing NumPy arrays (zero-copy when aligned), dtype
canonicalization, the supported dtypes, the errors; and exporting a jax_core array's device
buffer through ``__dlpack__`` (the lead wires ``Array.__dlpack__`` to ``to_dlpack``; until then
the exporter is exercised through a wrapper object)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jax_core
import jax_core.numpy as jnp
from jax_core import dlpack
from jax_core._src.runtime.dlpack import DLDeviceType, dlpack_device, to_dlpack
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture

D = "jax.dlpack"
EXPRS = [
    f"{D}.from_dlpack(np.arange(6, dtype=np.float32).reshape(2, 3))",
    f"{D}.from_dlpack(np.arange(3, dtype=np.int16))",
    f"{D}.from_dlpack(np.ones(3))",
    f"{D}.from_dlpack(np.arange(4, dtype=np.int64))",
    f"{D}.from_dlpack(np.array(2.5, np.float16))",
    f"{D}.from_dlpack(np.array([True, False]))",
    f"{D}.from_dlpack(np.array([1 + 2j], np.complex64))",
    f"{D}.from_dlpack(np.zeros((2, 0), np.uint8))",
    f"{D}.from_dlpack(np.arange(6.0, dtype=np.float32).reshape(2, 3).T)",
    f"{D}.from_dlpack(np.ones(3)).committed",
    f"{D}.from_dlpack(np.ones(3, np.float32), device=jax.devices()[0])",
    f"{D}.from_dlpack(np.ones(3, np.float32), copy=True)",
    f"jax.jit(lambda x: x * 2)({D}.from_dlpack(np.arange(3, dtype=np.float32)))",
    f"{D}.from_dlpack([1, 2])",
    f"{D}.from_dlpack(np.arange(3)[::2])",
    *(
        f"{D}.is_supported_dtype({t})"
        for t in (
            "'float32'", "jnp.bfloat16", "jnp.int4", "jnp.float8_e4m3fn", "np.complex128", "bool",
            "np.dtype('uint64')", "None", "'float0'",
        )
    ),
]  # fmt: skip
CALLS = [Call(e) for e in EXPRS] + [Call(EXPRS[2], x64=True), Call(EXPRS[3], x64=True)]
live = live_fixture(CALLS[: len(EXPRS)])
CALLS64 = CALLS[len(EXPRS) :]
live64 = live_fixture(CALLS64)


@pytest.mark.parametrize("call", CALLS[: len(EXPRS)], ids=EXPRS)
def test_same_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    assert_same(here(call), live[call.expr], call.expr, messages=True)


@pytest.mark.parametrize("call", CALLS64, ids=["x64 float64", "x64 int64"])
def test_same_as_live_jax_x64(call: Call, live64: dict[str, Outcome]) -> None:
    assert_same(here(call), live64[call.expr], call.expr, messages=True)


def _aligned(n: int) -> np.ndarray[Any, Any]:
    buf = np.empty(n + 16, np.float32)
    off = (-buf.ctypes.data % 64) // 4
    out = buf[off : off + n]
    out[:] = np.arange(n)
    return out


def test_aligned_input_is_not_copied() -> None:
    x = _aligned(8)
    a = dlpack.from_dlpack(x, copy=False)
    assert a.unsafe_buffer_pointer() == x.ctypes.data
    np.testing.assert_array_equal(np.asarray(a), x)


def test_misaligned_input_without_copy_is_refused() -> None:
    x = _aligned(9)[1:]
    with pytest.raises(ValueError, match="not aligned to 64 bytes.  However copy=False"):
        dlpack.from_dlpack(x, copy=False)
    np.testing.assert_array_equal(np.asarray(dlpack.from_dlpack(x)), x)


class _Exported:
    """What ``Array.__dlpack__``/``__dlpack_device__`` do once wired to the exporter."""

    def __init__(self, x: jax_core.Array) -> None:
        self.x = x

    def __dlpack__(self, **kwargs: Any) -> Any:
        return to_dlpack(self.x, **kwargs)

    def __dlpack_device__(self) -> tuple[DLDeviceType, int]:
        return dlpack_device(self.x)


def test_export_shares_the_device_buffer() -> None:
    y = jnp.arange(4.0)
    z = np.from_dlpack(_Exported(y))
    assert z.ctypes.data == y.unsafe_buffer_pointer()
    assert not z.flags.writeable  # DLPack 1.0 marks it read-only
    np.testing.assert_array_equal(z, [0.0, 1.0, 2.0, 3.0])
    back = dlpack.from_dlpack(_Exported(y))
    assert back.unsafe_buffer_pointer() == y.unsafe_buffer_pointer()
    copied = np.from_dlpack(_Exported(y), copy=True)
    assert copied.ctypes.data != y.unsafe_buffer_pointer()
    assert dlpack_device(y) == (DLDeviceType.kDLCPU, 0)


def test_export_errors() -> None:
    y = jnp.ones(2)
    with pytest.raises(BufferError, match="does not support any version below"):
        to_dlpack(y, max_version=(0, 4))
    with pytest.raises(BufferError, match="unsupported device type"):
        to_dlpack(y, dl_device=(7, 0))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a jax.Array"):
        to_dlpack(np.ones(2))  # type: ignore[arg-type]


def test_numpy_reads_jax_core_arrays() -> None:
    # works today through Array.__dlpack__ (a host copy until the lead wires to_dlpack)
    np.testing.assert_array_equal(np.from_dlpack(jnp.arange(3)), [0, 1, 2])


def test_torch_round_trip() -> None:
    torch = pytest.importorskip("torch")
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    a = dlpack.from_dlpack(t)
    np.testing.assert_array_equal(np.asarray(a), t.numpy())
    back = torch.from_dlpack(_Exported(a))
    assert back.shape == (2, 3)
