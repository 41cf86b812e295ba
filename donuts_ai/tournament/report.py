"""Tables and pictures of tournament results."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from ..errors import DonutsError
from ..game import get_game
from .records import AGENT_CODE, GROWN, EventRow, GameRecord, LedgerRow, TournamentConfig, UnitRecord
from .stats import RatingFit


class ResultsView(Protocol):
    """What the reports read of a :class:`~.results.Results`. results.py imports this
    module (for ``Results.table``), so this one names only the methods it calls: the
    two modules are not an import circle."""

    config: TournamentConfig
    units: list[UnitRecord]

    @property
    def games(self) -> list[GameRecord]: ...
    @property
    def agents(self) -> list[str]: ...
    @property
    def free_for_all(self) -> bool: ...
    def two_player_games(self) -> list[GameRecord]: ...
    def crosstable(self) -> dict[str, dict[str, tuple[float, int]]]: ...
    def ratings(self, anchor: str | None = None, prior_draws: float = 2.0, bootstrap: int = 0, seed: int = 0) -> RatingFit: ...
    def ledger(self) -> dict[str, LedgerRow]: ...
    def seat_firsts(self) -> list[tuple[int, float]]: ...
    def matches(self) -> dict[str, dict[str, int]]: ...
    def events(self) -> list[EventRow]: ...


#: The width of the reports' name columns (numbered rows: the number's 3 characters
#: less): wider when a name needs it, up to :data:`MAX_NAME_WIDTH`.
NAME_WIDTH = 24
#: The widest a name column grows before it cuts long names (in their middle).
MAX_NAME_WIDTH = 48


def _cut(name: str, width: int) -> str:
    """``name`` in ``width`` characters: its start and its end kept (a spec's kind and its
    last parameters), the middle given as ``…``."""
    if len(name) <= width:
        return name
    head = (width - 1) // 2
    return name[:head] + "…" + name[len(name) - (width - 1 - head):]


def _column(names: list[str], width: int = NAME_WIDTH) -> tuple[dict[str, str], int]:
    """(how each of ``names`` reads in a column, the column's width): at least ``width``,
    as wide as the longest name up to :data:`MAX_NAME_WIDTH`, a longer name cut in its
    middle (:func:`_cut`). No two names read the same: if two cut names would, the column
    takes the longest name whole."""
    longest = max((len(n) for n in names), default=0)
    fit = max(width, min(longest, MAX_NAME_WIDTH))
    shown = {n: _cut(n, fit) for n in names}
    if len(set(shown.values())) < len(set(names)):
        return {n: n for n in names}, max(width, longest)
    return shown, fit


def signed_elo(value: float) -> str:
    """An Elo difference rounded, with its sign: ``+12``, ``-3``, and ``0`` (never ``-0``)."""
    rounded = round(value)
    return "0" if rounded == 0 else f"{rounded:+d}"


def history_lines(history: list[Mapping[str, Any]]) -> list[str]:
    """What a results file's amending lines say (:func:`~.results.read_history`): each time
    the run grew, and each new version of an agent, with the units written before it."""
    out = []
    grown = [line for line in history if line.get("type") == GROWN]
    if grown:
        sizes = " -> ".join([str(grown[0].get("from_games"))] + [str(line.get("games")) for line in grown])
        out.append(f"Grew {len(grown)} time{'s' if len(grown) > 1 else ''}: games {sizes} "
                   f"(after {', '.join(str(line.get('after_units')) for line in grown)} units)")
    for line in history:
        if line.get("type") != AGENT_CODE:
            continue
        after = line.get("after_units")
        if line.get("changed"):
            out.append(f"New version after {after} units (the units written after it): {'; '.join(line['changed'])}")
        else:
            out.append(f"Agents' code recorded after {after} units; the versions that played the units before are unknown")
    return out


def text_report(results: ResultsView) -> str:
    """A tournament's ratings, crosstable, matches, ledger and events, as text.

    Args:
        results: the tournament's :class:`~.results.Results`.

    Returns:
        The report, as ``donuts-ai report`` prints it.
    """
    if results.free_for_all:
        return _free_for_all_report(results)
    agents = results.agents
    lines = []
    n_games = len(results.games)
    config = results.config
    lines.append(f"{n_games} games, {len(results.units)} units, mode {config['mode']}")
    game = get_game(config["game"])
    lines.append(game.setups_line(config["setups"], config["seed"]))
    lines += history_lines(getattr(results, "history", []))
    if config.get("clock") is not None:
        lines.append(f"Clock: {config['clock']:g} s per player per {config['clock_per']}")
    if results.two_player_games():
        fit = results.ratings()
        lines.append("")
        anchor = next(r.name for r in fit.ratings if r.elo == 0 and r.lower == r.upper)
        lines.append(f"Ratings (Elo by maximum likelihood, {anchor} = 0, 95% intervals)")
        lines += _rating_rows(fit, "score")
        lines.append(f"  first-player advantage: {signed_elo(fit.first_player_advantage)} Elo; draw parameter nu = {fit.draw_nu:.3f}")
        lines += _superiority(fit, [r.name for r in fit.ratings])
        table = results.crosstable()
        lines.append("")
        lines.append("Crosstable (points of row against column / games)")
        shown, width = _column(agents, NAME_WIDTH - 3)
        lines.append("  " + " " * (width + 3) + "".join(f"{i + 1:>9d}" for i in range(len(agents))))
        for i, a in enumerate(agents):
            cells = ""
            for b in agents:
                if a == b:
                    cells += "        -"
                else:
                    pts, n = table[a][b]
                    cells += f"{f'{pts:g}/{n}':>9s}" if n else "        ."
            lines.append(f"  {i + 1}. {shown[a]:{width}s}{cells}")
    shown, width = _column(agents)
    if config["mode"] == "duel":
        matches = results.matches()
        best_of = config["best_of"]
        assert best_of is not None  # a duel's configuration has it
        lines.append("")
        lines.append(f"Matches (best of {best_of}: first to {best_of // 2 + 1} wins; draws count for nobody)")
        lines.append(f"  {'agent':{width}s} {'matches':>8s} {'won':>5s} {'drawn':>6s} {'lost':>5s}")
        for a in sorted(agents, key=lambda a: (-matches[a]["won"], matches[a]["lost"])):
            counts = matches[a]
            lines.append(f"  {shown[a]:{width}s} {counts['matches']:8d} {counts['won']:5d} {counts['drawn']:6d} {counts['lost']:5d}")
    ledger = results.ledger()
    lines.append("")
    lines.append(f"Ledger ({game.ledger_text(config['ledger'])})")
    lines.append(f"  {'agent':{width}s} {'games':>6s} {'won':>5s} {'drawn':>6s} {'lost':>5s} {'points':>7s}")
    for a in sorted(agents, key=lambda a: -ledger[a]["points"]):
        row = ledger[a]
        lines.append(f"  {shown[a]:{width}s} {row['games']:6d} {row['wins']:5d} {row['draws']:6d} {row['losses']:5d} {row['points']:7g}")
    lines += _events(results)
    return "\n".join(lines)


def _free_for_all_report(results: ResultsView) -> str:
    """The report of a free-for-all tournament: Plackett–Luce ratings, head to head,
    first places by seat, and the ledger (points and the game's counts)."""
    config, agents = results.config, results.agents
    game = get_game(config["game"])
    players = config["players"]
    lines = [f"{len(results.games)} games, {len(results.units)} units, free-for-all {config['game']}: {players} players "
             f"a table, every table played in its {players} seat rotations (every seat at it starts once)"]
    lines.append(game.setups_line(config["setups"], config["seed"]))
    lines += history_lines(getattr(results, "history", []))
    lines.append("Rules: " + ", ".join(f"{k}={v}" for k, v in config["rules"].items()))
    if config.get("clock") is not None:
        lines.append(f"Clock: {config['clock']:g} s per player per game")
    if results.games:
        fit = results.ratings()
        anchor = next((r.name for r in fit.ratings if r.elo == 0 and r.lower == r.upper), fit.ratings[0].name)
        lines.append("")
        lines.append(f"Ratings (Plackett-Luce on final rankings by MM, Elo scale, {anchor} = 0, "
                     f"95% intervals from the {fit.intervals})")
        lines += _rating_rows(fit, "beaten")
        lines.append("  beaten: the share of the other players at its tables it placed above (a shared place: half)")
        lines += _superiority(fit, [r.name for r in fit.ratings if r.games])
        table = results.crosstable()
        lines.append("")
        lines.append("Head to head (times the row placed above the column at one table, a shared place half / times they "
                     "sat at one table; an agent in two seats counts twice)")
        shown, width = _column(agents, NAME_WIDTH - 3)
        lines.append("  " + " " * (width + 3) + "".join(f"{i + 1:>11d}" for i in range(len(agents))))
        for i, a in enumerate(agents):
            cells = ""
            for b in agents:
                pts, n = table[a][b] if a != b else (0, 0)
                cells += f"{'-':>11s}" if a == b else f"{f'{pts:g}/{n}':>11s}" if n else f"{'.':>11s}"
            lines.append(f"  {i + 1}. {shown[a]:{width}s}{cells}")
        seats = results.seat_firsts()
        lines.append("")
        lines.append("First places by seat (seat 1 starts; a shared first place counts its share)")
        lines.append("  " + "  ".join(f"seat {s + 1}: {f / g:.0%}" if g else f"seat {s + 1}: -"
                                      for s, (g, f) in enumerate(seats)) + f"   (even: {1 / players:.0%})")
    ledger = results.ledger()
    keys = sorted({k for row in ledger.values() for k in row["stats"]})
    lines.append("")
    lines.append(f"Ledger ({game.ledger_text(config['ledger'])})")
    shown, width = _column(agents)
    lines.append(f"  {'agent':{width}s} {'games':>6s} {'first':>6s} {'shared':>7s} {'place':>6s} {'points':>8s} {'/game':>7s}"
                 + "".join(f" {k[:8]:>8s}" for k in keys))
    for a in sorted(agents, key=lambda a: (-ledger[a]["points"], a)):
        row = ledger[a]
        per_game = row["points"] / row["games"] if row["games"] else float("nan")
        lines.append(f"  {shown[a]:{width}s} {row['games']:6d} {row['wins']:6d} {row['shared']:7d} "
                     f"{row['mean_place']:6.2f} {row['points']:8g} {per_game:7.1f}"
                     + "".join(f" {row['stats'].get(k, 0):8g}" for k in keys))
    lines.append("  place: the mean place (1 first); players who dropped out share the last place and score no points")
    lines += _events(results)
    return "\n".join(lines)


def _rating_rows(fit: RatingFit, share: str) -> list[str]:
    """A ratings table: every agent's Elo, 95% interval, games and ``share`` (its score,
    or in a free-for-all the share of the others it placed above), best first."""
    shown, width = _column([r.name for r in fit.ratings])
    cell = len(share) + 1
    lines = [f"  {'agent':{width}s} {'Elo':>7s} {'95% interval':>18s} {'games':>6s} {share:>{cell}s}"]
    for r in fit.ratings:
        lines.append(f"  {shown[r.name]:{width}s} {r.elo:7.0f} {f'[{r.lower:.0f}, {r.upper:.0f}]':>18s} "
                     f"{r.games:6d} {r.score:{cell}.0%}")
    return lines


def _superiority(fit: RatingFit, names: list[str]) -> list[str]:
    """The likelihood of superiority of each of ``names`` over each other, numbered rows
    and columns (nothing for fewer than two)."""
    if len(names) < 2:
        return []
    lines = ["  likelihood of superiority (row over column):"]
    shown, width = _column(names, NAME_WIDTH - 3)
    lines.append("  " + " " * (width + 3) + "".join(f"{i + 1:>7d}" for i in range(len(names))))
    for i, a in enumerate(names):
        cells = "".join("      -" if a == b else f"{fit.los(a, b):7.0%}" for b in names)
        lines.append(f"  {i + 1}. {shown[a]:{width}s}{cells}")
    return lines


def _events(results: ResultsView) -> list[str]:
    events = results.events()
    if not events:
        return []
    kinds: dict[str, int] = {}
    for e in events:
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    lines = ["", f"Events: {len(events)} ({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))})"]
    for e in events[:10]:
        last = e["detail"].splitlines()[-1] if e["detail"] else ""
        lines.append(f"  unit {e['unit']} ply {e['ply']}: {e['agent']} {e['kind']}: {last}")
    return lines


def plot(results: ResultsView, directory: str) -> list[str]:
    """Draw ``ratings.png`` (with 95% error bars) and ``crosstable.png`` (a heat map of score fractions).

    Args:
        results: the tournament's :class:`~.results.Results`.
        directory: where the pictures go (created when missing).

    Returns:
        The paths written. Needs matplotlib.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise DonutsError("drawing needs matplotlib: pip install matplotlib") from None
    import os

    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:  # a file of that name, or no right to create it
        raise DonutsError(f"cannot make the folder {os.fspath(directory)!r} for the pictures: {exc.strerror}") from None
    fit = results.ratings()
    paths = []
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.45 * len(fit.ratings)))
    names = [r.name for r in fit.ratings][::-1]
    elos = [r.elo for r in fit.ratings][::-1]
    err = [[r.elo - r.lower for r in fit.ratings][::-1], [r.upper - r.elo for r in fit.ratings][::-1]]
    ax.errorbar(elos, range(len(names)), xerr=err, fmt="o", capsize=4)
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("Elo (95% interval)")
    ax.set_title("Ratings")
    fig.tight_layout()
    paths.append(os.path.join(directory, "ratings.png"))
    fig.savefig(paths[-1], dpi=120)
    plt.close(fig)

    agents = results.agents
    table = results.crosstable()
    grid = [[(table[a][b][0] / table[a][b][1]) if a != b and table[a][b][1] else float("nan") for b in agents] for a in agents]
    fig, ax = plt.subplots(figsize=(1.2 + 0.9 * len(agents), 1 + 0.8 * len(agents)))
    im = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=1)
    ax.set_xticks(range(len(agents)), agents, rotation=45, ha="right")
    ax.set_yticks(range(len(agents)), agents)
    for i, a in enumerate(agents):
        for j, b in enumerate(agents):
            if a != b and table[a][b][1]:
                ax.text(j, i, f"{grid[i][j]:.0%}", ha="center", va="center", fontsize=8)
    fig.colorbar(im, ax=ax, label="share of games the row placed above the column" if results.free_for_all
                 else "score of row against column")
    ax.set_title("Crosstable")
    fig.tight_layout()
    paths.append(os.path.join(directory, "crosstable.png"))
    fig.savefig(paths[-1], dpi=120)
    plt.close(fig)
    return paths
