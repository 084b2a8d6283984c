"""The ``jax_core.numpy`` implementation: NumPy's API over lax, with JAX's promotion rules."""
