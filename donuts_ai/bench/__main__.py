"""``python -m donuts_ai.bench``: the same as ``donuts-ai bench``."""

import sys

from .engine import main

sys.exit(main(prog="python -m donuts_ai.bench"))
