"""The PettingZoo environment donuts_v0 (donuts_ai.interop.pettingzoo) and the shared
observation planes: PettingZoo's own checkers, the planes' meaning, rewards, double
moves, seeding, rendering and bad arguments."""

from __future__ import annotations

import pickle
import sys
import warnings

import numpy as np
import pytest

import donuts_ai.donuts.layout as grammar
import donuts_ai.donuts.rules as rules_module
from donuts_ai import Board, IllegalMoveError, Layout, LayoutError, Rules, RulesError
from donuts_ai.donuts.squares import parse_square
from donuts_ai.errors import DonutsError
from donuts_ai.interop import NUM_PLANES, PLANE_NAMES, InteropError, LayoutSpec, layout_text, make_rules, planes

pytest.importorskip("pettingzoo", reason="the PettingZoo environment needs the rl extra: pip install 'donuts_ai[rl]'")
pytest.importorskip("gymnasium", reason="the PettingZoo environment needs the rl extra: pip install 'donuts_ai[rl]'")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from donuts_ai.interop.pettingzoo import NAME, REGISTRY_ID, env, raw_env  # noqa: E402

from ..helpers import position  # noqa: E402

#: What PettingZoo's api_test says of any environment with dict observations that is not
#: one of its own (it keeps a list of its own classic games' names to silence them).
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


def sq(name: str) -> int:
    return parse_square(name)


# --- the planes ---------------------------------------------------------------------
def test_planes_of_a_position_from_both_sides():
    board = Board(Layout.standard())
    board.push("c3")  # the "-" line through c3: a3, b3, d3, e3, f3 for Vanilla
    v, c = planes(board, 1).reshape(NUM_PLANES, 36), planes(board, 0).reshape(NUM_PLANES, 36)
    assert len(PLANE_NAMES) == NUM_PLANES == 13
    assert planes(board, 1).shape == (NUM_PLANES, 6, 6) and planes(board, 1).dtype == np.float32
    assert np.flatnonzero(v[0]).tolist() == [] and np.flatnonzero(v[1]).tolist() == [sq("c3")]
    assert np.flatnonzero(c[0]).tolist() == [sq("c3")] and np.flatnonzero(c[1]).tolist() == []
    assert np.flatnonzero(v[2]).tolist() == board.legal_squares() == [sq(s) for s in ("a3", "b3", "d3", "e3", "f3")]
    assert np.flatnonzero(v[3]).tolist() == [sq("c3")]
    directions = board.layout.directions
    for d in range(4):
        assert np.flatnonzero(v[4 + d]).tolist() == [s for s in range(36) if directions[s] == d]
    assert not v[8].any()  # not an open pick
    assert np.allclose(v[9], 1.0) and np.allclose(v[10], 14 / 15)  # pools: Vanilla full, Chocolate 14 left
    assert np.allclose(c[9], 14 / 15) and np.allclose(c[10], 1.0)
    assert np.all(v[11] == 1) and np.all(c[11] == 0)  # Vanilla to move
    assert np.all(v[12] == 1) and np.all(c[12] == 0)  # the observer's colour
    # Row = rank, column = file: c3 is row 2, column 2.
    assert planes(board, 0)[0, 2, 2] == 1


def test_planes_on_an_open_pick_and_at_the_start():
    start = planes(Board(), 0).reshape(NUM_PLANES, 36)
    assert np.all(start[8] == 1) and not start[2].any() and not start[3].any()  # the first move goes anywhere
    # Fill the whole "-" line of rank 3 so that the next pick is open.
    board = Board(Layout.from_text("\n".join(["------"] * 6)))
    for move in ("a3", "b3", "c3", "d3", "e3", "f3"):
        board.push(move)
    assert board.is_open_pick()
    p = planes(board, board.turn).reshape(NUM_PLANES, 36)
    assert np.all(p[8] == 1) and not p[2].any()
    assert np.flatnonzero(p[3]).tolist() == [sq("f3")]


def test_the_wrappers_take_the_library_layout_and_rules_grammars():
    # Every form and error of both grammars: tests/donuts/test_grammar.py.
    assert LayoutSpec is grammar.LayoutSpec and layout_text is grammar.layout_text and make_rules is rules_module.make_rules
    e = raw_env(layout="random:3:4", rules={"insertion": "single"}, donuts=20)
    assert e.rules == Rules("single", 20) and e.board.layout in LayoutSpec("random:3:4").layouts


# --- PettingZoo's checkers ----------------------------------------------------------
@pytest.mark.parametrize("kwargs", [{}, {"layout": "random"}, {"layout": "grid", "rules": "single", "donuts": 20}])
def test_pettingzoo_api_test(kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(**kwargs), num_cycles=100)
    unexpected = {str(w.message) for w in caught} - DICT_OBSERVATION_WARNINGS
    assert not unexpected, unexpected


