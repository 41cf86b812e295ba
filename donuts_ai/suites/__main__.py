"""``python -m donuts_ai.suites generate|show``: see :mod:`donuts_ai.suites.generate`."""

import sys

from .generate import main

if __name__ == "__main__":
    sys.exit(main())
