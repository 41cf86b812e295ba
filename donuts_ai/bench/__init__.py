"""``donuts-ai bench``: the speed of this machine's engines and agents, kept as records.

    donuts-ai bench                    (= python -m donuts_ai.bench) engine and search speed
    donuts-ai bench compare OLD NEW    two records: faster, slower, no difference within a margin, or inconclusive
    donuts-ai bench --agent SPEC       any agent's decisions/s and nodes/s beside our alpha-beta and MCTS
    donuts-ai bench --agent SPEC --game GAME   the same on another game's positions (GAME: a name or module:name)
    python -m donuts_ai.bench.boxes    Donut Boxes: random games/s, ISMCTS iterations/s, timed moves (also in donuts-ai bench)

This package holds the command and what it needs to run: the records (:mod:`.record`), their
comparison (:mod:`.compare`), their tables (:mod:`.tables`) and the yardstick that normalises
them (:mod:`.yardstick`). The stand-alone benchmark scripts (``python -m benchmarks.<name>``:
side by side versions, the published tables, strength, interop, ...) live in the checkout's
``benchmarks/`` folder, which is not installed. Benchmarks are not tests: nothing here
asserts a speed; each prints its machine.
"""

from .agents import agent_report, agent_report_of, agent_speed, bench_positions, game_positions
from .compare import compare_figures
from .engine import alphabeta_speed, main, mcts_speed, measure, report, run
from .record import Figure, SpeedRecordError, load, measure_work
from .reporting import machine

__all__ = ["Figure", "SpeedRecordError", "agent_report", "agent_report_of", "agent_speed", "alphabeta_speed", "bench_positions",
           "compare_figures", "game_positions", "load", "machine", "main", "mcts_speed", "measure", "measure_work", "report", "run"]
