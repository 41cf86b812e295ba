"""``donuts-ai serve`` under load, on loopback only: two dozen players at once beside
idle connections that sent half a request. Every player gets its answers (no reset
connection, no 5xx), a bad request is still a 4xx, and the idle connections are closed
by the server's idle timeout instead of being kept forever. Loops are bounded in count
and every wait in time."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from donuts_ai.errors import DonutsError
from donuts_ai.play.server import Server, make_server

HOST = "127.0.0.1"
PLAYERS = 24
IDLE_CONNECTIONS = 60
#: Moves each player makes (each followed by the opponent's reply).
MOVES = 3
IDLE_TIMEOUT = 1.0
HANG = 120  # seconds: a guard against a hung server, not a speed requirement
HALF_A_REQUEST = b"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Len"

#: Every test here waits on a server under load with clocks (timeouts, a trickling client).
pytestmark = pytest.mark.time_sensitive


@pytest.fixture
def server():
    httpd = make_server(HOST, 0, Server(max_think=0.05, max_games=2 * PLAYERS), idle_timeout=IDLE_TIMEOUT)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def _call(port: int, path: str, body: dict) -> tuple[int, dict]:
    conn = http.client.HTTPConnection(HOST, port, timeout=HANG)
    try:
        conn.request("POST", path, body=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read().decode())
    finally:
        conn.close()


def _player(port: int, seed: int) -> list[int]:
    """A game against the random opponent: a few moves, each answered. Returns the statuses."""
    statuses = []
    status, state = _call(port, "/api/new", {"color": "chocolate", "opponent": "random", "layout": f"random:{seed}"})
    statuses.append(status)
    for _ in range(MOVES):
        if status != 200 or not state["your_turn"]:
            break
        square = next(sq["name"] for sq in state["squares"] if sq["legal"])
        status, state = _call(port, "/api/move", {"game": state["game"], "square": square})
        statuses.append(status)
        if status == 200 and state["ai_to_move"]:
            status, state = _call(port, "/api/reply", {"game": state["game"]})
            statuses.append(status)
    return statuses


def test_players_get_answers_beside_idle_connections(server):
    idle = []
    try:
        for _ in range(IDLE_CONNECTIONS):
            sock = socket.create_connection((HOST, server), timeout=HANG)
            sock.sendall(HALF_A_REQUEST)
            idle.append(sock)
        with ThreadPoolExecutor(PLAYERS) as pool:
            games = list(pool.map(lambda seed: _player(server, seed), range(PLAYERS)))
        assert all(statuses and set(statuses) == {200} for statuses in games), games
        assert sum(len(statuses) for statuses in games) == PLAYERS * (1 + 2 * MOVES)
        status, answer = _call(server, "/api/move", {"game": "no-such-game", "square": "a1"})
        assert 400 <= status < 500 and answer["error"]
        # The stalled connections are closed by the server (an empty read), not left open.
        for sock in idle:
            assert sock.recv(1024) == b""
    finally:
        for sock in idle:
            sock.close()


def test_the_idle_timeout_is_checked():
    with pytest.raises(DonutsError, match="idle_timeout"):
        make_server(HOST, 0, Server(), idle_timeout=0)


def test_a_client_that_stalls_inside_its_body_is_closed_without_an_answer(server):
    # Whole headers, then a body shorter than its Content-Length: the read of the body
    # times out, and the server closes the connection quietly (no 500 written back).
    with socket.create_connection((HOST, server), timeout=HANG) as sock:
        sock.sendall(b"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"color\":")
        assert sock.recv(1024) == b""
    status, _ = _call(server, "/api/new", {"color": "chocolate", "opponent": "random"})
    assert status == 200  # and the server still answers
