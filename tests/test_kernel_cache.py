"""The stale-kernel guard: Numba checks a cached kernel against its own file only."""

import ast
import os
import subprocess
import sys
from pathlib import Path

from donuts_ai import _kernel_cache
from donuts_ai._kernel_cache import STAMP_NAME, kernel_sources_digest, refresh

CALLER = "from numba import njit\nfrom .callee import g\n\n@njit(cache=True)\ndef f(x):\n    return g(x)\n"
CALLEE = "from numba import njit\nfrom .constants import STEP\n\n@njit(cache=True)\ndef g(x):\n    return x + STEP\n"


def _package(root: Path) -> Path:
    pkg = root / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "caller.py").write_text(CALLER)
    (pkg / "callee.py").write_text(CALLEE)
    (pkg / "constants.py").write_text("STEP = 1\n")  # no kernels, but compiled into g
    (root / "elsewhere").mkdir()
    (root / "elsewhere" / "cli.py").write_text("print('no kernels in this folder')\n")
    return pkg


def _cached(pkg: Path) -> None:
    (pkg / "__pycache__").mkdir(exist_ok=True)
    for name in ("caller.f-4.py311.nbi", "caller.f-4.py311.1.nbc", "callee.g-4.py311.nbi", "caller.cpython-311.pyc"):
        (pkg / "__pycache__" / name).write_bytes(b"cached")


def _numba_files(pkg: Path) -> list[str]:
    return sorted(p.name for p in (pkg / "__pycache__").iterdir() if p.suffix in (".nbi", ".nbc"))


def test_drops_the_cached_kernels_only_when_the_kernel_folders_change(tmp_path):
    pkg = _package(tmp_path)
    _cached(pkg)
    assert refresh(pkg)  # no stamp yet: nothing is known about these caches
    assert _numba_files(pkg) == []
    assert (pkg / "__pycache__" / "caller.cpython-311.pyc").exists()  # only Numba's files go
    assert (pkg / "__pycache__" / STAMP_NAME).read_text().strip() == kernel_sources_digest(pkg)

    _cached(pkg)
    assert not refresh(pkg)  # unchanged: the caches stay
    assert len(_numba_files(pkg)) == 3

    digest = kernel_sources_digest(pkg)
    (tmp_path / "elsewhere" / "cli.py").write_text("print('changed')\n")
    assert kernel_sources_digest(pkg) == digest  # outside the package: no effect

    (pkg / "constants.py").write_text("STEP = 2\n")  # no kernels in it, but in a kernel folder
    assert refresh(pkg)
    assert _numba_files(pkg) == []


def test_caches_under_numba_cache_dir_are_dropped_too(tmp_path, monkeypatch):
    from numba.core import config

    from donuts_ai._kernel_cache import cache_folders

    pkg = _package(tmp_path)
    refresh(pkg)
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "numba_cache"))
    folders = cache_folders(pkg)
    assert folders[0] == pkg / "__pycache__"
    user_folder = next(f for f in folders if (tmp_path / "numba_cache") in f.parents)
    user_folder.mkdir(parents=True)
    (user_folder / "caller.f-4.py311.nbi").write_bytes(b"cached")
    (pkg / "callee.py").write_text(CALLEE.replace("x + STEP", "x - STEP"))
    assert refresh(pkg)
    assert not (user_folder / "caller.f-4.py311.nbi").exists()


