"""Instrumentation events and their listeners (``jax.monitoring``).

The lowest layer beside ``_src/lib``: it imports nothing of jax_core, so any
layer may record an event.
"""

from jax_core._src.monitoring.listeners import (
    EventDurationListenerWithMetadata as EventDurationListenerWithMetadata,
)
from jax_core._src.monitoring.listeners import (
    EventListenerWithMetadata as EventListenerWithMetadata,
)
from jax_core._src.monitoring.listeners import (
    EventTimeSpanListenerWithMetadata as EventTimeSpanListenerWithMetadata,
)
from jax_core._src.monitoring.listeners import (
    ScalarListenerWithMetadata as ScalarListenerWithMetadata,
)
from jax_core._src.monitoring.listeners import (
    clear_event_listeners as clear_event_listeners,
)
from jax_core._src.monitoring.listeners import (
    get_event_duration_listeners as get_event_duration_listeners,
)
from jax_core._src.monitoring.listeners import (
    get_event_listeners as get_event_listeners,
)
from jax_core._src.monitoring.listeners import (
    get_event_time_span_listeners as get_event_time_span_listeners,
)
from jax_core._src.monitoring.listeners import (
    get_scalar_listeners as get_scalar_listeners,
)
from jax_core._src.monitoring.listeners import (
    record_event as record_event,
)
from jax_core._src.monitoring.listeners import (
    record_event_duration_secs as record_event_duration_secs,
)
from jax_core._src.monitoring.listeners import (
    record_event_time_span as record_event_time_span,
)
from jax_core._src.monitoring.listeners import (
    record_scalar as record_scalar,
)
from jax_core._src.monitoring.listeners import (
    register_event_duration_secs_listener as register_event_duration_secs_listener,
)
from jax_core._src.monitoring.listeners import (
    register_event_listener as register_event_listener,
)
from jax_core._src.monitoring.listeners import (
    register_event_time_span_listener as register_event_time_span_listener,
)
from jax_core._src.monitoring.listeners import (
    register_scalar_listener as register_scalar_listener,
)
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
