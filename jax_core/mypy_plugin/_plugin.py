"""The plugin: dispatch tables from fully qualified names to the hooks. Stateless: every hook
works from its context alone, so it is safe under mypy's cache and parallel checking."""

from __future__ import annotations

import hashlib
import os
import pathlib
from collections.abc import Callable, Mapping
from functools import partial
from typing import ClassVar, Final, final

from mypy.nodes import MypyFile
from mypy.options import Options
from mypy.plugin import (
    AnalyzeTypeContext,
    AttributeContext,
    FunctionContext,
    FunctionSigContext,
    MethodContext,
    MethodSigContext,
    Plugin,
    ReportConfigContext,
)
from mypy.types import CallableType, FunctionLike, Type

from jax_core.mypy_plugin import (
    _args,
    _branches,
    _custom,
    _grad,
    _jit,
    _maps,
    _names,
    _partial,
    _shape_calls,
    _shape_operands,
    _shape_rules,
    _shape_transforms,
    _shape_types,
    _shard_map,
    _types,
)

_FINGERPRINT: Final = hashlib.sha256(
    b"".join(p.read_bytes() for p in sorted(pathlib.Path(__file__).parent.glob("*.py")))
).hexdigest()[:16]

AttributeHook = Callable[[AttributeContext], Type]
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


def _default_attribute(ctx: AttributeContext) -> Type:
    return ctx.default_attr_type


def _default_annotation(ctx: AnalyzeTypeContext) -> Type:
    from mypy.typeanal import TypeAnalyser
    from mypy.types import AnyType, TypeOfAny

    api = ctx.api
    if isinstance(api, TypeAnalyser):
        found = api.try_analyze_special_unbound_type(ctx.type, "typing.Annotated")
        if found is not None:
            return found
    return AnyType(TypeOfAny.from_error)


def _then_bind[C: (FunctionContext, MethodContext)](
    hook: Callable[[C], Type],
) -> Callable[[C], Type]:
    """``hook``, then the shape binding of the call (a jitted or differentiated function's
    annotations are the function's: its dimension names are bound per call)."""

    def run(ctx: C) -> Type:
        result = hook(ctx)
        return _shape_calls.bind_call(ctx._replace(default_return_type=result))

    return run


def _vmap_with_shapes(ctx: FunctionContext) -> Type:
    return _shape_transforms.vmap_shapes(ctx, _maps.vmap_hook(ctx))


def _checkpoint_with_shapes(ctx: FunctionContext) -> Type:
    """``checkpoint(f)`` is ``f``'s signature (mypy's inference of ``Callable[P, R]`` would drop
    the shapes of ``R``), named so that its calls bind ``f``'s dimension names."""
    result = _maps.checkpoint_hook(ctx)
    fun = _args.named_args(ctx).get("fun")
    c = _types.as_callable(ctx.api, fun.type) if fun is not None else None
    if c is not None and _shape_types.has_shapes(c):
        result = c
    return _shape_transforms.named_callable(result, "checkpoint(...)")


