"""``jax_core.export``: exporting, the calling convention of ``main``, calling (eagerly, under
``jit`` and ``grad``), the safety checks, multi-platform export and JAX's errors. The same
programs run through real JAX 0.12 in a subprocess where ``.venv-jax`` exists."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import export, lax
from jax_core._src import config
from jax_core.extend.core import Effect

COVERED = {"call_exported"}

ROOT = Path(__file__).resolve().parents[2]
JAX_PY = ROOT / ".venv-jax" / "bin" / "python"
needs_jax = pytest.mark.skipif(not JAX_PY.exists(), reason="the live oracle .venv-jax is not built")


def _run(python: Path | str, source: str) -> list[str]:
    done = subprocess.run([str(python), "-c", source], capture_output=True, text=True, timeout=180, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.splitlines()


def _both(program: str) -> tuple[list[str], list[str]]:
    """The program's output under jax_core (``jax`` is ``jax_core``) and under real JAX."""
    ours = _run(sys.executable, "import jax_core as jax\nimport sys; sys.modules['jax'] = jax\n" + program)
    theirs = _run(JAX_PY, program)
    return ours, theirs


# -- the seed's examples (docs: "Exporting and serializing staged-out computations") ---------------


def test_seed_first_example() -> None:
    def f(x: jax.Array) -> jax.Array:
        return 2 * x * x

    exported = export.export(jax.jit(f))(jax.ShapeDtypeStruct((), np.float32))
    assert exported.fun_name == "f"
    assert repr(exported.in_avals) == "(ShapedArray(float32[]),)"
    main = re.search(r".*@main.*", exported.mlir_module())
    assert main is not None
    assert main.group(0) == '  func.func public @main(%arg0: tensor<f32> loc("x")) -> (tensor<f32> {jax.result_info = "result"}) {'

    def callee(y: jax.Array) -> jax.Array:
        out: jax.Array = 3.0 * exported.call(y * 4.0)
        return out

    assert repr(callee(1.0)) == "Array(96., dtype=float32)"
    assert repr(jax.jit(callee)(1.0)) == "Array(96., dtype=float32)"


def test_vjp_orders_in_process() -> None:
    def f(x: jax.Array) -> jax.Array:
        return 7 * x * x * x

    call = export.export(jax.jit(f))(1.0).call
    np.testing.assert_allclose(call(0.1), 0.007, rtol=1e-5)
    np.testing.assert_allclose(jax.grad(call)(0.1), 0.21, rtol=1e-5)
    np.testing.assert_allclose(jax.grad(jax.grad(call))(0.1), 4.2, rtol=1e-5)
    np.testing.assert_allclose(jax.grad(jax.grad(jax.grad(call)))(0.1), 42.0, rtol=1e-5)


def test_grad_with_integer_arguments_and_pytrees() -> None:
    def f(x: jax.Array, d: dict[str, jax.Array]) -> tuple[jax.Array, jax.Array]:
        return jnp.sin(x) * d["n"], d["n"] + 1

    exp = export.export(jax.jit(f))(jax.ShapeDtypeStruct((3,), np.float32), {"n": np.int32(2)})
    vjp = exp.vjp()
    assert [str(a) for a in vjp.in_avals] == ["float32[3]", "int32[]", "float32[3]", "float0[]"]
    assert [str(a) for a in vjp.out_avals] == ["float32[3]", "float0[]"]
    x = np.array([0.1, 0.2, 0.3], np.float32)
    g = jax.grad(lambda x: exp.call(x, {"n": np.int32(2)})[0].sum())(x)
    np.testing.assert_allclose(g, 2 * np.cos(x), rtol=1e-6)


# -- the calling convention ------------------------------------------------------------------------


def test_fields_and_kept_arguments() -> None:
    exp = export.export(jax.jit(lambda x, y: x * 2))(1.0, 2.0)
    assert exp.module_kept_var_idx == (0,)
    assert exp.calling_convention_version == 10
    assert exp.platforms == ("cpu",)
    assert exp.nr_devices == 1
    assert exp.in_shardings_hlo == (None, None) and exp.out_shardings_hlo == (None,)
    assert exp.ordered_effects == () and exp.unordered_effects == ()
    assert not exp.uses_global_constants
    assert "main(%arg0: tensor<f32>" in exp.mlir_module() and "%arg1" not in exp.mlir_module()
    assert float(exp.call(3.0, 4.0)) == 6.0
    assert str(exp) == "Exported(fun_name=<lambda>, ...)"


def test_result_info_paths() -> None:
    exp = export.export(jax.jit(lambda x: {"a": x, "b": [x, (x,)]}))(1.0)
    infos = re.findall(r'jax.result_info = "([^"]*)"', exp.mlir_module())
    assert infos == ["result['a']", "result['b'][0]", "result['b'][1][0]"]


