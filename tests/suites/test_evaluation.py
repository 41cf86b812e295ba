"""Accuracy against perfect play: the suite format, the shipped suites' labels re-checked
by other searches, and ``evaluate`` / ``donuts-ai evaluate`` (supervised, resumable)."""

from __future__ import annotations

import json
import random
import sys

import pytest

from donuts_ai import SQUARE_NAMES, Board, Layout, parse_square
from donuts_ai.cli import main as cli_main
from donuts_ai.donuts._kernels.position import position_of, rulebook_of
from donuts_ai.donuts.agents import AlphaBetaAgent
from donuts_ai.donuts.alphabeta.solver import Solver, _child
from donuts_ai.donuts.reference import ReferenceGame
from donuts_ai.errors import DonutsError
from donuts_ai.suites import SUITE_NAMES, Suite, SuiteError, evaluate, load_suite, parse_suite
from donuts_ai.suites.evaluation import EvaluationSettings, with_time
from donuts_ai.suites.format import CRITICAL, HEADER, PHASES, MoveLabel, make_suite, parse_position
from donuts_ai.suites.format import position_of as suite_position
from donuts_ai.suites.generate import label_position
from donuts_ai.tournament.records import DIGEST_KEY, line_digest
from donuts_ai.tournament.results import ResultsFileError

from ..evaluate_agents import MisbehavingAgent
from ..helpers import command_error

#: Decided positions each phase suite must hold.
DECIDED_AT_LEAST = 1000
#: Spec agents called as objects in this process (faster; unsupervised).
IN_PROCESS = EvaluationSettings(isolation="none")
#: The pure-Python reference searches endgames with at most this many plies left.
REFERENCE_PLIES = 3


class FirstMoveAgent:
    """A plain class (no base): the first legal move."""

    def select_move(self, board):
        return board.legal_moves()[0]


def _resigned(unit: dict) -> str:
    """A forged unit line with its digest made again: the check behind the digest is the one tested."""
    return json.dumps({**unit, DIGEST_KEY: line_digest(unit)})


def _suite(name, positions):
    return make_suite(name, positions, {"description": "a sample for the tests"})


def _sample(name, count, seed=1, max_ply=None, min_ply=None):
    """``count`` positions of a shipped suite drawn with ``seed`` (within the plies given)."""
    positions = [p for p in load_suite(name).positions
                 if (max_ply is None or p.ply <= max_ply) and (min_ply is None or p.ply >= min_ply)]
    return random.Random(seed).sample(positions, count)


# --- the format -------------------------------------------------------------------------


#: The layout field of the lines below.
LAYOUT = "-|/\\-|,||--//,/\\-|/\\,-|/\\-|,||--//,/\\-|/\\"


def test_a_suite_reads_back_what_it_writes(tmp_path):
    board = Board(Layout.random(3))
    for _ in range(2):
        board.push(board.legal_moves()[0])
    labels = [MoveLabel(m, (-1, 0, 1)[i % 3], None if i % 4 == 0 else 10 + i) for i, m in enumerate(board.legal_moves())]
    suite = _suite("mine", [suite_position(board, labels)])
    path = tmp_path / "mine.txt"
    suite.write(path)
    again = load_suite(str(path))
    assert again.positions == suite.positions and again.name == "mine" and again.sha256 == suite.sha256
    assert again.meta["description"] == "a sample for the tests"
    assert path.read_text().splitlines()[0] == HEADER
    position = again.positions[0]
    assert position.board().fen() == board.fen() and position.ply == 2
    assert parse_position(position.line()) == position


def _bad(line):
    with pytest.raises(SuiteError) as err:
        parse_suite(f"{HEADER}\n# name: t\n{line}\n", source="t.txt")
    return str(err.value)


