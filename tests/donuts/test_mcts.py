"""The MCTS agent (donuts_ai.search.mcts): the clock, tree reuse, MCTS-Solver proofs.
(Every agent's common duties, tactics and seeds: tests/donuts/test_agents.py.)"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.strength import agreement_positions
from donuts_ai import Board, DonutsError, Layout, Rules, Solver, solve
from donuts_ai.donuts._kernels.position import position_of, rulebook_of
from donuts_ai.donuts.agents import _mcts_bound as mcts_bound
from donuts_ai.donuts.agents import _mcts_proof as mcts_proof
from donuts_ai.donuts.agents import mcts as mcts_module
from donuts_ai.donuts.agents.mcts import MCTSAgent, TreeMemory
from donuts_ai.donuts.agents.search_base import tactical_choice
from donuts_ai.donuts.squares import SQUARE_NAMES
from donuts_ai.search.mcts import MCTSSettings
from donuts_ai.search.mcts import _tree as mcts_tree

from ..helpers import BLOCK, TINY_CLOCK, WIN_NOW, install_fake_clock, position
from ..helpers import opening as _opening


@pytest.fixture
def fake_clock(monkeypatch):
    """``fake_clock(step)`` installs a :class:`~.helpers.FakeClock` as the agent's clock."""
    return lambda step: install_fake_clock(monkeypatch, mcts_module, step)


@pytest.mark.parametrize("workers", [1, 2])
def test_mcts_past_its_deadline_plays_after_one_iteration(fake_clock, workers):
    fake_clock(10.0)
    agent = MCTSAgent(time_limit=0.1, seed=1, workers=workers)
    board = _opening()
    assert agent.select_move(board) in board.legal_moves()
    assert agent.last_info["iterations"] == workers  # the one that expands each root
    assert agent.select_move(position(**BLOCK)) == "f6"
    assert agent.select_move(position(**WIN_NOW), TINY_CLOCK) == "c2"


def test_mcts_reuses_its_tree():
    agent = MCTSAgent(simulations=5000, seed=3, proof_share=0)
    board = Board(Layout.random_grid(2))
    board.push(agent.select_move(board))
    board.push(board.legal_moves()[0])
    assert agent._reroot(board)  # the reply was in the tree: the root moves down
    other = Board(Layout.random_grid(3))
    assert not agent._reroot(other)
    assert agent.select_move(board) in board.legal_moves()


def test_mcts_proves_a_win_and_plays_it():
    board = position(**WIN_NOW)
    agent = MCTSAgent(simulations=50, seed=1, proof_share=0)
    assert agent.select_move(board) == "c2"


def _small_pool_positions(count: int, seed: int, after_forfeit: bool) -> list[Board]:
    """Positions of random small-pool games that the side to move wins, though not with
    every move. With ``after_forfeit`` the last event was a forfeit; else the opponent's
    pool is empty and the side to move places (at least) twice in a row."""
    rng = random.Random(seed)
    solver = Solver(tt_bits=16)
    out = []
    while len(out) < count:
        n = rng.choice([5, 6, 7])
        board = Board(Layout.random_grid(rng.randrange(10**6)), Rules(donuts=n))
        stop_at = rng.randrange(4, 2 * n)
        while not board.is_game_over() and board.ply < stop_at:
            if rng.random() < 0.25:
                board.forfeit()
            else:
                board.push(rng.choice(board.legal_moves()))
        if board.is_game_over():
            continue
        if after_forfeit:
            board.forfeit()
        else:
            p_me, p_opp = board.placed[board.turn], board.placed[1 - board.turn]
            if p_opp < n or p_me > n - 2:
                continue
        if board.is_game_over() or solve(board, distance=False).value != 1:
            continue
        if all(solver.move_value(board, m) == 1 for m in board.legal_moves()):
            continue
        out.append(board)
    return out


