"""Array-API workloads (the "array API" issue): steady-state ``jit`` of a few representative
programs whose HLO should match JAX's: a matmul chain, softmax and logsumexp, sort and argsort,
and a small conv net forward. (Checked when the rows were added: ``jit(f).lower(...).compile()
.as_text()`` of every one is JAX's, up to names and metadata; in logsumexp jax_core selects the
finite max on an f32[1024,1] view, bitcasts either side, where JAX does it on f32[1024].)

Like bench/workloads.py, each takes the library modules (``jax`` is ``jax_core`` or ``jax``;
``jnp`` is its ``numpy``) and uses only API both share: ``jit``, ``@``, ``jnp.tanh``,
``jnp.exp``, ``jnp.sort``, ``jnp.argsort``, ``jnp.maximum``, ``.reshape``,
``jax.scipy.special.logsumexp``, ``jax.lax.conv_general_dilated``. Each checks its
result against NumPy (float64 where rounding matters) before timing, then returns ms/call for
each of several batches (bench/run.py takes the minimum), blocking on the last result of a batch.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

from bench.timing import timed_batches

# (i) matmul chain: CHAIN layers of x = tanh(x @ W), all f32[MM, MM] (about 270 MFLOP a call).
CHAIN = 8
MM = 256
# (j) softmax / logsumexp over the last axis of f32[SM, SM].
SM = 1024
# (k) sort / argsort of f32[SORT_N].
SORT_N = 1_000_000


def _time_ms(step: Callable[[], Any], *, calls: int, repeats: int) -> list[float]:
    """ms per call for each of ``repeats`` batches of ``calls`` calls (one untimed call first)."""
    return timed_batches(step, calls=calls, repeats=repeats, per_s=1e3)


def _special(jax: Any) -> Any:
    """``jax.scipy.special`` of either library (real JAX needs the submodule imported)."""
    return importlib.import_module(jax.__name__ + ".scipy.special")


def matmul_chain(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(i) steady-state ``jit`` of 8 layers ``x = tanh(x @ W)``, all f32[256,256]; ms/call."""
    rng = np.random.default_rng(0)
    ws_np = [
        (rng.standard_normal((MM, MM)) / np.sqrt(MM)).astype(np.float32) for _ in range(CHAIN)
    ]
    x_np = rng.standard_normal((MM, MM)).astype(np.float32)

    def chain(ws: list[Any], x: Any) -> Any:
        for w in ws:
            x = jnp.tanh(x @ w)
        return x

    f = jax.jit(chain)
    ws = [jnp.asarray(w) for w in ws_np]
    x = jnp.asarray(x_np)
    ref = x_np.astype(np.float64)
    for w in ws_np:
        ref = np.tanh(ref @ w)
    np.testing.assert_allclose(np.asarray(f(ws, x)), ref, rtol=1e-4, atol=1e-4)
    return _time_ms(lambda: f(ws, x), calls=5 if quick else 20, repeats=3 if quick else 7)


def _sm_input(jnp: Any) -> tuple[np.ndarray[Any, Any], Any]:
    x_np = (3.0 * np.random.default_rng(1).standard_normal((SM, SM))).astype(np.float32)
    return x_np, jnp.asarray(x_np)


