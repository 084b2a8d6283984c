"""mypy plugin for jax_core: checks what annotations cannot say about ``jit``, ``grad``,
``vmap``, ``checkpoint``, ``custom_jvp``/``custom_vjp`` and ``lax.cond``/``switch``.

Enable it with one line in the mypy configuration::

    [tool.mypy]
    plugins = ["jax_core.mypy_plugin"]

Every check and its error code is described in docs/mypy-plugin.md.
"""

from __future__ import annotations

from mypy.plugin import Plugin

from jax_core.mypy_plugin._plugin import JaxCorePlugin


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point: the plugin class (any mypy 2.x)."""
    del version
    return JaxCorePlugin


__all__ = ["JaxCorePlugin", "plugin"]
