"""The arithmetic of accuracy against perfect play, once: an agent's answers on a suite's
positions scored against the labels (:func:`score`), with 95% Wilson intervals, as a
text table (:func:`table`) and a picture by ply (:func:`plot`)."""

from __future__ import annotations

import math
import os
import textwrap
from collections.abc import Mapping, Sequence
from typing import Literal, NotRequired, TypedDict

from .._checks import check_output_file
from .._units import seconds_text
from ..errors import DonutsError
from ..outcomes import WIN
from .format import PHASES, Suite

#: Two-sided 95% normal quantile.
Z_95 = 1.959964


def wilson(k: int, n: int) -> list[float]:
    """95% Wilson score interval of a proportion ``k / n`` (``[nan, nan]`` when ``n`` is 0)."""
    if n == 0:
        return [math.nan, math.nan]
    p = k / n
    z2 = Z_95 * Z_95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z_95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return [max(0.0, centre - half), min(1.0, centre + half)]


class Answered(TypedDict):
    """An agent's answer on one position of a suite, as a results file keeps it: the
    position's ``index`` in the suite, the ``move`` (a square name; when the agent gave
    none, ``None``; an illegal answer as text), the ``seconds`` it took on the harness's
    clock, the ``nodes`` it reported (``None``: none), and the ``event`` when it failed
    (``illegal``, ``exception``, ``time`` or ``crash``) with its ``detail``."""

    index: int
    move: str | None
    seconds: float
    nodes: int | None
    event: str | None
    detail: NotRequired[str]


class PlyCounts(TypedDict):
    """The counts of one ply (:attr:`Scores.by_ply`): ``positions`` at ``ply``, how many
    the agent ``kept``, how many are ``critical`` and how many of those it kept."""

    ply: int
    positions: int
    kept: int
    critical: int
    kept_critical: int


#: The counts of :class:`PlyCounts` and :class:`PhaseCounts`.
COUNTS: tuple[Literal["positions", "kept", "critical", "kept_critical"], ...] = ("positions", "kept", "critical",
                                                                                 "kept_critical")


class PhaseCounts(TypedDict):
    """The counts of one phase of :data:`~.format.PHASES` (:attr:`Scores.by_phase`), as :class:`PlyCounts`."""

    phase: str
    positions: int
    kept: int
    critical: int
    kept_critical: int


class Scores(TypedDict):
    """An agent on one suite (:func:`score`): counts and shares, each share with its 95%
    Wilson interval (``*_ci95``, ``[low, high]``).

    - ``kept`` of ``positions``: its move kept the position's value (a failure keeps nothing);
      ``kept_winning`` of ``winning`` and ``kept_critical`` of ``critical``: the same over
      the won and the critical positions;
    - ``fastest`` of ``fastest_known``: a fastest win, over the won positions whose every
      winning move's distance is proved;
    - ``illegal`` moves and ``errors`` (by kind in ``error_kinds``);
    - ``seconds_per_move`` (the harness's clock), ``nodes`` and ``nodes_per_second`` over
      the moves that reported nodes (``None`` when none did);
    - ``by_ply`` (:class:`PlyCounts`, in ply order) and ``by_phase`` (:class:`PhaseCounts`,
      in the order of :data:`~.format.PHASES`)."""

    positions: int
    kept: int
    kept_share: float
    kept_ci95: list[float]
    winning: int
    kept_winning: int
    kept_winning_share: float
    kept_winning_ci95: list[float]
    critical: int
    kept_critical: int
    kept_critical_share: float
    kept_critical_ci95: list[float]
    fastest_known: int
    fastest: int
    fastest_share: float
    fastest_ci95: list[float]
    illegal: int
    errors: int
    error_kinds: dict[str, int]
    seconds_per_move: float
    nodes: int | None
    nodes_per_second: float | None
    by_ply: list[PlyCounts]
    by_phase: list[PhaseCounts]


def _share(k: int, n: int) -> float:
    return k / n if n else math.nan


