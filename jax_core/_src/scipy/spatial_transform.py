"""``jax_core.scipy.spatial.transform``: ``Rotation`` (3-d rotations held as unit quaternions
``(x, y, z, w)``, one or a stack) and ``Slerp`` (spherical linear interpolation between them).

Both are NamedTuples, so they are pytrees and pass through ``jit``, ``vmap`` and ``grad``. Every
conversion is written for one quaternion and broadcast over stacks with ``jnp.vectorize``, as
JAX does."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

import jax_core.numpy as jnp
from jax_core._src.numpy.functional import vectorize
from jax_core._src.scipy.special import jitted_as
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array

__all__ = ["Rotation", "Slerp"]


def _vectorized(signature: str) -> Callable[[Callable[..., Array]], Callable[..., Array]]:
    """``jnp.vectorize`` with a gufunc ``signature``, keeping the Array result type."""

    def wrap(fn: Callable[..., Array]) -> Callable[..., Array]:
        out: Callable[..., Array] = vectorize(fn, signature=signature)
        return out

    return wrap


def _check_seq(seq: str, what: str) -> bool:
    """Whether ``seq`` names intrinsic axes ('XYZ'); JAX's errors for a malformed one."""
    intrinsic = re.match(r"^[XYZ]{1,3}$", seq) is not None
    extrinsic = re.match(r"^[xyz]{1,3}$", seq) is not None
    if not (intrinsic or extrinsic):
        raise ValueError(f"Expected axes from `seq` to be from ['x', 'y', 'z'] or ['X', 'Y', 'Z'], got {seq}")
    if any(seq[i] == seq[i + 1] for i in range(len(seq) - 1)):
        raise ValueError(f"Expected consecutive axes to be different, got {seq}")
    del what
    return intrinsic


