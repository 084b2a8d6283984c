"""conv_general_dilated and its wrappers (jax_core._src.lax.conv.convolution): values against a NumPy
reference implementation, against outputs recorded from real JAX 0.12 and against live JAX, JAX's
errors and jaxpr text.

``tests/data/convolution_jax.npz`` is written by ``tools/record_convolution.py`` (run under
``.venv-jax`` on one machine); the jaxpr strings were recorded from JAX for the same programs.
Each output element is a sum of ``N`` products, which XLA accumulates in an order (and with FMA
or not) that depends on the CPU it compiles for. A recorded output is compared

* exactly where no rounding can happen: integer results (``pet_i8_i32``), integer inputs whose
  products and partial sums are integers the float type holds (``pet_i8_f32``: at most
  ``sum |products| = 108 < 2**24``), and the patches, whose every output is one input times 1.0;
* otherwise within ``N * eps * M``, ``M`` the sum of ``|products|`` (for complex, of
  ``(|re| + |im|)`` products, and ``2 N`` real products per part). Any summation order, with or
  without FMA, is within ``gamma_N * M ~ N * eps / 2 * M`` of the exact sum, so two CPUs' results
  are within ``N * eps * M`` of each other. ``N`` and ``M`` are the same convolution run in float64
  on ones and on the absolute values (``rounding_bound``). Measured across AVX-512, AVX2 and
  SSE4.2, the largest difference is 0.8 ``eps * M``; a wrong convolution is off by ``O(M)``.

The live tests evaluate each recorded call under real JAX on this machine (``tests/oracle``) and
require bit equality.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jax_core as jax
from jax_core import lax
from jax_core._src.config import enable_x64
from tests._xla_target import F16_CODEGEN_REASON, is_f16_codegen_failure
from tests.lax._helpers import ErrorCase, assert_within, errors_test, jaxpr_text
from tests.oracle.client import Call, Outcome, assert_same, evaluate, here, need, prefetch

DATA = Path(__file__).resolve().parent.parent / "data" / "convolution_jax.npz"
rng = np.random.default_rng(0)


# -- a NumPy reference: dilate, pad (negative pads crop), then a strided windowed contraction ----


def _dilate(a: np.ndarray[Any, Any], dil: Sequence[int]) -> np.ndarray[Any, Any]:
    sp = a.shape[2:]
    shape = a.shape[:2] + tuple(0 if s == 0 else (s - 1) * d + 1 for s, d in zip(sp, dil))
    out = np.zeros(shape, a.dtype)
    out[(slice(None), slice(None), *(slice(None, None, d) for d in dil))] = a
    return out


def _pad(a: np.ndarray[Any, Any], pads: Sequence[tuple[int, int]]) -> np.ndarray[Any, Any]:
    a = np.pad(a, [(0, 0), (0, 0), *((max(lo, 0), max(hi, 0)) for lo, hi in pads)])
    crop = (slice(max(-lo, 0), a.shape[2 + i] - max(-hi, 0)) for i, (lo, hi) in enumerate(pads))
    return a[(slice(None), slice(None), *crop)]


def reference_conv(
    lhs: np.ndarray[Any, Any],
    rhs: np.ndarray[Any, Any],
    strides: Sequence[int],
    pads: Sequence[tuple[int, int]],
    lhs_dil: Sequence[int],
    rhs_dil: Sequence[int],
    dn: lax.ConvDimensionNumbers,
    fgc: int = 1,
    bgc: int = 1,
) -> np.ndarray[Any, Any]:
    """XLA's convolution in float64/complex128; groups are major in the split dimensions."""
    acc = np.complex128 if np.iscomplexobj(lhs) else np.float64
    x = _pad(_dilate(np.transpose(lhs, dn.lhs_spec).astype(acc), lhs_dil), pads)
    w = _dilate(np.transpose(rhs, dn.rhs_spec).astype(acc), rhs_dil)
    n, o, i = x.shape[0], w.shape[0], w.shape[1]
    ks = w.shape[2:]
    osp = tuple(max((x.shape[2 + d] - k) // s + 1, 0) for d, (k, s) in enumerate(zip(ks, strides)))
    nb = n // bgc
    out = np.zeros((nb, o, *osp), acc)
    for f in range(o):
        g, bg = f // (o // fgc), f // (o // bgc)
        xs = x[bg * nb : (bg + 1) * nb, g * i : (g + 1) * i]
        for pos in np.ndindex(*osp):
            win = xs[(slice(None), slice(None), *(slice(p * s, p * s + k) for p, s, k in zip(pos, strides, ks)))]
            out[(slice(None), f, *pos)] = np.tensordot(win, w[f], axes=(list(range(1, win.ndim)), list(range(w.ndim - 1))))
    return np.transpose(out, np.argsort(dn.out_spec))


def _operand(shape: Sequence[int], dtype: Any) -> np.ndarray[Any, Any]:
    x = rng.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


# (id, lhs shape, rhs shape, strides, padding, lhs_dilation, rhs_dilation, dimension_numbers, fgc, bgc)
GEOMETRIES: list[tuple[Any, ...]] = [
    ("1d_valid", (2, 3, 9), (4, 3, 3), (1,), "VALID", None, None, None, 1, 1),
    ("1d_same_stride", (2, 3, 9), (4, 3, 4), (2,), "SAME", None, None, None, 1, 1),
    ("1d_same_lower", (1, 2, 8), (3, 2, 4), (3,), "SAME_LOWER", None, None, None, 1, 1),
    ("1d_nwc", (2, 9, 3), (3, 3, 4), (1,), [(2, 1)], (2,), (2,), ("NWC", "WIO", "NWC"), 1, 1),
    ("2d_same", (2, 3, 7, 6), (4, 3, 3, 2), (1, 1), "SAME", None, None, None, 1, 1),
    ("2d_stride_dil", (2, 3, 9, 8), (4, 3, 3, 2), (2, 3), "VALID", None, (2, 2), None, 1, 1),
    ("2d_lhs_dil_neg_pad", (1, 2, 5, 6), (3, 2, 2, 3), (1, 2), [(1, -1), (2, 0)], (2, 3), (1, 2), None, 1, 1),
    ("2d_nhwc_hwio", (2, 7, 6, 3), (3, 2, 3, 4), (2, 1), [(1, 0), (2, 1)], (2, 1), (1, 2), ("NHWC", "HWIO", "NHWC"), 1, 1),
    ("2d_swapped_spatial", (2, 3, 6, 7), (2, 3, 4, 3), (1, 2), "SAME", None, None, ("NCWH", "OIHW", "NCHW"), 1, 1),
    ("2d_cnhw_out_nhwc", (3, 2, 6, 5), (4, 3, 2, 2), (1, 1), "VALID", None, None, ("CNHW", "OIHW", "NHWC"), 1, 1),
    ("2d_feature_groups", (2, 6, 5, 5), (6, 2, 3, 3), (1, 1), "SAME", None, None, None, 3, 1),
    ("2d_depthwise", (2, 4, 6, 5), (8, 1, 3, 2), (2, 1), "SAME", None, (1, 2), None, 4, 1),
    ("2d_batch_groups", (6, 2, 5, 5), (6, 2, 3, 3), (1, 1), "VALID", None, None, None, 1, 3),
    ("2d_batch_groups_nhwc", (4, 5, 5, 3), (2, 2, 3, 4), (2, 1), [(1, 1), (0, 1)], None, None, ("NHWC", "HWIO", "NHWC"), 1, 2),
    ("3d_same", (1, 2, 5, 4, 4), (3, 2, 2, 3, 2), (1, 2, 1), "SAME", None, None, None, 1, 1),
    ("3d_ndhwc_groups", (2, 4, 5, 3, 4), (2, 3, 2, 2, 4), (1, 1, 2), "VALID", None, (1, 2, 1), ("NDHWC", "DHWIO", "NDHWC"), 2, 1),
]


def _geometry_args(case: tuple[Any, ...]) -> tuple[Any, ...]:
    _, ls, rs, strides, padding, ld, rd, dn, fgc, bgc = case
    return ls, rs, strides, padding, ld, rd, dn, fgc, bgc


@pytest.mark.parametrize("case", GEOMETRIES, ids=[c[0] for c in GEOMETRIES])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64], ids=["f32", "f64", "c64"])
def test_values_against_numpy_reference(case: tuple[Any, ...], dtype: Any) -> None:
    ls, rs, strides, padding, ld, rd, dn, fgc, bgc = _geometry_args(case)
    with enable_x64(dtype == np.float64):
        lhs, rhs = _operand(ls, dtype), _operand(rs, dtype)
        out = lax.conv_general_dilated(lhs, rhs, strides, padding, ld, rd, dn, fgc, bgc)
        dnums = lax.conv_dimension_numbers(ls, rs, dn)
        n = len(ls) - 2
        ld, rd = ld or (1,) * n, rd or (1,) * n
        if isinstance(padding, str):
            kernel = [1 + r * (rs[i] - 1) for i, r in zip(dnums.rhs_spec[2:], rd)]
            padding = lax.padtype_to_pads([ls[i] for i in dnums.lhs_spec[2:]], kernel, strides, padding)
        want = reference_conv(lhs, rhs, strides, padding, ld, rd, dnums, fgc, bgc)
        assert out.dtype == np.dtype(dtype) and out.shape == want.shape
        tol = 1e-12 if dtype == np.float64 else 2e-5
        np.testing.assert_allclose(np.asarray(out), want, rtol=tol, atol=tol)


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def _recorded() -> dict[str, tuple[Call, np.ndarray[Any, Any]]]:
    """Each recorded case: its call, an expression over ``lhs`` (and ``rhs``) that jax_core and
    JAX both evaluate, and JAX's output."""
    cases = {}
    with np.load(DATA) as data:
        for name in sorted({k.split("/")[0] for k in data.files}):
            call = json.loads(str(data[f"{name}/call"]))
            operands = ["lhs"] if call["fn"] == "conv_general_dilated_patches" else ["lhs", "rhs"]
            kwargs = [f"{k}={_tuples(v)!r}" for k, v in call["kwargs"].items()]
            expr = f"lax.{call['fn']}({', '.join(operands + kwargs)})"
            cases[name] = (Call(expr, {o: data[f"{name}/{o}"] for o in operands}), data[f"{name}/out"])
    return cases


