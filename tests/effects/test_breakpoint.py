"""``debug.breakpoint`` and its command-line debugger ``jdb``.

jdb is driven with scripted input (``sys.stdin`` replaced by the commands, ``capsys`` reading
what it prints); a recording backend (registered below, at a priority under the cli's) shows
what a backend is given: the frames, their locals (traced values as arrays, the rest as they
were) and the thread. A whole session is compared with real JAX's: one program, run by both
libraries in parallel subprocesses fed the same commands on stdin; their outputs must be equal
(addresses masked).
"""

from __future__ import annotations

import importlib.util
import io
import os
import re
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core._src.callbacks.breakpoint import breakpoint, get_debugger, register_debugger
from jax_core._src.callbacks.debugger_cli import DebuggerFrame, run_cli_debugger
from jax_core._src.core.trace import Tracer
from tests.oracle import client as oracle

ROOT = Path(__file__).resolve().parents[2]
JAX_CORE_DIR = str(ROOT / "jax_core") + os.sep


# -- the recording backend ------------------------------------------------------------------------
Stop = tuple[list[DebuggerFrame], int | None, dict[str, Any]]
_STOPS: list[Stop] = []


def _record(frames: list[DebuggerFrame], thread_id: int | None, **kwargs: Any) -> None:
    _STOPS.append((frames, thread_id, kwargs))


register_debugger("tests.recording", _record, -10)
REC = "tests.recording"


@pytest.fixture
def stops() -> Iterator[list[Stop]]:
    """The stops the recording backend saw during the test."""
    _STOPS.clear()
    yield _STOPS
    _STOPS.clear()


JdbRun = Callable[..., str]


