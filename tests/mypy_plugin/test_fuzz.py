"""Fuzzing the mypy plugin: hypothesis writes odd programs using the transformations
(tests/mypy_plugin/_fuzz_gen.py); mypy checks them with the plugin on and its exceptions raised.

Per batch of generated modules (one mypy process per run, never one per module):

1. a cold run (stdlib, NumPy and jax_core come from a cache made once per session; the
   generated modules are new) must end normally: exit status 0 or 1, no internal error, no
   traceback;
2. incremental: after editing two modules (one keeps its interface, one changes it), a warm run
   with the first run's cache must report exactly what a cold run of the edited batch reports:
   the plugin keeps its data in ``Instance.extra_attrs``, which travels through the cache;
3. parallel: ``--num-workers 2`` must report exactly what the serial cold run reports.

Deterministic by default (hypothesis derandomized, no example database). Environment:
``JAX_CORE_FUZZ_BATCHES`` (default 2), ``JAX_CORE_FUZZ_MODULES`` (modules per batch, default 40),
``JAX_CORE_FUZZ_SEED`` (an int: a different, still reproducible, set of programs),
``JAX_CORE_FUZZ_MODULE_SECONDS`` (the most mypy may spend on one generated module, default 20;
past it the batch is checked again without the plugin, and fails if the plugin doubled the time), ``JAX_CORE_FUZZ_PARALLEL_ALL=1`` (the parallel check on
every batch, not only the first). A failing
batch is kept under pytest's temporary directory; the message names it and the mypy command.
Generator branches that reach a still open plugin bug are left out (``_fuzz_gen.SKIPPED``); each
shows as a skipped ``test_generator_branches_left_out`` with the bug's name.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

from tests.mypy_plugin._fuzz_gen import BASE_MODULE, SKIPPED, Module
from tests.mypy_plugin._fuzz_run import (
    MypyRun,
    copy_cache,
    run_mypy,
    snapshot,
    supports_num_workers,
    write_config,
)
from tests.mypy_plugin._fuzz_snippets import module

# Derandomized, every run checks the same programs: two batches (80 programs, the first also
# checked in parallel) in the suite; more batches, or another seed, for a fuzzing session.
BATCHES = int(os.environ.get("JAX_CORE_FUZZ_BATCHES", "2"))
MODULES = int(os.environ.get("JAX_CORE_FUZZ_MODULES", "40"))
SEED = os.environ.get("JAX_CORE_FUZZ_SEED")
# A generated module mypy needs longer than this for (plugin on) fails the batch: the plugin
# must not make checking pathologically slow (plain mypy takes well under a second each).
MODULE_SECONDS = float(os.environ.get("JAX_CORE_FUZZ_MODULE_SECONDS", "20"))
BASE = "fuzz_base"


def _generate(n: int) -> list[Module]:
    """``n`` modules drawn by hypothesis (generation only: mypy runs once per batch, later)."""
    out: list[Module] = []

    @settings(
        max_examples=n,
        derandomize=SEED is None,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(module())
    def collect(m: Module) -> None:
        out.append(m)

    if SEED is not None:
        collect = seed(int(SEED))(collect)
    collect()
    return out


class Workspace:
    """The session's config and base cache, and the generated modules split into batches."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.src = snapshot(root / "src")
        self.config = write_config(root, self.src)
        self.config_without_plugin = write_config(root, self.src, plugin=False)
        base_dir = root / "base"
        base_dir.mkdir()
        (base_dir / f"{BASE}.py").write_text(BASE_MODULE)
        self.base_cache = root / "base-cache"
        run = self.mypy(base_dir, [f"{BASE}.py"], self.base_cache)
        if run.problems() or run.returncode != 0:
            pytest.fail(f"the base module does not check cleanly: {run.problems()}\n{run.report()}")
        self.modules = _generate(BATCHES * MODULES)

    def mypy(
        self,
        cwd: Path,
        files: list[str],
        cache: Path,
        workers: int | None = None,
        hash_seed: int = 0,
        plugin: bool = True,
    ) -> MypyRun:
        config = self.config if plugin else self.config_without_plugin
        return run_mypy(
            cwd, config, files, cache, workers=workers, hash_seed=hash_seed, src=self.src
        )

    def write_batch(self, index: int) -> tuple[Path, list[str]]:
        """Batch ``index`` as files ``fuzz_b<index>_m<k>.py`` (and the base module) in a new directory."""
        d = self.root / f"batch{index}"
        d.mkdir()
        mods = self.modules[index * MODULES : (index + 1) * MODULES]
        names = [f"fuzz_b{index}_m{k}" for k in range(len(mods))]
        (d / f"{BASE}.py").write_text(BASE_MODULE)
        for k, (m, name) in enumerate(zip(mods, names, strict=True)):
            prev = names[k - 1] if k > 0 else BASE
            nxt = names[k + 1] if k + 1 < len(names) else BASE
            (d / f"{name}.py").write_text(m.source(prev, nxt))
        return d, [f"{BASE}.py", *(f"{n}.py" for n in names)]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    yield Workspace(tmp_path_factory.mktemp("plugin-fuzz"))


