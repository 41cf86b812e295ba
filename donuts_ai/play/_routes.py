"""The page's API behind ``donuts-ai serve`` (:mod:`.server`), independent of HTTP: the
games by id (:class:`Registry`), the agents and analyses they share (:class:`SearchPool`),
and :class:`Server`, whose methods are the routes (:data:`ROUTES`), each taking the
request's JSON body and answering the JSON the page reads (the ``...JSON`` types). A bad
request raises :class:`HttpError` (a 4xx status and a one-line message); the HTTP side,
:mod:`.server`, reads requests, calls the routes and writes their answers.
"""

from __future__ import annotations

import importlib.util
import math
import random
import secrets
import threading
import time
from collections import OrderedDict
from http import HTTPStatus
from typing import TYPE_CHECKING, TypedDict, overload

from ..donuts import svg as _svg
from ..donuts.board import Board
from ..donuts.layout import DRAWN_LAYOUT_KINDS, Layout
from ..donuts.rules import Rules, RulesDict
from ..donuts.squares import COLOR_NAMES, square_name
from ..game import JSONObject
from ..tournament.specs import make_agent
from .analysis import ANALYSIS_WAIT, MAX_THINK, AnalysisJobs, Analyst, PositionAnalysisJSON
from .session import PlaySession, constraint_text, make_layout, parse_color

if TYPE_CHECKING:  # the agents are built by spec (make_agent), never imported
    from ..donuts.agents.donuts_agent import DonutsAgent


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
#: Agents kept built (each holds its search tables): the least recently used go first.
AGENT_CACHE = 3

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
    rules: RulesDict
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
    """A 4xx answer with a one-line message.

    Args:
        status: the HTTP status.
        message: the message.
    """

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message.splitlines()[0] if message else HTTPStatus(status).phrase


class WebGame:
    """One page's game: the :class:`~.session.PlaySession`, the opponent's kind and think time, a lock.

    Args:
        game_id: the game's id.
        session: the game being played.
        kind: the opponent's agent kind (``None``: people play both sides).
        think: the opponent's think time, in seconds.
    """

    def __init__(self, game_id: str, session: PlaySession, kind: str | None, think: float):
        self.id = game_id
        self.session = session
        self.kind = kind
        self.think = think
        self.lock = threading.Lock()
        self.touched = time.monotonic()
        self.last_info = ""


class SearchPool:
    """The search machinery: the analyst (hints) and a few built agents, shared by every game and
    used by one request at a time (one lock), and the background analyses (``jobs``, one per
    game, searching beside the lock's holder).

    Args:
        max_think: the most seconds an agent may think.
    """

    def __init__(self, max_think: float):
        self.max_think = max_think
        self.lock = threading.Lock()
        self.analyst = Analyst()
        self.jobs = AnalysisJobs()
        self._agents: OrderedDict[str, DonutsAgent] = OrderedDict()
        self._agent_game: dict[int, str] = {}

    def agent(self, spec: str, game_id: str) -> DonutsAgent:
        """A built agent of ``spec``, reset when it last served another game.

        Args:
            spec: the agent's spec.
            game_id: the game it serves.
        """
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
        """The spec of an agent kind at a think time (capped), for the position it plays.

        Args:
            kind: the agent kind (``alphabeta+solver`` solves only near the end).
            think: seconds a move.
            board: the position.
        """
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
            self.analyst.analyze(board)
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
    """The games, by id: at most ``max_games``, idle ones expire.

    Args:
        max_games: the most games kept (the least recently used go first).
        ttl: seconds an idle game is kept.
    """

    def __init__(self, max_games: int = MAX_GAMES, ttl: float = GAME_TTL):
        self.max_games = max_games
        self.ttl = ttl
        self.lock = threading.Lock()
        self.games: OrderedDict[str, WebGame] = OrderedDict()

    def add(self, web: WebGame) -> None:
        """Keep a game (dropping the least recently used one when full).

        Args:
            web: the game.
        """
        with self.lock:
            self._expire()
            while len(self.games) >= self.max_games:
                self.games.popitem(last=False)
            self.games[web.id] = web

    def get(self, game_id: object) -> WebGame:
        """The game of an id, marked as used.

        Args:
            game_id: the id.

        Raises:
            HttpError: a missing, unknown or expired id.
        """
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


def _layout_for(body: JSONObject) -> tuple[Layout, str]:
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
def _number(body: JSONObject, key: str, default: float) -> float: ...
@overload
def _number(body: JSONObject, key: str, default: int, kind: type[int]) -> int: ...
def _number(body: JSONObject, key: str, default: float, kind: type[float] | type[int] = float) -> float:
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise HttpError(400, f"{key} must be a number, got {value!r}"[:120])
    if isinstance(value, float) and not math.isfinite(value):
        raise HttpError(400, f"{key} must be a finite number")
    if kind is int and int(value) != value:
        raise HttpError(400, f"{key} must be an integer, got {value!r}"[:120])
    return kind(value)


