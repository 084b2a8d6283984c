"""Device-local layouts (``jax.experimental.layout``): ``Layout``, ``Layout.AUTO`` and ``Format``.

A *layout* says how an array's elements sit in each device's memory: the order of its dimensions
from the most major (slowest varying) to the most minor (contiguous), optionally tiled. A *format*
pairs a layout with a sharding (how the array is spread over devices), the full picture of where
every element is. ``jit`` (``in_shardings``/``out_shardings``) and ``device_put`` take a ``Format``
wherever they take a sharding; ``Layout.AUTO`` asks XLA to choose.

XLA writes layouts the other way round (``minor_to_major``, e.g. ``{1,0}`` is row-major); this
module is the one place that converts between the two, and between ``Layout`` and jaxlib's
``PjRtLayout`` (what executables and arrays report).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import Any, Final, Generic, NamedTuple, TypeAlias, cast, final, overload

import numpy as np
from typing_extensions import TypeVar

from jax_core._src import dtypes
from jax_core._src.core.avals import FormatSupport, register_format_support
from jax_core._src.core.errors import JaxRuntimeError
from jax_core._src.lib import xla_client
from jax_core._src.sharding.shardings import Device, Sharding

_xc: ModuleType = xla_client  # ``xla_client.Layout`` comes from the stubless extension

Shape: TypeAlias = tuple[int, ...]


@final
class AutoLayoutSingleton:
    """The type of ``Layout.AUTO``: the compiler chooses the layout."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "AutoLayout"

    def __reduce__(self) -> str:
        return "AutoLayout"  # unpickles as the singleton


AutoLayout: Final = AutoLayoutSingleton()
"""``Layout.AUTO``: lets XLA choose a layout for a ``jit``'s argument or result."""


class Layout:
    """How an array's elements are laid out in one device's memory.

    ``major_to_minor`` orders the dimensions from the most major to the most minor: for a rank-2
    array ``(0, 1)`` is row-major (rows contiguous, the default) and ``(1, 0)`` column-major.
    ``tiling`` (highly experimental) tiles the minor dimensions; ``sub_byte_element_size_in_bits``
    packs narrow element types (4 for ``int4``).
    """

    major_to_minor: tuple[int, ...]
    tiling: tuple[tuple[int, ...], ...] | None
    sub_byte_element_size_in_bits: int

    AUTO: Final[AutoLayoutSingleton] = AutoLayout
    """Lets XLA choose the layout (only ``jit`` accepts it)."""

    def __init__(
        self,
        major_to_minor: Iterable[int],
        tiling: Iterable[Iterable[int]] | None = None,
        sub_byte_element_size_in_bits: int = 0,
    ) -> None:
        self.major_to_minor = tuple(major_to_minor)
        self.tiling = None if tiling is None else tuple(tuple(t) for t in tiling)
        self.sub_byte_element_size_in_bits = sub_byte_element_size_in_bits
        self._xla_layouts: dict[Any, Any] = {}

    @staticmethod
    def from_pjrt_layout(pjrt_layout: Any) -> Layout:
        """The ``Layout`` of a jaxlib ``PjRtLayout`` (as arrays and executables report them)."""
        xla_layout: Any = pjrt_layout._xla_layout()
        return Layout(
            tuple(xla_layout.minor_to_major())[::-1],
            xla_layout.tiling(),
            int(xla_layout.element_size_in_bits()),
        )

    @staticmethod
    def for_array(x: Any) -> Layout:
        """The default layout of an array (or ``ShapeDtypeStruct``) like ``x`` on CPU: row-major."""
        return Layout(tuple(range(len(x.shape))), tiling=(), sub_byte_element_size_in_bits=0)

    def __repr__(self) -> str:
        return (
            f"Layout(major_to_minor={self.major_to_minor}, tiling={self.tiling}, "
            f"sub_byte_element_size_in_bits={self.sub_byte_element_size_in_bits})"
        )

    def __hash__(self) -> int:
        return hash((self.major_to_minor, self.tiling, self.sub_byte_element_size_in_bits))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Layout, (self.major_to_minor, self.tiling, self.sub_byte_element_size_in_bits))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return False
        return (
            self.major_to_minor == other.major_to_minor
            and self.tiling == other.tiling
            and self.sub_byte_element_size_in_bits == other.sub_byte_element_size_in_bits
        )

    def update(self, **kwargs: Any) -> Layout:
        """A copy with some of ``major_to_minor``, ``tiling`` and ``sub_byte_element_size_in_bits``
        replaced."""
        return Layout(
            kwargs.get("major_to_minor", self.major_to_minor),
            kwargs.get("tiling", self.tiling),
            kwargs.get("sub_byte_element_size_in_bits", self.sub_byte_element_size_in_bits),
        )

    def _to_xla_layout(self, dtype: Any) -> Any:
        """jaxlib's ``Layout`` (minor to major) for elements of ``dtype``; jaxlib's C++ ``jit``
        dispatch calls it on every call, so it is computed once per dtype."""
        try:
            return self._xla_layouts[dtype]
        except KeyError:
            found = self._xla_layouts[dtype] = self._make_xla_layout(dtype)
            return found

    def _make_xla_layout(self, dtype: Any) -> Any:
        minor_to_major = list(self.major_to_minor[::-1])
        if self.tiling is None:
            return _xc.Layout(minor_to_major)
        bits = self.sub_byte_element_size_in_bits
        if bits == 0 and dtypes.issubdtype(dtype, np.integer):
            width = dtypes.iinfo(dtype).bits
            bits = width if width < 8 else 0
        return _xc.Layout(minor_to_major, [list(t) for t in self.tiling], bits)

    def check_compatible_aval(self, aval_shape: Shape) -> None:
        """Raises JAX's ``ValueError`` unless this layout has one entry per dimension."""
        if len(self.major_to_minor) != len(aval_shape):
            raise ValueError(
                "Length of major_to_minor and the rank of the value should match. "
                f"Got major_to_minor={self.major_to_minor} and shape={aval_shape}"
            )

    def check_permutation(self, aval_shape: Shape, dtype: Any) -> None:
        """Raises JAX's ``ValueError`` for a layout of the wrong rank, and the ``JaxRuntimeError``
        XLA raises in JAX for a ``major_to_minor`` that is not a permutation of the dimensions
        (checked here, before XLA, with a message saying what to pass)."""
        self.check_compatible_aval(aval_shape)
        if sorted(self.major_to_minor) != list(range(len(aval_shape))):
            raise JaxRuntimeError(
                f"INVALID_ARGUMENT: major_to_minor={self.major_to_minor} is not a permutation of the dimensions "
                f"of a value of type {describe_aval(_Aval(aval_shape, dtype))}: pass each of "
                f"{tuple(range(len(aval_shape)))} exactly once, the most major dimension first."
            )


