"""Stax: a small neural-net specification library (``jax.example_libraries.stax``).

A layer is an ``(init_fun, apply_fun)`` pair: ``init_fun(rng, input_shape)`` returns
``(output_shape, params)`` and ``apply_fun(params, inputs, **kwargs)`` applies the
layer (``rng=`` is the key a stochastic layer such as :func:`Dropout` needs).
Combinators (:func:`serial`, :func:`parallel`, :func:`shape_dependent`) build layers
from layers. Layer constructors are CamelCase as in Keras, functions snake_case.

As in JAX this is an example library; Flax is the full one.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast

from jax_core import lax, random
from jax_core import numpy as jnp
from jax_core._src.typing.basearray import Array
from jax_core.nn import (
    elu,
    gelu,
    leaky_relu,
    log_softmax,
    relu,
    selu,
    sigmoid,
    softmax,
    softplus,
    standardize,
)
from jax_core.nn.initializers import glorot_normal, normal, ones, zeros

# aliases kept for backwards compatibility, as in JAX
glorot = glorot_normal
randn = normal
logsoftmax = log_softmax


class ParamInit(Protocol):
    """What a layer initializes its parameters with: ``init(key, shape) -> array``."""

    def __call__(self, key: Array, shape: Sequence[int], /) -> Any: ...


InitFun = Callable[[Array, Any], Any]
"""A layer's ``init_fun(rng, input_shape) -> (output_shape, params)``."""

ApplyFun = Callable[..., Any]
"""A layer's ``apply_fun(params, inputs, **kwargs) -> outputs``."""


Layer = tuple[InitFun, ApplyFun]
"""A layer: its ``(init_fun, apply_fun)`` pair."""

DimensionNumbers = tuple[str, str, str]


def Dense(out_dim: int, W_init: ParamInit = glorot_normal(), b_init: ParamInit = normal()) -> Layer:  # noqa: B008  (JAX's defaults)
    """A dense (fully-connected) layer: ``inputs @ W + b``."""

    def init_fun(rng: Array, input_shape: Any) -> Any:
        output_shape = input_shape[:-1] + (out_dim,)
        k1, k2 = random.split(rng)
        W, b = W_init(k1, (input_shape[-1], out_dim)), b_init(k2, (out_dim,))
        return output_shape, (W, b)

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        W, b = params
        return jnp.dot(inputs, W) + b

    return init_fun, apply_fun


def _conv_layer(
    dimension_numbers: DimensionNumbers,
    out_chan: int,
    filter_shape: Sequence[int],
    strides: Sequence[int] | None,
    padding: str | Sequence[tuple[int, int]],
    W_init: ParamInit | None,
    b_init: ParamInit,
    *,
    transpose: bool,
) -> Layer:
    """The layer of ``GeneralConv`` (``transpose=False``) or ``GeneralConvTranspose``: a kernel
    laid out by ``dimension_numbers`` and a bias broadcast over the output's non-channel axes."""
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    one = (1,) * len(filter_shape)
    strides = strides or one
    w_init = W_init or glorot_normal(rhs_spec.index("I"), rhs_spec.index("O"))
    shape_tuple = lax.conv_transpose_shape_tuple if transpose else lax.conv_general_shape_tuple

    def init_fun(rng: Array, input_shape: Any) -> Any:
        filter_shape_iter = iter(filter_shape)
        kernel_shape = [
            out_chan
            if c == "O"
            else input_shape[lhs_spec.index("C")]
            if c == "I"
            else next(filter_shape_iter)
            for c in rhs_spec
        ]
        output_shape = shape_tuple(input_shape, kernel_shape, strides, padding, dimension_numbers)
        bias_shape = [out_chan if c == "C" else 1 for c in out_spec]
        k1, k2 = random.split(rng)
        W, b = w_init(k1, kernel_shape), b_init(k2, bias_shape)
        return output_shape, (W, b)

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        W, b = params
        if transpose:
            return lax.conv_transpose(inputs, W, strides, padding, dimension_numbers=dimension_numbers) + b
        return lax.conv_general_dilated(inputs, W, strides, padding, one, one, dimension_numbers=dimension_numbers) + b

    return init_fun, apply_fun


