"""``donuts-ai serve``: its JSON API over HTTP, and the page in a real headless Chromium.

The API tests need nothing but the standard library. The browser tests (marker
``browser``) drive Debian's Chromium (``apt-get install chromium``; Playwright's own
browser download is not used) with Playwright for Python: a whole game by clicking
legal squares, an illegal click, undo, the analysis colours against ``analyze()``, two
tabs. They are skipped, saying why, only when no Chromium or no Playwright is
installed; with ``DONUTS_REQUIRE_BROWSER=1`` (set by ``.ci/run``) they fail instead.
``DONUTS_SCREENSHOTS=DIR`` saves a screenshot of each stage into DIR. No test asserts
a duration; the timeouts only guard against a hang.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import select
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from donuts_ai import Board, Layout, Solver, analyze
from donuts_ai.donuts import svg as donuts_svg
from donuts_ai.donuts.book import shipped_book
from donuts_ai.play.record import SavedGame
from donuts_ai.play.server import AGENT_KINDS, ALPHABETA_THEN_SOLVER, SOLVER_PLIES, Server, make_server
from donuts_ai.study import load_study

ROOT = Path(__file__).resolve().parents[2]
HANG = 600  # seconds: a guard against a hung server or browser, not a speed requirement


# --- the API, over HTTP, without a browser ---------------------------------------------------------------


@pytest.fixture(scope="module")
def api():
    app = Server(max_think=0.2, max_games=3)
    httpd = make_server("127.0.0.1", 0, app)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    port = httpd.server_address[1]

    def call(path, body=None, headers=None, raw=None, method=None):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG)
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        hdrs = {"Content-Type": "application/json"} if data is not None else {}
        hdrs.update(headers or {})
        conn.request(method or ("GET" if data is None else "POST"), path, body=data, headers=hdrs)
        resp = conn.getresponse()
        payload = resp.read().decode()
        conn.close()
        ctype = resp.getheader("Content-Type", "")
        return resp.status, (json.loads(payload) if ctype.startswith("application/json") else payload)

    call.app = app
    yield call
    httpd.shutdown()
    httpd.server_close()


def _state(api, game):
    status, st = api("/api/state", {"game": game})
    assert status == 200
    return st


def test_page_and_script_are_served_offline(api):
    status, page = api("/")
    assert status == 200 and 'src="/app.js"' in page
    assert not re.search(r"(src|href)=\"https?://", page), "the page loads nothing from elsewhere"
    status, script = api("/app.js")
    assert status == 200 and "fetch(" in script and "http://" not in script and "https://" not in script
    assert api("/nowhere")[0] == 404


def test_bad_requests_get_a_4xx_line_and_change_nothing(api):
    status, st = api("/api/new", {"opponent": "random", "layout": "standard"})
    assert status == 200
    game, fen = st["game"], st["fen"]
    cases = [
        ("/api/move", {"game": game, "square": "z9"}, None, None, 400, "invalid move"),
        ("/api/move", {"game": game, "square": 14}, None, None, 400, "square"),
        ("/api/move", None, None, b"{not json", 400, "malformed JSON"),
        ("/api/move", None, None, b"[1, 2]", 400, "JSON object"),
        ("/api/move", {"game": "stale-id", "square": "a1"}, None, None, 404, "unknown or expired game"),
        ("/api/move", {"square": "a1"}, None, None, 400, "missing game id"),
        ("/api/move", {"game": game, "square": "a1"}, {"Content-Type": "text/plain"}, None, 415, "application/json"),
        ("/api/move", {"game": game, "square": "a1"}, {"Host": "evil.example"}, None, 403, "localhost"),
        ("/api/reply", {"game": game}, None, None, 409, "not the opponent's turn"),
        ("/api/reply", {"game": game, "think": 60}, None, None, 400, "think must be between"),
        ("/api/new", {"opponent": "os:system"}, None, None, 400, "unknown opponent"),
        ("/api/new", {"opponent": "mcts", "think": 1e9}, None, None, 400, "think must be between"),
        ("/api/new", {"layout": "../../etc/passwd"}, None, None, 400, "unknown layout"),
        ("/api/new", {"layout": "text", "layout_text": "---"}, None, None, 400, "layout text"),
        ("/api/new", {"fen": "nonsense"}, None, None, 400, "position string"),
        ("/api/new", {"donuts": 99}, None, None, 400, "donuts must be in"),
        ("/api/new", None, None, b'{"donuts": 1e999}', 400, "finite"),
        ("/api/new", None, None, b'{"think": NaN}', 400, "finite"),
        ("/api/new", {"donuts": 2.5}, None, None, 400, "integer"),
        ("/api/new", {"color": "green"}, None, None, 400, "unknown colour"),
        ("/api/nothing", {}, None, None, 404, "no such API"),
        ("/api/move", None, {"Content-Length": "99999999"}, b"{}", 413, "too large"),
    ]
    for path, body, headers, raw, want, words in cases:
        status, answer = api(path, body, headers, raw)
        assert status == want, (path, body, answer)
        assert words in answer["error"] and "\n" not in answer["error"], answer
    assert api("/api/move")[0] == 405
    # Illegal moves: explained, nothing changed.
    api("/api/move", {"game": game, "square": "c3"})
    st = _state(api, game)
    assert st["ai_to_move"]
    status, answer = api("/api/move", {"game": game, "square": "d4"})
    assert status == 409 and "not your turn" in answer["error"]
    api("/api/reply", {"game": game})
    st = _state(api, game)
    occupied = next(s["name"] for s in st["squares"] if s["donut"])
    status, answer = api("/api/move", {"game": game, "square": occupied})
    assert status == 400 and "occupied" in answer["error"]
    assert _state(api, game)["fen"] == st["fen"] != fen


def _same_as_the_solver(board: Board, analysis: dict) -> None:
    """The page's exact analysis of ``board`` agrees with the solver's values and distances."""
    want = {m.move: (m.result, m.distance) for m in analyze(board)}
    for m in analysis["moves"]:
        assert m["value"] == want[m["move"]][0] and m["distance"] in (None, want[m["move"]][1])


def test_a_whole_game_with_undo_analysis_hint_and_record(api):
    rng = random.Random(3)
    status, st = api("/api/new", {"opponent": "greedy", "layout": "random:11", "color": "vanilla"})
    assert status == 200 and st["layout"]["label"] == "random:11" and st["ai_to_move"]
    game = st["game"]
    st = api("/api/reply", {"game": game})[1]
    assert st["your_turn"] and len(st["plies"]) == 1 and st["plies"][0]["by"] == "greedy"
    status, answer = api("/api/undo", {"game": game})
    assert status == 400 and "nothing to undo" in answer["error"]
    before = st["fen"]
    api("/api/move", {"game": game, "square": rng.choice([s["name"] for s in st["squares"] if s["legal"]])})
    st = api("/api/reply", {"game": game})[1]
    assert api("/api/undo", {"game": game})[1]["fen"] == before
    checked_exact = 0
    while True:
        st = _state(api, game)
        if st["outcome"]:
            break
        if st["ai_to_move"]:
            api("/api/reply", {"game": game})
            continue
        board = Board.from_fen(st["fen"])
        assert [s["name"] for s in st["squares"] if s["legal"]] == board.legal_moves()
        a = _complete_analysis(api, game)
        assert a["fen"] == st["fen"] and a["exact"]
        assert sorted(m["move"] for m in a["moves"]) == sorted(board.legal_moves())
        last = (board, a)
        if board.plies_left() <= 16:  # the solver's distances are quick to compare here
            _same_as_the_solver(*last)
            checked_exact += 1
        status, h = api("/api/hint", {"game": game})
        assert status == 200 and h["move"] in board.legal_moves()
        api("/api/move", {"game": game, "square": rng.choice(board.legal_moves())})
    if not checked_exact:  # the opponent (unseeded) ended the game early: compare the last position
        _same_as_the_solver(*last)
    assert st["outcome"]["text"] and st["outcome"]["result"] in ("1-0", "0-1", "1/2-1/2")
    assert api("/api/analyze", {"game": game})[0] == 409
    status, text = api(f"/api/record?game={game}")
    assert status == 200
    record = SavedGame.loads(text)
    assert record.board().fen() == st["fen"] and record.tags["Vanilla"] == "you"


def _complete_analysis(api, game):
    """Ask for the game's analysis until it is complete (each answer waits up to 2 s)."""
    for _ in range(HANG):
        status, a = api("/api/analyze", {"game": game})
        assert status == 200, a
        if a["complete"]:
            return a
    raise AssertionError("the analysis never completed")