LayoutOptions: TypeAlias = Layout | AutoLayoutSingleton | None
"""What a ``Format``'s layout may be."""


LayoutT = TypeVar("LayoutT", bound=LayoutOptions, default=LayoutOptions)
"""The kind of layout a ``Format`` holds (``Array.format`` holds a concrete ``Layout``)."""


class Format(Generic[LayoutT]):
    """A layout and a sharding: where every element of an array is (``None``: the default)."""

    __slots__ = ("layout", "sharding")

    layout: LayoutT
    sharding: Sharding | None

    @overload
    def __init__(self: Format[None], layout: None = None, sharding: Sharding | None = None) -> None: ...
    @overload
    def __init__(self, layout: LayoutT, sharding: Sharding | None = None) -> None: ...
    def __init__(self, layout: Any = None, sharding: Sharding | None = None) -> None:
        if isinstance(layout, Layout) and sharding is None:
            raise ValueError(
                f"Sharding has to be concrete when layout is of type {type(layout)}. Please pass a "
                "`jax.sharding.NamedSharding` or `jax.sharding.SingleDeviceSharding` to the sharding "
                f"argument. Got sharding {sharding}"
            )
        if not isinstance(layout, (Layout, AutoLayoutSingleton, type(None))):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(
                "Invalid value received for the layout argument. Expected values are `None`, "
                f"`Layout.AUTO` or an instance of `Layout`. Got {layout} of type {type(layout)}"
            )
        if not isinstance(sharding, (Sharding, type(None))):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(
                "Invalid value received for the sharding argument. Expected values are `None` or an "
                f"instance of `jax.Sharding`. Got {sharding} of type {type(sharding)}"
            )
        self.layout = cast("LayoutT", layout)
        self.sharding = sharding

    def __repr__(self) -> str:
        return f"Format(layout={self.layout}, sharding={self.sharding})"

    def __hash__(self) -> int:
        return hash((self.layout, self.sharding))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Format):
            return False
        fmt = cast("Format[Any]", other)  # type: ignore[redundant-cast]
        return self.layout == fmt.layout and self.sharding == fmt.sharding


class _Aval(NamedTuple):
    shape: Shape
    dtype: Any


def describe_aval(aval: Any) -> str:
    """A value's type as JAX's layout errors name it: ``float32[512,1024]``."""
    return f"{np.dtype(aval.dtype).name}[{','.join(map(str, aval.shape))}]"


