"""The generic agents in every game's kinds: ``mcts``, ``alphabeta``, ``solver`` and ``random``
name a game's own agents where it has them, else the generic ones; ``generic-*`` names the
generic ones on every game; a game of hidden information refuses them, naming it; and
they play legal games, Donuts included, beside the compiled agents."""

from __future__ import annotations

import pytest

import examples.connect_four  # noqa: F401  (registers connect-four-python: a game written against 0.5's contract)
import examples.tic_tac_toe  # noqa: F401  (registers tic-tac-toe)
from donuts_ai import get_game
from donuts_ai import tournament as T
from donuts_ai.agents.generic import GenericAlphaBetaAgent, GenericMCTSAgent, GenericRandomAgent, GenericSolverAgent
from donuts_ai.tournament.specs import SpecError, resolve


def _class(spec: str, game: str) -> type:
    return resolve(spec, game)[0]


def test_short_names_are_the_game_s_own_agents_else_the_generic_ones():
    assert _class("mcts", "tic-tac-toe") is GenericMCTSAgent
    assert _class("alphabeta", "tic-tac-toe") is GenericAlphaBetaAgent
    assert _class("solver", "tic-tac-toe") is GenericSolverAgent
    assert _class("random", "tic-tac-toe") is GenericRandomAgent
    # Donuts and Connect Four keep their own; the generic ones are there under generic-.
    assert _class("mcts", "donuts").__module__.startswith("donuts_ai.donuts.")
    assert _class("random", "connect-four-python").__module__ == "examples.connect_four"
    assert _class("mcts", "connect-four-python") is GenericMCTSAgent
    # The package's compiled Connect Four: its own greedy and solver, the generic ones for the rest.
    assert _class("greedy", "connect-four").__module__ == "donuts_ai.connect_four.agents"
    assert _class("random", "connect-four") is GenericRandomAgent
    for game in ("donuts", "connect-four", "connect-four-python", "tic-tac-toe"):
        assert _class("generic-mcts", game) is GenericMCTSAgent
        assert _class("generic-solver", game) is GenericSolverAgent


def test_boxes_keeps_its_own_agents_and_refuses_the_generic_searches_naming_hidden_information():
    for kind in ("ismcts", "greedy", "random"):
        assert _class(kind, "boxes").__module__.startswith("donuts_ai.boxes.")
    for spec in ("generic-mcts", "mcts", "alphabeta:depth=2", "generic-solver"):
        with pytest.raises(SpecError, match="hidden information"):
            resolve(spec, "boxes")


def test_a_spec_cannot_set_the_game_and_an_agent_that_takes_one_gets_the_game_played():
    with pytest.raises(SpecError, match="'game' is not a spec parameter"):
        resolve("mcts:game=donuts", "tic-tac-toe")
    agent = T.make_agent("alphabeta:depth=3", 1, game="tic-tac-toe")
    assert agent.game is get_game("tic-tac-toe")  # its heuristic and key are the game's
    assert agent.spec == "generic-alphabeta:depth=3,seed=1"  # the game is not part of the spec


def test_generic_searches_play_legal_games_of_donuts_beside_the_compiled_agents():
    results = T.run(["generic-mcts:simulations=20", "generic-alphabeta:depth=1", "alphabeta:depth=1"], game="donuts",
                    games=2, seed=3, workers=1, isolation="none")
    assert len(results.games) == 6
    assert all(game.reason not in ("illegal move", "exception", "time") for game in results.games)


def test_a_game_written_against_the_0_5_contract_plays_the_generic_searches():
    results = T.run(["mcts:simulations=200", "alphabeta:depth=3", "greedy"], game="connect-four-python", games=2, seed=2,
                    workers=1, isolation="none")
    assert all(game.reason in ("four", "full board") for game in results.games)
