"""The rest of ``jax_core.random`` (``Key``, the added samplers, ``random_gamma_p``) and the
``jnp`` index tricks (``mgrid``, ``ogrid``, ``r_``, ``c_``, ``s_``, ``index_exp``).

The index tricks are imported from their module until ``jax_core.numpy`` exports them (then
``jnp.r_`` etc.: the same objects)."""

from typing import assert_type

import numpy as np

import jax_core.numpy as jnp
from jax_core import Array, random
from jax_core._src.core.primitive import Primitive
from jax_core.numpy import c_, index_exp, mgrid, ogrid, r_, s_

key = random.key(0)
typed_key: random.Key = random.Key(key)
assert_type(random.Key(key), random.Key)

assert_type(random.pareto(key, 2.0, (3,)), Array)
assert_type(random.t(key, 3.0, shape=(2,), dtype=jnp.float16), Array)
assert_type(random.chisquare(key, 3.0, (2,), method="exact"), Array)
assert_type(random.f(key, 2.0, 3.0, (2,)), Array)
assert_type(random.rademacher(key, (3,), jnp.int8), Array)
assert_type(random.maxwell(key, (3,)), Array)
assert_type(random.double_sided_maxwell(key, 0.0, 1.0, (3,)), Array)
assert_type(random.weibull_min(key, 1.0, 2.0, (3,)), Array)
assert_type(random.orthogonal(key, 3, (2,), m=4), Array)
assert_type(random.generalized_normal(key, 2.0, (3,)), Array)
assert_type(random.ball(key, 3, p=1.5, shape=(2,)), Array)
assert_type(random.rayleigh(key, jnp.ones(3)), Array)
assert_type(random.wald(key, 1.0, (3,), out_sharding=None), Array)
assert_type(random.geometric(key, 0.3, (3,), jnp.int32), Array)
assert_type(random.triangular(key, 0.0, 0.5, 1.0, (3,)), Array)
assert_type(random.lognormal(key), Array)
assert_type(random.lognormal(key, np.float32(0.5), (3,), jnp.complex64), Array)
assert_type(random.binomial(key, 10.0, 0.3, (3,)), Array)
assert_type(random.multinomial(key, 10.0, jnp.array([0.2, 0.8]), shape=(4,), unroll=True), Array)
assert_type(random.random_gamma_p, Primitive)
assert_type(random.random_gamma_p.name, str)

assert_type(mgrid[0:3], Array)
assert_type(mgrid[0:3, 0:1:5j], Array)
assert_type(ogrid[0:3], Array)
assert_type(ogrid[0:3, 0:2], list[Array])
assert_type(r_[1:4, 0, jnp.array([7, 8])], Array)
assert_type(r_["0,2", [1, 2], [3, 4]], Array)
assert_type(c_[jnp.ones(2), [7, 8]], Array)
assert_type(c_["r", [1, 2, 3], [4, 5, 6]], Array)
rows = jnp.arange(10.0)[s_[2:5]]
cols = jnp.arange(10.0)[index_exp[::3]]
assert_type(rows, Array)
