"""Running an SPRT between two agents: colour-swapped pairs until the test decides."""

from __future__ import annotations

from typing import Unpack

from .._checks import check_int
from ..errors import DonutsError
from ._shutdown import stops_cleanly
from .config import SPRT_FIELDS, HarnessConfig, Settings, resolve, tournament_config
from .match import score_of
from .preflight import preflight
from .progress import ProgressBar
from .runner import play_unit, work_config
from .scheduling import schedule
from .seat_cache import close_seats
from .stats import SPRTState, pair_category, sprt

#: The most pairs an SPRT plays by default before it stops undecided.
DEFAULT_MAX_PAIRS = 2000


@stops_cleanly  # SIGTERM and SIGHUP stop it as Ctrl-C does: every seat is closed
def run_sprt(agent_a: object = None, agent_b: object = None, elo0: float = 0.0, elo1: float = 20.0, alpha: float = 0.05,
             beta: float = 0.05, *, max_pairs: int = DEFAULT_MAX_PAIRS, config: HarnessConfig | None = None,
             **settings: Unpack[Settings]) -> tuple[SPRTState, int]:
    """Test "A is at least ``elo1`` Elo stronger than B" (H1) against "``elo0``" (H0).

    Colour-swapped pairs on the same set-up are played until the SPRT decides, or
    ``max_pairs`` pairs. The settings are keywords or a config as for
    :func:`~.runner.run`; an SPRT uses ``game`` (a two-sided game), ``setups``, ``seed``,
    ``rules``, ``clock``, ``illegal``, ``move_limit``, ``ledger``, ``isolation`` and
    ``progress`` (a callable is called with ``(state, pairs played)`` after every pair),
    and refuses the others.

    Args:
        agent_a: a spec, an agent object or an agent class (:mod:`.entries`); ``None``
            with ``agent_b``: the config's two ``agents``.
        agent_b: its opponent, likewise.
        elo0: the Elo difference of H0.
        elo1: the Elo difference of H1.
        alpha: the test's false-positive rate.
        beta: the test's false-negative rate.
        max_pairs: the most pairs played before it stops undecided.
        config: the settings (:class:`~.config.HarnessConfig`).
        **settings: settings as keywords (:class:`~.config.Settings`), completing ``config``.

    Returns:
        (the final :class:`~.stats.SPRTState`, pairs played).

    Raises:
        ConfigError: a keyword contradicts ``config``, or sets what an SPRT does not use.
        DonutsError: not two agents, or a setting the game refuses.
    """
    sprt([0] * 5, elo0, elo1, alpha, beta)  # checks the parameters
    pairs = check_int("max_pairs", max_pairs, minimum=1)
    assert pairs is not None  # not allow_none
    if (agent_a is None) != (agent_b is None):
        raise DonutsError("an SPRT needs two agents: give agent_a and agent_b")
    agents = None if agent_a is None else [agent_a, agent_b]
    settings_ = resolve(config, agents, settings, entry="run_sprt", uses=SPRT_FIELDS)
    if len(settings_.agents) != 2:
        raise DonutsError(f"an SPRT needs two agents, got {len(settings_.agents)}")
    # Pairs on the same set-up: a round robin of two agents, 2 * pairs games.
    plan = settings_.replace(format="round-robin", games=2 * pairs, mode="pairs")
    config_line = work_config(tournament_config(plan), settings_.sources)
    preflight(settings_.sources, config_line["game"])  # every agent built once: a bad value stops it before any pair
    progress = settings_.progress if callable(settings_.progress) else None
    bar = ProgressBar(pairs, 0, settings_.progress is True, desc="SPRT", unit="pair")  # stops when decided: at most
    counts = [0] * 5
    state = sprt(counts, elo0, elo1, alpha, beta)
    played = 0
    try:
        for unit in schedule(config_line):
            result = play_unit(config_line, unit)
            a = unit["names"][0]
            score = sum(score_of(g, g["names"].index(a)) for g in result["games"])
            counts[pair_category(score)] += 1
            played += 1
            state = sprt(counts, elo0, elo1, alpha, beta)
            if progress is not None:
                progress(state, played)
            bar.update(LLR=f"{state.llr:+.2f} [{state.lower:.2f}, {state.upper:.2f}]",
                       pentanomial=" ".join(map(str, state.pentanomial)))
            if state.decision is not None:
                break
    finally:
        bar.close()
        close_seats()
    return state, played
