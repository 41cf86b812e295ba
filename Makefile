# Two set-up commands for a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test test-busy lint typecheck bench notebooks docs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamp files re-install when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

$(VENV)/.installed-docs: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/donuts-ai demo

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check donuts_ai tests benchmarks examples

test: lint
	$(BIN)/python -m pytest -q

# The time-sensitive tests (agents under time limits, clocks, supervised play) once more
# while CPU burners keep both cores busy: they must pass on a shared machine.
TIME_SENSITIVE := tests/test_agents.py tests/test_tournament.py tests/test_play_server_load.py tests/test_engine_protocol.py
test-busy: $(VENV)/.installed-dev
	$(BIN)/python .ci/with_busy_cores.py -- $(BIN)/python -m pytest -q $(TIME_SENSITIVE)

# mypy, strict, over the whole package (settings in pyproject.toml's [tool.mypy]).
typecheck: $(VENV)/.installed-dev
	$(BIN)/python -m mypy

bench: $(VENV)/.installed
	$(BIN)/python -m benchmarks

# Execute the notebooks with their full settings and store them with their outputs
# (plots, tables), so they read well without being run: a few minutes on 2 cores.
notebooks: $(VENV)/.installed-dev
	$(BIN)/python notebooks/build_notebooks.py

# The documentation site (mkdocs.yml, pages in docs/) into site/, warnings as errors. The
# notebooks are rendered as stored (executed by `make notebooks`), never run here.
docs: $(VENV)/.installed-docs
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict --site-dir site

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis site
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
