"""Tests of the dtype layer against facts recorded from real JAX.

``tests/data/promotion_table.json`` is written by ``tools/record_promotion_table.py``
(run with the real-JAX venv); every table is checked in both x64 modes.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jax_core._src import config, dtypes

TABLE_PATH = Path(__file__).parent / "data" / "promotion_table.json"
TABLE: dict[str, Any] = json.loads(TABLE_PATH.read_text())
MODES = ["x64_off", "x64_on"]

WEAK_SPECS: dict[str, type[Any]] = {"int": int, "float": float, "complex": complex, "pybool": bool}
PY_VALUES: dict[str, Any] = {"v:bool": True, "v:int": 1, "v:float": 1.0, "v:complex": 1j}


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest) -> Iterator[str]:
    """Runs a test once per x64 mode, with the flag set for the test's duration."""
    name: str = request.param
    with config.enable_x64(name == "x64_on"):
        yield name


def _spec(name: str) -> Any:
    return WEAK_SPECS[name] if name in WEAK_SPECS else np.dtype(name)


class Val:
    """A stand-in for an array value: a dtype and a weak_type."""

    def __init__(self, dtype: np.dtype[Any], weak: bool) -> None:
        self.dtype = dtype
        self.weak_type = weak
        self.shape = ()

    def __repr__(self) -> str:
        return f"Val({self.dtype}, weak={self.weak_type})"


def _value(key: str) -> Any:
    if key in PY_VALUES:
        return PY_VALUES[key]
    name, kind = key.split(":")
    return Val(np.dtype(name), kind == "w")


def _call_result_type(*args: Any) -> dict[str, Any]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            d, weak = dtypes.result_type(*args, return_weak_type_flag=True)
            res: list[Any] = [d.name, weak]
        except Exception as e:  # noqa: BLE001
            res = ["!" + type(e).__name__]
    out: dict[str, Any] = {"r": res}
    if any(issubclass(w.category, UserWarning) for w in caught):
        out["w"] = 1
    return out


# ---------------------------------------------------------------------------
# Against the recorded tables.
# ---------------------------------------------------------------------------


def test_table_covers_every_promotable_dtype() -> None:
    names = [d.name for d in dtypes.PROMOTABLE_DTYPES]
    for m in MODES:
        assert TABLE[m]["strong_names"] == names
    assert len(TABLE["x64_off"]["promote_types"]) == (len(names) + 4) ** 2


def test_promote_types_matches_jax(mode: str) -> None:
    mismatches: list[tuple[Any, ...]] = []
    for key, expected in TABLE[mode]["promote_types"].items():
        a, b = key.split("|")
        try:
            got: Any = dtypes.promote_types(_spec(a), _spec(b)).name
        except Exception as e:  # noqa: BLE001
            got = {"error": type(e).__name__, "message": str(e)}
        if got != expected:
            mismatches.append((key, got, expected))
    assert not mismatches, mismatches[:10]


def test_result_type_of_dtypes_matches_jax(mode: str) -> None:
    mismatches: list[tuple[Any, ...]] = []
    for key, expected in TABLE[mode]["result_type_dtypes"].items():
        got = _call_result_type(*(_spec(n) for n in key.split("|")))
        if got != expected:
            mismatches.append((key, got, expected))
    assert not mismatches, mismatches[:10]


# JAX raises KeyError('V') in result_type when the promoted type is a *weak*
# sub-byte integer (e.g. weak int4, or weak int4 with weak bool): its
# default_types lookup uses dtype.kind, which is 'V' for ml_dtypes' int4.
# jax_core gives the default (unsigned) integer dtype, as for weak int8/uint8.
_SUB_BYTE_INTS = {"int1", "uint1", "int2", "uint2", "int4", "uint4"}


def test_result_type_of_values_matches_jax(mode: str) -> None:
    mismatches: list[tuple[Any, ...]] = []
    checked = known_bug = 0
    for key, expected in TABLE[mode]["result_type_values"].items():
        got = _call_result_type(*(_value(k) for k in key.split("|")))
        if expected["r"] == ["!KeyError"]:
            lattice_name, lattice_weak = expected["l"]
            assert lattice_name in _SUB_BYTE_INTS and lattice_weak, key
            unsigned = lattice_name.startswith("u")
            default = dtypes.default_uint_dtype() if unsigned else dtypes.default_int_dtype()
            assert got["r"] == [default.name, True], key
            known_bug += 1
            continue
        checked += 1
        if got["r"] != expected["r"] or got.get("w") != expected.get("w"):
            mismatches.append((key, got, expected))
    assert checked > 4000 and known_bug < 100
    assert not mismatches, mismatches[:10]


