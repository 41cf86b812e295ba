"""The state API's own cost, measured in one process (steadier than two trees on a shared
machine): ``BoxesState.push_id`` (with its undo bookkeeping) against the 0.2 body of
``play_id`` (the same checks and engine call, no undo) on the same states, and
``Board.legal_mask`` (through the one conversion) against its 0.2 body, alternately, by
process CPU time, medians of ROUNDS (6 unless given). The source of the undo cost quoted in ``boxes/state.py``
and ``docs/architecture.md``.

    python benchmarks/side_by_side/state_api_overhead.py PLAYERS [ROUNDS]
"""

import argparse
import importlib
import statistics
import time

import numpy as np

from donuts_ai import Board, Layout
from donuts_ai.boxes import BoxesRules, BoxesState

# The rules kernels, by name so that one script measures any tree: _kernels since 0.5.0, _engine before.
try:
    E = importlib.import_module("donuts_ai.donuts._kernels")
except ModuleNotFoundError:
    E = importlib.import_module("donuts_ai.donuts._engine")
from donuts_ai.errors import GameOverError, IllegalMoveError

ROUNDS = 6


def old_play_id(state: BoxesState, code: int) -> object:
    """The body of ``BoxesState.play_id`` before 0.3.0 (no undo)."""
    if state._core.over:
        raise GameOverError("the game is over")
    if not state.is_legal_id(code):
        raise IllegalMoveError("illegal")
    return state._core.play_code(int(code))


def old_legal_mask(board: Board) -> int:
    """The body of ``Board.legal_mask`` before 0.3.0 (the kernel called in place)."""
    if board._outcome is not None:
        return 0
    return int(E.legal_mask(np.uint64(board._b0), np.uint64(board._b1), board._last, board._line_masks))


def main(players: int, rounds: int = ROUNDS) -> None:
    games = []
    for seed in range(30):
        state, codes = BoxesState(BoxesRules(players=players), seed), []
        while not state.is_game_over():
            codes.append(state.random_move_id(len(codes)))
            state.push_id(codes[-1])
        games.append((seed, codes))

    def pushes_per_s(new: bool) -> float:
        spent = 0.0
        for seed, codes in games:
            state = BoxesState(BoxesRules(players=players), seed)
            start = time.process_time()
            for code in codes:
                state.push_id(code) if new else old_play_id(state, code)
            spent += time.process_time() - start
        return sum(len(c) for _, c in games) / spent

    board = Board(Layout.random_grid(1))
    board.push("c3")

    def legal_mask_ns(new: bool, calls: int = 50_000) -> float:
        start = time.process_time()
        for _ in range(calls):
            board.legal_mask() if new else old_legal_mask(board)
        return (time.process_time() - start) / calls * 1e9

    for name, measure in ((f"boxes{players} push/s", pushes_per_s), ("Board.legal_mask ns", legal_mask_ns)):
        figures: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(rounds):
            for new in (False, True):
                figures[new].append(measure(new))
        old, new = statistics.median(figures[False]), statistics.median(figures[True])
        print(f"{name}: 0.2 body {old:,.0f}, this tree {new:,.0f} ({100 * (new / old - 1):+.1f}%)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("players", nargs="?", type=int, default=4, help="players of the Boxes games (default 4)")
    parser.add_argument("rounds", nargs="?", type=int, default=ROUNDS, help=f"rounds, each figure their median (default {ROUNDS})")
    args = parser.parse_args()
    main(args.players, args.rounds)
