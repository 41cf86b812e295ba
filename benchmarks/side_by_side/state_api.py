"""The state API side by side: seeded random games of both games (a digest of every move
list and final state: equal digests, identical games) and the state paths' speeds by
process CPU time (Board push and legal moves, Board push/pop, BoxesState push, copy+push).

Speaks both state APIs (``BoxesState(rules, seed)`` / ``push`` / ``is_game_over`` since
0.3.0, ``BoxesState.new`` / ``play`` / ``is_over`` before). Run it in each tree, alternately:
``cd /tmp && PYTHONPATH=TREE python REPO/benchmarks/side_by_side/state_api.py``; prints one JSON line."""

import hashlib
import json
import random
import time

from donuts_ai.boxes import BoxesRules, BoxesState

try:
    from donuts_ai.donuts.board import Board
    from donuts_ai.donuts.layout import Layout
except ImportError:  # before issue 38 (a folder for each game)
    from donuts_ai.board import Board
    from donuts_ai.layout import Layout

#: Seeded games of each kind (Donuts, Donut Boxes of 2, 3 and 4 players) in the digest.
GAMES = 40
NEW_API = hasattr(BoxesState, "push")
new_boxes = BoxesState if NEW_API else BoxesState.new


def push_of(state):
    return state.push if NEW_API else state.play


def push_id_of(state):
    return state.push_id if NEW_API else state.play_id


def over_of(state):
    return state.is_game_over if NEW_API else state.is_over


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
            state, rng = new_boxes(BoxesRules(players=players), seed), random.Random(seed)
            while not over_of(state)():
                if rng.random() < 0.5:
                    push_of(state)(rng.choice(state.legal_moves()))
                else:
                    push_id_of(state)(state.random_move_id(rng.randrange(1000)))
            moves = state.move_stack if NEW_API else state.moves_played
            out.append(["boxes", players, seed, moves, state.to_dict(), state.ranking()])
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
        state, codes = new_boxes(BoxesRules(players=players), seed), []
        while not over_of(state)():
            codes.append(state.random_move_id(len(codes)))
            push_id_of(state)(codes[-1])
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
        state = new_boxes(BoxesRules(players=players), seed)
        push_id = push_id_of(state)
        start = time.process_time()
        for code in codes:
            push_id(code)
        spent += time.process_time() - start
    return sum(len(c) for _, c in games) / spent


def boxes_copy_push(players: int, rounds: int = 20) -> float:
    """Copy-then-push a CPU second (how a one-ply look-ahead uses the state), after 10 moves."""
    state = new_boxes(BoxesRules(players=players), 3)
    for k in range(10):
        push_id_of(state)(state.random_move_id(k))
    codes = [int(c) for c in state.legal_move_ids()]
    start = time.process_time()
    for _ in range(rounds):
        for code in codes:
            push_id_of(state.copy())(code)
    return rounds * len(codes) / (time.process_time() - start)


if __name__ == "__main__":
    board_games(5), boxes_push(2, 2), boxes_copy_push(2, 1)  # warm-up: compiled kernels loaded
    print(json.dumps({
        "api": "0.3.0" if NEW_API else "before", "games_digest": games_digest(),
        "board_random_plies_per_s": board_games(), "board_push_pop_plies_per_s": board_push_pop(),
        "boxes2_push_per_s": boxes_push(2), "boxes4_push_per_s": boxes_push(4),
        "boxes2_copy_push_per_s": boxes_copy_push(2), "boxes4_copy_push_per_s": boxes_copy_push(4),
    }))
