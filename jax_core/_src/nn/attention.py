"""``dot_product_attention``: scaled dot-product attention (multi-head, grouped-query and
multi-query), with bias, boolean and causal masks, padding by sequence lengths and local windows.

The XLA path is JAX's, operation for operation: logits ``einsum('BTNH,BSNH->BNTS')`` in at least
float32, scaled, biased, masked with a large negative number, a float32 softmax, and the weighted
sum of values; grouped heads are a ``vmap`` over the group axis. ``implementation='cudnn'`` needs
an NVIDIA GPU, which jax_core (CPU only) has not: it raises.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, overload

import numpy as np

import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src import dtypes
from jax_core._src.nn.normalization import softmax
from jax_core._src.scipy.special import logsumexp
from jax_core._src.transforms.vmap_api import vmap
from jax_core._src.typing import ArrayLike, DType
from jax_core._src.typing.basearray import Array

__all__ = ["dot_product_attention"]

Window = tuple[int, int]


def _large_negative(dtype: DType) -> Array:
    """``-0.7 * max`` of ``dtype``, capped at float32's range (the softmax runs in float32)."""
    # NumPy scalars, as JAX: -0.7 * max is rounded in the (smaller) type of the two maxima.
    dtype_max = min(dtypes.finfo(dtype).max, dtypes.finfo(np.float32).max)
    return jnp.asarray(-0.7 * dtype_max, dtype=dtype)


def _causal_mask(t: int, s: int) -> Array:
    return jnp.tril(jnp.ones((t, s), dtype=bool))[None, None, :, :]


def _window_mask(t: int, s: int, window: Window) -> Array:
    query_pos = jnp.array(range(t))
    key_pos = jnp.array(range(s))
    left, right = window
    left_mask = query_pos[..., None] <= key_pos[..., None, :] + left
    right_mask = query_pos[..., None] >= key_pos[..., None, :] - right
    return jnp.logical_and(right_mask, left_mask)[None, None, :, :]


def _padding_mask_logits(t: int, s: int, q_seqlen: Array | None, kv_seqlen: Array | None) -> Array:
    q_mask: ArrayLike = True
    kv_mask: ArrayLike = True
    if q_seqlen is not None:
        q_mask = jnp.arange(0, t)[None, :, None] < q_seqlen[:, None, None]
    if kv_seqlen is not None:
        kv_mask = jnp.arange(0, s)[None, None, :] < kv_seqlen[:, None, None]
    return jnp.logical_and(q_mask, kv_mask)[:, None, :, :]


def _padding_mask_encoded(t: int, q_seqlen: Array) -> Array:
    mask = jnp.arange(0, t)[None, :] < q_seqlen[:, None]
    return mask[:, :, None, None]


def _apply_masks(
    logits: Array,
    mask: Array | None,
    is_causal: bool,
    q_seqlen: Array | None,
    kv_seqlen: Array | None,
    window: Window | None,
) -> Array:
    if mask is None and not is_causal and q_seqlen is None and kv_seqlen is None and window is None:
        return logits
    combined = jnp.ones_like(logits, dtype=bool)
    if mask is not None:
        assert mask.dtype == np.dtype(bool)
        combined = jnp.logical_and(combined, mask)
    t, s = logits.shape[2], logits.shape[3]
    if is_causal:
        combined = jnp.logical_and(combined, _causal_mask(t, s))
    if window is not None:
        combined = jnp.logical_and(combined, _window_mask(t, s, window))
    if q_seqlen is not None or kv_seqlen is not None:
        combined = jnp.logical_and(combined, _padding_mask_logits(t, s, q_seqlen, kv_seqlen))
    return jnp.where(combined, logits, _large_negative(logits.dtype))


# The two contractions are JAX's ``einsum("BTNH,BSNH->BNTS", query, key)`` and
# ``einsum("BNTS,BSNH->BTNH", probs, value)`` written as the ``dot_general``s JAX's einsum emits
# (opt_einsum hands it the operands in reverse order, and it keeps the order that needs no
# transpose): under the group ``vmap`` the operand order decides the batched layout, and so the
# last bits of the result.
def _logits(query: Array, key: Array, precision: lax.DotAlgorithmPreset | None, dtype: DType) -> Array:
    return lax.dot_general(query, key, (((3,), (3,)), ((0, 2), (0, 2))), precision=precision, preferred_element_type=dtype)


def _weighted_values(probs: Array, value: Array) -> Array:
    out = lax.dot_general(value, probs, (((1,), (3,)), ((0, 2), (0, 1))), preferred_element_type=value.dtype)
    return lax.transpose(out, (0, 3, 1, 2))  # B N H T -> B T N H


