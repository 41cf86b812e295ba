# Two set-up commands for a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test test-busy lint typecheck bench notebooks first-moves book docs clean

# The packages are installed by uv (from PyPI, into the venv), not pip: on a fresh 2-core
# machine the dev extras took 14 s with uv against 60 to 76 s with pip, the same versions.
# uv leaves the byte-code to be compiled at first import (compiling all of it at install took
# 46 s of both cores, for modules the suite mostly never imports), so make's commands write
# it even where the environment says not to (PYTHONDONTWRITEBYTECODE, set on the CI machines):
# otherwise every process the suite starts compiles every module it imports again (about
# 0.3 s for the package alone): pytest took 909 s in a CI run without it, 655 to 754 s with it.
unexport PYTHONDONTWRITEBYTECODE
# A machine where uv cannot be had installs with pip instead (the same packages, slower).
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv || echo "make: uv could not be installed; pip installs instead"
INSTALL = $(BIN)/uv pip install --quiet --python $(BIN)/python $(1) || $(BIN)/python -m pip install --quiet $(1)

# Stamp files re-install when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(call INSTALL,-e .)
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(call INSTALL,-e '.[dev]')
	touch $@ $(VENV)/.installed

$(VENV)/.installed-docs: pyproject.toml | $(BIN)/python
	$(call INSTALL,-e '.[docs]')
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/donuts-ai demo

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check donuts_ai tests benchmarks examples

# One pytest worker more than cores (pytest-xdist), a test file to a worker: the suite is
# CPU-bound (compiling kernels, playing games, seat processes), but its tests also wait (on seat
# processes, Ray nodes, subprocesses), and the extra worker takes that time; a file's module
# fixtures are built once. The tests must pass while other processes keep every core busy,
# so the workers side by side are one more such load.
# First the kernels are compiled into their on-disk caches, two processes at once
# (tests/warm_kernels.py says why): with cold caches every process the suite starts would
# compile them again for itself. It checks nothing, so its failure does not stop the tests.
# The time-sensitive tests (marker `time_sensitive`) run once, in a process of their own beside
# the workers: the rest of the suite is their load, and lowest-priority burners fill any
# time it leaves idle (their log is printed after the others'; `make test-busy` runs them under
# full-priority burners instead, the harder condition, and is not part of `make test`).
# The ten slowest tests are printed at the end, so that every CI log shows what the suite costs.
# What a test may cost, the compile caches and how to measure: tests/README.md.
TIME_SENSITIVE_LOG := .pytest-time-sensitive.log
WORKERS := $$(( $$(nproc) + 1 ))
test: lint
	$(BIN)/python tests/warm_kernels.py engine & $(BIN)/python tests/warm_kernels.py rest & wait
	status=0; \
	$(BIN)/python .ci/with_busy_cores.py --fill-idle -- $(BIN)/python -m pytest -q -p no:cacheprovider -m time_sensitive \
		$(TIME_SENSITIVE_FILES) > $(TIME_SENSITIVE_LOG) 2>&1 & timed=$$!; \
	$(BIN)/python -m pytest -q -n $(WORKERS) --dist loadfile --durations=10 -m "not time_sensitive" || status=$$?; \
	wait $$timed || status=$$?; \
	echo "--- the time-sensitive tests, beside the others:"; cat $(TIME_SENSITIVE_LOG); \
	exit $$status

# The time-sensitive tests (agents under time limits, clocks, supervised play: pytest marker
# `time_sensitive`) while CPU burners keep both cores busy: they must pass on a shared machine.
# Only their files are collected.
TIME_SENSITIVE_FILES := tests/donuts/test_agents.py tests/tournament/test_tournament.py tests/play/test_server_load.py \
	tests/tournament/test_engine_protocol.py tests/tournament/test_shutdown.py
test-busy: $(VENV)/.installed-dev
	$(BIN)/python .ci/with_busy_cores.py -- $(BIN)/python -m pytest -q -m time_sensitive $(TIME_SENSITIVE_FILES)

# mypy, strict, over the whole package (settings in pyproject.toml's [tool.mypy]).
typecheck: $(VENV)/.installed-dev
	$(BIN)/python -m mypy

bench: $(VENV)/.installed
	$(BIN)/python -m donuts_ai.bench

# Execute the notebooks with their full settings and store them with their outputs
# (plots, tables), so they read well without being run: a few minutes on 2 cores.
notebooks: $(VENV)/.installed-dev
	$(BIN)/python notebooks/build_notebooks.py

# Every first move's value of every tile-arrangement class, under the three rules variants
# the opening book serves (43.1% done; about 1.3 core-days left at today's speed): each study appends
# a class as it is solved and resumes where it stopped, so run it in pieces, in the
# background, for as long as you like (`timeout 8h make first-moves`; one process a variant,
# at the lowest priority). `make book` then rebuilds the shipped book from every study it is
# made of (donuts_ai.study.BOOK_STUDIES).
# Each study searches faster with a smaller table than 2**20 entries: the official and
# 18-donut classes with 2**16 (23% and 18% less time on 12 and 10 classes, the others running
# beside them), the single-insertion classes, larger searches, with 2**17 (14% less time on 20
# classes drawn at random from those solved, one study at a time; 2**16 and 2**18 were close).
# A resume that changes --tt-bits records it in the file (a "retuned" line): answers do not
# depend on it.
# Linux with autogroup (/proc/sys/kernel/sched_autogroup_enabled = 1) gives each session an
# equal share of the cores whatever the nice values: started from a session of its own
# (setsid, another terminal), the studies take half of them; `echo 19 > /proc/PID/autogroup`
# (PID: any of the three) puts their session last. Measured here: the suite took 18 min
# beside them, 11 min alone.
FIRST_MOVES := --arrangements all --first-moves --workers 1 --quiet --resume
first-moves: $(VENV)/.installed
	nice -n 19 $(BIN)/donuts-ai study first-player $(FIRST_MOVES) --tt-bits 16 --out notebooks/study_first_moves_all.jsonl & \
	nice -n 19 $(BIN)/donuts-ai study first-player $(FIRST_MOVES) --tt-bits 16 --donuts 18 --out notebooks/study_first_moves_all_donuts18.jsonl & \
	nice -n 19 $(BIN)/donuts-ai study first-player $(FIRST_MOVES) --tt-bits 17 --insertion single --out notebooks/study_first_moves_all_single.jsonl & \
	wait

book: $(VENV)/.installed
	rm -f donuts_ai/donuts/data/book.npz
	$(BIN)/donuts-ai book build $$($(BIN)/python -c "from donuts_ai.study import BOOK_STUDIES; print(*('notebooks/' + s for s in BOOK_STUDIES))") --out donuts_ai/donuts/data/book.npz

# The documentation site (mkdocs.yml, pages in docs/) into site/, warnings as errors. The
# notebooks are rendered as stored (executed by `make notebooks`), never run here.
docs: $(VENV)/.installed-docs
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict --site-dir site

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis site
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
