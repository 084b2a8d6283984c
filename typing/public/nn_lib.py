"""Neural-network layers written against jax_core.

Layers are pairs of pure functions, ``*_init(key, ...) -> params`` and
``*_apply(params, x, ...) -> y`` (the functional style of haiku and flax.linen), with their
parameters in ``NamedTuple`` pytrees. A few modules at the end are pytrees with jitted methods,
in the style of equinox.
"""

import math
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, NamedTuple, Optional, assert_type

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, lax, random
from jax_core.typing import ArrayLike, DTypeLike, PRNGKeyArray, Shape

Initializer = Callable[[PRNGKeyArray, Shape, DTypeLike], Array]
Activation = Callable[[Array], Array]
Padding = str | Sequence[tuple[int, int]]


# --------------------------------------------------------------------------------------
# Activations
# --------------------------------------------------------------------------------------


def relu(x: ArrayLike) -> Array:
    return jnp.maximum(x, 0)


def gelu(x: Array, approximate: bool = True) -> Array:
    if approximate:
        cdf = 0.5 * (1.0 + jnp.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * (x**3))))
        return x * cdf
    return 0.5 * x * (1.0 + jax.scipy.special.erf(x / math.sqrt(2)))


def silu(x: Array) -> Array:
    return x * jax.scipy.special.expit(x)


def softmax(x: Array, axis: int = -1, where: Optional[Array] = None) -> Array:
    """Softmax along ``axis``; entries where ``where`` is false get probability 0."""
    x_max = jnp.max(x, axis, keepdims=True, where=where, initial=-jnp.inf)
    unnormalized = jnp.exp(x - lax.stop_gradient(x_max))
    if where is not None:
        unnormalized = jnp.where(where, unnormalized, 0.0)
    return unnormalized / jnp.sum(unnormalized, axis, keepdims=True)


def log_softmax(x: Array, axis: int = -1) -> Array:
    shifted = x - lax.stop_gradient(jnp.max(x, axis, keepdims=True))
    return shifted - jnp.log(jnp.sum(jnp.exp(shifted), axis, keepdims=True))


def one_hot(labels: Array, num_classes: int, dtype: DTypeLike = jnp.float32) -> Array:
    return jnp.asarray(labels[..., None] == jnp.arange(num_classes), dtype)


@jax.custom_jvp
def softplus(x: Array) -> Array:
    """``log(1 + exp(x))``, with a derivative that stays finite for large ``x``."""
    return jnp.logaddexp(x, 0.0)


