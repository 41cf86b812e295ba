"""The Donuts Engine Protocol: engines in any language seated as ``engine:COMMAND``
(supervised: a hang, a crash, nonsense or an illegal move loses that engine its game,
never the run), and ``donuts-ai engine SPEC`` (our agents as engines).

The C example engine (examples/engines/donuts_engine.c) was written against the
protocol text and the rules alone; it is compiled here with the system's C compiler.
No test asserts a duration: limits only bound how long a broken engine is waited for.
"""

from __future__ import annotations

import io
import os
import queue
import random
import shlex
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from donuts_ai import Board, Layout, Rules
from donuts_ai import tournament as T
from donuts_ai.engine_protocol import EngineProtocolError, board_command, parse_go, parse_position, position_command
from donuts_ai.engine_protocol.server import EngineServer, info_line
from donuts_ai.tournament.engine_seat import EngineSeat
from donuts_ai.tournament.engine_text import GO_LIMITS, go_command

ROOT = Path(__file__).parents[2]
C_SOURCE = ROOT / "examples" / "engines" / "donuts_engine.c"
STANDARD = Layout.standard().to_text().replace("\n", "")
#: How long a test waits for an engine's line before it gives up (a liveness bound for
#: a broken build, far above what any answer takes on a loaded machine; never asserted).
PATIENCE = 120.0
ENDINGS = ("five", "largest group", "majority")
#: The isolation of the Python agents that play the engines below: objects in the test's
#: process. An engine is always a supervised program of its own (an ``EngineSeat``), which
#: is what these tests are about; a Python agent's seat process would only add a second or
#: so of start-up to every run (the faulty engines play one: a run of both kinds of seat).
OPPONENTS = "none"


@pytest.fixture(scope="module")
def c_engine(tmp_path_factory) -> Path:
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler (cc, gcc or clang) on this machine: the example C engine cannot be built")
    out = tmp_path_factory.mktemp("c-engine") / "donuts_engine"
    subprocess.run([cc, "-O2", "-std=c99", "-o", str(out), str(C_SOURCE)], check=True)
    return out


@pytest.fixture
def our_engine(monkeypatch) -> str:
    """The command of ``donuts-ai engine``, importing this checkout's donuts_ai."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return shlex.join([sys.executable, "-m", "donuts_ai", "engine"])


def _script(tmp_path: Path, name: str, body: str) -> Path:
    """An executable Python engine script: it answers dep and isready, and ``on_go(words)``
    does what ``body`` says."""
    path = tmp_path / name
    path.write_text(f"#!{sys.executable}\n" + """import sys, time

def out(text):
    sys.stdout.write(text + "\\n")
    sys.stdout.flush()

""" + body + """
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "dep":
        out("id name faulty")
        out("depok")
    elif words[0] == "isready":
        out("readyok")
    elif words[0] == "go":
        on_go(words)
    elif words[0] == "quit":
        break
