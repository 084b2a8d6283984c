"""PRNG keys: a Python or NumPy scalar is not a key (JAX raises TypeError at run time: key data
must be an array with at least one dimension), so the key parameters reject it statically."""

import numpy as np

from jax_core import random

key = random.PRNGKey(0)
typed_key = random.key(0)
raw = np.array([0, 1], dtype=np.uint32)

random.normal(key, (3,))
random.normal(typed_key, (3,))
random.normal(raw, (3,))  # raw key data as a NumPy array is accepted, as at run time
random.split(random.fold_in(key, 3), 4)

random.normal(0, (3,))  # E[mypy,pyright]: "normal"  # E[pyrefly]: [bad-argument-type]  # E[ty]: [invalid-argument-type]
random.uniform(np.uint32(7), (2,))  # E[mypy,pyright]: "uniform"  # E[pyrefly]: [bad-argument-type]  # E[ty]: [invalid-argument-type]
random.split(42)  # E[mypy,pyright]: "split"  # E[pyrefly]: [bad-argument-type]  # E[ty]: [invalid-argument-type]