def test_bad_lines_are_refused_naming_the_file_line_and_fault():
    # The legal moves after c3, e3 on this layout, to make lines that break one rule at a time.
    base = Board(Layout.from_text("\n".join(LAYOUT.split(","))))
    base.push("c3")
    second = base.legal_moves()[0]
    base.push(second)
    legal = base.legal_moves()
    labels = ",".join(f"{m}=W5" for m in legal)
    good = f"{LAYOUT} group/15 c3,{second} {labels}"
    assert parse_suite(f"{HEADER}\n{good}\n").positions[0].value == 1
    assert "t.txt:3" in _bad(good.replace("group/15", "sideways/15")) and "bad rules" in _bad(good.replace("group/15", "group"))
    assert "4 fields" in _bad(good + " extra")
    assert "bad layout" in _bad(good.replace("-|/\\-|,", "-|/\\-x,", 1))
    assert "not a legal move" in _bad(good.replace(f"c3,{second}", "c3,c3"))
    assert "missing" in _bad(good.replace(f",{legal[-1]}=W5", ""))
    outside = next(name for name in SQUARE_NAMES if name not in legal)
    assert "not legal" in _bad(good.replace(labels, labels + f",{outside}=W5"))
    assert "labelled twice" in _bad(good.replace(labels, labels + f",{legal[0]}=L3"))
    assert "bad label" in _bad(good.replace(f"{legal[0]}=W5", f"{legal[0]}=X5"))
    assert "distance" in _bad(good.replace(f"{legal[0]}=W5", f"{legal[0]}=W0"))
    with pytest.raises(SuiteError, match="first line"):
        parse_suite("hello\n")
    with pytest.raises(SuiteError, match="version"):
        parse_suite("# donuts-suite 2\n")
    with pytest.raises(SuiteError, match="unknown suite 'nope'.*opening, middlegame, endgame, critical"):
        load_suite("nope")


# --- the shipped suites -----------------------------------------------------------------


def test_the_shipped_suites_hold_their_phases():
    for name, (first, last) in PHASES.items():
        suite = load_suite(name)
        assert sum(p.value != 0 for p in suite.positions) >= DECIDED_AT_LEAST, name
        assert all(first <= p.ply and (last is None or p.ply <= last) for p in suite.positions), name
        assert all(len(p.labels) >= 2 for p in suite.positions), f"{name}: a position without a choice"
    critical = load_suite(CRITICAL)
    expected = [p for name in PHASES for p in load_suite(name).positions if p.critical]
    assert list(critical.positions) == expected and len(critical) > 0


def _proof_number_value(solver: Solver, board: Board, move: str) -> int:
    """The value of ``move`` for its player by proof-number search (not the alpha-beta that labelled it)."""
    solver._prepare(board)  # the tables belong to one layout and rules: cleared when they change
    rulebook, pos = rulebook_of(board.layout, board.rules), position_of(*board.kernel_state())
    final, child, sign = _child(rulebook, pos, board.legal_squares()[board.legal_moves().index(move)])
    if final is not None:
        return (final > 0) - (final < 0)
    value, _ = solver._wdl_proof_numbers(rulebook, child)
    return sign * value


@pytest.mark.parametrize("name", SUITE_NAMES)
def test_a_sample_of_every_suite_agrees_with_proof_number_search(name):
    solver = Solver(tt_bits=16)
    # Opening positions after 5 donuts or more: the first plies cost seconds a position.
    for position in _sample(name, 3, seed=2, min_ply=5):
        board = position.board()
        for label in position.labels:
            assert _proof_number_value(solver, board, label.move) == label.value, (name, position.line(), label)


def _reference_label(game: ReferenceGame, square: int) -> tuple[int, int]:
    """(value for the mover, plies to the end) of ``square`` under best play, by plain
    negamax over the pure-Python rules (wins as fast, losses as slowly as possible)."""
    mover = game.turn
    child = ReferenceGame.from_state(game.layout, game.rules, game.cells, game.turn, game.last, game.placed)
    child.play(square)
    if child.over:
        return (0 if child.winner is None else 1 if child.winner == mover else -1), 1
    best = max((_reference_label(child, s) for s in child.legal_moves()), key=lambda vd: (vd[0], -vd[1] if vd[0] > 0 else vd[1]))
    value = best[0] if child.turn == mover else -best[0]
    return value, best[1] + 1


def test_endgame_labels_agree_with_the_pure_python_rules():
    suite = load_suite("endgame")
    short = [p for p in suite.positions if p.board().plies_left() <= REFERENCE_PLIES]
    assert short, "no endgame short enough for the reference"
    for position in random.Random(3).sample(short, min(4, len(short))):
        game = ReferenceGame(position.layout, position.rules)
        for move in position.moves:
            game.play(parse_square(move))
        for label in position.labels:
            value, distance = _reference_label(game, parse_square(label.move))
            assert value == label.value and label.distance in (None, distance), (position.line(), label, value, distance)


