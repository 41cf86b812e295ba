"""Run a command while other processes keep every core busy, as on a shared machine.

    python .ci/with_busy_cores.py [--burners N] -- COMMAND ...

Starts N (default: the number of cores) CPU-burning processes, runs COMMAND, stops the
burners whatever happens, and exits with COMMAND's status.
"""

import argparse
import os
import subprocess
import sys

BURN = "while True: pass"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--burners", type=int, default=os.cpu_count() or 2)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given")
    burners = [subprocess.Popen([sys.executable, "-c", BURN]) for _ in range(args.burners)]
    try:
        print(f"with_busy_cores: {len(burners)} CPU burners running beside: {' '.join(command)}", flush=True)
        return subprocess.call(command)
    finally:
        for p in burners:
            p.kill()
        for p in burners:
            p.wait()


if __name__ == "__main__":
    sys.exit(main())
