"""Image resampling, as ``jax.image`` (``resize``, ``scale_and_translate``, ``ResizeMethod``)."""

from jax_core._src.image.scale import ResizeMethod as ResizeMethod
from jax_core._src.image.scale import resize as resize
from jax_core._src.image.scale import scale_and_translate as scale_and_translate
