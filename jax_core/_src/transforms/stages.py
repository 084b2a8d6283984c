"""The stages of a jitted call: ``Traced`` -> ``Lowered`` -> ``Compiled`` (as in JAX).

``jit(f).trace(*args)`` stops after tracing (a jaxpr), ``.lower(*args)`` after
lowering (StableHLO text), and ``.lower(*args).compile()`` after compilation (an
executable you can call with arguments of the same shapes and dtypes).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Generic, ParamSpec, Protocol, TypeAlias, TypeVar

from jax_core._src.core.avals import ShapedArray, ShapeDtypeStruct
from jax_core._src.core.jaxpr import ClosedJaxpr
from jax_core._src.layout.formats import Format, Layout
from jax_core._src.lowering.lower_jaxpr import LoweredModule
from jax_core._src.runtime.compile import Executable
from jax_core._src.tree.tree_util import PyTreeDef, tree_unflatten

P = ParamSpec("P")
R = TypeVar("R", covariant=True)

CompilerOptions: TypeAlias = dict[str, Any]
"""XLA compiler options by name, as ``jit(f).lower(x).compile(compiler_options)`` takes them."""


@dataclasses.dataclass(frozen=True)
class ArgInfo:
    """One argument of a lowered or compiled computation: its abstract value and whether its
    buffer is donated."""

    _aval: ShapedArray
    donated: bool

    @property
    def shape(self) -> tuple[int, ...]:
        """The argument's shape."""
        return self._aval.shape

    @property
    def dtype(self) -> Any:
        """The argument's dtype."""
        return self._aval.dtype


class Wrapped(Protocol):
    """A function ready to be traced, lowered and compiled: what ``jit`` returns."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Runs the function, tracing, lowering and compiling as needed."""
        ...


class Compiled(Generic[P, R]):
    """A compiled computation: call it with arguments like the ones it was lowered for."""

    def __init__(
        self, executable: Executable, call: Callable[..., Any], out_tree: PyTreeDef, in_tree: PyTreeDef | None = None
    ) -> None:
        self._executable = executable
        self._call = call
        self._out_tree = out_tree
        self._in_tree = in_tree

    def _flat_shardings(self, inputs: bool) -> list[Any]:
        exe = self._executable
        given = exe.input_shardings if inputs else exe.output_shardings
        n = len(exe.in_avals if inputs else exe.out_avals)
        return list(given) if given is not None else [_single(exe)] * n

    def _inputs_tree(self, flat: list[Any]) -> Any:
        return tuple(flat) if self._in_tree is None else tree_unflatten(self._in_tree, flat)

    @property
    def input_shardings(self) -> Any:
        """Where each argument must be: ``(args, kwargs)`` as a pytree of ``Sharding``s."""
        return self._inputs_tree(self._flat_shardings(True))

    @property
    def output_shardings(self) -> Any:
        """Where each result is, as a pytree of ``Sharding``s like the results."""
        return tree_unflatten(self._out_tree, self._flat_shardings(False))

    @property
    def input_formats(self) -> Any:
        """The layout and sharding XLA compiled each argument for: ``(args, kwargs)`` as a pytree of
        ``Format``s."""
        layouts = self._executable.parameter_layouts
        flat = [Format(Layout.from_pjrt_layout(l), s) for l, s in zip(layouts, self._flat_shardings(True), strict=True)]
        return self._inputs_tree(flat)

    @property
    def output_formats(self) -> Any:
        """The layout and sharding of each result, as a pytree of ``Format``s like the results."""
        layouts = self._executable.output_layouts
        flat = [Format(Layout.from_pjrt_layout(l), s) for l, s in zip(layouts, self._flat_shardings(False), strict=True)]
        return tree_unflatten(self._out_tree, flat)

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

    def __init__(
        self, lowered: LoweredModule, compile_fn: Callable[[CompilerOptions | None], Compiled[P, R]], out_tree: PyTreeDef
    ) -> None:
        self._lowered = lowered
        self._compile_fn = compile_fn
        self._out_tree = out_tree

    def as_text(self, dialect: str | None = None, *, debug_info: bool = False) -> str:
        """The StableHLO module as MLIR text (``debug_info``: with the ops' locations, where
        ``named_scope`` names appear)."""
        if dialect not in (None, "stablehlo"):
            raise ValueError(f"Unknown dialect {dialect!r}: jax_core lowers to 'stablehlo' only.")
        return self._lowered.as_text(debug_info)

    def compile(self, compiler_options: CompilerOptions | None = None) -> Compiled[P, R]:
        """Compiles with XLA; ``compiler_options`` are XLA options by name (e.g.
        ``{"xla_cpu_enable_fast_math": True}``, or ``"optimization_level": "O3"``)."""
        return self._compile_fn(compiler_options)

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


def _single(exe: Executable) -> Any:
    from jax_core._src.sharding.shardings import SingleDeviceSharding

    return SingleDeviceSharding(exe.device)
