"""Products: dot, vdot, inner, outer, matmul, matvec/vecmat/vecdot, tensordot, kron, cross."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.linalg import dot as lax_dot
from jax_core._src.lax.shape import dimensions as lax_shape
from jax_core._src.numpy import shape as jshape
from jax_core._src.numpy.util import (
    canonicalize_axis,
    check_arraylike,
    ensure_array,
    jitted,
    promote_dtypes,
    user_dtype,
)
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array


def _promote(name: str, *args: ArrayLike) -> list[Array]:
    check_arraylike(name, *args)
    return [ensure_array(a) for a in promote_dtypes(*args)]


def _out_dtype(x: Array, preferred: DTypeLike | None) -> np.dtype[Any]:
    explicit = user_dtype(preferred, "dot")
    return explicit if explicit is not None else x.dtype


def dot_general(
    a: Array,
    b: Array,
    contract: tuple[Sequence[int], Sequence[int]],
    batch: tuple[Sequence[int], Sequence[int]],
    precision: Any = None,
    preferred_element_type: DTypeLike | None = None,
) -> Array:
    """``lax.dot_general`` with the result in the promoted (or preferred) dtype; bools via int."""
    out_dt = _out_dtype(a, preferred_element_type)
    if a.dtype == np.bool_:
        ai = lax.convert_element_type(a, np.int32)
        bi = lax.convert_element_type(b, np.int32)
        res = lax_dot.dot_general(ai, bi, ((tuple(contract[0]), tuple(contract[1])), (tuple(batch[0]), tuple(batch[1]))), precision=precision, preferred_element_type=np.int32)
        return lax.convert_element_type(res, out_dt)
    res = lax_dot.dot_general(
        a, b, ((tuple(contract[0]), tuple(contract[1])), (tuple(batch[0]), tuple(batch[1]))), precision=precision, preferred_element_type=out_dt
    )
    return res


@jitted(static=('precision', 'preferred_element_type'), inline=True)
def matmul(a: ArrayLike, b: ArrayLike, /, *, precision: Any = None, preferred_element_type: DTypeLike | None = None) -> Array:
    """Matrix product with NumPy's rules for 1-D operands and batch broadcasting.

    Staged as JAX stages it: one ``dot_general`` that contracts a vector operand directly and
    pairs equal batch dimensions; a batch dimension only one side has (or where the other side
    has size 1, squeezed away) becomes a free dimension, and a final ``transpose`` (only when
    needed) puts the batch dimensions first.
    """
    x, y = _promote("matmul", a, b)
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError(f"matmul: inputs must be at least 1-dimensional, got shapes {x.shape} and {y.shape}")
    x_mat, y_mat = x.ndim > 1, y.ndim > 1
    x_lead = x.shape[:-2] if x_mat else ()
    y_lead = y.shape[:-2] if y_mat else ()
    nb = builtins.max(len(x_lead), len(y_lead))
    off_x, off_y = nb - len(x_lead), nb - len(y_lead)
    x_squeeze: list[int] = []
    y_squeeze: list[int] = []
    x_batch: list[int] = []
    y_batch: list[int] = []
    # Where each dimension dot_general emits (batch, then x's free, then y's free) goes in the result.
    out_batch: list[int] = []
    out_x: list[int] = []
    out_y: list[int] = []
    for i in range(nb):
        dx = x_lead[i - off_x] if i >= off_x else None
        dy = y_lead[i - off_y] if i >= off_y else None
        if dx is None:
            out_y.append(i)
        elif dy is None:
            out_x.append(i)
        elif dx == 1:
            out_y.append(i)
            x_squeeze.append(i - off_x)
        elif dy == 1:
            out_x.append(i)
            y_squeeze.append(i - off_y)
        elif dx == dy:
            x_batch.append(i - off_x - len(x_squeeze))
            y_batch.append(i - off_y - len(y_squeeze))
            out_batch.append(i)
        else:
            raise ValueError(f"Incompatible shapes for matmul arguments: {x.shape} and {y.shape}")
    if x_mat:
        out_x.append(nb)
    if y_mat:
        out_y.append(nb + x_mat)
    if x_squeeze:
        x = lax_shape.squeeze(x, tuple(x_squeeze))
    if y_squeeze:
        y = lax_shape.squeeze(y, tuple(y_squeeze))
    cx, cy = x.ndim - 1, y.ndim - 1 - y_mat
    if x.shape[cx] != y.shape[cy]:
        raise TypeError(f"dot_general requires contracting dimensions to have the same shape, got {(x.shape[cx],)} and {(y.shape[cy],)}.")
    out = dot_general(x, y, ((cx,), (cy,)), (x_batch, y_batch), precision, preferred_element_type)
    perm = tuple(int(d) for d in np.argsort(out_batch + out_x + out_y))
    return out if perm == tuple(range(len(perm))) else lax_shape.transpose(out, perm)


@jitted(static=('precision', 'preferred_element_type'), inline=True)
def dot(a: ArrayLike, b: ArrayLike, *, precision: Any = None, preferred_element_type: DTypeLike | None = None) -> Array:
    """Dot product with NumPy's rules (scalars multiply; N-D contracts last with second-to-last),
    as one ``dot_general`` (the result's dimensions are ``a``'s free ones, then ``b``'s)."""
    x, y = _promote("dot", a, b)
    if x.ndim == 0 or y.ndim == 0:
        out = lax.mul(*_bcast(x, y))
        return out if preferred_element_type is None else lax.convert_element_type(out, preferred_element_type)
    contract_y = builtins.max(y.ndim - 2, 0)
    if x.shape[-1] != y.shape[contract_y]:
        raise TypeError(f"dot_general requires contracting dimensions to have the same shape, got {(x.shape[-1],)} and {(y.shape[contract_y],)}.")
    return dot_general(x, y, ((x.ndim - 1,), (contract_y,)), ((), ()), precision, preferred_element_type)


def _bcast(x: Array, y: Array) -> tuple[Array, Array]:
    shape = jshape.broadcast_shapes(x.shape, y.shape)
    return jshape.broadcast_to(x, shape), jshape.broadcast_to(y, shape)


@jitted(static=('precision', 'preferred_element_type'), inline=True)
def vdot(a: ArrayLike, b: ArrayLike, *, precision: Any = None, preferred_element_type: DTypeLike | None = None) -> Array:
    """Dot product of the flattened arrays, conjugating ``a``."""
    x, y = _promote("vdot", a, b)
    if dtypes.issubdtype(x.dtype, np.complexfloating):
        x = lax.conj(x)
    return dot(jshape.ravel(x), jshape.ravel(y), precision=precision, preferred_element_type=preferred_element_type)


def vecdot(x1: ArrayLike, x2: ArrayLike, /, *, axis: int = -1, precision: Any = None, preferred_element_type: DTypeLike | None = None) -> Array:
    """Conjugated vector dot product along ``axis``, broadcasting the other axes."""
    x, y = _promote("vecdot", x1, x2)
    if x.shape[axis] != y.shape[axis]:
        raise ValueError(f"axes must match; got shapes {x.shape} and {y.shape} with axis={axis}")
    from jax_core._src.numpy.manipulation import moveaxis

    x = moveaxis(x, axis, -1)
    y = moveaxis(y, axis, -1)
    if dtypes.issubdtype(x.dtype, np.complexfloating):
        x = lax.conj(x)
    return jshape.squeeze(jshape.squeeze(matmul(jshape.expand_dims(x, -2), jshape.expand_dims(y, -1), precision=precision, preferred_element_type=preferred_element_type), -1), -1)


@jitted(inline=False)
def matvec(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """Batched matrix-vector product: ``x1[..., m, n] @ x2[..., n]``."""
    x, y = _promote("matvec", x1, x2)
    return jshape.squeeze(matmul(x, jshape.expand_dims(y, -1)), -1)


@jitted(inline=False)
def vecmat(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """Batched vector-matrix product of ``conj(x1[..., n])`` and ``x2[..., n, m]``."""
    x, y = _promote("vecmat", x1, x2)
    if dtypes.issubdtype(x.dtype, np.complexfloating):
        x = lax.conj(x)
    return jshape.squeeze(matmul(jshape.expand_dims(x, -2), y), -2)


@jitted(static=('precision', 'preferred_element_type'), inline=True)
def inner(a: ArrayLike, b: ArrayLike, *, precision: Any = None, preferred_element_type: DTypeLike | None = None) -> Array:
    """Sum product over the last axes of ``a`` and ``b``."""
    x, y = _promote("inner", a, b)
    if x.ndim == 0 or y.ndim == 0:
        return lax.mul(*_bcast(x, y))
    return tensordot(x, y, ((x.ndim - 1,), (y.ndim - 1,)), precision=precision, preferred_element_type=preferred_element_type)


@jitted(inline=True)
def outer(a: ArrayLike, b: ArrayLike, out: None = None) -> Array:
    """Outer product of the flattened ``a`` and ``b``."""
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.outer is not supported.")
    x, y = _promote("outer", a, b)
    from jax_core._src.numpy.ufuncs import multiply

    x, y = jshape.ravel(x), jshape.ravel(y)
    return multiply(jshape.reshape(x, (x.size, 1)), y)  # bools: logical and, as jnp.multiply


def tensordot(
    a: ArrayLike, b: ArrayLike, axes: int | Sequence[int] | Sequence[Sequence[int]] = 2, *, precision: Any = None,
    preferred_element_type: DTypeLike | None = None,
) -> Array:
    """Sum product over ``axes`` (an int: the last ``axes`` of ``a`` with the first of ``b``)."""
    x, y = _promote("tensordot", a, b)
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        if n < 0 or n > builtins.min(x.ndim, y.ndim):
            raise TypeError(f"Number of tensordot axes (axes {n}) exceeds input ranks ({x.shape} and {y.shape})")
        ca: tuple[int, ...] = tuple(range(x.ndim - n, x.ndim))
        cb: tuple[int, ...] = tuple(range(n))
    else:
        ax = list(axes)
        if len(ax) != 2:
            raise TypeError(f"tensordot axes argument must be an int, a pair of ints, or a pair of lists/tuples of ints; got {axes}")
        a0: Any = ax[0]
        b0: Any = ax[1]
        a_list: list[Any] = [a0] if isinstance(a0, (int, np.integer)) else list(a0)
        b_list: list[Any] = [b0] if isinstance(b0, (int, np.integer)) else list(b0)
        if len(a_list) != len(b_list):
            raise TypeError(f"tensordot requires axes lists to have equal length, got {a_list} and {b_list}.")
        ca = tuple(canonicalize_axis(int(i), x.ndim) for i in a_list)
        cb = tuple(canonicalize_axis(int(i), y.ndim) for i in b_list)
    for i, j in zip(ca, cb):
        if x.shape[i] != y.shape[j]:
            raise TypeError(f"dot_general requires contracting dimensions to have the same shape, got {tuple(x.shape[k] for k in ca)} and {tuple(y.shape[k] for k in cb)}.")
    return dot_general(x, y, (ca, cb), ((), ()), precision, preferred_element_type)


@jitted(inline=False)
def kron(a: ArrayLike, b: ArrayLike) -> Array:
    """The Kronecker product."""
    x, y = _promote("kron", a, b)
    nd = builtins.max(x.ndim, y.ndim)
    x = jshape.reshape(x, (1,) * (nd - x.ndim) + x.shape)
    y = jshape.reshape(y, (1,) * (nd - y.ndim) + y.shape)
    xe = jshape.reshape(x, tuple(v for d in x.shape for v in (d, 1)))
    ye = jshape.reshape(y, tuple(v for d in y.shape for v in (1, d)))
    prod = lax.mul(*_bcast(xe, ye))  # lax's product: bools are rejected, as in JAX's kron
    return jshape.reshape(prod, tuple(p * q for p, q in zip(x.shape, y.shape)))


@jitted(static=('axisa', 'axisb', 'axisc', 'axis'), inline=False)
def cross(a: ArrayLike, b: ArrayLike, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: int | None = None) -> Array:
    """Cross product of 2- or 3-vectors along the given axes."""
    from jax_core._src.numpy.manipulation import moveaxis

    x, y = _promote("cross", a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    x = moveaxis(x, axisa, -1)
    y = moveaxis(y, axisb, -1)
    if x.shape[-1] not in (2, 3) or y.shape[-1] not in (2, 3):
        raise ValueError("Dimension must be either 2 or 3 for cross product")
    if x.shape[-1] == 2 and y.shape[-1] == 2:
        return lax.sub(*_bcast(lax.mul(*_bcast(x[..., 0], y[..., 1])), lax.mul(*_bcast(x[..., 1], y[..., 0]))))
    zero = np.zeros((), x.dtype)
    a0, a1 = x[..., 0], x[..., 1]
    a2 = x[..., 2] if x.shape[-1] == 3 else jshape.broadcast_to(zero, a0.shape)
    b0, b1 = y[..., 0], y[..., 1]
    b2 = y[..., 2] if y.shape[-1] == 3 else jshape.broadcast_to(zero, b0.shape)

    def m(p: Array, q: Array) -> Array:
        return lax.mul(*_bcast(p, q))

    def s(p: Array, q: Array) -> Array:
        return lax.sub(*_bcast(p, q))

    c = [s(m(a1, b2), m(a2, b1)), s(m(a2, b0), m(a0, b2)), s(m(a0, b1), m(a1, b0))]
    shape = jshape.broadcast_shapes(*(v.shape for v in c))
    out = jshape.stack([jshape.broadcast_to(v, shape) for v in c], -1)
    return moveaxis(out, -1, axisc)
