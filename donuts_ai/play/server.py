"""``donuts-ai serve``: a local web page to play against the agents, with analysis. This is the
HTTP side (:class:`Handler`, :func:`make_server`, :func:`run`) of the routes in :mod:`._routes`:

=====================  ==========================================================
``GET  /api/options``  agents, think-time range, limits
``POST /api/new``      a new game: ``layout`` (``standard``, ``random[:SEED]``,
                       ``grid[:SEED]``, ``text`` with ``layout_text``) or a ``fen``;
                       ``insertion``, ``donuts``, ``color`` (chocolate, vanilla, both),
                       ``opponent`` (a built-in agent kind), ``think`` (seconds)
``POST /api/state``    ``{game}``: the game's state
``POST /api/move``     ``{game, square}``: the person's move
``POST /api/reply``    ``{game, think?}``: the opponent's next move (one move a request)
``POST /api/undo``     ``{game}``: take back the person's last move and the replies
``POST /api/resign``   ``{game}``: the person resigns
``POST /api/hint``     ``{game}``: a best move, exact whenever its value is proven
``POST /api/analyze``  ``{game}``: the moves' values known after 2 s (``complete``: all)
``GET  /api/record``   ``?game=ID``: the game record (``donuts-ai replay`` reads it)
=====================  ==========================================================

Bad requests get a 4xx status and ``{"error": ...}``; it binds to 127.0.0.1 by default.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import sys
import traceback
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, urlsplit

from .._compile_notice import notice_if_compiling
from ..errors import DonutsError, GameOverError
from ..game import JSONObject
from ._routes import AGENT_KINDS as AGENT_KINDS
from ._routes import ALPHABETA_THEN_SOLVER as ALPHABETA_THEN_SOLVER
from ._routes import MAX_GAMES, ROUTES, ErrorJSON, HttpError, Server
from ._routes import SOLVER_PLIES as SOLVER_PLIES
from ._routes import WebGame as WebGame
from .analysis import MAX_THINK
from .session import NotYourTurn

#: The most bytes of a request body.
MAX_BODY = 16_384
#: What the page says while its first start compiles the searches (later starts load them).
COMPILE_NOTICE = "donuts-ai: compiling the page's searches, once (later starts load them from Numba's cache)..."
#: Seconds a connection may stay silent while its request is read before it is closed.
IDLE_TIMEOUT = 10.0
#: Connections waiting to be accepted (the listen backlog).
LISTEN_QUEUE = 128

STATIC = resources.files(__package__) / "static"
FILES = {"/": ("index.html", "text/html; charset=utf-8"), "/index.html": ("index.html", "text/html; charset=utf-8"),
         "/app.js": ("app.js", "text/javascript; charset=utf-8")}


# The standard library's threaded HTTP server: no dependencies, no build step, nothing loaded
# from elsewhere (the page, static/index.html and static/app.js, works offline). Safe by
# default: it binds to 127.0.0.1, answers only requests addressed to the host it serves (no
# DNS rebinding) and API posts only as JSON (so another site's form cannot post to it); only
# the built-in agents can be chosen, their think time is capped at analysis.MAX_THINK, the
# ``alphabeta+solver`` opponent solves only when the end is near enough to bound its work,
# and every analysis is under node limits (at most analysis.MAX_JOBS kept, one per game,
# cancelled when its position changes). Bad requests change nothing. Each game has its own
# id, so browser tabs play separate games; at most ``max_games`` are kept (the least recently
# used go first) and games idle for _routes.GAME_TTL seconds expire.
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

    def _body(self) -> JSONObject:
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
    """An HTTP server for ``app``, not yet serving (call ``serve_forever``).

    Args:
        host: the address bound.
        port: the port (0: a free one).
        app: the routes (default: a new :class:`~._routes.Server`).
        quiet: whether to log nothing.
        idle_timeout: a connection that sends nothing for this many seconds while its request
            is read (an idle or stalled client) is closed, so it holds no thread for long.
    """
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
    """``donuts-ai serve``.

    Args:
        args: the parsed command line.

    Returns:
        The exit status.
    """
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
        sys.stderr.write("loading the searches...\n")
        with notice_if_compiling(sys.stderr, COMPILE_NOTICE):
            app.searches.warm_up()
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
