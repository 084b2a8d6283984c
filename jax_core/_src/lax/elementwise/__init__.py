"""Elementwise primitives: arithmetic, transcendental, bitwise, comparisons, select, conversions."""