class Server:
    """The page's state and API, independent of HTTP (the handler only translates). Each
    ``POST /api/...`` method takes the request's JSON object (``game``: the game's id),
    returns the game's state as JSON, and raises :class:`HttpError` on a bad request,
    changing nothing.

    Args:
        max_think: the most seconds an agent may think.
        max_games: the most games kept.
    """

    def __init__(self, max_think: float = MAX_THINK, max_games: int = MAX_GAMES):
        self.max_think = min(max_think, MAX_THINK)
        self.searches = SearchPool(self.max_think)
        self.registry = Registry(max_games)

    # --- the API -----------------------------------------------------------------------
    def options(self) -> OptionsJSON:
        return {"agents": [{"kind": k, "about": v} for k, v in AGENT_KINDS.items()], "min_think": MIN_THINK,
                "max_think": self.max_think, "default_think": min(DEFAULT_THINK, self.max_think),
                "analysis_wait": ANALYSIS_WAIT, "solver_plies": SOLVER_PLIES, "max_games": self.registry.max_games}

    def new_game(self, body: JSONObject) -> StateJSON:
        """``POST /api/new``: a new game (the fields in :mod:`.server`'s table)."""
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

    def _think(self, body: JSONObject, default: float) -> float:
        think = _number(body, "think", default)
        if not MIN_THINK <= think <= self.max_think:
            raise HttpError(400, f"think must be between {MIN_THINK:g} and {self.max_think:g} seconds, got {think:g}")
        return think

    def move(self, body: JSONObject) -> StateJSON:
        """``POST /api/move``: the person's move (``square``)."""
        web = self.registry.get(body.get("game"))
        square = body.get("square")
        if not isinstance(square, str):
            raise HttpError(400, "square: expected a square name such as c3")
        with web.lock:
            web.session.play(square)
            self.searches.jobs.cancel(web.id)
            return self.state(web)

    def reply(self, body: JSONObject) -> StateJSON:
        """``POST /api/reply``: the opponent's next move (``think``: seconds, optional)."""
        web = self.registry.get(body.get("game"))
        think = self._think(body, web.think)
        with web.lock:
            g = web.session
            if not g.ai_to_move():
                raise HttpError(409, "the game is over" if g.is_over() else "it is not the opponent's turn")
            web.think = think
            assert web.kind is not None  # an agent plays the opponent (ai_to_move)
            with self.searches.lock:
                spec = self.searches.spec_for(web.kind, think, g.board)
                agent = self.searches.agent(spec, web.id)
                start = time.perf_counter()
                ply = g.ai_move(agent)
                seconds = time.perf_counter() - start
            self.searches.jobs.cancel(web.id)
            web.last_info = f"{web.kind} played {ply.square} after {seconds:.2f} s" + (
                " (solving)" if spec == "solver" else "")
            return self.state(web)

    def undo(self, body: JSONObject) -> StateJSON:
        """``POST /api/undo``: take back the person's last move and the replies."""
        web = self.registry.get(body.get("game"))
        with web.lock:
            web.session.undo()
            web.last_info = ""
            self.searches.jobs.cancel(web.id)
            return self.state(web)

    def resign(self, body: JSONObject) -> StateJSON:
        """``POST /api/resign``: the person resigns."""
        web = self.registry.get(body.get("game"))
        with web.lock:
            web.session.resign()
            self.searches.jobs.cancel(web.id)
            return self.state(web)

    def get_state(self, body: JSONObject) -> StateJSON:
        """``POST /api/state``: the game's state."""
        web = self.registry.get(body.get("game"))
        with web.lock:
            return self.state(web)

    def _position_to_think_about(self, body: JSONObject, refusal: str) -> tuple[WebGame, Board]:
        """The game and a copy of its position (the game's lock is held only to copy it), or
        a 409 with ``refusal`` when the game is over."""
        web = self.registry.get(body.get("game"))
        with web.lock:
            if web.session.is_over():
                raise HttpError(409, f"the game is over: {refusal}")
            return web, web.session.board.copy(stack=False)

    def analyze(self, body: JSONObject) -> PositionAnalysisJSON:
        """``POST /api/analyze``: the legal moves' values known after up to :data:`~.analysis.ANALYSIS_WAIT`
        seconds of the game's background analysis: as soon as every move's value is known, then
        at each next step (``complete`` false: ask again, for the distances still being proved).

        Args:
            body: the request's JSON object (``game``: the game's id).

        Returns:
            The analysis, as JSON.

        Raises:
            HttpError: a bad request, changing nothing.
        """
        web, board = self._position_to_think_about(body, "nothing to analyze")
        job = self.searches.jobs.request(web.id, board)
        job.wait(ANALYSIS_WAIT, values=True)
        return job.snapshot().to_json()

    def hint(self, body: JSONObject) -> HintJSON:
        """``POST /api/hint``: a best move, exact whenever its value is proven.

        Args:
            body: the request's JSON object (``game``: the game's id).

        Returns:
            The hint, as JSON.

        Raises:
            HttpError: a bad request, changing nothing.
        """
        web, board = self._position_to_think_about(body, "no hint")
        job = self.searches.jobs.current(web.id, board)
        known = job.snapshot() if job is not None else None
        if known is not None and known.value_known():
            h = known.best  # the analysis has proven it: no search needed
        else:
            with self.searches.lock:
                h = self.searches.analyst.hint(board)
        assert board.turn is not None  # the game is not over
        return {"fen": board.fen(), "move": h.move, "exact": h.exact, "value": h.result, "distance": h.distance,
                "text": f"{h.move}: {h.describe_for(COLOR_NAMES[board.turn])}"}

    def record(self, game_id: str) -> str:
        """``GET /api/record``: the game record (``donuts-ai replay`` reads it).

        Args:
            game_id: the game's id.

        Raises:
            HttpError: a missing, unknown or expired id.
        """
        web = self.registry.get(game_id)
        with web.lock:
            return web.session.record().dumps()

    # --- the state the page draws ----------------------------------------------------------
    def state(self, web: WebGame) -> StateJSON:
        """A game's state, as JSON.

        Args:
            web: the game.
        """
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


#: The API's POST routes: the path -> the :class:`Server` method answering it (``GET
#: /api/options`` and ``/api/record`` are answered by :mod:`.server`).
ROUTES = {"/api/new": "new_game", "/api/move": "move", "/api/reply": "reply", "/api/undo": "undo", "/api/resign": "resign",
          "/api/state": "get_state", "/api/analyze": "analyze", "/api/hint": "hint"}
