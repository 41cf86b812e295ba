"""The stale-kernel guard: Numba checks a cached kernel against its own file only."""

from pathlib import Path

from donuts_ai import _kernel_cache
from donuts_ai._kernel_cache import STAMP_NAME, kernel_sources_digest, refresh


def _package(tmp_path: Path) -> Path:
    pkg = tmp_path / "pkg"
    (pkg / "sub" / "__pycache__").mkdir(parents=True)
    (pkg / "__pycache__").mkdir()
    (pkg / "a.py").write_text("from numba import njit\n@njit(cache=True)\ndef f(x):\n    return g(x)\n")
    (pkg / "sub" / "b.py").write_text("from numba import njit\n@njit(cache=True)\ndef g(x):\n    return x\n")
    (pkg / "cli.py").write_text("print('no kernels here')\n")
    return pkg


def _cached(pkg: Path) -> list[str]:
    (pkg / "__pycache__" / "a.f-2.py311.nbi").write_bytes(b"index")
    (pkg / "__pycache__" / "a.f-2.py311.1.nbc").write_bytes(b"data")
    (pkg / "sub" / "__pycache__" / "b.g-2.py311.nbi").write_bytes(b"index")
    (pkg / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"bytecode")
    return sorted(p.name for p in pkg.rglob("*") if p.suffix in (".nbi", ".nbc"))


def test_a_changed_callee_drops_every_cached_kernel(tmp_path):
    pkg = _package(tmp_path)
    _cached(pkg)
    assert refresh(pkg)  # no stamp yet: nothing is known about these caches
    assert not [p for p in pkg.rglob("*") if p.suffix in (".nbi", ".nbc")]
    assert (pkg / "__pycache__" / "a.cpython-311.pyc").exists()  # only Numba's files go
    assert (pkg / "__pycache__" / STAMP_NAME).read_text().strip() == kernel_sources_digest(pkg)

    assert len(_cached(pkg)) == 3
    assert not refresh(pkg)  # sources unchanged: the caches stay
    assert len(list(pkg.rglob("*.nb*"))) == 3

    (pkg / "cli.py").write_text("print('still no kernels')\n")
    assert not refresh(pkg)  # a file without kernels does not count

    (pkg / "sub" / "b.py").write_text("from numba import njit\n@njit(cache=True)\ndef g(x):\n    return x + 1\n")
    assert refresh(pkg)  # a.f is unchanged, but the g it calls is not: a.f's cache must go too
    assert not list(pkg.rglob("*.nb*"))


def test_caches_under_numba_cache_dir_are_dropped_too(tmp_path, monkeypatch):
    pkg = _package(tmp_path)
    refresh(pkg)
    user = tmp_path / "numba_cache"
    mirror = user / pkg.resolve().relative_to(pkg.resolve().anchor)
    (mirror / "sub").mkdir(parents=True)
    (mirror / "sub" / "b.g-2.py311.nbi").write_bytes(b"index")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(user))
    (pkg / "a.py").write_text("from numba import njit\n")
    assert refresh(pkg)
    assert not (mirror / "sub" / "b.g-2.py311.nbi").exists()


def test_the_package_is_stamped_on_import():
    pkg = Path(_kernel_cache.__file__).parent
    stamp = pkg / "__pycache__" / STAMP_NAME
    assert stamp.read_text().strip() == kernel_sources_digest(pkg)
