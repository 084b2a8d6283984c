"""Exporting functions (``jax.export``): lowering to a portable StableHLO artifact with the
metadata to call it, JAX's flatbuffer serialization, and calling an exported function.

``exported.py`` holds the ``Exported`` record, ``export.py`` builds one from a jitted function
by the calling convention (``safety.py``: the custom-call allowlist and the platform check),
``serialization.py`` writes and reads JAX 0.12's flatbuffer (``flatbuffer_tables.py``:
the schema's tables; ``pytree_serialization.py``: custom pytree nodes), ``call.py`` holds
``call_exported_p`` and its rules, ``shardings.py`` the shardings of arguments and results.
"""
