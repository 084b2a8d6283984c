"""Every primitive registers its rules in one place, and every one can be lowered."""

import jax_core  # noqa: F401  (registers the primitives)
from jax_core._src.core.primitive import all_primitives


def test_every_primitive_has_abstract_eval_and_lowering() -> None:
    prims = list(all_primitives())
    assert len(prims) > 80
    missing = [p.name for p in prims if p.rules.lower is None]
    assert missing == []


def test_primitive_names_are_unique() -> None:
    names = [p.name for p in all_primitives()]
    assert len(names) == len(set(names))
