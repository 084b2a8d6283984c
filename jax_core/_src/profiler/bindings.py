"""jaxlib's profiler extensions (``jaxlib._profiler``, ``jaxlib._profile_data``), typed.

The extensions ship no stubs; their classes are declared here for the checkers (the
declarations mirror the C++ bindings' signatures) and bound to the real ones at run
time, so the rest of the profiler package is typed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import ModuleType, TracebackType
from typing import TYPE_CHECKING, Any, Self

from jax_core._src import lib as _lib

profiler_ext: ModuleType = _lib.profiler_ext
"""jaxlib's profiler bindings (sessions, ``TraceMe``, the profiler server, the XProf export)."""

profile_data_ext: ModuleType = _lib.profile_data_ext
"""jaxlib's reader of collected profiles (``XSpace`` protos as planes, lines and events)."""

if TYPE_CHECKING:

    class ProfileEvent:
        """One timed event of a :class:`ProfileLine` (a traced op, annotation, ...)."""

        @property
        def name(self) -> str: ...
        @property
        def start_ns(self) -> float: ...
        @property
        def end_ns(self) -> float: ...
        @property
        def duration_ns(self) -> float: ...
        @property
        def stats(self) -> Iterator[tuple[Any, Any]]: ...

    class ProfileLine:
        """A timeline (a thread, a stream) of a :class:`ProfilePlane`."""

        @property
        def name(self) -> str: ...
        @property
        def events(self) -> Iterator[ProfileEvent]: ...

    class ProfilePlane:
        """The events of one device or of the host, as lines."""

        @property
        def name(self) -> str: ...
        @property
        def lines(self) -> Iterator[ProfileLine]: ...
        @property
        def stats(self) -> Iterator[tuple[Any, Any]]: ...

    class ProfileData:
        """A collected profile (an ``XSpace``): its planes."""

        @staticmethod
        def from_file(proto_file_path: str) -> ProfileData: ...
        @staticmethod
        def from_serialized_xspace(serialized_xspace: bytes) -> ProfileData: ...
        @staticmethod
        def from_text_proto(text_proto: str, /) -> ProfileData: ...
        @staticmethod
        def text_proto_to_serialized_xspace(text_proto: str, /) -> bytes: ...
        @staticmethod
        def from_raw_cpp_ptr(capsule: object) -> ProfileData: ...
        @property
        def planes(self) -> Iterator[ProfilePlane]: ...
        def find_plane_with_name(self, name: str) -> ProfilePlane | None: ...

    class RawProfileOptions:
        """The collectors' settings (jaxlib's ``ProfileOptions``)."""

        include_dataset_ops: bool
        host_tracer_level: int
        python_tracer_level: int
        enable_hlo_proto: bool
        start_timestamp_ns: int
        duration_ms: int
        repository_path: str
        raise_error_on_start_failure: bool
        session_id: str
        advanced_configuration: dict[str, Any]

        def __init__(self) -> None: ...

    class TraceMe:
        """A profiler trace event spanning a ``with`` block (jaxlib's ``TraceMe``)."""

        def __init__(self, name: str, /, **kwargs: Any) -> None: ...
        def __enter__(self) -> Self: ...
        def __exit__(
            self,
            exc_type: type[BaseException] | None,
            exc_value: BaseException | None,
            traceback: TracebackType | None,
        ) -> None: ...
        def set_metadata(self, **kwargs: Any) -> None: ...
        @staticmethod
        def is_enabled() -> bool: ...

    class ProfilerServer:
        """A running profiler server (stopped when the last reference goes)."""

    class ProfilerSession:
        """A raw profiling session of jaxlib."""

        def __init__(self, options: RawProfileOptions, /) -> None: ...
        def stop(self) -> bytes: ...
        def stop_and_get_profile_data(self) -> ProfileData: ...
        def stop_and_export(self, tensorboard_dir: str, /) -> None: ...
        def export(self, xspace: bytes, tensorboard_dir: str, /) -> None: ...

    def start_server(port: int) -> ProfilerServer: ...
    def register_subprocess(pid: int, port: int) -> Callable[[], None]: ...
    def export_to_xprof(
        profile_data: ProfileData, xprof_dir: str, session_id: str = ""
    ) -> None: ...
    def set_metadata(key: str, value: str) -> None: ...
    def clear_metadata() -> None: ...

else:
    ProfileEvent = profile_data_ext.ProfileEvent
    ProfileLine = profile_data_ext.ProfileLine
    ProfilePlane = profile_data_ext.ProfilePlane
    ProfileData = profile_data_ext.ProfileData
    RawProfileOptions = profiler_ext.ProfileOptions
    TraceMe = profiler_ext.TraceMe
    ProfilerServer = profiler_ext.ProfilerServer
    ProfilerSession = profiler_ext.ProfilerSession
    start_server = profiler_ext.start_server
    register_subprocess = profiler_ext.register_subprocess
    export_to_xprof = profiler_ext.export_to_xprof
    set_metadata = profiler_ext.set_metadata
    clear_metadata = profiler_ext.clear_metadata
