"""One test per public ``jax_core.numpy`` name: each is called and compared with NumPy.

``NUMPY_SAME`` entries call ``jnp.<name>`` and ``np.<name>`` with the same arguments;
``CUSTOM`` entries give a pair of callables (jax_core, reference) for names whose NumPy
counterpart differs (``size=`` arguments, immutability) or does not exist.
``test_every_reference_name_has_a_case`` ties the table to api/jnp_reference.txt.
"""

from __future__ import annotations

import pathlib
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp

ROOT = pathlib.Path(__file__).resolve().parents[2]
rng = np.random.default_rng(0)
F = rng.uniform(-2, 2, (3, 4)).astype(np.float32)
P = rng.uniform(0.1, 2, (3, 4)).astype(np.float32)
U = rng.uniform(-0.9, 0.9, (3, 4)).astype(np.float32)
I = rng.integers(-5, 6, (3, 4)).astype(np.int32)
IP = rng.integers(1, 9, (3, 4)).astype(np.int32)
B = rng.integers(0, 2, (3, 4)).astype(bool)
V = np.array([3.0, 1.0, 2.0, 1.0, 5.0], np.float32)
S = rng.uniform(-1, 1, (3, 3)).astype(np.float32)
SPD = (S @ S.T + 3 * np.eye(3)).astype(np.float32)
C = (F + 1j * P).astype(np.complex64)

Args = tuple[tuple[Any, ...], dict[str, Any]]


def a(*args: Any, **kwargs: Any) -> Args:
    return args, kwargs


UNARY_F = "abs absolute arccos arccosh arcsin arcsinh arctan arctanh cbrt ceil conj conjugate cos cosh deg2rad degrees exp exp2 expm1 fabs floor imag isfinite isinf isnan isneginf isposinf log log10 log1p log2 negative positive rad2deg radians real reciprocal rint sign signbit sin sinc sinh spacing sqrt square tan tanh trunc iscomplex isreal angle i0 nan_to_num".split()
DOMAIN = {"arccosh": P + 1, "log": P, "log10": P, "log2": P, "sqrt": P, "arccos": U, "arcsin": U, "arctanh": U, "reciprocal": P, "log1p": P, "fix": F}
BINARY_F = "add arctan2 copysign divide equal float_power floor_divide fmax fmin fmod greater greater_equal heaviside hypot less less_equal logaddexp logaddexp2 logical_and logical_or logical_xor maximum minimum mod multiply nextafter not_equal power remainder subtract true_divide".split()
BINARY_I = "bitwise_and bitwise_or bitwise_xor gcd lcm left_shift right_shift".split()
REDUCE = "all any amax amin argmax argmin count_nonzero cumprod cumsum max mean median min nanargmax nanargmin nancumprod nancumsum nanmax nanmean nanmedian nanmin nanprod nanstd nansum nanvar prod ptp std sum var".split()
ALIASES = {"acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh", "atan": "arctan", "atanh": "arctanh", "atan2": "arctan2", "bitwise_invert": "invert", "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift", "pow": "power", "around": "round", "concat": "concatenate", "permute_dims": "transpose"}

NUMPY_SAME: dict[str, Args] = {}
for n in UNARY_F:
    NUMPY_SAME[n] = a(DOMAIN.get(n, F))
for n in BINARY_F:
    NUMPY_SAME[n] = a(F, P if n in ("floor_divide", "fmod", "mod", "remainder", "divide", "true_divide", "power", "float_power") else F[::-1])
NUMPY_SAME["power"] = a(P, F)
NUMPY_SAME["float_power"] = a(P, F)
for n in BINARY_I:
    NUMPY_SAME[n] = a(IP, np.abs(I) % 4 if "shift" in n else IP[::-1])
for n in REDUCE:
    NUMPY_SAME[n] = a(F, axis=1) if not n.startswith("nancum") and n not in ("cumsum", "cumprod") else a(F, axis=0)
NUMPY_SAME.update(
    {
        "invert": a(I),
        "bitwise_not": a(I),
        "bitwise_count": a(I),
        "logical_not": a(B),
        "round": a(F, 1),
        "around": a(F, 1),
        "clip": a(F, -1, 1),
        "isclose": a(F, F + 1e-9),
        "allclose": a(F, F),
        "array_equal": a(F, F),
        "array_equiv": a(F, F[0]),
        "frexp": a(F),
        "ldexp": a(F, I),
        "modf": a(F),
        "divmod": a(F, P),
        "arange": a(2, 9, 2),
        "linspace": a(0.0, 1.0, 5),
        "logspace": a(0.0, 2.0, 3),
        "geomspace": a(1.0, 8.0, 4),
        "eye": a(3, 4, 1),
        "identity": a(3),
        "tri": a(3, 4, -1),
        "tril": a(F, 1),
        "triu": a(F, -1),
        "diag": a(V, 1),
        "diagflat": a(V[:3]),
        "diagonal": a(F, 1),
        "trace": a(F),
        "zeros": a((2, 3)),
        "ones": a((2, 3)),
        "empty": a((2, 3)),
        "full": a((2, 3), 7.0),
        "zeros_like": a(F),
        "ones_like": a(F),
        "empty_like": a(F),
        "full_like": a(F, 2.0),
        "array": a([[1.0, 2.0], [3.0, 4.0]]),
        "asarray": a(F),
        "copy": a(F),
        "indices": a((2, 3)),
        "meshgrid": a(V[:2], V[:3]),
        "reshape": a(F, (4, 3)),
        "ravel": a(F),
        "transpose": a(F),
        "permute_dims": a(F, (1, 0)),
        "moveaxis": a(F[None], 0, -1),
        "rollaxis": a(F[None], 2),
        "swapaxes": a(F, 0, 1),
        "squeeze": a(F[None]),
        "expand_dims": a(F, 1),
        "concatenate": a([F, F], 1),
        "concat": a([F, F]),
        "stack": a([F, F], 1),
        "hstack": a([F, F]),
        "vstack": a([F, F]),
        "dstack": a([F, F]),
        "column_stack": a([V, V]),
        "split": a(F, 2, 1),
        "array_split": a(V, 3),
        "hsplit": a(F, 2),
        "vsplit": a(F, [1]),
        "dsplit": a(F[:, :, None].repeat(4, 2), 2),
        "tile": a(F, (2, 1)),
        "repeat": a(F, 2, 0),
        "flip": a(F, 1),
        "fliplr": a(F),
        "flipud": a(F),
        "roll": a(F, 1, 1),
        "rot90": a(F),
        "pad": a(F, ((1, 0), (2, 1))),
        "broadcast_to": a(V, (2, 5)),
        "broadcast_arrays": a(V, V[:, None]),
        "broadcast_shapes": a((3, 1), (4,)),
        "atleast_1d": a(1.0),
        "atleast_2d": a(V),
        "atleast_3d": a(F),
        "take": a(F, np.array([0, 5, 2])),
        "take_along_axis": a(F, np.argsort(F, 1), 1),
        "where": a(B, F, 0.0),
        "select": a([B, ~B], [F, P], 0.0),
        "piecewise": a(F, [F < 0, F >= 0], [-1.0, 1.0]),
        "argwhere": a(B),
        "nonzero": a(B),
        "flatnonzero": a(B),
        "extract": a(B, F),
        "compress": a(np.array([True, False, True]), F, 0),
        "choose": a(np.array([0, 1, 0, 1]), [V[:4], V[1:]]),
        "sort": a(F, 1),
        "argsort": a(V),
        "lexsort": a((V, V[::-1])),
        "searchsorted": a(np.sort(V), F),
        "digitize": a(F, np.array([-1.0, 0.0, 1.0])),
        "sort_complex": a(C[0]),
        "unique": a(I),
        "union1d": a(I[0], I[1]),
        "intersect1d": a(I[0], I[1]),
        "setdiff1d": a(I[0], I[1]),
        "setxor1d": a(I[0], I[1]),
        "isin": a(I, I[0]),
        "bincount": a(IP.ravel()),
        "histogram": a(F.ravel(), 4),
        "histogram_bin_edges": a(F.ravel(), 4),
        "histogram2d": a(F.ravel(), P.ravel(), 3),
        "histogramdd": a(np.stack([F.ravel(), P.ravel()], 1), 3),
        "quantile": a(F, 0.3, 1),
        "percentile": a(F, np.array([10, 90]), 0),
        "nanquantile": a(F, 0.3, 1),
        "nanpercentile": a(F, 40),
        "average": a(F, 1, P[0]),
        "cov": a(F),
        "corrcoef": a(F),
        "dot": a(F, F.T),
        "vdot": a(F, F),
        "inner": a(F, F),
        "outer": a(V, V),
        "matmul": a(F, F.T),
        "tensordot": a(F, F, ((0, 1), (0, 1))),
        "einsum": a("ij,kj->ik", F, F),
        "kron": a(S, S[:2]),
        "cross": a(F[:, :3], P[:, :3]),
        "vecdot": a(F, P),
        "matvec": a(F, V[:4]),
        "vecmat": a(V[:3], F),
        "diff": a(F, 1, 0),
        "ediff1d": a(V),
        "gradient": a(V),
        "trapezoid": a(F),
        "interp": a(F, np.sort(V), V),
        "unwrap": a(F * 4),
        "convolve": a(V, V[:3]),
        "correlate": a(V, V[:3], "full"),
        "vander": a(V[:3]),
        "polyval": a(V[:3], F),
        "polyadd": a(V[:3], V),
        "polysub": a(V[:3], V),
        "polymul": a(V[:3], V[:2]),
        "polyder": a(V),
        "polyint": a(V),
        "poly": a(V[:3]),
        "polyfit": a(V, V**2, 2),
        "roots": a(np.array([1.0, -3.0, 2.0], np.float32)),
        "bartlett": a(5),
        "blackman": a(5),
        "hamming": a(5),
        "hanning": a(5),
        "kaiser": a(5, 3.0),
        "packbits": a(B),
        "unpackbits": a(np.array([3, 255], np.uint8)),
        "unravel_index": a(np.array([1, 7]), (3, 4)),
        "ravel_multi_index": a((np.array([1, 2]), np.array([0, 3])), (3, 4)),
        "tril_indices": a(3),
        "triu_indices": a(3, 1),
        "tril_indices_from": a(F),
        "triu_indices_from": a(F),
        "diag_indices": a(3),
        "diag_indices_from": a(S),
        "mask_indices": a(3, np.triu),
        "ix_": a(np.array([0, 2]), np.array([1, 3])),
        "append": a(V, V),
        "insert": a(V, 2, 9.0),
        "delete": a(V, np.array([0, 2])),  # a list index is a TypeError, as in JAX
        "resize": a(V, (2, 4)),
        "trim_zeros": a(np.array([0, 0, 1, 2, 0], np.float32)),
        "cumulative_sum": a(F, axis=1),
        "cumulative_prod": a(F, axis=0),
        "apply_along_axis": a(np.sum, 1, F),
        "apply_over_axes": a(np.sum, F, [0]),
        "shape": a(F),
        "ndim": a(F),
        "size": a(F),
        "result_type": a(np.float32, np.int8),
        "promote_types": a(np.float16, np.int8),
        "can_cast": a(np.int8, np.int32),
        "issubdtype": a(np.float32, np.floating),
        "isdtype": a(np.dtype(np.float32), "real floating"),
        "iscomplexobj": a(C),
        "isrealobj": a(F),
        "isscalar": a(1.0),
        "iterable": a(F),
        "fromstring": a("1 2 3", sep=" "),
        "frombuffer": a(b"\x01\x02", np.uint8),
        "block": a([[S, S], [S, S]]),
        "partition": a(V, 2),
        "argpartition": a(V, 2),
        "unstack": a(F),
        "astype": a(F, np.int32),
        "matrix_transpose": a(F),
        "fill_diagonal": a(S, 5.0, inplace=False),
        "put": a(V, np.array([0, 2]), np.array([9.0, 8.0], np.float32), inplace=False),
        "put_along_axis": a(F, np.zeros((3, 1), int), 9.0, 1, inplace=False),
        "place": a(V, V > 2, np.array([7.0, 6.0], np.float32), inplace=False),
        "fromfunction": a(lambda i, j: i + j, (2, 3)),
        "get_printoptions": a(),
        "array_str": a(V),
        "minmax": a(F),
        "top_k": a(V, 2),
    }
)


