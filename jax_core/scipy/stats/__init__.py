"""Statistical distributions, as ``jax.scipy.stats``."""

from jax_core.scipy.stats import bernoulli as bernoulli
from jax_core.scipy.stats import beta as beta
from jax_core.scipy.stats import chi2 as chi2
from jax_core.scipy.stats import expon as expon
from jax_core.scipy.stats import gamma as gamma
from jax_core.scipy.stats import laplace as laplace
from jax_core.scipy.stats import logistic as logistic
from jax_core.scipy.stats import multivariate_normal as multivariate_normal
from jax_core.scipy.stats import norm as norm
from jax_core.scipy.stats import poisson as poisson
from jax_core.scipy.stats import t as t
from jax_core.scipy.stats import uniform as uniform
