"""The PjRt backend: the CPU client and its devices, created once per process."""
