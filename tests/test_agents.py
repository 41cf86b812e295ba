"""What every agent must show: wins now, blocks, legal moves, time, seeds, no mutation."""

from __future__ import annotations

import random
import time

import pytest

from donuts_ai import Board, DonutsError, Layout, Rules
from donuts_ai.agents import AGENTS, AlphaBetaAgent, GreedyAgent, MCTSAgent, RandomAgent, SolverAgent

from .helpers import position

# Chocolate to move on rank 2 (the "-" line through f2): c2 completes c2-c6.
WIN_NOW = dict(
    diagram="""
        ..c.v.
        v.c.v.
        ..c...
        ..c...
        .....v
        ......""",
    turn="c",
    last="f2",
)

# Vanilla threatens f6 (b6-e6). Chocolate must play on file f ("|" there), and every
# other square of file f hands Vanilla its five: f6 is the only move that does not lose.
BLOCK = dict(
    diagram="""
        cvvvv.
        ......
        .....v
        ......
        .c..c.
        c.c...""",
    turn="c",
    last="f4",
    layout="\n".join(["-----|"] * 6),
)


def searching_agents():
    return [
        GreedyAgent(seed=1),
        AlphaBetaAgent(depth=4),
        AlphaBetaAgent(time_limit=0.05),
        MCTSAgent(iterations=3000, seed=1),
        MCTSAgent(iterations=3000, seed=1, workers=2),
        SolverAgent(),
    ]


@pytest.mark.parametrize("agent", searching_agents(), ids=lambda a: a.spec)
def test_takes_an_immediate_five(agent):
    board = position(**WIN_NOW)
    assert board.legal_moves() == ["a2", "b2", "c2", "d2", "e2"]
    assert agent.select_move(board) == "c2"


@pytest.mark.parametrize("agent", searching_agents(), ids=lambda a: a.spec)
def test_blocks_the_only_immediate_five(agent):
    board = position(**BLOCK)
    assert board.legal_moves() == ["f1", "f2", "f3", "f5", "f6"]
    assert agent.select_move(board) == "f6"


