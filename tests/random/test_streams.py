"""Bit-exactness: every stream recorded from JAX 0.12 (tools/record_random_streams.py) is
reproduced bit for bit by jax_core evaluating the same expression."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import random
from jax_core._src.config import enable_x64

DATA = pathlib.Path(__file__).parent.parent / "data" / "random_streams.json"
RECORDED: dict[str, Any] = json.loads(DATA.read_text())
CASES: list[dict[str, Any]] = RECORDED["cases"]
ENV: dict[str, Any] = {"jax": jax, "jnp": jnp, "np": np, "random": random}


def _bytes(x: Any) -> tuple[str, list[int], str]:
    arr = np.asarray(x)
    return arr.dtype.name, list(arr.shape), np.ascontiguousarray(arr).tobytes().hex()


def test_recorded_with_jax_defaults() -> None:
    config = RECORDED["config"]
    assert config["jax_threefry_partitionable"] is True
    assert config["jax_default_prng_impl"] == "threefry2x32"
    assert config["jax_enable_x64"] is False
    assert len(CASES) >= 400


@pytest.mark.parametrize("case", CASES, ids=[c["expr"] for c in CASES])
def test_stream_is_bit_identical(case: dict[str, Any]) -> None:
    got = eval(case["expr"], dict(ENV))
    dtype, shape, data = _bytes(got)
    assert (dtype, shape) == (case["dtype"], case["shape"])
    if data != case["hex"]:
        want = np.frombuffer(bytes.fromhex(case["hex"]), dtype=np.asarray(got).dtype).reshape(shape)
        pytest.fail(f"stream differs from JAX's:\n got {np.asarray(got)}\nwant {want}")


X64: list[dict[str, Any]] = RECORDED["x64_cases"]


@pytest.mark.parametrize("case", X64, ids=[c["expr"] for c in X64])
def test_x64_stream_is_bit_identical(case: dict[str, Any]) -> None:
    with enable_x64(True):
        got = eval(case["expr"], dict(ENV))
        dtype, shape, data = _bytes(got)
    assert (dtype, shape) == (case["dtype"], case["shape"])
    assert data == case["hex"], np.asarray(got)