""")
    path.chmod(0o755)
    return path


FAULTS = {
    "hang": "def on_go(words):\n    time.sleep(3600)\n",
    "crash": "def on_go(words):\n    sys.stderr.write('dying now\\n')\n    sys.stderr.flush()\n    sys.exit(3)\n",
    "nonsense": "def on_go(words):\n    out('hello, world')\n",
    "illegal": "def on_go(words):\n    sys.stderr.write('thinking hard\\n')\n    sys.stderr.flush()\n    out('bestmove z9')\n",
}


# --- the position and go commands ------------------------------------------------------


def _random_board(seed: int, rules: Rules | None = None) -> Board:
    rng = random.Random(seed)
    board = Board(Layout.random(seed), rules or Rules())
    for _ in range(rng.randrange(1, 25)):
        if board.is_game_over():
            break
        if rng.random() < 0.1:
            board.forfeit()
        else:
            board.push(rng.choice(board.legal_moves()))
    return board


@pytest.mark.parametrize("seed", range(6))
def test_a_position_command_gives_back_the_board(seed):
    rules = Rules(insertion="single", donuts=18) if seed % 2 else Rules()
    board = _random_board(seed, rules)
    line = board_command(board)
    again = parse_position(line.split()[1:])
    assert again.fen() == board.fen() and again.move_stack == board.move_stack and again.rules == board.rules
    observation = T.get_game("donuts").observation(board, board.turn or 0)
    assert position_command(observation) == line
    if None in board.move_stack:
        assert " pass" in line


def test_a_position_command_defaults_to_the_official_rules():
    board = parse_position(["layout", STANDARD, "moves", "c3"])
    assert board.rules == Rules() and board.move_stack == ["c3"]


@pytest.mark.parametrize("words, says", [
    ([], "layout"),
    (["layout", "-/|"], "36 symbols"),
    (["layout", STANDARD.replace("-", "x")], "36 symbols"),
    (["layout", STANDARD, "donuts"], "expected one of"),
    (["layout", STANDARD, "donuts", "99"], "donuts"),
    (["layout", STANDARD, "insertion", "sideways"], "insertion"),
    (["layout", STANDARD, "colour", "red"], "expected one of"),
    (["layout", STANDARD, "moves", "c3", "c3"], "move 2"),
    (["layout", STANDARD, "moves", "z9"], "neither a square"),
])
def test_a_bad_position_command_says_what_is_wrong(words, says):
    with pytest.raises(EngineProtocolError, match=says):
        parse_position(words)


def test_go_limits_are_read_and_unknown_words_skipped():
    limits = parse_go("ctime 60000 vtime 1500 movetime 200 depth 6 nodes 1000".split())
    assert (limits.ctime, limits.vtime, limits.movetime, limits.depth, limits.nodes) == (60000, 1500, 200, 6, 1000)
    assert limits.clock(0) == 60 and limits.clock(1) == 1.5
    assert parse_go("infinite ponder movetime 5 winc 3".split()).movetime == 5
    with pytest.raises(EngineProtocolError, match="movetime"):
        parse_go(["movetime", "soon"])
    assert go_command(0, 1.5) == "go ctime 1500" and go_command(1, None, (("movetime", 200),)) == "go movetime 200"


@pytest.mark.parametrize("side, time_left", [(0, 1.5), (1, 0.0004), (1, None), (0, 3600.0)])
def test_the_go_grammar_round_trips_from_the_harness_to_the_engine(side, time_left):
    fixed = tuple((key, 7 * i) for i, key in enumerate(GO_LIMITS))
    words = go_command(side, time_left, fixed).split()
    assert words[0] == "go"
    limits = parse_go(words[1:])
    assert limits.clock(1 - side) is None
    assert limits.clock(side) == (None if time_left is None else int(time_left * 1000) / 1000)
    assert all(getattr(limits, key) == value for key, value in fixed)


# --- engine specs ----------------------------------------------------------------------


def test_engine_specs_are_read_and_checked():
    spec = T.parse_engine_spec("engine:/bin/sh -c 'exit 0',option.Hash=64,option.Style=sharp play,go.movetime=200")
    assert spec.command == ("/bin/sh", "-c", "exit 0")
    assert spec.options == (("Hash", "64"), ("Style", "sharp play")) and spec.go == (("movetime", 200),)
    # Commas inside the command (an agent spec) stay in it.
    assert T.parse_engine_spec("engine:sh x mcts:time=0.5,workers=2").command == ("sh", "x", "mcts:time=0.5,workers=2")
    for bad, says in [("engine: ", "no command"), ("engine:/no/such/engine", "not an executable"),
                      ("engine:sh,go.time=3", "go limits"), ("engine:sh,go.depth=deep", "go limits"),
                      ("engine:sh 'unclosed", "quotation")]:
        with pytest.raises(T.SpecError, match=says):
            T.parse_engine_spec(bad)
    with pytest.raises(T.SpecError, match="cannot play boxes"):
        T.resolve("engine:sh", "boxes")
    config = T.make_config(["engine:sh", "random"], game="donuts")
    assert config["agents"][0] == "engine:sh"


# --- the C example engine, written against the protocol alone --------------------------


@pytest.mark.parametrize("rules", [None, {"insertion": "single", "donuts": 18}, {"insertion": "group", "donuts": 36}])
def test_the_c_engine_plays_a_supervised_tournament(c_engine, rules):
    spec = f"engine:{c_engine}"
    results = T.run([spec, "random", "greedy"], games=2, workers=1, seed=3, isolation=OPPONENTS, game="donuts",
                    config=T.HarnessConfig(rules=rules))
    assert len(results.games) == 6
    assert not results.events(), results.events()
    assert all(g.reason in ENDINGS for g in results.games)
    # Seeded through its seed option: a rerun plays the same games.
    again = T.run([spec, "random", "greedy"], games=2, workers=1, seed=3, isolation=OPPONENTS, game="donuts",
                  config=T.HarnessConfig(rules=rules))
    assert [g.moves for g in again.games] == [g.moves for g in results.games]


def test_the_c_engine_beats_a_random_player_more_often_than_not(c_engine):
    results = T.run([f"engine:{c_engine}", "random"], games=8, workers=1, seed=11, isolation=OPPONENTS, game="donuts")
    assert not results.events()
    won = sum(T.match.score_of(g, g.names.index(f"engine:{c_engine}")) for g in results.games)
    assert won > len(results.games) / 2, won


def test_an_engine_is_an_agent_too(c_engine):
    agent = T.make_agent(f"engine:{c_engine}", seed=5, game="donuts")
    try:
        board = Board()
        while not board.is_game_over():
            board.push(agent.select_move(board))
    finally:
        agent.close()


# --- faulty engines lose games, never the run ------------------------------------------


@pytest.mark.time_sensitive
def test_faulty_engines_lose_their_games_and_the_run_goes_on(tmp_path):
    faulty = {kind: f"engine:{_script(tmp_path, kind, body)}" for kind, body in FAULTS.items()}
    # random in a supervised process of its own too: killing an engine (its process group)
    # leaves the other seats' processes alone.
    results = T.run(["random", *faulty.values()], games=2, workers=1, game="donuts",
                    results_path=str(tmp_path / "r.jsonl"), config=T.HarnessConfig(format="gauntlet", move_limit=3))
    assert len(results.games) == 2 * len(FAULTS) and len(T.Results.from_file(str(tmp_path / "r.jsonl")).games) == len(results.games)
    expected = {"hang": ("time", "killed"), "crash": ("crash", "(exit status 3)"), "nonsense": ("crash", "broke the protocol"),
                "illegal": ("illegal move", "illegal move 'z9'")}
    for g in results.games:
        loser = g.names[1 - g.winner]
        kind = next(k for k, spec in faulty.items() if spec == loser)
        reason, says = expected[kind]
        assert g.reason == reason and len(g.events) == 1, (kind, g.reason, g.events)
        detail = g.events[0].detail
        assert g.names[g.events[0].seat] == loser and says in detail.splitlines()[-1], (kind, detail)
        if kind == "crash":
            assert "dying now" in detail  # the engine's stderr is kept
        if kind == "illegal":
            assert "thinking hard" in detail


@pytest.mark.time_sensitive
def test_an_engine_that_never_starts_or_is_gone_loses(tmp_path):
    silent = tmp_path / "silent"
    silent.write_text(f"#!{sys.executable}\nimport time\ntime.sleep(3600)\n")
    silent.chmod(0o755)
    seat = EngineSeat(f"engine:{silent}", start_limit=1.0, game="donuts")
    record = T.play_game([seat, T.make_agent("random", game="donuts")], Layout.standard(), Rules(), 1, game="donuts",
                         isolation="none")
    assert record.reason == "time" and record.winner == 1 and "no depok" in record.events[0].detail
    seat.close()
    gone = tmp_path / "gone"
    gone.write_text("#!/bin/sh\nexit 0\n")
    gone.chmod(0o755)
    seat = EngineSeat(f"engine:{gone}", game="donuts")
    gone.unlink()
    record = T.play_game([T.make_agent("random", game="donuts"), seat], Layout.standard(), Rules(), 1, game="donuts", isolation="none")
    assert record.reason == "exception" and record.winner == 0 and "could not start" in record.events[0].detail
    seat.close()


RECORDER = """import sys
from donuts_ai.engine_protocol import parse_position

