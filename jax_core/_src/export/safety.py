"""The safety checks of ``export``: custom calls outside the stable allowlist, and the platform a
module is called on (``DisabledSafetyCheck`` turns either off)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from jax_core._src.export.exported import DisabledSafetyCheck
from jax_core._src.lib.mlir import ir

_LAPACK = [
    f"lapack_{t}{name}_ffi"
    for t in "sdcz"
    for name in ("gees", "geev", "gehrd", "geqrf", "gesdd", "getrf", "gtsv", "potrf", "trsm")
] + [f"lapack_{t}{name}_ffi" for t in "sd" for name in ("orgqr", "syevd", "sytrd")] + [
    f"lapack_{t}{name}_ffi" for t in "cz" for name in ("ungqr", "heevd", "hetrd")
]
_GPU = [
    f"{lib}_{name}_ffi"
    for lib in ("cusolver", "hipsolver")
    for name in ("geqrf", "gesvd", "gesvdj", "getrf", "orgqr", "potrf", "syevd", "sytrd")
] + ["hipsolver_gesdd_ffi", "cusparse_gtsv2_ffi", "cu_threefry2x32_ffi", "hip_threefry2x32_ffi"]

CUSTOM_CALL_TARGETS_GUARANTEED_STABLE: frozenset[str] = frozenset(
    {
        *_LAPACK,
        *_GPU,
        "AllocateBuffer", "ApproxTopK", "Eigh", "LuDecomposition", "ProductOfElementaryHouseholderReflectors", "Qr",
        "SPMDFullToShardShape", "SPMDShardToFullShape", "Sharding", "annotate_device_placement",
        "cu_lu_pivots_to_permutation", "hip_lu_pivots_to_permutation", "mosaic_gpu_v2", "shape_assertion",
        "stablehlo.dynamic_approx_top_k", "stablehlo.dynamic_reduce_window", "stablehlo.dynamic_rng_bit_generator",
        "stablehlo.dynamic_top_k", "tf.call_tf_function", "tpu_custom_call",
    }
)  # fmt: skip
"""The custom-call targets with a compatibility guarantee (JAX 0.12's list): an exported module
may call these; any other needs ``DisabledSafetyCheck.custom_call(target)``."""


def _custom_calls(op: ir.Operation) -> Iterator[ir.Operation]:
    if op.name == "stablehlo.custom_call":
        yield op
    for region in op.regions:
        for block in region:
            for inner in block:
                yield from _custom_calls(inner.operation)


def check_custom_calls(module: ir.Module, disabled_checks: Sequence[DisabledSafetyCheck]) -> None:
    """``ValueError`` (JAX's message) when ``module`` calls a custom call with no compatibility
    guarantee that ``disabled_checks`` does not allow."""
    allowed = set(CUSTOM_CALL_TARGETS_GUARANTEED_STABLE)
    extra = {t for c in disabled_checks if (t := c.is_custom_call()) is not None}
    allowed |= extra
    if "ALL" in allowed:
        return
    bad = [
        f"{op} at {op.location}"
        for op in _custom_calls(module.operation)
        if ir.StringAttr(op.attributes["call_target_name"]).value not in allowed
    ]
    if not bad:
        return
    listed = "\n".join(bad)
    msg = (
        "Cannot serialize code with custom calls whose targets have no compatibility guarantees. "
        "See https://docs.jax.dev/en/latest/501/export.html#compatibility-guarantees-for-custom-calls. "
        f"Examples are:\n{listed}.\n"
    )
    if extra - CUSTOM_CALL_TARGETS_GUARANTEED_STABLE:
        msg += (
            "The custom call safety check was disabled for the following targets via disabled_checks: "
            f"{', '.join(sorted(extra - CUSTOM_CALL_TARGETS_GUARANTEED_STABLE))}.\n"
        )
    else:
        msg += (
            "The custom call safety check was not disabled for any target. You can disable it for a "
            "target by adding jax.export.DisabledSafetyCheck.custom_call('<target>') to disabled_checks.\n"
        )
    raise ValueError(msg)


def check_platforms(fun_name: str, exported_for: tuple[str, ...], disabled: Sequence[DisabledSafetyCheck], here: tuple[str, ...]) -> list[int]:
    """For each platform of ``here`` (where the caller is lowered), the index in ``exported_for``
    of the lowering to run; ``ValueError`` (JAX's message) when a platform has none, unless
    ``DisabledSafetyCheck.platform()`` is among ``disabled`` (then the first lowering runs)."""
    indices: list[int] = []
    for platform in here:
        if platform in exported_for:
            indices.append(exported_for.index(platform))
        elif DisabledSafetyCheck.platform() in disabled:
            indices.append(0)
        else:
            raise ValueError(f"Function '{fun_name}' was exported for platforms '{exported_for}' but it is used on '{here}'.")
    return indices
