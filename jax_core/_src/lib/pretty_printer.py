"""Typed access to jaxlib's C++ Wadler-style pretty printer (used for jaxpr text)."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

# The C++ extension ships no stubs: typed as ``ModuleType`` (its attributes are
# ``Any``), and every function below declares what it returns.
_ext: ModuleType = importlib.import_module("jaxlib._pretty_printer")

if TYPE_CHECKING:

    class Doc:
        """An opaque pretty-printer document."""

else:
    Doc = _ext.Doc


def text(s: str) -> Doc:
    """Literal text."""
    return cast(Doc, _ext.text(s))


def concat(docs: Sequence[Doc]) -> Doc:
    """Documents one after another."""
    return cast(Doc, _ext.concat(list(docs)))


def group(doc: Doc) -> Doc:
    """Lays the breaks in ``doc`` out flat if it all fits on the line, else as newlines."""
    return cast(Doc, _ext.group(doc))


def nest(n: int, doc: Doc) -> Doc:
    """Indents the lines ``doc`` breaks onto by ``n`` more spaces."""
    return cast(Doc, _ext.nest(n, doc))


def brk(s: str = " ") -> Doc:
    """A break: ``s`` when its group fits on the line, else a newline."""
    return cast(Doc, _ext.brk(s))


def nil() -> Doc:
    """The empty document."""
    return cast(Doc, _ext.nil())


def format(doc: Doc, width: int = 80) -> str:
    """Renders ``doc`` as plain text at the given line width."""
    d: Any = doc
    return cast(
        str,
        d._format(
            width,
            use_color=False,
            output_format=_ext.OutputFormat.TEXT,
            separable_lines=False,
            annotation_prefix=" # ",
            source_map=None,
        ),
    )
