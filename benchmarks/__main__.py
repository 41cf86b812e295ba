import sys

from benchmarks.engine import main

sys.exit(main())
