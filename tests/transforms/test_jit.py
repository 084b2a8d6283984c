"""jit: caching, static and donated arguments, stages, nesting, disable_jit."""

from functools import partial

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp


def test_jit_matches_eager_and_numpy() -> None:
    def f(x: jax.Array, y: jax.Array) -> jax.Array:
        return jnp.sin(x) * 2.0 + y

    x = np.arange(4, dtype=np.float32)
    out = jax.jit(f)(jnp.asarray(x), jnp.asarray(x))
    np.testing.assert_allclose(np.asarray(out), np.sin(x) * 2 + x, rtol=1e-6)
    assert isinstance(out, jax.Array)
    assert out.dtype == np.float32


def test_traces_once_per_signature() -> None:
    traces: list[tuple[int, ...]] = []

    @jax.jit
    def f(x: jax.Array) -> jax.Array:
        traces.append(x.shape)
        return x + 1

    f(jnp.ones(3))
    f(jnp.ones(3))
    f(jnp.zeros(3))
    assert traces == [(3,)]
    f(jnp.ones(4))
    assert traces == [(3,), (4,)]
    f(jnp.ones(4, jnp.int32))
    assert len(traces) == 3


def test_weak_type_is_part_of_the_signature() -> None:
    traces: list[bool] = []

    @jax.jit
    def f(x: jax.Array) -> jax.Array:
        traces.append(x.weak_type)
        return x * 2

    assert f(1.0).weak_type
    assert not f(jnp.array(1.0, jnp.float32)).weak_type
    assert traces == [True, False]


def test_static_argnums_and_argnames() -> None:
    traces: list[int] = []

    @partial(jax.jit, static_argnums=1)
    def f(x: jax.Array, n: int) -> jax.Array:
        traces.append(n)
        return x[:n] * n

    np.testing.assert_allclose(np.asarray(f(jnp.arange(5.0), 2)), [0.0, 2.0])
    np.testing.assert_allclose(np.asarray(f(jnp.arange(5.0), 3)), [0.0, 3.0, 6.0])
    f(jnp.arange(5.0), 2)
    assert traces == [2, 3]

    g = jax.jit(lambda x, n: x * n, static_argnames="n")
    np.testing.assert_allclose(np.asarray(g(jnp.ones(2), n=4)), [4.0, 4.0])


def test_static_argnames_validated() -> None:
    def f(x: jax.Array, n: int) -> jax.Array:
        return x * n

    with pytest.raises(ValueError, match="'m' is not a parameter"):
        jax.jit(f, static_argnames="m")
    with pytest.raises(ValueError, match="static_argnums"):
        jax.jit(f, static_argnums=5)


def test_unhashable_static_argument() -> None:
    f = jax.jit(lambda x, n: x, static_argnums=1)
    with pytest.raises(ValueError, match="Non-hashable static arguments are not supported"):
        f(jnp.ones(2), [1, 2])


def test_non_array_argument_error_names_the_path() -> None:
    f = jax.jit(lambda x, cfg: x)
    with pytest.raises(TypeError, match="path cfg"):
        f(jnp.ones(2), "abc")


def test_pytree_arguments_and_outputs() -> None:
    @jax.jit
    def f(params: dict[str, jax.Array], xs: tuple[jax.Array, jax.Array]) -> dict[str, jax.Array]:
        return {"sum": params["w"] * xs[0] + xs[1], "w": params["w"]}

    out = f({"w": jnp.full(3, 2.0)}, (jnp.ones(3), jnp.ones(3)))
    assert set(out) == {"sum", "w"}
    np.testing.assert_allclose(np.asarray(out["sum"]), [3.0, 3.0, 3.0])


def test_closed_over_array_constant() -> None:
    c = jnp.arange(3.0)
    f = jax.jit(lambda x: x + c)
    np.testing.assert_allclose(np.asarray(f(jnp.ones(3))), [1.0, 2.0, 3.0])


def test_nested_jit() -> None:
    inner = jax.jit(lambda x: jnp.cos(x) + 1)
    outer = jax.jit(lambda x: inner(x) * x)
    np.testing.assert_allclose(float(outer(2.0)), (np.cos(2.0) + 1) * 2.0, rtol=1e-6)


