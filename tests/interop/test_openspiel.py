"""The OpenSpiel game python_donuts (donuts_ai.interop.openspiel): OpenSpiel's own
random simulation test, parameters, observations and information states, our agents
as pyspiel bots, and OpenSpiel's MCTSBot as a tournament agent."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from donuts_ai import Board, Layout, LayoutError, Rules, RulesError
from donuts_ai.donuts.agents import OPTIONAL_AGENTS
from donuts_ai.donuts.squares import SQUARE_NAMES, parse_square
from donuts_ai.errors import DonutsError
from donuts_ai.interop import NUM_PLANES, InteropError, planes
from donuts_ai.tournament import SpecError, make_agent, resolve

SKIP_REASON = "the OpenSpiel game needs the spiel extra: pip install 'donuts_ai[spiel]'"


@pytest.fixture(scope="module")
def pyspiel():
    return pytest.importorskip("pyspiel", reason=SKIP_REASON)


@pytest.fixture(scope="module")
def dos(pyspiel):
    import donuts_ai.interop.openspiel as module

    return module


# --- OpenSpiel's checker --------------------------------------------------------------
@pytest.mark.parametrize("game_string", [
    "python_donuts",
    "python_donuts(layout_seed=7)",
    "python_donuts(layout=grid:3,insertion=single)",
    "python_donuts(donuts=20)",  # the board can fill: a majority end
    "python_donuts(donuts=2)",
])
def test_random_sim_test(pyspiel, dos, game_string):
    game = pyspiel.load_game(game_string)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_game_type_and_info(pyspiel, dos):
    game = pyspiel.load_game("python_donuts")
    t = game.get_type()
    assert t.short_name == "python_donuts"
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert t.provides_observation_tensor and t.provides_information_state_tensor
    assert game.num_distinct_actions() == 36 and game.num_players() == 2
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.max_game_length() == 30
    assert pyspiel.load_game("python_donuts(donuts=30)").max_game_length() == 36  # 36 squares
    assert game.observation_tensor_shape() == [NUM_PLANES, 6, 6]
    assert game.information_state_tensor_size() == NUM_PLANES * 36 + 30 * 36


# --- parameters -----------------------------------------------------------------------
def test_layout_parameters(pyspiel, dos):
    assert pyspiel.load_game("python_donuts").layout == Layout.standard()
    assert pyspiel.load_game("python_donuts(layout_seed=7)").layout == Layout.random(7)
    assert pyspiel.load_game("python_donuts(layout=random:7)").layout == Layout.random(7)
    assert pyspiel.load_game("python_donuts(layout=grid:2)").layout == Layout.random_grid(2)
    text = Layout.random(4).to_text()
    assert pyspiel.load_game("python_donuts", {"layout": text}).layout == Layout.random(4)
    assert pyspiel.load_game("python_donuts", {"layout": text.replace("\n", ",")}).layout == Layout.random(4)
    game = dos.load(Layout.random(4), Rules("single", 12))
    assert (game.layout, game.rules) == (Layout.random(4), Rules("single", 12))
    # The game string round-trips (the layout as 36 symbols, no commas).
    again = pyspiel.load_game(str(game))
    assert (again.layout, again.rules) == (game.layout, game.rules)
    assert dos.load("grid:5", "single", donuts=3).rules == Rules("single", 3)
    assert dos.load() is dos.load(Layout.standard(), Rules())  # cached per layout and rules


@pytest.mark.parametrize(("params", "error"), [
    ({"layout": "random"}, InteropError),  # a game is played on one layout
    ({"layout": "random:1:3"}, InteropError),
    ({"layout": "grid:1", "layout_seed": 2}, InteropError),
    ({"layout_seed": -5}, InteropError),
    ({"layout": "no-such-layout-file"}, LayoutError),
    ({"insertion": "sideways"}, RulesError),
    ({"donuts": 0}, RulesError),
    ({"donuts": 37}, RulesError),
])
def test_bad_parameters_raise_donuts_errors(pyspiel, dos, params, error):
    with pytest.raises(error):
        pyspiel.load_game("python_donuts", params)
    assert issubclass(error, DonutsError)


def test_load_refuses_drawn_layouts(dos):
    with pytest.raises(InteropError):
        dos.load("random")


# --- states, observations, information states ----------------------------------------
def test_a_game_follows_the_board(pyspiel, dos):
    game = dos.load(Layout.random(2))
    state = game.new_initial_state()
    board = Board(Layout.random(2))
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        assert state.current_player() == board.turn
        assert state.legal_actions() == board.legal_squares()
        assert state.legal_actions(1 - board.turn) == []
        action = int(rng.choice(state.legal_actions()))
        assert state.action_to_string(board.turn, action) == SQUARE_NAMES[action]
        state.apply_action(action)
        board.push(action)
        assert dos.board_of(state) == board
    winner = board.outcome().winner
    expected = [0.0, 0.0] if winner is None else [1.0, -1.0] if winner == 0 else [-1.0, 1.0]
    assert state.returns() == expected and state.current_player() == pyspiel.PlayerId.TERMINAL
    assert str(state) == str(board)


def test_observation_and_information_state(pyspiel, dos):
    game = dos.load()
    state = game.new_initial_state()
    for move in ("c3", "e3"):
        state.apply_action(parse_square(move))
    board = dos.board_of(state)
    for player in (0, 1):
        tensor = np.array(state.observation_tensor(player), dtype=np.float32)
        assert np.array_equal(tensor.reshape(NUM_PLANES, 6, 6), planes(board, player))
        assert state.observation_string(player) == board.fen()
        info = np.array(state.information_state_tensor(player), dtype=np.float32)
        assert np.array_equal(info[: NUM_PLANES * 36], tensor)
        history = info[NUM_PLANES * 36 :].reshape(30, 36)
        assert [int(np.flatnonzero(row)[0]) for row in history[:2]] == [parse_square("c3"), parse_square("e3")]
        assert not history[2:].any()
        assert state.information_state_string(player) == "c3 e3"
    # Clones are independent of the original.
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert len(state.history()) == 2 and dos.board_of(state) == board


def test_state_from_board(pyspiel, dos):
    board = Board(Layout.random(5))
    for _ in range(4):
        board.push(board.legal_moves()[-1])
    state = dos.state_from_board(board)
    assert state.history() == [parse_square(m) for m in board.move_stack]
    assert dos.board_of(state) == board and dos.board_of(state).move_stack == board.move_stack
    # A position without its moves: the OpenSpiel history starts there.
    mid = Board.from_fen(board.fen())
    state = dos.state_from_board(mid)
    assert state.history() == [] and dos.board_of(state) == board
    assert state.legal_actions() == board.legal_squares()
    with pytest.raises(InteropError):
        dos.state_from_board(board, dos.load())  # another layout
    with pytest.raises(TypeError):
        dos.board_of("not a state")


# --- agents both ways ----------------------------------------------------------------
def test_our_agents_as_pyspiel_bots_against_mctsbot(pyspiel, dos):
    from open_spiel.python.algorithms import evaluate_bots, mcts

    game = dos.load(Layout.random(1))
    rng = np.random.RandomState(3)
    mcts_bot = mcts.MCTSBot(game, 2.0, 20, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    ours = dos.DonutsBot("mcts:simulations=200", seed=1)
    assert isinstance(ours, pyspiel.Bot)
    for bots in ([ours, mcts_bot], [mcts_bot, dos.DonutsBot("greedy", seed=2)]):
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_donuts_bot_arguments(dos):
    from donuts_ai.donuts.agents import RandomAgent

    agent = RandomAgent(seed=4)
    assert dos.DonutsBot(agent).agent is agent
    with pytest.raises(SpecError):
        dos.DonutsBot("nosuch")
    with pytest.raises(InteropError):
        dos.DonutsBot(42)


def test_openspiel_mcts_as_a_tournament_agent(dos):
    cls, params = resolve("openspiel-mcts:simulations=50,exploration=1.5", game="donuts")
    assert cls is dos.OpenSpielMCTSAgent and params == {"simulations": 50, "exploration": 1.5}
    agent = make_agent("openspiel-mcts:simulations=50", seed=3, game="donuts")
    assert agent.spec == "openspiel-mcts:simulations=50,seed=3"
    board = Board()
    move = agent.select_move(board)
    assert board.is_legal(move) and board.ply == 0 and agent.last_info["sims"] == 50
    # Simulation-limited and seeded: the same move again.
    agent.reset()
    assert agent.select_move(board) == move
    with pytest.raises(SpecError, match="unknown parameter"):
        resolve("openspiel-mcts:iterations=5", game="donuts")


def test_openspiel_mcts_time_limit_and_clock(dos):
    agent = dos.OpenSpielMCTSAgent(time_limit=0.05, seed=1)
    board = Board(Layout.random(3))
    for _ in range(3):
        board.push(agent.select_move(board))
        assert agent.last_info["sims"] >= 1
    capped = dos.OpenSpielMCTSAgent(time_limit=5.0, simulations=30, seed=1)
    capped.select_move(board)
    assert capped.last_info["sims"] <= 30
    blitz = dos.OpenSpielMCTSAgent(simulations=None, time_limit=None)
    assert blitz.simulations == 1000  # the default limit
    blitz.select_move(board, time_left=0.2)  # a twentieth of the clock: a short search
    assert blitz.last_info["sims"] <= 1000


@pytest.mark.parametrize("kwargs", [{"simulations": 0}, {"simulations": 1}, {"simulations": 2.5}, {"time_limit": -1},
                                    {"time_limit": True}, {"exploration": -1}, {"rollouts": 0}, {"solve": "yes"},
                                    {"seed": "x"}])
def test_openspiel_mcts_bad_arguments(dos, kwargs):
    with pytest.raises(DonutsError):
        dos.OpenSpielMCTSAgent(**kwargs)


def test_a_tournament_with_openspiel_mcts(dos):
    from donuts_ai import tournament

    results = tournament.run(["openspiel-mcts:simulations=30", "random"], games=2, setups="standard", seed=1, workers=1,
                             isolation="none", game="donuts")
    games = results.games
    assert len(games) == 2 and {g.names[0] for g in games} == {"openspiel-mcts:simulations=30", "random"}


# --- without OpenSpiel --------------------------------------------------------------
def test_optional_kind_without_its_dependency_names_the_extra(monkeypatch):
    assert OPTIONAL_AGENTS["openspiel-mcts"] == ("donuts_ai.interop.openspiel:OpenSpielMCTSAgent", "spiel")
    for module in ("donuts_ai.interop.openspiel", "donuts_ai.interop._openspiel_game", "donuts_ai.interop._openspiel_agents"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(SpecError, match=r"openspiel-mcts needs an optional dependency: pip install 'donuts_ai\[spiel\]'"):
        resolve("openspiel-mcts:simulations=10", game="donuts")
    with pytest.raises(ImportError, match=r"donuts_ai\[spiel\]"):
        import donuts_ai.interop.openspiel  # noqa: F401


def test_unknown_agent_lists_the_optional_kinds():
    with pytest.raises(SpecError, match="openspiel-mcts"):
        resolve("nosuch", game="donuts")


def test_the_game_is_registered_once_donuts_ai_is_imported(pyspiel):
    import subprocess

    code = "import donuts_ai, pyspiel; print(pyspiel.load_game('python_donuts').get_type().short_name)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "python_donuts"
