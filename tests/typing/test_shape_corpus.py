"""The shape corpus (typing/shapes/, see its README): the plugin's shape checks on annotated code.

* fail/: every line marked ``# S: <fragment>`` gets a ``jax-shape`` error from mypy with the
  plugin containing the fragment, and no other line gets any error (no false positive);
* pass/: no error at all, and every ``# R: <shape>`` line's ``reveal_type`` note shows
  ``Array[Literal['<shape>']]``;
* without the plugin, mypy, pyright, pyrefly and ty report no error on either folder: the
  annotations read as ``Array`` everywhere;
* the pass programs run, with jaxtyping's runtime checker (beartype) on every annotated
  function, so the shapes the checker accepts are the shapes the program has.
"""

from __future__ import annotations

import importlib.util
import io
import re
import sys
import tokenize
from pathlib import Path

import pytest

from tests.typing._checkers import CheckerRun, run_checkers, run_mypy

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "typing"
SHAPES = CORPUS / "shapes"
FAIL = sorted((SHAPES / "fail").glob("*.py"))
PASS = sorted((SHAPES / "pass").glob("*.py"))
TARGETS = ["shapes/fail", "shapes/pass"]
_MARK = re.compile(r"#\s*(?P<kind>[SR]):\s*(?P<text>.*?)\s*$")


def markers(path: Path) -> dict[int, tuple[str, str]]:
    """line -> (kind, text) of the ``# S:`` / ``# R:`` comments of ``path``."""
    out: dict[int, tuple[str, str]] = {}
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
        if tok.type == tokenize.COMMENT and (m := _MARK.search(tok.string)):
            out[tok.start[0]] = (m["kind"], m["text"])
    return out


def _same_quotes(text: str) -> str:
    return text.replace("'", '"')


@pytest.fixture(scope="module")
def with_plugin(tmp_path_factory: pytest.TempPathFactory) -> CheckerRun:
    run = run_mypy(
        cwd=CORPUS,
        config=CORPUS / "mypy-plugin.ini",
        targets=TARGETS,
        cache_dir=tmp_path_factory.mktemp("mypy-shapes"),
        timeout=600,
    )
    assert run.failure is None, run.failure
    return run


def test_markers_are_read() -> None:
    """Each fail file marks several bugs; each pass file reveals shapes."""
    assert len(FAIL) >= 5 and len(PASS) >= 3
    for path in FAIL:
        assert sum(k == "S" for k, _ in markers(path).values()) >= 3, path
    for path in PASS:
        assert any(k == "R" for k, _ in markers(path).values()), path


@pytest.mark.parametrize("path", FAIL, ids=lambda p: p.name)
def test_fail_marks_exactly_the_shape_bugs(with_plugin: CheckerRun, path: Path) -> None:
    found = [d for d in with_plugin.by_file.get(str(path), []) if d.is_error]
    expected = {line: text for line, (kind, text) in markers(path).items() if kind == "S"}
    problems: list[str] = []
    for line, fragment in expected.items():
        here = [d for d in found if d.line == line]
        if not any(
            d.code == "jax-shape" and _same_quotes(fragment) in _same_quotes(d.message)
            for d in here
        ):
            problems.append(
                f"{path.name}:{line}: expected a jax-shape error containing {fragment!r}, got {[str(d) for d in here]}"
            )
    for d in found:
        if d.line not in expected:
            problems.append(f"{path.name}:{d.line}: unexpected error: {d}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", PASS, ids=lambda p: p.name)
def test_pass_is_clean_and_reveals_shapes(with_plugin: CheckerRun, path: Path) -> None:
    diagnostics = with_plugin.by_file.get(str(path), [])
    errors = [f"{path.name}:{d.line}: {d}" for d in diagnostics if d.is_error]
    assert not errors, "\n".join(errors)
    notes = {d.line: d.message for d in diagnostics if d.severity == "note"}
    for line, (kind, text) in markers(path).items():
        if kind != "R":
            continue
        assert f"Array[Literal['{text}']]" in notes.get(line, ""), (
            f"{path.name}:{line}: expected the revealed shape {text!r}, got {notes.get(line)!r}"
        )


