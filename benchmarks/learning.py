"""``python -m benchmarks.learning``: the learned agent against perfect play.

Measures a network (the shipped one, or ``--checkpoint PATH``) on the decided positions
of position suites (``--suites``, default the shipped phase suites opening, middlegame
and endgame, which the training has measured itself on; ``--fresh N --seed S`` labels N
new positions from the suites' generator with another seed): the share of positions
where the raw policy keeps the value, where the value head's sign is right, and where the
search with each of ``--simulations`` simulations keeps the value, over all positions and over
the critical ones (some move loses the value). The suites themselves are made by
``python -m donuts_ai.suites generate``; the agent ``az`` is measured like any other by
``donuts-ai evaluate az``.

``--ship RUN --command TEXT`` makes a training run's last checkpoint the shipped network:
its weights into ``donuts_ai/learn/data/``, with ``training.json`` (the command, the
settings, the run's figures, the machine), and its progress into
``notebooks/learning_progress.jsonl`` for the tutorial.

``--curve RUN`` prints the learning curve of a training run (its ``progress.jsonl``):
the raw policy's share against training time.

``--ablation`` trains each arm of the recipe (pure AlphaZero, + Gumbel, + the solver as
teacher, all: :mod:`benchmarks.ablation`) for ``--minutes`` from the same seed and
measures it on the winning positions of the ``middlegame`` and ``critical`` suites
(``--out`` keeps the runs and ``ablation.json``; ``--arms`` picks some; ``--set
name=value`` changes a training setting in every arm, e.g. ``--set games=64``).

    python -m benchmarks.learning --simulations 50 400
    python -m benchmarks.learning --fresh 400 --seed 7 --simulations 50 400
    python -m benchmarks.learning --curve runs/az
    python -m benchmarks.learning --ablation --minutes 30 --out runs/ablation
    python -m benchmarks.learning --winning --simulations 50 400 --json shipped.json

``--winning`` measures the issue's targets: on the **winning** positions of each of
``--suites`` (default ``middlegame`` and ``critical``, as the ablation), the share where
the raw policy and the search keep the value; ``--json`` also writes them to a file.

Its figures are not speed figures (shares that keep the value, losses, curves; the seconds
it prints only say how long a step took), so it writes no pyperf record (issue 48).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from benchmarks.ablation import ABLATION_SUITES, winning_positions
from donuts_ai.bench.reporting import write_json
from donuts_ai.learn.agent import cached_network, network_folder
from donuts_ai.learn.benchmark import PROBE_SUITES, label_positions, load_positions, measure


def ship(run: Path, command: str) -> int:
    """Copy ``run``'s last checkpoint's network into the package, with how it was made."""
    from donuts_ai.bench.reporting import machine
    from donuts_ai.learn.agent import SHIPPED_NETWORK
    from donuts_ai.learn.network import save_network
    from donuts_ai.learn.train import Trainer

    trainer = Trainer.resume(run)
    save_network(trainer.network, SHIPPED_NETWORK)
    import jax

    settings = {"command": command, "config": trainer.config.to_json(), "figures": trainer.counters,
                "machine": {**machine(), "jax": jax.__version__, "jax_backend": jax.default_backend()},
                "date": time.strftime("%Y-%m-%d")}
    (SHIPPED_NETWORK / "training.json").write_text(json.dumps(settings, indent=1) + "\n")
    notebooks = Path(__file__).resolve().parent.parent / "notebooks"
    (notebooks / "learning_progress.jsonl").write_text((run / "progress.jsonl").read_text())
    print(f"shipped {run}/checkpoint at move {trainer.counters['moves']} -> {SHIPPED_NETWORK}")
    return 0


def winning(checkpoint: str | None, suites: list[str], simulations: tuple[int, ...], out: Path | None) -> int:
    """Print (and write to ``out``) the share of each suite's winning positions where the
    network's raw policy, and its search with each of ``simulations``, keeps the value (the
    file's keys as before 0.5.0: ``sims``, ``sims_N``)."""
    network = cached_network(checkpoint)
    by_suite: dict[str, dict[str, float]] = {}
    print(f"network: {network_folder(checkpoint)}")
    print(f"{'suite':12} {'winning':>8} {'raw':>7}" + "".join(f" {f'{n} sims':>9}" for n in simulations) + "  seconds")
    for suite in suites:
        positions = winning_positions(suite)
        start = time.perf_counter()
        result = measure(network, positions, simulations=simulations)
        seconds = time.perf_counter() - start
        by_suite[suite] = {"positions": result["positions"], "raw_policy": result["policy"],
                           **{f"sims_{n}": result["searched"][n] for n in simulations}, "seconds": round(seconds, 1)}
        print(f"{suite:12} {result['positions']:8d} {result['policy']:7.1%}"
              + "".join(f" {result['searched'][n]:9.1%}" for n in simulations) + f"  {seconds:7.0f}", flush=True)
    if out is not None:
        figures = {"network": str(network_folder(checkpoint)), "sims": list(simulations), "suites": by_suite}
        write_json(out, figures)
    return 0


