"""Every configuration option of JAX 0.12, with its type, default and environment variable.

Each option says what it is for on jax_core (``flags.Support``): ``effect`` options do what they do
in JAX; ``other-platforms`` options configure only GPU/TPU/Pallas/jax2tf machinery and change
nothing on CPU (as in JAX on a CPU-only machine); ``default-only`` options are not implemented yet:
their default is jax_core's behaviour, and any other value raises ``NotImplementedError``.
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Callable, Generator
from typing import Any

from jax_core._src.config.flags import (
    EnumFlag, Flag, Support, bool_state, enum_class_state, enum_state, float_state, int_state, object_state,
    optional_bool_state, optional_enum_state, registry, string_state,
)  # fmt: skip
from jax_core._src.lib import jax_ext, jax_jit

_guard_lib = jax_ext.guard_lib


class NumpyDtypePromotion(enum.StrEnum):
    """``jax_numpy_dtype_promotion``: JAX's lattice (standard) or no implicit promotion (strict)."""

    STANDARD = "standard"
    STRICT = "strict"


class LegacyPrngKeyState(enum.StrEnum):
    """``jax_legacy_prng_key``: what happens when a raw uint32 array is used as a PRNG key."""

    ALLOW = "allow"
    WARN = "warn"
    ERROR = "error"


class ExplicitX64Mode(enum.IntEnum):
    """``jax_explicit_x64_dtypes``: requesting a 64-bit dtype with x64 off."""

    WARN = 1
    ERROR = 2
    ALLOW = 3

    @classmethod
    def _missing_(cls, value: object) -> ExplicitX64Mode | None:
        return {"warn": cls.WARN, "error": cls.ERROR, "allow": cls.ALLOW}.get(value) if isinstance(value, str) else None


class RuntimeTracebackMode(enum.StrEnum):
    """``jax_send_traceback_to_runtime``."""

    OFF = "off"
    ON = "on"
    FULL = "full"

    @classmethod
    def _missing_(cls, value: object) -> RuntimeTracebackMode | None:
        return cls.__members__.get(value.upper()) if isinstance(value, str) else None


# ---------------------------------------------------------------------------------- effect
enable_x64: Flag[bool] = bool_state(
    "jax_enable_x64", False, "Enable 64-bit types (float64, int64, complex128).",
    include_in_jit_key=True, context_manager=False,
)  # fmt: skip
disable_jit: Flag[bool] = bool_state(
    "jax_disable_jit", False, "Run jit-decorated functions op by op, without compiling them.",
    include_in_trace_context=True,
)  # fmt: skip
_post_hook = jax_ext.config.Config("jax_post_hook", None, include_in_jit_key=False, include_in_trace_context=False)
jax_jit.set_enable_x64_state(enable_x64.jaxlib_state)
jax_jit.set_disable_jit_state(disable_jit.jaxlib_state)
jax_jit.set_post_hook_state(_post_hook)

