"""Every table, by the module it covers: (module, the expression prefix, the lines, the names left
out with why)."""

from __future__ import annotations

from tests.conformance.tables.lax_table import LAX, LAX_EXTRA, LAX_NOT_GENERATED
from tests.conformance.tables.numpy_table import NUMPY, NUMPY_NOT_GENERATED
from tests.conformance.tables.other_tables import (
    ARRAY, AT, FFT, LINALG, RANDOM, SCIPY_LINALG, SIGNAL, SPECIAL, STATS,
)  # fmt: skip

TABLES: tuple[tuple[str, str, str, dict[str, str]], ...] = (
    ("numpy", "jnp", NUMPY, NUMPY_NOT_GENERATED),
    ("numpy.linalg", "jnp.linalg", LINALG, {}),
    ("numpy.fft", "jnp.fft", FFT, {}),
    ("lax", "lax", LAX + LAX_EXTRA, LAX_NOT_GENERATED),
    ("random", "random", RANDOM, {}),
    ("scipy.special", "jsp.special", SPECIAL, {}),
    ("scipy.linalg", "jsp.linalg", SCIPY_LINALG, {}),
    ("scipy.signal", "jsp.signal", SIGNAL, {}),
    ("scipy.stats", "jsp.stats", STATS, {}),
    ("Array", "Array", ARRAY, {}),
    ("Array.at", "at", AT, {}),
)
