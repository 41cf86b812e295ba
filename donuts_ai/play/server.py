"""``donuts-ai serve``: a local web page to play against the agents, with analysis.

The standard library's threaded HTTP server; no dependencies, no build step, nothing
loaded from elsewhere (the page works offline). The page (``static/index.html`` and
``static/app.js``) talks to a small JSON API:

=====================  ==========================================================
``GET  /api/options``  agents, think-time range, limits
``POST /api/new``      a new game: ``layout`` (``standard``, ``random``, ``random:SEED``,
                       ``grid``, ``grid:SEED``, ``text`` with ``layout_text``), or a
                       ``fen``; ``insertion``, ``donuts``, ``color`` (chocolate, vanilla,
                       both), ``opponent`` (a built-in agent kind), ``think`` (seconds)
``POST /api/state``    ``{game}``: the game's state
``POST /api/move``     ``{game, square}``: the person's move
``POST /api/reply``    ``{game, think?}``: the opponent's next move (one move a request)
``POST /api/undo``     ``{game}``: take back the person's last move and the replies
``POST /api/resign``   ``{game}``
``POST /api/hint``     ``{game}``: a best move, exact whenever its value is proven
``POST /api/analyze``  ``{game}``: every legal move's value (see :mod:`.evaluation`): starts
                       the game's background analysis of its position (or finds it),
                       waits up to 2 s for it and answers what is known; ``complete``
                       false means ask again (the empty board takes seconds)
``GET  /api/record``   ``?game=ID``: the game record (``donuts-ai replay`` reads it)
=====================  ==========================================================

Safe by default: it binds to 127.0.0.1, answers only requests addressed to the host it
serves (no DNS rebinding) and API posts only as JSON (so another site's form cannot
post to it); only the built-in agents can be chosen, their think time is capped at
:data:`~donuts_ai.play.evaluation.MAX_THINK`, the ``alphabeta+solver`` opponent solves only
when the end is near enough to bound its work, and every analysis is under node limits (at most
:data:`~donuts_ai.play.evaluation.MAX_JOBS` of them kept, one per game, cancelled when
its position changes). Bad requests get a 4xx status with a
one-line ``{"error": ...}`` and change nothing. Each game has its own id, so browser
tabs play separate games; at most ``max_games`` are kept (the least recently used
go first) and games idle for :data:`GAME_TTL` seconds expire.
"""

from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import json
import math
import random
import secrets
import sys
import threading
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import TYPE_CHECKING, TypedDict, overload
from urllib.parse import parse_qs, urlsplit

from ..donuts import svg as _svg
from ..donuts.board import Board
from ..donuts.layout import DRAWN_LAYOUT_KINDS, Layout
from ..donuts.rules import Rules, RulesDict
from ..donuts.squares import COLOR_NAMES, square_name
from ..errors import DonutsError, GameOverError
from ..tournament.specs import make_agent
from .evaluation import ANALYSIS_WAIT, MAX_THINK, AnalysisJobs, Analyst, PositionEvalJSON
from .session import NotYourTurn, PlaySession, constraint_text, make_layout, parse_color

if TYPE_CHECKING:  # the agents are built by spec (make_agent), never imported
    from ..donuts.agents.board_agent import BoardAgent

#: The page's opponent that searches with alpha-beta, then solves near the end (:data:`SOLVER_PLIES`).
ALPHABETA_THEN_SOLVER = "alphabeta+solver"
#: Agents the page offers, with what the think time means for each.
AGENT_KINDS = {
    "random": "uniformly random legal moves",
    "greedy": "one ply: takes a five, avoids handing one over",
    "alphabeta": "alpha-beta search for the think time",
    "mcts": "Monte-Carlo tree search for the think time",
    # Alpha-beta for the think time until the end is near enough to solve, then perfect play:
    # named for both, so that nobody takes the opening moves for the solver's.
    ALPHABETA_THEN_SOLVER: "alpha-beta search for the think time, then perfect play once the end is near enough to solve",
}
# The learned agent, when the learn extra (JAX) is installed: its network searched for the think time.
if importlib.util.find_spec("jax") is not None:
    AGENT_KINDS["az"] = "the learned network (AlphaZero-style self-play), searching for the think time"