debug_nans: Flag[bool] = bool_state(
    "jax_debug_nans", False,
    "Check every computation's floating-point outputs for NaNs; on one, re-run the computation "
    "operation by operation and raise FloatingPointError naming the primitive that produced it.",
    include_in_jit_key=True,
)  # fmt: skip
debug_infs: Flag[bool] = bool_state("jax_debug_infs", False, "As jax_debug_nans, for infinities.", include_in_jit_key=True)
numpy_dtype_promotion: EnumFlag[NumpyDtypePromotion] = enum_class_state(
    "jax_numpy_dtype_promotion", NumpyDtypePromotion, NumpyDtypePromotion.STANDARD,
    "'standard': JAX's type promotion lattice; 'strict': binary operations on different dtypes "
    "raise TypePromotionError instead of promoting.", include_in_jit_key=True,
)  # fmt: skip
numpy_rank_promotion: Flag[str] = enum_state(
    "jax_numpy_rank_promotion", ("allow", "warn", "raise"), "allow",
    "What jax.numpy does when it broadcasts arrays of different ranks: allow, warn or raise.",
    include_in_jit_key=True,
)  # fmt: skip
MATMUL_PRECISIONS = (
    "default", "high", "highest", "bfloat16", "tensorfloat32", "float32", "ANY_F8_ANY_F8_F32",
    "ANY_F8_ANY_F8_F32_FAST_ACCUM", "ANY_F8_ANY_F8_ANY", "ANY_F8_ANY_F8_ANY_FAST_ACCUM", "F16_F16_F16",
    "F16_F16_F32", "BF16_BF16_BF16", "BF16_BF16_F32", "BF16_BF16_F32_X3", "BF16_BF16_F32_X6",
    "BF16_BF16_F32_X9", "TF32_TF32_F32", "TF32_TF32_F32_X3", "F32_F32_F32", "F64_F64_F64",
)  # fmt: skip
default_matmul_precision: Flag[str | None] = optional_enum_state(
    "jax_default_matmul_precision", MATMUL_PRECISIONS, None,
    "The precision of matrix products and convolutions whose precision argument is None.",
    include_in_jit_key=True,
)  # fmt: skip
explain_cache_misses: Flag[bool] = bool_state(
    "jax_explain_cache_misses", False,
    "Log (at WARNING level) why jit traces a function again: the argument types that differ from the "
    "ones it was traced for.",
)  # fmt: skip
log_compiles: Flag[bool] = bool_state(
    "jax_log_compiles", False, "Log (at WARNING level) every function jax_core compiles with XLA."
)
no_tracing: Flag[bool] = bool_state("jax_no_tracing", False, "Raise an error whenever a function is traced.")
no_execution: Flag[bool] = bool_state(
    "jax_no_execution", False, "Raise an error whenever a computation is executed.", include_in_jit_key=True
)
check_tracer_leaks: Flag[bool] = bool_state(
    "jax_check_tracer_leaks", False,
    "After each jit trace, raise if a tracer of it is still referenced (leaked): slow, for debugging.",
)  # fmt: skip
enable_checks: Flag[bool] = bool_state(
    "jax_enable_checks", False, "Type-check every jaxpr jax_core builds (slow; for debugging)."
)
GUARD_LEVELS = ("allow", "log", "disallow", "log_explicit", "disallow_explicit")


def _apply_guard(direction: str, local: bool, value: str | None) -> None:
    state = _guard_lib.thread_local_state() if local else _guard_lib.global_state()
    setattr(state, direction, None if value is None else getattr(_guard_lib.TransferGuardLevel, value.upper()))


def _guard_flag(direction: str) -> Flag[str | None]:
    """The transfer-guard option of one direction (``host_to_device``, ...), copied into jaxlib's
    global and thread-local guard state."""
    return optional_enum_state(
        f"jax_transfer_guard_{direction}", GUARD_LEVELS, None,
        f"The transfer guard level for {direction.replace('_', '-')} transfers (default: allow).",
        global_hook=lambda v: _apply_guard(direction, False, v),
        local_hook=lambda v: _apply_guard(direction, True, v),
    )  # fmt: skip


transfer_guard_host_to_device: Flag[str | None] = _guard_flag("host_to_device")
transfer_guard_device_to_device: Flag[str | None] = _guard_flag("device_to_device")
transfer_guard_device_to_host: Flag[str | None] = _guard_flag("device_to_host")


def _set_all_guards(value: str | None) -> None:
    for flag in (transfer_guard_host_to_device, transfer_guard_device_to_device, transfer_guard_device_to_host):
        flag.set_global(value)


transfer_guard_all: Flag[str | None] = optional_enum_state(
    "jax_transfer_guard", GUARD_LEVELS, None,
    "The transfer guard level for all transfers (set-only: read the per-direction options).",
    global_hook=_set_all_guards,
)  # fmt: skip


@contextlib.contextmanager
def explicit_device_put_scope() -> Generator[None]:
    """Marks the transfers inside as explicit ``device_put``s (what ``*_explicit`` levels govern)."""
    state = _guard_lib.thread_local_state()
    previous = state.explicit_device_put
    state.explicit_device_put = True
    try:
        yield
    finally:
        state.explicit_device_put = previous


@contextlib.contextmanager
def explicit_device_get_scope() -> Generator[None]:
    """Marks the transfers inside as explicit ``device_get``s."""
    state = _guard_lib.thread_local_state()
    previous = state.explicit_device_get
    state.explicit_device_get = True
    try:
        yield
    finally:
        state.explicit_device_get = previous


def _apply_gc_guard(local: bool, value: str | None) -> None:
    state = _guard_lib.thread_local_state() if local else _guard_lib.global_state()
    level = None if value is None else getattr(_guard_lib.GarbageCollectionGuardLevel, value.upper())
    state.garbage_collect_array = level


