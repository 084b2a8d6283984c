"""The frames a ``debug.breakpoint`` debugger is given, and the command-line debugger (``jdb``).

``CliDebugger`` is JAX's ``"cli"`` backend: a ``cmd.Cmd`` loop with the prompt ``(jdb) `` over the
captured frames (innermost first), whose commands print what JAX's print: ``p``/``pp`` and bare
expressions (evaluated in the current frame's locals), ``u(p)``/``d(own)`` and ``l(ist)`` (the
source around the current line), ``w(here)``/``bt`` (the captured stack, innermost last),
``c(ont(inue))`` (resume) and ``q(uit)``/``exit``/end of input (``sys.exit(0)``).
"""

from __future__ import annotations

import cmd
import dataclasses
import inspect
import pprint
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import IO, Any


@dataclasses.dataclass(frozen=True, slots=True)
class DebuggerFrame:
    """One captured Python frame as a debugger sees it: its file and line, its source (the lines
    of its function, or of its module for module code; empty when unavailable) with the index of
    the current line in it (``offset``, ``None`` without source), and its variables, array values
    as concrete arrays."""

    filename: str
    locals: dict[str, Any]
    globals: dict[str, Any]
    source: list[str]
    lineno: int
    offset: int | None


class CliDebugger(cmd.Cmd):
    """``jdb``: an interactive prompt over the frames captured at a breakpoint.

    Reads commands from ``stdin`` (default: ``input()`` on ``sys.stdin``) and writes to ``stdout``
    (default ``sys.stdout``). Frame 0 is the innermost one, where the breakpoint was called.
    """

    prompt = "(jdb) "

    def __init__(
        self,
        frames: Sequence[DebuggerFrame],
        thread_id: int | None,
        stdin: IO[str] | None = None,
        stdout: IO[str] | None = None,
        completekey: str = "tab",
    ) -> None:
        super().__init__(completekey=completekey, stdin=stdin, stdout=stdout)
        self.use_rawinput = stdin is None
        self.frames = list(frames)
        self.frame_index = 0
        self.thread_id = thread_id
        self.intro = "Entering jdb:"

    # -- helpers ----------------------------------------------------------------------------------
    def _write(self, text: str) -> None:
        self.stdout.write(text + "\n")

    def current_frame(self) -> DebuggerFrame:
        """The frame commands look at (``u``/``d`` move it)."""
        return self.frames[self.frame_index]

    def evaluate(self, expr: str) -> Any:
        """``expr``'s value with the current frame's globals and locals as its names."""
        frame = self.current_frame()
        names = {**frame.globals, **frame.locals}
        return eval(expr, {}, names)

    def _show(self, expr: str, render: Callable[[Any], str]) -> None:
        try:
            self._write(render(self.evaluate(expr)))
        except BaseException as err:  # noqa: BLE001  (as JAX: whatever it raises is reported)
            self._write("*** " + traceback.format_exception_only(err)[-1].strip())

    def print_context(self, num_lines: int = 2) -> None:
        """The current frame's location, then its source from ``num_lines + 1`` lines above the
        current line (marked ``->``) to ``num_lines`` below."""
        frame = self.current_frame()
        out = [f"> {frame.filename}({frame.lineno})"]
        if frame.offset is not None:
            first = max(frame.offset - 1 - num_lines, 0)
            for i in range(first, min(frame.offset + num_lines + 1, len(frame.source))):
                marker = "->  " if i == frame.offset else "    "
                out.append(marker + frame.source[i])
        self._write("\n".join(out))

    def print_backtrace(self) -> None:
        """The captured frames, outermost first: file and line, then the line's source."""
        out = ["Traceback:"]
        for frame in reversed(self.frames):
            out.append(f'  File "{frame.filename}", line {frame.lineno}')
            text = "<no source>" if frame.offset is None else frame.source[frame.offset].strip()
            out.append("    " + text)
        self._write("\n".join(out))

    # -- commands -------------------------------------------------------------------------------
    def do_help(self, arg: str) -> None:
        """Lists the commands, or shows what one does: its docstring, dedented (``cmd``'s own
        for ``help help``)."""
        command = (
            cmd.Cmd.do_help if arg == "help" else getattr(self, "do_" + arg, None) if arg else None
        )
        doc = getattr(command, "__doc__", None)
        if not isinstance(doc, str):
            super().do_help(arg)
            return
        usage, _, text = inspect.cleandoc(doc).partition("\n")
        self._write("\n".join([usage, *("    " + line for line in text.splitlines())]))

    def default(self, line: str) -> None:
        """A line that is no command is an expression: print its value's repr."""
        self._show(line, repr)

    def do_p(self, arg: str) -> None:
        """p expression
        Print the repr of the expression's value in the current frame."""
        self._show(arg, repr)

    def do_pp(self, arg: str) -> None:
        """pp expression
        Print the expression's value in the current frame, pretty-printed (pprint)."""
        self._show(arg, pprint.pformat)

    def do_up(self, arg: str) -> None:
        """u(p)
        Go one frame out (toward the caller) and show its source."""
        if self.frame_index == len(self.frames) - 1:
            self._write("At topmost frame.")
        else:
            self.frame_index += 1
        self.print_context()

    do_u = do_up

    def do_down(self, arg: str) -> None:
        """d(own)
        Go one frame in (toward the breakpoint) and show its source."""
        if self.frame_index == 0:
            self._write("At bottommost frame.")
        else:
            self.frame_index -= 1
        self.print_context()

    do_d = do_down

    def do_list(self, arg: str) -> None:
        """l(ist)
        Show the source around the current frame's line."""
        self.print_context(num_lines=5)

    do_l = do_list

    def do_where(self, arg: str) -> None:
        """w(here)
        Show the captured stack, the breakpoint's frame last ('bt' does the same)."""
        self.print_backtrace()

    do_w = do_bt = do_where

    def do_continue(self, arg: str) -> bool:
        """c(ont(inue))
        Leave the debugger and let the program run on."""
        return True

    do_c = do_cont = do_continue

    def do_quit(self, arg: str) -> None:
        """q(uit) or exit
        Leave the debugger and exit the program (SystemExit(0))."""
        sys.exit(0)

    do_q = do_exit = do_EOF = do_quit

    def run(self) -> None:
        """The command loop, until ``c``; Ctrl-C at the prompt starts it again."""
        while True:
            try:
                self.cmdloop()
                return
            except KeyboardInterrupt:
                sys.stdout.write("--KeyboardInterrupt--\n")


def run_cli_debugger(frames: Sequence[DebuggerFrame], thread_id: int | None, **kwargs: Any) -> None:
    """Runs ``jdb`` over ``frames`` (the ``"cli"`` backend); ``kwargs`` go to ``CliDebugger``."""
    CliDebugger(frames, thread_id, **kwargs).run()
