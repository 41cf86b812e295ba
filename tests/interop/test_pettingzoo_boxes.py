"""Donut Boxes in PettingZoo (donuts_ai.interop.pettingzoo_boxes, ``env(game="boxes")``):
PettingZoo's own checkers for 2, 3 and 10 players, seeds, whole games by a random masked
agent and by the library's ISMCTS agent, both reward schemes, the table's edge, and no
hidden card in any observation."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest

from donuts_ai.boxes import BoxesRules, BoxesRulesError, BoxesState
from donuts_ai.boxes.encoding import ObservationEncoding
from donuts_ai.boxes.errors import EncodingError
from donuts_ai.errors import DonutsError, IllegalMoveError
from donuts_ai.interop import InteropError

pytest.importorskip("pettingzoo", reason="the PettingZoo environment needs the rl extra: pip install 'donuts_ai[rl]'")
pytest.importorskip("gymnasium", reason="the PettingZoo environment needs the rl extra: pip install 'donuts_ai[rl]'")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from donuts_ai.interop.pettingzoo import env  # noqa: E402
from donuts_ai.interop.pettingzoo_boxes import NAME, REGISTRY_ID, TABLE_EDGE, place_rewards, raw_env  # noqa: E402

#: What PettingZoo's api_test says of any environment with dict observations that is not one of its own.
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}
#: Cycles of PettingZoo's checkers: a few moves of every player, kept short (10 players
#: observe a table of 100 x 100 quadrants and 400,030 actions).
CYCLES = {2: 20, 3: 10, 10: 3}
#: A table a random game outgrows in a few moves.
TINY_RADIUS = 4


def boxes(**kwargs):
    return env(game="boxes", **kwargs)


def play(e, choose, seed):
    """Play a whole game (or to truncation) in ``e`` from ``reset(seed)``, ``choose(obs, info)``
    giving each action; returns each agent's summed rewards and the last infos."""
    e.reset(seed=seed)
    totals, infos = dict.fromkeys(e.possible_agents, 0.0), {}
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        totals[agent] += reward
        if termination or truncation:
            infos[agent] = info
            e.step(None)
            continue
        e.step(choose(obs, info))
    return totals, infos


def random_masked(seed):
    rng = np.random.default_rng(seed)
    return lambda obs, info: int(rng.choice(np.flatnonzero(obs["action_mask"])))


# --- PettingZoo's checkers ----------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 10])
def test_pettingzoo_api_test(players):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(boxes(players=players), num_cycles=CYCLES[players])
    unexpected = {str(w.message) for w in caught} - DICT_OBSERVATION_WARNINGS
    assert not unexpected, unexpected


@pytest.mark.parametrize("players", [2, 3, 10])
def test_pettingzoo_seed_test(players):
    seed_test(lambda: boxes(players=players, grid="splitzkies"), num_cycles=CYCLES[players])


def test_registered_with_pettingzoo():
    import pettingzoo

    if not hasattr(pettingzoo, "make"):
        pytest.skip("this PettingZoo has no registry")
    e = pettingzoo.make("aec", REGISTRY_ID, players=3)
    assert e.metadata["name"] == NAME == "donut_boxes_v0"
    assert isinstance(e.unwrapped, raw_env) and e.possible_agents == ["player_0", "player_1", "player_2"]


# --- spaces and seeds ---------------------------------------------------------------
def test_spaces_and_first_observation():
    e = boxes(players=3)
    e.reset(seed=7)
    raw = e.unwrapped
    assert e.agent_selection == "player_0" and raw.encoding.radius == 36
    assert e.action_space("player_1").n == raw.encoding.size == 207_390
    obs, reward, termination, truncation, info = e.last()
    assert obs["observation"].shape == (72, 72, 14) and obs["features"].shape == (177,)
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (207_390,)
    state = BoxesState(BoxesRules(3), seed=7)  # reset(seed) deals the library's game of that seed
    assert raw.state.to_dict() == state.to_dict()
    assert [raw.encoding.move(i) for i in np.flatnonzero(obs["action_mask"])] == state.legal_moves()
    assert (reward, termination, truncation) == (0, False, False) and info == {"observation": state.observation(0)}
    assert e.observation_space("player_0").contains(obs)
    other = e.observe("player_2")
    assert not other["action_mask"].any() and e.infos["player_2"] == {}


def test_seeds_take_python_and_numpy_ints_only():
    a, b = raw_env(players=2), raw_env(players=2)
    a.reset(seed=3)
    b.reset(seed=np.int64(3))
    assert a.state.to_dict() == b.state.to_dict()
    a.reset()
    b.reset()
    assert a.state.to_dict() == b.state.to_dict()  # the next deals come from a stream seeded by it
    for bad in ("42", 3.7, True, -1, [1]):
        with pytest.raises(InteropError, match="seed"):
            a.reset(seed=bad)


# --- whole games --------------------------------------------------------------------
@pytest.mark.parametrize(("players", "grid"), [(2, "squared"), (10, "splitzkies")])
def test_a_random_masked_agent_plays_whole_games_rewarded_by_place(players, grid):
    e = boxes(players=players, grid=grid)
    totals, infos = play(e, random_masked(players), seed=players)
    state = e.unwrapped.state
    assert state.is_game_over() and e.agents == []
    assert [totals[a] for a in e.possible_agents] == pytest.approx(place_rewards(state.ranking()))
    assert sum(totals.values()) == pytest.approx(0)
    assert infos["player_0"]["places"] == state.ranking() and infos["player_1"]["scores"] == state.scores


