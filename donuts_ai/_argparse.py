"""The command line's parser: argparse, with errors in one line."""

from __future__ import annotations

import argparse
from typing import NoReturn


class OneLineParser(argparse.ArgumentParser):
    """argparse with one-line errors: ``donuts-ai: error: ... (usage: donuts-ai COMMAND --help)``,
    exit 2 (the usage named in the line rather than printed above it). Subcommands'
    parsers are of the same class."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"donuts-ai: error: {message} (usage: {self.prog} --help)\n")
