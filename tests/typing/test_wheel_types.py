"""The built wheel, installed into a fresh virtual environment, type-checks user code precisely.

Builds the wheel from a copy of the build inputs (``python -m build --wheel --no-isolation``),
installs it with ``pip install --no-deps`` into a new venv that has no access to this checkout,
and points mypy and pyright (from the dev venv) at that venv's interpreter. jaxlib, numpy and
ml_dtypes come from the dev venv's site-packages through a ``.pth`` line (a directory added by
a ``.pth`` line has its own ``.pth`` files ignored, so the dev venv's editable install of this
checkout stays out). Checks: ``py.typed`` and the ``.pyi`` overlays are found (strict mode rejects an untyped
package), ``jit(f)(x)``, ``grad(loss)(w, x)``, ``vmap(f)(x)`` and ``x.at[i].set(v)`` are
``Array`` with no ``Any`` anywhere in the file (mypy ``--disallow-any-expr``), and both checkers
reveal the jitted signature.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.typing._checkers import CheckerRun, run_checkers

ROOT = Path(__file__).resolve().parents[2]
BUILD_INPUTS = [
    "pyproject.toml",
    "setup.py",
    "MANIFEST.in",
    "README.md",
    "jax_core",
    "stubs",
]

USER_CODE = textwrap.dedent(
    '''\
    """A user program type-checked against the installed wheel."""

    from typing import assert_type

    import jax_core as jax
    import jax_core.numpy as jnp
    from jax_core import Array
    from jax_core.typing import ArrayLike, DTypeLike


    def f(x: Array, n: int) -> Array:
        return jnp.sin(x) * n


    def scale(x: ArrayLike, dtype: DTypeLike = "float32") -> Array:
        return jnp.asarray(x, dtype) * 2


    x = jnp.ones(3, "bfloat16")
    jf = jax.jit(f)
    y = jf(x, 2)
    assert_type(y, Array)
    reveal_type(jf)
    reveal_type(y)
    z = jax.jit(f, static_argnames="n").lower(x, n=3).compile()(x, n=3)
    assert_type(z, Array)
    assert_type(scale(1.0), Array)


    assert_type(x.sum(dtype="float32") + 1, Array)


    def loss(w: Array, v: Array) -> Array:
        return jnp.sum((v * w) ** 2)


    assert_type(jax.grad(loss)(x, x), Array)
    assert_type(jax.value_and_grad(loss, argnums=(0, 1))(x, x), tuple[Array, tuple[Array, Array]])
    assert_type(jax.vmap(f, in_axes=(0, None))(x, 2), Array)
    assert_type(x.at[0].set(1.0), Array)
    assert_type(2.0 * x.reshape(3, 1).T, Array)
    '''
)


@dataclass(frozen=True)
class Installed:
    python: Path  # the fresh venv's interpreter
    site_packages: Path
    user_dir: Path


def _run(cmd: list[str], cwd: Path | None = None, timeout: float = 180) -> str:
    proc = subprocess.run(
        cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert proc.returncode == 0, f"{cmd} failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}"
    return proc.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    src = tmp_path_factory.mktemp("wheel-src")
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for name in BUILD_INPUTS:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=ignore)
        elif path.exists():
            shutil.copy2(path, src / name)
    dist = tmp_path_factory.mktemp("dist")
    _run(
        [
            sys.executable,
            "-m",
            "build",
            "--wheel",
            "--no-isolation",
            "--outdir",
            str(dist),
            str(src),
        ]
    )
    (wheel,) = dist.glob("jax_core-*.whl")

    venv = tmp_path_factory.mktemp("venv")
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "-q",
            "--no-deps",
            str(wheel),
        ]
    )
    site = Path(
        _run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
        ).strip()
    )
    # Runtime dependencies (jaxlib, numpy, ml_dtypes, typing_extensions) from the dev venv.
    (site / "_dev_venv_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    user_dir = tmp_path_factory.mktemp("user")
    (user_dir / "user_code.py").write_text(USER_CODE)
    (user_dir / "mypy.ini").write_text(
        "[mypy]\npython_version = 3.12\nstrict = True\nwarn_unused_ignores = True\ndisallow_any_expr = True\n"
    )
    (user_dir / "pyrightconfig.json").write_text(
        '{"pythonVersion": "3.12", "typeCheckingMode": "strict",'
        ' "reportUnnecessaryTypeIgnoreComment": "error"}\n'
    )
    return Installed(python, site, user_dir)


@pytest.fixture(scope="module")
def runs(installed: Installed) -> dict[str, CheckerRun]:
    return run_checkers(
        cwd=installed.user_dir,
        mypy_config=installed.user_dir / "mypy.ini",
        pyright_config=installed.user_dir / "pyrightconfig.json",
        targets=["user_code.py"],
        cache_dir=installed.user_dir / ".mypy_cache",
        python=str(installed.python),
    )


def test_installed_package_is_the_wheel(installed: Installed) -> None:
    # The fresh venv imports jax_core from its own site-packages, and cannot see this checkout.
    code = "import jax_core, sys; print(jax_core.__file__); print(*sys.path, sep='\\n')"
    first, *path = _run([str(installed.python), "-c", code], cwd=installed.user_dir).splitlines()
    assert Path(first).is_relative_to(installed.site_packages)
    assert (installed.site_packages / "jax_core" / "py.typed").is_file()
    # the overlays sit beside their modules, so every checker reads them
    for overlay in ("_src/typing/basearray.pyi", "_src/core/trace.pyi", "_src/interpreters/ad.pyi"):
        assert (installed.site_packages / "jax_core" / overlay).is_file()
    assert not [
        p
        for p in path
        if p and (Path(p) / "jax_core").exists() and Path(p) != installed.site_packages
    ]


def test_user_code_runs_against_the_wheel(installed: Installed) -> None:
    code = (installed.user_dir / "user_code.py").read_text().replace("reveal_type(", "print(")
    _run([str(installed.python), "-c", code], cwd=installed.user_dir)


def _messages(run: CheckerRun, installed: Installed, severities: tuple[str, ...]) -> list[str]:
    path = str((installed.user_dir / "user_code.py").resolve())
    if run.failure:
        pytest.fail(run.failure, pytrace=False)
    return [
        f"{d.line}: {d}"
        for p, ds in run.by_file.items()
        for d in ds
        if d.severity in severities and (p == path or d.is_error)
    ]


def test_mypy_sees_no_any_and_the_jitted_signature(
    runs: dict[str, CheckerRun], installed: Installed
) -> None:
    # --disallow-any-expr: any expression typed Any (an untyped jit result) is an error.
    assert _messages(runs["mypy"], installed, ("error", "warning")) == []
    notes = _messages(runs["mypy"], installed, ("note",))
    assert any('Revealed type is "jax_core._src.typing.basearray.Array"' in n for n in notes), notes
    array = r"jax_core\._src\.typing\.basearray\.Array"
    signature = re.compile(rf"Jitted\[\[x: {array}, n: (builtins\.)?int\], {array}\]")
    jitted = [n for n in notes if signature.search(n)]
    assert jitted, notes


def test_pyright_strict_is_clean_and_reveals_the_signature(
    runs: dict[str, CheckerRun], installed: Installed
) -> None:
    # Strict mode reports a package without py.typed (reportMissingTypeStubs) and every Unknown.
    assert _messages(runs["pyright"], installed, ("error", "warning")) == []
    infos = _messages(runs["pyright"], installed, ("information",))
    assert any('Type of "jf" is "Jitted[(x: Array, n: int), Array]"' in i for i in infos), infos
    assert any('Type of "y" is "Array"' in i for i in infos), infos


PLUGIN_USER_CODE = textwrap.dedent(
    '''\
    import jax_core as jax
    from jax_core import Array


    def f(x: Array, y: Array) -> Array:
        return x + y


    per_row = jax.vmap(f, in_axes=(0, None, 0))
    '''
)


def test_plugin_loads_by_its_package_name_from_the_wheel(installed: Installed) -> None:
    # `plugins = jax_core.mypy_plugin`, as users write it (like numpy.typing.mypy_plugin): mypy,
    # run by the fresh venv's interpreter, imports the plugin from the installed wheel, and no
    # generic top-level `mypy_plugin` module is installed.
    probe = (
        "import importlib.util, jax_core.mypy_plugin as p; "
        "print(p.__file__); print(importlib.util.find_spec('mypy_plugin'))"
    )
    where, top_level = _run([str(installed.python), "-c", probe], cwd=installed.user_dir).split()
    assert Path(where).is_relative_to(installed.site_packages)
    assert top_level == "None"
    user = installed.user_dir
    (user / "plugin_user.py").write_text(PLUGIN_USER_CODE)
    (user / "mypy-plugin.ini").write_text(
        "[mypy]\npython_version = 3.12\nstrict = True\nplugins = jax_core.mypy_plugin\n"
    )
    proc = subprocess.run(
        [str(installed.python), "-m", "mypy", "--config-file", "mypy-plugin.ini"]
        + ["--cache-dir", str(user / ".mypy_cache_plugin"), "--no-error-summary", "plugin_user.py"],
        cwd=user,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == [
        'plugin_user.py:9: error: vmap in_axes must be an int, None, or a tuple of entries '
        'corresponding to the positional arguments passed to the function, but got '
        'len(in_axes)=3 while "f" takes 2 positional parameters  [jax-in-axes]'
    ], proc.stdout + proc.stderr