def test_a_changed_constant_reaches_a_cached_caller(tmp_path):
    """End to end with Numba's own cache: ``f`` (unchanged file) calls ``g``, which reads
    a constant from another file. After the constant changes, ``f`` must see it."""
    pkg = _package(tmp_path)
    run = (
        "import sys; from pathlib import Path\n"
        f"sys.path.insert(0, {str(tmp_path)!r})\n"
        "from donuts_ai._kernel_cache import refresh\n"
        f"refresh(Path({str(pkg)!r}))\n"
        "from pkg.caller import f\n"
        "print(f(10))\n"
    )
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("NUMBA_CACHE_DIR", None)

    def f_of_10(cache_dir: Path | None = None) -> str:
        extra = {} if cache_dir is None else {"NUMBA_CACHE_DIR": str(cache_dir)}
        return subprocess.run([sys.executable, "-c", run], capture_output=True, text=True, env=env | extra,
                              check=True).stdout.strip()

    assert f_of_10() == "11"
    assert list((pkg / "__pycache__").glob("caller.f-*.nbi"))  # f was cached
    (pkg / "constants.py").write_text("STEP = 2\n")
    assert f_of_10() == "12"
    # The same under NUMBA_CACHE_DIR.
    assert f_of_10(tmp_path / "numba_cache") == "12"
    (pkg / "constants.py").write_text("STEP = 3\n")
    assert f_of_10(tmp_path / "numba_cache") == "13"


def test_the_package_is_stamped_on_import():
    pkg = Path(_kernel_cache.__file__).parent
    stamp = pkg / "__pycache__" / STAMP_NAME
    assert stamp.read_text().strip() == kernel_sources_digest(pkg)


def test_nested_kernel_folders_are_guarded_each(tmp_path):
    # A game's folder inside the package, with its engine a folder deeper: a kernel there that
    # reads a constant from its game's folder or from the package root sees the change.
    pkg = _package(tmp_path)
    engine = pkg / "game" / "_kernels"
    engine.mkdir(parents=True)
    for folder in (pkg / "game", engine):
        (folder / "__init__.py").write_text("")
    (pkg / "game" / "tables.py").write_text("SIZE = 6\n")  # no kernels, but its folder has one
    (pkg / "game" / "kernels.py").write_text("from numba import njit\n")
    (engine / "core.py").write_text("from numba import njit\nfrom ..tables import SIZE\nfrom ...constants import STEP\n\n"
                                    "@njit(cache=True)\ndef h(x):\n    return x * SIZE + STEP\n")
    assert {p.relative_to(pkg) for p in _kernel_cache._kernel_folders(_kernel_cache._sources(pkg))} == {
        Path("."), Path("game"), Path("game/_kernels")}
    refresh(pkg)
    (engine / "__pycache__").mkdir()
    (engine / "__pycache__" / "core.h-4.py311.nbi").write_bytes(b"cached")
    assert not refresh(pkg)
    (pkg / "game" / "tables.py").write_text("SIZE = 7\n")
    assert refresh(pkg)
    assert not (engine / "__pycache__" / "core.h-4.py311.nbi").exists()
    (engine / "__pycache__" / "core.h-4.py311.nbi").write_bytes(b"cached")
    refresh(pkg)
    (pkg / "constants.py").write_text("STEP = 5\n")  # the package root's folder holds kernels too
    assert refresh(pkg)
    assert not (engine / "__pycache__" / "core.h-4.py311.nbi").exists()


