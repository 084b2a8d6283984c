"""The ``.pyi`` overlays for ``Array`` and the tracers: generated from the sources, and true to
the runtime (mypy's stubtest, with tests/typing/stubtest_allowlist.txt).

stubtest checks the overlays as the wheel lays them out (each beside its module, in a copy of
the package). ``Array``'s methods exist at run time only on ``ArrayImpl`` and ``Tracer``, so
they are checked through ``Tracer``, whose overlay inherits them. The methods installed from
jax_core.numpy functions name their first parameter ``a``; stubtest is told to skip them and
``test_installed_methods_match_their_declarations`` compares the rest of each signature.
"""

from __future__ import annotations

import ast
import inspect
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from jax_core._src.core.trace import Tracer
from jax_core._src.numpy import array_methods
from jax_core._src.runtime.array import ArrayImpl
from jax_core._src.typing.basearray import Array
from tests._tools import load_tool

ROOT = Path(__file__).resolve().parents[2]
ALLOWLIST = Path(__file__).with_name("stubtest_allowlist.txt")


def _generator() -> ModuleType:
    return load_tool("gen_overlays")


GEN = _generator()


def test_overlays_are_generated_from_the_sources() -> None:
    stale = [
        str(path.relative_to(ROOT))
        for path, text in GEN.render().items()
        if not path.exists() or path.read_text() != text
    ]
    assert stale == [], f"out of date: {stale}; run tools/gen_overlays.py"


def test_stubtest_is_clean(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "jax_core", tmp_path / "jax_core", ignore=shutil.ignore_patterns("__pycache__"))
    for module in GEN.MODULES:
        shutil.copyfile(GEN.overlay_path(module), tmp_path.joinpath(*module.split(".")).with_suffix(".pyi"))
    config = tmp_path / "mypy.ini"
    # Only the overlays are checked: modules they import are analysed silently.
    config.write_text("[mypy]\nfollow_imports = silent\n")
    stubtest = "import sys; from mypy.stubtest import main; sys.exit(main())"
    cmd = [sys.executable, "-c", stubtest, *GEN.MODULES, "--allowlist", str(ALLOWLIST)]
    cmd += ["--mypy-config-file", str(config), "--concise"]
    env = {k: v for k, v in os.environ.items() if k != "MYPYPATH"}
    env["PYTHONPATH"] = str(tmp_path)
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, (
        "stubtest found differences between the overlays and the runtime. Declare new Array "
        "methods in jax_core/_src/typing/basearray.py (TYPE_CHECKING block) and run "
        "tools/gen_overlays.py:\n" + proc.stdout[-6000:] + proc.stderr[-2000:]
    )


# -- the declared Array surface against the installed methods ------------------------------------
def _declared() -> dict[str, ast.FunctionDef]:
    """``Array``'s declarations in basearray.py (class body and TYPE_CHECKING block); for an
    overloaded method, its implementation signature."""
    tree = ast.parse((ROOT / "jax_core" / "_src" / "typing" / "basearray.py").read_text())
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Array"]
    body: list[ast.stmt] = []
    for node in cls.body:
        body += node.body if isinstance(node, ast.If) else [node]
    out: dict[str, ast.FunctionDef] = {}
    for node in body:
        if isinstance(node, ast.FunctionDef):
            out[node.name] = node  # the last definition of a name wins (overload implementation)
    return out


DECLARED = _declared()
INSTALLED: dict[str, Any] = {**array_methods.METHODS, **array_methods._TRACER_ONLY, **array_methods._IMPL_ONLY}  # pyright: ignore[reportPrivateUsage]


def _is_property(node: ast.FunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list)


def _declared_params(node: ast.FunctionDef) -> list[tuple[str, str, object]]:
    a = node.args
    positional = [*a.posonlyargs, *a.args][1:]  # without self
    kinds = ["POSITIONAL_ONLY"] * len(a.posonlyargs) + ["POSITIONAL_OR_KEYWORD"] * len(a.args)
    kinds = kinds[1:]
    defaults: list[object] = [inspect.Parameter.empty] * (len(positional) - len(a.defaults))
    defaults += [ast.literal_eval(d) for d in a.defaults]
    out = [(p.arg, k, d) for p, k, d in zip(positional, kinds, defaults)]
    if a.vararg:
        out.append((a.vararg.arg, "VAR_POSITIONAL", inspect.Parameter.empty))
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        out.append((p.arg, "KEYWORD_ONLY", inspect.Parameter.empty if d is None else ast.literal_eval(d)))
    if a.kwarg:
        out.append((a.kwarg.arg, "VAR_KEYWORD", inspect.Parameter.empty))
    return out


def _runtime_params(fn: Any) -> list[tuple[str, str, object]]:
    params = list(inspect.signature(fn).parameters.values())[1:]
    return [(p.name, p.kind.name, p.default) for p in params]


# Installed, but left out of the static surface on purpose: using them is a type error.
UNDECLARED = {
    "flat": "raises NotImplementedError, as in JAX",
    "device_buffer": "removed from JAX; raises AttributeError",
    "device_buffers": "removed from JAX; raises AttributeError",
}


@pytest.mark.parametrize("name", sorted(INSTALLED))
def test_installed_methods_match_their_declarations(name: str) -> None:
    if name in UNDECLARED:
        assert name not in DECLARED, f"Array.{name} is declared, but {UNDECLARED[name]}"
        return
    assert name in DECLARED, f"Array.{name} is installed at run time but not declared in basearray.py"
    value = INSTALLED[name]
    node = DECLARED[name]
    if isinstance(value, property):
        assert _is_property(node), f"Array.{name} is a property at run time"
        return
    assert not _is_property(node), f"Array.{name} is a method at run time"
    if name.startswith("__") and len(_runtime_params(value)) == 1:
        return  # binary operators: `other`, positional-only in the declaration (stubtest checks them)
    declared = [(n, k.replace("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD"), d) for n, k, d in _declared_params(node)]
    runtime = [(n, k.replace("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD"), d) for n, k, d in _runtime_params(value)]
    if node.args.vararg and any(k == "VAR_POSITIONAL" for _, k, _ in runtime):
        # reshape/transpose: the declaration names the sizes; the runtime takes *args
        declared = [p for p in declared if p[1] != "VAR_POSITIONAL"]
        runtime = [p for p in runtime if p[1] != "VAR_POSITIONAL"]
    assert declared == runtime, f"Array.{name}: declared {declared}, installed {runtime}"


def test_every_declared_method_exists_at_run_time() -> None:
    missing = [
        name
        for name in DECLARED
        if not hasattr(Tracer, name) and not hasattr(ArrayImpl, name) and not hasattr(Array, name)
    ]
    assert missing == []
