"""Configuration: jax_core's flags (``jax_enable_x64``, ``jax_disable_jit``) and the ``config`` object.

The package is what callers import (``from jax_core._src import config``); the flags are defined
in ``flags.py``.
"""

from jax_core._src.config.flags import Config as Config
from jax_core._src.config.flags import Flag as Flag
from jax_core._src.config.flags import config as config
from jax_core._src.config.flags import disable_jit as disable_jit
from jax_core._src.config.flags import enable_x64 as enable_x64