class Rotation(NamedTuple):
    """Rotation in 3 dimensions, as ``scipy.spatial.transform.Rotation`` (a subset: no
    ``random``), held as the quaternion array ``quat`` of shape ``(4,)`` or ``(N, 4)``."""

    quat: Array

    @classmethod
    def concatenate(cls, rotations: Sequence[Rotation]) -> Rotation:
        """Concatenates a sequence of ``Rotation`` objects into a single object."""
        return cls(jnp.concatenate([rotation.quat for rotation in rotations]))

    @classmethod
    def from_euler(cls, seq: str, angles: ArrayLike, degrees: bool = False) -> Rotation:
        """Initialize from Euler angles: ``seq`` is up to 3 axes, 'xyz' extrinsic or 'XYZ'
        intrinsic; ``angles`` (radians, or degrees with ``degrees=True``) one per axis."""
        num_axes = len(seq)
        if num_axes < 1 or num_axes > 3:
            raise ValueError(f"Expected axis specification to be a non-empty string of upto 3 characters, got {seq}")
        intrinsic = _check_seq(seq, "from_euler")
        angles_arr = jnp.atleast_1d(angles)
        axes = jnp.array([_elementary_basis_index(x) for x in seq.lower()])
        return cls(_elementary_quat_compose(angles_arr, axes, intrinsic, degrees))

    @classmethod
    def from_matrix(cls, matrix: ArrayLike) -> Rotation:
        """Initialize from rotation matrices of shape ``(3, 3)`` or ``(N, 3, 3)``."""
        return cls(_from_matrix(matrix))

    @classmethod
    def from_mrp(cls, mrp: ArrayLike) -> Rotation:
        """Initialize from Modified Rodrigues Parameters (MRPs)."""
        return cls(_from_mrp(mrp))

    @classmethod
    def from_quat(cls, quat: ArrayLike) -> Rotation:
        """Initialize from quaternions ``(x, y, z, w)`` (normalized here)."""
        return cls(_normalize_quaternion(quat))

    @classmethod
    def from_rotvec(cls, rotvec: ArrayLike, degrees: bool = False) -> Rotation:
        """Initialize from rotation vectors (axis times angle)."""
        return cls(_from_rotvec(rotvec, degrees))

    @classmethod
    def identity(cls, num: int | None = None, dtype: DTypeLike = float) -> Rotation:
        """The identity rotation (a single one: ``num`` must be ``None``, as in JAX, which
        asserts it)."""
        if num is not None:
            raise AssertionError("Rotation.identity supports only num=None (a single rotation), as in JAX.")
        return cls(jnp.array([0.0, 0.0, 0.0, 1.0], dtype=dtype))

    @classmethod
    def random(cls, random_key: Array, num: int | None = None) -> Rotation:
        """Not implemented in JAX either: raises ``NotImplementedError``."""
        raise NotImplementedError(
            "Rotation.random is not implemented (as in JAX); draw quaternions with "
            "jax_core.random.normal(key, (num, 4)) and pass them to Rotation.from_quat."
        )

    def __getitem__(self, indexer: Any) -> Rotation:  # type: ignore[override]
        """Extract rotation(s) at given index(es) from this object."""
        if self.single:
            raise TypeError("Single rotation is not subscriptable.")
        return Rotation(self.quat[indexer])

    def __len__(self) -> int:
        """Number of rotations contained in this object."""
        if self.single:
            raise TypeError("Single rotation has no len().")
        return int(self.quat.shape[0])

    def __mul__(self, other: Rotation) -> Rotation:  # type: ignore[override]
        """Compose this rotation with the other."""
        return Rotation.from_quat(_compose_quat(self.quat, other.quat))

    def apply(self, vectors: ArrayLike, inverse: bool = False) -> Array:
        """Apply this rotation (or its inverse) to a set of vectors."""
        return _apply(self.as_matrix(), vectors, inverse)

    def as_euler(self, seq: str, degrees: bool = False) -> Array:
        """Represent as Euler angles about the 3 axes of ``seq``."""
        if len(seq) != 3:
            raise ValueError(f"Expected 3 axes, got {seq}.")
        extrinsic = not _check_seq(seq, "as_euler")
        axes = jnp.array([_elementary_basis_index(x) for x in seq.lower()])
        return _compute_euler_from_quat(self.quat, axes, extrinsic, degrees)

    def as_matrix(self) -> Array:
        """Represent as rotation matrix."""
        return _as_matrix(self.quat)

    def as_mrp(self) -> Array:
        """Represent as Modified Rodrigues Parameters (MRPs)."""
        return _as_mrp(self.quat)

    def as_rotvec(self, degrees: bool = False) -> Array:
        """Represent as rotation vectors."""
        return _as_rotvec(self.quat, degrees)

    def as_quat(self, canonical: bool = False, scalar_first: bool = False) -> Array:
        """Represent as quaternions (``canonical``: w >= 0; ``scalar_first``: (w, x, y, z))."""
        quat = _make_canonical(self.quat) if canonical else self.quat
        if scalar_first:
            return jnp.roll(quat, shift=1, axis=-1)
        return quat

    def inv(self) -> Rotation:
        """Invert this rotation."""
        return Rotation(_inv(self.quat))

    def magnitude(self) -> Array:
        """Get the magnitude(s) of the rotation(s) (angles in radians, in [0, pi])."""
        return _magnitude(self.quat)

    def mean(self, weights: ArrayLike | None = None) -> Rotation:
        """Get the (optionally weighted) mean of the rotations: the eigenvector of the largest
        eigenvalue of ``sum w_i q_i q_i^T``."""
        w = (
            jnp.ones(self.quat.shape[0], dtype=self.quat.dtype)
            if weights is None
            else jnp.asarray(weights, dtype=self.quat.dtype)
        )
        if w.ndim != 1:
            raise ValueError(f"Expected `weights` to be 1 dimensional, got shape {w.shape}.")
        if w.shape[0] != len(self):
            raise ValueError(
                "Expected `weights` to have number of values equal to number of rotations, "
                f"got {w.shape[0]} values and {len(self)} rotations."
            )
        k = jnp.dot(w[np.newaxis, :] * self.quat.T, self.quat)
        _, v = jnp.linalg.eigh(k)
        return Rotation(v[:, -1])

    @property
    def single(self) -> bool:
        """Whether this instance represents a single rotation."""
        return self.quat.ndim == 1