def GeneralConv(
    dimension_numbers: DimensionNumbers,
    out_chan: int,
    filter_shape: Sequence[int],
    strides: Sequence[int] | None = None,
    padding: str | Sequence[tuple[int, int]] = "VALID",
    W_init: ParamInit | None = None,
    b_init: ParamInit = normal(1e-6),  # noqa: B008  (JAX's default)
) -> Layer:
    """A convolution layer with ``dimension_numbers`` ``(lhs_spec, rhs_spec, out_spec)``."""
    return _conv_layer(dimension_numbers, out_chan, filter_shape, strides, padding, W_init, b_init, transpose=False)


class ConvConstructor(Protocol):
    """``Conv``/``Conv1DTranspose``/``ConvTranspose``: ``GeneralConv`` (or ``GeneralConvTranspose``)
    with fixed dimension numbers."""

    def __call__(
        self,
        out_chan: int,
        filter_shape: Sequence[int],
        strides: Sequence[int] | None = ...,
        padding: str | Sequence[tuple[int, int]] = ...,
        W_init: ParamInit | None = ...,
        b_init: ParamInit = ...,
    ) -> Layer:
        """A convolution layer."""
        ...


Conv: ConvConstructor = functools.partial(GeneralConv, ("NHWC", "HWIO", "NHWC"))


def GeneralConvTranspose(
    dimension_numbers: DimensionNumbers,
    out_chan: int,
    filter_shape: Sequence[int],
    strides: Sequence[int] | None = None,
    padding: str | Sequence[tuple[int, int]] = "VALID",
    W_init: ParamInit | None = None,
    b_init: ParamInit = normal(1e-6),  # noqa: B008  (JAX's default)
) -> Layer:
    """A transposed-convolution layer with ``dimension_numbers`` ``(lhs_spec, rhs_spec, out_spec)``."""
    return _conv_layer(dimension_numbers, out_chan, filter_shape, strides, padding, W_init, b_init, transpose=True)


Conv1DTranspose: ConvConstructor = functools.partial(GeneralConvTranspose, ("NHC", "HIO", "NHC"))
ConvTranspose: ConvConstructor = functools.partial(GeneralConvTranspose, ("NHWC", "HWIO", "NHWC"))


def BatchNorm(
    axis: int | Sequence[int] = (0, 1, 2),
    epsilon: float = 1e-5,
    center: bool = True,
    scale: bool = True,
    beta_init: ParamInit = zeros,
    gamma_init: ParamInit = ones,
) -> Layer:
    """Batch normalization over ``axis``, with a learned shift (``center``) and scale."""
    axes: tuple[int, ...] = (
        (cast(int, axis),) if jnp.isscalar(axis) else tuple(cast(Sequence[int], axis))
    )

    def _beta_init(rng: Array, shape: Sequence[int]) -> Any:
        return beta_init(rng, shape) if center else ()

    def _gamma_init(rng: Array, shape: Sequence[int]) -> Any:
        return gamma_init(rng, shape) if scale else ()

    def init_fun(rng: Array, input_shape: Any) -> Any:
        shape = tuple(d for i, d in enumerate(input_shape) if i not in axes)
        k1, k2 = random.split(rng)
        beta, gamma = _beta_init(k1, shape), _gamma_init(k2, shape)
        return input_shape, (beta, gamma)

    def apply_fun(params: Any, x: Any, **kwargs: Any) -> Any:
        beta, gamma = params
        ed = tuple(None if i in axes else slice(None) for i in range(jnp.ndim(x)))
        z = standardize(x, axes, epsilon=epsilon)
        if center and scale:
            return gamma[ed] * z + beta[ed]
        if center:
            return z + beta[ed]
        if scale:
            return gamma[ed] * z
        return z

    return init_fun, apply_fun


def elementwise(fun: Callable[..., Any], **fun_kwargs: Any) -> Layer:
    """A layer applying ``fun(inputs, **fun_kwargs)`` (a function of no parameters)."""

    def init_fun(rng: Array, input_shape: Any) -> Any:
        return input_shape, ()

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        return fun(inputs, **fun_kwargs)

    return init_fun, apply_fun