def _np_logsumexp(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    x64 = x.astype(np.float64)
    m = x64.max(axis=-1, keepdims=True)
    out: np.ndarray[Any, Any] = np.log(np.exp(x64 - m).sum(axis=-1, keepdims=True)) + m
    return out


def softmax(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(j) steady-state ``jit(lambda x: jnp.exp(x - logsumexp(x, -1, keepdims=True)))`` on
    f32[1024,1024]; ms/call. (jax_core has no ``jax.nn``; this form is shared API.)"""
    lse = _special(jax).logsumexp
    f = jax.jit(lambda x: jnp.exp(x - lse(x, axis=-1, keepdims=True)))
    x_np, x = _sm_input(jnp)
    ref = np.exp(x_np.astype(np.float64) - _np_logsumexp(x_np))
    np.testing.assert_allclose(np.asarray(f(x)), ref, rtol=1e-4, atol=1e-7)
    return _time_ms(lambda: f(x), calls=10 if quick else 50, repeats=3 if quick else 7)


def logsumexp(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(j2) steady-state ``jit(lambda x: logsumexp(x, axis=-1))`` on f32[1024,1024]; ms/call."""
    lse = _special(jax).logsumexp
    f = jax.jit(lambda x: lse(x, axis=-1))
    x_np, x = _sm_input(jnp)
    np.testing.assert_allclose(np.asarray(f(x)), _np_logsumexp(x_np)[:, 0], rtol=1e-5, atol=1e-5)
    return _time_ms(lambda: f(x), calls=10 if quick else 50, repeats=3 if quick else 7)


def _sort_input(jnp: Any) -> tuple[np.ndarray[Any, Any], Any]:
    x_np = np.random.default_rng(2).standard_normal(SORT_N).astype(np.float32)
    return x_np, jnp.asarray(x_np)


def sort(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(k) steady-state ``jit(jnp.sort)`` on f32[1e6]; ms/call."""
    f = jax.jit(jnp.sort)
    x_np, x = _sort_input(jnp)
    np.testing.assert_array_equal(np.asarray(f(x)), np.sort(x_np))
    return _time_ms(lambda: f(x), calls=2 if quick else 3, repeats=3 if quick else 7)


def argsort(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(k2) steady-state ``jit(jnp.argsort)`` (stable) on f32[1e6]; ms/call."""
    f = jax.jit(jnp.argsort)
    x_np, x = _sort_input(jnp)
    np.testing.assert_array_equal(np.asarray(f(x)), np.argsort(x_np, kind="stable"))
    return _time_ms(lambda: f(x), calls=2 if quick else 3, repeats=3 if quick else 7)


# (l) conv net: CONV_BATCH NHWC images CONV_HW x CONV_HW x 3; 3x3 convolutions (out channels,
# stride) as below, each + bias and relu, padding SAME; then a dense layer to CLASSES logits.
CONV_BATCH = 32
CONV_HW = 32
CONV_LAYERS = ((16, 1), (32, 2), (64, 2))
CLASSES = 10
DNUMS = ("NHWC", "HWIO", "NHWC")


def _np_conv_same(x: np.ndarray[Any, Any], w: np.ndarray[Any, Any], stride: int) -> Any:
    """NumPy reference of ``conv_general_dilated(x, w, (s, s), 'SAME', dimension_numbers=
    ('NHWC', 'HWIO', 'NHWC'))`` for an odd square kernel: pad, gather patches, one einsum."""
    k = w.shape[0]
    _, h, wd, _ = x.shape
    oh, ow = -(-h // stride), -(-wd // stride)
    ph, pw = max((oh - 1) * stride + k - h, 0), max((ow - 1) * stride + k - wd, 0)
    xp = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    patches = np.stack(
        [
            xp[:, i : i + stride * (oh - 1) + 1 : stride, j : j + stride * (ow - 1) + 1 : stride]
            for i in range(k)
            for j in range(k)
        ],
        axis=3,
    )  # n, oh, ow, k*k, cin
    return np.einsum("nhwpc,pco->nhwo", patches, w.reshape(k * k, *w.shape[2:]))


def conv_net(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(l) steady-state ``jit`` of a small CNN forward: three 3x3 ``lax.conv_general_dilated``
    layers (NHWC/HWIO, SAME, strides 1, 2, 2; bias + relu), then flatten and a dense layer, on
    32 images 32x32x3; ms/call."""
    rng = np.random.default_rng(3)
    convs_np: list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]] = []
    cin = 3
    for cout, _ in CONV_LAYERS:
        w = (rng.standard_normal((3, 3, cin, cout)) / np.sqrt(9 * cin)).astype(np.float32)
        convs_np.append((w, (0.1 * rng.standard_normal(cout)).astype(np.float32)))
        cin = cout
    side = CONV_HW
    for _, stride in CONV_LAYERS:
        side = -(-side // stride)
    feat = side * side * cin
    dense_np = (
        (rng.standard_normal((feat, CLASSES)) / np.sqrt(feat)).astype(np.float32),
        np.zeros(CLASSES, np.float32),
    )
    x_np = rng.standard_normal((CONV_BATCH, CONV_HW, CONV_HW, 3)).astype(np.float32)
    strides = [stride for _, stride in CONV_LAYERS]

    def forward(convs: list[tuple[Any, Any]], dense: tuple[Any, Any], x: Any) -> Any:
        for (w, b), s in zip(convs, strides):
            y = jax.lax.conv_general_dilated(x, w, (s, s), "SAME", dimension_numbers=DNUMS)
            x = jnp.maximum(y + b, 0.0)
        w, b = dense
        return x.reshape(x.shape[0], -1) @ w + b

    f = jax.jit(forward)
    convs = [(jnp.asarray(w), jnp.asarray(b)) for w, b in convs_np]
    dense = (jnp.asarray(dense_np[0]), jnp.asarray(dense_np[1]))
    x = jnp.asarray(x_np)

    ref = x_np.astype(np.float64)
    for (w, b), s in zip(convs_np, strides):
        ref = np.maximum(_np_conv_same(ref, w.astype(np.float64), s) + b, 0.0)
    ref = ref.reshape(CONV_BATCH, -1) @ dense_np[0] + dense_np[1]
    np.testing.assert_allclose(np.asarray(f(convs, dense, x)), ref, rtol=1e-4, atol=1e-4)
    return _time_ms(lambda: f(convs, dense, x), calls=5 if quick else 20, repeats=3 if quick else 7)


WORKLOADS: dict[str, Callable[..., list[float]]] = {
    "matmul_chain": matmul_chain,
    "softmax": softmax,
    "logsumexp": logsumexp,
    "sort": sort,
    "argsort": argsort,
    "conv_net": conv_net,
}
AGGREGATE = {name: "min" for name in WORKLOADS}
