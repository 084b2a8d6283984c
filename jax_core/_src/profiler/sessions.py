"""Profiling sessions: collecting a trace, exporting it for XProf/TensorBoard and Perfetto.

A :class:`ProfileSession` wraps jaxlib's ``ProfilerSession``: ``start()`` begins
collecting (host activity, Python functions, XLA executions and
:class:`TraceAnnotation` events), ``stop()`` returns the collected
:class:`ProfileData` and, given a ``log_dir``, writes
``log_dir/plugins/profile/<run>/<host>.xplane.pb``, the layout XProf and
TensorBoard's profile plugin read (optionally also a ``perfetto_trace.json.gz``).
One session runs at a time per process. :func:`trace` is the context-manager
form, :func:`start_trace`/:func:`stop_trace` the global one.

The profiler server (:func:`start_server`) lets XProf/TensorBoard capture a trace
of this process on demand; :func:`device_memory_profile` is a ``pprof`` snapshot
of the live device buffers.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import json
import logging
import os
import pathlib
import socketserver
import threading
from collections.abc import Callable, Generator
from contextlib import contextmanager
from types import TracebackType
from typing import Protocol, cast

from jax_core._src.backend import client
from jax_core._src.lib import JAXLIB_VERSION
from jax_core._src.profiler import bindings
from jax_core._src.profiler.bindings import ProfileData, ProfilerServer, RawProfileOptions
from jax_core.version import __version__ as _jax_core_version

logger = logging.getLogger(__name__)


class _ProfiledClient(Protocol):
    """The parts of jaxlib's PjRt client the profiler reads."""

    @property
    def platform(self) -> str: ...
    @property
    def platform_version(self) -> str: ...
    def heap_profile(self) -> bytes: ...


def _client() -> _ProfiledClient:
    return cast(_ProfiledClient, client.backend())


class ProfileOptions(RawProfileOptions):
    """Settings of the profiler's collectors (host/Python tracer levels, HLO protos, ...).

    Unknown attributes are rejected rather than ignored, so a misspelled option fails.
    """

    __slots__ = ()


class _ProfileState:
    def __init__(self) -> None:
        self.session: ProfileSession | None = None
        self.lock = threading.Lock()
        self.server: ProfilerServer | None = None


_state = _ProfileState()


def start_server(port: int, requires_backend: bool = True) -> ProfilerServer:
    """Starts the profiler server on ``port``, for XProf/TensorBoard to capture traces from.

    Args:
      port: the port to listen on.
      requires_backend: if ``True`` (the default) the backend is created first, so that its
        devices are traced.
    """
    if _state.server is not None:
        raise ValueError("Only one profiler server can be active at a time.")
    if requires_backend:
        client.backend()
    _state.server = bindings.start_server(port)
    return _state.server


def stop_server() -> None:
    """Stops the running profiler server (``ValueError`` if none is running)."""
    if _state.server is None:
        raise ValueError("No active profiler server.")
    _state.server = None  # the server stops when its last reference goes


def register_subprocess(pid: int, port: int) -> Callable[[], None]:
    """Profiles a subprocess's profiler server together with this process.

    A trace collected here (programmatically or through this process's server) is also
    requested from the server at ``port`` of process ``pid`` and merged in; only CPU
    activity of subprocesses is supported. Returns the function that unregisters it
    (also called when it is garbage collected). ``RuntimeError`` if registering fails
    (already registered, cannot connect, ...).
    """
    return bindings.register_subprocess(pid, port)


def _set_session_metadata() -> None:
    bindings.set_metadata("jax_version", _jax_core_version)
    bindings.set_metadata("jaxlib_version", ".".join(map(str, JAXLIB_VERSION)))
    backend = _client()
    bindings.set_metadata(f"{backend.platform}_version", backend.platform_version)


