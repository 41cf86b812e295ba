"""The cards of Donut Boxes, as data: flavours, the 30 card types of every deck, rotations, the deal.

A card is 2x2 quadrants, one donut each. A card's **face** is its four donuts in reading
order (top-left, top-right, bottom-left, bottom-right), one letter each: ``C`` Chocolate
Cruller, ``S`` Strawberry Sprinkles, ``H`` Donut Holes, ``B`` Blueberry Glaze (flavour codes
1 to 4) and ``R`` Cinnamon Roll (wild, code 5 in hand; once placed it takes a flavour and is
written as that flavour's lower-case letter, ``c s h b``, still marked as a roll).

Every deck (each player's and the neutral deck that gives the start card) holds the same
30 cards, one of each :data:`CARD_TYPES` entry; the composition, fair between flavours, is
the table of ``docs/boxes.md`` ("The cards", D1). No card type is a rotation of another,
so a face as placed names its card and its rotation.
"""

from __future__ import annotations

import numpy as np

CHOCOLATE, STRAWBERRY, HOLES, BLUEBERRY = 1, 2, 3, 4
#: A Cinnamon Roll on a card not yet placed.
ROLL = 5
PLAIN_FLAVOURS = (CHOCOLATE, STRAWBERRY, HOLES, BLUEBERRY)
#: Letter of each code (index = code); a placed roll is the lower-case letter of its flavour.
LETTERS = ".CSHBR"
FLAVOUR_NAMES = {
    CHOCOLATE: "Chocolate Cruller",
    STRAWBERRY: "Strawberry Sprinkles",
    HOLES: "Donut Holes",
    BLUEBERRY: "Blueberry Glaze",
    ROLL: "Cinnamon Roll",
}

DECK_SIZE = 30
TRAY_SIZE = 4
#: Quadrants of a card, in reading order: (row, column) offsets from its top-left quadrant.
QUADRANTS = ((0, 0), (0, 1), (1, 0), (1, 1))


def _compose() -> tuple[str, ...]:
    plain = "CSHB"
    solid = [a * 4 for a in plain]
    three_one = [a * 3 + b for a in plain for b in plain if a != b]
    halves = [a * 2 + b * 2 for i, a in enumerate(plain) for b in plain[i + 1:]]
    # A A on top, then the flavours two and one steps on in C S H B order: each flavour 4 times.
    singles = [plain[i] * 2 + plain[(i + 2) % 4] + plain[(i + 1) % 4] for i in range(4)]
    rolls = ["R" + a * 3 for a in plain]
    return tuple(solid + three_one + halves + singles + rolls)


#: The 30 card types (faces in reading order, rotation 0); a deck holds one of each.
CARD_TYPES: tuple[str, ...] = _compose()


def face_codes(text: str) -> tuple[int, ...]:
    """The four flavour codes of a face text (``"CCCS"`` -> ``(1, 1, 1, 2)``).

    Args:
        text: four letters of ``C S H B R`` (``R`` is :data:`ROLL`).

    Returns:
        The codes, in reading order.
    """
    return tuple(LETTERS.index(ch) for ch in text)


def rotate(face: tuple[int, ...], quarter_turns: int) -> tuple[int, ...]:
    """A face turned clockwise; a quarter turn of ``[a b / c d]`` is ``[c a / d b]``.

    Args:
        face: four codes in reading order.
        quarter_turns: clockwise quarter turns.

    Returns:
        The turned face, in reading order.
    """
    for _ in range(quarter_turns % 4):
        a, b, c, d = face
        face = (c, a, d, b)
    return face


def _canonical_rotations(face: tuple[int, ...]) -> tuple[int, ...]:
    seen, rots = set(), []
    for rot in range(4):
        turned = rotate(face, rot)
        if turned not in seen:
            seen.add(turned)
            rots.append(rot)
    return tuple(rots)


#: Each type's distinct rotations, lowest first (a solid card has only rotation 0).
CANONICAL_ROTATIONS: tuple[tuple[int, ...], ...] = tuple(_canonical_rotations(face_codes(t)) for t in CARD_TYPES)
#: Codes of every card type in every rotation: int8[30, 4, 4] (type, rotation, quadrant).
ROTATED_FACES = np.array([[rotate(face_codes(t), r) for r in range(4)] for t in CARD_TYPES], dtype=np.int8)
#: Whether each card type holds a Cinnamon Roll.
HAS_ROLL = np.array([ROLL in face_codes(t) for t in CARD_TYPES], dtype=np.bool_)
#: (face codes as placed, with ROLL) -> (type, rotation), over the canonical rotations.
FACE_INDEX: dict[tuple[int, ...], tuple[int, int]] = {
    tuple(int(x) for x in ROTATED_FACES[t, r]): (t, r) for t in range(DECK_SIZE) for r in CANONICAL_ROTATIONS[t]
}
TYPE_INDEX: dict[str, int] = {t: i for i, t in enumerate(CARD_TYPES)}


def deal(players: int, seed: int) -> tuple[list[list[int]], int]:
    """Shuffle every deck: player 0's first, then the others in order, then the neutral deck,
    all from one ``numpy.random.default_rng(seed)`` stream.

    Args:
        players: the number of players.
        seed: seeds the stream.

    Returns:
        ``(piles, start)``: each player's draw pile (card types, top first, all 30 cards:
        the tray is drawn from it) and the start card's type (the top of the neutral deck).
    """
    rng = np.random.default_rng(seed)
    piles = [[int(t) for t in rng.permutation(DECK_SIZE)] for _ in range(players)]
    start = int(rng.permutation(DECK_SIZE)[0])
    return piles, start