class Slerp(NamedTuple):
    """Spherical Linear Interpolation of Rotations, as ``scipy.spatial.transform.Slerp``:
    build with ``Slerp.init(times, rotations)`` and call with the times to interpolate at."""

    times: Array
    timedelta: Array
    rotations: Rotation
    rotvecs: Array

    @classmethod
    def init(cls, times: ArrayLike, rotations: Rotation) -> Slerp:
        """The interpolator between ``rotations`` (at least 2) at increasing key ``times``."""
        if not isinstance(rotations, Rotation):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError("`rotations` must be a `Rotation` instance.")
        if rotations.single or len(rotations) == 1:
            raise ValueError("`rotations` must be a sequence of at least 2 rotations.")
        times_arr = jnp.asarray(times, dtype=rotations.quat.dtype)
        if times_arr.ndim != 1:
            raise ValueError(
                f"Expected times to be specified in a 1 dimensional array, got {times_arr.ndim} dimensions."
            )
        if times_arr.shape[0] != len(rotations):
            raise ValueError(
                "Expected number of rotations to be equal to number of timestamps given, "
                f"got {len(rotations)} rotations and {times_arr.shape[0]} timestamps."
            )
        new_rotations = Rotation(rotations.as_quat()[:-1])
        return cls(
            times=times_arr,
            timedelta=jnp.diff(times_arr),
            rotations=new_rotations,
            rotvecs=(new_rotations.inv() * Rotation(rotations.as_quat()[1:])).as_rotvec(),
        )

    def __call__(self, times: ArrayLike) -> Rotation:
        """Interpolated rotations at ``times`` (a scalar gives a single rotation)."""
        compute_times = jnp.asarray(times, dtype=self.times.dtype)
        if compute_times.ndim > 1:
            raise ValueError("`times` must be at most 1-dimensional.")
        single_time = compute_times.ndim == 0
        compute_times = jnp.atleast_1d(compute_times)
        ind = jnp.maximum(jnp.searchsorted(self.times, compute_times) - 1, 0)
        alpha = (compute_times - self.times[ind]) / self.timedelta[ind]
        result = Rotation(self.rotations.quat[ind]) * Rotation.from_rotvec(self.rotvecs[ind] * alpha[:, None])
        if single_time:
            return Rotation(result.quat[0])
        return result


@_vectorized("(m,m),(m),()->(m)")
def _apply(matrix: Array, vector: Array, inverse: Array) -> Array:
    return jnp.where(inverse, matrix.T, matrix) @ vector


@_vectorized("(m)->(n,n)")
def _as_matrix(quat: Array) -> Array:
    x, y, z, w = quat[0], quat[1], quat[2], quat[3]
    x2, y2, z2, w2 = x * x, y * y, z * z, w * w
    xy, zw, xz, yw, yz, xw = x * y, z * w, x * z, y * w, y * z, x * w
    return jnp.array(
        [
            [+x2 - y2 - z2 + w2, 2 * (xy - zw), 2 * (xz + yw)],
            [2 * (xy + zw), -x2 + y2 - z2 + w2, 2 * (yz - xw)],
            [2 * (xz - yw), 2 * (yz + xw), -x2 - y2 + z2 + w2],
        ]
    )


@_vectorized("(m)->(n)")
def _as_mrp(quat: Array) -> Array:
    sign = jnp.where(quat[3] < 0, -1.0, 1.0)
    denominator = 1.0 + sign * quat[3]
    return sign * quat[:3] / denominator


@_vectorized("(m),()->(n)")
def _as_rotvec(quat: Array, degrees: Array) -> Array:
    quat = jnp.where(quat[3] < 0, -quat, quat)  # w > 0, so 0 <= angle <= pi
    angle = 2.0 * jnp.arctan2(_vector_norm(quat[:3]), quat[3])
    angle2 = angle * angle
    small_scale = 2 + angle2 / 12 + 7 * angle2 * angle2 / 2880
    large_scale = angle / jnp.sin(angle / 2)
    scale = jnp.where(angle <= 1e-3, small_scale, large_scale)
    scale = jnp.where(degrees, jnp.rad2deg(scale), scale)
    return scale * jnp.array(quat[:3])


@_vectorized("(n),(n)->(n)")
def _compose_quat(p: Array, q: Array) -> Array:
    cross = jnp.cross(p[:3], q[:3])
    return jnp.array(
        [
            p[3] * q[0] + q[3] * p[0] + cross[0],
            p[3] * q[1] + q[3] * p[1] + cross[1],
            p[3] * q[2] + q[3] * p[2] + cross[2],
            p[3] * q[3] - p[0] * q[0] - p[1] * q[1] - p[2] * q[2],
        ]
    )


