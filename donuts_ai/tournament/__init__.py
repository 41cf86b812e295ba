"""The tournament harness: matches between agents, game modes, ratings, SPRT, results.

    from donuts_ai import tournament
    results = tournament.run(["random", "greedy", "mcts:time=0.05"], game="donuts", games=4)  # fresh random set-ups
    print(results.table())

    # a free-for-all game: tables of 4 seats, every table in its 4 seat rotations
    results = tournament.run(["random", "greedy", "ismcts:time=0.1"], game="boxes", games=8,
                             config=tournament.HarnessConfig(players=4))
    print(results.table())  # Plackett-Luce ratings, first places by seat, the ledger of points and boxes

    # the settings as one object, kept and varied
    config = tournament.HarnessConfig(game="donuts", games=4, seed=1)
    results = tournament.run(["random", "greedy"], config=config)

See :func:`run` and :class:`HarnessConfig` for the settings; :class:`Results` for what comes back; :mod:`donuts_ai.game`
for what a game provides. The harness knows no game: it imports only the game contract, the
errors and the argument checks, and finds a game by name (``game="donuts"``,
``game="boxes"``: every call names its game) in the one table of games, which a game
joins with :func:`donuts_ai.register_game`.
"""

from ..game import Game, get_game
from ._shutdown import on_stop, stops_cleanly
from .config import ConfigError, HarnessConfig, Settings, make_config, parse_setups
from .engine_seat import EngineAgent, EngineFailure, EngineSeat
from .entries import AgentSource, source_of
from .match import PlaySettings, play_game
from .plackett_luce import fit_plackett_luce
from .records import Adjudication, Event, EventKind, GameRecord, RecordError, SeriesResult, UnitRecord
from .report import plot, text_report
from .results import AgentCodeError, Results, ResultsFileError, verify_file
from .runner import run
from .scheduling import Unit, schedule
from .seat_cache import close_seats
from .seats import Answer, LocalSeat, ProcessSeat, Seat
from .specs import EngineSpec, SpecError, make_agent, parse_engine_spec, register_agent, resolve
from .sprt import run_sprt
from .stats import Rating, RatingFit, fit_ratings, sprt
from .verify import Mismatch, Verification

__all__ = [
    "Adjudication",
    "AgentSource",
    "Answer",
    "ConfigError",
    "EngineAgent",
    "EngineFailure",
    "EngineSeat",
    "EngineSpec",
    "Event",
    "EventKind",
    "Game",
    "GameRecord",
    "HarnessConfig",
    "RecordError",
    "SeriesResult",
    "Settings",
    "Unit",
    "UnitRecord",
    "get_game",
    "register_agent",
    "LocalSeat",
    "ProcessSeat",
    "Seat",
    "close_seats",
    "Rating",
    "RatingFit",
    "Results",
    "ResultsFileError",
    "AgentCodeError",
    "on_stop",
    "stops_cleanly",
    "verify_file",
    "Verification",
    "Mismatch",
    "SpecError",
    "fit_plackett_luce",
    "fit_ratings",
    "make_agent",
    "make_config",
    "parse_engine_spec",
    "parse_setups",
    "PlaySettings",
    "play_game",
    "plot",
    "resolve",
    "run",
    "run_sprt",
    "schedule",
    "source_of",
    "sprt",
    "text_report",
]
