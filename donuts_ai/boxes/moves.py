"""Move texts and move codes of Donut Boxes: the one move grammar.

Positions ``R,C`` are quadrants (rows grow downwards; the start card covers 0..1, 0..1):

``FFFF@R,C``
    Place a card: ``FFFF`` is the card's face *as placed* in reading order (top-left,
    top-right, bottom-left, bottom-right) in ``C S H B``, a Cinnamon Roll written as
    the lower-case letter of the flavour it takes (``sSSS`` is the card ``RSSS``
    unturned, its roll taking Strawberry; ``SSSc`` is it turned twice, the roll taking
    Chocolate); ``R,C`` is the position of its top-left quadrant. Example: ``CCCS@2,0``, ``SsSS@-2,1``.
``box@R,C``
    Box early: deliver the open run whose first quadrant in reading order (smallest
    row, then smallest column) is ``R,C``.
``stuck:FFFF``
    Stuck: put the card ``FFFF`` (its unturned face from :data:`~.deck.CARD_TYPES`, ``R``
    for the roll) at the bottom of your pile and draw one.

Every move also has an integer **code** (:func:`place_code`, :func:`box_code`,
:func:`stuck_code`), the same in every state (and sampled world); the legal moves' order is
ascending code: placements by (row, column, type, rotation, roll), boxes, stuck moves.
"""

from __future__ import annotations

import re

from ..errors import InvalidMoveError
from .deck import CARD_TYPES, DECK_SIZE, FACE_INDEX, LETTERS, ROLL, ROTATED_FACES, TYPE_INDEX

#: Layout coordinates a move can name: -COORD_OFFSET .. COORD_OFFSET - 1.
COORD_OFFSET = 1024
COORD_SPAN = 2 * COORD_OFFSET
#: Kind of a move code, in its bits from KIND_SHIFT up.
PLACE, BOX, STUCK = 0, 1, 2
KIND_SHIFT = 40
#: Placement payload: ((row, column) index) * PLACE_STRIDE + type * 20 + rotation * 5 + roll flavour.
ROLL_CHOICES = 5  # 0 (no roll) and the flavours 1..4
ROT_STRIDE = ROLL_CHOICES
TYPE_STRIDE = 4 * ROT_STRIDE
PLACE_STRIDE = DECK_SIZE * TYPE_STRIDE

_PLACE_RE = re.compile(r"^([CSHBcshb]{4})@(-?\d+),(-?\d+)$")
_BOX_RE = re.compile(r"^box@(-?\d+),(-?\d+)$")
_STUCK_RE = re.compile(r"^stuck:([CSHBR]{4})$")

GRAMMAR = "FFFF@R,C (place), box@R,C (box early) or stuck:FFFF (stuck)"


def _cell_index(r: int, c: int) -> int:
    return (r + COORD_OFFSET) * COORD_SPAN + (c + COORD_OFFSET)


def place_code(r: int, c: int, card_type: int, rot: int, flavour: int) -> int:
    """The code of a placement.

    Args:
        r: the row of the card's top-left quadrant.
        c: its column.
        card_type: an index into :data:`~.deck.CARD_TYPES`.
        rot: clockwise quarter turns.
        flavour: the roll's flavour (0 for a card without one).

    Returns:
        The move code.
    """
    return (PLACE << KIND_SHIFT) + _cell_index(r, c) * PLACE_STRIDE + card_type * TYPE_STRIDE + rot * ROT_STRIDE + flavour


def box_code(r: int, c: int) -> int:
    """The code of boxing early the open run whose first quadrant in reading order is ``(r, c)``.

    Args:
        r: the quadrant's row.
        c: its column.

    Returns:
        The move code.
    """
    return (BOX << KIND_SHIFT) + _cell_index(r, c)


def stuck_code(card_type: int) -> int:
    """The code of the stuck turn that puts a card at the bottom of the pile.

    Args:
        card_type: an index into :data:`~.deck.CARD_TYPES`.

    Returns:
        The move code.
    """
    return (STUCK << KIND_SHIFT) + card_type


