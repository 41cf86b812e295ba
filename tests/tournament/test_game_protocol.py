"""The harness is game-agnostic: a toy game implementing the protocol runs through the
same tournaments, supervision, results files and ratings as Donuts."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from donuts_ai import tournament as T
from donuts_ai.errors import DonutsError
from donuts_ai.game import Game, register_game


@dataclass(frozen=True)
class TakeAwayOutcome:
    winner: int
    reason: str = "last stone"
    scores: None = None

    @property
    def places(self):
        return tuple(0 if p == self.winner else 1 for p in range(2))


class TakeAwayState:
    """A pile of stones; each turn takes 1 to 3 (a move: their number as text); whoever
    takes the last stone wins. The first player wins unless the pile is a multiple of 4.
    It speaks the state API (:class:`donuts_ai.state.GameState`): the harness plays it
    through ``turn``, ``legal_moves()``, ``push``, ``forfeit``, ``move_stack`` and ``outcome()``."""

    def __init__(self, pile):
        self.pile, self.player, self.move_stack = pile, 0, []

    @property
    def turn(self):
        return None if self.pile == 0 else self.player

    def legal_moves(self):
        return [str(k) for k in range(1, min(3, self.pile) + 1)]

    def push(self, move):
        if move not in self.legal_moves():
            raise DonutsError(f"illegal move {move!r}")
        self.pile -= int(move)
        self.move_stack.append(move)
        self.player = 1 - self.player
        return int(move)  # the stones taken: the game's own report

    def forfeit(self):
        self.move_stack.append(None)
        self.player = 1 - self.player

    def pop(self):
        move = self.move_stack.pop()
        self.player = 1 - self.player
        self.pile += int(move or 0)
        return move

    def is_game_over(self):
        return self.pile == 0

    def outcome(self):
        return None if self.pile else TakeAwayOutcome(1 - self.player)  # who took the last stone

    def copy(self):
        other = TakeAwayState(self.pile)
        other.player, other.move_stack = self.player, list(self.move_stack)
        return other


class TakeAway(Game):
    """The harness's adapter of the take-away game: only what its state does not know."""

    name = "take-away"
    LEDGERS = ("wins",)
    STATS = ("stones",)

    def parse_setups(self, spec):
        if spec == "random":
            return spec
        try:
            return [str(int(x)) for x in spec.split(",")]
        except ValueError:
            raise DonutsError(f"bad piles {spec!r}") from None

    def draw_setup(self, kind, seed):
        return str(random.Random(seed).randint(10, 30))

    def setup_text(self, setup):
        return str(int(setup))

    def rules_dict(self, rules):
        return {}

    def new_state(self, setup, rules):
        return TakeAwayState(int(setup))

    def move_stats(self, report):
        return {"stones": report}

    def observation(self, state, player):
        return {"pile": state.pile, "moves": list(state.move_stack)}

    def agent_view(self, observation):
        return {"pile": observation["pile"], "moves": observation["moves"]}

    def ledger_points(self, ending, player, stats, ledger):
        return int(ending.winner == player)

    def ledger_text(self, ledger):
        return "+1 a win"


register_game(TakeAway())


class _ToyAgent:
    kind = "toy"

    def __init__(self, seed=None, name=None):
        self.seed, self.rng = seed, random.Random(seed)
        self.name = name or type(self).__name__
        self.spec = f"tests.tournament.test_game_protocol:{type(self).__name__}"

    def reset(self, seed=None):
        self.rng = random.Random(self.seed if seed is None else seed)


class Perfect(_ToyAgent):
    """Leaves a multiple of 4 when it can."""

    def select_move(self, view, time_left=None):
        return str(view["pile"] % 4 or 1)


class Randomly(_ToyAgent):
    def select_move(self, view, time_left=None):
        return str(self.rng.randint(1, min(3, view["pile"])))


class Cheater(_ToyAgent):
    def select_move(self, view, time_left=None):
        return "4"


@pytest.mark.parametrize("isolation", ["process", "none"])
def test_a_toy_game_runs_through_the_harness(tmp_path, isolation):
    specs = [f"{__name__}:Perfect", f"{__name__}:Randomly", f"{__name__}:Cheater"]
    path = tmp_path / "r.jsonl"
    results = T.run(specs, game="take-away", games=6, setups="9,13,17", workers=1, isolation=isolation,
                    results_path=str(path))
    assert results.config["game"] == "take-away" and len(results.games) == 18
    for g in results.games:
        assert g.game == "take-away" and g.setup in ("9", "13", "17")
        if "tests.tournament.test_game_protocol:Cheater" in g.names:
            assert g.reason == "illegal move" and g.names[1 - g.winner].endswith("Cheater")
        else:
            assert g.reason == "last stone" and sum(s["stones"] for s in g.stats) == int(g.setup)
            # Piles 9, 13, 17 are not multiples of 4: the perfect player wins whichever side it plays.
            assert g.names[g.winner].endswith("Perfect")
    again = T.Results.from_file(str(path))
    assert [g.to_dict() for g in again.games] == [g.to_dict() for g in results.games]
    elo = {r.name: r.elo for r in results.ratings().ratings}
    assert elo["tests.tournament.test_game_protocol:Perfect"] > elo["tests.tournament.test_game_protocol:Randomly"]
    assert "+1 a win" in results.table()


