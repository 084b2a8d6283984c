"""Every primitive registers its rules in one place, and every one can be lowered (jax_core's own:
primitives users and tests define with ``jax_core.extend`` are theirs to complete)."""

import jax_core  # noqa: F401  (registers the primitives)
from jax_core._src.core.primitive import all_primitives, is_own_primitive


def test_every_primitive_has_abstract_eval_and_lowering() -> None:
    prims = [p for p in all_primitives() if is_own_primitive(p)]
    assert len(prims) > 80
    missing = [p.name for p in prims if p.rules.lower is None]
    assert missing == []


def test_primitive_names_are_unique() -> None:
    names = [p.name for p in all_primitives()]
    assert len(names) == len(set(names))