array_garbage_collection_guard: Flag[str | None] = optional_enum_state(
    "jax_array_garbage_collection_guard", ("allow", "log", "fatal"), None,
    "What happens when a jax.Array is freed by Python's garbage collector rather than by reference "
    "counting (it held device memory until then): allow, log an error, or a fatal error.",
    global_hook=lambda v: _apply_gc_guard(False, v), local_hook=lambda v: _apply_gc_guard(True, v),
)  # fmt: skip
debug_key_reuse: Flag[bool] = bool_state(
    "jax_debug_key_reuse", False,
    "Check that PRNG keys are not reused (KeyReuseError): not implemented by jax_core yet.",
    support="default-only",
)  # fmt: skip


def _parse_device(value: object) -> object:
    if value is None or value in ("cpu", "gpu", "tpu") or "Device" in type(value).__name__:
        return value
    raise ValueError(
        "jax.default_device must be passed either a Device object (e.g. `jax.devices('cpu')[0]`) "
        f"or a platform name string like 'cpu' or 'gpu', got: {value!r}"
    )


default_device: Flag[Any] = object_state(
    "jax_default_device", None,
    "The device computations run on by default: a Device, a platform name, or None.", parser=_parse_device,
    include_in_jit_key=True,
)  # fmt: skip
platforms: Flag[str | None] = string_state(
    "jax_platforms", None,
    "Comma-separated platforms to initialize; jax_core runs on 'cpu' only, so any list must name it.",
    optional=True,
)  # fmt: skip
platform_name: Flag[str | None] = string_state(
    "jax_platform_name", "", "The platform to use ('' or 'cpu' on jax_core); superseded by jax_platforms.",
    context_manager=False,
)  # fmt: skip
default_prng_impl: Flag[str] = enum_state(
    "jax_default_prng_impl",
    ("threefry2x32", "threefry4x32", "rbg", "unsafe_rbg", "philox2x32", "philox4x32"), "threefry2x32",
    "The PRNG implementation random.key and random.PRNGKey use.", include_in_jit_key=True,
)  # fmt: skip
softmax_custom_jvp: Flag[bool] = bool_state(
    "jax_softmax_custom_jvp", False, "Use a custom JVP rule for jax.nn.softmax (accurate where inputs are -inf).",
    include_in_jit_key=True,
)  # fmt: skip
threefry_partitionable: Flag[bool] = bool_state(
    "jax_threefry_partitionable", True,
    "Generate random bits in a way that is invariant to how the computation is sharded.",
    support="default-only", include_in_jit_key=True,
)  # fmt: skip
enable_custom_prng: Flag[bool] = bool_state(
    "jax_enable_custom_prng", False, "Deprecated in JAX; kept for compatibility (no effect).",
)  # fmt: skip
legacy_prng_key: EnumFlag[LegacyPrngKeyState] = enum_class_state(
    "jax_legacy_prng_key", LegacyPrngKeyState, LegacyPrngKeyState.ALLOW,
    "What happens when a raw uint32 array is used as a PRNG key: allow, warn or error.",
)  # fmt: skip
_backend_started: list[bool] = [False]


def mark_backend_started() -> None:
    """Called when the PjRt client is created: options read then can no longer change."""
    _backend_started[0] = True


def backend_started() -> bool:
    """Whether the PjRt client has been created (``jax.distributed.initialize`` must come first)."""
    return _backend_started[0]


def _before_backend(name: str) -> Callable[[Any], None]:
    """A validator: ``name`` is read when the client is made, so it may change only before (or to
    the value it already has)."""

    def check(value: Any) -> None:
        if _backend_started[0] and registry()[name].value != value:
            raise RuntimeError(
                f"{name} config should be updated before backends are initialized i.e. before any JAX "
                "operation is executed. You should initialize this config immediately after `import jax`."
            )

    return check