@pytest.mark.parametrize("after_forfeit", [True, False], ids=["after-a-forfeit", "opponent-pool-empty"])
def test_mcts_proves_wins_for_the_side_to_move_when_turns_do_not_alternate(after_forfeit):
    solver = Solver(tt_bits=16)
    for board in _small_pool_positions(8, seed=13 if after_forfeit else 14, after_forfeit=after_forfeit):
        agent = MCTSAgent(simulations=20_000, seed=1, proof_share=0)  # the tree's proofs, not the prover's
        move = agent.select_move(board)
        assert solver.move_value(board, move) == 1, (board.fen(), board.rules, move)
        if not agent.last_info["forced"]:
            assert agent.last_info["proven"], board.fen()  # a proof, oriented to the right side


def test_mcts_proofs_keep_the_value_through_forfeits_and_double_moves():
    """Games on small pools against an opponent that often forfeits (so turns do not
    alternate and one pool empties first): whenever the tree, re-rooted from move to move,
    holds a proof, the move keeps the solver's value."""
    solver = Solver(tt_bits=16)
    rng = random.Random(5)
    checked = 0
    for game in range(6):
        board = Board(Layout.random_grid(100 + game), Rules(donuts=6))
        agent = MCTSAgent(simulations=4000, seed=game, proof_share=0)
        while not board.is_game_over():
            if board.turn == game % 2:
                move = agent.select_move(board)
                if agent.last_info["proven"]:
                    assert solver.move_value(board, move) == solve(board, distance=False).value, board.fen()
                    checked += 1
                board.push(move)
            elif rng.random() < 0.4:
                board.forfeit()
            else:
                board.push(rng.choice(board.legal_moves()))
    assert checked > 0


# --- a tree that keeps growing: growth, recycling (compact), the memory bound ----------


def _snapshot(tree, t) -> dict:
    """Tree ``t`` as {path of moves from the root: (visits, value sum, mover, proven, number of children)},
    walked from the root through the pointers (what the search can reach)."""
    out = {}
    stack = [(int(tree.root[t]), ())]
    while stack:
        node, path = stack.pop()
        c0, k = int(tree.first_child[t, node]), int(tree.child_count[t, node])
        k = k if c0 >= 0 else 0
        out[path] = (int(tree.visits[t, node]), float(tree.value_sum[t, node]), int(tree.mover[t, node]),
                     int(tree.proven[t, node]), k)
        stack += [(c, path + (int(tree.move[t, c]),)) for c in range(c0, c0 + k)]
    return out


def _searched_tree(seed: int, iterations: int, plies: int):
    """An agent's tree after one search of ``iterations`` from a random position ``plies`` in."""
    rng = random.Random(seed)
    board = Board(Layout.random_grid(seed))
    while board.ply < plies and not board.is_game_over():
        board.push(rng.choice(board.legal_moves()))
    if board.is_game_over():
        board.pop()
    agent = MCTSAgent(simulations=iterations, seed=seed, proof_share=0, memory=TreeMemory(max_nodes=1 << 16))
    agent.select_move(board)
    return agent._tree


@pytest.mark.parametrize("seed", range(4))
def test_the_tree_keeps_its_last_descent_a_path_down_from_the_root(seed):
    """``path`` (as long as Donuts' longest path, which its binding gives) holds the last
    iteration's nodes: the root, then each a child of the one before, to a leaf or an end."""
    rng = random.Random(seed)
    board = Board(Layout.random_grid(seed))
    for _ in range(4):
        board.push(rng.choice(board.legal_moves()))
    tree = mcts_bound.new_tree(1, 1 << 12)
    mcts_tree.reset_tree(tree, 0, 1 - board.turn, seed)
    done, _ = mcts_bound.run_tree(tree, 0, rulebook_of(board.layout, board.rules), position_of(*board.kernel_state()),
                                  board.turn, 500, MCTSSettings(1.0, True), True)
    assert done == 500 and tree.path.shape == (1, 37)
    node = int(tree.path[0, 0])
    assert node == tree.root[0]
    for depth in range(1, tree.path.shape[1]):
        c0, k = int(tree.first_child[0, node]), int(tree.child_count[0, node])
        nxt = int(tree.path[0, depth])
        if not (c0 >= 0 and c0 <= nxt < c0 + k):
            break  # past the end of the descent: whatever the row held
        node = nxt
    assert depth > 1 and tree.visits[0, node] >= 1


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([200, 2000, 8000]), st.integers(0, 20), st.floats(0.0, 1.2),
       st.booleans())
