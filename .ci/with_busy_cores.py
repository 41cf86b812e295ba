"""Run a command while other processes keep every core busy, as on a shared machine.

    python .ci/with_busy_cores.py [--burners N] [--fill-idle] -- COMMAND ...

Starts N (default: the number of cores) CPU-burning processes, runs COMMAND, stops the
burners whatever happens, and exits with COMMAND's status. At the end it prints how busy
the cores were while COMMAND ran (all processes, from /proc/stat where there is one).

``--fill-idle`` starts the burners at the lowest priority (nice 19): they take only the
time no other process wants. For a command run beside other work that already keeps the
cores busy (``make test`` runs the time-sensitive tests beside the rest of the suite): the
burners then only fill the gaps, and COMMAND competes with that work, not with them.
"""

import argparse
import os
import subprocess
import sys

BURN = "while True: pass"
BURN_LOWEST = "import os; os.nice(19)\nwhile True: pass"
#: The kernel's CPU time counters, summed over every core (the first line).
PROC_STAT = "/proc/stat"
#: Columns of /proc/stat's cpu line that count a core doing nothing: idle, iowait.
IDLE_COLUMNS = (3, 4)
#: utime's place in /proc/PID/stat after the command's name (stime follows), in the same ticks.
UTIME_FIELD = 11


def cpu_ticks() -> tuple[int, int] | None:
    """(all ticks, idle ticks) of every core so far, or ``None`` without /proc/stat."""
    try:
        with open(PROC_STAT) as stat:
            counts = [int(field) for field in stat.readline().split()[1:]]
    except OSError:
        return None
    return sum(counts), sum(counts[i] for i in IDLE_COLUMNS)


def process_ticks(pid: int) -> int:
    """CPU ticks (user and system) a process has used, 0 where it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[UTIME_FIELD]) + int(fields[UTIME_FIELD + 1])


def busy_share(before: tuple[int, int] | None, after: tuple[int, int] | None, burned: int) -> str:
    """How busy every core was between two readings, and how much of it the burners were."""
    if before is None or after is None or after[0] == before[0]:
        return "not measured (no /proc/stat)"
    total, idle = after[0] - before[0], after[1] - before[1]
    return f"{100 * (total - idle) / total:.1f}% of the time, the burners {100 * burned / total:.1f}%"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--burners", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--fill-idle", action="store_true", help="burners at the lowest priority (nice 19)")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given")
    code = BURN_LOWEST if args.fill_idle else BURN
    burners = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(args.burners)]
    before = cpu_ticks()
    try:
        kind = "lowest-priority CPU burners (filling idle time)" if args.fill_idle else "CPU burners"
        print(f"with_busy_cores: {len(burners)} {kind} running beside: {' '.join(command)}", flush=True)
        return subprocess.call(command)
    finally:
        after, burned = cpu_ticks(), sum(process_ticks(p.pid) for p in burners)
        for p in burners:
            p.kill()
        for p in burners:
            p.wait()
        print(f"with_busy_cores: the cores were busy {busy_share(before, after, burned)}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
