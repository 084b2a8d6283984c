"""``jax_core.random``: pseudo-random numbers from explicit keys, with typed keys (JEP 9263).

``key(seed)`` makes a typed key (a scalar array of dtype ``key<fry>``); ``PRNGKey(seed)``
the legacy raw ``uint32[2]`` key. Every function takes either kind. Streams are
bit-identical to JAX's (threefry2x32, ``jax_threefry_partitionable`` on)::

    >>> import jax_core as jax
    >>> key = jax.random.key(0)
    >>> key, subkey = jax.random.split(key)
    >>> x = jax.random.normal(subkey, (3,))
"""

from jax_core._src.random.api import PRNGKey as PRNGKey
from jax_core._src.random.api import bits as bits
from jax_core._src.random.api import clone as clone
from jax_core._src.random.api import fold_in as fold_in
from jax_core._src.random.api import key as key
from jax_core._src.random.api import key_data as key_data
from jax_core._src.random.api import key_dtype as key_dtype
from jax_core._src.random.api import key_impl as key_impl
from jax_core._src.random.api import split as split
from jax_core._src.random.api import wrap_key_data as wrap_key_data
from jax_core._src.random.binomial import binomial as binomial
from jax_core._src.random.binomial import multinomial as multinomial
from jax_core._src.random.distributions import ball as ball
from jax_core._src.random.distributions import chisquare as chisquare
from jax_core._src.random.distributions import double_sided_maxwell as double_sided_maxwell
from jax_core._src.random.distributions import f as f
from jax_core._src.random.distributions import generalized_normal as generalized_normal
from jax_core._src.random.distributions import geometric as geometric
from jax_core._src.random.distributions import lognormal as lognormal
from jax_core._src.random.distributions import maxwell as maxwell
from jax_core._src.random.distributions import orthogonal as orthogonal
from jax_core._src.random.distributions import pareto as pareto
from jax_core._src.random.distributions import rademacher as rademacher
from jax_core._src.random.distributions import rayleigh as rayleigh
from jax_core._src.random.distributions import t as t
from jax_core._src.random.distributions import triangular as triangular
from jax_core._src.random.distributions import wald as wald
from jax_core._src.random.distributions import weibull_min as weibull_min
from jax_core._src.random.key_alias import Key as Key
from jax_core._src.random.samplers import bernoulli as bernoulli
from jax_core._src.random.samplers import cauchy as cauchy
from jax_core._src.random.samplers import exponential as exponential
from jax_core._src.random.samplers import gumbel as gumbel
from jax_core._src.random.samplers import laplace as laplace
from jax_core._src.random.samplers import logistic as logistic
from jax_core._src.random.samplers import normal as normal
from jax_core._src.random.samplers import randint as randint
from jax_core._src.random.samplers import truncated_normal as truncated_normal
from jax_core._src.random.samplers import uniform as uniform
from jax_core._src.random.samplers_extra import beta as beta
from jax_core._src.random.samplers_extra import categorical as categorical
from jax_core._src.random.samplers_extra import choice as choice
from jax_core._src.random.samplers_extra import dirichlet as dirichlet
from jax_core._src.random.samplers_extra import gamma as gamma
from jax_core._src.random.samplers_extra import loggamma as loggamma
from jax_core._src.random.samplers_extra import multivariate_normal as multivariate_normal
from jax_core._src.random.samplers_extra import permutation as permutation
from jax_core._src.random.samplers_extra import poisson as poisson
from jax_core._src.random.samplers_extra import random_gamma_p as random_gamma_p
