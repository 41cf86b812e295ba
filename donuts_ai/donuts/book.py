"""The opening book: the exact value, a best first move and every first move's value of studied empty boards.

The whole-arrangement studies (``donuts-ai study first-player --arrangements all``) solve
the empty board of every arrangement class of a rules variant; a :class:`Book` keeps what
they found, one entry per layout class and variant, so that a solver asked about an empty
board it holds answers at once instead of searching again (Pons' Connect-Four solver and
Tromp's Fhourstones keep their openings the same way).

An entry is keyed by its layout's canonical key (:func:`canonical_key`: the layout's 36
line directions packed two bits a square, the least among the layout's 8 symmetric images;
the shipped file holds these keys, so they never change). The entry's move is stored in the
canonical image's frame and mapped back to the asked layout's frame on lookup (any symmetry
mapping the layout to its image maps a best move to a best move). So are the values of the
36 first moves, where a study with ``--first-moves`` solved them (:attr:`BookEntry.first_moves`).

The shipped book (:data:`SHIPPED_BOOK`, package data) is built from the studies under
``notebooks/`` by ``donuts-ai book build`` (:func:`donuts_ai.study.build_book`); a user's
own study extends it the same way. A file is checked before it is trusted: its format,
its checksum, its shapes and its values; anything else is a :class:`BookError`.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..errors import DonutsError
from ..outcomes import DRAW, LOSS, UNKNOWN, WIN
from .board import Board
from .canonical import canonical_layout_key as canonical_key  # re-exported: the book's name of its key
from .layout import Layout
from .rules import Rules, RulesDict
from .squares import NUM_SQUARES, SQUARE_NAMES, parse_square
from .symmetry import inverse, transform_square

#: What a book file says it is (its ``meta['format']``).
BOOK_FORMAT = "donuts_ai opening book"
#: The layout of the arrays this module writes: version 2 added the first moves' values.
BOOK_VERSION = 2
#: The versions it reads (a version-1 file holds no first move's value).
READABLE_VERSIONS = (1, 2)
#: The book shipped with the package.
SHIPPED_BOOK = Path(__file__).with_name("data") / "book.npz"
#: Bits of a key kept in its low word (the rest, 72 - 64 = 8 bits, in its high byte).
_LOW_BITS = 64
_LOW_MASK = (1 << _LOW_BITS) - 1
#: A distance the study did not prove.
NO_DISTANCE = -1
_VALUES = (WIN, DRAW, LOSS)


class BookError(DonutsError):
    """A book file that is damaged, foreign, or inconsistent with itself."""


@dataclass(frozen=True)
class BookEntry:
    """What the book holds for one empty board.

    Attributes:
        value: the board's value for the player to move (+1, 0, -1).
        best_move: a move keeping that value (a square name, in the asked layout's frame).
        distance: plies to the end under best play, when the study proved it.
        first_moves: every first move's value for the player making it (square name -> +1,
            0, -1, in square order), when a study solved them; else ``None``.
    """

    value: int
    best_move: str
    distance: int | None
    first_moves: Mapping[str, int] | None = None


def rules_key(rules: Rules | Mapping[str, Any]) -> str:
    """A variant's name in a book: its rules dict as sorted JSON.

    Args:
        rules: a :class:`Rules` or its dict.
    """
    as_dict = rules.to_dict() if isinstance(rules, Rules) else Rules.from_dict(rules).to_dict()
    return json.dumps(as_dict, sort_keys=True)


def is_empty_board(board: Board) -> bool:
    """Whether ``board`` is a game's start: nothing placed, Chocolate to move.

    Args:
        board: the position.
    """
    return board.bitboards == (0, 0) and board.placed == (0, 0) and board.turn == 0 and board.last is None


class _Variant:
    """One rules variant's entries: sorted canonical keys and what each holds (arrays of
    one row an entry)."""

    def __init__(self, rules: RulesDict, keys: NDArray[np.uint64], values: NDArray[np.int8],
                 moves: NDArray[np.uint8], distances: NDArray[np.int16], source: Mapping[str, Any],
                 first_moves: NDArray[np.int8] | None = None):
        self.rules = rules
        self.keys = keys  # uint64[n, 2]: (low 64 bits, high bits) of each canonical key, ascending
        self.values = values  # int8[n]: +1, 0, -1 for the player to move
        self.moves = moves  # uint8[n]: a best move's square, in the canonical image's frame
        self.distances = distances  # int16[n]: plies to the end under best play, NO_DISTANCE if unproved
        # int8[n, NUM_SQUARES]: each first move's value for its player, indexed by the square in
        # the canonical image's frame; a row of UNKNOWN where no study solved the first moves.
        self.first_moves = np.full((len(values), NUM_SQUARES), UNKNOWN, np.int8) if first_moves is None else first_moves
        self.source = dict(source)
        # The high words alone, contiguous: the first column a lookup bisects.
        self._high = np.ascontiguousarray(keys[:, 1])

    def row(self, key: int) -> int | None:
        """The row of canonical ``key``, or ``None``: two bisections of the sorted keys (the
        high words, then the low words among equal high words), so that nothing is built
        on first use and every lookup costs the same."""
        low, high = np.uint64(key & _LOW_MASK), np.uint64(key >> _LOW_BITS)
        first, end = np.searchsorted(self._high, high, "left"), np.searchsorted(self._high, high, "right")
        i = int(first + np.searchsorted(self.keys[first:end, 0], low))
        return i if i < end and self.keys[i, 0] == low else None

    def __len__(self) -> int:
        return len(self.values)


class Book:
    """Exact values and best first moves of empty boards, per rules variant. Build one from rows
    with :meth:`from_rows`, read one with :meth:`load`.

    Args:
        variants: the variants' entries (an empty book by default).
    """

    def __init__(self, variants: Iterable[_Variant] = ()):
        self._variants = {rules_key(v.rules): v for v in variants}

    # --- reading -------------------------------------------------------------------
    def probe(self, board: Board) -> BookEntry | None:
        """The entry for ``board`` if it is an empty board the book holds, else ``None``.

        Args:
            board: the position.
        """
        if not is_empty_board(board):
            return None
        variant = self._variants.get(rules_key(board.rules))
        if variant is None:
            return None
        key, sym = canonical_key(board.layout)
        row = variant.row(key)
        if row is None:
            return None
        move = transform_square(int(variant.moves[row]), inverse(sym))
        distance = int(variant.distances[row])
        held = variant.first_moves[row]
        first_moves = None if held[0] == UNKNOWN else \
            {SQUARE_NAMES[sq]: int(held[transform_square(sq, sym)]) for sq in range(NUM_SQUARES)}
        return BookEntry(int(variant.values[row]), SQUARE_NAMES[move], None if distance == NO_DISTANCE else distance,
                         first_moves)

    def __len__(self) -> int:
        return sum(len(v) for v in self._variants.values())

    def variants(self) -> list[dict[str, Any]]:
        """Each variant's rules, entry count and provenance (the study it came from)."""
        return [{"rules": v.rules, "entries": len(v), "source": v.source} for v in self._variants.values()]

    def value_counts(self, rules: Rules | Mapping[str, Any]) -> dict[str, int]:
        """How many classes of a variant the first player wins, draws and loses, how many hold a
        proved distance, and how many every first move's value.

        Args:
            rules: a :class:`Rules` or its dict.

        Raises:
            BookError: the book has no such variant.
        """
        key = rules_key(rules)
        variant = self._variants.get(key)
        if variant is None:
            raise BookError(f"the book holds no variant with rules {key}")
        values = variant.values
        return {"win": int((values == WIN).sum()), "draw": int((values == DRAW).sum()), "loss": int((values == LOSS).sum()),
                "distance": int((variant.distances != NO_DISTANCE).sum()),
                "first_moves": int((variant.first_moves[:, 0] != UNKNOWN).sum())}

    def __repr__(self) -> str:
        return f"<Book: {len(self)} entries in {len(self._variants)} variants>"

    # --- building ------------------------------------------------------------------
    @classmethod
    def from_rows(cls, rules: Rules | Mapping[str, Any] | None, rows: Iterable[Mapping[str, Any]],
                  source: Mapping[str, Any], base: Book | None = None) -> Book:
        """``base`` (or an empty book) with the solved empty boards of ``rows`` added under
        ``rules``. The first row of a layout class is kept, or a later one that proved the
        distance; the first moves' values come from any row that has them.

        Args:
            rules: the variant (``None``: the official rules).
            rows: each a mapping with ``layout`` (its text), ``value`` (for the first player),
                ``best_move`` and ``distance`` (or ``None``), as a study writes them; a study
                with ``first_moves`` adds ``winning_moves`` and ``drawing_moves`` (every other
                first move loses).
            source: where the rows came from, recorded with the variant.
            base: the book added to.

        Raises:
            BookError: rows of one layout class that disagree on a value, or first moves whose
                best value is not the board's.
        """
        the_rules = rules if isinstance(rules, Rules) else Rules.from_dict(rules or {})
        entries: dict[int, tuple[int, int, int]] = {}
        first_moves: dict[int, NDArray[np.int8]] = {}
        old = (base or cls())._variants.get(rules_key(the_rules))
        if old is not None:
            for i, ((lo, hi), value, move, distance) in enumerate(zip(old.keys.tolist(), old.values.tolist(), old.moves.tolist(),
                                                                      old.distances.tolist(), strict=True)):
                held_key = int(lo) | int(hi) << _LOW_BITS
                entries[held_key] = (value, move, distance)
                if old.first_moves[i, 0] != UNKNOWN:
                    first_moves[held_key] = old.first_moves[i]
        for row in rows:
            layout = Layout.from_text(row["layout"])
            value = row["value"]
            if value not in _VALUES:
                raise BookError(f"layout {row['layout']!r}: value {value!r} is not one of {_VALUES}")
            key, sym = canonical_key(layout)
            move = transform_square(parse_square(row["best_move"]), sym)
            distance = NO_DISTANCE if row.get("distance") is None else int(row["distance"])
            held = entries.get(key)
            if held is not None and held[0] != value:
                raise BookError(f"layout {row['layout']!r} is held with value {held[0]} and given {value}")
            if held is None or held[2] == NO_DISTANCE and distance != NO_DISTANCE:
                entries[key] = (value, move, distance)
            if "winning_moves" in row:
                given = np.full(NUM_SQUARES, UNKNOWN, np.int8)
                for first_move, first_value in study_row_first_moves(row).items():
                    given[transform_square(parse_square(first_move), sym)] = first_value
                if int(given.max()) != value:
                    raise BookError(f"layout {row['layout']!r}: its best first move's value {int(given.max())} is not "
                                    f"its value {value}")
                if key in first_moves and not np.array_equal(first_moves[key], given):
                    raise BookError(f"layout {row['layout']!r} is held with other first-move values")
                first_moves[key] = given
        ordered = sorted(entries)
        unknown = np.full(NUM_SQUARES, UNKNOWN, np.int8)
        variant = _Variant(
            the_rules.to_dict(),
            np.array([(k & _LOW_MASK, k >> _LOW_BITS) for k in ordered], dtype=np.uint64).reshape(-1, 2),
            np.array([entries[k][0] for k in ordered], dtype=np.int8),
            np.array([entries[k][1] for k in ordered], dtype=np.uint8),
            np.array([entries[k][2] for k in ordered], dtype=np.int16),
            {"sources": [*(old.source.get("sources", []) if old else []), dict(source)]},
            np.array([first_moves.get(k, unknown) for k in ordered], dtype=np.int8).reshape(-1, NUM_SQUARES),
        )
        if ordered and not _first_moves_agree(variant.values, variant.moves, variant.first_moves):
            raise BookError("the rows' first-move values disagree with the boards' values or best moves")
        variants = {**(base or cls())._variants, rules_key(the_rules): variant}
        return cls(variants.values())

    # --- files ---------------------------------------------------------------------
    def save(self, path: str | PathLike[str]) -> None:
        """Write the book to a NumPy ``.npz`` file; its meta says what it holds and carries a
        checksum of every array.

        Args:
            path: the file.
        """
        arrays = self._arrays()
        meta = {"format": BOOK_FORMAT, "version": BOOK_VERSION, "checksum": _checksum(arrays),
                "variants": [{"rules": v.rules, "entries": len(v), "source": v.source} for v in self._variants.values()]}
        arrays["meta"] = np.array(json.dumps(meta, sort_keys=True))
        with open(path, "wb") as f:
            np.savez_compressed(f, allow_pickle=False, **arrays)

    def _arrays(self) -> dict[str, NDArray[Any]]:
        arrays: dict[str, NDArray[Any]] = {}
        for i, v in enumerate(self._variants.values()):
            arrays |= {f"keys_{i}": v.keys, f"values_{i}": v.values, f"moves_{i}": v.moves,
                       f"distances_{i}": v.distances, f"first_moves_{i}": v.first_moves}
        return arrays

    @classmethod
    def load(cls, path: str | PathLike[str] | None = None) -> Book:
        """The book in a file, checked.

        Args:
            path: the file (default: :data:`SHIPPED_BOOK`).

        Raises:
            BookError: a file that is not a book of this format, fails its checksum, or holds
                impossible entries: never trusted.
        """
        where = Path(SHIPPED_BOOK if path is None else path)
        try:
            with np.load(where, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except FileNotFoundError:
            raise BookError(f"{where}: no such book file") from None
        except (OSError, ValueError, zipfile.BadZipFile, EOFError):
            # NumPy's own words (about pickles, for a text file) would point the wrong way.
            raise BookError(f"{where} is not a book file (not a NumPy .npz archive)") from None
        try:
            meta = json.loads(str(arrays.pop("meta")))
        except (KeyError, ValueError):
            raise BookError(f"{where} is not a book file (no meta)") from None
        if not isinstance(meta, dict) or meta.get("format") != BOOK_FORMAT:
            raise BookError(f"{where} is not a book file (its format is {meta.get('format') if isinstance(meta, dict) else None!r})")
        if meta.get("version") not in READABLE_VERSIONS:
            raise BookError(f"{where}: book version {meta.get('version')!r}, this library reads "
                            f"{' and '.join(map(str, READABLE_VERSIONS))}")
        if meta.get("checksum") != _checksum(arrays):
            raise BookError(f"{where}: the arrays do not match the book's checksum (a damaged file)")
        return cls(_checked_variant(where, i, described, arrays, meta["version"])
                   for i, described in enumerate(meta.get("variants", [])))


def study_row_first_moves(row: Mapping[str, Any]) -> dict[str, int]:
    """Every first move's value in a study row with first moves, in the row's own frame: its
    ``winning_moves`` win, its ``drawing_moves`` draw, every other square loses.

    Args:
        row: a unit of a first-player study run with ``first_moves``.

    Returns:
        Square name -> +1, 0 or -1 for the first player, in square order.
    """
    won, drawn = set(row["winning_moves"]), set(row["drawing_moves"])
    return {name: WIN if name in won else DRAW if name in drawn else LOSS for name in SQUARE_NAMES}


def _checksum(arrays: Mapping[str, NDArray[Any]]) -> str:
    digest = hashlib.sha256()
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name])
        digest.update(f"{name}:{array.dtype.str}:{array.shape}".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def _checked_variant(where: Path, i: int, described: Mapping[str, Any], arrays: Mapping[str, NDArray[Any]],
                     version: int) -> _Variant:
    """Variant ``i`` of a book file of ``version``, its arrays checked against each other and the rules."""
    try:
        keys, values, moves, distances = (arrays[f"{name}_{i}"] for name in ("keys", "values", "moves", "distances"))
        rules = Rules.from_dict(described["rules"]).to_dict()
    except (KeyError, TypeError, ValueError) as exc:
        raise BookError(f"{where}: variant {i} is incomplete ({exc})") from None
    n = len(values)
    if version == 1:  # a version-1 file holds no first move's value
        first_moves = np.full((n, NUM_SQUARES), UNKNOWN, np.int8)
    elif f"first_moves_{i}" in arrays:
        first_moves = arrays[f"first_moves_{i}"]
    else:
        raise BookError(f"{where}: variant {i} is incomplete (no first_moves_{i})")
    dtypes = tuple(a.dtype for a in (keys, values, moves, distances, first_moves))
    if dtypes != tuple(np.dtype(t) for t in (np.uint64, np.int8, np.uint8, np.int16, np.int8)) or keys.shape != (n, 2) \
            or moves.shape != (n,) or distances.shape != (n,) or first_moves.shape != (n, NUM_SQUARES) \
            or described.get("entries") != n:
        raise BookError(f"{where}: variant {i}'s arrays disagree in shape or type")
    # Keys strictly ascending: the high words, then the low words among equal high words (word
    # by word in NumPy: as Python ints the comparison took 9 ms a variant, most of a load).
    low, high = keys[:, 0], keys[:, 1]
    ascending = (high[1:] > high[:-1]) | ((high[1:] == high[:-1]) & (low[1:] > low[:-1]))
    if n and (not np.isin(values, _VALUES).all() or int(moves.max()) >= NUM_SQUARES
              or int(distances.min()) < NO_DISTANCE or not ascending.all()):
        raise BookError(f"{where}: variant {i} holds impossible entries (values, squares, distances or key order)")
    if n and not _first_moves_agree(values, moves, first_moves):
        raise BookError(f"{where}: variant {i} holds impossible first-move values (not the board's value at best, "
                        f"or the best move's differs)")
    return _Variant(rules, keys, values, moves, distances, described.get("source", {}), first_moves)


def _first_moves_agree(values: NDArray[np.int8], moves: NDArray[np.uint8], first_moves: NDArray[np.int8]) -> bool:
    """Whether each row of first moves is all unknown, or all values whose best is the board's
    value and which give the board's best move that value."""
    held = first_moves[:, 0] != UNKNOWN
    rows = first_moves[held]
    if ((rows < LOSS) | (rows > WIN)).any() or (first_moves[~held] != UNKNOWN).any():
        return False
    return bool((rows.max(axis=1) == values[held]).all()
                and (rows[np.arange(len(rows)), moves[held]] == values[held]).all())


@cache
def shipped_book() -> Book:
    """The shipped book, read once a process."""
    return Book.load()
