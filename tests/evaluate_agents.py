"""Agents for tests/suites/test_evaluation.py that its seat processes import by spec (a module of
their own: importing the test module would load pytest and the whole command line)."""

from __future__ import annotations

import time

from donuts_ai.donuts.agents import DonutsAgent

#: Seconds the hanging answer sleeps: far past any move limit of the tests.
HANG_SECONDS = 60


class MisbehavingAgent(DonutsAgent):
    """By the ply: raises (ply % 3 == 0), answers an occupied square (1), hangs (2)."""

    kind = "misbehaving"

    def _select(self, board, time_left):
        if board.ply % 3 == 0:
            raise RuntimeError("boom")
        if board.ply % 3 == 1:
            return next(s for s in range(36) if board.color_at(s) is not None)
        time.sleep(HANG_SECONDS)
        return board.legal_moves()[0]
