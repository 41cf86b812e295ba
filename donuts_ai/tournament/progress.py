"""A run's progress: one line on stderr, or a function called after every unit."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

#: Characters of the bar.
BAR_WIDTH = 30


class ProgressBar:
    """Units done (pairs, series, tables), games done, rate and time left: ``report``
    ``True`` writes one line on stderr, a callable is called with ``(units done, units)``,
    ``False`` does nothing."""

    def __init__(self, total: int, done: int, games: int, report: bool | Callable[..., object]):
        self.total, self.done, self.games, self.report = total, done, games, report
        self.start, self.start_done = time.perf_counter(), done

    def update(self, games: int) -> None:
        self.done += 1
        self.games += games
        if callable(self.report):
            self.report(self.done, self.total)
            return
        if not self.report:
            return
        elapsed = time.perf_counter() - self.start
        rate = (self.done - self.start_done) / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        filled = int(BAR_WIDTH * self.done / max(self.total, 1))
        eta = f"{left:5.0f}s" if left == left else "   --"
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {self.done}/{self.total} units, {self.games} games "
                         f"{rate:5.2f} units/s  ETA {eta} ")
        if self.done >= self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()