def score(suite: Suite, answers: Sequence[Answered]) -> Scores:
    """The :class:`Scores` of ``answers`` (each for a position of ``suite``, by index)."""
    kept = winning = kept_winning = critical = kept_critical = fastest_known = fastest = illegal = 0
    kinds: dict[str, int] = {}
    seconds, nodes, node_seconds, reported = 0.0, 0, 0.0, False
    by_ply: dict[int, PlyCounts] = {}
    by_phase: dict[str, PhaseCounts] = {}
    for answer in answers:
        position = suite.positions[answer["index"]]
        move = answer["move"] if answer["event"] is None else None
        keeps = move is not None and position.keeps(move)
        ply = by_ply.setdefault(position.ply, {"ply": position.ply, "positions": 0, "kept": 0, "critical": 0,
                                               "kept_critical": 0})
        phase = by_phase.setdefault(position.phase, {"phase": position.phase, "positions": 0, "kept": 0, "critical": 0,
                                                     "kept_critical": 0})
        for row in (ply, phase):
            row["positions"] += 1
            row["kept"] += keeps
            if position.critical:
                row["critical"] += 1
                row["kept_critical"] += keeps
        kept += keeps
        if position.value == WIN:
            winning += 1
            kept_winning += keeps
            if position.fastest_win is not None:
                fastest_known += 1
                fastest += move is not None and position.is_fastest_win(move)
        if position.critical:
            critical += 1
            kept_critical += keeps
        if answer["event"] == "illegal":
            illegal += 1
        elif answer["event"] is not None:
            kinds[answer["event"]] = kinds.get(answer["event"], 0) + 1
        seconds += answer["seconds"]
        if answer["nodes"] is not None:
            reported = True
            nodes += answer["nodes"]
            node_seconds += answer["seconds"]
    n = len(answers)
    return {
        "positions": n, "kept": kept, "kept_share": _share(kept, n), "kept_ci95": wilson(kept, n),
        "winning": winning, "kept_winning": kept_winning, "kept_winning_share": _share(kept_winning, winning),
        "kept_winning_ci95": wilson(kept_winning, winning),
        "critical": critical, "kept_critical": kept_critical, "kept_critical_share": _share(kept_critical, critical),
        "kept_critical_ci95": wilson(kept_critical, critical),
        "fastest_known": fastest_known, "fastest": fastest, "fastest_share": _share(fastest, fastest_known),
        "fastest_ci95": wilson(fastest, fastest_known),
        "illegal": illegal, "errors": sum(kinds.values()), "error_kinds": kinds,
        "seconds_per_move": seconds / n if n else math.nan,
        "nodes": nodes if reported else None,
        "nodes_per_second": (nodes / node_seconds if node_seconds > 0 else None) if reported else None,
        "by_ply": [by_ply[ply] for ply in sorted(by_ply)],
        "by_phase": [by_phase[name] for name in PHASES if name in by_phase],
    }


def _cell(k: int, n: int, ci: list[float]) -> str:
    """A share in percent with its 95% interval: ``83.3 (80.1-86.0)``."""
    if n == 0:
        return "-"
    return f"{100 * k / n:.1f} ({100 * ci[0]:.1f}-{100 * ci[1]:.1f})"


def _rate(x: float | None) -> str:
    if x is None or math.isnan(x):
        return "-"
    return f"{x / 1e6:.2f} M" if x >= 1e6 else f"{x / 1e3:.0f} k" if x >= 1e3 else f"{x:.0f}"


def suite_line(suite: Suite) -> str:
    """One line saying what is in ``suite``."""
    values = [p.value for p in suite.positions]
    known = sum(p.fastest_win is not None for p in suite.positions)
    return (f"suite {suite.name}: {len(suite)} positions ({values.count(1)} won, {values.count(0)} drawn, {values.count(-1)} "
            f"lost for the side to move; {sum(p.critical for p in suite.positions)} critical; fastest win known in {known})")


def coverage_line(suite: Suite, total: int | None = None, seed: int | None = None) -> str:
    """One line saying which positions of a suite of ``total`` positions ``suite`` holds:
    how many, drawn with which ``seed`` (when ``seed`` is given and ``suite`` is not all
    of them), at which plies, in which phases (see :meth:`~.format.Suite.sample`)."""
    n = len(suite)
    if total is None or total <= n:
        head = f"positions: all {n:,} of {suite.name}"
    else:
        drawn = "" if seed is None else f", drawn across its phases and plies (seed {seed})"
        head = f"positions: {n:,} of {total:,} in {suite.name}{drawn}"
    if not n:
        return head
    plies = [p.ply for p in suite.positions]
    phases = [p.phase for p in suite.positions]
    counts = " / ".join(f"{name} {phases.count(name):,}" for name in PHASES if name in phases)
    span = f"ply {plies[0]}" if min(plies) == max(plies) else f"plies {min(plies)}-{max(plies)}"
    return f"{head}; {span}; phases {counts}"


#: The table's columns (shares in percent, with their 95% intervals).
HEADINGS = ("agent", "kept %", "kept % winning", "kept % critical", "fastest win %", "illegal", "errors", "time/move",
            "nodes/s")
