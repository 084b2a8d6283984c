"""``jax_core.extend``: registering a rule keeps the rule's own type (the decorators return it), the
rule tables hold rules of their kind, and the jaxpr IR is typed as built."""

from collections.abc import Callable, Sequence
from typing import Any, assert_type

import numpy as np

from jax_core.extend import core
from jax_core.interpreters import ad, batching, mlir

p = core.Primitive("reveal_p")


@p.def_abstract_eval
def abstract(x: core.ShapedArray, *, k: int) -> core.ShapedArray:
    return x


@p.def_impl
def impl(x: np.ndarray[Any, Any], *, k: int) -> np.ndarray[Any, Any]:
    return x * k


def lowering(ctx: mlir.LoweringRuleContext, x: mlir.Value, *, k: int) -> Sequence[mlir.Value]:
    return [x]


def transpose(ct: Any, *, k: int) -> list[Any]:
    return [p.bind(ct, k=k)]


mlir.register_lowering(p, lowering)
ad.deflinear(p, transpose)
batching.defvectorized(p)
assert_type(abstract(core.ShapedArray((2,), np.dtype(np.float32)), k=1), core.ShapedArray)
assert_type(impl(np.ones(2), k=2), np.ndarray[Any, Any])
assert_type(p.bind(1.0, k=2), Any)
assert_type(p.multiple_results, bool)
assert_type(ad.primitive_jvps[p], Callable[..., tuple[Any, Any]])
assert_type(ad.primitive_transposes[p], Callable[..., Sequence[Any]])
assert_type(batching.primitive_batchers[p], Callable[..., tuple[Any, Any]])
assert_type(p in ad.primitive_jvps, bool)
assert_type(ad.Zero(abstract(core.ShapedArray((2,), np.dtype(np.float32)), k=1)).aval, core.ShapedArray)


def narrow(operand: object) -> None:
    if ad.is_undefined_primal(operand):
        assert_type(operand, ad.UndefinedPrimal)


narrow(3.0)

closed = core.ClosedJaxpr(core.Jaxpr([], [], [], []), [])
assert_type(closed.jaxpr.eqns, list[core.JaxprEqn])
assert_type(core.jaxpr_as_fun(closed), Callable[..., list[Any]])
assert_type(core.gensym()(core.ShapedArray((), np.dtype(np.int32))), core.Var)
assert_type(list(core.subjaxprs(closed.jaxpr)), list[core.Jaxpr])
assert_type(core.pp_jaxpr(closed), str)
