"""The plain C bitboard perft of ``benchmarks/connect_four_perft.py`` against the engine:
the same leaves at every depth 1..7 (823,536 at depth 7). Compiled with the first C
compiler on ``PATH`` (``cc``, ``gcc`` or ``clang``) into a temporary folder; skipped when
there is none. Nothing here times anything.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.connect_four_perft import compile_c, find_cc, run_c
from donuts_ai.connect_four import kernels as K

DEPTH = 7


def test_c_perft_counts_equal_the_engines(tmp_path: Path) -> None:
    cc = find_cc()
    if cc is None:
        pytest.skip("no C compiler (cc, gcc or clang) on PATH")
    exe = compile_c(cc, tmp_path, "-O2")
    c_table = run_c(exe, DEPTH, 1)
    start = K.as_position(*K.start())
    ours = {depth: int(K.perft(0, start, depth)) for depth in range(1, DEPTH + 1)}
    assert {depth: leaves for depth, (leaves, _) in c_table.items()} == ours
    assert ours[DEPTH] == 823_536