def _defines_kernels(path: Path) -> bool:
    """Whether a source file decorates a function with ``njit`` (``@njit``, ``@njit(...)``)."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                if "njit" in ast.unparse(target):
                    return True
    return False


def test_every_module_a_kernel_imports_is_in_a_guarded_folder():
    # The guard digests whole folders that hold kernels: a constant or a helper compiled into a
    # kernel from a folder without one would change unseen. Every module of the package that a
    # kernel module imports (the game folders, the shared Numba helpers at the root) must lie
    # in such a folder.
    pkg = Path(_kernel_cache.__file__).parent
    folders = _kernel_cache._kernel_folders(_kernel_cache._sources(pkg))
    outside = []
    for path in sorted(pkg.rglob("*.py")):
        if not _defines_kernels(path):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = path.parent
                for _ in range(node.level - 1):
                    base = base.parent
                target = base.joinpath(*node.module.split(".")) if node.module else base
                for module in (target, *(target / a.name for a in node.names)):  # the module, or its submodules
                    source = module / "__init__.py" if module.is_dir() else module.with_suffix(".py")
                    if source.is_file() and source.parent not in folders:
                        outside.append(f"{path.relative_to(pkg)} imports {source.relative_to(pkg)}")
    assert not outside, "\n".join(outside)


def test_only_folders_that_define_kernels_are_guarded():
    # A folder is guarded when a file mentions njit: a mention in a comment alone would make
    # every edit there drop every cached kernel (the benchmarks' code, say, which the
    # yardstick's kernel was moved out of for that reason). The guarded folders are those
    # whose files define kernels, and the folders above them.
    pkg = Path(_kernel_cache.__file__).parent
    expected = set()
    for path in pkg.rglob("*.py"):
        if _defines_kernels(path):
            folder = path.parent
            expected.add(folder)
            while folder != pkg:
                folder = folder.parent
                expected.add(folder)
    assert _kernel_cache._kernel_folders(_kernel_cache._sources(pkg)) == expected
    assert pkg / "bench" not in expected


#: The kernel both race tests cache, in a module of the test's own folder.
PLUS_ONE = "from numba import njit\n\n\n@njit(cache=True)\ndef f(x):\n    return x + 1\n"
#: What each race script starts with: its folder and role, the library's lock on Numba's
#: cache saves, and ``wait_for`` (a file another process creates, at most ``seconds``: a
#: process that died leaves the other to go on alone).
RACE_PRELUDE = """
import os, sys, time
folder, role = sys.argv[1], sys.argv[2]
sys.path.insert(0, folder)
import donuts_ai  # noqa: F401  (its lock on Numba's cache saves)
from numba.core import caching


def wait_for(path, seconds):
    deadline = time.monotonic() + seconds
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.005)
"""

SAVE_RACE = RACE_PRELUDE + """
if role != "check":
    # Both processes reach their save together; then A writes its index 0.2 s later and its
    # data a second after that, B its index 0.5 s later and its data at once. Unlocked, both
    # read the index before either wrote it, both number their data file 1, and the index
    # names B's signature over A's code.
    index_delay, data_delay = {"A": (0.2, 1.0), "B": (0.5, 0.0)}[role]
    save_overload = caching.Cache.save_overload
    save_index, save_data = caching.IndexDataCacheFile._save_index, caching.IndexDataCacheFile._save_data

    def meet_then_save(self, sig, data):
        open(os.path.join(folder, "at-save-" + role), "w").close()
        wait_for(os.path.join(folder, "at-save-" + ("B" if role == "A" else "A")), 60)
        save_overload(self, sig, data)

    def late_index(self, overloads):
        time.sleep(index_delay)
        save_index(self, overloads)

    def late_data(self, name, data):
        time.sleep(data_delay)
        save_data(self, name, data)

    caching.Cache.save_overload = meet_then_save
    caching.IndexDataCacheFile._save_index = late_index
    caching.IndexDataCacheFile._save_data = late_data

import kernel_module

print({"A": lambda: kernel_module.f(1), "B": lambda: kernel_module.f(1.5),
       "check": lambda: (kernel_module.f(1), kernel_module.f(1.5))}[role]())
