"""The compiled exact solver (:mod:`donuts_ai.search.solver`) over the compiled-game
interface (:mod:`donuts_ai.search.compiled_game`): on every position of tic-tac-toe and of
Connect-3 on a 4x3 board (``_tiny_compiled_game``), its score and every move's score
equal a plain Python minimax's, written apart below on a grid of cells; the distance in a
score is minimax's (the quickest win, the slowest loss); the hooks change no value; a
node budget stops with "unknown"; the table's bounds hold the exact values. On Connect
Four's kernels (when present), Pons' exact scores of sampled positions."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest

from donuts_ai.search import compiled_game as cg
from donuts_ai.search import solver
from donuts_ai.search.solver import NO_NODE_LIMIT, NOT_LEGAL, UNKNOWN_SCORE, WIN_SCORE

from . import _tiny_compiled_game as tiny

#: The games: tic-tac-toe (no gravity) and Connect-3 on 4 columns of 3 (gravity).
GAMES = {"tic-tac-toe": tiny.TIC_TAC_TOE, "connect-3": tiny.CONNECT_3}
#: The solver with every hook, and with the required functions alone.
BINDINGS = {"hooks": (tiny.solve_full, tiny.analyze_full), "bare": (tiny.solve_bare, tiny.analyze_bare)}
#: Entries of a table that holds a whole tiny game (a few thousand positions) with few clashes.
TABLE_BITS = 16
#: A table of 8 entries: every store replaces another position's.
CLASHING_TABLE_BITS = 3
#: A node budget far below what the start of tic-tac-toe needs without hooks (tens of thousands).
SMALL_BUDGET = 50
#: Result of a minimax line for the side to move.
WIN, DRAW, LOSS = 1, 0, -1


# --- the reference: minimax on a grid of cells, apart from the bitboards ---------------------


class Grid(NamedTuple):
    """A position: ``cells[c * height + r]`` is 0 (empty), 1 (the first player's) or 2."""

    rules: tuple[int, int, int, int]
    cells: tuple[int, ...]


@functools.cache
def _lines(rules: tuple[int, int, int, int]) -> list[tuple[int, ...]]:
    """Every line of ``k`` cells on the board, as cell indices."""
    width, height, k, _ = rules
    lines = []
    for c in range(width):
        for r in range(height):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + i * dc, r + i * dr) for i in range(k)]
                if all(0 <= x < width and 0 <= y < height for x, y in cells):
                    lines.append(tuple(x * height + y for x, y in cells))
    return lines


def _reference_moves(grid: Grid) -> Iterator[tuple[int, int]]:
    """``(move, cell)``: a column and the lowest empty cell in it with gravity; without, every
    empty cell (the move is its bit in the kernels' layout, ``c * (height + 1) + r``)."""
    width, height, _, gravity = grid.rules
    for c in range(width):
        for r in range(height):
            if grid.cells[c * height + r] == 0:
                yield (c, c * height + r) if gravity else (c * (height + 1) + r, c * height + r)
                if gravity:
                    break


@functools.cache
def _minimax(grid: Grid) -> tuple[tuple[int, int], dict[int, tuple[int, int]]]:
    """The value of ``grid`` for the side to move, ``(result, plies to the end)``, under
    best play (the quickest win, the slowest loss), and each move's; a draw's plies are 0."""
    width, height, _, _ = grid.rules
    stones = sum(1 for cell in grid.cells if cell)
    player = 1 + stones % 2
    moves = {}
    for move, cell in _reference_moves(grid):
        cells = list(grid.cells)
        cells[cell] = player
        child = Grid(grid.rules, tuple(cells))
        if any(all(child.cells[i] == player for i in line) for line in _lines(grid.rules)):
            moves[move] = (WIN, 1)
        elif stones + 1 == width * height:
            moves[move] = (DRAW, 0)
        else:
            (result, plies), _ = _minimax(child)
            moves[move] = (-result, plies + 1 if result != DRAW else 0)
    best = max(moves.values(), key=lambda v: (v[0], -v[1] if v[0] == WIN else v[1]))
    return best, moves


