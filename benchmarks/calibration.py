"""``python -m benchmarks.calibration``: runs :mod:`donuts_ai.bench.calibration` (the code lives there)."""

import sys

from donuts_ai.bench.calibration import main

if __name__ == "__main__":
    sys.exit(main())
