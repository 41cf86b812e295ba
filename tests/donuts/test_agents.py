"""What every agent must show: wins now, blocks (whatever its budget, on a first call in a
fresh process too), legal moves, deadlines, seeds, no mutation. No test here asserts a
wall-clock duration: a busy machine must pass them all."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from donuts_ai import Board, DonutsError, GameOverError, Layout, Rules
from donuts_ai.donuts.agents import AGENTS, AlphaBetaAgent, GreedyAgent, MCTSAgent, RandomAgent, SolverAgent
from donuts_ai.donuts.agents.search_base import tactical_choice, touch
from donuts_ai.donuts.squares import SQUARE_NAMES
from donuts_ai.donuts.squares import squares_of as legal_squares_of

from ..helpers import BLOCK, TINY_CLOCK, WIN_NOW, position, random_positions

#: Seconds a child interpreter may take: a safety net for a hung child, not a speed check
#: (with a cold Numba cache it compiles every kernel, minutes on a busy machine).
SUBPROCESS_TIMEOUT = 900



def searching_agents():
    return [
        GreedyAgent(seed=1),
        AlphaBetaAgent(depth=4),
        AlphaBetaAgent(time_limit=0.05),
        MCTSAgent(simulations=3000, seed=1),
        MCTSAgent(simulations=3000, seed=1, workers=2),
        SolverAgent(),
    ]


def tiny_budget_agents():
    """(agent, time_left): every searching agent on budgets far below one search iteration."""
    return [
        (AlphaBetaAgent(time_limit=0.001), None),
        (AlphaBetaAgent(time_limit=0.01), None),
        (AlphaBetaAgent(time_limit=5.0), TINY_CLOCK),
        (AlphaBetaAgent(nodes=1), None),
        (MCTSAgent(time_limit=0.001, seed=1), None),
        (MCTSAgent(time_limit=0.01, seed=1), None),
        (MCTSAgent(time_limit=5.0, seed=1), TINY_CLOCK),
        (MCTSAgent(simulations=1, seed=1), None),
        (MCTSAgent(time_limit=0.001, seed=1, workers=2), None),
    ]


def _tiny_id(case):
    agent, time_left = case
    return agent.spec if time_left is None else f"{agent.spec}+clock={time_left}"


@pytest.mark.time_sensitive
@pytest.mark.parametrize("agent", searching_agents(), ids=lambda a: a.spec)
def test_takes_an_immediate_five(agent):
    board = position(**WIN_NOW)
    assert board.legal_moves() == ["a2", "b2", "c2", "d2", "e2"]
    assert agent.select_move(board) == "c2"


@pytest.mark.time_sensitive
@pytest.mark.parametrize("agent", searching_agents(), ids=lambda a: a.spec)
def test_blocks_the_only_immediate_five(agent):
    board = position(**BLOCK)
    assert board.legal_moves() == ["f1", "f2", "f3", "f5", "f6"]
    assert agent.select_move(board) == "f6"


@pytest.mark.time_sensitive
@pytest.mark.parametrize("case", tiny_budget_agents(), ids=_tiny_id)
def test_tactics_on_a_tiny_budget(case):
    agent, time_left = case
    assert agent.select_move(position(**WIN_NOW), time_left) == "c2"
    assert agent.select_move(position(**BLOCK), time_left) == "f6"
    assert agent.select_move(position(**WIN_NOW), time_left) == "c2"


def _mover_wins(board: Board, move: str) -> bool:
    mover = board.turn
    board.push(move)
    try:
        o = board.outcome()
        return o is not None and o.winner == mover
    finally:
        board.pop()


def _loses_at_once(board: Board, move: str) -> bool:
    """The move ends the game lost, or the opponent moves next and can win with its reply."""
    mover = board.turn
    board.push(move)
    try:
        o = board.outcome()
        if o is not None:
            return o.winner not in (mover, None)
        return board.turn != mover and any(_mover_wins(board, reply) for reply in board.legal_moves())
    finally:
        board.pop()


@functools.cache
def tactical_positions(per_kind: int = 25, seed: int = 21) -> dict[str, list[tuple[str, Rules, set[str]]]]:
    """Positions of random games (forfeits and uneven pools included), checked with the
    Board alone, as ``(fen, rules, good moves)`` by kind: ``win`` (the good moves win at
    once), ``only`` (no win at once, and one move only does not lose at once) and
    ``some`` (no win at once; several moves lose at once, several do not)."""
    out: dict[str, list] = {"win": [], "only": [], "some": []}
    for board in random_positions(100_000, seed, min_plies=6, lazy=True):
        moves = board.legal_moves()
        wins = {m for m in moves if _mover_wins(board, m)}
        if wins:
            kind, good = "win", wins
        else:
            good = {m for m in moves if not _loses_at_once(board, m)}
            if not good or len(good) == len(moves):
                continue
            kind = "only" if len(good) == 1 else "some"
        if len(out[kind]) < per_kind:
            out[kind].append((board.fen(), board.rules, good))
        if all(len(v) == per_kind for v in out.values()):
            return out
    raise AssertionError(f"too few tactical positions: { {k: len(v) for k, v in out.items()} }")


def _squares(names) -> set[int]:
    return {SQUARE_NAMES.index(m) for m in names}


def test_tactical_pass_agrees_with_the_board():
    """The kernel's two plies against the Board's rules, move by move: the forced move
    and the allowed set are exactly what playing every move and reply out says."""
    for kind, cases in tactical_positions().items():
        for fen, rules, good in cases:
            forced, allowed = tactical_choice(Board.from_fen(fen, rules))
            if kind == "win":
                assert SQUARE_NAMES[forced] in good and allowed == 1 << forced
            elif kind == "only":
                assert {forced} == _squares(good) and allowed == 1 << forced
            else:
                assert forced is None and set(legal_squares_of(allowed)) == _squares(good)
    for board in random_positions(40, seed=9):
        moves = board.legal_moves()
        forced, allowed = tactical_choice(board)
        if any(_mover_wins(board, m) for m in moves):
            assert _mover_wins(board, SQUARE_NAMES[forced])
        else:
            safe = {m for m in moves if not _loses_at_once(board, m)} or set(moves)
            assert set(legal_squares_of(allowed)) == _squares(safe)
            assert forced == (SQUARE_NAMES.index(safe.pop()) if len(safe) == 1 else None)


@pytest.mark.parametrize("case", tiny_budget_agents(), ids=_tiny_id)
def test_tactics_on_random_positions(case):
    agent, time_left = case
    for kind, cases in tactical_positions().items():
        for fen, rules, good in cases:
            board = Board.from_fen(fen, rules)
            assert agent.select_move(board, time_left) in good, (kind, fen, rules, sorted(good))


#: A fresh interpreter builds one agent and answers one position, on a tiny budget. The
#: Numba cache may be cold (the agent's construction compiles) or warm: either way the
#: first move must be right, whatever the one-off set-up costs.
FIRST_CALL = """
import json, sys
from donuts_ai import Board, Rules
from donuts_ai.donuts.agents import AGENTS
kind, params, fen, insertion, donuts, time_left = json.loads(sys.argv[1])
agent = AGENTS[kind](**params)
print(agent.select_move(Board.from_fen(fen, Rules(insertion, donuts)), time_left))
"""


@pytest.mark.time_sensitive
@pytest.mark.parametrize("kind, params", [("alphabeta", {"time_limit": 0.001}), ("mcts", {"time_limit": 0.001, "seed": 1}),
                                          ("mcts", {"time_limit": 0.001, "seed": 1, "workers": 2})],
                         ids=["alphabeta", "mcts", "mcts-2"])
def test_tactics_on_the_first_call_in_a_fresh_process(kind, params):
    # The win and the only block are played by the tactical pass; in the third position
    # (several moves lose at once, several do not) the timed search chooses.
    fen, rules, good = tactical_positions()["some"][0]
    cases = [(position(**WIN_NOW).fen(), Rules(), {"c2"}), (position(**BLOCK).fen(), Rules(), {"f6"}), (fen, rules, good)]
    _first_calls([(kind, params, fen, rules, good, None) for fen, rules, good in cases])


#: The exact solver on a few plies of a random grid: what test_solver.py once ran twice.
SOLVE = """
from donuts_ai import Board, Layout, solve
b = Board(Layout.random_grid(3))
for m in ('a1', 'a2', 'c2', 'c5', 'e5', 'f4'): b.push(m) if b.is_legal(m) else b.push(b.legal_moves()[0])
print(solve(b).result)
"""


def test_tactics_on_the_first_call_in_a_fresh_process_with_a_cold_cache(tmp_path):
    """Fresh processes on an empty Numba cache of their own, one after another: the solver
    twice, then an alpha-beta agent's first call in a position where the timed search
    chooses. About 40 s of compiling, which is what this test is about:

    - the solver compiles its kernels, the recursive ones in two specializations, and
      writes them; the second process loads them and must give the same answer (Numba's
      cache once mishandled such kernels: a segfault on the second run);
    - the agent compiles the kernels of its own search during its first call (those the
      solver left), before its clock starts, and still answers a good move on a budget
      far below the compile time.

    The MCTS agent compiles its kernels through the same ``warm_up`` before its clock; its
    first call in a fresh process is checked from the suite's cache (the test above), and
    a cold compile of its kernels would cost this test another 15 s of CPU for no other path.
    One chain rather than one cold cache per process: the kernels they share compile once."""
    cache = tmp_path / "numba"
    env = {"PATH": "/usr/bin:/bin", "NUMBA_CACHE_DIR": str(cache)}
    first = subprocess.run([sys.executable, "-c", SOLVE], env=env, capture_output=True, text=True, timeout=SUBPROCESS_TIMEOUT)
    second = subprocess.run([sys.executable, "-c", SOLVE], env=env, capture_output=True, text=True, timeout=SUBPROCESS_TIMEOUT)
    assert first.returncode == 0 and second.returncode == 0, (first.stderr, second.stderr)
    assert first.stdout == second.stdout
    fen, rules, good = tactical_positions()["some"][0]
    _first_calls([("alphabeta", {"time_limit": 0.001}, fen, rules, good, cache)])


def _first_calls(cases) -> None:
    """One child interpreter per ``(kind, params, fen, rules, good moves, Numba cache dir
    or None)``, all started together (they load or compile the kernels side by side, on a
    busy machine); each must answer a good move."""
    jobs = []
    for kind, params, fen, rules, good, cache_dir in cases:
        arg = json.dumps([kind, params, fen, rules.insertion, rules.donuts, TINY_CLOCK])
        env = os.environ if cache_dir is None else os.environ | {"NUMBA_CACHE_DIR": str(cache_dir)}
        proc = subprocess.Popen([sys.executable, "-c", FIRST_CALL, arg], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=env)
        jobs.append((proc, good))
    for proc, good in jobs:
        out, err = proc.communicate(timeout=SUBPROCESS_TIMEOUT)
        assert proc.returncode == 0, err
        assert out.strip() in good


@pytest.mark.parametrize(
    "make", [lambda: RandomAgent(seed=2), lambda: GreedyAgent(seed=2), lambda: AlphaBetaAgent(depth=3),
             lambda: MCTSAgent(simulations=300, seed=2), lambda: MCTSAgent(simulations=300, seed=2, workers=2)],
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





def test_touch_keeps_contents():
    a = np.arange(10_000, dtype=np.int64).reshape(100, 100)
    touch(a)
    assert (a == np.arange(10_000).reshape(100, 100)).all()


@pytest.mark.parametrize(
    "make", [lambda: RandomAgent(seed=11), lambda: GreedyAgent(seed=11), lambda: AlphaBetaAgent(depth=5),
             lambda: MCTSAgent(simulations=2000, seed=11), lambda: MCTSAgent(simulations=2000, seed=11, workers=2)],
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


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: AlphaBetaAgent(time_limit=0), "time_limit must be a positive number"),
        (lambda: AlphaBetaAgent(depth=0), "depth must be a positive int"),
        (lambda: MCTSAgent(simulations=-5), "simulations must be a positive int"),
        (lambda: MCTSAgent(exploration=-1), "exploration must be a finite number >= 0"),
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
        agent = cls(simulations=10) if kind == "mcts" else cls(depth=1) if kind == "alphabeta" else cls()
        with pytest.raises(GameOverError, match="game is over"):
            agent.select_move(finished)
        with pytest.raises(TypeError):
            agent.select_move("board")


def test_specs_and_names():
    assert MCTSAgent(time_limit=0.1, workers=2, seed=4).spec == "mcts:time_limit=0.1,workers=2,seed=4"
    assert AlphaBetaAgent(depth=6).spec == "alphabeta:depth=6"
    assert RandomAgent(seed=3).spec == "random:seed=3" and GreedyAgent().spec == "greedy"
    assert SolverAgent().name == "solver" and RandomAgent(name="r1").name == "r1"
    assert set(AGENTS) == {"random", "greedy", "alphabeta", "mcts", "solver", "az"}


def test_one_base_and_one_clock_rule_for_both_games():
    from donuts_ai.agents.base import Agent, budget
    from donuts_ai.boxes.agents import AGENTS as BOXES_AGENTS

    assert all(issubclass(cls, Agent) for cls in [*AGENTS.values(), *BOXES_AGENTS.values()])
    # The per-move limit, capped by a twentieth of the clock left when there is a clock.
    assert budget(None, None) is None and budget(0.5, None) == 0.5
    assert budget(None, 20.0) == 1.0 and budget(0.5, 20.0) == 0.5 and budget(2.0, 20.0) == 1.0
    assert budget(1.0, -3.0) == 0.0


def test_the_registry_loads_a_class_when_first_named():
    from donuts_ai.agents import LazyRegistry

    registry = LazyRegistry({"dumps": "json:dumps"})
    assert "dumps" in registry and list(registry) == ["dumps"] and len(registry) == 1
    assert registry["dumps"] is json.dumps and registry.path("dumps") == "json:dumps"
    with pytest.raises(KeyError):
        registry["loads"]
