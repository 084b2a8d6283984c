"""Records shape-polymorphic ``Exported`` artifacts into ``tests/export/goldens/poly/``: ``poly__<case>``
made by real JAX 0.12, and ``jax_core__poly__<case>`` made by jax_core.

    .venv-jax/bin/python tools/record_poly_goldens.py
    .venv/bin/python -m jax_core.compat tools/record_poly_goldens.py

Each case is exported once with symbolic argument shapes and called on several concrete shapes.
``<name>.bin`` is ``exported.serialize(vjp_order)``; ``<name>.json`` has ``in_avals``/``out_avals``
(as text, with their symbolic dimensions), ``uses_global_constants`` and ``calls``: for each
concrete shape, the arguments (exact by construction: small multiples of 1/8) and the outputs the
deserialized artifact computed on them (``grad``: the gradient of the sum of the outputs with
respect to the first argument, for ``vjp_order`` 1). Arrays are ``{"dtype", "shape", "hex"}``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import export, lax

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "export" / "goldens" / "poly"


@dataclass(frozen=True)
class Case:
    name: str
    fun: Callable[..., Any]
    specs: tuple[str, ...]
    shapes: tuple[tuple[tuple[int, ...], ...], ...]  # per call, one shape per argument
    vjp_order: int = 0
    constraints: tuple[str, ...] = ()


def _grid(shape: tuple[int, ...], offset: float = 0.0) -> np.ndarray[Any, Any]:
    values = (np.arange(int(np.prod(shape)), dtype=np.float32) - offset) * np.float32(0.125)
    return values.reshape(shape)


def _mlp(x: Any, w: Any) -> Any:
    h = jnp.tanh(x @ w)
    return jnp.sum(h, axis=1), h.reshape(-1)[: x.shape[0]]


def _shapes_as_values(x: Any) -> Any:
    n = x.shape[0]
    return x * n + jnp.arange(n, dtype=x.dtype)[:, None], jnp.zeros((n, 2), x.dtype), jnp.mean(x, axis=0)


def _scan(x: Any) -> Any:
    def step(c: Any, row: Any) -> Any:
        c = c + row
        return c, c * 2

    return lax.scan(step, jnp.zeros(x.shape[1:], x.dtype), x)


CASES = [
    Case("elementwise_reduce", lambda x: (jnp.sin(x) + 1.0, jnp.sum(x, axis=0), jnp.max(x)), ("b, h",),
         (((2, 3),), ((5, 3),), ((3, 7),))),
    Case("reshape_concat_slice", lambda x: (jnp.concatenate([x, 2 * x], axis=0).reshape(-1), x[1:, ::2]), ("b, 2*h",),
         (((2, 4),), ((4, 2),))),
    Case("matmul_tanh", _mlp, ("b, k", "k, 4"), (((3, 5), (5, 4)), ((6, 2), (2, 4)))),
    Case("dims_as_values", _shapes_as_values, ("b, 3",), (((1, 3),), ((4, 3),))),
    Case("scan_rows", _scan, ("t, f",), (((3, 2),), ((5, 4),))),
    Case("grad_vjp", lambda x: jnp.sum(jnp.sin(x) * x, axis=-1), ("b, n",), (((2, 3),), ((4, 1),)), vjp_order=1),
    Case("constrained", lambda x: x[: x.shape[0] - 2] * 3.0, ("b",), (((2,),), ((7,),)), constraints=("b >= 2",)),
]


def _array(a: Any) -> dict[str, Any]:
    arr = np.asarray(a)
    return {"dtype": arr.dtype.name, "shape": list(arr.shape), "hex": arr.tobytes().hex()}


def record(case: Case, prefix: str) -> None:
    scope = export.SymbolicScope(case.constraints)
    specs = [jax.ShapeDtypeStruct(export.symbolic_shape(s, scope=scope), jnp.float32) for s in case.specs]
    exported = export.export(jax.jit(case.fun))(*specs)
    blob = exported.serialize(vjp_order=case.vjp_order)
    loaded = export.deserialize(blob)
    calls = []
    for shapes in case.shapes:
        args = [_grid(s, offset=i) for i, s in enumerate(shapes)]
        outs = jax.tree_util.tree_leaves(loaded.call(*args))
        call: dict[str, Any] = {"args": [_array(a) for a in args], "outputs": [_array(o) for o in outs]}
        if case.vjp_order:
            grad = jax.grad(lambda x, *rest: sum(jnp.sum(o) for o in jax.tree_util.tree_leaves(loaded.call(x, *rest))))
            call["grad"] = _array(grad(*args))
        calls.append(call)
    meta = {
        "in_avals": [str(a) for a in exported.in_avals],
        "out_avals": [str(a) for a in exported.out_avals],
        "uses_global_constants": exported.uses_global_constants,
        "vjp_order": case.vjp_order,
        "calls": calls,
    }
    (OUT / f"{prefix}{case.name}.bin").write_bytes(bytes(blob))
    (OUT / f"{prefix}{case.name}.json").write_text(json.dumps(meta, indent=1) + "\n")


def main() -> None:
    prefix = "jax_core__poly__" if "jax_core" in sys.modules else "poly__"
    for case in CASES:
        record(case, prefix)
        print("recorded", prefix + case.name)


if __name__ == "__main__":
    main()
