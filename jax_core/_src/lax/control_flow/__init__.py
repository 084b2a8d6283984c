"""Control flow: ``cond``/``switch`` (the ``cond`` primitive), ``while_loop``/``fori_loop``
(``while``), ``scan``/``map`` (``scan``) and ``associative_scan`` (slicing only)."""
