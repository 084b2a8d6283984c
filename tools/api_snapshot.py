"""Writes (or checks) the snapshot of jax_core's public surface: every public name and its signature.

    python tools/api_snapshot.py          # rewrite api/public_api.txt
    python tools/api_snapshot.py --check  # exit 1 if the surface differs from the snapshot

A change to the public API shows up as a diff of api/public_api.txt in review.
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
SNAPSHOT = ROOT / "api" / "public_api.txt"
MODULES = [
    "jax_core",
    "jax_core.numpy",
    "jax_core.numpy.linalg",
    "jax_core.numpy.fft",
    "jax_core.lax",
    "jax_core.tree_util",
    "jax_core.tree",
    "jax_core.dtypes",
    "jax_core.errors",
    "jax_core.debug",
    "jax_core.experimental",
    "jax_core.experimental.layout",
    "jax_core.export",
    "jax_core.extend.backend",
    "jax_core.extend.core",
    "jax_core.extend.core.primitives",
    "jax_core.extend.linear_util",
    "jax_core.extend.mlir",
    "jax_core.extend.random",
    "jax_core.extend.sharding",
    "jax_core.extend.source_info_util",
    "jax_core.ffi",
    "jax_core.interpreters.ad",
    "jax_core.interpreters.batching",
    "jax_core.interpreters.mlir",
    "jax_core.interpreters.partial_eval",
    "jax_core.interpreters.xla",
    "jax_core.typing",
    "jax_core.sharding",
    "jax_core.random",
    "jax_core.scipy.special",
    "jax_core.scipy.linalg",
    "jax_core.scipy.signal",
    "jax_core.scipy.fft",
    "jax_core.scipy.stats.norm",
    "jax_core.scipy.stats.expon",
    "jax_core.scipy.stats.laplace",
    "jax_core.scipy.stats.logistic",
    "jax_core.scipy.stats.uniform",
    "jax_core.scipy.stats.bernoulli",
    "jax_core.scipy.stats.poisson",
    "jax_core.scipy.stats.beta",
    "jax_core.scipy.stats.gamma",
    "jax_core.scipy.stats.t",
    "jax_core.scipy.stats.multivariate_normal",
]


def _public_names(mod: ModuleType) -> list[str]:
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n in vars(mod) if not n.startswith("_")]
    return sorted(n for n in names if not isinstance(getattr(mod, n, None), ModuleType))


def _describe(obj: object) -> str:
    if inspect.isclass(obj):
        try:
            return f"class{inspect.signature(obj)}"
        except (TypeError, ValueError):
            return "class"
    if callable(obj):
        target = getattr(obj, "__wrapped__", obj)
        try:
            return f"def{inspect.signature(target)}"
        except (TypeError, ValueError):
            return "callable"
    return f"= {type(obj).__name__}"


def _clean(text: str) -> str:
    # Addresses change per run, and a sentinel default's private module path is where the code
    # lives, not part of the API: both are left out.
    text = re.sub(r" at 0x[0-9a-fA-F]+", "", text)
    return re.sub(r"<jax_core\._src\.[\w.]*\.(\w+) object>", r"<\1 object>", text)


def render() -> str:
    """The snapshot text for the installed jax_core."""
    lines: list[str] = []
    for name in MODULES:
        mod = importlib.import_module(name)
        lines.append(f"[{name}]")
        for attr in _public_names(mod):
            lines.append(f"{attr} {_describe(getattr(mod, attr))}")
        lines.append("")
    return _clean("\n".join(lines))


def main() -> int:
    text = render()
    if "--check" in sys.argv:
        if not SNAPSHOT.exists() or SNAPSHOT.read_text() != text:
            print(f"{SNAPSHOT} is out of date: run `python tools/api_snapshot.py` and review the diff")
            return 1
        return 0
    SNAPSHOT.parent.mkdir(exist_ok=True)
    SNAPSHOT.write_text(text)
    print(f"wrote {SNAPSHOT} ({text.count(chr(10))} lines)")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