"""


def _printed_together(script: list[str], roles: tuple[str, str]) -> list[str]:
    """What ``script`` printed in two processes run at once, one a role; neither outlives the call."""
    procs = [subprocess.Popen([*script, role], stdout=subprocess.PIPE, text=True) for role in roles]
    try:
        return [proc.communicate(timeout=120)[0].strip() for proc in procs]
    finally:
        for proc in procs:
            proc.kill()


def test_two_processes_saving_two_signatures_of_a_kernel_at_once_keep_both(tmp_path):
    # Numba numbers a new signature's data file from the index it read: two processes saving at
    # once both take number 1, and the index can end up naming one signature over the other's
    # code (numba issue #4807; unlocked, this test's check printed "2 2"). Saves hold a lock.
    (tmp_path / "kernel_module.py").write_text(PLUS_ONE)
    script = [sys.executable, "-c", SAVE_RACE, str(tmp_path)]
    assert _printed_together(script, ("A", "B")) == ["2", "2.5"]
    assert subprocess.run([*script, "check"], capture_output=True, text=True, timeout=120).stdout.strip() == "(2, 2.5)"
    assert len(list((tmp_path / "__pycache__").glob("kernel_module.f-*.nbc"))) == 2  # one data file each


STALE_LOAD = RACE_PRELUDE + """
saving, loaded = os.path.join(folder, "A-saving"), os.path.join(folder, "B-loaded")
if role == "A":  # at its data file: says so, and holds on until B has loaded (2 s at most)
    save_data = caching.IndexDataCacheFile._save_data

    def waiting_data(self, name, data):
        open(saving, "a").close()
        wait_for(loaded, 2)
        save_data(self, name, data)

    caching.IndexDataCacheFile._save_data = waiting_data
if role == "B":  # reads the index once A is at its data file, and says when it has loaded
    load_index, load_data = caching.IndexDataCacheFile._load_index, caching.IndexDataCacheFile._load_data

    def late_index(self):
        wait_for(saving, 60)
        return load_index(self)

    def telling_data(self, name):
        data = load_data(self, name)
        open(loaded, "a").close()
        return data

    caching.IndexDataCacheFile._load_index = late_index
    caching.IndexDataCacheFile._load_data = telling_data
import kernel_module

print(kernel_module.f(1.5) if role == "float" else kernel_module.f(1))
"""


def test_a_process_loading_while_another_saves_never_gets_other_code(tmp_path):
    # The kernel is cached for floats, then its file changes (its old data file stays, numbered
    # 1). A saves it for ints as number 1 while B loads: Numba wrote the index before the data,
    # so B could read A's entry and load the old float code behind it (unlocked, B printed
    # 2.0). Locked, A writes its data first: B reads the old index, compiles, and waits its turn.
    (tmp_path / "kernel_module.py").write_text(PLUS_ONE)
    script = [sys.executable, "-c", STALE_LOAD, str(tmp_path)]
    assert subprocess.run([*script, "float"], capture_output=True, text=True, timeout=120).stdout.strip() == "2.5"
    (tmp_path / "kernel_module.py").write_text(PLUS_ONE + "# edited\n")
    assert _printed_together(script, ("A", "B")) == ["2", "2"]


HELD_LOCK = RACE_PRELUDE + """
import warnings
from donuts_ai import _kernel_cache
_kernel_cache.SAVE_LOCK_WAIT = 0.3
import kernel_module

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(kernel_module.f(1), [str(w.message).split(";")[1].strip() for w in caught
                               if issubclass(w.category, RuntimeWarning) and "numba-save.lock" in str(w.message)])
"""


def test_a_save_whose_lock_another_process_keeps_goes_ahead_after_the_wait(tmp_path):
    # A holder stopped mid-save (Ctrl-Z) keeps the lock: the other processes' saves wait
    # SAVE_LOCK_WAIT (here 0.3 s), then save unlocked and say so, rather than hang.
    import fcntl  # (POSIX: the lock's own module)

    (tmp_path / "kernel_module.py").write_text(PLUS_ONE)
    (tmp_path / "__pycache__").mkdir()
    fd = os.open(tmp_path / "__pycache__" / _kernel_cache.SAVE_LOCK_NAME, os.O_RDONLY | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        done = subprocess.run([sys.executable, "-c", HELD_LOCK, str(tmp_path), "-"], capture_output=True, text=True, timeout=120)
    finally:
        os.close(fd)
    assert done.stdout.strip() == "2 ['this kernel is saved unlocked']", done.stderr
    assert len(list((tmp_path / "__pycache__").glob("kernel_module.f-*.nbc"))) == 1
