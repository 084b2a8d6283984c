"""The plugin: dispatch tables from fully qualified names to the hooks. Stateless: every hook
works from its context alone, so it is safe under mypy's cache and parallel checking."""

from __future__ import annotations

import hashlib
import os
import pathlib
from collections.abc import Callable, Mapping
from functools import partial
from typing import ClassVar, Final, final

from mypy.plugin import (
    FunctionContext,
    FunctionSigContext,
    MethodContext,
    MethodSigContext,
    Plugin,
    ReportConfigContext,
)
from mypy.types import CallableType, FunctionLike, Type

from jax_core.mypy_plugin import (
    _branches,
    _custom,
    _grad,
    _jit,
    _maps,
    _names,
    _partial,
    _shard_map,
)

_FINGERPRINT: Final = hashlib.sha256(
    b"".join(p.read_bytes() for p in sorted(pathlib.Path(__file__).parent.glob("*.py")))
).hexdigest()[:16]

FunctionHook = Callable[[FunctionContext], Type]
MethodHook = Callable[[MethodContext], Type]
SignatureHook = Callable[[FunctionSigContext], FunctionLike]
MethodSignatureHook = Callable[[MethodSigContext], FunctionLike]


def _guarded[C, T](hook: Callable[[C], T], fallback: Callable[[C], T]) -> Callable[[C], T]:
    """``hook``, answering ``fallback`` (the annotations' type) if it fails unexpectedly: the
    plugin must never crash mypy. Errors it already reported stay reported."""

    def run(ctx: C) -> T:
        try:
            return hook(ctx)
        except Exception:  # any surprise in mypy's internals: keep the annotations
            if os.environ.get("JAX_CORE_MYPY_PLUGIN_DEBUG"):
                raise
            return fallback(ctx)

    return run


def _default_type(ctx: FunctionContext | MethodContext) -> Type:
    return ctx.default_return_type


def _default_signature(ctx: FunctionSigContext) -> CallableType:
    return ctx.default_signature


def _default_method_signature(ctx: MethodSigContext) -> CallableType:
    return ctx.default_signature


@final
class JaxCorePlugin(Plugin):
    """Refines jax_core's transformation types where annotations cannot (see docs/mypy-plugin.md)."""

    FUNCTION_HOOKS: ClassVar[Mapping[str, FunctionHook]] = {
        _names.JIT: _jit.jit_hook,
        _names.PMAP: _jit.pmap_hook,
        _names.VMAP: _maps.vmap_hook,
        _names.CHECKPOINT: _maps.checkpoint_hook,
        _names.REMAT: _maps.checkpoint_hook,
        _names.COND: _branches.cond_hook,
        _names.SWITCH: _branches.switch_hook,
        _names.CUSTOM_JVP: _custom.constructor_hook,
        _names.CUSTOM_VJP: _custom.constructor_hook,
        _shard_map.SHARD_MAP: _shard_map.shard_map_hook,
        _shard_map.LEGACY_SHARD_MAP: _shard_map.shard_map_hook,
        _shard_map.DECORATOR: _shard_map.decorator_hook,
        _names.PARTIAL: partial(_shard_map.partial_new_hook, fallback=_partial.partial_new_hook),
        **{name: partial(_grad.function_hook, fullname=name) for name in _grad.KIND},
    }
    SIGNATURE_HOOKS: ClassVar[Mapping[str, SignatureHook]] = {
        name: partial(_grad.signature_hook, fullname=name) for name in _grad.KIND
    }
    METHOD_SIGNATURE_HOOKS: ClassVar[Mapping[str, MethodSignatureHook]] = {
        f"{_names.JITTED}.__call__": _jit.jitted_signature_hook,
        **{
            f"{_names.JITTED}.{stage}": _jit.jitted_stage_signature_hook
            for stage in ("lower", "trace", "eval_shape")
        },
    }
    METHOD_HOOKS: ClassVar[Mapping[str, MethodHook]] = {
        f"{_names.JIT_DECORATOR}.__call__": _jit.decorator_call_hook,
        f"{_names.JITTED}.__call__": _jit.jitted_call_hook,
        f"{_names.JITTED}.__get__": _jit.jitted_get_hook,
        f"{_names.CUSTOM_JVP}.defjvp": _custom.defjvp_hook,
        f"{_names.CUSTOM_JVP}.defjvps": _custom.defjvps_hook,
        f"{_names.CUSTOM_VJP}.defvjp": _custom.defvjp_hook,
        f"{_names.PARTIAL}.__call__": partial(
            _shard_map.partial_call_hook, fallback=_partial.partial_call_hook
        ),
    }

    def report_config_data(self, ctx: ReportConfigContext) -> str:
        """A fingerprint of the plugin's code: cached results made by another version are redone."""
        return _FINGERPRINT

    def get_function_hook(self, fullname: str) -> FunctionHook | None:
        hook = self.FUNCTION_HOOKS.get(fullname)
        return None if hook is None else _guarded(hook, _default_type)

    def get_function_signature_hook(self, fullname: str) -> SignatureHook | None:
        hook = self.SIGNATURE_HOOKS.get(fullname)
        return None if hook is None else _guarded(hook, _default_signature)

    def get_method_signature_hook(self, fullname: str) -> MethodSignatureHook | None:
        hook = self.METHOD_SIGNATURE_HOOKS.get(fullname)
        return None if hook is None else _guarded(hook, _default_method_signature)

    def get_method_hook(self, fullname: str) -> MethodHook | None:
        hook = self.METHOD_HOOKS.get(fullname)
        return None if hook is None else _guarded(hook, _default_type)
