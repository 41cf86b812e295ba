"""``donuts-ai train``: AlphaZero-style self-play training from the command line.

This module imports nothing of JAX until the command runs, so that ``donuts-ai --help``
works without the ``learn`` extra installed.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any

from ..donuts.rules import RULE_KEYS, add_rules_arguments
from ..errors import DonutsError

#: Options that shape a run; with --resume the run's own settings hold, so they are refused.
_SETTINGS = ("seed", "games", "simulations", "layout", *RULE_KEYS, "channels", "blocks", "value_head", "batch_size", "learning_rate",
             "train_steps", "checkpoint_every", "replay_capacity", "min_replay", "teacher", "teacher_nodes",
             "teacher_min_ply", "teacher_threads", "dataset", "search", "gumbel_considered", "full_fraction", "fast_simulations",
             "solve_plies", "explore_fraction", "initial_network", "workers", "round_moves")
#: The settings of the network's shape (the rest are the run's).
_NETWORK_SETTINGS = ("channels", "blocks", "value_head")
#: The choices of --teacher and --value-head (as .teacher.TEACHER_MODES and .network.VALUE_HEADS,
#: repeated here so that ``donuts-ai --help`` loads no JAX).
TEACHERS, VALUE_HEADS = ("none", "solver", "mixed"), ("scalar", "wdl")
#: The choices of --search and --backend (as .train.SEARCHES and .workers.TRAIN_BACKENDS).
SEARCHES, BACKENDS = ("puct", "gumbel"), ("local", "ray")


def add_train_command(sub: Any) -> None:
    train = sub.add_parser("train", help="train the learned agent (az) by AlphaZero-style self-play (needs the learn extra)")
    train.add_argument("--out", required=True, metavar="DIR", help="the run's folder: checkpoints and progress.jsonl")
    train.add_argument("--minutes", type=float, help="wall minutes to train (this session)")
    train.add_argument("--moves", type=int, help="stop when the run has made this many self-play moves in all")
    train.add_argument("--resume", action="store_true", help="continue the run in --out from its last checkpoint")
    train.add_argument("--seed", type=int, help="every random choice of the run comes from it (default 0)")
    train.add_argument("--games", type=int, help="self-play games at once (default 128)")
    train.add_argument("--simulations", type=int, help="simulations per self-play move (default 32)")
    train.add_argument("--layout", help="layout spec of the self-play games: random (default: random tile arrangements), "
                                        "standard, random:SEED:COUNT (a pool), a file")
    add_rules_arguments(train)  # --insertion, --donuts: the rules flags of every command
    train.add_argument("--channels", type=int, help="network trunk channels (default 32)")
    train.add_argument("--blocks", type=int, help="residual blocks (default 3)")
    train.add_argument("--value-head", choices=VALUE_HEADS,
                       help="the network's value head: scalar (tanh, default) or wdl (win/draw/loss probabilities)")
    train.add_argument("--batch-size", type=int, help="training batch (default 256)")
    train.add_argument("--learning-rate", type=float, help="AdamW learning rate (default 0.001)")
    train.add_argument("--train-steps", type=int, help="training steps per self-play move (default 2)")
    train.add_argument("--checkpoint-every", type=int, help="self-play moves between checkpoints (default 100)")
    train.add_argument("--replay-capacity", type=int, help="positions kept in the replay buffer (default 200000)")
    train.add_argument("--min-replay", type=int, help="positions in the buffer before training starts (default 4096)")
    train.add_argument("--teacher", choices=TEACHERS,
                       help="the exact solver as teacher: none (self-play targets only, default), solver (its labels "
                            "replace the targets where it settles the position), mixed (its value; the policy half "
                            "visits, half the solver's)")
    train.add_argument("--teacher-nodes", type=int, help="solver nodes per position for its label (default 20000)")
    train.add_argument("--teacher-min-ply", type=int,
                       help="label positions from this ply on (default 4: the first plies rarely settle, at a high cost)")
    train.add_argument("--teacher-threads", type=int, help="solver threads labelling beside the self-play (default 1)")
    train.add_argument("--search", choices=SEARCHES,
                       help="the self-play search: puct (AlphaZero, visit-count targets, default) or gumbel (Gumbel "
                            "root selection, completed-Q targets)")
    train.add_argument("--gumbel-considered", type=int, help="with --search gumbel: root actions considered (default 16)")
    train.add_argument("--full-fraction", type=float,
                       help="with --search gumbel: share of moves searched in full, the policy targets (default 1; "
                            "0.25 is KataGo's playout-cap randomization)")
    train.add_argument("--fast-simulations", type=int,
                       help="with --search gumbel: simulations of the other moves (default 8)")
    train.add_argument("--solve-plies", type=int,
                       help="with --search gumbel: the solver settles leaves with at most this many plies left "
                            "(default 10; 0: only positions settled in one ply)")
    train.add_argument("--explore-fraction", type=float,
                       help="share of self-play games that explore: every move drawn from the search's target, not "
                            "only the first 8 (default 0), for the network and the teacher to see positions off the "
                            "main lines")
    train.add_argument("--dataset", metavar="DIR",
                       help="write every self-play position (visits, result, labels) into this folder as a dataset")
    train.add_argument("--initial-network", metavar="PATH",
                       help="start from this network (a network folder, a training run or a supervised run) instead of "
                            "fresh weights; its shape is the run's unless --channels/--blocks/--value-head say otherwise")
    train.add_argument("--workers", type=int,
                       help="self-play workers, each with its own --games games, seeds and teacher, playing rounds of "
                            "--round-moves moves while the learner trains (default 0: self-play and training in turn "
                            "in this process)")
    train.add_argument("--round-moves", type=int, help="with --workers: moves of each worker a round (default 10)")
    train.add_argument("--backend", choices=BACKENDS, default="local",
                       help="where the workers play: local (this process, one after another) or ray (Ray actors, one "
                            "CPU each); the same run on either (default local)")
    train.add_argument("--address", help="with --backend ray: the Ray cluster to join (as ray start --head prints it); "
                                         "default: a Ray instance of --workers CPUs on this machine")
    train.add_argument("--no-measure", action="store_true", help="do not measure checkpoints against the solver's labels")
    train.set_defaults(func=_cmd_train)


def _config(args: argparse.Namespace) -> Any:
    from .config import TrainConfig
    from .network import NetworkConfig

    given = {name: getattr(args, name) for name in _SETTINGS if getattr(args, name) is not None}
    network = {key: given.pop(key) for key in _NETWORK_SETTINGS if key in given}
    try:
        if "initial_network" in given:  # its shape, where no option says another
            network = {**_shape_of(given["initial_network"]), **network}
        return TrainConfig(**given, network=NetworkConfig(**network))
    except DonutsError as exc:  # name the option, not the field: "TrainConfig.teacher_nodes" -> "--teacher-nodes"
        raise DonutsError(re.sub(r"\b(?:TrainConfig|NetworkConfig)\.(\w+)", lambda m: "--" + m.group(1).replace("_", "-"),
                                 str(exc))) from None


def _shape_of(path: str) -> dict[str, Any]:
    """The shape (:class:`~.network.NetworkConfig`'s fields) of the network ``path`` names."""
    import dataclasses

    from .network import load_network

    return dataclasses.asdict(load_network(path).config)


def _cmd_train(args: argparse.Namespace) -> int:
    if args.minutes is None and args.moves is None:
        raise DonutsError("train needs --minutes or --moves")
    if args.minutes is not None and not args.minutes > 0:
        raise DonutsError(f"--minutes must be positive, got {args.minutes}")
    if args.moves is not None and args.moves < 1:
        raise DonutsError(f"--moves must be positive, got {args.moves}")
    given = [name for name in _SETTINGS if getattr(args, name) is not None]
    if args.resume and given:
        raise DonutsError(f"--resume continues the run with its own settings; drop --{given[0].replace('_', '-')}")
    if args.address is not None and args.backend != "ray":
        raise DonutsError("--address is a Ray cluster's: it needs --backend ray")
    if args.backend == "ray" and not args.resume and not args.workers:
        raise DonutsError("--backend ray plays the self-play in workers: give --workers N")
    try:
        from .benchmark import accuracy_probe, probe_baselines, probe_positions
        from .config import Progress
        from .runs import open_trainer
    except ImportError as exc:  # the learn extra is missing
        raise DonutsError(f"train needs the learn extra (pip install 'donuts_ai[learn]'): {exc}") from None
    trainer = open_trainer(args.out, None if args.resume else _config(args), resume=args.resume, backend=args.backend,
                           address=args.address)
    probe = [] if args.no_measure else probe_positions()
    measure = accuracy_probe(probe) if probe else None
    # The probe's baselines, once: what a uniformly random move and the greedy agent keep.
    baselines = probe_baselines(probe) if probe else {}
    config = trainer.config
    teacher = "" if config.teacher == "none" else \
        f", teacher {config.teacher} ({config.teacher_nodes} nodes, {config.teacher_threads} thread(s))"
    workers = "" if not config.workers else \
        f", {config.workers} worker(s) on {args.backend} in rounds of {config.round_moves} moves"
    print(f"training in {args.out}: {config.games} games at once{' a worker' if config.workers else ''}, "
          f"{config.simulations} simulations a move, layouts {config.layout}, "
          f"network {config.network.channels}x{config.network.blocks} ({config.network.value_head} value), seed {config.seed}"
          f"{teacher}{workers}" + (f" (resumed at move {trainer.counters['moves']})" if args.resume else ""), flush=True)
    if baselines:
        print(f"probe: {len(probe)} decided positions of the suites; a move keeps the solver's value for "
              f"{baselines['random']:.1%} of them played uniformly at random, {baselines['greedy']:.1%} by the greedy agent",
              flush=True)
    from ..tournament.progress import ProgressBar  # on demand: the command's help loads no harness

    last: dict[str, float] = {}
    # A bar of moves on a terminal (to --moves when given), the checkpoint lines beside it; a log gets the lines alone.
    bar = ProgressBar(args.moves, trainer.counters["moves"], sys.stderr.isatty(), desc="train", unit="move")

    def report(p: Progress) -> None:
        seconds = p["seconds"] - last.get("seconds", 0.0) or 1e-9
        games = (p["games"] - last.get("games", 0)) / seconds
        positions = (p["positions"] - last.get("positions", 0)) / seconds
        busy = p["search_seconds"] + p["network_seconds"] + p["train_seconds"] + p["label_wait_seconds"] or 1e-9
        accuracy = "" if p["policy_accuracy"] is None else (
            f"  solver: policy {p['policy_accuracy']:.3f} (random {baselines['random']:.3f}, greedy "
            f"{baselines['greedy']:.3f}) value {p['value_accuracy']:.3f}")
        if p["labelled"]:
            accuracy += f"  labels: value {p['value_labels'] / p['labelled']:.0%} policy {p['policy_labels'] / p['labelled']:.0%}"
        bar.write(f"{p['seconds'] / 60:6.1f} min  move {p['moves']}  games {p['games']} ({games:.1f}/s)  "
                  f"positions {p['positions']} ({positions:.0f}/s)  loss policy {p['policy_loss']:.3f} "
                  f"value {p['value_loss']:.3f}{accuracy}  time: search {p['search_seconds'] / busy:.0%} "
                  f"network {p['network_seconds'] / busy:.0%} training {p['train_seconds'] / busy:.0%}"
                  + (f" labels {p['label_wait_seconds'] / busy:.0%}" if p["labelled"] else ""))
        bar.update(p["moves"] - bar.done, policy_loss=f"{p['policy_loss']:.3f}", value_loss=f"{p['value_loss']:.3f}")
        last.update(seconds=p["seconds"], games=p["games"], positions=p["positions"])

    try:
        trainer.run(minutes=args.minutes, moves=args.moves, report=report, measure=measure)
    finally:
        bar.close()
        trainer.close()
    print(f"checkpoint: {args.out}/checkpoint (play it: az:checkpoint={args.out})")
    return 0
