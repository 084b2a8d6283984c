"""Reductions over axes: monoid reductions, argmin/argmax and cumulative reductions."""
