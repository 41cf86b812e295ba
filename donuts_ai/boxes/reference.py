"""A slow, obviously-correct pure-Python statement of the Donut Boxes rules.

It shares no rule code with the Numba engine (:mod:`._kernels`): it keeps the layout as a
dict of quadrant positions and recomputes everything (runs, seals, legal moves) from
scratch, exactly as the rules are worded in ``docs/boxes.md``. Only the vocabulary is
shared: the card data (:mod:`.deck`), the rules value and the move codes and texts
(:mod:`.moves`). The test suite plays both side by side and compares them move by move.

    >>> from donuts_ai.boxes import BoxesRules
    >>> from donuts_ai.boxes.deck import deal
    >>> game = ReferenceGame(BoxesRules(players=2), *deal(2, seed=1))
    >>> len(game.legal_moves()) > 0
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from ..errors import GameOverError, IllegalMoveError
from .deck import (
    CANONICAL_ROTATIONS,
    PLAIN_FLAVOURS,
    QUADRANTS,
    ROLL,
    ROTATED_FACES,
    TRAY_SIZE,
)
from .moves import BOX, PLACE, STUCK, box_code, decode, move_text, parse_move, place_code, stuck_code
from .rules import BoxesRules

if TYPE_CHECKING:
    from .state import BoxesStateDict, PlayResult

#: A box of fewer donuts than this seals (and freezes) but scores nothing; the same
#: size is the least a player may box early, and the least an open run scores at the end.
MIN_BOX = 3
NEUTRAL = -1  # owner of the start card's quadrants
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
#: A quadrant position ``(r, c)``.
Pos: TypeAlias = tuple[int, int]


@dataclass
class Cell:
    """One placed quadrant."""

    flavour: int  # 1..4 (a roll holds the flavour it took)
    roll: bool  # a Cinnamon Roll (doubles its box)
    owner: int  # player index, NEUTRAL for the start card
    frozen: bool = False  # part of a delivered box
    winner: int | None = None  # who that box scored for (None: nobody)


def _neighbours(pos: Pos) -> list[Pos]:
    r, c = pos
    return [(r + dr, c + dc) for dr, dc in STEPS]


def _window(r: int, c: int) -> list[Pos]:
    return [(r + dr, c + dc) for dr, dc in QUADRANTS]


class ReferenceGame:
    """A full game state (nothing hidden) played by the rules, move texts in and out.

    ``piles``: every player's shuffled deck, top first (the first 4 become the tray);
    ``start_type``: the start card's type, placed unturned with its top-left at 0,0.
    """

    def __init__(self, rules: BoxesRules, piles: list[list[int]], start_type: int):
        n = rules.players
        self.rules = rules
        self.cells: dict[tuple[int, int], Cell] = {}
        self.cards: list[list[int]] = []  # [owner, type, rot, r, c, roll flavour or 0]
        self.trays = [sorted(p[:TRAY_SIZE]) for p in piles]
        self.piles = [list(p[TRAY_SIZE:]) for p in piles]
        self.pile_known = [0] * n
        self.scores = [0] * n
        self.boxes = [0] * n
        self.to_move: int | None = 0
        self.trigger: int | None = None
        self.final_turns_left = 0
        self.stuck_streak = 0
        self.over = False
        self.moves: list[str] = []
        face = [int(x) for x in ROTATED_FACES[start_type, 0]]
        # D3: nobody places the start card, so its roll takes its own card's (lowest) flavour.
        flavour = min(f for f in face if f != ROLL) if ROLL in face else 0
        self._put(NEUTRAL, start_type, 0, 0, 0, flavour)

    # ------------------------------------------------------------------ geometry
    def coverable(self, pos: Pos) -> bool:
        """An empty position some card could still cover: it lies in a fully empty 2x2
        window the grid allows (on the card grid under Squared Away)."""
        if pos in self.cells:
            return False
        r, c = pos
        for a in (r - 1, r):
            for b in (c - 1, c):
                if self.rules.squared and (a % 2 or b % 2):
                    continue
                if all(w not in self.cells for w in _window(a, b)):
                    return True
        return False

    def candidate_anchors(self) -> set[tuple[int, int]]:
        """Top-left positions of every 2x2 window holding an empty position next to the
        layout: a superset of where a card can go (:meth:`fits` decides)."""
        edge = {n for pos in self.cells for n in _neighbours(pos) if n not in self.cells}
        return {(r - a, c - b) for r, c in edge for a in (0, 1) for b in (0, 1)}

    def fits(self, face: Sequence[int], r: int, c: int) -> bool:
        """Whether a card showing ``face`` (codes, reading order) may be placed with its
        top-left quadrant at ``(r, c)``: grid, no overlap, edge contact and the matching rule."""
        if self.rules.squared and (r % 2 or c % 2):
            return False
        own = _window(r, c)
        if any(p in self.cells for p in own):
            return False
        any_agree, every_touching_agrees = False, True
        for code, pos in zip(face, own, strict=True):
            touched = [self.cells[n] for n in _neighbours(pos) if n not in own and n in self.cells]
            live = [cell.flavour for cell in touched if not cell.frozen]
            if any(code == ROLL or code == f for f in live):
                any_agree = True
            elif touched:
                # D9: a donut touching the layout must agree with a live donut it touches
                # (under Perfect Match); frozen ones can never be matched against.
                every_touching_agrees = False
        # At least one agreeing pair: it also gives the edge contact (a corner never counts).
        if not any_agree:
            return False
        return every_touching_agrees or not self.rules.perfect

    def roll_options(self, face: Sequence[int], r: int, c: int) -> list[int]:
        """Flavours the roll of ``face`` placed at ``(r, c)`` may take (D10): the flavours
        of the live layout quadrants it lands beside (not its own card's), or any if none."""
        own = _window(r, c)
        pos = own[list(face).index(ROLL)]
        options: set[int] = set()
        for n in _neighbours(pos):
            if n not in own and n in self.cells and not self.cells[n].frozen:
                options.add(self.cells[n].flavour)
        return sorted(options) or list(PLAIN_FLAVOURS)

    def live_runs(self) -> list[list[Pos]]:
        """Every open run: a maximal edge-connected set of live quadrants of one flavour
        (cells sorted in reading order; runs sorted by their first cell)."""
        seen: set[Pos] = set()
        runs: list[list[Pos]] = []
        for start in sorted(self.cells):
            if start in seen or self.cells[start].frozen:
                continue
            flavour, todo = self.cells[start].flavour, [start]
            run: list[Pos] = []
            seen.add(start)
            while todo:
                pos = todo.pop()
                run.append(pos)
                for n in _neighbours(pos):
                    cell = self.cells.get(n)
                    if n not in seen and cell is not None and not cell.frozen and cell.flavour == flavour:
                        seen.add(n)
                        todo.append(n)
            runs.append(sorted(run))
        return sorted(runs)

    def holdings(self, run: Sequence[Pos]) -> list[int]:
        """Donuts each player holds in ``run`` (the start card's belong to nobody)."""
        held = [0] * self.rules.players
        for pos in run:
            if self.cells[pos].owner != NEUTRAL:
                held[self.cells[pos].owner] += 1
        return held

    def run_points(self, run: Sequence[Pos]) -> int:
        """A point per donut, doubled when the run holds a Cinnamon Roll; nothing under 3 donuts."""
        if len(run) < MIN_BOX:
            return 0
        return len(run) * (2 if any(self.cells[p].roll for p in run) else 1)

    def majority(self, run: Sequence[Pos], sealer: int | None) -> int | None:
        """Who holds the most donuts in ``run`` (at least one); a tie goes to ``sealer`` if
        ``sealer`` is among the tied, else to nobody (``None``)."""
        held = self.holdings(run)
        best = max(held)
        if best == 0:
            return None
        top = [q for q, h in enumerate(held) if h == best]
        if len(top) == 1:
            return top[0]
        return sealer if sealer in top else None

    # ------------------------------------------------------------------ moves
    def placement_codes(self) -> list[int]:
        p = self.to_move
        assert p is not None  # asked only while the game goes on
        anchors = self.candidate_anchors()
        codes: list[int] = []
        for card_type in self.trays[p]:
            for rot in CANONICAL_ROTATIONS[card_type]:
                face = [int(x) for x in ROTATED_FACES[card_type, rot]]
                for r, c in anchors:
                    if not self.fits(face, r, c):
                        continue
                    if ROLL in face:
                        codes += [place_code(r, c, card_type, rot, f) for f in self.roll_options(face, r, c)]
                    else:
                        codes.append(place_code(r, c, card_type, rot, 0))
        return codes

    def legal_codes(self) -> list[int]:
        """Every legal move's code, ascending (the canonical order)."""
        if self.over:
            return []
        p = self.to_move
        assert p is not None  # the game goes on
        codes = self.placement_codes()
        for run in self.live_runs():
            if len(run) >= MIN_BOX and 2 * self.holdings(run)[p] >= len(run):
                codes.append(box_code(*run[0]))
        if not any(decode(code)[0] == PLACE for code in codes):
            codes += [stuck_code(t) for t in self.trays[p]]
        return sorted(codes)

    def legal_moves(self) -> list[str]:
        """Every legal move's text, in the canonical order (ascending code)."""
        return [move_text(code) for code in self.legal_codes()]

    def push(self, move: str) -> PlayResult:
        """Play a legal move text; returns ``{"cards", "boxes", "points", "sealed", "scores_delta"}``
        for the mover (see :meth:`donuts_ai.boxes.BoxesState.play`)."""
        return self.play_code(parse_move(move))

    def play_code(self, code: int) -> PlayResult:
        """:meth:`push` on a move code."""
        if self.over:
            raise GameOverError(f"the game is over; cannot play {move_text(code)!r}")
        if code not in self.legal_codes():
            raise IllegalMoveError(f"illegal move {move_text(code)!r}")
        p = self.to_move
        assert p is not None  # the game goes on
        before_scores, before_boxes = list(self.scores), list(self.boxes)
        kind, r, c, card_type, rot, flavour = decode(code)
        sealed, cards = 0, 0
        if kind == PLACE:
            self.trays[p].remove(card_type)
            self._put(p, card_type, rot, r, c, flavour)
            cards = 1
            for run in self.live_runs():
                if not any(self.coverable(n) for pos in run for n in _neighbours(pos)):
                    self._deliver(run, p, early=False)
                    sealed += 1
        elif kind == BOX:
            run = next(run for run in self.live_runs() if run[0] == (r, c))
            self._deliver(run, p, early=True)
            sealed = 1
        else:
            self.trays[p].remove(card_type)
            self.piles[p].append(card_type)
            self.pile_known[p] += 1
        self.moves.append(move_text(code))
        self._end_turn(p, stuck=kind == STUCK)
        delta = [a - b for a, b in zip(self.scores, before_scores, strict=True)]
        result: PlayResult = {"cards": cards, "boxes": self.boxes[p] - before_boxes[p], "points": delta[p],
                              "sealed": sealed, "scores_delta": delta}
        return result

    def _put(self, owner: int, card_type: int, rot: int, r: int, c: int, flavour: int) -> None:
        for code, pos in zip(ROTATED_FACES[card_type, rot], _window(r, c), strict=True):
            code = int(code)
            self.cells[pos] = Cell(flavour, True, owner) if code == ROLL else Cell(code, False, owner)
        self.cards.append([owner, int(card_type), rot, r, c, flavour])

    def _deliver(self, run: Sequence[Pos], sealer: int, early: bool) -> None:
        points = self.run_points(run)
        scorer: int | None
        if points == 0:
            scorer = None
        elif early or self.rules.closers:
            scorer = sealer
        else:
            scorer = self.majority(run, sealer)
        for pos in run:
            self.cells[pos].frozen = True
            self.cells[pos].winner = scorer
        if scorer is not None:
            self.scores[scorer] += points
            self.boxes[scorer] += 1

    def _end_turn(self, p: int, stuck: bool) -> None:
        n = self.rules.players
        while len(self.trays[p]) < TRAY_SIZE and self.piles[p]:
            self.trays[p].append(self.piles[p].pop(0))
            self.pile_known[p] = min(self.pile_known[p], len(self.piles[p]))
        self.trays[p].sort()
        self.stuck_streak = self.stuck_streak + 1 if stuck else 0
        if self.trigger is None:
            if not self.piles[p]:
                self.trigger, self.final_turns_left = p, n - 1
        else:
            self.final_turns_left -= 1
        if self.trigger is not None and self.final_turns_left == 0:
            self._finish()
        elif self.stuck_streak == n and self.layout_dead():
            self._finish()
        else:
            self.to_move = (p + 1) % n

    def layout_dead(self) -> bool:
        """No card left to any player, in a tray or a pile, fits anywhere in any rotation."""
        anchors = self.candidate_anchors()
        for q in range(self.rules.players):
            for card_type in set(self.trays[q]) | set(self.piles[q]):
                for rot in CANONICAL_ROTATIONS[card_type]:
                    face = [int(x) for x in ROTATED_FACES[card_type, rot]]
                    if any(self.fits(face, r, c) for r, c in anchors):
                        return False
        return True

    def _finish(self) -> None:
        """Open runs of 3 or more score in full to their strict majority holder (nobody on a tie)."""
        for run in self.live_runs():
            points = self.run_points(run)
            scorer = self.majority(run, None)
            if points and scorer is not None:
                self.scores[scorer] += points
        self.over = True
        self.to_move = None

    @classmethod
    def from_dict(cls, data: BoxesStateDict) -> ReferenceGame:
        """A game from the common dict form (trusted: ``BoxesState.from_dict`` checks it)."""
        game = cls.__new__(cls)
        game.rules = BoxesRules.from_dict(data["rules"])
        game.cells, game.cards = {}, []
        for owner, card_type, rot, r, c, flavour in data["cards"]:
            game._put(owner, card_type, rot, r, c, flavour)
        for fr, fc, winner in data["frozen"]:
            assert fr is not None and fc is not None  # a frozen row is [r, c, winner]
            game.cells[(fr, fc)].frozen = True
            game.cells[(fr, fc)].winner = winner
        game.trays = [sorted(t) for t in data["trays"]]
        game.piles = [list(p) for p in data["piles"]]
        game.pile_known, game.scores = list(data["pile_known"]), list(data["scores"])
        game.boxes, game.moves = list(data["boxes"]), list(data["moves"])
        game.to_move, game.trigger, game.over = data["to_move"], data["trigger"], data["over"]
        game.final_turns_left, game.stuck_streak = data["final_turns_left"], data["stuck_streak"]
        return game

    # ------------------------------------------------------------------ views
    def ranking(self) -> list[int]:
        """Each player's place (0 first): by score, then boxes delivered; equal pairs share a place."""
        keys = list(zip(self.scores, self.boxes, strict=True))
        return [sum(other > mine for other in keys) for mine in keys]

    def to_dict(self) -> BoxesStateDict:
        """The full state in the common dict form (see ``BoxesState.to_dict``)."""
        data: BoxesStateDict = {
            "rules": self.rules.to_dict(),
            "to_move": self.to_move,
            "cards": [list(card) for card in self.cards],
            "frozen": sorted(([r, c, cell.winner] for (r, c), cell in self.cells.items() if cell.frozen),
                             key=lambda row: row[:2]),
            "scores": list(self.scores),
            "boxes": list(self.boxes),
            "trays": [sorted(t) for t in self.trays],
            "piles": [list(p) for p in self.piles],
            "pile_known": list(self.pile_known),
            "trigger": self.trigger,
            "final_turns_left": self.final_turns_left,
            "stuck_streak": self.stuck_streak,
            "over": self.over,
            "moves": list(self.moves),
        }
        return data

