"""Tests for ``visualize_sharding`` / ``visualize_array_sharding``: the pictures real JAX prints.

Every expected picture below was printed by real jax 0.12.0.1 (the oracle venv, with ``rich``
installed) for the same call, and is compared character for character. Colour pictures were
recorded with ``FORCE_COLOR=1 COLORTERM=truecolor`` (rich's 24-bit escapes). Multi-device
pictures are drawn in ONE subprocess with 8 CPU devices that prints them as JSON.
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.sharding._programs import run_json_program

import jax_core as jax
import jax_core.numpy as jnp
from jax_core._src.sharding.visualize import (
    inspect_array_sharding,
    visualize_array_sharding,
    visualize_sharding,
)
from jax_core.sharding import Mesh, NamedSharding, PartitionSpec as P, Sharding

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120
_COLOR_ENV = ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "TERM", "COLORTERM")

EXPECTED: dict[str, str] = {
    "1d_sharded": """\
┌───────┬───────┬───────┬───────┬───────┬───────┬───────┬───────┐
│ CPU 0 │ CPU 1 │ CPU 2 │ CPU 3 │ CPU 4 │ CPU 5 │ CPU 6 │ CPU 7 │
└───────┴───────┴───────┴───────┴───────┴───────┴───────┴───────┘
""",
    "1d_replicated": """\
┌───────────────────┐
│CPU 0,1,2,3,4,5,6,7│
└───────────────────┘
""",
    "1d_partial_x": """\
┌───────────┬───────────┐
│CPU 0,1,2,3│CPU 4,5,6,7│
└───────────┴───────────┘
""",
    "1d_partial_y": """\
┌───────┬───────┬───────┬───────┐
│CPU 0,4│CPU 1,5│CPU 2,6│CPU 3,7│
└───────┴───────┴───────┴───────┘
""",
    "2d_xy": """\
┌───────┬───────┬───────┬───────┐
│       │       │       │       │
│ CPU 0 │ CPU 1 │ CPU 2 │ CPU 3 │
│       │       │       │       │
│       │       │       │       │
├───────┼───────┼───────┼───────┤
│       │       │       │       │
│ CPU 4 │ CPU 5 │ CPU 6 │ CPU 7 │
│       │       │       │       │
│       │       │       │       │
└───────┴───────┴───────┴───────┘
""",
    "2d_yx": """\
┌──────────┬──────────┐
│  CPU 0   │  CPU 4   │
├──────────┼──────────┤
│  CPU 1   │  CPU 5   │
├──────────┼──────────┤
│  CPU 2   │  CPU 6   │
├──────────┼──────────┤
│  CPU 3   │  CPU 7   │
└──────────┴──────────┘
""",
    "2d_x": """\
┌───────────────────────┐
│                       │
│      CPU 0,1,2,3      │
│                       │
│                       │
├───────────────────────┤
│                       │
│      CPU 4,5,6,7      │
│                       │
│                       │
└───────────────────────┘
""",
    "2d_y": """\
┌───────┬───────┬───────┬───────┐
│       │       │       │       │
│       │       │       │       │
│       │       │       │       │
│       │       │       │       │
│CPU 0,4│CPU 1,5│CPU 2,6│CPU 3,7│
│       │       │       │       │
│       │       │       │       │
│       │       │       │       │
│       │       │       │       │
└───────┴───────┴───────┴───────┘
""",
    "2d_xy_combined": """\
┌───────────────────────┐
│         CPU 0         │
├───────────────────────┤
│         CPU 1         │
├───────────────────────┤
│         CPU 2         │
├───────────────────────┤
│         CPU 3         │
├───────────────────────┤
│         CPU 4         │
├───────────────────────┤
│         CPU 5         │
├───────────────────────┤
│         CPU 6         │
├───────────────────────┤
│         CPU 7         │
└───────────────────────┘
""",
    "2d_replicated": """\
┌───────────────────────┐
│                       │
│                       │
│                       │
│                       │
│  CPU 0,1,2,3,4,5,6,7  │
│                       │
│                       │
│                       │
│                       │
└───────────────────────┘
""",
    "2d_device3": """\
┌───────────────────────┐
│                       │
│                       │
│                       │
│                       │
│         CPU 3         │
│                       │
│                       │
│                       │
│                       │
└───────────────────────┘
""",
    "wide_collapsed": """\
┌───────────────────┬───────────────────┬──────────────────┬───────────────────┐
│                   │                   │                  │                   │
│                   │                   │                  │                   │
│                   │                   │                  │                   │
├───────────────────┼───────────────────┼──────────────────┼───────────────────┤
│                   │                   │                  │                   │
│                   │                   │                  │                   │
│                   │                   │                  │                   │
└───────────────────┴───────────────────┴──────────────────┴───────────────────┘
""",
    "tall": """\
