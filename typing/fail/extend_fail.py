"""Rules given to a primitive are checked: an abstract-eval rule returns avals, a lowering rule
takes the ``LoweringRuleContext`` first and returns IR values, JAX-style rule tables hold rules of
their shape and are keyed by primitives."""

from collections.abc import Sequence

from jax_core.extend import core
from jax_core.interpreters import ad, batching, mlir

p = core.Primitive("p")


@p.def_abstract_eval  # E:
def shape_not_aval(x: core.ShapedArray) -> tuple[int, ...]:
    return x.shape


def lower_without_ctx(x: mlir.Value) -> Sequence[mlir.Value]:
    return [x]


def lower_nothing() -> Sequence[mlir.Value]:
    return []


def lower_returns_str(ctx: mlir.LoweringRuleContext, x: mlir.Value) -> str:
    return "x"


mlir.register_lowering(p, lower_without_ctx)  # E:
mlir.register_lowering(p, lower_nothing)  # E:
mlir.register_lowering(p, lower_returns_str)  # E:
mlir.register_lowering("p", lambda ctx, x: [x])  # E:


def jvp_one_value(primals: Sequence[float], tangents: Sequence[float]) -> float:
    return primals[0]


ad.primitive_jvps[p] = jvp_one_value  # E:
ad.primitive_jvps["p"] = lambda primals, tangents: (primals[0], tangents[0])  # E:
batching.primitive_batchers[p] = 3  # E:
ad.defjvp(p, 1.0)  # E:
