"""Rule variants: one immutable :class:`Rules` value; the defaults are the official rules."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from .._checks import is_int
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


class RulesDict(TypedDict):
    """A :class:`Rules` as a mapping (:meth:`Rules.to_dict`): what results files, engine
    positions, studies and the page store."""

    insertion: str
    donuts: int


@dataclass(frozen=True)
class Rules:
    """The rule variant a game is played under.

    Args:
        insertion: ``"group"`` (official) or ``"single"``.
        donuts: donuts in each player's pool (15 official, 1..36). With 18 or more the board
            can fill; a full board without a five goes to the player with more donuts on it
            (equal counts draw).

    Raises:
        RulesError: a ``ValueError``, on bad values.
    """

    insertion: str = GROUP
    donuts: int = 15

    def __post_init__(self) -> None:
        # Checked as a str first: `in` compares with ==, which a numpy array answers elementwise.
        if not isinstance(self.insertion, str) or self.insertion not in INSERTION_MODES:
            raise RulesError(
                f"unknown insertion rule {self.insertion!r}; expected one of {', '.join(INSERTION_MODES)}"
            )
        if not is_int(self.donuts):
            raise RulesError(f"donuts must be an int, got {type(self.donuts).__name__}")
        # A NumPy integer is kept as an int, so that equal rules compare, hash and print alike.
        donuts = int(self.donuts)
        object.__setattr__(self, "donuts", donuts)
        if not 1 <= donuts <= MAX_DONUTS:
            raise RulesError(f"donuts must be in 1..{MAX_DONUTS}, got {donuts}")

    @property
    def single(self) -> bool:
        """True for the ``"single"`` insertion variant (the flag the kernels take)."""
        return self.insertion == SINGLE

    def to_dict(self) -> RulesDict:
        """The rules as a mapping of :data:`RULE_KEYS` (what results files, engine
        positions and the page store); :meth:`from_dict` reads it back."""
        return {"insertion": self.insertion, "donuts": self.donuts}

    @classmethod
    def from_dict(cls, rules: Mapping[str, Any]) -> Rules:
        """The rules of a mapping of :data:`RULE_KEYS` (missing keys: the official values).

        Args:
            rules: the mapping.

        Raises:
            RulesError: not a mapping, or an unknown key or a bad value, naming it.
        """
        if not isinstance(rules, Mapping):
            raise RulesError(f"rules must be a mapping of {', '.join(RULE_KEYS)}, got {rules!r}")
        return make_rules(dict(rules))

    def __repr__(self) -> str:
        return f"Rules(insertion={self.insertion!r}, donuts={self.donuts})"


#: The keys of a rules mapping (a :class:`Rules`'s fields, as a results file stores them).
RULE_KEYS = ("insertion", "donuts")


# A mapping's values are whatever a results file or a command line gave: Rules checks them.
def make_rules(rules: Rules | str | Mapping[str, Any] | None = None, donuts: int | None = None) -> Rules:
    """The one way an argument becomes a :class:`Rules`.

    Args:
        rules: a ``Rules``, an insertion rule name (``"group"``, ``"single"``), a mapping of
            :data:`RULE_KEYS` (as results files and ``--rules insertion=single,donuts=18``
            give them), or ``None`` for the official rules.
        donuts: donuts per player, overriding the rules' count when given.

    Returns:
        The rules.

    Raises:
        RulesError: a ``ValueError`` naming what was wrong.
    """
    if rules is None:
        rules = Rules()
    elif isinstance(rules, str):
        rules = Rules(insertion=rules)
    elif isinstance(rules, Mapping):
        unknown = sorted(str(key) for key in set(rules) - set(RULE_KEYS))
        if unknown:
            raise RulesError(f"unknown Donuts rule {unknown[0]!r}; expected {', '.join(RULE_KEYS)}")
        rules = Rules(**rules)
    elif not isinstance(rules, Rules):
        raise RulesError(
            f"rules must be a Rules, an insertion rule name (group, single) or a mapping of {', '.join(RULE_KEYS)}, "
            f"got {type(rules).__name__}"
        )
    if donuts is not None:
        rules = Rules(insertion=rules.insertion, donuts=donuts)
    return rules


def add_rules_arguments(p: argparse.ArgumentParser) -> None:
    """The Donuts rules flags, defined once for every command that takes them (``--insertion``,
    ``--donuts``); :func:`rules_from_arguments` reads them back. A flag left out is ``None``,
    so that a command can tell it apart from one given: both mean the official rule.

    Args:
        p: the command's parser.
    """
    official = Rules()
    p.add_argument("--insertion", choices=INSERTION_MODES, default=None,
                   help=f"insertion rule of Donuts: group or single (default {official.insertion})")
    p.add_argument("--donuts", type=int, default=None, help=f"donuts per player in Donuts (default {official.donuts})")


def given_rules(args: argparse.Namespace) -> dict[str, str | int]:
    """The Donuts rules flags given on the command line, by rule name: those left out are not in it.

    Args:
        args: the parsed command line.
    """
    return {key: getattr(args, key) for key in RULE_KEYS if getattr(args, key) is not None}


def rules_from_arguments(args: argparse.Namespace) -> Rules:
    """The :class:`Rules` of the rules flags (the official rule for each flag left out).

    Args:
        args: the parsed command line.

    Raises:
        RulesError: a bad value, naming it.
    """
    return Rules.from_dict(given_rules(args))
