"""``python -m benchmarks.time_use``: runs :mod:`donuts_ai.bench.time_use` (the code lives there)."""

import sys

from donuts_ai.bench.time_use import main

if __name__ == "__main__":
    sys.exit(main())
