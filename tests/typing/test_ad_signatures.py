"""The generated typed autodiff entry points (``ad_signatures.py``) are up to date and behave
exactly as their ``ad_api`` implementations."""

from __future__ import annotations

import inspect
from pathlib import Path
from types import ModuleType

import jax_core as jax
import jax_core.numpy as jnp
from jax_core._src.transforms import ad_api, ad_signatures
from tests._tools import load_tool

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("grad", "value_and_grad", "jacfwd", "jacrev", "hessian")


def _generator() -> ModuleType:
    return load_tool("gen_ad_signatures")


def test_generated_module_is_up_to_date() -> None:
    gen = _generator()
    expected: str = gen.render()  # type: ignore[attr-defined]
    assert ad_signatures.__file__ is not None
    assert Path(ad_signatures.__file__).read_text() == expected, "run tools/gen_ad_signatures.py"


def test_public_names_are_the_typed_entry_points() -> None:
    for name in NAMES:
        assert getattr(jax, name) is getattr(ad_signatures, name)
    assert jax.jacobian is ad_signatures.jacrev


def test_same_parameters_as_the_implementation() -> None:
    for name in NAMES:
        public = inspect.signature(getattr(ad_signatures, name))
        impl = inspect.signature(getattr(ad_api, name))
        assert list(public.parameters) == list(impl.parameters), name
        assert [p.default for p in public.parameters.values()] == [p.default for p in impl.parameters.values()]


def test_results_match_the_implementation() -> None:
    def loss(w: jax.Array, x: jax.Array) -> jax.Array:
        return jnp.sum(jnp.sin(w * x))

    w, x = jnp.arange(3.0), jnp.ones(3)
    for name in NAMES:
        ours = getattr(ad_signatures, name)(loss, argnums=(0, 1))(w, x)
        theirs = getattr(ad_api, name)(loss, argnums=(0, 1))(w, x)
        for a, b in zip(jax.tree_util.tree_leaves(ours), jax.tree_util.tree_leaves(theirs), strict=True):
            assert bool(jnp.all(a == b)), name