@pytest.mark.parametrize("layout", ["standard", "random", "grid:0:8"])
def test_pettingzoo_seed_test(layout):
    seed_test(lambda: env(layout=layout), num_cycles=40)


def test_pettingzoo_render_test(capsys):
    render_test(lambda render_mode=None: env(render_mode=render_mode))
    assert "chocolate to move" in capsys.readouterr().out  # human mode printed the board


def test_registered_with_pettingzoo():
    import pettingzoo

    if not hasattr(pettingzoo, "make"):
        pytest.skip("this PettingZoo has no registry")
    e = pettingzoo.make("aec", REGISTRY_ID, layout="random")
    assert e.metadata["name"] == NAME == "donuts_v0"
    assert isinstance(e.unwrapped, raw_env)


# --- the environment ----------------------------------------------------------------
def test_spaces_and_first_observation():
    e = env()
    e.reset(seed=0)
    assert e.possible_agents == ["player_0", "player_1"] and e.agent_selection == "player_0"
    assert e.action_space("player_0").n == 36
    obs, reward, termination, truncation, info = e.last()
    assert obs["observation"].shape == (6, 6, NUM_PLANES) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].tolist() == [1] * 36
    assert (reward, termination, truncation, info) == (0, False, False, {})
    assert e.observation_space("player_0").contains(obs)
    # The agent not to move sees its planes and an empty mask.
    other = e.observe("player_1")
    assert not other["action_mask"].any() and other["observation"][..., 12].all()


def test_observation_is_the_planes_of_the_board_channels_last():
    e = env(layout="random")
    e.reset(seed=3)
    for move in ("c3", None):
        if move is not None:
            board = e.unwrapped.board
            e.step(sq(move) if board.is_legal(move) else board.legal_squares()[0])
        board = e.unwrapped.board
        for player, agent in enumerate(e.possible_agents):
            obs = e.observe(agent)
            assert np.array_equal(obs["observation"], planes(board, player).transpose(1, 2, 0))
        mask = e.observe(e.agent_selection)["action_mask"]
        assert np.flatnonzero(mask).tolist() == board.legal_squares()


def test_a_five_wins_plus_one_and_the_loser_gets_minus_one():
    # Chocolate holds a1..d1; Vanilla's f1 forces e1, which makes Chocolate's five.
    board = position("""
        v . v . v .
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . .
        c c c c . v
    """, turn="c", last="f1")
    assert board.legal_moves() == ["e1"]
    e = env()
    e.reset(options={"fen": board.fen()})
    assert e.agent_selection == "player_0"
    e.step(sq("e1"))
    assert e.terminations == {"player_0": True, "player_1": True}
    assert e.rewards == {"player_0": 1, "player_1": -1}
    assert e.infos["player_0"] == {"winner": "player_0", "reason": "five"}
    seen = {}
    for agent in e.agent_iter():
        _, reward, termination, _, _ = e.last()
        assert termination
        seen[agent] = reward
        e.step(None)
    assert seen == {"player_1": -1, "player_0": 1} and e.agents == []


def test_a_draw_rewards_both_zero():
    # One donut each on an all-horizontal board: equal largest groups (1 and 1) draw.
    e = env(layout="\n".join(["------"] * 6), donuts=1)
    e.reset()
    e.step(sq("a1"))
    e.step(sq("c1"))
    assert all(e.terminations.values()) and e.rewards == {"player_0": 0, "player_1": 0}
    assert e.infos["player_1"]["winner"] is None


def test_the_same_agent_moves_again_when_the_other_pool_is_empty():
    # Chocolate placed its 3 donuts while Vanilla forfeited twice: Vanilla moves 3 times in a row.
    board = Board(rules=Rules(donuts=3))
    board.push("a1")
    board.forfeit()
    board.push(board.legal_moves()[0])
    board.forfeit()
    board.push(board.legal_moves()[-1])
    assert board.placed == (3, 0) and board.turn == 1 and not board.is_game_over()
    e = env(donuts=3)
    e.reset(options={"fen": board.fen()})
    movers = []
    for agent in e.agent_iter():
        obs, _, termination, truncation, _ = e.last()
        if termination or truncation:
            e.step(None)
            continue
        movers.append(agent)
        assert obs["action_mask"].any()
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert movers == ["player_1"] * 3


