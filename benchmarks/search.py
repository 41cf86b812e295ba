"""``python -m benchmarks.search``: runs :mod:`donuts_ai.bench.search` (the code lives there)."""

import sys

from donuts_ai.bench.search import main

if __name__ == "__main__":
    sys.exit(main())
