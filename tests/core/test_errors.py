"""Tracer errors: JAX's classes, and messages that say where the value became a tracer."""

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import errors


def test_bool_conversion_under_jit_names_function_and_argument() -> None:
    def h(x: jax.Array) -> jax.Array:
        if x > 0:
            return x
        return -x

    with pytest.raises(errors.TracerBoolConversionError) as info:
        jax.jit(h)(1.0)
    msg = str(info.value)
    assert "Attempted boolean conversion of traced array with shape bool[]." in msg
    assert "while tracing the function h at " in msg and "for jit" in msg
    assert "depends on the value of the argument x" in msg
    assert isinstance(info.value, errors.ConcretizationTypeError)
    assert isinstance(info.value, TypeError)


def test_int_conversion_is_a_concretization_error() -> None:
    with pytest.raises(errors.ConcretizationTypeError, match="The problem arose with the `int` function"):
        jax.jit(lambda x: int(x))(1.0)


def test_shape_from_traced_value_names_the_operation_and_line() -> None:
    def f(x: jax.Array) -> jax.Array:
        n = jnp.prod(jnp.array(x.shape)) if hasattr(jnp, "prod") else jnp.sum(jnp.array(x.shape))
        return x.reshape(n)

    with pytest.raises(TypeError) as info:  # JAX's class for a traced shape (not ConcretizationTypeError)
        jax.jit(f)(jnp.ones((2, 3)))
    msg = str(info.value)
    assert "Shapes must be 1D sequences of concrete values of integer type" in msg
    assert "This value became a tracer due to JAX operations on these lines" in msg
    assert "reduce_" in msg and "test_errors.py" in msg


def test_escaped_tracer() -> None:
    leak: list[jax.Array] = []

    def k(x: jax.Array) -> jax.Array:
        y = jnp.sin(x)
        leak.append(y)
        return y

    jax.jit(k)(1.0)
    with pytest.raises(errors.UnexpectedTracerError) as info:
        leak[0] + 1
    msg = str(info.value)
    assert "Encountered an unexpected tracer" in msg
    assert "float32[] wrapped in a DynamicJaxprTracer" in msg
    assert "The function being traced when the value leaked was k at" in msg
    assert "The leaked intermediate value was created on line" in msg and "(k)" in msg


def test_escaped_tracer_used_in_another_jit() -> None:
    leak: list[jax.Array] = []
    jax.jit(lambda x: leak.append(x * 2) or x)(1.0)
    with pytest.raises(errors.UnexpectedTracerError):
        jax.jit(lambda y: y + leak[0])(1.0)


def test_numpy_conversion_of_tracer() -> None:
    with pytest.raises(errors.TracerArrayConversionError):
        jax.jit(lambda x: np.asarray(x))(jnp.ones(2))


def test_index_conversion_of_tracer() -> None:
    with pytest.raises(errors.TracerIntegerConversionError):
        jax.jit(lambda x, i: x[[0, 1][i]])(jnp.ones(2), 1)


def test_ensure_compile_time_eval_allows_python_control_flow() -> None:
    @jax.jit
    def f(x: jax.Array) -> jax.Array:
        with jax.ensure_compile_time_eval():
            n = jnp.sum(jnp.ones(3))
            scale = 2.0 if n > 2 else 0.0
        return x * scale

    np.testing.assert_allclose(np.asarray(f(jnp.ones(2))), [2.0, 2.0])


def test_primitive_type_errors_use_jax_wording() -> None:
    from jax_core import lax

    with pytest.raises(TypeError, match="lax.add requires arguments to have the same dtypes, got float32, int32"):
        lax.add(jnp.ones(3), jnp.ones(3, jnp.int32))
    with pytest.raises(TypeError, match="add got incompatible shapes for broadcasting: \\(3,\\), \\(4,\\)"):
        lax.add(jnp.ones(3), jnp.ones(4))
    with pytest.raises(TypeError, match="sin does not accept dtype int32"):
        lax.sin(jnp.ones(3, jnp.int32))


def test_invalid_values_are_rejected() -> None:
    with pytest.raises(TypeError, match="sum requires ndarray or scalar arguments"):
        jnp.sum([1, 2])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="sin requires ndarray or scalar arguments, got <class 'list'> at position 0"):
        jnp.sin([1.0, 2.0])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Error interpreting argument to .* as an abstract array"):
        jnp.sin("a")  # type: ignore[arg-type]
