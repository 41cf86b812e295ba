"""The interop benchmark's search figures at equal settings (issue 56):
``python -m benchmarks.interop`` times our MCTS (prover off, the main line; prover
on), OpenSpiel's Python ``MCTSBot`` and its C++ ``MCTSBot`` on the Python game, and the
C++ ``MCTSBot`` on connect_four, every bot with the same simulations a search, the same
UCT constant and one random rollout a leaf.

Structure only, at tiny budgets (seconds): no speed is asserted (benchmarks are not tests).
"""

from __future__ import annotations

import pytest

from benchmarks import interop
from donuts_ai.bench import record


@pytest.fixture
def tiny(monkeypatch):
    """Repeats of 10 ms, so that a test takes seconds."""
    monkeypatch.setattr(interop, "REPEAT_SECONDS", 0.01)


def test_every_bot_searches_with_the_same_settings_and_ours_without_its_prover_first(tiny, capsys):
    pytest.importorskip("pyspiel", reason="the OpenSpiel figures need the spiel extra")
    figures = interop.search_figures(20, repeats=2)
    positions = len(interop.PLIES)
    assert len(figures) == positions * len(interop.SEARCHERS) + 1  # and connect_four once
    # Every figure: the same budget, UCT constant and rollouts, in its parameters and its name.
    settings = interop.settings_text(20)
    for figure in figures:
        p = figure.params
        assert (p["simulations"], p["uct_c"], p["rollouts"], p["solver_backups"]) == (20, interop.UCT_C, 1, "on"), figure.name
        assert figure.work_unit == "simulation" and len(figure.values) == 2 and all(v > 0 for v in figure.values)
        assert "20 simulations" in figure.name and f"uct_c {interop.UCT_C:g}" in figure.name and "1 random rollout" in figure.name
        assert figure.name == interop.figure_name(interop.Searcher(str(p["bot"]), str(p["game"]), p["prover"] == "on"),
                                                  int(p["plies"]), 20)
        if p["bot"] == interop.OURS:
            # Ours counts rewards in [0, 1]: half OpenSpiel's constant is the same UCT score.
            assert p["exploration"] == interop.UCT_C / 2 == interop.our_exploration(interop.UCT_C)
            assert p["proof_share"] == (0.0 if p["prover"] == "off" else pytest.approx(0.2))
        else:
            assert settings in figure.name and p["prover"] == "off" and "open_spiel" in p
    # The main line (ours, prover off) opens each position's figures; then ours with it on, then OpenSpiel's.
    for i, plies in enumerate(interop.PLIES):
        block = figures[i * len(interop.SEARCHERS):(i + 1) * len(interop.SEARCHERS)]
        assert [(f.params["bot"], f.params["game"], f.params["prover"]) for f in block] == [
            ("ours", "donuts", "off"), ("ours", "donuts", "on"), ("openspiel-python", "python_donuts", "off"),
            ("openspiel-cpp", "python_donuts", "off")]
        assert {f.params["plies"] for f in block} == {plies} and len({f.params["fen"] for f in block}) == 1
        assert block[0].name.startswith("our MCTS, prover off, ") and block[1].name.startswith("our MCTS, prover on, ")
    last = figures[-1]
    assert (last.params["bot"], last.params["game"]) == ("openspiel-cpp", "connect_four") and "connect_four, empty board" in last.name
    assert "simulations/s" in capsys.readouterr().out


def test_the_ratios_are_derived_per_position_between_figures_of_the_same_settings():
    """Made-up times with a known truth: ours 1 µs a simulation, the C++ bot 100 µs, the Python bot 300 µs."""
    seconds = {"ours": 1e-6, "openspiel-cpp": 1e-4, "openspiel-python": 3e-4}
    figures = []
    for plies in interop.PLIES:
        for searcher in interop.SEARCHERS:
            figures.append(record.Figure(interop.figure_name(searcher, plies, 100), "simulation", [seconds[searcher.bot]] * 3,
                                         interop.figure_params(searcher, plies, 100)))
    figures.append(record.Figure(interop.figure_name(interop.CONNECT_FOUR_SEARCHER, 0, 100), "simulation", [1e-5] * 3,
                                 interop.figure_params(interop.CONNECT_FOUR_SEARCHER, 0, 100)))
    # Another budget's figure of the Python bot: never a ratio against the others.
    other = interop.SEARCHERS[2]
    figures.append(record.Figure(interop.figure_name(other, 0, 50), "simulation", [1.0] * 3, interop.figure_params(other, 0, 50)))
    ratios = {name: ratio for name, ratio, _low, _high in interop.search_ratios(record.suite_of(figures, "test", "test", 0.0))}
    assert len(ratios) == len(interop.RATIOS) * len(interop.PLIES)
    for plies in interop.PLIES:
        where = "standard layout, empty board" if plies == 0 else f"standard layout after {plies} random plies"
        assert ratios[f"our MCTS / OpenSpiel Python MCTSBot, {where}, 100 simulations"] == pytest.approx(300)
        assert ratios[f"our MCTS / OpenSpiel C++ MCTSBot (Python game), {where}, 100 simulations"] == pytest.approx(100)
        assert ratios[f"OpenSpiel C++ MCTSBot / OpenSpiel Python MCTSBot (Python game), {where}, 100 simulations"] == pytest.approx(3)
    assert not any("connect_four" in name or "prover on" in name for name in ratios)  # a scale, not a ratio


