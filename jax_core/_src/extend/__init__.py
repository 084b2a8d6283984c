"""What ``jax_core.extend`` and ``jax_core.interpreters`` expose: JAX-style rule registries over the one ``Rules`` record, jaxpr building."""
