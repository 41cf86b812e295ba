"""The generic compiled solver on Donuts (:mod:`donuts_ai.donuts.compiled`: Donuts as a
:class:`~donuts_ai.search.compiled_game.CompiledGame`, no tactical hooks) beside Donuts' own
alpha-beta kernel (:func:`donuts_ai.donuts.alphabeta.search_moves`), both searching the
same positions to the end of the game, on the same machine in the same run.

The positions: 6 tile arrangements (``Layout.random_grid(100 + i)``, official rules), each
played ``--ply`` random moves in (seed ``i``), skipped when the game is over. Donuts' own
kernel searches every root move to the depth of the plies left (an exact search: its values
and distances are the generic solver's, which the check asserts); the generic solver bisects
the exact score with null windows. Each search starts from an empty table (cleared off the
clock), so each figure is the seconds a position's search took, and beside it the seconds a
node took: the generic solver explores more nodes (Donuts' kernel prunes with the game's
tactics: a five now, a forced reply) at a lower cost each.

Donuts' MCTS agent runs the generic MCTS kernel (:mod:`donuts_ai.search.mcts`) on this very
record, so its figures (``donuts-ai bench --only mcts``) are the generic MCTS's on Donuts.

    python -m benchmarks.generic_on_donuts --runs 5 --json benchmarks/records/generic-on-donuts.json
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from donuts_ai import Board, Layout
from donuts_ai.bench import compare, runs, tables
from donuts_ai.bench.record import Figure, measure_work
from donuts_ai.donuts import compiled
from donuts_ai.donuts import kernels as K
from donuts_ai.donuts.alphabeta import new_table, new_workspace, search_moves
from donuts_ai.search import solver

#: Tile arrangements (``random_grid(FIRST_LAYOUT + i)``) and their games' seeds ``i``.
LAYOUTS = 6
FIRST_LAYOUT = 100
#: Random moves into each game (default, --quick): at most 20 and 18 plies are left of 30.
PLIES = (10, 12)
#: Table entries of both searches (2**20).
TABLE_BITS = 20
#: Repeats of each figure in a run.
REPEATS = 3
#: Donuts' kernel scores a win whose last move is ``d`` plies away ``OWN_WIN - d`` (a loss: its
#: negation), as chess engines keep mate scores.
OWN_WIN = 10_000
#: The searches, each a parameter ``search`` of its figures.
OWN, GENERIC = "donuts alpha-beta kernel", "generic solver"
#: Donuts' kernel: no node limit, no first move.
NO_LIMIT, NO_FIRST_MOVE = 1 << 62, -1


def positions(ply: int) -> list[Board]:
    """The boards: each arrangement ``ply`` random moves in, the games still going on."""
    out = []
    for i in range(LAYOUTS):
        rng = random.Random(i)
        board = Board(Layout.random_grid(FIRST_LAYOUT + i))
        for _ in range(ply):
            if board.outcome() is not None:
                break
            board.push(rng.choice(board.legal_moves()))
        if board.outcome() is None:
            out.append(board)
    return out


def _own(board: Board, table: Any) -> tuple[int, int]:
    """Donuts' kernel to the end: ``(score, nodes)`` (its scores)."""
    pos, rulebook = K.position(board), K.rulebook(board)
    depth = int(compiled.plies_left(rulebook, pos))
    _, score, nodes, _ = search_moves(rulebook, pos, depth, table, new_workspace(), NO_LIMIT, NO_FIRST_MOVE)
    return int(score), int(nodes)


def check(boards: list[Board]) -> tuple[int, int]:
    """Both searches agree on every board's value and distance (exits otherwise); the nodes
    each explored in all."""
    own_table, table = new_table(TABLE_BITS), solver.new_table(TABLE_BITS)
    own_nodes = generic_nodes = 0
    for board in boards:
        own_table.fill(0)
        solver.clear_table(table)
        own_score, n = _own(board, own_table)
        own_nodes += n
        score, n = compiled.generic_solve(board, table)
        generic_nodes += n
        own_distance = OWN_WIN - abs(own_score) if own_score else solver.NO_DISTANCE
        if np.sign(own_score) != np.sign(score) or own_distance != solver.plies_to_end(score):
            raise SystemExit(f"the searches disagree on {board.fen()}: {own_score} against {score}")
    return own_nodes, generic_nodes


def _work(search: str, boards: list[Board]) -> tuple[Callable[[], int], Callable[[], None]]:
    """One pass over the boards (returning the nodes) and the clearing of its table."""
    if search == OWN:
        own_table = new_table(TABLE_BITS)
        return (lambda: sum(_own(board, own_table)[1] for board in boards)), (lambda: own_table.fill(0))
    table = solver.new_table(TABLE_BITS)
    return (lambda: sum(compiled.generic_solve(board, table)[1] for board in boards)), (lambda: solver.clear_table(table))


def figure_name(search: str, ply: int, unit: str) -> str:
    return f"{search}, Donuts {ply} plies in, exact: {unit}"


def figures(ply: int) -> list[Figure]:
    boards = positions(ply)
    own_nodes, generic_nodes = check(boards)
    print(f"{len(boards)} positions {ply} plies in: values and distances agree; nodes: Donuts' kernel {own_nodes:,}, "
          f"generic solver {generic_nodes:,}", file=sys.stderr, flush=True)
    out = []
    for search in (OWN, GENERIC):
        work, clear = _work(search, boards)
        params = {"search": search, "ply": ply, "positions": len(boards), "table_bits": TABLE_BITS}
        out.append(measure_work(figure_name(search, ply, "nodes"), "node", work, REPEATS, params, prepare=clear))

        def positions_done(work: Callable[[], int] = work) -> int:
            work()
            return len(boards)

        out.append(measure_work(figure_name(search, ply, "positions"), "position", positions_done, REPEATS,
                                {**params, "unit": "position"}, prepare=clear))
    return out


def ratios(suite: Any) -> list[tuple[str, float, float, float]]:
    """(name, generic over Donuts' own, low, high): nodes a second, and positions a second."""
    by_name = {b.get_name(): b for b in suite}
    out = []
    for name in by_name:
        if not name.startswith(GENERIC):
            continue
        own = by_name.get(OWN + name[len(GENERIC):])
        if own is not None:
            unit = name.rsplit(": ", 1)[-1]
            out.append((f"generic solver / Donuts' kernel: {unit} a second", *compare.speed_within(own, by_name[name])))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.generic_on_donuts", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"positions {PLIES[1]} plies in (default {PLIES[0]})")
    runs.add_record_options(parser)
    args = parser.parse_args(argv)
    ply = PLIES[1 if args.quick else 0]
    settings = f"ply={ply} layouts={LAYOUTS} table_bits={TABLE_BITS} repeats={REPEATS}"
    return runs.record_main(parser, args, argv, "benchmarks.generic_on_donuts", lambda: (figures(ply), settings),
                            lambda suite: tables.record_text(suite, ratios(suite)))


if __name__ == "__main__":
    sys.exit(main())
