"""``python -m benchmarks.kernels``: runs :mod:`donuts_ai.bench.kernels` (the code lives there)."""

import sys

from donuts_ai.bench.kernels import main

if __name__ == "__main__":
    sys.exit(main())
