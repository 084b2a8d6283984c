"""``x.at[i].set(v)`` at integer indices (static or traced) with whole slices elsewhere lowers to
one window scatter, as JAX lowers it: the same StableHLO text as JAX's (so XLA fuses the two
programs alike and the numbers agree bit for bit on every CPU), checked live against real JAX."""

from __future__ import annotations

import re

from tests.sharding._programs import run_both

PROGRAM = """
import re

def text(f, *args):
    lowered = jax.jit(f).lower(*args).as_text()
    body = lowered[lowered.index("func.func public @main"):]
    return re.sub(r"loc\\\\([^)]*\\\\)", "", body)

x7 = np.zeros(7, np.float32)
h = np.zeros((6, 7), np.float32)
t = np.zeros((3, 4, 5), np.int32)

@case
def traced_index_set():
    return text(lambda x, k, v: x.at[k].set(v), x7, np.int32(2), np.float32(1))

@case
def static_negative_index_add():
    return text(lambda x, v: x.at[-2].add(v), x7, np.float32(1))

@case
def row_of_a_matrix():
    return text(lambda m, k, r: m.at[k, :].set(r), h, np.int32(2), np.zeros(7, np.float32))

@case
def two_indices_one_window():
    return text(lambda a, i, v: a.at[i, 1].max(v), t, np.int32(-1), np.int32(3))

@case
def broadcast_value_multiply():
    return text(lambda m, k: m.at[k].multiply(2.0), h, np.int32(0))
"""


def test_update_at_scalar_indices_lowers_as_jax() -> None:
    ours, theirs = run_both(PROGRAM)  # (the runner builds an 8-device mesh; these use one device)
    assert ours.keys() == theirs.keys()
    for name in ours:
        assert "ok" in ours[name], ours[name]
        assert ours[name] == theirs[name], f"{name}:\njax_core:\n{ours[name]['ok']}\nJAX:\n{theirs[name]['ok']}"
        # One window scatter, no flattening of the operand.
        assert len(re.findall(r'"stablehlo.scatter"', ours[name]["ok"])) == 1
        assert "gather" not in ours[name]["ok"]