def test_every_move_is_exact_from_the_first_donuts(api):
    """At plies 2, 4 and 6 of games on random arrangements, every legal move's value over
    the API equals the solver's value of the position after it; the hint keeps the value."""
    solver = Solver(tt_bits=18)
    for seed in range(3):
        rng, board = random.Random(seed), Board(Layout.random(100 + seed))
        for plies in (2, 4, 6):
            while board.ply < plies:
                board.push(rng.choice(board.legal_moves()))
            game = api("/api/new", {"fen": board.fen(), "color": "both"})[1]["game"]
            a = _complete_analysis(api, game)
            assert a["fen"] == board.fen() and a["exact"] and a["proven"] == len(board.legal_moves())
            for m in a["moves"]:
                assert {"win": 1, "draw": 0, "loss": -1}[m["value"]] == solver.move_value(board, m["move"]), (board.fen(), m)
            h = api("/api/hint", {"game": game})[1]
            assert solver.move_value(board, h["move"]) == solver.solve(board, distance=False).value
            assert h["exact"] and h["value"] == a["moves"][0]["value"]


def test_games_are_separate_and_bounded(api):
    a = api("/api/new", {"opponent": "random", "color": "both"})[1]
    b = api("/api/new", {"opponent": "random", "color": "both", "layout": "grid:4"})[1]
    assert a["game"] != b["game"] and a["you"] == "both"
    api("/api/move", {"game": a["game"], "square": "a1"})
    reply = Board.from_fen(_state(api, a["game"])["fen"]).legal_moves()[0]
    assert api("/api/move", {"game": a["game"], "square": reply})[0] == 200  # people play both sides
    assert _state(api, b["game"])["plies"] == []
    assert [p["square"] for p in _state(api, a["game"])["plies"]] == ["a1", reply]
    for _ in range(3):  # max_games=3: the least recently used go
        api("/api/new", {"opponent": "random"})
    assert api("/api/state", {"game": b["game"]})[0] == 404


