"""Tic-tac-toe, a game of one's own, as ``docs/howto/own_game.md`` writes it: the rules
(a :class:`~donuts_ai.state.BaseState` of five members) and the game (a name, the start
position, a heuristic and a key for the searches). Once this module is imported, every
front end knows ``tic-tac-toe``; from the command line it is
``--game examples.tic_tac_toe:tic-tac-toe``::

    python examples/tic_tac_toe.py
    python -m donuts_ai tournament mcts alphabeta random --game examples.tic_tac_toe:tic-tac-toe --games 6
"""

from __future__ import annotations

from donuts_ai import BaseState, Game, GameEnd, register_game

#: The squares, a1..c3, in the order ``legal_moves()`` lists the empty ones.
SQUARES = ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
#: The eight lines of three squares (indices into SQUARES): rows, columns, diagonals.
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
#: What an empty square holds; players are 0 (X, moves first) and 1 (O).
EMPTY = -1


class TicTacToeState(BaseState):
    """A tic-tac-toe position. The set-up is ignored: every game starts on the empty grid."""

    def __init__(self, setup: str = "") -> None:
        super().__init__(setup)
        self.cells = [EMPTY] * len(SQUARES)

    @property
    def turn(self) -> int | None:
        return None if self.outcome() is not None else len(self.move_stack) % 2

    def legal_moves(self) -> list[str]:
        if self.outcome() is not None:
            return []
        return [square for square, cell in zip(SQUARES, self.cells, strict=True) if cell == EMPTY]

    def apply(self, move: str) -> None:
        self.cells[SQUARES.index(move)] = len(self.move_stack) % 2

    def undo(self, move: str) -> None:
        self.cells[SQUARES.index(move)] = EMPTY

    def outcome(self) -> GameEnd | None:
        for a, b, c in LINES:
            if self.cells[a] != EMPTY and self.cells[a] == self.cells[b] == self.cells[c]:
                return GameEnd.win(self.cells[a], reason="three in a row")
        return GameEnd.draw(reason="full grid") if EMPTY not in self.cells else None

    def __str__(self) -> str:
        marks = ["".join(".XO"[1 + cell] for cell in self.cells[row:row + 3]) for row in (6, 3, 0)]
        return "\n".join(marks)


class TicTacToe(Game[TicTacToeState]):
    """Tic-tac-toe through the game contract: the defaults do the rest (two players,
    perfect information, no set-ups, no rule variants, a win 1 and a draw 1/2)."""

    name = "tic-tac-toe"

    def new_state(self, setup: str, rules: dict[str, object]) -> TicTacToeState:
        return TicTacToeState(setup)

    def heuristic(self, state: TicTacToeState, player: int) -> float:
        """Lines still open to ``player`` less those open to the opponent, over 8."""
        def open_lines(who: int) -> int:
            return sum(all(state.cells[i] in (who, EMPTY) for i in line) for line in LINES)
        return (open_lines(player) - open_lines(1 - player)) / len(LINES)

    def state_key(self, state: TicTacToeState) -> tuple[int, ...]:
        return tuple(state.cells)  # the grid decides the future, whatever the move order


#: Tic-tac-toe in the table of games: ``make("tic-tac-toe")`` and ``--game tic-tac-toe``.
TIC_TAC_TOE = register_game(TicTacToe())


def main() -> None:
    from donuts_ai import make, tournament

    state = make("tic-tac-toe")
    for move in ("b2", "a1", "c3"):
        state.push(move)
    print(state, state.legal_moves(), sep="\n")
    # In-process agents: run as a script, this module is __main__, which an agent process cannot import.
    results = tournament.run(["alphabeta", "mcts:simulations=300", "random"], game="tic-tac-toe", games=6, seed=1,
                             workers=1, isolation="none")
    print(results.table())


if __name__ == "__main__":
    main()
