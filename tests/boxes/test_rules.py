"""Donut Boxes: the rules by worked examples on small hand-built layouts, each played on
the compiled engine (through BoxesState) and on the pure-Python reference alike.

Layouts are given as cards ``(owner, "FACE@r,c")`` in the move grammar (owner -1 is the
start card); the diagrams in the comments use the text picture's letters (lower case:
a Cinnamon Roll; ``#``: a frozen quadrant)."""

from __future__ import annotations

import json
from xml.etree import ElementTree

import numpy as np
import pytest

from donuts_ai.boxes import (
    CARD_TYPES,
    BoxesError,
    BoxesRules,
    BoxesRulesError,
    BoxesState,
    ObservationError,
)
from donuts_ai.boxes.deck import CANONICAL_ROTATIONS, DECK_SIZE, FACE_INDEX, ROTATED_FACES, deal, face_codes, rotate
from donuts_ai.boxes.moves import move_text, parse_move
from donuts_ai.boxes.pictures import player_color
from donuts_ai.boxes.reference import ReferenceGame
from donuts_ai.errors import DonutsError, GameOverError, IllegalMoveError, InvalidMoveError

from ..helpers import TRAY_C, TYPE, build


@pytest.fixture(params=["engine", "reference"])
def make(request):
    """Builds a game from a state dict on one backend (both answer legal_moves, play, to_dict)."""
    if request.param == "engine":
        return BoxesState.from_dict
    return ReferenceGame.from_dict


def at(moves, r, c):
    return sorted(m for m in moves if m.endswith(f"@{r},{c}"))


# ---------------------------------------------------------------------------- the cards
def test_deck_is_30_distinct_cards_fair_between_flavours():
    assert len(CARD_TYPES) == DECK_SIZE == len(set(CARD_TYPES))
    letters = "".join(CARD_TYPES)
    assert [letters.count(x) for x in "CSHB"] == [29, 29, 29, 29]
    assert letters.count("R") == 4 and all(face.count("R") <= 1 for face in CARD_TYPES)
    # No card is a turned copy of another, so a face as placed names one card and rotation.
    turned = {rotate(face_codes(f), k) for f in CARD_TYPES for k in range(4)}
    assert len(FACE_INDEX) == sum(len(r) for r in CANONICAL_ROTATIONS) == len(turned)
    assert CANONICAL_ROTATIONS[TYPE["CCCC"]] == (0,) and CANONICAL_ROTATIONS[TYPE["CCCS"]] == (0, 1, 2, 3)


def test_rotation_is_clockwise():
    # C C      H C
    # H S  ->  S C   a quarter turn clockwise
    assert rotate(face_codes("CCHS"), 1) == face_codes("HCSC")
    assert rotate(face_codes("CCHS"), 4) == face_codes("CCHS")


def test_deal_is_seeded():
    assert deal(3, 5) == deal(3, 5)
    assert deal(3, 5) != deal(3, 6)
    piles, start = deal(3, 5)
    assert all(sorted(p) == list(range(DECK_SIZE)) for p in piles) and 0 <= start < DECK_SIZE


def test_new_game_deals_trays_and_turns_the_start_card():
    s = BoxesState(BoxesRules(players=4), seed=7)
    data = s.to_dict()
    piles, start = deal(4, 7)
    assert data["cards"] == [[-1, start, 0, 0, 0, data["cards"][0][5]]]
    assert data["trays"] == [sorted(p[:4]) for p in piles]
    assert data["piles"] == [p[4:] for p in piles]
    assert s.turn == 0 and s.pile_sizes == [26] * 4 and s.scores == [0] * 4
    assert BoxesState(BoxesRules(players=4), seed=7).to_dict() == data


@pytest.mark.parametrize("seed", [0, 7])
def test_a_roll_start_card_takes_its_own_cards_flavour(make, seed):
    piles, start = deal(2, seed)
    assert CARD_TYPES[start].startswith("R")  # RSSS (seed 0), RBBB (seed 7)
    game = make(BoxesState(BoxesRules(2), seed=seed).to_dict())
    flavour = "CSHB".index(CARD_TYPES[start][1]) + 1
    assert game.to_dict()["cards"] == [[-1, start, 0, 0, 0, flavour]]
    assert ReferenceGame(BoxesRules(2), piles, start).to_dict() == game.to_dict()


# ---------------------------------------------------------------------------- rules value
@pytest.mark.parametrize("kwargs, words", [
    ({"players": 1}, "players"), ({"players": 11}, "players"), ({"players": "2"}, "players"),
    ({"players": True}, "players"), ({"grid": "hex"}, "grid"), ({"matching": "two"}, "matching"),
    ({"closers": 1}, "closers"),
])
def test_bad_rules_are_refused_by_name(kwargs, words):
    with pytest.raises(BoxesRulesError, match=words):
        BoxesRules(**kwargs)


