"""Configuration: jax_enable_x64 through the config API, the context manager and the env var."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core._src.config import enable_x64

ROOT = Path(__file__).resolve().parents[1]


def test_default_is_32_bit() -> None:
    assert not jax.config.jax_enable_x64
    assert jnp.array(1.0).dtype == np.float32
    assert jnp.array([1, 2]).dtype == np.int32
    assert jnp.asarray(np.arange(3, dtype=np.float64)).dtype == np.float32


def test_context_manager_enables_64_bit_locally() -> None:
    with enable_x64(True):
        assert jax.config.jax_enable_x64
        assert jnp.array(1.0).dtype == np.float64
        assert jnp.asarray(np.arange(3, dtype=np.int64)).dtype == np.int64
        assert (jnp.ones(2, jnp.float64) * 2).dtype == np.float64
    assert jnp.array(1.0).dtype == np.float32


def test_config_update_and_read() -> None:
    jax.config.update("jax_enable_x64", True)
    try:
        assert jax.config.read("jax_enable_x64")
        assert jnp.zeros(2).dtype == np.float64
    finally:
        jax.config.update("jax_enable_x64", False)
    assert jnp.zeros(2).dtype == np.float32
    with pytest.raises(AttributeError, match="Unrecognized config option"):
        jax.config.update("jax_enable_x46", True)


def test_env_var() -> None:
    env = dict(os.environ, JAX_ENABLE_X64="1", PYTHONPATH=str(ROOT))
    res = subprocess.run(
        [sys.executable, "-c", "import jax_core.numpy as jnp; print(jnp.ones(2).dtype, jnp.array(1).dtype)"],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert res.stdout.split() == ["float64", "int64"], res.stderr


def test_requesting_float64_without_x64_warns() -> None:
    with pytest.warns(UserWarning, match="Explicitly requested dtype float64"):
        x = jnp.zeros(2, dtype=jnp.float64)
    assert x.dtype == np.float32