def test_labelling_a_position_gives_the_solvers_values():
    position = _sample("middlegame", 1, seed=5)[0]
    again = label_position(position.board(), Solver(tt_bits=16))
    assert [(x.move, x.value) for x in again.labels] == [(x.move, x.value) for x in position.labels]


# --- evaluate ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mixed() -> Suite:
    """A few positions of each phase, cheap for the solver (after 4 donuts or more)."""
    return _suite("mixed", [*_sample("opening", 3, min_ply=4), *_sample("middlegame", 3), *_sample("endgame", 3),
                            *_sample(CRITICAL, 5, min_ply=4)])


def test_the_solver_keeps_the_value_everywhere_and_fastest_plays_fastest_wins(mixed):
    result = evaluate(["solver", "solver:fastest=true"], suite=mixed, settings=IN_PROCESS)
    plain, fastest = (result.scores()[name]["mixed"] for name in result.agents)
    for s in (plain, fastest):
        assert s["kept"] == s["positions"] == len(mixed) and s["illegal"] == s["errors"] == 0
        assert s["nodes"] is not None and s["nodes"] > 0
    assert fastest["fastest_known"] > 0 and fastest["fastest"] == fastest["fastest_known"]


def test_random_counts_are_consistent_with_its_moves(mixed):
    result = evaluate("random:seed=4", suite=mixed, settings=IN_PROCESS)
    s = result.scores()["random:seed=4"]["mixed"]
    answers = result.answers["random:seed=4"]["mixed"]
    assert [a["index"] for a in answers] == list(range(len(mixed)))
    kept = [mixed.positions[a["index"]].keeps(a["move"]) for a in answers]
    assert s["kept"] == sum(kept) and s["positions"] == len(mixed) and s["illegal"] == s["errors"] == 0
    winning = [p.value == 1 for p in mixed.positions]
    assert s["winning"] == sum(winning) and s["kept_winning"] == sum(k and w for k, w in zip(kept, winning, strict=True))
    assert s["critical"] == sum(p.critical for p in mixed.positions) and s["kept_critical"] <= s["critical"]
    assert sum(row["positions"] for row in s["by_ply"]) == len(mixed) and sum(row["kept"] for row in s["by_ply"]) == s["kept"]
    assert s["kept_ci95"][0] <= s["kept_share"] <= s["kept_ci95"][1]
    assert s["nodes"] is None and s["nodes_per_second"] is None
    # Seeded per position: the same moves again, in another order of work.
    again = evaluate("random:seed=4", suite=mixed, settings=EvaluationSettings(isolation="none", workers=1))
    again = again.answers["random:seed=4"]["mixed"]
    assert [a["move"] for a in again] == [a["move"] for a in answers]


def test_a_raising_an_illegal_and_a_hanging_agent_cost_their_positions_only():
    by_phase = {}
    for position in load_suite("middlegame").positions:
        by_phase.setdefault(position.ply % 3, position)
    suite = _suite("three", [by_phase[k] for k in (0, 1, 2)])  # the hang last: its process is not started again
    spec = "tests.evaluate_agents:MisbehavingAgent"
    bad = evaluate(spec, suite=suite, settings=EvaluationSettings(move_limit=0.5)).scores()[spec]["three"]
    assert bad["positions"] == 3 and bad["kept"] == 0 and bad["illegal"] == 1
    assert bad["errors"] == 2 and bad["error_kinds"] == {"exception": 1, "time": 1}
    # The same agent as an object, in its supervised process: the exception and the illegal move are caught.
    local = evaluate(MisbehavingAgent(), suite=_suite("two", [by_phase[0], by_phase[1]]))
    s = next(iter(local.scores().values()))["two"]
    assert s["illegal"] == 1 and s["error_kinds"] == {"exception": 1}