def test_numpy_and_python_scalar_arguments() -> None:
    f = jax.jit(lambda x, y: x * y)
    np.testing.assert_allclose(np.asarray(f(np.arange(3, dtype=np.float32), 2.0)), [0.0, 2.0, 4.0])
    out = f(3, 4)
    assert int(out) == 12 and out.dtype == np.int32 and out.weak_type


def test_lower_compile_and_stages() -> None:
    f = jax.jit(lambda x: jnp.sin(x) * 2)
    x = jnp.ones(3)
    lowered = f.lower(x)
    text = lowered.as_text()
    assert "stablehlo.sine" in text and "func.func public @main" in text
    compiled = lowered.compile()
    np.testing.assert_allclose(np.asarray(compiled(x)), np.sin(np.ones(3)) * 2, rtol=1e-6)
    assert "sine" in compiled.as_text()
    costs = compiled.cost_analysis()
    assert isinstance(costs, dict) and costs
    traced = f.trace(x)
    assert str(traced.jaxpr).startswith("{ lambda ; a:f32[3]. let")
    with pytest.raises(TypeError, match="differ from the types"):
        compiled(jnp.ones(4))


def test_lower_with_shape_dtype_struct() -> None:
    f = jax.jit(lambda x: x.sum())
    spec = jax.ShapeDtypeStruct((2, 3), jnp.float32)
    assert "tensor<2x3xf32>" in f.lower(spec).as_text()
    out = jax.jit(lambda x: x * 2).eval_shape(spec)
    assert out == jax.ShapeDtypeStruct((2, 3), jnp.float32)


def test_eval_shape() -> None:
    out = jax.eval_shape(lambda x, y: (x + y, x.astype(jnp.int32)), jnp.ones((2, 3)), 1.0)
    assert out[0].shape == (2, 3) and out[0].dtype == np.float32
    assert out[1].dtype == np.int32


def test_donate_argnums_deletes_the_donated_buffer() -> None:
    f = jax.jit(lambda x: x + 1, donate_argnums=0)
    x = jnp.ones(3)
    y = f(x)
    np.testing.assert_allclose(np.asarray(y), [2.0, 2.0, 2.0])
    assert x.is_deleted()
    with pytest.raises(RuntimeError):
        np.asarray(x + 1)


def test_static_and_donated_cannot_overlap() -> None:
    with pytest.raises(ValueError, match="cannot overlap"):
        jax.jit(lambda x: x, static_argnums=0, donate_argnums=0)


def test_disable_jit_runs_python() -> None:
    seen: list[bool] = []

    @jax.jit
    def f(x: jax.Array) -> jax.Array:
        seen.append(isinstance(x, jax.Array) and type(x).__name__ == "ArrayImpl")
        return x * 2

    with jax.disable_jit():
        f(jnp.ones(2))
        f(jnp.ones(2))
    assert seen == [True, True]


def test_x64_mode_is_part_of_the_cache_key() -> None:
    f = jax.jit(lambda x: x * 2)
    assert f(1.0).dtype == np.float32
    from jax_core._src.config import enable_x64

    with enable_x64(True):
        assert f(np.float64(1.0)).dtype == np.float64
    assert f(1.0).dtype == np.float32


def test_jit_of_bound_method() -> None:
    class Model:
        def __init__(self) -> None:
            self.scale = 3.0

        def apply(self, x: jax.Array) -> jax.Array:
            return x * self.scale

    m = Model()
    f = jax.jit(m.apply)
    np.testing.assert_allclose(np.asarray(f(jnp.ones(2))), [3.0, 3.0])


def test_isinstance_array_under_jit() -> None:
    seen: list[bool] = []

    @jax.jit
    def f(x: jax.Array) -> jax.Array:
        seen.append(isinstance(x, jax.Array))
        return x

    f(jnp.ones(2))
    assert seen == [True]
    assert isinstance(jnp.ones(2), jax.Array)
    assert not isinstance(np.ones(2), jax.Array)


def test_negative_static_argnums() -> None:
    traces: list[int] = []

    def f(x: jax.Array, n: int) -> jax.Array:
        traces.append(n)
        return x * n

    g = jax.jit(f, static_argnums=-1)
    np.testing.assert_allclose(np.asarray(g(jnp.ones(2), 3)), [3.0, 3.0])
    assert traces == [3]  # n arrived as a Python int: it was static
