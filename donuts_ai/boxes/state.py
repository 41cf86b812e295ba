"""The public state of a game of Donut Boxes: :class:`BoxesState`.

It owns parsing, checking, errors, hidden information and printing; the rules run in
the compiled engine (:mod:`._kernels`), which the tests hold to the pure-Python
reference (:mod:`.reference`) move by move.

The **state dict** (:meth:`BoxesState.to_dict`, :meth:`BoxesState.from_dict`) is the
whole state, hidden parts included, as JSON-ready data; an **observation**
(:meth:`BoxesState.observation`) is the same dict with the hidden parts replaced by what
one player may know. Their keys are listed in ``docs/boxes.md`` ("The state dict").
"""

from __future__ import annotations

import json
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._checks import check_int, is_int
from ..errors import GameOverError, IllegalMoveError, InvalidMoveError
from ..state import GameState
from ._kernels import Tables
from ._kernels.tables import Codes, Grid
from ._state.checks import check_observation, check_state_dict, check_trays_and_piles
from ._state.engine import BoxesObservation as BoxesObservation
from ._state.engine import BoxesStateDict as BoxesStateDict
from ._state.engine import EngineCore
from ._state.engine import PlayoutArrays as PlayoutArrays
from ._state.engine import PlayResult as PlayResult
from ._state.undo import UNDO_SNAPSHOT_EVERY as UNDO_SNAPSHOT_EVERY
from ._state.undo import UndoHistory
from .deck import CARD_TYPES, DECK_SIZE, deal
from .errors import BoxesError, ObservationError
from .moves import move_text, parse_move
from .pictures import layout_cells, layout_svg, layout_text
from .rules import BoxesRules

#: Placeholder for another player's stuck move in an observation (the card put back is hidden).
HIDDEN_STUCK = "stuck"


@dataclass(frozen=True)
class BoxesOutcome:
    """The end of a game of Donut Boxes (:meth:`BoxesState.outcome`), in player order.

    ``places`` are :meth:`BoxesState.ranking`'s (0 = first; equal on points and boxes share
    a place), ``winners`` the players in place 0 and ``winner`` the one winner, ``None``
    when first place is shared (as a draw is in Donuts' :class:`~donuts_ai.donuts.board.Outcome`);
    ``scores`` the points and ``boxes`` the boxes delivered."""

    winner: int | None
    winners: tuple[int, ...]
    places: tuple[int, ...]
    scores: tuple[int, ...]
    boxes: tuple[int, ...]

    @property
    def reason(self) -> str:
        """How first place was decided: ``"score"`` (one player alone on the most points),
        ``"boxes"`` (points tied at the top, boxes delivered decided) or ``"shared win"``."""
        if self.winner is None:
            return "shared win"
        return "score" if self.scores.count(max(self.scores)) == 1 else "boxes"


#: The keys of a state dict and of an observation: their types' (``BoxesStateDict``,
#: ``BoxesObservation``), in the order written there, which ``to_dict`` and
#: :meth:`BoxesState.observation` follow.