┌───────┬───────┐
│ CPU 0 │ CPU 4 │
├───────┼───────┤
│ CPU 1 │ CPU 5 │
├───────┼───────┤
│ CPU 2 │ CPU 6 │
├───────┼───────┤
│ CPU 3 │ CPU 7 │
└───────┴───────┘
""",
    "scale2": """\
┌──────────┬──────────┬──────────┬──────────┐
│          │          │          │          │
│          │          │          │          │
│          │          │          │          │
│          │          │          │          │
│  CPU 0   │  CPU 1   │  CPU 2   │  CPU 3   │
│          │          │          │          │
│          │          │          │          │
│          │          │          │          │
│          │          │          │          │
├──────────┼──────────┼──────────┼──────────┤
│          │          │          │          │
│          │          │          │          │
│          │          │          │          │
│          │          │          │          │
│  CPU 4   │  CPU 5   │  CPU 6   │  CPU 7   │
│          │          │          │          │
│          │          │          │          │
│          │          │          │          │
│          │          │          │          │
└──────────┴──────────┴──────────┴──────────┘
""",
    "min_width3": """\
┌─────┬─────┬─────┬─────┐
│     │     │     │     │
│CPU 0│CPU 1│CPU 2│CPU 3│
│     │     │     │     │
│     │     │     │     │
├─────┼─────┼─────┼─────┤
│     │     │     │     │
│CPU 4│CPU 5│CPU 6│CPU 7│
│     │     │     │     │
│     │     │     │     │
└─────┴─────┴─────┴─────┘
""",
    "max_width20": """\
┌────┬────┬───┬────┐
│    │    │   │    │
│ C… │ C… │ … │ C… │
│ 0  │ 1  │ 2 │ 3  │
│    │    │   │    │
│    │    │   │    │
├────┼────┼───┼────┤
│    │    │   │    │
│ C… │ C… │ … │ C… │
│ 4  │ 5  │ 6 │ 7  │
│    │    │   │    │
│    │    │   │    │
└────┴────┴───┴────┘
""",
    "shape2": """\
┌───────────────────┐
│CPU 0,1,2,3,4,5,6,7│
└───────────────────┘
""",
    "no_color_env": """\
                                    
                                    
  CPU 0    CPU 1    CPU 2    CPU 3  
                                    
                                    
                                    
                                    
                                    
  CPU 4    CPU 5    CPU 6    CPU 7  
                                    
                                    
                                    
""",
    "color_1d": (
        "\x1b[38;2;0;0;0;48;2;229;229;0m \x1b[0m\x1b[38;2;0;0;0;48;2;229;229;0mCPU 0,4\x1b[0m\x1b[38;2;0;0;0;48;2;229;229;0m \x1b[0m\x1b[38;2;0;0;0;48;2;229;229;255m \x1b[0m\x1b[38;2;0;0;0;48;2;229;229;255mCPU 1,5\x1b[0m\x1b[38;2;0;0;0;48;2;229;229;255m \x1b[0m\x1b[38;2;0;0;0;48;2;229;229;170m \x1b[0m\x1b[38;2;0;0;0;48;2;229;229;170mCPU 2,6\x1b[0m\x1b[38;2;0;0;0;48;2;229;229;170m \x1b[0m\x1b[38;2;0;0;0;48;2;229;229;85m \x1b[0m\x1b[38;2;0;0;0;48;2;229;229;85mCPU 3,7\x1b[0m\x1b[38;2;0;0;0;48;2;229;229;85m \x1b[0m\n"
        "\x1b[38;2;0;0;0;48;2;229;229;0m         \x1b[0m\x1b[38;2;0;0;0;48;2;229;229;255m         \x1b[0m\x1b[38;2;0;0;0;48;2;229;229;170m         \x1b[0m\x1b[38;2;0;0;0;48;2;229;229;85m         \x1b[0m\n"
    ),
    "color_scale": (
        "\x1b[38;2;0;0;0;48;2;229;229;0m                   \x1b[0m\n"
        "\x1b[38;2;0;0;0;48;2;229;229;0m                   \x1b[0m\n"
        "\x1b[38;2;0;0;0;48;2;229;229;0mCPU 0,1,2,3,4,5,6,7\x1b[0m\n"
        "\x1b[38;2;0;0;0;48;2;229;229;0m                   \x1b[0m\n"
        "\x1b[38;2;0;0;0;48;2;229;229;0m                   \x1b[0m\n"
        "\x1b[38;2;0;0;0;48;2;229;229;0m                   \x1b[0m\n"
    ),
    "terminal_no_color": (
        "┌───────────┬───────────┐\n"
        "│CPU \x1b[1;36m0\x1b[0m,\x1b[1;36m1\x1b[0m,\x1b[1;36m2\x1b[0m,\x1b[1;36m3\x1b[0m│CPU \x1b[1;36m4\x1b[0m,\x1b[1;36m5\x1b[0m,\x1b[1;36m6\x1b[0m,\x1b[1;36m7\x1b[0m│\n"
        "└───────────┴───────────┘\n"
    ),
    "no_color_env_terminal": (
        "┌───────────┬───────────┐\n"
        "│CPU \x1b[1m0\x1b[0m,\x1b[1m1\x1b[0m,\x1b[1m2\x1b[0m,\x1b[1m3\x1b[0m│CPU \x1b[1m4\x1b[0m,\x1b[1m5\x1b[0m,\x1b[1m6\x1b[0m,\x1b[1m7\x1b[0m│\n"
        "└───────────┴───────────┘\n"
    ),
}

_PROGRAM = r"""
import contextlib, io, json, os
import numpy as np
import jax_core as jax
from jax_core._src.sharding.visualize import visualize_array_sharding, visualize_sharding
from jax_core.sharding import Mesh, NamedSharding, PartitionSpec as P