def test_an_illegal_move_ends_the_game_with_minus_one_for_its_player():
    e = env()
    e.reset()
    e.step(sq("c3"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns of the illegal move
        e.step(sq("c4"))  # not on the "-" line through c3
    assert all(e.terminations.values())
    assert e.rewards == {"player_0": 0, "player_1": -1}
    # The raw environment raises instead.
    raw = raw_env()
    raw.reset()
    raw.step(sq("c3"))
    with pytest.raises(IllegalMoveError):
        raw.step(sq("c4"))
    assert raw.board.move_stack == ["c3"]


def test_out_of_range_actions_are_refused():
    e = env()
    e.reset()
    with pytest.raises(AssertionError):
        e.step(36)


def test_seeded_resets_draw_the_same_layouts():
    def layouts(seed, n=3):
        e = raw_env(layout="random")
        e.reset(seed=seed)
        out = [e.board.layout]
        for _ in range(n - 1):
            e.reset()
            out.append(e.board.layout)
        return out

    assert layouts(5) == layouts(5)
    assert layouts(5) != layouts(6)
    assert len(set(layouts(5, 6))) > 1  # a fresh draw at every reset
    fixed = raw_env(layout=Layout.random(9))
    fixed.reset(seed=1)
    assert fixed.board.layout == Layout.random(9)
    pool = [Layout.random(s) for s in range(4)]
    e = raw_env(layout="random:0:4")
    for seed in range(8):
        e.reset(seed=seed)
        assert e.board.layout in pool


def test_reset_options():
    e = raw_env()
    e.reset(options={"layout": "grid:4"})
    assert e.board.layout == Layout.random_grid(4)
    e.reset(options={"unrelated": 1})  # PettingZoo's api_test passes such options
    assert e.board.layout == Layout.standard()
    with pytest.raises(InteropError):
        e.reset(options={"layout": "standard", "fen": Board().fen()})
    over = Board(Layout.from_text("\n".join(["------"] * 6)), Rules(donuts=1))
    over.push("a1")
    over.push("c1")
    with pytest.raises(InteropError, match="over"):
        raw_env(donuts=1).reset(options={"fen": over.fen()})


def test_rules_and_donuts_arguments():
    assert raw_env().rules == Rules()
    assert raw_env(rules="single").rules == Rules(insertion="single")
    assert raw_env(rules=Rules(insertion="single"), donuts=20).rules == Rules("single", 20)
    assert raw_env(donuts=4).board.rules.donuts == 4


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"render_mode": "svg"}, InteropError),
    ({"layout": "no-such-layout-file"}, LayoutError),
    ({"layout": 7}, LayoutError),
    ({"rules": "sideways"}, RulesError),
    ({"rules": 3}, RulesError),
    ({"donuts": 0}, RulesError),
    ({"donuts": "15"}, RulesError),
])
def test_bad_arguments_raise_donuts_errors(kwargs, error):
    with pytest.raises(error):
        env(**kwargs)
    assert issubclass(error, DonutsError)


def test_render_rgb_array_draws_the_board_as_pixels():
    e = env(render_mode="rgb_array")
    e.reset(seed=1)
    empty = e.render()
    e.step(sq("c3"))
    image = e.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3 and image.shape == empty.shape
    assert not np.array_equal(image, empty)  # the donut placed is drawn
    assert np.array_equal(image, e.unwrapped.board.rgb_array())


def test_render_ansi_and_none(capsys):
    e = env(render_mode="ansi")
    e.reset()
    e.step(sq("c3"))
    text = e.render()
    assert text == str(e.unwrapped.board) and "vanilla to move" in text
    quiet = env()
    quiet.reset()
    with pytest.warns(UserWarning, match="render mode"):
        assert quiet.render() is None
    assert capsys.readouterr().out == ""


def test_our_agents_play_in_the_environment():
    from donuts_ai.donuts.agents import MCTSAgent, RandomAgent

    agents = {"player_0": MCTSAgent(simulations=300, seed=1), "player_1": RandomAgent(seed=2)}
    e = env(layout="random")
    e.reset(seed=11)
    for agent in e.agent_iter():
        _, _, termination, truncation, _ = e.last()
        if termination or truncation:
            e.step(None)
            continue
        e.step(sq(agents[agent].select_move(e.unwrapped.board)))
    assert e.agents == [] and e.unwrapped.board.is_game_over()


def test_pickles_as_a_fresh_environment():
    e = env(layout="grid:2", donuts=12)
    e.reset()
    copy = pickle.loads(pickle.dumps(e))
    copy.reset()
    assert copy.unwrapped.board.layout == Layout.random_grid(2) and copy.unwrapped.rules.donuts == 12


def test_missing_dependency_says_which_extra(monkeypatch):
    monkeypatch.delitem(sys.modules, "donuts_ai.interop.pettingzoo")
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    with pytest.raises(ImportError, match=r"donuts_ai\[rl\]"):
        import donuts_ai.interop.pettingzoo  # noqa: F401


def test_a_game_without_an_environment_is_told_apart_from_an_unknown_one():
    # A game of the table that has none: said so, with why; an unknown name: the table's own error.
    for game in ("examples.connect_four:connect-four-python", "connect-four-python"):
        with pytest.raises(InteropError) as raised:
            env(game=game)
        assert str(raised.value) == (
            "the PettingZoo environments serve donuts and boxes only; 'connect-four-python' is in the table of games but has no "
            "environment (the game contract has no action numbering nor observation tensor)")
    with pytest.raises(InteropError, match=r"^unknown game 'othello6'; expected one of donuts, boxes"):
        env(game="othello6")
