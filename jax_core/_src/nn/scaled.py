"""Block-scaled matrix products: ``scaled_matmul`` (already quantized operands with one scale per
block of the contracting dimension), ``scaled_dot_general`` (quantizes high-precision operands
to MX/NV formats, then ``scaled_matmul``, with a straight-through gradient) and the
``BlockScaleConfig`` that ``get_scaled_dot_general_config`` makes.

On CPU JAX computes ``scaled_matmul`` by converting everything to ``preferred_element_type``,
multiplying each block by its scale and calling ``dot_general``; so does this module, with the
same operations (so the same bits). The fused cuDNN kernel JAX uses on Blackwell GPUs does not
exist here.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src import dtypes
from jax_core._src.numpy.util import jitted
from jax_core._src.transforms.custom_derivatives import custom_vjp
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array

__all__ = ["BlockScaleConfig", "get_scaled_dot_general_config", "scaled_dot_general", "scaled_matmul"]

Dims = tuple[tuple[int, ...], tuple[int, ...]]
"""One operand's ``(contracting_dims, batch_dims)``."""
DotDims = tuple[tuple[Sequence[int], Sequence[int]], tuple[Sequence[int], Sequence[int]]]
"""``((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch))``, as ``lax.dot_general``'s."""
_CanonicalDotDims = tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]]


@dataclass(slots=True)
class BlockScaleConfig:
    """How ``scaled_dot_general`` quantizes one operand: ``mode`` (``'mxfp8'``, ``'mxfp4'``,
    ``'nvfp4'``), ``block_size`` elements per scale along the contracting dimension, the element
    and scale types, nvfp4's float32 ``global_scale``, and ``infer_only``."""

    mode: str
    block_size: int
    data_type: DTypeLike
    scale_type: DTypeLike
    global_scale: Array | None
    infer_only: bool


# --------------------------------------------------------------------------------- scaled_matmul