def decode(code: int) -> tuple[int, int, int, int, int, int]:
    """The fields of a move code.

    Args:
        code: a move code.

    Returns:
        ``(kind, r, c, card_type, rot, flavour)`` (fields a kind lacks are 0).
    """
    code = int(code)
    kind, payload = code >> KIND_SHIFT, code & ((1 << KIND_SHIFT) - 1)
    if kind == STUCK:
        return STUCK, 0, 0, payload, 0, 0
    if kind == BOX:
        cell = payload
        card_type = rot = flavour = 0
    else:
        cell, rest = divmod(payload, PLACE_STRIDE)
        card_type, rest = divmod(rest, TYPE_STRIDE)
        rot, flavour = divmod(rest, ROT_STRIDE)
    r, c = divmod(cell, COORD_SPAN)
    return kind, r - COORD_OFFSET, c - COORD_OFFSET, card_type, rot, flavour


def _face_text(card_type: int, rot: int, flavour: int) -> str:
    return "".join(
        LETTERS[flavour].lower() if code == ROLL else LETTERS[code] for code in ROTATED_FACES[card_type, rot]
    )


#: Every placed face's text by (type, rotation, roll flavour): move texts are asked for by the thousand.
_FACE_TEXTS = {(t, r, f): _face_text(t, r, f) for t in range(DECK_SIZE) for r in range(4) for f in range(ROLL_CHOICES)}


def placed_face_text(card_type: int, rot: int, flavour: int) -> str:
    """A card's face as placed, the roll written as its flavour's lower-case letter.

    Args:
        card_type: an index into :data:`~.deck.CARD_TYPES`.
        rot: clockwise quarter turns.
        flavour: the roll's flavour (0 for a card without one).

    Returns:
        Four letters.
    """
    return _FACE_TEXTS[card_type, rot, flavour]


def move_text(code: int) -> str:
    """The canonical text of a move code.

    Args:
        code: a move code.

    Returns:
        The move text.
    """
    kind, r, c, card_type, rot, flavour = decode(code)
    if kind == PLACE:
        return f"{placed_face_text(card_type, rot, flavour)}@{r},{c}"
    if kind == BOX:
        return f"box@{r},{c}"
    return f"stuck:{CARD_TYPES[card_type]}"


def _check_coord(text: str, value: str) -> int:
    number = int(value)
    if not -COORD_OFFSET <= number < COORD_OFFSET:
        raise InvalidMoveError(f"move {text!r}: coordinate {number} is outside {-COORD_OFFSET}..{COORD_OFFSET - 1}")
    return number


def parse_move(text: object) -> int:
    """The code of a move text (see the module's grammar). Legality is not checked.

    Args:
        text: the move text.

    Returns:
        The move code.

    Raises:
        InvalidMoveError: names what is wrong.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move must be a str ({GRAMMAR}), got {type(text).__name__}")
    m = _PLACE_RE.match(text)
    if m:
        face, r, c = m.group(1), _check_coord(text, m.group(2)), _check_coord(text, m.group(3))
        lowers = [ch for ch in face if ch.islower()]
        if len(lowers) > 1:
            raise InvalidMoveError(f"move {text!r}: a card holds at most one Cinnamon Roll (lower-case letter)")
        codes = tuple(ROLL if ch.islower() else LETTERS.index(ch) for ch in face)
        if codes not in FACE_INDEX:
            raise InvalidMoveError(f"move {text!r}: no card has the face {face!r} in any rotation")
        card_type, rot = FACE_INDEX[codes]
        flavour = LETTERS.index(lowers[0].upper()) if lowers else 0
        return place_code(r, c, card_type, rot, flavour)
    m = _BOX_RE.match(text)
    if m:
        return box_code(_check_coord(text, m.group(1)), _check_coord(text, m.group(2)))
    m = _STUCK_RE.match(text)
    if m:
        if m.group(1) not in TYPE_INDEX:
            raise InvalidMoveError(f"move {text!r}: no card type {m.group(1)!r} (give the unturned face)")
        return stuck_code(TYPE_INDEX[m.group(1)])
    raise InvalidMoveError(f"cannot read move {text!r}; expected {GRAMMAR}")
