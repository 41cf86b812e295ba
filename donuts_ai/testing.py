"""The game conformance check: :func:`check_game` runs on a game of one's own the checks every
game of the table passes in the library's own tests, with no test framework::

    import examples.tic_tac_toe  # registers tic-tac-toe
    from donuts_ai.testing import check_game

    check_game("tic-tac-toe")  # the names of the checks passed, or a GameCheckError naming the first failure

The checks read the game through its contract alone (:class:`~donuts_ai.game.Game` and the
state protocol, :class:`~donuts_ai.state.GameState`), on its official rules
(``rules_dict(None)``) and fresh set-ups (``draw_setup(FRESH_SETUP, seed)``): a few seeded
random games to the end and back, their states written and read back, what an agent sees,
how an answer reads as a move, the ledgers, and a small tournament of random agents whose
results file replays. Each check is a function of this module whose one-line docstring is its
name in messages and in what :func:`check_game` returns. A game of hidden information
(``PERFECT_INFORMATION = False``) passes the same checks, but its ``player_view`` need not be
a state.

This module imports no test framework; it loads the tournament harness only when its check runs.
"""

from __future__ import annotations

import json
import math
import random
import tempfile
import traceback
from collections.abc import Callable, MutableMapping, MutableSequence
from functools import cached_property
from pathlib import Path
from typing import Any

from ._checks import check_int, check_seed
from .errors import GameError
from .game import Ending, Game, game_names, get_game, legal_move, make
from .state import GameOutcome, GameState

#: The longest a value's repr (or an exception's message) runs in a message before it is cut.
MAX_REPR = 200
#: The most moves a random game may take before the check calls it endless.
MAX_PLIES = 10_000
#: A move text no game knows: pushed, it is refused; answered, it names no move.
JUNK_MOVE = "\x00not-a-move"
#: Answers an agent may return that name no move (:func:`~donuts_ai.game.legal_move` reads ``None``).
JUNK_ANSWERS: tuple[object, ...] = (None, object(), "", 10**9, b"a1", float("nan"), JUNK_MOVE)
#: A keyword setting no game takes: ``make()`` refuses it naming it.
UNKNOWN_SETTING = "no_such_setting"
#: Plies between the positions of a random game where states are written and read back,
#: and what an agent sees is checked (the start and the end are always checked).
SAMPLE_EVERY = 9
#: The most legal moves read back as answers at one position (evenly spaced among them, first and last included).
ANSWERS_PER_POSITION = 20
#: Moves played before a state is copied (fewer when the random game is shorter).
COPY_AT_PLY = 5
#: The agents of the small tournament: two seeded random players.
TOURNAMENT_AGENTS = ("random", "random:seed=9")
#: Games the small tournament plays (a free-for-all game rounds it up to a table's rotations).
TOURNAMENT_GAMES = 2
#: The reason of the made-up ending the ledgers score: an adjudication, as the harness writes it.
ADJUDICATED_REASON = "time"
#: The members of the state protocol (:class:`~donuts_ai.state.GameState`), named when a state lacks one.
STATE_MEMBERS = tuple(name for name in dir(GameState) if not name.startswith("_"))


class GameCheckError(GameError):
    """A game failed a check of :func:`check_game`; the message, one line, names all three.

    Args:
        game_name: the game.
        check: the check.
        problem: what was wrong.
    """

    def __init__(self, game_name: str, check: str, problem: str) -> None:
        super().__init__(f"{game_name}: {check}: {problem}")
        self.game_name, self.check, self.problem = game_name, check, problem

    def __reduce__(self) -> tuple[type[GameCheckError], tuple[str, str, str]]:
        return type(self), (self.game_name, self.check, self.problem)


class _Failure(Exception):
    """What a check found wrong, in one line (:func:`check_game` adds the game and the check)."""


def _short(value: object) -> str:
    """``value``'s repr (a text's own repr too), cut to :data:`MAX_REPR` characters."""
    text = repr(value)
    return text if len(text) <= MAX_REPR else text[: MAX_REPR - 3] + "..."


def _one_line(exc: BaseException) -> str:
    """An exception as ``Type: message``, on one line, its message cut to :data:`MAX_REPR` characters."""
    message = " ".join(str(exc).split())
    message = message if len(message) <= MAX_REPR else message[: MAX_REPR - 3] + "..."
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def _expect(condition: object, problem: str) -> None:
    """Fail the check with ``problem`` unless ``condition`` holds."""
    if not condition:
        raise _Failure(problem)