def _np_minmax(x: Any) -> tuple[Any, Any]:
    return np.min(x), np.max(x)


def _np_top_k(x: Any, k: int) -> tuple[Any, Any]:
    idx = np.argsort(-x, kind="stable")[:k]
    return x[idx], idx


def _np_put(x: Any, ind: Any, v: Any, inplace: bool) -> Any:
    y = np.array(x)
    np.put(y, ind, v)
    return y


def _np_put_along_axis(x: Any, ind: Any, v: Any, axis: int, inplace: bool) -> Any:
    y = np.array(x)
    np.put_along_axis(y, ind, v, axis)
    return y


def _np_place(x: Any, mask: Any, v: Any, inplace: bool) -> Any:
    y = np.array(x)
    np.place(y, mask, v)
    return y


def _np_fill_diagonal(x: Any, v: Any, inplace: bool) -> Any:
    y = np.array(x)
    np.fill_diagonal(y, v)
    return y


NUMPY_FN: dict[str, Callable[..., Any]] = {
    "minmax": _np_minmax,
    "top_k": _np_top_k,
    "put": _np_put,
    "put_along_axis": _np_put_along_axis,
    "place": _np_place,
    "fill_diagonal": _np_fill_diagonal,
    "unstack": lambda x: tuple(x),
    "astype": lambda x, d: x.astype(d),
    "matrix_transpose": lambda x: np.swapaxes(x, -1, -2),
    "cumulative_sum": lambda x, axis: np.cumsum(x, axis),
    "cumulative_prod": lambda x, axis: np.cumprod(x, axis),
    "acos": np.arccos,
    "trapezoid": np.trapezoid,
    # JAX's layout (two top_k calls): the k+1 smallest ascending, then the rest descending; the
    # indices of the k+1 smallest, then the others in their original order
    "partition": lambda x, k: np.concatenate([np.sort(x)[: k + 1], np.sort(x)[k + 1 :][::-1]]),
    "argpartition": lambda x, k: np.concatenate(
        [np.argsort(x, kind="stable")[: k + 1], np.sort(np.argsort(x, kind="stable")[k + 1 :])]
    ),
    "apply_along_axis": np.apply_along_axis,
    "apply_over_axes": np.apply_over_axes,
    "empty": np.zeros,
    "empty_like": np.zeros_like,
    "sort_complex": np.sort_complex,
}

