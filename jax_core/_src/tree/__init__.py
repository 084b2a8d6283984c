"""Pytrees: flattening over jaxlib's C++ registry, registration, key paths and the tree_util API."""