def test_without_the_plugin_no_checker_reports_anything(tmp_path: Path) -> None:
    """The annotations cost no false positive anywhere: every checker reads them as ``Array``
    (the shape bugs of fail/ are not type errors)."""
    runs = run_checkers(
        cwd=CORPUS,
        mypy_config=CORPUS / "mypy.ini",
        pyright_config=CORPUS / "pyrightconfig.json",
        pyrefly_config=CORPUS / "pyrefly.toml",
        ty_config=CORPUS / "ty.toml",
        targets=TARGETS,
        cache_dir=tmp_path,
        timeout=600,
    )
    problems: list[str] = []
    for name, run in runs.items():
        assert run.failure is None, run.failure
        for file, diagnostics in run.by_file.items():
            problems += [
                f"{name}: {Path(file).name}:{d.line}: {d}"
                for d in diagnostics
                if d.is_error
                and "reveal_type" not in d.message
                and "Revealed type" not in d.message
            ]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", PASS, ids=lambda p: p.name)
def test_pass_programs_run_under_jaxtyping(path: Path) -> None:
    """Each annotated function of a pass program, wrapped in jaxtyping's runtime checker, runs on
    arrays of the annotated shapes: the static shapes are the run-time ones."""
    from beartype import beartype
    from jaxtyping import jaxtyped

    import jax_core.numpy as jnp

    spec = importlib.util.spec_from_file_location(f"shape_pass_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules.pop(spec.name, None)
    checked = {
        name: jaxtyped(typechecker=beartype)(fn)
        for name, fn in vars(module).items()
        if callable(fn)
        and getattr(fn, "__module__", None) == spec.name
        and not isinstance(fn, type)
    }
    for name, fn in checked.items():
        setattr(module, name, fn)
    cases = _CASES[path.stem]
    ran = 0
    for name, shapes in cases.items():
        args = [jnp.ones(s) if isinstance(s, tuple) else s for s in shapes]
        checked[name](*args)
        ran += 1
    assert ran == len(cases) > 0
    # a wrong shape is caught by the same checker
    from jaxtyping import TypeCheckError

    name, shapes = next(iter(cases.items()))
    wrong = [jnp.ones((*s, 1)) if isinstance(s, tuple) else s for s in shapes]
    with pytest.raises(TypeCheckError):
        checked[name](*wrong)


_CASES: dict[str, dict[str, list[object]]] = {
    "mlp": {
        "dense": [(2, 3), (3, 4), (4,)],
        "mlp": [(2, 784), (784, 16), (16,), (16, 10), (10,)],
        "run": [(32, 784), (784, 128), (128,), (128, 10), (10,)],
    },
    "attention": {
        "attention": [(3, 4), (5, 4), (5, 6)],
        "einsum_attention": [(2, 3, 4), (2, 5, 4), (2, 5, 6)],
        "batched": [(2, 3, 4), (2, 5, 4), (2, 5, 6)],
        "layer_norm": [(2, 3, 8), (8,)],
        "use": [(4, 16, 32), (32,)],
    },
    "jaxtyping_names": {
        "scale": [(2, 3), (3, 4)],
        "use": [(4, 3), (3, 2)],
    },
    "training": {
        "predict": [(3, 2), (3,)],
        "loss": [(3, 2), (3,), (2,)],
        "update": [(3, 2), (8, 3), (8, 2)],
        "epoch": [(3, 2), (4, 8, 3), (4, 8, 2)],
        "run": [(3, 2), (16, 3), (16, 2)],
        "more": [(3, 2), (3,), (2,)],
        "settle": [(3, 2)],
    },
}
