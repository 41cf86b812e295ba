"""Connect Four's compiled engine against the plain-Python reference, its solver hooks
against their definitions by brute force, and the board's state API.

The games are recorded by one compiled kernel (:func:`_record_games`: uniformly random
columns, seeded) and replayed by the reference, ply by ply, in Python: the reference is the
slow side, about 1 s for the 10,000 games. The same kernel also plays each game with the
engine's own :func:`~donuts_ai.connect_four.kernels.playout` from the same seed, which must
play the very same game (its plies, result and final RNG state).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from donuts_ai._bits import ONE, popcount, rng_below, rng_seed
from donuts_ai.connect_four import ConnectFourError, ConnectFourState, parse_columns
from donuts_ai.connect_four import _kernels as E
from donuts_ai.connect_four import kernels as K
from donuts_ai.connect_four.reference import ReferenceConnectFour
from donuts_ai.errors import GameOverError, IllegalMoveError
from donuts_ai.state import GameEnd, GameState

#: Random games the engine and the reference play side by side.
GAMES = 10_000
SEED = 20240613
#: The shared positions with exact scores (a copy of /work/shared/connect_four, see its README).
DATA = Path(__file__).parent.parent / "data" / "connect_four"
#: Perft of the empty board beyond the reference's reach, as OpenSpiel's ``connect_four``
#: counts them too (``python -m benchmarks.connect_four_perft --depth 9``).
PERFT = {7: 823_536, 8: 5_686_266, 9: 39_452_034}


# --- the recorded games -----------------------------------------------------------------------


@njit  # not cached: a cached kernel keeps the engine code it was compiled with (numba #6845)
def _record_games(first, n_games, seed, columns, legals, statuses, playouts):
    """``n_games`` uniformly random games from the position ``first``, game ``g`` drawing from
    stream ``g`` of ``seed``: the column of each ply, the legal columns before it and its
    status. ``playouts[g]`` is :func:`~donuts_ai.connect_four.kernels.playout`'s
    (value, plies, final state == the recorder's) from the same stream."""
    for g in range(n_games):
        rng = rng_seed(np.uint64(seed), np.uint64(g))
        value, plies, after = K.playout(0, first, rng)
        pos = first
        ply = 0
        while True:
            moves = K.legal(0, pos)
            rng, n = rng_below(rng, popcount(moves))
            column = E.nth_bit(moves, n)
            pos, status = K.play(0, pos, column)
            columns[g, ply], legals[g, ply], statuses[g, ply] = column, moves, status
            ply += 1
            if status != K.GOES_ON:
                break
        playouts[g, 0], playouts[g, 1], playouts[g, 2] = value, plies, after == rng


#: The opening of the second set of recorded games: three stones, the second player to move.
OPENING = "445"


def _recorded(opening: str, count: int):
    """``count`` games recorded from ``opening``: ``(columns, legals, statuses, playouts)``;
    a game's plies end at its first status other than GOES_ON (-1 after)."""
    columns = np.full((count, E.CELLS), -1, dtype=np.int64)
    legals = np.zeros((count, E.CELLS), dtype=np.uint64)
    statuses = np.full((count, E.CELLS), -1, dtype=np.int64)
    playouts = np.zeros((count, 3), dtype=np.int64)
    _record_games(K.pos_from_moves(opening), count, SEED, columns, legals, statuses, playouts)
    return columns, legals, statuses, playouts


@pytest.fixture(scope="module")
def games():
    """:data:`GAMES` games recorded from the empty board."""
    return _recorded("", GAMES)


def _plies(statuses_row) -> int:
    return int(np.count_nonzero(statuses_row >= 0))


def _replay_with_the_reference(opening, columns, legals, statuses):
    """Each recorded game replayed by the reference from ``opening``: the legal columns
    before every ply and every ply's status must be the engine's. The statuses at the ends."""
    ends = []
    for g in range(len(columns)):
        reference = ReferenceConnectFour()
        for column in parse_columns(opening):
            reference.play(column)
        for ply in range(_plies(statuses[g])):
            assert [c for c in range(E.WIDTH) if int(legals[g, ply]) >> c & 1] == reference.legal(), (g, ply)
            assert reference.play(int(columns[g, ply])) == statuses[g, ply], (g, ply)
        assert reference.over, g
        ends.append(int(statuses[g, _plies(statuses[g]) - 1]))
    return ends


def test_the_engine_plays_the_reference_rules_over_ten_thousand_random_games(games):
    # About 1 s: the reference replays 10,000 games (some 210,000 plies) in Python.
    columns, legals, statuses, _ = games
    assert set(_replay_with_the_reference("", columns, legals, statuses)) == {K.WON, K.DRAWN}, "both ends met"


def _check_playouts(statuses, playouts):
    """Each playout played its recorded game: its plies, its final RNG state, and its value
    for the side to move where it started (+1 when the game was won on an odd ply)."""
    for g in range(len(statuses)):
        plies = _plies(statuses[g])
        value, played, same_rng = playouts[g]
        assert played == plies and same_rng, g
        end = statuses[g, plies - 1]
        assert value == (0 if end == K.DRAWN else 1 if plies % 2 == 1 else -1), g


def test_playout_plays_the_recorded_games(games):
    _check_playouts(games[2], games[3])


def test_from_a_position_playouts_and_the_reference_agree_too():
    columns, legals, statuses, playouts = _recorded(OPENING, 500)
    assert set(_replay_with_the_reference(OPENING, columns, legals, statuses)) >= {K.WON}
    _check_playouts(statuses, playouts)
    assert set(playouts[:, 0].tolist()) >= {-1, 1}


def test_a_zero_seed_is_replaced_not_stuck():
    value, plies, state = K.playout(0, K.as_position(*K.start()), np.uint64(0))
    assert state != 0 and 7 <= plies <= 42


# --- positions and the solver's hooks ---------------------------------------------------------


def _positions(columns, statuses, count):
    """The positions before each ply of the first ``count`` games, as typed kernel positions."""
    out = []
    for g in range(count):
        pos = K.as_position(*K.start())
        for ply in range(_plies(statuses[g])):
            out.append(pos)
            pos = K.as_position(*K.play(0, pos, int(columns[g, ply]))[0])
    return out


@pytest.fixture(scope="module")
def positions(games):
    columns, _, statuses, _ = games
    return _positions(columns, statuses, 400)


@njit  # not cached: a cached kernel keeps the engine code it was compiled with (numba #6845)
def _brute_force(pos):
    """``(winning, safe)`` by their definitions, through :func:`play` alone: the columns whose
    move wins; the columns whose move ends the game or leaves the opponent no winning move."""
    winning, safe = E.ZERO, E.ZERO
    moves = K.legal(0, pos)
    for column in range(K.WIDTH):
        if not (moves >> np.uint64(column)) & ONE:
            continue
        bit = ONE << np.uint64(column)
        child, status = K.play(0, pos, column)
        if status == K.WON:
            winning |= bit
        if status != K.GOES_ON:
            safe |= bit
            continue
        replies = K.legal(0, child)
        loses = False
        for reply in range(K.WIDTH):
            if (replies >> np.uint64(reply)) & ONE and K.play(0, child, reply)[1] == K.WON:
                loses = True
        if not loses:
            safe |= bit
    return winning, safe


def test_winning_and_safe_are_their_definitions(positions):
    seen = {"win": 0, "no safe move": 0, "some unsafe": 0}
    for pos in positions:
        winning, safe = _brute_force(pos)
        assert K.winning(0, pos) == winning, pos
        assert K.safe(0, pos) == safe, pos
        seen["win"] += winning != 0
        seen["no safe move"] += safe == 0
        seen["some unsafe"] += safe != K.legal(0, pos)
    assert min(seen.values()) > 10, seen  # the sample meets every case


def _replayed(pos) -> ReferenceConnectFour:
    """The reference game of a kernel position (its stones placed column by column)."""
    current, mask, moves = (int(x) for x in pos)
    reference = ReferenceConnectFour()
    to_move = moves % 2
    for column in range(E.WIDTH):
        for row in range(E.HEIGHT):
            bit = 1 << (column * E.COLUMN_BITS + row)
            if mask & bit:
                reference.grid[column][row] = to_move if current & bit else 1 - to_move
    reference.turn, reference.played = to_move, moves
    return reference


def test_order_counts_the_cells_where_the_mover_would_then_complete_four_then_the_centre(positions):
    for pos in positions[::8]:
        reference = _replayed(pos)
        mover = reference.turn
        for column in reference.legal():
            reference.grid[column][reference.height(column)] = mover
            empty = [(c, r) for c in range(E.WIDTH) for r in range(E.HEIGHT) if reference.grid[c][r] is None]
            expected = sum(reference.line_through(c, r, mover) >= 4 for c, r in empty)
            reference.grid[column][reference.height(column) - 1] = None
            centre = E.WIDTH // 2 - abs(column - E.WIDTH // 2)  # the tie-break: central columns first
            assert K.order(0, pos, column) == expected * E.ORDER_THREATS + centre, (pos, column)


def test_winning_agrees_with_the_reference(positions):
    for pos in positions[::4]:
        expected = _replayed(pos).winning_columns()
        assert [c for c in range(E.WIDTH) if int(K.winning(0, pos)) >> c & 1] == expected


def test_keys_are_unique_non_zero_and_plies_left_counts_the_empty_cells(positions):
    keys = {}
    for pos in positions:
        k = int(K.key(0, pos))
        assert 0 < k < 1 << 49
        assert keys.setdefault(k, (int(pos[0]), int(pos[1]))) == (int(pos[0]), int(pos[1]))
        assert K.plies_left(0, pos) == E.CELLS - pos[2] == 42 - bin(int(pos[1])).count("1")
    assert len(keys) > len(positions) // 2
    assert K.key(0, K.start()) == E.BOTTOM_MASK


def test_the_bit_layout():
    assert bin(int(E.BOARD_MASK)).count("1") == E.CELLS
    assert int(E.BOARD_MASK) & int(E.SENTINEL_MASK) == 0 and int(E.BOARD_MASK | E.SENTINEL_MASK) == (1 << 49) - 1
    for columns in range(1 << E.WIDTH):  # the gathering multiplication, every input
        bottoms = sum(1 << (c * E.COLUMN_BITS) for c in range(E.WIDTH) if columns >> c & 1)
        assert E._gather(np.uint64(bottoms)) == columns
        full = sum(int(E.column_mask(c)) for c in range(E.WIDTH) if columns >> c & 1)  # these columns full
        assert K.legal(0, K.as_position(0, full, 0)) == ((1 << E.WIDTH) - 1) ^ columns
    for cell in range(49):
        expected = 1 << (cell // E.COLUMN_BITS) if cell % E.COLUMN_BITS < E.HEIGHT else 0
        assert E.columns_of(np.uint64(1 << cell) & E.BOARD_MASK) == expected


def test_perft_agrees_with_the_reference_to_depth_six_and_with_openspiel_beyond():
    start = K.as_position(*K.start())
    reference = ReferenceConnectFour()
    for depth in range(1, 7):  # about 0.5 s at depth 6 in Python
        assert K.perft(0, start, depth) == reference.perft(depth) == 7 ** depth
    for depth, leaves in PERFT.items():
        assert K.perft(0, start, depth) == leaves
    assert K.perft(0, start, 0) == 1


def test_perft_of_a_late_position_counts_finished_games_as_leaves():
    moves = _shared("end.jsonl")[0]["moves"]  # 32 stones: games end on the way down
    pos, reference = K.pos_from_moves(moves), ReferenceConnectFour()
    for column in parse_columns(moves):
        reference.play(column)
    counts = [K.perft(0, pos, depth) for depth in range(1, 6)]
    assert counts == [reference.perft(depth) for depth in range(1, 6)]
    assert counts[-1] < 6 ** 5  # some lines ended early (a column is full, and games were won)


# --- the shared positions -----------------------------------------------------------------------


def _shared(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("name", ["middle.jsonl", "end.jsonl"])
def test_the_shared_positions_load_go_on_and_have_no_immediate_win(name):
    for row in _shared(name):
        board = ConnectFourState.from_moves(row["moves"])
        assert not board.is_game_over() and board.kernel_state() == K.pos_from_moves(row["moves"])
        pos = board.kernel_state()
        assert K.winning(0, pos) == 0
        legal = int(K.legal(0, pos))
        assert [legal >> c & 1 for c in range(E.WIDTH)] == [s is not None for s in row["move_scores"]]
        # Pons' scores: a move after which the opponent wins with its next stone scores
        # (the opponent's stones then) - 22 exactly, a safe move more. The opponent has
        # (moves + 1) // 2 stones now.
        quick_loss = (pos[2] + 1) // 2 + 1 - 22
        safe = int(K.safe(0, pos))
        for column, score in enumerate(row["move_scores"]):
            if score is not None:
                assert (score == quick_loss) == (not safe >> column & 1), (row, column)


# --- conversions --------------------------------------------------------------------------------


def test_pos_from_moves_reads_digits_and_letters_and_refuses_what_the_kernels_cannot_take():
    assert K.pos_from_moves("4453") == K.pos_from_moves("ddec") == K.pos_from_moves("4d5c")
    assert K.pos_from_moves("") == K.as_position(*K.start())
    current, mask, moves = K.pos_from_moves("4453")
    assert isinstance(current, np.uint64) and isinstance(mask, np.uint64) and moves == 4
    for bad in ("48", "4h", "44 53", "4444444", "4545454", "1212121"):
        with pytest.raises(ConnectFourError):
            K.pos_from_moves(bad)
    with pytest.raises(ConnectFourError, match="ends the game"):
        K.pos_from_moves("1212121")


# --- the board ----------------------------------------------------------------------------------


def test_the_board_speaks_the_state_api():
    board = ConnectFourState("dd")
    assert isinstance(board, GameState)
    assert board.turn == 0 and board.move_stack == [] and board.legal_moves() == list("abcdefg")
    assert board.to_dict() == {"setup": "dd", "moves": []}
    with pytest.raises(IndexError):
        board.pop()  # the opening is the set-up: nothing to undo


def test_a_random_game_to_the_end_and_back_restores_every_ply():
    rng = random.Random(3)
    for _ in range(20):
        board = ConnectFourState("d")
        before = []
        while not board.is_game_over():
            before.append((board.to_dict(), board.to_text(), board.kernel_state(), str(board)))
            board.push(rng.choice(board.legal_moves()))
        assert board.turn is None and board.legal_moves() == []
        ending = board.outcome()
        assert isinstance(ending, GameEnd) and ending.reason in ("four in a row", "full board")
        assert ConnectFourState.from_text(board.to_text()).outcome() == ending
        assert ConnectFourState.from_dict(json.loads(json.dumps(board.to_dict()))).to_dict() == board.to_dict()
        copy = board.copy()
        while before:
            board.pop()
            assert (board.to_dict(), board.to_text(), board.kernel_state(), str(board)) == before.pop()
        assert copy.is_game_over() and copy.outcome() == ending  # the copy kept its own game


def test_the_board_agrees_with_the_reference_on_winner_and_grid():
    rng = random.Random(5)
    for _ in range(30):
        board, reference = ConnectFourState(), ReferenceConnectFour()
        while not board.is_game_over():
            move = rng.choice(board.legal_moves())
            board.push(move)
            reference.play("abcdefg".index(move))
            assert board.cells() == reference.grid
        ending = board.outcome()
        assert ending is not None and ending.winner == reference.winner
        assert ending.reason == ("four in a row" if reference.winner is not None else "full board")
        assert ending.places == ((0, 0) if reference.winner is None else (0, 1) if reference.winner == 0 else (1, 0))


def test_a_full_board_is_a_draw():
    board = ConnectFourState.from_moves("dgbdbdgeffdedbbaedaeggcgbaffcefbfgaaccecca")  # a seeded random game's
    assert board.outcome() == GameEnd.draw(reason="full board") and board.moves_played() == 42


def test_an_illegal_move_is_refused_and_changes_nothing():
    board = ConnectFourState.from_moves("444444")
    before = board.to_dict()
    with pytest.raises(IllegalMoveError, match="legal: a, b, c, e, f, g"):
        board.push("d")
    for bad in ("h", "4", "", "dd"):
        with pytest.raises(IllegalMoveError):
            board.push(bad)
    assert board.to_dict() == before
    won = ConnectFourState.from_moves("1212121")
    assert won.outcome() == GameEnd.win(0, reason="four in a row")
    with pytest.raises(GameOverError):
        won.push("c")
    assert won.to_text() == "/abababa"


def test_bad_text_raises_a_connect_four_error():
    for setup in ("x", "1", "ddddddd", "abababab", "D"):  # no column, a digit, a full column, after the end, a capital
        with pytest.raises(ConnectFourError):
            ConnectFourState(setup)
    for text in ("dd", "dd/c/e", "x/", None):
        with pytest.raises(ConnectFourError):
            ConnectFourState.from_text(text)  # type: ignore[arg-type]
    for data in ({"setup": "dd"}, {"setup": "dd", "moves": "c"}, [], {"setup": 1, "moves": []}):
        with pytest.raises(ConnectFourError):
            ConnectFourState.from_dict(data)  # type: ignore[arg-type]
    with pytest.raises(ConnectFourError):
        ConnectFourState.from_moves("48")
    assert issubclass(ConnectFourError, ValueError)
    with pytest.raises(ConnectFourError, match="over"):
        K.position(ConnectFourState.from_moves("1212121"))


def test_a_set_up_that_ends_the_game_is_a_finished_board():
    board = ConnectFourState("abababa")
    assert board.is_game_over() and board.move_stack == [] and board.to_text() == "abababa/"


def test_the_game_is_in_the_table_and_greedy_takes_a_win_and_blocks_one():
    from donuts_ai import make, tournament
    from donuts_ai.connect_four.agents import GreedyAgent

    assert make("connect-four").to_text() == ConnectFourState().to_text()  # make's default: the empty board
    greedy = GreedyAgent(seed=1)
    assert greedy.select_move(ConnectFourState("dadbdc")) == "d"  # player 0's d1..d3: d4 wins at once
    assert greedy.select_move(ConnectFourState("abcbeb")) == "b"  # player 1's b2..b4 threat: only b does not lose
    results = tournament.run(["greedy", "random"], game="connect-four", games=4, seed=2, workers=1, isolation="none")
    assert all(g.reason in ("four in a row", "full board") for g in results.games)


def test_the_solver_agent_keeps_the_value_of_pons_positions():
    from donuts_ai.connect_four.agents import SolverAgent

    agent = SolverAgent(table_bits=18)
    rows = [json.loads(line) for line in (DATA / "end.jsonl").read_text().splitlines()[::20]]
    for row in rows:
        move = agent.select_move(ConnectFourState.from_moves(row["moves"]))
        kept = row["move_scores"]["abcdefg".index(move)]
        assert (kept > 0) - (kept < 0) == (row["score"] > 0) - (row["score"] < 0), row  # the move keeps the value
        assert agent.last_info["proven"] and agent.last_info["score"] == row["score"]


def test_solve_gives_value_distance_and_pons_score_that_agree_and_refuses_bad_input():
    from donuts_ai.connect_four.solve import new_table, solve

    table = new_table(16)
    for row in [json.loads(line) for line in (DATA / "middle.jsonl").read_text().splitlines()[::50]]:
        board = ConnectFourState.from_moves(row["moves"])
        full, alone = solve(board, table=table), solve(board, table=table, best_move=False)
        assert full.score == alone.score == row["score"] and alone.best_move is None
        assert full.value == (row["score"] > 0) - (row["score"] < 0)
        if full.value:  # the winner's last stone: Pons' 22 - stones, from the distance
            stones = len(row["moves"])
            winner_stones = (stones + full.distance + 1) // 2
            assert abs(full.score) == 22 - winner_stones
        assert board.to_text() == ConnectFourState.from_moves(row["moves"]).to_text()  # unchanged
    with pytest.raises(ConnectFourError, match="max_nodes"):
        solve(ConnectFourState("dd"), max_nodes=0)
    with pytest.raises(ConnectFourError, match="table_bits"):
        solve(ConnectFourState("dd"), table_bits=99)
    with pytest.raises(ConnectFourError, match="ConnectFourState"):
        solve("dd")  # type: ignore[arg-type]
