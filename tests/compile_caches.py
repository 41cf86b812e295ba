"""Where the test suite's processes keep what they compile, so that each compiles once.

Numba kernels are cached by the library itself (``__pycache__/*.nbi`` beside the sources,
or ``NUMBA_CACHE_DIR``), and ``tests/warm_kernels.py`` fills that cache before pytest starts.
JAX compiles the network's programs again in every process that uses them (the test
workers, every ``donuts-ai train`` or ``engine`` subprocess, every seat process of an ``az``
agent, every Ray actor, a notebook's kernel): about 5 s a process on a loaded 2-core
machine. :func:`share_jax_compilations` points them all at one persistent compilation cache
(JAX's own, keyed by the program, the JAX version and the machine), through environment
variables, so every process the suite starts inherits it. It sets nothing a user or CI set
already, and changes no result: a program loaded from the cache is the one compiled.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

#: In the repository's ignored pytest cache folder (``make clean`` removes it).
JAX_CACHE = Path(__file__).resolve().parent.parent / ".pytest_cache" / "jax-compilation-cache"


def share_jax_compilations() -> None:
    """Make JAX in this process (if not yet imported) and in every process it starts use
    :data:`JAX_CACHE`, every program cached however quick it was to compile."""
    os.environ.setdefault("JAX_COMPILATION_CACHE_DIR", str(JAX_CACHE))
    os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0")
    os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES", "0")
    if importlib.util.find_spec("filelock") is not None:
        # A size bound turns on JAX's file lock: a process never reads an entry another one
        # is still writing (that would be a warning and a compile, not an error).
        os.environ.setdefault("JAX_COMPILATION_CACHE_MAX_SIZE", str(2 << 30))
    Path(os.environ["JAX_COMPILATION_CACHE_DIR"]).mkdir(parents=True, exist_ok=True)