def test_rules_errors_are_donuts_errors():
    assert issubclass(BoxesRulesError, DonutsError) and issubclass(BoxesRulesError, ValueError)
    assert len(BoxesRules.all_variants(3)) == 8
    rules = BoxesRules(5, "splitzkies", "perfect", True)
    assert BoxesRules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


# ---------------------------------------------------------------------------- placement
# Start card CCCC at 0,0; player 0 can place only their own CCCC (H, S, B match nothing).
EDGE_ONLY = [(-1, "CCCC@0,0")]


def test_squared_away_cards_sit_on_the_card_grid(make):
    game = make(build(BoxesRules(2, "squared"), EDGE_ONLY, TRAY_C))
    assert game.legal_moves() == ["CCCC@-2,0", "CCCC@0,-2", "CCCC@0,2", "CCCC@2,0"]


def test_splitzkies_allows_offsets_but_never_corner_contact(make):
    game = make(build(BoxesRules(2, "splitzkies"), EDGE_ONLY, TRAY_C))
    expected = ["CCCC@-2,-1", "CCCC@-2,0", "CCCC@-2,1", "CCCC@-1,-2", "CCCC@-1,2", "CCCC@0,-2", "CCCC@0,2",
                "CCCC@1,-2", "CCCC@1,2", "CCCC@2,-1", "CCCC@2,0", "CCCC@2,1"]
    assert game.legal_moves() == expected
    for corner in ("CCCC@-2,-2", "CCCC@2,2", "CCCC@1,1", "CCCC@0,3"):  # corner, overlap, gap
        assert corner not in game.legal_moves()


def test_illegal_placement_is_refused_and_changes_nothing():
    s = BoxesState.from_dict(build(BoxesRules(2, "squared"), EDGE_ONLY, TRAY_C))
    before = s.to_dict()
    for move in ("CCCC@1,1", "CCCC@2,2", "HHHH@0,2", "CCCC@1,0"):
        with pytest.raises(IllegalMoveError, match="illegal move"):
            s.push(move)
    assert s.to_dict() == before


# Start card CCCS:   C C | new card at 0,2 touches C (row 0) and S (row 1).
#                    C S |
MATCH = [(-1, "CCCS@0,0")]
TRAY_MATCH = {0: ["CCSS", "CCCH", "RCCC", "HHHH"]}


def test_one_good_match_needs_one_agreeing_pair(make):
    game = make(build(BoxesRules(2, "squared", "one"), MATCH, TRAY_MATCH))
    assert at(game.legal_moves(), 0, 2) == sorted([
        "CCSS@0,2", "SCSC@0,2", "CSCS@0,2",  # halves: any turn with one agreeing pair
        "CCCH@0,2", "CCHC@0,2", "CHCC@0,2",  # HCCC agrees nowhere
        # Rolls (D10): beside the C it becomes C, beside the S it becomes S; on the right
        # column it lands beside nothing, so the player chooses any flavour.
        "cCCC@0,2", "CCsC@0,2", "CcCC@0,2", "CsCC@0,2", "ChCC@0,2", "CbCC@0,2",
        "CCCc@0,2", "CCCs@0,2", "CCCh@0,2", "CCCb@0,2",
    ])


def test_perfect_match_needs_every_touching_quadrant_to_agree(make):
    game = make(build(BoxesRules(2, "squared", "perfect"), MATCH, TRAY_MATCH))
    # Only C-over-S on the left edge, or the roll against the S (it becomes S).
    assert at(game.legal_moves(), 0, 2) == ["CCSS@0,2", "CCsC@0,2"]


def test_a_roll_becomes_the_donut_it_lands_beside_not_its_own_cards(make):
    # The rules text: "becomes that donut permanently the instant it lands beside one". Start
    # card H H / H H; the roll card R S / S S unturned at 0,2 puts its roll beside an H only.
    game = make(build(BoxesRules(2, "squared", "one"), [(-1, "HHHH@0,0")], {0: ["RSSS", "CCCC", "SSSS", "BBBB"]}))
    moves = at(game.legal_moves(), 0, 2)
    assert "hSSS@0,2" in moves
    assert "sSSS@0,2" not in moves  # its own card's S does not settle it (no agreeing pair at all)
    assert [m for m in moves if "h" in m or "s" in m] == ["SShS@0,2", "hSSS@0,2"]  # the roll on the left edge only


