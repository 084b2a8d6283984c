"""The jax_core.numpy coverage figure against real JAX's recorded API list stays above its floor."""

from pathlib import Path
from types import ModuleType

from tests._tools import load_tool

ROOT = Path(__file__).resolve().parents[2]
FLOOR = 100.0
"""The committed floor (percent); raise it as coverage grows, never lower it."""


def _tool() -> ModuleType:
    return load_tool("jnp_coverage")


def test_reference_list_is_recorded() -> None:
    names = _tool().reference()
    assert len(names) > 400
    assert ("jax.numpy", "sum") in names and ("jax.numpy.linalg", "svd") in names and ("jax.numpy.fft", "rfft") in names


def test_coverage_is_above_the_floor() -> None:
    tool = _tool()
    figure = tool.coverage()
    assert figure >= FLOOR, f"coverage {figure:.1f}% fell below the floor {FLOOR}%; missing: {tool.missing()}"
