"""Interpreters of jaxprs and traces: staging (jit), and later jvp, transpose, batching."""