Tanh: Layer = elementwise(jnp.tanh)
Relu: Layer = elementwise(relu)
Exp: Layer = elementwise(jnp.exp)
LogSoftmax: Layer = elementwise(log_softmax, axis=-1)
Softmax: Layer = elementwise(softmax, axis=-1)
Softplus: Layer = elementwise(softplus)
Sigmoid: Layer = elementwise(sigmoid)
Elu: Layer = elementwise(elu)
LeakyRelu: Layer = elementwise(leaky_relu)
Selu: Layer = elementwise(selu)
Gelu: Layer = elementwise(gelu)


class _Rescaler(Protocol):
    def __call__(self, outputs: Array, inputs: Array, spec: str | None, /) -> Array: ...


class PoolingLayerConstructor(Protocol):
    """``MaxPool``/``SumPool``/``AvgPool``: ``(window_shape, strides, padding, spec) -> Layer``."""

    def __call__(
        self,
        window_shape: tuple[int, ...],
        strides: tuple[int, ...] | None = None,
        padding: str = "VALID",
        spec: str | None = None,
    ) -> Layer: ...


def _pooling_layer(
    reducer: Callable[[Any, Any], Array],
    init_val: float,
    rescaler: Callable[[tuple[int, ...], tuple[int, ...], str], _Rescaler] | None = None,
) -> PoolingLayerConstructor:
    def PoolingLayer(
        window_shape: tuple[int, ...],
        strides: tuple[int, ...] | None = None,
        padding: str = "VALID",
        spec: str | None = None,
    ) -> Layer:
        """A pooling layer over the spatial axes (``spec`` names them, default ``N...C``)."""
        strides = strides or (1,) * len(window_shape)
        rescale = rescaler(window_shape, strides, padding) if rescaler else None
        if spec is None:
            non_spatial_axes = 0, len(window_shape) + 1
        else:
            non_spatial_axes = spec.index("N"), spec.index("C")
        for i in sorted(non_spatial_axes):
            window_shape = window_shape[:i] + (1,) + window_shape[i:]
            strides = strides[:i] + (1,) + strides[i:]
        dims, steps = window_shape, strides

        def init_fun(rng: Array, input_shape: Any) -> Any:
            padding_vals = lax.padtype_to_pads(input_shape, dims, steps, padding)
            unit = (1,) * len(dims)
            out_shape = lax.reduce_window_shape_tuple(
                input_shape, dims, steps, padding_vals, unit, unit
            )
            return out_shape, ()

        def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
            out = lax.reduce_window(inputs, init_val, reducer, dims, steps, padding)
            return rescale(out, inputs, spec) if rescale else out

        return init_fun, apply_fun

    return PoolingLayer


MaxPool: PoolingLayerConstructor = _pooling_layer(lax.max, -jnp.inf)
SumPool: PoolingLayerConstructor = _pooling_layer(lax.add, 0.0)


def _normalize_by_window_size(
    dims: tuple[int, ...], strides: tuple[int, ...], padding: str
) -> _Rescaler:
    def rescale(outputs: Array, inputs: Array, spec: str | None) -> Array:
        if spec is None:
            non_spatial_axes = 0, inputs.ndim - 1
        else:
            non_spatial_axes = spec.index("N"), spec.index("C")
        spatial_shape = tuple(
            inputs.shape[i] for i in range(inputs.ndim) if i not in non_spatial_axes
        )
        one = jnp.ones(spatial_shape, dtype=inputs.dtype)
        window_sizes = lax.reduce_window(one, 0.0, lax.add, dims, strides, padding)
        for i in sorted(non_spatial_axes):
            window_sizes = jnp.expand_dims(window_sizes, i)
        return outputs / window_sizes

    return rescale


AvgPool: PoolingLayerConstructor = _pooling_layer(lax.add, 0.0, _normalize_by_window_size)


def _flatten() -> Layer:
    """A layer flattening all but the leading dimension."""

    def init_fun(rng: Array, input_shape: Any) -> Any:
        return (input_shape[0], math.prod(input_shape[1:])), ()

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        return jnp.reshape(inputs, (inputs.shape[0], -1))

    return init_fun, apply_fun


Flatten: Layer = _flatten()


