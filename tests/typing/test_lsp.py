"""What an editor shows: the pyright language server completes and hovers through ``jit``.

Drives ``pyright-langserver --stdio`` (the dev venv's pyright) over JSON-RPC: ``initialize``,
``initialized``, ``textDocument/didOpen``, then ``textDocument/completion`` after an expression
such as ``jit(f)(x).`` and ``textDocument/hover`` on a jitted function's name. One server serves
the whole module; every request has a deadline and the whole session is bounded (SESSION_S), so
the test never hangs. Adding a completion case is one line in COMPLETION_CASES.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SESSION_S = 60.0  # the whole server session, start to shutdown

PRELUDE = textwrap.dedent(
    """\
    import jax_core as jax
    import jax_core.numpy as jnp
    from jax_core import Array, jit


    def f(x: Array, n: int) -> Array:
        return x * n


    def mse(w: Array, x: Array) -> Array:
        return jnp.mean((x @ w) ** 2)


    @jit
    def loss(w: Array, x: Array) -> Array:
        return jnp.sum((x @ w) ** 2)


    jf = jit(f)
    x = jnp.ones(3)
    w = jnp.ones((3, 2))
    """
)

ARRAY_METHODS = {"sum", "reshape", "astype", "shape", "dtype", "mean", "at", "T"}

# (case id, the expression a user has typed, completion items that must be offered)
COMPLETION_CASES: list[tuple[str, str, set[str]]] = [
    ("jit-call", "jit(f)(x, 2).", ARRAY_METHODS),
    ("jitted-name-call", "jf(x, 2).", ARRAY_METHODS),
    ("jit-decorated", "loss(w, x).", ARRAY_METHODS),
    ("compiled-call", "jf.lower(x, 2).compile()(x, 2).", ARRAY_METHODS),
    ("jitted-object", "jf.", {"lower", "trace", "eval_shape"}),
    ("grad-call", "jax.grad(mse)(w, x).", ARRAY_METHODS),
    ("value-and-grad-call", "jax.value_and_grad(mse)(w, x)[1].", ARRAY_METHODS),
    ("vmap-call", "jax.vmap(f, in_axes=(0, None))(w, 2).", ARRAY_METHODS),
]

# (case id, the line to hover over, the name hovered, fragments the hover text must contain)
HOVER_CASES: list[tuple[str, str, str, tuple[str, ...]]] = [
    ("jit-assigned", "jf(x, 2)", "jf", ("x: Array", "n: int", "Array")),
    ("jit-decorated", "loss(w, x)", "loss", ("w: Array", "x: Array")),
]


def _langserver() -> list[str] | None:
    for candidate in (
        Path(sys.executable).parent / "pyright-langserver",
        shutil.which("pyright-langserver"),
    ):
        if candidate and Path(candidate).exists():
            return [str(candidate), "--stdio"]
    return None


class LanguageServer:
    """A minimal LSP client: Content-Length framed JSON-RPC over the server's stdin/stdout."""

    def __init__(self, cmd: list[str], cwd: Path, deadline: float) -> None:
        self.deadline = deadline
        env = {**os.environ, "PYRIGHT_PYTHON_IGNORE_WARNINGS": "1"}
        self.proc = subprocess.Popen(
            cmd,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._next_id = 0
        self._responses: dict[int, queue.Queue[dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()

    # -- wire ----------------------------------------------------------------------------------

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        stdin = self.proc.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stdin.flush()

    @staticmethod
    def _read_message(stream: IO[bytes]) -> dict[str, Any] | None:
        length = None
        while True:
            line = stream.readline()
            if not line:
                return None
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode().partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        if length is None:
            return None
        message: dict[str, Any] = json.loads(stream.read(length))
        return message

    def _read_loop(self) -> None:
        stdout = self.proc.stdout
        assert stdout is not None
        while (message := self._read_message(stdout)) is not None:
            if "id" in message and "method" in message:  # a request from the server
                self._answer(message)
            elif "id" in message:
                with self._lock:
                    box = self._responses.get(message["id"])
                if box is not None:
                    box.put(message)

    def _answer(self, request: dict[str, Any]) -> None:
        result: Any = None
        if request["method"] == "workspace/configuration":
            items = request.get("params", {}).get("items", [])
            result = [self._settings(item.get("section")) for item in items]
        self._send({"id": request["id"], "result": result})

    @staticmethod
    def _settings(section: str | None) -> Any:
        if section == "python":
            return {"pythonPath": sys.executable}
        if section == "python.analysis":
            return {"typeCheckingMode": "standard", "diagnosticMode": "openFilesOnly"}
        return {}

    # -- API -------------------------------------------------------------------------------------

    def request(self, method: str, params: Any, timeout: float = 30.0) -> Any:
        with self._lock:
            self._next_id += 1
            rid = self._next_id
            box: queue.Queue[dict[str, Any]] = queue.Queue()
            self._responses[rid] = box
        self._send({"id": rid, "method": method, "params": params})
        wait = min(timeout, self.deadline - time.monotonic())
        if wait <= 0:
            pytest.fail(f"LSP session ran past {SESSION_S:.0f} s before {method}", pytrace=False)
        try:
            reply = box.get(timeout=wait)
        except queue.Empty:
            pytest.fail(f"no reply to {method} within {wait:.0f} s", pytrace=False)
        if "error" in reply:
            pytest.fail(f"{method} failed: {reply['error']}", pytrace=False)
        return reply.get("result")

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    def open(self, path: Path, text: str) -> str:
        uri = path.as_uri()
        doc = {"uri": uri, "languageId": "python", "version": 1, "text": text}
        self.notify("textDocument/didOpen", {"textDocument": doc})
        return uri

    def close(self) -> None:
        """Asks the server to shut down; kills it if it does not, and closes the pipes."""
        if self.proc.poll() is None:
            # A polite shutdown may itself time out (pytest.fail) or hit a closed pipe.
            with contextlib.suppress(OSError, subprocess.TimeoutExpired, pytest.fail.Exception):
                self.request("shutdown", None, timeout=5)
                self.notify("exit", None)
                self.proc.wait(timeout=5)
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=5)
        self._reader.join(timeout=5)
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LanguageServer, Path]]:
    cmd = _langserver()
    if cmd is None:
        pytest.skip(
            "pyright-langserver not found (install the dev extras: pip install -e '.[dev]')"
        )
    workspace = tmp_path_factory.mktemp("lsp-workspace")
    (workspace / "pyrightconfig.json").write_text(
        json.dumps(
            {
                "pythonVersion": "3.12",
                "typeCheckingMode": "standard",
                "stubPath": str(ROOT / "stubs"),
            }
        )
    )
    ls = LanguageServer(cmd, workspace, deadline=time.monotonic() + SESSION_S)
    try:
        ls.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": workspace.as_uri(),
                "workspaceFolders": [{"uri": workspace.as_uri(), "name": "lsp-workspace"}],
                "capabilities": {
                    "workspace": {"configuration": True, "workspaceFolders": True},
                    "textDocument": {
                        "completion": {"completionItem": {"snippetSupport": False}},
                        "hover": {"contentFormat": ["plaintext", "markdown"]},
                    },
                },
            },
            timeout=30,
        )
        ls.notify("initialized", {})
        yield ls, workspace
    finally:
        ls.close()


