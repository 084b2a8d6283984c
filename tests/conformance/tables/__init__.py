"""Every table, by the module it covers: (module, the expression prefix, the lines, the names left
out with why)."""

from __future__ import annotations

from tests.conformance.tables.image_ops_table import (
    IMAGE, INTEGRATE, INTERPOLATE_NOT_GENERATED, NDIMAGE, OPS, VQ,
)  # fmt: skip
from tests.conformance.tables.lax_more_table import LAX_MORE, LAX_MORE_NOT_GENERATED
from tests.conformance.tables.lax_table import LAX, LAX_EXTRA, LAX_NOT_GENERATED
from tests.conformance.tables.linalg_table import LAX_LINALG, SCIPY_LINALG_MORE
from tests.conformance.tables.nn_table import DIRECT, INIT_PREFIX, INITIALIZERS, NN
from tests.conformance.tables.numpy_table import NUMPY, NUMPY_NOT_GENERATED
from tests.conformance.tables.other_tables import (
    ARRAY, AT, FFT, LINALG, RANDOM, SCIPY_LINALG, SIGNAL, SPECIAL, STATS,
)  # fmt: skip
from tests.conformance.tables.random_more_table import RANDOM_MORE, RANDOM_MORE_NOT_GENERATED
from tests.conformance.tables.scipy_more_table import OPTIMIZE, SIGNAL_MORE, SPARSE_LINALG, SPATIAL_TRANSFORM
from tests.conformance.tables.scipy_stats_special_table import SPECIAL_REST, STATS_REST

TABLES: tuple[tuple[str, str, str, dict[str, str]], ...] = (
    ("numpy", "jnp", NUMPY, NUMPY_NOT_GENERATED),
    ("numpy.linalg", "jnp.linalg", LINALG, {}),
    ("numpy.fft", "jnp.fft", FFT, {}),
    ("lax", "lax", LAX + LAX_EXTRA + LAX_MORE, {**LAX_NOT_GENERATED, **LAX_MORE_NOT_GENERATED}),
    ("lax.linalg", "lax.linalg", LAX_LINALG, {}),
    ("random", "random", RANDOM + RANDOM_MORE, RANDOM_MORE_NOT_GENERATED),
    ("scipy.special", "jsp.special", SPECIAL + SPECIAL_REST, {}),
    ("scipy.linalg", "jsp.linalg", SCIPY_LINALG + SCIPY_LINALG_MORE, {}),
    ("scipy.signal", "jsp.signal", SIGNAL + SIGNAL_MORE, {}),
    ("scipy.stats", "jsp.stats", STATS + STATS_REST, {}),
    ("scipy.ndimage", "jsp.ndimage", NDIMAGE, {}),
    ("scipy.integrate", "jsp.integrate", INTEGRATE, {}),
    ("scipy.interpolate", "jsp.interpolate", "", INTERPOLATE_NOT_GENERATED),
    ("scipy.cluster.vq", "jsp.cluster.vq", VQ, {}),
    ("scipy.optimize", "jsp.optimize", OPTIMIZE, {}),
    ("scipy.sparse.linalg", "jsp.sparse.linalg", SPARSE_LINALG, {}),
    ("scipy.spatial.transform", "jsp.spatial.transform", SPATIAL_TRANSFORM, {}),
    ("nn", "jax.nn", NN, {}),
    ("nn.initializers", INIT_PREFIX, INITIALIZERS, {}),
    ("nn.initializers", "jax.nn.initializers", DIRECT, {}),
    ("image", "jax.image", IMAGE, {}),
    ("ops", "jax.ops", OPS, {}),
    ("Array", "Array", ARRAY, {}),
    ("Array.at", "at", AT, {}),
)
