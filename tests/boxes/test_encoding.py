"""Donut Boxes as tensors (donuts_ai.boxes.encoding): the dense action index of every move
on the table, read both ways and in the moves' order, the table's edge, and the planes and
features of a player's view."""

from __future__ import annotations

import numpy as np
import pytest

from donuts_ai.boxes import CARD_TYPES, DECK_SIZE, BoxesRules, BoxesState
from donuts_ai.boxes.deck import QUADRANTS, ROLL, ROTATED_FACES
from donuts_ai.boxes.encoding import (
    MAX_RADIUS,
    MIN_RADIUS,
    NUM_FACES,
    PLACED_FACES,
    ActionEncoding,
    ObservationEncoding,
    default_radius,
)
from donuts_ai.boxes.errors import EncodingError
from donuts_ai.errors import DonutsError

#: A table small enough to enumerate every index, and one a random game soon outgrows.
TINY_RADIUS = 4
SMALL_RADIUS = 8
#: Card types with a roll take one of four flavours: 4 roll types x 4 rotations x 4 flavours.
ROLL_FACES = 64


def test_the_placed_faces_are_every_card_in_every_distinct_rotation_and_roll_flavour():
    assert NUM_FACES == len(set(PLACED_FACES)) == 156
    assert sum(1 for t, _, flavour in PLACED_FACES if flavour) == ROLL_FACES
    assert sum(1 for t, rot, _ in PLACED_FACES if CARD_TYPES[t] == "CCCC") == 1  # a solid card looks the same turned
    assert PLACED_FACES == tuple(sorted(PLACED_FACES))  # move-code order


@pytest.mark.parametrize(("players", "grid", "anchors", "size"), [
    (2, "squared", 34, 34 * 34 * 156 + 68 * 68 + 30),
    (2, "splitzkies", 67, 67 * 67 * 156 + 68 * 68 + 30),
    (10, "squared", 50, 400_030),
    (10, "splitzkies", 99, 1_538_986),
])
def test_sizes_for_the_rules(players, grid, anchors, size):
    encoding = ActionEncoding(BoxesRules(players, grid))
    assert encoding.radius == default_radius(players) == 30 + 2 * players
    assert (encoding.anchors, encoding.size) == (anchors, size)
    assert encoding.size == encoding.placements + encoding.boxes + DECK_SIZE
    # Matching and closers change no move.
    assert ActionEncoding(BoxesRules(players, grid, "perfect", True)).size == size


@pytest.mark.parametrize("grid", ["squared", "splitzkies"])
def test_every_index_reads_back_and_indices_follow_the_move_codes(grid):
    encoding = ActionEncoding(BoxesRules(2, grid), radius=TINY_RADIUS)
    codes = np.array([encoding.code(i) for i in range(encoding.size)])
    assert np.all(np.diff(codes) > 0)  # the canonical order of the moves
    assert np.array_equal(encoding.indices(codes), np.arange(encoding.size))
    assert all(encoding.index(encoding.move(i)) == i for i in range(0, encoding.size, 7))
    assert encoding.move(0) == f"CCCC@{-TINY_RADIUS},{-TINY_RADIUS}"
    assert encoding.move(encoding.placements) == f"box@{-TINY_RADIUS},{-TINY_RADIUS}"
    assert encoding.move(encoding.size - 1) == f"stuck:{CARD_TYPES[-1]}"
    last_anchor = TINY_RADIUS - 2
    assert encoding.move(encoding.placements - 1).endswith(f"@{last_anchor},{last_anchor}")


