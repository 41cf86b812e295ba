"""The three tree searches side by side (issue 29, item 4): node rates of fixed-iteration
searches by process CPU time, and a fingerprint of what each search found, on the tree
on PYTHONPATH. Speaks the APIs of 0.3.0 onward (the searches under ``search/``, the state API).

Prints one JSON line: ``mcts`` (iterations/s, one worker), ``mcts2`` (two root-parallel
workers), ``ismcts2`` / ``ismcts4`` (Donut Boxes, 2 and 4 players), ``puct`` (simulations/s,
64 games, a fixed deterministic evaluator, no network), each the median of R repeats;
``fingerprint``: a digest of every root child's move and visit count (and the chosen moves)
of the fixed-seed searches, the same before and after when the searches are unchanged.
``--fingerprint-only`` makes one pass (its rates printed, untimed repeats skipped) for the digest.
"""

import hashlib
import inspect
import json
import random
import statistics
import sys
import time

import numpy as np
from trees import budget, module

from donuts_ai import Board, Layout, Rules
from donuts_ai.boxes import BoxesRules, BoxesState
from donuts_ai.boxes.agents import ISMCTSAgent
from donuts_ai.learn.batched_search import BatchSearch
from donuts_ai.search.ismcts import root_stats as ismcts_root_stats
from donuts_ai.search.mcts._tree import root_stats as mcts_root_stats

GAME = module("donuts_ai.donuts._kernels.batch", "donuts_ai.donuts._engine.batch", "donuts_ai._engine.batch").GAME
position_of = module("donuts_ai.donuts._kernels.position", "donuts_ai.donuts._engine.position", "donuts_ai._engine.position").position_of
MCTSAgent = module("donuts_ai.donuts.agents.mcts", "donuts_ai.search.mcts").MCTSAgent


R = 7
cpu = time.process_time
FINGERPRINT_ONLY = "--fingerprint-only" in sys.argv
#: What an unproven MCTS node's ``proven`` read before 0.5.0 (the fingerprint writes it so in every tree).
UNPROVEN_BEFORE_0_5 = 2
digest = hashlib.sha256()


def note(*arrays):
    for a in arrays:
        digest.update(np.ascontiguousarray(np.asarray(a, dtype=np.float64)).tobytes())


def median_rate(work):
    rates = []
    for _ in range(1 if FINGERPRINT_ONLY else R):
        t = cpu()
        n = work()
        rates.append(n / (cpu() - t))
    return statistics.median(rates)


def donuts_positions():
    rng = random.Random(1)
    out = []
    for seed in range(4):
        board = Board(Layout.random_grid(100 + seed))
        for _ in range(6):
            board.push(rng.choice(board.legal_moves()))
        out.append(board)
    return out


def mcts(workers, iterations):
    boards = donuts_positions()

    def work():
        n = 0
        for k, board in enumerate(boards):
            agent = MCTSAgent(**budget(MCTSAgent, iterations), workers=workers, proof_share=0.0, reuse=False, seed=k)
            move = agent.select_move(board)
            for t in range(workers):
                moves, visits, _, proven = mcts_root_stats(agent._tree, t)
                # An unproven node reads outcomes.UNKNOWN (-128) since 0.5.0, 2 before: the same node.
                note(moves, visits, np.where(np.isin(proven, (-1, 0, 1)), proven, UNPROVEN_BEFORE_0_5))
            digest.update(move.encode())
            n += agent.last_info["iterations"]
        return n

    work()  # compile
    return median_rate(work)


def ismcts(players, iterations):
    states = []
    for seed in range(3):
        s = BoxesState(BoxesRules(players=players), seed=seed)
        for k in range(8):
            s.push_id(s.random_move_id(k))
        states.append(s)

    def work():
        n = 0
        for k, s in enumerate(states):
            agent = ISMCTSAgent(**budget(ISMCTSAgent, iterations), seed=k)
            move = agent.select_move(s)
            moves, visits, means = ismcts_root_stats(agent._tree, s.turn)
            note(moves, visits, means)
            digest.update(move.encode())
            n += (getattr(agent, "last_info", None) or agent.last_search)["iterations"]  # last_search in 0.3.0
        return n

    work()
    return median_rate(work)


def evaluator(planes):
    """Deterministic logits and values from the planes (no network): fixed weights."""
    flat = planes.reshape(planes.shape[0], 36, -1)
    weights = np.linspace(-1.0, 1.0, flat.shape[2], dtype=np.float32)
    logits = (flat @ weights).astype(np.float32)
    values = np.tanh(flat.sum(axis=(1, 2)) / 50.0 - 1.0).astype(np.float32)
    return logits, values


def puct(games, sims):
    rng = random.Random(5)
    roots = np.zeros(games, dtype=GAME)
    for g in range(games):
        board = Board(Layout.random(rng.randrange(1000)))
        for _ in range(rng.randrange(10)):
            board.push(rng.choice(board.legal_moves()))
        b0, b1, turn, last, p0, p1 = board.kernel_state()
        pos = position_of(b0, b1, turn, last, p0, p1)
        r = roots[g]
        r["own"], r["opp"], r["last"] = pos.own, pos.opp, pos.last
        r["placed_own"], r["placed_opp"], r["color"] = pos.placed_own, pos.placed_opp, turn
        r["legal"] = np.uint64(board.legal_mask())
        r["line_masks"] = board.layout.line_masks
        r["directions"] = board.layout.directions
    active = np.ones(games, dtype=np.bool_)
    search = BatchSearch(games, sims)

    rules = Rules()
    if "rules" in inspect.signature(search.run).parameters:
        rules_args = (rules,)
    else:  # before 0.6.0: the layouts' directions, the donuts and the insertion rule
        rules_args = (roots["directions"], rules.donuts, rules.insertion == "single")

    def work():
        result = search.run(evaluator, roots, active, *rules_args)
        note(result.visits, np.nan_to_num(result.values, nan=-9.0))
        return games * result.simulations

    work()
    return median_rate(work)


out = {
    "mcts": mcts(1, 20_000),
    "mcts2": mcts(2, 20_000),
    "ismcts2": ismcts(2, 3000),
    "ismcts4": ismcts(4, 2000),
    "puct": puct(64, 200),
}
out = {k: round(v) for k, v in out.items()}
out["fingerprint"] = digest.hexdigest()[:16]
print(json.dumps(out))
