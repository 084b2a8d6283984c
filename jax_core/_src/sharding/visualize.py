"""Drawing how an array is split over devices (``jax.debug.visualize_array_sharding``).

:func:`visualize_sharding` prints a grid with one box per block of a 1-D or 2-D
array, each labelled with the devices holding it (``CPU 0,4``), sized in
proportion to the block. JAX draws it with the ``rich`` library; jax_core draws
the same picture itself, reproducing the parts of rich's table layout this
picture uses: column widths shrunk to the console width (``max_width``), labels
wrapped and cut with ``…`` when they do not fit, centred in padded cells.

Without colour (the default unless the output is a colour terminal and a colour
map is available) the boxes are drawn with lines, exactly as JAX prints them.
With colour the boxes are coloured blocks without lines, written with 24-bit ANSI
escapes (as rich writes them to a true-colour terminal; rich would use fewer
colours on a terminal that lacks them).
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TextIO, TypeAlias, cast

import numpy as np

from jax_core._src.core.trace import Tracer
from jax_core._src.sharding.shardings import Sharding, from_cpp_sharding
from jax_core._src.tree.tree_util import tree_leaves

__all__ = ["inspect_array_sharding", "visualize_array_sharding", "visualize_sharding"]

ColorMap: TypeAlias = Callable[[float], tuple[float, float, float, float]]
"""Maps a value in ``[0, 1]`` to an RGBA colour with components in ``[0, 1]``."""

_HEIGHT_TO_WIDTH = 2.5  # a character cell is about 2.5 times as tall as it is wide
_NUMBER = re.compile(r"(?<!\w)-?[0-9]+\.?[0-9]*(e-?\d+?)?\b")  # what rich highlights as a number
_WORD = re.compile(r"\s*\S+\s*")
_TRAILING_SPACE = re.compile(r"\s+$")
_RESET = "\x1b[0m"


# ---------------------------------------------------------------------------
# The cells: which devices hold each block, and how big its box is
# ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Cell:
    label: str
    top: int
    right: int
    bottom: int
    left: int
    style: str  # SGR parameters of the whole cell ("" for none)


def _chunk_index(s: slice) -> int:
    """Which block along its dimension the slice ``s`` is (slices are equal-sized blocks)."""
    start: int | None = s.start
    stop: int | None = s.stop
    if start is None or stop is None:
        return 0
    return start // (stop - start)


def _extent(s: slice, size: int) -> int:
    start: int | None = s.start
    stop: int | None = s.stop
    return size if stop is None else stop - (start or 0)


def _blocks(
    shape: tuple[int, ...], sharding: Sharding
) -> tuple[
    dict[tuple[int, int], set[int]],
    dict[tuple[int, int], float | None],
    dict[tuple[int, int], float],
]:
    """Per block ``(row, column)``: the ids of its devices, its height and width as fractions."""
    devices: dict[tuple[int, int], set[int]] = {}
    heights: dict[tuple[int, int], float | None] = {}
    widths: dict[tuple[int, int], float] = {}
    for device, slices in sharding.devices_indices_map(shape).items():
        if len(shape) == 2:
            vert, horiz = slices
            key = (_chunk_index(vert), _chunk_index(horiz))
            heights[key] = _extent(vert, shape[0]) / shape[0]
            widths[key] = _extent(horiz, shape[1]) / shape[1]
        else:
            (horiz,) = slices
            key = (0, _chunk_index(horiz))
            heights[key] = None
            widths[key] = _extent(horiz, shape[0]) / shape[0]
        devices.setdefault(key, set()).add(device.id)
    return devices, heights, widths


def _colors(color_map: ColorMap, count: int) -> Iterator[str]:
    """``count`` SGR colour settings from ``color_map``, spread so neighbours differ (JAX's order)."""
    values = np.linspace(0, 1, count)
    step = count // 2 + (count % 2 == 0) + (count % 4 == 2)
    index = 0
    for _ in range(count):
        r, g, b = (int(c * 255) for c in color_map(float(values[index]))[:3])
        light = r * 0.299 + g * 0.587 + b * 0.114 > 186
        text = "0;0;0" if light else "255;255;255"
        yield f"38;2;{text};48;2;{r};{g};{b}"
        index = (index + step) % count


def _cells(
    shape: tuple[int, ...],
    sharding: Sharding,
    *,
    color_map: ColorMap | None,
    scale: float,
    min_width: int,
    max_width: int,
) -> list[list[_Cell]]:
    devices, heights, widths = _blocks(shape, sharding)
    kind = next(iter(sharding.device_set)).platform.upper()
    base_height = int(10 * scale)
    aspect = (shape[1] if len(shape) == 2 else 1) / shape[0]
    base_width = int(base_height * aspect)
    rows = max(k[0] for k in devices) + 1
    cols = max(k[1] for k in devices) + 1
    colors = None if color_map is None else _colors(color_map, rows * cols)
    grid: list[list[_Cell]] = []
    for i in range(rows):
        row: list[_Cell] = []
        for j in range(cols):
            label = f"{kind} " + ",".join(str(d) for d in sorted(devices[i, j]))
            frac_height = heights[i, j]
            width = int(widths[i, j] * base_width * _HEIGHT_TO_WIDTH)
            height = 1 if frac_height is None else int(frac_height * base_height)
            width = min(max(width, min_width), max_width)
            left, extra = divmod(width - len(label) - 2, 2)
            right = left + extra
            top, extra = divmod(height - 2, 2)
            bottom = top + extra
            style = ""
            if colors is not None:
                style = next(colors)
                top, right, bottom, left = top + 1, right + 1, bottom + 1, left + 1
            row.append(
                _Cell(label, max(top, 0), max(right, 0), max(bottom, 0), max(left, 0), style)
            )
        grid.append(row)
    return grid


# ---------------------------------------------------------------------------
# Layout: column widths within the console width (rich's table algorithm)
# ---------------------------------------------------------------------------


def _measure(cell: _Cell, available: int) -> int:
    """The widest the cell wants to be when at most ``available`` columns are free."""
    if available < 1:
        return 0
    pad = cell.left + cell.right
    if available - pad < 1:
        return available
    return min(len(cell.label) + pad, available)


def _reduce(total: int, ratios: list[int], maximums: list[int], values: list[int]) -> list[int]:
    """Takes ``total`` off ``values`` in proportion to ``ratios``, at most ``maximums`` each."""
    ratios = [r if m else 0 for r, m in zip(ratios, maximums, strict=True)]
    total_ratio = sum(ratios)
    if not total_ratio:
        return values[:]
    remaining = total
    out: list[int] = []
    for ratio, maximum, value in zip(ratios, maximums, values, strict=True):
        if ratio and total_ratio > 0:
            taken = min(maximum, round(ratio * remaining / total_ratio))
            out.append(value - taken)
            remaining -= taken
            total_ratio -= ratio
        else:
            out.append(value)
    return out


def _collapse(widths: list[int], available: int) -> list[int]:
    """Narrows the widest columns, step by step, until the table fits (or cannot shrink more)."""
    excess = sum(widths) - available
    while sum(widths) and excess > 0:
        widest = max(widths)
        second = max((w for w in widths if w != widest), default=0)
        if widest == second:
            break
        ratios = [1 if w == widest else 0 for w in widths]
        widths = _reduce(excess, ratios, [min(excess, widest - second)] * len(widths), widths)
        excess = sum(widths) - available
    return widths


def _column_widths(grid: list[list[_Cell]], available: int) -> list[int]:
    columns = list(zip(*grid, strict=True))
    widths = [max(_measure(c, available) for c in col) or 1 for col in columns]
    if sum(widths) > available:
        widths = _collapse(widths, available)
        if sum(widths) > available:
            widths = _reduce(sum(widths) - available, [1] * len(widths), widths, widths)
        widths = [max(_measure(c, w) for c in col) for w, col in zip(widths, columns, strict=True)]
    return widths


# ---------------------------------------------------------------------------
# Rendering: cells to lines of styled segments
# ---------------------------------------------------------------------------

_Segment: TypeAlias = tuple[str, str]  # (text, SGR parameters or "")
_Line: TypeAlias = list[_Segment]


def _wrap(label: str, width: int) -> list[str]:
    """``label`` word-wrapped to ``width`` columns, too-long words cut with ``…``, padded."""
    breaks: list[int] = []
    offset = 0
    for match in _WORD.finditer(label):
        start, word = match.start(), match.group(0)
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width or (offset and start):
            if start:
                breaks.append(start)
            offset = len(word)
    bounds = [0, *breaks, len(label)]
    lines: list[str] = []
    for a, b in itertools.pairwise(bounds):
        line = label[a:b]
        if len(line) > width:
            trailing = _TRAILING_SPACE.search(line)
            if trailing is not None:
                line = line[: len(line) - min(len(trailing.group(0)), len(line) - width)]
        if len(line) > width:
            line = line[: width - 1] + "…"
        lines.append(line.ljust(width))
    return lines


def _highlight(text: str, cell_style: str, number_style: str) -> _Line:
    """``text`` as segments, numbers in ``number_style`` when one is given."""
    if not number_style:
        return [(text, cell_style)]
    out: _Line = []
    last = 0
    for m in _NUMBER.finditer(text):
        if m.start() > last:
            out.append((text[last : m.start()], cell_style))
        out.append((m.group(0), number_style))
        last = m.end()
    if last < len(text):
        out.append((text[last:], cell_style))
    return out


def _render_cell(cell: _Cell, width: int, number_style: str) -> list[_Line]:
    style = cell.style
    blank: _Line = [(" " * width, style)]
    lines: list[_Line] = [list(blank) for _ in range(cell.top)]
    inner = width - cell.left - cell.right
    if inner >= 1:
        text_width = min(len(cell.label), inner)
        spare = inner - text_width
        before, after = spare // 2, spare - spare // 2
        for text in _wrap(cell.label, text_width):
            line: _Line = [(" " * cell.left, style), (" " * before, style)]
            line += _highlight(text, style, number_style)
            line += [(" " * after, style), (" " * cell.right, style)]
            lines.append(line)
    lines += [list(blank) for _ in range(cell.bottom)]
    return lines


def _fit(line: _Line, width: int) -> _Line:
    """``line`` cut or padded (with unstyled spaces) to ``width`` columns."""
    out: _Line = []
    room = width
    for text, style in line:
        if room <= 0:
            break
        out.append((text[:room], style))
        room -= len(text[:room])
    if room > 0:
        out.append((" " * room, ""))
    return out


def _to_text(line: _Line) -> str:
    return "".join(f"\x1b[{s}m{t}{_RESET}" if s and t else t for t, s in line)


def _render(grid: list[list[_Cell]], console_width: int, *, boxed: bool, number_style: str) -> str:
    """The table as text: boxes drawn with lines when ``boxed``, else cells side by side."""
    columns = len(grid[0])
    widths = _column_widths(grid, console_width - (columns + 1 if boxed else 0))
    out: list[str] = []

    def rule(left: str, middle: str, right: str) -> None:
        out.append(left + middle.join("─" * w for w in widths) + right)

    if boxed:
        rule("┌", "┬", "┐")
    for r, row in enumerate(grid):
        rendered = [_render_cell(c, w, number_style) for c, w in zip(row, widths, strict=True)]
        height = max(len(lines) for lines in rendered)
        for k in range(height):
            parts = [
                _to_text(_fit(lines[k] if k < len(lines) else [], w))
                for lines, w in zip(rendered, widths, strict=True)
            ]
            out.append("│" + "│".join(parts) + "│" if boxed else "".join(parts))
        if boxed and r + 1 < len(grid):
            rule("├", "┼", "┤")
    if boxed:
        rule("└", "┴", "┘")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------
# Terminal detection (as rich decides whether to write escapes)
# ---------------------------------------------------------------------------


def _is_color_terminal(stream: TextIO) -> bool:
    env = os.environ
    if env.get("TERM", "").strip().lower() in ("dumb", "unknown"):
        return False
    compatible = env.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        return compatible == "1"
    force = env.get("FORCE_COLOR")
    if force is not None:
        return force != ""
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except ValueError:  # a closed stream
        return False


def _default_color_map() -> ColorMap | None:
    try:
        import matplotlib as mpl  # type: ignore[import-not-found]  # pyright: ignore[reportMissingImports]
    except ImportError:
        return None
    return cast(ColorMap, mpl.colormaps["tab20b"])  # pyright: ignore[reportUnknownMemberType]


# ---------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------


def visualize_sharding(
    shape: Sequence[int],
    sharding: Sharding,
    *,
    use_color: bool = True,
    scale: float = 1.0,
    min_width: int = 9,
    max_width: int = 80,
    color_map: ColorMap | None = None,
) -> None:
    """Prints how an array of ``shape`` is laid out by ``sharding`` (``jax.debug.visualize_sharding``).

    One box per block of the array, labelled with the devices that hold it
    (``CPU 0,4``: devices 0 and 4 hold copies), sized in proportion to the block.

    Args:
      shape: the array's shape; 1 or 2 dimensions.
      sharding: how it is laid out.
      use_color: colour the boxes (only when writing to a colour terminal and a
        colour map is available: ``color_map``, or matplotlib's ``tab20b``).
      scale: scales the picture (a whole array is ``10 * scale`` lines tall).
      min_width: the narrowest a box is drawn.
      max_width: the widest a box is drawn, and the width of the console.
      color_map: a function from ``[0, 1]`` to RGBA colours.

    Raises:
      ValueError: ``shape`` does not have 1 or 2 dimensions.
    """
    shape = tuple(int(d) for d in shape)
    if len(shape) not in (1, 2):
        raise ValueError("`visualize_sharding` only works for shapes with 1 and 2 dimensions.")
    stream = sys.stdout
    terminal = _is_color_terminal(stream)
    no_color = os.environ.get("NO_COLOR", "") != ""
    colored = use_color and terminal
    if colored and color_map is None:
        color_map = _default_color_map()
        colored = color_map is not None
    grid = _cells(
        shape,
        from_cpp_sharding(sharding),
        color_map=color_map if colored else None,
        scale=scale,
        min_width=min_width,
        max_width=max_width,
    )
    if colored and no_color:  # rich drops colours but keeps the borderless layout
        grid = [[dataclasses.replace(c, style="") for c in row] for row in grid]
    number_style = "" if colored or not terminal else ("1" if no_color else "1;36")
    stream.write(_render(grid, max_width, boxed=not colored, number_style=number_style))


def inspect_array_sharding(value: Any, *, callback: Callable[[Sharding], None]) -> None:
    """Calls ``callback`` with the sharding of each array in the pytree ``value``.

    Raises ``NotImplementedError`` for traced values (inside ``jit``): jax_core
    cannot yet report the shardings XLA chooses for intermediate values.
    """
    for leaf in tree_leaves(value):
        if isinstance(leaf, Tracer):
            raise NotImplementedError(
                "inspect_array_sharding / visualize_array_sharding of a traced value (inside "
                "jit) is not supported by jax_core yet; call it on a concrete array."
            )
        callback(from_cpp_sharding(leaf.sharding))


def visualize_array_sharding(
    arr: Any,
    *,
    use_color: bool = True,
    scale: float = 1.0,
    min_width: int = 9,
    max_width: int = 80,
    color_map: ColorMap | None = None,
) -> None:
    """Prints how the array ``arr`` is laid out across devices (``jax.debug.visualize_array_sharding``).

    See :func:`visualize_sharding` for the picture and the options.
    """
    shape = tuple(arr.shape)

    def draw(sharding: Sharding) -> None:
        visualize_sharding(
            shape,
            sharding,
            use_color=use_color,
            scale=scale,
            min_width=min_width,
            max_width=max_width,
            color_map=color_map,
        )

    inspect_array_sharding(arr, callback=draw)