@pytest.mark.parametrize(("players", "grid"), [(2, "squared"), (3, "splitzkies"), (5, "squared")])
def test_legal_moves_of_whole_games_map_to_ascending_indices_and_back(players, grid):
    rules = BoxesRules(players, grid)
    encoding = ActionEncoding(rules)
    state = BoxesState(rules, seed=players)
    while not state.is_game_over():
        indices = encoding.indices(state.legal_move_ids())
        assert np.all(np.diff(indices) > 0)
        assert [encoding.move(i) for i in indices[:: max(1, len(indices) // 5)]] == state.legal_moves()[:: max(1, len(indices) // 5)]
        mask = encoding.mask(state.legal_move_ids())
        assert mask.dtype == np.int8 and mask.shape == (encoding.size,) and mask.sum() == len(indices)
        state.push_id(state.random_move_id(len(state.move_stack)))


@pytest.mark.parametrize("grid", ["squared", "splitzkies"])
def test_while_the_table_covers_the_layout_every_legal_move_has_an_index(grid):
    rules = BoxesRules(3, grid)
    encoding = ActionEncoding(rules, radius=SMALL_RADIUS)
    outgrown = 0
    for seed in range(4):
        state = BoxesState(rules, seed)
        while not state.is_game_over() and encoding.covers(state.observation(0)):
            encoding.indices(state.legal_move_ids())  # raises for a move off the table
            state.push_id(state.random_move_id(seed + len(state.move_stack)))
        outgrown += not state.is_game_over()
    assert outgrown  # the small table was outgrown: the loop above reached its edge


def test_moves_off_the_table_and_indices_out_of_range_are_refused():
    encoding = ActionEncoding(BoxesRules(2, "splitzkies"), radius=TINY_RADIUS)
    for move in (f"CCCC@{-TINY_RADIUS - 1},0", f"CCCC@0,{TINY_RADIUS - 1}", f"box@{TINY_RADIUS},0"):
        with pytest.raises(EncodingError, match="off the table"):
            encoding.index(move)
    with pytest.raises(EncodingError, match="off the table"):
        ActionEncoding(BoxesRules(2, "squared"), radius=TINY_RADIUS).index("CCCC@1,0")  # off the card grid
    for index in (-1, encoding.size, 2.0, True, "3"):
        with pytest.raises(EncodingError, match="action index"):
            encoding.code(index)


@pytest.mark.parametrize("radius", [MIN_RADIUS - 2, 5, MAX_RADIUS + 2, 8.0, "8", True])
def test_bad_radius_is_refused(radius):
    with pytest.raises(EncodingError, match="radius"):
        ActionEncoding(BoxesRules(), radius=radius)
    with pytest.raises(EncodingError, match="radius"):
        ObservationEncoding(BoxesRules(), radius=radius)
    assert issubclass(EncodingError, DonutsError)


def test_rules_must_be_boxes_rules():
    with pytest.raises(EncodingError, match="BoxesRules"):
        ActionEncoding({"players": 2})


# --- observations ---------------------------------------------------------------------
def test_planes_of_the_start_and_of_a_placed_card():
    rules = BoxesRules(3)
    views = ObservationEncoding(rules, radius=TINY_RADIUS * 2)
    state = BoxesState(rules, seed=4)
    radius = views.radius
    planes = views.planes(state.observation(1))
    assert planes.shape == views.plane_shape == (2 * radius, 2 * radius, 8 + 2 * 3) and planes.dtype == np.float32
    assert len(views.plane_names()) == views.num_planes
    start_card = state.to_dict()["cards"][0]
    start = planes[radius:radius + 2, radius:radius + 2]
    assert np.all(start[..., 6] == 1) and not start[..., 7].any()  # the start card; none placed yet
    for (dr, dc), code in zip(QUADRANTS, ROTATED_FACES[start_card[1], 0], strict=True):
        assert start[dr, dc, (start_card[5] if code == ROLL else code) - 1] == 1
    assert planes[..., :4].sum() == 4 and planes[..., 8:].sum() == 0
    # Player 0 places a card: seat 2 for player 1 (0 = player 1, 1 = player 2, 2 = player 0).
    move = state.legal_moves()[0]
    state.push(move)
    card = state.to_dict()["cards"][-1]
    r, c = card[3] + radius, card[4] + radius
    planes = views.planes(state.observation(1))
    assert np.all(planes[r:r + 2, c:c + 2, 8 + 2] == 1) and np.all(planes[r:r + 2, c:c + 2, 7] == 1)
    assert planes[..., 8 + 2].sum() == 4 and planes[..., 8].sum() == 0
    assert np.all(views.planes(state.observation(0))[r:r + 2, c:c + 2, 8] == 1)  # seat 0 for its owner


def test_features_of_a_view():
    rules = BoxesRules(4, closers=True)
    views = ObservationEncoding(rules)
    state = BoxesState(rules, seed=9)
    for _ in range(5):
        state.push_id(state.random_move_id(len(state.move_stack)))
    view = state.observation(2)
    features = views.features(view)
    names = views.feature_names()
    assert features.shape == (views.num_features,) == (66 + 37 * 4,) == (len(names),) == views.feature_high.shape
    value = dict(zip(names, features.tolist(), strict=True))
    assert {face for face in CARD_TYPES if value[f"tray:{face}"]} == set(state.tray(2))
    assert [value[f"scores[{k}]"] for k in range(4)] == [state.scores[(2 + k) % 4] for k in range(4)]
    assert value[f"to_move[{(state.turn - 2) % 4}]"] == 1 and sum(value[f"to_move[{k}]"] for k in range(4)) == 1
    assert (value["rules:squared"], value["rules:perfect"], value["rules:closers"]) == (1, 0, 1)
    # Seat 1 (player 3): every card of its deck but those it placed is unseen.
    placed = {t for owner, t, *_ in view["cards"][1:] if owner == 3}
    assert {face for i, face in enumerate(CARD_TYPES) if value[f"unseen[1]:{face}"]} == {
        CARD_TYPES[t] for t in range(DECK_SIZE) if t not in placed}
    assert np.all(features >= 0) and np.all(features <= views.feature_high)


def test_a_view_of_another_number_of_players_is_refused():
    views = ObservationEncoding(BoxesRules(3))
    with pytest.raises(EncodingError, match="players"):
        views.planes(BoxesState(BoxesRules(2)).observation(0))
