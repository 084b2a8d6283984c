"""The plugin's error codes: each check reports under its own code, so a line is silenced with
``# type: ignore[jax-static]`` and a whole check with ``disable_error_code = jax-static``."""

from __future__ import annotations

from typing import Final

from mypy.errorcodes import ErrorCode

STATIC: Final = ErrorCode(
    "jax-static", "static_argnums/static_argnames name real parameters", "jax_core"
)
DONATE: Final = ErrorCode(
    "jax-donate", "donate_argnums name real, non-static parameters", "jax_core"
)
UNHASHABLE: Final = ErrorCode(
    "jax-unhashable", "static arguments of jit must be hashable", "jax_core"
)
ARGNUMS: Final = ErrorCode(
    "jax-argnums", "argnums name positional parameters of the function", "jax_core"
)
GRAD_OUTPUT: Final = ErrorCode(
    "jax-grad-output", "grad needs a function returning a scalar array", "jax_core"
)
GRAD_INT: Final = ErrorCode(
    "jax-grad-int", "grad of integer parameters needs allow_int=True", "jax_core"
)
HAS_AUX: Final = ErrorCode(
    "jax-has-aux", "with has_aux=True the function returns (output, aux)", "jax_core"
)
IN_AXES: Final = ErrorCode(
    "jax-in-axes", "vmap in_axes match the positional parameters", "jax_core"
)
CUSTOM_RULE: Final = ErrorCode(
    "jax-custom-rule", "custom_jvp/custom_vjp rules match the function", "jax_core"
)
BRANCHES: Final = ErrorCode("jax-branches", "cond/switch branches return the same type", "jax_core")
SHAPE: Final = ErrorCode(
    "jax-shape",
    "array shapes annotated Float[Array, 'b n'] agree (docs/shape-typing.md)",
    "jax_core",
)

ALL: Final = (
    STATIC,
    DONATE,
    UNHASHABLE,
    ARGNUMS,
    GRAD_OUTPUT,
    GRAD_INT,
    HAS_AUX,
    IN_AXES,
    CUSTOM_RULE,
    BRANCHES,
    SHAPE,
)