devs = jax.devices()
m8 = Mesh(np.array(devs), ("x",))
m24 = Mesh(np.array(devs).reshape(2, 4), ("x", "y"))
v8 = np.arange(8, dtype=np.int32)
v88 = np.arange(64, dtype=np.int32).reshape(8, 8)

def put(v, mesh, spec):
    return jax.device_put(v, NamedSharding(mesh, spec))

def cm(v):
    return (v, 0.5, 1 - v, 1.0)

def light(v):
    return (0.9, 0.9, v, 1.0)

CASES = {
    "1d_sharded": lambda: visualize_array_sharding(put(v8, m8, P("x"))),
    "1d_replicated": lambda: visualize_array_sharding(put(v8, m8, P())),
    "1d_partial_x": lambda: visualize_array_sharding(put(v8, m24, P("x"))),
    "1d_partial_y": lambda: visualize_array_sharding(put(v8, m24, P("y"))),
    "2d_xy": lambda: visualize_array_sharding(put(v88, m24, P("x", "y"))),
    "2d_yx": lambda: visualize_array_sharding(put(v88, m24, P("y", "x"))),
    "2d_x": lambda: visualize_array_sharding(put(v88, m24, P("x"))),
    "2d_y": lambda: visualize_array_sharding(put(v88, m24, P(None, "y"))),
    "2d_xy_combined": lambda: visualize_array_sharding(put(v88, m24, P(("x", "y")))),
    "2d_replicated": lambda: visualize_array_sharding(put(v88, m24, P())),
    "2d_device3": lambda: visualize_array_sharding(jax.device_put(v88, devs[3])),
    "wide_collapsed": lambda: visualize_sharding((4, 32), NamedSharding(m24, P("x", "y"))),
    "tall": lambda: visualize_sharding((32, 4), NamedSharding(m24, P("y", "x"))),
    "scale2": lambda: visualize_array_sharding(put(v88, m24, P("x", "y")), scale=2),
    "min_width3": lambda: visualize_array_sharding(put(v88, m24, P("x", "y")), min_width=3),
    "max_width20": lambda: visualize_array_sharding(put(v88, m24, P("x", "y")), max_width=20),
    "shape2": lambda: visualize_sharding((2,), NamedSharding(m8, P())),
}
COLOR_CASES = {
    "color_2d": lambda: visualize_sharding((8, 8), NamedSharding(m24, P("x", "y")), color_map=cm),
    "color_1d": lambda: visualize_sharding((8,), NamedSharding(m24, P("y")), color_map=light),
    "color_scale": lambda: visualize_sharding((8, 8), NamedSharding(m24, P()), color_map=light, scale=0.5),
    "terminal_no_color": lambda: visualize_sharding((8,), NamedSharding(m24, P("x")), use_color=False),
}

def capture(f):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        f()
    return buf.getvalue()

out = {name: capture(f) for name, f in CASES.items()}
for k in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "TERM", "COLORTERM"):
    os.environ.pop(k, None)