def test_compact_keeps_the_most_visited_subtree_unchanged(seed, iterations, plies, share, reroot):
    """Against a walk of the tree before and after: what is kept is unchanged and
    contiguous; it fits in the target; every node that lost its children (proven ones
    aside) had fewer visits than every node below the root that kept them."""
    tree = _searched_tree(seed, iterations, plies)
    if reroot and tree.first_child[0, tree.root[0]] >= 0:  # a root below node 0: what lies outside goes
        assert mcts_tree.descend(tree, 0, np.array([tree.move[0, tree.first_child[0, tree.root[0]]]], dtype=np.int64))
    before = _snapshot(tree, 0)
    root_block = before[()][4]
    target = max(1 + root_block, int(share * len(before)))
    kept = mcts_tree.compact(tree, 0, target)
    after = _snapshot(tree, 0)
    assert kept == len(after) == tree.node_count[0] and tree.root[0] == 0
    assert kept <= target
    assert set(after) <= set(before)
    kept_visits, dropped_visits = [], []
    for path, (v, r, m, p, k) in after.items():
        bv, br, bm, bp, bk = before[path]
        assert (v, r, m, p) == (bv, br, bm, bp)
        assert k in (0, bk)
        if path and k:
            kept_visits.append(v)
        elif path and bk and p == mcts_tree.UNKNOWN:
            dropped_visits.append(v)
    assert after[()][4] == root_block  # the root keeps its children whatever the target
    if kept_visits and dropped_visits:
        assert max(dropped_visits) < min(kept_visits)
    if target >= len(before) - sum(before[q][4] for q in before if q and before[q][3] != mcts_tree.UNKNOWN):
        assert not dropped_visits  # all fits: only proven nodes' children go


def test_compact_then_search_on():
    """A recycled tree is searched on, re-rooted and recycled again without losing its way."""
    agent = MCTSAgent(simulations=20_000, seed=2, proof_share=0, memory=TreeMemory(max_nodes=2048))
    board = _opening(3)
    recycled = 0
    while not board.is_game_over():
        move = agent.select_move(board)
        assert move in board.legal_moves() and agent.last_info["nodes"] <= 2048
        if not agent.last_info["proven"] and not agent.last_info["forced"]:
            assert agent.last_info["iterations"] == 20_000
        recycled += agent.last_info["compactions"] > 0
        board.push(move)
        if not board.is_game_over():
            board.push(board.legal_moves()[0])
    assert recycled >= 3


@pytest.mark.parametrize("workers", [1, 2])
def test_node_budget_searches_that_grow_and_recycle_are_reproducible(monkeypatch, workers):
    monkeypatch.setattr(mcts_module, "FIRST_NODES", 1024)
    kw = dict(simulations=40_000, workers=workers, proof_share=0, memory=TreeMemory(max_memory_mb=1))
    board = _opening(5)
    moves, infos = [], []
    for _ in range(2):
        agent = MCTSAgent(seed=7, **kw)
        b = board.copy()
        game = []
        for _ in range(3):
            game.append(agent.select_move(b))
            infos.append({k: agent.last_info[k] for k in ("iterations", "nodes", "capacity", "grows", "compactions")})
            b.push(game[-1])
            b.push(b.legal_moves()[-1])
        moves.append(game)
    assert moves[0] == moves[1]
    assert infos[:3] == infos[3:]
    assert sum(i["grows"] for i in infos) > 0 and sum(i["compactions"] for i in infos) > 0


