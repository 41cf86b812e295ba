"""Hot-kernel rates by process CPU time (robust on a shared machine): best of R repeats.
Runs the same workloads as donuts_ai.bench.engine (playouts, perft depth 7, alpha-beta at
depth 14 on six early positions, MCTS 1 worker, VectorEnv 4096 games) on the tree on
PYTHONPATH; --solver adds the solver's node counts. See run.sh."""

import inspect
import json
import random
import sys
import time

from trees import budget, module

from donuts_ai import Board, Layout, VectorEnv, perft, random_playouts
from donuts_ai.bench import engine as B

P = module("donuts_ai.donuts._kernels.position", "donuts_ai.donuts._engine.position", "donuts_ai._engine.position")
MCTSAgent = module("donuts_ai.donuts.agents.mcts", "donuts_ai.search.mcts").MCTSAgent


search_moves = module("donuts_ai.donuts.alphabeta._negamax", "donuts_ai.search.alphabeta._negamax").search_moves
new_table = module("donuts_ai.donuts.alphabeta._table", "donuts_ai.search.alphabeta._table").new_table
new_workspace = module("donuts_ai.donuts.alphabeta._workspace", "donuts_ai.search.alphabeta._workspace").new_workspace

R = 5
cpu = time.process_time


def best(work):
    rates = []
    for _ in range(R):
        t = cpu()
        n = work()
        rates.append(n / (cpu() - t))
    return max(rates)


layout = Layout.standard()
random_playouts(layout, 10, seed=0)
perft(Board(layout), 3)
out = {}
out["playouts"] = best(lambda: random_playouts(layout, 100_000, seed=1).n_games)
out["perft7"] = best(lambda: perft(Board(layout), 7))
rng = random.Random(1)
positions = []
for seed in range(6):
    board = Board(Layout.random_grid(100 + seed))
    for _ in range(4):
        board.push(rng.choice(board.legal_moves()))
    positions.append(board)
tables = [new_table(20) for _ in positions]


def ab():
    for tt in tables:
        tt.fill(0)
    nodes = 0
    for board, tt in zip(positions, tables, strict=True):
        book, position = P.rulebook_of(board.layout, board.rules), P.position_of(*board.kernel_state())
        _, _, n, _ = search_moves(book, position, 14, tt, new_workspace(), 1 << 62, -1)
        nodes += int(n)
    return nodes


ab()
out["alphabeta_d14"] = best(ab)
agent = MCTSAgent(**budget(MCTSAgent, 20_000), workers=1, seed=1, reuse=False, proof_share=0)
b0 = Board(layout)
agent.select_move(b0)


def mc():
    agent.select_move(b0)
    return agent.last_info["iterations"]


out["mcts_1"] = best(mc)
env = VectorEnv(4096, layout="random", seed=1)
env.step(env.random_actions())


def ve():
    for _ in range(50):
        env.step(env.random_actions())
    return 50 * 4096


out["vector_env"] = best(ve)


def solver_nodes(seeds, distance):
    """The solver's nodes on the empty boards of ``random_grid(seed)`` for each seed, by the
    tree's bench: one repeat's figures (their params) from 0.5.0, a dict of rows before."""
    if "repeats" in inspect.signature(B.solver_speed).parameters:
        return [figure.params["nodes"] for figure in B.solver_speed(seeds, distance, 1)]
    return [row["nodes"] for row in B.solver_speed(seeds, distance=distance)["rows"]]


if "--solver" in sys.argv:
    out["solver_nodes"] = solver_nodes(B.SOLVER_LAYOUTS, False)
    out["solver_distance_nodes"] = solver_nodes(B.SOLVER_LAYOUTS[:3], True)
print(json.dumps(out))
