"""``jnp.mgrid``, ``ogrid``, ``r_``, ``c_``, ``s_`` and ``index_exp`` against real JAX 0.12 on
this machine: values, dtypes and shapes bit for bit, errors with JAX's class and message, under
``jit``, ``grad`` and ``vmap``, with and without x64."""

from __future__ import annotations

import numpy as np

from jax_core._src.numpy import index_tricks
from tests._live_cases import same_outcome_tests
from tests.oracle.client import Call

EXPRS = [
    # mgrid / ogrid: arange for real steps, linspace for complex ones (a count)
    "jnp.mgrid[0:4:1]",
    "jnp.mgrid[0:1:4j]",
    "jnp.mgrid[:2, :3]",
    "jnp.mgrid[0:1:3j, 0:4]",
    "jnp.mgrid[()]",
    "jnp.mgrid[-1:1:0.5]",
    "jnp.mgrid[5:0:-2, 1:3]",
    "jnp.mgrid[np.int8(0):np.int8(3)]",
    "jnp.mgrid[0:3, 0.:1.:0.5]",
    "jnp.mgrid[0:1:0j]",
    "jnp.mgrid[1]",
    "jnp.ogrid[0:4:1]",
    "jnp.ogrid[0:1:4j]",
    "jnp.ogrid[:2, :3]",
    "jnp.ogrid[0:1:3j, 0:4]",
    "jnp.ogrid[()]",
    # r_: slices, scalars, arrays, nested lists; directives
    "jnp.r_[-1:5:1, 0, 0, jnp.array([1, 2, 3])]",
    "jnp.r_[-1:1:6j, 0, jnp.array([1, 2, 3])]",
    "jnp.r_['0,2', [1, 2, 3], [4, 5, 6]]",
    "jnp.r_['0,2,0', [1, 2, 3], [4, 5, 6]]",
    "jnp.r_['0,2,-2', [1, 2, 3], [4, 5, 6]]",
    "jnp.r_['r', [1, 2, 3], [4, 5, 6]]",
    "jnp.r_['c', [1, 2, 3], [4, 5, 6]]",
    "jnp.r_['1,2,0,7', [1, 2, 3], [4, 5, 6]]",
    "jnp.r_['-1', jnp.ones((2, 2)), jnp.zeros((2, 1))]",
    "jnp.r_['0,3,1', [1, 2], [3, 4]]",
    "jnp.r_['0,3,-1', jnp.ones((2, 2)), jnp.ones((2, 2))]",
    "jnp.r_['r', jnp.ones((2, 2)), jnp.ones((2, 2))]",
    "jnp.r_[1]",
    "jnp.r_[1.5, 2, True]",
    "jnp.r_[jnp.ones((2, 2)), jnp.zeros((1, 2))]",
    "jnp.r_[np.array([1, 2], np.int64), np.array([3.], np.float32)]",
    "jnp.r_[jnp.array([1, 2], jnp.int8), 3]",
    "jnp.r_[jnp.array([1, 2], jnp.uint8), jnp.array([3], jnp.int8)]",
    "jnp.r_[0:3, 0.5]",
    "jnp.r_[jnp.array([1, 2], jnp.bfloat16), 1:3]",
    # c_
    "jnp.c_[jnp.arange(6).reshape((2, 3)), jnp.arange(6).reshape((2, 3))]",
    "jnp.c_['0,2', [1, 2, 3], [4, 5, 6]]",
    "jnp.c_['0,2,-1', [1, 2, 3], [4, 5, 6]]",
    "jnp.c_['r', [1, 2, 3], [4, 5, 6]]",
    "jnp.c_[[1, 2, 3], [4, 5, 6]]",
    "jnp.c_[0:3, 5:8]",
    "jnp.c_[jnp.ones((2, 2)), [7, 8]]",
    "jnp.c_[1, 2]",
    "jnp.c_[jnp.array([[1, 2, 3]]), 0, 0, jnp.array([[4, 5, 6]])]",
    # s_, index_exp: NumPy's builders
    "repr(jnp.s_[1:3, ::2])",
    "repr(jnp.s_[2])",
    "repr(jnp.s_[..., None])",
    "repr(jnp.index_exp[2])",
    "repr(jnp.index_exp[1:3, ::2])",
    "jnp.arange(10)[jnp.s_[2:5]]",
    "jnp.arange(10)[jnp.index_exp[::3]]",
    "len(jnp.r_)",
    "len(jnp.c_)",
    # bad input
    "jnp.r_['a,b', [1, 2, 3]]",
    "jnp.r_[[1, 2], 'r']",
    "jnp.r_[()]",
    "jnp.r_[[1, 2], [[3, 4]]]",
    "jnp.c_[jnp.ones((2, 2)), jnp.ones((3, 3))]",
    "jnp.r_['0,1', jnp.ones((2, 2)), jnp.ones(2)]",
    "jnp.r_[jnp.array(['a'])]" if False else "jnp.r_[None]",
    # transformations
    "jax.jit(lambda x: jnp.r_[x, 0:2])(jnp.arange(3.))",
    "jax.jit(lambda x: jnp.c_[x, x])(jnp.arange(3.))",
    "jax.jit(lambda: jnp.mgrid[0:3, 0:1:3j])()",
    "jax.jit(lambda: jnp.ogrid[0:3, 0:2])()",
    "jax.jit(lambda n: jnp.mgrid[0:n])(3)",
    "jax.jit(lambda n: jnp.ogrid[0:4:n])(3)",
    "jax.jit(lambda n: jnp.r_[0:n])(3)",
    "jax.grad(lambda x: jnp.r_[x, 2 * x, 1:3].sum())(1.5)",
    "jax.grad(lambda x: (jnp.c_[x, x] ** 2).sum())(jnp.arange(3.))",
    "jax.vmap(lambda x: jnp.r_[x, 0:2])(jnp.ones((2, 3)))",
    "jax.vmap(lambda x: jnp.c_[x, x])(jnp.ones((2, 3)))",
    "jax.vmap(lambda x: jnp.r_['0,2', x, x])(jnp.ones((2, 3)))",
]
X64 = [
    "jnp.mgrid[0:1:4j]",
    "jnp.mgrid[0:3, 0.:1.:0.5]",
    "jnp.r_[-1:5:1, 0, 0.5]",
    "jnp.r_[np.array([1, 2], np.int64), np.array([3.], np.float32)]",
    "jnp.c_[0:3, 5:8]",
    "jnp.ogrid[0:2, 0:1:3j]",
]
CALLS = [Call(e) for e in EXPRS] + [Call(e, x64=True) for e in X64]
live, test_same_as_live_jax = same_outcome_tests(CALLS)


def test_builders_are_numpys() -> None:
    assert index_tricks.s_ is np.s_
    assert index_tricks.index_exp is np.index_exp
    assert index_tricks.s_[1:3, ::2] == (slice(1, 3), slice(None, None, 2))


def test_objects_are_of_the_concatenator_classes() -> None:
    assert isinstance(index_tricks.r_, index_tricks.AxisConcatenator)
    assert isinstance(index_tricks.c_, index_tricks.AxisConcatenator)
    assert (index_tricks.c_.axis, index_tricks.c_.ndmin, index_tricks.c_.trans1d) == (-1, 2, 0)
    assert (index_tricks.r_.axis, index_tricks.r_.ndmin, index_tricks.r_.trans1d) == (0, 1, -1)