#: The ``alphabeta+solver`` opponent solves (value only) when at most this many plies remain, and
#: searches with alpha-beta for the think time before that. Measured with
#: ``solve(board, distance=False)``: see docs/howto/play.md.
SOLVER_PLIES = 26
MIN_THINK = 0.05
DEFAULT_THINK = 1.0
MAX_GAMES = 64
#: Seconds a game may sit idle before it expires.
GAME_TTL = 6 * 3600
#: The most bytes of a request body.
MAX_BODY = 16_384
#: Seconds a connection may stay silent while its request is read before it is closed.
IDLE_TIMEOUT = 10.0
#: Connections waiting to be accepted (the listen backlog).
LISTEN_QUEUE = 128
#: Agents kept built (each holds its search tables): the least recently used go first.
AGENT_CACHE = 3

STATIC = resources.files(__package__) / "static"
FILES = {"/": ("index.html", "text/html; charset=utf-8"), "/index.html": ("index.html", "text/html; charset=utf-8"),
         "/app.js": ("app.js", "text/javascript; charset=utf-8")}


#: A request's JSON body, as received (every value still to be checked).
JsonObject = dict[str, object]


class AgentOption(TypedDict):
    """One agent the page offers: its kind and what its think time means."""

    kind: str
    about: str


class OptionsJSON(TypedDict):
    """``GET /api/options``."""

    agents: list[AgentOption]
    min_think: float
    max_think: float
    default_think: float
    analysis_wait: float
    solver_plies: int
    max_games: int


class HintJSON(TypedDict):
    """``POST /api/hint``: a best move for the side to move of position ``fen``."""

    fen: str
    move: str
    exact: bool
    #: ``"win"``, ``"draw"``, ``"loss"`` or ``None`` (an estimate).
    value: str | None
    distance: int | None
    text: str


class SquareJSON(TypedDict):
    """One square of the board the page draws."""

    name: str
    #: The printed line's symbol.
    line: str
    #: The donut's colour name, or ``None`` (empty).
    donut: str | None
    #: Whether the person may click it now.
    legal: bool


class GeometryJSON(TypedDict):
    """Where the squares are in the board's SVG, as fractions of its size."""

    origin: float
    cell: float


#: The rules as the page sends and receives them: the rules' one dict form.
RulesJSON = RulesDict


class LayoutJSON(TypedDict):
    label: str
    text: str


class PlyJSON(TypedDict):
    """One move of the game (a :class:`~.session.Ply`), its colour by name."""

    color: str
    square: str
    flips: list[str]
    by: str


class OutcomeJSON(TypedDict):
    """The end of a game: result string, winner's colour name (``None``: a draw),
    termination and the result in words."""

    result: str
    winner: str | None
    reason: str | None
    text: str


class StateJSON(TypedDict):
    """A game's state, as the page draws it (the answer of ``new``, ``state``, ``move``,
    ``reply``, ``undo`` and ``resign``)."""

    game: str
    fen: str
    svg: str
    geometry: GeometryJSON
    squares: list[SquareJSON]
    #: The colour to move, ``None`` once the game is over.
    turn: str | None
    #: The person's colour, or ``"both"``.
    you: str
    your_turn: bool
    ai_to_move: bool
    #: The opponent's kind, ``None`` when people play both sides.
    opponent: str | None
    think: float
    last: str | None
    constraint: str
    open_pick: bool
    placed: list[int]
    donuts: int
    rules: RulesJSON
    layout: LayoutJSON
    plies: list[PlyJSON]
    can_undo: bool
    remaining: int
    info: str
    outcome: OutcomeJSON | None


class ErrorJSON(TypedDict):
    """A 4xx or 5xx answer."""

    error: str


