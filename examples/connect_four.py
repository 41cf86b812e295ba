"""A game from outside the package joins it: Connect Four, written against the public game
contract (``donuts_ai.Game``) and registered with ``donuts_ai.register_game``.

Once this module is imported, every front end knows the game by name::

    python examples/connect_four.py                      # a fresh state, a random game, a tournament
    python -m donuts_ai tournament random greedy --game examples.connect_four:connect-four-python --games 4

``make("connect-four-python")`` builds a state, the tournament harness plays it with its agents
(``random``, ``greedy``) or any ``module:Class`` agent, and results files replay it. The
state speaks the state API (``turn``, ``legal_moves()``, ``push``, ``pop``...), python-chess's
verbs; the game object says the rest: set-ups, rules, what a player sees, the ledger.

The package has its own compiled Connect Four, ``"connect-four"`` (:mod:`donuts_ai.connect_four`);
this one, in plain Python, is registered as ``"connect-four-python"`` beside it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from donuts_ai import DonutsError, Game, IllegalMoveError, make, register_game

#: The board: 7 columns (files a..g), 6 rows, filled from the bottom.
COLUMNS, ROWS = 7, 6
#: Counters in a line that win.
LINE = 4
#: The moves: a column's letter.
COLUMN_NAMES = "abcdefg"
#: The directions a line runs in: along a row, up a column, and the two diagonals.
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


@dataclass(frozen=True)
class ConnectFourOutcome:
    """How a game ended (a :class:`donuts_ai.state.GameOutcome`)."""

    winner: int | None
    reason: str

    @property
    def places(self) -> tuple[int, int]:
        return (0, 0) if self.winner is None else (int(self.winner != 0), int(self.winner != 1))

    @property
    def scores(self) -> None:
        return None


class ConnectFourState:
    """A Connect Four position with its moves, first player 0. ``opening`` moves (column
    letters) are played before the game starts: the set-up."""

    def __init__(self, opening: str = "") -> None:
        self.columns: list[list[int]] = [[] for _ in range(COLUMNS)]
        self.move_stack: list[str | None] = []
        self._winner: int | None = None
        for move in opening:
            self.push(move)
        self.move_stack.clear()  # the opening is the set-up, not the game's moves
        self._opening = opening

    @property
    def turn(self) -> int | None:
        return None if self.is_game_over() else self._placed() % 2

    def _placed(self) -> int:
        return sum(len(c) for c in self.columns)

    def legal_moves(self) -> list[str]:
        if self.is_game_over():
            return []
        return [COLUMN_NAMES[c] for c in range(COLUMNS) if len(self.columns[c]) < ROWS]

    def push(self, move: str) -> int:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"illegal move {move!r}; legal: {', '.join(self.legal_moves()) or 'none (game over)'}")
        player, column = self._placed() % 2, COLUMN_NAMES.index(move)
        self.columns[column].append(player)
        self.move_stack.append(move)
        if self._lines_through(column, len(self.columns[column]) - 1) >= LINE:
            self._winner = player
        return column  # the game's own report of a move: the column it went into

    def _at(self, column: int, row: int) -> int | None:
        if 0 <= column < COLUMNS and 0 <= row < len(self.columns[column]):
            return self.columns[column][row]
        return None

    def _lines_through(self, column: int, row: int) -> int:
        """The longest line of the mover's counters through (column, row)."""
        player, longest = self.columns[column][row], 1
        for dx, dy in DIRECTIONS:
            count = 1
            for sign in (1, -1):
                step = 1
                while self._at(column + sign * step * dx, row + sign * step * dy) == player:
                    count, step = count + 1, step + 1
            longest = max(longest, count)
        return longest

    def would_win(self, move: str, player: int) -> bool:
        """Whether ``player``'s counter dropped in ``move``'s column would make a line."""
        column = self.columns[COLUMN_NAMES.index(move)]
        column.append(player)
        try:
            return self._lines_through(COLUMN_NAMES.index(move), len(column) - 1) >= LINE
        finally:
            column.pop()

    def forfeit(self) -> None:
        raise DonutsError("Connect Four has no forfeited turn")

    def pop(self) -> str | None:
        if not self.move_stack:
            raise IndexError("pop from an empty move stack")
        move = self.move_stack.pop()
        assert move is not None  # no forfeits in this game
        self.columns[COLUMN_NAMES.index(move)].pop()
        self._winner = None  # a finished game ends at its last move: undoing it reopens it
        return move

    def is_game_over(self) -> bool:
        return self._winner is not None or self._placed() == COLUMNS * ROWS

    def outcome(self) -> ConnectFourOutcome | None:
        if not self.is_game_over():
            return None
        return ConnectFourOutcome(self._winner, "four" if self._winner is not None else "full board")

    def copy(self) -> ConnectFourState:
        other = ConnectFourState.__new__(ConnectFourState)
        other.columns = [list(c) for c in self.columns]
        other.move_stack, other._winner, other._opening = list(self.move_stack), self._winner, self._opening
        return other

    def to_dict(self) -> dict[str, object]:
        return {"opening": self._opening, "moves": list(self.move_stack)}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> ConnectFourState:
        state = cls(str(data["opening"]))
        for move in data["moves"]:  # type: ignore[attr-defined]
            state.push(move)
        return state

    def to_text(self) -> str:
        return f"{self._opening}/{''.join(m or '' for m in self.move_stack)}"

    @classmethod
    def from_text(cls, text: str) -> ConnectFourState:
        opening, _, moves = text.partition("/")
        return cls.from_dict({"opening": opening, "moves": list(moves)})

    def __str__(self) -> str:
        rows = ["".join(".xo"[1 + c[r]] if r < len(c) else "." for c in self.columns) for r in reversed(range(ROWS))]
        return "\n".join([*rows, COLUMN_NAMES])


