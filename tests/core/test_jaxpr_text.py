"""make_jaxpr prints JAX's text format: the expected strings were recorded from real JAX 0.12."""

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax

RECORDED = {
    "sin": "{ lambda ; a:f32[3]. let b:f32[3] = sin a in (b,) }",
    "mul_add_const": "{ lambda ; a:f32[3] b:f32[3]. let\n    c:f32[3] = sin a\n    d:f32[3] = mul c 2.0:f32[]\n    e:f32[3] = add d b\n  in (e,) }",
    "closure_const": "{ lambda a:f32[3]; b:f32[3]. let c:f32[3] = add b a in (c,) }",
    "nested_jit": "{ lambda ; a:f32[]. let\n    b:f32[] = jit[\n      name=<lambda>\n      jaxpr={ lambda ; a:f32[]. let\n          c:f32[] = cos a\n          b:f32[] = add c 1.0:f32[]\n        in (b,) }\n    ] a\n    d:f32[] = mul b a\n  in (d,) }",
    "int_weak": "{ lambda ; a:i32[]. let b:i32[] = add a 1:i32[] in (b,) }",
    "convert": "{ lambda ; a:f32[3]. let\n    b:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a\n  in (b,) }",
    "lax_add": "{ lambda ; a:f32[2,3] b:f32[2,3]. let c:f32[2,3] = add a b in (c,) }",
    "multi_out": "{ lambda ; a:f32[2]. let b:f32[2] = exp a; c:f32[2] = log a in (a, b, c) }",
    "integer_pow": "{ lambda ; a:f32[2]. let b:f32[2] = integer_pow[y=2] a in (b,) }",
    "zeros": "{ lambda ; . let a:f32[3] = broadcast_in_dim 0.0:f32[] in (a,) }",
    "tanh_logistic": "{ lambda ; a:f32[2]. let b:f32[2] = tanh a; c:f32[2] = logistic b in (c,) }",
}


def test_sin() -> None:
    assert str(jax.make_jaxpr(jnp.sin)(jnp.ones(3))) == RECORDED["sin"]


def test_literal_scalar_constant() -> None:
    got = jax.make_jaxpr(lambda x, y: jnp.sin(x) * 2.0 + y)(jnp.ones(3), jnp.ones(3))
    assert str(got) == RECORDED["mul_add_const"]


def test_closed_over_array_is_a_constvar() -> None:
    c = jnp.array([0.0, 1.0, 2.0])
    got = jax.make_jaxpr(lambda x: x + c)(jnp.ones(3))
    assert str(got) == RECORDED["closure_const"]
    assert len(got.consts) == 1


def test_nested_jit_is_one_equation_with_aliased_names() -> None:
    g = jax.jit(lambda x: jnp.cos(x) + 1)
    assert str(jax.make_jaxpr(lambda x: g(x) * x)(1.0)) == RECORDED["nested_jit"]


def test_weak_int_literal() -> None:
    assert str(jax.make_jaxpr(lambda i: i + 1)(jnp.array(1, jnp.int32))) == RECORDED["int_weak"]


def test_convert_element_type() -> None:
    assert str(jax.make_jaxpr(lambda x: x.astype(jnp.int32))(jnp.ones(3))) == RECORDED["convert"]


def test_lax_add() -> None:
    assert str(jax.make_jaxpr(lax.add)(jnp.ones((2, 3)), jnp.ones((2, 3)))) == RECORDED["lax_add"]


def test_multiple_outputs_with_an_input_passed_through() -> None:
    got = jax.make_jaxpr(lambda x: (x, jnp.exp(x), jnp.log(x)))(jnp.ones(2))
    assert str(got) == RECORDED["multi_out"]


def test_integer_pow_param() -> None:
    assert str(jax.make_jaxpr(lambda x: x**2)(jnp.ones(2))) == RECORDED["integer_pow"]


def test_unary_chain() -> None:
    got = jax.make_jaxpr(lambda x: lax.logistic(jnp.tanh(x)))(jnp.ones(2))
    assert str(got) == RECORDED["tanh_logistic"]


def test_omnistaging_stages_constant_creation() -> None:
    # With omnistaging, even ops on constants are recorded inside the traced function.
    got = jax.make_jaxpr(lambda x: x + jnp.zeros(3))(jnp.ones(3))
    prims = [e.primitive.name for e in got.eqns]
    assert "broadcast_in_dim" in prims and "add" in prims


def test_ensure_compile_time_eval_computes_eagerly() -> None:
    def f(x: jax.Array) -> jax.Array:
        with jax.ensure_compile_time_eval():
            y = jnp.sin(jnp.zeros(3)) + 1.0
        assert type(y).__name__ == "ArrayImpl"  # concrete, not a tracer
        return x + y

    got = jax.make_jaxpr(f)(jnp.ones(3))
    assert [e.primitive.name for e in got.eqns] == ["add"]
    assert len(got.consts) == 1


def test_creation_is_a_broadcast_literal() -> None:
    assert str(jax.make_jaxpr(lambda: jnp.zeros(3))()) == RECORDED["zeros"]
