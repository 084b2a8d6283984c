"""Runtime tokens: ordered effects across compiled computations, and ``effects_barrier``.

A computation with ordered effects takes one token per ordered effect as its first arguments and
returns the new ones as its first results (``lowering/lower_jaxpr.py``). The dispatcher keeps, per
thread, the current token of each ordered effect: it passes it into the next computation with
that effect (copied to that computation's device first) and keeps the token that comes out, so
the effects of successive calls happen in the order the calls were made, however asynchronously
they run. Every computation with effects also runs ``with_tokens``: the runtime token of the
execution is kept per device, and ``effects_barrier`` waits for those and the ordered tokens.
Computations without effects touch none of this.
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from jax_core._src.core.effects import Effect
from jax_core._src.core.tokens import Token

if TYPE_CHECKING:
    from jax_core._src.backend.client import ShardedToken
    from jax_core._src.sharding.shardings import Device


class RuntimeTokenSet(threading.local):
    """The tokens of one thread: the current token of each ordered effect, and the runtime token
    of the last effectful execution on each device."""

    def __init__(self) -> None:
        self.current: dict[Effect, Token] = {}
        self.outputs: dict[Any, ShardedToken] = {}

    def token_inputs(self, effects: Sequence[Effect], device: Device) -> list[Any]:
        """The token buffers to pass for ``effects`` to a computation on ``device``."""
        from jax_core._src.runtime.transfer import device_put

        bufs: list[Any] = []
        for effect in effects:
            token = self.current.get(effect)
            if token is None:
                buf: Any = device_put(np.zeros((0,), np.bool_), device)
            else:
                buf = token.buffer
                if _device_of(buf) != device:  # the next computation runs elsewhere: copy it there
                    buf = device_put(buf, device)
            bufs.append(buf)
        return bufs

    def set_outputs(self, effects: Sequence[Effect], tokens: Sequence[Any], runtime_token: ShardedToken, device: Device) -> None:
        """Keeps what an execution returned: the new tokens of ``effects`` and its runtime token."""
        for effect, token in zip(effects, tokens, strict=True):
            self.current[effect] = token
        self.outputs[device] = runtime_token

    def block_until_ready(self) -> None:
        """Waits for every effect this thread has dispatched."""
        for token in list(self.current.values()):
            token.block_until_ready()
        for runtime_token in list(self.outputs.values()):
            runtime_token.block_until_ready()
        self.outputs.clear()

    def clear(self) -> None:
        """Forgets every token (``jax.clear_caches`` does not; tests that reset the runtime do)."""
        self.current.clear()
        self.outputs.clear()


def _device_of(buf: Any) -> Any:
    devices: Any = buf.devices()
    return next(iter(devices))


runtime_tokens: RuntimeTokenSet = RuntimeTokenSet()
"""The calling thread's tokens."""


def effects_barrier() -> None:
    """Waits until every effect dispatched so far on this thread has happened (the callbacks of
    earlier calls, ordered or not, have run)."""
    runtime_tokens.block_until_ready()


atexit.register(effects_barrier)  # callbacks still pending at exit run first, as in JAX
