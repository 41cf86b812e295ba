"""``python -m benchmarks``: the same as ``donuts-ai bench``."""

import sys

from donuts_ai.bench.engine import main

sys.exit(main(prog="python -m benchmarks"))