def _outcome_fields(outcome: GameOutcome | None) -> tuple[object, ...] | None:
    """An outcome as plain values, to compare two outcomes whatever their classes."""
    if outcome is None:
        return None
    scores = None if outcome.scores is None else list(outcome.scores)
    return outcome.winner, list(outcome.places), scores, outcome.reason


#: What a state shows, compared wherever it must not have changed: (name, how to read it).
_VIEWS: tuple[tuple[str, Callable[[GameState], object]], ...] = (
    ("to_dict()", lambda state: state.to_dict()),
    ("to_text()", lambda state: state.to_text()),
    ("legal_moves()", lambda state: list(state.legal_moves())),
    ("turn", lambda state: state.turn),
    ("move_stack", lambda state: list(state.move_stack)),
    ("outcome()", lambda state: _outcome_fields(state.outcome())),
)


def _snapshot(state: GameState) -> dict[str, object]:
    """Everything :data:`_VIEWS` reads of ``state``, by name."""
    return {name: read(state) for name, read in _VIEWS}


def _expect_same(got: dict[str, object], expected: dict[str, object], context: str, whose: str = "") -> None:
    """Fail naming the first view of :data:`_VIEWS` that differs: ``"{context}, {whose}to_dict() differs: got != expected"``."""
    for name, value in expected.items():
        if got[name] != value:
            raise _Failure(f"{context}, {whose}{name} differs: {_short(got[name])} != {_short(value)}")


def _through_json(value: object, what: str) -> Any:
    """``value`` written as strict JSON and read back; fails unless it is JSON and reads back equal."""
    try:
        again = json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise _Failure(f"{what} is not JSON ({_one_line(exc)}): {_short(value)}") from None
    _expect(again == value, f"{what} does not read back from JSON as it was: {_short(again)} != {_short(value)}")
    return again


def _sampled_plies(moves: int) -> set[int]:
    """The plies of a game of ``moves`` moves where states are checked: every :data:`SAMPLE_EVERY`-th, and the end."""
    return {*range(0, moves + 1, SAMPLE_EVERY), moves}


class _Subject:
    """The game under check and what the checks share: its official rules and players, and
    the seeded random games, played once (game ``i``: the set-up drawn from ``seed + i``, the
    moves chosen by ``random.Random(seed + i)``)."""

    def __init__(self, game: Game[Any], seed: int, games: int) -> None:
        self.game, self.seed, self.games = game, seed, games

    @cached_property
    def registered(self) -> bool:
        """Whether the table of games knows this game by its name (the harness finds it there)."""
        return self.game.name in game_names() and get_game(self.game.name) is self.game

    @cached_property
    def rules(self) -> Any:
        """The official rules, ``rules_dict(None)``."""
        return self.game.rules_dict(None)

    @cached_property
    def players(self) -> int:
        """How many players a game under the official rules has."""
        players: int = self.game.num_players(self.rules)
        return players

    def start(self, index: int) -> GameState:
        """The starting state of random game ``index``."""
        state: GameState = self.game.new_state(self.game.draw_setup(self.game.FRESH_SETUP, self.seed + index), self.rules)
        return state

    def replay(self, index: int, plies: int | None = None) -> GameState:
        """Random game ``index`` after its first ``plies`` moves (``None``: all of them)."""
        state = self.start(index)
        for move in self.moves[index][:plies]:
            state.push(move)
        return state

    @cached_property
    def random_games(self) -> list[tuple[GameState, list[str]]]:
        """The random games played to their end: each one's final state and its moves."""
        return [self._play(index) for index in range(self.games)]

    @cached_property
    def moves(self) -> list[list[str]]:
        """The moves of each random game."""
        return [moves for _, moves in self.random_games]

    @cached_property
    def moves_seen(self) -> list[str]:
        """Every move played in the random games, once each, in the order first played."""
        return list(dict.fromkeys(move for moves in self.moves for move in moves))

    def _play(self, index: int) -> tuple[GameState, list[str]]:
        """Random game ``index``, played to its end with uniformly random legal moves."""
        state, rng = self.start(index), random.Random(self.seed + index)
        moves: list[str] = []
        while not state.is_game_over():
            legal = list(state.legal_moves())
            where = f"random game {index} (seed {self.seed + index}) at ply {len(moves)}"
            _expect(legal, f"{where}: the game goes on (is_game_over() is False) but legal_moves() is empty")
            _expect(len(moves) < MAX_PLIES, f"{where}: no end after {MAX_PLIES} random moves")
            move = rng.choice(legal)
            state.push(move)
            moves.append(move)
        return state, moves