def test_a_roll_beside_no_live_donut_takes_any_flavour_of_the_players_choice(make):
    # "If nothing settles it, you choose": the roll on the right column touches nothing.
    game = make(build(BoxesRules(2, "squared", "one"), MATCH, TRAY_MATCH))
    assert sorted(m for m in game.legal_moves() if m.startswith("C") and m[1].islower() and m.endswith("@0,2")) == [
        "CbCC@0,2", "CcCC@0,2", "ChCC@0,2", "CsCC@0,2"]
    game.push("CbCC@0,2")
    assert game.to_dict()["cards"][-1][5] == 4  # Blueberry, for good


# Perfect Match and frozen quadrants (D9): the start card C C / C C and a delivered box
# H H / H H (frozen, #) below-right of the slot 0,2:
#      0  1  2  3
#   0 C. C. __ __     C C / C C at 0,2: its lower-right C touches only the frozen H
#   1 C. C. __ __
#   2       H# H#
#   3       H# H#
FROZEN_BELOW = [(-1, "CCCC@0,0"), (1, "HHHH@2,2")]


@pytest.mark.parametrize("matching, legal", [("one", True), ("perfect", False)])
def test_perfect_match_refuses_a_donut_touching_only_frozen_ones(make, matching, legal):
    # The text: "every donut you place must agree with one of the donuts it touches", and
    # delivered boxes cannot be matched against again: touching only those, it agrees with none.
    game = make(build(BoxesRules(2, "squared", matching), FROZEN_BELOW, TRAY_C, frozen_cards=(1,)))
    assert ("CCCC@0,2" in game.legal_moves()) is legal
    assert "CCCC@-2,0" in game.legal_moves()  # away from the frozen box: legal under both


def test_perfect_match_accepts_a_donut_touching_a_frozen_and_an_agreeing_live_one(make):
    # Splitzkies: the frozen H H / H H at 2,1 lies under the slot's lower-left C only, which
    # also touches the start card's C: it agrees with a live donut it touches.
    game = make(build(BoxesRules(2, "splitzkies", "perfect"), [(-1, "CCCC@0,0"), (1, "HHHH@2,1")], TRAY_C,
                      frozen_cards=(1,)))
    assert "CCCC@0,2" in game.legal_moves()


def test_roll_choice_is_part_of_the_move(make):
    game = make(build(BoxesRules(2, "squared", "perfect"), MATCH, TRAY_MATCH))
    game.push("CCsC@0,2")
    cards = game.to_dict()["cards"]
    assert cards[-1] == [0, TYPE["RCCC"], 3, 0, 2, 2]  # turned 3 times, its roll Strawberry


# ---------------------------------------------------------------------------- boxes
# Squared, 3 players. Player 0's S S / S S above the hole at 0,2 is walled in by two
# delivered boxes (#, frozen) and B1; the hole is closed on every side:
#      0  1  2  3  4  5
#  -4        C1# C1#
#  -3        C1# C1#
#  -2 C2# C2# S0 S0 B1 B1
#  -1 C2# C2# S0 S0 B1 B1
#   0 C. C. __ __ H2 H2      player 0 fills the hole with the roll card RSSS
#   1 C. C. __ __ H2 H2
#   2       B2 B2
#   3       B2 B2
HOLE = [(-1, "CCCC@0,0"), (0, "SSSS@-2,2"), (1, "BBBB@-2,4"), (2, "HHHH@0,4"), (2, "BBBB@2,2"), (1, "CCCC@-4,2"),
        (2, "CCCC@-2,0")]
HOLE_WALLS = (5, 6)
TRAY_HOLE = {0: ["RSSS", "BBBB", "CCCC", "HHHH"]}


def test_roll_takes_a_neighbouring_flavour_of_the_players_choice(make):
    game = make(build(BoxesRules(3), HOLE, TRAY_HOLE, frozen_cards=HOLE_WALLS))
    # The roll at 0,2 lands beside S above and C to the left (its own card's S do not count).
    assert [m for m in at(game.legal_moves(), 0, 2) if m[1:] == "SSS@0,2"] == ["cSSS@0,2", "sSSS@0,2"]


@pytest.mark.parametrize("closers", [False, True])
def test_sealed_box_with_a_roll_scores_double(make, closers):
    game = make(build(BoxesRules(3, closers=closers), HOLE, TRAY_HOLE, frozen_cards=HOLE_WALLS))
    result = game.push("sSSS@0,2")
    assert result == {"cards": 1, "boxes": 1, "points": 16, "sealed": 1, "scores_delta": [16, 0, 0]}
    data = game.to_dict()
    assert data["scores"] == [16, 0, 0] and data["boxes"] == [1, 0, 0]
    box = [[r, c, 0] for r in (-2, -1, 0, 1) for c in (2, 3)]  # the box turns player 0's colour
    assert [row for row in data["frozen"] if row[2] is not None] == box