def test_calling_convention_version_option() -> None:
    assert (export.minimum_supported_calling_convention_version, export.maximum_supported_calling_convention_version) == (9, 10)
    with config.export_calling_convention_version(9):
        assert export.export(jax.jit(jnp.cos))(1.0).calling_convention_version == 9
    with config.export_calling_convention_version(8):
        with pytest.raises(ValueError, match=r"outside the range of supported versions \[9\.\.10\]"):
            export.export(jax.jit(jnp.cos))(1.0)


@needs_jax
def test_main_signature_matches_jax() -> None:
    program = textwrap.dedent(
        """
        import re
        import numpy as np
        import jax, jax.numpy as jnp
        from jax import export
        def f(x, y, *, z): return {"a": 2 * x * y, "b": [jnp.sin(x), z]}
        for platforms in [None, ("cpu", "cuda", "tpu")]:
            e = export.export(jax.jit(f), platforms=platforms)(
                jax.ShapeDtypeStruct((3,), np.float32), np.int32(2), z=np.ones((2,), np.int8))
            print(re.search(r".*@main.*", e.mlir_module()).group(0))
            print(e.in_tree, e.out_tree, e.in_avals, e.out_avals, e.platforms, e.module_kept_var_idx,
                  e.uses_global_constants, e.calling_convention_version)
            print(e.call(np.arange(3, dtype=np.float32), np.int32(3), z=np.ones((2,), np.int8))["a"])
        """
    )
    ours, theirs = _both(program)
    assert ours == theirs


# -- calling: errors as JAX ------------------------------------------------------------------------


@needs_jax
def test_call_errors_match_jax() -> None:
    program = textwrap.dedent(
        """
        import numpy as np
        import jax
        from jax import export
        e = export.export(jax.jit(lambda x, y: (x * 2, y)))(np.ones((2, 3), np.float32), {"a": np.int32(1)})
        k = export.export(jax.jit(lambda x, *, k: x + k))(np.ones((2, 3), np.float32), k=np.ones((2, 3), np.float32))
        x = np.ones((2, 3), np.float32)
        for thunk in [
            lambda: e.call(np.ones((2,), np.float32), {"a": np.int32(1)}),
            lambda: e.call(np.ones((2, 4), np.float32), {"a": np.int32(1)}),
            lambda: e.call(np.ones((2, 3), np.int32), {"a": np.int32(1)}),
            lambda: e.call(x, {"a": np.float32(1)}),
            lambda: e.call(x, {"b": np.int32(1)}),
            lambda: e.call(x, {"a": np.int32(1)}, 3),
            lambda: k.call(x, k=np.ones((2, 4), np.float32)),
            lambda: jax.vmap(e.call)(np.ones((5, 2, 3), np.float32), {"a": np.ones(5, np.int32)}),
            lambda: jax.jvp(lambda x: e.call(x, {"a": np.int32(1)})[0], (x,), (x,)),
            lambda: export.export(lambda x: x)(1.0),
            lambda: export.export(jax.jit(lambda x: x), platforms=("gpu",))(1.0),
            lambda: export.export(jax.jit(jax.lax.cos), platforms=["tpu"])(1.0).call(1.0),
        ]:
            try:
                thunk()
                print("ok")
            except Exception as ex:
                print(type(ex).__name__, str(ex).replace(" at 0x", "@").split("@")[0])
        """
    )
    ours, theirs = _both(program)
    assert ours == theirs


def test_batching_and_jvp_are_refused() -> None:
    exp = export.export(jax.jit(jnp.sin))(np.ones(3, np.float32))
    with pytest.raises(NotImplementedError, match="Batching rule for 'call_exported' not implemented"):
        jax.vmap(exp.call)(np.ones((2, 3), np.float32))
    with pytest.raises(TypeError, match="can't apply forward-mode autodiff"):
        jax.jvp(exp.call, (np.ones(3, np.float32),), (np.ones(3, np.float32),))


# -- platforms -------------------------------------------------------------------------------------


def test_platform_check_and_disabling_it() -> None:
    exp = export.export(jax.jit(lax.cos), platforms=["tpu"])(1.0)
    with pytest.raises(ValueError, match=re.escape("Function 'cos' was exported for platforms '('tpu',)' but it is used on '('cpu',)'.")):
        exp.call(1.0)
    unsafe = export.export(jax.jit(lax.cos), platforms=["tpu"], disabled_checks=[export.DisabledSafetyCheck.platform()])(1.0)
    np.testing.assert_allclose(unsafe.call(1.0), np.cos(1.0), rtol=1e-6)
    assert export.default_export_platform() == "cpu"


def test_multi_platform_runs_the_cpu_branch() -> None:
    def f(x: jax.Array) -> jax.Array:
        out: jax.Array = lax.platform_dependent(x, cpu=lambda x: x + 1.0, tpu=lambda x: x + 2.0, cuda=lambda x: x + 3.0)
        return out

    exp = export.export(jax.jit(f), platforms=("tpu", "cpu", "cuda"))(np.float32(0))
    assert exp.platforms == ("tpu", "cpu", "cuda") and exp.uses_global_constants
    text = exp.mlir_module()
    assert 'jax.global_constant = "_platform_index"' in text
    assert "stablehlo.case" in text
    assert float(exp.call(np.float32(1))) == 2.0
    assert float(jax.jit(exp.call)(np.float32(1))) == 2.0
    # Exported again for several platforms, the inner call is told its platform by index.
    outer = export.export(jax.jit(exp.call), platforms=("cuda", "cpu"))(np.float32(0))
    assert float(outer.call(np.float32(1))) == 2.0
    single = export.export(jax.jit(f))(np.float32(0))
    assert "_platform_index" not in single.mlir_module()
    assert float(single.call(np.float32(1))) == 2.0


