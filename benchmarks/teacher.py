"""``python -m benchmarks.teacher``: the exact solver as the learner's teacher, measured.

``--label``: positions of self-play-like games (the shipped network's raw policy, its
moves drawn in proportion to the policy for the first 8 plies and its most probable
square after, as the self-play's temperature; fresh tile arrangements), each labelled by
the teacher within ``--nodes`` solver nodes on one thread: positions a second, and by
ply the share whose value and whose every move's value (the policy label) the solver
settled, with the mean milliseconds a position.

``--selfplay MINUTES``: a training run with the default settings (128 games, 32
simulations, the 32x3 network) for MINUTES with each teacher of ``--teachers`` (default
none and solver, one solver thread), reporting positions searched a second, the share
labelled, and the seconds the self-play waited for labels. The machine's load average is
printed before and after each part.

    nice -n 10 python -m benchmarks.teacher --label --games 40 --nodes 20000
    nice -n 10 python -m benchmarks.teacher --selfplay 1.5
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections import defaultdict

import numpy as np

from donuts_ai import Board, Layout, Rules
from donuts_ai.donuts.alphabeta.solver import Solver
from donuts_ai.donuts.squares import SQUARE_NAMES
from donuts_ai.learn.agent import cached_network, root_record
from donuts_ai.learn.batched_search import evaluate_roots, masked_policy, network_evaluator
from donuts_ai.learn.buffer import SAMPLE, legal_flags
from donuts_ai.learn.teacher import DEFAULT_MIN_PLY, DEFAULT_NODES, TEACHER_TT_BITS, canonical, label_position

#: Plies whose move is drawn from the policy (the self-play's temperature_plies).
DRAWN_PLIES = 8


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} ({os.cpu_count()} cores)"


def self_play_positions(games: int, seed: int) -> np.ndarray:
    """The positions of ``games`` games of the shipped network's raw policy (see the module)."""
    evaluator = network_evaluator(cached_network(None))
    rng = np.random.default_rng(seed)
    records = []
    for _ in range(games):
        board = Board(Layout.random(int(rng.integers(1 << 30))))
        while not board.is_game_over():
            root = root_record(board)
            sample = np.zeros(1, dtype=SAMPLE)
            for field in ("own", "opp", "legal", "last", "placed_own", "placed_opp", "color", "directions"):
                sample[field] = root[field]
            records.append(sample)
            logits, _ = evaluate_roots(evaluator, root, board.rules.donuts)
            policy = masked_policy(logits, legal_flags(root))[0].astype(np.float64)
            sq = int(rng.choice(len(policy), p=policy / policy.sum())) if board.ply < DRAWN_PLIES else int(policy.argmax())
            board.push(SQUARE_NAMES[sq])
    return np.concatenate(records)


def label_throughput(games: int, nodes: int, seed: int) -> None:
    records = self_play_positions(games, seed)
    rules, solver = Rules(), Solver(tt_bits=TEACHER_TT_BITS, threads=1)
    label_position(solver, canonical(records[-1:])[0], rules, nodes)  # the kernels loaded, outside the timing
    by_ply: dict[int, list[tuple[bool, bool, float, int]]] = defaultdict(list)
    print(f"labelling {len(records)} positions of {games} games, {nodes} nodes each, one thread; {load()}")
    started = time.perf_counter()
    for record, position in zip(records, canonical(records), strict=True):
        start = time.perf_counter()
        label = label_position(solver, position, rules, nodes)
        seconds = time.perf_counter() - start
        ply = int(record["placed_own"] + record["placed_opp"])
        by_ply[ply].append((label.value is not None, label.keep is not None, seconds, label.nodes))
    total = time.perf_counter() - started
    flat = [x for rows in by_ply.values() for x in rows]
    print(f"{len(flat) / total:.0f} positions/s; value settled {np.mean([x[0] for x in flat]):.1%}, "
          f"policy settled {np.mean([x[1] for x in flat]):.1%}, {np.mean([x[3] for x in flat]):.0f} nodes a position; {load()}")
    later = [x for ply, rows in by_ply.items() if ply >= DEFAULT_MIN_PLY for x in rows]
    print(f"from ply {DEFAULT_MIN_PLY} on (the default teacher_min_ply): {len(later) / sum(x[2] for x in later):.0f} positions/s "
          f"(solver time alone); value settled {np.mean([x[0] for x in later]):.1%}, policy settled "
          f"{np.mean([x[1] for x in later]):.1%}")
    print("| plies | positions | value settled | policy settled | ms a position | nodes a position |")
    print("| --- | --- | --- | --- | --- | --- |")
    for low in range(0, 36, 4):
        rows = [x for ply in range(low, low + 4) for x in by_ply.get(ply, [])]
        if rows:
            print(f"| {low}-{low + 3} | {len(rows)} | {np.mean([x[0] for x in rows]):.0%} | {np.mean([x[1] for x in rows]):.0%} | "
                  f"{1e3 * np.mean([x[2] for x in rows]):.2f} | {np.mean([x[3] for x in rows]):.0f} |")


def self_play(minutes: float, teachers: list[str], nodes: int, threads: int) -> None:
    from donuts_ai.learn.train import TrainConfig, Trainer

    for teacher in teachers:
        config = TrainConfig(teacher=teacher, teacher_nodes=nodes, teacher_threads=threads, checkpoint_every=10_000)
        with tempfile.TemporaryDirectory() as folder:
            warm = Trainer(f"{folder}/warm", config)  # compiles the network's shapes and loads the kernels
            warm.run(moves=2)
            warm.close()
            print(f"teacher {teacher}: {minutes} minutes; {load()}")
            trainer = Trainer(f"{folder}/run", config)
            p = trainer.run(minutes=minutes)
            trainer.close()
        searched = p["moves"] * config.games
        labelled = f", labelled {p['labelled']}: value settled {p['value_labels'] / p['labelled']:.1%}, policy " \
                   f"{p['policy_labels'] / p['labelled']:.1%}" if p["labelled"] else ""
        print(f"  {p['moves']} moves, {searched / p['seconds']:.0f} positions searched/s, {p['games']} games, "
              f"{p['positions'] / p['seconds']:.0f} positions into the buffer/s{labelled}; seconds: search "
              f"{p['search_seconds']:.1f}, network {p['network_seconds']:.1f}, training {p['train_seconds']:.1f}, "
              f"waiting for labels {p['label_wait_seconds']:.1f}, solver threads {p['label_seconds']:.1f}; {load()}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.teacher", description=__doc__.split("\n\n")[0])
    parser.add_argument("--label", action="store_true", help="labelling throughput and settled shares by ply")
    parser.add_argument("--games", type=int, default=40, help="games whose positions --label labels")
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODES, help="solver nodes per position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--selfplay", type=float, metavar="MINUTES", help="self-play positions/s by teacher, MINUTES each")
    parser.add_argument("--teachers", nargs="+", default=["none", "solver"])
    parser.add_argument("--threads", type=int, default=1, help="the teacher's solver threads in --selfplay")
    args = parser.parse_args(argv)
    if args.label:
        label_throughput(args.games, args.nodes, args.seed)
    if args.selfplay:
        self_play(args.selfplay, args.teachers, args.nodes, args.threads)
    if not args.label and not args.selfplay:
        parser.error("give --label and/or --selfplay MINUTES")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
