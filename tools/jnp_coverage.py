"""Coverage of ``jax_core.numpy`` against real JAX's ``jax.numpy`` (+ ``linalg``, ``fft``).

    python tools/jnp_coverage.py            # print the coverage figure and the missing names
    python tools/jnp_coverage.py --record   # re-record api/jnp_reference.txt from real JAX

``--record`` runs real JAX (the ``.venv-jax`` interpreter, or ``$JAX_PYTHON``) in a
subprocess: JAX and jax_core cannot share a process. The reference lists every public
callable of ``jax.numpy``, ``jax.numpy.linalg`` and ``jax.numpy.fft`` as
``module name`` lines. A name counts as covered when jax_core's module has it and it
is callable.
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "api" / "jnp_reference.txt"
MODULES = {"jax.numpy": "jax_core.numpy", "jax.numpy.linalg": "jax_core.numpy.linalg", "jax.numpy.fft": "jax_core.numpy.fft"}

_RECORD = """
import jax, jax.numpy, jax.numpy.linalg, jax.numpy.fft, importlib
for name in {modules!r}:
    mod = importlib.import_module(name)
    for attr in sorted(dir(mod)):
        if not attr.startswith("_") and callable(getattr(mod, attr)):
            print(name, attr)
"""


def record(python: str) -> None:
    """Writes the reference list from real JAX, run with ``python``."""
    out = subprocess.run([python, "-c", _RECORD.format(modules=list(MODULES))], check=True, capture_output=True, text=True).stdout
    version = subprocess.run([python, "-c", "import jax; print(jax.__version__)"], check=True, capture_output=True, text=True).stdout.strip()
    REFERENCE.write_text(f"# public callables of jax.numpy, jax.numpy.linalg, jax.numpy.fft (jax {version}); tools/jnp_coverage.py --record\n{out}")


def reference() -> list[tuple[str, str]]:
    """The recorded ``(module, name)`` pairs."""
    pairs: list[tuple[str, str]] = []
    for line in REFERENCE.read_text().splitlines():
        if line and not line.startswith("#"):
            mod, name = line.split()
            pairs.append((mod, name))
    return pairs


def missing() -> list[tuple[str, str]]:
    """Reference names jax_core lacks (absent, or present but not callable)."""
    out: list[tuple[str, str]] = []
    for mod, name in reference():
        try:
            ours = importlib.import_module(MODULES[mod])
        except ImportError:
            out.append((mod, name))
            continue
        if not callable(getattr(ours, name, None)):
            out.append((mod, name))
    return out


def coverage() -> float:
    """The covered fraction of the reference, in percent."""
    total = len(reference())
    return 100.0 * (total - len(missing())) / total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true", help="re-record the reference list from real JAX")
    parser.add_argument("--python", default=os.environ.get("JAX_PYTHON", str(ROOT / ".venv-jax" / "bin" / "python")))
    args = parser.parse_args()
    if args.record:
        record(args.python)
    sys.path.insert(0, str(ROOT))
    gaps = missing()
    total = len(reference())
    print(f"jax_core.numpy coverage: {total - len(gaps)}/{total} = {coverage():.1f}% of jax.numpy, jax.numpy.linalg, jax.numpy.fft")
    if gaps:
        print("missing:", " ".join(f"{m.removeprefix('jax.numpy').lstrip('.') + '.' if m != 'jax.numpy' else ''}{n}" for m, n in gaps))


if __name__ == "__main__":
    main()
