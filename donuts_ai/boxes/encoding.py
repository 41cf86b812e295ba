"""Donut Boxes as tensors, for reinforcement learning: a dense index for every move on a
bounded table (:class:`ActionEncoding`) and one player's view as planes and features
(:class:`ObservationEncoding`). The PettingZoo environment
(:mod:`donuts_ai.interop.pettingzoo_boxes`) is built on them and nothing else.

    >>> from donuts_ai.boxes import BoxesRules, BoxesState
    >>> from donuts_ai.boxes.encoding import ActionEncoding, ObservationEncoding
    >>> rules = BoxesRules(players=3)
    >>> actions, views = ActionEncoding(rules), ObservationEncoding(rules)
    >>> actions.radius, actions.size
    (36, 207390)
    >>> state = BoxesState(rules, seed=7)
    >>> index = actions.index(state.legal_moves()[0])
    >>> actions.move(index) == state.legal_moves()[0]
    True
    >>> views.planes(state.observation(0)).shape, views.features(state.observation(0)).shape
    ((72, 72, 14), (177,))

The table's bounds, the action blocks and the observation's planes and features, index by
index: ``docs/reference/boxes.md``, "The tensor encoding".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._checks import check_int
from .deck import CANONICAL_ROTATIONS, CARD_TYPES, DECK_SIZE, HAS_ROLL, PLAIN_FLAVOURS, QUADRANTS, ROLL, ROTATED_FACES, TRAY_SIZE
from .errors import EncodingError
from .moves import (
    BOX,
    COORD_OFFSET,
    COORD_SPAN,
    KIND_SHIFT,
    PLACE,
    PLACE_STRIDE,
    ROT_STRIDE,
    STUCK,
    TYPE_STRIDE,
    box_code,
    move_text,
    parse_move,
    place_code,
    stuck_code,
)
from .rules import BoxesRules
from .state import BoxesObservation

__all__ = [
    "DEFAULT_RADIUS_BASE",
    "DEFAULT_RADIUS_PER_PLAYER",
    "EDGE_MARGIN",
    "MAX_RADIUS",
    "MIN_RADIUS",
    "NUM_FACES",
    "PLACED_FACES",
    "ActionEncoding",
    "ObservationEncoding",
    "default_radius",
]

#: The default radius is ``DEFAULT_RADIUS_BASE + DEFAULT_RADIUS_PER_PLAYER * players``: the
#: layout grows with the cards, and the widest of 300 random games (and 40 greedy ones) of
#: each size needed 28 (2 players), 36 (4) and 43 (10).
DEFAULT_RADIUS_BASE = 30
DEFAULT_RADIUS_PER_PLAYER = 2
#: Quadrants between the layout and the table's edge that keep every move on the table:
#: a card touching the layout from outside reaches this far beyond it.
EDGE_MARGIN = 2
#: The smallest radius: the start card (rows and columns 0..1) inside the margin.
MIN_RADIUS = 4
#: The largest: the coordinates a move text may name (:data:`~.moves.COORD_OFFSET`).
MAX_RADIUS = COORD_OFFSET
#: Every face a card can be placed with, ``(card type, rotation, roll flavour)``, in move-code
#: order: each card type in its distinct rotations, a roll card once per flavour its roll takes.
PLACED_FACES: tuple[tuple[int, int, int], ...] = tuple(
    (t, rot, flavour)
    for t in range(DECK_SIZE)
    for rot in CANONICAL_ROTATIONS[t]
    for flavour in (PLAIN_FLAVOURS if HAS_ROLL[t] else (0,))
)
#: How many faces a card can be placed with (156): the faces' block of each anchor.
NUM_FACES = len(PLACED_FACES)
#: The face slot of a placement code's last digits (type * TYPE_STRIDE + rot * ROT_STRIDE + flavour), -1 for none.
_FACE_SLOT = np.full(PLACE_STRIDE, -1, dtype=np.int64)
for _slot, (_t, _rot, _flavour) in enumerate(PLACED_FACES):
    _FACE_SLOT[_t * TYPE_STRIDE + _rot * ROT_STRIDE + _flavour] = _slot
_PAYLOAD_MASK = (1 << KIND_SHIFT) - 1
#: The quadrant offsets of a card, as arrays: rows and columns.
_QUADRANT_ROWS = np.array([dr for dr, _ in QUADRANTS], dtype=np.int64)
_QUADRANT_COLUMNS = np.array([dc for _, dc in QUADRANTS], dtype=np.int64)


def default_radius(players: int) -> int:
    """The table's radius unless told otherwise: ``30 + 2 * players``.

    Args:
        players: the number of players.

    Returns:
        The radius.
    """
    return DEFAULT_RADIUS_BASE + DEFAULT_RADIUS_PER_PLAYER * players


def _check_radius(radius: object, players: int) -> int:
    if radius is None:
        return default_radius(players)
    value = check_int("radius", radius, MIN_RADIUS, MAX_RADIUS, error=EncodingError)
    if value % 2:
        raise EncodingError(f"radius must be even (the table's edge on the card grid), got {value}")
    return value


def _check_rules(rules: object) -> BoxesRules:
    if not isinstance(rules, BoxesRules):
        raise EncodingError(f"rules must be a BoxesRules, got {type(rules).__name__}")
    return rules


class ActionEncoding:
    """The dense action index of every Donut Boxes move on a table of ``radius`` (the blocks
    are laid out in ``docs/reference/boxes.md``): ``size`` indices under ``rules``.
    Raises :class:`~.errors.EncodingError` for a bad radius, a move off the table or an index
    out of range."""

    __slots__ = ("anchors", "boxes", "placements", "radius", "rules", "side", "size", "step")

    def __init__(self, rules: BoxesRules, radius: int | None = None) -> None:
        """The action table of a game.

        Args:
            rules: the game's rules (its grid decides the anchors).
            radius: the table's radius, even, 4..1024 (``None``: :func:`default_radius`).

        Raises:
            EncodingError: a bad radius.
        """
        self.rules = _check_rules(rules)
        self.radius = _check_radius(radius, rules.players)
        #: Quadrant rows (and columns) of the table.
        self.side = 2 * self.radius
        #: Rows between two anchors: 2 on the card grid (Squared Away), else 1.
        self.step = 2 if rules.squared else 1
        #: Anchor slots a side: rows -radius .. radius - 2, every ``step``-th.
        self.anchors = len(range(-self.radius, self.radius - 1, self.step))
        #: The sizes of the blocks: placements, boxes early (the stuck moves are DECK_SIZE).
        self.placements = self.anchors * self.anchors * NUM_FACES
        self.boxes = self.side * self.side
        self.size = self.placements + self.boxes + DECK_SIZE

    def __repr__(self) -> str:
        return f"ActionEncoding({self.rules!r}, radius={self.radius})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ActionEncoding) and (self.rules, self.radius) == (other.rules, other.radius)

    def __hash__(self) -> int:
        return hash((self.rules, self.radius))

    # ------------------------------------------------------------------ moves -> indices
    def index(self, move: str) -> int:
        """The index of a move text (:mod:`.moves`); legality is not checked.

        Args:
            move: the move text.

        Returns:
            The index.

        Raises:
            EncodingError: a move off the table.
        """
        return int(self.indices(np.array([parse_move(move)], dtype=np.int64))[0])

    def indices(self, codes: ArrayLike) -> NDArray[np.int64]:
        """The indices of move codes.

        Args:
            codes: move codes (:meth:`~donuts_ai.boxes.state.BoxesState.legal_move_ids`).

        Returns:
            The indices, in the same shape.

        Raises:
            EncodingError: a move off the table.
        """
        codes = np.asarray(codes, dtype=np.int64)
        kind, payload = codes >> KIND_SHIFT, codes & _PAYLOAD_MASK
        is_place = kind == PLACE
        cell = np.where(is_place, payload // PLACE_STRIDE, payload)
        rows = cell // COORD_SPAN - COORD_OFFSET + self.radius  # on the table: 0 .. side - 1
        columns = cell % COORD_SPAN - COORD_OFFSET + self.radius
        out = np.full(codes.shape, -1, dtype=np.int64)
        # Placements: an anchor of the table (0 .. side - 2, every step-th) and a face.
        face = _FACE_SLOT[np.where(is_place, payload % PLACE_STRIDE, 0)]
        anchored = ((rows >= 0) & (rows <= self.side - 2) & (columns >= 0) & (columns <= self.side - 2)
                    & (rows % self.step == 0) & (columns % self.step == 0))
        ok = is_place & anchored & (face >= 0)
        slots = (rows // self.step) * self.anchors + columns // self.step
        out[ok] = (slots * NUM_FACES + face)[ok]
        ok = (kind == BOX) & (rows >= 0) & (rows < self.side) & (columns >= 0) & (columns < self.side)
        out[ok] = (self.placements + rows * self.side + columns)[ok]
        ok = (kind == STUCK) & (payload < DECK_SIZE)
        out[ok] = (self.placements + self.boxes + payload)[ok]
        if (out < 0).any():
            raise EncodingError(f"move {_describe(int(codes[out < 0].flat[0]))} is off the table of radius {self.radius}")
        return out

    def mask(self, codes: ArrayLike) -> NDArray[np.int8]:
        """The mask of a set of moves.

        Args:
            codes: move codes (the legal moves').

        Returns:
            ``int8[size]``: 1 at the index of each move code.
        """
        mask = np.zeros(self.size, dtype=np.int8)
        mask[self.indices(codes)] = 1
        return mask

    # ------------------------------------------------------------------ indices -> moves
    def code(self, index: object) -> int:
        """The move code of an index (:meth:`~donuts_ai.boxes.state.BoxesState.push_id` plays it).

        Args:
            index: 0 .. size - 1.

        Returns:
            The move code.

        Raises:
            EncodingError: an index out of range.
        """
        index = check_int("action index", index, 0, self.size - 1, error=EncodingError)
        if index < self.placements:
            slot, face = divmod(index, NUM_FACES)
            row_slot, column_slot = divmod(slot, self.anchors)
            card_type, rot, flavour = PLACED_FACES[face]
            return place_code(row_slot * self.step - self.radius, column_slot * self.step - self.radius, card_type, rot, flavour)
        index -= self.placements
        if index < self.boxes:
            row, column = divmod(index, self.side)
            return box_code(row - self.radius, column - self.radius)
        return stuck_code(index - self.boxes)

    def move(self, index: object) -> str:
        """The move text of an index (:meth:`~donuts_ai.boxes.state.BoxesState.push` plays it).

        Args:
            index: 0 .. size - 1.

        Returns:
            The move text.

        Raises:
            EncodingError: an index out of range.
        """
        return move_text(self.code(index))

    # ------------------------------------------------------------------ the table's edge
    def covers(self, view: Mapping[str, Any]) -> bool:
        """Whether every quadrant of a layout lies :data:`EDGE_MARGIN` or more inside the table's
        edge, so that every move the layout allows has an index.

        Args:
            view: an observation or a state dict (its ``cards`` are read).

        Returns:
            True when the table covers the layout.
        """
        lowest, highest = _layout_extent(view["cards"])
        return lowest >= EDGE_MARGIN - self.radius and highest <= self.radius - 1 - EDGE_MARGIN


def _layout_extent(cards: Sequence[Sequence[int]]) -> tuple[int, int]:
    """The least and the greatest quadrant row or column of the cards' quadrants."""
    anchors = [value for card in cards for value in card[3:5]]
    return min(anchors), max(anchors) + 1


def _describe(code: int) -> str:
    try:
        return repr(move_text(code))
    except (ValueError, IndexError, KeyError):
        return f"code {code}"


# ---------------------------------------------------------------------- observations
#: The planes every table has, before those of the seats (docs/reference/boxes.md).
FLAVOUR_PLANES, ROLL_PLANE, FROZEN_PLANE, START_PLANE, LAST_CARD_PLANE, SEAT_PLANES = 0, 4, 5, 6, 7, 8
_FIXED_PLANE_NAMES = ("chocolate", "strawberry", "holes", "blueberry", "roll", "frozen", "start card", "last card")
#: The rules flags at the end of the features.
_RULE_FLAGS = ("squared", "perfect", "closers")


class ObservationEncoding:
    """One player's view (:meth:`~donuts_ai.boxes.state.BoxesState.observation`) as ``float32`` tensors under
    ``rules`` on a table of ``radius``: :meth:`planes` and :meth:`features` (every plane and
    field in ``docs/reference/boxes.md``). Raises :class:`~.errors.EncodingError` for a view of
    another number of players or a card off the table."""

    __slots__ = ("feature_high", "players", "radius", "rules", "_blocks")

    def __init__(self, rules: BoxesRules, radius: int | None = None) -> None:
        """The tensors of one player's view.

        Args:
            rules: the game's rules.
            radius: the table's radius, even, 4..1024 (``None``: :func:`default_radius`).

        Raises:
            EncodingError: a bad radius.
        """
        self.rules = _check_rules(rules)
        self.radius = _check_radius(radius, rules.players)
        self.players = players = rules.players
        quadrants = 4 * (DECK_SIZE * players + 1)  # every quadrant of the game: the start card's and every deck's
        # (name, length, upper bound) of each block, in order.
        self._blocks: tuple[tuple[str, int, float], ...] = (
            ("tray", DECK_SIZE, 1), ("pile_bottom", DECK_SIZE, 1), ("unseen", DECK_SIZE * players, 1),
            ("scores", players, 2 * quadrants),  # every donut of the game, doubled by a roll
            ("boxes", players, quadrants), ("tray_sizes", players, TRAY_SIZE), ("pile_sizes", players, DECK_SIZE),
            ("pile_known", players, DECK_SIZE), ("to_move", players, 1), ("trigger", players, 1),
            ("final_turns_left", 1, players), ("stuck_streak", 1, players), ("over", 1, 1), ("rules", len(_RULE_FLAGS), 1),
        )
        #: ``float32[num_features]``: each feature's upper bound (every lower bound is 0).
        self.feature_high = np.concatenate([np.full(n, high, dtype=np.float32) for _, n, high in self._blocks])

    def __repr__(self) -> str:
        return f"ObservationEncoding({self.rules!r}, radius={self.radius})"

    @property
    def num_planes(self) -> int:
        return SEAT_PLANES + 2 * self.players

    @property
    def plane_shape(self) -> tuple[int, int, int]:
        """``(2 * radius, 2 * radius, num_planes)``: :meth:`planes`' shape."""
        return 2 * self.radius, 2 * self.radius, self.num_planes

    @property
    def num_features(self) -> int:
        return sum(n for _, n, _ in self._blocks)

    def plane_names(self) -> list[str]:
        """Each plane's name, by index."""
        seats = range(self.players)
        return [*_FIXED_PLANE_NAMES, *(f"cards of seat {k}" for k in seats), *(f"boxes of seat {k}" for k in seats)]

    def feature_names(self) -> list[str]:
        """Each feature's name, by index: ``block[seat]`` or ``block:card`` (docs/reference/boxes.md)."""
        names: list[str] = []
        for block, n, _ in self._blocks:
            if block in ("tray", "pile_bottom"):
                names += [f"{block}:{face}" for face in CARD_TYPES]
            elif block == "unseen":
                names += [f"unseen[{k}]:{face}" for k in range(self.players) for face in CARD_TYPES]
            elif block == "rules":
                names += [f"rules:{flag}" for flag in _RULE_FLAGS]
            else:
                names += [f"{block}[{k}]" for k in range(n)] if n > 1 else [block]
        return names

    def _observer(self, view: Mapping[str, Any]) -> int:
        if len(view["scores"]) != self.players:
            raise EncodingError(f"the view is of {len(view['scores'])} players, the encoding of {self.players}")
        observer: int = view["player"]
        return observer

    def planes(self, view: BoxesObservation) -> NDArray[np.float32]:
        """The layout seen by a player, as planes (listed in ``docs/reference/boxes.md``).

        Args:
            view: the player's observation.

        Returns:
            ``float32[2 * radius, 2 * radius, num_planes]``, 0/1.

        Raises:
            EncodingError: a view of another number of players or a card off the table.
        """
        me, side = self._observer(view), 2 * self.radius
        out = np.zeros(self.plane_shape, dtype=np.float32)
        cards = np.asarray(view["cards"], dtype=np.int64).reshape(-1, 6)
        owner, card_type, rot = cards[:, 0], cards[:, 1], cards[:, 2]
        rows = cards[:, 3:4] + _QUADRANT_ROWS + self.radius  # [card, quadrant]
        columns = cards[:, 4:5] + _QUADRANT_COLUMNS + self.radius
        if rows.min() < 0 or columns.min() < 0 or rows.max() >= side or columns.max() >= side:
            raise EncodingError(f"a card of the view lies off the table of radius {self.radius}")
        faces = ROTATED_FACES[card_type, rot].astype(np.int64)
        rolls = faces == ROLL
        flavours = np.where(rolls, cards[:, 5:6], faces)
        out[rows, columns, FLAVOUR_PLANES + flavours - 1] = 1
        out[rows[rolls], columns[rolls], ROLL_PLANE] = 1
        seat_plane = np.where(owner < 0, START_PLANE, SEAT_PLANES + (owner - me) % self.players)
        out[rows, columns, seat_plane[:, None]] = 1
        if len(cards) > 1:  # the start card is laid, not placed
            out[rows[-1], columns[-1], LAST_CARD_PLANE] = 1
        for r, c, winner in view["frozen"]:
            assert r is not None and c is not None  # a frozen row is [r, c, winner]
            out[r + self.radius, c + self.radius, FROZEN_PLANE] = 1
            if winner is not None:
                out[r + self.radius, c + self.radius, SEAT_PLANES + self.players + (winner - me) % self.players] = 1
        return out

    def features(self, view: BoxesObservation) -> NDArray[np.float32]:
        """The cards, counts and turn of a player's view (listed in ``docs/reference/boxes.md``).

        Args:
            view: the player's observation.

        Returns:
            ``float32[num_features]``.

        Raises:
            EncodingError: a view of another number of players.
        """
        me, n = self._observer(view), self.players
        seats = [(me + k) % n for k in range(n)]
        unseen = np.ones((n, DECK_SIZE), dtype=np.float32)
        for owner, card_type, *_ in view["cards"][1:]:
            unseen[(owner - me) % n, card_type] = 0
        tray, bottom = np.zeros(DECK_SIZE, dtype=np.float32), np.zeros(DECK_SIZE, dtype=np.float32)
        tray[list(view["tray"])] = 1
        bottom[list(view["pile_bottom"])] = 1
        unseen[0] *= (1 - tray) * (1 - bottom)
        to_move, trigger = np.zeros(n, dtype=np.float32), np.zeros(n, dtype=np.float32)
        if view["to_move"] is not None:
            to_move[(view["to_move"] - me) % n] = 1
        if view["trigger"] is not None:
            trigger[(view["trigger"] - me) % n] = 1
        rules = self.rules
        parts = [
            tray, bottom, unseen.reshape(-1),
            *(np.array([view[key][p] for p in seats], dtype=np.float32)
              for key in ("scores", "boxes", "tray_sizes", "pile_sizes", "pile_known")),
            to_move, trigger,
            np.array([view["final_turns_left"], min(view["stuck_streak"], n), view["over"],
                      rules.squared, rules.perfect, rules.closers], dtype=np.float32),
        ]
        return np.concatenate(parts)