def _identity() -> Layer:
    """A layer returning its inputs."""

    def init_fun(rng: Array, input_shape: Any) -> Any:
        return input_shape, ()

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        return inputs

    return init_fun, apply_fun


Identity: Layer = _identity()


def FanOut(num: int) -> Layer:
    """A layer returning ``num`` copies of its input (a list), to feed :func:`parallel`."""

    def init_fun(rng: Array, input_shape: Any) -> Any:
        return [input_shape] * num, ()

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        return [inputs] * num

    return init_fun, apply_fun


def _fan_in_sum() -> Layer:
    """A layer summing the inputs of a list."""

    def init_fun(rng: Array, input_shape: Any) -> Any:
        return input_shape[0], ()

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        return sum(inputs)

    return init_fun, apply_fun


FanInSum: Layer = _fan_in_sum()


def FanInConcat(axis: int = -1) -> Layer:
    """A layer concatenating the inputs of a list along ``axis``."""

    def init_fun(rng: Array, input_shape: Any) -> Any:
        ax = axis % len(input_shape[0])
        concat_size = sum(shape[ax] for shape in input_shape)
        out_shape = input_shape[0][:ax] + (concat_size,) + input_shape[0][ax + 1 :]
        return out_shape, ()

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        return jnp.concatenate(inputs, axis)

    return init_fun, apply_fun


def Dropout(rate: float, mode: str = "train") -> Layer:
    """Dropout keeping each entry with probability ``rate`` in ``mode="train"`` (needs ``rng=``)."""

    def init_fun(rng: Array, input_shape: Any) -> Any:
        return input_shape, ()

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        rng = kwargs.get("rng", None)
        if rng is None:
            raise ValueError(
                "Dropout layer requires apply_fun to be called with a PRNG key argument. "
                "That is, instead of `apply_fun(params, inputs)`, call it like "
                "`apply_fun(params, inputs, rng)` where `rng` is a PRNG key (e.g. from "
                "`jax.random.key`)."
            )
        if mode == "train":
            keep = random.bernoulli(rng, rate, inputs.shape)
            return jnp.where(keep, inputs / rate, 0)
        return inputs

    return init_fun, apply_fun


def serial(*layers: Layer) -> Layer:
    """Composes ``layers`` one after another (each one's output is the next one's input)."""
    nlayers = len(layers)
    init_funs, apply_funs = zip(*layers)

    def init_fun(rng: Array, input_shape: Any) -> Any:
        params: list[Any] = []
        for init in init_funs:
            rng, layer_rng = random.split(rng)
            input_shape, param = init(layer_rng, input_shape)
            params.append(param)
        return input_shape, params

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        rng = kwargs.pop("rng", None)
        rngs = random.split(rng, nlayers) if rng is not None else (None,) * nlayers
        for fun, param, layer_rng in zip(apply_funs, params, rngs):
            inputs = fun(param, inputs, rng=layer_rng, **kwargs)
        return inputs

    return init_fun, apply_fun


def parallel(*layers: Layer) -> Layer:
    """Applies ``layers`` side by side, the i-th to the i-th of a sequence of inputs.

    Often used between :func:`FanOut` and :data:`FanInSum`/:func:`FanInConcat`.
    """
    nlayers = len(layers)
    init_funs, apply_funs = zip(*layers)

    def init_fun(rng: Array, input_shape: Any) -> Any:
        rngs = random.split(rng, nlayers)
        return zip(*[init(r, shape) for init, r, shape in zip(init_funs, rngs, input_shape)])

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        rng = kwargs.pop("rng", None)
        rngs = random.split(rng, nlayers) if rng is not None else (None,) * nlayers
        return [f(p, x, rng=r, **kwargs) for f, p, x, r in zip(apply_funs, params, inputs, rngs)]

    return init_fun, apply_fun


def shape_dependent(make_layer: Callable[[Any], Layer]) -> Layer:
    """Delays building a layer until the input shape is known: ``make_layer(shape) -> Layer``."""

    def init_fun(rng: Array, input_shape: Any) -> Any:
        return make_layer(input_shape)[0](rng, input_shape)

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        return make_layer(inputs.shape)[1](params, inputs, **kwargs)

    return init_fun, apply_fun