class ProfileSession:
    """A profiling session: a context manager, or :meth:`start`/:meth:`stop` by hand.

    After :meth:`stop` the collected :class:`ProfileData` is in :attr:`profile_data`; it
    is written to ``log_dir`` if one was given, or later with :meth:`export_profile_data`.
    """

    def __init__(
        self,
        log_dir: os.PathLike[str] | str | None = None,
        create_perfetto_link: bool = False,
        create_perfetto_trace: bool = False,
        profiler_options: ProfileOptions | None = None,
    ) -> None:
        self.log_dir: str | None = str(log_dir) if log_dir is not None else None
        self.create_perfetto_link: bool = create_perfetto_link
        self.create_perfetto_trace: bool = create_perfetto_trace or create_perfetto_link
        self.profiler_options: ProfileOptions | None = profiler_options
        self._raw_session: bindings.ProfilerSession | None = None
        self._profile_data: ProfileData | None = None
        self._is_running: bool = False

    def start(self) -> ProfileSession:
        """Starts collecting (``RuntimeError`` if a session is already running)."""
        with _state.lock:
            if _state.session is not None or self._is_running:
                raise RuntimeError(
                    "Profile has already been started. Only one profile may be run at a time."
                )
            bindings.clear_metadata()
            client.backend()  # the backend's devices must exist before the tracers start
            options = (
                self.profiler_options if self.profiler_options is not None else ProfileOptions()
            )
            _set_session_metadata()
            self._raw_session = bindings.ProfilerSession(options)
            self._is_running = True
            self._profile_data = None
            _state.session = self
        return self

    def stop(self) -> ProfileData | None:
        """Stops collecting; returns the :class:`ProfileData` (and writes it to ``log_dir``)."""
        with _state.lock:
            if not self._is_running or self._raw_session is None:
                raise RuntimeError("No profile started")
            self._profile_data = self._raw_session.stop_and_get_profile_data()
            self._is_running = False
            self._raw_session = None
            _state.session = None
            bindings.clear_metadata()
        if self.log_dir is not None:
            self.export_profile_data(
                log_dir=self.log_dir,
                create_perfetto_link=self.create_perfetto_link,
                create_perfetto_trace=self.create_perfetto_trace,
            )
        return self._profile_data

    def export_profile_data(
        self,
        log_dir: os.PathLike[str] | str,
        create_perfetto_link: bool = False,
        create_perfetto_trace: bool = False,
        session_id: str | None = None,
    ) -> None:
        """Writes the collected profile under ``log_dir`` (see :func:`export_profile_data`)."""
        export_profile_data(
            self,
            log_dir=log_dir,
            create_perfetto_link=create_perfetto_link,
            create_perfetto_trace=create_perfetto_trace,
            session_id=session_id,
        )

    @property
    def is_running(self) -> bool:
        """Whether the session is collecting."""
        return self._is_running

    @property
    def profile_data(self) -> ProfileData | None:
        """The collected profile, once the session has stopped."""
        return self._profile_data

    def __enter__(self) -> ProfileSession:  # noqa: PYI034  (JAX's annotation)
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> None:
        if self.is_running:  # (stop() may already have been called inside the block)
            self.stop()


def start_trace(
    log_dir: os.PathLike[str] | str,
    create_perfetto_link: bool = False,
    create_perfetto_trace: bool = False,
    profiler_options: ProfileOptions | None = None,
) -> ProfileSession | None:
    """Starts a profiler trace to be saved under ``log_dir`` by :func:`stop_trace`.

    Args:
      log_dir: where :func:`stop_trace` writes the trace (an XProf/TensorBoard log dir).
      create_perfetto_link: also write a Perfetto trace and print a link to
        https://ui.perfetto.dev, blocking until the UI has loaded it.
      create_perfetto_trace: also write ``perfetto_trace.json.gz`` for the Perfetto UI.
      profiler_options: the collectors' settings.

    Returns:
      The running :class:`ProfileSession`. ``RuntimeError`` if a trace is running already.
    """
    session = ProfileSession(
        log_dir=log_dir,
        create_perfetto_link=create_perfetto_link,
        create_perfetto_trace=create_perfetto_trace,
        profiler_options=profiler_options,
    )
    session.start()
    return session


def stop_trace() -> ProfileData | None:
    """Stops the trace :func:`start_trace` started, saves it, and returns its :class:`ProfileData`."""
    with _state.lock:
        session = _state.session
        if session is None:
            raise RuntimeError("No profile started")
    return session.stop()


@contextmanager
def trace(
    log_dir: os.PathLike[str] | str | None = None,
    create_perfetto_link: bool = False,
    create_perfetto_trace: bool = False,
    profiler_options: ProfileOptions | None = None,
) -> Generator[ProfileSession]:
    """A profiler trace of the ``with`` block; the yielded session holds the data afterwards.

    With ``log_dir`` the trace is also written there for XProf/TensorBoard (and Perfetto,
    see :func:`start_trace`). Only one trace runs at a time (``RuntimeError`` otherwise).
    """
    with ProfileSession(
        log_dir=log_dir,
        create_perfetto_link=create_perfetto_link,
        create_perfetto_trace=create_perfetto_trace,
        profiler_options=profiler_options,
    ) as session:
        yield session


