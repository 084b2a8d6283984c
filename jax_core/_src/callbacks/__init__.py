"""Calling Python from staged code: ``pure_callback``, ``io_callback``, ``debug.callback`` and
``debug.print``, their effects and their rules (one block per primitive)."""
