"""Generates the ``.pyi`` overlays in ``stubs/`` for ``Array`` and the tracer classes.

The overlays are written from the annotated sources by mypy's stubgen, so they cannot drift
from them: ``Array``'s whole static surface is declared in ``jax_core/_src/typing/basearray.py`` (its
``TYPE_CHECKING`` block), and ``Tracer``, ``JaxprTracer``, ``JVPTracer`` and ``BatchTracer``
inherit it. setup.py ships each overlay beside its module in the wheel; in the repository
pyright reads them through ``stubPath``. stubtest checks them against the runtime
(tests/typing/test_overlays.py), which is where the installed methods are compared with
the declared ones.

    .venv/bin/python tools/gen_overlays.py          # rewrite stubs/
    .venv/bin/python tools/gen_overlays.py --check  # exit 1 if an overlay is out of date

Run it after editing one of the modules below: until then pyright resolves imports from that
module through the old overlay. A public attribute stubgen cannot type (``self.x = x`` with no
annotation) is an error here: annotate it in the source (``self.x: T = x``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STUBS = ROOT / "stubs"
MODULES = (
    "jax_core._src.typing.basearray",  # Array
    "jax_core._src.core.trace",  # Tracer
    "jax_core._src.interpreters.staging",  # JaxprTracer
    "jax_core._src.interpreters.ad",  # JVPTracer
    "jax_core._src.interpreters.batching",  # BatchTracer
)
HEADER = (
    "# GENERATED from {source} by tools/gen_overlays.py (mypy stubgen): do not edit.\n"
    "# Shipped beside the module in the wheel; read by pyright in the repository (stubPath).\n"
)


def overlay_path(module: str) -> Path:
    return STUBS.joinpath(*module.split(".")).with_suffix(".pyi")


_DEFINES = re.compile(r"^\s*(?:def\s+(\w+)\s*\(|(\w+)\s*:)")
_IGNORE = re.compile(r"#\s*type:\s*ignore\[[\w, -]+\]")


def _ignores(source: str) -> dict[str, str]:
    """``name -> "# type: ignore[...]"`` for definitions the source marks (stubgen drops
    comments; e.g. ``Array.__eq__`` returning an array overrides ``object.__eq__``)."""
    out: dict[str, str] = {}
    for line in source.splitlines():
        ignore, defines = _IGNORE.search(line), _DEFINES.match(line)
        if ignore and defines:
            out[defines.group(1) or defines.group(2)] = ignore.group(0)
    return out


_SIMPLE_DUNDER = re.compile(r"^(\s*def (__\w+__)\(self, [^,()]+)\)")


def _positional_dunders(source: str) -> set[str]:
    """Dunder methods the source declares with one positional-only parameter (``other, /``),
    a marker stubgen leaves out."""
    return set(re.findall(r"def (__\w+__)\(self, [^,()]+, /\)", source))


def _postprocess(text: str, module: str) -> str:
    source = ROOT.joinpath(*module.split(".")).with_suffix(".py").read_text()
    ignores = _ignores(source)
    positional = _positional_dunders(source)
    # ``__slots__``, and private attributes stubgen cannot type (``Tracer._trace``, which each
    # tracer class redeclares with its own trace type), are left out.
    lines = [line for line in text.splitlines() if not re.fullmatch(r"\s+_\w*: Incomplete", line)]
    for i, line in enumerate(lines):
        dunder = _SIMPLE_DUNDER.match(line)
        if dunder and dunder.group(2) in positional:
            line = lines[i] = f"{dunder.group(1)}, /){line[dunder.end():]}"
        defines = _DEFINES.match(line)
        name = defines and (defines.group(1) or defines.group(2))
        if name and name in ignores:
            lines[i] = f"{line}  {ignores[name]}"
    if not any("Incomplete" in line for line in lines if not line.startswith("from _typeshed")):
        lines = [line for line in lines if line != "from _typeshed import Incomplete"]
    body = "\n".join(lines)
    untyped = [line.strip() for line in lines if "Incomplete" in line and "import" not in line]
    if untyped:
        raise SystemExit(f"{module}: stubgen could not type {untyped}; annotate them in the source")
    source = "/".join(module.split(".")) + ".py"
    return HEADER.format(source=source) + body.rstrip("\n") + "\n"


def render() -> dict[Path, str]:
    """Every overlay's path and text, generated from the current sources."""
    with tempfile.TemporaryDirectory(prefix="overlays-") as tmp:
        # mypy is compiled (no ``python -m mypy.stubgen``): call its entry point.
        stubgen = "import sys; from mypy.stubgen import main; main(sys.argv[1:])"
        cmd = [sys.executable, "-c", stubgen, "--include-private", "--include-docstrings", "-q", "-o", tmp]
        for module in MODULES:
            cmd += ["-m", module]
        env = {k: v for k, v in os.environ.items() if k != "MYPYPATH"}
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise SystemExit(f"stubgen failed:\n{proc.stdout}{proc.stderr}")
        out: dict[Path, str] = {}
        for module in MODULES:
            generated = Path(tmp).joinpath(*module.split(".")).with_suffix(".pyi")
            out[overlay_path(module)] = _postprocess(generated.read_text(), module)
        return out


def main(argv: list[str]) -> int:
    overlays = render()
    if "--check" in argv:
        stale = [p for p, text in overlays.items() if not p.exists() or p.read_text() != text]
        for p in stale:
            print(f"{p.relative_to(ROOT)} is out of date: run tools/gen_overlays.py")
        return 1 if stale else 0
    for path, text in overlays.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