@softplus.defjvp
def _softplus_jvp(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (x,) = primals
    (x_dot,) = tangents
    return softplus(x), x_dot * jax.scipy.special.expit(x)


@jax.custom_vjp
def safe_norm(x: Array, eps: float = 1e-12) -> Array:
    """The L2 norm over the last axis, with a gradient that is 0 (not NaN) at 0."""
    return jnp.sqrt(jnp.sum(x * x, axis=-1) + eps)


def _safe_norm_fwd(x: Array, eps: float) -> tuple[Array, tuple[Array, Array]]:
    norm = safe_norm(x, eps)
    return norm, (x, norm)


def _safe_norm_bwd(res: tuple[Array, Array], g: Array) -> tuple[Array, None]:
    x, norm = res
    return g[..., None] * x / norm[..., None], None


safe_norm.defvjp(_safe_norm_fwd, _safe_norm_bwd)


def _clip_gradient(lo: float, hi: float, x: Array) -> Array:
    return x


def _clip_gradient_fwd(lo: float, hi: float, x: Array) -> tuple[Array, None]:
    return x, None


def _clip_gradient_bwd(lo: float, hi: float, res: None, g: Array) -> tuple[Array]:
    return (jnp.clip(g, lo, hi),)


clip_gradient = jax.custom_vjp(_clip_gradient, nondiff_argnums=(0, 1))
clip_gradient.defvjp(_clip_gradient_fwd, _clip_gradient_bwd)


# --------------------------------------------------------------------------------------
# Initializers
# --------------------------------------------------------------------------------------


def zeros_init(key: PRNGKeyArray, shape: Shape, dtype: DTypeLike = jnp.float32) -> Array:
    del key
    return jnp.zeros(shape, dtype)


def ones_init(key: PRNGKeyArray, shape: Shape, dtype: DTypeLike = jnp.float32) -> Array:
    del key
    return jnp.ones(shape, dtype)


def constant_init(value: ArrayLike) -> Initializer:
    def init(key: PRNGKeyArray, shape: Shape, dtype: DTypeLike = jnp.float32) -> Array:
        del key
        return jnp.full(shape, value, dtype)

    return init


def _compute_fans(shape: Shape, in_axis: int = -2, out_axis: int = -1) -> tuple[float, float]:
    if len(shape) < 2:
        return 1.0, 1.0
    receptive_field_size = np.prod(shape) / (shape[in_axis] * shape[out_axis])
    fan_in = shape[in_axis] * receptive_field_size
    fan_out = shape[out_axis] * receptive_field_size
    return float(fan_in), float(fan_out)


def variance_scaling(
    scale: ArrayLike,
    mode: str,
    distribution: str,
    in_axis: int = -2,
    out_axis: int = -1,
) -> Initializer:
    """Samples with variance ``scale / fan`` (fan_in, fan_out or their average)."""
    if mode not in ("fan_in", "fan_out", "fan_avg"):
        raise ValueError(f"invalid mode for variance scaling initializer: {mode}")

    def init(key: PRNGKeyArray, shape: Shape, dtype: DTypeLike = jnp.float32) -> Array:
        fan_in, fan_out = _compute_fans(shape, in_axis, out_axis)
        denominator = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[mode]
        variance = scale / denominator
        if distribution == "truncated_normal":
            # constant is stddev of standard normal truncated to (-2, 2)
            stddev = np.sqrt(variance) / np.float32(0.87962566103423978)
            return random.truncated_normal(key, -2, 2, shape, dtype) * stddev
        if distribution == "normal":
            return random.normal(key, shape, dtype) * np.sqrt(variance)
        if distribution == "uniform":
            limit = np.sqrt(3 * variance)
            return random.uniform(key, shape, dtype, minval=-limit, maxval=limit)
        raise ValueError(f"invalid distribution for variance scaling initializer: {distribution}")

    return init


def lecun_normal() -> Initializer:
    return variance_scaling(1.0, "fan_in", "truncated_normal")


def glorot_uniform() -> Initializer:
    return variance_scaling(1.0, "fan_avg", "uniform")


def he_normal() -> Initializer:
    return variance_scaling(2.0, "fan_in", "truncated_normal")


# --------------------------------------------------------------------------------------
# Layers
# --------------------------------------------------------------------------------------


class DenseParams(NamedTuple):
    w: Array
    b: Optional[Array]


def dense_init(
    key: PRNGKeyArray,
    in_features: int,
    out_features: int,
    *,
    use_bias: bool = True,
    w_init: Initializer = lecun_normal(),
    b_init: Initializer = zeros_init,
    dtype: DTypeLike = jnp.float32,
) -> DenseParams:
    w_key, b_key = random.split(key)
    w = w_init(w_key, (in_features, out_features), dtype)
    b = b_init(b_key, (out_features,), dtype) if use_bias else None
    return DenseParams(w, b)


def dense_apply(params: DenseParams, x: Array) -> Array:
    y = lax.dot_general(x, params.w, (((x.ndim - 1,), (0,)), ((), ())))
    if params.b is not None:
        y = y + params.b
    return y


class ConvParams(NamedTuple):
    w: Array  # (*kernel_size, in_channels // groups, out_channels): HWIO
    b: Optional[Array]


def conv_init(
    key: PRNGKeyArray,
    in_channels: int,
    out_channels: int,
    kernel_size: Sequence[int],
    *,
    feature_group_count: int = 1,
    use_bias: bool = True,
    w_init: Initializer = he_normal(),
) -> ConvParams:
    if in_channels % feature_group_count:
        raise ValueError("in_channels must be divisible by feature_group_count")
    w_key, _ = random.split(key)
    shape = (*kernel_size, in_channels // feature_group_count, out_channels)
    w = w_init(w_key, shape, jnp.float32)
    return ConvParams(w, jnp.zeros((out_channels,)) if use_bias else None)


def _same_padding(in_size: int, kernel: int, stride: int, dilation: int) -> tuple[int, int]:
    effective = (kernel - 1) * dilation + 1
    out_size = -(-in_size // stride)
    total = max((out_size - 1) * stride + effective - in_size, 0)
    return total // 2, total - total // 2


def conv_apply(
    params: ConvParams,
    x: Array,
    *,
    strides: Sequence[int] = (1, 1),
    padding: Padding = "SAME",
    dilation: Sequence[int] = (1, 1),
    feature_group_count: int = 1,
    padding_mode: str = "constant",
) -> Array:
    """A 2-D convolution of NHWC inputs; ``padding_mode`` is ``jnp.pad``'s mode for the
    border (``"constant"``, ``"reflect"``, ``"wrap"``, ``"edge"``...)."""
    kernel_size = params.w.shape[:-2]
    if padding_mode != "constant":
        if padding == "SAME":
            pads = [
                _same_padding(x.shape[1 + i], k, s, d)
                for i, (k, s, d) in enumerate(zip(kernel_size, strides, dilation))
            ]
        elif isinstance(padding, str):
            pads = [(0, 0)] * len(kernel_size)
        else:
            pads = list(padding)
        x = jnp.pad(x, [(0, 0), *pads, (0, 0)], mode=padding_mode)
        padding = "VALID"
    y = lax.conv_general_dilated(
        x,
        params.w,
        window_strides=strides,
        padding=padding,
        rhs_dilation=dilation,
        dimension_numbers=("NHWC", "HWIO", "NHWC"),
        feature_group_count=feature_group_count,
    )
    if params.b is not None:
        y = y + params.b
    return y


def avg_pool(x: Array, window: Sequence[int], strides: Optional[Sequence[int]] = None) -> Array:
    strides = window if strides is None else strides
    dims = (1, *window, 1)
    summed = lax.reduce_window(x, 0.0, lax.add, dims, (1, *strides, 1), "VALID")
    return summed / math.prod(window)


class LayerNormParams(NamedTuple):
    scale: Optional[Array]
    offset: Optional[Array]


def layer_norm_init(features: int, *, use_scale: bool = True, use_offset: bool = True) -> LayerNormParams:
    return LayerNormParams(
        scale=jnp.ones((features,)) if use_scale else None,
        offset=jnp.zeros((features,)) if use_offset else None,
    )


def layer_norm_apply(params: LayerNormParams, x: Array, *, eps: float = 1e-5) -> Array:
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    y = (x - mean) * lax.rsqrt(var + eps)
    if params.scale is not None:
        y = y * params.scale
    if params.offset is not None:
        y = y + params.offset
    return y


def rms_norm_apply(scale: Array, x: Array, eps: float = 1e-6) -> Array:
    ms = jnp.mean(jnp.square(x), axis=-1, keepdims=True)
    return x * lax.rsqrt(ms + eps) * scale


def dropout(key: Optional[PRNGKeyArray], rate: float, x: Array, *, deterministic: bool) -> Array:
    """Zeroes a fraction ``rate`` of ``x`` and rescales the rest (identity when deterministic)."""
    if deterministic or rate == 0.0:
        return x
    if key is None:
        raise ValueError("dropout needs a PRNG key when not deterministic")
    keep_prob = 1.0 - rate
    mask = random.bernoulli(key, keep_prob, x.shape)
    return lax.select(mask, x / keep_prob, jnp.zeros_like(x))


class MLPParams(NamedTuple):
    layers: list[DenseParams]


def mlp_init(key: PRNGKeyArray, sizes: Sequence[int]) -> MLPParams:
    keys = random.split(key, len(sizes) - 1)
    return MLPParams([dense_init(k, m, n) for k, m, n in zip(keys, sizes[:-1], sizes[1:])])


def mlp_apply(
    params: MLPParams,
    x: Array,
    *,
    activation: Activation = gelu,
    key: Optional[PRNGKeyArray] = None,
    dropout_rate: float = 0.0,
    deterministic: bool = True,
) -> Array:
    keys: list[Optional[PRNGKeyArray]] = (
        list(random.split(key, len(params.layers))) if key is not None else [None] * len(params.layers)
    )
    for i, (layer, k) in enumerate(zip(params.layers, keys)):
        x = dense_apply(layer, x)
        if i < len(params.layers) - 1:
            x = dropout(k, dropout_rate, activation(x), deterministic=deterministic)
    return x


def segment_sum(data: Array, segment_ids: Array, num_segments: int) -> Array:
    """Sums the rows of ``data`` that share a segment id."""
    dnums = lax.ScatterDimensionNumbers(
        update_window_dims=range(1, data.ndim),
        inserted_window_dims=(0,),
        scatter_dims_to_operand_dims=(0,),
    )
    out = jnp.zeros((num_segments, *data.shape[1:]), data.dtype)
    return lax.scatter_add(out, segment_ids[:, None], data, dnums)


def embedding_bag(table: Array, ids: Array, bag_ids: Array, num_bags: int) -> Array:
    """The mean embedding of the ids in each bag (an empty bag gives zeros)."""
    sums = segment_sum(table[ids], bag_ids, num_bags)
    counts = segment_sum(jnp.ones_like(ids, dtype=table.dtype), bag_ids, num_bags)
    return sums / jnp.maximum(counts, 1.0)[:, None]


# --------------------------------------------------------------------------------------
# Attention
# --------------------------------------------------------------------------------------


class AttentionParams(NamedTuple):
    query: DenseParams
    key: DenseParams
    value: DenseParams
    out: DenseParams


def attention_init(key: PRNGKeyArray, model_size: int, num_heads: int, key_size: int) -> AttentionParams:
    kq, kk, kv, ko = random.split(key, 4)
    inner = num_heads * key_size
    return AttentionParams(
        query=dense_init(kq, model_size, inner, use_bias=False),
        key=dense_init(kk, model_size, inner, use_bias=False),
        value=dense_init(kv, model_size, inner, use_bias=False),
        out=dense_init(ko, inner, model_size, w_init=glorot_uniform()),
    )


def causal_mask(length: int) -> Array:
    return jnp.tril(jnp.ones((length, length), dtype=jnp.bool_))


def dot_product_attention(
    query: Array, key: Array, value: Array, mask: Optional[Array] = None
) -> Array:
    """Attention of ``[..., q, heads, d]`` queries over ``[..., k, heads, d]`` keys."""
    depth = query.shape[-1]
    logits = jnp.einsum("...qhd,...khd->...hqk", query, key) / math.sqrt(depth)
    if mask is not None:
        logits = jnp.where(mask, logits, jnp.finfo(logits.dtype).min)
    weights = softmax(logits, axis=-1)
    return jnp.einsum("...hqk,...khd->...qhd", weights, value)


def single_head_attention(q: Array, k: Array, v: Array) -> Array:
    """Attention of ``[q, d]`` queries over ``[k, d]`` keys, for one head."""
    logits = q @ k.T / math.sqrt(q.shape[-1])
    return softmax(logits) @ v


def attention_apply(
    params: AttentionParams, x: Array, *, num_heads: int, mask: Optional[Array] = None
) -> Array:
    *leading, _ = x.shape

    def heads(p: DenseParams) -> Array:
        return jnp.reshape(dense_apply(p, x), (*leading, num_heads, -1))

    q, k, v = heads(params.query), heads(params.key), heads(params.value)
    out = dot_product_attention(q, k, v, mask)
    return dense_apply(params.out, jnp.reshape(out, (*leading, -1)))


def attention_apply_vmapped(params: AttentionParams, x: Array, *, num_heads: int) -> Array:
    """Unmasked attention of one ``[length, model]`` sequence, per head with ``vmap``."""
    length, _ = x.shape

    def heads(p: DenseParams) -> Array:
        return jnp.reshape(dense_apply(p, x), (length, num_heads, -1))

    q, k, v = heads(params.query), heads(params.key), heads(params.value)
    per_head = jax.vmap(lambda *qkv: single_head_attention(*qkv), in_axes=1, out_axes=1)(q, k, v)
    return dense_apply(params.out, jnp.reshape(per_head, (length, -1)))


class KVCache(NamedTuple):
    keys: Array
    values: Array
    cache_index: Array


def init_kv_cache(batch: int, max_length: int, num_heads: int, head_size: int) -> KVCache:
    spec = jax.ShapeDtypeStruct((batch, max_length, num_heads, head_size), jnp.float32)
    return KVCache(jnp.zeros_like(spec), jnp.zeros_like(spec), jnp.zeros((), jnp.int32))


def cache_update(cache: KVCache, k: Array, v: Array) -> KVCache:
    """Writes one step's ``[batch, 1, heads, d]`` keys and values at ``cache.cache_index``."""
    start = (0, cache.cache_index, 0, 0)
    return KVCache(
        lax.dynamic_update_slice(cache.keys, k, start),
        lax.dynamic_update_slice(cache.values, v, start),
        cache.cache_index + 1,
    )


# --------------------------------------------------------------------------------------
# Transformer
# --------------------------------------------------------------------------------------


class BlockParams(NamedTuple):
    ln1: LayerNormParams
    attn: AttentionParams
    ln2: LayerNormParams
    mlp: MLPParams


def block_init(key: PRNGKeyArray, model_size: int, num_heads: int, mlp_ratio: int = 4) -> BlockParams:
    attn_key, mlp_key = random.split(key)
    return BlockParams(
        ln1=layer_norm_init(model_size),
        attn=attention_init(attn_key, model_size, num_heads, model_size // num_heads),
        ln2=layer_norm_init(model_size),
        mlp=mlp_init(mlp_key, [model_size, mlp_ratio * model_size, model_size]),
    )


@partial(jax.checkpoint, static_argnums=(2,))
def block_apply(params: BlockParams, x: Array, num_heads: int, mask: Optional[Array]) -> Array:
    """A pre-norm transformer block; its activations are recomputed on the backward pass."""
    h = x + attention_apply(params.attn, layer_norm_apply(params.ln1, x), num_heads=num_heads, mask=mask)
    return h + mlp_apply(params.mlp, layer_norm_apply(params.ln2, h))


def stack_trees(trees: Sequence[BlockParams]) -> BlockParams:
    """Stacks the leaves of identically-structured pytrees along a new leading axis."""
    stacked: BlockParams = jax.tree.map(lambda *leaves: jnp.stack(leaves), *trees)
    return stacked


class TransformerParams(NamedTuple):
    embed: Array
    position: Array
    blocks: BlockParams  # each leaf has a leading [num_layers] axis
    ln_f: LayerNormParams


def transformer_init(
    key: PRNGKeyArray,
    vocab_size: int,
    max_length: int,
    model_size: int,
    num_heads: int,
    num_layers: int,
) -> TransformerParams:
    embed_key, pos_key, *block_keys = random.split(key, num_layers + 2)
    return TransformerParams(
        embed=random.normal(embed_key, (vocab_size, model_size)) * 0.02,
        position=random.normal(pos_key, (max_length, model_size)) * 0.01,
        blocks=stack_trees([block_init(k, model_size, num_heads) for k in block_keys]),
        ln_f=layer_norm_init(model_size),
    )


def transformer_apply(params: TransformerParams, tokens: Array, *, num_heads: int) -> Array:
    """Causal language-model logits ``[batch, length, vocab]``; the blocks run in a scan."""
    length = tokens.shape[-1]
    x = params.embed[tokens] + params.position[:length]
    mask = causal_mask(length)

    def layer(h: Array, block: BlockParams) -> tuple[Array, Array]:
        h = block_apply(block, h, num_heads, mask)
        return h, jnp.mean(jnp.square(h))

    h, activation_norms = lax.scan(layer, x, params.blocks)
    assert_type(h, Array)
    assert_type(activation_norms, Array)
    h = layer_norm_apply(params.ln_f, h)
    return h @ params.embed.T


# --------------------------------------------------------------------------------------
# A small convolutional classifier
# --------------------------------------------------------------------------------------


class CNNParams(NamedTuple):
    conv1: ConvParams
    conv2: ConvParams
    ln: LayerNormParams
    head: DenseParams


def cnn_init(key: PRNGKeyArray, image_shape: tuple[int, int, int], num_classes: int) -> CNNParams:
    height, width, channels = image_shape
    k1, k2, k3 = random.split(key, 3)
    feature_shape = (height // 2, width // 2, 8)
    num_features = int(np.prod(feature_shape))
    return CNNParams(
        conv1=conv_init(k1, channels, 8, (3, 3)),
        conv2=conv_init(k2, 8, 8, (3, 3), feature_group_count=2),
        ln=layer_norm_init(num_features),
        head=dense_init(k3, num_features, num_classes),
    )


def cnn_apply(
    params: CNNParams,
    images: Array,
    key: Optional[PRNGKeyArray] = None,
    *,
    deterministic: bool = True,
    padding_mode: str = "reflect",
) -> Array:
    x = relu(conv_apply(params.conv1, images, padding_mode=padding_mode))
    x = relu(conv_apply(params.conv2, x, feature_group_count=2))
    x = avg_pool(x, (2, 2))
    x = jnp.reshape(x, (x.shape[0], -1))
    x = dropout(key, 0.1, layer_norm_apply(params.ln, x), deterministic=deterministic)
    return dense_apply(params.head, x)


# --------------------------------------------------------------------------------------
# Training
# --------------------------------------------------------------------------------------

Batch = tuple[Array, Array]
Metrics = dict[str, Array]


class TrainState(NamedTuple):
    step: Array
    params: CNNParams
    momentum: CNNParams


def cross_entropy(logits: Array, labels: Array) -> Array:
    return -jnp.mean(jnp.sum(one_hot(labels, logits.shape[-1]) * log_softmax(logits), axis=-1))


def global_norm(tree: Any) -> Array:
    return jnp.sqrt(sum((jnp.sum(jnp.square(x)) for x in jax.tree.leaves(tree)), start=jnp.zeros(())))


def l2_penalty(params: CNNParams, weight: ArrayLike) -> Array:
    squares = [jnp.sum(jnp.square(p)) for p in jax.tree.leaves(params)]
    return jnp.asarray(weight) * sum(squares, start=jnp.zeros(()))


def loss_fn(params: CNNParams, batch: Batch, key: PRNGKeyArray) -> tuple[Array, Metrics]:
    images, labels = batch
    logits = cnn_apply(params, images, key, deterministic=False)
    loss = cross_entropy(logits, labels) + l2_penalty(params, 1e-4)
    accuracy = jnp.mean(jnp.argmax(logits, -1) == labels)
    return loss, {"loss": loss, "accuracy": accuracy}


def train_state_init(key: PRNGKeyArray, image_shape: tuple[int, int, int], num_classes: int) -> TrainState:
    params = cnn_init(key, image_shape, num_classes)
    momentum: CNNParams = jax.tree.map(jnp.zeros_like, params)
    return TrainState(jnp.zeros((), jnp.int32), params, momentum)


@partial(jax.jit, static_argnames=("learning_rate", "beta"))
def train_step(
    state: TrainState, batch: Batch, key: PRNGKeyArray, learning_rate: float = 0.05, beta: float = 0.9
) -> tuple[TrainState, Metrics]:
    (loss, metrics), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params, batch, key)
    momentum: CNNParams = jax.tree.map(lambda m, g: beta * m + g, state.momentum, grads)
    params: CNNParams = jax.tree.map(lambda p, m: p - learning_rate * m, state.params, momentum)
    metrics = {**metrics, "grad_norm": global_norm(grads), "loss": loss}
    return TrainState(state.step + 1, params, momentum), metrics


@jax.jit
def eval_step(params: CNNParams, batch: Batch) -> Metrics:
    images, labels = batch
    logits = cnn_apply(params, images)
    return {"accuracy": jnp.mean(jnp.argmax(logits, -1) == labels)}


@jax.jit
def per_example_grad_norms(params: CNNParams, batch: Batch) -> Array:
    def single_loss(p: CNNParams, image: Array, label: Array) -> Array:
        logits = cnn_apply(p, image[None])
        return cross_entropy(logits, label[None])

    grads = jax.vmap(jax.grad(single_loss), in_axes=[None, 0, 0])(params, *batch)
    assert_type(grads, CNNParams)
    return jax.vmap(global_norm)(grads)


def confusion_matrix(predictions: Array, labels: Array, num_classes: int) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Host-side metric: counts of (label, prediction) pairs."""
    n = np.int32(num_classes)
    flat = jnp.zeros((n * n,), jnp.int32).at[labels * n + predictions].add(1)
    return np.asarray(flat).reshape(num_classes, num_classes).astype(np.int64)


# --------------------------------------------------------------------------------------
# Modules with jitted methods (equinox style)
# --------------------------------------------------------------------------------------


@jax.tree_util.register_pytree_node_class
class Linear:
    """A pytree module: its arrays are traced when a jitted method receives ``self``."""

    def __init__(self, weight: Array, bias: Array) -> None:
        self.weight = weight
        self.bias = bias

    @classmethod
    def create(cls, key: PRNGKeyArray, in_features: int, out_features: int) -> "Linear":
        params = dense_init(key, in_features, out_features)
        assert params.b is not None
        return cls(params.w, params.b)

    def tree_flatten(self) -> tuple[tuple[Array, Array], None]:
        return (self.weight, self.bias), None

    @classmethod
    def tree_unflatten(cls, aux: None, children: tuple[Array, Array]) -> "Linear":
        return cls(*children)

    @jax.jit
    def __call__(self, x: Array) -> Array:
        return x @ self.weight + self.bias


@jax.tree_util.register_pytree_node_class
class MLP:
    def __init__(self, layers: list[Linear]) -> None:
        self.layers = layers

    @classmethod
    def create(cls, key: PRNGKeyArray, sizes: Sequence[int]) -> "MLP":
        keys = random.split(key, len(sizes) - 1)
        return cls([Linear.create(k, m, n) for k, m, n in zip(keys, sizes[:-1], sizes[1:])])

    def tree_flatten(self) -> tuple[tuple[list[Linear]], None]:
        return (self.layers,), None

    @classmethod
    def tree_unflatten(cls, aux: None, children: tuple[list[Linear]]) -> "MLP":
        return cls(*children)

    @jax.jit
    def __call__(self, x: Array) -> Array:
        for layer in self.layers[:-1]:
            x = gelu(layer(x))
        return self.layers[-1](x)

    @partial(jax.jit, static_argnames=("deterministic",))
    def noisy(self, x: Array, key: PRNGKeyArray, deterministic: bool = False) -> Array:
        for layer in self.layers[:-1]:
            key, sub = random.split(key)
            x = dropout(sub, 0.5, gelu(layer(x)), deterministic=deterministic)
        return self.layers[-1](x)


class Config(NamedTuple):
    """Static hyperparameters: hashable, so they can be a static argument."""

    num_heads: int = 2
    model_size: int = 8
    vocab_size: int = 11
    max_length: int = 6
    num_layers: int = 2


class LanguageModel:
    def __init__(self, config: Config) -> None:
        self.config = config

    def __hash__(self) -> int:
        return hash(self.config)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LanguageModel) and other.config == self.config

    def init(self, key: PRNGKeyArray) -> TransformerParams:
        c = self.config
        return transformer_init(key, c.vocab_size, c.max_length, c.model_size, c.num_heads, c.num_layers)

    @partial(jax.jit, static_argnums=0)
    def logits(self, params: TransformerParams, tokens: Array) -> Array:
        return transformer_apply(params, tokens, num_heads=self.config.num_heads)

    def loss(self, params: TransformerParams, tokens: Array) -> Array:
        logits = transformer_apply(params, tokens[:, :-1], num_heads=self.config.num_heads)
        return cross_entropy(jnp.reshape(logits, (-1, logits.shape[-1])), jnp.reshape(tokens[:, 1:], (-1,)))


# --------------------------------------------------------------------------------------
# Demo
# --------------------------------------------------------------------------------------


def _demo() -> None:
    key = random.PRNGKey(0)
    data_key, init_key, drop_key, lm_key, mlp_key = random.split(key, 5)

    # Activations and custom derivatives.
    x = jnp.linspace(-3.0, 3.0, 7)
    assert jnp.allclose(softmax(x).sum(), 1.0)
    assert jnp.allclose(gelu(x, approximate=False), gelu(x), atol=1e-2)
    assert jnp.allclose(jax.grad(lambda v: jnp.sum(softplus(v)))(x), jax.scipy.special.expit(x))
    assert_type(softplus(x), Array)
    zero_grad = jax.grad(lambda v: jnp.sum(safe_norm(v)))(jnp.zeros((2, 3)))
    assert not bool(jnp.any(jnp.isnan(zero_grad)))
    assert_type(safe_norm(x[None], 1e-6), Array)
    clipped = jax.grad(lambda v: jnp.sum(3.0 * clip_gradient(-1.0, 1.0, v)))(x)
    assert float(jnp.max(clipped)) == 1.0
    assert_type(clip_gradient(-1.0, 1.0, x), Array)

    # A convolutional classifier trained with momentum SGD.
    images = random.normal(data_key, (8, 6, 6, 2))
    labels = jnp.arange(8) % 3
    batch: Batch = (images, labels)
    state = jax.jit(train_state_init, static_argnums=(1, 2))(init_key, (6, 6, 2), 3)
    assert_type(state.params, CNNParams)
    logits = jax.jit(cnn_apply)(state.params, images)
    assert_type(logits, Array)
    assert logits.shape == (8, 3)
    first_loss = None
    metrics: Metrics = {}
    for step_key in random.split(drop_key, 8):
        state, metrics = train_step(state, batch, step_key)
        first_loss = float(metrics["loss"]) if first_loss is None else first_loss
    assert first_loss is not None and float(metrics["loss"]) < first_loss
    assert int(state.step) == 8
    accuracy = eval_step(state.params, batch)["accuracy"]
    assert_type(accuracy, Array)

    (loss, aux), grads = jax.jit(jax.value_and_grad(loss_fn, has_aux=True))(state.params, batch, drop_key)
    assert_type((loss, aux), tuple[Array, Metrics])
    assert_type(grads, CNNParams)
    assert_type(jax.grad(l2_penalty)(state.params, 0.5), CNNParams)
    norms = per_example_grad_norms(state.params, batch)
    assert_type(norms, Array)
    assert norms.shape == (8,)
    cm = confusion_matrix(jnp.argmax(logits, -1), labels, 3)
    assert cm.sum() == 8 and cm.shape == (3, 3)

    # Dense layers: vmap over a batch with a list in_axes, and eval_shape.
    dense = dense_init(init_key, 3, 2)
    xs = jnp.ones((5, 3))
    ys = jax.vmap(dense_apply, in_axes=[None, 0])(dense, xs)
    assert_type(ys, Array)
    assert ys.shape == (5, 2)
    out_spec = jax.eval_shape(dense_apply, dense, xs)
    assert_type(out_spec, jax.ShapeDtypeStruct)
    assert out_spec.shape == (5, 2)
    assert jnp.zeros_like(out_spec).shape == (5, 2)
    jacobian = jax.jacrev(dense_apply, argnums=1)(dense, xs[0])
    assert_type(jacobian, Array)
    assert jacobian.shape == (2, 3)

    # Attention: two implementations agree; a KV cache is filled step by step.
    attn = attention_init(init_key, 8, num_heads=2, key_size=4)
    seq = random.normal(data_key, (4, 8))
    full = attention_apply(attn, seq, num_heads=2)
    per_head = attention_apply_vmapped(attn, seq, num_heads=2)
    assert jnp.allclose(full, per_head, atol=1e-5)
    batched = jax.vmap(partial(attention_apply, num_heads=2, mask=causal_mask(4)), in_axes=(None, 0))(attn, seq[None])
    assert_type(batched, Array)
    cache = init_kv_cache(1, 4, 2, 4)
    for t in range(3):
        step_kv = jnp.full((1, 1, 2, 4), float(t))
        cache = cache_update(cache, step_kv, step_kv)
    assert_type(cache, KVCache)
    assert int(cache.cache_index) == 3 and float(cache.keys[0, 2, 0, 0]) == 2.0

    # Embedding bags through a scatter-add.
    table = jnp.arange(12.0).reshape(6, 2)
    bags = jax.jit(embedding_bag, static_argnums=3)(table, jnp.array([0, 1, 5]), jnp.array([0, 0, 2]), 3)
    assert_type(bags, Array)
    assert bags.tolist() == [[1.0, 2.0], [0.0, 0.0], [10.0, 11.0]]

    # Padding modes.
    padded_reflect = jnp.pad(jnp.arange(4.0), 2, mode="reflect")
    conv = conv_init(init_key, 2, 4, (3, 3))
    padded_conv = jax.jit(conv_apply, static_argnames=("padding_mode", "strides"))
    for mode in ("constant", "reflect", "wrap", "edge"):
        y = padded_conv(conv, images[:2], padding_mode=mode)
        assert y.shape == (2, 6, 6, 4), (mode, y.shape)
    assert float(padded_reflect[0]) == 2.0

    # A small language model: blocks stacked and scanned, gradients through checkpoint.
    lm = LanguageModel(Config())
    lm_params = jax.jit(lm.init)(lm_key)
    tokens = random.randint(lm_key, (2, 6), 0, 11)
    lm_logits: Array = lm.logits(lm_params, tokens)
    assert lm_logits.shape == (2, 6, 11)
    lm_loss, lm_grads = jax.jit(jax.value_and_grad(lm.loss))(lm_params, tokens)
    assert_type(lm_grads, TransformerParams)
    assert_type(lm_loss, Array)
    assert lm_grads.blocks.mlp.layers[0].w.shape == (2, 8, 32)
    assert bool(jnp.isfinite(lm_loss))

    # Modules with jitted methods.
    mlp = MLP.create(mlp_key, [3, 16, 2])
    out = mlp(xs)
    assert_type(out, Array)
    noisy: Array = mlp.noisy(xs, drop_key)
    assert noisy.shape == out.shape == (5, 2)
    layer_out = mlp.layers[0](xs)
    assert_type(layer_out, Array)
    mlp_grads = jax.grad(lambda m: jnp.sum(m(xs)))(mlp)
    assert isinstance(mlp_grads, MLP)

    # NumPy interop.
    host = np.asarray(out)
    assert host.dtype == np.float32 and host.shape == (5, 2)
    fans = _compute_fans((3, 3, 4, 8))
    assert fans == (36.0, 72.0)
    init = variance_scaling(np.float32(2.0), "fan_avg", "normal")
    w = init(init_key, (64, 64), jnp.float32)
    assert abs(float(jnp.std(w)) - math.sqrt(2.0 / 64)) < 0.03
    print("nn_lib demo: ok")


if __name__ == "__main__":
    _demo()