def test_roll_joining_another_run_leaves_seven_plain_donuts_to_seal(make):
    game = make(build(BoxesRules(3), HOLE, TRAY_HOLE, frozen_cards=HOLE_WALLS))
    result = game.push("cSSS@0,2")  # the roll joins the open C run; seven S seal, no roll: 7 points
    assert result["points"] == 7 and result["boxes"] == 1
    assert [row[:2] for row in game.to_dict()["frozen"] if row[2] == 0] == [
        [-2, 2], [-2, 3], [-1, 2], [-1, 3], [0, 3], [1, 2], [1, 3]]


# Squared, 3 players: the S run (S1 S1 on the left, S2 S2 on the right) is closed but
# for the slot 2,4 below it; # marks frozen cards (delivered boxes: walls).
#         2   3   4   5
#  -2    C2# C2# C1# C1#
#  -1    C2# C2# C1# C1#
#   0 H. H. H1  S1  S2  H2
#   1 H. H. H1  S1  S2  H2
#   2       B1  B1  __  __    the sealer fills 2,4 with H H / H H: it holds no S
#   3       B1  B1  __  __
TIE = [(-1, "HHHH@0,0"), (1, "HSHS@0,2"), (2, "SHSH@0,4"), (1, "BBBB@2,2"), (2, "CCCC@-2,2"), (1, "CCCC@-2,4")]


@pytest.mark.parametrize("sealer, closers, scores", [
    (0, False, [0, 0, 0]),  # S1 2 = S2 2, the sealer not among them: nobody scores
    (0, True, [4, 0, 0]),  # Coffee's For Closers: the sealer scores
    (2, False, [0, 0, 4]),  # the tied holders include the sealer: the sealer scores
    (1, False, [0, 4, 0]),
])
def test_majority_tie_goes_to_the_sealer_only_if_tied(make, sealer, closers, scores):
    trays = {sealer: ["HHHH", "SSSS", "BBBB", "CCCS"]} if sealer == 0 else {sealer: ["HHHH", "SSSS", "BBBH", "CCCS"]}
    data = build(BoxesRules(3, closers=closers), TIE, trays, frozen_cards=(4, 5), to_move=sealer)
    game = make(data)
    result = game.push("HHHH@2,4")
    assert result["sealed"] == 1
    after = game.to_dict()
    assert after["scores"] == scores
    assert after["boxes"] == [int(x > 0) for x in scores]
    winner = next((p for p, x in enumerate(scores) if x), None)  # nobody on the unbroken tie
    assert [0, 3, winner] in after["frozen"] and [1, 4, winner] in after["frozen"]


def test_a_box_under_three_donuts_seals_for_nothing(make):
    # The TIE layout with B2 H2 / B2 H2 on the right and B1 under it: the S run is S1 S1
    # alone, and the H card at 2,2 closes it.
    cards = [(-1, "HHHH@0,0"), (1, "HSHS@0,2"), (2, "BHBH@0,4"), (1, "BBBB@2,4"), (2, "CCCC@-2,2"),
             (1, "CCCC@-2,4")]
    game = make(build(BoxesRules(3), cards, {0: ["HHHH", "SSSS", "BBBB", "CCCS"]}, frozen_cards=(4, 5)))
    result = game.push("HHHH@2,2")
    assert result["sealed"] == 1 and result["points"] == 0 and game.to_dict()["boxes"] == [0, 0, 0]
    assert [0, 3, None] in game.to_dict()["frozen"]  # frozen, a box for nobody (D18)


# Splitzkies, 3 players: row 0, columns 2..3 is a gap one quadrant high that no card can
# ever cover, so it does not hold the S run open; H H / H H at 3,2 closes its last side.
#     0   1   2   3   4   5
# -2     H1  H1  B2  B2
# -1     H1  H1  B2  B2
#  0 C.  C.  __  __  __            (0,2) (0,3): the uncoverable gap
#  1 C.  S.  S1  S1  B1  B1
#  2 H2  H2  S1  S1  B1  B1
#  3 H2  H2  __  __
GAP = [(-1, "CCCS@0,0"), (1, "SSSS@1,2"), (1, "HHHH@-2,1"), (2, "BBBB@-2,3"), (2, "HHHH@2,0"), (1, "BBBB@1,4")]


