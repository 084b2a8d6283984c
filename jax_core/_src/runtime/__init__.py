"""Runtime: the PjRt client, device arrays, compilation and dispatch."""