class HttpError(Exception):
    """A 4xx answer with a one-line message."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message.splitlines()[0] if message else HTTPStatus(status).phrase


class WebGame:
    """One page's game: the :class:`~.session.PlaySession`, the opponent's kind and think time, a lock."""

    def __init__(self, game_id: str, session: PlaySession, kind: str | None, think: float):
        self.id = game_id
        self.session = session
        self.kind = kind
        self.think = think
        self.lock = threading.Lock()
        self.touched = time.monotonic()
        self.last_info = ""


class Engines:
    """The search machinery: the analyst (hints) and a few built agents, shared by every
    game and used by one request at a time (one lock), and the background analyses
    (``jobs``, one per game, searching beside the lock's holder)."""

    def __init__(self, max_think: float):
        self.max_think = max_think
        self.lock = threading.Lock()
        self.analyst = Analyst()
        self.jobs = AnalysisJobs()
        self._agents: OrderedDict[str, BoardAgent] = OrderedDict()
        self._agent_game: dict[int, str] = {}

    def agent(self, spec: str, game_id: str) -> BoardAgent:
        agent = self._agents.pop(spec, None)
        if agent is None:
            agent = make_agent(spec, game="donuts")
        self._agents[spec] = agent
        while len(self._agents) > AGENT_CACHE:
            old = self._agents.popitem(last=False)[1]
            self._agent_game.pop(id(old), None)
        if self._agent_game.get(id(agent)) != game_id:  # serving another game now: a clean start
            agent.reset()
            self._agent_game[id(agent)] = game_id
        return agent

    def spec_for(self, kind: str, think: float, board: Board) -> str:
        think = min(max(think, MIN_THINK), self.max_think)
        if kind == ALPHABETA_THEN_SOLVER:
            return "solver" if board.plies_left() <= SOLVER_PLIES else f"alphabeta:time={think:g}"
        if kind in ("alphabeta", "mcts", "az"):
            return f"{kind}:time={think:g}"
        return kind

    def warm_up(self) -> None:
        """Load (or compile) every kernel the page can call, before the first request."""
        with self.lock:
            board = Board()
            for move in ("c3", "e3"):
                board.push(move)
            for kind in ("random", "greedy", "alphabeta", "mcts"):
                self.agent(self.spec_for(kind, MIN_THINK, board), "").select_move(board)
            self.analyst.evaluate(board)
            self.analyst.hint(board)
            self.agent("solver", "").select_move(_near_end(SOLVER_PLIES))


def _near_end(plies: int) -> Board:
    """A position of a random game with at most ``plies`` plies left (to warm the solver)."""
    rng = random.Random(0)
    while True:
        board = Board()
        while not board.is_game_over() and board.plies_left() > plies:
            board.push(rng.choice(board.legal_moves()))
        if not board.is_game_over():
            return board


class Registry:
    """The games, by id: at most ``max_games``, idle ones expire."""

    def __init__(self, max_games: int = MAX_GAMES, ttl: float = GAME_TTL):
        self.max_games = max_games
        self.ttl = ttl
        self.lock = threading.Lock()
        self.games: OrderedDict[str, WebGame] = OrderedDict()

    def add(self, web: WebGame) -> None:
        with self.lock:
            self._expire()
            while len(self.games) >= self.max_games:
                self.games.popitem(last=False)
            self.games[web.id] = web

    def get(self, game_id: object) -> WebGame:
        if not isinstance(game_id, str) or not game_id:
            raise HttpError(400, "missing game id: start a new game")
        with self.lock:
            self._expire()
            web = self.games.get(game_id)
            if web is None:
                raise HttpError(404, "unknown or expired game; start a new game")
            self.games.move_to_end(game_id)
            web.touched = time.monotonic()
            return web

    def _expire(self) -> None:
        now = time.monotonic()
        for gid in [g for g, w in self.games.items() if now - w.touched > self.ttl]:
            del self.games[gid]


def _layout_for(body: JsonObject) -> tuple[Layout, str]:
    kind = str(body.get("layout", "standard")).strip()
    if kind == "text":
        text = body.get("layout_text")
        if not isinstance(text, str) or len(text) > 1000:
            raise HttpError(400, "layout text: expected 6 lines of 6 symbols - | / \\")
        return Layout.from_text(text), "pasted"
    # Only the spec words: a page never names a file on this machine.
    head = kind.partition(":")[0]
    if head not in ("standard", *DRAWN_LAYOUT_KINDS) or (head == "standard" and kind != "standard"):
        raise HttpError(400, f"unknown layout {kind[:40]!r}: expected standard, random[:SEED], grid[:SEED] or text")
    return make_layout(kind)  # random / grid draw a seed, shown in the label


@overload
def _number(body: JsonObject, key: str, default: float) -> float: ...
@overload
def _number(body: JsonObject, key: str, default: int, kind: type[int]) -> int: ...
def _number(body: JsonObject, key: str, default: float, kind: type[float] | type[int] = float) -> float:
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise HttpError(400, f"{key} must be a number, got {value!r}"[:120])
    if isinstance(value, float) and not math.isfinite(value):
        raise HttpError(400, f"{key} must be a finite number")
    if kind is int and int(value) != value:
        raise HttpError(400, f"{key} must be an integer, got {value!r}"[:120])
    return kind(value)


class Server:
    """The page's state and API, independent of HTTP (the handler only translates)."""

    def __init__(self, max_think: float = MAX_THINK, max_games: int = MAX_GAMES):
        self.max_think = min(max_think, MAX_THINK)
        self.engines = Engines(self.max_think)
        self.registry = Registry(max_games)

    # --- the API -----------------------------------------------------------------------
    def options(self) -> OptionsJSON:
        return {"agents": [{"kind": k, "about": v} for k, v in AGENT_KINDS.items()], "min_think": MIN_THINK,
                "max_think": self.max_think, "default_think": min(DEFAULT_THINK, self.max_think),
                "analysis_wait": ANALYSIS_WAIT, "solver_plies": SOLVER_PLIES, "max_games": self.registry.max_games}

    def new_game(self, body: JsonObject) -> StateJSON:
        official = Rules()
        rules = Rules.from_dict({"insertion": str(body.get("insertion", official.insertion)),
                                 "donuts": _number(body, "donuts", official.donuts, int)})
        human = parse_color(body.get("color", "chocolate"))
        kind = None
        if human is not None:
            kind = str(body.get("opponent", "mcts"))
            if kind not in AGENT_KINDS:
                raise HttpError(400, f"unknown opponent {kind[:40]!r}: expected one of {', '.join(AGENT_KINDS)}")
        think = self._think(body, min(DEFAULT_THINK, self.max_think))
        fen = body.get("fen")
        if fen:
            if not isinstance(fen, str) or len(fen) > 200:
                raise HttpError(400, "fen: expected a position string (Board.fen())")
            board, label = Board.from_fen(fen.strip(), rules), "from a position"
        else:
            layout, label = _layout_for(body)
            board = Board(layout, rules)
        name = "nobody" if kind is None else kind
        game = PlaySession(board, human, opponent_name=name, layout_label=label)
        web = WebGame(secrets.token_urlsafe(12), game, kind, think)
        self.registry.add(web)
        return self.state(web)

    def _think(self, body: JsonObject, default: float) -> float:
        think = _number(body, "think", default)
        if not MIN_THINK <= think <= self.max_think:
            raise HttpError(400, f"think must be between {MIN_THINK:g} and {self.max_think:g} seconds, got {think:g}")
        return think

    def move(self, body: JsonObject) -> StateJSON:
        web = self.registry.get(body.get("game"))
        square = body.get("square")
        if not isinstance(square, str):
            raise HttpError(400, "square: expected a square name such as c3")
        with web.lock:
            web.session.play(square)
            self.engines.jobs.cancel(web.id)
            return self.state(web)

    def reply(self, body: JsonObject) -> StateJSON:
        web = self.registry.get(body.get("game"))
        think = self._think(body, web.think)
        with web.lock:
            g = web.session
            if not g.ai_to_move():
                raise HttpError(409, "the game is over" if g.is_over() else "it is not the opponent's turn")
            web.think = think
            assert web.kind is not None  # an agent plays the opponent (ai_to_move)
            with self.engines.lock:
                spec = self.engines.spec_for(web.kind, think, g.board)
                agent = self.engines.agent(spec, web.id)
                start = time.perf_counter()
                ply = g.ai_move(agent)
                seconds = time.perf_counter() - start
            self.engines.jobs.cancel(web.id)
            web.last_info = f"{web.kind} played {ply.square} after {seconds:.2f} s" + (
                " (solving)" if spec == "solver" else "")
            return self.state(web)

    def undo(self, body: JsonObject) -> StateJSON:
        web = self.registry.get(body.get("game"))
        with web.lock:
            web.session.undo()
            web.last_info = ""
            self.engines.jobs.cancel(web.id)
            return self.state(web)

    def resign(self, body: JsonObject) -> StateJSON:
        web = self.registry.get(body.get("game"))
        with web.lock:
            web.session.resign()
            self.engines.jobs.cancel(web.id)
            return self.state(web)

    def get_state(self, body: JsonObject) -> StateJSON:
        web = self.registry.get(body.get("game"))
        with web.lock:
            return self.state(web)

    def _position_to_think_about(self, body: JsonObject, refusal: str) -> tuple[WebGame, Board]:
        """The game and a copy of its position (the game's lock is held only to copy it), or
        a 409 with ``refusal`` when the game is over."""
        web = self.registry.get(body.get("game"))
        with web.lock:
            if web.session.is_over():
                raise HttpError(409, f"the game is over: {refusal}")
            return web, web.session.board.copy(stack=False)

    def analyze(self, body: JsonObject) -> PositionEvalJSON:
        web, board = self._position_to_think_about(body, "nothing to analyze")
        job = self.engines.jobs.request(web.id, board)
        job.wait(ANALYSIS_WAIT)
        return job.snapshot().to_json()

    def hint(self, body: JsonObject) -> HintJSON:
        web, board = self._position_to_think_about(body, "no hint")
        job = self.engines.jobs.current(web.id, board)
        known = job.snapshot() if job is not None else None
        if known is not None and known.value_known():
            h = known.best  # the analysis has proven it: no search needed
        else:
            with self.engines.lock:
                h = self.engines.analyst.hint(board)
        assert board.turn is not None  # the game is not over
        return {"fen": board.fen(), "move": h.move, "exact": h.exact, "value": h.result, "distance": h.distance,
                "text": f"{h.move}: {h.describe_for(COLOR_NAMES[board.turn])}"}

    def record(self, game_id: str) -> str:
        web = self.registry.get(game_id)
        with web.lock:
            return web.session.record().dumps()

    # --- the state the page draws ----------------------------------------------------------
    def state(self, web: WebGame) -> StateJSON:
        g, b = web.session, web.session.board
        clickable = b.legal_mask() if g.human_to_move() else 0
        total = 2 * _svg.MARGIN + 6 * _svg.CELL
        b0, b1 = b.bitboards
        squares: list[SquareJSON] = []
        for sq in range(36):
            color = 0 if b0 >> sq & 1 else 1 if b1 >> sq & 1 else None
            squares.append({"name": square_name(sq), "line": b.layout.symbol(sq),
                            "donut": None if color is None else COLOR_NAMES[color], "legal": bool(clickable >> sq & 1)})
        p0, p1 = b.placed
        mover = None if g.is_over() else b.turn
        outcome: OutcomeJSON | None = None
        if g.is_over():
            winner = g.winner()
            outcome = {"result": g.result(), "winner": None if winner is None else COLOR_NAMES[winner],
                       "reason": g.termination(), "text": g.result_text()}
        return {
            "game": web.id,
            "fen": b.fen(),
            "svg": _svg.board_svg(b.layout.directions, b.bitboards, b.last, clickable),
            "geometry": {"origin": _svg.MARGIN / total, "cell": _svg.CELL / total},
            "squares": squares,
            "turn": None if mover is None else COLOR_NAMES[mover],
            "you": "both" if g.human is None else COLOR_NAMES[g.human],
            "your_turn": g.human_to_move(),
            "ai_to_move": g.ai_to_move(),
            "opponent": web.kind,
            "think": web.think,
            "last": None if b.last is None else square_name(b.last),
            "constraint": "" if mover is None else constraint_text(b, "you" if g.human_to_move() and g.human is not None
                                                                    else COLOR_NAMES[mover].capitalize()),
            "open_pick": b.is_open_pick(),
            "placed": [p0, p1],
            "donuts": b.rules.donuts,
            "rules": b.rules.to_dict(),
            "layout": {"label": g.layout_label, "text": b.layout.to_text()},
            "plies": [{"color": COLOR_NAMES[p.color], "square": p.square, "flips": p.flips, "by": p.by} for p in g.plies],
            "can_undo": g.resigned is not None or any(g.is_human(p.color) for p in g.plies),
            "remaining": b.plies_left(),
            "info": web.last_info,
            "outcome": outcome,
        }


ROUTES = {"/api/new": "new_game", "/api/move": "move", "/api/reply": "reply", "/api/undo": "undo", "/api/resign": "resign",
          "/api/state": "get_state", "/api/analyze": "analyze", "/api/hint": "hint"}


class Handler(BaseHTTPRequestHandler):
    server_version = "donuts-ai"
    sys_version = ""
    app: Server
    quiet = False

    # --- plumbing ------------------------------------------------------------------------
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
        if not self.quiet:
            sys.stderr.write(f"{self.address_string()} {format % args}\n")

    def _send(self, status: int, body: bytes, ctype: str, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy",
                         "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, data: object) -> None:
        self._send(status, json.dumps(data).encode(), "application/json")

    def _error(self, status: int, message: str) -> None:
        error: ErrorJSON = {"error": message}
        self._json(status, error)

    def _host_ok(self) -> bool:
        """Only requests addressed to this server by an IP address or localhost (a web page
        from elsewhere cannot reach it through a DNS name pointed at 127.0.0.1)."""
        host = (self.headers.get("Host") or "").strip()
        if host.startswith("["):
            name = host[1 : host.find("]")] if "]" in host else host
        else:
            name = host.rsplit(":", 1)[0] if ":" in host else host
        if name == "localhost":
            return True
        try:
            ipaddress.ip_address(name)
            return True
        except ValueError:
            return False

    def _body(self) -> JsonObject:
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise HttpError(415, "send the request body as application/json")
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise HttpError(400, "bad Content-Length") from None
        if length < 0 or length > MAX_BODY:
            raise HttpError(413, f"request body too large (at most {MAX_BODY} bytes)")
        raw = self.rfile.read(length) if length else b"{}"
        try:
            body = json.loads(raw)
        except (ValueError, RecursionError):
            raise HttpError(400, "malformed JSON in the request body") from None
        if not isinstance(body, dict):
            raise HttpError(400, "the request body must be a JSON object")
        return body

    def _guard(self, action: Callable[[], None]) -> None:
        try:
            if not self._host_ok():
                raise HttpError(403, "requests must address this server by IP address or localhost")
            action()
        except HttpError as exc:
            self._error(exc.status, exc.message)
        except (NotYourTurn, GameOverError) as exc:
            self._error(409, str(exc).splitlines()[0])
        except DonutsError as exc:
            self._error(400, str(exc).splitlines()[0])
        except (TimeoutError, ConnectionError):  # the client stalled or left mid-request: nobody to answer
            self.close_connection = True
        except Exception as exc:  # a bug: say so in one line, keep serving
            traceback.print_exc()
            self._error(500, f"internal error: {type(exc).__name__}")

    # --- verbs -------------------------------------------------------------------------
    def do_GET(self) -> None:  # noqa: N802 (the base class's name)
        self._guard(self._get)

    def do_HEAD(self) -> None:  # noqa: N802
        self._guard(self._get)

    def do_POST(self) -> None:  # noqa: N802
        self._guard(self._post)

    def _get(self) -> None:
        url = urlsplit(self.path)
        if url.path in FILES:
            name, ctype = FILES[url.path]
            self._send(200, (STATIC / name).read_bytes(), ctype)
        elif url.path == "/favicon.ico":
            self._send(204, b"", "image/x-icon")
        elif url.path == "/api/options":
            self._json(200, self.app.options())
        elif url.path == "/api/record":
            game_id = parse_qs(url.query).get("game", [""])[0]
            text = self.app.record(game_id)
            self._send(200, text.encode(), "text/plain; charset=utf-8",
                       {"Content-Disposition": 'attachment; filename="donuts-game.txt"'})
        elif url.path.startswith("/api/"):
            raise HttpError(405 if url.path in ROUTES else 404, f"{url.path}: " + ("use POST" if url.path in ROUTES else "no such API"))
        else:
            raise HttpError(404, f"no page at {url.path[:60]}")

    def _post(self) -> None:
        path = urlsplit(self.path).path
        if path not in ROUTES:
            raise HttpError(404, f"{path[:60]}: no such API")
        body = self._body()
        self._json(200, getattr(self.app, ROUTES[path])(body))


class _HTTPServer(ThreadingHTTPServer):
    """One thread per connection, so a slow request never holds up another."""

    daemon_threads = True
    allow_reuse_address = True
    # The listen queue: connections the kernel holds until the accept loop takes them.
    # socketserver's default of 5 reset players' connections when two dozen arrived at once.
    request_queue_size = LISTEN_QUEUE


def make_server(host: str = "127.0.0.1", port: int = 0, app: Server | None = None, quiet: bool = True,
                idle_timeout: float = IDLE_TIMEOUT) -> _HTTPServer:
    """An HTTP server for ``app`` bound to ``host:port`` (port 0: a free one), not yet
    serving (call ``serve_forever``). A connection that sends nothing for
    ``idle_timeout`` seconds while its request is read (an idle or stalled client) is
    closed, so it holds no thread for long."""
    app = app or Server()
    if not idle_timeout > 0:
        raise DonutsError(f"idle_timeout must be a positive number of seconds, got {idle_timeout!r}")
    # ``timeout`` is the socket timeout socketserver sets on every connection it hands the
    # handler: a read that waits longer ends the request (http.server closes the connection).
    handler = type("BoundHandler", (Handler,), {"app": app, "quiet": quiet, "timeout": idle_timeout})
    try:
        return _HTTPServer((host, port), handler)
    except OSError as exc:
        raise DonutsError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def run(args: argparse.Namespace) -> int:
    """``donuts-ai serve``."""
    max_think = MAX_THINK if args.max_think is None else args.max_think
    if not 0 < max_think <= MAX_THINK:
        raise DonutsError(f"--max-think must be in (0, {MAX_THINK:g}] seconds, got {max_think:g}")
    max_games = MAX_GAMES if args.max_games is None else args.max_games
    if not 1 <= max_games <= 10_000:
        raise DonutsError(f"--max-games must be in 1..10000, got {max_games}")
    if not 0 <= args.port <= 65535:
        raise DonutsError(f"--port must be in 0..65535, got {args.port}")
    app = Server(max_think, max_games)
    httpd = make_server(args.host, args.port, app, quiet=args.quiet)
    try:
        sys.stderr.write("loading the engines...\n")
        app.engines.warm_up()
        host, port = httpd.server_address[:2]
        assert isinstance(host, str)  # an IPv4 or IPv6 address
        shown = f"[{host}]" if ":" in host else host
        if not _is_loopback(host):
            sys.stderr.write(f"warning: listening on {host}: other machines can reach this page\n")
        print(f"Donuts on http://{shown}:{port}/ (Ctrl-C to stop)", flush=True)
        httpd.serve_forever()
    except KeyboardInterrupt:
        sys.stderr.write("\nstopped\n")
    finally:
        httpd.server_close()
    return 0