@pytest.fixture
def jdb(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> JdbRun:
    """``jdb(fn, *commands)``: calls ``fn()`` with the commands on ``sys.stdin``, waits for its
    effects and returns what was printed."""

    def run(fn: Callable[[], object], *commands: str) -> str:
        monkeypatch.setattr(sys, "stdin", io.StringIO("".join(c + "\n" for c in commands)))
        capsys.readouterr()
        fn()
        jax.effects_barrier()
        return capsys.readouterr().out

    return run


# -- a program with known line numbers ------------------------------------------------------------
PROG = """\
import jax_core as jax
from jax_core._src.callbacks.breakpoint import breakpoint


def helper(x, y):
    z = x * 2
    label = "hello"
    breakpoint(num_frames=3)
    return z + y


@jax.jit
def f(x):
    y = x + 1
    return helper(x, y)


def main():
    return f(jax.numpy.arange(3.0))
"""


@pytest.fixture(scope="module")
def prog(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    path = tmp_path_factory.mktemp("jdb") / "prog.py"
    path.write_text(PROG)
    spec = importlib.util.spec_from_file_location("jdb_prog", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_jdb_prints_traced_and_static_locals(jdb: JdbRun, prog: ModuleType) -> None:
    out = jdb(prog.main, "p x", "pp {'z': z, 'label': label}", "label", "p y + 1", "c")
    assert out == (
        "Entering jdb:\n"
        "(jdb) Array([0., 1., 2.], dtype=float32)\n"
        "(jdb) {'label': 'hello', 'z': Array([0., 2., 4.], dtype=float32)}\n"
        "(jdb) 'hello'\n"
        "(jdb) Array([2., 3., 4.], dtype=float32)\n"
        "(jdb) "
    )


def test_jdb_where_up_down_list(jdb: JdbRun, prog: ModuleType) -> None:
    path = prog.__file__
    helper_src = [
        "    def helper(x, y):",
        "        z = x * 2",
        '        label = "hello"',
        "->      breakpoint(num_frames=3)",
        "        return z + y",
        "    ",
    ]
    f_src = [
        "    @jax.jit",
        "    def f(x):",
        "        y = x + 1",
        "->      return helper(x, y)",
        "    ",
    ]
    main_src = ["    def main():", "->      return f(jax.numpy.arange(3.0))", "    "]
    out = jdb(prog.main, "w", "u", "u", "u", "d", "d", "d", "l", "c")
    assert out.split("(jdb) ")[1:-1] == [
        "\n".join([
            "Traceback:",
            f'  File "{path}", line 19',
            "    return f(jax.numpy.arange(3.0))",
            f'  File "{path}", line 15',
            "    return helper(x, y)",
            f'  File "{path}", line 8',
            "    breakpoint(num_frames=3)",
        ]) + "\n",
        "\n".join([f"> {path}(15)", *f_src]) + "\n",
        "\n".join([f"> {path}(19)", *main_src]) + "\n",
        "\n".join(["At topmost frame.", f"> {path}(19)", *main_src]) + "\n",
        "\n".join([f"> {path}(15)", *f_src]) + "\n",
        "\n".join([f"> {path}(8)", *helper_src]) + "\n",
        "\n".join(["At bottommost frame.", f"> {path}(8)", *helper_src]) + "\n",
        "\n".join([f"> {path}(8)", *helper_src]) + "\n",
    ]  # fmt: skip


def test_jdb_reports_errors_and_has_no_longlist(jdb: JdbRun, prog: ModuleType) -> None:
    out = jdb(prog.main, "p nope", "1/0", "pp {}[1]", "p", "ll", "longlist", "c")
    assert out.split("(jdb) ")[1:-1] == [
        "*** NameError: name 'nope' is not defined\n",
        "*** ZeroDivisionError: division by zero\n",
        "*** KeyError: 1\n",
        "*** SyntaxError: invalid syntax\n",
        "*** NameError: name 'll' is not defined\n",  # as JAX's jdb: no ll/longlist command
        "*** NameError: name 'longlist' is not defined\n",
    ]


def test_jdb_help_lists_the_commands(jdb: JdbRun, prog: ModuleType) -> None:
    out = jdb(prog.main, "help", "help w", "help nope", "c")
    listing, where, nope = out.split("(jdb) ")[1:-1]
    names = re.findall(r"\S+", listing.split("=\n", 1)[1])
    assert sorted(names) == sorted([
        "EOF", "bt", "c", "cont", "continue", "d", "down", "exit", "help", "l", "list", "p", "pp",
        "q", "quit", "u", "up", "w", "where",
    ])  # fmt: skip
    assert where.startswith("w(here)\n    ")
    assert nope == "*** No help on nope\n"


def test_jdb_empty_line_repeats_the_last_command(jdb: JdbRun, prog: ModuleType) -> None:
    out = jdb(prog.main, "label", "", "c")
    assert out == "Entering jdb:\n(jdb) 'hello'\n(jdb) 'hello'\n(jdb) "


def test_jdb_quit_and_end_of_input_exit(jdb: JdbRun, prog: ModuleType) -> None:
    def eager() -> None:
        x = jnp.int32(4)
        breakpoint()
        del x

    for commands in (["q"], ["quit"], ["exit"], []):
        with pytest.raises(SystemExit) as info:
            jdb(eager, *commands)
        assert info.value.code == 0
    # Under jit the exit happens in the callback: the call fails as in JAX.
    with pytest.raises(jax.errors.JaxRuntimeError, match="SystemExit"):
        jdb(prog.main, "q")


def test_jdb_restarts_after_keyboard_interrupt(capsys: pytest.CaptureFixture[str]) -> None:
    class Interrupted:
        """Input whose first read is Ctrl-C, then ``c``."""

        def __init__(self) -> None:
            self.reads = 0

        def readline(self) -> str:
            self.reads += 1
            if self.reads == 1:
                raise KeyboardInterrupt
            return "c\n"

    out = io.StringIO()
    breakpoint(stdin=Interrupted(), stdout=out)
    assert out.getvalue() == "Entering jdb:\n(jdb) Entering jdb:\n(jdb) "
    assert capsys.readouterr().out == "--KeyboardInterrupt--\n"


def test_cli_takes_stdin_and_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    value = jnp.arange(2)
    breakpoint(stdin=io.StringIO("p value\nc\n"), stdout=out)
    assert out.getvalue() == "Entering jdb:\n(jdb) Array([0, 1], dtype=int32)\n(jdb) "
    assert capsys.readouterr().out == ""
    del value


def test_unknown_backend_falls_back_to_the_cli(jdb: JdbRun) -> None:
    def eager() -> None:
        n = 7
        breakpoint(backend="no-such-debugger")
        del n

    assert jdb(eager, "n", "c") == "Entering jdb:\n(jdb) 7\n(jdb) "
    assert get_debugger("no-such-debugger") is run_cli_debugger
    assert get_debugger() is run_cli_debugger


def test_unknown_keyword_is_the_cli_type_error() -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'foo'"):
        breakpoint(foo=1)


def test_registering_a_name_twice_raises() -> None:
    with pytest.raises(ValueError, match='Debugger with name "cli" already registered.'):
        register_debugger("cli", _record, 0)


def test_ordered_and_token_are_exclusive() -> None:
    with pytest.raises(ValueError, match="`ordered` and `token` are mutually exclusive arguments."):
        breakpoint(ordered=True, token=jnp.float32(1))


# -- what a backend gets --------------------------------------------------------------------------
def test_traced_locals_arrive_as_arrays_others_as_they_were(stops: list[Stop]) -> None:
    marker = object()
    unflattenable = {1: "a", "b": 2}  # keys that cannot be sorted: not a pytree

    @jax.jit
    def f(x: jax.Array) -> jax.Array:
        pair = (x, "s", marker)
        breakpoint(backend=REC, num_frames=2, extra=5)
        del pair
        return x

    f(jnp.float32(2))
    jax.effects_barrier()
    [(frames, thread_id, kwargs)] = stops
    assert kwargs == {"extra": 5}
    assert thread_id is None
    assert len(frames) == 2
    inner, outer = frames[0].locals, frames[1].locals
    assert sorted(inner) == ["marker", "pair", "x"]
    assert isinstance(inner["x"], jax.Array) and not isinstance(inner["x"], Tracer)
    assert inner["x"].dtype == np.float32 and float(inner["x"]) == 2.0
    x, s, m = inner["pair"]
    assert float(x) == 2.0 and s == "s" and m is marker and inner["marker"] is marker
    assert repr(outer["unflattenable"]) == "<cant_flatten>"
    assert frames[0].globals == {} and frames[0].filename == __file__
    assert frames[0].offset is not None
    assert frames[0].source[frames[0].offset].strip().startswith("breakpoint(backend=REC")
    del unflattenable


def test_frames_from_the_caller_outward_without_jax_core(stops: list[Stop]) -> None:
    def inner(x: jax.Array) -> None:
        breakpoint(backend=REC)

    def outer(x: jax.Array) -> jax.Array:
        inner(x)
        return x

    def wrapper(x: jax.Array) -> jax.Array:
        return outer(x) + 0

    jax.jit(outer)(jnp.float32(1))
    jax.jit(wrapper)(jnp.float32(1))
    breakpoint(backend=REC, filter_frames=False)  # eager: the next frame is this test's
    jax.effects_barrier()
    (first, _, _), (second, _, _), (eager, _, _) = stops
    for frames in (first, second):
        names = [Path(f.filename).name for f in frames]
        assert names[:3] == ["test_breakpoint.py"] * 3
        assert not any(f.filename.startswith(JAX_CORE_DIR) for f in frames)
        assert frames[0].source[frames[0].offset or 0].strip() == "breakpoint(backend=REC)"
        assert frames[1].source[frames[1].offset or 0].strip() == "inner(x)"
    assert len(second) == len(first) + 1  # wrapper's frame
    assert eager[0].filename == __file__


def test_unfiltered_frames_include_jax_core(stops: list[Stop]) -> None:
    def f(x: jax.Array) -> jax.Array:
        breakpoint(backend=REC, filter_frames=False)
        return x

    jax.jit(f)(jnp.float32(1))
    jax.effects_barrier()
    [(frames, _, _)] = stops
    assert frames[0].filename == __file__
    assert any(f.filename.startswith(JAX_CORE_DIR) for f in frames)


def test_vmap_stops_once_per_element_grad_with_the_primal(stops: list[Stop]) -> None:
    def f(x: jax.Array) -> jax.Array:
        breakpoint(backend=REC, num_frames=1)
        return x * x

    jax.vmap(f)(jnp.arange(3.0))
    jax.jit(jax.vmap(f))(jnp.arange(3.0) + 10)
    assert float(jax.grad(f)(jnp.float32(5))) == 10.0
    jax.effects_barrier()
    seen = [float(frames[0].locals["x"]) for frames, _, _ in stops]
    assert seen == [0.0, 1.0, 2.0, 10.0, 11.0, 12.0, 5.0]


def test_ordered_breakpoint_between_ordered_prints(
    stops: list[Stop], capsys: pytest.CaptureFixture[str]
) -> None:
    @jax.jit
    def f(x: jax.Array) -> jax.Array:
        jax.debug.print("before {}", x, ordered=True)
        breakpoint(backend=REC, ordered=True, num_frames=1)
        jax.debug.print("after {}", x, ordered=True)
        return x

    capsys.readouterr()
    f(jnp.int32(1))
    jax.effects_barrier()
    assert stops and capsys.readouterr().out == "before 1\nafter 1\n"

    # The cli backend's session sits between the two prints.
    @jax.jit
    def g(x: jax.Array) -> jax.Array:
        jax.debug.print("before {}", x, ordered=True)
        breakpoint(ordered=True, num_frames=1, stdin=io.StringIO("p x\nc\n"))
        jax.debug.print("after {}", x, ordered=True)
        return x

    g(jnp.int32(2))
    jax.effects_barrier()
    assert capsys.readouterr().out == (
        "before 2\nEntering jdb:\n(jdb) Array(2, dtype=int32)\n(jdb) after 2\n"
    )


def test_token_is_returned_after_the_stop(stops: list[Stop]) -> None:
    @jax.jit
    def f(x: jax.Array) -> jax.Array:
        t = breakpoint(backend=REC, token=x, num_frames=1)
        return t * 2

    assert float(f(jnp.float32(3))) == 6.0
    eager = breakpoint(backend=REC, token=jnp.float32(4), num_frames=1)
    assert float(eager) == 4.0
    jax.effects_barrier()
    assert [float(frames[0].locals["x"]) for frames, _, _ in stops[:1]] == [3.0]
    assert len(stops) == 2


def test_thread_id_names_the_thread(stops: list[Stop]) -> None:
    idents: list[int | None] = []

    def run() -> None:
        idents.append(threading.get_ident())
        breakpoint(backend=REC, num_frames=1)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    breakpoint(backend=REC, num_frames=1)
    assert [thread_id for _, thread_id, _ in stops] == [idents[0], None]


# -- a session compared with real JAX's -----------------------------------------------------------
SESSION_PROG = """\
import importlib, sys
jax = importlib.import_module(sys.argv[1])
jnp = importlib.import_module(sys.argv[1] + ".numpy")
if not hasattr(jax.debug, "breakpoint"):
    from jax_core._src.callbacks.breakpoint import breakpoint
    jax.debug.breakpoint = breakpoint


def helper(x, y):
    z = x * 2
    label = "hello"
    count = 3
    jax.debug.breakpoint()
    return z + y


@jax.jit
def f(x):
    y = x + 1
    return helper(x, y)


def g(x):
    pair = (x, "a", [1, 2])
    jax.debug.breakpoint(num_frames=1)
    return x + 1


@jax.jit
def ordered(x):
    jax.debug.print("before {}", x, ordered=True)
    jax.debug.breakpoint(ordered=True, num_frames=2)
    jax.debug.print("after {}", x, ordered=True)
    return x


@jax.jit
def tokened(x):
    t = jax.debug.breakpoint(token=x, num_frames=1)
    return t * 2


@jax.jit
def outer(a):
    b = a * 3

    @jax.jit
    def inner(c):
        jax.debug.breakpoint(num_frames=2)
        return c + b

    return inner(a)


def main():
    print(f(jnp.arange(3.0)))
    g(jnp.arange(2))
    g(5)
    jax.vmap(g)(jnp.arange(3))
    print(jax.grad(lambda v: g(v) * 2.0)(1.0))
    print(jax.lax.scan(lambda c, v: (g(c), v), 0, jnp.arange(2))[0])
    ordered(1.0)
    print(tokened(jnp.float32(3)))
    print(outer(jnp.float32(1)))
    jax.effects_barrier()
    print("end")


main()
"""

SESSION_COMMANDS = [
    # f -> helper under jit
    "p x", "pp {'z': z, 'label': label}", "count", "p count + 1", "p y", "nope", "1/0", "p",
    "w", "u", "p y", "u", "u", "u", "d", "l", "d", "d", "d", "ll", "help", "", "c",
    # g: eager on an array, eager on an int, vmap (3 stops), grad, scan (2 stops)
    "p x", "p pair", "w", "l", "c",
    "p x", "pp pair", "c",
    "p x", "c", "p x", "c", "p x", "c",
    "p x", "c",
    "p x", "c", "p x", "c",
    # ordered between ordered prints; token; nested jit closing over an outer tracer
    "p x", "w", "c",
    "p x", "c",
    "p b", "p c", "p a", "w", "u", "c",
]  # fmt: skip


def _start_session(python: Path | str, library: str, program: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [str(python), str(program), library],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """What real JAX and jax_core print for ``SESSION_PROG`` fed ``SESSION_COMMANDS``."""
    oracle.need()
    exe = oracle.python()
    assert exe is not None
    program = tmp_path_factory.mktemp("jdb_session") / "session.py"
    program.write_text(SESSION_PROG)
    commands = "".join(c + "\n" for c in SESSION_COMMANDS)
    procs = [
        _start_session(exe, "jax", program),
        _start_session(sys.executable, "jax_core", program),
    ]
    outs: list[str] = []
    for proc in procs:
        out, err = proc.communicate(commands, timeout=300)
        assert proc.returncode == 0, err[-3000:]
        outs.append(re.sub(r"0x[0-9a-fA-F]+", "0xXXXX", out))
    return outs[0], outs[1]


def test_session_matches_real_jax(sessions: tuple[str, str]) -> None:
    theirs, ours = sessions
    assert theirs.count("Entering jdb:") == 12
    assert ours == theirs
