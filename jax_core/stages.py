"""The stages of ahead-of-time compilation (``jax.stages``): ``jit(f).trace(...)`` gives a
``Traced``, ``.lower()`` a ``Lowered``, ``.compile()`` a ``Compiled``."""

from jax_core._src.transforms.stages import ArgInfo as ArgInfo
from jax_core._src.transforms.stages import Compiled as Compiled
from jax_core._src.transforms.stages import CompilerOptions as CompilerOptions
from jax_core._src.transforms.stages import Lowered as Lowered
from jax_core._src.transforms.stages import Traced as Traced
from jax_core._src.transforms.stages import Wrapped as Wrapped
