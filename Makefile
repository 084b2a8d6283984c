# jax_core developer entry points. `make demo` and `make test` do all set-up on a fresh machine:
# they find a Python >= 3.12 (tools/find_python.sh), build .venv, and pip install -e '.[dev]'.
#
#   make demo         run examples/demo.py, then type-check examples/ (mypy + plugin, pyright; tools/typecheck_examples.py)
#   make test         pytest + typecheck + verifytypes (everything CI runs)
#   make pytest       the test suite; builds .venv-jax (real JAX, the live oracle: tests/oracle/)
#   make conformance  the differential suite's seed-fixed sample, jax_core beside real JAX (tests/conformance/)
#   make conformance-full  every generated call (about 22,000), a table per module
#   make typecheck    mypy and pyright, strict, on jax_core (also: make mypy / make pyright)
#   make verifytypes  pyright --verifytypes jax_core must report 100% completeness
#   make bench        bench/run.py and bench/typing_bench.py; builds .venv-jax (real jax) on first use
#   make bench-api    bench/api_bench.py: every public callable eager/jit/first call vs JAX; exit 1 if
#                     an eager or jit ratio grew 1.3x over bench/api_baseline.json (~8 min)
#   make api-coverage tools/api_coverage.py: jax_core's coverage of JAX 0.12's public names, per module
#   make lint         ruff (not part of test)
#   make venv         only the set-up

.DEFAULT_GOAL := test
MAKEFLAGS += --no-print-directory
export PIP_DISABLE_PIP_VERSION_CHECK := 1
export PIP_NO_INPUT := 1

VENV     := .venv
PY       := $(VENV)/bin/python
STAMP    := $(VENV)/.installed-dev
JAX_VENV := .venv-jax
JAX_PIN  := jax==0.12.0.1
JAX_DEPS := flatbuffers  # what the oracle's jax.export serialization needs
JAX_STAMP := $(JAX_VENV)/.installed-jax-export

# `runs DIR` is "ok" when DIR/bin/python runs and is >= 3.12; a venv that fails it (moved, or its
# base Python removed) is rebuilt. `make_venv DIR` (re)creates DIR with the interpreter found.
runs = $(shell $(1)/bin/python -c 'import sys; assert sys.version_info >= (3, 12)' 2>/dev/null && echo ok)
define make_venv
	@if [ "$(call runs,$(1))" != ok ]; then \
	  py=$$(sh tools/find_python.sh) || exit 1; \
	  echo "==> creating $(1) with $$py"; \
	  rm -rf $(1) && "$$py" -m venv $(1); \
	fi
endef

.PHONY: test demo bench bench-api api-coverage pytest conformance conformance-full typecheck mypy pyright verifytypes imports lint venv clean FORCE

test: imports pytest typecheck verifytypes

venv: $(STAMP)

# Re-install when the metadata changes; FORCE when the venv no longer runs.
$(STAMP): pyproject.toml setup.py $(if $(call runs,$(VENV)),,FORCE)
	$(call make_venv,$(VENV))
	@echo "==> pip install -e '.[dev]' into $(VENV)"
	@$(PY) -m pip install -qq -e '.[dev]'
	@touch $@

$(JAX_STAMP): $(if $(call runs,$(JAX_VENV)),,FORCE)
	$(call make_venv,$(JAX_VENV))
	@echo "==> pip install $(JAX_PIN) $(JAX_DEPS) into $(JAX_VENV)"
	@$(JAX_VENV)/bin/python -m pip install -qq '$(JAX_PIN)' $(JAX_DEPS)
	@touch $@

demo: $(STAMP)
	@$(PY) examples/demo.py
	@$(PY) tools/typecheck_examples.py

# The live comparisons with real JAX (tests/oracle/) run here, so a missing oracle is a failure.
# pytest-xdist runs one worker per core; a file's tests stay together in one worker, so its
# module fixtures and its oracle batch are made once (tests/conftest.py).
pytest: $(STAMP) $(JAX_STAMP)
	@echo "==> pytest"
	@JAX_CORE_ORACLE=require $(PY) -m pytest -n auto --dist loadfile

# The differential conformance suite (tests/conformance/): the sample also runs inside `make pytest`.
conformance: $(STAMP) $(JAX_STAMP)
	@$(PY) -m tests.conformance.suite

conformance-full: $(STAMP) $(JAX_STAMP)
	@$(PY) -m tests.conformance.suite --full

# The layers contract (.importlinter): no runtime import points up the layers of docs/architecture.md.
imports: $(STAMP)
	@echo "==> lint-imports (layers contract)"
	@$(VENV)/bin/lint-imports --no-cache

typecheck: mypy pyright

mypy: $(STAMP)
	@echo "==> mypy (strict) jax_core"
	@$(VENV)/bin/mypy

pyright: $(STAMP)
	@echo "==> pyright (strict) jax_core"
	@$(VENV)/bin/pyright

verifytypes: $(STAMP)
	@echo "==> pyright --verifytypes jax_core"
	@$(PY) tools/check_verifytypes.py

bench-api: $(STAMP) $(JAX_STAMP)
	@$(PY) -m bench.api_bench --check bench/api_baseline.json

bench: bench/run.py bench/typing_bench.py $(STAMP) $(JAX_STAMP)
	@$(PY) bench/run.py
	@echo "==> type-checker speed on the typing corpus (bench/typing_bench.py)"
	@$(PY) bench/typing_bench.py

api-coverage: $(STAMP)
	@$(PY) tools/api_coverage.py

lint: $(STAMP)
	@$(VENV)/bin/ruff check .
	@$(VENV)/bin/ruff format --check .

clean:
	rm -rf build dist *.egg-info .mypy_cache .pytest_cache .ruff_cache .hypothesis

FORCE:
