r"""Board layouts: which line is printed on each of the 36 squares.

The physical board is four double-sided 3×3 tiles, each placed in any of the four
quadrants, either side up, turned any of four ways: 4!·8⁴ = 98,304 arrangements.
The retail tile faces are not public, so :data:`TILE_FACES` is **our own tile set**:
eight faces, each mixing all four directions. Any 36-square direction grid is a
valid layout, made from tiles or not.

Layout text is 6 lines of 6 symbols from ``- | / \``, the first line rank 6 (the
top of the board as drawn), e.g. :meth:`Layout.standard`::

    -/|\|/
    \-//-\
    |\--/|
    |/-/-\
    -\||\/
    /|\\|/
"""

from __future__ import annotations

import itertools
import os
import random as _random
from collections.abc import Iterator, Sequence

import numpy as np

from .._checks import check_int
from .errors import LayoutError
from .squares import DIRECTION_SYMBOLS, NUM_SQUARES, SIZE, square, square_file, square_rank
from .svg import board_svg
from .symmetry import SYMMETRY_NAMES, transform_coords, transform_direction

_SYMBOL_TO_DIRECTION = {s: i for i, s in enumerate(DIRECTION_SYMBOLS)}

#: Our tile set: TILE_FACES[tile][side] is a face, 3 rows of 3 symbols, top row first.
#: Every face shows all four directions. (Designed for this library; not the retail faces.)
TILE_FACES: tuple[tuple[tuple[str, str, str], tuple[str, str, str]], ...] = (
    (("-/|", "\\-/", "|\\-"), ("|\\/", "-|\\", "/-|")),
    (("\\|/", "/-\\", "-/|"), ("\\|-", "/\\|", "-/\\")),
    (("|/-", "-\\|", "/|\\"), ("|-/", "\\/|", "-|\\")),
    (("/-\\", "|\\/", "\\|/"), ("\\/-", "|-\\", "/\\|")),
)
NUM_TILES = 4
SIDES = ("A", "B")
#: Quadrants in reading order of the drawing.
QUADRANTS = ("top-left", "top-right", "bottom-left", "bottom-right")
#: (file, rank) of each quadrant's lower-left square.
_QUADRANT_ORIGIN = ((0, 3), (3, 3), (0, 0), (3, 0))
#: Number of tile arrangements: 4! orders × (2 sides × 4 rotations)^4.
NUM_ARRANGEMENTS = 24 * 8**4

Placement = tuple[int, int, int]  # (tile 0..3, side 0..1, quarter turns clockwise 0..3)


def _face_grid(tile: int, side: int, rotation: int) -> dict[tuple[int, int], int]:
    """Directions of one face turned ``rotation`` quarter turns clockwise, keyed by (x, y) in 0..2."""
    rows = TILE_FACES[tile][side]
    grid = {}
    for row_i, row in enumerate(rows):
        for x, symbol in enumerate(row):
            x2, y2, d = x, 2 - row_i, _SYMBOL_TO_DIRECTION[symbol]
            for _ in range(rotation):
                x2, y2 = transform_coords(x2, y2, "rot270", size=3)
                d = transform_direction(d, "rot270")
            grid[(x2, y2)] = d
    return grid


def _check_placement(position: int, placement: object) -> Placement:
    tile: object
    side: object
    rotation: object
    try:
        tile, side, rotation = placement  # type: ignore[misc]  # any three-item iterable; the items are checked below
    except (TypeError, ValueError):
        raise LayoutError(f"quadrant {QUADRANTS[position]}: expected (tile, side, rotation), got {placement!r}") from None
    if isinstance(side, str):
        if side.upper() not in SIDES:
            raise LayoutError(f"quadrant {QUADRANTS[position]}: side must be 'A'/'B' or 0/1, got {side!r}")
        side = SIDES.index(side.upper())
    checked: list[int] = []
    for name, value, bound in (("tile", tile, NUM_TILES), ("side", side, 2), ("rotation", rotation, 4)):
        checked.append(check_int(f"quadrant {QUADRANTS[position]}: {name}", value, 0, bound - 1, error=LayoutError))
    return checked[0], checked[1], checked[2]