os.environ.update(FORCE_COLOR="1", COLORTERM="truecolor")
out.update({name: capture(f) for name, f in COLOR_CASES.items()})
os.environ["NO_COLOR"] = "1"
out["no_color_env"] = capture(COLOR_CASES["color_2d"])
out["no_color_env_terminal"] = capture(COLOR_CASES["terminal_no_color"])
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def pictures() -> dict[str, str]:
    result: dict[str, str] = run_json_program(_PROGRAM, "visualize", timeout_s=TIMEOUT_S)
    return result


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_picture_matches_jax(pictures: dict[str, str], name: str) -> None:
    assert pictures[name] == EXPECTED[name]


def _strip_ansi(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def _cell_styles(line: str) -> list[str]:
    styles: list[str] = []
    for code in re.findall(r"\x1b\[([0-9;]*)m", line):
        if code != "0" and (not styles or styles[-1] != code):
            styles.append(code)
    return styles


def test_colored_2d_picture(pictures: dict[str, str]) -> None:
    # The coloured layout is the borderless one JAX prints with NO_COLOR (same cells, no escapes).
    picture = pictures["color_2d"]
    assert _strip_ansi(picture) == EXPECTED["no_color_env"]
    lines = picture.split("\n")
    white_on = "38;2;255;255;255;48;2;"
    assert _cell_styles(lines[0]) == [
        white_on + c for c in ("0;127;255", "182;127;72", "72;127;182", "255;127;0")
    ]
    assert _cell_styles(lines[6]) == [
        white_on + c for c in ("145;127;109", "36;127;218", "218;127;36", "109;127;145")
    ]
    assert all(line.endswith("\x1b[0m") for line in lines if line)


# ---------------------------------------------------------------------------
# One device, in-process
# ---------------------------------------------------------------------------


def _printed(draw: Callable[[], None], monkeypatch: pytest.MonkeyPatch, **env: str) -> str:
    for name in _COLOR_ENV:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        draw()
    return buf.getvalue()


def test_single_device_arrays(monkeypatch: pytest.MonkeyPatch) -> None:
    one_d = _printed(lambda: visualize_array_sharding(jnp.arange(5)), monkeypatch)
    assert one_d == "┌───────┐\n│ CPU 0 │\n└───────┘\n"
    two_d = _printed(lambda: visualize_array_sharding(jnp.zeros((8, 8))), monkeypatch)
    assert two_d == EXPECTED["2d_device3"].replace("CPU 3", "CPU 0")


def test_default_colour_needs_a_terminal_and_a_colour_map(monkeypatch: pytest.MonkeyPatch) -> None:
    x = jnp.arange(5)
    plain = "┌───────┐\n│ CPU 0 │\n└───────┘\n"
    # Not a terminal: no colour even when asked for.
    assert (
        _printed(
            lambda: visualize_array_sharding(x, color_map=lambda v: (v, v, v, 1.0)), monkeypatch
        )
        == plain
    )
    # A terminal, a colour map: one coloured cell, black text on light grey (recorded from JAX).
    colored = _printed(
        lambda: visualize_array_sharding(x, color_map=lambda v: (0.8, 0.8, 0.8, 1.0)),
        monkeypatch, FORCE_COLOR="1", COLORTERM="truecolor",
    )  # fmt: skip
    style = "\x1b[38;2;0;0;0;48;2;204;204;204m"
    assert colored == f"{style}  \x1b[0m{style}CPU 0\x1b[0m{style}  \x1b[0m\n{style}         \x1b[0m\n"
    # TERM=dumb turns the terminal off (rich's rule).
    assert _printed(
        lambda: visualize_array_sharding(x, color_map=lambda v: (v, v, v, 1.0)),
        monkeypatch, FORCE_COLOR="1", TERM="dumb",
    ) == plain  # fmt: skip


def test_errors_and_tracers() -> None:
    mesh = Mesh(np.array(jax.devices()[:1]), ("x",))
    with pytest.raises(ValueError) as info:
        visualize_sharding((2, 2, 2), NamedSharding(mesh, P()))
    assert str(info.value) == "`visualize_sharding` only works for shapes with 1 and 2 dimensions."
    with pytest.raises(ValueError, match="only works for shapes with 1 and 2 dimensions"):
        visualize_array_sharding(jnp.float32(1.0))

    def staged(x: Any) -> Any:
        visualize_array_sharding(x)
        return x

    with pytest.raises(NotImplementedError, match="inside jit"):
        jax.jit(staged)(jnp.arange(3))


def test_inspect_array_sharding_calls_back_per_leaf() -> None:
    seen: list[Sharding] = []
    tree = {"a": jnp.arange(3), "b": [jnp.ones((2, 2))]}
    inspect_array_sharding(tree, callback=seen.append)
    assert len(seen) == 2 and all(s.device_set == {jax.devices()[0]} for s in seen)