def _attention_core(
    query: Array,
    key: Array,
    value: Array,
    bias: Array | None,
    mask: Array | None,
    is_causal: bool,
    scale: float,
    q_seqlen: Array | None,
    kv_seqlen: Array | None,
    window: Window | None,
    return_residual: bool,
) -> Array | tuple[Array, Array]:
    logits_dtype = jnp.promote_types(query.dtype, np.float32)
    # Half-precision inputs ask for float32 accumulation explicitly; a platform without that
    # algorithm (CPU for float16) refuses it, and the default precision is used instead, as in JAX.
    if query.dtype == dtypes.bfloat16:
        precision: lax.DotAlgorithmPreset | None = lax.DotAlgorithmPreset.BF16_BF16_F32
    elif query.dtype == np.float16:
        precision = lax.DotAlgorithmPreset.F16_F16_F32
    else:
        precision = None
    try:
        logits = _logits(query, key, precision, logits_dtype)
    except Exception:  # noqa: BLE001  (JAX's fallback: any failure retries with the default)
        logits = _logits(query, key, None, logits_dtype)
    logits = logits * jnp.array(scale, dtype=logits.dtype)
    if bias is not None:
        logits = (logits + bias).astype(logits.dtype)
    padded = _apply_masks(logits, mask, is_causal, q_seqlen, kv_seqlen, window)
    padded = padded.astype(np.float32)  # the softmax always runs in float32
    probs = softmax(padded, axis=-1).astype(key.dtype)
    encoded = _weighted_values(probs, value)
    if q_seqlen is not None:
        encoded = encoded * _padding_mask_encoded(encoded.shape[1], q_seqlen).astype(encoded.dtype)
    if return_residual:
        lse = logsumexp(padded, axis=-1).astype(key.dtype)
        lse = jnp.transpose(lse, (0, 2, 1))  # B N T -> B T N
        return encoded, lax.stop_gradient(lse)
    return encoded


def _attention_xla(
    query: Array,
    key: Array,
    value: Array,
    bias: Array | None,
    mask: Array | None,
    is_causal: bool,
    scale: float,
    q_seqlen: Array | None,
    kv_seqlen: Array | None,
    window: Window | None,
    return_residual: bool,
) -> Array | tuple[Array, Array]:
    b, t, n, h = query.shape
    k_heads = key.shape[2]
    g = n // k_heads
    query = jnp.reshape(query, (b, t, k_heads, g, h))

    def grouped(x: Array | None) -> Array | None:
        if x is None:
            return None
        xb, xn, xt, xs = x.shape
        if xn == 1:
            return jnp.broadcast_to(x[:, :, None, :, :], (xb, xn, g, xt, xs))
        assert xn == n
        return jnp.reshape(x, (xb, k_heads, g, xt, xs))

    batched = vmap(_attention_core, in_axes=(3, None, None, 2, 2, None, None, None, None, None, None), out_axes=3)
    out = batched(query, key, value, grouped(bias), grouped(mask), is_causal, scale, q_seqlen, kv_seqlen, window, return_residual)
    if isinstance(out, tuple):
        encoded, lse = out
        return jnp.reshape(encoded, (b, t, n, h)), jnp.reshape(lse, (b, t, n))
    return jnp.reshape(out, (b, t, n, h))


def _as_4d(x: ArrayLike) -> Array:
    arr = jnp.asarray(x)
    missing = 4 - arr.ndim
    return jnp.expand_dims(arr, axis=tuple(range(missing))) if missing > 0 else arr


def _check(x: Array | None, shape: Sequence[int], dtype: DType | None, name: str) -> None:
    if x is None:
        return
    if x.ndim != len(shape):
        raise ValueError(f"{name} ndim should be {len(shape)}, but got {x.ndim}")
    if dtype is not None and x.dtype != dtype:
        raise ValueError(f"{name} dtype should be {dtype}, but got {x.dtype}")
    for i in range(x.ndim):
        if shape[i] != -1 and x.shape[i] != shape[i]:
            raise ValueError(f"{name} shape should be {list(shape)}: but got {x.shape}")