def test_a_gap_no_card_can_cover_does_not_hold_a_box_open(make):
    game = make(build(BoxesRules(3, "splitzkies"), GAP, {0: ["HHHH", "SSSS", "BBBB", "CCCS"]}))
    result = game.push("HHHH@3,2")
    assert result["sealed"] == 1 and result["points"] == 0  # player 1 holds 4 of the 5: they score
    data = game.to_dict()
    assert data["scores"] == [0, 5, 0] and data["boxes"] == [0, 1, 0]
    assert data["frozen"] == [[1, 1, 1], [1, 2, 1], [1, 3, 1], [2, 2, 1], [2, 3, 1]]


def test_frozen_quadrants_cannot_be_matched_against(make):
    # Only the frozen start card is on the table: nothing can be placed, so player 0 is stuck.
    game = make(build(BoxesRules(2), [(-1, "CCCC@0,0")], TRAY_C, frozen_cards=(0,)))
    assert game.legal_moves() == ["stuck:CCCC", "stuck:SSSS", "stuck:HHHH", "stuck:BBBB"]


# ---------------------------------------------------------------------------- box early
def test_box_early_needs_three_donuts_and_half_of_them(make):
    # C. C. C0 C0      the C run: 4 of the start card, 4 of player 0 (exactly half)
    # C. C. C0 C0
    data = build(BoxesRules(2), [(-1, "CCCC@0,0"), (0, "CCCC@0,2")], to_move=0)
    game = make(data)
    assert "box@0,0" in game.legal_moves()
    result = game.push("box@0,0")
    assert result == {"cards": 0, "boxes": 1, "points": 8, "sealed": 1, "scores_delta": [8, 0]}
    after = game.to_dict()
    assert len(after["frozen"]) == 8 and after["to_move"] == 1 and after["trays"] == data["trays"]
    assert {row[2] for row in after["frozen"]} == {0}  # boxed early: the mover's box
    # Player 1 holds none of a run: no box early for them.
    game = make(build(BoxesRules(2), [(-1, "CCCC@0,0"), (0, "CCCC@0,2")], to_move=1))
    assert not [m for m in game.legal_moves() if m.startswith("box")]


# ---------------------------------------------------------------------------- stuck and the end
def test_stuck_puts_a_card_under_the_pile_and_draws(make):
    data = build(BoxesRules(2), [(-1, "CCCC@0,0")], TRAY_C, frozen_cards=(0,))
    top = data["piles"][0][0]
    game = make(data)
    result = game.push("stuck:SSSS")
    after = game.to_dict()
    assert result["cards"] == 0 and after["stuck_streak"] == 1 and after["to_move"] == 1
    assert after["piles"][0][-1] == TYPE["SSSS"] and after["piles"][0][0] == data["piles"][0][1]
    assert after["trays"][0] == sorted([TYPE["CCCC"], TYPE["HHHH"], TYPE["BBBB"], top])
    assert after["pile_known"] == [1, 0]


def test_a_round_of_stuck_turns_on_a_dead_layout_ends_the_game(make):
    game = make(build(BoxesRules(2), [(-1, "CCCC@0,0")], TRAY_C, frozen_cards=(0,)))
    game.push("stuck:CCCC")
    assert not game.to_dict()["over"]
    game.push(game.legal_moves()[0])
    data = game.to_dict()
    assert data["over"] and data["to_move"] is None and data["scores"] == [0, 0]


def test_a_round_of_stuck_turns_goes_on_while_some_card_could_fit(make):
    # Player 0's CCCC fits the live start card, but their tray holds only the others.
    data = build(BoxesRules(2), [(-1, "CCCC@0,0")], {0: ["SSSS", "HHHH", "BBBB", "HHHS"],
                                                     1: ["SSSS", "HHHH", "BBBB", "HHHS"]})
    game = make(data)
    game.push("stuck:SSSS")
    game.push("stuck:SSSS")
    after = game.to_dict()
    assert after["stuck_streak"] == 2 and not after["over"] and after["to_move"] == 0


def test_the_last_draw_gives_every_other_player_one_more_turn():
    s = BoxesState(BoxesRules(players=3), seed=4)
    while s.to_dict()["trigger"] is None:
        s.push_id(s.random_move_id(len(s.move_stack)))
    trigger = s.to_dict()["trigger"]
    assert s.pile_sizes[trigger] == 0 and not s.is_game_over()
    movers = []
    while not s.is_game_over():
        movers.append(s.turn)
        s.push_id(s.random_move_id(len(s.move_stack)))
    assert movers == [(trigger + 1) % 3, (trigger + 2) % 3]
    with pytest.raises(GameOverError):
        s.push("box@0,0")
    assert s.legal_moves() == [] and s.turn is None