def test_score_rewards_sum_to_the_final_scores():
    e = boxes(players=3, reward="score", matching="perfect", closers=True)
    totals, _ = play(e, random_masked(1), seed=5)
    assert [totals[a] for a in e.possible_agents] == e.unwrapped.state.scores
    assert max(totals.values()) > 0


def test_the_library_ismcts_agent_plays_through_the_environment():
    from donuts_ai.boxes.agents import ISMCTSAgent, RandomAgent

    e = boxes(players=3)
    agents = [ISMCTSAgent(simulations=20, seed=1), RandomAgent(seed=2), ISMCTSAgent(simulations=20, seed=3)]
    encoding = e.unwrapped.encoding

    def choose(obs, info):
        view = info["observation"]  # the view of the agent to move, as the library's agents take it
        return encoding.index(agents[view["player"]].select_move(view))

    play(e, choose, seed=11)
    assert e.unwrapped.state.is_game_over() and e.agents == []


def test_place_rewards():
    assert place_rewards([0, 1]) == [1.0, -1.0]
    assert place_rewards([0, 0]) == [0.0, 0.0]
    assert place_rewards([0, 0, 2]) == [0.5, 0.5, -1.0]
    assert place_rewards([2, 0, 1, 3, 4]) == [0.0, 1.0, 0.5, -0.5, -1.0]


def test_a_game_that_reaches_the_tables_edge_is_truncated():
    e = boxes(players=2, grid="splitzkies", radius=TINY_RADIUS)
    totals, infos = play(e, random_masked(0), seed=0)
    state = e.unwrapped.state
    assert not state.is_game_over() and e.agents == []
    assert not e.unwrapped.encoding.covers(state.to_dict())
    assert set(totals.values()) == {0.0}  # no place, no reward
    assert infos["player_0"] == {"reason": TABLE_EDGE, "scores": state.scores, "boxes": state.boxes_delivered}


def test_an_illegal_move_ends_the_game_with_minus_one_for_its_player():
    e = boxes(players=3)
    e.reset(seed=1)
    illegal = int(np.flatnonzero(e.last()[0]["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns of the illegal move
        e.step(illegal)
    assert all(e.terminations.values()) and e.rewards == {"player_0": -1, "player_1": 0, "player_2": 0}
    raw = raw_env(players=3)
    raw.reset(seed=1)
    with pytest.raises(IllegalMoveError):
        raw.step(illegal)


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"game": "chess"}, InteropError),
    ({"game": "boxes", "reward": "money"}, InteropError),
    ({"game": "boxes", "render_mode": "rgb_array"}, InteropError),
    ({"game": "boxes", "players": 11}, BoxesRulesError),
    ({"game": "boxes", "grid": "hex"}, BoxesRulesError),
    ({"game": "boxes", "radius": 7}, EncodingError),
])
def test_bad_arguments_raise_donuts_errors(kwargs, error):
    with pytest.raises(error):
        env(**kwargs)
    assert issubclass(error, DonutsError)


def test_render_ansi_and_pickle():
    e = boxes(players=2, render_mode="ansi")
    e.reset(seed=2)
    assert e.render() == str(e.unwrapped.state)
    copy = pickle.loads(pickle.dumps(e))
    copy.reset(seed=2)
    assert copy.unwrapped.state.to_dict() == e.unwrapped.state.to_dict()


# --- hidden information -------------------------------------------------------------
@pytest.mark.parametrize(("players", "grid", "seed"), [(3, "splitzkies", 1), (4, "squared", 2)])
def test_no_observation_shows_a_card_its_player_cannot_see(players, grid, seed):
    """Every observation of a seeded game, for every player, equals the one of a world in
    which every card that player cannot see is dealt again at random (the other players'
    trays and piles, the order of their own pile): it depends on nothing hidden."""
    e = raw_env(players=players, grid=grid)
    e.reset(seed=seed)
    views = ObservationEncoding(e.rules, e.encoding.radius)
    names = views.feature_names()
    rng = np.random.default_rng(seed)
    redealt = 0
    while not (any(e.terminations.values()) or any(e.truncations.values())):
        state = e.state
        for player, agent in enumerate(e.possible_agents):
            obs = e.observe(agent)
            world = BoxesState.from_observation(state.observation(player), seed=int(rng.integers(2**31)))
            redealt += any(world.tray(q) != state.tray(q) for q in range(players) if q != player)
            assert np.array_equal(obs["observation"], views.planes(world.observation(player)))
            assert np.array_equal(obs["features"], views.features(world.observation(player)))
            # Directly: the features name the observer's tray, never another player's.
            value = dict(zip(names, obs["features"].tolist(), strict=True))
            assert sorted(f for f, v in value.items() if f.startswith("tray:") and v) == [f"tray:{c}" for c in sorted(state.tray(player))]
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
    assert redealt  # the hidden cards did change, and the observations did not
