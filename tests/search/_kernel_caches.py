"""Keep the cached kernels of this folder (the tests' bindings of the library's compiled
solver) in step with the library's kernel sources.

A binding compiles the solver's kernels into its own cache entry, and Numba checks a
cached kernel against its own file only (numba #6845): after an edit of the solver, the
bindings would load the old code from ``__pycache__`` and test it. The library drops its
own stale caches on import (:mod:`donuts_ai._kernel_cache`); this does the same for a
tests folder: its cached kernels go whenever the library's kernel sources differ from
those stamped beside them. A binding module calls :func:`refresh` at import, before its
kernels first run.
"""

from __future__ import annotations

from pathlib import Path

import donuts_ai
from donuts_ai import _kernel_cache

#: The digest of the library's kernel sources the folder's caches were compiled from.
STAMP_NAME = "library_kernel_sources.sha256"


def refresh(folder: Path) -> bool:
    """Remove the cached kernels of ``folder`` when the library's kernel sources changed
    since they were stamped; True when it did."""
    digest = _kernel_cache.kernel_sources_digest(Path(donuts_ai.__file__).parent)
    stamp = folder / "__pycache__" / STAMP_NAME
    if stamp.is_file() and stamp.read_text().strip() == digest:
        return False
    for cache in _kernel_cache.cache_folders(folder):
        if cache.is_dir():
            for path in cache.iterdir():
                if path.suffix in _kernel_cache.CACHE_SUFFIXES:
                    path.unlink(missing_ok=True)
    stamp.parent.mkdir(exist_ok=True)
    stamp.write_text(digest + "\n")
    return True
