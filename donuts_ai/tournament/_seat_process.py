"""The agent process of a supervised seat: ``python -m donuts_ai.tournament._seat_process SPEC GAME_MODULE GAME [--source-on-stdin]``.

A module of its own, so that running it does not import :mod:`.seats` twice.
"""

import sys

from .seats import serve

if __name__ == "__main__":
    if len(sys.argv) not in (4, 5):  # GAME_MODULE may be "": the game then loads by its name alone
        sys.exit("usage: python -m donuts_ai.tournament._seat_process SPEC GAME_MODULE GAME [--source-on-stdin]")
    spec, game_module, game = sys.argv[1:4]
    sys.exit(serve(spec, game_module, game, sys.argv[4] if len(sys.argv) == 5 else ""))
