"""Records real JAX's dtype facts into ``tests/data/promotion_table.json``.

Run with the interpreter of the venv that has real JAX installed::

    .venv-jax/bin/python tools/record_promotion_table.py

The script starts one subprocess per x64 mode (``JAX_ENABLE_X64=0`` and ``=1``)
and records, in each:

* ``promote_types``: ``jnp.promote_types(a, b)`` for every ordered pair of JAX
  dtypes and weak Python types (``int``, ``float``, ``complex``) plus the Python
  ``bool`` type; the result dtype name, or the error class and message.
* ``result_type_dtypes``: ``jax.dtypes.result_type(a[, b], return_weak_type_flag=True)``
  on the same type specifiers: ``{"r": [dtype, weak]}`` or ``{"r": ["!ErrorClass"]}``,
  with ``"w": 1`` when a UserWarning was raised.
* ``result_type_values``: ``result_type`` and the internal ``lattice_result_type`` on
  values with a given ``(dtype, weak_type)`` (keys ``name:s`` strong, ``name:w``
  weak, ``v:int`` etc. Python scalar values): every single value, every pair and
  a fixed sample of triples; the lattice result is under ``"l"``.
* ``canonicalize_dtype``, ``short_dtype_name``, ``str_short``, ``issubdtype`` and
  ``scalar_type_of`` facts.

jax_core never imports JAX; this script is the only place the two meet.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
import types
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "promotion_table.json"

WEAK_TYPE_NAMES = {"int": int, "float": float, "complex": complex, "pybool": bool}
PY_VALUES: dict[str, Any] = {"v:bool": True, "v:int": 1, "v:float": 1.0, "v:complex": 1j}


def _err(e: BaseException) -> dict[str, str]:
    return {"error": type(e).__name__, "message": str(e)}


def _record_mode() -> dict[str, Any]:
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax._src import core
    from jax._src import dtypes as sd

    strong = {np.dtype(t).name: np.dtype(t) for t in sd._jax_types}
    strong_names = list(strong)
    specs: dict[str, Any] = {**strong, **WEAK_TYPE_NAMES}

    def name_of(d: Any) -> str:
        return np.dtype(d).name

    out: dict[str, Any] = {"x64": bool(jax.config.jax_enable_x64), "strong_names": strong_names}

    # promote_types on type specifiers.
    pt: dict[str, Any] = {}
    for a, b in itertools.product(specs, specs):
        try:
            pt[f"{a}|{b}"] = name_of(jnp.promote_types(specs[a], specs[b]))
        except Exception as e:  # noqa: BLE001
            pt[f"{a}|{b}"] = _err(e)
    out["promote_types"] = pt

    def rt(*args: Any) -> Any:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                d, weak = sd.result_type(*args, return_weak_type_flag=True)
                res: Any = [name_of(d), bool(weak)]
            except Exception as e:  # noqa: BLE001
                res = ["!" + type(e).__name__]
        warned = any(issubclass(x.category, UserWarning) for x in w)
        return {"r": res, "w": 1} if warned else {"r": res}

    rtd: dict[str, Any] = {}
    for a, spec in specs.items():
        rtd[a] = rt(spec)
    for a, b in itertools.product(specs, specs):
        rtd[f"{a}|{b}"] = rt(specs[a], specs[b])
    out["result_type_dtypes"] = rtd

    # Values with an explicit (dtype, weak_type).
    class Val:
        def __init__(self, dtype: Any, weak: bool) -> None:
            self.dtype = dtype
            self.weak_type = weak
            self.aval = types.SimpleNamespace(weak_type=weak)
            self.shape = ()

    values: dict[str, Any] = {}
    for n, d in strong.items():
        values[f"{n}:s"] = Val(d, False)
        values[f"{n}:w"] = Val(d, True)
    values.update(PY_VALUES)

    def both(*keys: str) -> dict[str, Any]:
        args = [values[k] for k in keys]
        rec = rt(*args)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                d, weak = sd.lattice_result_type(*args)
                rec["l"] = [name_of(d), bool(weak)]
            except Exception as e:  # noqa: BLE001
                rec["l"] = ["!" + type(e).__name__]
        return rec

    rtv: dict[str, Any] = {}
    for a in values:
        rtv[a] = both(a)
    for a, b in itertools.product(values, values):
        rtv[f"{a}|{b}"] = both(a, b)
    rng = random.Random(12049)
    keys = list(values)
    # Bias triples towards promotable types so that most succeed.
    common = [
        k
        for k in keys
        if not any(s in k for s in ("float8", "float6", "float4", "int1", "int2", "int4"))
    ]
    for _ in range(400):
        triple = rng.sample(common, 3)
        rtv["|".join(triple)] = both(*triple)
    for _ in range(100):
        triple = rng.sample(keys, 3)
        rtv["|".join(triple)] = both(*triple)
    out["result_type_values"] = rtv

    # Misc facts.
    canon: dict[str, Any] = {}
    for n, d in strong.items():
        canon[n] = name_of(sd.canonicalize_dtype(d))
    for n, t in WEAK_TYPE_NAMES.items():
        canon[n] = name_of(sd.canonicalize_dtype(t))
    out["canonicalize_dtype"] = canon

    out["short_dtype_name"] = {n: sd.short_dtype_name(d) for n, d in strong.items()}
    out["short_dtype_name"]["float0"] = sd.short_dtype_name(sd.float0)
    # How jaxprs print avals (JAX's core replaces 'void' by 'float0' when printing).
    out["str_short"] = {
        n: core.ShapedArray((2, 3), d).str_short(short_dtypes=True) for n, d in strong.items()
    }
    out["str_short"]["float0"] = core.ShapedArray((2,), sd.float0).str_short(short_dtypes=True)

    cats = {
        "generic": np.generic,
        "number": np.number,
        "integer": np.integer,
        "signedinteger": np.signedinteger,
        "unsignedinteger": np.unsignedinteger,
        "inexact": np.inexact,
        "floating": np.floating,
        "complexfloating": np.complexfloating,
        "bool_": np.bool_,
        "extended": sd.extended,
        "prng_key": sd.prng_key,
    }
    isd: dict[str, Any] = {}
    for n, d in strong.items():
        for cn, c in cats.items():
            isd[f"{n}|{cn}"] = bool(sd.issubdtype(d, c))
            isd[f"{n}|{n}"] = bool(sd.issubdtype(d, d))
    for cn, c in cats.items():
        isd[f"extended_cls|{cn}"] = bool(sd.issubdtype(sd.extended, c))
        isd[f"prng_key_cls|{cn}"] = bool(sd.issubdtype(sd.prng_key, c))
    out["issubdtype"] = isd

    scal: dict[str, Any] = {}
    for n, d in strong.items():
        try:
            scal[n] = sd.scalar_type_of(np.zeros((), d)).__name__
        except Exception as e:  # noqa: BLE001
            scal[n] = _err(e)
    out["scalar_type_of"] = scal
    return out


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        json.dump(_record_mode(), sys.stdout, sort_keys=True)
        return
    result: dict[str, Any] = {}
    for mode, flag in (("x64_off", "0"), ("x64_on", "1")):
        env = dict(os.environ, JAX_ENABLE_X64=flag, JAX_PLATFORMS="cpu")
        proc = subprocess.run(
            [sys.executable, __file__, "--child"],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        result[mode] = json.loads(proc.stdout)
        assert result[mode]["x64"] == (flag == "1")
    import jax

    result["jax_version"] = jax.__version__
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
