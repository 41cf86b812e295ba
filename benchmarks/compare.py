"""``python -m benchmarks.compare OLD [NEW]``: runs :mod:`donuts_ai.bench.side_by_side` (the code lives there)."""

import sys

from donuts_ai.bench.side_by_side import main

if __name__ == "__main__":
    sys.exit(main())
