"""Runs one of JAX's ``examples/`` scripts, unchanged in its logic, under real JAX or jax_core.

``python tests/examples/runner.py {jax,jax_core} <name> <source.py>``

The script's inputs are substituted, not its code: ``examples.datasets`` (and the bare
``datasets`` the SPMD example imports) is a module of small synthetic MNIST-shaped data (no
download), ``matplotlib`` a module whose functions do nothing (plots are not compared), and the
literal hyperparameters listed in ``STEPS`` are set smaller so a run takes seconds. Under
``jax_core`` the program runs through ``jax_core.compat``'s import mapping, as
``python -m jax_core.compat`` does.
"""

from __future__ import annotations

import sys
import types
from typing import Any

import numpy as np

# Literal assignments made smaller: (text in the example, replacement).
STEPS: dict[str, list[tuple[str, str]]] = {
    "mnist_classifier": [
        ("num_epochs = 10", "num_epochs = 2"),
        ("batch_size = 128", "batch_size = 64"),
    ],
    "mnist_classifier_fromscratch": [
        ("num_epochs = 10", "num_epochs = 2"),
        ("batch_size = 128", "batch_size = 64"),
    ],
    "mnist_vae": [
        ("num_epochs = 100", "num_epochs = 2"),
        ("batch_size = 32", "batch_size = 64"),
        ("nrow, ncol = 10, 10", "nrow, ncol = 2, 2"),
    ],
    "advi": [("for t in range(100):", "for t in range(12):")],
    "spmd_mnist_classifier_fromscratch": [
        ("num_epochs = 10", "num_epochs = 1"),
        ("batch_size = 128", "batch_size = 64"),
    ],
}

N_TRAIN, N_TEST = 512, 128


def _synthetic_mnist_raw() -> tuple[np.ndarray[Any, Any], ...]:
    """Images of 28x28 uint8-range values whose label is a fixed linear function of them."""
    rng = np.random.RandomState(0)
    images = rng.randint(0, 256, size=(N_TRAIN + N_TEST, 28, 28)).astype(np.uint8)
    weights = rng.normal(size=(28 * 28, 10))
    labels = np.argmax(images.reshape(len(images), -1) @ weights, axis=1).astype(np.uint8)
    return images[:N_TRAIN], labels[:N_TRAIN], images[N_TRAIN:], labels[N_TRAIN:]


def _mnist(permute_train: bool = False) -> tuple[np.ndarray[Any, Any], ...]:
    train_images, train_labels, test_images, test_labels = _synthetic_mnist_raw()
    flat = lambda x: (x.reshape(len(x), -1) / np.float32(255.0)).astype(np.float32)
    one_hot = lambda y: np.array(y[:, None] == np.arange(10), np.float32)
    out = [flat(train_images), one_hot(train_labels), flat(test_images), one_hot(test_labels)]
    if permute_train:
        perm = np.random.RandomState(0).permutation(N_TRAIN)
        out[0], out[1] = out[0][perm], out[1][perm]
    return tuple(out)


class _Nothing:
    """Any attribute, any call: itself (a stand-in for matplotlib's plotting)."""

    def __getattr__(self, name: str) -> _Nothing:
        return self

    def __call__(self, *args: object, **kwargs: object) -> _Nothing:
        return self

    def __iter__(self) -> Any:
        return iter(())


def _install_substitutes() -> None:
    datasets = types.ModuleType("datasets")
    datasets.mnist = _mnist  # type: ignore[attr-defined]
    datasets.mnist_raw = _synthetic_mnist_raw  # type: ignore[attr-defined]
    examples = types.ModuleType("examples")
    examples.__path__ = []  # type: ignore[attr-defined]
    examples.datasets = datasets  # type: ignore[attr-defined]
    sys.modules.update({"examples": examples, "examples.datasets": datasets, "datasets": datasets})
    for name in ("matplotlib", "matplotlib.pyplot", "matplotlib.cm"):
        module = types.ModuleType(name)
        module.__getattr__ = lambda attr: _Nothing()  # type: ignore[method-assign]
        sys.modules[name] = module


def main(mode: str, name: str, path: str) -> None:
    if mode == "jax_core":
        from jax_core.compat import install

        install()
    _install_substitutes()
    with open(path) as f:
        source = f.read()
    for old, new in STEPS.get(name, []):
        if old not in source:
            raise SystemExit(f"{name}: expected {old!r} in the example (has it changed?)")
        source = source.replace(old, new)
    sys.argv = [path]
    code = compile(source, path, "exec")
    exec(code, {"__name__": "__main__", "__file__": path})  # noqa: S102  (running the example)


if __name__ == "__main__":
    main(*sys.argv[1:4])
