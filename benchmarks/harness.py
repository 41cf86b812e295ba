"""``python -m benchmarks.harness``: runs :mod:`donuts_ai.bench.harness` (the code lives there)."""

import sys

from donuts_ai.bench.harness import main

if __name__ == "__main__":
    sys.exit(main())
