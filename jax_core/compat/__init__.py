"""Running programs written against ``jax`` on jax_core.

``python -m jax_core.compat script.py [args]`` (or ``-m package.module [args]``)
runs the program with ``jax`` and every ``jax.*`` module mapped to jax_core's
module of the same name: ``import jax.numpy as jnp`` binds ``jax_core.numpy``,
``from jax.example_libraries import stax`` binds ``jax_core.example_libraries.stax``.
In a program, :func:`install` does the same for the imports that follow it.

The mapping is an import hook (a meta-path finder placed first), so a module jax_core
does not have (``jax.experimental.pallas``, say) fails to import with a message naming
it, and JAX's private modules (``jax._src``) are never mapped. jax_core and JAX cannot
share a process (both install methods on jaxlib's array type), so installing is refused
once the real ``jax`` has been imported.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Final

SOURCE: Final[str] = "jax"
"""The package name programs import."""

TARGET: Final[str] = "jax_core"
"""The package that serves it."""


def _target_name(fullname: str) -> str | None:
    """``jax.numpy`` -> ``jax_core.numpy``; ``None`` for names outside ``jax``."""
    if fullname == SOURCE:
        return TARGET
    if fullname.startswith(SOURCE + "."):
        return TARGET + fullname[len(SOURCE) :]
    return None


class _AliasLoader(importlib.abc.Loader):
    """Loads ``jax.x`` as the already-importable ``jax_core.x`` (the same module object)."""

    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(self.target)

    def exec_module(self, module: ModuleType) -> None:
        # jax_core's module ran when it was imported; nothing more to do
        return None


class JaxAliasFinder(importlib.abc.MetaPathFinder):
    """A meta-path finder mapping ``jax`` and ``jax.*`` to ``jax_core`` and ``jax_core.*``."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        name = _target_name(fullname)
        if name is None:
            return None
        if fullname.split(".")[1:2] == ["_src"] or "._src" in fullname:
            raise ModuleNotFoundError(
                f"No module named {fullname!r}: jax_core.compat maps JAX's public modules only, "
                "and a program importing JAX's private jax._src needs real JAX.",
                name=fullname,
            )
        if importlib.util.find_spec(name) is None:
            raise ModuleNotFoundError(
                f"No module named {fullname!r}: jax_core has no {name!r} module to run it with.",
                name=fullname,
            )
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(name))


def _real_jax_loaded() -> bool:
    module = sys.modules.get(SOURCE)
    return module is not None and getattr(module, "__name__", SOURCE) != TARGET


def is_installed() -> bool:
    """Whether the ``jax`` -> ``jax_core`` mapping is active in this process."""
    return any(isinstance(f, JaxAliasFinder) for f in sys.meta_path)


def install() -> None:
    """Maps ``jax`` and its modules to ``jax_core`` for the imports that follow.

    Raises ``RuntimeError`` if the real ``jax`` has already been imported: jax_core and
    JAX cannot run in one process.
    """
    if _real_jax_loaded():
        raise RuntimeError(
            "The real jax is already imported in this process; jax_core cannot run beside it. "
            "Start a fresh interpreter with `python -m jax_core.compat script.py` (or call "
            "jax_core.compat.install() before anything imports jax)."
        )
    if is_installed():
        return
    sys.meta_path.insert(0, JaxAliasFinder())
    importlib.import_module(SOURCE)


def uninstall() -> None:
    """Removes the mapping and forgets the ``jax`` aliases it made (jax_core stays imported)."""
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, JaxAliasFinder)]
    for name in [n for n in sys.modules if n == SOURCE or n.startswith(SOURCE + ".")]:
        if getattr(sys.modules[name], "__name__", "").startswith(TARGET):
            del sys.modules[name]
