"""Registering foreign functions with XLA: FFI targets and types, PyCapsules, jaxlib's headers.

A handler compiled against XLA's FFI headers (``include_dir()``) is loaded with ``ctypes``,
wrapped with ``pycapsule`` and registered under a name with ``register_ffi_target``; an
``ffi_call`` of that name then calls it. Registration goes through jaxlib's ``xla_client``,
which queues it until the platform's client exists and registers it with XLA then.
"""

from __future__ import annotations

import ctypes
import os
from types import ModuleType
from typing import TYPE_CHECKING, Any, NotRequired, TypeAlias, TypedDict

from jax_core._src.lib import xla_client

# Some of ``xla_client``'s registration functions come untyped from its C++ extension.
_xc: ModuleType = xla_client

if TYPE_CHECKING:
    from _ctypes import CFuncPtr

    FunctionPointer: TypeAlias = CFuncPtr | ctypes.c_void_p | int
else:
    FunctionPointer: TypeAlias = Any


def register_ffi_target(name: str, fn: Any, platform: str = "cpu", api_version: int = 1, **kwargs: Any) -> None:
    """Registers a foreign function target ``name``.

    ``fn`` is a ``PyCapsule`` holding the handler's function pointer (see ``pycapsule``), or a
    ``dict`` from FFI stage names (``"instantiate"``, ``"prepare"``, ``"initialize"``,
    ``"execute"``) to such capsules. ``platform`` is the platform the handler runs on (``"cpu"``).
    ``api_version`` is 1 (the default) for a typed FFI handler, 0 for the earlier untyped custom
    call API. Extra keyword arguments (``traits=``) go to jaxlib's
    ``xla_client.register_custom_call_target``.
    """
    xla_client.register_custom_call_target(name, fn, platform, api_version, **kwargs)


class TypeRegistration(TypedDict):
    """A user-defined FFI type: ``type_id`` is a ``PyCapsule`` holding a pointer to its
    ``XLA_FFI_TypeId``; ``type_info`` (optional) one holding a pointer to its
    ``XLA_FFI_TypeInfo``."""

    type_id: Any
    type_info: NotRequired[Any]


def register_ffi_type_id(name: str, obj: Any, platform: str = "cpu") -> None:
    """No longer supported (JAX's ``ValueError``): register the type with ``register_ffi_type``."""
    raise ValueError("register_ffi_type_id is not supported after jaxlib version 381.")


def register_ffi_type(name: str, type_registration: TypeRegistration, platform: str = "cpu") -> None:
    """Registers a user-defined FFI type ``name`` (unique in the process) for ``platform``."""
    xla_client.register_custom_type(name, type_registration, platform=platform)


def register_ffi_target_as_batch_partitionable(name: str) -> None:
    """Registers the FFI target ``name`` as batch partitionable: under SPMD partitioning, calls
    sharded along their leading (batch) dimensions run shard by shard."""
    _xc.register_custom_call_as_batch_partitionable(name)


_CAPSULE_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.py_object)


def pycapsule(funcptr: FunctionPointer) -> Any:
    """Wraps a function pointer in a ``PyCapsule`` (what ``register_ffi_target`` takes).

    ``funcptr`` is typically a symbol of a shared library loaded with ``ctypes``::

        lib = ctypes.cdll.LoadLibrary("./librms_norm.so")
        jax.ffi.register_ffi_target("rms_norm", jax.ffi.pycapsule(lib.RmsNorm))

    The capsule has no name and no destructor: the library must stay loaded while XLA may
    call the handler.
    """
    new_capsule = ctypes.pythonapi.PyCapsule_New
    new_capsule.restype = ctypes.py_object
    new_capsule.argtypes = (ctypes.c_void_p, ctypes.c_char_p, _CAPSULE_DESTRUCTOR)
    return new_capsule(funcptr, None, _CAPSULE_DESTRUCTOR(0))


def include_dir() -> str:
    """The directory of the C++ headers jaxlib ships (``xla/ffi/api/ffi.h``, ...), to compile
    FFI handlers against (``-I``)."""
    return os.path.join(os.path.dirname(os.path.abspath(xla_client.__file__)), "include")
