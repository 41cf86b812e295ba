"""The ``main`` of a benchmark that writes records: ``--runs N`` independent processes,
``--json FILE``, and the hidden option each run is started with
(:func:`donuts_ai.bench.record.run_processes`).

Kept apart from :mod:`~donuts_ai.bench.record` (which reads and writes records) because it
prints the tables (:mod:`~donuts_ai.bench.tables`), which read records.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .._checks import check_output_file, check_replaceable, reads_as
from ..errors import DonutsError
from .record import (
    RUN_OPTION,
    Figure,
    SpeedRecordError,
    busy_warning,
    dump,
    load,
    load_average,
    others_busy_cores,
    process_seconds,
    run_processes,
    suite_of,
)
from .tables import record_text


def add_record_options(parser: argparse.ArgumentParser, default_runs: int = 3, printed_only: str | None = None) -> None:
    """The options of a benchmark that writes records: ``--runs N``, ``--json FILE``, and
    the hidden :data:`RUN_OPTION` that :func:`run_processes` starts each run with; the help's
    epilog says what the record is, and what is printed but not stored (``printed_only``)."""
    said = ("--json FILE writes a pyperf record (python -m pyperf stats FILE reads it) of the timed figures, made of "
            f"--runs independent processes{f'; {printed_only} printed, not stored' if printed_only else ''}.")
    parser.epilog = f"{parser.epilog} {said}" if parser.epilog else said
    parser.add_argument("--runs", type=int, default=default_runs,
                        help=f"independent processes the figures are measured in (default {default_runs})")
    parser.add_argument("--json", metavar="FILE", help="also write the record (pyperf JSON) there")
    parser.add_argument(RUN_OPTION, dest="record_run", metavar="FILE", help=argparse.SUPPRESS)


def without_options(argv: Sequence[str], options: Sequence[str]) -> list[str]:
    """``argv`` less the given options and their values (``--opt VALUE`` or ``--opt=VALUE``)."""
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in options:
            skip = "=" not in arg
            continue
        out.append(arg)
    return out


def record_main(parser: argparse.ArgumentParser, args: argparse.Namespace, argv: Sequence[str] | None, module: str,
                measure: Callable[[], tuple[list[Figure], str]],
                report: Callable[[Any], str] | None = None) -> int:
    """The ``main`` of a benchmark that writes records (options of :func:`add_record_options`):
    with :data:`RUN_OPTION`, one run in this process into its file (``measure`` gives the
    figures and the settings); with ``--runs 1``, the one run in this process (its progress
    lines seen as it goes); otherwise ``--runs`` processes of ``module`` with the same
    arguments; then the table printed (``report``, by default the record's own table) and the
    record written to ``--json``. Bad input exits with status 2 and one line."""
    argv = sys.argv[1:] if argv is None else list(argv)

    def run_here() -> Any:
        """One run in this process, as a record: the yardstick measured first, for the
        figures that do not measure their own."""
        from . import yardstick  # (imports Numba: only a run measures)

        load_before, rate = load_average(), yardstick.rate()
        figures, settings = measure()
        return suite_of(figures, settings, parser.prog, load_before, run_seconds=process_seconds(), yardstick_rate=rate)

    try:
        if args.runs < 1:
            raise DonutsError(f"--runs must be at least 1, got {args.runs}")
        if args.json:  # before the runs: a record that cannot be written is not measured for nothing
            check_replaceable("--json", check_output_file("--json", args.json), reads_as(load, SpeedRecordError),
                              "a speed record")
        if args.record_run:
            dump(run_here(), args.record_run)
            return 0
        warning = busy_warning(load_average(), others=others_busy_cores())
        if warning:
            print(warning, file=sys.stderr)
        if args.runs == 1:  # one run: in this process, so that what it prints as it goes is seen
            suite = run_here()
        else:
            suite = run_processes(module, without_options(argv, ("--json", "--runs")), args.runs,
                                  lambda text: print(f"{parser.prog}: {text}", file=sys.stderr, flush=True))
        print((report or record_text)(suite))
        if args.json:
            dump(suite, args.json)
    except DonutsError as exc:
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    return 0


