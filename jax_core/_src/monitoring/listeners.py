"""Named events, durations, time spans and scalars, and the callbacks that receive them.

A code point marks itself with ``record_event("/jax_core/...")`` (or records a
duration, a start/end time span, or a scalar); every listener registered for that
kind of record is called, in registration order, with the event name, the value
and the keyword metadata. A typical listener forwards to a metrics collector.

As in JAX, ``clear_event_listeners`` forgets the event, duration and time-span
listeners but keeps the scalar listeners (``unregister_scalar_listener`` removes
those), and unregistering a callback that was never registered is an
``AssertionError``.
"""

from __future__ import annotations

from typing import Protocol


class EventListenerWithMetadata(Protocol):
    """A callback for :func:`record_event`: ``(event, **metadata)``."""

    def __call__(self, event: str, **kwargs: str | int) -> None: ...


class EventDurationListenerWithMetadata(Protocol):
    """A callback for :func:`record_event_duration_secs`: ``(event, duration_secs, **metadata)``."""

    def __call__(self, event: str, duration_secs: float, **kwargs: str | int) -> None: ...


class EventTimeSpanListenerWithMetadata(Protocol):
    """A callback for :func:`record_event_time_span`: ``(event, start_time, end_time, **metadata)``."""

    def __call__(
        self, event: str, start_time: float, end_time: float, **kwargs: str | int
    ) -> None: ...


class ScalarListenerWithMetadata(Protocol):
    """A callback for :func:`record_scalar`: ``(event, value, **metadata)``."""

    def __call__(self, event: str, value: float, **kwargs: str | int) -> None: ...


class _Listeners:
    """The four lists of callbacks (one object, so clearing swaps lists as JAX does)."""

    def __init__(self) -> None:
        self.events: list[EventListenerWithMetadata] = []
        self.durations: list[EventDurationListenerWithMetadata] = []
        self.time_spans: list[EventTimeSpanListenerWithMetadata] = []
        self.scalars: list[ScalarListenerWithMetadata] = []


_listeners = _Listeners()


def record_event(event: str, **kwargs: str | int) -> None:
    """Records that ``event`` happened: calls every event listener with it.

    Keyword metadata, if given, must be passed in the same order on every call for
    the same event.
    """
    for callback in _listeners.events:
        callback(event, **kwargs)


def record_event_duration_secs(event: str, duration: float, **kwargs: str | int) -> None:
    """Records that ``event`` took ``duration`` seconds: calls every duration listener.

    Keyword metadata, if given, must be passed in the same order on every call for
    the same event.
    """
    for callback in _listeners.durations:
        callback(event, duration, **kwargs)


def record_event_time_span(
    event: str, start_time: float, end_time: float, **kwargs: str | int
) -> None:
    """Records that ``event`` ran from ``start_time`` to ``end_time`` (seconds)."""
    for callback in _listeners.time_spans:
        callback(event, start_time, end_time, **kwargs)


def record_scalar(event: str, value: float, **kwargs: str | int) -> None:
    """Records a scalar summary ``value`` for ``event``."""
    for callback in _listeners.scalars:
        callback(event, value, **kwargs)


def register_event_listener(callback: EventListenerWithMetadata) -> None:
    """Calls ``callback(event, **metadata)`` on every :func:`record_event`."""
    _listeners.events.append(callback)


def register_event_time_span_listener(callback: EventTimeSpanListenerWithMetadata) -> None:
    """Calls ``callback(event, start, end, **metadata)`` on every :func:`record_event_time_span`."""
    _listeners.time_spans.append(callback)


def register_event_duration_secs_listener(callback: EventDurationListenerWithMetadata) -> None:
    """Calls ``callback(event, secs, **metadata)`` on every :func:`record_event_duration_secs`."""
    _listeners.durations.append(callback)


def register_scalar_listener(callback: ScalarListenerWithMetadata) -> None:
    """Calls ``callback(event, value, **metadata)`` on every :func:`record_scalar`."""
    _listeners.scalars.append(callback)


def get_event_duration_listeners() -> list[EventDurationListenerWithMetadata]:
    """A copy of the registered duration listeners."""
    return list(_listeners.durations)


def get_event_time_span_listeners() -> list[EventTimeSpanListenerWithMetadata]:
    """A copy of the registered time-span listeners."""
    return list(_listeners.time_spans)


def get_event_listeners() -> list[EventListenerWithMetadata]:
    """A copy of the registered event listeners."""
    return list(_listeners.events)


def get_scalar_listeners() -> list[ScalarListenerWithMetadata]:
    """A copy of the registered scalar listeners."""
    return list(_listeners.scalars)


def clear_event_listeners() -> None:
    """Forgets the event, duration and time-span listeners (scalar listeners stay, as in JAX)."""
    _listeners.events = []
    _listeners.durations = []
    _listeners.time_spans = []


def _remove[L](registered: list[L], callback: L, kind: str) -> None:
    if callback not in registered:
        raise AssertionError(
            f"{callback!r} is not a registered {kind} listener; unregister only a "
            f"callback passed to register_{kind}_listener."
        )
    registered.remove(callback)


def unregister_event_duration_listener(callback: EventDurationListenerWithMetadata) -> None:
    """Removes a duration listener (``AssertionError`` if it is not registered)."""
    _remove(_listeners.durations, callback, "event_duration_secs")


def unregister_event_time_span_listener(callback: EventTimeSpanListenerWithMetadata) -> None:
    """Removes a time-span listener (``AssertionError`` if it is not registered)."""
    _remove(_listeners.time_spans, callback, "event_time_span")


def unregister_event_listener(callback: EventListenerWithMetadata) -> None:
    """Removes an event listener (``AssertionError`` if it is not registered)."""
    _remove(_listeners.events, callback, "event")


def unregister_scalar_listener(callback: ScalarListenerWithMetadata) -> None:
    """Removes a scalar listener (``AssertionError`` if it is not registered)."""
    _remove(_listeners.scalars, callback, "scalar")
