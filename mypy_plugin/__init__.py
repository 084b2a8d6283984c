"""mypy plugin for jax_core: refines the types of jit, grad, vmap and friends where annotations cannot.

Enable it with ``plugins = ["mypy_plugin"]`` in the mypy configuration. (Filled in by a later issue.)
"""
