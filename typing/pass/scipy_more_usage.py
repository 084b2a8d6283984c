"""jax.scipy's signal spectral functions, optimize.minimize, sparse.linalg solvers and
spatial.transform rotations, as JAX code calls them."""

from typing import assert_type

import numpy as np

import jax_core.numpy as jnp
from jax_core import Array
from jax_core.scipy.optimize import OptimizeResults, minimize
from jax_core.scipy.signal import csd, detrend, fftconvolve, istft, stft, welch
from jax_core.scipy.sparse.linalg import bicgstab, cg, gmres
from jax_core.scipy.spatial.transform import Rotation, Slerp

x = jnp.linspace(0.0, 1.0, 64)
y = np.ones(64, np.float32)

# signal
assert_type(fftconvolve(x, y[:5], mode="same"), Array)
assert_type(fftconvolve(x[None], y[None, :5], axes=[1]), Array)
assert_type(detrend(x, bp=[10, 20]), Array)
f, t, zxx = stft(x, nperseg=16)
assert_type(zxx, Array)
freqs, pxx = welch(x, fs=2.0, nperseg=16, average="median")
assert_type(pxx, Array)
_, pxy = csd(x, y, nperseg=16, window="hamming")
assert_type(pxy, Array)
times, back = istft(zxx, nperseg=16)
assert_type(back, Array)
_, _, custom = stft(x, nperseg=8, window=jnp.ones(8), detrend=lambda d: d - d.mean())


# optimize
def rosen(v: Array, scale: float) -> Array:
    return scale * jnp.sum(100.0 * (v[1:] - v[:-1] ** 2) ** 2 + (1 - v[:-1]) ** 2)


res = minimize(rosen, jnp.zeros(3), args=(1.0,), method="BFGS", options={"maxiter": 20})
assert_type(res, OptimizeResults)
assert_type(res.x, Array)
assert_type(res.hess_inv, Array | None)
def sphere(v: Array) -> Array:
    return jnp.sum(v**2)


lres = minimize(sphere, jnp.ones(2), method="l-bfgs-experimental-do-not-rely-on-this")
best: Array = lres.fun

# sparse.linalg: matrices, functions, pytrees
a = jnp.eye(4) * 3.0
b = jnp.arange(4.0)
sol, info = cg(a, b, tol=1e-6, M=jnp.eye(4))
assert_type(info, None)
sol2, info2 = bicgstab(lambda v: a @ v, b, x0=b, maxiter=10)
sol3, ginfo = gmres(a, b, restart=2, solve_method="incremental")
assert_type(ginfo, Array)
tree_sol, info3 = cg(lambda t: {"u": a @ t["u"]}, {"u": b})

# spatial.transform
rot = Rotation.from_euler("xyz", jnp.array([0.1, 0.2, 0.3]), degrees=False)
assert_type(rot, Rotation)
assert_type(rot.as_matrix(), Array)
assert_type(rot.apply(jnp.ones(3), inverse=True), Array)
assert_type(rot.as_quat(canonical=True, scalar_first=True), Array)
assert_type(rot.inv() * Rotation.from_rotvec(jnp.ones(3)), Rotation)
assert_type(rot.single, bool)
many = Rotation.from_quat(jnp.ones((4, 4)))
assert_type(len(many), int)
assert_type(many.mean(jnp.ones(4)), Rotation)
assert_type(Rotation.concatenate([many, Rotation.from_matrix(jnp.eye(3)[None])]), Rotation)
assert_type(many.magnitude(), Array)
assert_type(Rotation.identity().as_mrp(), Array)
slerp = Slerp.init(jnp.arange(4.0), many)
assert_type(slerp(jnp.array([0.5, 1.5])), Rotation)
assert_type(slerp.times, Array)