for _alias, _target in ALIASES.items():
    if _alias not in NUMPY_SAME and _target in NUMPY_SAME:
        NUMPY_SAME[_alias] = NUMPY_SAME[_target]
NUMPY_SAME["bitwise_invert"] = NUMPY_SAME["invert"]

# Names compared by a custom check (no NumPy twin, or JAX-specific semantics).
CUSTOM: dict[str, Callable[[], None]] = {}


def custom(name: str) -> Callable[[Callable[[], None]], Callable[[], None]]:
    def deco(fn: Callable[[], None]) -> Callable[[], None]:
        CUSTOM[name] = fn
        return fn

    return deco


SCALAR_TYPES = "bfloat16 bool bool_ cdouble complex128 complex64 complex_ csingle double float16 float32 float64 float_ int16 int32 int64 int8 int_ single uint uint16 uint32 uint64 uint8 int1 int2 int4 uint1 uint2 uint4 float4_e2m1fn float6_e2m3fn float6_e3m2fn float8_e3m4 float8_e4m3 float8_e4m3b11fnuz float8_e4m3fn float8_e4m3fnuz float8_e5m2 float8_e5m2fnuz float8_e8m0fnu".split()
ABSTRACT = "character complexfloating flexible floating generic inexact integer number object_ signedinteger unsignedinteger dtype".split()
for _n in SCALAR_TYPES:

    def _check_scalar(n: str = _n) -> None:
        t = getattr(jnp, n)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # 64-bit types warn without x64, as in JAX
            out = t(1)
            if n not in ("int1", "uint1"):  # XLA has no 1-bit broadcast
                assert jnp.zeros(2, t).dtype == out.dtype
        assert isinstance(out, jax.Array)
        assert out.dtype == jax.dtypes.canonicalize_dtype(t.dtype)

    CUSTOM[_n] = _check_scalar