# The C run: 4 of the start card, 4 of player 0, 4 of player 1 (a tie); player 1's H H / H H
# is theirs alone. Player 0 has already drawn their last card: player 1 takes the last turn.
END = [(-1, "CCCC@0,0"), (0, "CCCC@0,2"), (1, "CCCC@0,-2"), (1, "HHHH@-2,-2")]


def test_open_runs_score_to_their_strict_majority_at_the_end(make):
    data = build(BoxesRules(2), END, to_move=1, trigger=0, final_turns_left=1)
    game = make(data)
    result = game.push("box@-2,-2")  # player 1 boxes H H H H early: 4 points, a box
    after = game.to_dict()
    assert after["over"] and result["points"] == 4
    assert after["scores"] == [0, 4]  # the tied C run scores for nobody


def test_open_runs_score_in_full_at_the_end(make):
    data = build(BoxesRules(2), END[:2], to_move=1, trigger=0, final_turns_left=1,
                 trays={1: ["BBBB", "CCCS", "HHHH", "CCCC"]})
    game = make(data)
    game.push("CCCC@0,-2")  # player 1 joins the C run: 4 + 4 of player 0 + 4 of player 1
    assert game.to_dict()["scores"] == [0, 0]
    data = build(BoxesRules(2), END[:2], to_move=1, trigger=0, final_turns_left=1,
                 trays={1: ["BBBB", "CCCS", "HHHH", "CCCC"]})
    game = make(data)
    result = game.push("CCCS@2,2")  # C C / C S below player 0's: player 1 holds 3, player 0 holds 4
    assert game.to_dict()["scores"] == [4 + 4 + 3, 0] and result["scores_delta"] == [11, 0]


@pytest.mark.parametrize("scores, boxes, places", [
    ([10, 10, 5], [1, 2, 0], [1, 0, 2]),  # equal points: more boxes first
    ([10, 10, 5], [1, 1, 0], [0, 0, 2]),  # equal on both: a shared win
    ([3, 9, 9, 9], [0, 0, 0, 0], [3, 0, 0, 0]),
])
def test_ranking(make, scores, boxes, places):
    n = len(scores)
    data = build(BoxesRules(n), [(-1, "CCCC@0,0")], to_move=None, over=True, scores=scores, boxes=boxes)
    assert make(data).ranking() == places


# ---------------------------------------------------------------------------- the state object
def test_moves_as_texts_and_codes_agree():
    s = BoxesState(BoxesRules(players=3, grid="splitzkies"), seed=2)
    codes = s.legal_move_ids()
    assert codes.dtype == np.int64 and list(codes) == sorted(codes)
    assert [move_text(int(c)) for c in codes] == s.legal_moves()
    assert all(parse_move(m) == c for m, c in zip(s.legal_moves(), codes, strict=True))
    assert all(s.is_legal(m) for m in s.legal_moves())
    copy = s.copy()
    result = s.push_id(codes[0])
    assert copy.to_dict() != s.to_dict() and copy.move_stack == [] and s.move_stack == [move_text(codes[0])]
    assert result["cards"] == 1


@pytest.mark.parametrize("junk", [None, 3, "", "x", "CCCC@0", "CCCC@5000,0", "ZZZZ@0,0", "ccCC@0,2", "box@a,b",
                                  "stuck:CCCS ", b"CCCC@0,2", ["CCCC@0,2"]])
def test_is_legal_never_raises(junk):
    s = BoxesState(BoxesRules(), seed=1)
    assert s.is_legal(junk) is False


@pytest.mark.parametrize("junk", [-1, 2**70, "x", None, 3.5, (1 << 40) + 5, (7 << 40)])
def test_is_legal_id_never_raises(junk):
    assert BoxesState(BoxesRules(), seed=1).is_legal_id(junk) is False


@pytest.mark.parametrize("text, words", [("x", "cannot read"), ("CSSC@0,0", "no card"), ("ccCC@0,2", "at most one"),
                                         ("CCCC@5000,0", "outside"), ("stuck:CCSC", "unturned")])
def test_bad_move_texts_are_named(text, words):
    with pytest.raises(InvalidMoveError, match=words):
        BoxesState(BoxesRules(), seed=1).push(text)


def test_bad_arguments():
    with pytest.raises(BoxesError, match="seed"):
        BoxesState(BoxesRules(), seed=-1)
    with pytest.raises(BoxesError, match="rules"):
        BoxesState("squared")
    with pytest.raises(ObservationError, match="player"):
        BoxesState(BoxesRules(), seed=1).observation(2)