@jitted(("preferred_element_type",), inline=False)
def _scaled_matmul(lhs: Array, rhs: Array, lhs_scales: Array, rhs_scales: Array, preferred_element_type: DTypeLike) -> Array:
    # CPU has no float8/float4 arithmetic: everything is converted to the result type first.
    a, b = lhs.astype(preferred_element_type), rhs.astype(preferred_element_type)
    a_scales, b_scales = lhs_scales.astype(preferred_element_type), rhs_scales.astype(preferred_element_type)
    batch, m, k = a.shape
    n = b.shape[1]
    k_a, k_b = a_scales.shape[2], b_scales.shape[2]
    a_scaled = jnp.reshape(jnp.reshape(a, (batch, m, k_a, k // k_a)) * jnp.reshape(a_scales, (batch, m, k_a, 1)), (batch, m, k))
    b_scaled = jnp.reshape(jnp.reshape(b, (batch, n, k_b, k // k_b)) * jnp.reshape(b_scales, (batch, n, k_b, 1)), (batch, n, k))
    return lax.dot_general(a_scaled, b_scaled, (((2,), (2,)), ((0,), (0,))), preferred_element_type=preferred_element_type)


def _scaled_matmul_checked(
    lhs: Array, rhs: Array, lhs_scales: Array, rhs_scales: Array, preferred_element_type: DTypeLike, name: str
) -> Array:
    assert lhs.shape[2] == rhs.shape[2]
    dt = dtypes.check_and_canonicalize_user_dtype(preferred_element_type, name)
    return _scaled_matmul(lhs, rhs, lhs_scales, rhs_scales, dt)


def scaled_matmul(
    lhs: Array, rhs: Array, lhs_scales: Array, rhs_scales: Array, preferred_element_type: DTypeLike = np.float32
) -> Array:
    """Block-scaled batched matmul ``einsum('BMK,BNK->BMN', lhs * ls, rhs * rs)``, where ``ls``
    (``rs``) repeats each of ``lhs_scales`` (``rhs_scales``), shaped ``(B, M, K_a)``, over its block
    of ``K // K_a`` contracting elements. The result has ``preferred_element_type``."""
    if not all(x.ndim == 3 for x in (lhs, rhs, lhs_scales, rhs_scales)):
        raise ValueError("scaled_matmul requires all inputs to be 3-dimensional arrays")
    b_a, _, k_a = lhs.shape
    b_b, n_b, k_b = rhs.shape
    if k_a != k_b or b_a != b_b:
        raise ValueError(
            "scaled_matmul requires inputs a and b to have matching batch (B) and contract (K) dimensions, "
            f"but got shapes {lhs.shape} and {rhs.shape}"
        )
    b_as, m_as, k_as = lhs_scales.shape
    b_bs, n_bs, k_bs = rhs_scales.shape
    if k_as != k_bs or b_as != b_bs:
        raise ValueError(
            "scaled_matmul requires scales to have matching batch (B) and contract (K) dimensions, "
            f"but got shapes {lhs_scales.shape} and {rhs_scales.shape}"
        )
    if m_as != lhs.shape[1] or n_bs != n_b:
        raise ValueError(
            "scaled_matmul requires scales to match non-contract dimensions of inputs, but got shapes "
            f"a: {lhs.shape}, b: {rhs.shape}, a_scales: {lhs_scales.shape}, b_scales: {rhs_scales.shape}"
        )
    dt = dtypes.check_and_canonicalize_user_dtype(preferred_element_type, "scaled_matmul")
    return _scaled_matmul_checked(lhs, rhs, lhs_scales, rhs_scales, dt, "scaled_matmul_wrapper")


# ------------------------------------------------------------------------------------ quantizing


def get_scaled_dot_general_config(
    mode: Literal["nvfp4", "mxfp8", "mxfp4"], global_scale: Array | None = None
) -> BlockScaleConfig:
    """The ``BlockScaleConfig`` of a quantization ``mode``: ``'mxfp8'`` (float8_e4m3fn in blocks of
    32 with float8_e8m0fnu scales), ``'mxfp4'`` (float4_e2m1fn, blocks of 32, e8m0 scales) or
    ``'nvfp4'`` (float4_e2m1fn, blocks of 16, float8_e4m3fn scales, and a float32 ``global_scale``,
    default 1)."""
    if mode == "nvfp4":
        one = jnp.ones((1,), dtype=np.float32)
        return BlockScaleConfig(
            mode="nvfp4", block_size=16, data_type=dtypes.float4_e2m1fn, scale_type=dtypes.float8_e4m3fn,
            global_scale=one if global_scale is None else global_scale, infer_only=False,
        )  # fmt: skip
    if mode == "mxfp8":
        return BlockScaleConfig(
            mode="mxfp8", block_size=32, data_type=dtypes.float8_e4m3fn, scale_type=dtypes.float8_e8m0fnu,
            global_scale=None, infer_only=False,
        )  # fmt: skip
    if mode == "mxfp4":
        if global_scale is not None:
            raise ValueError("mxfp4 does not use a global_scale; its E8M0 block scales cover the whole range.")
        return BlockScaleConfig(
            mode="mxfp4", block_size=32, data_type=dtypes.float4_e2m1fn, scale_type=dtypes.float8_e8m0fnu,
            global_scale=None, infer_only=False,
        )  # fmt: skip
    raise ValueError(f"Unsupported mode: {mode}")


def _to_3d(x: Array, dims: Dims) -> Array:
    """``x`` transposed to (batch, kept, contracting) order and flattened to ``(B, M, K)``."""
    contracting, batch = dims
    order = range(x.ndim)
    batch_order = [d for d in order if d in batch]
    kept_order = [d for d in order if d not in contracting and d not in batch]
    contract_order = [d for d in order if d in contracting]
    sizes = [math.prod(x.shape[d] for d in ds) for ds in (batch_order, kept_order, contract_order)]
    return jnp.reshape(jnp.transpose(x, batch_order + kept_order + contract_order), tuple(sizes))


def _dot_output_shape(lhs_shape: Sequence[int], rhs_shape: Sequence[int], lhs_dims: Dims, rhs_dims: Dims) -> tuple[int, ...]:
    (lhs_contract, lhs_batch), (rhs_contract, rhs_batch) = lhs_dims, rhs_dims
    out = [d for i, d in enumerate(lhs_shape) if i in lhs_batch]
    out += [d for i, d in enumerate(lhs_shape) if i not in lhs_contract and i not in lhs_batch]
    out += [d for i, d in enumerate(rhs_shape) if i not in rhs_contract and i not in rhs_batch]
    return tuple(out)


def _to_e8m0_rounding_up(x: Array) -> Array:
    """The E8M0 exponent (as uint8) of the power of two at or above each float32 value."""
    bits = x.astype(np.float32).view(np.uint32)
    exp = bits >> 23
    mant = bits & 0x7FFFFF
    round_up = jnp.logical_and(
        jnp.logical_and(mant > 0, exp != 0xFE), ~jnp.logical_and(exp == 0, mant <= 0x400000)
    )
    exp = jnp.where(round_up, exp + 1, exp)
    return exp.astype(np.uint8)


def _e8m0_to(x: Array, dtype: DTypeLike) -> Array:
    value = (x.astype(np.uint32) << 23).view(np.float32)
    near_zero = 2**-15 if dtype == np.float16 else 2**-127
    value = jnp.where(value == 0, jnp.array(near_zero, np.float32), value)
    return value.astype(dtype)


def _quantize(x: Array, config: BlockScaleConfig) -> tuple[Array, Array]:
    """``(x_q, scales)``: ``x`` (``(B, M, K)``) divided by one scale per block of ``block_size``
    contracting elements (chosen so the block's largest magnitude fits the data type), clipped
    and converted to ``config.data_type``; scales as ``config.scale_type``, ``(B, M, K / block)``."""
    x_shape = x.shape
    block = config.block_size
    assert x_shape[-1] >= block and x_shape[-1] % block == 0
    x = x.reshape((*x_shape[:-1], x_shape[-1] // block, block))
    dmax = np.float32(dtypes.finfo(config.data_type).max)

    def block_scales(values: Array) -> Array:
        # float32 division whatever the input type (as JAX: a bfloat16 reciprocal would pick the
        # next scale up for some blocks).
        amax = jnp.max(jnp.abs(values), axis=-1, keepdims=True)
        return amax.astype(np.float32) / dmax

    if config.mode in ("mxfp8", "mxfp4"):
        assert config.global_scale is None
        scales_q = _to_e8m0_rounding_up(block_scales(x))
        scaled_x = x.astype(np.float32) / _e8m0_to(scales_q, np.float32)
    elif config.mode == "nvfp4":
        assert config.global_scale is not None and config.global_scale.dtype == np.float32
        scale_max = np.asarray(dtypes.finfo(config.scale_type).max).astype(x.dtype)
        x = x / config.global_scale
        scales_q = jnp.clip(block_scales(x), 0, scale_max)
        scales_q = lax.optimization_barrier(scales_q.astype(config.scale_type))
        scaled_x = x / scales_q.astype(np.float32)
    else:
        raise ValueError(f"Unrecognized mode: {config.mode}.")
    x_q = jnp.clip(scaled_x, -dmax, dmax).astype(config.data_type).reshape(x_shape)
    scales_q = jnp.reshape(scales_q, scales_q.shape[:-1]).view(config.scale_type)
    # Without the barrier XLA would fold the f32 -> e2m1 -> f32 round trip into nothing.
    return lax.optimization_barrier((x_q, scales_q))


def _scaled_dot(
    lhs: Array, rhs: Array, dimension_numbers: _CanonicalDotDims, preferred_element_type: DTypeLike,
    configs: Sequence[BlockScaleConfig],
) -> Array:  # fmt: skip
    out_type = dtypes.check_and_canonicalize_user_dtype(preferred_element_type, "scaled_dot_impl")
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers
    lhs_dims, rhs_dims = (lhs_contract, lhs_batch), (rhs_contract, rhs_batch)
    lhs_q, lhs_scales = _quantize(_to_3d(lhs, lhs_dims), configs[0])
    rhs_q, rhs_scales = _quantize(_to_3d(rhs, rhs_dims), configs[1])
    nvfp4 = configs[0].mode == "nvfp4"
    out = _scaled_matmul_checked(
        lhs_q, rhs_q, lhs_scales, rhs_scales, np.float32 if nvfp4 else out_type, "scaled_matmul_wrapper"
    )
    if nvfp4:
        lhs_global, rhs_global = configs[0].global_scale, configs[1].global_scale
        assert lhs_global is not None and rhs_global is not None
        out = (out * (lhs_global * rhs_global)).astype(out_type)
    return jnp.reshape(out, _dot_output_shape(lhs.shape, rhs.shape, lhs_dims, rhs_dims))


def _transpose_lhs(
    g: Array, x: Array, y: Array, dimension_numbers: _CanonicalDotDims, preferred_element_type: DTypeLike,
    configs: Sequence[BlockScaleConfig], swap_ans: bool = False,
) -> Array:  # fmt: skip
    """The cotangent of the left operand: ``g`` contracted with ``y`` over ``y``'s kept axes,
    quantized (except for nvfp4 gradients, which take a plain matmul), and transposed back."""
    (x_contract, y_contract), (x_batch, y_batch) = dimension_numbers
    x_kept = [i for i in range(x.ndim) if i not in x_contract and i not in x_batch]
    y_kept = tuple(i for i in range(y.ndim) if i not in y_contract and i not in y_batch)
    nb, nx, ny = len(x_batch), len(x_kept), len(y_kept)
    ans_batch = tuple(range(nb))
    ans_y = tuple(range(nb, nb + ny)) if swap_ans else tuple(range(nb + nx, nb + nx + ny))
    x_contract_by_y = [int(d) for d in np.take(x_contract, np.argsort(y_contract))]
    out_axes = tuple(int(a) for a in np.argsort([*x_batch, *x_kept, *x_contract_by_y]))
    y_dims: Dims = (y_kept, y_batch)
    g_dims: Dims = (ans_y, ans_batch)
    y_3d, g_3d = _to_3d(y, y_dims), _to_3d(g, g_dims)
    if configs[0].mode != "nvfp4":
        g_q, g_scales = _quantize(g_3d, configs[0])
        y_q, y_scales = _quantize(y_3d, configs[1])
        out = _scaled_matmul_checked(g_q, y_q, g_scales, y_scales, preferred_element_type, "scaled_matmul_wrapper")
    else:
        out = jnp.matmul(g_3d, jnp.permute_dims(y_3d, (0, 2, 1)), preferred_element_type=preferred_element_type)
    expanded = jnp.reshape(out, _dot_output_shape(g.shape, y.shape, g_dims, y_dims))
    return lax.transpose(expanded, out_axes)


def _scaled_dot_fn(
    lhs: Array, rhs: Array, dimension_numbers: _CanonicalDotDims, preferred_element_type: DTypeLike,
    configs: tuple[BlockScaleConfig, ...],
) -> Array:  # fmt: skip
    return _scaled_dot(lhs, rhs, dimension_numbers, preferred_element_type, configs)


_scaled_dot_vjp = custom_vjp(_scaled_dot_fn, nondiff_argnums=(2, 3, 4))


def _scaled_dot_fwd(
    lhs: Array, rhs: Array, dimension_numbers: _CanonicalDotDims, preferred_element_type: DTypeLike,
    configs: tuple[BlockScaleConfig, ...],
) -> tuple[Array, tuple[Array, Array]]:  # fmt: skip
    return _scaled_dot(lhs, rhs, dimension_numbers, preferred_element_type, configs), (lhs, rhs)


def _scaled_dot_bwd(
    dimension_numbers: _CanonicalDotDims, preferred_element_type: DTypeLike, configs: tuple[BlockScaleConfig, ...],
    res: tuple[Array, Array], g: Array,
) -> tuple[Array, Array]:  # fmt: skip
    lhs, rhs = res
    (x_contract, y_contract), (x_batch, y_batch) = dimension_numbers
    grad_lhs = _transpose_lhs(g, lhs, rhs, dimension_numbers, preferred_element_type, (configs[2], configs[1]))
    swapped: _CanonicalDotDims = ((y_contract, x_contract), (y_batch, x_batch))
    grad_rhs = _transpose_lhs(g, rhs, lhs, swapped, preferred_element_type, (configs[2], configs[0]), swap_ans=True)
    if configs[2].mode == "nvfp4":
        # Straight-through estimator: values clipped by the forward quantization get no gradient.
        assert rhs.dtype == lhs.dtype
        dmax = np.asarray(dtypes.finfo(configs[0].data_type).max).astype(lhs.dtype)
        smax = np.asarray(dtypes.finfo(configs[0].scale_type).max).astype(lhs.dtype)
        lhs_global, rhs_global = configs[0].global_scale, configs[1].global_scale
        assert lhs_global is not None and rhs_global is not None
        grad_lhs = jnp.where(jnp.abs(lhs) <= lhs_global * dmax * smax, grad_lhs, 0)
        grad_rhs = jnp.where(jnp.abs(rhs) <= rhs_global * dmax * smax, grad_rhs, 0)
    return grad_lhs, grad_rhs


_scaled_dot_vjp.defvjp(_scaled_dot_fwd, _scaled_dot_bwd)

_SUPPORTED_OUT = (np.dtype("float32"), np.dtype(dtypes.bfloat16), np.dtype("float16"))


def scaled_dot_general(
    lhs: ArrayLike,
    rhs: ArrayLike,
    dimension_numbers: DotDims,
    preferred_element_type: DTypeLike = np.float32,
    configs: list[BlockScaleConfig] | None = None,
    implementation: Literal["cudnn"] | None = None,
) -> Array:
    """``lax.dot_general`` with both operands quantized block by block (``configs[0]`` for
    ``lhs``, ``configs[1]`` for ``rhs``, ``configs[2]`` for the gradient; see
    ``get_scaled_dot_general_config``), then ``scaled_matmul``. ``configs=None`` is a plain
    ``lax.dot_general``. ``implementation`` is deprecated and ignored."""
    if implementation is not None:
        warnings.warn("Backend selector, now ignored. The system chooses the backend automatically.", DeprecationWarning, stacklevel=2)
    if configs is None:
        return lax.dot_general(lhs, rhs, dimension_numbers, preferred_element_type=preferred_element_type)
    if np.dtype(preferred_element_type) not in _SUPPORTED_OUT:
        raise TypeError(f"Only support preferred_element_type in (f32, bf16, f16), but got {preferred_element_type}")
    (lc, rc), (lb, rb) = dimension_numbers
    dims: _CanonicalDotDims = ((tuple(lc), tuple(rc)), (tuple(lb), tuple(rb)))
    lhs_arr, rhs_arr = jnp.asarray(lhs), jnp.asarray(rhs)
    # A dot without batch dimensions gets a trailing one of size 1 on each side (removed after).
    lhs_b, rhs_b, (lhs_batch, rhs_batch) = lhs_arr, rhs_arr, dims[1]
    if lhs_batch == ():
        lhs_b, lhs_batch = jnp.expand_dims(lhs_arr, axis=lhs_arr.ndim), (lhs_arr.ndim,)
    if rhs_batch == ():
        rhs_b, rhs_batch = jnp.expand_dims(rhs_arr, axis=rhs_arr.ndim), (rhs_arr.ndim,)
    batched: _CanonicalDotDims = (dims[0], (lhs_batch, rhs_batch))
    out = _scaled_dot_vjp(lhs_b, rhs_b, batched, preferred_element_type, tuple(configs))
    return jnp.squeeze(out, axis=0) if batched != dims else out
