"""Records serialized ``Exported`` artifacts made by real JAX 0.12 into ``tests/export/goldens/``.

Run with the interpreter of the venv that has real JAX installed::

    .venv-jax/bin/python tools/record_export_goldens.py

and, for the artifacts jax_core writes (named ``jax_core__<case>``; the compatibility promise
covers them too), under jax_core's ``jax`` compatibility runner::

    .venv/bin/python -m jax_core.compat tools/record_export_goldens.py

For each case it writes ``<name>.bin`` (``exported.serialize(vjp_order)``) and ``<name>.json``:

* ``args``/``kwargs``: the inputs to call the function with, exact by construction (small
  integers, multiples of 1/8), as a pytree in the encoding below;
* ``outputs``: what JAX computed calling the deserialized artifact on them; ``grad`` (for
  ``vjp_order >= 1``) and ``grad2`` (for ``vjp_order == 2``): the gradient with respect to the
  first argument of the sum of the floating-point outputs, and the gradient of the sum of that
  gradient;
* metadata: ``fun_name``, ``in_avals``/``out_avals`` as text, ``platforms``,
  ``module_kept_var_idx``, ``calling_convention_version``, ``uses_global_constants``,
  ``nr_devices``, ``vjp_order`` (how many levels of VJP the artifact has), the effects and
  disabled checks, and the VJP levels' ``fun_name``/avals.

Pytree encoding: ``null`` is ``None``; ``{"tuple": [...]}``, ``{"list": [...]}``,
``{"dict": {key: ...}}``, ``{"namedtuple": name, "fields": [[field, ...], ...]}``; an array is
``{"dtype", "shape", "hex"}`` (raw little-endian bytes); a PRNG key array is
``{"key_impl": name, "data": array}``. The namedtuple ``Point`` is registered for serialization
as ``tests.export.Point`` (``tests/export/_goldens.py`` registers the same in jax_core).

jax_core never imports JAX: this script and the files it writes are where the two meet.
"""

from __future__ import annotations

import collections
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import export

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "export" / "goldens"

Point = collections.namedtuple("Point", ["x", "y"])
export.register_namedtuple_serialization(Point, serialized_name="tests.export.Point")


@dataclass(frozen=True)
class Case:
    name: str
    fun: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict[str, Any])
    vjp_order: int = 0
    platforms: tuple[str, ...] | None = None


def _grid(shape: tuple[int, ...], dtype: Any, scale: float = 0.125, offset: float = 0.0) -> Any:
    """Small exactly representable values: (i - offset) * scale for i = 0, 1, ..."""
    values = (np.arange(int(np.prod(shape))) - offset) * scale
    return jnp.asarray(values.reshape(shape), dtype=dtype)


def _sin_cos(x: Any, y: Any) -> Any:
    return jnp.sin(x) * y, jnp.cos(y)


def _ints_bools(a: Any, b: Any) -> Any:
    return jnp.where(b, a * 3, -a), a.sum(), jnp.logical_not(b)


def _bf16(x: Any, y: Any) -> Any:
    return (x * 2).astype(jnp.float32) + y, x * x


def _pytrees(tree: Any, pair: Any, point: Any, *, scale: Any) -> Any:
    total = tree["a"] + tree["b"][0] + pair[0]
    return {
        "sum": total * scale,
        "parts": [point.x * point.y, (tree["a"] - pair[0], None)],
        "point": Point(x=point.y, y=point.x + 1.0),
    }


def _kwargs_only(x: Any, *, alpha: Any, beta: Any) -> Any:
    return x * alpha + beta


def _multi_platform(x: Any) -> Any:
    return jnp.tanh(x) * 2.0


def _unused(x: Any, unused: Any, y: Any) -> Any:
    del unused
    return x * y + 1.0


def _small_types(a: Any, b: Any, c: Any) -> Any:
    return a.astype(jnp.int32) + b.astype(jnp.int32), c * 2, (a > 0)


def _keys(key: Any) -> Any:
    return jax.random.bits(key, (4,), jnp.uint32), jax.random.split(key, 2)