def test_export_needs_jit_and_known_platforms() -> None:
    with pytest.raises(ValueError, match="Function to be exported must be the result of `jit`"):
        export.export(lambda x: x)(1.0)
    assert float(export.export(jnp.sin)(0.0).call(0.0)) == 0.0  # jnp functions are jitted, as in JAX
    with pytest.raises(RuntimeError, match="Unknown backend: 'gpu'"):
        export.export(jax.jit(jnp.sin), platforms=("gpu",))(1.0)


# -- custom calls ----------------------------------------------------------------------------------


def test_custom_call_allowlist() -> None:
    from jax_core.extend import core
    from jax_core.interpreters import mlir

    new_prim = core.Primitive("new_prim")
    new_prim.def_abstract_eval(lambda x: x)
    mlir.register_lowering(
        new_prim, lambda ctx, o: mlir.custom_call("my_new_prim", operands=[o], result_types=[o.type]).results
    )
    with pytest.raises(ValueError, match="Cannot serialize code with custom calls whose targets have no compatibility guarantees") as info:
        export.export(jax.jit(new_prim.bind))(1.0)
    assert "stablehlo.custom_call @my_new_prim" in str(info.value)
    assert "jax.export.DisabledSafetyCheck.custom_call('<target>')" in str(info.value)
    exp = export.export(jax.jit(new_prim.bind), disabled_checks=[export.DisabledSafetyCheck.custom_call("my_new_prim")])(1.0)
    assert exp.disabled_safety_checks == (export.DisabledSafetyCheck.custom_call("my_new_prim"),)


def test_lapack_targets_are_stable() -> None:
    a = np.array([[4.0, 1.0], [1.0, 3.0]], np.float32)
    exp = export.export(jax.jit(jnp.linalg.cholesky))(a)
    assert "lapack_spotrf_ffi" in exp.mlir_module()
    np.testing.assert_allclose(exp.call(a), np.linalg.cholesky(a), rtol=1e-5)


def test_host_callbacks_cannot_be_exported() -> None:
    def f(x: jax.Array) -> jax.Array:
        jax.debug.print("{}", x)
        return x

    with pytest.raises((NotImplementedError, ValueError)):
        export.export(jax.jit(f))(1.0)


# -- ordered effects: a token parameter and result per effect in ``main`` -----------------------------


class _LoggedEffect(Effect):
    """An ordered effect defined outside jax_core (its primitive threads the effect's token)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is _LoggedEffect

    def __hash__(self) -> int:
        return hash(_LoggedEffect)


def _logged_primitive() -> tuple[object, _LoggedEffect]:
    from jax_core._src.core.effects import ordered_effects
    from jax_core.extend import core
    from jax_core.interpreters import mlir

    effect = _LoggedEffect()
    ordered_effects.add_type(_LoggedEffect)
    prim = core.Primitive("logged")
    prim.def_effectful_abstract_eval(lambda x: (x, {effect}))

    def lower(ctx: mlir.LoweringRuleContext, x: object) -> list[object]:
        token = ctx.token(effect)
        ctx.set_token(effect, mlir.hlo.AfterAllOp([token]).result)
        return [x]

    mlir.register_lowering(prim, lower)
    return prim, effect


def test_ordered_effects_thread_tokens() -> None:
    prim, effect = _logged_primitive()

    def f(x: jax.Array, unused: jax.Array) -> jax.Array:
        y: jax.Array = prim.bind(x * 2)  # type: ignore[attr-defined]
        return y

    exp = export.export(jax.jit(f))(np.float32(1), np.float32(2))
    assert exp.ordered_effects == (effect,) and exp.unordered_effects == ()
    # With an effect every argument is kept, as JAX.
    assert exp.module_kept_var_idx == (0, 1)
    main = re.search(r".*@main.*", exp.mlir_module())
    assert main is not None
    assert main.group(0).startswith("  func.func public @main(%arg0: !stablehlo.token {jax.token = true}")
    assert "-> (!stablehlo.token {jax.token = true}" in main.group(0)
    assert float(exp.call(np.float32(3), np.float32(0))) == 6.0
    assert float(jax.jit(lambda x: exp.call(x, x) + 1)(np.float32(3))) == 7.0
    # Inside another export, the inner call consumes and produces the outer token.
    outer = export.export(jax.jit(lambda x: exp.call(x, x)))(np.float32(0))
    assert outer.ordered_effects == (effect,)
    assert float(outer.call(np.float32(2))) == 4.0