class BoxesState:
    """A game of Donut Boxes in progress (or over): every card known, moves as texts or codes.

    ``BoxesState(rules=None, seed=0)`` starts a new game (a fresh deal from ``seed``); a
    state also comes from :meth:`from_dict`, :meth:`from_text` or :meth:`from_observation`.
    It speaks the state API every game shares (:class:`donuts_ai.state.GameState`): ``turn``,
    :meth:`legal_moves`, :meth:`push`, :meth:`pop`, :attr:`move_stack`,
    :meth:`is_game_over`, :meth:`outcome`, :meth:`copy`. Moves are canonical texts (grammar
    in :mod:`.moves`) or integer codes (:meth:`legal_move_ids`, :meth:`push_id`); both name
    a move the same way in every state, so a code found in one sampled world means the same
    in another.
    """

    # _history: what pop can undo (the codes pushed since this state's history began, and
    # the copies of the arrays to replay them from: see ._state.undo).
    __slots__ = ("_core", "_history")

    _core: EngineCore
    _history: UndoHistory

    def __init__(self, rules: BoxesRules | None = None, seed: int = 0) -> None:
        """A new game: every deck shuffled from ``seed`` (:func:`~.deck.deal`), trays of 4
        dealt, the start card turned up from the neutral deck; player 0 to move.

        Args:
            rules: the variant (default: ``BoxesRules()``, 2 players).
            seed: the deal's seed.

        Raises:
            BoxesRulesError: ``rules`` is not a :class:`BoxesRules`.
        """
        rules = BoxesRules() if rules is None else rules
        if not isinstance(rules, BoxesRules):
            raise BoxesError(f"rules must be a BoxesRules, got {type(rules).__name__}")
        seed = check_int("seed", seed, minimum=0, error=BoxesError)
        piles, start = deal(rules.players, seed)
        self._core, self._history = EngineCore.new(rules, piles, start), UndoHistory((piles, start))

    @classmethod
    def _of(cls, core: EngineCore) -> BoxesState:
        """A state holding ``core``, its undo history starting there."""
        state = cls.__new__(cls)
        state._core, state._history = core, UndoHistory()
        return state

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BoxesState:
        """A state from :meth:`to_dict`'s form, checked. Its undo history starts here.

        Args:
            data: the state dict (keys: ``docs/boxes.md``, "The state dict").

        Returns:
            The state.

        Raises:
            ObservationError: names the first problem.
        """
        return cls._of(EngineCore.from_dict(check_state_dict(data)))

    def to_dict(self) -> BoxesStateDict:
        """The whole state, hidden parts included, JSON-ready (its keys: ``docs/boxes.md``, "The state dict")."""
        return self._core.to_dict()

    def to_text(self) -> str:
        """The whole state as one line of text: :meth:`to_dict` as compact JSON
        (:meth:`from_text` reads it back). The picture is ``str(state)``."""
        return json.dumps(self._core.to_dict(), separators=(",", ":"))

    @classmethod
    def from_text(cls, text: str) -> BoxesState:
        """A state from :meth:`to_text`'s form, checked.

        Args:
            text: the state dict as JSON.

        Returns:
            The state.

        Raises:
            ObservationError: names the first problem.
        """
        if not isinstance(text, str):
            raise ObservationError(f"state text must be a str, got {type(text).__name__}")
        try:
            data = json.loads(text)
        except ValueError as error:
            raise ObservationError(f"state text is not JSON: {error}") from None
        return cls.from_dict(data)

    def copy(self) -> BoxesState:
        """An independent copy, undo history included."""
        copy = BoxesState._of(self._core.copy())
        copy._history = self._history.copy()
        return copy

    def __copy__(self) -> BoxesState:
        return self.copy()

    # ------------------------------------------------------------------ reading
    @property
    def rules(self) -> BoxesRules:
        return self._core.rules

    @property
    def num_players(self) -> int:
        return self._core.rules.players

    @property
    def turn(self) -> int | None:
        """The player to move, ``None`` once the game is over."""
        return self._core.to_move

    def is_game_over(self) -> bool:
        return self._core.over

    def outcome(self) -> BoxesOutcome | None:
        """``None`` while the game goes on, else its :class:`BoxesOutcome`."""
        if not self._core.over:
            return None
        places = self._core.ranking()
        winners = tuple(p for p, place in enumerate(places) if place == 0)
        return BoxesOutcome(winner=winners[0] if len(winners) == 1 else None, winners=winners, places=tuple(places),
                            scores=tuple(self._core.scores), boxes=tuple(self._core.boxes))

    @property
    def scores(self) -> list[int]:
        return list(self._core.scores)

    @property
    def boxes_delivered(self) -> list[int]:
        """Boxes each player has scored (sealed or boxed early; end-of-game runs do not count)."""
        return list(self._core.boxes)

    @property
    def move_stack(self) -> list[str]:
        """Every move of the game so far, oldest first (those before a :meth:`from_dict`
        too, which :meth:`pop` cannot undo)."""
        return list(self._core.moves)

    def ranking(self) -> list[int]:
        """Each player's place, 0 = first: by score, then boxes delivered; players equal on
        both share a place (``[0, 0, 2]``: a shared win, then third)."""
        return self._core.ranking()

    def winners(self) -> list[int]:
        """The players in place 0."""
        return [p for p, place in enumerate(self.ranking()) if place == 0]

    def tray(self, player: int) -> list[str]:
        """A player's tray (hidden information: see :meth:`observation`).

        Args:
            player: 0 .. players - 1.

        Returns:
            The cards as unturned faces.
        """
        player = self._check_player(player)
        return [CARD_TYPES[t] for t in self._core.tray(player)]

    @property
    def pile_sizes(self) -> list[int]:
        return [len(self._core.pile(p)) for p in range(self.num_players)]

    def layout(self) -> dict[tuple[int, int], tuple[int, bool, int, bool]]:
        """``{(r, c): (flavour 1..4, roll, owner (-1 start card), frozen)}`` of every placed quadrant."""
        data = self._core.to_dict()
        return layout_cells(data["cards"], data["frozen"])

    def box_winners(self) -> dict[tuple[int, int], int | None]:
        """``{(r, c): winner}`` of every frozen quadrant: the player its delivered box scored
        for, ``None`` when it scored for nobody."""
        winners: dict[tuple[int, int], int | None] = {}
        for r, c, winner in self._core.to_dict()["frozen"]:
            assert r is not None and c is not None  # a frozen row is [r, c, winner]
            winners[r, c] = winner
        return winners

    # ------------------------------------------------------------------ moves
    def legal_moves(self) -> list[str]:
        """Every legal move's text in the canonical order; never empty while the game goes on."""
        return [move_text(code) for code in self._core.legal_codes()]

    def legal_move_ids(self) -> Codes:
        """Every legal move's code (int64, ascending: the order of :meth:`legal_moves`)."""
        return self._core.legal_codes()

    def is_legal(self, move: object) -> bool:
        """Whether a move text is legal now; never raises.

        Args:
            move: the move text (anything else is not legal).

        Returns:
            True when legal.
        """
        try:
            code = parse_move(move)
        except InvalidMoveError:
            return False
        return self.is_legal_id(code)

    def is_legal_id(self, code: object) -> bool:
        """Whether a move code is legal now; never raises.

        Args:
            code: the move code (anything else is not legal).

        Returns:
            True when legal.
        """
        if not is_int(code):
            return False
        assert isinstance(code, numbers.Integral)  # is_int checked it
        return self._core.is_legal_code(int(code))

    def push(self, move: str) -> PlayResult:
        """Play a legal move (undo with :meth:`pop`); on an error the state is unchanged.

        Args:
            move: the move text.

        Returns:
            For the mover: ``cards`` placed (0/1), ``boxes`` delivered to them, ``points`` they
            scored (end-of-game runs included when the move ends the game), ``sealed`` (runs
            delivered by the move, whoever scored) and ``scores_delta`` (every player's points
            from the move).

        Raises:
            InvalidMoveError: a text outside the grammar.
            IllegalMoveError: an illegal move.
            GameOverError: the game is over.
        """
        return self.push_id(parse_move(move))

    def push_id(self, code: int | np.integer[Any]) -> PlayResult:
        """:meth:`push` on a move code.

        Args:
            code: a move code (:meth:`legal_move_ids`).

        Returns:
            What :meth:`push` returns.
        """
        if self._core.over:
            raise GameOverError("the game is over: no move can be played")
        if not self.is_legal_id(code):
            raise IllegalMoveError(
                f"illegal move {_describe(code)} for player {self.turn}; legal: {_preview(self.legal_moves())}"
            )
        return self._history.push(self._core, int(code))

    def forfeit(self) -> None:
        """Donut Boxes knows no forfeited turn (a stuck player plays a ``stuck`` move):
        always raises :class:`~.errors.BoxesError`, changing nothing."""
        raise BoxesError("Donut Boxes has no forfeited turn (a player who cannot place plays a stuck move)")

    def pop(self) -> str:
        """Undo the last push exactly (every array as it was, hidden cards and the draw
        piles included); returns its move text. Raises ``IndexError`` when nothing pushed
        is left to undo (a state from :meth:`from_dict` cannot undo the moves before it)."""
        return self._history.pop(self._core)

    def peek(self) -> str:
        """The last move pushed; ``IndexError`` when there is none."""
        if not self._history.pushed:
            raise IndexError("peek at empty move stack")
        return self._core.moves[-1]

    move_text = staticmethod(move_text)
    move_id = staticmethod(parse_move)

    def kernel_state(self) -> tuple[Tables, Grid]:
        """``(tables, grid)``: the live arrays the compiled kernels take (``donuts_ai.boxes._kernels``:
        ``legal_codes``, ``apply_move``, ``random_move``, ``random_playouts``, ...). For search code
        that calls the kernels itself; writing to them changes this state (copy it first)."""
        return self._core.t, self._core.grid

    def random_move_id(self, seed: int = 0) -> int:
        """A legal move's code drawn uniformly from all legal moves, in compiled code. The same
        seed draws the same move in this state and its copies; a state rebuilt from a dict lists
        its free positions in another order and may draw another.

        Args:
            seed: seeds the draw.

        Returns:
            The move code.

        Raises:
            GameOverError: the game is over.
        """
        if self._core.over:
            raise GameOverError("the game is over: no move can be drawn")
        seed = check_int("seed", seed, minimum=0, error=BoxesError)
        return self._core.random_move(seed)

    def random_playouts(self, n: int, seed: int = 0) -> PlayoutArrays:
        """Play games from this state to the end with uniformly random legal moves, in compiled
        code (the state is unchanged). The same seed plays the same games.

        Args:
            n: the number of games.
            seed: seeds the games.

        Returns:
            ``scores``, ``boxes`` and ``places`` (``int32[n, players]``: final points, boxes
            delivered, place as :meth:`ranking`) and ``turns`` (``int64[n]``: moves played).
        """
        n = check_int("n", n, minimum=0, error=BoxesError)
        seed = check_int("seed", seed, minimum=0, error=BoxesError)
        return self._core.random_playouts(n, seed)

    # ------------------------------------------------------------------ hidden information
    def observation(self, player: int) -> BoxesObservation:
        """What a player may know, JSON-ready: the layout, scores, boxes, the turn and the
        end-of-game state, every pile's and tray's size, their own tray and the bottom cards of
        their own pile they put there, the moves (others' stuck moves as ``"stuck"``).

        Args:
            player: 0 .. players - 1.

        Returns:
            The observation dict.
        """
        player = self._check_player(player)
        data = self._core.to_dict()
        known = data["pile_known"][player]
        own_pile = data["piles"][player]
        # The keys in the order of BoxesObservation (OBSERVATION_KEYS): the state dict's less trays, piles and
        # moves, then what player knows.
        return BoxesObservation(
            rules=data["rules"], to_move=data["to_move"], cards=data["cards"], frozen=data["frozen"],
            scores=data["scores"], boxes=data["boxes"], pile_known=data["pile_known"], trigger=data["trigger"],
            final_turns_left=data["final_turns_left"], stuck_streak=data["stuck_streak"], over=data["over"],
            player=player,
            tray=list(data["trays"][player]),
            pile_bottom=own_pile[len(own_pile) - known:] if known else [],
            tray_sizes=[len(t) for t in data["trays"]],
            pile_sizes=[len(p) for p in data["piles"]],
            moves=self._redacted_moves(player),
        )

    def _redacted_moves(self, player: int) -> list[str]:
        n = self.num_players
        out = []
        # Players move in turn from player 0, one move a turn.
        for i, move in enumerate(self._core.moves):
            out.append(HIDDEN_STUCK if move.startswith("stuck") and i % n != player else move)
        return out

    @classmethod
    def from_observation(cls, obs: Mapping[str, object], seed: int = 0) -> BoxesState:
        """A full state consistent with an observation: the layout, scores and turn as observed,
        the observer's tray and known pile bottom as observed, and every unseen card (each
        player's deck less what is placed and what the observer sees) dealt at random into the
        others' trays and every pile. The sample honours what the observation states, not what
        could be inferred from the history.

        Args:
            obs: an observation (:meth:`observation`).
            seed: seeds the deal of the unseen cards.

        Returns:
            The state (a *determinisation*).

        Raises:
            ObservationError: ``obs`` is not an observation of this game.
        """
        obs = check_observation(obs)
        seed = check_int("seed", seed, minimum=0, error=BoxesError)
        rng = np.random.default_rng(seed)
        me = obs["player"]
        placed: list[set[int]] = [set() for _ in obs["pile_sizes"]]
        for owner, card_type, *_ in obs["cards"][1:]:
            placed[owner].add(card_type)
        trays: list[list[int]] = []
        piles: list[list[int]] = []
        for q, used in enumerate(placed):
            unseen = [t for t in range(DECK_SIZE) if t not in used]
            if q == me:
                seen = set(obs["tray"]) | set(obs["pile_bottom"])
                rest = [t for t in unseen if t not in seen]
                rest = [rest[i] for i in rng.permutation(len(rest))]
                tray, pile = sorted(obs["tray"]), rest + list(obs["pile_bottom"])
            else:
                rest = [unseen[i] for i in rng.permutation(len(unseen))]
                tray, pile = sorted(rest[: obs["tray_sizes"][q]]), rest[obs["tray_sizes"][q]:]
            if len(tray) != obs["tray_sizes"][q] or len(pile) != obs["pile_sizes"][q]:
                raise ObservationError(
                    f"player {q}: {len(unseen)} cards unplaced but the observation counts "
                    f"{obs['tray_sizes'][q]} in the tray and {obs['pile_sizes'][q]} in the pile"
                )
            trays.append([int(t) for t in tray])
            piles.append([int(t) for t in pile])
        data = BoxesStateDict(
            rules=obs["rules"], to_move=obs["to_move"], cards=obs["cards"], frozen=obs["frozen"], scores=obs["scores"],
            boxes=obs["boxes"], trays=trays, piles=piles, pile_known=obs["pile_known"], trigger=obs["trigger"],
            final_turns_left=obs["final_turns_left"], stuck_streak=obs["stuck_streak"], over=obs["over"],
            moves=obs["moves"],
        )
        # The keys copied from the observation were checked with it: only the dealt cards are new.
        check_trays_and_piles(len(obs["pile_sizes"]), data)  # a pile size a player, checked
        return cls._of(EngineCore.from_dict(data))

    def sample_world(self, observer: int, seed: int = 0) -> BoxesState:
        """A copy of this state with everything ``observer`` cannot see dealt again at random:
        each other player's tray and pile reshuffled together (sizes kept), the unknown part of
        ``observer``'s own pile reshuffled. The same distribution as
        ``from_observation(observation(observer), seed)``, without the round trip through a dict.

        Args:
            observer: the player whose view is kept.
            seed: seeds the deal.

        Returns:
            The sampled state.
        """
        observer = self._check_player(observer)
        seed = check_int("seed", seed, minimum=0, error=BoxesError)
        world = self._core.copy()
        world.redeal_hidden(observer, np.random.default_rng(seed))
        return BoxesState._of(world)  # another deal: its undo history starts here

    # ------------------------------------------------------------------ pictures
    def __str__(self) -> str:
        """The layout (see :func:`~.pictures.layout_text`) and a status line."""
        data = self._core.to_dict()
        lines = [f"Donut Boxes ({self.rules})", layout_text(data["cards"], data["frozen"])]
        lines.append("scores " + " ".join(map(str, data["scores"])) + " | boxes " + " ".join(map(str, data["boxes"]))
                     + " | piles " + " ".join(str(len(p)) for p in data["piles"]))
        if data["over"]:
            lines.append("game over; places " + " ".join(map(str, self.ranking())))
        else:
            p = data["to_move"]
            assert p is not None  # the game goes on: a player is to move
            tray = " ".join(CARD_TYPES[t] for t in data["trays"][p])
            lines.append(f"player {p} to move; tray {tray}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (f"<BoxesState {self.rules}; {len(self._core.moves)} moves, "
                f"{'over' if self.is_game_over() else f'player {self.turn} to move'}, scores {self.scores}>")

    def _repr_svg_(self) -> str:
        data = self._core.to_dict()
        return layout_svg(data["cards"], data["frozen"])

    def _check_player(self, player: object) -> int:
        return check_int("player", player, minimum=0, maximum=self.num_players - 1, error=ObservationError)


#: BoxesState speaks the state API every game shares (the type checker holds it to the protocol).
_STATE_API: type[GameState] = BoxesState


def _describe(code: int | np.integer[Any]) -> str:
    try:
        return repr(move_text(int(code)))
    except (TypeError, ValueError, OverflowError, IndexError):
        return repr(code)


def _preview(moves: list[str], limit: int = 12) -> str:
    shown = ", ".join(moves[:limit])
    return shown + (f", ... ({len(moves)} in all)" if len(moves) > limit else "")


# ---------------------------------------------------------------------- checks