@overload
def dot_product_attention(
    query: ArrayLike,
    key: ArrayLike,
    value: ArrayLike,
    bias: ArrayLike | None = None,
    mask: ArrayLike | None = None,
    *,
    scale: float | None = None,
    is_causal: bool = False,
    query_seq_lengths: ArrayLike | None = None,
    key_value_seq_lengths: ArrayLike | None = None,
    local_window_size: int | tuple[int, int] | None = None,
    implementation: Literal["xla", "cudnn"] | None = None,
    return_residual: Literal[False] = ...,
) -> Array: ...
@overload
def dot_product_attention(
    query: ArrayLike,
    key: ArrayLike,
    value: ArrayLike,
    bias: ArrayLike | None = None,
    mask: ArrayLike | None = None,
    *,
    scale: float | None = None,
    is_causal: bool = False,
    query_seq_lengths: ArrayLike | None = None,
    key_value_seq_lengths: ArrayLike | None = None,
    local_window_size: int | tuple[int, int] | None = None,
    implementation: Literal["xla", "cudnn"] | None = None,
    return_residual: Literal[True],
) -> tuple[Array, Array]: ...
@overload
def dot_product_attention(
    query: ArrayLike,
    key: ArrayLike,
    value: ArrayLike,
    bias: ArrayLike | None = None,
    mask: ArrayLike | None = None,
    *,
    scale: float | None = None,
    is_causal: bool = False,
    query_seq_lengths: ArrayLike | None = None,
    key_value_seq_lengths: ArrayLike | None = None,
    local_window_size: int | tuple[int, int] | None = None,
    implementation: Literal["xla", "cudnn"] | None = None,
    return_residual: bool = False,
) -> Array | tuple[Array, Array]: ...
def dot_product_attention(
    query: ArrayLike,
    key: ArrayLike,
    value: ArrayLike,
    bias: ArrayLike | None = None,
    mask: ArrayLike | None = None,
    *,
    scale: float | None = None,
    is_causal: bool = False,
    query_seq_lengths: ArrayLike | None = None,
    key_value_seq_lengths: ArrayLike | None = None,
    local_window_size: int | tuple[int, int] | None = None,
    implementation: Literal["xla", "cudnn"] | None = None,
    return_residual: bool = False,
) -> Array | tuple[Array, Array]:
    """``softmax(Q K^T * scale + bias) V`` per head (``scale`` defaults to ``1/sqrt(H)``).

    ``query`` is ``(B, T, N, H)`` or ``(T, N, H)``; ``key`` and ``value`` ``(B, S, K, H)`` or
    ``(S, K, H)``, with ``N`` a multiple of ``K`` (grouped-query attention; ``K == 1``:
    multi-query). ``bias`` and the boolean ``mask`` (True: attend) broadcast to ``(B, N, T, S)``.
    ``is_causal`` masks future keys; ``query_seq_lengths``/``key_value_seq_lengths`` (int32,
    ``(B,)``) mask padding; ``local_window_size`` (left, right), or one int for both, limits each
    query to nearby keys. ``return_residual=True`` also returns the logsumexp of the logits,
    ``(B, T, N)``. ``implementation``: None or ``'xla'`` (the same), or ``'cudnn'`` (GPU only).
    """
    output_shape = jnp.asarray(query).shape
    residual_shape = output_shape[:-1]
    query_arr, key_arr, value_arr = _as_4d(query), _as_4d(key), _as_4d(value)
    bias_arr = _as_4d(bias) if bias is not None else None
    mask_arr = _as_4d(mask) if mask is not None else None
    q_seqlen = jnp.asarray(query_seq_lengths) if query_seq_lengths is not None else None
    kv_seqlen = jnp.asarray(key_value_seq_lengths) if key_value_seq_lengths is not None else None
    window = (local_window_size, local_window_size) if isinstance(local_window_size, int) else local_window_size

    b, s, k, h = key_arr.shape
    _check(value_arr, [b, s, k, h], key_arr.dtype, "value")
    _check(query_arr, [b, -1, -1, h], key_arr.dtype, "query")
    _check(mask_arr, [-1] * 4, np.dtype(bool), "mask")
    _check(bias_arr, [-1] * 4, None, "bias")
    _check(q_seqlen, [b], np.dtype("int32"), "query_seq_lengths")
    _check(kv_seqlen, [b], np.dtype("int32"), "key_value_seq_lengths")
    if query_arr.shape[-2] % k != 0:
        raise ValueError(
            f"The number of query heads must be a multiple of key/value heads, but got {query_arr.shape[-2]} vs {k}"
        )
    scale_val = float(1.0 / np.sqrt(h)) if scale is None else scale

    if implementation is None or implementation == "xla":
        out = _attention_xla(
            query_arr, key_arr, value_arr, bias_arr, mask_arr, is_causal, scale_val, q_seqlen, kv_seqlen, window,
            return_residual,
        )  # fmt: skip
    elif implementation == "cudnn":
        # cuDNN takes a left window only (exclusive), unless the mask is purely causal.
        causal_only = is_causal and q_seqlen is None and kv_seqlen is None
        if window is not None and not (window[1] == 0 or causal_only):
            raise ValueError(f"cuDNN doesn't support right window: {window[1]} when causal mask is not used.")
        # JAX's message where no cuDNN is installed (always so here: jax_core runs on CPU only).
        raise RuntimeError("cuDNN is not detected.")
    else:
        raise ValueError(f"Unsupported implementation option: {implementation}")
    if isinstance(out, tuple):
        encoded, residual = out
        return jnp.reshape(encoded, output_shape), jnp.reshape(residual, residual_shape)
    return jnp.reshape(out, output_shape)
