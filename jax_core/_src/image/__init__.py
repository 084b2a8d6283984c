"""``jax.image``: resampling images (``scale.py``)."""