def _settings(pairs: list[str]) -> dict[str, object]:
    """``NAME=VALUE`` pairs as a dict, each value an int, a float or else the word."""
    out: dict[str, object] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise SystemExit(f"--set takes NAME=VALUE, got {pair!r}")
        value: object = text
        for kind in (int, float):
            try:
                value = kind(text)
                break
            except ValueError:
                pass
        out[name] = value
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.learning", description=__doc__.split("\n\n")[0])
    parser.add_argument("--fresh", type=int, metavar="N", help="measure on N freshly labelled positions")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--suites", nargs="+", default=None,
                        help="suite names or files (default: the phases; with --winning, middlegame and critical)")
    parser.add_argument("--checkpoint", default=None, help="a network folder or a training run (default: the shipped network)")
    parser.add_argument("--simulations", type=int, nargs="*", default=[50, 400],
                        help="the searches' simulations a move, one measure each (default 50 400)")
    parser.add_argument("--curve", type=Path, metavar="RUN", help="print the learning curve of a training run")
    parser.add_argument("--ship", type=Path, metavar="RUN", help="make RUN's last checkpoint the shipped network")
    parser.add_argument("--command", default="", help="with --ship: the command that made the run")
    parser.add_argument("--ablation", action="store_true", help="train and measure each arm of the recipe")
    parser.add_argument("--minutes", type=float, default=30.0, help="with --ablation: each arm's training time")
    parser.add_argument("--arms", nargs="+", default=None, help="with --ablation: the arms to run (default: all)")
    parser.add_argument("--out", type=Path, default=Path("runs/ablation"), help="with --ablation: the runs' folder")
    parser.add_argument("--winning", action="store_true",
                        help="measure on each suite's winning positions (default suites: middlegame, critical)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="with --winning: write the figures to FILE")
    parser.add_argument("--set", nargs="*", default=[], metavar="NAME=VALUE",
                        help="with --ablation: a training setting for every arm (an int, a float or a word)")
    args = parser.parse_args(argv)
    if args.ablation:
        from benchmarks.ablation import DEFAULT_ARMS, header, run_ablation

        arms = args.arms or list(DEFAULT_ARMS)
        simulations = args.simulations[0] if args.simulations else 50
        print(header(simulations))
        run_ablation(args.out, args.minutes, arms, seed=args.seed, simulations=simulations, overrides=_settings(args.set))
        return 0
    if args.ship is not None:
        return ship(args.ship, args.command)
    if args.winning:
        return winning(args.checkpoint, args.suites or list(ABLATION_SUITES), tuple(args.simulations), args.json)
    if args.curve is not None:
        print(f"{'minutes':>8} {'moves':>7} {'positions':>10} {'policy':>7} {'value':>6} {'p-loss':>7} {'v-loss':>7}")
        for line in (args.curve / "progress.jsonl").read_text().splitlines():
            p = json.loads(line)
            acc = "-" if p["policy_accuracy"] is None else f"{p['policy_accuracy']:.3f}"
            val = "-" if p["value_accuracy"] is None else f"{p['value_accuracy']:.3f}"
            print(f"{p['seconds'] / 60:8.1f} {p['moves']:7d} {p['positions']:10d} {acc:>7} {val:>6} "
                  f"{p['policy_loss']:7.3f} {p['value_loss']:7.3f}")
        return 0
    if args.fresh is not None:
        start = time.perf_counter()
        positions = label_positions(args.fresh, seed=args.seed)
        print(f"labelled {len(positions)} fresh positions (seed {args.seed}) in {time.perf_counter() - start:.0f} s")
    else:
        positions = load_positions(args.suites or list(PROBE_SUITES))
    network = cached_network(args.checkpoint)
    start = time.perf_counter()
    result = measure(network, positions, simulations=tuple(args.simulations))
    print(f"network: {network_folder(args.checkpoint)}")
    print(f"positions: {result['positions']} decided, {result['critical_positions']} critical "
          f"({time.perf_counter() - start:.0f} s to measure)")
    print(f"{'':30} {'all':>7} {'critical':>9}")
    print(f"{'raw policy keeps value':30} {result['policy']:7.3f} {result['critical_policy']:9.3f}")
    print(f"{'value head sign right':30} {result['value']:7.3f}")
    for n in args.simulations:
        print(f"{f'az simulations={n} keeps value':30} {result['searched'][n]:7.3f} {result['critical_searched'][n]:9.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