num_cpu_devices: Flag[int | None] = int_state(
    "jax_num_cpu_devices", -1,
    "The number of CPU devices (read when the backend starts; -1: XLA's default, one unless "
    "XLA_FLAGS=--xla_force_host_platform_device_count=N).",
    validator=_before_backend("jax_num_cpu_devices"),
)  # fmt: skip
enable_preemption_service: Flag[bool] = bool_state(
    "jax_enable_preemption_service", True,
    "Start jaxlib's preemption sync manager in jax.distributed.initialize: SIGTERM becomes a preemption "
    "notice (multihost_utils.reached_preemption_sync_point), not an exit.",
)  # fmt: skip
cpu_collectives_implementation: Flag[str | None] = optional_enum_state(
    "jax_cpu_collectives_implementation", ("gloo", "mpi", "megascale"), "gloo",
    "Cross-process collectives on CPU once jax.distributed is initialized: gloo (TCP, jaxlib's), "
    "mpi (jaxlib's, needs an MPI library) or None (no cross-process collectives).",
)  # fmt: skip
cpu_get_local_topology_timeout_minutes: Flag[int | None] = int_state(
    "jax_cpu_get_local_topology_timeout_minutes", 2,
    "Minutes to wait for each process's CPU topology when the multi-process client starts.",
    validator=_before_backend("jax_cpu_get_local_topology_timeout_minutes"),
)  # fmt: skip
cpu_get_global_topology_timeout_minutes: Flag[int | None] = int_state(
    "jax_cpu_get_global_topology_timeout_minutes", 5,
    "Minutes to wait for the global CPU topology (greater than the local one's).",
    validator=_before_backend("jax_cpu_get_global_topology_timeout_minutes"),
)  # fmt: skip
random_seed_offset: Flag[int | None] = int_state("jax_random_seed_offset", 0, "An offset added to every seed of random.key/PRNGKey.")
explicit_x64_dtypes: EnumFlag[ExplicitX64Mode] = enum_class_state(
    "jax_explicit_x64_dtypes", ExplicitX64Mode, ExplicitX64Mode.WARN,
    "What happens when a 64-bit dtype is requested with x64 off: warn, error or allow (silently 32-bit).",
)  # fmt: skip
pprint_use_color: Flag[bool] = bool_state(
    "jax_pprint_use_color", True,
    "Color jaxpr pretty-printing in IPython; jax_core's printer never colors, so both values print the same.",
)  # fmt: skip
allow_f16_reductions: Flag[bool] = bool_state(
    "jax_allow_f16_reductions", True, "Allow reductions in float16 (otherwise they accumulate in float32).",
    support="default-only",
)  # fmt: skip
_EFFORTS = ("UNKNOWN", "O0", "O1", "O2", "O3")
optimization_level: Flag[str] = enum_state(
    "jax_optimization_level", _EFFORTS, "UNKNOWN",
    "XLA's effort optimizing for run time, O0 (least) to O3 (most); UNKNOWN: XLA's default.",
    include_in_jit_key=True,
)  # fmt: skip
memory_fitting_level: Flag[str] = enum_state(
    "jax_memory_fitting_level", _EFFORTS, "O2", "XLA's effort fitting the program in device memory.",
    include_in_jit_key=True,
)  # fmt: skip
disable_most_optimizations: Flag[bool] = bool_state(
    "jax_disable_most_optimizations", False,
    "Compile with XLA's backend optimizations mostly off (faster compiles, slower programs).",
    context_manager=False,
)  # fmt: skip
compilation_cache_dir: Flag[str | None] = string_state(
    "jax_compilation_cache_dir", None, "A directory for the persistent compilation cache (None: no cache).",
    optional=True,
)  # fmt: skip
enable_compilation_cache: Flag[bool] = bool_state(
    "jax_enable_compilation_cache", True, "Whether the persistent compilation cache is used when a directory is set."
)
persistent_cache_min_compile_time_secs: Flag[float] = float_state(
    "jax_persistent_cache_min_compile_time_secs", 1.0,
    "Only executables that took at least this long to compile are written to the persistent cache.",
)  # fmt: skip
persistent_cache_min_entry_size_bytes: Flag[int | None] = int_state(
    "jax_persistent_cache_min_entry_size_bytes", 0,
    "Only executables at least this large are written to the persistent cache (0: all).",
)  # fmt: skip
compilation_cache_max_size: Flag[int | None] = int_state(
    "jax_compilation_cache_max_size", -1,
    "The persistent cache's size limit in bytes; the least recently used entries are deleted "
    "beyond it (-1: no limit, 0: no caching).",
)  # fmt: skip
raise_persistent_cache_errors: Flag[bool] = bool_state(
    "jax_raise_persistent_cache_errors", False,
    "Raise errors reading or writing the persistent cache instead of warning.",
)  # fmt: skip
compilation_cache_include_metadata_in_key: Flag[bool] = bool_state(
    "jax_compilation_cache_include_metadata_in_key", False,
    "Include source locations and names in persistent cache keys.", support="default-only",
)  # fmt: skip
export_calling_convention_version: Flag[int | None] = int_state(
    "jax_export_calling_convention_version", 10,
    "The calling convention version jax.export lowers for (9..10; see docs/export.md).",
)  # fmt: skip
compilation_cache_check_contents: Flag[bool] = bool_state(
    "jax_compilation_cache_check_contents", False,
    "Compile anyway on a persistent cache hit, and check the cached executable matches.", support="default-only",
)  # fmt: skip