@pytest.mark.parametrize("change, words", [
    (lambda d: d.pop("scores"), "missing keys"),
    (lambda d: d.update(extra=1), "unknown keys"),
    (lambda d: d["cards"].append([0, 0, 0, 0, 1, 0]), "overlaps"),
    (lambda d: d["trays"][0].append(d["piles"][0].pop()), "at most 4"),
    (lambda d: d["piles"][1].pop(), "one deck"),
    (lambda d: d["cards"].__setitem__(0, [0, 0, 0, 0, 0, 0]), "start card"),
    (lambda d: d.update(to_move=None), "None exactly"),
    (lambda d: d["frozen"].append([9, 9, None]), "frozen position"),
    (lambda d: d["frozen"].append([0, 0]), r"must be \[r, c, winner\]"),
    (lambda d: d["frozen"].append([0, 0, 5]), "winner must be a player"),
    (lambda d: d["cards"].append([1, TYPE["RCCC"], 0, 2, 0, 0]), "roll flavour"),
])
def test_bad_state_dicts_are_named(change, words):
    data = BoxesState(BoxesRules(), seed=3).to_dict()
    change(data)
    with pytest.raises(ObservationError, match=words):
        BoxesState.from_dict(data)


# ---------------------------------------------------------------------------- hidden information
def _mid_game(players=3, seed=5, moves=25, grid="squared", matching="perfect"):
    s = BoxesState(BoxesRules(players, grid, matching), seed=seed)
    for k in range(moves):
        s.push_id(s.random_move_id(k))
    return s


def test_observation_shows_only_what_the_player_may_know():
    s = _mid_game()
    data = s.to_dict()
    obs = s.observation(1)
    json.dumps(obs)
    assert "trays" not in obs and "piles" not in obs
    assert obs["tray"] == data["trays"][1] and obs["tray_sizes"] == [len(t) for t in data["trays"]]
    assert obs["pile_sizes"] == [len(p) for p in data["piles"]] and obs["cards"] == data["cards"]
    assert obs["scores"] == data["scores"] and obs["to_move"] == data["to_move"]


def test_others_stuck_cards_are_hidden_in_the_observation():
    data = build(BoxesRules(2), [(-1, "CCCC@0,0")], TRAY_C, frozen_cards=(0,))
    s = BoxesState.from_dict(data)
    s.push("stuck:SSSS")
    assert s.observation(0)["moves"] == ["stuck:SSSS"] and s.observation(1)["moves"] == ["stuck"]
    assert s.observation(0)["pile_bottom"] == [TYPE["SSSS"]] and s.observation(1)["pile_bottom"] == []


@pytest.mark.parametrize("player", [0, 1, 2])
def test_determinisation_is_consistent_with_the_observation(player):
    s = _mid_game()
    obs = s.observation(player)
    worlds = [BoxesState.from_observation(obs, seed=k) for k in range(6)]
    for world in worlds:
        assert world.observation(player) == obs
        data = world.to_dict()
        for q in range(3):
            placed = {row[1] for row in data["cards"][1:] if row[0] == q}
            assert sorted(placed | set(data["trays"][q]) | set(data["piles"][q])) == list(range(DECK_SIZE))
    others = [tuple(w.to_dict()["trays"][(player + 1) % 3]) for w in worlds]
    assert len(set(others)) > 1  # the hidden trays really are sampled
    assert BoxesState.from_observation(obs, seed=3).to_dict() == worlds[3].to_dict()
    world = worlds[0]
    if s.turn == player:  # the player to move sees their own moves exactly
        assert world.legal_moves() == s.legal_moves()


def test_determinisation_keeps_the_known_bottom_of_the_own_pile():
    data = build(BoxesRules(2), [(-1, "CCCC@0,0")], TRAY_C, frozen_cards=(0,))
    s = BoxesState.from_dict(data)
    s.push("stuck:SSSS")
    for k in range(5):
        world = BoxesState.from_observation(s.observation(0), seed=k).to_dict()
        assert world["piles"][0][-1] == TYPE["SSSS"] and world["pile_known"][0] == 1


@pytest.mark.parametrize("observer", [0, 2])
def test_sample_world_redeals_only_what_the_observer_cannot_see(observer):
    s = _mid_game()
    worlds = [s.sample_world(observer, seed=k) for k in range(6)]
    for world in worlds:
        assert world.observation(observer) == s.observation(observer)
        data = world.to_dict()
        for q in range(3):
            placed = {row[1] for row in data["cards"][1:] if row[0] == q}
            assert sorted(placed | set(data["trays"][q]) | set(data["piles"][q])) == list(range(DECK_SIZE))
    assert len({tuple(w.to_dict()["trays"][(observer + 1) % 3]) for w in worlds}) > 1
    assert s.sample_world(observer, seed=4).to_dict() == worlds[4].to_dict()


