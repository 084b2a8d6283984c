"""JAX's example libraries: ``stax`` (neural-net layers) and ``optimizers``.

They are examples, kept for the programs written with them; Flax and Optax are the
full libraries.
"""