def _custom_call(resolve: Callable[[str], _shape_operands.Rule | None]) -> MethodHook:
    """A call of a ``custom_jvp``/``custom_vjp`` object (``jax.nn.relu``): its shape rule if it
    has one, else the binding of its annotations."""

    def run(ctx: MethodContext) -> Type:
        name = _shape_calls.callee_fullname(ctx.context)
        rule = resolve(name) if name is not None else None
        if rule is not None and name is not None:
            return _shape_calls.apply_rule(rule, name, ctx, receiver=False)
        return _shape_calls.bind_call(ctx)

    return run


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
        _names.VMAP: _vmap_with_shapes,
        _names.CHECKPOINT: _checkpoint_with_shapes,
        _names.REMAT: _checkpoint_with_shapes,
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

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        #: Shape checking (``Float[Array, "b n"]``) is on unless the configuration says
        #: ``shapes = false`` in a ``[jax_core.mypy_plugin]`` section (``[tool.jax_core.mypy_plugin]``
        #: in pyproject.toml).
        self.shapes: bool = _shapes_enabled(options.config_file)

    def report_config_data(self, ctx: ReportConfigContext) -> str:
        """A fingerprint of the plugin's code and settings: cached results made by another
        version, or with shape checking switched the other way, are redone."""
        return f"{_FINGERPRINT}-shapes={self.shapes}"

    #: Public names of the operations with shape rules (``jax_core.numpy.sum``) by the fully
    #: qualified name of their definitions, resolved as the build loads jax_core's modules.
    _public: dict[str, str]
    _unresolved: set[str]
    _misses: set[str]

    def public_name(self, fullname: str) -> str | None:
        """The public name of a shape-checked operation, from its definition's name. Names are
        resolved as the build analyses jax_core's modules (a module is in the build before its
        symbols are), retried once per new name asked for."""
        if not hasattr(self, "_public"):
            self._public, self._misses = {}, set()
            self._unresolved = {*_shape_rules.TABLE, *_LOOPS}
        found = self._public.get(fullname)
        if found is not None or not self._unresolved or fullname in self._misses:
            return found
        self._misses.add(fullname)
        modules: dict[str, MypyFile] = self._modules or {}
        for public in list(self._unresolved):
            module = modules.get(public.rpartition(".")[0])
            node = module.names.get(public.rpartition(".")[2]) if module is not None else None
            if node is not None and node.node is not None:
                self._public[node.node.fullname] = public
                self._unresolved.discard(public)
        return self._public.get(fullname)

    def _rule(self, fullname: str) -> _shape_operands.Rule | None:
        public = self.public_name(fullname)
        return _shape_rules.TABLE.get(public) if public is not None else None

    def get_type_analyze_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        if self.shapes and fullname in _shape_types.ANNOTATED:
            return _guarded(_shape_types.annotated_hook, _default_annotation)
        return None

    def get_function_hook(self, fullname: str) -> FunctionHook | None:
        hook = self.FUNCTION_HOOKS.get(fullname)
        if not self.shapes:
            plain = {
                _names.VMAP: _maps.vmap_hook,
                _names.CHECKPOINT: _maps.checkpoint_hook,
                _names.REMAT: _maps.checkpoint_hook,
            }
            hook = plain.get(fullname, hook)
            return None if hook is None else _guarded(hook, _default_type)
        if hook is None:
            public = self.public_name(fullname) if fullname.startswith("jax_core.") else None
            rule = _shape_rules.TABLE.get(public) if public is not None else None
            if public is not None and public in _LOOPS:
                hook = _LOOPS[public]
            elif rule is not None and public is not None:
                hook = partial(
                    _shape_calls.apply_rule, rule, public.rpartition(".")[2], receiver=False
                )
            else:
                hook = _shape_calls.bind_call
        return _guarded(hook, _default_type)

    def get_function_signature_hook(self, fullname: str) -> SignatureHook | None:
        hook = self.SIGNATURE_HOOKS.get(fullname)
        return None if hook is None else _guarded(hook, _default_signature)

    def get_method_signature_hook(self, fullname: str) -> MethodSignatureHook | None:
        hook = self.METHOD_SIGNATURE_HOOKS.get(fullname)
        return None if hook is None else _guarded(hook, _default_method_signature)

    def get_method_hook(self, fullname: str) -> MethodHook | None:
        hook = self.METHOD_HOOKS.get(fullname)
        if not self.shapes:
            return None if hook is None else _guarded(hook, _default_type)
        if hook is not None:
            return _guarded(_then_bind(hook), _default_type)
        method = _shape_calls.is_array_method(fullname)
        if method is not None:
            return _guarded(_shape_calls.method_rule_hook(method), _default_type)
        if fullname in _CUSTOM_CALLS:
            return _guarded(_custom_call(self._rule), _default_type)
        return _guarded(_shape_calls.bind_call, _default_type)

    def get_attribute_hook(self, fullname: str) -> AttributeHook | None:
        hook = _ATTRIBUTES.get(fullname) if self.shapes else None
        return None if hook is None else _guarded(hook, _default_attribute)


def _shapes_enabled(config_file: str | None) -> bool:
    """The ``shapes`` setting of the plugin's configuration section (default: on)."""
    if not config_file:
        return True
    path = pathlib.Path(config_file)
    try:
        if path.suffix == ".toml":
            import tomllib

            table = (
                tomllib.loads(path.read_text())
                .get("tool", {})
                .get("jax_core", {})
                .get("mypy_plugin", {})
            )
            value = table.get("shapes", True)
            return (
                value
                if isinstance(value, bool)
                else str(value).lower() not in ("false", "0", "no", "off")
            )
        import configparser

        parser = configparser.ConfigParser()
        parser.read(path)
        if parser.has_section("jax_core.mypy_plugin"):
            return parser.getboolean("jax_core.mypy_plugin", "shapes", fallback=True)
    except (OSError, ValueError):  # an unreadable configuration: mypy reports it itself
        return True
    return True


_CUSTOM_CALLS: Final = (f"{_names.CUSTOM_JVP}.__call__", f"{_names.CUSTOM_VJP}.__call__")
_ATTRIBUTES: Final[Mapping[str, AttributeHook]] = {
    f"{_names.ARRAY}.shape": _shape_calls.shape_attribute_hook,
    f"{_names.ARRAY}.T": _shape_calls.transpose_attribute_hook,
}
_LOOPS: Final[Mapping[str, Callable[[FunctionContext], Type]]] = {
    "jax_core.lax.scan": _shape_transforms.scan_hook,
    "jax_core.lax.fori_loop": partial(_shape_transforms.loop_hook, body="body_fun", carry_index=1),
    "jax_core.lax.while_loop": partial(_shape_transforms.loop_hook, body="body_fun", carry_index=0),
}
