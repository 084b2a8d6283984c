"""Special functions, as ``jax.scipy.special``."""

from jax_core._src.scipy.special import betaln as betaln
from jax_core._src.scipy.special import digamma as digamma
from jax_core._src.scipy.special import entr as entr
from jax_core._src.scipy.special import erf as erf
from jax_core._src.scipy.special import erfc as erfc
from jax_core._src.scipy.special import erfinv as erfinv
from jax_core._src.scipy.special import expit as expit
from jax_core._src.scipy.special import gamma as gamma
from jax_core._src.scipy.special import gammainc as gammainc
from jax_core._src.scipy.special import gammaincc as gammaincc
from jax_core._src.scipy.special import gammaln as gammaln
from jax_core._src.scipy.special import gammasgn as gammasgn
from jax_core._src.scipy.special import i0 as i0
from jax_core._src.scipy.special import i0e as i0e
from jax_core._src.scipy.special import i1 as i1
from jax_core._src.scipy.special import i1e as i1e
from jax_core._src.scipy.special import log_ndtr as log_ndtr
from jax_core._src.scipy.special import log_softmax as log_softmax
from jax_core._src.scipy.special import loggamma as loggamma
from jax_core._src.scipy.special import logit as logit
from jax_core._src.scipy.special import logsumexp as logsumexp
from jax_core._src.scipy.special import ndtr as ndtr
from jax_core._src.scipy.special import ndtri as ndtri
from jax_core._src.scipy.special import softmax as softmax
from jax_core._src.scipy.special import xlog1py as xlog1py
from jax_core._src.scipy.special import xlogy as xlogy
