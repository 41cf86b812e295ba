"""A Donut Boxes state or observation as a dict (``BoxesState.to_dict``,
``BoxesState.observation``), checked before the engine reads it back
(``BoxesState.from_dict``, ``BoxesState.from_observation``): every key, type and range,
and the cards, trays and piles consistent with each other. A problem raises
:class:`~.errors.ObservationError` naming the first thing wrong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NoReturn, cast

from ..._checks import is_int
from ..deck import CANONICAL_ROTATIONS, DECK_SIZE, HAS_ROLL, PLAIN_FLAVOURS, QUADRANTS, TRAY_SIZE
from ..errors import ObservationError
from ..pictures import layout_cells
from ..rules import BoxesRules
from .engine import BoxesObservation, BoxesStateDict

#: The keys of a state dict and of an observation, in their order.
STATE_KEYS = tuple(BoxesStateDict.__annotations__)
OBSERVATION_KEYS = tuple(BoxesObservation.__annotations__)


def _fail(message: str) -> NoReturn:
    raise ObservationError(message)


def _is_int(value: object) -> bool:
    """:func:`~donuts_ai._checks.is_int` as a plain bool: the checks below compare the value
    with ints, which its ``TypeGuard`` (``numbers.Integral``) does not type."""
    return is_int(value)


def _int_list(name: str, value: object, length: int | None = None, lo: int = 0, hi: int | None = None) -> list[int]:
    if not isinstance(value, list) or not all(_is_int(v) for v in value):
        _fail(f"{name} must be a list of ints, got {value!r}")
    if length is not None and len(value) != length:
        _fail(f"{name} must have {length} entries, got {len(value)}")
    for v in value:
        if v < lo or (hi is not None and v > hi):
            _fail(f"{name} holds {v}, outside {lo}..{hi if hi is not None else ''}")
    return value


def _check_common(data: object, keys: Sequence[str]) -> BoxesRules:
    if not isinstance(data, dict):
        _fail(f"expected a dict, got {type(data).__name__}")
    missing = [k for k in keys if k not in data]
    if missing:
        _fail(f"missing keys: {', '.join(missing)}")
    extra = sorted(set(data) - set(keys))
    if extra:
        _fail(f"unknown keys: {', '.join(map(str, extra))}")
    try:
        rules = BoxesRules.from_dict(data["rules"])
    except ValueError as error:
        raise ObservationError(f"rules: {error}") from None
    n = rules.players
    _check_cards(data["cards"], n)
    cells = layout_cells(data["cards"], [])
    if not isinstance(data["frozen"], list):
        _fail("frozen must be a list of [r, c, winner] rows")
    for row in data["frozen"]:
        if not (isinstance(row, list | tuple) and len(row) == 3):
            _fail(f"frozen row {row!r} must be [r, c, winner]")
        pos, winner = row[:2], row[2]
        if winner is not None and not (_is_int(winner) and 0 <= winner < n):
            _fail(f"frozen row {row!r}: winner must be a player 0..{n - 1} or None")
        if not (isinstance(pos, list | tuple) and len(pos) == 2 and tuple(pos) in cells):
            _fail(f"frozen position {pos!r} is not a placed quadrant")
    _int_list("scores", data["scores"], n)
    _int_list("boxes", data["boxes"], n)
    _int_list("pile_known", data["pile_known"], n)
    if not isinstance(data["over"], bool):
        _fail("over must be True or False")
    if data["over"] != (data["to_move"] is None):
        _fail("to_move must be None exactly when the game is over")
    if data["to_move"] is not None and not (_is_int(data["to_move"]) and 0 <= data["to_move"] < n):
        _fail(f"to_move must be a player 0..{n - 1} or None, got {data['to_move']!r}")
    if data["trigger"] is not None and not (_is_int(data["trigger"]) and 0 <= data["trigger"] < n):
        _fail(f"trigger must be a player 0..{n - 1} or None, got {data['trigger']!r}")
    if not (_is_int(data["final_turns_left"]) and 0 <= data["final_turns_left"] < n):
        _fail(f"final_turns_left must be an int in 0..{n - 1}, got {data['final_turns_left']!r}")
    if not (_is_int(data["stuck_streak"]) and data["stuck_streak"] >= 0):
        _fail(f"stuck_streak must be an int >= 0, got {data['stuck_streak']!r}")
    if not isinstance(data["moves"], list) or not all(isinstance(m, str) for m in data["moves"]):
        _fail("moves must be a list of move texts")
    return rules


def _check_cards(cards: object, n: int) -> None:
    if not isinstance(cards, list) or not cards:
        _fail("cards must be a non-empty list (the start card first)")
    seen_cells: set[tuple[int, int]] = set()
    seen_types: set[tuple[int, int]] = set()
    for i, card in enumerate(cards):
        if not (isinstance(card, list | tuple) and len(card) == 6 and all(_is_int(v) for v in card)):
            _fail(f"card {i} must be [owner, type, rot, r, c, roll flavour] ints, got {card!r}")
        owner, card_type, rot, r, c, flavour = card
        if i == 0 and (owner != -1 or rot != 0 or r != 0 or c != 0):
            _fail(f"card 0 must be the start card [-1, type, 0, 0, 0, flavour], got {card!r}")
        if i > 0 and not 0 <= owner < n:
            _fail(f"card {i}: owner {owner} is not a player 0..{n - 1}")
        if not 0 <= card_type < DECK_SIZE or rot not in CANONICAL_ROTATIONS[card_type]:
            _fail(f"card {i}: type {card_type} with rotation {rot} is not a card (types 0..{DECK_SIZE - 1}, "
                  "lowest rotation giving the face)")
        if flavour not in ((*PLAIN_FLAVOURS,) if HAS_ROLL[card_type] else (0,)):
            _fail(f"card {i}: roll flavour {flavour} (1..4 for a card with a roll, else 0)")
        if i > 0 and (owner, card_type) in seen_types:
            _fail(f"card {i}: player {owner} placed card type {card_type} twice")
        seen_types.add((owner, card_type))
        window = {(r + dr, c + dc) for dr, dc in QUADRANTS}
        if window & seen_cells:
            _fail(f"card {i} at {r},{c} overlaps an earlier card")
        seen_cells |= window


def _check_hands(n: int, cards: list[list[int]], trays: list[object], piles: list[object]) -> None:
    for q in range(n):
        placed = [t for owner, t, *_ in cards[1:] if owner == q]
        tray = _int_list(f"tray of player {q}", trays[q], hi=DECK_SIZE - 1)
        pile = _int_list(f"pile of player {q}", piles[q], hi=DECK_SIZE - 1)
        if len(tray) > TRAY_SIZE:
            _fail(f"player {q} holds {len(tray)} cards; a tray holds at most {TRAY_SIZE}")
        if sorted(placed + list(tray) + list(pile)) != list(range(DECK_SIZE)):
            _fail(f"player {q}: placed cards, tray and pile are not exactly one deck of {DECK_SIZE}")


def check_state_dict(data: object) -> BoxesStateDict:
    """``data`` checked to be a state dict (raises :class:`~.errors.ObservationError` naming the first problem)."""
    rules = _check_common(data, STATE_KEYS)
    assert isinstance(data, dict)  # _check_common checked it
    check_trays_and_piles(rules.players, data)
    return cast(BoxesStateDict, data)  # every key and value checked above (an int may be a NumPy int)


def check_trays_and_piles(n: int, data: Mapping[str, Any]) -> None:
    """The trays and piles of a state dict whose other keys are already checked (by
    :func:`check_state_dict`, or as the observation they were copied from): each player's
    placed cards, tray and pile exactly one deck, and ``pile_known`` within the pile (``n``:
    the players)."""
    for key in ("trays", "piles"):
        if not isinstance(data[key], list) or len(data[key]) != n:
            _fail(f"{key} must be a list of {n} lists")
    _check_hands(n, data["cards"], data["trays"], data["piles"])
    for q in range(n):
        if data["pile_known"][q] > len(data["piles"][q]):
            _fail(f"pile_known of player {q} exceeds the pile")


def check_observation(obs: object) -> BoxesObservation:
    """``obs`` checked to be an observation (raises :class:`~.errors.ObservationError` naming the first problem)."""
    rules = _check_common(obs, OBSERVATION_KEYS)
    assert isinstance(obs, dict)  # _check_common checked it
    n = rules.players
    if not (_is_int(obs["player"]) and 0 <= obs["player"] < n):
        _fail(f"player must be 0..{n - 1}, got {obs['player']!r}")
    _int_list("tray", obs["tray"], hi=DECK_SIZE - 1)
    _int_list("pile_bottom", obs["pile_bottom"], hi=DECK_SIZE - 1)
    _int_list("tray_sizes", obs["tray_sizes"], n, hi=TRAY_SIZE)
    _int_list("pile_sizes", obs["pile_sizes"], n)
    me = obs["player"]
    if len(obs["tray"]) != obs["tray_sizes"][me]:
        _fail("tray does not match tray_sizes of the observing player")
    if len(obs["pile_bottom"]) != obs["pile_known"][me]:
        _fail("pile_bottom does not match pile_known of the observing player")
    return cast(BoxesObservation, obs)  # every key and value checked above (an int may be a NumPy int)