def _record_growths(monkeypatch) -> list[tuple[int, int]]:
    """Record (bytes of the arrays before, after) of every growth."""
    sizes = []
    real = mcts_module.grown

    def spy(tree, nodes):
        new = real(tree, nodes)
        sizes.append((sum(a.nbytes for a in tree[:7]), sum(a.nbytes for a in new[:7])))
        return new

    monkeypatch.setattr(mcts_module, "grown", spy)
    return sizes


@pytest.mark.parametrize("workers", [1, 2])
def test_the_tree_grows_within_the_memory_bound(monkeypatch, workers):
    """From small arrays, a long search grows them (never past the bound, old and new arrays
    together), then recycles the tree and goes on searching."""
    monkeypatch.setattr(mcts_module, "FIRST_NODES", 1024)
    sizes = _record_growths(monkeypatch)
    agent = MCTSAgent(simulations=60_000, workers=workers, seed=1, proof_share=0, memory=TreeMemory(max_memory_mb=1))
    assert agent.capacity == 1024
    board = _opening(2)
    agent.select_move(board)
    info = agent.last_info
    bound = 1 << 20
    assert sizes and all(old + new <= bound for old, new in sizes)
    assert agent.capacity > 1024 and agent.memory_mb <= 1 and info["compactions"] > 0
    assert info["iterations"] == 60_000 and info["nodes"] <= workers * agent.capacity


def test_a_long_search_grows_the_tree_past_its_first_arrays(monkeypatch):
    """A search of 800,000 iterations outgrows the first arrays (2**20 nodes for an
    iteration budget) and holds more nodes than that, within the default memory bound."""
    sizes = _record_growths(monkeypatch)
    agent = MCTSAgent(simulations=800_000, seed=1, proof_share=0)
    assert agent.capacity == 1 << 20
    agent.select_move(Board(Layout.standard()))
    assert agent.last_info["nodes"] > 1 << 20 and agent.last_info["grows"] >= 1
    assert all(old + new <= mcts_module.DEFAULT_MAX_MEMORY_MB << 20 for old, new in sizes)


def test_the_first_arrays_are_sized_from_the_time_limit():
    short, long = MCTSAgent(time_limit=0.1, seed=1), MCTSAgent(time_limit=2.0, seed=1)
    assert short.capacity < long.capacity  # more thinking time, larger first arrays
    capped = MCTSAgent(time_limit=2.0, seed=1, memory=TreeMemory(max_memory_mb=16))
    assert capped.capacity < long.capacity and capped.memory_mb <= 16  # within its memory bound
    assert MCTSAgent(time_limit=1000.0, seed=1).capacity == mcts_module.MAX_FIRST_NODES


def test_a_full_tree_with_no_time_to_make_room_stops_growing(fake_clock):
    """A timed move that cannot afford a growth or a recycling plays on with the full tree
    (playouts from its leaves), as the fixed-size tree did."""
    fake_clock(0.001)  # every reading of the clock: 1 ms; the move has 0.5 s
    agent = MCTSAgent(time_limit=0.5, seed=1, proof_share=0, memory=TreeMemory(max_nodes=256))
    agent._compact_cost = 1.0  # a recycling would take 256 s
    board = _opening(6)
    assert agent.select_move(board) in board.legal_moves()
    assert agent.last_info["compactions"] == 0 and agent.last_info["nodes"] <= 256
    assert agent.last_info["iterations"] > 0


@pytest.mark.parametrize("kwargs, message", [
    ({"memory": TreeMemory(max_nodes=10)}, "max_nodes must be at least 64"),
    ({"memory": TreeMemory(max_memory_mb=0)}, "max_memory_mb must be a positive int"),
    ({"memory": TreeMemory(max_memory_mb=1), "workers": 1000}, "leaves fewer than 64 nodes per tree"),
    ({"memory": TreeMemory(max_nodes=1 << 26)}, "does not fit in max_memory_mb=512"),
    ({"memory": 512}, "memory must be a TreeMemory"),
])
def test_memory_settings_are_checked(kwargs, message):
    with pytest.raises(DonutsError, match=message):
        MCTSAgent(**kwargs)


