"""The game protocol: everything the harness needs to know about a game.

Tournaments, ratings, the SPRT, results files and the runner depend on this small
interface, never on a game's internals, so another game plugs in by implementing it
and registering itself in :data:`GAMES` (Donuts is :class:`~.donuts.DonutsGame`).

A game is turn-based between two sides (0 moves first) with one or two players per
side (team mode alternates a side's players). The harness holds the ``state`` (any
object the game likes) and only ever calls the methods below; agents receive
``view(state)`` in-process or ``agent_view(observation(state, side))`` in their own
process, so what an agent sees is the game's decision (a game of hidden information
sends each side only what it may know).
"""

from __future__ import annotations

from abc import ABC, abstractmethod


class Game(ABC):
    """A game the harness can run (see the module doc). Methods never change their
    arguments unless they say so; bad set-ups or rules raise ``DonutsError`` subclasses."""

    #: Registry name, written in results files.
    name: str = "game"

    # --- set-ups and rules ---------------------------------------------------------------
    @abstractmethod
    def parse_setups(self, spec: str) -> list[str] | str:
        """Set-ups named by ``spec``: a list of set-up texts, or a word the harness passes
        to :meth:`draw_setup` for a fresh set-up per unit."""

    @abstractmethod
    def draw_setup(self, kind: str, seed: int) -> str:
        """A fresh set-up of ``kind`` (a word :meth:`parse_setups` returned) from ``seed``."""

    @abstractmethod
    def setup_text(self, setup) -> str:
        """The text of a set-up given as the game's own object or as text (checked)."""

    @abstractmethod
    def rules_dict(self, rules) -> dict:
        """The rules variant as a JSON object (``None``: the official rules), checked."""

    # --- playing -------------------------------------------------------------------------
    @abstractmethod
    def new_state(self, setup: str, rules: dict):
        """The starting state of a game."""

    @abstractmethod
    def to_move(self, state) -> int | None:
        """The side to move (0 or 1), ``None`` when the game is over."""

    @abstractmethod
    def legal_moves(self, state) -> list:
        """The legal moves, as the game writes them in records."""

    @abstractmethod
    def is_legal(self, state, move) -> bool:
        """Whether ``move`` (anything an agent returned) is legal now; never raises."""

    @abstractmethod
    def play(self, state, move) -> dict:
        """Play a legal ``move`` (changes ``state``); returns the game's counts for it
        (added to the mover's ``stats`` in the record, e.g. ``{"insertions": 1}``)."""

    @abstractmethod
    def forfeit(self, state) -> None:
        """The side to move forfeits its turn (changes ``state``)."""

    @abstractmethod
    def result(self, state) -> tuple[int | None, str]:
        """(winning side or ``None`` for a draw, reason) of a finished game."""

    @abstractmethod
    def moves(self, state) -> list:
        """The moves played so far (``None`` for a forfeit), JSON-ready."""

    @abstractmethod
    def new_stats(self) -> dict:
        """A player's counts at the start of a game (e.g. ``{"insertions": 0}``)."""

    # --- agents --------------------------------------------------------------------------
    @abstractmethod
    def view(self, state):
        """What an in-process agent's ``select_move`` receives (a copy it may change)."""

    @abstractmethod
    def observation(self, state, side: int) -> dict:
        """What an agent process is sent for ``side`` to move: JSON-ready."""

    @abstractmethod
    def agent_view(self, observation: dict):
        """In the agent's process: the object ``select_move`` receives for ``observation``."""

    def warm_up(self) -> None:  # noqa: B027 - a default that does nothing, on purpose
        """One-off set-up an agent process does before it says it is ready (load compiled
        code, say), so that it is never charged to a move. Default: nothing."""

    # --- scores --------------------------------------------------------------------------
    #: Score ledgers the game knows; the first is the default.
    LEDGERS: tuple[str, ...] = ("rulebook",)

    @abstractmethod
    def ledger_points(self, winner_side: int | None, reason: str, side: int, stats: dict, ledger: str) -> int:
        """Ledger points of a player of ``side`` with counts ``stats`` in a game that ended so."""

    @abstractmethod
    def ledger_text(self, ledger: str) -> str:
        """One line that says how ``ledger`` scores, for reports."""


GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Make ``game`` known to the harness by its name."""
    GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    from ..errors import DonutsError

    if name not in GAMES:
        raise DonutsError(f"unknown game {name!r}; expected one of {', '.join(GAMES)}")
    return GAMES[name]