def _check(run: MypyRun, what: str, where: Path) -> None:
    if problems := run.problems():
        pytest.fail(
            f"{what}: mypy with the plugin crashed ({'; '.join(problems)}); the batch is in {where}\n"
            f"{run.report()}",
            pytrace=False,
        )


def _same(a: MypyRun, b: MypyRun, what: str, where: Path) -> None:
    if a.messages != b.messages:
        only_a = sorted((Counter(a.messages) - Counter(b.messages)).elements())
        only_b = sorted((Counter(b.messages) - Counter(a.messages)).elements())
        pytest.fail(
            f"{what}; batch in {where}\nonly in the first run:\n  "
            + "\n  ".join(only_a[:30])
            + "\nonly in the second run:\n  "
            + "\n  ".join(only_b[:30]),
            pytrace=False,
        )


# Appended by the incremental check: uses of the previous module's exports without new names
# (the module's interface is unchanged, so modules importing it replay their cached messages) ...
EDIT_SAME_INTERFACE = """
prev.out0(XS, 1)
prev.out1([1], {"a": XS})
reveal_type(prev.out0)
jax.jit(prev.out0, static_argnums=(0, 9))
jax.grad(prev.out1, argnums=(0, 1))(XS, XS)
"""
# ... and a new exported name (modules importing it are checked again, against the cache).
EDIT_NEW_NAME = """
edited_marker = partial(jax.jit, static_argnums=1)(prev.out1)
out0 = jax.vmap(prev.out0, in_axes=(0, None))
"""


@pytest.mark.parametrize("index", range(BATCHES))
def test_plugin_fuzz_batch(workspace: Workspace, index: int) -> None:
    d, files = workspace.write_batch(index)
    cache = copy_cache(workspace.base_cache, d.parent / f"cache{index}-warm")
    first = workspace.mypy(d, files, cache)
    _check(first, "cold run", d)
    assert "[jax-" in first.stdout, f"no message of the plugin: is it enabled?\n{first.report()}"
    slow = {
        m: t
        for m, t in first.module_seconds.items()
        if t > MODULE_SECONDS and m.startswith("fuzz_")
    }
    if slow:  # mypy itself is slow on some programs: blame the plugin only for its own share
        plain = workspace.mypy(d, files, d.parent / f"cache{index}-no-plugin", plugin=False)
        slow = {m: t for m, t in slow.items() if t > 2 * plain.module_seconds.get(m, 0.0) + 1}
    if slow:
        pytest.fail(
            f"mypy with the plugin took over {MODULE_SECONDS:.0f} s, and over twice as long as "
            f"without the plugin, on {sorted(slow.items())}; the batch is in {d}",
            pytrace=False,
        )

    # Incremental: edit two modules, re-run on the warm cache, compare with a cold run.
    mods = files[1:]
    for name, edit in (
        (mods[len(mods) // 2], EDIT_SAME_INTERFACE),
        (mods[len(mods) // 4], EDIT_NEW_NAME),
    ):
        path = d / name
        path.write_text(path.read_text() + edit)
    warm = workspace.mypy(d, files, cache, hash_seed=1)
    _check(warm, "warm run after an edit", d)
    cold_cache = copy_cache(workspace.base_cache, d.parent / f"cache{index}-cold")
    cold = workspace.mypy(d, files, cold_cache, hash_seed=2)
    _check(cold, "cold run after an edit", d)
    _same(warm, cold, "a warm (incremental) run reports differently from a cold run", d)

    if index == 0 or os.environ.get("JAX_CORE_FUZZ_PARALLEL_ALL"):
        if not supports_num_workers():
            pytest.skip("this mypy has no --num-workers")
        par_cache = copy_cache(workspace.base_cache, d.parent / f"cache{index}-par")
        par = workspace.mypy(d, files, par_cache, workers=2, hash_seed=3)
        _check(par, "parallel run (--num-workers 2)", d)
        _same(
            par, cold, "a parallel run (--num-workers 2) reports differently from a serial run", d
        )


@pytest.mark.parametrize("branch", sorted(SKIPPED) or ["(none)"])
def test_generator_branches_left_out(branch: str) -> None:
    """Each generator branch left out while a plugin bug is open shows as a skip, with the bug."""
    if branch in SKIPPED:
        pytest.skip(f"generator branch {branch!r} left out: {SKIPPED[branch]}")