@_vectorized("(m),(l),(),()->(n)")
def _compute_euler_from_quat(quat: Array, axes: Array, extrinsic: Array, degrees: Array) -> Array:
    angle_first = jnp.where(extrinsic, 0, 2)
    angle_third = jnp.where(extrinsic, 2, 0)
    axes = jnp.where(extrinsic, axes, axes[::-1])
    i, j, k = axes[0], axes[1], axes[2]
    symmetric = i == k
    k = jnp.where(symmetric, 3 - i - j, k)
    sign = jnp.array((i - j) * (j - k) * (k - i) // 2, dtype=quat.dtype)
    eps = 1e-7
    a = jnp.where(symmetric, quat[3], quat[3] - quat[j])
    b = jnp.where(symmetric, quat[i], quat[i] + quat[k] * sign)
    c = jnp.where(symmetric, quat[j], quat[j] + quat[3])
    d = jnp.where(symmetric, quat[k] * sign, quat[k] * sign - quat[i])
    angles = jnp.zeros(3, dtype=quat.dtype)
    angles = angles.at[1].set(2 * jnp.arctan2(_hypot(c, d), _hypot(a, b)))
    case = jnp.where(jnp.abs(angles[1] - np.pi) <= eps, 2, 0)
    case = jnp.where(jnp.abs(angles[1]) <= eps, 1, case)
    half_sum = jnp.arctan2(b, a)
    half_diff = jnp.arctan2(d, c)
    # any degenerate case: the first angle carries the whole rotation
    angles = angles.at[0].set(jnp.where(case == 1, 2 * half_sum, 2 * half_diff * jnp.where(extrinsic, -1, 1)))
    angles = angles.at[angle_first].set(jnp.where(case == 0, half_sum - half_diff, angles[angle_first]))
    angles = angles.at[angle_third].set(jnp.where(case == 0, half_sum + half_diff, angles[angle_third]))
    angles = angles.at[angle_third].set(jnp.where(symmetric, angles[angle_third], angles[angle_third] * sign))
    angles = angles.at[1].set(jnp.where(symmetric, angles[1], angles[1] - np.pi / 2))
    angles = (angles + np.pi) % (2 * np.pi) - np.pi
    return jnp.where(degrees, jnp.rad2deg(angles), angles)


@jitted_as("hypot")
def _hypot(x1: Array, x2: Array) -> Array:
    """``sqrt(x1**2 + x2**2)`` computed as JAX 0.12's ``jnp.hypot`` computes it (and staged as
    its ``jit[name=hypot]``): both legs are scaled by a power of two chosen from the larger one, so
    the squares neither overflow nor underflow, and the root is scaled back (an infinite leg gives
    inf)."""
    a1, a2 = jnp.abs(x1), jnp.abs(x2)
    m = jnp.maximum(a1, a2)
    finfo = np.finfo(x1.dtype)
    k = (finfo.nmant - finfo.minexp + 1) // 2
    e_hi = (finfo.maxexp - 1) // 2
    hi = m >= jnp.asarray(2.0**e_hi, dtype=x1.dtype)
    lo = m <= jnp.asarray(2.0 ** (e_hi - k), dtype=x1.dtype)
    s_down = jnp.full_like(x1, 2.0**-k)
    s_up = jnp.full_like(x1, 2.0**k)
    y1 = jnp.where(hi, x1 * s_down, jnp.where(lo, x1 * s_up, x1))
    y2 = jnp.where(hi, x2 * s_down, jnp.where(lo, x2 * s_up, x2))
    inv_scale = jnp.where(hi, s_up, jnp.where(lo, s_down, jnp.full_like(x1, 1.0)))
    r = jnp.sqrt(jnp.square(y1) + jnp.square(y2)) * inv_scale
    inf = jnp.full_like(x1, np.inf)
    return jnp.where((a1 == inf) | (a2 == inf), inf, r)


def _elementary_basis_index(axis: str) -> int:
    if axis == "x":
        return 0
    if axis == "y":
        return 1
    if axis == "z":
        return 2
    raise ValueError(f"Expected axis to be from ['x', 'y', 'z'], got {axis}")


@_vectorized("(m),(m),(),()->(n)")
def _elementary_quat_compose(angles: Array, axes: Array, intrinsic: Array, degrees: Array) -> Array:
    angles = jnp.where(degrees, jnp.deg2rad(angles), angles)
    result = _make_elementary_quat(axes[0], angles[0])
    for idx in range(1, len(axes)):
        quat = _make_elementary_quat(axes[idx], angles[idx])
        result = jnp.where(intrinsic, _compose_quat(result, quat), _compose_quat(quat, result))
    return result


@_vectorized("(m),()->(n)")
def _from_rotvec(rotvec: Array, degrees: Array) -> Array:
    rotvec = jnp.where(degrees, jnp.deg2rad(rotvec), rotvec)
    angle = _vector_norm(rotvec)
    angle2 = angle * angle
    small_scale = 0.5 - angle2 / 48 + angle2 * angle2 / 3840
    large_scale = jnp.sin(angle / 2) / angle
    scale = jnp.where(angle <= 1e-3, small_scale, large_scale)
    return jnp.hstack([scale * rotvec, jnp.cos(angle / 2)])


@_vectorized("(m,m)->(n)")
def _from_matrix(matrix: Array) -> Array:
    matrix_trace = matrix[0, 0] + matrix[1, 1] + matrix[2, 2]
    decision = jnp.array([matrix[0, 0], matrix[1, 1], matrix[2, 2], matrix_trace], dtype=matrix.dtype)
    choice = jnp.argmax(decision)
    i = choice
    j = (i + 1) % 3
    k = (j + 1) % 3
    quat_012 = jnp.empty(4, dtype=matrix.dtype)
    quat_012 = quat_012.at[i].set(1 - decision[3] + 2 * matrix[i, i])
    quat_012 = quat_012.at[j].set(matrix[j, i] + matrix[i, j])
    quat_012 = quat_012.at[k].set(matrix[k, i] + matrix[i, k])
    quat_012 = quat_012.at[3].set(matrix[k, j] - matrix[j, k])
    quat_3 = jnp.empty(4, dtype=matrix.dtype)
    quat_3 = quat_3.at[0].set(matrix[2, 1] - matrix[1, 2])
    quat_3 = quat_3.at[1].set(matrix[0, 2] - matrix[2, 0])
    quat_3 = quat_3.at[2].set(matrix[1, 0] - matrix[0, 1])
    quat_3 = quat_3.at[3].set(1 + decision[3])
    quat = jnp.where(choice != 3, quat_012, quat_3)
    return _normalize_quaternion(quat)


@_vectorized("(m)->(n)")
def _from_mrp(mrp: Array) -> Array:
    mrp_squared_plus_1 = jnp.dot(mrp, mrp) + 1
    return jnp.hstack([2 * mrp[:3], (2 - mrp_squared_plus_1)]) / mrp_squared_plus_1


@_vectorized("(n)->(n)")
def _inv(quat: Array) -> Array:
    return quat * jnp.array([-1, -1, -1, 1], dtype=quat.dtype)


@_vectorized("(n)->()")
def _magnitude(quat: Array) -> Array:
    return 2.0 * jnp.arctan2(_vector_norm(quat[:3]), jnp.abs(quat[3]))


@_vectorized("(),()->(n)")
def _make_elementary_quat(axis: Array, angle: Array) -> Array:
    quat = jnp.zeros(4, dtype=angle.dtype)
    quat = quat.at[3].set(jnp.cos(angle / 2.0))
    return quat.at[axis].set(jnp.sin(angle / 2.0))


@_vectorized("(n)->(n)")
def _normalize_quaternion(quat: Array) -> Array:
    return quat / _vector_norm(quat)


@_vectorized("(n)->()")
def _vector_norm(vector: Array) -> Array:
    return jnp.sqrt(jnp.dot(vector, vector))


@_vectorized("(n)->(n)")
def _make_canonical(quat: Array) -> Array:
    is_neg = quat < 0
    is_zero = quat == 0
    neg = (
        is_neg[3]
        | (is_zero[3] & is_neg[0])
        | (is_zero[3] & is_zero[0] & is_neg[1])
        | (is_zero[3] & is_zero[0] & is_zero[1] & is_neg[2])
    )
    return jnp.where(neg, -quat, quat)
