"""The Python side of the compiled engine: one game's arrays, moves in and dicts out.

:class:`EngineCore` is what :class:`~donuts_ai.boxes.state.BoxesState` keeps; it converts between the
kernels' :class:`~._kernels.Tables` and the state dict, and trusts its callers (the
state checks every input first). The dicts it writes are typed here
(:class:`BoxesStateDict`, ...), below the state, which imports them.
"""

from __future__ import annotations

from typing import TypeAlias, TypedDict

import numpy as np
from numpy.typing import NDArray

from .. import _kernels as E
from .._kernels.tables import Codes, Grid
from ..deck import QUADRANTS, ROLL, ROTATED_FACES
from ..moves import move_text
from ..rules import BoxesRules, RulesDict


class BoxesStateDict(TypedDict):
    """The state dict (:meth:`~donuts_ai.boxes.state.BoxesState.to_dict`; every key in ``docs/boxes.md``,
    :mod:`donuts_ai.boxes.state`).

    ``cards`` rows are ``[owner, type, rot, r, c, roll flavour]``, ``frozen`` rows
    ``[r, c, winner]`` (``winner`` ``None`` for nobody)."""

    rules: RulesDict
    to_move: int | None
    cards: list[list[int]]
    frozen: list[list[int | None]]
    scores: list[int]
    boxes: list[int]
    trays: list[list[int]]
    piles: list[list[int]]
    pile_known: list[int]
    trigger: int | None
    final_turns_left: int
    stuck_streak: int
    over: bool
    moves: list[str]


class BoxesObservation(TypedDict):
    """An observation (:meth:`~donuts_ai.boxes.state.BoxesState.observation`): the state dict less the hidden parts,
    with what ``player`` may know of them (``docs/boxes.md``, "The state dict")."""

    rules: RulesDict
    to_move: int | None
    cards: list[list[int]]
    frozen: list[list[int | None]]
    scores: list[int]
    boxes: list[int]
    pile_known: list[int]
    trigger: int | None
    final_turns_left: int
    stuck_streak: int
    over: bool
    player: int
    tray: list[int]
    pile_bottom: list[int]
    tray_sizes: list[int]
    pile_sizes: list[int]
    moves: list[str]


class PlayResult(TypedDict):
    """What a move did, for the mover (:meth:`~donuts_ai.boxes.state.BoxesState.push`)."""

    cards: int
    boxes: int
    points: int
    sealed: int
    scores_delta: list[int]


class PlayoutArrays(TypedDict):
    """:meth:`~donuts_ai.boxes.state.BoxesState.random_playouts`: a row per game."""

    scores: NDArray[np.int32]
    boxes: NDArray[np.int32]
    places: NDArray[np.int32]
    turns: NDArray[np.int64]



#: The engine's arrays of one moment: every table's bytes (in the order of ``Tables``'
#: fields), and the grid copied (it is replaced when it grows).
Snapshot: TypeAlias = tuple[tuple[bytes, ...], Grid]


def tables_for(rules: BoxesRules) -> E.Tables:
    """Zeroed tables for a game under ``rules``: the players and the three switches set."""
    t = E.empty_tables(rules.players)
    t.meta[0]["players"] = rules.players
    t.meta[0]["squared"] = rules.squared
    t.meta[0]["perfect"] = rules.perfect
    t.meta[0]["closers"] = rules.closers
    return t


