"""Records real JAX's convolution outputs into ``tests/data/convolution_jax.npz``.

Run with the interpreter of the venv that has real JAX installed::

    .venv-jax/bin/python tools/record_convolution.py

For each case (a lax function, its keyword arguments and operand shapes/dtypes) the file holds
``<name>/lhs``, ``<name>/rhs``, ``<name>/out`` and ``<name>/call`` (JSON: function name and
keyword arguments), so ``tests/lax/test_convolution.py`` replays the call on jax_core without JAX.
The cases cover what a NumPy reference does not settle: ``conv_transpose`` padding conventions
and ``transpose_kernel``, complex convolutions, ``preferred_element_type`` and 'SAME_LOWER'.

jax_core never imports JAX; this script is the only place the two meet.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "convolution_jax.npz"

# (name, function, lhs shape, rhs shape (empty: the function takes only an lhs), dtype, kwargs)
# fmt: off
CASES: list[tuple[str, str, tuple[int, ...], tuple[int, ...], str, dict[str, Any]]] = [
    ("t1_same", "conv_transpose", (2, 7, 3), (3, 3, 4), "float32", {"strides": [2], "padding": "SAME"}),
    ("t1_valid", "conv_transpose", (2, 7, 3), (4, 3, 4), "float32", {"strides": [3], "padding": "VALID"}),
    ("t2_same_tk", "conv_transpose", (1, 5, 6, 3), (3, 2, 4, 3), "float32",
     {"strides": [2, 2], "padding": "SAME", "transpose_kernel": True}),
    ("t2_valid_dil", "conv_transpose", (1, 5, 6, 3), (3, 2, 3, 2), "float32",
     {"strides": [2, 1], "padding": "VALID", "rhs_dilation": [1, 2]}),
    ("t2_explicit", "conv_transpose", (2, 5, 4, 2), (3, 3, 2, 3), "float32",
     {"strides": [2, 2], "padding": [[1, 2], [0, 1]]}),
    ("t2_consistent", "conv_transpose", (2, 5, 4, 2), (3, 3, 2, 3), "float32",
     {"strides": [2, 2], "padding": [[1, 1], [0, 2]], "use_consistent_padding": True}),
    ("t2_nchw_tk", "conv_transpose", (2, 3, 5, 4), (3, 4, 3, 2), "float32",
     {"strides": [1, 2], "padding": "SAME", "dimension_numbers": ["NCHW", "OIHW", "NCHW"],
      "transpose_kernel": True}),
    ("t3_same", "conv_transpose", (1, 3, 4, 3, 2), (2, 2, 2, 2, 3), "float32",
     {"strides": [2, 1, 2], "padding": "SAME"}),
    ("c64_2d", "conv_general_dilated", (2, 3, 6, 5), (4, 3, 3, 2), "complex64",
     {"window_strides": [1, 2], "padding": "SAME", "rhs_dilation": [2, 1]}),
    ("c64_groups", "conv_general_dilated", (2, 4, 7), (6, 2, 3), "complex64",
     {"window_strides": [1], "padding": [[1, 2]], "feature_group_count": 2}),
    ("same_lower", "conv_general_dilated", (2, 3, 7, 8), (2, 3, 4, 3), "float32",
     {"window_strides": [2, 3], "padding": "SAME_LOWER"}),
    ("pet_i8_i32", "conv_general_dilated", (2, 3, 6), (4, 3, 3), "int8",
     {"window_strides": [1], "padding": "VALID", "preferred_element_type": "int32"}),
    ("pet_f16_f32", "conv_general_dilated", (2, 3, 6), (4, 3, 3), "float16",
     {"window_strides": [2], "padding": "SAME", "preferred_element_type": "float32"}),
    ("pet_i8_f32", "conv_general_dilated", (1, 2, 5, 5), (3, 2, 2, 2), "int8",
     {"window_strides": [1, 1], "padding": "VALID", "preferred_element_type": "float32"}),
    ("conv_valid", "conv", (2, 3, 6, 5), (4, 3, 3, 3), "float32", {"window_strides": [2, 1], "padding": "VALID"}),
    ("general_padding", "conv_with_general_padding", (2, 3, 6, 5), (4, 3, 3, 3), "float32",
     {"window_strides": [1, 1], "padding": [[2, 1], [-1, 2]], "lhs_dilation": [2, 1], "rhs_dilation": [1, 2]}),
    ("patches_2d", "conv_general_dilated_patches", (2, 3, 6, 5), (), "float32",
     {"filter_shape": [2, 3], "window_strides": [1, 2], "padding": "SAME", "rhs_dilation": [2, 1]}),
    ("patches_nhwc", "conv_general_dilated_patches", (2, 5, 4, 3), (), "float32",
     {"filter_shape": [3, 2], "window_strides": [2, 1], "padding": [[1, 1], [0, 1]],
      "dimension_numbers": ["NHWC", "OIHW", "NHWC"]}),
    ("local_2d", "conv_general_dilated_local", (2, 3, 5, 4), (4, 12, 5, 4), "float32",
     {"window_strides": [1, 1], "padding": "SAME", "filter_shape": [2, 2]}),
    ("local_nhwc", "conv_general_dilated_local", (1, 6, 5, 2), (3, 2, 12, 4), "float32",
     {"window_strides": [2, 2], "padding": "VALID", "filter_shape": [2, 3],
      "dimension_numbers": ["NHWC", "HWIO", "NHWC"]}),
]
# fmt: on


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray[Any, Any]:
    if dtype.startswith("int"):
        return rng.integers(-5, 6, shape).astype(dtype)
    x = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def main() -> None:
    from jax import lax  # only here: this script runs under .venv-jax

    rng = np.random.default_rng(1234)
    data: dict[str, np.ndarray[Any, Any]] = {}
    for name, fn, ls, rs, dtype, kwargs in CASES:
        lhs, rhs = _values(rng, ls, dtype), _values(rng, rs, dtype)
        operands = (lhs, rhs) if rs else (lhs,)  # patches take only an lhs
        call = dict(kwargs)
        if isinstance(call["padding"], list):  # conv_transpose wants tuples of pairs
            call["padding"] = tuple(tuple(p) for p in call["padding"])
        out = getattr(lax, fn)(*operands, **call)
        data[f"{name}/lhs"], data[f"{name}/rhs"], data[f"{name}/out"] = lhs, rhs, np.asarray(out)
        data[f"{name}/call"] = np.array(json.dumps({"fn": fn, "kwargs": kwargs}))
    np.savez_compressed(OUT, **data)  # pyright: ignore[reportArgumentType]
    print(f"wrote {len(CASES)} cases to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