# --- the checks, in the order check_game runs them ---------------------------------------


def _make_builds_a_state(subject: _Subject) -> None:
    """make() builds a state to move and refuses an unknown setting."""
    game = subject.game
    settings = {"seed": subject.seed} if "seed" in game.SETTINGS else {}
    # The front end make(name) for a game in the table; a game passed as a Game object, its own make().
    state = make(game.name, **settings) if subject.registered else game.make(**settings)
    missing = [member for member in STATE_MEMBERS if not hasattr(state, member)]
    _expect(not missing, f"make() returned a {type(state).__name__}, not a GameState: it lacks {', '.join(missing)}")
    _expect(state.turn == 0, f"make()'s state has turn {_short(state.turn)}, not 0 (player 0 moves first)")
    _expect(list(state.legal_moves()), "make()'s state has no legal moves")
    if subject.registered:  # the front end refuses what SETTINGS does not name
        try:
            make(game.name, **{UNKNOWN_SETTING: 1})
        except GameError as exc:
            said = str(exc)
            _expect(repr(UNKNOWN_SETTING) in said and all(setting in said for setting in game.SETTINGS),
                    f"make(..., {UNKNOWN_SETTING}=1) was refused without naming it and the settings accepted: {_one_line(exc)}")
        else:
            raise _Failure(f"make(..., {UNKNOWN_SETTING}=1) built a state: SETTINGS names a setting no game takes")


def _setups_and_rules_read_back(subject: _Subject) -> None:
    """set-ups and rules are text and JSON the game reads back."""
    game, seed = subject.game, subject.seed
    setup = game.draw_setup(game.FRESH_SETUP, seed)
    drawn = f"draw_setup({game.FRESH_SETUP!r}, {seed})"
    _expect(isinstance(setup, str), f"{drawn} is a {type(setup).__name__}, not a set-up text")
    again = game.draw_setup(game.FRESH_SETUP, seed)
    _expect(again == setup, f"{drawn} is not a function of the seed: {_short(setup)}, then {_short(again)}")
    text = game.setup_text(setup)
    _expect(text == setup, f"setup_text() of {drawn} is not the text itself: {_short(text)} != {_short(setup)}")
    rules = subject.rules
    _expect(isinstance(rules, dict), f"rules_dict(None) is a {type(rules).__name__}, not a dict")
    _through_json(rules, "rules_dict(None)")
    checked = game.rules_dict(rules)
    _expect(checked == rules, f"rules_dict() of the official rules changes them: {_short(checked)} != {_short(rules)}")
    players = subject.players
    _expect(isinstance(players, int) and players >= 2, f"num_players() of the official rules is {_short(players)}, not 2 or more")
    word = game.parse_setups(game.FRESH_SETUP)
    _expect(isinstance(word, str), f"parse_setups({game.FRESH_SETUP!r}) is {_short(word)}, not the word for a fresh draw")
    _expect(game.LEDGERS, "LEDGERS is empty: a game has at least one score ledger")
    for ledger in game.LEDGERS:
        said = game.ledger_text(ledger)
        _expect(isinstance(said, str) and said.strip(), f"ledger_text({ledger!r}) is {_short(said)}, not a line of text")


def _check_outcome(outcome: GameOutcome, players: int, where: str) -> None:
    """Fail unless ``outcome`` gives competition places of ``players`` players that agree with its winner."""
    places = list(outcome.places)
    _expect(len(places) == players and all(isinstance(p, int) for p in places),
            f"{where}: places {_short(places)} are not {players} whole numbers, one per player")
    _expect(min(places) == 0, f"{where}: places {_short(places)} have no first place (0)")
    competition = [sum(other < place for other in places) for place in places]
    _expect(places == competition, f"{where}: places {_short(places)} are not competition places ({_short(competition)})")
    first = [player for player, place in enumerate(places) if place == 0]
    alone = first[0] if len(first) == 1 else None
    _expect(outcome.winner == alone, f"{where}: winner {_short(outcome.winner)} with places {_short(places)} "
                                     f"(the winner is the player alone in first place, else None)")
    _expect(outcome.scores is None or len(outcome.scores) == players,
            f"{where}: scores {_short(outcome.scores)} are not one per player")
    _expect(isinstance(outcome.reason, str) and outcome.reason, f"{where}: reason {_short(outcome.reason)} is not a word")


