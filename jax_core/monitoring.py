"""Instrumenting code: named events and the listeners that receive them (``jax.monitoring``)."""

# Re-exported with ``as`` so type checkers treat them as public (PEP 484).
from jax_core._src.monitoring.listeners import clear_event_listeners as clear_event_listeners
from jax_core._src.monitoring.listeners import record_event as record_event
from jax_core._src.monitoring.listeners import (
    record_event_duration_secs as record_event_duration_secs,
)
from jax_core._src.monitoring.listeners import record_event_time_span as record_event_time_span
from jax_core._src.monitoring.listeners import record_scalar as record_scalar
from jax_core._src.monitoring.listeners import (
    register_event_duration_secs_listener as register_event_duration_secs_listener,
)
from jax_core._src.monitoring.listeners import register_event_listener as register_event_listener
from jax_core._src.monitoring.listeners import (
    register_event_time_span_listener as register_event_time_span_listener,
)
from jax_core._src.monitoring.listeners import register_scalar_listener as register_scalar_listener
from jax_core._src.monitoring.listeners import (
    unregister_event_duration_listener as unregister_event_duration_listener,
)
from jax_core._src.monitoring.listeners import (
    unregister_event_listener as unregister_event_listener,
)
from jax_core._src.monitoring.listeners import (
    unregister_event_time_span_listener as unregister_event_time_span_listener,
)
from jax_core._src.monitoring.listeners import (
    unregister_scalar_listener as unregister_scalar_listener,
)
