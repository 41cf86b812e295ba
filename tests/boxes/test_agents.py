"""The Donut Boxes agents: legal moves under every variant, determinism, hidden information
kept hidden, the greedy rule on a hand-built layout, ISMCTS against random, option checks,
and the compiled helpers (determinisation, move values, rewards) against plain Python."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from numba import njit

from donuts_ai.boxes import CARD_TYPES, DECK_SIZE, BoxesRules, BoxesState
from donuts_ai.boxes import _kernels as E
from donuts_ai.boxes.agents import (
    AGENTS,
    BoxesAgentError,
    GreedyAgent,
    ISMCTSAgent,
    RandomAgent,
)
from donuts_ai.boxes.agents._search import (
    CARD_QUADRANTS,
    REWARD_RANK,
    REWARD_SCORE,
    V_BOX_LEAD,
    V_BOX_POINTS,
    V_OTHERS,
    V_OWN,
    V_POTENTIAL,
    move_values,
    redeal_hidden,
    rewards,
)
from donuts_ai.boxes.moves import move_text, place_code
from donuts_ai.errors import AgentError, DonutsError, GameOverError

TYPE = {face: i for i, face in enumerate(CARD_TYPES)}


def _play_game(rules: BoxesRules, seed: int, agents, max_moves: int | None = None) -> tuple[BoxesState, list[str]]:
    """A game (or its first ``max_moves``) with ``agents[p]`` answering player p's observation;
    every answer is checked legal before it is played."""
    state = BoxesState(rules, seed)
    moves = []
    while not state.is_game_over() and (max_moves is None or len(moves) < max_moves):
        p = state.turn
        move = agents[p].select_move(state.observation(p))
        assert state.is_legal(move), (rules, seed, p, move)
        state.push(move)
        moves.append(move)
    return state, moves


def _world(state: BoxesState):
    return state.kernel_state()


# --- legality under every variant and player count -------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_agent_plays_only_legal_moves_under_every_variant(players):
    for v, rules in enumerate(BoxesRules.all_variants(players)):
        kinds = [RandomAgent(seed=v), GreedyAgent(seed=v), ISMCTSAgent(simulations=4, seed=v)]
        agents = [kinds[(p + v) % 3] for p in range(players)]
        state, moves = _play_game(rules, 100 * players + v, agents)
        data = state.to_dict()
        # Over either after the last draw (every pile played out) or on a dead layout (D14:
        # a round of stuck turns with no card fitting anywhere, common under Perfect Match).
        ran_out = data["trigger"] is not None and len(moves) >= players * (DECK_SIZE - 4)
        dead = data["trigger"] is None and data["stuck_streak"] == players
        assert state.is_game_over() and (ran_out or dead), (rules, len(moves))


#: Whole games of random players only: every player count (2 to 6) twice and every variant
#: at least once. Every (player count, variant) pair already has a whole game above, with a
#: random player in most of them. A move costs milliseconds (the agent rebuilds a state from the
#: observation), so more games than this buy little but time.
RANDOM_GAMES = 10


def test_many_random_games_stay_legal():
    for seed in range(RANDOM_GAMES):
        players = 2 + seed % 5
        rules = BoxesRules.all_variants(players)[seed % 8]
        state, _ = _play_game(rules, seed, [RandomAgent(seed=seed + p) for p in range(players)])
        assert state.is_game_over()


def test_tiny_budgets_still_answer_a_legal_move():
    rules = BoxesRules(4, "splitzkies", "perfect")
    agents = [ISMCTSAgent(time_limit=0.001, seed=1), ISMCTSAgent(simulations=1, seed=2),
              ISMCTSAgent(time_limit=0.001, simulations=3, seed=3, prior=False), ISMCTSAgent(simulations=1, seed=4, prior=False)]
    state, moves = _play_game(rules, 9, agents, max_moves=24)
    assert len(moves) == 24
    for agent in agents:
        assert agent.last_info["iterations"] >= 1 or agent.last_info == {}
    # In a timed game the clock caps the budget; a spent clock still gets one iteration.
    timed = ISMCTSAgent(time_limit=5.0, seed=1)
    assert state.is_legal(timed.select_move(state.observation(state.turn), time_left=0.0))
    assert timed.last_info["iterations"] >= 1


# --- determinism and hidden information --------------------------------------------------------


def _three_agents(seed):
    return [ISMCTSAgent(simulations=30, seed=seed), GreedyAgent(seed=seed + 1), RandomAgent(seed=seed + 2)]


def test_the_same_seed_plays_the_same_moves():
    rules = BoxesRules(3, "splitzkies")
    _, first = _play_game(rules, 4, _three_agents(7), max_moves=30)
    _, again = _play_game(rules, 4, _three_agents(7), max_moves=30)
    assert first == again
    agents = _three_agents(7)
    _play_game(rules, 5, agents, max_moves=10)  # the streams move on ...
    for agent in agents:
        agent.reset()  # ... and restart from the agents' seeds
    assert _play_game(rules, 4, agents, max_moves=30)[1] == first
    for agent in agents:
        agent.reset(7)
    _, other = _play_game(rules, 4, agents, max_moves=30)
    assert other != first  # reset(seed) reseeds: another stream, other choices


def test_agents_see_only_the_observation():
    """Two states that differ only in what player p cannot see get the same answer."""
    state = BoxesState(BoxesRules(3), 12)
    for k in range(9):
        state.push_id(state.random_move_id(k))
    p = state.turn
    other = BoxesState.from_observation(state.observation(p), seed=99)
    assert other.observation(p) == state.observation(p)
    assert other.to_dict()["trays"] != state.to_dict()["trays"]  # the hidden cards do differ
    for make in (lambda: ISMCTSAgent(simulations=40, seed=3), lambda: GreedyAgent(seed=3), lambda: RandomAgent(seed=3)):
        assert make().select_move(state) == make().select_move(other)
        assert make().select_move(state) == make().select_move(state.observation(p))


# --- greedy --------------------------------------------------------------------------------------


def _sealing_position() -> BoxesState:
    """Player 0 to move; placing HHHC turned twice (face CHHH) at 2,2 seals the run of
    four Chocolate quadrants in the middle, three of them player 0's: 4 points.

        rows 0..3, columns -2..3 (start card HHHC at 0,0; C = the run to seal)

            H H | H H | S S
            H H | H C | C S
            H H | B C | . .
            H B | B B | . .
    """
    cards = [
        [-1, TYPE["HHHC"], 0, 0, 0, 0],  # the start card (neutral)
        [0, TYPE["SSSC"], 1, 0, 2, 0],  # face SSCS: its C touches the start card's C
        [1, TYPE["HHHH"], 0, 0, -2, 0],
        [0, TYPE["BBBC"], 3, 2, 0, 0],  # face BCBB
        [1, TYPE["HHHB"], 0, 2, -2, 0],
    ]
    trays = [sorted([TYPE["HHHC"], TYPE["CCCC"], TYPE["SSHH"], TYPE["BBBB"]]),
             sorted([TYPE["SSSS"], TYPE["CCCS"], TYPE["HHBB"], TYPE["BBBS"]])]
    piles = []
    for q in range(2):
        used = {t for owner, t, *_ in cards if owner == q} | set(trays[q])
        piles.append([t for t in range(DECK_SIZE) if t not in used])
    moves = [move_text(place_code(r, c, t, rot, f)) for _, t, rot, r, c, f in cards[1:]]
    return BoxesState.from_dict({
        "rules": BoxesRules(2).to_dict(), "to_move": 0, "cards": cards, "frozen": [], "scores": [0, 0],
        "boxes": [0, 0], "trays": trays, "piles": piles, "pile_known": [0, 0], "trigger": None,
        "final_turns_left": 0, "stuck_streak": 0, "over": False, "moves": moves,
    })


def _points_of_every_move(state: BoxesState) -> dict[str, int]:
    out = {}
    for move in state.legal_moves():
        copy = state.copy()
        out[move] = copy.push(move)["points"]
    return out


def test_greedy_takes_the_move_that_scores_now():
    state = _sealing_position()
    points = _points_of_every_move(state)
    # Any card at 2,2 closes the ring; CHHH makes it four Chocolates, the most points a
    # placement scores. Boxing the Blueberry run early scores 4 as well, but a run of 4
    # is below the box-early rule's 10 points.
    placements = sorted((p, m) for m, p in points.items() if not m.startswith("box@"))
    assert placements[-1] == (4, "CHHH@2,2") and placements[-2][0] == 3
    assert points["box@2,0"] == 4
    for seed in range(5):
        assert GreedyAgent(seed=seed).select_move(state) == "CHHH@2,2"
    # ISMCTS tries the greedy move first: on one iteration it plays it.
    assert ISMCTSAgent(simulations=1, seed=0).select_move(state) == "CHHH@2,2"
    after = state.copy()
    after.push("CHHH@2,2")
    assert after.scores == [4, 0] and after.boxes_delivered == [1, 0]


def test_greedy_boxes_early_only_by_its_rule():
    """Every box-early move a greedy player makes is worth ``box_points`` and at risk."""
    boxed = 0
    for seed in range(6):
        players = 2 + seed % 3
        rules = BoxesRules.all_variants(players)[seed]
        agents = [GreedyAgent(seed=seed + p, box_points=3 + 2 * (p % 2)) for p in range(players)]
        state = BoxesState(rules, seed)
        while not state.is_game_over():
            p = state.turn
            move = agents[p].select_move(state.observation(p))
            if move.startswith("box@"):
                t, grid = _world(state)
                codes = np.array([state.move_id(move)], dtype=np.int64)
                row = move_values(t, grid, codes, E.empty_tables(players))[0]
                assert row[V_BOX_POINTS] >= agents[p].box_points, (move, row)
                assert rules.closers or row[V_BOX_LEAD] <= CARD_QUADRANTS, (move, row)
                boxed += 1
            state.push(move)
    assert boxed > 0


def test_greedy_beats_random():
    wins = 0
    for g in range(6):
        agents = [GreedyAgent(seed=g), RandomAgent(seed=g)] if g % 2 == 0 else [RandomAgent(seed=g), GreedyAgent(seed=g)]
        state, _ = _play_game(BoxesRules(2), 50 + g // 2, agents)
        wins += state.ranking()[g % 2] == 0
    assert wins >= 5


# --- ISMCTS against random -------------------------------------------------------------------------


def _wilson_lower(successes: float, n: int, z: float = 1.96) -> float:
    p = successes / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - margin) / (1 + z * z / n)


def test_ismcts_beats_random_clearly():
    """16 two-player games, seats swapped on each deal: the lower end of the 95% interval of
    ISMCTS's share of wins (ties half) must lie above 1/2."""
    share = 0.0
    games = 16
    for g in range(games):
        seat = g % 2
        agents = [RandomAgent(seed=g), RandomAgent(seed=g)]
        agents[seat] = ISMCTSAgent(simulations=32, seed=g)
        state, _ = _play_game(BoxesRules(2), 700 + g // 2, agents)
        places = state.ranking()
        share += 1.0 if places[seat] < places[1 - seat] else 0.5 if places[seat] == places[1 - seat] else 0.0
    assert _wilson_lower(share, games) > 0.5, share


def test_ismcts_statistics_of_a_move():
    state = BoxesState(BoxesRules(4), 3)
    agent = ISMCTSAgent(simulations=50, seed=1)
    move = agent.select_move(state)
    info = agent.last_info
    assert state.is_legal(move) and info["iterations"] == 50 and info["calls"] == 1
    assert 1 <= info["root_children"] <= info["root_moves"] == len(state.legal_moves())
    assert info["nodes"] <= 51  # at most one node an iteration, and the root
    # With progressive widening a short search holds few root moves; without, one per iteration.
    wide = ISMCTSAgent(simulations=50, seed=1, prior=False)
    wide.select_move(state)
    assert wide.last_info["root_children"] == min(50, info["root_moves"])
    assert info["root_children"] < wide.last_info["root_children"]


def test_ismcts_figures_reach_the_harness_as_every_searching_agent_s_do():
    # The harness reads an agent's last_info (its nodes go into answers and evaluation files).
    from donuts_ai.game import get_game
    from donuts_ai.tournament.seats import LocalSeat

    state = BoxesState(BoxesRules(3), 2)
    seat = LocalSeat(ISMCTSAgent(simulations=40, seed=1))
    answer = seat.ask(get_game("boxes"), state, state.turn, None, None)
    assert state.is_legal(answer.move) and answer.nodes is not None and 1 <= answer.nodes <= 41


# --- options and views ------------------------------------------------------------------------------


def test_the_registry_and_specs():
    from donuts_ai.tournament import SpecError, get_game, make_agent

    assert set(AGENTS) == {"random", "greedy", "ismcts"}
    game = get_game("boxes")
    agent = make_agent("ismcts:time=0.05,seed=3", game=game)
    assert isinstance(agent, ISMCTSAgent) and agent.time_limit == 0.05 and agent.simulations is None
    assert agent.spec == "ismcts:time_limit=0.05,seed=3"
    assert make_agent("greedy", seed=4, game=game).seed == 4
    assert ISMCTSAgent().time_limit == 1.0  # the default budget
    for spec, message in [("ismcts:simulations=0", "simulations must be a positive int"),
                          ("ismcts:depth=3", "unknown parameter 'depth'"),
                          ("greedy:box_points=2", "box_points must be an int >= 3"),
                          ("ismcts:reward=wins", "reward must be one of rank, score")]:
        with pytest.raises(SpecError, match=message):
            make_agent(spec, game=game)


@pytest.mark.parametrize("kwargs, message", [
    (dict(time_limit=0), "time_limit must be a positive number of seconds"),
    (dict(time_limit=float("nan")), "time_limit must be a positive number of seconds"),
    (dict(time_limit="1"), "time_limit must be a positive number of seconds"),
    (dict(simulations=2.5), "simulations must be a positive int"),
    (dict(simulations=True), "simulations must be a positive int"),
    (dict(exploration=-1), "exploration must be a finite number >= 0"),
    (dict(exploration=float("inf")), "exploration must be a finite number >= 0"),
    (dict(reward=None), "reward must be one of"),
    (dict(prior=1), "prior must be True or False"),
    (dict(seed=-1), "seed must be an int >= 0"),
    (dict(seed="a"), "seed must be an int >= 0"),
    (dict(name=3), "name must be a str"),
])
def test_bad_options_are_refused_by_name(kwargs, message):
    with pytest.raises(BoxesAgentError, match=message):
        ISMCTSAgent(**kwargs)
    assert issubclass(BoxesAgentError, DonutsError) and issubclass(BoxesAgentError, ValueError)


def test_bad_views_are_refused():
    state = BoxesState(BoxesRules(3), 1)
    agent = GreedyAgent()
    with pytest.raises(BoxesAgentError, match="observation dict or a BoxesState"):
        agent.select_move("CCCC@2,0")
    with pytest.raises(BoxesAgentError, match="observation is player 1's but player 0 is to move"):
        agent.select_move(state.observation(1))
    with pytest.raises(AgentError, match="time_left must be None or a finite number of seconds >= 0"):
        agent.select_move(state, time_left="soon")
    while not state.is_game_over():
        state.push_id(state.random_move_id(len(state.move_stack)))
    with pytest.raises(GameOverError, match="the game is over"):
        agent.select_move(state)
    with pytest.raises(GameOverError, match="the game is over"):
        agent.select_move(state.observation(0))


# --- the compiled helpers ---------------------------------------------------------------------------


def _midgame(players: int, seed: int, moves: int, rules: BoxesRules | None = None) -> BoxesState:
    state = BoxesState(rules or BoxesRules(players), seed)
    for k in range(moves):
        if state.is_game_over():
            break
        state.push_id(state.random_move_id(seed * 1000 + k))
    return state


@njit
def _seed_numba(seed):
    np.random.seed(seed)  # compiled code draws from numba's own stream


def test_redealing_keeps_the_observation_and_deals_uniformly():
    state = _midgame(3, 5, 14)
    p = state.turn
    base = BoxesState.from_observation(state.observation(p), 0)
    obs = base.observation(p)
    hands = {q: sorted(base.to_dict()["trays"][q] + base.to_dict()["piles"][q]) for q in range(3)}
    seen = Counter()
    samples = 3000
    other = (p + 1) % 3
    _seed_numba(0)
    for _ in range(samples):
        world = base.copy()
        redeal_hidden(world.kernel_state()[0], p)
        data = world.to_dict()
        assert world.observation(p) == obs
        assert all(sorted(data["trays"][q] + data["piles"][q]) == hands[q] for q in range(3))
        seen.update(data["trays"][other])
    unplaced = hands[other]
    expected = samples * len(base.to_dict()["trays"][other]) / len(unplaced)
    sigma = math.sqrt(expected * (1 - len(base.to_dict()["trays"][other]) / len(unplaced)))
    for card in unplaced:
        assert abs(seen[card] - expected) < 5 * sigma, (card, seen[card], expected)
    assert set(seen) == set(unplaced)


def _reference_potentials(state: BoxesState) -> list[int]:
    """Open runs of 3 or more to their strict majority holder, from ``state.layout()`` alone."""
    cells = state.layout()
    out = [0] * state.num_players
    done = set()
    for pos, (flavour, _roll, _owner, frozen) in cells.items():
        if frozen or pos in done:
            continue
        run, stack = [], [pos]
        done.add(pos)
        while stack:
            r, c = stack.pop()
            run.append((r, c))
            for nxt in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if nxt in cells and nxt not in done and not cells[nxt][3] and cells[nxt][0] == flavour:
                    done.add(nxt)
                    stack.append(nxt)
        if len(run) < E.MIN_BOX:
            continue
        hold = Counter(cells[x][2] for x in run if cells[x][2] >= 0)
        if not hold:
            continue
        top = max(hold.values())
        leaders = [q for q, n in hold.items() if n == top]
        if len(leaders) == 1:
            out[leaders[0]] += len(run) * (2 if any(cells[x][1] for x in run) else 1)
    return out


@pytest.mark.parametrize("variant", range(8))
def test_move_values_agree_with_playing_each_move(variant):
    players = 2 + variant % 3
    rules = BoxesRules.all_variants(players)[variant]
    for seed, depth in ((variant, 20), (variant + 10, 45), (variant + 20, 70)):
        state = _midgame(players, seed, depth, rules)
        if state.is_game_over():
            continue
        p = state.turn
        codes = state.legal_move_ids()
        t, grid = _world(state)
        values = move_values(t, grid, codes, E.empty_tables(players))
        assert state.to_dict() == _midgame(players, seed, depth, rules).to_dict()  # unchanged
        for code, row in zip(codes, values, strict=True):
            copy = state.copy()
            delta = copy.push_id(code)["scores_delta"]
            assert row[V_OWN] == delta[p]
            assert row[V_OTHERS] == max(d for q, d in enumerate(delta) if q != p)
            pots = _reference_potentials(copy)
            assert row[V_POTENTIAL] == pots[p] - max(x for q, x in enumerate(pots) if q != p)
            assert (row[V_BOX_POINTS] >= 0) == move_text(int(code)).startswith("box@")


def test_rewards_rank_the_players_like_the_game():
    pinfo = np.zeros(4, E.PINFO_DTYPE)
    pinfo["score"] = [10, 5, 5, 0]
    pinfo["boxes"] = [1, 2, 1, 0]
    out = np.zeros(4)
    rewards(pinfo, 4, REWARD_RANK, out)
    assert out.tolist() == pytest.approx([1.0, 2 / 3, 1 / 3, 0.0])
    pinfo["boxes"] = [1, 1, 1, 0]
    rewards(pinfo, 4, REWARD_RANK, out)
    assert out.tolist() == pytest.approx([1.0, 0.5, 0.5, 0.0])
    rewards(pinfo, 4, REWARD_SCORE, out)
    assert out.tolist() == pytest.approx([1.0, 0.5, 0.5, 0.0])  # 0.5 * rank + 0.5 * score / best
    pinfo["score"] = [4, 8, 0, 0]  # player 2 is above player 3 on boxes delivered
    rewards(pinfo, 4, REWARD_SCORE, out)
    assert out.tolist() == pytest.approx([0.5 * 2 / 3 + 0.5 * 0.5, 1.0, 0.5 / 3, 0.0])