CASES = (
    Case("sin_cos_f32", _sin_cos, (_grid((2, 3), jnp.float32), _grid((2, 3), jnp.float32, 0.25, 2)), vjp_order=2),
    Case("ints_bools", _ints_bools, (_grid((5,), jnp.int32, 1, 2), jnp.array([True, False, True, True, False]))),
    Case("bf16_mixed", _bf16, (_grid((3, 2), jnp.bfloat16, 0.5, 3), _grid((3, 2), jnp.float32)), vjp_order=1),
    Case(
        "pytrees",
        _pytrees,
        (
            {"a": _grid((2,), jnp.float32), "b": [_grid((2,), jnp.float32, 0.5), None]},
            (_grid((2,), jnp.float32, 0.25, 1),),
            Point(x=_grid((3,), jnp.float32, 0.5), y=_grid((3,), jnp.float32, 0.25, 1)),
        ),
        {"scale": jnp.float32(1.5)},
        vjp_order=1,
    ),
    Case("kwargs_only", _kwargs_only, (_grid((4,), jnp.float32),), {"alpha": jnp.float32(2.0), "beta": _grid((4,), jnp.float32, 1)}),
    Case("multi_platform", _multi_platform, (_grid((3,), jnp.float32, 0.5, 1),), platforms=("cpu", "cuda", "tpu")),
    Case("unused_arg", _unused, (_grid((2, 2), jnp.float32), _grid((3,), jnp.int32, 1), _grid((2, 2), jnp.float32, 0.5)), vjp_order=1),
    Case("small_types", _small_types, (_grid((4,), jnp.int8, 1, 2), _grid((4,), jnp.uint8, 1), _grid((4,), jnp.float16, 0.5))),
    Case("prng_key", _keys, (jax.random.key(42),)),
)  # fmt: skip


def encode(tree: Any) -> Any:
    """A pytree of arrays (and key arrays, namedtuples) as JSON (the module docstring's encoding)."""
    if tree is None:
        return None
    if isinstance(tree, Point):
        return {
            "namedtuple": "tests.export.Point",
            "fields": [[f, encode(getattr(tree, f))] for f in tree._fields],
        }
    if isinstance(tree, tuple):
        return {"tuple": [encode(x) for x in tree]}
    if isinstance(tree, list):
        return {"list": [encode(x) for x in tree]}
    if isinstance(tree, dict):
        return {"dict": {k: encode(v) for k, v in tree.items()}}
    if jnp.issubdtype(tree.dtype, jax.dtypes.prng_key):
        impl = str(jax.random.key_impl(tree))
        return {"key_impl": impl, "data": encode(jax.random.key_data(tree))}
    arr = np.asarray(tree)
    return {
        "dtype": arr.dtype.name,
        "shape": list(arr.shape),
        "hex": np.ascontiguousarray(arr).tobytes().hex(),
    }


def _float_sum(outputs: Any) -> Any:
    leaves = [x for x in jax.tree.leaves(outputs) if jnp.issubdtype(x.dtype, jnp.floating)]
    return sum(jnp.sum(x.astype(jnp.float32)) for x in leaves)


def _record(case: Case) -> None:
    specs = jax.tree.map(lambda x: jax.ShapeDtypeStruct(x.shape, x.dtype), (case.args, case.kwargs))
    exporter = export.export(jax.jit(case.fun), platforms=case.platforms)
    exp = exporter(*specs[0], **specs[1])
    blob = exp.serialize(vjp_order=case.vjp_order)
    back = export.deserialize(blob)
    outputs = back.call(*case.args, **case.kwargs)
    meta: dict[str, Any] = {
        "name": case.name,
        "fun_name": back.fun_name,
        "in_avals": [str(a) for a in back.in_avals],
        "out_avals": [str(a) for a in back.out_avals],
        "platforms": list(back.platforms),
        "module_kept_var_idx": list(back.module_kept_var_idx),
        "calling_convention_version": back.calling_convention_version,
        "uses_global_constants": back.uses_global_constants,
        "nr_devices": back.nr_devices,
        "ordered_effects": [str(e) for e in back.ordered_effects],
        "unordered_effects": [str(e) for e in back.unordered_effects],
        "disabled_safety_checks": [str(c) for c in back.disabled_safety_checks],
        "vjp_order": case.vjp_order,
        "vjp_levels": [],
        "jax_version": jax.__version__,
        "args": encode(case.args),
        "kwargs": encode(case.kwargs),
        "outputs": encode(outputs),
        "grad": None,
        "grad2": None,
    }
    level = back
    for _ in range(case.vjp_order):
        level = level.vjp()
        meta["vjp_levels"].append(
            {
                "fun_name": level.fun_name,
                "in_avals": [str(a) for a in level.in_avals],
                "out_avals": [str(a) for a in level.out_avals],
            }
        )
    if case.vjp_order:
        rest = case.args[1:]

        def loss(first: Any) -> Any:
            return _float_sum(back.call(first, *rest, **case.kwargs))

        meta["grad"] = encode(jax.grad(loss)(case.args[0]))
        if case.vjp_order >= 2:
            meta["grad2"] = encode(jax.grad(lambda x: jnp.sum(jax.grad(loss)(x)))(case.args[0]))
    OUT.mkdir(parents=True, exist_ok=True)
    name = case.name if jax.__name__ == "jax" else f"{jax.__name__}__{case.name}"
    (OUT / f"{name}.bin").write_bytes(bytes(blob))
    (OUT / f"{name}.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"{name}: {len(blob)} bytes, vjp_order={case.vjp_order}")


def main() -> None:
    for case in CASES:
        _record(case)


if __name__ == "__main__":
    main()