for _n in ABSTRACT:
    CUSTOM[_n] = lambda n=_n: None if getattr(jnp, n) is getattr(np, n) else pytest.fail(n)


@custom("finfo")
def _finfo() -> None:
    assert jnp.finfo(jnp.bfloat16).bits == 16 and jnp.finfo(jnp.float32).eps == np.finfo(np.float32).eps


@custom("iinfo")
def _iinfo() -> None:
    assert jnp.iinfo(jnp.int8).max == 127


@custom("ComplexWarning")
def _cw() -> None:
    assert issubclass(jnp.ComplexWarning, Warning)


@custom("ufunc")
def _ufunc() -> None:
    add = jnp.ufunc(lambda x, y: x + y, 2, 1, identity=0)
    np.testing.assert_array_equal(add.reduce(jnp.arange(5)), 10)
    np.testing.assert_array_equal(add.outer(jnp.arange(2), jnp.arange(3)), np.add.outer(np.arange(2), np.arange(3)))
    np.testing.assert_array_equal(add.accumulate(jnp.arange(4)), np.cumsum(np.arange(4)))


@custom("frompyfunc")
def _frompyfunc() -> None:
    f = jnp.frompyfunc(lambda x, y: x * y + 1, 2, 1)
    np.testing.assert_array_equal(f(jnp.arange(3), 2), np.arange(3) * 2 + 1)


@custom("vectorize")
def _vectorize() -> None:
    f = jnp.vectorize(lambda x, y: jnp.dot(x, y), signature="(n),(n)->()")
    np.testing.assert_allclose(f(F, P), np.sum(F * P, axis=1), rtol=1e-5)
    g = jnp.vectorize(lambda x: x * 2)
    np.testing.assert_allclose(g(F), F * 2)


@custom("einsum_path")
def _einsum_path() -> None:
    path, report = jnp.einsum_path("ij,jk,kl->il", S, S, S)
    assert path[0] == "einsum_path" and "Complete contraction" in report


@custom("printoptions")
def _printoptions() -> None:
    with jnp.printoptions(precision=2):
        assert jnp.get_printoptions()["precision"] == 2


@custom("set_printoptions")
def _set_printoptions() -> None:
    old = jnp.get_printoptions()
    jnp.set_printoptions(precision=3)
    assert jnp.get_printoptions()["precision"] == 3
    jnp.set_printoptions(**old)


@custom("array_repr")
def _array_repr() -> None:
    assert jnp.array_repr(jnp.arange(3)) == "ArrayImpl([0, 1, 2], dtype=int32)"  # NumPy's, as jax.numpy re-exports it


@custom("save")
def _save(tmp: pathlib.Path | None = None) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        jnp.save(f"{d}/x.npy", jnp.arange(3))
        np.testing.assert_array_equal(jnp.load(f"{d}/x.npy"), np.arange(3))
        jnp.savez(f"{d}/y.npz", a=jnp.arange(2))
        assert np.load(f"{d}/y.npz")["a"].tolist() == [0, 1]


CUSTOM["load"] = CUSTOM["save"]
CUSTOM["savez"] = CUSTOM["save"]


@custom("from_dlpack")
def _from_dlpack() -> None:
    np.testing.assert_array_equal(jnp.from_dlpack(np.arange(3)), np.arange(3))


@custom("fromfile")
def _fromfile() -> None:
    with pytest.raises(NotImplementedError, match="fromfile"):
        jnp.fromfile("x")


