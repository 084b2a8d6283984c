"""``python -m jax_core.compat script.py [args]``: run a JAX program on jax_core.

``python -m jax_core.compat -m package.module [args]`` runs a module instead. The
program sees ``sys.argv`` as it would under ``python script.py [args]``, its
directory first on ``sys.path``, and ``jax`` mapped to ``jax_core`` (see
:mod:`jax_core.compat`).
"""

from __future__ import annotations

import os
import runpy
import sys

from jax_core.compat import install

_USAGE = (
    "usage: python -m jax_core.compat script.py [args...]\n"
    "       python -m jax_core.compat -m module [args...]\n"
    "Runs a program written against jax with jax mapped to jax_core."
)


def main(argv: list[str]) -> int:
    """Runs the program ``argv`` names; returns the exit status for usage errors."""
    if not argv or argv[0] in ("-h", "--help"):
        print(_USAGE, file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    install()
    if argv[0] == "-m":
        if len(argv) < 2:
            print(_USAGE, file=sys.stderr)
            return 2
        sys.argv = [argv[1], *argv[2:]]
        sys.path[0] = os.getcwd()
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        return 0
    script = argv[0]
    sys.argv = [script, *argv[1:]]
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
