"""The runtime checks options ask for: ``jax_debug_nans``/``jax_debug_infs`` on every output,
``jax_no_execution``, and ``jax_log_compiles``' log line."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import config, dtypes
from jax_core._src.core.avals import ShapedArray

logger = logging.getLogger("jax_core")


class InvalidValue(Exception):
    """A computation's output holds a NaN (``kind="nan"``) or an infinity (``"inf"``) while
    ``jax_debug_nans``/``jax_debug_infs`` is set (internal: callers turn it into
    ``FloatingPointError``)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


def checking_values() -> bool:
    """Whether outputs are checked for NaNs or infinities in this thread."""
    return config.debug_nans.value or config.debug_infs.value


def check_values(outs: Sequence[Any], avals: Sequence[ShapedArray]) -> None:
    """Raises ``InvalidValue`` when an inexact output holds what the debug options look for."""
    nans, infs = config.debug_nans.value, config.debug_infs.value
    for out, aval in zip(outs, avals):
        if dtypes.is_extended_dtype(aval.dtype) or not np.issubdtype(aval.dtype, np.inexact):
            continue
        host = np.asarray(out)
        if nans and np.isnan(host).any():
            raise InvalidValue("nan")
        if infs and np.isinf(host).any():
            raise InvalidValue("inf")


def check_execution(name: str) -> None:
    """``RuntimeError`` when ``jax_no_execution`` is set."""
    if config.no_execution.value:
        raise RuntimeError(f"JAX tried to execute function {name}, but the no_execution config option is set")


def log_compile(name: str, in_avals: Sequence[ShapedArray]) -> None:
    """Logs a compilation: at WARNING under ``jax_log_compiles``, else at DEBUG."""
    level = logging.WARNING if config.log_compiles.value else logging.DEBUG
    if logger.isEnabledFor(level):
        shapes = [a.str_short() for a in in_avals]
        logger.log(level, "Compiling %s with global shapes and types %s.", name, shapes)