# --- the root prover -------------------------------------------------------------------


def _random_positions(count: int, seed: int, plies=(4, 30)) -> list[Board]:
    return agreement_positions(count, seed=seed, plies=plies)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 300_000))
def test_the_prover_agrees_with_the_solver(seed, node_limit):
    """Differential: within any node limit the prover's value of a position, and of each
    move there, is the solver's or None (not settled)."""
    solver = Solver(tt_bits=16)
    board = _random_positions(1, seed, plies=(8, 30))[0]
    prover = mcts_proof.RootProver(tt_bits=12)
    value = prover.value(board, node_limit)
    assert value in (None, solve(board, distance=False).value)
    for move in board.legal_moves():
        assert prover.child_value(board, SQUARE_NAMES.index(move), node_limit) in (None, solver.move_value(board, move))


def test_the_prover_plays_proven_wins_without_the_tree():
    solver = Solver(tt_bits=16)
    played = 0
    for board in _random_positions(12, seed=4, plies=(14, 30)):
        agent = MCTSAgent(simulations=2000, seed=1)
        move = agent.select_move(board)
        info = agent.last_info
        if info["forced"]:
            continue
        truth = solve(board, distance=False).value
        assert info["proof"] in (None, truth)
        if info["proof"] is not None and truth >= 0:
            assert solver.move_value(board, move) == truth and info["iterations"] == 0 and info["proven"]
            played += 1
    assert played >= 3


def test_the_prover_leaves_a_lost_root_to_the_tree():
    solver = Solver(tt_bits=16)
    lost = next(b for b in _random_positions(40, seed=9, plies=(14, 30))
                if tactical_choice(b)[0] is None and solve(b, distance=False).value == -1)
    agent = MCTSAgent(simulations=3000, seed=1)
    move = agent.select_move(lost)
    assert agent.last_info["proof"] == -1 and agent.last_info["iterations"] > 0
    assert solver.move_value(lost, move) == -1 and lost.is_legal(move)


def test_node_budget_games_with_the_prover_are_reproducible():
    def game(seed):
        board, moves = Board(Layout.random_grid(8)), []
        agents = [MCTSAgent(simulations=3000, seed=seed), MCTSAgent(simulations=1500, seed=seed + 1)]
        while not board.is_game_over():
            moves.append(agents[board.turn].select_move(board))
            board.push(moves[-1])
        return moves

    assert game(3) == game(3)


def test_the_prover_gets_no_time_past_the_deadline(fake_clock):
    fake_clock(10.0)
    agent = MCTSAgent(time_limit=0.1, seed=1)
    board = _random_positions(1, seed=2, plies=(20, 21))[0]
    agent.select_move(board)
    assert agent.last_info["proof_nodes"] == 0


def test_proof_share_is_checked():
    for bad in (-0.1, 1, 1.5, "0.2", True):
        with pytest.raises(DonutsError, match="proof_share must be a number in"):
            MCTSAgent(proof_share=bad)


@pytest.mark.parametrize("timed", [False, True])
def test_root_visits_stop_before_they_wrap_around(monkeypatch, fake_clock, timed):
    """Visit counts are int32: a search stops at MAX_VISITS root visits (lowered here)."""
    monkeypatch.setattr(mcts_module, "MAX_VISITS", 3000)
    if timed:
        fake_clock(1e-4)  # 0.5 s is 5,000 readings of the clock
        agent = MCTSAgent(time_limit=0.5, seed=1, proof_share=0)
    else:
        agent = MCTSAgent(simulations=20_000, seed=1, proof_share=0)
    board = _opening(7)
    agent.select_move(board)
    tree = agent._tree
    assert agent.last_info["iterations"] <= 3000 and agent.last_info["iterations"] > 0
    assert tree.visits[0, :tree.node_count[0]].max() <= 3000