def test_sample_world_keeps_the_known_bottom_of_the_own_pile():
    s = BoxesState.from_dict(build(BoxesRules(2), [(-1, "CCCC@0,0")], TRAY_C, frozen_cards=(0,)))
    s.push("stuck:SSSS")
    piles = {tuple(s.sample_world(0, seed=k).to_dict()["piles"][0]) for k in range(5)}
    assert len(piles) > 1 and all(p[-1] == TYPE["SSSS"] for p in piles)


def test_bad_observations_are_named():
    obs = _mid_game().observation(0)
    obs["pile_sizes"][1] += 1
    with pytest.raises(ObservationError, match="player 1"):
        BoxesState.from_observation(obs, seed=1)
    obs = _mid_game().observation(0)
    obs["tray"] = obs["tray"][:-1]
    with pytest.raises(ObservationError, match="tray"):
        BoxesState.from_observation(obs, seed=1)
    # A tray holding a card its player has placed, or the same card twice (sizes kept).
    placed = next(card_type for owner, card_type, *_ in _mid_game().observation(0)["cards"][1:] if owner == 0)
    for bad in (placed, "twice"):
        obs = _mid_game().observation(0)
        obs["tray"][0] = obs["tray"][1] if bad == "twice" else bad
        with pytest.raises(ObservationError, match="player 0"):
            BoxesState.from_observation(obs, seed=1)
    # Another player's known pile bottom longer than the pile: checked on the dealt state.
    obs = _mid_game().observation(0)
    obs["pile_known"][1] = obs["pile_sizes"][1] + 1
    with pytest.raises(ObservationError, match="pile_known of player 1 exceeds the pile"):
        BoxesState.from_observation(obs, seed=1)


# ---------------------------------------------------------------------------- pictures
def test_text_picture():
    data = build(BoxesRules(3), HOLE, TRAY_HOLE, frozen_cards=HOLE_WALLS)
    s = BoxesState.from_dict(data)
    s.push("sSSS@0,2")
    lines = str(s).splitlines()
    assert lines[0] == "Donut Boxes (3 players, squared, one match)"
    assert lines[1:8] == [
        "     0  1  2  3  4  5",
        "  -4  _  _ C1*C1* _  _",
        "  -3  _  _ C1*C1* _  _",
        "  -2 C2*C2*S0*S0*B1 B1",
        "  -1 C2*C2*S0*S0*B1 B1",
        "   0 C. C. s0*S0*H2 H2",
        "   1 C. C. S0*S0*H2 H2",
    ]
    assert lines[-2].startswith("scores 16 0 0 | boxes 1 0 0 | piles")
    assert lines[-1].startswith("player 1 to move; tray ")


def test_svg_picture():
    s = BoxesState.from_dict(build(BoxesRules(3), HOLE, TRAY_HOLE, frozen_cards=HOLE_WALLS))
    s.push("sSSS@0,2")
    svg = s._repr_svg_()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert ElementTree.fromstring(svg).tag == "{http://www.w3.org/2000/svg}svg"  # well-formed
    # Every plain quadrant a donut with its hole; the roll a donut with a swirl.
    assert svg.count("<circle") == 2 * 31 + 1 and svg.count("<path") == 1
    assert svg.count("<title>player") == 7 and svg.count("<title>start card") == 1
    # "It turns the winner's colour": the delivered box washed in player 0's colour, the
    # walls (boxes for nobody) in grey.
    assert svg.count("<title>box for player 0</title>") == 8 and svg.count("<title>box for nobody</title>") == 8
    assert svg.count(f'fill="{player_color(0)}" opacity="0.5"') == 8
    assert s.box_winners()[(0, 2)] == 0 and s.box_winners()[(-4, 2)] is None


def test_box_winners_are_public_in_every_observation():
    s = BoxesState.from_dict(build(BoxesRules(3), HOLE, TRAY_HOLE, frozen_cards=HOLE_WALLS))
    s.push("sSSS@0,2")
    for player in range(3):
        obs = s.observation(player)
        assert obs["frozen"] == s.to_dict()["frozen"]
        assert BoxesState.from_observation(obs, seed=player).box_winners() == s.box_winners()


def test_rotated_faces_table_matches_rotate():
    for t, face in enumerate(CARD_TYPES):
        for k in range(4):
            assert tuple(int(x) for x in ROTATED_FACES[t, k]) == rotate(face_codes(face), k)
