"""OpenSpiel's agents and ours, both ways (:class:`DonutsBot`, :class:`OpenSpielMCTSAgent`):
the agent half of :mod:`donuts_ai.interop.openspiel`, which names them. Apart from the game
so that registering the game (on ``import donuts_ai``, where OpenSpiel is installed) loads
no agent and none of OpenSpiel's algorithms."""

from __future__ import annotations

import time
from typing import TypedDict

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts as _mcts

from ..agents.base import SIMULATIONS, Agent, budget, check_exploration, check_flag, check_time_limit, positive_int
from ..donuts.agents.donuts_agent import DonutsAgent
from ..donuts.board import Board
from ..donuts.squares import SQUARE_NAMES, parse_square
from ..errors import AgentError
from ._openspiel_game import DonutsState, OpenSpielGame, board_of, load, state_from_board
from ._options import InteropError


class DonutsBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel has no type information
    """One of our agents as a ``pyspiel.Bot`` for OpenSpiel's tools (``evaluate_bots``,
    its arenas): ``agent`` is an :class:`~donuts_ai.agents.Agent` or an agent spec
    (``"mcts:time=0.1"``, ``"alphabeta:depth=6"``; ``seed`` is used unless the spec sets
    one). ``restart_at`` starts a new game (:meth:`Agent.reset`); ``step`` returns the
    agent's move as an action."""

    def __init__(self, agent: Agent | str, seed: int | None = None):
        pyspiel.Bot.__init__(self)
        if isinstance(agent, str):
            from ..tournament.specs import make_agent

            built: Agent = make_agent(agent, seed, game="donuts")
        else:
            built = agent
        if not callable(getattr(built, "select_move", None)):
            raise InteropError(f"DonutsBot needs an agent (with select_move) or an agent spec, got {type(built).__name__}")
        self.agent = built

    def restart_at(self, state: pyspiel.State) -> None:
        self.agent.reset()

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        pass

    def step(self, state: pyspiel.State) -> int:
        return parse_square(self.agent.select_move(board_of(state)))

    def provides_policy(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"DonutsBot({self.agent!r})"


#: Fewest simulations of a search: MCTSBot expands its root on the second one.
MIN_SIMS = 2
#: Simulations of the short search with which a time-limited :class:`OpenSpielMCTSAgent`
#: measures MCTSBot's speed on each position before its real search.
CALIBRATION_SIMS = 32
#: Default exploration constant of MCTSBot's UCT (``exploration``; OpenSpiel's own default ``uct_c``).
DEFAULT_EXPLORATION = 2.0


class OpenSpielMCTSInfo(TypedDict, total=False):
    """:attr:`OpenSpielMCTSAgent.last_info`: empty before the first move, then the last
    move's simulations (of its last search) and seconds."""

    sims: int
    seconds: float


class OpenSpielMCTSAgent(DonutsAgent):
    """OpenSpiel's ``MCTSBot`` (UCT, exploration constant ``exploration``, ``rollouts`` uniformly random
    rollouts per leaf, MCTS-Solver backups when ``solve``) as one of our agents: spec
    ``openspiel-mcts:simulations=1000``.

    Limits: ``simulations`` a move (default 1000 when no ``time_limit``), or
    ``time_limit`` seconds a move (capped in blitz at a twentieth of the clock left):
    ``MCTSBot`` has no clock, so a search of :data:`CALIBRATION_SIMS` simulations
    measures its speed on the position, and a second, fresh search gets the
    simulations that fit in the rest of the budget at that speed (``simulations`` then caps
    them); the time used is close to the budget, not bounded by it. The search stops
    early when MCTS-Solver proves the root. A seed fixes every move of a
    simulation-limited agent. No tactical pass: it is OpenSpiel's bot as it comes.
    ``last_info`` holds the last move's simulations (of its last search) and seconds.
    """

    kind = "openspiel-mcts"

    def __init__(self, simulations: int | None = None, time_limit: float | None = None, *,
                 exploration: float = DEFAULT_EXPLORATION, rollouts: int = 1, solve: bool = True,
                 seed: int | None = None, name: str | None = None):
        super().__init__(seed, name)
        #: Simulations a move (MCTSBot's ``max_simulations``); ``None``: timed.
        self.simulations = positive_int(SIMULATIONS, simulations)
        if self.simulations is not None and self.simulations < MIN_SIMS:
            raise AgentError(f"{SIMULATIONS} must be at least {MIN_SIMS} (MCTSBot expands its root on the second "
                             f"simulation), got {simulations}")
        self.time_limit = check_time_limit(time_limit)
        if self.simulations is None and self.time_limit is None:
            self.simulations = 1000
        self.exploration = check_exploration(exploration)
        self.rollouts = positive_int("rollouts", rollouts, allow_none=False)
        self.solve = check_flag("solve", solve)
        self.last_info: OpenSpielMCTSInfo = {}

    def params(self) -> dict[str, object]:
        p = {k: getattr(self, k) for k in (SIMULATIONS, "time_limit") if getattr(self, k) is not None}
        defaults = {"exploration": DEFAULT_EXPLORATION, "rollouts": 1, "solve": True}
        p |= {k: getattr(self, k) for k, v in defaults.items() if getattr(self, k) != v}
        return p | super().params()

    def _search(self, state: DonutsState, game: OpenSpielGame, sims: int) -> tuple[int, int]:
        """(the most visited move, simulations run: fewer than ``sims`` when the root is proven)."""
        random_state = np.random.RandomState(self.rng.getrandbits(32))
        evaluator = _mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts, random_state=random_state)
        bot = _mcts.MCTSBot(game, self.exploration, sims, evaluator, solve=self.solve, random_state=random_state)
        root = bot.mcts_search(state)
        return root.best_child().action, root.explore_count

    def _select(self, board: Board, time_left: float | None) -> str:
        start = time.perf_counter()
        game = load(board.layout, board.rules)
        state = state_from_board(board, game)
        seconds = budget(self.time_limit, time_left)
        if seconds is None:
            assert self.simulations is not None  # set when there is no time limit
            action, done = self._search(state, game, self.simulations)
        else:
            # MCTSBot has no clock: measure its speed on this position with a short
            # search, then give it the simulations that fit in the rest of the budget.
            calibration = CALIBRATION_SIMS if self.simulations is None else min(CALIBRATION_SIMS, self.simulations)
            t = time.perf_counter()
            action, done = self._search(state, game, calibration)
            rate = done / max(time.perf_counter() - t, 1e-6)
            left = seconds - (time.perf_counter() - start)
            sims = int(rate * left)
            if self.simulations is not None:
                sims = min(sims, self.simulations)
            if done >= calibration and sims > calibration:  # else the short search's move stands
                action, done = self._search(state, game, sims)
        self.last_info = {"sims": done, "seconds": time.perf_counter() - start}
        return SQUARE_NAMES[action]
