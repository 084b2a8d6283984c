"""``scipy.signal``'s FFT convolution, detrending and spectral functions, ``scipy.optimize``,
``scipy.sparse.linalg`` and ``scipy.spatial.transform`` (Rotation's methods are called unbound on
a constructed rotation)."""

SIGNAL_MORE = """
fftconvolve(f[7]|f[2, 6], f[3]|f[2, 2], mode=_|'same'|'valid')  ~64
fftconvolve(s[3, 8], s[3, 4], axes=_|1|(1,))  ~64
detrend(c[2, 12]|s[12], axis=_|0, type=_|'constant', bp=_|4|(3, 9))  ~256
stft(s[40]|s[2, 40], nperseg=8|16, noverlap=_|2, nfft=_|20, boundary=_|None|'even'|'odd'|'constant', padded=_|False, return_onesided=_|False)  ~64
istft(c[5, 9]|c[2, 5, 9], nperseg=_|8, noverlap=_|3, boundary=_|False, input_onesided=_|True)  ~64
welch(s[64]|s[2, 64], nperseg=16|32, scaling=_|'spectrum', average=_|'median', detrend=_|'linear'|False)  ~64
csd(s[64]|s[2, 64], s[64], nperseg=16|32, scaling=_|'spectrum', average=_|'median')  ~64
"""

OPTIMIZE = """
minimize(lambda v: jnp.sum((v - 1.5) ** 2 * jnp.arange(1.0, v.size + 1.0)) + 2.0, s[4], method='BFGS'|'l-bfgs-experimental-do-not-rely-on-this', options={'maxiter': 2}|{'maxiter': 1, 'gtol': 0.1})  ~64 -grad
"""

SPARSE_LINALG = """
cg(s[4, 4] @ s[4, 4].T + 4 * jnp.eye(4), s[4], tol=_|1e-3, maxiter=_|2)  ~256
bicgstab(s[4, 4] + 4 * jnp.eye(4), s[4], tol=_|1e-3, maxiter=_|2)  ~256
gmres(s[4, 4] + 4 * jnp.eye(4), s[4], restart=_|2, solve_method=_|'incremental')  ~256
"""

SPATIAL_TRANSFORM = """
Rotation.from_quat(s[4]|s[3, 4])  ~8
Rotation.from_matrix(jsp.spatial.transform.Rotation.from_quat(s[3, 4]).as_matrix())  ~64
Rotation.from_rotvec(s[3]|s[2, 3], degrees=_|True)  ~8
Rotation.from_mrp(s[3]|s[2, 3])  ~8
Rotation.from_euler('xyz'|'ZXZ'|'y', s[3]|s[2, 3], degrees=_|True)  ~8 -vmap
Rotation.as_matrix(jsp.spatial.transform.Rotation.from_quat(s[3, 4]))  ~8
Rotation.as_rotvec(jsp.spatial.transform.Rotation.from_quat(s[3, 4]), degrees=_|True)  ~8
Rotation.as_mrp(jsp.spatial.transform.Rotation.from_quat(s[3, 4]))  ~8
Rotation.as_euler(jsp.spatial.transform.Rotation.from_quat(s[3, 4]), 'xyz'|'zyz'|'ZYX', degrees=_|True)  ~64
Rotation.as_quat(jsp.spatial.transform.Rotation.from_quat(s[3, 4]), canonical=_|True, scalar_first=_|True)  ~8
Rotation.apply(jsp.spatial.transform.Rotation.from_quat(s[4]), s[3]|s[2, 3], inverse=_|True)  ~8
Rotation.inv(jsp.spatial.transform.Rotation.from_quat(s[3, 4]))  ~8
Rotation.magnitude(jsp.spatial.transform.Rotation.from_quat(s[3, 4]))  ~8
Rotation.mean(jsp.spatial.transform.Rotation.from_quat(s[3, 4]))  ~256 -grad -vmap
Rotation.identity(dtype=_|jnp.float32)  -grad -vmap
Slerp.init(jnp.arange(3.0), jsp.spatial.transform.Rotation.from_quat(s[3, 4]))  ~16 -grad
"""
