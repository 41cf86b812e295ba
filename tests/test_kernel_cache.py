"""The stale-kernel guard: Numba checks a cached kernel against its own file only."""

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