# ----------------------------------------------------------- not implemented yet (default only)
_DEFAULT_ONLY_BOOLS = {
    "check_vma": False, "eager_constant_folding": False, "jax_accurate_erf_inv": False,
    "jax_auto_pcast": True, "jax_check_static_indices": False,
    "jax_compiler_enable_remat_pass": True, "jax_custom_jvp3": False, "jax_custom_vjp3": False,
     "jax_disable_bwd_checks": False, "jax_disable_vmap_shmap_error": False,
    "jax_disallow_mesh_context_manager": False, "jax_distributed_debug": False,
    "jax_enable_recoverability": False, "jax_experimental_unsafe_xla_runtime_errors": False, "jax_high_dynamic_range_gumbel": False,
    "jax_include_full_tracebacks_in_locations": True, "jax_log_checkpoint_residuals": False,
    "jax_mutable_array_checks": True, "jax_remat3": False, "jax_remat_barrier_no_cotangents": False,
    "jax_remove_size_one_mesh_axis_from_type": False, "jax_scan3": False,
    "jax_share_binary_between_hosts": False, "jax_thread_guard": False, "jax_use_cpp_shard_args": False,
    "jax_use_direct_linearize": True, "jax_use_shardy_partitioner": True,
    "jax_use_simplified_jaxpr_constants": False, "jax_export_deserialize_expired_versions": False,
    "jax_export_ignore_forward_compatibility": False, "jax_distributed_verify_secure_credentials": False,
    "jax_debug_leaked_clients_on_clear_backends": False, "jax_raise_on_ppermute_sort_diff": True,
    "jax_use_rgv3": True,
}  # fmt: skip
_DEFAULT_ONLY_INTS: dict[str, int | None] = {
    "jax_captured_constants_report_frames": 0, "jax_captured_constants_warn_bytes": 2_000_000_000,
    "jax_embedded_constants_max_bytes": 32,
    "jax_serialization_version": 0, "jax_traceback_in_locations_limit": 100,
    "jax_share_binary_between_hosts_timeout_ms": 1_200_000, "jax_xla_profile_version": 0,
}  # fmt: skip
_DEFAULT_ONLY_ENUMS: dict[str, tuple[tuple[str, ...], str | None]] = {
    "jax_error_checking_behavior_divide": (("ignore", "raise"), "ignore"),
    "jax_error_checking_behavior_nan": (("ignore", "raise"), "ignore"),
    "jax_error_checking_behavior_oob": (("ignore", "raise"), "ignore"),
    "jax_logging_level": (("NOTSET", "DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"), "NOTSET"),
    "jax_traceback_filtering": (("off", "tracebackhide", "remove_frames", "quiet_remove_frames", "auto"), "auto"),
}  # fmt: skip
_DEFAULT_ONLY_STRINGS: dict[str, str | None] = {
    "jax_debug_log_modules": "", "jax_hlo_source_file_canonicalization_regex": None,
    "jax_source_url_schema": None, "jax_pjrt_client_create_options": None,
}  # fmt: skip
_DEFAULT_ONLY_FLAGS: dict[str, bool | int | str | None] = {  # absl-style flags: no context manager
    "jax_backend_target": "", "jax_check_proxy_envs": True, "jax_compiler_detailed_logging_min_ops": 10,
    "jax_cpu_enable_async_dispatch": True, "jax_cross_host_transfer_socket_address": "",
    "jax_cross_host_transfer_timeout_seconds": None, "jax_cross_host_transfer_transfer_size": None,
    "jax_cross_host_transport_addresses": "",     "jax_dump_ir_modes": "stablehlo", "jax_dump_ir_to": "", "jax_force_dcn_cross_host_transfers": False,
    "jax_include_debug_info_in_dumps": True, "jax_sort_devices_by_process_index": True,
    "jax_tracer_error_num_traceback_frames": 5, "jax_xla_backend": "",
}  # fmt: skip
_NOT_YET = "Not implemented by jax_core yet: only the default is accepted."