def random_positions(count: int, seed: int, min_plies: int = 0):
    """Positions from random play with forfeits (uneven pools), open picks included."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        rules = rng.choice([Rules(), Rules(insertion="single"), Rules(donuts=18)])
        board = Board(Layout.random_grid(rng.randrange(10**6)), rules)
        target = rng.randrange(min_plies, 28)
        while not board.is_game_over() and board.ply < target:
            if rng.random() < 0.08:
                board.forfeit()
            else:
                board.push(rng.choice(board.legal_moves()))
        if not board.is_game_over():
            out.append(board)
    return out


@pytest.mark.parametrize(
    "make", [lambda: RandomAgent(seed=2), lambda: GreedyAgent(seed=2), lambda: AlphaBetaAgent(depth=3),
             lambda: MCTSAgent(iterations=300, seed=2), lambda: MCTSAgent(iterations=300, seed=2, workers=2)],
    ids=["random", "greedy", "alphabeta", "mcts", "mcts-2"],
)
def test_always_legal_and_never_mutates(make):
    agent = make()
    open_picks = 0
    for board in random_positions(60, seed=5):
        before = (board.fen(), board.move_stack)
        move = agent.select_move(board)
        assert move in board.legal_moves()
        assert (board.fen(), board.move_stack) == before
        open_picks += board.is_open_pick()
    assert open_picks > 0  # the sample did include open picks


def test_solver_agent_always_legal_and_keeps_the_value():
    from donuts_ai import Solver, solve

    agent, solver = SolverAgent(), Solver(tt_bits=18)
    for board in random_positions(12, seed=8, min_plies=10):
        move = agent.select_move(board)
        assert move in board.legal_moves()
        assert solver.move_value(board, move) == solve(board, distance=False).value


@pytest.mark.parametrize("make", [lambda t: AlphaBetaAgent(time_limit=t), lambda t: MCTSAgent(time_limit=t, seed=1),
                                  lambda t: MCTSAgent(time_limit=t, seed=1, workers=2)], ids=["alphabeta", "mcts", "mcts-2"])
def test_respects_its_time_limit(make):
    board = Board(Layout.random_grid(4))
    agent = make(0.1)
    for _ in range(4):
        t = time.perf_counter()
        move = agent.select_move(board)
        assert time.perf_counter() - t < 0.1 + 0.08
        board.push(move)
        board.push(board.legal_moves()[0])
    tiny = make(1e-4)
    t = time.perf_counter()
    assert tiny.select_move(board) in board.legal_moves()
    assert time.perf_counter() - t < 0.05
    # A nearly empty blitz clock caps the move time too.
    t = time.perf_counter()
    assert make(5.0).select_move(board, time_left=0.02) in board.legal_moves()
    assert time.perf_counter() - t < 0.05


@pytest.mark.parametrize(
    "make", [lambda: RandomAgent(seed=11), lambda: GreedyAgent(seed=11), lambda: AlphaBetaAgent(depth=5),
             lambda: MCTSAgent(iterations=2000, seed=11), lambda: MCTSAgent(iterations=2000, seed=11, workers=2)],
    ids=["random", "greedy", "alphabeta", "mcts", "mcts-2"],
)
def test_same_seed_same_game(make):
    def game(agent_a, agent_b):
        board = Board(Layout.random(6))
        agent_a.reset()
        agent_b.reset()
        while not board.is_game_over():
            board.push((agent_a if board.turn == 0 else agent_b).select_move(board))
        return board.move_stack

    first = game(make(), RandomAgent(seed=1))
    assert game(make(), RandomAgent(seed=1)) == first
    agent = make()
    assert game(agent, RandomAgent(seed=1)) == first  # reset() restarts the stream
    assert game(agent, RandomAgent(seed=1)) == first


def test_random_agents_with_other_seeds_differ():
    boards = [Board(Layout.random(1)) for _ in range(2)]
    moves = [RandomAgent(seed=s).select_move(b) for s, b in zip((1, 2), boards, strict=True)]
    more = [RandomAgent(seed=s).select_move(boards[0]) for s in range(3, 12)]
    assert len(set(moves + more)) > 1


def test_mcts_reuses_its_tree():
    agent = MCTSAgent(iterations=5000, seed=3)
    board = Board(Layout.random_grid(2))
    board.push(agent.select_move(board))
    board.push(board.legal_moves()[0])
    assert agent._reroot(board)  # the reply was in the tree: the root moves down
    other = Board(Layout.random_grid(3))
    assert not agent._reroot(other)
    assert agent.select_move(board) in board.legal_moves()


def test_mcts_proves_a_win_and_plays_it():
    board = position(**WIN_NOW)
    agent = MCTSAgent(iterations=50, seed=1)
    assert agent.select_move(board) == "c2"


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: AlphaBetaAgent(time_limit=0), "time_limit must be a positive number"),
        (lambda: AlphaBetaAgent(depth=0), "depth must be a positive int"),
        (lambda: MCTSAgent(iterations=-5), "iterations must be a positive int"),
        (lambda: MCTSAgent(c_uct=-1), "c_uct must be a number >= 0"),
        (lambda: MCTSAgent(workers=0), "workers must be a positive int"),
        (lambda: RandomAgent(seed="x"), "seed must be an int or None"),
    ],
)
def test_bad_parameters(make, message):
    with pytest.raises(DonutsError, match=message):
        make()


def test_agents_refuse_finished_games_and_non_boards():
    finished = Board.from_fen("------,------,------,------,------,------ ....../....../....../....../....../ccccc. - a1 5 0")
    for kind, cls in AGENTS.items():
        agent = cls(iterations=10) if kind == "mcts" else cls(depth=1) if kind == "alphabeta" else cls()
        with pytest.raises(DonutsError, match="game is over"):
            agent.select_move(finished)
        with pytest.raises(TypeError):
            agent.select_move("board")


def test_specs_and_names():
    assert MCTSAgent(time_limit=0.1, workers=2, seed=4).spec == "mcts:time_limit=0.1,workers=2,seed=4"
    assert AlphaBetaAgent(depth=6).spec == "alphabeta:depth=6"
    assert RandomAgent(seed=3).spec == "random:seed=3" and GreedyAgent().spec == "greedy"
    assert SolverAgent().name == "solver" and RandomAgent(name="r1").name == "r1"
    assert set(AGENTS) == {"random", "greedy", "alphabeta", "mcts", "solver"}
