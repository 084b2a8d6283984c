"""``dim_as_value``: a symbolic dimension used as a value (shape polymorphism)."""

from __future__ import annotations

import numpy as np
import pytest

import jax_core as jax
from jax_core import export

COVERED = {"dim_as_value"}


def test_dim_as_value_rules() -> None:
    """A dimension used as a value is one ``dim_as_value`` equation (a weak int32 scalar), whose
    lowering needs the dimension variables of a polymorphic export."""
    b, h = export.symbolic_shape("b, h")
    spec = jax.ShapeDtypeStruct((b, h), np.float32)
    jaxpr = jax.make_jaxpr(lambda x: x * (2 * x.shape[0] + 1))(spec)
    eqn = jaxpr.eqns[0]
    assert eqn.primitive.name == "dim_as_value" and str(eqn.params["dim"]) == "2*b + 1"
    assert (eqn.outvars[0].aval.dtype, eqn.outvars[0].aval.shape, eqn.outvars[0].aval.weak_type) == (np.int32, (), True)
    assert "f32[b,h]" in str(jaxpr)
    exported = export.export(jax.jit(lambda x: x * (2 * x.shape[0] + 1)))(spec)
    np.testing.assert_array_equal(np.asarray(exported.call(np.ones((3, 2), np.float32))), np.full((3, 2), 7, np.float32))
    with pytest.raises(ValueError, match="outside a shape-polymorphic export"):
        jax.jit(lambda x: x * x.shape[0]).lower(spec)