def test_an_object_a_class_a_module_spec_and_an_engine_play_alike():
    suite = _suite("few", _sample("middlegame", 4, seed=9))
    engine = f"engine:{sys.executable} -m donuts_ai.cli engine alphabeta:depth=3"
    agents = [AlphaBetaAgent(depth=3), "donuts_ai.donuts.agents.alphabeta:AlphaBetaAgent:depth=3", engine, FirstMoveAgent,
              FirstMoveAgent()]
    result = evaluate(agents, suite=suite)
    answers = [result.answers[name]["few"] for name in result.agents]
    moves = [[a["move"] for a in each] for each in answers]
    assert moves[0] == moves[1] == moves[2], moves
    # The same search reports the same nodes, from this process, an agent process and an engine's info line.
    assert [a["nodes"] for a in answers[0]] == [a["nodes"] for a in answers[1]]
    assert all(a["nodes"] is not None for a in answers[0])
    assert all(e["nodes"] in (None, o["nodes"]) for o, e in zip(answers[0], answers[2], strict=True))
    # Recorded as tournaments record them (donuts_ai.tournament.entries).
    assert result.config["agents"][0].startswith("<donuts_ai.donuts.agents.alphabeta.AlphaBetaAgent> alphabeta:depth=3 #")
    assert result.config["agents"][2] == engine
    assert result.config["agents"][3] == "<tests.suites.test_evaluation.FirstMoveAgent>"
    assert result.config["agents"][4].startswith("<tests.suites.test_evaluation.FirstMoveAgent> #")
    assert moves[3] == moves[4] == [p.labels[0].move for p in suite.positions]


def test_a_time_in_the_spec_wins_over_the_time_given():
    assert with_time("alphabeta", 0.1) == "alphabeta:time=0.1"
    assert with_time("alphabeta:depth=3", 0.1) == "alphabeta:depth=3,time=0.1"
    assert with_time("mcts:time=0.5", 0.1) == "mcts:time=0.5"
    assert with_time("mcts:time_limit=0.5", 0.1) == "mcts:time_limit=0.5"
    assert with_time("random", 0.1) == "random" and with_time("solver", 0.1) == "solver"
    assert with_time("donuts_ai.donuts.agents.mcts:MCTSAgent", 0.2) == "donuts_ai.donuts.agents.mcts:MCTSAgent:time=0.2"
    engine = f"engine:{sys.executable}"
    assert with_time(engine, 0.25) == f"{engine},go.movetime=250"
    assert with_time(f"{engine},go.movetime=40", 0.25) == f"{engine},go.movetime=40"
    result = evaluate(["alphabeta:depth=1", "greedy"], suite=_suite("one", _sample("endgame", 1)), time=0.05, settings=IN_PROCESS)
    assert result.agents == ["alphabeta:depth=1,time=0.05", "greedy"] and result.config["time"] == 0.05


