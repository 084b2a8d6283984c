"""Stax, a small neural-net specification library (``jax.example_libraries.stax``).

A layer is an ``(init_fun, apply_fun)`` pair; ``serial``/``parallel`` compose layers.
You likely want Flax for real work; this is JAX's example, value for value.
"""

# Re-exported with ``as`` so type checkers treat them as public (PEP 484).
from jax_core._src.example_libraries.stax import ApplyFun as ApplyFun
from jax_core._src.example_libraries.stax import AvgPool as AvgPool
from jax_core._src.example_libraries.stax import BatchNorm as BatchNorm
from jax_core._src.example_libraries.stax import Conv as Conv
from jax_core._src.example_libraries.stax import Conv1DTranspose as Conv1DTranspose
from jax_core._src.example_libraries.stax import ConvTranspose as ConvTranspose
from jax_core._src.example_libraries.stax import Dense as Dense
from jax_core._src.example_libraries.stax import Dropout as Dropout
from jax_core._src.example_libraries.stax import Elu as Elu
from jax_core._src.example_libraries.stax import Exp as Exp
from jax_core._src.example_libraries.stax import FanInConcat as FanInConcat
from jax_core._src.example_libraries.stax import FanInSum as FanInSum
from jax_core._src.example_libraries.stax import FanOut as FanOut
from jax_core._src.example_libraries.stax import Flatten as Flatten
from jax_core._src.example_libraries.stax import Gelu as Gelu
from jax_core._src.example_libraries.stax import GeneralConv as GeneralConv
from jax_core._src.example_libraries.stax import GeneralConvTranspose as GeneralConvTranspose
from jax_core._src.example_libraries.stax import Identity as Identity
from jax_core._src.example_libraries.stax import InitFun as InitFun
from jax_core._src.example_libraries.stax import Layer as Layer
from jax_core._src.example_libraries.stax import LeakyRelu as LeakyRelu
from jax_core._src.example_libraries.stax import LogSoftmax as LogSoftmax
from jax_core._src.example_libraries.stax import MaxPool as MaxPool
from jax_core._src.example_libraries.stax import ParamInit as ParamInit
from jax_core._src.example_libraries.stax import PoolingLayerConstructor as PoolingLayerConstructor
from jax_core._src.example_libraries.stax import Relu as Relu
from jax_core._src.example_libraries.stax import Selu as Selu
from jax_core._src.example_libraries.stax import Sigmoid as Sigmoid
from jax_core._src.example_libraries.stax import Softmax as Softmax
from jax_core._src.example_libraries.stax import Softplus as Softplus
from jax_core._src.example_libraries.stax import SumPool as SumPool
from jax_core._src.example_libraries.stax import Tanh as Tanh
from jax_core._src.example_libraries.stax import elementwise as elementwise
from jax_core._src.example_libraries.stax import glorot as glorot
from jax_core._src.example_libraries.stax import logsoftmax as logsoftmax
from jax_core._src.example_libraries.stax import parallel as parallel
from jax_core._src.example_libraries.stax import randn as randn
from jax_core._src.example_libraries.stax import serial as serial
from jax_core._src.example_libraries.stax import shape_dependent as shape_dependent
from jax_core.nn import elu as elu
from jax_core.nn import gelu as gelu
from jax_core.nn import leaky_relu as leaky_relu
from jax_core.nn import log_softmax as log_softmax
from jax_core.nn import relu as relu
from jax_core.nn import selu as selu
from jax_core.nn import sigmoid as sigmoid
from jax_core.nn import softmax as softmax
from jax_core.nn import softplus as softplus
from jax_core.nn import standardize as standardize
from jax_core.nn.initializers import glorot_normal as glorot_normal
from jax_core.nn.initializers import normal as normal
from jax_core.nn.initializers import ones as ones
from jax_core.nn.initializers import zeros as zeros
