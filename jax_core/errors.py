"""The exceptions jax_core raises, under the same class names as ``jax.errors``."""

from jax_core._src.core.errors import ConcretizationTypeError as ConcretizationTypeError
from jax_core._src.core.errors import InconclusiveDimensionOperation as InconclusiveDimensionOperation
from jax_core._src.core.errors import JAXIndexError as JAXIndexError
from jax_core._src.core.errors import JaxprTypeError as JaxprTypeError
from jax_core._src.core.errors import JaxRuntimeError as JaxRuntimeError
from jax_core._src.core.errors import JAXTypeError as JAXTypeError
from jax_core._src.core.errors import KeyReuseError as KeyReuseError
from jax_core._src.core.errors import NonConcreteBooleanIndexError as NonConcreteBooleanIndexError
from jax_core._src.core.errors import TracerArrayConversionError as TracerArrayConversionError
from jax_core._src.core.errors import TracerBoolConversionError as TracerBoolConversionError
from jax_core._src.core.errors import TracerIntegerConversionError as TracerIntegerConversionError
from jax_core._src.core.errors import UnexpectedTracerError as UnexpectedTracerError
from jax_core._src.dtypes import TypePromotionError as TypePromotionError
