"""``python -m benchmarks.strength``: runs :mod:`donuts_ai.bench.strength` (the code lives there)."""

import sys

from donuts_ai.bench.strength import main

if __name__ == "__main__":
    sys.exit(main())
