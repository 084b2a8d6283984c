"""``python -m jax_core.compat``: a program written against ``jax`` runs on jax_core, with
``sys.argv``, ``__name__`` and ``sys.path`` as under ``python script.py``; unmapped and private
modules fail clearly; a process that already imported the real ``jax`` is refused. Each case runs
in a fresh interpreter."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import sys
import jax
import jax.numpy as jnp
from jax import lax, random
from jax.flatten_util import ravel_pytree
from jax.example_libraries import optimizers
import jax.scipy.special
import helper_module  # beside the script: its directory is first on sys.path
print("names", jax.__name__, jnp.__name__, jax.scipy.special.__name__, optimizers.__name__)
print("argv", sys.argv[1:], __name__)
print("value", jax.jit(lambda x: jnp.sin(x) + lax.cos(x))(jnp.arange(3.0)).tolist())
print("ravel", ravel_pytree({"a": 1.0, "b": jnp.ones(2)})[0].tolist())
print("key", random.normal(random.key(0), (2,)).dtype)
print("helper", helper_module.VALUE)
try:
    import jax.experimental.pallas
except ModuleNotFoundError as err:
    print("missing", err)
try:
    from jax._src import core
except ModuleNotFoundError as err:
    print("private", err)
"""


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        env=env,
        timeout=300,
        check=False,
    )


def test_runs_a_jax_script(tmp_path: Path) -> None:
    script = tmp_path / "prog.py"
    script.write_text(SCRIPT)
    (tmp_path / "helper_module.py").write_text("VALUE = 42\n")
    out = _run("-m", "jax_core.compat", str(script), "--steps", "3")
    assert out.returncode == 0, out.stderr
    lines = dict(line.split(" ", 1) for line in out.stdout.splitlines())
    assert lines["names"] == (
        "jax_core jax_core.numpy jax_core.scipy.special jax_core.example_libraries.optimizers"
    )
    assert lines["argv"] == "['--steps', '3'] __main__"
    assert lines["value"] == "[1.0, 1.3817732334136963, 0.4931505620479584]"
    assert lines["ravel"] == "[1.0, 1.0, 1.0]"
    assert lines["key"] == "float32"
    assert lines["helper"] == "42"
    assert (
        "No module named 'jax.experimental.pallas': jax_core has no 'jax_core.experimental.pallas'"
        in lines["missing"]
    )
    assert "maps JAX's public modules only" in lines["private"]


def test_runs_a_module(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "main.py").write_text(
        "import sys, jax.numpy as jnp\nprint(jnp.ones(2).sum(), sys.argv)\n"
    )
    out = _run("-m", "jax_core.compat", "-m", "pkg.main", "x", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "2.0 ['" + str(pkg / "main.py") + "', 'x']"


def test_usage_and_exit_status(tmp_path: Path) -> None:
    out = _run("-m", "jax_core.compat")
    assert out.returncode == 2 and "usage: python -m jax_core.compat" in out.stderr
    script = tmp_path / "fail.py"
    script.write_text("import sys\nsys.exit(3)\n")
    assert _run("-m", "jax_core.compat", str(script)).returncode == 3


def test_refuses_beside_real_jax() -> None:
    code = textwrap.dedent(
        """
        import sys, types
        sys.modules["jax"] = types.ModuleType("jax")  # stands for an imported real jax
        import jax_core.compat
        try:
            jax_core.compat.install()
        except RuntimeError as err:
            print(err)
        """
    )
    out = _run("-c", code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("The real jax is already imported in this process")


def test_install_and_uninstall_in_process() -> None:
    code = textwrap.dedent(
        """
        import sys, jax_core, jax_core.compat as c
        c.install(); c.install()
        import jax, jax.numpy
        assert jax is jax_core and jax.numpy is jax_core.numpy and c.is_installed()
        c.uninstall()
        assert "jax" not in sys.modules and not c.is_installed()
        try:
            import jax
        except ModuleNotFoundError:
            print("ok")
        """
    )
    out = _run("-c", code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
