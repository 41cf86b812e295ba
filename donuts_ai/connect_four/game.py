"""Connect Four as a :class:`~donuts_ai.game.Game` (the contract every front end reads),
registered as ``"connect-four"``.

- **Set-up**: an opening, column letters played before the game starts (``"dd"``; ``""``
  the empty board, :func:`donuts_ai.make`'s default). ``random`` (the tournaments'
  default) draws a fresh opening of :data:`OPENING_PLIES` random moves for every unit
  from the tournament's seed, so that deterministic agents do not replay one game;
  ``dd,cg`` names openings.
- **Rules**: none to vary (``{}``).
- **Agents** receive a copy of the :class:`~.state.ConnectFourState` and answer a column
  letter; the game's own kinds are :data:`donuts_ai.connect_four.agents.AGENTS`
  (``greedy``; ``mcts`` on the compiled MCTS; ``solver`` and ``alphabeta``, iterative
  deepening, on the compiled solver), the others (``random``, ``generic-*``) the generic
  agents of every game.
- **Result**: four in a row, or a full board (a draw); the ledger counts a win 1 and a
  draw 1/2.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..game import Game, register_game
from .errors import ConnectFourError
from .state import ConnectFourState

if TYPE_CHECKING:
    from ..agents.registry import LazyRegistry

#: Random moves of a drawn opening (:meth:`ConnectFourGame.draw_setup`).
OPENING_PLIES = 2


class ConnectFourGame(Game[ConnectFourState]):
    """Connect Four through the game contract (see the module doc)."""

    name = "connect-four"
    SETTINGS = ("setup",)
    SETUP_NAME = f"{OPENING_PLIES}-move opening"

    def make(self, setup: object = "") -> ConnectFourState:  # type: ignore[override]
        """A new game of Connect Four: ``make("connect-four", setup="dd")``.

        Args:
            setup: an opening, the column letters played before the game starts (default: the
                empty board).

        Returns:
            The :class:`~donuts_ai.connect_four.state.ConnectFourState`.

        Raises:
            ConnectFourError: a set-up that names no column or ends the game.
        """
        return self.new_state(self.setup_text(setup), {})

    def draw_setup(self, kind: str, seed: int) -> str:
        rng, board = random.Random(seed), ConnectFourState()
        for _ in range(OPENING_PLIES):
            board.push(rng.choice(board.legal_moves()))
        return "".join(move or "" for move in board.move_stack)

    def setup_text(self, setup: object) -> str:
        text = "" if setup is None else str(setup).strip()
        board = ConnectFourState(text)
        if board.is_game_over():
            raise ConnectFourError(f"a Connect Four set-up must leave a game to play: {text!r} ends it")
        return text

    def new_state(self, setup: str, rules: dict[str, Any]) -> ConnectFourState:
        return ConnectFourState(setup)

    def agent_registry(self) -> LazyRegistry[Any]:
        from .agents import AGENTS

        return AGENTS


#: Connect Four in the table of games: ``make("connect-four")`` and ``--game connect-four``.
CONNECT_FOUR = register_game(ConnectFourGame())