def test_lattice_result_type_matches_jax(mode: str) -> None:
    # The core calls lattice_result_type with its avals' (dtype, weak_type), which
    # are canonical; JAX canonicalizes the dtype of a value before promoting.
    mismatches: list[tuple[Any, ...]] = []
    for key, expected in TABLE[mode]["result_type_values"].items():
        keys = key.split("|")
        if any(k in PY_VALUES for k in keys):
            continue
        pairs: list[tuple[np.dtype[Any], bool]] = []
        for k in keys:
            name, kind = k.split(":")
            pairs.append((dtypes.canonicalize_dtype(name), kind == "w"))
        try:
            d, weak = dtypes.lattice_result_type(*pairs)
            got: list[Any] = [d.name, weak]
        except Exception as e:  # noqa: BLE001
            got = ["!" + type(e).__name__]
        if got != expected["l"]:
            mismatches.append((key, got, expected["l"]))
    assert not mismatches, mismatches[:10]


def test_canonicalize_dtype_matches_jax(mode: str) -> None:
    for name, expected in TABLE[mode]["canonicalize_dtype"].items():
        assert dtypes.canonicalize_dtype(_spec(name)).name == expected, name


def test_short_dtype_names_match_jaxpr_printing() -> None:
    # JAX's own short_dtype_name gives 'void' for float0 and its core's printer
    # replaces it; jax_core's short_dtype_name prints 'float0' directly.
    for name, printed in TABLE["x64_off"]["str_short"].items():
        dt = dtypes.float0 if name == "float0" else np.dtype(name)
        shape = "[2]" if name == "float0" else "[2,3]"
        assert dtypes.short_dtype_name(dt) + shape == printed, name
    assert dtypes.short_dtype_name(np.dtype("float32")) == "f32"
    assert dtypes.short_dtype_name(np.dtype(dtypes.bfloat16)) == "bf16"
    assert dtypes.short_dtype_name(np.dtype("uint8")) == "u8"


def test_issubdtype_matches_jax() -> None:
    cats: dict[str, Any] = {
        "generic": np.generic,
        "number": np.number,
        "integer": np.integer,
        "signedinteger": np.signedinteger,
        "unsignedinteger": np.unsignedinteger,
        "inexact": np.inexact,
        "floating": np.floating,
        "complexfloating": np.complexfloating,
        "bool_": np.bool_,
        "extended": dtypes.extended,
        "prng_key": dtypes.prng_key,
    }
    firsts: dict[str, Any] = {"extended_cls": dtypes.extended, "prng_key_cls": dtypes.prng_key}
    facts = TABLE["x64_off"]["issubdtype"]
    assert len(facts) > 300
    for key, expected in facts.items():
        a, b = key.split("|")
        a_spec = firsts[a] if a in firsts else np.dtype(a)
        b_spec = cats[b] if b in cats else np.dtype(b)
        assert dtypes.issubdtype(a_spec, b_spec) == expected, key


def test_scalar_type_of_matches_jax() -> None:
    for name, expected in TABLE["x64_off"]["scalar_type_of"].items():
        assert dtypes.scalar_type_of(np.zeros((), name)).__name__ == expected, name
    assert dtypes.scalar_type_of(1.0) is float
    assert dtypes.scalar_type_of(True) is bool


# ---------------------------------------------------------------------------
# Hand-written facts (checked against real JAX when written).
# ---------------------------------------------------------------------------


def test_canonicalize_dtype_follows_the_flag() -> None:
    with config.enable_x64(False):
        assert dtypes.canonicalize_dtype(np.int64) == np.dtype("int32")
        assert dtypes.canonicalize_dtype("uint64") == np.dtype("uint32")
        assert dtypes.canonicalize_dtype(float) == np.dtype("float32")
        assert dtypes.canonicalize_dtype(None) == np.dtype("float32")
        assert dtypes.canonicalize_dtype(np.complex128) == np.dtype("complex64")
        assert dtypes.default_int_dtype() == np.dtype("int32")
        assert dtypes.default_float_dtype() == np.dtype("float32")
        assert dtypes.default_complex_dtype() == np.dtype("complex64")
    with config.enable_x64(True):
        assert dtypes.canonicalize_dtype(np.int64) == np.dtype("int64")
        assert dtypes.canonicalize_dtype(float) == np.dtype("float64")
        assert dtypes.default_int_dtype() == np.dtype("int64")
        assert dtypes.default_float_dtype() == np.dtype("float64")
        assert dtypes.default_complex_dtype() == np.dtype("complex128")
    assert dtypes.canonicalize_dtype(dtypes.bfloat16) == np.dtype(ml_dtypes.bfloat16)


