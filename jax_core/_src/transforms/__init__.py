"""Transformations: jit and its stages (and, in later issues, autodiff and batching)."""
