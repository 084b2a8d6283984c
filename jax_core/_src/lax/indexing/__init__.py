"""Indexed reads and writes: slices, dynamic slices, gather, the scatter family and their compositions."""
