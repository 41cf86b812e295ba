"""The notebooks: stored executed (with their plots and tables, from ``make notebooks``),
built from ``notebooks/build_notebooks.py``, and they run from top to bottom with small
settings (DONUTS_NB_QUICK=1), printing the numbers they are about."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

FOLDER = Path(__file__).parents[2] / "notebooks"
NOTEBOOKS = sorted(FOLDER.glob("*.ipynb"))

#: What each notebook prints with the small settings: exact facts of the game (rules,
#: perft counts, the study's committed answer) and the shape of every measured line; never
#: a figure that a machine or the search's move ordering decides (timings, strengths, node
#: counts): those live in the stored notebooks' outputs and benchmarks/RESULTS.md.
QUICK_FIGURES = {
    "01_quick_start.ipynb": [
        r"legal after c3: \['e1', 'd2', 'b4', 'a5'\]",
        r"flips: \['b1', 'd1'\] - Outcome\(winner=0, reason=<Termination.FIVE",
        r"open pick: True - 30 legal moves",
        r"Solution\(value=1, distance=23, best_move='b6'",
        r"b6 win in 23 plies",
    ],
    "02_agents_compared.ipynb": [r"12 games, 6 units", r"random\s+0\s+\[0, 0\]\s+6", r"0\.001 s/move: MCTS scores [\d.]+/2"],
    "03_who_wins.ipynb": [
        r"24,576 classes standing for 98,304 arrangements: first player wins 24,576, draws 0, second player wins 0",
        r"50 classes: winning first moves min 5, median 9, max 14; drawing first moves in all: 10",
        r"sample rechecked",
        r"3 winning openings of 4 tried",
        r"\[25, 17, 27, 25\]",
        r"18 donuts each \(\{'insertion': 'group', 'donuts': 18\}\): (every class|[\d,]+ of 24,576 classes so far)",
        r"single insertion \(\{'insertion': 'single', 'donuts': 15\}\): (every class|[\d,]+ of 24,576 classes so far)",
    ],
    "04_search_speed.ipynb": [
        r"record: donuts_ai .+, quick, only playouts\+perft\+alphabeta\+vector_env, 2 runs, load average",
        r"perft depth 6 \(60,207 leaves\)\s+[\d.e+]+( [kMG])? leaves/s\s+[\d.e+]+( [kMG])? – [\d.e+]+( [kMG])?\s+2 × 3",
        r"alpha-beta depth 9, 6 positions \([\d,]+ nodes\)\s+[\d.e+]+( [kMG])? nodes/s",
        r"VectorEnv, 4096 games, observation read\s+[\d.e+]+( [kMG])? steps/s",
        r"all cores / 1 core \(playouts\)\s+[\d.e+]+( [kMG])?x",
        r"committed record benchmarks/records/bench-quick\.json\n  machine: .+ cores, .*Python .+\n  record: donuts_ai .+ runs, ",
        r"yours: donuts_ai .+, 2 runs, .+\n(machine: .+|committed machine: .+\nyours machine: .+\nthe records come from "
        r"different machines: each ratio .*)\nfigure\s+committed\s+yours\s+speed NEW/OLD \[interval\]\s+detects\s+verdict",
        r"perft depth 6\s+[\d.e+]+( [kMG])? leaves/s\s+[\d.e+]+( [kMG])? leaves/s\s+[\d.]+ \[[\d.]+, [\d.]+\]\s+"
        r"(±[\d.]+%|-)\s+(faster|slower|no difference \(within ±10%\)|inconclusive|starved: no verdict)",
        r"only in committed \(not compared\): .*MCTS, 1 worker",
        r"6 figures: \d+ faster, \d+ slower, \d+ no difference \(within ±10%\), \d+ inconclusive, \d+ starved",
        r"intervals: 95% family-wise over \d+ figures \(Holm\); over independent runs \(\d+ and 2\)",
    ],
    "05_batched_env.ipynb": [
        r"VectorEnv: 2,048 random games on the standard layout, 56,832 steps",
        r"mean game length\s+22\.55",
        r"all within 4 standard errors: True",
        r"260 games, 5,675 positions",
        r"own 4\s+\+0\.\d+",
    ],
    "06_strength_vs_time.ipynb": [r"agreement mcts: \d+/12", r"mcts\s+T=0\.08\s+score"],
    "07_donut_boxes.ipynb": [r"=== 2 players: 6 games", r"random: 100 games a variant, greedy: 1"],
    "08_learning.ipynb": [r"40 decided positions, \d+ critical", r"raw policy keeps value\s+[\d.]+%",
                          r"az sims=8 keeps value\s+[\d.]+%", r"colour-swapped pairs", r"score [\d.]+%, 95% interval",
                          r"solver-wdl\s+\d+\s+[\d.]+%"],
}

#: What the stored notebooks show with the full settings: exact facts and the shape of
#: each measured line (not its value, which another machine or a harmless change to move
#: ordering would change).
STORED_FIGURES = {
    "01_quick_start.ipynb": [r"b6 win in 23 plies"],
    "02_agents_compared.ipynb": [r"48 games, 24 units", r"0\.05 s/move: MCTS scores"],
    "03_who_wins.ipynb": [r"first player wins 24,576, draws 0, second player wins 0", r"10 winning openings of 36 tried",
                          r"max 14; drawing first moves in all: 10", r"18 donuts each \(.*\): (every class|[\d,]+ of 24,576)",
                          r"single insertion \(.*\): (every class|[\d,]+ of 24,576)"],
    "04_search_speed.ipynb": [
        r"(?m)^record: donuts_ai .+, quick, 3 runs, load average",
        r"perft depth 6 \(60,207 leaves\)\s+[\d.e+]+( [kMG])? leaves/s\s+[\d.e+]+( [kMG])? – [\d.e+]+( [kMG])?\s+3 × 3",
        r"solver, value of the empty random_grid\(0\) \([\d,]+ nodes, value win, move \w+\)",
        r"engine / pure-Python reference \(playouts\)\s+[\d.e+]+( [kMG])?x",
        r"committed record benchmarks/records/bench-quick\.json\n  machine: .+ cores, .*Python .+\n  record: donuts_ai .+ runs, ",
        r"yours: donuts_ai .+, 3 runs, .+\n(machine: .+|committed machine: .+\nyours machine: .+\nthe records come from "
        r"different machines: each ratio .*)\nfigure\s+committed\s+yours\s+speed NEW/OLD \[interval\]\s+detects\s+verdict",
        r"MCTS, 1 worker, empty board\s+[\d.e+]+( [kMG])? iterations/s\s+[\d.e+]+( [kMG])? iterations/s\s+[\d.]+ \[",
        r"\d+ figures: \d+ faster, \d+ slower, \d+ no difference \(within ±10%\), \d+ inconclusive, \d+ starved",
        r"intervals: 95% family-wise over \d+ figures \(Holm\); over independent runs \(\d+ and 3\)",
    ],
    "05_batched_env.ipynb": [r"204,800 random games", r"all within 4 standard errors: True", r"held-out accuracy"],
    "06_strength_vs_time.ipynb": [r"agreement mcts: \d+/1000", r"alphabeta T=1\.6\s+score [\d.]+%"],
    "07_donut_boxes.ipynb": [r"=== 2 players: 48 games", r"ismcts:simulations=1000\s+\d+", r"[\d.]+% of 1200"],
    "08_learning.ipynb": [r"400 decided positions", r"az sims=400 keeps value\s+[\d.]+%", r"score [\d.]+%, 95% interval"],
}


def _builder():
    spec = importlib.util.spec_from_file_location("build_notebooks", FOLDER / "build_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _text(nb) -> str:
    """Everything the code cells printed or returned as text."""
    out = []
    for cell in nb.cells:
        for o in cell.get("outputs", []) if cell.cell_type == "code" else []:
            if o.get("output_type") == "stream":
                out.append(o.get("text", ""))
            elif "data" in o:
                out.append(o["data"].get("text/plain", ""))
    return "\n".join(out)


def test_the_notebooks_are_all_there():
    assert [p.name[:2] for p in NOTEBOOKS] == ["01", "02", "03", "04", "05", "06", "07", "08"]
    assert set(QUICK_FIGURES) == set(STORED_FIGURES) == {p.name for p in NOTEBOOKS}


def test_the_stored_notebooks_are_the_built_ones():
    """Edit ``build_notebooks.py``, then ``make notebooks``: the stored cells are its cells."""
    builder = _builder()
    assert sorted(builder.NOTEBOOKS) == [p.name for p in NOTEBOOKS]
    for path in NOTEBOOKS:
        stored = nbformat.read(path, as_version=4)
        built = builder.notebook(path.name)
        assert [(c.cell_type, c.source) for c in stored.cells] == [(c.cell_type, c.source) for c in built.cells], path.name


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_stored_notebooks_are_executed(path):
    """Stored with their outputs, from one run top to bottom with the full settings."""
    nb = nbformat.read(path, as_version=4)
    cells = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.execution_count for c in cells] == list(range(1, len(cells) + 1))
    outputs = [o for c in cells for o in c.outputs]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    plots = sum(c.source.count("plt.show()") for c in cells)
    assert sum("image/png" in o.get("data", {}) for o in outputs) == plots
    text = _text(nb)
    for pattern in STORED_FIGURES[path.name]:
        assert re.search(pattern, text), pattern


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_and_prints_its_figures(path, monkeypatch, tmp_path):
    monkeypatch.setenv("DONUTS_NB_QUICK", "1")
    monkeypatch.setenv("DONUTS_NB_DATA", str(FOLDER))  # the committed results files the notebooks read
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = _text(nb)
    for pattern in QUICK_FIGURES[path.name]:
        assert re.search(pattern, text), f"{pattern!r} not in the output of {path.name}:\n{text}"
