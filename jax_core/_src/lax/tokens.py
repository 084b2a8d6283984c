"""Token primitives: ``create_token`` and ``after_all`` (XLA's ``CreateToken``/``AfterAll``), as
JAX 0.12 has them. Tokens order side effects; they carry no data (see ``core/tokens.py``).

Outside ``jit`` both run without compiling anything, as a token's buffer holds nothing: they
return a new ``Token`` on the default device."""

from __future__ import annotations

from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.tokens import AbstractToken, Token, abstract_token
from jax_core._src.lax.standard_rules import no_batch, no_jvp
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing.basearray import Array


def _new_token() -> Token:
    from jax_core._src.runtime.transfer import device_put

    return Token(device_put(np.zeros((0,), np.bool_)))


# -- create_token ---------------------------------------------------------------------------------
def create_token(_: object = None) -> Token | Array:
    """A new token with no preconditions for sequencing effects (experimental, as in JAX).

    The argument is ignored; it exists for backward compatibility. Outside ``jit`` the result is
    a ``Token``; inside, a tracer of aval ``Tok``.
    """
    out: Token | Array = create_token_p.bind()
    return out


create_token_p: Primitive = Primitive("create_token")


def _create_token_abstract_eval(*_: ShapedArray) -> AbstractToken:
    return abstract_token


def _create_token_impl(*_: Any) -> Token:
    return _new_token()


def _create_token_lower(ctx: LoweringRuleContext, *operands: ir.Value[Any]) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.create_token()
    return out


create_token_p.def_rules(
    Rules(
        abstract_eval=_create_token_abstract_eval,
        lower=_create_token_lower,
        impl=_create_token_impl,
        jvp=no_jvp("create_token"),
        batch=no_batch("create_token"),
    )
)


# -- after_all ------------------------------------------------------------------------------------
def after_all(*operands: Token | Array) -> Token | Array:
    """A token that comes after all the tokens ``operands`` (XLA's ``AfterAll``; experimental)."""
    out: Token | Array = after_all_p.bind(*operands)
    return out


after_all_p: Primitive = Primitive("after_all")


def _after_all_abstract_eval(*operands: ShapedArray) -> AbstractToken:
    if not all(isinstance(x, AbstractToken) for x in operands):
        raise TypeError("Arguments to after_all must be tokens")
    return abstract_token


def _after_all_impl(*operands: Any) -> Token:
    if not all(isinstance(x, Token) for x in operands):
        raise TypeError("Arguments to after_all must be tokens")
    for x in operands:  # the new token comes after every operand's computation
        x.block_until_ready()
    return _new_token()


def _after_all_lower(ctx: LoweringRuleContext, *operands: ir.Value[Any]) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.after_all(list(operands))
    return out


after_all_p.def_rules(
    Rules(
        abstract_eval=_after_all_abstract_eval,
        lower=_after_all_lower,
        impl=_after_all_impl,
        jvp=no_jvp("after_all"),
        batch=no_batch("after_all"),
    )
)