class Layout:
    """An immutable 6×6 grid of line directions (ints 0..3, see :mod:`donuts_ai.donuts.squares`).

    Build one with :meth:`standard`, :meth:`random`, :meth:`random_grid`, :meth:`from_tiles`,
    :meth:`from_text`, :meth:`from_spec` or ``Layout(directions)``. Equal grids compare and
    hash equal.

    Args:
        directions: 36 ints in 0..3, indexed by square (a1 = 0).
        arrangement: the tile arrangement the layout was built from, if any.

    Raises:
        LayoutError: directions that are not 36 ints in 0..3.
    """

    __slots__ = ("_directions", "_line_masks", "arrangement")

    def __init__(self, directions: Sequence[int], arrangement: tuple[Placement, ...] | None = None):
        try:
            dirs = tuple(int(d) for d in directions)
        except (TypeError, ValueError, OverflowError):  # OverflowError: int(float("inf"))
            raise LayoutError("layout directions must be a sequence of 36 ints in 0..3") from None
        if len(dirs) != NUM_SQUARES:
            raise LayoutError(f"layout needs 36 directions, got {len(dirs)}")
        bad = [d for d in dirs if not 0 <= d <= 3]
        if bad:
            raise LayoutError(f"layout direction must be in 0..3, got {bad[0]}")
        self._directions = dirs
        self._line_masks: np.ndarray | None = None
        #: The tile arrangement this layout was built from, if any.
        self.arrangement = arrangement

    # --- constructors -------------------------------------------------------------
    @classmethod
    def from_tiles(cls, arrangement: Sequence[Placement]) -> Layout:
        """The layout of four tiles, one ``(tile, side, rotation)`` per quadrant.

        Args:
            arrangement: a placement per quadrant in the order of :data:`QUADRANTS` (top-left,
                top-right, bottom-left, bottom-right): ``tile`` 0..3, each used once; ``side`` 0/1
                or ``"A"``/``"B"``; ``rotation`` quarter turns clockwise 0..3.

        Raises:
            LayoutError: anything else.
        """
        try:
            placements = list(arrangement)
        except TypeError:
            raise LayoutError(f"arrangement must be a sequence of 4 placements, got {arrangement!r}") from None
        if len(placements) != 4:
            raise LayoutError(f"arrangement needs 4 placements (one per quadrant), got {len(placements)}")
        checked = tuple(_check_placement(i, p) for i, p in enumerate(placements))
        tiles = [p[0] for p in checked]
        if sorted(tiles) != list(range(NUM_TILES)):
            raise LayoutError(f"each of the 4 tiles must be used once, got tiles {tiles}")
        dirs = [0] * NUM_SQUARES
        for (ox, oy), (tile, side, rotation) in zip(_QUADRANT_ORIGIN, checked, strict=True):
            for (x, y), d in _face_grid(tile, side, rotation).items():
                dirs[square(ox + x, oy + y)] = d
        return cls(dirs, arrangement=checked)

    @classmethod
    def standard(cls) -> Layout:
        """The fixed standard layout: tiles 0..3 in reading order, side A, unturned."""
        return cls.from_tiles([(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)])

    @classmethod
    def random(cls, seed: int | None = None) -> Layout:
        """A uniformly random tile arrangement (order, sides and rotations).

        Args:
            seed: an int (NumPy's included), or ``None`` for a fresh draw.

        Raises:
            LayoutError: a seed that is not an int.
        """
        rng = _random.Random(check_int("seed", seed, allow_none=True, error=LayoutError))
        order = list(range(NUM_TILES))
        rng.shuffle(order)
        return cls.from_tiles([(t, rng.randrange(2), rng.randrange(4)) for t in order])

    @classmethod
    def random_grid(cls, seed: int | None = None) -> Layout:
        """A uniformly random direction on each square (not made from tiles).

        Args:
            seed: an int (NumPy's included), or ``None`` for a fresh draw.

        Raises:
            LayoutError: a seed that is not an int.
        """
        rng = _random.Random(check_int("seed", seed, allow_none=True, error=LayoutError))
        return cls([rng.randrange(4) for _ in range(NUM_SQUARES)])

    @classmethod
    def from_text(cls, text: str) -> Layout:
        r"""Parse 6 lines of 6 symbols (``- | / \``), first line rank 6; spaces are ignored.

        Args:
            text: the layout's text.
        """
        if not isinstance(text, str):
            raise LayoutError(f"layout text must be a str, got {type(text).__name__}")
        lines = [line.replace(" ", "").replace("\t", "") for line in text.strip().splitlines()]
        lines = [line for line in lines if line]
        if len(lines) != SIZE:
            raise LayoutError(f"layout text needs 6 lines of 6 symbols, got {len(lines)} lines")
        dirs = [0] * NUM_SQUARES
        for row_i, line in enumerate(lines):
            if len(line) != SIZE:
                raise LayoutError(f"layout text line {row_i + 1} needs 6 symbols, got {len(line)}: {line!r}")
            for x, symbol in enumerate(line):
                if symbol not in _SYMBOL_TO_DIRECTION:
                    raise LayoutError(f"layout text line {row_i + 1}: {symbol!r} is not one of - | / \\")
                dirs[square(x, SIZE - 1 - row_i)] = _SYMBOL_TO_DIRECTION[symbol]
        return cls(dirs)

    @classmethod
    def from_spec(cls, spec: Layout | str | None = "standard", seed: int | None = None) -> Layout:
        """The one layout a layout spec (see :class:`LayoutSpec`) names.

        Args:
            spec: ``standard``, layout text, ``random:SEED``, ``grid:SEED``, a file of one layout,
                or ``random`` / ``grid`` for a fresh one.
            seed: what ``random`` / ``grid`` draw from (``None``: unseeded).

        Raises:
            LayoutError: a bad spec, or one naming several layouts.
        """
        return LayoutSpec(spec).one(seed)

    @staticmethod
    def arrangements() -> Iterator[tuple[Placement, ...]]:
        """Every tile arrangement (:data:`NUM_ARRANGEMENTS` of them), in a fixed order."""
        for order in itertools.permutations(range(NUM_TILES)):
            for orient in itertools.product(range(8), repeat=4):
                yield tuple((t, o // 4, o % 4) for t, o in zip(order, orient, strict=True))

    # --- views --------------------------------------------------------------------
    @property
    def directions(self) -> tuple[int, ...]:
        """Direction (0..3) of each square, indexed by square (a1 = 0)."""
        return self._directions

    def direction(self, sq: int) -> int:
        """The direction (0..3) of one square.

        Args:
            sq: the square's index (a1 = 0).
        """
        return self._directions[sq]

    def symbol(self, sq: int) -> str:
        r"""The symbol (``- | / \``) of one square's direction.

        Args:
            sq: the square's index (a1 = 0).
        """
        return DIRECTION_SYMBOLS[self._directions[sq]]

    @property
    def line_masks(self) -> np.ndarray:
        """``uint64[36]``: bitboard of the whole line through each square in its printed
        direction (the square included) — what the kernels take."""
        if self._line_masks is None:
            from ._kernels.tables import LINE_MASK

            masks = np.array([LINE_MASK[d, sq] for sq, d in enumerate(self._directions)], dtype=np.uint64)
            masks.setflags(write=False)
            self._line_masks = masks
        return self._line_masks

    def to_text(self) -> str:
        rows = []
        for rank in range(SIZE - 1, -1, -1):
            rows.append("".join(DIRECTION_SYMBOLS[self._directions[square(f, rank)]] for f in range(SIZE)))
        return "\n".join(rows)

    def transform(self, sym: str) -> Layout:
        """This layout under one of the 8 board symmetries (lines turned with the squares).

        Args:
            sym: one of the names of :data:`donuts_ai.donuts.symmetry.SYMMETRY_NAMES`.
        """
        dirs = [0] * NUM_SQUARES
        for sq, d in enumerate(self._directions):
            x, y = transform_coords(square_file(sq), square_rank(sq), sym)
            dirs[square(x, y)] = transform_direction(d, sym)
        return Layout(dirs)

    def symmetries(self) -> list[str]:
        """Names of the symmetries that map this layout onto itself (always includes identity)."""
        return [s for s in SYMMETRY_NAMES if self.transform(s) == self]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and other._directions == self._directions

    def __hash__(self) -> int:
        return hash(self._directions)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"Layout.from_text({self.to_text()!r})"

    def _repr_svg_(self) -> str:
        return board_svg(self.directions)


#: Layout spec words that mean "draw a fresh one": a tile arrangement, a random direction grid.
DRAWN_LAYOUT_KINDS = ("random", "grid")
RANDOM, GRID = DRAWN_LAYOUT_KINDS
#: The other two kinds of layout spec: one layout every game, a pool of layouts (one per game).
FIXED, POOL = "fixed", "pool"
#: Most layouts a ``random:SEED:COUNT`` spec may draw (every arrangement class twice over).
MAX_LAYOUT_COUNT = 100_000
#: Characters between the symbols of layout text in one line: a position string's ``,``, spaces.
_LAYOUT_TEXT_SEPARATORS = frozenset(" \t\r\n,")


def layout_text(text: str) -> str | None:
    """Layout text in any of the forms a layout spec takes, as 6 lines.

    Args:
        text: 6 lines of 6 symbols; the same rows joined by ``,`` (as in :meth:`Board.fen`) or
            by spaces; or 36 symbols in one run, rank 6 first (the form to use in an OpenSpiel
            game string, where commas separate parameters).

    Returns:
        The 6 lines, or ``None`` when ``text`` is not one of those forms.
    """
    squeezed = "".join(ch for ch in text if ch not in _LAYOUT_TEXT_SEPARATORS)
    if len(squeezed) != NUM_SQUARES or not set(squeezed) <= _SYMBOL_TO_DIRECTION.keys():
        return None
    return "\n".join(squeezed[i : i + SIZE] for i in range(0, NUM_SQUARES, SIZE))


def fresh_layout(kind: str, seed: int | None = None) -> Layout:
    """A fresh layout of a drawn kind.

    Args:
        kind: ``"random"`` a tile arrangement (:meth:`Layout.random`), ``"grid"`` a direction
            grid (:meth:`Layout.random_grid`).
        seed: what it is drawn from (``None``: unseeded).
    """
    if kind == RANDOM:
        return Layout.random(seed)
    if kind == GRID:
        return Layout.random_grid(seed)
    raise LayoutError(f"a fresh layout is {RANDOM!r} or {GRID!r}, got {kind!r}")


class LayoutSpec:
    """A layout spec, read: where the layouts of games come from, in the one layout grammar of
    the library (``--layout``, the tournament's set-ups, ``VectorEnv``, the PettingZoo and
    OpenSpiel wrappers, the play commands). :attr:`kind` is :data:`FIXED`, :data:`POOL`,
    :data:`RANDOM` or :data:`GRID` (drawn fresh, no :attr:`layouts`).

    Args:
        spec: ``None`` or ``"standard"`` (:meth:`Layout.standard`); a :class:`Layout` or layout
            text in any form :func:`layout_text` reads (that layout); a non-empty sequence of
            Layouts (that pool); ``"random"`` / ``"grid"`` (a fresh tile arrangement / direction
            grid every game); ``"random:SEED[:COUNT]"`` / ``"grid:SEED[:COUNT]"`` (that many
            layouts, default 1, from consecutive seeds); a path to a file of layouts (6 lines
            each, separated by blank lines). Surrounding whitespace is ignored.

    Raises:
        LayoutError: naming what was wrong.
    """

    __slots__ = ("kind", "layouts", "spec")

    def __init__(self, spec: Layout | Sequence[Layout] | str | None = "standard"):
        if spec is None:
            spec = "standard"
        #: What was given (``"standard"`` for ``None``).
        self.spec = spec
        #: The layouts named (empty for a fresh draw every game).
        self.layouts: list[Layout] = []
        if isinstance(spec, Layout):
            self.layouts = [spec]
        elif isinstance(spec, str):
            self.layouts = _read_spec_text(spec)
        elif isinstance(spec, Sequence) and spec and all(isinstance(x, Layout) for x in spec):
            self.layouts = [x for x in spec if isinstance(x, Layout)]  # all of them (checked)
        else:
            raise LayoutError(
                f"layout must be a Layout, a non-empty sequence of Layouts, layout text or a layout spec, got {spec!r}"[:200]
            )
        if self.layouts:
            self.kind = FIXED if len(self.layouts) == 1 else POOL
        else:
            assert isinstance(spec, str)  # only a spec text names no layout
            self.kind = spec.strip()  # _read_spec_text names no layout only for "random" and "grid"

    @property
    def drawn(self) -> bool:
        """True when the layout can change from one game to the next (a pool or a fresh draw)."""
        return self.kind != FIXED

    @property
    def fresh(self) -> bool:
        """True when every game draws a new layout (``random`` or ``grid``)."""
        return self.kind in DRAWN_LAYOUT_KINDS

    def draw(self, rng: _random.Random) -> Layout:
        """The layout of the next game: the fixed one, one of the pool uniformly, or a fresh one.

        Args:
            rng: the random stream a fresh layout's seed is drawn from (read only when the layout
                is drawn).
        """
        if self.kind == FIXED:
            return self.layouts[0]
        if self.kind == POOL:
            return self.layouts[rng.randrange(len(self.layouts))]
        return fresh_layout(self.kind, rng.getrandbits(63))

    def one(self, seed: int | None = None) -> Layout:
        """The one layout this spec names, or a fresh one for ``random`` / ``grid``.

        Args:
            seed: what ``random`` / ``grid`` draw from (``None``: unseeded).

        Raises:
            LayoutError: a spec naming several layouts.
        """
        if self.fresh:
            return fresh_layout(self.kind, seed)
        if self.kind == POOL:
            raise LayoutError(f"layout {self.spec!r} names {len(self.layouts)} layouts; expected one")
        return self.layouts[0]

    def __repr__(self) -> str:
        return f"LayoutSpec({self.spec!r})"


def _read_spec_text(text: str) -> list[Layout]:
    """The layouts a spec string names (none for ``random`` / ``grid``); see :class:`LayoutSpec`."""
    as_text = layout_text(text)
    if as_text is not None:
        return [Layout.from_text(as_text)]
    words = text.strip()
    if "\n" in words:  # several lines: meant as layout text, so say what is wrong with it
        return [Layout.from_text(words)]
    if words in DRAWN_LAYOUT_KINDS:
        return []
    if words == "standard":
        return [Layout.standard()]
    kind, _, rest = words.partition(":")
    if kind in DRAWN_LAYOUT_KINDS and rest:
        return _seeded_layouts(words, kind, rest)
    # A file is opened by its name as given when there is one, else with the spaces around it dropped.
    return _read_layout_file(text if text != words and os.path.isfile(text) else words)


def _seeded_layouts(text: str, kind: str, rest: str) -> list[Layout]:
    """The layouts of ``KIND:SEED[:COUNT]`` (``rest`` is ``SEED[:COUNT]``)."""
    seed_text, _, count_text = rest.partition(":")
    try:
        seed, count = int(seed_text), int(count_text or 1)
    except ValueError:
        raise LayoutError(f"bad layouts {text!r}: expected {kind}:SEED[:COUNT] with integers") from None
    if not 1 <= count <= MAX_LAYOUT_COUNT:
        raise LayoutError(f"bad layouts {text!r}: COUNT must be in 1..{MAX_LAYOUT_COUNT}")
    return [fresh_layout(kind, seed + i) for i in range(count)]


def _read_layout_file(path: str) -> list[Layout]:
    """The layouts of a file: 6 lines each, separated by blank lines."""
    try:
        with open(path, encoding="utf-8") as fh:
            blocks = [b for b in fh.read().split("\n\n") if b.strip()]
    except OSError as exc:
        raise LayoutError(f"cannot read layout file {path!r}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise LayoutError(f"layouts file {path!r} is not UTF-8 text") from None
    except ValueError as exc:  # open() refuses a path with a NUL byte
        raise LayoutError(f"cannot read layout file {path!r}: {exc}") from None
    if not blocks:
        raise LayoutError(f"layouts file {path!r} holds no layout")
    try:
        return [Layout.from_text(b) for b in blocks]
    except LayoutError as exc:
        raise LayoutError(f"layouts file {path!r}: {exc}") from None


def parse_layout_spec(text: str) -> list[Layout] | str:
    """A layout spec (see :class:`LayoutSpec`) as the tournament takes it.

    Args:
        text: the spec.

    Returns:
        The layouts it names, or the word ``"random"`` / ``"grid"`` for a fresh draw whenever
        one is needed (for the caller to draw from its own seed).

    Raises:
        LayoutError: a bad spec.
    """
    spec = LayoutSpec(text)
    return spec.kind if spec.fresh else spec.layouts