def test_drawn_set_ups_come_from_the_game():
    config = T.make_config([f"{__name__}:Perfect", f"{__name__}:Randomly"], game="take-away", games=6)
    piles = [u["setup"] for u in T.schedule(config)]
    assert all(10 <= int(p) <= 30 for p in piles) and len(set(piles)) > 1
    with pytest.raises(DonutsError, match="unknown game 'chess'"):
        T.make_config(["random", "greedy"], game="chess")
    with pytest.raises(DonutsError, match="ledger must be one of wins"):
        T.make_config(["tests.tournament.test_game_protocol:Perfect", "tests.tournament.test_game_protocol:Randomly"], game="take-away",
                      ledger="rulebook")
    # A game's agent kinds are its own and the generic ones: the board game's are not the toy game's.
    with pytest.raises(DonutsError, match="unknown agent kind 'greedy' for take-away; kinds: random, mcts, alphabeta, solver, "
                                          "generic-random"):
        T.make_config(["random", "greedy"], game="take-away")


def test_a_game_registered_by_any_module_plays_in_worker_processes():
    specs = ["tests.tournament.test_game_protocol:Perfect", "tests.tournament.test_game_protocol:Randomly"]
    one = T.run(specs, game="take-away", games=4, setups="9,13", workers=1, isolation="none", seed=3)
    two = T.run(specs, game="take-away", games=4, setups="9,13", workers=2, isolation="none", seed=3)
    assert [g.moves for g in two.games] == [g.moves for g in one.games]
    # A two-sided game's places come from its winner; its records hold no ranking.
    for g in one.games:
        assert g.places() == [0 if s == g.winner else 1 for s in range(2)] and g.ranking is None
        assert "ranking" not in g.to_dict()


def test_a_game_named_with_its_module_is_imported_first():
    with pytest.raises(DonutsError, match="game 'no.such.module:ghost': its module cannot be imported"):
        T.get_game("no.such.module:ghost")
    with pytest.raises(DonutsError, match="unknown game 'chess'; expected one of .*boxes"):
        T.get_game("chess")
    assert T.get_game("tests.tournament.test_game_protocol:take-away") is T.get_game("take-away")


def test_the_harness_has_no_game_of_its_own():
    # Every entry point of the harness is told its game: none falls back to Donuts.
    import inspect

    from donuts_ai.tournament.seats import serve

    for entry in (T.play_game, T.make_agent, T.resolve, T.parse_setups, T.ProcessSeat):
        assert inspect.signature(entry).parameters["game"].default is inspect.Parameter.empty, entry
    assert T.HarnessConfig().game is None  # run, make_config, run_sprt: game= or a config's game, never a default
    assert all(p.default is inspect.Parameter.empty for p in inspect.signature(serve).parameters.values())
    assert not hasattr(T, "DEFAULT_GAME")
    for entry in (T.run, T.make_config, T.run_sprt):
        with pytest.raises(DonutsError, match="give game="):
            entry(["random", "greedy"]) if entry is not T.run_sprt else entry("random", "greedy")
    with pytest.raises(DonutsError, match="unknown game None; expected one of") as raised:
        T.get_game(None)
    assert "donuts" in str(raised.value) and "boxes" in str(raised.value)
    with pytest.raises(DonutsError, match="unknown game 'donut'; expected one of"):
        T.make_agent("random", game="donut")


def test_a_report_says_what_the_set_ups_were_in_the_game_s_words():
    from donuts_ai.donuts.game import DonutsGame

    donuts = DonutsGame()
    assert donuts.setups_line("random", 3) == ("Layouts: a freshly drawn tile arrangement for every unit "
                                               "(seeded from the tournament seed 3)")
    assert donuts.setups_line("grid", 3).startswith("Layouts: a freshly drawn random direction grid")
    assert donuts.setups_line(["x", "y"], 3) == "Layouts: 2 fixed, cycled through"
    take_away = T.get_game("take-away")
    assert take_away.setups_line(["9"], 0) == "Set-ups: 1 fixed, cycled through"


#: The pre-0.4 names under which the harness's protocol restated a state's verbs.
RESTATED_VERBS = {"to_move", "legal_moves", "is_legal", "play", "forfeit", "result", "ranking", "scores", "moves",
                  "new_stats", "dropout_move"}


def _methods(path):
    import ast

    tree = ast.parse(path.read_text())
    return {(node.name, item.name) for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
            for item in node.body if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)}


def test_the_harness_restates_no_state_verb():
    # The harness plays a game's state through GameState's verbs: no class of the harness
    # has a method named as one of the old protocol's verbs, and no game's adapter either.
    from pathlib import Path

    package = Path(T.__file__).parent.parent
    harness = {(path.name, cls, name) for path in (package / "tournament").rglob("*.py") for cls, name in _methods(path)
               if name in {"to_move", "play", "result", "moves", "is_legal"}}
    assert harness == set()
    for adapter in (package / "donuts" / "game.py", package / "boxes" / "game.py", package / "game.py"):
        assert {name for _, name in _methods(adapter)} & RESTATED_VERBS == set(), adapter
