"""The ``Exported`` artifacts real JAX 0.12 recorded (``tools/record_export_goldens.py``), and what
the tests need to read them: their metadata, the decoding of their inputs and outputs, the
namedtuple they use, and the PRNG key dtypes.
"""

from __future__ import annotations

import collections
import dataclasses
import json
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np

from jax_core._src.export.pytree_serialization import (
    register_namedtuple_serialization,
    serialization_named,
)

GOLDENS = Path(__file__).resolve().parent / "goldens"
NAMES = tuple(sorted(p.stem for p in GOLDENS.glob("*.bin")))

Point = collections.namedtuple("Point", ["x", "y"])
"""The namedtuple of the ``pytrees`` golden (registered as ``tests.export.Point`` in both)."""

if serialization_named("tests.export.Point") is None:
    register_namedtuple_serialization(Point, serialized_name="tests.export.Point")


@dataclasses.dataclass(frozen=True, eq=False)
class KeyData:
    """A PRNG key array of a golden, as its implementation's name and key data (a pytree leaf)."""

    impl: str
    data: np.ndarray[Any, Any]


def load(name: str) -> tuple[bytes, dict[str, Any]]:
    """The serialized artifact ``name`` and its metadata."""
    blob = (GOLDENS / f"{name}.bin").read_bytes()
    meta: dict[str, Any] = json.loads((GOLDENS / f"{name}.json").read_text())
    return blob, meta


def decode_array(leaf: dict[str, Any]) -> np.ndarray[Any, Any]:
    """An array of the encoding ``{"dtype", "shape", "hex"}``."""
    name = leaf["dtype"]
    dtype = np.dtype(getattr(ml_dtypes, name)) if hasattr(ml_dtypes, name) else np.dtype(name)
    raw = bytes.fromhex(leaf["hex"])
    return np.frombuffer(raw, dtype=dtype).reshape(leaf["shape"]).copy()


def decode(tree: Any, make_key: Any = None) -> Any:
    """A pytree of the tool's JSON encoding; key arrays are built by ``make_key(impl, data)``
    (default: left as ``KeyData``)."""
    if tree is None:
        return None
    if "tuple" in tree:
        return tuple(decode(x, make_key) for x in tree["tuple"])
    if "list" in tree:
        return [decode(x, make_key) for x in tree["list"]]
    if "dict" in tree:
        return {k: decode(v, make_key) for k, v in tree["dict"].items()}
    if "namedtuple" in tree:
        assert tree["namedtuple"] == "tests.export.Point"
        return Point(**{f: decode(v, make_key) for f, v in tree["fields"]})
    if "key_impl" in tree:
        data = decode_array(tree["data"])
        impl = tree["key_impl"]
        return KeyData(impl, data) if make_key is None else make_key(impl, data)
    return decode_array(tree)
