"""Keep Numba's on-disk caches of the kernels in step with their sources.

Numba checks a cached kernel against its own source file only (a hash of its text): a
kernel whose file is unchanged is loaded from the cache even after a kernel it calls, or
a constant it reads, in another file has changed (numba issue #6845), and the old code
runs without a word. So at import, before any kernel module is loaded, a digest of the
kernel folders (every ``.py`` file of each folder where a file defines kernels, and of the
folders above it in the package) is compared with the one stamped in the package's
``__pycache__``. When it differs, the cached kernels of those folders are removed wherever
Numba keeps them (beside the sources, under ``NUMBA_CACHE_DIR``, in the user-wide folder:
the places its cache locators compute); they compile again on first use. Then the new
digest is stamped. And Numba's saves into a cache folder are made one process at a time
(a lock file there, on POSIX), data before index (:func:`one_save_at_a_time`: numba
issue #4807, a wrong result or a crash in later processes otherwise).

Left as it is: a process that loaded the kernels before an edit (a notebook's kernel)
can still save caches of the old code afterwards; restart it after editing kernels.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import os
import time
import uuid
import warnings
from pathlib import Path
from typing import Any

#: The digest of the kernel sources the caches were compiled from, in the package's ``__pycache__``.
STAMP_NAME = "kernel_sources.sha256"
#: A source file defines kernels when it mentions this (``@njit``, ``numba.njit``).
KERNEL_MARK = b"njit"
#: Files holding compiled kernels (index and data) in a cache folder.
CACHE_SUFFIXES = (".nbi", ".nbc")
#: The lock file a process holds, in a cache folder, while it saves a kernel there.
SAVE_LOCK_NAME = "numba-save.lock"
#: How long a save waits for that lock, in seconds. A save holds it for milliseconds, but
#: its holder may be stopped (Ctrl-Z, SIGSTOP) or stuck on a network file system: after
#: this wait the save goes ahead unlocked, as Numba's own would, with a warning.
SAVE_LOCK_WAIT = 30.0
#: The longest pause between two tries at the lock, in seconds.
_SAVE_LOCK_POLL = 0.05


def _sources(package_dir: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in sorted(package_dir.rglob("*.py"))}


def _kernel_folders(sources: dict[Path, bytes]) -> set[Path]:
    """The folders holding a source file that defines kernels, and the folders above them
    within the package: a game's kernels read constants from its folder (Donut Boxes'
    engine from ``boxes/moves.py`` and ``boxes/deck.py``), whether or not a file there
    defines kernels itself."""
    folders = {path.parent for path, data in sources.items() if KERNEL_MARK in data}
    if not folders:
        return folders
    top = min(sources, key=lambda path: len(path.parts)).parent  # the package's own folder
    for folder in list(folders):
        while top in folder.parents:
            folder = folder.parent
            folders.add(folder)
    return folders


def _digest(package_dir: Path, sources: dict[Path, bytes], folders: set[Path]) -> str:
    digest = hashlib.sha256()
    for path, data in sources.items():
        if path.parent in folders:
            digest.update(str(path.relative_to(package_dir)).encode() + b"\0" + data + b"\0")
    return digest.hexdigest()


def kernel_sources_digest(package_dir: Path) -> str:
    """SHA-256 over the relative path and bytes of every ``.py`` file in a folder under
    ``package_dir`` holding a file that defines kernels (their constants and helpers
    compile into the kernels too), in path order."""
    sources = _sources(package_dir)
    return _digest(package_dir, sources, _kernel_folders(sources))


def cache_folders(source_folder: Path) -> list[Path]:
    """Where Numba may keep the caches of the kernels defined in ``source_folder``: its
    ``__pycache__``, and the folders Numba's locators name for it under
    ``NUMBA_CACHE_DIR`` and in the user-wide cache (when this Numba still names them so)."""
    folders = [source_folder / "__pycache__"]
    try:
        from numba.core import caching, config
        from numba.misc.appdirs import AppDirs

        subpath = caching.InTreeCacheLocator.get_suitable_cache_subpath(str(source_folder / "any.py"))
        # CACHE_DIR is set at runtime by numba.core.config (from NUMBA_CACHE_DIR): its type information lacks it.
        cache_dir: str = config.CACHE_DIR  # type: ignore[attr-defined]
        if cache_dir:
            folders.append(Path(cache_dir) / subpath)
        folders.append(Path(AppDirs(appname="numba", appauthor=False).user_cache_dir) / subpath)
    except (ImportError, AttributeError, TypeError):  # another Numba: beside the sources only
        pass
    return folders


def refresh(package_dir: Path) -> bool:
    """Remove the cached kernels of ``package_dir`` when its kernel folders changed since
    they were stamped; returns True when it did. Never raises: a cache it cannot clean
    (a read-only install, whose sources change only by reinstalling) is left as it is."""
    try:
        sources = _sources(package_dir)
        folders = _kernel_folders(sources)
        digest = _digest(package_dir, sources, folders)
        stamp = package_dir / "__pycache__" / STAMP_NAME
        if stamp.is_file() and stamp.read_text().strip() == digest:
            return False
        for source_folder in sorted(folders):
            for folder in cache_folders(source_folder):
                if folder.is_dir():
                    for path in folder.iterdir():
                        if path.suffix in CACHE_SUFFIXES:
                            path.unlink(missing_ok=True)
        stamp.parent.mkdir(exist_ok=True)
        temporary = stamp.with_name(f"{STAMP_NAME}.{uuid.uuid4().hex}")
        temporary.write_text(digest + "\n")
        os.replace(temporary, stamp)  # atomic: a process starting now reads the old or the new stamp
        return True
    except (OSError, ValueError):  # ValueError: a stamp that is not text
        return False


#: The lock files this process holds open (at most one a saving thread).
_held: set[int] = set()


def _drop_held_locks() -> None:
    """In a child forked while a thread saved: close its copies of the lock files, which
    would otherwise hold the lock for as long as the child lives (the saving thread is
    not in the child to release it)."""
    for fd in list(_held):
        _held.discard(fd)
        try:
            os.close(fd)
        except OSError:
            pass


os.register_at_fork(after_in_child=_drop_held_locks)


def one_save_at_a_time() -> bool:
    """Make every Numba cache save (of any package's kernels: a user's own compiled game
    run by parallel workers too) hold :data:`SAVE_LOCK_NAME` in its cache folder while it
    reads the index, numbers its data file and writes both, the data before the index
    that names it, so that a process loading meanwhile never finds an entry whose file
    holds other code (module doc). Returns whether saves are locked: not without ``fcntl``
    (Windows), nor where Numba's cache is not the one this was written for."""
    try:
        import fcntl

        from numba.core import caching
    except ImportError:
        return False
    cache_file = caching.IndexDataCacheFile
    save = cache_file.save
    if getattr(save, "one_at_a_time", False):  # already (this module imported again)
        return True
    if not all(hasattr(cache_file, name) for name in ("_load_index", "_save_index", "_save_data", "_data_name")):
        return False
    try:
        if list(inspect.signature(save).parameters) != ["self", "key", "data"]:
            return False
    except (TypeError, ValueError):
        return False

    def _take_lock(fd: int) -> bool:
        """Lock ``fd`` (released as it closes, or as the process dies): whether it was had
        within :data:`SAVE_LOCK_WAIT`. A file system without locks counts as had: Numba's
        own save takes none either."""
        deadline = time.monotonic() + SAVE_LOCK_WAIT
        pause = 0.001
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:  # another process's save
                if time.monotonic() >= deadline:
                    return False
                time.sleep(pause)
                pause = min(2 * pause, _SAVE_LOCK_POLL)
            except OSError:
                return True

    @functools.wraps(save)
    def locked_save(self: Any, key: Any, data: Any) -> None:
        try:
            fd = os.open(os.path.join(self._cache_path, SAVE_LOCK_NAME), os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o666)
        except (OSError, AttributeError, TypeError):  # no lock to be had: Numba's own save
            save(self, key, data)
            return
        _held.add(fd)
        try:
            if not _take_lock(fd):
                warnings.warn(f"donuts_ai: {SAVE_LOCK_NAME} in {self._cache_path} still held after "
                              f"{SAVE_LOCK_WAIT:g} s; this kernel is saved unlocked", RuntimeWarning, stacklevel=2)
            overloads = self._load_index()
            name = overloads.get(key)
            if name is None:  # the first number the index does not use, as Numba numbers
                used, number = set(overloads.values()), 1
                while self._data_name(number) in used:
                    number += 1
                name = self._data_name(number)
            self._save_data(name, data)
            if overloads.get(key) != name:
                # Read again just before it is written, as Numba does: an index entry of a
                # dispatcher that has gone away can be pickled only while the read's objects live.
                overloads = self._load_index()
                overloads[key] = name
                self._save_index(overloads)
        finally:
            _held.discard(fd)
            os.close(fd)

    locked_save.one_at_a_time = True  # type: ignore[attr-defined]
    cache_file.save = locked_save  # type: ignore[method-assign]  # the point: every save locked
    return True


refresh(Path(__file__).parent)  # on import: ``donuts_ai/__init__`` imports this module first
one_save_at_a_time()