class _ShapeDtypeStructFormats(FormatSupport):
    def split(self, sharding: Any) -> tuple[Any, Any] | None:
        if not isinstance(sharding, Format):
            return None
        fmt = cast("Format[Any]", sharding)  # type: ignore[redundant-cast]
        if isinstance(fmt.layout, AutoLayoutSingleton):
            raise TypeError(f"`Layout.AUTO` cannot be used in place of a device-local layout in a `ShapeDtypeStruct`. Got {fmt}")
        return fmt.layout, fmt.sharding

    def join(self, layout: Any, sharding: Any) -> Any:
        return Format(layout, sharding)


register_format_support(_ShapeDtypeStructFormats())


# -- comparing layouts ----------------------------------------------------------------------
def user_layout_equal(user: Layout | AutoLayoutSingleton, xla: Layout) -> bool:
    """Whether a layout the user wrote matches the one XLA reports (a user layout without tiling
    says nothing about tiling)."""
    if isinstance(user, Layout) and not user.tiling:
        return user.major_to_minor == xla.major_to_minor
    return user == xla


def default_layout(dtype: Any, shard_shape: Shape, device: Device) -> Layout:
    """The layout the backend gives a buffer of ``dtype`` and ``shard_shape`` on ``device``."""
    return Layout.from_pjrt_layout(_default_pjrt_layout(np.dtype(dtype), tuple(shard_shape), device))


def _default_pjrt_layout(dtype: np.dtype[Any], shard_shape: Shape, device: Device) -> Any:
    client: Any = device.client
    return client.get_default_layout(dtype, shard_shape, device)


def is_default_layout(layout: LayoutOptions, sharding: Sharding | None, shape: Shape, dtype: Any) -> bool:
    """Whether ``layout`` is the default one for a value of ``shape`` and ``dtype`` sharded as
    ``sharding`` (``None`` layouts and shardings are the default)."""
    if layout is None or sharding is None:
        return True
    if isinstance(layout, AutoLayoutSingleton):
        return False
    if dtypes.is_extended_dtype(dtype) or np.dtype(dtype) == dtypes.float0:
        return True
    device = sharding._device_assignment[0]  # pyright: ignore[reportPrivateUsage]
    return user_layout_equal(layout, default_layout(dtype, tuple(sharding.shard_shape(shape)), device))


def layout_mode(layout: LayoutOptions, dtype: Any) -> str | None:
    """The ``mhlo.layout_mode`` attribute XLA reads for a parameter or result: ``"auto"``, an XLA
    layout (``"{0,1}"``), or ``None`` (the default layout)."""
    if layout is None:
        return None
    if isinstance(layout, AutoLayoutSingleton):
        return "auto"
    return str(layout._to_xla_layout(dtype))  # pyright: ignore[reportPrivateUsage]


def layout_for_vmap(dim: int, layout: Layout) -> Layout:
    """``layout`` for the value with a batch dimension inserted at ``dim``: the batch dimension
    is the most major one, the others keep their order."""
    shifted = [m + 1 for m in layout.major_to_minor]
    return layout.update(major_to_minor=(*shifted[:dim], 0, *shifted[dim:]))


def split_formats(leaves: Sequence[Any]) -> tuple[list[LayoutOptions], list[Any]]:
    """Splits ``jit``'s ``in_shardings``/``out_shardings`` leaves into layouts and shardings
    (a ``Format`` gives both; anything else is a sharding with no layout). A bare ``Layout`` is
    JAX's ``ValueError``."""
    layouts: list[LayoutOptions] = []
    shardings: list[Any] = []
    for e in leaves:
        if isinstance(e, Format):
            fmt = cast("Format[Any]", e)  # type: ignore[redundant-cast]
            layouts.append(fmt.layout)
            shardings.append(fmt.sharding)
        elif isinstance(e, (Layout, AutoLayoutSingleton)):
            raise ValueError(
                "`jax.jit` does not accept device-local layouts directly. Create a `Format` instance "
                f"wrapping this device-local layout and pass that to `jit` instead. Got {e}"
            )
        else:
            layouts.append(None)
            shardings.append(e)
    return layouts, shardings


def check_layouts_fit(layouts: Sequence[LayoutOptions], shapes: Sequence[Shape], names: Sequence[str], what: str) -> None:
    """JAX's ``ValueError`` for a layout of the wrong rank, naming the value's pytree key path."""
    for layout, shape, name in zip(layouts, shapes, names, strict=True):
        if not isinstance(layout, Layout):
            continue
        try:
            layout.check_compatible_aval(shape)
        except ValueError as err:
            where = f" with pytree key path {name}" if name else ""
            raise ValueError(f"One of {what}{where} is incompatible with its layout annotation {layout}: {err}") from None
