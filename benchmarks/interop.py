"""``python -m benchmarks.interop``: runs :mod:`donuts_ai.bench.interop` (the code lives there)."""

import sys

from donuts_ai.bench.interop import main

if __name__ == "__main__":
    sys.exit(main())
