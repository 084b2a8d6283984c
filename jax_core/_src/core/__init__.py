"""Core: abstract values, primitives and their rules, traces and tracers, the jaxpr IR."""
