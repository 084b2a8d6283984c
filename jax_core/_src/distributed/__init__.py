"""Multi-process runs: the coordination service and client of jaxlib's distributed runtime
(``state.py``), which the CPU client joins with Gloo collectives (``backend/client.py``)."""
