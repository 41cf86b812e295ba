"""The suite format: positions labelled with the exact value of every legal move.

A suite is a text file, version 1 (modelled on chess engines' EPD files)::

    # donuts-suite 1
    -|/\\-|,||--//,... group/15 c3,e3,a3,... a2=W9,b4=L12,f1=W?,d6=D14

The first line is ``# donuts-suite 1``; other ``#`` lines are comments, and ``# key:
value`` ones before the first position are the suite's metadata (:attr:`Suite.meta`).
Every other non-blank line is one position, four fields separated by spaces: the
**layout** (its 6 rows, rank 6 first, joined by ``,``, as in :meth:`donuts_ai.Board.fen`),
the **rules** (``INSERTION/DONUTS``, e.g. ``group/15``), the **moves** from the empty
board (joined by ``,``; ``-``: none; the position must not be over), and the **labels**
of every legal move, as ``SQUARE=RD``: ``R`` the move's exact value for its player
(``W``, ``D``, ``L``) and ``D`` the plies to the end under best play after it, the move
included, or ``?`` when not proved.

A move **keeps the value** when its label equals the best one; a position is
**critical** when some legal move does not; a **fastest win** is a winning move of the
least distance, known when every winning move's distance is.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..donuts.board import Board
from ..donuts.layout import Layout
from ..donuts.rules import Rules
from ..donuts.squares import SQUARE_NAMES
from ..errors import DonutsError
from ..outcomes import DRAW, LOSS, WIN

#: The first line of every suite file; the number is the format's version.
HEADER = "# donuts-suite 1"
#: The format versions this module reads.
VERSION = 1
#: A label's result letter by game value, and back.
RESULT_LETTERS = {WIN: "W", DRAW: "D", LOSS: "L"}
LETTER_VALUES = {letter: value for value, letter in RESULT_LETTERS.items()}
#: A distance that was not proved, as written.
UNPROVEN = "?"
#: The moves field of the empty board.
NO_MOVES = "-"
#: Fields of a position line.
FIELDS = ("layout", "rules", "moves", "labels")
#: The phases of a game: suite name -> (first ply, last ply or None for the game's end).
#: A ply is the number of donuts placed before the move to find.
PHASES: dict[str, tuple[int, int | None]] = {"opening": (1, 8), "middlegame": (9, 20), "endgame": (21, None)}
#: The suite of the critical positions of every phase.
CRITICAL = "critical"
#: The suites the library ships, in order (``donuts_ai/suites/data/NAME.txt``).
SUITE_NAMES = (*PHASES, CRITICAL)
#: Where the shipped suites are.
DATA = Path(__file__).parent / "data"


def phase_of(ply: int) -> str:
    """The phase (a name of :data:`PHASES`) of a position after ``ply`` donuts (a ply
    before the first phase's counts as the first phase)."""
    for name, (_, last) in PHASES.items():
        if last is None or ply <= last:
            return name
    raise AssertionError("the last phase has no end")  # pragma: no cover


def _allocate(sizes: Sequence[int], count: int) -> list[int]:
    """``count`` shared out over strata of ``sizes`` in proportion to their sizes (largest
    remainders, ties to the earlier stratum), never more than a stratum holds; every
    stratum gets at least one when ``count`` is at least the number of strata. Needs
    ``count <= sum(sizes)`` and every size at least 1."""
    base = [1] * len(sizes) if count >= len(sizes) else [0] * len(sizes)
    weights = [size - b for size, b in zip(sizes, base, strict=True)]
    left, total = count - sum(base), sum(weights)
    if left <= 0 or total <= 0:
        return base
    quotas = [left * w for w in weights]
    shares = [q // total for q in quotas]
    by_remainder = sorted(range(len(sizes)), key=lambda i: (-(quotas[i] % total), i))
    for i in by_remainder[:left - sum(shares)]:
        shares[i] += 1
    return [b + s for b, s in zip(base, shares, strict=True)]


class SuiteError(DonutsError):
    """A suite that cannot be read: an unknown name, a missing file, or a line that
    breaks the format (the message names the file and the line)."""


@dataclass(frozen=True)
class MoveLabel:
    """One legal move's exact ``value`` for the player making it (+1 win, 0 draw, -1
    loss) and its ``distance``: plies to the end under best play after it, the move
    included, or ``None`` when not proved."""

    move: str
    value: int
    distance: int | None

    def text(self) -> str:
        """The label as a suite line writes it (``a2=W9``, ``f1=W?``)."""
        return f"{self.move}={RESULT_LETTERS[self.value]}{UNPROVEN if self.distance is None else self.distance}"


@dataclass(frozen=True)
class SuitePosition:
    """A position of a suite: the ``layout``, the ``rules``, the ``moves`` played from the
    empty board, and the ``labels`` of every legal move (in square order)."""

    layout: Layout
    rules: Rules
    moves: tuple[str, ...]
    labels: tuple[MoveLabel, ...]
    _by_move: dict[str, MoveLabel] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_move", {label.move: label for label in self.labels})

    @property
    def ply(self) -> int:
        """Donuts placed so far (the number of moves)."""
        return len(self.moves)

    @property
    def phase(self) -> str:
        """The phase of :data:`PHASES` the position is in, by its :attr:`ply`."""
        return phase_of(self.ply)

    def board(self) -> Board:
        """A fresh :class:`~donuts_ai.Board` of the position (the moves pushed, so it can undo them)."""
        board = Board(self.layout, self.rules)
        for move in self.moves:
            board.push(move)
        return board

    @property
    def value(self) -> int:
        """The position's exact value for the side to move: its best move's."""
        return max(label.value for label in self.labels)

    def label(self, move: str) -> MoveLabel | None:
        """The label of ``move`` (a square name), or ``None`` when it is not a legal move."""
        return self._by_move.get(move)

    def keeps(self, move: str) -> bool:
        """Whether ``move`` (a square name) is legal and keeps the position's value."""
        label = self._by_move.get(move)
        return label is not None and label.value == self.value

    @property
    def critical(self) -> bool:
        """Some legal move throws the value away."""
        return any(label.value != self.value for label in self.labels)

    @property
    def fastest_win(self) -> int | None:
        """The least distance of the winning moves of a won position, when every winning
        move's distance is proved; ``None`` otherwise (not won, or not all proved)."""
        wins = [label.distance for label in self.labels if label.value == WIN]
        if not wins or any(d is None for d in wins):
            return None
        return min(d for d in wins if d is not None)

    def is_fastest_win(self, move: str) -> bool:
        """Whether ``move`` wins in :attr:`fastest_win` plies (``False`` when that is unknown)."""
        label, fastest = self._by_move.get(move), self.fastest_win
        return fastest is not None and label is not None and label.value == WIN and label.distance == fastest

    def line(self) -> str:
        """The position as one suite line."""
        layout = ",".join(self.layout.to_text().splitlines())
        moves = ",".join(self.moves) or NO_MOVES
        labels = ",".join(label.text() for label in self.labels)
        return f"{layout} {self.rules.insertion}/{self.rules.donuts} {moves} {labels}"


@dataclass(frozen=True)
class Suite:
    """A named list of labelled positions (see the module doc): ``meta`` holds the
    header's ``key: value`` comments, ``sha256`` the digest of the text it was read
    from (what a results file records, so results are never mixed across versions)."""

    name: str
    positions: tuple[SuitePosition, ...]
    meta: dict[str, str] = field(default_factory=dict)
    sha256: str = ""

    def __len__(self) -> int:
        return len(self.positions)

    def head(self, count: int | None) -> Suite:
        """The suite's first ``count`` positions (all when ``None``), as a suite of the same name and digest."""
        if count is None or count >= len(self.positions):
            return self
        return Suite(self.name, self.positions[:count], dict(self.meta), self.sha256)

    def sample_indices(self, count: int | None, seed: int = 0) -> list[int]:
        """The indices, in suite order, of the ``count`` positions :meth:`sample` draws
        (every index when ``count`` is ``None`` or at least the suite's size)."""
        if count is None or count >= len(self.positions):
            return list(range(len(self.positions)))
        if count < 0:
            raise SuiteError(f"cannot draw {count} positions: the count must be 0 or more")
        strata: dict[str, dict[int, list[int]]] = {}  # phase -> ply -> indices, in suite order
        for index, position in enumerate(self.positions):
            strata.setdefault(position.phase, {}).setdefault(position.ply, []).append(index)
        phases = [strata[name] for name in PHASES if name in strata]
        picked: list[int] = []
        for phase, share in zip(phases, _allocate([sum(map(len, p.values())) for p in phases], count), strict=True):
            plies = sorted(phase)
            for ply, take in zip(plies, _allocate([len(phase[k]) for k in plies], share), strict=True):
                # Each ply's own stream: a larger count of the same seed draws the same positions first.
                order = list(phase[ply])
                random.Random(f"donuts-suite-sample:{seed}:{self.sha256}:{ply}").shuffle(order)
                picked.extend(order[:take])
        return sorted(picked)

    def sample(self, count: int | None, seed: int = 0) -> Suite:
        """``count`` positions drawn over the whole suite, in suite order, as a suite of the
        same name, meta and digest (the whole suite when ``count`` is ``None`` or at least
        its size); where :meth:`head` takes the first positions, this one spreads them.

        The draw is stratified: ``count`` is shared out over the phases the positions are
        in (:data:`PHASES`, by ply) in proportion to their sizes, each phase's share over
        its plies the same way, and each ply's positions are drawn at random from ``seed``.
        Every phase gets a position when ``count`` is at least the number of phases (so a
        suite of one phase is stratified by ply), every ply of a phase when the phase's
        share is at least its number of plies. The same suite, ``count`` and ``seed`` draw
        the same positions on every run; another seed draws others."""
        indices = self.sample_indices(count, seed)
        if len(indices) == len(self.positions):
            return self
        return Suite(self.name, tuple(self.positions[i] for i in indices), dict(self.meta), self.sha256)

    def text(self) -> str:
        """The suite as a file's text (:func:`parse_suite` reads it back)."""
        meta = {"name": self.name, **{k: v for k, v in self.meta.items() if k != "name"}}
        lines = [HEADER, *(f"# {key}: {value}" for key, value in meta.items()), *(p.line() for p in self.positions)]
        return "\n".join(lines) + "\n"

    def write(self, path: str | Path) -> None:
        """Write the suite to ``path`` (the file :func:`load_suite` reads)."""
        Path(path).write_text(self.text(), encoding="utf-8")


def digest(text: str) -> str:
    """The SHA-256 of a suite's text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _label(text: str, where: str) -> MoveLabel:
    move, sep, rest = text.partition("=")
    if not sep or len(rest) < 2 or rest[0] not in LETTER_VALUES:
        raise SuiteError(f"{where}: bad label {text!r} (expected SQUARE=RD: R one of W, D, L; D a distance or ?)")
    if move not in SQUARE_NAMES:
        raise SuiteError(f"{where}: bad label {text!r}: {move!r} is not a square (a1..f6)")
    if rest[1:] == UNPROVEN:
        return MoveLabel(move, LETTER_VALUES[rest[0]], None)
    if not rest[1:].isdigit() or int(rest[1:]) < 1:
        raise SuiteError(f"{where}: bad label {text!r}: the distance must be a positive whole number or ?")
    return MoveLabel(move, LETTER_VALUES[rest[0]], int(rest[1:]))


def _rules(text: str, where: str) -> Rules:
    insertion, sep, donuts = text.partition("/")
    if not sep or not donuts.isdigit():
        raise SuiteError(f"{where}: bad rules {text!r} (expected INSERTION/DONUTS, e.g. group/15)")
    try:
        return Rules(insertion=insertion, donuts=int(donuts))
    except DonutsError as exc:
        raise SuiteError(f"{where}: bad rules {text!r}: {exc}") from None


def parse_position(line: str, where: str = "position") -> SuitePosition:
    """One position line (see the module doc), checked: the layout and rules read, the
    moves legal from the empty board, the game not over, and the labels naming every
    legal move exactly once; :class:`SuiteError` (prefixed by ``where``) otherwise."""
    fields = line.split()
    if len(fields) != len(FIELDS):
        raise SuiteError(f"{where}: expected {len(FIELDS)} fields ({' '.join(FIELDS)}) separated by spaces, got {len(fields)}")
    layout_text, rules_text, moves_text, labels_text = fields
    try:
        layout = Layout.from_text("\n".join(layout_text.split(",")))
    except DonutsError as exc:
        raise SuiteError(f"{where}: bad layout: {exc}") from None
    rules = _rules(rules_text, where)
    moves = () if moves_text == NO_MOVES else tuple(moves_text.split(","))
    board = Board(layout, rules)
    for i, move in enumerate(moves):
        if board.is_game_over():
            raise SuiteError(f"{where}: move {i + 1} ({move!r}) comes after the end of the game")
        try:
            if move not in SQUARE_NAMES:
                raise DonutsError("not a square")
            board.push(move)  # checks that the move is legal
        except DonutsError:
            raise SuiteError(f"{where}: move {i + 1} ({move!r}) is not a legal move there "
                             f"(legal: {', '.join(board.legal_moves())})") from None
    if board.is_game_over():
        raise SuiteError(f"{where}: the game is over after the moves: nothing to label")
    labels = tuple(_label(text, where) for text in labels_text.split(","))
    named = [label.move for label in labels]
    legal = board.legal_moves()
    if sorted(named) != sorted(legal) or len(set(named)) != len(named):
        missing, extra = sorted(set(legal) - set(named)), sorted(set(named) - set(legal))
        twice = sorted({m for m in named if named.count(m) > 1})
        detail = "; ".join(f"{what}: {', '.join(squares)}" for what, squares in
                           (("missing", missing), ("not legal", extra), ("labelled twice", twice)) if squares)
        raise SuiteError(f"{where}: the labels must name every legal move once ({detail})")
    order = {name: i for i, name in enumerate(SQUARE_NAMES)}
    return SuitePosition(layout, rules, moves, tuple(sorted(labels, key=lambda label: order[label.move])))


def parse_suite(text: str, name: str | None = None, source: str = "<suite>") -> Suite:
    """Read a suite's text (see the module doc). ``name`` defaults to the header's
    ``name:``, else ``source``; errors name ``source`` and the line."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != HEADER:
        first = lines[0].strip() if lines else ""
        if first.startswith("# donuts-suite "):
            raise SuiteError(f"{source}: suite format {first[len('# donuts-suite '):]!r} is not one this version reads "
                             f"(it reads version {VERSION})")
        raise SuiteError(f"{source}: not a donuts suite (the first line must be {HEADER!r})")
    meta: dict[str, str] = {}
    positions: list[SuitePosition] = []
    for number, raw in enumerate(lines[1:], start=2):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            key, sep, value = line[1:].partition(":")
            if sep and not positions and key.strip().isidentifier():
                meta[key.strip()] = value.strip()
            continue
        positions.append(parse_position(line, f"{source}:{number}"))
    return Suite(name or meta.get("name") or source, tuple(positions), meta, digest(text))


def make_suite(name: str, positions: Iterable[SuitePosition], meta: dict[str, str] | None = None) -> Suite:
    """A suite of ``positions``, its digest that of the text it writes."""
    suite = Suite(name, tuple(positions), dict(meta or {}))
    return Suite(suite.name, suite.positions, suite.meta, digest(suite.text()))


def position_of(board: Board, labels: Sequence[MoveLabel]) -> SuitePosition:
    """The suite position of ``board`` (its moves from the empty board, none forfeited) with ``labels``."""
    moves = board.move_stack
    if any(move is None for move in moves):
        raise SuiteError("a suite position is reached by moves alone: this board has a forfeited turn")
    order = {name: i for i, name in enumerate(SQUARE_NAMES)}
    position = SuitePosition(board.layout, board.rules, tuple(m for m in moves if m is not None),
                             tuple(sorted(labels, key=lambda label: order[label.move])))
    replayed = position.board()
    if (replayed.bitboards, replayed.turn, replayed.last, replayed.placed) != (board.bitboards, board.turn, board.last,
                                                                                board.placed):
        raise SuiteError("a suite position is reached by moves from the empty board: this board's history does not start there")
    return position


_LOADED: dict[str, Suite] = {}


def load_suite(suite: object) -> Suite:
    """A suite by name (one of :data:`SUITE_NAMES`, shipped with the library), by the path
    of a suite file, or a :class:`Suite` (returned as it is). A shipped suite is read once
    per process. :class:`SuiteError` for an unknown name, a missing file or a bad line."""
    if isinstance(suite, Suite):
        return suite
    if isinstance(suite, str) and suite in SUITE_NAMES:
        if suite not in _LOADED:
            path = DATA / f"{suite}.txt"
            _LOADED[suite] = parse_suite(path.read_text(encoding="utf-8"), suite, f"{suite} ({path})")
        return _LOADED[suite]
    if not isinstance(suite, (str, Path)):
        raise SuiteError(f"a suite is a name ({', '.join(SUITE_NAMES)}), a suite file's path or a Suite, got {type(suite).__name__}")
    path = Path(suite)
    if not path.is_file():
        expected = f"a suite is one of {', '.join(SUITE_NAMES)} or the path of a suite file"
        text = str(suite)
        if path.exists():
            raise SuiteError(f"suite file {text!r} is not a file; {expected}")
        if os.sep in text or "/" in text or (os.altsep is not None and os.altsep in text) or path.suffix:
            raise SuiteError(f"suite file {text!r} does not exist; {expected}")
        raise SuiteError(f"unknown suite {text!r}: expected one of {', '.join(SUITE_NAMES)} or the path of a suite file")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SuiteError(f"cannot read suite file {str(path)!r}: {exc}") from None
    return parse_suite(text, source=str(path))