class RandomAgent:
    """A uniformly random legal move (seeded)."""

    def __init__(self, seed: int | None = None, name: str | None = None) -> None:
        self.seed, self.rng, self.name = seed, random.Random(seed), name or "random"

    def reset(self, seed: int | None = None) -> None:
        self.rng = random.Random(self.seed if seed is None else seed)

    def select_move(self, state: ConnectFourState) -> str:
        return self.rng.choice(state.legal_moves())


class GreedyAgent(RandomAgent):
    """A move that wins at once, else one that takes the opponent's winning square, else a random one."""

    def select_move(self, state: ConnectFourState) -> str:
        moves, mover = state.legal_moves(), state.turn
        for player in (mover, 1 - mover):  # type: ignore[operator]  # a state asked to move has a turn
            for move in moves:
                if state.would_win(move, player):  # type: ignore[arg-type]
                    return move
        return self.rng.choice(moves)


class ConnectFour(Game[ConnectFourState]):
    """Connect Four through the game contract. A set-up is an opening (column letters,
    ``""`` the empty board; ``random`` draws two random moves); the rules are fixed."""

    name = "connect-four-python"
    SETUP_NAME = "two-move opening"
    LEDGERS = ("wins",)

    def parse_setups(self, spec: str) -> list[str] | str:
        return spec if spec == self.FRESH_SETUP else [self.setup_text(s) for s in spec.split(",")]

    def draw_setup(self, kind: str, seed: int) -> str:
        state, rng = ConnectFourState(), random.Random(seed)
        for _ in range(2):
            state.push(rng.choice(state.legal_moves()))
        return "".join(m or "" for m in state.move_stack)

    def setup_text(self, setup: object) -> str:
        text = str(setup).strip()
        try:
            ConnectFourState(text)
        except DonutsError as exc:
            raise DonutsError(f"a Connect Four set-up is an opening of column letters a..g: {exc}") from None
        return text

    def rules_dict(self, rules: object) -> dict[str, object]:
        if rules not in (None, {}):
            raise DonutsError(f"Connect Four has no rule variants, got {rules!r}")
        return {}

    def new_state(self, setup: str, rules: dict[str, object]) -> ConnectFourState:
        return ConnectFourState(setup)

    def agent_registry(self) -> dict[str, type[RandomAgent]]:
        return {"random": RandomAgent, "greedy": GreedyAgent}

    def player_view(self, state: ConnectFourState, player: int) -> ConnectFourState:
        return state.copy()  # perfect information: the whole state

    def observation(self, state: ConnectFourState, player: int) -> dict[str, object]:
        return state.to_dict()

    def agent_view(self, observation: dict[str, object]) -> ConnectFourState:
        return ConnectFourState.from_dict(observation)

    def ledger_points(self, ending, player, stats, ledger):  # type: ignore[no-untyped-def]
        return int(ending.winner == player)

    def ledger_text(self, ledger: str) -> str:
        return "+1 a win"


#: Connect Four in the table of games: ``make("connect-four-python")`` and ``--game connect-four-python``.
CONNECT_FOUR = register_game(ConnectFour())


def main() -> None:
    from donuts_ai import tournament

    state = make("connect-four-python", setup="dd", seed=0)
    rng = random.Random(1)
    while not state.is_game_over():
        state.push(rng.choice(state.legal_moves()))
    print(state, state.outcome(), sep="\n")
    # In-process agents: run as a script, this module is __main__, which an agent process cannot import.
    results = tournament.run(["random", "greedy"], game="connect-four-python", games=8, seed=1, workers=1, isolation="none")
    print(results.table())


if __name__ == "__main__":
    main()