@custom("fromiter")
def _fromiter() -> None:
    with pytest.raises(NotImplementedError, match="fromiter"):
        jnp.fromiter(iter([1]))


@custom("unique_all")
def _unique_all() -> None:
    r = jnp.unique_all(jnp.array([3, 1, 3, 2]))
    np.testing.assert_array_equal(r.values, [1, 2, 3])
    np.testing.assert_array_equal(r.indices, [1, 3, 0])
    np.testing.assert_array_equal(r.inverse_indices, [2, 0, 2, 1])
    np.testing.assert_array_equal(r.counts, [1, 1, 2])


@custom("unique_counts")
def _unique_counts() -> None:
    r = jnp.unique_counts(jnp.array([3, 1, 3]))
    np.testing.assert_array_equal(r.counts, [1, 2])


@custom("unique_inverse")
def _unique_inverse() -> None:
    r = jnp.unique_inverse(jnp.array([[3, 1], [3, 2]]))
    np.testing.assert_array_equal(r.inverse_indices, [[2, 0], [2, 1]])


@custom("unique_values")
def _unique_values() -> None:
    np.testing.assert_array_equal(jnp.unique_values(jnp.array([3, 1, 3])), [1, 3])


@custom("polydiv")
def _polydiv() -> None:
    q, r = jnp.polydiv(jnp.asarray(V), jnp.asarray(V[:2]))
    qn, rn = np.polydiv(V, V[:2])
    np.testing.assert_allclose(q, qn, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(r)[-len(rn) :], rn, rtol=1e-4, atol=1e-5)


@custom("ndarray")
def _ndarray() -> None:
    assert isinstance(jnp.ones(2), jnp.ndarray)


def _close(got: Any, want: Any) -> None:
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)), (type(got), type(want))
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _close(g, w)
        return
    if isinstance(want, (bool, str, np.dtype, type)) or want is None:
        assert got == want or np.dtype(got) == np.dtype(want)
        return
    if isinstance(want, dict):
        return
    w = np.asarray(want)
    g = np.asarray(got)
    assert g.shape == w.shape, (g.shape, w.shape)
    if w.dtype.kind in "fc":
        np.testing.assert_allclose(g, w, rtol=2e-4, atol=2e-5, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, w)


def _jnp_args(args: tuple[Any, ...]) -> tuple[Any, ...]:
    def conv(x: Any) -> Any:
        if isinstance(x, np.ndarray):
            return jnp.asarray(x)
        if isinstance(x, list) and x and isinstance(x[0], np.ndarray):
            return [jnp.asarray(v) for v in x]
        if isinstance(x, tuple) and x and isinstance(x[0], np.ndarray):
            return tuple(jnp.asarray(v) for v in x)
        return x

    return tuple(conv(v) for v in args)


@pytest.mark.parametrize("name", sorted(NUMPY_SAME))
def test_against_numpy(name: str) -> None:
    args, kwargs = NUMPY_SAME[name]
    fn = getattr(jnp, name)
    ref = NUMPY_FN.get(name) or getattr(np, ALIASES.get(name, name))
    want = ref(*args, **kwargs)
    jargs = _jnp_args(args)
    if name in ("apply_along_axis", "apply_over_axes"):
        jargs = (getattr(jnp, args[0].__name__), *jargs[1:])
    if name == "mask_indices":
        jargs = (args[0], jnp.triu)
    got = fn(*jargs, **kwargs)
    _close(got, want)


@pytest.mark.parametrize("name", sorted(CUSTOM))
def test_custom(name: str) -> None:
    CUSTOM[name]()


def test_every_reference_name_has_a_case() -> None:
    ref = [line.split() for line in (ROOT / "api" / "jnp_reference.txt").read_text().splitlines() if line and not line.startswith("#")]
    names = {n for m, n in ref if m == "jax.numpy"}
    covered = set(NUMPY_SAME) | set(CUSTOM)
    present = {n for n in names if callable(getattr(jnp, n, None))}
    assert sorted(present - covered) == []
