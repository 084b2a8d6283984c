"""Build hook: ship the ``.pyi`` overlays in ``stubs/`` beside their modules.

The overlays live in a top-level ``stubs/`` tree that mirrors package paths
(``stubs/jax_core/_src/runtime/array.pyi`` overlays ``jax_core/_src/runtime/array.py``), so that in
development mypy (``mypy_path``) and pyright (``stubPath``) find them without touching the sources.
A wheel must instead carry each overlay next to its module, which is what ``build_py`` below does.
All other metadata lives in ``pyproject.toml``.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
STUBS = ROOT / "stubs"


class BuildPyWithOverlays(build_py):
    """``build_py`` that also copies ``stubs/**/*.pyi`` into the build tree at mirrored paths."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # editable installs keep using stubs/ through the checker config
            return
        for src in sorted(STUBS.rglob("*.pyi")):
            rel = src.relative_to(STUBS)
            if not (ROOT / rel.parent / "__init__.py").exists():
                raise RuntimeError(f"overlay {src} has no package to sit in ({rel.parent}/)")
            dest = Path(self.build_lib) / rel
            self.mkpath(str(dest.parent))
            self.copy_file(str(src), str(dest))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = list(super().get_outputs(include_bytecode))
        outputs += [str(Path(self.build_lib) / p.relative_to(STUBS)) for p in STUBS.rglob("*.pyi")]
        return outputs


setup(cmdclass={"build_py": BuildPyWithOverlays})
