"""The canonical position (donuts_ai.donuts.canonical): each canonical key is the same for
every symmetric image, and equals the key its old home computed, rebuilt here in plain
Python from the board's fields and the reference symmetries of donuts_ai.donuts.symmetry
(the packing of each key as its documentation draws it), not by the function under test."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from donuts_ai import Board, Layout, Rules
from donuts_ai.donuts import book, canonical
from donuts_ai.donuts import kernels as K
from donuts_ai.donuts.errors import PositionError, SymmetryError
from donuts_ai.donuts.squares import FULL_BOARD, NUM_SQUARES
from donuts_ai.donuts.symmetry import DIRECTION_IMAGE, SQUARE_IMAGE, SYMMETRY_NAMES, inverse, transform_bitboard

#: Four symmetries map it onto itself: positions on it have images of the same game.
ALL_HORIZONTAL = Layout.from_text("\n".join(["------"] * 6))
#: Few examples a property: each builds a game and its 8 images.
EXAMPLES = 25


def _board(layout: Layout, seed: int, plies: int) -> Board:
    """A game on ``layout`` after up to ``plies`` seeded random plies, not over."""
    board, rng = Board(layout, Rules()), random.Random(seed)
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_moves()))
    if board.is_game_over():
        board.pop()
    return board


def _layout(seed: int) -> Layout:
    return (Layout.random(seed), Layout.random_grid(seed), ALL_HORIZONTAL, Layout.standard())[seed % 4]


def _mover(board: Board) -> tuple[int, int, int, int, int]:
    """``(own, opp, last, placed_own, placed_opp)`` of ``board`` from its side to move."""
    assert board.turn is not None
    own, opp = board.bitboards[board.turn], board.bitboards[1 - board.turn]
    placed_own, placed_opp = board.placed[board.turn], board.placed[1 - board.turn]
    return own, opp, -1 if board.last is None else board.last, placed_own, placed_opp


def _solver_key(board: Board) -> tuple[int, int]:
    """The solver's key as ``alphabeta._table`` packed it: own | last + 1 << 36 | placed_own << 43, opp | placed_opp << 36."""
    own, opp, last, placed_own, placed_opp = _mover(board)
    return own | (last + 1) << 36 | placed_own << 43, opp | placed_opp << 36


def _layout_key(layout: Layout) -> int:
    """The book's key of a layout as ``book.py`` packed it: two bits a square, square 0 lowest."""
    return sum(d << (2 * sq) for sq, d in enumerate(layout.directions))


boards = st.builds(lambda seed, plies: _board(_layout(seed), seed, plies), st.integers(0, 10_000), st.integers(0, 30))


# --- images of bitboards ------------------------------------------------------------------------


@settings(max_examples=EXAMPLES)
@given(st.integers(0, FULL_BOARD), st.sampled_from(SYMMETRY_NAMES))
def test_a_bitboards_image_is_the_reference_image(bitboard, sym):
    expected = transform_bitboard(bitboard, sym)
    assert canonical.bitboard_image(bitboard, sym) == expected
    assert canonical.bitboard_image(bitboard, SYMMETRY_NAMES.index(sym)) == expected
    assert canonical.bitboard_images(np.array([bitboard, 0], dtype=np.uint64), sym).tolist() == [expected, 0]
    assert canonical.bitboard_image(expected, inverse(sym)) == bitboard


# --- the solver's key over the layout's own symmetries --------------------------------------------


@settings(max_examples=EXAMPLES)
@given(boards)
def test_the_canonical_key_is_the_least_solver_key_and_the_same_for_every_image(board):
    names = board.layout.symmetries()
    images = [board.transform(name) for name in names]
    expected = min(_solver_key(image) for image in images)
    assert {canonical.canonical_key(image) for image in images} == {expected}
    # The compiled face gives the same key, and the plain key is the old table's packing.
    assert tuple(int(k) for k in K.canonical_key(K.position(board), K.symmetries(board))) == expected
    assert tuple(int(k) for k in K.key(K.position(board))) == _solver_key(board)


def test_positions_that_are_no_images_of_each_other_have_different_canonical_keys():
    seen: dict[tuple[int, int], str] = {}
    for seed in range(40):
        board = _board(ALL_HORIZONTAL, seed, 6)
        cls = min(board.transform(name).fen() for name in ALL_HORIZONTAL.symmetries())
        assert seen.setdefault(canonical.canonical_key(board), cls) == cls
    assert len(set(seen.values())) > 30


# --- a layout over all 8 symmetries: the book's key and the study's text ------------------------


@settings(max_examples=EXAMPLES)
@given(st.integers(0, 10_000))
def test_the_canonical_layout_key_is_the_books_least_key_and_the_same_for_every_image(seed):
    layout = _layout(seed)
    keys = [_layout_key(layout.transform(sym)) for sym in SYMMETRY_NAMES]
    least = min(keys)
    key, sym = canonical.canonical_layout_key(layout)
    assert (key, sym) == (least, SYMMETRY_NAMES[keys.index(least)])
    assert _layout_key(layout.transform(sym)) == key
    assert {canonical.canonical_layout_key(layout.transform(s))[0] for s in SYMMETRY_NAMES} == {least}
    assert book.canonical_key is canonical.canonical_layout_key  # the book's name, one definition


@settings(max_examples=EXAMPLES)
@given(st.integers(0, 10_000))
def test_the_canonical_layout_text_is_the_least_text_of_the_images(seed):
    layout = _layout(seed)
    texts = {layout.transform(sym).to_text() for sym in SYMMETRY_NAMES}
    assert {canonical.canonical_layout_text(Layout.from_text(t)) for t in texts} == {min(texts)}


