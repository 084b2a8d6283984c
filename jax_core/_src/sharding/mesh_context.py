"""The current mesh (``jax.set_mesh``, ``jax.sharding.get_abstract_mesh``, ...).

Two per-thread values, as in JAX:

* the *concrete* mesh, set by :class:`set_mesh` and read by :func:`get_mesh` (the empty
  ``Mesh`` when none is set) or :func:`get_concrete_mesh` (``None`` when none is set);
  jit and ``with_sharding_constraint`` turn bare ``PartitionSpec``s into shardings on it;
* the *abstract* mesh, what tracing sees: set by :class:`set_mesh` (the concrete mesh's
  ``abstract_mesh``) and by :class:`use_abstract_mesh`, read by :func:`get_abstract_mesh`
  (``AbstractMesh((), ())`` when none is set).

Both are part of jit's cache key (``config.jit_key()``), so a function jitted under one
mesh is traced again under another. They are thread-local: a mesh set in
one thread (even "globally", ``jax.set_mesh(mesh)`` without ``with``) is not seen by others.

``set_mesh`` acts when called, so it works both as a statement and as a context
manager; leaving the ``with`` block (or calling ``__exit__``) restores the previous meshes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator
from types import TracebackType
from typing import Final

import numpy as np

from jax_core._src.core import trace as _trace
from jax_core._src.config import FlagContext, UserConfig, make_user_context
from jax_core._src.sharding.mesh import AbstractMesh, Mesh, empty_abstract_mesh, resource_env_mesh

__all__ = [
    "get_abstract_mesh",
    "get_concrete_mesh",
    "get_mesh",
    "resource_env_mesh",
    "set_mesh",
    "use_abstract_mesh",
    "use_concrete_mesh",
]

empty_concrete_mesh: Final[Mesh] = Mesh(np.empty((), dtype=object), ())
"""``Mesh(np.empty((), dtype=object), ())``: what :func:`get_mesh` returns when no mesh is set."""

# Per-thread values that are part of jit's cache key (``config.jit_key()``).
_abstract_mesh_value: Final[UserConfig[AbstractMesh]] = make_user_context(empty_abstract_mesh)
_concrete_mesh_value: Final[UserConfig[Mesh]] = make_user_context(empty_concrete_mesh)


def _tracing() -> bool:
    return _trace.current_trace() is not _trace.eval_trace


class set_mesh:  # a class, named as JAX's
    """Sets the current mesh of this thread (``jax.set_mesh``).

    Takes effect when called, so it can be used as a global setter
    (``jax.set_mesh(mesh)``) or as a context manager (``with jax.set_mesh(mesh):``,
    which binds ``None`` to an ``as`` target); leaving the ``with`` block restores
    the meshes set before. While a mesh is set, APIs taking shardings accept bare
    ``PartitionSpec``s, and :func:`get_abstract_mesh` returns ``mesh.abstract_mesh``.

    Args:
      mesh: the mesh, or ``None`` to unset it.

    Raises:
      ValueError: ``mesh`` is not a ``Mesh`` or ``None``, has ``Manual`` axes, or
        ``set_mesh`` is called inside a traced function (``jit``).
    """

    __slots__ = ("_contexts",)

    _contexts: tuple[FlagContext[AbstractMesh], FlagContext[Mesh]]

    def __init__(self, mesh: Mesh | None) -> None:
        if mesh is not None and not isinstance(mesh, Mesh):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ValueError(f"Expected mesh of type `jax.sharding.Mesh`. Got {type(mesh)}")
        if _tracing():
            raise ValueError("`set_mesh` can only be used outside of `jax.jit`.")
        if mesh is not None and mesh._any_axis_manual:  # pyright: ignore[reportPrivateUsage]
            raise ValueError(
                f"mesh {mesh} contains manual axes which is not allowed when using "
                "`jax.set_mesh`. Please use `jax.shard_map` to enter into `Manual` mode instead."
            )
        abstract = empty_abstract_mesh if mesh is None else mesh.abstract_mesh
        concrete = empty_concrete_mesh if mesh is None else mesh
        self._contexts = (_abstract_mesh_value(abstract), _concrete_mesh_value(concrete))
        for context in self._contexts:
            context.__enter__()

    def __enter__(self) -> None:
        """Nothing to do: the mesh was set by the constructor."""

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Restores the meshes that were current before this ``set_mesh``."""
        for context in reversed(self._contexts):
            context.__exit__(None, None, None)


class use_abstract_mesh:  # a class, named as JAX's
    """Makes ``mesh`` this thread's abstract mesh inside a ``with`` block.

    The concrete mesh (:func:`get_mesh`) is unchanged. Entering raises
    ``ValueError`` when both the new and the current abstract mesh are non-empty
    and of different sizes.

    Args:
      mesh: an :class:`AbstractMesh` (``ValueError`` otherwise).
    """

    __slots__ = ("_context", "mesh")

    mesh: AbstractMesh
    _context: FlagContext[AbstractMesh]

    def __init__(self, mesh: AbstractMesh) -> None:
        if not isinstance(mesh, AbstractMesh):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ValueError(  # noqa: TRY004  (JAX raises ValueError)
                f"Expected mesh of type `jax.sharding.AbstractMesh`. Got type: {type(mesh)}"
            )
        self.mesh = mesh

    def __enter__(self) -> None:
        """Sets the abstract mesh."""
        prev = _abstract_mesh_value.value
        if not prev.empty and not self.mesh.empty and prev.size != self.mesh.size:
            raise ValueError(
                "use_abstract_mesh cannot change the size of the mesh. Got new mesh: "
                f"{self.mesh} with size={self.mesh.size} and prev mesh: {prev} with "
                f"size={prev.size}"
            )
        self._context = _abstract_mesh_value(self.mesh)
        self._context.__enter__()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Restores the previous abstract mesh."""
        self._context.__exit__(None, None, None)


def get_abstract_mesh() -> AbstractMesh:
    """This thread's abstract mesh (``AbstractMesh((), ())`` when none is set)."""
    mesh: AbstractMesh = _abstract_mesh_value.value
    return mesh


def get_mesh() -> Mesh:
    """This thread's mesh set with ``jax.set_mesh`` (the empty ``Mesh`` when none is).

    Raises ``ValueError`` inside a traced function: use :func:`get_abstract_mesh` there.
    """
    if _tracing():
        raise ValueError(
            "`get_mesh` can only be used outside of `jax.jit`. Maybe you want "
            "`jax.sharding.get_abstract_mesh()`?"
        )
    mesh: Mesh = _concrete_mesh_value.value
    return mesh


def get_concrete_mesh() -> Mesh | None:
    """This thread's mesh set with ``jax.set_mesh``, or ``None`` when none is (internal).

    Unlike :func:`get_mesh`, it can be called while tracing.
    """
    mesh: Mesh = _concrete_mesh_value.value
    return None if mesh.empty else mesh


@contextlib.contextmanager
def use_concrete_mesh(mesh: Mesh) -> Generator[None]:
    """Makes ``mesh`` this thread's concrete mesh inside a ``with`` block, leaving the
    abstract mesh alone (internal; no checks, usable while tracing)."""
    with _concrete_mesh_value(mesh):
        yield
