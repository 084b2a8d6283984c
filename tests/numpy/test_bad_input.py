"""Bad input raises JAX's exception classes with JAX's messages (recorded from JAX 0.12)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core.errors import ConcretizationTypeError, NonConcreteBooleanIndexError

# (thunk, exception class, message prefix as JAX 0.12 prints it)
CASES: list[tuple[str, Callable[[], Any], type[BaseException], str]] = [
    ("list to sum", lambda: jnp.sum([1, 2]), TypeError, "sum requires ndarray or scalar arguments, got <class 'list'> at position 0."),
    ("list to add", lambda: jnp.add([1], 2), TypeError, "add requires ndarray or scalar arguments, got <class 'list'> at position 0."),
    ("float to bitwise_and", lambda: jnp.bitwise_and(1.0, 2.0), TypeError,
     "and does not accept dtype float32 at position 0. Accepted dtypes at position 0 are subtypes of integer, bool."),
    ("float to left_shift", lambda: jnp.left_shift(1.0, 2), TypeError,
     "shift_left does not accept dtype float32 at position 0. Accepted dtypes at position 0 are subtypes of integer."),
    ("int to lax.sin", lambda: jax.lax.sin(jnp.ones(2, jnp.int32)), TypeError,
     "sin does not accept dtype int32. Accepted dtypes are subtypes of floating, complexfloating."),
    ("axis out of range", lambda: jnp.sum(jnp.ones(3), axis=2), ValueError, "axis 2 is out of bounds for array of dimension 1"),
    ("repeated axis", lambda: jnp.mean(jnp.ones((2, 3)), axis=(0, 0)), ValueError, "duplicate value in 'axis': (0, 0)"),
    ("cumsum axis", lambda: jnp.cumsum(jnp.ones(3), axis=1), ValueError, "axis 1 is out of bounds for array of dimension 1"),
    ("moveaxis", lambda: jnp.moveaxis(jnp.ones((2, 3)), 0, 5), ValueError, "axis 5 is out of bounds for array of dimension 2"),
    ("expand_dims", lambda: jnp.expand_dims(jnp.ones(3), 3), ValueError, "axis 3 is out of bounds for array of dimension 2"),
    ("fft axis", lambda: jnp.fft.fft(jnp.ones(3), axis=2), ValueError, "axis 2 is out of bounds for array of dimension 1"),
    ("swapaxes", lambda: jnp.swapaxes(jnp.ones(3), 0, 1), IndexError, "index 1 is out of bounds for axis 0 with size 1"),
    ("broadcast add", lambda: jnp.add(jnp.ones(3), jnp.ones(4)), TypeError, "add got incompatible shapes for broadcasting: (3,), (4,)."),
    ("broadcast operator", lambda: jnp.ones(3) + jnp.ones(4), TypeError, "add got incompatible shapes for broadcasting: (3,), (4,)."),
    ("broadcast where", lambda: jnp.where(jnp.ones(3) > 0, jnp.ones(4), 0), ValueError, "Incompatible shapes for broadcasting: shapes=[(3,), (4,), ()]"),
    ("broadcast_arrays", lambda: jnp.broadcast_arrays(jnp.ones(3), jnp.ones(4)), ValueError, "Incompatible shapes for broadcasting: shapes=[(3,), (4,)]"),
    ("broadcast_to", lambda: jnp.broadcast_to(jnp.ones(3), (4,)), ValueError,
     "Incompatible types for broadcasting: input type=float32[3] and requested type=float32[4]"),
    ("concatenate ranks", lambda: jnp.concatenate([jnp.ones(3), jnp.ones((4, 2))]), TypeError,
     "Cannot concatenate arrays with different numbers of dimensions: got (3,), (4, 2)."),
    ("stack shapes", lambda: jnp.stack([jnp.ones(3), jnp.ones(4)]), ValueError, "All input arrays must have the same shape. Got (3,), (4,)."),
    ("reshape size", lambda: jnp.reshape(jnp.ones(3), (4,)), TypeError, "cannot reshape array of shape (3,) (size 3) into shape (4,) (size 4)"),
    ("reshape two -1", lambda: jnp.reshape(jnp.ones(6), (-1, -1)), TypeError, "can only specify one unknown axis size with a `-1` value, got (-1, -1)"),
    ("matmul", lambda: jnp.matmul(jnp.ones(3), jnp.ones(4)), TypeError, "dot_general requires contracting dimensions to have the same shape, got (3,) and (4,)."),
    ("transpose perm", lambda: jnp.transpose(jnp.ones((2, 3)), (0, 0)), TypeError,
     "transpose permutation isn't a permutation of operand dimensions, got permutation (0, 0) for operand shape (2, 3)."),
    ("squeeze", lambda: jnp.squeeze(jnp.ones((2, 3)), 0), ValueError,
     "cannot select an axis to squeeze out which has size not equal to one, got shape=(2, 3) and dimensions=(0,)"),
    ("argmax empty", lambda: jnp.argmax(jnp.ones(0)), ValueError, "attempt to get argmax of an empty sequence"),
    ("max empty", lambda: jnp.max(jnp.ones(0)), ValueError, "zero-size array to reduction operation max which has no identity"),
    ("list index", lambda: jnp.ones(3)[[0, 1]], TypeError, "Using a non-tuple sequence for multidimensional indexing is not allowed"),
    ("float index", lambda: jnp.ones(3)[0.5], TypeError, "Indexer must have integer or boolean type, got indexer with type float64"),
    ("too many indices", lambda: jnp.ones(3)[0, 1], IndexError, "Too many indices: array is 1-dimensional, but 2 were indexed"),
    ("str array", lambda: jnp.array("abc"), TypeError, "Value 'abc' with dtype <U3 is not a valid JAX array type."),
    ("bad dtype name", lambda: jnp.zeros(3, "flaot32"), TypeError, "data type 'flaot32' not understood"),
    ("inv non-square", lambda: jnp.linalg.inv(jnp.ones((2, 3))), ValueError, "Argument to inv must have shape [..., n, n], got (2, 3)."),
    ("cholesky 1-d", lambda: jnp.linalg.cholesky(jnp.ones(3)), ValueError, "Argument to linalg.cholesky must have shape [..., n, n], got (3,)."),
    ("take raise", lambda: jnp.take(jnp.ones(3), jnp.array([0]), mode="raise"), NotImplementedError, "The 'raise' mode to jnp.take is not supported."),
    ("split unequal", lambda: jnp.split(jnp.ones(5), 2), ValueError, "array split does not result in an equal division: rest is 1"),
    ("einsum sizes", lambda: jnp.einsum("ij,jk->ik", jnp.ones((2, 3)), jnp.ones((4, 2))), ValueError,
     "Size of label 'j' for operand 1 (3) does not match previous terms (4)."),
    ("at mode", lambda: jnp.ones(3).at[0].set(1.0, mode="raise"), ValueError, 'Unknown gather mode "raise"'),
    ("arange array", lambda: jnp.arange(jnp.ones(3)), ValueError, "jax.numpy.arange: arguments must be scalars; got stop=[1. 1. 1.]"),
    ("put inplace", lambda: jnp.put(jnp.arange(3), jnp.array([0]), 1), ValueError,
     "jax.numpy.put cannot modify arrays in-place, because JAX arrays are immutable."),
    ("setitem", lambda: jnp.ones(3).__setitem__(0, 1.0), TypeError, "JAX arrays are immutable and do not support in-place item assignment."),
    ("mT of a vector", lambda: jnp.ones(3).mT, ValueError, "x must be at least two-dimensional for matrix_transpose; got ndim=1"),
    ("clip complex", lambda: jnp.clip(jnp.ones(2) * 1j, 0, 1), ValueError, "Clip received a complex value"),
    ("round non-int decimals", lambda: jnp.round(jnp.ones(2), 1.5), TypeError, "'float' object cannot be interpreted as an integer"),
    ("nonzero under jit", lambda: jax.jit(jnp.nonzero)(jnp.ones(3)), ConcretizationTypeError,
     "Abstract tracer value encountered where concrete value is expected"),
    ("unique under jit", lambda: jax.jit(jnp.unique)(jnp.ones(3)), ConcretizationTypeError,
     "Abstract tracer value encountered where concrete value is expected"),
    ("boolean mask under jit", lambda: jax.jit(lambda x: x[x > 0])(jnp.ones(3)), NonConcreteBooleanIndexError,
     "Array boolean indices must be concrete; got bool[3]"),
]


@pytest.mark.parametrize("name,thunk,exc,message", CASES, ids=[c[0] for c in CASES])
def test_bad_input(name: str, thunk: Callable[[], Any], exc: type[BaseException], message: str) -> None:
    with pytest.raises(exc) as info:
        thunk()
    assert str(info.value).startswith(message), str(info.value)


def test_size_argument_makes_shape_dependent_functions_jittable() -> None:
    x = jnp.array([0, 3, 0, 5])
    np.testing.assert_array_equal(jax.jit(lambda v: jnp.nonzero(v, size=3, fill_value=-1)[0])(x), [1, 3, -1])
    np.testing.assert_array_equal(jax.jit(lambda v: jnp.unique(v, size=4, fill_value=9))(x), [0, 3, 5, 9])
    np.testing.assert_array_equal(jax.jit(lambda v: jnp.argwhere(v, size=2))(x), [[1], [3]])
    np.testing.assert_array_equal(jax.jit(lambda v: jnp.where(v > 0, size=1)[0])(x), [1])
    np.testing.assert_array_equal(jax.jit(lambda v: jnp.setdiff1d(v, jnp.array([3]), size=2))(x), [0, 5])
    np.testing.assert_array_equal(jax.jit(lambda v: jnp.bincount(v, length=6))(x), [2, 0, 0, 1, 0, 1])
    np.testing.assert_array_equal(jax.jit(lambda v: jnp.repeat(v, v, total_repeat_length=8))(x), [3, 3, 3, 5, 5, 5, 5, 5])
