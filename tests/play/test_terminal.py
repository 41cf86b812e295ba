"""``donuts-ai play`` and ``donuts-ai replay``, driven as a person would: through a pipe.

Also the pieces behind them: the game record format, the game's turns and undo, and
the analysis (exact from the first donut, equal to the solver's, under node limits). No test asserts a
duration; the pipe readers only guard against a hang.
"""

from __future__ import annotations

import io
import os
import random
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest

from donuts_ai import Board, Layout, Rules, Solver, analyze, solve
from donuts_ai.errors import DonutsError, GameOverError
from donuts_ai.play.analysis import AnalysisJob, AnalysisJobs, Analyst
from donuts_ai.play.record import SavedGame, SavedGameError, load
from donuts_ai.play.session import NotYourTurn, PlaySession, constraint_text, make_layout
from donuts_ai.play.terminal import TerminalGame, draw
from donuts_ai.tournament.specs import make_agent

from ..helpers import command_error

ROOT = Path(__file__).resolve().parents[2]
#: Seconds without any output after which a piped session counts as hung (not a speed test).
HANG = 600
ANSI = re.compile(r"\x1b\[")


def _env():
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def donuts(*args, stdin: str = "", check_rc: int | None = 0) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "donuts_ai", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env=_env(), timeout=HANG)
    if check_rc is not None:
        assert proc.returncode == check_rc, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc


class Session:
    """``donuts-ai play`` on pipes: send a line, read up to the next prompt."""

    def __init__(self, *args: str):
        self.proc = subprocess.Popen([sys.executable, "-m", "donuts_ai", "play", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT, env=_env())
        self.transcript = ""

    def read_to_prompt(self) -> str:
        """Output up to and including the next prompt (``...> ``), or to the end."""
        out = b""
        fd = self.proc.stdout.fileno()
        while not out.endswith(b"> "):
            ready, _, _ = select.select([fd], [], [], HANG)
            assert ready, f"no output for {HANG} s: hung?\n{self.transcript[-2000:]}"
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            out += chunk
        text = out.decode()
        self.transcript += text
        return text

    def send(self, line: str) -> str:
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()
        return self.read_to_prompt()

    def close(self) -> int:
        self.proc.stdin.close()
        rest = self.proc.stdout.read().decode()
        self.transcript += rest
        return self.proc.wait(timeout=HANG)


def test_full_game_through_a_pipe_against_random(tmp_path):
    """A whole game: read the position with ``fen``, answer with a legal move, until the
    game is over; then save it, and read the record back with replay and Board."""
    rng = random.Random(5)
    s = Session("--opponent", "random", "--seed", "3", "--layout", "random:7")
    first = s.read_to_prompt()
    assert "open pick: anywhere" in first.lower() and "you play chocolate against random" in first
    assert not ANSI.search(first), "output to a pipe must be plain text"
    positions = []
    for _ in range(80):
        fen = s.send("fen").splitlines()[1]
        board = Board.from_fen(fen)
        positions.append(fen)
        if board.is_game_over():
            break
        out = s.send(rng.choice(board.legal_moves()))
        assert "?" not in out.splitlines()[1][:2], out
        if "Game over" in out:
            break
    assert "Game over" in s.transcript
    path = tmp_path / "game.txt"
    assert "saved to" in s.send(f"save {path}")
    assert "saved to" in s.send(f"save {path}")  # a saved game is written over
    kept = tmp_path / "results.jsonl"
    kept.write_text('{"type": "config"}\n')
    assert "exists and is not a saved game" in s.send(f"save {kept}")  # anything else is kept
    assert kept.read_text() == '{"type": "config"}\n'
    s.proc.stdin.write(b"quit\n")
    assert s.close() == 0
    assert "Traceback" not in s.transcript
    record = load(str(path))
    final = record.board()
    assert final.is_game_over()
    assert final.fen() == Board.from_fen(record.tags["FEN"], record.rules).fen()
    assert record.tags["Result"] == final.outcome().result()
    assert record.tags["Chocolate"] == "you" and record.tags["Vanilla"] == "random"
    replay = donuts("replay", str(path))
    assert f"Result {final.outcome().result()}" in replay.stdout
    assert len(re.findall(r"^\s*\d+\. (chocolate|vanilla)", replay.stdout, re.M)) == final.ply


def test_piped_file_with_bad_commands_plays_to_the_end(tmp_path):
    """One command a line from a file, as a script would: bad commands first, then every
    square in turn (the illegal ones are refused, the game goes on), to the end."""
    path = tmp_path / "g.txt"
    bad = ["", "   ", "xyzzy", "z9", "a7", "c3 d4", "save", "save a b", "undo", "hint me", "UNDO", "fen fen"]
    squares = [f + r for r in "123456" for f in "abcdef"]
    # hint and analyze once a few donuts are in (on the empty board their proofs take
    # seconds; that case is the analyst's own test).
    lines = bad + squares[:8] + ["help", "hint", "analyze"] + squares * 20 + [f"save {path}", "quit"]
    proc = donuts("play", "--opponent", "random", "--seed", "1", stdin="\n".join(lines) + "\n")
    out = proc.stdout
    assert "Traceback" not in out + proc.stderr
    assert not ANSI.search(out)
    assert out.count("Game over.") >= 1
    # Every bad command got exactly one line starting with "? " right after its prompt.
    for word in ("xyzzy", "z9", "a7", "c3 d4", "save a b", "hint me", "fen fen"):
        after = out.split(f"> {word}\n", 1)[1]
        assert after.startswith("? ") and after.split("\n", 1)[1].startswith(("your move> ", "> ")), word
    assert "? save needs one file name" in out
    assert "? nothing to undo" in out
    assert "illegal move" in out and "the game is over" in out
    record = load(str(path))
    assert record.board().is_game_over()


def test_vanilla_undo_resign_and_styles():
    s = Session("--opponent", "greedy", "--color", "vanilla", "--layout", "standard", "--style", "ansi")
    out = s.read_to_prompt()
    assert ANSI.search(out), "--style ansi draws in colour"
    assert "greedy (chocolate) plays" in out
    fen_before = s.send("fen").splitlines()[1]
    legal = Board.from_fen(fen_before).legal_moves()
    s.send(legal[0])
    assert s.send("undo").count("took back") == 1
    assert s.send("fen").splitlines()[1] == fen_before
    assert "? nothing to undo" in s.send("undo")
    out = s.send("resign")
    assert "Vanilla (you) resigned: Chocolate (greedy) wins" in out
    assert "took back the resignation" in s.send("undo")
    s.proc.stdin.write(b"quit\n")
    assert s.close() == 0


def test_bad_arguments_are_one_line_errors(capsys):
    proc = donuts("play", "--layout", "nowhere.txt", check_rc=2)  # a real process, as a user sees it
    assert proc.stderr.count("\n") == 1 and "cannot read layout file" in proc.stderr, proc.stderr
    for args, words in ((["--opponent", "nosuch"], "unknown agent"),  # the others in this process
                        (["--color", "green"], "unknown colour"),
                        (["--fen", "not a fen"], "position string"),
                        (["--donuts", "0"], "donuts must be in")):
        status, err = command_error(capsys, "play", *args)
        assert status == 2 and err.count("\n") == 1 and words in err, err
    status, err = command_error(capsys, "replay", "no-such-file.txt")
    assert status == 2 and "cannot read" in err and err.count("\n") == 1


def test_play_from_a_position_both_sides_with_exact_analysis():
    board = _near_end(Layout.random(3), 12)
    text = "\n".join(["analyze", "hint", board.legal_moves()[0], "undo", "quit"]) + "\n"
    out = donuts("play", "--fen", board.fen(), "--color", "both", stdin=text).stdout
    assert "you play both sides" in out
    best = analyze(board)
    assert "[exact" in out
    for mv in best:
        assert re.search(rf"^  {mv.move}  (wins|loses|draws)", out, re.M)
    hinted = re.search(r"^hint: ([a-f][1-6]) ", out, re.M).group(1)
    value = {m.move: (m.value, m.distance) for m in best}
    assert value[hinted] == (best[0].value, best[0].distance) and solve(board).value == best[0].value


# --- in-process: drawing, the loop, the game, records, analysis -----------------------------------------


def _near_end(layout: Layout, plies: int, seed: int = 0) -> Board:
    rng = random.Random(seed)
    while True:
        board = Board(layout)
        while not board.is_game_over() and board.plies_left() > plies:
            board.push(rng.choice(board.legal_moves()))
        if not board.is_game_over():
            return board
        seed += 1
        rng = random.Random(seed)


def test_draw_plain_marks_legal_and_last():
    board = Board()
    board.push("c3")
    text = draw(board)
    assert "(C)" in text and not ANSI.search(text)
    for name in board.legal_moves():
        f, r = "abcdef".index(name[0]), int(name[1])
        row = next(line for line in text.splitlines() if line.startswith(f" {r}  "))
        assert row[4 + 4 * f] == "["
    assert ANSI.search(draw(board, ansi=True))
    assert constraint_text(board, "you") == "you must play on the - line through c3"


def _run_terminal(game: PlaySession, lines: list[str]) -> str:
    out = io.StringIO()
    TerminalGame(game, Analyst(), io.StringIO("\n".join(lines) + "\n"), out, ansi=False).run()
    return out.getvalue()


def test_terminal_loop_in_process():
    agent = make_agent("random", seed=2, game="donuts")
    game = PlaySession(Board(), 0, agent, "random", "standard")
    out = _run_terminal(game, ["a1", "b1", "board", "fen", "resign", "c3", "quit"])
    assert "? the game is over" in out
    assert game.resigned == 0 and game.result() == "0-1"


def test_game_turns_and_undo():
    game = PlaySession(Board(), 1, make_agent("random", seed=1, game="donuts"), "random")
    with pytest.raises(NotYourTurn):
        game.play("a1")
    with pytest.raises(DonutsError, match="nothing to undo"):
        game.undo()
    game.ai_move()
    fen = game.board.fen()
    game.play(game.board.legal_moves()[0])
    game.ai_move()
    assert len(game.undo()) == 2 and game.board.fen() == fen
    with pytest.raises(DonutsError):
        game.play("zz")
    assert game.board.fen() == fen
    game.resign()
    with pytest.raises(GameOverError):
        game.play(game.board.legal_moves()[0])
    assert game.result_text() == "Vanilla (you) resigned: Chocolate (random) wins"


def test_make_layout_shows_the_seed_of_a_fresh_draw():
    layout, label = make_layout("random")
    assert re.fullmatch(r"random:\d+", label) and make_layout(label)[0] == layout
    assert make_layout("standard") == (Layout.standard(), "standard")
    with pytest.raises(DonutsError):
        make_layout("random:1:3")


def test_record_round_trip_and_errors(tmp_path):
    rules = Rules(insertion="single", donuts=16)
    board = Board(Layout.random_grid(4), rules)
    rng = random.Random(1)
    while not board.is_game_over():
        board.push(rng.choice(board.legal_moves()))
    rec = SavedGame.from_board(board, {"Chocolate": 'a "quoted" \\ name'})
    again = SavedGame.loads(rec.dumps())
    assert again.tags == rec.tags and again.moves == rec.moves
    assert again.rules == rules and again.board() == board
    assert Board.from_fen(again.tags["FEN"], again.rules) == board
    # From a position: the Start tag.
    start = _near_end(Layout.standard(), 10).copy(stack=False)
    mid = start.copy(stack=False)
    mid.push(mid.legal_moves()[0])
    rec = SavedGame.from_board(mid, start=start)
    assert "Start" in rec.tags and SavedGame.loads(rec.dumps()).board() == mid
    bad = tmp_path / "bad.txt"
    for content, words in ((b"\xff\xfe", "not UTF-8"), (b"c3 d4\n", "no tags"), (b'[Layout "x"\n', "bad tag"),
                           (rec.dumps().replace("\n\n", "\n\nz9 ").encode(), "move 1")):
        bad.write_bytes(content)
        with pytest.raises(SavedGameError, match=words):
            load(str(bad)).board()
    with pytest.raises(SavedGameError, match="cannot write"):
        rec.save(str(tmp_path / "no" / "such" / "dir.txt"))


def test_a_forfeited_turn_is_written_pass_and_read_as_0_4_wrote_it_too():
    board = Board()
    board.push("c3")
    board.forfeit()
    board.push(board.legal_moves()[0])
    text = SavedGame.from_board(board).dumps()
    assert " pass " in text and " -- " not in text
    assert SavedGame.loads(text).board().move_stack == board.move_stack
    assert SavedGame.loads(text.replace(" pass ", " -- ")).board().move_stack == board.move_stack


def _random_position(seed: int, plies: int) -> Board:
    rng = random.Random(seed)
    board = Board(Layout.random(seed))
    for _ in range(plies):
        board.push(rng.choice(board.legal_moves()))
    return board


def test_analyst_is_exact_from_the_first_donut():
    """Every legal move's value equals the solver's, at plies 1, 2, 4 and 6 of games on
    random arrangements; distances, where given, equal the solver's."""
    analyst, solver = Analyst(), Solver(tt_bits=18)
    for seed, plies in ((0, 1), (1, 2), (2, 4), (3, 6)):
        board = _random_position(seed, plies)
        got = analyst.analyze(board)
        assert got.exact and got.complete and sorted(m.move for m in got.moves) == sorted(board.legal_moves())
        for m in got.moves:
            assert m.value == solver.move_value(board, m.move), (board.fen(), m)
        truth = {m.move: m.distance for m in solver.analyze(board)} if plies >= 2 else {}
        for m in got.moves:
            assert m.distance is None or m.move not in truth or m.distance == truth[m.move]
        h = analyst.hint(board)
        assert h.exact and h.value == solver.solve(board, distance=False).value == got.best.value
        assert solver.move_value(board, h.move) == h.value


def test_the_names_of_the_analysis_before_0_5_0_are_gone():
    import importlib

    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("donuts_ai.play.evaluation")
    assert not hasattr(Analyst, "evaluate")  # Analyst.analyze


def test_analysis_under_tiny_node_limits_is_unknown_not_wrong():
    board = _random_position(4, 4)
    tight = Analyst(proof_nodes=300, distance_nodes=300, hint_proof_nodes=300)
    got = tight.analyze(board)
    truth = {m.move: m for m in analyze(board)}
    assert 0 < got.proven < len(got.moves)  # some moves four donuts in need more than 300 nodes
    for m in got.moves:
        assert m.value in (None, truth[m.move].value) and m.distance in (None, truth[m.move].distance)
        if m.value is None:
            assert m.score is not None and "estimate" in m.describe()
    assert "Estimate" in got.verdict() or got.value_known()


def test_a_background_job_publishes_proofs_and_cancels():
    board = Board(Layout.random(5))  # the empty board: seconds of proofs
    job = AnalysisJob(board)
    job.wait(0.5)
    first = job.snapshot()
    assert first.fen == board.fen() and sorted(m.move for m in first.moves) == sorted(board.legal_moves())
    job.cancel()
    assert job.wait(60) and job.cancelled
    jobs = AnalysisJobs(max_jobs=2)
    a = jobs.request("game 1", board)
    assert jobs.request("game 1", board) is a and jobs.current("game 1", board) is a
    after = board.copy()
    after.push("c3")
    b = jobs.request("game 1", after)  # the position changed: the old job is cancelled
    assert b is not a and a.cancelled and jobs.current("game 1", board) is None
    assert b.wait(120) and b.snapshot().complete and b.snapshot().exact
    solver = Solver(tt_bits=18)
    for m in b.snapshot().moves:
        assert m.value == solver.move_value(after, m.move)
    jobs.request("game 2", board)
    jobs.request("game 3", board)  # a third owner: the least recently asked (game 1's) goes
    assert jobs.current("game 1", after) is None
    jobs.cancel_all()


def test_replay_analyze_values_every_move_and_marks_a_thrown_win(tmp_path):
    solver = Solver(tt_bits=18)
    for seed in range(50):
        start = _random_position(seed, 8)
        if start.is_game_over() or solver.solve(start, distance=False).value != 1:
            continue
        losing = [mv for mv in start.legal_moves() if solver.move_value(start, mv) < 1]
        if losing:
            break
    else:
        raise AssertionError("no position with a win and a move that throws it away")
    end = start.copy(stack=False)
    end.push(losing[0])
    end.push(end.legal_moves()[0])
    path = tmp_path / "game.txt"
    SavedGame.from_board(end, start=start).save(str(path))
    out = donuts("replay", str(path), "--analyze").stdout
    lines = re.findall(r"^\s*\d+\. .*$", out, re.M)
    assert len(lines) == 2
    assert f"?? {('draw', 'loss')[solver.move_value(start, losing[0]) < 0]}" in lines[0] and "a win was there" in lines[0]
    assert re.search(r"(\((wins|draws|loses)|\?\? (draw|loss))", lines[1]), lines[1]  # every move valued
