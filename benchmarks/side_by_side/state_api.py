"""The state API side by side: seeded random games of both games (a digest of every move
list and final state: equal digests, identical games) and the state paths' speeds by
process CPU time (Board push and legal moves, Board push/pop, BoxesState push, copy+push).

Speaks the state API of 0.3.0 onward (``BoxesState(rules, seed)`` / ``push`` /
``is_game_over``). Run it in each tree, alternately:
``cd /tmp && PYTHONPATH=TREE python REPO/benchmarks/side_by_side/state_api.py``; prints one JSON line."""

import hashlib
import json
import random
import time

from donuts_ai import Board, Layout
from donuts_ai.boxes import BoxesRules, BoxesState

#: Seeded games of each kind (Donuts, Donut Boxes of 2, 3 and 4 players) in the digest.
GAMES = 40


def games_digest() -> str:
    """Every move list and final state of the seeded games, hashed."""
    out = []
    for seed in range(GAMES):
        board, rng = Board(Layout.random_grid(seed)), random.Random(seed)
        while not board.is_game_over():
            board.push(rng.choice(board.legal_moves()))
        o = board.outcome()
        out.append(["donuts", seed, board.move_stack, board.fen(), o.winner, str(o.reason), o.scores])
        for players in (2, 3, 4):
            state, rng = BoxesState(BoxesRules(players=players), seed), random.Random(seed)
            while not state.is_game_over():
                if rng.random() < 0.5:
                    state.push(rng.choice(state.legal_moves()))
                else:
                    state.push_id(state.random_move_id(rng.randrange(1000)))
            out.append(["boxes", players, seed, state.move_stack, state.to_dict(), state.ranking()])
    return hashlib.sha256(json.dumps(out, sort_keys=True).encode()).hexdigest()


def board_games(n: int = 300) -> float:
    """Plies a CPU second of random games: legal moves, a choice, a push."""
    layouts = [Layout.random_grid(s) for s in range(n)]
    start, plies = time.process_time(), 0
    for seed, layout in enumerate(layouts):
        board, rng = Board(layout), random.Random(seed)
        while not board.is_game_over():
            board.push(rng.choice(board.legal_moves()))
            plies += 1
    return plies / (time.process_time() - start)


def _boxes_games(players: int, n: int) -> list[tuple[int, list[int]]]:
    games = []
    for seed in range(n):
        state, codes = BoxesState(BoxesRules(players=players), seed), []
        while not state.is_game_over():
            codes.append(state.random_move_id(len(codes)))
            state.push_id(codes[-1])
        games.append((seed, codes))
    return games


def board_push_pop(n: int = 300) -> float:
    """Plies a CPU second of pushing random games' moves and popping them all."""
    games = []
    for seed in range(n):
        board, rng, moves = Board(Layout.random_grid(seed)), random.Random(seed), []
        while not board.is_game_over():
            moves.append(rng.choice(board.legal_moves()))
            board.push(moves[-1])
        games.append((Layout.random_grid(seed), moves))
    start = time.process_time()
    for layout, moves in games:
        board = Board(layout)
        for move in moves:
            board.push(move)
        for _ in moves:
            board.pop()
    return sum(len(m) for _, m in games) / (time.process_time() - start)


def boxes_push(players: int, n: int = 40) -> float:
    """Pushes (by code) a CPU second, replaying random games (new states not counted)."""
    games = _boxes_games(players, n)
    spent = 0.0
    for seed, codes in games:
        state = BoxesState(BoxesRules(players=players), seed)
        push_id = state.push_id
        start = time.process_time()
        for code in codes:
            push_id(code)
        spent += time.process_time() - start
    return sum(len(c) for _, c in games) / spent


def boxes_copy_push(players: int, rounds: int = 20) -> float:
    """Copy-then-push a CPU second (how a one-ply look-ahead uses the state), after 10 moves."""
    state = BoxesState(BoxesRules(players=players), 3)
    for k in range(10):
        state.push_id(state.random_move_id(k))
    codes = [int(c) for c in state.legal_move_ids()]
    start = time.process_time()
    for _ in range(rounds):
        for code in codes:
            state.copy().push_id(code)
    return rounds * len(codes) / (time.process_time() - start)


if __name__ == "__main__":
    board_games(5), boxes_push(2, 2), boxes_copy_push(2, 1)  # warm-up: compiled kernels loaded
    print(json.dumps({
        "games_digest": games_digest(),
        "board_random_plies_per_s": board_games(), "board_push_pop_plies_per_s": board_push_pop(),
        "boxes2_push_per_s": boxes_push(2), "boxes4_push_per_s": boxes_push(4),
        "boxes2_copy_push_per_s": boxes_copy_push(2), "boxes4_copy_push_per_s": boxes_copy_push(4),
    }))