log, board = open(sys.argv[1], "a"), None
for line in sys.stdin:
    log.write(line)
    log.flush()
    words = line.split()
    if words[:1] == ["dep"]:
        print("id name recorder")
        print("option name Seed type spin default 0")
        print("depok", flush=True)
    elif words[:1] == ["isready"]:
        print("readyok", flush=True)
    elif words[:1] == ["position"]:
        board = parse_position(words[1:])
    elif words[:1] == ["go"]:
        print("info depth 1 nodes 1 score cp 0")
        print("bestmove " + board.legal_moves()[0], flush=True)
    elif words[:1] == ["quit"]:
        break
"""


def test_the_harness_speaks_the_protocol_as_written(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    log = tmp_path / "heard.txt"
    path = tmp_path / "recorder.py"
    path.write_text(RECORDER)
    command = shlex.join([sys.executable, str(path), str(log)])
    results = T.run([f"engine:{command},option.Style=calm,go.depth=3", "random"], games=2, workers=1, isolation=OPPONENTS,
                    game="donuts", config=T.HarnessConfig(clock=600))
    assert not results.events() and all(g.reason in ENDINGS for g in results.games)
    sessions: list[list[str]] = []
    for line in log.read_text().splitlines():
        if line == "dep":
            sessions.append([])
        sessions[-1].append(line)
    checked, heard = sessions  # the pre-flight's check (start, isready, leave), then the seat's games
    assert checked[:2] == ["dep", "setoption name Style value calm"] and "isready" in checked
    assert not any(line.startswith(("position", "go")) for line in checked)
    assert heard[0] == "dep" and heard[1] == "setoption name Style value calm"
    assert heard[2].startswith("setoption name Seed value ") and heard[3:5] == ["newgame", "isready"]
    positions = [line for line in heard if line.startswith("position ")]
    assert positions[0].startswith("position layout ") and " donuts 15 insertion group" in positions[0]
    gos = [line.split() for line in heard if line.startswith("go")]
    assert gos and all(go[1] in ("ctime", "vtime") and go[3:] == ["depth", "3"] for go in gos)
    assert {go[1] for go in gos} == {"ctime", "vtime"}  # it played both colours


# --- our agents as engines -------------------------------------------------------------


class _Engine:
    """A ``donuts-ai engine`` process, spoken to line by line (a thread reads its stdout)."""

    def __init__(self, command: str, spec: str):
        self.proc = subprocess.Popen([*shlex.split(command), spec], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        self.proc.stdin.write("".join(f"{line}\n" for line in lines))
        self.proc.stdin.flush()

    def until(self, word: str) -> list[str]:
        """The lines up to and including the first that starts with ``word``."""
        lines = []
        while True:
            try:
                line = self.lines.get(timeout=PATIENCE)
            except queue.Empty:
                raise AssertionError(f"no {word} from the engine; it said {lines}") from None
            assert line is not None, f"the engine ended before {word}: {lines}"
            lines.append(line)
            if line.split()[:1] == [word]:
                return lines

    def quit(self) -> str:
        """Send quit; the engine's stderr."""
        self.send("quit")
        _, err = self.proc.communicate(timeout=PATIENCE)
        assert self.proc.returncode == 0
        return err


