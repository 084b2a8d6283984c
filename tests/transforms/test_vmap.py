"""vmap: in_axes/out_axes forms, axis_size, named axes with collectives, and JAX's errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax

COVERED = frozenset({"psum", "pmax", "pmin", "axis_index"})

A = np.arange(12.0, dtype=np.float32).reshape(3, 4)
B = np.arange(4.0, dtype=np.float32)


def loop(fun: Any, *args: Any, axes: tuple[int | None, ...]) -> np.ndarray[Any, Any]:
    n = next(np.shape(a)[ax] for a, ax in zip(args, axes) if ax is not None)
    return np.stack([np.asarray(fun(*(a if ax is None else np.take(a, i, axis=ax) for a, ax in zip(args, axes)))) for i in range(n)])


@pytest.mark.parametrize(
    ("in_axes", "a", "b"),
    [
        ((0, None), A, B),
        ((1, 0), A.T.copy(), np.arange(3.0, dtype=np.float32)),
        ((-1, 0), A.T.copy(), np.arange(3.0, dtype=np.float32)),
        ((0, 0), A, np.arange(3.0, dtype=np.float32)),
    ],
)
def test_in_axes_against_a_python_loop(in_axes: tuple[int | None, int | None], a: Any, b: Any) -> None:
    fun = lambda x, y: jnp.sin(x) * y + jnp.sum(x)  # noqa: E731
    got = jax.vmap(fun, in_axes=in_axes)(a, b)
    np.testing.assert_allclose(got, loop(fun, a, b, axes=in_axes), rtol=1e-6)


def test_pytree_in_axes_prefix_and_out_axes() -> None:
    params = {"w": A, "b": B}
    out = jax.vmap(lambda p, x: p["w"] @ x + p["b"][0], in_axes=({"w": None, "b": None}, 0))(params, A)
    np.testing.assert_allclose(out, (A @ A.T).T + B[0], rtol=1e-5)
    moved = jax.vmap(lambda x: x * 2, out_axes=1)(A)
    np.testing.assert_allclose(moved, (A * 2).T)
    both = jax.vmap(lambda x: (x, jnp.sum(x)), out_axes=(1, 0))(A)
    np.testing.assert_allclose(both[0], A.T)
    np.testing.assert_allclose(both[1], A.sum(1))


def test_unbatched_outputs_are_broadcast_and_out_axes_none() -> None:
    out = jax.vmap(lambda x: 1.0, axis_size=3)(A)  # noqa: ARG005
    np.testing.assert_allclose(out, np.ones(3))
    const = jax.vmap(lambda x: B, in_axes=0, out_axes=None)(A)  # noqa: ARG005
    np.testing.assert_allclose(const, B)


def test_axis_size_without_mapped_inputs() -> None:
    out = jax.vmap(lambda: jnp.ones(2), in_axes=(), axis_size=5)()
    assert out.shape == (5, 2)


def test_nested_vmap() -> None:
    out = jax.vmap(jax.vmap(lambda x, y: x * y, in_axes=(0, None)), in_axes=(None, 0))(B, A)
    np.testing.assert_allclose(out, B[None, :, None] * A[:, None, :])


def test_collectives_over_named_axes() -> None:
    np.testing.assert_allclose(jax.vmap(lambda x: x / lax.psum(x, "i"), axis_name="i")(B), B / B.sum())
    np.testing.assert_allclose(jax.vmap(lambda x: x - lax.pmean(x, "i"), axis_name="i")(B), B - B.mean())
    np.testing.assert_allclose(jax.vmap(lambda x: lax.pmax(x, "i"), axis_name="i")(B), np.full(4, 3.0))
    np.testing.assert_allclose(jax.vmap(lambda x: lax.pmin(x, "i"), axis_name="i")(B), np.zeros(4))
    np.testing.assert_allclose(jax.vmap(lambda x: lax.axis_index("i") * x, axis_name="i")(B), B * np.arange(4))
    inner = jax.vmap(jax.vmap(lambda x: lax.psum(x, "i"), axis_name="j"), axis_name="i")(A)
    np.testing.assert_allclose(inner, np.broadcast_to(A.sum(0), A.shape))
    both = jax.vmap(jax.vmap(lambda x: lax.psum(x, ("i", "j")), axis_name="j"), axis_name="i")(A)
    np.testing.assert_allclose(both, np.full(A.shape, A.sum()))


def test_psum_inside_jit_inside_vmap_and_its_gradient() -> None:
    out = jax.vmap(jax.jit(lambda x: x / lax.psum(x, "i")), axis_name="i")(B + 1)
    np.testing.assert_allclose(out, (B + 1) / (B + 1).sum(), rtol=1e-6)
    g = jax.grad(lambda x: jnp.sum(jax.vmap(lambda y: y * lax.psum(y, "i"), axis_name="i")(x)))(B)
    np.testing.assert_allclose(g, 2 * B.sum() * np.ones(4), rtol=1e-6)


def test_unbound_axis_name() -> None:
    with pytest.raises(NameError, match="unbound axis name: i"):
        lax.psum(1.0, "i")
    with pytest.raises(NameError, match="unbound axis name: j"):
        jax.vmap(lambda x: lax.psum(x, "j"), axis_name="i")(B)


def test_in_axes_length_mismatch() -> None:
    with pytest.raises(ValueError, match=r"but got len\(in_axes\)=1, len\(args\)=2"):
        jax.vmap(lambda x, y: x + y, in_axes=(0,))(B, B)


def test_inconsistent_sizes_list_each_argument() -> None:
    with pytest.raises(ValueError) as e:
        jax.vmap(lambda x, y: x + y)(np.ones(3, np.float32), np.ones(4, np.float32))
    msg = str(e.value)
    assert "vmap got inconsistent sizes for array axes to be mapped:" in msg
    assert "* one axis had size 3: axis 0 of argument x of type float32[3]" in msg
    assert "* one axis had size 4: axis 0 of argument y of type float32[4]" in msg


def test_axis_out_of_range_and_mapped_output_with_out_axes_none() -> None:
    with pytest.raises(ValueError, match="vmap was requested to map its argument along axis 1, which implies that its rank should be at least 2, but is only 1"):
        jax.vmap(lambda x: x, in_axes=1)(B)
    with pytest.raises(ValueError, match="vmap has mapped output but out_axes is None"):
        jax.vmap(lambda x: x, out_axes=None)(B)


def test_bad_in_axes_type() -> None:
    with pytest.raises(TypeError, match="vmap in_axes must be an int, None, or"):
        jax.vmap(lambda x: x, in_axes="0")  # type: ignore[arg-type]
