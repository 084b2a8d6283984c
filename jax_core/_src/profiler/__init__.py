"""The profiler: traces for XProf/TensorBoard and Perfetto, annotations, memory profiles."""

from jax_core._src.profiler.annotations import StepTraceAnnotation as StepTraceAnnotation
from jax_core._src.profiler.annotations import TraceAnnotation as TraceAnnotation
from jax_core._src.profiler.annotations import annotate_function as annotate_function
from jax_core._src.profiler.bindings import ProfileData as ProfileData
from jax_core._src.profiler.bindings import ProfileEvent as ProfileEvent
from jax_core._src.profiler.bindings import ProfileLine as ProfileLine
from jax_core._src.profiler.bindings import ProfilePlane as ProfilePlane
from jax_core._src.profiler.sessions import ProfileOptions as ProfileOptions
from jax_core._src.profiler.sessions import ProfileSession as ProfileSession
from jax_core._src.profiler.sessions import device_memory_profile as device_memory_profile
from jax_core._src.profiler.sessions import export_profile_data as export_profile_data
from jax_core._src.profiler.sessions import register_subprocess as register_subprocess
from jax_core._src.profiler.sessions import save_device_memory_profile as save_device_memory_profile
from jax_core._src.profiler.sessions import start_server as start_server
from jax_core._src.profiler.sessions import start_trace as start_trace
from jax_core._src.profiler.sessions import stop_server as stop_server
from jax_core._src.profiler.sessions import stop_trace as stop_trace
from jax_core._src.profiler.sessions import trace as trace
