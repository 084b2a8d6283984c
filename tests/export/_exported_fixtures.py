"""``Exported`` objects for the serialization tests, built directly (with the StableHLO module of a
golden JAX recorded, so that they do not depend on ``export``), their fields as comparable values,
and a description of an ``Exported`` computed the same way by real JAX and by jax_core (the text
the oracle tests compare).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.export import flatbuffer_tables as fb
from jax_core._src.export.exported import Exported
from jax_core._src.tree.tree_util import tree_structure
from tests.export import _goldens
from tests.oracle.client import Call


def _golden_module() -> bytes:
    module = fb.read_exported_chain(_goldens.load("sin_cos_f32")[0])[0].mlir_module_serialized
    assert module is not None
    return module


MODULE: bytes = _golden_module()
"""A StableHLO module JAX exported (two ``f32[2,3]`` arguments and results)."""
F32 = np.dtype(np.float32)
X = ShapedArray((2, 3), F32)


def make(**fields: Any) -> Exported:
    """An Exported of ``in_avals`` and ``out_avals`` (default: two ``f32[2,3]`` each, flat trees,
    every argument kept, no shardings or effects, for ``cpu``), with ``fields`` replaced."""
    in_avals: tuple[ShapedArray, ...] = fields.get("in_avals", (X, X))
    out_avals: tuple[ShapedArray, ...] = fields.get("out_avals", (X, X))
    n_in, n_out = len(in_avals), len(out_avals)
    base: dict[str, Any] = {
        "fun_name": "f",
        "in_tree": tree_structure(((0,) * n_in, {})),
        "in_avals": in_avals,
        "out_tree": tree_structure((0,) * n_out),
        "out_avals": out_avals,
        "_in_named_shardings": (None,) * n_in,
        "_out_named_shardings": (None,) * n_out,
        "in_shardings_hlo": (None,) * n_in,
        "out_shardings_hlo": (None,) * n_out,
        "nr_devices": 1,
        "platforms": ("cpu",),
        "ordered_effects": (),
        "unordered_effects": (),
        "disabled_safety_checks": (),
        "mlir_module_serialized": MODULE,
        "calling_convention_version": 10,
        "module_kept_var_idx": tuple(range(n_in)),
        "uses_global_constants": False,
        "_get_vjp": None,
    }
    base.update(fields)
    return Exported(**base)


def fields_of(exp: Exported) -> dict[str, Any]:
    """Every field but ``_get_vjp``, comparable with ``==``."""
    return {
        "fun_name": exp.fun_name,
        "in_tree": exp.in_tree,
        "in_avals": exp.in_avals,
        "out_tree": exp.out_tree,
        "out_avals": exp.out_avals,
        "in_shardings": exp._in_named_shardings,
        "out_shardings": exp._out_named_shardings,
        "in_shardings_hlo": exp.in_shardings_hlo,
        "out_shardings_hlo": exp.out_shardings_hlo,
        "nr_devices": exp.nr_devices,
        "platforms": tuple(exp.platforms),
        "ordered_effects": tuple(exp.ordered_effects),
        "unordered_effects": tuple(exp.unordered_effects),
        "disabled_safety_checks": tuple(exp.disabled_safety_checks),
        "mlir_module_serialized": bytes(exp.mlir_module_serialized),
        "calling_convention_version": exp.calling_convention_version,
        "module_kept_var_idx": tuple(exp.module_kept_var_idx),
        "uses_global_constants": exp.uses_global_constants,
    }


DESCRIBE = """
import hashlib

def describe(exp):
    def avals(xs):
        return [(str(a.dtype), [int(d) for d in a.shape]) for a in xs]

    def sharding(s):
        if s is None:
            return None
        m = s.mesh.abstract_mesh
        kinds = [t.name for t in m.axis_types]
        return (list(m.axis_names), list(m.axis_sizes), kinds, repr(tuple(s.spec)), s.memory_kind)

    levels = []
    while True:
        levels.append((
            exp.fun_name, str(exp.in_tree), str(exp.out_tree), avals(exp.in_avals),
            avals(exp.out_avals), [sharding(s) for s in exp._in_named_shardings],
            [sharding(s) for s in exp._out_named_shardings], list(exp.platforms),
            [type(e).__name__ for e in exp.ordered_effects],
            [type(e).__name__ for e in exp.unordered_effects],
            [str(c) for c in exp.disabled_safety_checks], exp.calling_convention_version,
            list(exp.module_kept_var_idx), bool(exp.uses_global_constants), exp.nr_devices,
            hashlib.sha256(bytes(exp.mlir_module_serialized)).hexdigest(),
        ))
        if not exp.has_vjp():
            return repr(levels)
        exp = exp.vjp()
"""

JAX_POINT = """
import collections
Point = collections.namedtuple("Point", ["x", "y"])
try:
    jax.export.register_namedtuple_serialization(Point, serialized_name="tests.export.Point")
except ValueError:  # registered by an earlier call of the batch
    pass
"""


def describe_here(exp: Exported) -> str:
    namespace: dict[str, Any] = {}
    exec(DESCRIBE, namespace)  # noqa: S102  (the same source real JAX runs, see jax_reads)
    return str(namespace["describe"](exp))


def jax_reads(blob: bytes) -> Call:
    expr = (
        "(lambda ns: (exec(src, ns), ns['describe'](jax.export.deserialize(bytearray(blob.tobytes())))))"
        "({'jax': jax})[1]"
    )
    return Call(expr, {"src": JAX_POINT + DESCRIBE, "blob": np.frombuffer(blob, dtype=np.uint8)})
