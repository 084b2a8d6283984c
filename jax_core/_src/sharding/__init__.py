"""Shardings: meshes, partition specs and the Sharding classes (how an array is laid out over devices)."""
