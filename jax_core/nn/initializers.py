"""Initializers of neural-network parameters, as ``jax.nn.initializers`` (the Keras and Sonnet
definitions): each takes ``(key, shape, dtype=None, out_sharding=None)`` and returns an array."""

# Public names are re-exported with ``import x as x`` (PEP 484's explicit re-export).
from jax_core._src.nn.initializers import Initializer as Initializer
from jax_core._src.nn.initializers import constant as constant
from jax_core._src.nn.initializers import delta_orthogonal as delta_orthogonal
from jax_core._src.nn.initializers import glorot_normal as glorot_normal
from jax_core._src.nn.initializers import glorot_uniform as glorot_uniform
from jax_core._src.nn.initializers import he_normal as he_normal
from jax_core._src.nn.initializers import he_uniform as he_uniform
from jax_core._src.nn.initializers import kaiming_normal as kaiming_normal
from jax_core._src.nn.initializers import kaiming_uniform as kaiming_uniform
from jax_core._src.nn.initializers import lecun_normal as lecun_normal
from jax_core._src.nn.initializers import lecun_uniform as lecun_uniform
from jax_core._src.nn.initializers import normal as normal
from jax_core._src.nn.initializers import ones as ones
from jax_core._src.nn.initializers import orthogonal as orthogonal
from jax_core._src.nn.initializers import truncated_normal as truncated_normal
from jax_core._src.nn.initializers import uniform as uniform
from jax_core._src.nn.initializers import variance_scaling as variance_scaling
from jax_core._src.nn.initializers import xavier_normal as xavier_normal
from jax_core._src.nn.initializers import xavier_uniform as xavier_uniform
from jax_core._src.nn.initializers import zeros as zeros