#: What the columns mean, printed under the table (the how-to's table says the same at length).
COLUMNS = ("kept: the agent's move keeps the position's exact value (a won position stays won, a drawn one drawn; in a "
           "lost one every legal move keeps it); winning, critical: the same over the positions won for the side to "
           "move, and over the critical ones, where some legal move throws the value away; fastest win: the move wins "
           "in the fewest plies, over the won positions whose every winning move's distance is proved; illegal, errors: "
           "answers that cost their position and keep nothing (errors: exceptions, moves past the move limit, crashes); "
           "time/move: mean time an answer on the harness's clock; nodes/s: the nodes the agent reports per second of "
           "its moves (- when it reports none)")
#: The width the column notes are wrapped to.
NOTE_WIDTH = 110


def table(suites: Mapping[str, Suite], scores: Mapping[str, Mapping[str, Scores]], totals: Mapping[str, int] | None = None,
          seed: int | None = None) -> str:
    """Per suite, a line saying what is in it and one saying which positions they are
    (:func:`coverage_line`, of ``totals[name]`` positions in the whole suite, drawn with
    ``seed``), then one row per agent (``scores[agent][suite]``); under the last block,
    what the columns mean (:data:`COLUMNS`)."""
    blocks = []
    for name, suite in suites.items():
        rows = [list(HEADINGS)]
        for agent, by_suite in scores.items():
            s = by_suite.get(name)
            if s is None:
                continue
            rows.append([agent, _cell(s["kept"], s["positions"], s["kept_ci95"]),
                         _cell(s["kept_winning"], s["winning"], s["kept_winning_ci95"]),
                         _cell(s["kept_critical"], s["critical"], s["kept_critical_ci95"]),
                         _cell(s["fastest"], s["fastest_known"], s["fastest_ci95"]),
                         str(s["illegal"]), str(s["errors"]), seconds_text(s["seconds_per_move"]),
                         _rate(s["nodes_per_second"])])
        widths = [max(len(row[i]) for row in rows) for i in range(len(HEADINGS))]
        lines = [suite_line(suite), coverage_line(suite, None if totals is None else totals.get(name), seed),
                 "shares of positions in percent, with their 95% intervals"]
        for row in rows:
            cells = [row[0].ljust(widths[0]), *(cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True))]
            lines.append("  ".join(cells).rstrip())
        blocks.append("\n".join(lines))
    notes = textwrap.fill(COLUMNS, NOTE_WIDTH, initial_indent="columns: ", subsequent_indent="  ")
    return "\n\n".join(blocks) + "\n" + notes


#: Said when a picture is asked for without matplotlib.
NEEDS_MATPLOTLIB = "the picture needs matplotlib: pip install 'donuts_ai[plots]'"


def check_picture_file(name: str, path: str) -> str:
    """``path`` checked before the work a picture of it shows: a file that can be written,
    of a format matplotlib writes (by its suffix), matplotlib installed."""
    text = check_output_file(name, path)
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise DonutsError(NEEDS_MATPLOTLIB) from None
    formats = FigureCanvasBase.get_supported_filetypes()
    if os.path.splitext(text)[1].lstrip(".").lower() not in formats:
        raise DonutsError(f"{name} {text!r}: name a picture format matplotlib writes ({', '.join(sorted(formats))})")
    return text


def plot(scores: Mapping[str, Mapping[str, Scores]], path: str) -> None:
    """Draw the share of moves keeping the value by ply, one line per agent, over all the
    positions and over the critical ones (two panels), into ``path`` (a PNG or any format
    matplotlib writes). Needs matplotlib (``pip install 'donuts_ai[plots]'``)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise DonutsError(NEEDS_MATPLOTLIB) from None
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for agent, by_suite in scores.items():
        rows: dict[int, dict[str, int]] = {}
        for s in by_suite.values():
            for counts in s["by_ply"]:
                total = rows.setdefault(counts["ply"], {"positions": 0, "kept": 0, "critical": 0, "kept_critical": 0})
                for key in COUNTS:
                    total[key] += counts[key]
        plies = sorted(rows)
        for ax, (n, k) in zip(axes, (("positions", "kept"), ("critical", "kept_critical")), strict=True):
            xs = [p for p in plies if rows[p][n]]
            ax.plot(xs, [rows[p][k] / rows[p][n] for p in xs], marker=".", label=agent)
    for ax, title in zip(axes, ("all positions", "critical positions"), strict=True):
        ax.set_title(f"moves keeping the value: {title}")
        ax.set_xlabel("ply (donuts placed)")
        ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("share of positions")
    axes[1].legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=120)
    except (OSError, ValueError) as exc:
        raise DonutsError(f"cannot write the picture {path!r}: {exc}") from None
    finally:
        plt.close(fig)