def _random_games_end(subject: _Subject) -> None:
    """random games end with an outcome."""
    for index, (state, moves) in enumerate(subject.random_games):
        where = f"random game {index} (seed {subject.seed + index}) over after {len(moves)} moves"
        outcome = state.outcome()
        _expect(isinstance(outcome, GameOutcome), f"{where}: outcome() is {_short(outcome)}, not a GameOutcome")
        assert isinstance(outcome, GameOutcome)  # for the type checker: _expect said it
        _expect(state.turn is None, f"{where}: turn is {_short(state.turn)}, not None")
        _expect(not list(state.legal_moves()), f"{where}: legal_moves() is {_short(state.legal_moves())}, not empty")
        _check_outcome(outcome, subject.players, where)


def _pop_restores_the_state(subject: _Subject) -> None:
    """pop restores the state."""
    for index, moves in enumerate(subject.moves):
        state, seen = subject.start(index), []
        for move in moves:
            seen.append(_snapshot(state))
            state.push(move)
        for ply in reversed(range(len(moves))):
            popped = state.pop()
            _expect(popped == moves[ply], f"pop() at ply {ply + 1} returned {_short(popped)}, not the last move {moves[ply]!r}")
            _expect_same(_snapshot(state), seen[ply], f"after pop() of {moves[ply]!r} at ply {ply}")
        try:
            popped = state.pop()
        except IndexError:
            continue
        except Exception as exc:
            raise _Failure(f"pop() at the start raised {_one_line(exc)}, not an IndexError") from exc
        raise _Failure(f"pop() at the start returned {_short(popped)} instead of raising IndexError")


def _expect_refused(state: GameState, move: str, where: str) -> None:
    """Fail unless pushing ``move`` on ``state`` raises a GameError and changes nothing."""
    before = _snapshot(state)
    try:
        state.push(move)
    except GameError:
        pass
    except Exception as exc:
        raise _Failure(f"push({move!r}) {where} raised {_one_line(exc)}, not a donuts_ai.errors.GameError "
                       f"(the game contract's error for a bad move)") from exc
    else:
        raise _Failure(f"push({move!r}) {where} was played; legal there: {_short(before['legal_moves()'])}")
    _expect_same(_snapshot(state), before, f"after the refused push({move!r}) {where}")


def _bad_moves_are_refused(subject: _Subject) -> None:
    """an illegal move or a move after the end raises a GameError and changes nothing."""
    moves = subject.moves[0]
    plies = 1 if len(moves) > 1 else 0  # a position after a move, where the game goes on
    state = subject.replay(0, plies)
    legal = set(state.legal_moves())
    # A move legal at another position of the game, else none: only the junk.
    borrowed = next((move for move in subject.moves_seen if move not in legal), None)
    illegal = [move for move in (borrowed, JUNK_MOVE) if move is not None]
    for move in illegal:
        _expect_refused(state, move, f"at ply {plies}")
    over = subject.replay(0)
    for move in dict.fromkeys([moves[0], *illegal]):
        _expect_refused(over, move, f"after the end (ply {len(moves)})")


def _a_copy_is_independent(subject: _Subject) -> None:
    """a copy is independent and keeps the history."""
    plies = min(COPY_AT_PLY, len(subject.moves[0]) - 1)  # a position where the game goes on
    state = subject.replay(0, plies)
    before = _snapshot(state)
    copy = state.copy()
    _expect(copy is not state, f"copy() at ply {plies} returned the state itself")
    _expect_same(_snapshot(copy), before, f"copy() at ply {plies}", "the copy's ")
    move = list(copy.legal_moves())[-1]
    copy.push(move)
    _expect_same(_snapshot(state), before, f"after push({move!r}) on a copy at ply {plies}", "the original's ")
    copy.pop()
    if plies:
        copy.pop()  # a move of the history the copy kept
        _expect_same(_snapshot(state), before, f"after pop() on a copy at ply {plies}", "the original's ")
        state.pop()
        _expect_same(_snapshot(copy), _snapshot(state), f"after pop() on both at ply {plies}", "the copy's ")


def _states_read_back(subject: _Subject) -> None:
    """to_dict and to_text read back through JSON."""
    for index, moves in enumerate(subject.moves):
        state = subject.start(index)
        kind = type(state)
        sampled = _sampled_plies(len(moves))
        for ply in range(len(moves) + 1):
            if ply in sampled:
                where = f"in random game {index} at ply {ply}"
                data = _through_json(state.to_dict(), f"to_dict() {where}")
                text = state.to_text()
                _expect(isinstance(text, str) and "\n" not in text, f"to_text() {where} is not one line of text: {_short(text)}")
                expected = _snapshot(state)
                del expected["move_stack"]  # a state read back may start its own history
                for how, again in (("from_dict(to_dict())", kind.from_dict(data)), ("from_text(to_text())", kind.from_text(text))):
                    got = _snapshot(again)
                    _expect_same(got, expected, f"{how} {where}")
            if ply < len(moves):
                state.push(moves[ply])


