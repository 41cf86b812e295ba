"""The Donut Boxes rule variant: one immutable :class:`BoxesRules` value (2 x 2 x 2 switches, 2..10 players)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict

from .._checks import check_int
from .errors import BoxesRulesError

#: Grid switch: cards sit on the 2x2 card grid ("Squared Away") ...
SQUARED = "squared"
#: ... or may sit offset by one quadrant from their neighbours ("Splitzkies").
SPLITZKIES = "splitzkies"
GRIDS = (SQUARED, SPLITZKIES)

#: Matching switch: at least one touching pair across the seams agrees ("One Good Match") ...
ONE = "one"
#: ... and every placed quadrant that touches the layout agrees with a live quadrant it touches ("Perfect Match").
PERFECT = "perfect"
MATCHINGS = (ONE, PERFECT)


class RulesDict(TypedDict):
    """:meth:`BoxesRules.to_dict`: the rules as a JSON object."""

    players: int
    grid: str
    matching: str
    closers: bool


MIN_PLAYERS = 2
MAX_PLAYERS = 10


@dataclass(frozen=True)
class BoxesRules:
    """The variant a game of Donut Boxes is played under.

    Args:
        players: 2..10.
        grid: ``"squared"`` (Squared Away: every card on the 2x2 card grid) or
            ``"splitzkies"`` (a card may sit offset by one quadrant).
        matching: ``"one"`` (One Good Match) or ``"perfect"`` (Perfect Match).
        closers: ``True`` for Coffee's For Closers: whoever seals a box scores it (else
            the player holding most donuts in it).

    Raises:
        BoxesRulesError: names the bad setting (a ``ValueError``).
    """

    players: int = 2
    grid: str = SQUARED
    matching: str = ONE
    closers: bool = False

    def __post_init__(self) -> None:
        check_int("players", self.players, MIN_PLAYERS, MAX_PLAYERS, error=BoxesRulesError)
        # Checked as a str first: `in` compares with ==, which a numpy array answers elementwise.
        if not isinstance(self.grid, str) or self.grid not in GRIDS:
            raise BoxesRulesError(f"unknown grid {self.grid!r}; expected one of {', '.join(GRIDS)}")
        if not isinstance(self.matching, str) or self.matching not in MATCHINGS:
            raise BoxesRulesError(f"unknown matching {self.matching!r}; expected one of {', '.join(MATCHINGS)}")
        if not isinstance(self.closers, bool):
            raise BoxesRulesError(f"closers must be True or False, got {self.closers!r}")

    @property
    def squared(self) -> bool:
        """True under Squared Away (the flag the kernels take)."""
        return self.grid == SQUARED

    @property
    def perfect(self) -> bool:
        """True under Perfect Match (the flag the kernels take)."""
        return self.matching == PERFECT

    def to_dict(self) -> RulesDict:
        """The rules as a JSON-ready dict (:meth:`from_dict` reads it back)."""
        return {"players": self.players, "grid": self.grid, "matching": self.matching, "closers": self.closers}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> BoxesRules:
        """Rules from :meth:`to_dict`'s dict; unknown keys are refused.

        Args:
            data: the dict.

        Returns:
            The rules.

        Raises:
            BoxesRulesError: an unknown key or a bad setting.
        """
        if not isinstance(data, dict):
            raise BoxesRulesError(f"rules must be a dict, got {type(data).__name__}")
        unknown = set(data) - {"players", "grid", "matching", "closers"}
        if unknown:
            raise BoxesRulesError(f"unknown rules keys: {', '.join(sorted(map(str, unknown)))}")
        return cls(**data)

    @classmethod
    def all_variants(cls, players: int = 2) -> list[BoxesRules]:
        """The 8 combinations of the three switches.

        Args:
            players: the number of players.

        Returns:
            The rules, one per variant.
        """
        return [cls(players, g, m, c) for g in GRIDS for m in MATCHINGS for c in (False, True)]

    def __str__(self) -> str:
        return f"{self.players} players, {self.grid}, {self.matching} match{', closers' if self.closers else ''}"
