"""``deserialize`` on corrupt input: every outcome is a ``ValueError`` or a valid ``Exported``, never
another exception, a crash or a hang.

Hypothesis mutates valid artifacts (two JAX goldens and one jax_core wrote with shardings, effects
and checks): truncation, bit flips, overwritten bytes, random bytes, wrong version fields, and a
corrupted ``mlir_module_serialized``. The decision for the last: ``deserialize`` checks the
module's MLIR bytecode magic (``ValueError`` if broken) but does not parse the module (jaxlib's
bytecode reader hangs on some corrupt modules, in real JAX as well); a corrupt body comes back
byte for byte and is reported when the module is parsed (``Exported.call``, ``mlir_module``).

``JAX_CORE_FUZZ_EXAMPLES`` sets the examples per property (default 40: a few seconds in all).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jax_core._src.export import flatbuffer_tables as fb
from jax_core._src.export.exported import (
    DisabledSafetyCheck,
    Exported,
    maximum_supported_calling_convention_version,
    minimum_supported_calling_convention_version,
)
from jax_core._src.export.serialization import deserialize, serialize
from jax_core._src.sharding.mesh import Mesh
from jax_core._src.sharding.partition_spec import PartitionSpec
from jax_core._src.sharding.shardings import NamedSharding
from jax_core._src.tree.tree_util import tree_structure
from tests.export import _goldens
from tests.export._exported_fixtures import MODULE, X, fields_of, make

EXAMPLES = int(os.environ.get("JAX_CORE_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _jax_core_blob() -> bytes:
    from jax_core._src.backend.client import devices
    from jax_core._src.ffi.call import ffi_effect

    grid = np.empty((1,), dtype=object)
    grid[0] = devices()[0]
    sharding = NamedSharding(Mesh(grid, ("x",)), PartitionSpec("x"))
    exp = make(
        in_tree=tree_structure(((0, {"a": [0, None]}), {})),
        _in_named_shardings=(sharding, None),
        unordered_effects=(ffi_effect,),
        disabled_safety_checks=(
            DisabledSafetyCheck.custom_call("t"),
            DisabledSafetyCheck.platform(),
        ),
        out_avals=(X,),
    )
    return bytes(serialize(exp))


BASES = (_goldens.load("pytrees")[0], _goldens.load("sin_cos_f32")[0], _jax_core_blob())


def assert_valid(exp: Exported) -> None:
    """What a caller may rely on in an Exported that ``deserialize`` returned."""
    level: Exported | None = exp
    while level is not None:
        n_in, n_out = len(level.in_avals), len(level.out_avals)
        assert level.in_tree.num_leaves == n_in and level.out_tree.num_leaves == n_out
        assert len(level._in_named_shardings) == len(level.in_shardings_hlo) == n_in
        assert len(level._out_named_shardings) == len(level.out_shardings_hlo) == n_out
        kept = list(level.module_kept_var_idx)
        assert kept == sorted(set(kept)) and all(0 <= i < n_in for i in kept)
        low, high = (
            minimum_supported_calling_convention_version,
            maximum_supported_calling_convention_version,
        )
        assert low <= level.calling_convention_version <= high
        assert level.mlir_module_serialized.startswith(b"ML\xefR")
        level = level.vjp() if level.has_vjp() else None
    try:
        again = serialize(exp)
    except NotImplementedError:  # e.g. an effect JAX reads but does not write
        return
    assert fields_of(deserialize(again)) == fields_of(exp)


def check(blob: bytes) -> Exported | None:
    """Deserializes ``blob``: ``None`` for a ``ValueError``, else the (valid) Exported."""
    try:
        exp = deserialize(blob)
    except ValueError:
        return None
    assert_valid(exp)
    return exp


base_blob = st.sampled_from(BASES)


@FUZZ
@given(base_blob, st.data())
def test_truncated(blob: bytes, data: st.DataObject) -> None:
    check(blob[: data.draw(st.integers(0, len(blob) - 1))])


@FUZZ
@given(base_blob, st.data())
def test_bit_flips(blob: bytes, data: st.DataObject) -> None:
    out = bytearray(blob)
    for bit in data.draw(st.lists(st.integers(0, 8 * len(blob) - 1), min_size=1, max_size=8)):
        out[bit // 8] ^= 1 << (bit % 8)
    check(bytes(out))


@FUZZ
@given(base_blob, st.data())
def test_overwritten_bytes(blob: bytes, data: st.DataObject) -> None:
    at = data.draw(st.integers(0, len(blob) - 1))
    patch = data.draw(st.binary(min_size=1, max_size=16))
    check(blob[:at] + patch + blob[at + len(patch) :])


@FUZZ
@given(st.binary(max_size=1024))
def test_random_bytes(blob: bytes) -> None:
    check(blob)


@FUZZ
@given(st.integers(0, len(MODULE) - 1), st.integers(0, 7))
def test_corrupted_module(byte: int, bit: int) -> None:
    blob = BASES[2]
    at = blob.index(MODULE)
    out = bytearray(blob)
    out[at + byte] ^= 1 << bit
    exp = check(bytes(out))
    if byte < 4:  # the bytecode magic
        assert exp is None
    else:
        assert exp is not None and exp.mlir_module_serialized == bytes(out[at : at + len(MODULE)])


@FUZZ
@given(
    st.integers(0, 2**16 - 1),
    st.integers(0, 2**16 - 1),
    st.integers(0, 2**32 - 1),
    st.integers(-(2**15), 2**15 - 1),
)
def test_version_fields(
    serialization: int, convention: int, nr_devices: int, nr_devices_short: int
) -> None:
    (record,) = fb.read_exported_chain(BASES[2])
    changed = dataclasses.replace(
        record,
        serialization_version=serialization,
        calling_convention_version=convention,
        nr_devices=nr_devices,
        nr_devices_short=nr_devices_short,
    )
    exp = check(bytes(fb.write_exported_chain([changed])))
    supported = (
        minimum_supported_calling_convention_version
        <= convention
        <= maximum_supported_calling_convention_version
    )
    expired = nr_devices == 0 and nr_devices_short > 0
    assert (exp is not None) == (supported and not expired)
    if exp is not None:
        assert exp.calling_convention_version == convention and exp.nr_devices == nr_devices


# ---------------------------------------------------------------------------------------------
# Hostile structure: the reader's work is bounded by the buffer's size
# ---------------------------------------------------------------------------------------------


Writer = fb._Writer  # pyright: ignore[reportPrivateUsage]
Field = fb._Field  # pyright: ignore[reportPrivateUsage]


def _exported_with_in_tree(build: Callable[[Writer], int]) -> bytes:
    """An Exported table whose ``in_tree`` is the table ``build(writer)`` returns."""
    w = Writer()
    tree = build(w)
    root = w.table(27, [Field(2, "ref", tree), Field(14, "u16", 10)])
    w.b.Finish(root)
    return bytes(w.b.Output())


def _list_node(w: Writer, children: list[int]) -> int:
    return w.table(5, [Field(0, "i8", fb.PYTREE_LIST), Field(1, "ref", w.refs(children))])


def test_shared_subtrees_do_not_blow_up() -> None:
    def build(w: Writer) -> int:
        node = w.table(5, [])  # a leaf
        for _ in range(4):  # 1000**4 leaves if each reference were followed
            node = _list_node(w, [node] * 1000)
        return node

    blob = _exported_with_in_tree(build)
    assert len(blob) < 20_000
    assert check(blob) is None


def test_deep_nesting_is_refused() -> None:
    def build(w: Writer) -> int:
        node = w.table(5, [])
        for _ in range(fb.MAX_PYTREE_DEPTH + 10):
            node = _list_node(w, [node])
        return node

    assert check(_exported_with_in_tree(build)) is None


def test_vector_lengths_beyond_the_buffer() -> None:
    blob = bytearray(BASES[2])
    (record,) = fb.read_exported_chain(bytes(blob))
    assert record.platforms == ("cpu",)
    at = blob.index(b"\x03\x00\x00\x00cpu")  # the length of the platform string
    for length in (len(blob), 2**31, 2**32 - 1):
        blob[at : at + 4] = length.to_bytes(4, "little")
        assert check(bytes(blob)) is None


def test_short_inputs() -> None:
    for blob in (b"", b"\x00", b"\x04\x00\x00\x00", b"\xff" * 8, bytes(64)):
        assert check(blob) is None
