"""Benchmarks: jax_core vs real JAX (see bench/README.md)."""