def _write_perfetto_trace_file(log_dir: os.PathLike[str] | str) -> pathlib.Path:
    """Writes ``perfetto_trace.json.gz`` beside the newest run's ``trace.json.gz``."""
    runs = (pathlib.Path(log_dir).absolute() / "plugins" / "profile").iterdir()
    latest = max(runs, key=os.path.getmtime)
    found = list(latest.glob("*.trace.json.gz"))
    if len(found) != 1:
        raise ValueError(f"Invalid trace folder: {latest}")
    with gzip.open(found[0], "rb") as fp:
        trace_json = json.load(fp)
    trace_json.pop("metadata", None)  # the Perfetto UI rejects the metadata field
    out = latest / "perfetto_trace.json.gz"
    with gzip.open(out, "w") as fp:
        fp.write(json.dumps(trace_json).encode("utf-8"))
    return out


class _PerfettoHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the trace file to ui.perfetto.dev (which fetches it from 127.0.0.1:9001)."""

    def end_headers(self) -> None:
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def do_GET(self) -> None:
        setattr(self.server, "last_request", self.path)  # noqa: B010
        super().do_GET()

    def do_POST(self) -> None:
        self.send_error(404, "File not found")


def _host_perfetto_trace_file(path: os.PathLike[str] | str) -> None:
    port = 9001
    directory, filename = os.path.split(path)
    handler = functools.partial(_PerfettoHandler, directory=directory)
    socketserver.TCPServer.allow_reuse_address = True
    with socketserver.TCPServer(("127.0.0.1", port), handler) as httpd:
        print(
            f"Open URL in browser: https://ui.perfetto.dev/#!/?url=http://127.0.0.1:{port}/{filename}"
        )
        while httpd.__dict__.get("last_request") != "/" + filename:
            httpd.handle_request()


def export_profile_data(
    profile_data: ProfileData | ProfileSession,
    log_dir: os.PathLike[str] | str,
    create_perfetto_link: bool = False,
    create_perfetto_trace: bool = False,
    session_id: str | None = None,
) -> None:
    """Writes a collected profile as ``log_dir/plugins/profile/<session_id>/<host>.xplane.pb``.

    Args:
      profile_data: a :class:`ProfileData` or a stopped :class:`ProfileSession`.
      log_dir: the XProf/TensorBoard log directory.
      create_perfetto_link: also write a Perfetto trace and print a link to the Perfetto UI,
        blocking until the UI has loaded it.
      create_perfetto_trace: also write ``perfetto_trace.json.gz``.
      session_id: the run folder's name (default: the session's ``session_id`` option, or a
        timestamp).
    """
    if isinstance(profile_data, ProfileSession):
        if profile_data.is_running:
            raise RuntimeError(
                "Cannot export a ProfileSession while it is running. Call stop() first."
            )
        if profile_data.profile_data is None:
            raise RuntimeError("No profile data to export. Ensure the session has completed.")
        data = profile_data.profile_data
        if session_id is None and profile_data.profiler_options is not None:
            session_id = profile_data.profiler_options.session_id
    elif isinstance(profile_data, ProfileData):  # pyright: ignore[reportUnnecessaryIsInstance]
        data = profile_data
    else:
        raise TypeError(
            f"Expected ProfileData or ProfileSession, got {type(profile_data).__name__}"
        )
    bindings.export_to_xprof(data, str(log_dir), session_id=session_id or "")
    if create_perfetto_trace or create_perfetto_link:
        written = _write_perfetto_trace_file(str(log_dir))
        if create_perfetto_link:
            _host_perfetto_trace_file(written)


def device_memory_profile(backend: str | None = None) -> bytes:
    """A ``pprof`` profile (gzipped protocol buffer) of the device memory in use.

    It lists the live arrays and executables with the Python stack that allocated
    each; view it with the ``pprof`` tool. ``backend`` names the platform (only the
    one jax_core runs on exists).
    """
    the_backend = _client()
    if backend is not None and backend != the_backend.platform:
        raise RuntimeError(
            f"Unknown backend {backend}: jax_core runs on {the_backend.platform!r} only; "
            "pass backend=None."
        )
    heap: bytes = the_backend.heap_profile()
    return gzip.compress(heap)


def save_device_memory_profile(
    filename: os.PathLike[str] | str, backend: str | None = None
) -> None:
    """Writes :func:`device_memory_profile` to ``filename``."""
    profile = device_memory_profile(backend)
    with open(filename, "wb") as f:
        f.write(profile)