def test_a_resumed_evaluation_equals_one_never_stopped(tmp_path):
    suite = _suite("resume", _sample("middlegame", 30, seed=4))  # two units per agent
    agents = ["random", "greedy"]
    full = tmp_path / "full.jsonl"
    whole = evaluate(agents, suite=suite, seed=3, results_path=str(full), settings=IN_PROCESS)
    lines = full.read_text().splitlines()
    assert len(lines) == 1 + 4
    part = tmp_path / "part.jsonl"
    part.write_text("\n".join(lines[:3]) + "\n" + lines[3][: len(lines[3]) // 2])  # stopped while writing unit 3
    resumed = evaluate(agents, suite=suite, seed=3, results_path=str(part), resume=True, settings=IN_PROCESS)

    def moves(result):
        return {name: [(a["index"], a["move"], a["event"]) for a in by_suite["resume"]] for name, by_suite in result.answers.items()}

    assert moves(resumed) == moves(whole)
    assert resumed.scores()["greedy"]["resume"]["kept"] == whole.scores()["greedy"]["resume"]["kept"]
    before = part.read_bytes()
    with pytest.raises(ResultsFileError, match="different evaluation.*seed"):
        evaluate(agents, suite=suite, seed=4, results_path=str(part), resume=True, settings=IN_PROCESS)
    with pytest.raises(ResultsFileError, match="exists"):
        evaluate(agents, suite=suite, seed=3, results_path=str(part), settings=IN_PROCESS)
    assert part.read_bytes() == before
    forged = tmp_path / "forged.jsonl"
    unit = json.loads(lines[1])
    unit["answers"][0]["index"] = 29
    forged.write_text("\n".join([lines[0], _resigned(unit)]) + "\n")
    with pytest.raises(ResultsFileError, match="line 2 is not a unit of this evaluation's schedule"):
        evaluate(agents, suite=suite, seed=3, results_path=str(forged), resume=True, settings=IN_PROCESS)


def test_the_command_prints_a_table_and_writes_json(tmp_path, capsys):
    out = tmp_path / "scores.json"
    path = tmp_path / "sample.txt"
    _suite("sample", _sample("endgame", 6, seed=11)).write(path)
    assert cli_main(["evaluate", "random", "greedy", "--suite", str(path), "--isolation", "none", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "suite sample: 6 positions" in printed and "kept %" in printed and "greedy" in printed
    data = json.loads(out.read_text())
    for name in ("random", "greedy"):
        s = data["agents"][name]["sample"]
        assert s["positions"] == 6 and 0 <= s["kept"] <= 6 and s["illegal"] == 0
    assert data["suites"]["sample"]["positions"] == 6


def test_a_bad_suite_is_one_line_and_a_failing_exit(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli_main(["evaluate", "random", "--suite", "nope"])
    err = capsys.readouterr().err
    assert exit_.value.code != 0 and err.count("\n") == 1 and "unknown suite 'nope'" in err
    with pytest.raises(SystemExit):
        cli_main(["evaluate", "nosuchagent", "--suite", "endgame", "--limit", "1"])
    assert "unknown agent kind 'nosuchagent'" in capsys.readouterr().err


def test_the_picture_draws(tmp_path):
    pytest.importorskip("matplotlib")
    result = evaluate(["random", "greedy"], suite=_suite("pic", _sample("endgame", 5)), settings=IN_PROCESS)
    result.plot(str(tmp_path / "accuracy.png"))
    assert (tmp_path / "accuracy.png").stat().st_size > 1000



def test_the_generator_goes_on_from_its_games_file_and_refuses_other_settings(tmp_path):
    from donuts_ai.suites.generate import DISTANCE_NODES, GAMES_FILE, _settings, generate

    games = [{name: load_suite(name).positions[i].line() for name in PHASES} for i in range(2)]
    lines = [json.dumps(_settings(5, DISTANCE_NODES)), *(json.dumps({"game": i, "positions": g}) for i, g in enumerate(games))]
    path = tmp_path / GAMES_FILE
    path.write_text("\n".join(lines) + "\n" + lines[1][:30])  # a third game cut off mid-write
    suites = generate(tmp_path, positions=1, seed=5)  # enough decided positions already: no game is played
    assert path.read_text() == "\n".join(lines) + "\n"  # the cut-off line is gone
    for name in PHASES:
        decided = next(i for i, g in enumerate(games) if parse_position(g[name]).value != 0)
        assert suites[name].positions == tuple(parse_position(g[name]) for g in games[:decided + 1])
        assert load_suite(str(tmp_path / f"{name}.txt")).positions == suites[name].positions
    assert suites[CRITICAL].positions == tuple(p for name in PHASES for p in suites[name].positions if p.critical)
    with pytest.raises(ValueError, match="other settings"):
        generate(tmp_path, positions=1, seed=6)


def test_the_shipped_suites_come_from_the_documented_generator():
    from donuts_ai.suites.generate import play_game

    board, plies = play_game(1, 0)  # the first game of seed 1
    for name in PHASES:
        assert load_suite(name).positions[0].moves == tuple(board.move_stack[:plies[name]]), name


def test_a_game_without_labelled_suites_is_refused_before_any_work(capsys, tmp_path):
    message = "evaluate needs labelled positions with exact values; they exist for donuts only, not for connect-four-python"
    with pytest.raises(DonutsError, match=f"^{message}$"):
        evaluate("no-such-agent", game="examples.connect_four:connect-four-python", results_path=str(tmp_path / "e.jsonl"))
    assert not (tmp_path / "e.jsonl").exists()
    status, err = command_error(capsys, "evaluate", "greedy", "--game", "connect-four-python")
    assert (status, err) == (2, f"donuts-ai: error: {message}\n")
    status, err = command_error(capsys, "evaluate", "greedy", "--game", "chess")
    assert status == 2 and err.startswith("donuts-ai: error: unknown game 'chess'; expected one of")