def test_invalid_dtype_names_raise_type_error() -> None:
    with pytest.raises(TypeError, match="data type 'foo' not understood"):
        dtypes.canonicalize_dtype("foo")
    with pytest.raises(TypeError, match="data type 'foo' not understood"):
        dtypes.promote_types("foo", "int32")
    with pytest.raises(TypeError, match="data type 'a' not understood"):
        dtypes.result_type("a")
    with pytest.raises(TypeError, match=r"Cannot determine dtype of \[1, 2\]"):
        dtypes.result_type([1, 2])
    with pytest.raises(TypeError, match="is not a valid JAX array type"):
        dtypes.dtype("str")
    with pytest.raises(ValueError, match="at least one array or dtype is required"):
        dtypes.result_type()
    with pytest.raises(ValueError, match="Invalid argument to dtype"):
        dtypes.dtype(None)
    with pytest.raises(ValueError, match="not a valid dtype for JAX type promotion"):
        dtypes.promote_types(np.dtype("O"), "int8")
    with pytest.raises(ValueError, match="allow_extended_dtype=False"):
        dtypes.canonicalize_dtype(dtypes.prng_key)


def test_type_promotion_error() -> None:
    assert issubclass(dtypes.TypePromotionError, ValueError)
    with pytest.raises(dtypes.TypePromotionError, match="8-bit floats do not support"):
        dtypes.promote_types(dtypes.bfloat16, dtypes.float8_e4m3fn)
    with pytest.raises(dtypes.TypePromotionError, match="4-bit integers do not support"):
        dtypes.promote_types(dtypes.int4, np.int8)
    with pytest.raises(dtypes.TypePromotionError, match=r"\('int4', \"<class 'float'>\"\)"):
        dtypes.promote_types(dtypes.int4, float)


def test_weak_typing() -> None:
    assert dtypes.is_weakly_typed(1)
    assert dtypes.is_weakly_typed(1.0)
    assert dtypes.is_weakly_typed(1j)
    assert not dtypes.is_weakly_typed(True)
    assert not dtypes.is_weakly_typed(np.float32(1))
    assert not dtypes.is_weakly_typed(np.zeros(3))
    assert not dtypes.is_weakly_typed(int)
    assert dtypes.is_weakly_typed(Val(np.dtype("int16"), True))
    assert not dtypes.is_weakly_typed(Val(np.dtype("int16"), False))
    assert dtypes.is_python_scalar(3)
    assert dtypes.is_python_scalar(Val(np.dtype("float32"), True))
    assert not dtypes.is_python_scalar(np.float32(3))
    with config.enable_x64(False):
        assert dtypes.result_type(1.0) == np.dtype("float32")
        assert dtypes.result_type(1, np.int8(1)) == np.dtype("int8")
        assert dtypes.result_type(1.0, np.zeros(2, np.float16)) == np.dtype("float16")
        assert dtypes.result_type(3, return_weak_type_flag=True) == (np.dtype("int32"), True)
        # Weak int16 with weak int16 stays int16 on the lattice; result_type gives
        # the default dtype of the kind.
        pair = (np.dtype("int16"), True)
        assert dtypes.lattice_result_type(pair, pair) == (np.dtype("int16"), True)
        # bool is never weak.
        assert dtypes.lattice_result_type((np.dtype(bool), True)) == (np.dtype(bool), False)
    with config.enable_x64(True):
        assert dtypes.result_type(1.0) == np.dtype("float64")


def test_dtype_of_values() -> None:
    with config.enable_x64(False):
        assert dtypes.dtype(1) == np.dtype("int64")
        assert dtypes.dtype(1, canonicalize=True) == np.dtype("int32")
        assert dtypes.dtype(np.zeros(2), canonicalize=True) == np.dtype("float32")
        assert dtypes.dtype(np.zeros(2)) == np.dtype("float64")
        assert dtypes.dtype(dtypes.bfloat16) == np.dtype(ml_dtypes.bfloat16)
        with pytest.warns(UserWarning, match="Explicitly requested dtype float64"):
            assert dtypes.dtype(np.float64, canonicalize=True) == np.dtype("float32")
    assert dtypes.python_scalar_dtypes[float] == np.dtype("float64")


