"""Running an SPRT between two agents: colour-swapped pairs until the test decides."""

from __future__ import annotations

from collections.abc import Callable

from .._checks import check_int
from ._shutdown import stops_cleanly
from .entries import sources_of
from .game import score_of
from .runner import DEFAULT_MOVE_LIMIT, close_seats, make_config, play_unit, schedule, work_config
from .stats import SPRTState, pair_category, sprt


@stops_cleanly  # SIGTERM and SIGHUP stop it as Ctrl-C does: every seat is closed
def run_sprt(agent_a: object, agent_b: object, elo0: float = 0.0, elo1: float = 20.0, alpha: float = 0.05, beta: float = 0.05,
             layouts: object = None, seed: int = 0, max_pairs: int = 2000, rules: object = None,
             progress: Callable[[SPRTState, int], object] | None = None,
             *, game: str, move_limit: float | None = DEFAULT_MOVE_LIMIT, isolation: str = "process") -> tuple[SPRTState, int]:
    """Test "A is at least ``elo1`` Elo stronger than B" (H1) against "``elo0``" (H0) with
    colour-swapped pairs on the same set-up, stopping as soon as the SPRT decides or
    after ``max_pairs`` pairs, in ``game`` (a two-sided game: :mod:`.protocol`). Returns
    (final state, pairs played). Each agent is a spec, an agent object or an agent class
    (:mod:`.entries`), seated in a supervised process of its own (``isolation="none"``:
    called in this process, as in :func:`~.runner.run`); ``move_limit`` is the hard limit
    on one move, as there."""
    sprt([0] * 5, elo0, elo1, alpha, beta)  # checks the parameters
    pairs = check_int("max_pairs", max_pairs, minimum=1)
    assert pairs is not None  # not allow_none
    sources = sources_of([agent_a, agent_b], game)
    config = work_config(make_config(sources, "round-robin", 2 * pairs, layouts, seed, "pairs", rules=rules,
                                     move_limit=move_limit, isolation=isolation, game=game), sources)
    counts = [0] * 5
    state = sprt(counts, elo0, elo1, alpha, beta)
    played = 0
    try:
        for unit in schedule(config):
            result = play_unit(config, unit)
            a = unit["names"][0]
            score = sum(score_of(g, g["names"].index(a)) for g in result["games"])
            counts[pair_category(score)] += 1
            played += 1
            state = sprt(counts, elo0, elo1, alpha, beta)
            if progress is not None:
                progress(state, played)
            if state.decision is not None:
                break
    finally:
        close_seats()
    return state, played