class EngineCore:
    """One game in the engine's arrays (``t``, ``grid``) and the texts of the moves played."""

    __slots__ = ("rules", "t", "grid", "moves")

    def __init__(self, rules: BoxesRules, t: E.Tables, grid: Grid, moves: list[str]) -> None:
        self.rules, self.t, self.grid, self.moves = rules, t, grid, moves

    @classmethod
    def new(cls, rules: BoxesRules, piles: list[list[int]], start_type: int) -> EngineCore:
        t = tables_for(rules)
        grid = E.start_game(t, np.asarray(piles, dtype=np.int64), int(start_type))
        return cls(rules, t, grid, [])

    def copy(self) -> EngineCore:
        return EngineCore(self.rules, E.copy_tables(self.t), self.grid.copy(), list(self.moves))

    def snapshot(self) -> Snapshot:
        """The arrays as they are now (for undo: :meth:`restore` puts them back)."""
        # As raw bytes: copying a structured array copies field by field, about ten times slower.
        return tuple(table.tobytes() for table in self.t), self.grid.copy()

    def restore(self, snapshot: Snapshot) -> None:
        """Make the arrays hold ``snapshot`` again, the tables in place (a snapshot is never written to)."""
        raw, grid = snapshot
        for table, data in zip(self.t, raw, strict=True):
            target = table.view(np.uint8)  # the same memory, byte by byte
            np.copyto(target, np.frombuffer(data, np.uint8).reshape(target.shape))
        self.grid = grid.copy()

    # ---------------------------------------------------------------- reading
    @property
    def to_move(self) -> int | None:
        return None if self.t.meta[0]["over"] else int(self.t.meta[0]["to_move"])

    @property
    def over(self) -> bool:
        return bool(self.t.meta[0]["over"])

    @property
    def scores(self) -> list[int]:
        scores: list[int] = self.t.pinfo["score"].tolist()
        return scores

    @property
    def boxes(self) -> list[int]:
        boxes: list[int] = self.t.pinfo["boxes"].tolist()
        return boxes

    def ranking(self) -> list[int]:
        keys = list(zip(self.scores, self.boxes, strict=True))
        return [sum(other > mine for other in keys) for mine in keys]

    def tray(self, p: int) -> list[int]:
        tray: list[int] = self.t.trays[p, : self.t.pinfo[p]["tray_len"]].tolist()
        return tray

    def pile(self, p: int) -> list[int]:
        head, count = int(self.t.pinfo[p]["head"]), int(self.t.pinfo[p]["count"])
        return [int(self.t.piles[p, (head + k) & E.PILE_MASK]) for k in range(count)]

    # ---------------------------------------------------------------- moves
    def legal_codes(self) -> Codes:
        return E.legal_codes(self.t, self.grid)

    def is_legal_code(self, code: int) -> bool:
        if not -(1 << 63) <= code < (1 << 63):
            return False
        return bool(E.is_legal(self.t, self.grid, code))

    def replay_code(self, code: int) -> None:
        """Apply a move the state has played before (undo replays from a snapshot): the
        arrays only, no report, the move texts untouched."""
        self.grid, _placed, _sealed = E.apply_move(self.t, self.grid, code)

    def play_code(self, code: int) -> PlayResult:
        p = int(self.t.meta[0]["to_move"])
        before_scores, before_boxes = self.scores, self.boxes
        self.grid, placed, sealed = E.apply_move(self.t, self.grid, code)
        self.moves.append(move_text(code))
        delta = [a - b for a, b in zip(self.scores, before_scores, strict=True)]
        result: PlayResult = {"cards": int(placed), "boxes": self.boxes[p] - before_boxes[p], "points": delta[p],
                              "sealed": int(sealed), "scores_delta": delta}
        return result

    def random_move(self, seed: int) -> int:
        return int(E.seeded_random_move(self.t, self.grid, seed))

    def random_playouts(self, n: int, seed: int) -> PlayoutArrays:
        scores, boxes, places, turns = E.random_playouts(self.t, self.grid, n, seed)
        arrays: PlayoutArrays = {"scores": scores, "boxes": boxes, "places": places, "turns": turns}
        return arrays

    def redeal_hidden(self, observer: int, rng: np.random.Generator) -> None:
        """Shuffle what ``observer`` cannot see (see ``BoxesState.sample_world``)."""
        t = self.t
        for p in range(self.rules.players):
            pile = self.pile(p)
            if p == observer:
                known = int(t.pinfo[p]["known"])
                top = pile[: len(pile) - known]
                pile = [top[i] for i in rng.permutation(len(top))] + pile[len(pile) - known:]
                tray = self.tray(p)
            else:
                cards = self.tray(p) + pile
                cards = [cards[i] for i in rng.permutation(len(cards))]
                n_tray = int(t.pinfo[p]["tray_len"])
                tray, pile = sorted(cards[:n_tray]), cards[n_tray:]
            t.trays[p, : len(tray)] = tray
            t.piles[p, : len(pile)] = pile
            t.pinfo[p]["head"] = 0

    # ---------------------------------------------------------------- dicts
    def to_dict(self) -> BoxesStateDict:
        t, n = self.t, self.rules.players
        meta = t.meta[0]
        cells = t.cell[: meta["n_cells"]]
        frozen = sorted([int(q["row"]), int(q["col"]), None if q["winner"] == E.NOBODY else int(q["winner"])]
                        for q in cells[cells["frozen"] != 0])
        data: BoxesStateDict = {
            "rules": self.rules.to_dict(),
            "to_move": self.to_move,
            "cards": [list(card) for card in t.cards[: meta["n_cards"]].tolist()],
            "frozen": frozen,
            "scores": self.scores,
            "boxes": self.boxes,
            "trays": [self.tray(p) for p in range(n)],
            "piles": [self.pile(p) for p in range(n)],
            "pile_known": t.pinfo["known"].tolist(),
            "trigger": None if meta["trigger"] < 0 else int(meta["trigger"]),
            "final_turns_left": int(meta["final_left"]),
            "stuck_streak": int(meta["streak"]),
            "over": self.over,
            "moves": list(self.moves),
        }
        return data

    @classmethod
    def from_dict(cls, data: BoxesStateDict) -> EngineCore:
        """A core from a checked state dict."""
        rules = BoxesRules.from_dict(data["rules"])
        t = tables_for(rules)
        meta = t.meta[0]
        frozen = {(r, c): winner for r, c, winner in data["frozen"]}
        n_cells = 0
        for k, (owner, card_type, rot, r, c, flavour) in enumerate(data["cards"]):
            t.cards[k] = (owner, card_type, rot, r, c, flavour)
            for code, (dr, dc) in zip(ROTATED_FACES[card_type, rot], QUADRANTS, strict=True):
                roll = int(code) == ROLL
                row = t.cell[n_cells]
                row['row'], row['col'] = r + dr, c + dc
                row['flavour'] = flavour if roll else int(code)
                row['roll'] = roll
                row['owner'] = owner
                pos = (r + dr, c + dc)
                row['frozen'] = pos in frozen
                row['winner'] = E.NOBODY if frozen.get(pos) is None else frozen[pos]
                n_cells += 1
        meta["n_cards"], meta["n_cells"] = len(data["cards"]), n_cells
        for p in range(rules.players):
            tray, pile = sorted(data["trays"][p]), data["piles"][p]
            t.trays[p, : len(tray)] = tray
            t.piles[p, : len(pile)] = pile
            t.pinfo[p] = (0, len(pile), data["pile_known"][p], len(tray), data["scores"][p], data["boxes"][p])
        meta["to_move"] = -1 if data["to_move"] is None else data["to_move"]
        meta["trigger"] = -1 if data["trigger"] is None else data["trigger"]
        meta["final_left"] = data["final_turns_left"]
        meta["streak"] = data["stuck_streak"]
        meta["over"] = data["over"]
        meta["turns"] = len(data["moves"])
        grid = E.rebuild(t, E.MIN_WBITS)
        return cls(rules, t, grid, list(data["moves"]))