def _change(view: object) -> None:
    """Change ``view`` as an agent may: push a move on a state, empty a dict or a list."""
    if isinstance(view, GameState):
        legal = list(view.legal_moves())
        if legal:
            view.push(legal[0])
    elif isinstance(view, MutableMapping | MutableSequence):
        view.clear()


def _what_an_agent_sees(subject: _Subject) -> None:
    """what an agent sees is JSON and a view of its own."""
    game, moves = subject.game, subject.moves[0]
    state = subject.start(0)
    sampled = _sampled_plies(len(moves) - 1) | {1}  # positions where a player is to move
    for ply in range(len(moves)):
        if ply in sampled:
            player = state.turn
            where = f"at ply {ply}"
            _expect(isinstance(player, int), f"turn {where} is {_short(player)}, not a player")
            assert isinstance(player, int)  # for the type checker: _expect said it
            observation = game.observation(state, player)
            _through_json(observation, f"observation(state, {player}) {where}")
            game.agent_view(observation)  # what an agent process reads it as
            before = _snapshot(state)
            view = game.player_view(state, player)
            if game.PERFECT_INFORMATION:
                _expect(isinstance(view, GameState) and view is not state,
                        f"player_view(state, {player}) {where} is {_short(view)}, not a copy of the state "
                        f"(a game of perfect information hands over one)")
            _change(view)
            _expect_same(_snapshot(state), before, f"after the agent changed player_view(state, {player}) {where}", "the state's ")
        state.push(moves[ply])


def _spread(items: list[str], most: int) -> list[str]:
    """At most ``most`` of ``items``, evenly spaced, the first and the last among them."""
    if len(items) <= most:
        return items
    return [items[round(i * (len(items) - 1) / (most - 1))] for i in range(most)]


def _answers_read_as_moves(subject: _Subject) -> None:
    """an answer reads as a legal move or None, and never raises."""
    game, moves = subject.game, subject.moves[0]
    state = subject.start(0)
    sampled = _sampled_plies(len(moves))
    for ply in range(len(moves) + 1):
        if ply in sampled:
            for move in _spread(list(state.legal_moves()), ANSWERS_PER_POSITION):
                read = legal_move(game, state, move)
                _expect(read == move, f"legal_move(game, state, {move!r}) at ply {ply} is {_short(read)}, not the move")
            for junk in JUNK_ANSWERS:
                read = legal_move(game, state, junk)
                _expect(read is None, f"legal_move(game, state, {_short(junk)}) at ply {ply} is {_short(read)}, not None")
        if ply < len(moves):
            state.push(moves[ply])


def _ending_of(outcome: GameOutcome, free_for_all: bool) -> Ending:
    """How a game that ended with ``outcome`` ends for the ledgers (a two-sided game's ending has no scores)."""
    scores = None if not free_for_all or outcome.scores is None else tuple(outcome.scores)
    return Ending(outcome.winner, tuple(outcome.places), scores, outcome.reason)


def _the_ledger_gives_numbers(subject: _Subject) -> None:
    """the ledger gives every player a number."""
    game, players = subject.game, subject.players
    made_up = Ending(0, (0,) + (1,) * (players - 1), tuple(range(players, 0, -1)) if game.FREE_FOR_ALL else None,
                     ADJUDICATED_REASON)
    outcomes = [outcome for state, _ in subject.random_games if (outcome := state.outcome()) is not None]
    endings = [made_up, *(_ending_of(outcome, game.FREE_FOR_ALL) for outcome in outcomes)]
    stats = dict.fromkeys(game.STATS, 0)
    for ledger in game.LEDGERS:
        for ending in endings:
            for player in range(len(ending.places)):
                points = game.ledger_points(ending, player, dict(stats), ledger)
                _expect(isinstance(points, int | float) and not isinstance(points, bool) and math.isfinite(points),
                        f"ledger_points({_short(ending)}, {player}, ..., {ledger!r}) is {_short(points)}, not a number")