# ---------------------------------------------------- other platforms: accepted, no effect on CPU
_OTHER_PLATFORM_BOOLS = {
    "jax2tf_associative_scan_reductions": False, "jax2tf_default_native_serialization": True,
    "jax_bcoo_cusparse_lowering": False, "jax_compilation_cache_expect_pgle": False, "jax_enable_pgle": False,
    "jax_mosaic_allow_hlo": False, "jax_mosaic_unzip_debug_locations": True,
    "jax_pallas_enable_debug_checks": False, "jax_pallas_poison_buffers": False,
    "jax_ragged_dot_use_ragged_dot_instruction": True, "jax_threefry_gpu_kernel_lowering": False,
    "jax_use_emit_pipeline_primitive": False, "jax_remove_custom_partitioning_ptr_from_cache_key": False,
}  # fmt: skip
_OTHER_PLATFORM_FLAGS: dict[str, bool | int | str | None] = {  # absl-style flags: no context manager
    "jax_cuda_visible_devices": "all", "jax_rocm_visible_devices": "all", "jax_oneapi_visible_devices": "all",
    "jax_mock_gpu_topology": "", "jax_pallas_verbose_errors": False, "mock_num_gpu_processes": 0,
}  # fmt: skip
_OTHER = "Configures only GPU/TPU/Pallas/jax2tf machinery: no effect on jax_core's CPU runtime."


def _define_table() -> None:
    for name, default in _DEFAULT_ONLY_BOOLS.items():
        bool_state(name, default, _NOT_YET, support="default-only")
    for name, number in _DEFAULT_ONLY_INTS.items():
        int_state(name, number, _NOT_YET, support="default-only")
    for name, (choices, choice) in _DEFAULT_ONLY_ENUMS.items():
        if choice is None:
            optional_enum_state(name, choices, None, _NOT_YET, support="default-only")
        else:
            enum_state(name, choices, choice, _NOT_YET, support="default-only")
    for name, text in _DEFAULT_ONLY_STRINGS.items():
        string_state(name, text, _NOT_YET, support="default-only", optional=True)
    tables: tuple[tuple[dict[str, bool | int | str | None], Support, str], ...] = (
        (_DEFAULT_ONLY_FLAGS, "default-only", _NOT_YET), (_OTHER_PLATFORM_FLAGS, "other-platforms", _OTHER),
    )  # fmt: skip
    for table, support, help_text in tables:
        for name, value in table.items():
            if isinstance(value, bool):
                bool_state(name, value, help_text, support=support, context_manager=False)
            elif isinstance(value, str):
                string_state(name, value, help_text, support=support, context_manager=False)
            else:
                int_state(name, value, help_text, support=support, context_manager=False)
    for name, default in _OTHER_PLATFORM_BOOLS.items():
        bool_state(name, default, _OTHER, support="other-platforms")
    enum_state("jax_pallas_auto_assign_collective_ids", ("no", "yes", "override"), "no", _OTHER, support="other-platforms")
    int_state("jax_pallas_auto_assign_collective_ids_limit", 25, _OTHER, support="other-platforms")
    int_state("jax_pgle_aggregation_percentile", 90, _OTHER, support="other-platforms")
    int_state("jax_pgle_profiling_runs", 3, _OTHER, support="other-platforms")
    enum_state("jax_use_magma", ("off", "on", "auto"), "auto", _OTHER, support="other-platforms")
    string_state("jax_persistent_cache_enable_xla_caches", "xla_gpu_per_fusion_autotune_cache_dir", _OTHER, support="other-platforms")
    optional_bool_state("jax_use_hlo_logistic_lowering", None, _OTHER, support="other-platforms")
    for name in ("jax_mtls_ca_file", "jax_mtls_cert_file", "jax_mtls_key_file", "jax_mtls_peer_uri_prefix"):
        string_state(name, None, _NOT_YET, support="default-only", optional=True)
    enum_class_state(
        "jax_send_traceback_to_runtime", RuntimeTracebackMode, RuntimeTracebackMode.OFF, _NOT_YET, support="default-only"
    )


_define_table()
