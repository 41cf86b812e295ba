"""``python -m benchmarks.tables [--check]``: runs :func:`donuts_ai.bench.published.main` (the code lives there)."""

import sys

from donuts_ai.bench.published import main

if __name__ == "__main__":
    sys.exit(main())
