"""The stages of a jitted call: ``Traced`` -> ``Lowered`` -> ``Compiled`` (as in JAX).

``jit(f).trace(*args)`` stops after tracing (a jaxpr), ``.lower(*args)`` after
lowering (StableHLO text), and ``.lower(*args).compile()`` after compilation (an
executable you can call with arguments of the same shapes and dtypes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, ParamSpec, TypeVar

from jax_core._src.core.avals import ShapedArray, ShapeDtypeStruct
from jax_core._src.core.jaxpr import ClosedJaxpr
from jax_core._src.lowering.lower_jaxpr import LoweredModule
from jax_core._src.runtime.compile import Executable
from jax_core._src.tree.tree_util import PyTreeDef, tree_unflatten

P = ParamSpec("P")
R = TypeVar("R", covariant=True)


class Compiled(Generic[P, R]):
    """A compiled computation: call it with arguments like the ones it was lowered for."""

    def __init__(self, executable: Executable, call: Callable[..., Any], out_tree: PyTreeDef) -> None:
        self._executable = executable
        self._call = call
        self._out_tree = out_tree

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        out: R = self._call(*args, **kwargs)
        return out

    def as_text(self) -> str:
        """The optimized HLO that XLA compiled."""
        return self._executable.as_text()

    def cost_analysis(self) -> dict[str, float]:
        """XLA's cost estimates for the computation (flops, bytes accessed, ...)."""
        return self._executable.cost_analysis()

    @property
    def out_info(self) -> Any:
        """The output shapes and dtypes, as a pytree of ``ShapeDtypeStruct``."""
        return tree_unflatten(self._out_tree, [_struct(a) for a in self._executable.out_avals])


class Lowered(Generic[P, R]):
    """A lowered computation: StableHLO, ready to compile."""

    def __init__(self, lowered: LoweredModule, compile_fn: Callable[[], Compiled[P, R]], out_tree: PyTreeDef) -> None:
        self._lowered = lowered
        self._compile_fn = compile_fn
        self._out_tree = out_tree

    def as_text(self) -> str:
        """The StableHLO module as MLIR text."""
        return self._lowered.as_text()

    def compile(self) -> Compiled[P, R]:
        """Compiles with XLA."""
        return self._compile_fn()

    @property
    def out_info(self) -> Any:
        """The output shapes and dtypes, as a pytree of ``ShapeDtypeStruct``."""
        return tree_unflatten(self._out_tree, [_struct(a) for a in self._lowered.out_avals])


class Traced(Generic[P, R]):
    """A traced computation: its jaxpr, ready to lower."""

    def __init__(self, jaxpr: ClosedJaxpr, lower_fn: Callable[[], Lowered[P, R]], out_tree: PyTreeDef) -> None:
        self._jaxpr = jaxpr
        self._lower_fn = lower_fn
        self._out_tree = out_tree

    @property
    def jaxpr(self) -> ClosedJaxpr:
        """The closed jaxpr of the traced function."""
        return self._jaxpr

    def lower(self) -> Lowered[P, R]:
        """Lowers to StableHLO."""
        return self._lower_fn()

    @property
    def out_info(self) -> Any:
        """The output shapes and dtypes, as a pytree of ``ShapeDtypeStruct``."""
        return tree_unflatten(self._out_tree, [_struct(a) for a in self._jaxpr.out_avals])


def _struct(aval: ShapedArray) -> ShapeDtypeStruct:
    return ShapeDtypeStruct(aval.shape, aval.dtype, weak_type=aval.weak_type)
