"""Windowed reductions (XLA's ReduceWindow) and the max/min pooling primitives (select_and_gather_add, select_and_scatter_add)."""
