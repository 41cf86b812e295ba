"""``python -m benchmarks.tables [--check]``: runs :func:`donuts_ai.bench.tables.main` (the code lives there)."""

import sys

from donuts_ai.bench.tables import main

if __name__ == "__main__":
    sys.exit(main())
