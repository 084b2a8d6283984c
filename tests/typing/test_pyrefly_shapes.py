"""pyrefly's tensor-shape mode on jaxtyping annotations of jax_core code (issue 26, deliverable 3).

Runs the pinned pyrefly of the dev venv (``python -m pyrefly``, as the corpus does through
``tests/typing/_checkers.py``) on small files that annotate jax_core arrays with jaxtyping's
``Float[Array, "b n"]``, and asserts what it reports, line by line.

What pyrefly 1.4 does (1.5.0 reports the same on these files):

* The mode is on whenever the module ``shape_extensions`` (PyPI: ``pyrefly-shape-extensions``)
  can be resolved; nothing else switches it. ``--tensor-shapes`` is a deprecated no-op and the
  ``tensor-shapes`` config key of earlier versions is an unknown key ("Extra keys found in
  config"). A function opts in with ``@static_jaxtyping("b n m")``, which declares the dimension
  names; jaxtyping annotations outside such a declaration keep their ``Annotated`` meaning.
* The shape string is read only for an array class that carries a shape parameter (a generic
  class bounded by ``IntTuple``, as in pyrefly's torch and numpy stubs, or a class declared with
  ``@shape_vars("*S")``). jax_core's ``Array`` has none, so on jax_core code
  ``Float[Array, "b n"]`` is plain ``Array``: no false positive, and no shape check either
  (a transposed return, a wrong literal dimension and an undeclared dimension name all pass).
* The control: the same functions on a class declared the way jax_core's ``Array`` could be
  (``@shape_vars("*S")`` on the class, ``Shaped[...]`` strings on ``__matmul__``/``matmul``;
  ``Shaped`` is ``typing.Annotated``, so mypy and pyright read plain ``Array``) are checked:
  the transposed return, the inner-dimension mismatch of ``@``, the wrong literal dimension and
  the undeclared name are reported, and ``x @ w`` reveals ``ShapedArray[[b, m]]``.

The dev venv has neither jaxtyping nor pyrefly-shape-extensions, so the test writes, on its own
search path, a ``shape_extensions`` stub with the names these files use (pyrefly recognises the
decorators by their module, and the mode by the module being resolvable) and, while jaxtyping is
not installed, a ``jaxtyping`` stub that is what jaxtyping itself gives a static checker:
``from typing import Annotated as Float``. The stub keeps the module name ``jaxtyping``, which
pyrefly's jaxtyping front end keys on (``from typing import Annotated as Float`` in the checked
file itself would leave the front end out). Once jaxtyping is a dev dependency the real one is used.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.typing._checkers import CheckerRun, Diagnostic, parse_pyrefly, pyrefly_command

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 120  # seconds for one pyrefly run
HAS_JAXTYPING = importlib.util.find_spec("jaxtyping") is not None

# What jaxtyping exports to a static checker (its TYPE_CHECKING branch): Annotated aliases.
JAXTYPING_STUB = "from typing import Annotated as Float, Annotated as Shaped\n"

# The names of pyrefly-shape-extensions these files use, with the real package's signatures.
SHAPE_EXTENSIONS_STUB = textwrap.dedent(
    """\
    from collections.abc import Callable
    from typing import Annotated as Shaped

    def static_jaxtyping[F: Callable[..., object]](declaration: str) -> Callable[[F], F]: ...
    def shape_vars[F: Callable[..., object]](
        declaration: str, *, required: bool = False
    ) -> Callable[[F], F]: ...
    """
)

# An array class as jax_core's Array would have to be declared for the mode to see shapes.
SHAPED_DEMO_STUB = textwrap.dedent(
    """\
    from shape_extensions import Shaped, shape_vars

    @shape_vars("*S")
    class ShapedArray:
        @shape_vars("M, N, P")
        def __matmul__(
            self: Shaped[ShapedArray, "[M, N]"], other: Shaped[ShapedArray, "[N, P]"], /
        ) -> Shaped[ShapedArray, "[M, P]"]: ...

    @shape_vars("M, N, P")
    def matmul(
        a: Shaped[ShapedArray, "[M, N]"], b: Shaped[ShapedArray, "[N, P]"], /
    ) -> Shaped[ShapedArray, "[M, P]"]: ...
    """
)

# Markers: `# expect: <code>` (an error of that code on the line, optionally `:: <fragment>`: parts
# of its message, ` ... ` between them) and `# reveal: <type>` (what reveal_type shows, exactly).
JAX_CORE_PLAIN = textwrap.dedent(
    '''\
    """jaxtyping annotations on jax_core arrays, no shape declaration."""

    from typing import reveal_type

    import jax_core.numpy as jnp
    from jax_core import Array
    from jaxtyping import Float


    def matmul_op(x: Float[Array, "b n"], w: Float[Array, "n m"]) -> Float[Array, "b m"]:
        reveal_type(x)  # reveal: Array
        return x @ w


    def matmul_fn(x: Float[Array, "b n"], w: Float[Array, "n m"]) -> Float[Array, "b m"]:
        return jnp.matmul(x, w)


    def transposed(x: Float[Array, "b n"], w: Float[Array, "n m"]) -> Float[Array, "m b"]:
        return x @ w


    def not_an_int(x: Float[Array, "b n"]) -> int:
        return x  # expect: bad-return :: `Array` is not assignable ... `int`
    '''
)

JAX_CORE_DECLARED = textwrap.dedent(
    '''\
    """The same functions on jax_core arrays, opted in with @static_jaxtyping."""

    from typing import reveal_type

    import jax_core.numpy as jnp
    from jax_core import Array
    from jaxtyping import Float
    from shape_extensions import static_jaxtyping


    @static_jaxtyping("b n m")
    def matmul_op(x: Float[Array, "b n"], w: Float[Array, "n m"]) -> Float[Array, "b m"]:
        reveal_type(x)  # reveal: Array
        reveal_type(x @ w)  # reveal: Array
        return x @ w


    @static_jaxtyping("b n m")
    def matmul_fn(x: Float[Array, "b n"], w: Float[Array, "n m"]) -> Float[Array, "b m"]:
        return jnp.matmul(x, w)


    @static_jaxtyping("b n m")
    def transposed(x: Float[Array, "b n"], w: Float[Array, "n m"]) -> Float[Array, "m b"]:
        return x @ w


    @static_jaxtyping("b n k m")
    def inner_mismatch(x: Float[Array, "b n"], w: Float[Array, "k m"]) -> Float[Array, "b m"]:
        return x @ w


    @static_jaxtyping("b")
    def wrong_literal(x: Float[Array, "b 3"]) -> Float[Array, "b 4"]:
        return x


    @static_jaxtyping("b")
    def undeclared(x: Float[Array, "b n"]) -> None:
        reveal_type(x)  # reveal: Array


    @static_jaxtyping("b n")
    def not_an_int(x: Float[Array, "b n"]) -> int:
        return x  # expect: bad-return :: `Array` is not assignable ... `int`
    '''
)

SHAPED_CONTROL = textwrap.dedent(
    '''\
    """The control: the same functions on a class that carries a shape parameter."""

    from typing import reveal_type

    import shaped_demo as jnp
    from jaxtyping import Float
    from shape_extensions import static_jaxtyping
    from shaped_demo import ShapedArray as Array


    @static_jaxtyping("b n m")
    def matmul_op(x: Float[Array, "b n"], w: Float[Array, "n m"]) -> Float[Array, "b m"]:
        reveal_type(x)  # reveal: ShapedArray[[b, n]]
        reveal_type(x @ w)  # reveal: ShapedArray[[b, m]]
        return x @ w


    @static_jaxtyping("b n m")
    def matmul_fn(x: Float[Array, "b n"], w: Float[Array, "n m"]) -> Float[Array, "b m"]:
        return jnp.matmul(x, w)


    @static_jaxtyping("b n m")
    def transposed(x: Float[Array, "b n"], w: Float[Array, "n m"]) -> Float[Array, "m b"]:
        return x @ w  # expect: bad-return :: `ShapedArray[[b, m]]` ... `ShapedArray[[m, b]]`


    @static_jaxtyping("b n k m")
    def inner_mismatch(x: Float[Array, "b n"], w: Float[Array, "k m"]) -> Float[Array, "b m"]:
        return x @ w  # expect: unsupported-operation :: `@` ... `ShapedArray[[k, m]]`


    @static_jaxtyping("b")
    def wrong_literal(x: Float[Array, "b 3"]) -> Float[Array, "b 4"]:
        return x  # expect: bad-return :: `ShapedArray[[b, 3]]` ... `ShapedArray[[b, 4]]`


    @static_jaxtyping("b")
    def undeclared(x: Float[Array, "b n"]) -> None:  # expect: invalid-annotation :: `n` is not
        reveal_type(x)  # reveal: ShapedArray[[b, int]]


    def gradual(x: Float[Array, "b n"], w: Float[Array, "n m"]) -> Float[Array, "m b"]:
        reveal_type(x)  # reveal: ShapedArray
        return x @ w
    '''
)

_EXPECT = re.compile(r"#\s*expect:\s*(?P<code>[a-z-]+)(?:\s*::\s*(?P<fragment>.+?))?\s*$")
_REVEAL = re.compile(r"#\s*reveal:\s*(?P<type>.+?)\s*$")


def _markers(source: str) -> tuple[dict[int, tuple[str, str]], dict[int, str]]:
    """(line -> (code, message fragment)) of the expected errors, (line -> type) of the reveals."""
    errors: dict[int, tuple[str, str]] = {}
    reveals: dict[int, str] = {}
    for number, text in enumerate(source.splitlines(), start=1):
        if m := _EXPECT.search(text):
            errors[number] = (m["code"], m["fragment"] or "")
        if m := _REVEAL.search(text):
            reveals[number] = m["type"]
    return errors, reveals


def _run_pyrefly(tmp_path: Path, files: dict[str, str], *, shape_extensions: bool) -> CheckerRun:
    """Writes ``files`` and the stubs under ``tmp_path`` and runs the dev venv's pyrefly on them."""
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    if not HAS_JAXTYPING:
        (stubs / "jaxtyping").mkdir()
        (stubs / "jaxtyping" / "__init__.pyi").write_text(JAXTYPING_STUB)
    if shape_extensions:
        (stubs / "shape_extensions").mkdir()
        (stubs / "shape_extensions" / "__init__.pyi").write_text(SHAPE_EXTENSIONS_STUB)
        (stubs / "shaped_demo.pyi").write_text(SHAPED_DEMO_STUB)
    for name, source in files.items():
        (tmp_path / name).write_text(source)
    config = tmp_path / "pyrefly.toml"
    # jax_core from the checkout, its .pyi overlays first, as typing/pyrefly.toml has them.
    search_path = ", ".join(f'"{p}"' for p in (stubs, ROOT / "stubs", ROOT))
    config.write_text(
        f'python-version = "3.12"\npython-platform = "linux"\nsearch-path = [{search_path}]\n'
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYREFLY_CONFIG", "MYPYPATH")}
    env["NO_COLOR"] = "1"
    proc = subprocess.run(
        pyrefly_command(config, sorted(files), sys.executable),
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    run = CheckerRun("pyrefly")
    parse_pyrefly(run, tmp_path, proc.returncode, proc.stdout, proc.stderr)
    assert run.failure is None, run.failure
    return run


def _check(run: CheckerRun, path: Path, source: str) -> list[str]:
    """The differences between what pyrefly reported on ``path`` and the markers of ``source``."""
    want_errors, want_reveals = _markers(source)
    got: list[Diagnostic] = run.by_file.get(str(path.resolve()), [])
    problems: list[str] = []
    got_errors = {d.line: d for d in got if d.is_error}
    for line, diag in sorted(got_errors.items()):
        if line not in want_errors:
            problems.append(f"{path.name}:{line}: unexpected {diag}")
    for line, (code, fragment) in sorted(want_errors.items()):
        found = got_errors.get(line)
        if found is None:
            problems.append(f"{path.name}:{line}: missing {code} error ({fragment})")
        elif found.code != code or any(p not in found.message for p in fragment.split(" ... ")):
            problems.append(f"{path.name}:{line}: expected {code} with {fragment!r}, got {found}")
    got_reveals = {
        d.line: d.message.removeprefix("revealed type: ") for d in got if d.code == "reveal-type"
    }
    if got_reveals != want_reveals:
        problems.append(f"{path.name}: reveals {got_reveals}, expected {want_reveals}")
    return problems


def test_jaxtyping_annotations_read_as_array(tmp_path: Path) -> None:
    """No shape declaration: ``Float[Array, "b n"]`` is ``Array``, with no false positive (the
    dimension names are not taken for undefined names) and no shape check."""
    run = _run_pyrefly(tmp_path, {"jax_core_plain.py": JAX_CORE_PLAIN}, shape_extensions=False)
    problems = _check(run, tmp_path / "jax_core_plain.py", JAX_CORE_PLAIN)
    assert problems == [], "\n".join([*problems, run.raw[-4000:]])


def test_shape_mode_checks_shaped_classes_but_not_jax_core_array(tmp_path: Path) -> None:
    """Mode on (``shape_extensions`` resolvable), ``@static_jaxtyping`` on every function: the
    control class's shapes are checked; on jax_core's ``Array`` the shapes stay gradual."""
    files = {"jax_core_declared.py": JAX_CORE_DECLARED, "shaped_control.py": SHAPED_CONTROL}
    run = _run_pyrefly(tmp_path, files, shape_extensions=True)
    problems = [p for name, src in files.items() for p in _check(run, tmp_path / name, src)]
    assert problems == [], "\n".join([*problems, run.raw[-4000:]])


@pytest.mark.parametrize(
    ("source", "errors", "reveals"),
    [
        (
            "x  # expect: bad-return :: `A` is not\ny  # reveal: B[[b, m]]\n",
            {1: ("bad-return", "`A` is not")},
            {2: "B[[b, m]]"},
        ),
        ("z  # expect: invalid-annotation\n", {1: ("invalid-annotation", "")}, {}),
    ],
)
def test_markers(source: str, errors: dict[int, tuple[str, str]], reveals: dict[int, str]) -> None:
    assert _markers(source) == (errors, reveals)


def test_check_reports_every_kind_of_difference(tmp_path: Path) -> None:
    source = "a  # expect: bad-return :: `Array`\nb  # expect: bad-return\nc\nd  # reveal: Array\n"
    path = tmp_path / "f.py"
    run = CheckerRun("pyrefly")
    key = str(path.resolve())
    run.by_file[key] = [
        Diagnostic(1, "error", "Returned type `int` is wrong", "bad-return"),  # wrong message
        Diagnostic(3, "error", "surprise", "bad-argument-type"),  # unexpected; line 2 missing
        Diagnostic(4, "information", "revealed type: Array[Unknown]", "reveal-type"),
    ]
    problems = _check(run, path, source)
    assert [p.split(":")[1] for p in problems[:3]] == ["3", "1", "2"]
    assert "reveals {4: 'Array[Unknown]'}" in problems[3]
    assert len(problems) == 4
