"""Undo for :class:`~donuts_ai.boxes.state.BoxesState`: the moves pushed, and copies of the engine's arrays
to replay them from.

A push of the compiled engine cannot be reversed in place (a sealed run, a card drawn, a
roll's flavour are not kept), so :class:`UndoHistory` keeps the codes pushed and a copy of
the arrays every :data:`UNDO_SNAPSHOT_EVERY` pushes; a pop puts back the nearest copy
before the move undone and replays the moves since.
"""

from __future__ import annotations

from .engine import EngineCore, PlayResult, Snapshot

#: Undo keeps a copy of the arrays every this many pushes and replays the moves since the
#: nearest copy, so a pop replays at most 63 moves. A copy (3-5 us) costs a fraction of a
#: push, so one every 64 adds under 1% to a push; with the rest of the undo bookkeeping a
#: push costs 0-3% more than without undo (benchmarks/side_by_side/state_api_overhead.py;
#: benchmarks/RESULTS.md, "One state API for both games").
UNDO_SNAPSHOT_EVERY = 64


class UndoHistory:
    """What a state can undo: the codes pushed since its history began (``pushed``) and
    the copies to replay them from.

    ``snapshots[k]`` holds the arrays before push ``k * UNDO_SNAPSHOT_EVERY`` (never
    written to), or ``None`` for the start of a new game, which :meth:`pop` deals again
    from ``deal`` (so a push of a game shorter than :data:`UNDO_SNAPSHOT_EVERY` moves
    copies nothing)."""

    __slots__ = ("pushed", "snapshots", "deal")

    def __init__(self, deal: tuple[list[list[int]], int] | None = None) -> None:
        """An empty history; ``deal`` (the piles and the start card) when it starts at a new game's deal."""
        self.pushed: list[int] = []
        self.snapshots: list[Snapshot | None] = []
        self.deal = deal

    def copy(self) -> UndoHistory:
        """An independent history, sharing the copies and the deal (never written to)."""
        other = UndoHistory(self.deal)
        other.pushed, other.snapshots = list(self.pushed), list(self.snapshots)
        return other

    def push(self, core: EngineCore, code: int) -> PlayResult:
        """Play the legal move ``code`` on ``core``, copying its arrays first when a copy is due."""
        pushed = len(self.pushed)
        if pushed % UNDO_SNAPSHOT_EVERY == 0 and len(self.snapshots) == pushed // UNDO_SNAPSHOT_EVERY:
            self.snapshots.append(None if pushed == 0 and self.deal is not None else core.snapshot())
        result = core.play_code(code)
        self.pushed.append(code)
        return result

    def pop(self, core: EngineCore) -> str:
        """Undo the last push on ``core`` exactly (every array as it was); its move text.
        Raises ``IndexError`` when nothing pushed is left to undo."""
        if not self.pushed:
            raise IndexError("pop from empty move stack")
        self.pushed.pop()
        pushed = len(self.pushed)
        nearest = pushed // UNDO_SNAPSHOT_EVERY
        del self.snapshots[nearest + 1:]  # later snapshots are of the line being undone
        snapshot = self.snapshots[nearest]
        if snapshot is None:  # the start of a new game: dealt again from the same deal
            assert self.deal is not None  # a None snapshot is only ever taken with a deal
            core.restore(EngineCore.new(core.rules, *self.deal).snapshot())
        else:
            core.restore(snapshot)
        for code in self.pushed[nearest * UNDO_SNAPSHOT_EVERY:]:
            core.replay_code(code)
        return core.moves.pop()
