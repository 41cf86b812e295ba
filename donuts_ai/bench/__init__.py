"""Benchmarks: every speed and calibration figure in ``benchmarks/RESULTS.md``, one module each.

    donuts-ai bench                    (= python -m donuts_ai.bench = python -m benchmarks) engine and search speed
    donuts-ai bench compare OLD NEW    two records: faster, slower, no difference within a margin, or inconclusive
    python -m benchmarks.compare OLD [NEW]  one benchmark on two versions, side by side, round by round
    python -m benchmarks.tables        the published tables regenerated from the committed records
    donuts-ai bench --agent SPEC       any agent's decisions/s and nodes/s beside our alpha-beta and MCTS
    donuts-ai bench --agent SPEC --game GAME   the same on another game's positions (GAME: a name or module:name)
    python -m donuts_ai.bench.kernels  the public compiled API against the private engine: the same negamax's node rate
    python -m donuts_ai.bench.search   solver vs a naive negamax, strength matches, agreement with the solver
    python -m donuts_ai.bench.harness  tournament harness overhead and worker speed-up
    python -m donuts_ai.bench.time_use how much of its budget each timed agent spends
    python -m donuts_ai.bench.calibration  ratings and SPRT on simulated results with a known truth
    python -m donuts_ai.bench.boxes    Donut Boxes: random games/s, ISMCTS iterations/s, timed moves (also in donuts-ai bench)
    python -m donuts_ai.bench.strength strength against thinking time (T against T/4) and agreement with the solver

The same commands also run as ``python -m benchmarks.<name>`` from a checkout. Benchmarks
are not tests: nothing here asserts a speed; each prints its machine.
"""

from ._report import machine
from .agents import agent_report, agent_report_of, agent_speed, bench_positions, game_positions
from .compare import compare_figures
from .engine import alphabeta_speed, main, mcts_speed, measure, report, run
from .record import Figure, SpeedRecordError, load, measure_work

__all__ = ["Figure", "SpeedRecordError", "agent_report", "agent_report_of", "agent_speed", "alphabeta_speed", "bench_positions",
           "compare_figures", "game_positions", "load", "machine", "main", "mcts_speed", "measure", "measure_work", "report", "run"]
