"""Keep Numba's on-disk cache of the kernels in step with their sources.

Numba checks a cached kernel against its own source file only: a kernel whose file is
unchanged is loaded from the cache even after a kernel it calls, in another file, has
changed (numba issue #6845), and the old code runs without a word. So at import, before
any kernel is loaded, a digest of every source file that defines kernels is compared with
the one stamped beside the caches; when it differs, the package's cached kernels are
removed (they compile again on first use) and the new digest is stamped.

Covers the caches Numba keeps beside the sources (``__pycache__``, the default) and under
``NUMBA_CACHE_DIR``; a cache Numba had to put in the user-wide folder (read-only
installs, where the sources do not change anyway) is left alone.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

#: Files holding compiled kernels (index and data) in a cache folder.
CACHE_SUFFIXES = (".nbi", ".nbc")
#: The digest of the kernel sources the caches were compiled from, in the package's ``__pycache__``.
STAMP_NAME = "kernel_sources.sha256"
#: A source file defines kernels when it mentions this (``@njit``, ``numba.njit``).
KERNEL_MARK = b"njit"


def kernel_sources_digest(package_dir: Path) -> str:
    """SHA-256 over the relative path and bytes of every ``.py`` file under
    ``package_dir`` that defines kernels, in path order."""
    digest = hashlib.sha256()
    for path in sorted(package_dir.rglob("*.py")):
        data = path.read_bytes()
        if KERNEL_MARK in data:
            digest.update(str(path.relative_to(package_dir)).encode() + b"\0" + data + b"\0")
    return digest.hexdigest()


def _cache_dirs(package_dir: Path) -> list[Path]:
    dirs = [p for p in package_dir.rglob("__pycache__") if p.is_dir()]
    user_dir = os.environ.get("NUMBA_CACHE_DIR")
    if user_dir:
        # Numba mirrors the source folder's absolute path under NUMBA_CACHE_DIR.
        mirror = Path(user_dir) / package_dir.resolve().relative_to(package_dir.resolve().anchor)
        if mirror.is_dir():
            dirs += [mirror, *(p for p in mirror.rglob("*") if p.is_dir())]
    return dirs


def refresh(package_dir: Path) -> bool:
    """Remove the cached kernels under ``package_dir`` when its kernel sources changed
    since they were stamped; returns True when it removed them. Never raises on a
    read-only or vanishing file: a cache it cannot clean is left as it is."""
    try:
        digest = kernel_sources_digest(package_dir)
        stamp = package_dir / "__pycache__" / STAMP_NAME
        if stamp.is_file() and stamp.read_text().strip() == digest:
            return False
        for folder in _cache_dirs(package_dir):
            for path in folder.iterdir():
                if path.suffix in CACHE_SUFFIXES:
                    path.unlink(missing_ok=True)
        stamp.parent.mkdir(exist_ok=True)
        temporary = stamp.with_name(f"{STAMP_NAME}.{os.getpid()}")
        temporary.write_text(digest + "\n")
        os.replace(temporary, stamp)  # atomic: a process starting now reads the old or the new stamp
        return True
    except OSError:
        return False


refresh(Path(__file__).parent)  # on import: ``donuts_ai/__init__`` imports this module first