def test_donuts_ai_engine_greedy_answers_the_protocol(our_engine):
    engine = _Engine(our_engine, "greedy")
    engine.send("dep")
    lines = engine.until("depok")
    assert lines[0].startswith("id name") and any(line.startswith("id author") for line in lines)
    assert "option name seed type string default none" in lines
    engine.send("isready")
    assert engine.until("readyok") == ["readyok"]
    board = _random_board(4)
    engine.send("newgame", "this is not a command", board_command(board), "go movetime 200")
    move = engine.until("bestmove")[-1].split()[1]
    assert board.is_legal(move)
    # Bad input changes nothing: said on stderr, and the engine answers on.
    engine.send("position layout nonsense", "go", "setoption name nosuch value 3", "setoption name seed value 7", "newgame",
                board_command(board), "go depth 1")
    assert engine.until("bestmove")[-1] == "bestmove pass"
    assert board.is_legal(engine.until("bestmove")[-1].split()[1])
    err = engine.quit()
    assert "unknown command ignored: this is not a command" in err and "36 symbols" in err and "unknown option" in err


def test_an_agent_that_cannot_be_built_ends_the_engine_with_its_error(our_engine):
    # It answered dep, never readyok, and "bestmove pass" to every go: every move forfeited.
    engine = _Engine(our_engine, "alphabeta:depth=x")
    engine.send("dep")
    _, err = engine.proc.communicate(timeout=PATIENCE)  # stdin closed only now: the engine ends of itself
    assert engine.proc.returncode == 2
    assert err.strip().splitlines()[-1].startswith("donuts-ai engine: error: the agent cannot be built: ")
    assert "depth" in err


