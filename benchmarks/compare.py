"""``python -m benchmarks.compare OLD [NEW]``: one benchmark on two versions, side by side.

Runs ``python -m donuts_ai.bench ARGS --json FILE`` (``--quick`` unless ``--bench-args``
says otherwise) on two versions of the library, round after round on one machine, and
compares the rounds pair by pair (:mod:`donuts_ai.bench.compare`): the drift of a shared
machine between rounds falls on both versions alike and cancels in each pair's ratio.

A version is a git ref of this repository (exported with ``git archive``), a tree (a folder
holding ``donuts_ai/``), or ``installed`` (``--old-python`` / ``--new-python``: another
environment); NEW defaults to this checkout. Each version runs its own benchmark code, in
its own Python, with its own Numba cache (caches of one version cannot be loaded by
another: numba#6018). Each side first runs once unrecorded (it compiles), then each round
runs both in alternating order, one run each (a record of medians, from the oldest
versions, is read as one run). From the :data:`MIN_ROUNDS`-th round on it stops once every
figure is decided (``--margin``, ``--min-change``), up to ``--rounds``. The records land in
``--out`` (``old.json``, ``new.json``, runs numbered by ``round``) and the table is
printed; ``--fail-slower PCT`` exits 1 as ``donuts-ai bench compare`` does.
"""

from __future__ import annotations

import argparse
import os
import shlex
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from donuts_ai.bench import compare, record
from donuts_ai.errors import DonutsError

#: What each side runs unless --bench-args says otherwise.
DEFAULT_BENCH_ARGS = "--quick"
#: The most rounds unless --rounds says otherwise; it stops sooner once every figure is decided.
DEFAULT_ROUNDS = 10
#: Rounds run before the first look at the verdicts (two pairs make the first interval).
MIN_ROUNDS = 3
#: The version spelled for "the package as installed in that side's Python".
INSTALLED = "installed"
#: This checkout: the folder that holds donuts_ai/ (the NEW side by default).
CHECKOUT = Path(__file__).resolve().parents[1]


class Side:
    """One version: where its code is (``tree``, or None for the installed package), the
    Python that runs it, its Numba cache, and its label in the table."""

    def __init__(self, label: str, tree: Path | None, python: str, cache: Path, commit: str | None = None) -> None:
        self.label, self.tree, self.python, self.cache, self.commit = label, tree, python, cache, commit
        self.takes_runs: bool | None = None

    def env(self) -> dict[str, str]:
        env = dict(os.environ, NUMBA_CACHE_DIR=str(self.cache))
        env.pop("PYTHONPATH", None)
        if self.tree is not None:
            env["PYTHONPATH"] = str(self.tree)
        return env

    def bench(self, bench_args: Sequence[str], out: Path, cwd: Path) -> None:
        """One run of this version's benchmark into ``out``."""
        if self.takes_runs is None:  # a bench that takes --runs measures in processes of its own: one is a run
            helped = subprocess.run([self.python, "-m", "donuts_ai.bench", "--help"], env=self.env(), cwd=cwd,
                                    capture_output=True, text=True)
            if helped.returncode != 0:
                raise record.SpeedRecordError(f"{self.label}: python -m donuts_ai.bench does not start: "
                                         f"{' '.join(helped.stderr.strip().splitlines()[-2:])}")
            self.takes_runs = "--runs" in helped.stdout
        runs = ["--runs", "1"] if self.takes_runs else []
        proc = subprocess.run([self.python, "-m", "donuts_ai.bench", *bench_args, *runs, "--json", str(out)],
                              env=self.env(), cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0 or not out.exists():
            raise record.SpeedRecordError(f"{self.label}: the benchmark failed (exit {proc.returncode}): "
                                     f"{' '.join(proc.stderr.strip().splitlines()[-3:])}")


def resolve_version(version: str, label: str, work: Path, repo: Path = CHECKOUT) -> tuple[Path | None, str | None]:
    """The tree of ``version`` (see the module doc) and its commit where it is a git ref: a
    folder, ``installed`` (None), or a git ref of ``repo`` exported into ``work/label``.
    :class:`SpeedRecordError` when it is none of them."""
    if version == INSTALLED:
        return None, None
    path = Path(version).expanduser()
    if path.is_dir():
        if not (path / "donuts_ai" / "__init__.py").exists():
            raise record.SpeedRecordError(f"{version}: a folder without donuts_ai/ (not a tree of this library)")
        return path.resolve(), None
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "--verify", "--quiet", f"{version}^{{commit}}"],
                            capture_output=True, text=True)
    if commit.returncode != 0:
        raise record.SpeedRecordError(f"{version!r} is neither a folder, {INSTALLED!r}, nor a git ref of {repo}")
    tree = work / label
    tree.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", commit.stdout.strip()],
                             capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    return tree, commit.stdout.strip()


def _numbered(suite: Any, round_number: int, side: Side) -> Any:
    """``suite`` with every run marked with its round and side (and the side's commit, where
    the run did not know it: a tree exported from git is no checkout)."""
    import pyperf

    # Side by side runs on this machine: a record that does not name its host is given this
    # machine's host name, so that the two records are one machine's.
    known: dict[str, str | int] = {"hostname": socket.gethostname(), **({"git_commit": side.commit} if side.commit else {})}
    benchmarks = []
    for benchmark in suite:
        runs = [pyperf.Run(run.values, metadata={**known, **run.get_metadata(), "round": round_number, "side": side.label},
                           collect_metadata=False) for run in benchmark.get_runs()]
        benchmarks.append(pyperf.Benchmark(runs))
    return pyperf.BenchmarkSuite(benchmarks)


def side_by_side(old: Side, new: Side, rounds: int, bench_args: Sequence[str], out: Path,
                 progress: Callable[[str], None] | None = None, *,
                 decided: Callable[[Any, Any], bool] | None = None) -> tuple[Any, Any]:
    """Both sides' records over at most ``rounds`` alternating rounds, after a warm-up run of
    each, stopping after a round (from the :data:`MIN_ROUNDS`-th) where ``decided`` says
    the records so far settle every figure; written to ``out/old.json`` and ``out/new.json``."""
    merged: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="donuts-side-by-side-") as scratch:
        cwd = Path(scratch)
        for side in (old, new):  # warm-up: compiles into the side's cache, not kept
            if progress:
                progress(f"warm-up: {side.label}")
            side.bench(bench_args, cwd / f"warm-{side.label}.json", cwd)
        for i in range(1, rounds + 1):
            for side in (old, new) if i % 2 else (new, old):
                if progress:
                    progress(f"round {i} of {rounds}: {side.label}")
                path = cwd / f"{side.label}-{i}.json"
                side.bench(bench_args, path, cwd)
                suite = _numbered(record.load(path), i, side)
                if side.label in merged:
                    merged[side.label].add_runs(suite)
                else:
                    merged[side.label] = suite
            if decided is not None and i >= MIN_ROUNDS and i < rounds and decided(merged[old.label], merged[new.label]):
                if progress:
                    progress(f"every figure decided after {i} rounds: stopping")
                break
    out.mkdir(parents=True, exist_ok=True)
    record.dump(merged[old.label], out / "old.json")
    record.dump(merged[new.label], out / "new.json")
    return merged[old.label], merged[new.label]


def main(argv: list[str] | None = None, prog: str = "python -m benchmarks.compare") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("old", metavar="OLD", help="a git ref, a tree (a folder with donuts_ai/), or 'installed'")
    parser.add_argument("new", metavar="NEW", nargs="?", default=str(CHECKOUT),
                        help="the same (default: this checkout's working tree)")
    parser.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS,
                        help=f"the most rounds (default {DEFAULT_ROUNDS}); it stops once every figure is decided")
    parser.add_argument("--bench-args", default=DEFAULT_BENCH_ARGS,
                        help=f"the arguments of each side's python -m donuts_ai.bench (default {DEFAULT_BENCH_ARGS!r})")
    parser.add_argument("--python", default=sys.executable, help="the Python of both sides (default: this one)")
    parser.add_argument("--old-python", help="OLD's Python (another environment), instead of --python")
    parser.add_argument("--new-python", help="NEW's Python, instead of --python")
    parser.add_argument("--out", default="side-by-side", help="where the records go (default ./side-by-side)")
    compare.add_verdict_options(parser)
    args = parser.parse_args(argv)
    min_change, margin = args.min_change / 100, args.margin / 100

    def decided(old: Any, new: Any) -> bool:
        return not compare.undecided(compare.compare_figures(old, new, min_change, margin))

    try:
        if args.rounds < 2:
            raise DonutsError(f"--rounds must be at least 2 (pairs give the interval), got {args.rounds}")
        with tempfile.TemporaryDirectory(prefix="donuts-versions-") as work_dir:
            work = Path(work_dir)
            sides = []
            for label, version, python in (("old", args.old, args.old_python), ("new", args.new, args.new_python)):
                tree, commit = resolve_version(version, label, work)
                (work / f"cache-{label}").mkdir()
                sides.append(Side(label, tree, python or args.python, work / f"cache-{label}", commit))
            old, new = side_by_side(sides[0], sides[1], args.rounds, shlex.split(args.bench_args), Path(args.out),
                                    lambda text: print(f"{prog}: {text}", file=sys.stderr, flush=True), decided=decided)
    except (DonutsError, subprocess.CalledProcessError) as exc:
        parser.exit(2, f"{prog}: error: {exc}\n")
    rows = compare.compare_figures(old, new, min_change, margin)
    print(compare.report(old, new, rows, old_name=f"OLD ({args.old})", new_name=f"NEW ({args.new})",
                         min_change=min_change, margin=margin))
    print(f"records: {Path(args.out) / 'old.json'}, {Path(args.out) / 'new.json'}")
    if args.fail_slower is not None and any(r.slower_beyond(args.fail_slower / 100) for r in rows):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
