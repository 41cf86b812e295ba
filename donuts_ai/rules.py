"""Rule variants: one immutable :class:`Rules` value; the defaults are the official rules."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RulesError

#: Official insertion: the maximal straight run of the mover's donuts containing the
#: new donut flips the two opposing donuts directly beyond both of its ends.
GROUP = "group"
#: Rulebook variant: only a donut placed alone between two single opposing donuts
#: (``o X o`` with no further opposing donut beyond either) flips them.
SINGLE = "single"

INSERTION_MODES = (GROUP, SINGLE)

#: Most donuts a player can ever place: the board has 36 squares.
MAX_DONUTS = 36


@dataclass(frozen=True)
class Rules:
    """The rule variant a game is played under.

    ``insertion``
        ``"group"`` (official) or ``"single"``.
    ``donuts``
        Donuts in each player's pool (15 official, 1..36). With 18 or more the
        board can fill; a full board without a five goes to the player with
        more donuts on it (equal counts draw).

    Raises :class:`~donuts_ai.errors.RulesError` (a ``ValueError``) on bad values.
    """

    insertion: str = GROUP
    donuts: int = 15

    def __post_init__(self) -> None:
        # Checked as a str first: `in` compares with ==, which a numpy array answers elementwise.
        if not isinstance(self.insertion, str) or self.insertion not in INSERTION_MODES:
            raise RulesError(
                f"unknown insertion rule {self.insertion!r}; expected one of {', '.join(INSERTION_MODES)}"
            )
        if isinstance(self.donuts, bool) or not isinstance(self.donuts, int):
            raise RulesError(f"donuts must be an int, got {type(self.donuts).__name__}")
        if not 1 <= self.donuts <= MAX_DONUTS:
            raise RulesError(f"donuts must be in 1..{MAX_DONUTS}, got {self.donuts}")

    @property
    def single(self) -> bool:
        """True for the ``"single"`` insertion variant (the flag the kernels take)."""
        return self.insertion == SINGLE

    def __repr__(self) -> str:
        return f"Rules(insertion={self.insertion!r}, donuts={self.donuts})"
