"""Trace annotations: named spans that appear on the profiler's timeline.

``TraceAnnotation(name, **metadata)`` is a context manager (jaxlib's ``TraceMe``):
while a trace is being collected, the enclosed block becomes an event called
``name`` on the host plane; otherwise it costs almost nothing.
``StepTraceAnnotation(name, step_num=i)`` marks a training step, which XProf's
step analysis groups by. ``annotate_function`` wraps a function in an annotation.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from jax_core._src.profiler.bindings import TraceMe


class TraceAnnotation(TraceMe):
    """A profiler trace event spanning the ``with`` block.

    ::

        with jax_core.profiler.TraceAnnotation("my_label"):
            result = jnp.dot(x, x.T).block_until_ready()

    puts a ``my_label`` event on the trace timeline when the block runs during a trace.
    """


class StepTraceAnnotation(TraceAnnotation):
    """A trace event marking one step (``step_num=`` names it) for the profiler's step analysis.

    ::

        with jax_core.profiler.StepTraceAnnotation("train", step_num=step):
            train_step()
    """

    def __init__(self, name: str, **kwargs: Any) -> None:
        super().__init__(name, _r=1, **kwargs)


def annotate_function[**P, R](
    func: Callable[P, R], name: str | None = None, **decorator_kwargs: Any
) -> Callable[P, R]:
    """Wraps ``func`` so that each call is a trace event (named ``name`` or its qualified name).

    Keyword arguments become the event's metadata; pass them with ``functools.partial``::

        @partial(jax_core.profiler.annotate_function, name="event_name")
        def f(x): ...
    """
    label: str = name or getattr(func, "__qualname__", None) or func.__name__

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with TraceAnnotation(label, **decorator_kwargs):
            return func(*args, **kwargs)

    return wrapper