@pytest.mark.time_sensitive
def test_stop_answers_at_once_and_quit_leaves_a_running_search(our_engine):
    engine = _Engine(our_engine, "mcts:time=3600")
    engine.send("dep", "isready")
    engine.until("readyok")
    board = Board()
    board.push("c3")
    engine.send(board_command(board), "go")
    engine.send("isready")  # answered while the search runs
    assert engine.until("readyok") == ["readyok"]
    engine.send("stop")
    assert board.is_legal(engine.until("bestmove")[-1].split()[1])
    assert "the search was still running" in engine.quit()


@pytest.mark.time_sensitive
def test_go_limits_reach_the_agent_and_info_lines_say_what_it_did(our_engine):
    engine = _Engine(our_engine, "alphabeta:time=3600")
    engine.send("dep", "isready")
    engine.until("readyok")
    board = _random_board(2)
    engine.send(board_command(board), "go depth 2")
    lines = engine.until("bestmove")
    assert board.is_legal(lines[-1].split()[1])
    for line in lines[:-1]:
        words = line.split()
        assert words[0] == "info" and int(words[words.index("depth") + 1]) <= 2
    engine.quit()


def test_info_lines_of_agent_figures():
    assert info_line({"depth": 5, "nodes": 1200, "seconds": 0.25, "score": -31, "proven": False}) == \
        "info depth 5 nodes 1200 time 250 score cp -31"
    assert info_line({"depth": 9, "nodes": 10, "seconds": 0.0, "score": 9990, "proven": True}).endswith("score win")
    assert info_line({"iterations": 50, "nodes": 80, "seconds": 1.0, "proof": 0, "proven": True}) == \
        "info nodes 80 time 1000 score draw"
    assert info_line({"forced": True, "depth": 0}) is None and info_line(None) is None


def test_options_are_the_agents_parameters_and_setoption_rebuilds_it():
    out, err = io.StringIO(), io.StringIO()
    server = EngineServer("alphabeta:depth=3", out, err)
    server.handle("dep")
    assert "option name depth type string default 3" in out.getvalue()
    assert "option name tt_bits type spin default 20" in out.getvalue()
    server.handle("setoption name tt_bits value 12")
    server.handle("setoption name depth value none")
    server.handle("setoption name Depth value 2")
    server.handle("isready")
    assert server.agent.tt_bits == 12 and server.agent.depth == 2
    server.handle("setoption name tt_bits value -1")  # refused: the agent stays as it was
    assert server.agent.tt_bits == 12 and "setoption tt_bits" in err.getvalue()
    server.handle("setoption name seed value soon")
    assert server.seed is None and "setoption seed" in err.getvalue()
    server.handle("setoption name seed value 9")
    server.handle("newgame")
    assert server.seed == 9 and server.board is None
    server.handle("quit")


def test_a_settings_objects_fields_are_options():
    out, err = io.StringIO(), io.StringIO()
    server = EngineServer("mcts:max_nodes=4096", out, err)
    server.handle("dep")
    assert "option name max_nodes type string default 4096" in out.getvalue()  # None or a count, as depth
    assert "option name max_memory_mb type spin default 512" in out.getvalue()
    assert "option name memory" not in out.getvalue()
    server.handle("setoption name max_memory_mb value 64")
    server.handle("isready")
    assert server.agent.memory.max_memory_mb == 64 and server.agent.memory.max_nodes == 4096, err.getvalue()
    server.handle("quit")


def test_our_engine_plays_through_the_harness(our_engine):
    spec = f"engine:{our_engine} greedy"
    results = T.run([spec, "random"], games=2, workers=1, seed=5, isolation=OPPONENTS, game="donuts")
    assert not results.events(), results.events()
    assert all(g.reason in ENDINGS for g in results.games)
