"""The command line's parser: argparse, with errors in one line."""

from __future__ import annotations

import argparse
from typing import NoReturn

#: The command-line program: its commands' errors all begin with its name.
PROGRAM = "donuts-ai"


class OneLineParser(argparse.ArgumentParser):
    """argparse with one-line errors: ``donuts-ai: error: ... (usage: donuts-ai COMMAND --help)``,
    exit 2 (the usage named in the line rather than printed above it). Subcommands'
    parsers are of the same class. A parser run as a module (``prog`` ``python -m ...``)
    begins its errors with that ``prog``, not the program's name."""

    def error(self, message: str) -> NoReturn:
        name = PROGRAM if self.prog.split()[0] == PROGRAM else self.prog
        self.exit(2, f"{name}: error: {message} (usage: {self.prog} --help)\n")
