"""``jax.ops``: segment reductions over the leading axis (``segment.py``)."""