RECORDED = _recorded()


@functools.cache
def _ours(name: str) -> Outcome:
    return here(RECORDED[name][0])


def _in_float64(call: Call, operand: Callable[[np.ndarray[Any, Any]], np.ndarray[Any, Any]]) -> np.ndarray[Any, Any]:
    """The recorded convolution run in float64 on ``operand`` of each input."""
    expr = re.sub(r", preferred_element_type='\w+'", "", call.expr)
    out = here(Call(expr, {k: operand(v) for k, v in call.inputs.items()}, x64=True))
    assert out.leaves is not None, out.describe()
    return out.leaves[0]


def _abs(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``|re| + |im|`` in float64: bounds both parts of a product of two such numbers."""
    return np.abs(x.real.astype(np.float64)) + np.abs(x.imag.astype(np.float64))


@functools.cache
def rounding_bound(name: str) -> np.ndarray[Any, Any]:
    """How far from JAX's recording a correct result may be on another CPU (module docstring):
    ``N * eps * M`` per output element, or 0 where the result is exact."""
    call, want = RECORDED[name]
    if want.dtype.kind in "iu":
        return np.zeros(want.shape)
    count = _in_float64(call, lambda x: np.ones(x.shape))  # N: products summed into each output
    size = _in_float64(call, _abs)  # M: the sum of their magnitudes
    finfo = np.finfo(want.dtype)
    integers = all(np.issubdtype(x.dtype, np.integer) for x in call.inputs.values())
    if count.max() <= 1 or (integers and size.max() < 2.0 ** (finfo.nmant + 1)):
        return np.zeros(want.shape)
    return (2 if want.dtype.kind == "c" else 1) * count * float(finfo.eps) * size


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_values_against_recorded_jax(name: str) -> None:
    """conv_transpose conventions, complex, preferred_element_type, SAME_LOWER, patches and
    unshared (local) convolutions: as JAX computes them."""
    ours = _ours(name)
    if is_f16_codegen_failure(ours.error, ours.message):  # float16 under --xla_cpu_max_isa=SSE4_2
        pytest.skip(F16_CODEGEN_REASON)  # the live test checks JAX fails the same way
    assert ours.leaves is not None, ours.describe()
    assert_within(ours.leaves[0], RECORDED[name][1], rounding_bound(name), RECORDED[name][0].expr)


def test_exact_cases_and_bounds() -> None:
    """The classification of the module docstring, and that the bound separates rounding from a
    wrong convolution: one ulp passes, the kernel flipped (correlation vs convolution) fails."""
    exact = {n for n in RECORDED if not rounding_bound(n).any()}
    assert exact == {"pet_i8_i32", "pet_i8_f32", "patches_2d", "patches_nhwc"}
    call, want = RECORDED["same_lower"]
    bound = rounding_bound("same_lower")
    assert_within(np.nextafter(want, np.float32(np.inf)), want, bound)
    flipped = here(Call(call.expr, {**call.inputs, "rhs": call.inputs["rhs"][..., ::-1, ::-1].copy()}))
    assert flipped.leaves is not None
    with pytest.raises(AssertionError, match="outside the tolerance"):
        assert_within(flipped.leaves[0], want, bound)


prefetch([call for call, _ in RECORDED.values()])


@pytest.fixture(scope="module")
def live() -> dict[str, Outcome]:
    need()
    return dict(zip(RECORDED, evaluate([call for call, _ in RECORDED.values()]), strict=True))


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_recorded_calls_bit_identical_to_live_jax(name: str, live: dict[str, Outcome]) -> None:
    assert_same(_ours(name), live[name], RECORDED[name][0].expr)


def test_wrappers_and_helpers() -> None:
    x, w = _operand((2, 3, 6, 5), np.float32), _operand((4, 3, 3, 2), np.float32)
    full = lax.conv_general_dilated(x, w, (2, 1), "SAME", precision="highest")
    np.testing.assert_array_equal(np.asarray(lax.conv(x, w, (2, 1), "SAME")), np.asarray(full))
    got = lax.conv_with_general_padding(x, w, (1, 1), [(1, 1), (0, 2)], (2, 1), None)
    want = lax.conv_general_dilated(x, w, (1, 1), [(1, 1), (0, 2)], lhs_dilation=(2, 1))
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    dn = lax.conv_dimension_numbers((2, 6, 5, 3), (3, 2, 3, 4), ("NHWC", "HWIO", "NHWC"))
    assert dn == lax.ConvDimensionNumbers((0, 3, 1, 2), (3, 2, 0, 1), (0, 3, 1, 2))
    assert lax.conv_dimension_numbers((1, 1), (1, 1), dn) == dn
    assert lax.conv_general_permutations(("NCHW", "OIHW", "NCHW")) == ((0, 1, 2, 3),) * 3
    assert lax.padtype_to_pads((7, 8), (4, 3), (2, 3), "SAME") == [(1, 2), (0, 1)]
    assert lax.padtype_to_pads((7, 8), (4, 3), (2, 3), "SAME_LOWER") == [(2, 1), (1, 0)]
    assert lax.padtype_to_pads((7,), (4,), (2,), "valid") == [(0, 0)]
    assert lax.conv_shape_tuple((2, 3, 7), (4, 3, 3), (2,), "SAME") == (2, 4, 4)
    nhwc = ("NHWC", "HWIO", "NHWC")
    assert lax.conv_general_shape_tuple((2, 6, 5, 3), (3, 2, 3, 4), (1, 2), "VALID", nhwc) == (2, 4, 2, 4)
    assert lax.conv_transpose_shape_tuple((1, 5, 6, 3), (3, 2, 3, 4), (2, 2), "SAME", nhwc) == (1, 10, 12, 4)
    out = lax.conv_transpose(np.ones((1, 5, 6, 3), np.float32), np.ones((3, 2, 3, 4), np.float32), (2, 2), "SAME")
    assert out.shape == (1, 10, 12, 4)


def test_jit_and_weak_type() -> None:
    x, w = _operand((2, 3, 6), np.float32), _operand((4, 3, 3), np.float32)
    f = jax.jit(lambda a, b: lax.conv(a, b, (1,), "SAME"))
    np.testing.assert_allclose(np.asarray(f(x, w)), np.asarray(lax.conv(x, w, (1,), "SAME")), rtol=1e-6)
    assert lax.conv(x, w, (1,), "VALID").weak_type is False


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("n1,n2", [(7, 3), (3, 7), (4, 4), (1, 5)])
def test_jnp_convolve_correlate_on_conv(mode: str, n1: int, n2: int) -> None:
    """jnp.convolve/correlate are one conv_general_dilated (as in JAX): NumPy's values, and
    inexact results for integer inputs unless preferred_element_type says otherwise."""
    import jax_core.numpy as jnp

    a = _operand((n1,), np.complex64)
    b = _operand((n2,), np.complex64)
    for got, want in ((jnp.convolve(a, b, mode), np.convolve(a, b, mode)), (jnp.correlate(a, b, mode), np.correlate(a, b, mode))):
        assert got.dtype == np.complex64
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)
    ia, ib = np.arange(1, n1 + 1), np.arange(2, n2 + 2)
    got = jnp.convolve(ia, ib, mode)
    assert got.dtype == np.float32
    np.testing.assert_allclose(np.asarray(got), np.convolve(ia, ib, mode))
    exact = jnp.correlate(ia, ib, mode, preferred_element_type=np.int32)
    assert exact.dtype == np.int32
    np.testing.assert_array_equal(np.asarray(exact), np.correlate(ia, ib, mode))
    jaxpr = str(jax.make_jaxpr(lambda x, y: jnp.convolve(x, y, mode))(a, b))
    assert "conv_general_dilated" in jaxpr and "gather" not in jaxpr


RECORDED_JAXPRS = {
    "options": (
        "{ lambda ; a:f32[1,5,5,2] b:f32[3,3,2,3]. let\n    c:f32[1,1,9,3] = conv_general_dilated[\n"
        "      batch_group_count=1\n      dimension_numbers=ConvDimensionNumbers(lhs_spec=(0, 3, 1, 2), "
        "rhs_spec=(3, 2, 0, 1), out_spec=(0, 3, 1, 2))\n      feature_group_count=1\n      lhs_dilation=(1, 2)\n"
        "      out_sharding=None\n      padding=((1, 0), (0, 2))\n      precision=(Precision.HIGHEST, Precision.HIGHEST)\n"
        "      preferred_element_type=float32\n      rhs_dilation=(2, 1)\n      window_strides=(2, 1)\n    ] a b\n  in (c,) }"
    ),
    "transpose": (
        "{ lambda ; a:f32[1,5,2] b:f32[3,2,4]. let\n    c:f32[1,10,4] = conv_general_dilated[\n      batch_group_count=1\n"
        "      dimension_numbers=ConvDimensionNumbers(lhs_spec=(0, 2, 1), rhs_spec=(2, 1, 0), out_spec=(0, 2, 1))\n"
        "      feature_group_count=1\n      lhs_dilation=(2,)\n      out_sharding=None\n      padding=((2, 1),)\n"
        "      precision=None\n      preferred_element_type=None\n      rhs_dilation=(1,)\n      window_strides=(1,)\n"
        "    ] a b\n  in (c,) }"
    ),
}


def test_jaxpr_text_matches_jax() -> None:
    f32 = np.dtype(np.float32)
    text = jaxpr_text(
        lambda a, b: lax.conv_general_dilated(
            a, b, (2, 1), [(1, 0), (0, 2)], (1, 2), (2, 1), ("NHWC", "HWIO", "NHWC"),
            precision="highest", preferred_element_type=np.float32,
        ),
        ((1, 5, 5, 2), f32),
        ((3, 3, 2, 3), f32),
    )
    assert text == RECORDED_JAXPRS["options"]
    text = jaxpr_text(lambda a, b: lax.conv_transpose(a, b, (2,), "SAME"), ((1, 5, 2), f32), ((3, 2, 4), f32))
    assert text == RECORDED_JAXPRS["transpose"]


# -- errors (JAX's classes and messages, checked against JAX 0.12) --------------------------------

X1, W1 = np.ones((2, 4, 6), np.float32), np.ones((6, 4, 3), np.float32)
C = lax.conv_general_dilated


def _dn(spec: Any) -> Any:
    return lambda: C(X1, W1, (1,), "VALID", dimension_numbers=spec)


ERRORS: list[ErrorCase] = [
    ("feature_mismatch", lambda: C(np.ones((2, 4, 6, 6), np.float32), np.ones((6, 2, 3, 3), np.float32), (1, 1), "SAME"),
     ValueError, "conv_general_dilated lhs feature dimension size divided by feature_group_count must equal the rhs input feature dimension size, but 4 // 1 != 2."),
    ("ndim", lambda: C(np.ones((2, 4, 6, 6), np.float32), W1, (1, 1), "SAME"),
     TypeError, "convolution requires lhs and rhs ndim to be equal, got 4 and 3."),
    ("dtype", lambda: C(X1, W1.astype(np.int32), (1,), "SAME"),
     TypeError, "lax.conv_general_dilated requires arguments to have the same dtypes, got float32, int32."),
    ("fgc_divide", lambda: C(X1, W1, (1,), "SAME", feature_group_count=3),
     ValueError, "conv_general_dilated feature_group_count must divide lhs feature dimension size, but 3 does not divide 4."),
    ("fgc_rhs_out", lambda: C(X1, np.ones((5, 2, 3), np.float32), (1,), "SAME", feature_group_count=2),
     ValueError, "conv_general_dilated rhs output feature dimension size must be a multiple of feature_group_count, but 5 is not a multiple of 2."),
    ("fgc_zero", lambda: C(X1, W1, (1,), "SAME", feature_group_count=0),
     ValueError, "conv_general_dilated feature_group_count must be a positive integer, got 0."),
    ("bgc_zero", lambda: C(X1, W1, (1,), "SAME", batch_group_count=0),
     ValueError, "conv_general_dilated batch_group_count must be a positive integer, got 0."),
    ("bgc_divide", lambda: C(np.ones((3, 4, 6), np.float32), W1, (1,), "SAME", batch_group_count=2),
     ValueError, "conv_general_dilated batch_group_count must divide lhs batch dimension size, but 2 does not divide 3."),
    ("bgc_rhs_out", lambda: C(np.ones((4, 4, 6), np.float32), W1, (1,), "SAME", batch_group_count=4),
     ValueError, "conv_general_dilated rhs output feature dimension size must be a multiple of batch_group_count, but 6 is not a multiple of 4."),
    ("both_groups", lambda: C(np.ones((4, 4, 6), np.float32), np.ones((4, 2, 3), np.float32), (1,), "VALID", feature_group_count=2, batch_group_count=2),
     ValueError, "At most one of batch_group_count and feature_group_count may be > 1, got batch_group_count=2 and feature_group_count=2"),
    ("strides_len", lambda: C(X1, W1, (1, 1), [(0, 0)]),
     ValueError, "conv_general_dilated window and window_strides must have the same number of dimensions, but got 1 and 2"),
    ("pad_string", lambda: C(X1, W1, (1,), "FULL"),
     RuntimeError, "Unrecognized padding type: expected 'VALID', 'SAME', or 'SAME_LOWER', got FULL."),
    ("pad_pairs", lambda: C(X1, W1, (1,), [1]),  # type: ignore[list-item]
     ValueError, "padding argument to conv_general_dilated should be a string or a sequence of (low, high) pairs, got [1]"),
    ("pad_count", lambda: C(X1, W1, (1,), [(0, 0), (1, 1)]),
     TypeError, "Wrong number of explicit pads for convolution: expected 1, got 2."),
    ("pad_negative", lambda: C(X1, W1, (1,), [(-4, -3)]),
     ValueError, "Negative padding is larger than the size of the corresponding dimension: got padding=((-4, -3),) for lhs_shape[2:]=(np.int64(6),)"),
    ("string_pad_lhs_dilation", lambda: C(X1, W1, (1,), "SAME", lhs_dilation=(2,)),
     ValueError, "String padding is not implemented for transposed convolution using this op. Please either exactly specify the required padding or use conv_transpose."),
    ("dilation_zero", lambda: C(X1, W1, (1,), "VALID", rhs_dilation=(0,)),
     TypeError, "All dilations must be positive, got (0,)."),
    ("dn_chars", _dn(("NCH", "OIH", "NXH")),
     TypeError, "convolution dimension_numbers[2] must contain the characters 'N' and 'C' exactly once, got NXH."),
    ("dn_spatial", _dn(("NCH", "OIW", "NCH")),
     TypeError, "convolution dimension_numbers elements must each have the same set of spatial characters, got ('NCH', 'OIW', 'NCH')."),
    ("dn_len", _dn(("NCHW", "OIH", "NCH")),
     TypeError, "convolution dimension_numbers[0] must have len equal to the ndim of lhs and rhs, got 4 for lhs and rhs shapes (2, 4, 6) and (6, 4, 3)."),
    ("dn_count", _dn(("NCH", "OIH")),
     TypeError, "convolution dimension_numbers list/tuple must be length 3, got 2."),
    ("dn_types", _dn(("NCH", 1, "NCH")),
     TypeError, "convolution dimension_numbers elements must be strings, got (<class 'str'>, <class 'int'>, <class 'str'>)."),
    ("dn_type", _dn("NCH"),
     TypeError, "convolution dimension_numbers must be tuple/list or None, got <class 'str'>."),
    ("pet_narrow", lambda: C(X1.astype(np.int32), W1.astype(np.int32), (1,), "VALID", preferred_element_type=np.int16),
     TypeError, "`preferred_element_type` must not be narrower than the original type."),
    ("pet_kind", lambda: C(X1, W1, (1,), "VALID", preferred_element_type=np.int32),
     TypeError, "Input type is incompatible with `preferred_element_type`. The compatible combinations of (input_type, preferred_element_type) are (integral, integral), (integral, floating), (floating, floating), (complex, complex."),
    ("pet_sign", lambda: C(X1.astype(np.int8), W1.astype(np.int8), (1,), "VALID", preferred_element_type=np.uint16),
     TypeError, "`preferred_element_type` must have the same signedness as the original type."),
    ("padtype", lambda: lax.padtype_to_pads((4,), (2,), (1,), "bad"),
     RuntimeError, "Unrecognized padding type: expected 'VALID', 'SAME', or 'SAME_LOWER', got bad."),
    ("transpose_ndim", lambda: lax.conv_transpose(np.ones((1,) * 6), np.ones((1,) * 6), (1,) * 4, "SAME"),
     ValueError, "No 4+ dimensional dimension_number defaults."),
    ("transpose_pad", lambda: lax.conv_transpose(np.ones((1, 5, 2)), np.ones((3, 2, 2)), (1,), [[1, 1]], use_consistent_padding=True),  # type: ignore[list-item]
     ValueError, "Invalid padding mode: [1, 1]"),
]

test_errors = errors_test(ERRORS)
