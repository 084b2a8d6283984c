"""The example libraries JAX ships (``jax.example_libraries``): ``stax`` and ``optimizers``."""
