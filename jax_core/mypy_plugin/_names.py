"""Fully qualified names of what the plugin hooks: mypy resolves re-exports, so ``jax_core.jit``
reaches a hook as the name of its definition."""

from __future__ import annotations

from typing import Final

API: Final = "jax_core._src.transforms.api"
JIT: Final = f"{API}.jit"
JITTED: Final = f"{API}.Jitted"
JIT_DECORATOR: Final = f"{API}.JitDecorator"

AD: Final = "jax_core._src.transforms.ad_signatures"
GRAD: Final = f"{AD}.grad"
VALUE_AND_GRAD: Final = f"{AD}.value_and_grad"
JACFWD: Final = f"{AD}.jacfwd"
JACREV: Final = f"{AD}.jacrev"
JACOBIAN: Final = f"{AD}.jacobian"
HESSIAN: Final = f"{AD}.hessian"
DIFFERENTIATED: Final = f"{AD}.Differentiated"

PMAP: Final = "jax_core._src.transforms.pmap_api.pmap"
VMAP: Final = "jax_core._src.transforms.vmap_api.vmap"
CHECKPOINT: Final = "jax_core._src.transforms.checkpoint.checkpoint"
REMAT: Final = "jax_core._src.transforms.checkpoint.remat"

CUSTOM: Final = "jax_core._src.transforms.custom_derivatives"
CUSTOM_JVP: Final = f"{CUSTOM}.custom_jvp"
CUSTOM_VJP: Final = f"{CUSTOM}.custom_vjp"

CONTROL_FLOW: Final = "jax_core._src.lax.control_flow"
COND: Final = f"{CONTROL_FLOW}.conditionals.cond"
SWITCH: Final = f"{CONTROL_FLOW}.conditionals.switch"

ARRAY: Final = "jax_core._src.typing.basearray.Array"
SHAPE_DTYPE_STRUCT: Final = "jax_core._src.core.avals.ShapeDtypeStruct"
ARRAY_LIKE_MODULE: Final = "jax_core._src.typing"
ARRAY_LIKE: Final = "ArrayLike"

PARTIAL: Final = "functools.partial"
