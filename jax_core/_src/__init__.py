"""jax_core internals: everything behind the public modules (no stability promise)."""