def test_check_user_dtype_supported_warns_with_x64_off() -> None:
    expected = (
        "Explicitly requested dtype float64 requested in array is not available, and will "
        "be truncated to dtype float32. To enable more dtypes, set the jax_enable_x64 "
        "configuration option or the JAX_ENABLE_X64 shell environment variable. See "
        "https://github.com/jax-ml/jax#current-gotchas for more."
    )
    with config.enable_x64(False):
        with pytest.warns(UserWarning) as record:
            dtypes.check_user_dtype_supported(np.float64, "array")
        assert [str(w.message) for w in record] == [expected]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            dtypes.check_user_dtype_supported(np.float32, "array")
            dtypes.check_user_dtype_supported(float, "array")
            assert dtypes.check_and_canonicalize_user_dtype(int) == np.dtype("int32")
    with config.enable_x64(True), warnings.catch_warnings():
        warnings.simplefilter("error")
        dtypes.check_user_dtype_supported(np.float64, "array")
    with pytest.raises(TypeError, match="JAX only supports number, bool, and string dtypes"):
        dtypes.check_user_dtype_supported(np.dtype("O"), "zeros")


def test_finfo_iinfo_and_bits() -> None:
    assert float(dtypes.finfo(dtypes.bfloat16).eps) == 2.0**-7
    assert dtypes.finfo(dtypes.bfloat16).bits == 16
    assert dtypes.finfo(np.float32).bits == 32
    info = dtypes.iinfo(dtypes.int4)
    assert (info.min, info.max, info.bits) == (-8, 7, 4)
    assert dtypes.iinfo(np.uint8).max == 255
    assert dtypes.itemsize_bits(dtypes.int4) == 4
    assert dtypes.itemsize_bits(np.bool_) == 8
    assert dtypes.itemsize_bits(np.complex64) == 64


def test_float0_and_markers() -> None:
    assert dtypes.float0 == np.dtype([("float0", np.void, 0)])
    assert dtypes.float0.itemsize == 0
    assert issubclass(dtypes.prng_key, dtypes.extended)
    assert issubclass(dtypes.extended, np.generic)

    class KeyTy(dtypes.ExtendedDType):
        @property
        def type(self) -> type[dtypes.extended]:
            return dtypes.prng_key

        def __str__(self) -> str:
            return "key<fry>"

        def __eq__(self, other: object) -> bool:
            return isinstance(other, KeyTy)

        def __hash__(self) -> int:
            return hash(KeyTy)

    key = KeyTy()
    assert dtypes.issubdtype(key, dtypes.extended)
    assert dtypes.issubdtype(key, dtypes.prng_key)
    assert not dtypes.issubdtype(key, np.floating)
    assert dtypes.issubdtype(key, key)
    assert not dtypes.issubdtype(np.float32, key)
    assert dtypes.short_dtype_name(key) == "key<fry>"
    assert dtypes.canonicalize_dtype(key, allow_extended_dtype=True) is key
    # Identical extended dtypes promote trivially.
    pair: Any = (key, False)  # the core's avals may carry extended dtypes
    out: tuple[object, bool] = dtypes.lattice_result_type(pair, pair)
    assert out == (key, False)


def test_isdtype() -> None:
    assert dtypes.isdtype(np.int8, "signed integer")
    assert dtypes.isdtype(dtypes.bfloat16, "real floating")
    assert dtypes.isdtype(dtypes.uint4, ("bool", "unsigned integer"))
    assert not dtypes.isdtype(np.float32, "integral")
    assert dtypes.isdtype(np.float32, np.float32)
    with pytest.raises(ValueError, match="Unrecognized kind"):
        dtypes.isdtype(np.float32, "floaty")


# ---------------------------------------------------------------------------
# Lattice laws.
# ---------------------------------------------------------------------------

_ALL_SPECS = [*TABLE["x64_off"]["strong_names"], "int", "float", "complex"]


@given(st.sampled_from(_ALL_SPECS), st.sampled_from(_ALL_SPECS), st.booleans())
def test_promote_types_is_commutative(a: str, b: str, x64: bool) -> None:
    with config.enable_x64(x64):
        try:
            ab = dtypes.promote_types(_spec(a), _spec(b))
        except dtypes.TypePromotionError:
            with pytest.raises(dtypes.TypePromotionError):
                dtypes.promote_types(_spec(b), _spec(a))
            return
        assert ab == dtypes.promote_types(_spec(b), _spec(a))


@given(st.lists(st.sampled_from(_ALL_SPECS), min_size=2, max_size=4))
def test_result_type_is_order_independent(names: list[str]) -> None:
    with config.enable_x64(True):
        args = [_spec(n) for n in names]
        try:
            forward = dtypes.result_type(*args, return_weak_type_flag=True)
        except dtypes.TypePromotionError:
            return
        assert dtypes.result_type(*reversed(args), return_weak_type_flag=True) == forward