def test_serve_refuses_bad_options_in_one_line():
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    for args, words in ((["--port", "70000"], "--port must be in"), (["--max-think", "60"], "--max-think must be in"),
                        (["--max-games", "0"], "--max-games must be in")):
        proc = subprocess.run([sys.executable, "-m", "donuts_ai", "serve", *args], capture_output=True, text=True, cwd=ROOT,
                              env=env, timeout=HANG)
        assert proc.returncode == 2 and words in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr


def test_alphabeta_then_solver_opponent_is_bounded():
    """The ``alphabeta+solver`` opponent solves only near the end; before, alpha-beta under the think time."""
    app = Server(max_think=0.1)
    board = Board()
    assert "solver" not in AGENT_KINDS and app.searches.spec_for(ALPHABETA_THEN_SOLVER, 5.0, board) == "alphabeta:time=0.1"
    rng = random.Random(2)
    while board.plies_left() > SOLVER_PLIES:
        board.push(rng.choice(board.legal_moves()))
    assert app.searches.spec_for(ALPHABETA_THEN_SOLVER, 5.0, board) == "solver"
    assert app.searches.spec_for("mcts", 99, board) == "mcts:time=0.1"


def test_overlay_geometry_matches_the_svg():
    """The clickable squares sit over the squares board_svg draws (a1 bottom left)."""
    text = donuts_svg.board_svg(Layout.standard().directions)
    total = float(re.search(r'viewBox="0 0 (\d+) (\d+)"', text).group(1))
    first = re.search(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="[\d.]+" fill="#f3e6d3"', text)
    x, y, w = (float(v) for v in first.groups())
    state = Server().state(_web_game())
    origin, cell = state["geometry"]["origin"], state["geometry"]["cell"]
    assert x == pytest.approx(origin * total) and w == pytest.approx(cell * total)
    assert y == pytest.approx((origin + 5 * cell) * total)  # a1 is in the bottom row


def _web_game():
    from donuts_ai.play.server import WebGame
    from donuts_ai.play.session import PlaySession

    return WebGame("x", PlaySession(Board(), None), None, 1.0)


# --- the page in headless Chromium -------------------------------------------------------------------------

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _chromium() -> str | None:
    for path in (os.environ.get("DONUTS_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                 shutil.which("chromium-browser"), shutil.which("google-chrome")):
        if path and os.path.exists(path):
            return path
    return None


def _need_browser():
    required = os.environ.get("DONUTS_REQUIRE_BROWSER") == "1"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        if required:
            pytest.fail("DONUTS_REQUIRE_BROWSER=1 but Playwright is not installed (pip install -e '.[dev]')")
        pytest.skip("Playwright for Python is not installed (pip install -e '.[dev]')")
    path = _chromium()
    if path is None:
        if required:
            pytest.fail("DONUTS_REQUIRE_BROWSER=1 but no Chromium is installed (apt-get install chromium)")
        pytest.skip("no Chromium installed (apt-get install chromium, or set DONUTS_CHROMIUM to a Chromium binary)")
    return path


@pytest.fixture(scope="module")
def served():
    """``donuts-ai serve --port 0`` in a subprocess; yields its URL."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "donuts_ai", "serve", "--port", "0", "--quiet", "--max-think", "0.2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env, text=True)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], HANG)
        assert ready, "donuts-ai serve printed no URL"
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, f"no URL in {line!r}; stderr: {proc.stderr.read() if proc.poll() is not None else ''}"
        yield m.group(0)
    finally:
        proc.terminate()
        proc.wait(timeout=HANG)


@pytest.fixture(scope="module")
def browser():
    path = _need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, served):
    context = browser.new_context(viewport={"width": 1100, "height": 820})
    pg = context.new_page()
    pg.set_default_timeout(HANG * 1000)
    errors = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(served)
    _idle(pg)
    yield pg
    context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


def _idle(pg):
    pg.wait_for_selector('body[data-busy="0"]', state="attached")
    pg.wait_for_selector("#fen:not(:empty)", state="attached")


def _shot(pg, name):
    folder = os.environ.get("DONUTS_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        pg.mouse.move(1, 1)
        pg.screenshot(path=str(Path(folder) / f"{name}.png"))


def _new_game(pg, opponent="random", color="chocolate", layout="standard", fen=None, text=None):
    pg.select_option("#opponent", opponent)
    pg.select_option("#color", color)
    pg.select_option("#layout-kind", "fen" if fen else "text" if text else layout)
    if fen:
        pg.fill("#fen-input", fen)
    if text:
        pg.fill("#layout-text", text)
    pg.click("#new-game")
    _idle(pg)


def _fen(pg) -> str:
    return pg.inner_text("#fen").strip()


def _play_until_over(pg, rng, check=None, limit=80):
    for _ in range(limit):
        if pg.locator("#outcome").count():
            return
        if check:
            check()
        legal = pg.locator(".sq.legal")
        n = legal.count()
        assert n > 0, "a human turn with no legal square marked"
        legal.nth(rng.randrange(n)).click()
        _idle(pg)
    raise AssertionError("the game did not end")


@pytest.mark.browser
def test_browser_whole_game_by_clicking(page):
    pg = page
    _shot(pg, "1-start")
    cells = pg.locator("[data-square]")
    assert cells.count() == 36
    assert pg.get_attribute('[data-square="c3"]', "aria-label").startswith("c3: empty, horizontal line")
    _new_game(pg, opponent="random", layout="random")
    seed = pg.input_value("#seed")
    assert seed.isdigit(), "a random layout shows the seed it was drawn from"
    assert f"random:{seed}" in pg.inner_text("#game-info")
    _play_until_over(pg, random.Random(1))
    banner = pg.locator("#outcome")
    assert banner.is_visible() and banner.get_attribute("role") == "alert"
    board = Board.from_fen(_fen(pg))
    assert banner.get_attribute("data-result") == board.outcome().result()
    assert ("Draw" in banner.inner_text()) == (board.outcome().winner is None)
    assert pg.locator(".sq.legal").count() == 0
    _shot(pg, "3-game-over")


@pytest.mark.browser
def test_browser_illegal_click_changes_nothing_and_undo_restores(page):
    pg = page
    _new_game(pg, opponent="greedy")
    pg.locator('[data-square="c3"]').click()  # an open pick: legal
    _idle(pg)
    before, moves = _fen(pg), pg.locator("#moves li").count()
    assert moves == 2
    illegal = pg.locator(".sq:not(.legal)").first
    name = illegal.get_attribute("data-square")
    illegal.click()
    _idle(pg)
    assert "illegal move " + name in pg.inner_text("#message")
    assert _fen(pg) == before and pg.locator("#moves li").count() == moves
    pg.locator(".sq.legal").first.click()
    _idle(pg)
    assert _fen(pg) != before and pg.locator("#moves li").count() == 4
    pg.click("#undo")
    _idle(pg)
    assert _fen(pg) == before and pg.locator("#moves li").count() == moves


@pytest.mark.browser
def test_browser_analysis_colours_agree_with_analyze(page):
    pg = page
    rng = random.Random(4)
    start = Board(Layout.random(8))
    while start.plies_left() > 16 or start.is_game_over():
        if start.is_game_over():
            start = Board(Layout.random(rng.randrange(1000)))
        start.push(rng.choice(start.legal_moves()))
    _new_game(pg, opponent="random", color=["chocolate", "vanilla"][start.turn], fen=start.fen())
    pg.check("#analysis")
    colours = {"win": "rgba(46, 160, 67, 0.55)", "draw": "rgba(70, 110, 200, 0.45)", "loss": "rgba(214, 40, 40, 0.5)"}
    checked = []

    def check():
        fen = _fen(pg)
        pg.wait_for_function("() => document.querySelector('#verdict').dataset.fen === document.querySelector('#fen').textContent"
                             " && document.querySelector('#verdict').dataset.complete === 'true'")
        assert pg.get_attribute("#verdict", "data-exact") == "true"
        pg.mouse.move(1, 1)  # no hover colour
        want = {m.move: m for m in analyze(Board.from_fen(fen))}
        got = pg.eval_on_selector_all(".sq.legal", """els => els.map(e => [e.dataset.square, e.dataset.value,
            e.dataset.distance, getComputedStyle(e).backgroundColor, e.querySelector('.tag').textContent])""")
        assert sorted(g[0] for g in got) == sorted(want)
        for square, value, distance, background, tag in got:
            m = want[square]
            assert (value, int(distance)) == (m.result, m.distance), square
            assert background == colours[value] and tag == f"{m.result[0].upper()}{m.distance}"
        verdict = pg.inner_text("#verdict")
        best = max(want.values(), key=lambda m: m.score)
        assert ("Draw" in verdict) == (best.value == 0)
        checked.append(fen)
        if len(checked) == 1:
            _shot(pg, "2-analysis")

    _play_until_over(pg, rng, check)
    assert checked


@pytest.mark.browser
def test_browser_empty_board_analysis_runs_in_the_background(page):
    """On the empty board the proofs take seconds: the page draws what is proven so far,
    stays playable meanwhile, and ends with every first move's exact value."""
    pg = page
    # A tile arrangement whose first moves are among the cheapest to prove (1.7 s of one
    # core for all 36): the test is about the page's behaviour, not the solver's tail.
    _new_game(pg, opponent="random", color="both", layout="text", text=Layout.random_grid(63).to_text())
    empty = _fen(pg)
    pg.check("#analysis")
    pg.wait_for_function(f"() => document.querySelector('#verdict').dataset.fen === {empty!r}")
    first_complete = pg.get_attribute("#verdict", "data-complete")
    _shot(pg, "4-analysis-proving")
    pg.locator('[data-square="c3"]').click()  # playing on while the analysis works
    _idle(pg)
    assert _fen(pg) != empty and pg.locator("#moves li").count() == 1
    pg.click("#undo")
    _idle(pg)
    assert _fen(pg) == empty
    pg.wait_for_function(f"() => document.querySelector('#verdict').dataset.fen === {empty!r}"
                         " && document.querySelector('#verdict').dataset.complete === 'true'")
    _shot(pg, "5-analysis-empty-board")
    board, solver = Board.from_fen(empty), Solver(tt_bits=18)
    got = pg.eval_on_selector_all(".sq.legal", "els => els.map(e => [e.dataset.square, e.dataset.value])")
    assert sorted(g[0] for g in got) == sorted(board.legal_moves())
    for square, value in got:
        assert {"win": 1, "draw": 0, "loss": -1}[value] == solver.move_value(board, square), square
    print(f"the first answer on the empty board was complete: {first_complete}")


@pytest.mark.browser
def test_browser_empty_board_shows_the_book_move_in_its_first_answer(page):
    """A studied arrangement (the standard layout): the page's first answer on the empty
    board already marks the opening book's move as a proven win, before the search."""
    pg = page
    _new_game(pg, opponent="random", color="both", layout="standard")
    empty = _fen(pg)
    entry = shipped_book().probe(Board.from_fen(empty))
    assert entry is not None and entry.value == 1
    pg.check("#analysis")
    pg.wait_for_function(f"() => document.querySelector('#verdict').dataset.fen === {empty!r}")
    _shot(pg, "6-analysis-book-move")
    shown = pg.get_attribute(f'[data-square="{entry.best_move}"]', "data-value")
    assert shown == "win", f"the book's move {entry.best_move} shows {shown!r}"


def _book_arrangement_with_first_moves() -> Layout:
    """A tile arrangement whose class the shipped book holds with every first move's value:
    the first row of the official rules' first-move study, turned by a symmetry so that the
    page is asked about another image of the class than the one studied."""
    _, rows = load_study(ROOT / "notebooks" / "study_first_moves_all.jsonl")
    return Layout.from_text(rows[0]["layout"]).transform("rot90")


@pytest.mark.browser
def test_browser_first_moves_values_come_at_once_and_distances_fill_in(page):
    """An empty board of a tile arrangement whose first moves the book holds: the page's
    first answer shows every first move's exact value (none an estimate, none pending), the
    same as the solver's; the distances then fill in as they are proved."""
    pg = page
    layout = _book_arrangement_with_first_moves()
    _new_game(pg, opponent="random", color="both", layout="text", text=layout.to_text())
    empty = _fen(pg)
    entry = shipped_book().probe(Board.from_fen(empty))
    assert entry is not None and entry.first_moves is not None
    asked = time.perf_counter()
    pg.check("#analysis")
    pg.wait_for_function(f"() => document.querySelector('#verdict').dataset.fen === {empty!r}")
    first_answer = time.perf_counter() - asked
    _shot(pg, "7-first-moves-at-once")
    got = dict(pg.eval_on_selector_all(".sq.legal", "els => els.map(e => [e.dataset.square, e.dataset.value])"))
    assert got == {move: {1: "win", 0: "draw", -1: "loss"}[v] for move, v in entry.first_moves.items()}
    pg.wait_for_function("() => document.querySelectorAll('.sq.legal[data-distance]').length > 0")
    _shot(pg, "8-first-moves-distances-filling")
    print(f"every first move's value on the page {first_answer:.2f} s after analysis was switched on")


@pytest.mark.browser
def test_browser_tabs_play_separate_games(browser, served):
    context = browser.new_context()
    one, two = context.new_page(), context.new_page()
    for pg in (one, two):
        pg.set_default_timeout(HANG * 1000)
        pg.goto(served)
        _idle(pg)
    assert one.get_attribute("#record", "href") != two.get_attribute("#record", "href")
    before = _fen(two)
    _new_game(one, opponent="random", layout="text", text=Layout.random_grid(5).to_text())
    one.locator(".sq.legal").first.click()
    _idle(one)
    assert Board.from_fen(_fen(one)).layout == Layout.random_grid(5)
    two.reload()
    _idle(two)
    assert _fen(two) == before, "a reload keeps the tab's own game"
    context.close()


def test_the_learned_agent_is_an_opponent_on_the_page_when_jax_is_installed(api):
    pytest.importorskip("jax")
    status, options = api("/api/options")
    assert status == 200 and "az" in [a["kind"] for a in options["agents"]]
    status, st = api("/api/new", {"opponent": "az", "layout": "random:5", "color": "vanilla", "think": 0.1})
    assert status == 200 and st["ai_to_move"]
    before = Board.from_fen(st["fen"])
    status, st = api("/api/reply", {"game": st["game"]})
    assert status == 200 and not st["ai_to_move"]
    assert sum(Board.from_fen(st["fen"]).placed) == sum(before.placed) + 1
