from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from donuts_ai import NUM_ARRANGEMENTS, TILE_FACES, Layout, LayoutError
from donuts_ai.donuts.symmetry import SYMMETRY_NAMES, inverse, transform_direction

directions = st.lists(st.integers(0, 3), min_size=36, max_size=36)


def test_every_face_mixes_all_four_directions():
    assert len(TILE_FACES) == 4
    for tile in TILE_FACES:
        assert len(tile) == 2
        for face in tile:
            assert len(face) == 3 and all(len(row) == 3 for row in face)
            assert set("".join(face)) == set("-|/\\")


def test_standard_layout_is_the_documented_text():
    import donuts_ai.donuts.layout as mod

    text = Layout.standard().to_text()
    assert "\n".join("    " + line for line in text.splitlines()) in mod.__doc__
    assert Layout.standard().arrangement == ((0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0))


def test_tiles_sit_in_their_quadrants():
    layout = Layout.standard()
    rows = layout.to_text().splitlines()
    for q, (tile, (r0, c0)) in enumerate(zip(range(4), [(0, 0), (0, 3), (3, 0), (3, 3)], strict=True)):
        face = TILE_FACES[tile][0]
        assert [row[c0 : c0 + 3] for row in rows[r0 : r0 + 3]] == list(face), q


def test_quarter_turn_turns_squares_and_lines():
    # Turning the top-left tile a quarter clockwise: its left column, read bottom-up,
    # becomes its top row, and every line turns (- <-> |, / <-> \).
    turn = {"-": "|", "|": "-", "/": "\\", "\\": "/"}
    face = TILE_FACES[0][0]
    turned = Layout.from_tiles([(0, 0, 1), (1, 0, 0), (2, 0, 0), (3, 0, 0)]).to_text().splitlines()
    expected_top = "".join(turn[face[r][0]] for r in (2, 1, 0))
    assert turned[0][:3] == expected_top
    four = Layout.from_tiles([(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)])
    assert Layout.from_tiles([(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)]) == four


def test_sides_accept_letters():
    assert Layout.from_tiles([(0, "B", 0), (1, "a", 0), (2, 0, 0), (3, 1, 3)]) == Layout.from_tiles(
        [(0, 1, 0), (1, 0, 0), (2, 0, 0), (3, 1, 3)]
    )


def test_arrangements_enumerate_all_of_them():
    arrangements = list(Layout.arrangements())
    # Every order of the 4 tiles, each on either side and in any of 4 turns, exactly once.
    assert len(arrangements) == len(set(arrangements)) == NUM_ARRANGEMENTS == 98304
    assert all(sorted(tile for tile, _, _ in a) == [0, 1, 2, 3] for a in arrangements)
    assert {(side, turn) for a in arrangements for _, side, turn in a} == {(s, t) for s in (0, 1) for t in range(4)}
    sample = [Layout.from_tiles(a) for a in arrangements[:: 997]]
    assert all(layout.arrangement is not None for layout in sample)


def test_random_layouts_are_reproducible():
    assert Layout.random(3) == Layout.random(3)
    assert Layout.random_grid(3) == Layout.random_grid(3)
    assert len({Layout.random(s) for s in range(20)}) > 15
    assert Layout.random(3).arrangement is not None


@given(directions)
def test_text_round_trip(dirs):
    layout = Layout(dirs)
    assert Layout.from_text(layout.to_text()) == layout
    assert eval(repr(layout), {"Layout": Layout}) == layout
    assert hash(Layout(dirs)) == hash(layout)


def test_text_tolerates_spaces_and_blank_edges():
    text = Layout.standard().to_text()
    spaced = "\n" + "\n".join(" ".join(line) for line in text.splitlines()) + "\n\n"
    assert Layout.from_text(spaced) == Layout.standard()


@pytest.mark.parametrize(
    "text, message",
    [
        ("------\n" * 5, "6 lines"),
        ("------\n" * 5 + "-----", "line 6 needs 6 symbols"),
        ("------\n" * 5 + "---x--", "'x' is not one of"),
        (42, "must be a str"),
    ],
)
def test_bad_text_is_rejected(text, message):
    with pytest.raises(LayoutError, match=message):
        Layout.from_text(text)


@pytest.mark.parametrize(
    "arrangement, message",
    [
        ([(0, 0, 0)] * 4, "each of the 4 tiles must be used once"),
        ([(0, 0, 0), (1, 0, 0), (2, 0, 0)], "needs 4 placements"),
        ([(0, 0, 0), (1, 2, 0), (2, 0, 0), (3, 0, 0)], "side must be an int in 0..1"),
        ([(0, 0, 0), (1, 0, 4), (2, 0, 0), (3, 0, 0)], "rotation must be an int in 0..3"),
        ([(0, 0, 0), (1, "C", 0), (2, 0, 0), (3, 0, 0)], "side must be 'A'/'B'"),
        ([(0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)], r"expected \(tile, side, rotation\)"),
        (None, "must be a sequence"),
    ],
)
def test_bad_arrangements_are_rejected(arrangement, message):
    with pytest.raises(LayoutError, match=message):
        Layout.from_tiles(arrangement)


def test_bad_direction_grids_are_rejected():
    with pytest.raises(LayoutError, match="36 directions"):
        Layout([0] * 35)
    with pytest.raises(LayoutError, match="in 0..3"):
        Layout([0] * 35 + [4])
    assert issubclass(LayoutError, ValueError)


@given(directions, st.sampled_from(SYMMETRY_NAMES))
def test_symmetries_are_invertible(dirs, sym):
    layout = Layout(dirs)
    assert layout.transform(sym).transform(inverse(sym)) == layout


def test_symmetry_line_maps():
    assert [transform_direction(d, "rot90") for d in range(4)] == [1, 0, 3, 2]
    assert [transform_direction(d, "mirror") for d in range(4)] == [0, 1, 3, 2]
    assert [transform_direction(d, "transpose") for d in range(4)] == [1, 0, 2, 3]
    assert [transform_direction(d, "rot180") for d in range(4)] == [0, 1, 2, 3]
    assert Layout([0] * 36).symmetries() == ["identity", "rot180", "mirror", "flip"]


def test_line_masks_cover_the_printed_line():
    layout = Layout.standard()
    masks = layout.line_masks
    c3 = 14
    assert layout.symbol(c3) == "-"
    assert int(masks[c3]) == sum(1 << (12 + f) for f in range(6))
    with pytest.raises(ValueError):
        masks[0] = 1  # read-only: the kernels and the Board share it


@pytest.mark.parametrize("seed", ["x", 1.5, True, [1]])
def test_random_layouts_refuse_a_seed_that_is_not_an_int(seed):
    # Seeds are checked alike everywhere (agents refuse these too): an int, or refused.
    for draw in (Layout.random, Layout.random_grid):
        with pytest.raises(LayoutError, match="seed must be an int or None"):
            draw(seed)


def test_random_layouts_take_numpy_integers_as_python_ones():
    import numpy as np

    assert Layout.random(np.int64(7)) == Layout.random(7) and Layout.random_grid(np.int32(7)) == Layout.random_grid(7)
