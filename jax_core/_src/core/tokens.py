"""Tokens: values that only order side effects (XLA's ``token`` type), as JAX's ``core.Token``.

``AbstractToken`` is their aval; jaxprs print it ``Tok`` and it lowers to ``!stablehlo.token``.
It is a ``ShapedArray`` of JAX's token stand-in shape (``bool[0]``, what a token's buffer holds) so
the staging machinery carries it like any value; it compares equal only to tokens. ``Token`` is a
concrete token: it holds that ``bool[0]`` buffer, as JAX's does, and has the aval ``abstract_token``
(``jax_core.typeof(lax.create_token())``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray


class AbstractToken(ShapedArray):
    """The abstract value of a token (printed ``Tok``)."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__((0,), np.dtype(np.bool_), False)

    def update(
        self,
        shape: tuple[int, ...] | None = None,
        dtype: np.dtype[Any] | None = None,
        weak_type: bool | None = None,
        vma: frozenset[Any] | None = None,
    ) -> ShapedArray:
        """Tokens have no fields to replace: the token aval itself."""
        return self

    def str_short(self) -> str:
        """The jaxpr spelling, ``Tok``."""
        return "Tok"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AbstractToken)

    def __hash__(self) -> int:
        return hash(AbstractToken)

    def __repr__(self) -> str:
        return "AbstractToken()"

    __str__ = __repr__


abstract_token: AbstractToken = AbstractToken()
"""The one token aval."""


def is_token_aval(aval: object) -> bool:
    """Whether ``aval`` is the token aval."""
    return isinstance(aval, AbstractToken)


class Token:
    """A concrete token (what ``lax.create_token()`` returns outside ``jit``).

    It wraps a ``bool[0]`` device buffer, through which computations can be ordered.
    """

    __slots__ = ("_buf",)

    aval: AbstractToken = abstract_token

    def __init__(self, buf: Any) -> None:
        self._buf = buf

    @property
    def buffer(self) -> Any:
        """The ``bool[0]`` device array that stands for the token."""
        return self._buf

    def block_until_ready(self) -> None:
        """Waits for the computation that produced the token."""
        self._buf.block_until_ready()