def _complete(ls: LanguageServer, workspace: Path, name: str, expression: str) -> set[str]:
    text = PRELUDE + expression + "\n"
    uri = ls.open(workspace / f"complete_{name.replace('-', '_')}.py", text)
    position = {"line": PRELUDE.count("\n"), "character": len(expression)}
    result = ls.request(
        "textDocument/completion", {"textDocument": {"uri": uri}, "position": position}
    )
    items = result.get("items", []) if isinstance(result, dict) else (result or [])
    return {item["label"] for item in items}


def _hover(ls: LanguageServer, workspace: Path, name: str, line: str, word: str) -> str:
    uri = ls.open(workspace / f"hover_{name.replace('-', '_')}.py", PRELUDE + line + "\n")
    position = {"line": PRELUDE.count("\n"), "character": line.index(word) + 1}
    result = ls.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": position})
    if not result:
        return ""
    contents = result["contents"]
    if isinstance(contents, dict):
        return str(contents.get("value", ""))
    if isinstance(contents, list):
        return "\n".join(c if isinstance(c, str) else str(c.get("value", "")) for c in contents)
    return str(contents)


@pytest.mark.parametrize(
    ("name", "expression", "wanted"), COMPLETION_CASES, ids=[c[0] for c in COMPLETION_CASES]
)
def test_completion_lists_the_result_type_members(
    server: tuple[LanguageServer, Path], name: str, expression: str, wanted: set[str]
) -> None:
    labels = _complete(*server, name, expression)
    missing = wanted - labels
    assert not missing, (
        f"completion after {expression!r} lacks {sorted(missing)}; offered {sorted(labels)[:40]}"
    )


@pytest.mark.parametrize(
    ("name", "line", "word", "fragments"), HOVER_CASES, ids=[c[0] for c in HOVER_CASES]
)
def test_hover_shows_the_original_signature(
    server: tuple[LanguageServer, Path], name: str, line: str, word: str, fragments: tuple[str, ...]
) -> None:
    text = _hover(*server, name, line, word)
    missing = [f for f in fragments if f not in text]
    assert not missing, f"hover on {word!r} lacks {missing}:\n{text}"
