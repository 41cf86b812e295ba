"""A long run's progress: one display for every run (tournaments, SPRT, evaluations,
studies, ``donuts-ai train``), on tqdm (``tqdm.auto``: a widget in a notebook with Jupyter's widgets, a bar
in a terminal or a notebook without them).

A run takes ``progress=``: ``True`` draws the bar (on stderr), a callable is called after
every step with what the run says there (each run documents its arguments), ``False``
draws nothing. The command line asks for the bar on a terminal only, so a log file holds
no bar unless asked.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from typing import Any

#: Seconds between two redraws of a bar (a run of thousands of quick units redraws no
#: faster than this).
REDRAW_EVERY = 0.5


def _tqdm() -> Any:
    """tqdm's bar class: the notebook widget where Jupyter's widgets are installed (as
    ``tqdm.auto`` picks it in a notebook), else the text bar. Imported when a bar is drawn:
    ``tqdm.auto`` warns at import in a notebook without widgets, and a run without a bar
    needs none."""
    if importlib.util.find_spec("ipywidgets") is None:  # the widget needs it; without it tqdm.auto would warn
        from tqdm import tqdm
    else:
        from tqdm.auto import tqdm
    return tqdm


class ProgressBar:
    """The bar of one run: ``total`` steps (``None``: unknown), ``done`` already (a
    resumed run), labelled ``desc`` and counted in ``unit``; drawn when ``report`` is
    ``True``; a callable ``report`` is called with ``(done, total)`` after every step
    instead. :meth:`update` moves it on, with values to show beside it (``games=12``)."""

    def __init__(self, total: int | None, done: int = 0, report: bool | Callable[..., object] = False, *,
                 desc: str = "", unit: str = "unit"):
        self.total, self.done = total, done
        self._call = report if callable(report) else None
        self._bar: Any = None
        if report is True:
            self._bar = _tqdm()(total=total, initial=done, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True,
                             mininterval=REDRAW_EVERY, leave=True)

    def update(self, steps: int = 1, **shown: object) -> None:
        """``steps`` more done; ``shown`` replaces the values shown beside the bar."""
        self.done += steps
        if self._call is not None:
            self._call(self.done, self.total)
        if self._bar is not None:
            if shown:
                self._bar.set_postfix(shown, refresh=False)
            self._bar.update(steps)

    def write(self, line: str) -> None:
        """Print ``line`` on stdout without breaking the bar (a log line beside it)."""
        if self._bar is not None:
            self._bar.write(line, file=sys.stdout)
        else:
            print(line, flush=True)

    def close(self) -> None:
        """End the bar (its last state stays on screen); safe to call twice."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