def _score(value: tuple[int, int]) -> int:
    """A minimax value as the solver scores it: ``WIN_SCORE - d``, its negation, or 0."""
    result, plies = value
    return 0 if result == DRAW else result * (WIN_SCORE - plies)


@functools.cache
def _positions(rules: tuple[int, int, int, int]) -> list[Grid]:
    """Every position of the game where it goes on, the start first."""
    start = Grid(rules, (0,) * (rules[0] * rules[1]))
    seen, todo = {start: None}, [start]
    while todo:
        grid = todo.pop()
        stones = sum(1 for cell in grid.cells if cell)
        (_, _), moves = _minimax(grid)
        for move, cell in _reference_moves(grid):
            if moves[move] == (WIN, 1) or stones + 1 == rules[0] * rules[1]:
                continue  # the move ends the game
            cells = list(grid.cells)
            cells[cell] = 1 + stones % 2
            child = Grid(rules, tuple(cells))
            if child not in seen:
                seen[child] = None
                todo.append(child)
    return list(seen)


def _pos(grid: Grid) -> tuple[np.uint64, np.uint64, np.int64]:
    """The kernels' position of ``grid``: the side to move's stones, all stones, the count."""
    _, height, _, _ = grid.rules
    stones = sum(1 for cell in grid.cells if cell)
    to_move = 1 + stones % 2
    current = mask = 0
    for i, cell in enumerate(grid.cells):
        bit = 1 << (i // height * (height + 1) + i % height)
        mask |= bit if cell else 0
        current |= bit if cell == to_move else 0
    return tiny.position(current, mask, stones)


def _key(grid: Grid) -> np.uint64:
    return tiny.key(grid.rules, _pos(grid))


# --- the solver against the reference --------------------------------------------------------


@pytest.mark.parametrize("binding", BINDINGS)
@pytest.mark.parametrize("game", GAMES)
def test_scores_are_minimax_on_every_position(game: str, binding: str) -> None:
    """The solver's score of every position is minimax's, distance included: a win's is the
    quickest, a loss's the slowest (with the hooks and without: they change no value)."""
    rules, (solve, _) = GAMES[game], BINDINGS[binding]
    table = solver.new_table(TABLE_BITS)
    for grid in _positions(rules):
        (result, plies), _ = _minimax(grid)
        score, nodes = solve(rules, _pos(grid), table, NO_NODE_LIMIT)
        assert score == _score((result, plies)), grid
        assert solver.plies_to_end(score) == (plies if result != DRAW else solver.NO_DISTANCE)
        assert nodes >= 1


@pytest.mark.parametrize("binding", BINDINGS)
@pytest.mark.parametrize("game", GAMES)
def test_move_scores_are_minimax_on_every_position(game: str, binding: str) -> None:
    """:func:`analyze` scores every legal move as minimax does, and nothing else."""
    rules, (_, analyze) = GAMES[game], BINDINGS[binding]
    table = solver.new_table(TABLE_BITS)
    for grid in _positions(rules):
        _, moves = _minimax(grid)
        scores, _ = analyze(rules, _pos(grid), table, NO_NODE_LIMIT)
        expected = np.full(cg.MAX_MOVES, NOT_LEGAL)
        for move, value in moves.items():
            expected[move] = _score(value)
        assert scores.tolist() == expected.tolist(), grid


def test_a_clashing_table_changes_no_score() -> None:
    """A table of 8 entries, every store replacing another position's, shared by all the
    positions: the scores stay exact."""
    rules = tiny.CONNECT_3
    table = solver.new_table(CLASHING_TABLE_BITS)
    for grid in _positions(rules):
        value, _ = _minimax(grid)
        assert tiny.solve_full(rules, _pos(grid), table, NO_NODE_LIMIT)[0] == _score(value)


@pytest.mark.parametrize("game", GAMES)
def test_the_hooks_save_nodes(game: str) -> None:
    """The hooks make the search smaller (what they are for): the start position's."""
    rules = GAMES[game]
    start = _pos(_positions(rules)[0])
    nodes = {binding: solve(rules, start, solver.new_table(TABLE_BITS), NO_NODE_LIMIT)[1]
             for binding, (solve, _) in BINDINGS.items()}
    assert nodes["hooks"] < nodes["bare"]


@pytest.mark.parametrize("binding", BINDINGS)
@pytest.mark.parametrize("game", GAMES)
def test_table_bounds_hold_the_exact_values(game: str, binding: str) -> None:
    """After solving positions in one table (one in 7), each position's stored bounds
    (counted from it) hold its exact score, and many positions have one."""
    rules, (solve, _) = GAMES[game], BINDINGS[binding]
    table = solver.new_table(TABLE_BITS)
    positions = _positions(rules)
    for grid in positions[::7]:
        solve(rules, _pos(grid), table, NO_NODE_LIMIT)
    held = 0
    for grid in positions:
        lower, upper = solver.probe(table, _key(grid))
        value = _score(_minimax(grid)[0])
        assert lower <= value <= upper, grid
        held += int(lower > solver.NO_LOWER or upper < solver.NO_UPPER)
    assert held > len(positions) // 10


def test_a_node_budget_stops_with_unknown_and_leaves_true_bounds() -> None:
    """Past its budget a search returns UNKNOWN_SCORE (and the nodes it explored, one past
    the budget), :func:`analyze` marks the moves it did not settle, and the table keeps
    only true bounds: a full search with it afterwards is exact."""
    rules = tiny.TIC_TAC_TOE
    table = solver.new_table(TABLE_BITS)
    positions = _positions(rules)
    start = _pos(positions[0])
    score, nodes = tiny.solve_bare(rules, start, table, SMALL_BUDGET)
    assert score == UNKNOWN_SCORE and nodes == SMALL_BUDGET + 1
    scores, nodes = tiny.analyze_bare(rules, start, table, SMALL_BUDGET)
    assert nodes == SMALL_BUDGET + 1
    legal = [move for move, _ in _reference_moves(positions[0])]
    assert sorted(set(scores[legal].tolist())) == [UNKNOWN_SCORE]
    assert (scores == NOT_LEGAL).sum() == cg.MAX_MOVES - len(legal)
    for grid in positions[:200]:
        tiny.solve_bare(rules, _pos(grid), table, SMALL_BUDGET)
    for grid in positions:
        lower, upper = solver.probe(table, _key(grid))
        assert lower <= _score(_minimax(grid)[0]) <= upper, grid
    assert tiny.solve_bare(rules, start, table, NO_NODE_LIMIT)[0] == 0  # tic-tac-toe is a draw


@functools.cache
def _pile_minimax(most: int, pile: int) -> tuple[tuple[int, int], dict[int, tuple[int, int]]]:
    """The take-away game's value for the side to move (take 1 to ``most``, the last stone
    wins) and each move's, as :func:`_minimax` gives them."""
    moves = {}
    for take in range(1, min(most, pile) + 1):
        if take == pile:
            moves[take] = (WIN, 1)
        else:
            (result, plies), _ = _pile_minimax(most, pile - take)
            moves[take] = (-result, plies + 1)
    return max(moves.values(), key=lambda v: (v[0], -v[1] if v[0] == WIN else v[1])), moves


@pytest.mark.parametrize("most", [2, 3])
def test_scores_are_minimax_where_lines_of_different_lengths_meet(most: int) -> None:
    """The take-away game (one table for every pile, largest first): a position comes up at
    different distances from the root, and the bounds the table holds for it still give
    minimax's scores and distances, and its moves'."""
    table = solver.new_table(TABLE_BITS)
    for pile in range(tiny.MAX_PILE, 0, -1):
        value, moves = _pile_minimax(most, pile)
        pos = (np.int64(pile),)
        assert tiny.solve_pile(most, pos, table, NO_NODE_LIMIT)[0] == _score(value), pile
        scores, _ = tiny.analyze_pile(most, pos, table, NO_NODE_LIMIT)
        assert {move: scores[move] for move in moves} == {move: _score(v) for move, v in moves.items()}, pile
        lower, upper = solver.probe(table, pile)
        assert lower <= _score(value) <= upper


# --- a game whose players do not alternate: every status --------------------------------------


@functools.cache
def _turns_minimax(pile: int) -> tuple[tuple[int, int], dict[int, tuple[int, int]]]:
    """The value for the side to move of the game whose turns repeat (``_tiny_compiled_game``:
    take 1 to 3; taking 2 moves again; emptying the pile wins by 1, loses by 2, draws by 3)
    and each move's, as :func:`_minimax` gives them, read from the rules in words."""
    moves = {}
    for take in range(1, min(3, pile) + 1):
        if take == pile:
            moves[take] = {1: (WIN, 1), 2: (LOSS, 1), 3: (DRAW, 0)}[take]
        else:
            (result, plies), _ = _turns_minimax(pile - take)
            same_player = take == 2
            moves[take] = (result if same_player else -result, plies + 1 if result != DRAW else 0)
    return max(moves.values(), key=lambda v: (v[0], -v[1] if v[0] == WIN else v[1])), moves


def test_scores_are_minimax_in_a_game_whose_turns_repeat() -> None:
    """MOVES_AGAIN keeps the window and the sign, LOST loses at once, and the solver bisects
    every distance: minimax's scores and distances, and every move's, on piles 1 to 40."""
    table = solver.new_table(TABLE_BITS)
    for pile in range(tiny.MAX_PILE, 0, -1):
        value, moves = _turns_minimax(pile)
        pos = (np.int64(pile),)
        assert tiny.solve_turns(0, pos, table, NO_NODE_LIMIT)[0] == _score(value), pile
        scores, _ = tiny.analyze_turns(0, pos, table, NO_NODE_LIMIT)
        assert {move: scores[move] for move in moves} == {move: _score(v) for move, v in moves.items()}, pile
    # The test means something: wins, losses and draws among the moves, and both values at the root.
    assert {v[0] for pile in range(1, tiny.MAX_PILE + 1) for v in _turns_minimax(pile)[1].values()} == {WIN, DRAW, LOSS}
    assert {_turns_minimax(pile)[0][0] for pile in range(1, tiny.MAX_PILE + 1)} == {WIN, LOSS}


# --- the small functions -----------------------------------------------------------------------


def test_scores_and_distances() -> None:
    assert solver.plies_to_end(WIN_SCORE - 5) == 5
    assert solver.plies_to_end(-(WIN_SCORE - 4)) == 4
    for marker in (0, UNKNOWN_SCORE, NOT_LEGAL):
        assert solver.plies_to_end(marker) == solver.NO_DISTANCE
    # The next player losing in 4 is the mover winning in 5, and the other way round.
    assert solver.score_before(-(WIN_SCORE - 4)) == WIN_SCORE - 5
    assert solver.score_before(WIN_SCORE - 5) == -(WIN_SCORE - 6)
    assert solver.score_before(0) == 0


def test_new_table_and_clear_table() -> None:
    table = solver.new_table(4)
    assert table.keys.shape == table.lower.shape == table.upper.shape == (16,)
    assert (table.lower == solver.NO_LOWER).all() and (table.upper == solver.NO_UPPER).all()
    tiny.solve_full(tiny.TIC_TAC_TOE, tiny.position(0, 0, 0), table, NO_NODE_LIMIT)
    assert (table.lower > solver.NO_LOWER).any()
    solver.clear_table(table)
    assert not table.keys.any() and (table.lower == solver.NO_LOWER).all() and (table.upper == solver.NO_UPPER).all()
    assert solver.new_table(0).keys.shape == (1,)
    for bits in (-1, 39, 2.0, True):
        with pytest.raises(ValueError, match="bits must be an int"):
            solver.new_table(bits)  # type: ignore[arg-type]


def test_compiled_game_fills_the_defaults() -> None:
    game = cg.compiled_game(legal=tiny.legal, play=tiny.play, key=tiny.key, max_plies=9)
    assert (game.winning, game.safe, game.plies_left, game.order, game.playout) == cg.DEFAULT_HOOKS
    assert game.max_plies == 9 and game.alternating is True
    assert not any(cg.hook_given(hook) for hook in cg.DEFAULT_HOOKS)
    full = cg.compiled_game(legal=tiny.legal, play=tiny.play, key=tiny.key, max_plies=9,
                            hooks=cg.GameHooks(winning=tiny.winning, safe=tiny.safe, plies_left=tiny.plies_left,
                                               order=tiny.order))
    assert all(cg.hook_given(hook) for hook in (full.winning, full.safe, full.plies_left, full.order))
    # The defaults say "not known".
    assert cg.default_winning(0, None) == 0 and cg.default_safe(0, None) == cg.ALL_MOVES
    assert cg.default_plies_left(0, None) == cg.MAX_PLIES and cg.default_order(0, None, 3) == 0


@pytest.mark.parametrize(("changes", "error", "match"), [
    ({"legal": lambda rules, pos: 0}, TypeError, "legal must be a Numba @njit function"),
    ({"max_plies": 0}, ValueError, "max_plies must be an int"),
    ({"max_plies": cg.MAX_PLIES + 1}, ValueError, "max_plies must be an int"),
    ({"hooks": cg.GameHooks(safe=tiny.safe)}, ValueError, "give winning with it"),
    ({"alternating": 1}, ValueError, "alternating must be a bool"),
    ({"hooks": cg.GameHooks(winning=tiny.winning, safe=tiny.safe), "alternating": False}, ValueError,
     "needs a game whose players alternate"),
])
def test_compiled_game_refuses(changes: dict[str, Any], error: type[Exception], match: str) -> None:
    arguments: dict[str, Any] = {"legal": tiny.legal, "play": tiny.play, "key": tiny.key, "max_plies": 9, **changes}
    with pytest.raises(error, match=match):
        cg.compiled_game(**arguments)


# --- Connect Four: Pons' exact scores ----------------------------------------------------------


#: The positions with Pons' scores (copied from his solver's output; see their README).
CONNECT_FOUR_DATA = Path(__file__).parent.parent / "data" / "connect_four"
#: One position in this many of each file is checked: 40 middle (14 to 27 stones) and 40
#: end positions (the middle ones explore millions of positions, solved and analyzed).
CONNECT_FOUR_STRIDE = 5
#: One begin position (8 to 13 stones) in this many: 4 of the 100 (12 or 13 stones), about
#: 1.4 s together; an 8-stone one takes up to half a minute, solved and analyzed here
#: (``python -m benchmarks.connect_four_solver`` checks all 100).
CONNECT_FOUR_BEGIN_STRIDE = 25


def _connect_four_sample() -> list[dict[str, Any]]:
    if not CONNECT_FOUR_DATA.is_dir():
        pytest.skip(f"no Connect Four positions in {CONNECT_FOUR_DATA}")
    return [json.loads(line) for phase, stride in (("begin", CONNECT_FOUR_BEGIN_STRIDE), ("middle", CONNECT_FOUR_STRIDE),
                                                   ("end", CONNECT_FOUR_STRIDE))
            for line in (CONNECT_FOUR_DATA / f"{phase}.jsonl").read_text().splitlines()[::stride]]


def test_connect_four_scores_are_pons() -> None:
    """Pons' exact score, and his score of every move, of 4 begin, 40 middle and 40 end
    positions, by the solver bound to Connect Four's kernels with every hook
    (:mod:`donuts_ai.connect_four.solve`): the one check of the solver on a real game, and
    of how its distances read as Pons' scores. All 500 are checked by
    ``python -m benchmarks.connect_four_solver``."""
    from donuts_ai.connect_four import ConnectFourState
    from donuts_ai.connect_four.solve import analyze, solve

    wrong = []
    for row in _connect_four_sample():
        board = ConnectFourState.from_moves(row["moves"])
        solution, analysis = solve(board, table_bits=TABLE_BITS + 4), analyze(board, table_bits=TABLE_BITS + 4)
        move_scores = dict.fromkeys("abcdefg") | {m.move: m.score for m in analysis.moves}
        best = row["move_scores"]["abcdefg".index(solution.best_move)] if solution.best_move else None
        if (solution.score, analysis.score, list(move_scores.values()), best) != (row["score"], row["score"],
                                                                                 row["move_scores"], row["score"]):
            wrong.append((row, solution, analysis))
    assert wrong == []