def test_the_shipped_book_answers_through_the_new_key():
    shipped = book.shipped_book()
    for seed in range(5):
        layout = Layout.random(seed)
        entry = shipped.probe(Board(layout))
        assert entry is not None
        for sym in ("rot90", "transpose"):
            image = shipped.probe(Board(layout.transform(sym)))
            assert image is not None and image.value == entry.value


# --- a position with its layout over all 8 symmetries: the teacher's and the cache's keys ----------


def _records(boards_: list[Board]) -> np.ndarray:
    dtype = np.dtype([("own", np.uint64), ("opp", np.uint64), ("last", np.int64), ("placed_own", np.int64),
                      ("placed_opp", np.int64), ("directions", np.int8, (NUM_SQUARES,))])
    records = np.zeros(len(boards_), dtype=dtype)
    for i, board in enumerate(boards_):
        own, opp, last, placed_own, placed_opp = _mover(board)
        records[i] = (own, opp, last, placed_own, placed_opp, board.layout.directions)
    return records


def _teacher_key(board: Board) -> bytes:
    """The teacher's key as ``teacher.py`` packed it: the directions, own and opp big-endian, last + 1, the counts."""
    own, opp, last, placed_own, placed_opp = _mover(board)
    return (bytes(board.layout.directions) + own.to_bytes(8, "big") + opp.to_bytes(8, "big")
            + bytes([last + 1, placed_own, placed_opp]))


@settings(max_examples=EXAMPLES)
@given(boards)
def test_the_canonical_position_is_the_least_teacher_key_and_the_same_for_every_image(board):
    images = [board.transform(sym) for sym in SYMMETRY_NAMES]
    keys = [_teacher_key(image) for image in images]
    least = min(keys)
    found = canonical.canonical_positions(_records(images))
    assert {p.key for p in found} == {least}
    first = found[0]  # the identity's image: the board itself
    assert first.symmetry == keys.index(least)
    chosen = images[first.symmetry]
    assert (first.own, first.opp, first.last, first.placed_own, first.placed_opp) == _mover(chosen)
    assert first.directions == chosen.layout.directions


def _game_key(board: Board, context: int) -> tuple[int, int, int, int]:
    """The prediction cache's key as ``prediction_cache.py`` packed it: own, opp, the layout's lines
    (squares 0..31, then 32..35 in the last word with last + 1 << 8, the counts << 16 and << 24,
    the context << 32)."""
    own, opp, last, placed_own, placed_opp = _mover(board)
    lines = _layout_key(board.layout)
    return own, opp, lines & (2**64 - 1), lines >> 64 | (last + 1) << 8 | placed_own << 16 | placed_opp << 24 | context << 32


@settings(max_examples=EXAMPLES)
@given(boards, st.integers(0, 2**16 - 1))
def test_the_canonical_game_key_is_the_least_cache_key_and_the_same_for_every_image(board, context):
    images = [board.transform(sym) for sym in SYMMETRY_NAMES]
    keys = [_game_key(image, context) for image in images]
    least = min(keys)
    for image in images:
        key = np.zeros(canonical.GAME_KEY_WORDS, dtype=np.uint64)
        directions = np.array(image.layout.directions, dtype=np.int8)
        s = canonical.canonical_game_key(K.position(image), directions, SQUARE_IMAGE, DIRECTION_IMAGE, np.uint64(context), key)
        assert tuple(int(w) for w in key) == least
        assert _game_key(image.transform(SYMMETRY_NAMES[s]), context) == least
    key = np.zeros(canonical.GAME_KEY_WORDS, dtype=np.uint64)
    assert canonical.canonical_game_key(K.position(board), np.array(board.layout.directions, dtype=np.int8),
                                        SQUARE_IMAGE[:1], DIRECTION_IMAGE[:1], np.uint64(context), key) == 0
    assert tuple(int(w) for w in key) == keys[0]  # the identity alone: the key as it is


# --- bad input -------------------------------------------------------------------------------------


def test_bad_input_is_refused():
    with pytest.raises(SymmetryError):
        canonical.bitboard_image(1, "spin")
    with pytest.raises(SymmetryError):
        canonical.bitboard_image(1, len(SYMMETRY_NAMES))
    with pytest.raises(PositionError):
        canonical.bitboard_image(1 << NUM_SQUARES, "rot90")
    with pytest.raises(PositionError):
        canonical.bitboard_images([-1], "rot90")
    with pytest.raises(TypeError):
        canonical.canonical_key(Layout.standard())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        canonical.canonical_layout_key(Board())  # type: ignore[arg-type]
    over, rng = Board(), random.Random(0)
    while not over.is_game_over():
        over.push(rng.choice(over.legal_moves()))
    with pytest.raises(PositionError):
        canonical.canonical_key(over)
    with pytest.raises(PositionError):
        canonical.canonical_positions(np.zeros(2, dtype=[("own", np.uint64)]))
    bad = _records([Board()])
    bad["last"] = NUM_SQUARES
    with pytest.raises(PositionError):
        canonical.canonical_positions(bad)


def test_importing_the_compiled_api_loads_no_solver():
    code = ("import sys, donuts_ai.donuts.kernels; "
            "print(sorted(m for m in sys.modules if m.startswith('donuts_ai.donuts.alphabeta')))")
    root = Path(__file__).parent.parent.parent
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root).stdout
    assert loaded.strip() == "[]"
