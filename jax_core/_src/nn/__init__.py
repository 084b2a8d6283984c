"""Neural-network functions (``jax_core.nn``): activations, normalisations, attention, initializers."""