def _a_tournament_verifies(subject: _Subject) -> None:
    """a small tournament of random agents verifies."""
    game = subject.game
    taken = game.name in game_names()
    _expect(subject.registered, f"the harness finds a game by its name, and {game.name!r} names "
                                + ("another game in the table: register this one under a name of its own" if taken
                                   else "none in the table: register_game() it"))
    from .tournament import run, verify_file  # the harness, loaded when this check runs

    with tempfile.TemporaryDirectory(prefix="check_game-") as folder:
        path = str(Path(folder) / "results.jsonl")
        results = run(list(TOURNAMENT_AGENTS), game=game.name, games=TOURNAMENT_GAMES, seed=subject.seed, workers=1,
                      isolation="none", results_path=path)
        played = results.games
        _expect(len(played) >= TOURNAMENT_GAMES, f"the tournament played {len(played)} games, not {TOURNAMENT_GAMES} or more")
        _expect(all(record.game == game.name for record in played),
                f"the tournament's records name games {sorted({record.game for record in played})}, not {game.name!r}")
        _expect(results.free_for_all == game.FREE_FOR_ALL, f"the tournament's free_for_all is {results.free_for_all}, "
                                                           f"not the game's FREE_FOR_ALL ({game.FREE_FOR_ALL})")
        events = results.events()
        _expect(not events, f"the random agents' games had {len(events)} events, the first: {_short(events[0] if events else None)}")
        verification = verify_file(path)
        _expect(verification.ok, f"its results file does not replay as recorded ({len(verification.mismatches)} findings), "
                                 f"the first: {_short(str(verification.mismatches[0]) if verification.mismatches else None)}")


#: The checks, in the order :func:`check_game` runs them.
CHECKS: tuple[Callable[[_Subject], None], ...] = (
    _make_builds_a_state,
    _setups_and_rules_read_back,
    _random_games_end,
    _pop_restores_the_state,
    _bad_moves_are_refused,
    _a_copy_is_independent,
    _states_read_back,
    _what_an_agent_sees,
    _answers_read_as_moves,
    _the_ledger_gives_numbers,
    _a_tournament_verifies,
)


def _check_name(check: Callable[[_Subject], None]) -> str:
    """A check's name: its one-line docstring, without the final full stop."""
    return (check.__doc__ or check.__name__).strip().rstrip(".")


def _where_raised(exc: BaseException) -> str:
    """Where ``exc`` was raised: the innermost frame's function, file and line."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    frame = frames[-1]
    return f" (in {frame.name}, {Path(frame.filename).name}:{frame.lineno})"


def _run_check(check: Callable[[_Subject], None], subject: _Subject) -> str:
    """Run ``check`` on ``subject`` and return its name; a :class:`GameCheckError` names what went wrong."""
    name = _check_name(check)
    try:
        check(subject)
    except _Failure as failure:
        raise GameCheckError(subject.game.name, name, str(failure)) from failure.__cause__
    except Exception as exc:  # the game's own code (or the harness on its behalf) raised
        raise GameCheckError(subject.game.name, name, f"{_one_line(exc)}{_where_raised(exc)}") from exc
    return name


def check_game(game: Game[Any] | str, *, seed: int = 0, games: int = 3) -> list[str]:
    """Check that ``game`` keeps the game contract, as every game of the table does.

    Runs, in order, every check of this module (``CHECKS``) and stops at the first
    failure. Where a check needs the table of games (``make(name)``'s refusal of an unknown
    setting, the tournament), ``game`` must be registered under its name
    (:func:`~donuts_ai.game.register_game`); a game passed as an unregistered ``Game`` is
    built by its own ``make()``, and fails the tournament check.

    Args:
        game: The game: a :class:`~donuts_ai.game.Game`, a registered name, or
            ``"module:name"`` (imported first, :func:`~donuts_ai.game.get_game`).
        seed: Seeds everything random: random game ``i`` is drawn and played from
            ``seed + i``, the tournament from ``seed``.
        games: How many random games are played to the end and back (1 or more).

    Returns:
        The names of the checks passed, in the order they ran.

    Raises:
        GameCheckError: A check failed, or the game's code raised inside one (the
            exception is chained): one line naming the game, the check and what was wrong.
        DonutsError: ``game`` names no registered game, or ``seed`` or ``games`` is not a
            whole number in range.
    """
    checked_seed = check_seed("seed", seed, allow_none=False)
    checked_games = check_int("games", games, minimum=1)
    subject = _Subject(get_game(game), checked_seed, checked_games)
    return [_run_check(check, subject) for check in CHECKS]


__all__ = ["GameCheckError", "check_game"]
