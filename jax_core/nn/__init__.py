"""Neural-network building blocks, as ``jax.nn``: activations, softmax and friends, one-hot
encoding, attention, block-scaled matmuls, and (``jax_core.nn.initializers``) initializers."""

# Public names are re-exported with ``import x as x`` (PEP 484's explicit re-export).
from jax_core._src.nn.activations import celu as celu
from jax_core._src.nn.activations import elu as elu
from jax_core._src.nn.activations import gelu as gelu
from jax_core._src.nn.activations import glu as glu
from jax_core._src.nn.activations import hard_sigmoid as hard_sigmoid
from jax_core._src.nn.activations import hard_silu as hard_silu
from jax_core._src.nn.activations import hard_swish as hard_swish
from jax_core._src.nn.activations import hard_tanh as hard_tanh
from jax_core._src.nn.activations import identity as identity
from jax_core._src.nn.activations import leaky_relu as leaky_relu
from jax_core._src.nn.activations import log1mexp as log1mexp
from jax_core._src.nn.activations import log_sigmoid as log_sigmoid
from jax_core._src.nn.activations import mish as mish
from jax_core._src.nn.activations import relu as relu
from jax_core._src.nn.activations import relu6 as relu6
from jax_core._src.nn.activations import selu as selu
from jax_core._src.nn.activations import sigmoid as sigmoid
from jax_core._src.nn.activations import silu as silu
from jax_core._src.nn.activations import soft_sign as soft_sign
from jax_core._src.nn.activations import softplus as softplus
from jax_core._src.nn.activations import sparse_plus as sparse_plus
from jax_core._src.nn.activations import sparse_sigmoid as sparse_sigmoid
from jax_core._src.nn.activations import squareplus as squareplus
from jax_core._src.nn.activations import swish as swish
from jax_core._src.nn.attention import dot_product_attention as dot_product_attention
from jax_core._src.nn.normalization import log_softmax as log_softmax
from jax_core._src.nn.normalization import logmeanexp as logmeanexp
from jax_core._src.nn.normalization import softmax as softmax
from jax_core._src.nn.normalization import standardize as standardize
from jax_core._src.nn.one_hot import one_hot as one_hot
from jax_core._src.nn.scaled import get_scaled_dot_general_config as get_scaled_dot_general_config
from jax_core._src.nn.scaled import scaled_dot_general as scaled_dot_general
from jax_core._src.nn.scaled import scaled_matmul as scaled_matmul
from jax_core._src.numpy.ufuncs import tanh as tanh
from jax_core._src.scipy.special import logsumexp as logsumexp
from jax_core.nn import initializers as initializers
