"""The harness on free-for-all games of 2 to 6 players with chance and hidden hands: a toy
game defined here runs through the scheduling (tables, seat rotations), supervision
(players who drop out), results files, Plackett–Luce ratings, the report and the CLI."""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from donuts_ai import tournament as T
from donuts_ai.errors import DonutsError
from donuts_ai.game import Game, legal_move, register_game
from donuts_ai.tournament.plackett_luce import fit_plackett_luce, places_from_ranks
from donuts_ai.tournament.records import DIGEST_KEY, line_digest
from donuts_ai.tournament.specs import call_agent, make_agent, resolve
from donuts_ai.tournament.stats import fit_ratings

HAND = 4
DECK = [v for v in range(1, 10) for _ in range(3)]  # 27 cards: hands of 4 for up to 6 players


@dataclass(frozen=True)
class HighCardsOutcome:
    winner: int | None
    places: tuple[int, ...]
    scores: tuple[int, ...]
    reason: str = "points"


class HighCardsState:
    """Every player is dealt a hidden hand of HAND cards from a deck shuffled by the
    set-up's seed; in turn each plays a card face up: it scores its value when it is
    higher than the card played just before, and loses its value when it is not. When
    every hand is empty, more points place higher (equal points share a place). It speaks
    the state API the harness plays through (:class:`donuts_ai.state.GameState`)."""

    def __init__(self, seed, players):
        deck = list(DECK)
        random.Random(seed).shuffle(deck)  # the game's chance: its deal, from the set-up
        self.hands = [sorted(deck[HAND * p: HAND * (p + 1)]) for p in range(players)]
        self.last, self.player, self.move_stack, self.scores = 0, 0, [], [0] * players

    def __eq__(self, other):
        return isinstance(other, HighCardsState) and vars(self) == vars(other)

    @property
    def turn(self):
        return None if not any(self.hands) else self.player

    def legal_moves(self):
        return [] if self.turn is None else [str(c) for c in sorted(set(self.hands[self.player]))]

    def push(self, move):
        if move not in self.legal_moves():
            raise DonutsError(f"illegal card {move!r}")
        card, player = int(move), self.player
        self.hands[player].remove(card)
        scored = card > self.last
        self.scores[player] += card if scored else -card
        self.last = card
        self.move_stack.append(move)
        self.player = (player + 1) % len(self.hands)
        return scored  # the game's own report: whether the card scored

    def forfeit(self):
        raise DonutsError("high-cards has no forfeit")

    def is_game_over(self):
        return self.turn is None

    def outcome(self):
        if self.turn is not None:
            return None
        places = tuple(places_from_ranks([-s for s in self.scores]))
        first = [p for p, place in enumerate(places) if place == 0]
        return HighCardsOutcome(first[0] if len(first) == 1 else None, places, tuple(self.scores))


class HighCards(Game):
    """The harness's adapter of the high-cards game: only what its state does not know."""

    name = "high-cards"
    FREE_FOR_ALL = True
    CAN_FORFEIT = False
    LEDGERS = ("points",)
    STATS = ("scored",)

    def parse_setups(self, spec):
        if spec == "random":
            return spec
        try:
            return [str(int(x)) for x in spec.split(",")]
        except ValueError:
            raise DonutsError(f"bad deals {spec!r}") from None

    def draw_setup(self, kind, seed):
        return str(seed % 10**6)

    def setup_text(self, setup):
        return str(int(setup))

    def rules_dict(self, rules):
        rules = {"players": 3} if rules is None else dict(rules)
        if set(rules) != {"players"} or rules["players"] not in range(2, 7):
            raise DonutsError(f"high-cards rules are players=2..6, got {rules!r}")
        return rules

    def num_players(self, rules):
        return rules["players"]

    def with_players(self, rules, players):
        return self.rules_dict({"players": players})

    def agent_registry(self):
        return TOY_AGENTS

    def new_state(self, setup, rules):
        return HighCardsState(int(setup), rules["players"])

    def move_stats(self, report):
        return {"scored": int(report)}

    def running_scores(self, state):
        return list(state.scores)

    def observation(self, state, player):
        return {"player": player, "hand": list(state.hands[player]), "last": state.last,
                "scores": list(state.scores), "cards_left": [len(h) for h in state.hands]}

    def agent_view(self, observation):
        return json.loads(json.dumps(observation))

    def ledger_text(self, ledger):
        return "points: every game's score"


register_game(HighCards())
GAME = "high-cards"
PATH = "tests.tournament.test_tournament_ffa"


class Greedy:
    """Plays its highest card when it scores, else its lowest. No reset, no clock: the
    harness builds it afresh for every game and calls select_move(view)."""

    def __init__(self, seed=None):
        self.seed = seed

    def select_move(self, view):
        assert set(view) == {"player", "hand", "last", "scores", "cards_left"}  # no other hand in sight
        hand = view["hand"]
        return str(hand[-1] if hand[-1] > view["last"] else hand[0])


class Randomly:
    def __init__(self, seed=None, name=None):
        self.seed, self.name = seed, name
        self.rng = random.Random(seed)

    def reset(self, seed=None):
        self.rng = random.Random(self.seed if seed is None else seed)

    def select_move(self, view, time_left=None):
        return str(self.rng.choice(view["hand"]))


class Worst:
    """Its lowest card when some card would score, else its highest: the weakest play."""

    def __init__(self, seed=None):
        pass

    def select_move(self, view):
        hand = view["hand"]
        return str(hand[0] if hand[-1] > view["last"] else hand[-1])


class Timed:
    """Takes ``time`` (not ``time_limit``): the spec's ``time=`` reaches it."""

    def __init__(self, time=None, seed=None):
        self.time = time

    def select_move(self, view):
        return str(view["hand"][0])


class OneSeat(Randomly):
    """Raises if one instance is asked to play two seats of one game."""

    def reset(self, seed=None):
        super().reset(seed)
        self.player = None

    def select_move(self, view, time_left=None):
        if getattr(self, "player", None) is None:
            self.player = view["player"]
        if view["player"] != self.player:
            raise RuntimeError("asked to play two seats: seats share this agent")
        return super().select_move(view)


class Cheat(Randomly):
    """Answers a card it does not hold on its second turn."""

    def select_move(self, view, time_left=None):
        return "99" if len(view["hand"]) < HAND else super().select_move(view)


class Crash(Randomly):
    """Kills its own process on its second turn."""

    def select_move(self, view, time_left=None):
        if len(view["hand"]) < HAND:
            os._exit(3)
        return super().select_move(view)


class Hang(Randomly):
    """Never answers its second turn."""

    def select_move(self, view, time_left=None):
        while len(view["hand"]) < HAND:
            time.sleep(0.2)
        return super().select_move(view)


TOY_AGENTS = {"greedy": Greedy, "random": Randomly, "worst": Worst, "timed": Timed, "one-seat": OneSeat, "cheat": Cheat,
              "crash": Crash, "hang": Hang}


# --- the toy game itself ---------------------------------------------------------------------


def _resigned(unit: dict) -> str:
    """A forged unit line with its digest made again: the check behind the digest is the one tested."""
    return json.dumps({**unit, DIGEST_KEY: line_digest(unit)})


def test_the_toy_game_deals_from_its_seed_and_hides_the_other_hands():
    game = T.get_game(GAME)
    a, b = game.new_state("7", {"players": 4}), game.new_state("7", {"players": 4})
    assert a == b and a != game.new_state("8", {"players": 4})
    view = game.player_view(a, 2)
    assert view["hand"] == a.hands[2] and "hands" not in view
    while a.turn is not None:
        a.push(a.legal_moves()[-1])
    outcome = a.outcome()
    assert len(a.move_stack) == 4 * HAND and list(outcome.places) == places_from_ranks([-s for s in a.scores])


# --- agent specs are the game's --------------------------------------------------------------


def test_agent_specs_come_from_the_games_registry():
    game = T.get_game(GAME)
    assert resolve("greedy", game) == (Greedy, {})
    assert resolve("random:seed=3", game) == (Randomly, {"seed": 3})
    assert resolve("timed:time=0.5", game) == (Timed, {"time": 0.5})  # "time" stays "time" for a class that takes it
    assert resolve(f"{PATH}:Worst", game)[0] is Worst  # module:Class works for every game
    with pytest.raises(T.SpecError, match="unknown agent kind 'minimax' for high-cards; kinds: greedy, random"):
        resolve("minimax", game)
    with pytest.raises(T.SpecError, match="high-cards is free-for-all"):  # the generic alphabeta: two sides only
        resolve("alphabeta", game)
    with pytest.raises(T.SpecError, match="unknown parameter 'depth'"):
        resolve("greedy:depth=2", game)
    assert resolve("alphabeta:depth=2", "donuts")[1] == {"depth": 2}  # Donuts' kinds when the game is named so
    assert isinstance(make_agent("greedy", seed=5, game=game), Greedy) and make_agent("greedy", 5, game=game).seed == 5
    view = {"player": 0, "hand": [2, 5], "last": 3, "scores": [0], "cards_left": [2]}
    assert call_agent(Greedy(), view, 1.0) == "5" and call_agent(Randomly(seed=1), view, None) in ("2", "5")
    with pytest.raises(T.SpecError, match="unknown agent kind 'worst' for donuts; kinds: random, greedy"):
        T.make_config(["worst", "random"], games=2, game="donuts")  # a Donuts tournament knows only Donuts' agents


# --- scheduling: tables and seat rotations ----------------------------------------------------


@pytest.mark.parametrize("agents, players, gauntlet", [(3, 4, False), (5, 3, False), (6, 4, True), (2, 2, False),
                                                       (4, 10, False), (7, 3, True)])
def test_tables_seat_every_agent_evenly(agents, players, gauntlet):
    specs = ["greedy", "random", "worst", "random:seed=1", "random:seed=2", "random:seed=3", "random:seed=4"][:agents]
    config = T.make_config(specs, game=GAME, players=min(players, 6), games=60,
                           format="gauntlet" if gauntlet else "round-robin")
    players = config["players"]
    units = T.schedule(config)
    # Games per pairing: every set of agents that fills a table (with the first agent, in a
    # gauntlet) plays 60 games; with no more agents than seats there is one such set.
    pairings = [g for g in itertools.combinations(range(agents), players) if not gauntlet or 0 in g] or [()]
    assert len(units) == -(-60 // players) * len(pairings) and config["mode"] == "free-for-all"
    seats = {name: 0 for name in config["names"]}
    for unit in units:
        assert len(unit["names"]) == players
        counts = [unit["names"].count(n) for n in config["names"]]
        # Each agent sits players // agents or one more times at every table.
        assert all(players // agents <= c <= players // agents + 1 for c in counts)
        if gauntlet:
            assert config["names"][0] in unit["names"]
        for n in unit["names"]:
            seats[n] += 1
    others = [seats[n] for n in config["names"][1 if gauntlet else 0:]]
    assert max(others) - min(others) <= 1, seats  # over the tournament, as even as it can be
    assert [u["setup"] for u in units] == [u["setup"] for u in T.schedule(config)]  # seeded: the same every time
    assert len({u["setup"] for u in units}) == len(units)  # a fresh deal for every table


def test_games_mean_per_pairing_and_a_file_of_games_in_all_keeps_its_meaning(tmp_path):
    config = T.make_config(["greedy", "random", "worst", "random:seed=1"], game=GAME, players=3, games=3)
    assert config["games_per"] == "pairing"
    units = T.schedule(config)  # 4 sets of 3 agents, one table of 3 games each
    assert sorted(tuple(sorted(u["names"])) for u in units) == sorted(
        tuple(sorted(g)) for g in itertools.combinations(config["names"], 3))
    # A file written by 0.4.0 (3 agents at tables of 2, games=6 in all: 3 tables) resumes
    # as what it was: nothing left to play, nothing rescheduled.
    path = tmp_path / "old.jsonl"
    path.write_bytes((Path(__file__).parents[1] / "data" / "results_v040_boxes.jsonl").read_bytes())
    old = T.Results.from_file(str(path))
    resumed = T.run(["random", "random:seed=2", "greedy"], game="boxes", games=6, workers=1, results_path=str(path),
                    isolation="process", config=T.HarnessConfig(resume=True))
    assert len(resumed.units) == len(old.units) == 3 and resumed.games == old.games


def test_a_unit_plays_its_table_in_every_rotation_on_one_deal():
    results = T.run(["greedy", "random", "worst"], game=GAME, games=8, workers=1, isolation="none", seed=3,
                    config=T.HarnessConfig(players=4))
    assert len(results.units) == 2 and len(results.games) == 8
    table = T.schedule(results.config)
    for unit, planned in zip(results.units, table, strict=True):
        games = unit.games
        assert len(games) == 4 and {g.setup for g in games} == {planned["setup"]}
        for r, g in enumerate(games):
            assert g.names == [planned["names"][(s + r) % 4] for s in range(4)]
            assert g.seed == planned["seed"] + r
            assert g.plies == 4 * HAND and sorted(g.ranking) == sorted(places_from_ranks([-x for x in g.scores]))
            assert g.ledger == g.scores and sum(s["scored"] for s in g.stats) <= g.plies
        # Every seat of the table starts once: the first seats of the four games are the table.
        assert sorted(g.names[0] for g in games) == sorted(planned["names"])
    again = T.run(["greedy", "random", "worst"], game=GAME, games=8, workers=2, isolation="none", seed=3, config=T.HarnessConfig(players=4))
    assert [g.to_dict() for g in again.games] == [{**g.to_dict(), "times": h.times}
                                                  for g, h in zip(results.games, again.games, strict=True)]


@pytest.mark.parametrize("isolation", ["process", "none"])
def test_every_seat_has_its_own_agent_and_no_agent_sees_another_hand(isolation):
    spec = "one-seat"
    results = T.run([spec, "greedy", spec], game=GAME, games=5, workers=1, isolation=isolation, config=T.HarnessConfig(players=5))
    assert len(results.games) == 5 and not results.events(), results.events()
    T.close_seats()


# --- players who drop out ---------------------------------------------------------------------


def test_a_player_who_fails_is_ranked_last_and_the_others_play_on(tmp_path):
    path = tmp_path / "r.jsonl"
    results = T.run(["greedy", "random", "crash", "hang", "cheat"], game=GAME, games=5, workers=1,
                    results_path=str(path), config=T.HarnessConfig(players=5, move_limit=1))
    expected = {"crash": ("crash", "crash"), "hang": ("time", "time"), "cheat": ("illegal", "illegal move")}
    for g in results.games:
        assert g.plies == 5 * HAND and len(g.moves) == 5 * HAND  # the game went on to its end
        dropped = {g.names[e.seat] for e in g.events}
        assert dropped == set(expected)
        for e in g.events:
            assert e.kind == expected[g.names[e.seat]][0] and e.ply >= 5  # on its second turn
            assert g.ranking[e.seat] == 2 and g.ledger[e.seat] == 0  # the last place, shared; no points
        for s in range(5):
            if g.names[s] not in dropped:
                assert g.ranking[s] <= 1 and g.ledger[s] == g.scores[s]
        assert g.reason == "points"
    assert T.Results.from_file(str(path)).games == results.games
    ledger = results.ledger()
    assert ledger["crash"]["points"] == 0 and ledger["crash"]["mean_place"] == 3.0
    assert "Events: 15" in results.table()


def test_with_one_player_left_the_game_stops_like_a_two_player_game():
    results = T.run(["crash", "random"], game=GAME, games=2, workers=1, config=T.HarnessConfig(players=2))
    for g in results.games:
        seat = g.names.index("crash")
        assert g.reason == "crash" and g.winner == 1 - seat and g.ranking == [1 if s == seat else 0 for s in range(2)]
        assert g.plies < 2 * HAND
    assert results.ratings().ratings[0].name == "random"


def test_games_without_a_forfeit_refuse_the_forfeit_policy():
    with pytest.raises(DonutsError, match="high-cards has no forfeited turn"):
        T.make_config(["greedy", "random"], game=GAME, illegal="forfeit")
    with pytest.raises(DonutsError, match="free-for-all game: its mode is 'free-for-all', not 'duel'"):
        T.make_config(["greedy", "random"], game=GAME, mode="duel")
    with pytest.raises(DonutsError, match="high-cards rules are players=2..6"):
        T.make_config(["greedy", "random"], game=GAME, players=7)
    with pytest.raises(DonutsError, match="donuts is a game of 2 players, not 3"):
        T.make_config(["greedy", "random"], players=3, game="donuts")
    with pytest.raises(DonutsError, match="unknown mode 'free-for-all'"):
        T.make_config(["greedy", "random"], mode="free-for-all", game="donuts")


# --- results files ----------------------------------------------------------------------------


def test_results_files_of_free_for_all_games_resume_and_stay_readable(tmp_path):
    path = tmp_path / "r.jsonl"
    args = dict(game=GAME, games=12, workers=1, isolation="none", seed=4)
    full = T.run(["greedy", "random", "worst"], results_path=str(path), **args, config=T.HarnessConfig(players=3))
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["version"] == 4 and header["config"]["games_per"] == "pairing"
    assert header["config"]["players"] == 3 and len(lines) == 1 + 4
    record = json.loads(lines[1])["games"][0]
    assert {"ranking", "scores"} <= set(record) and len(record["ranking"]) == 3
    path.write_text("\n".join(lines[:-2]) + "\n" + lines[-2][:50])  # killed mid-write
    resumed = T.run(["greedy", "random", "worst"], results_path=str(path), **args, config=T.HarnessConfig(players=3, resume=True))
    assert [g.moves for g in resumed.games] == [g.moves for g in full.games]
    assert [g.ranking for g in resumed.games] == [g.ranking for g in full.games]
    with pytest.raises(T.ResultsFileError, match="differs in: players, rules"):
        T.run(["greedy", "random", "worst"], results_path=str(path), **args, config=T.HarnessConfig(players=4, resume=True))
    # A record's places and scores are checked when read.
    bad = json.loads(lines[1])
    bad["games"][0]["ranking"] = [0, 5, 1]
    path.write_text(lines[0] + "\n" + _resigned(bad) + "\n")
    with pytest.raises(T.ResultsFileError, match="'ranking' needs one place 0..2 per seat"):
        T.Results.from_file(str(path))
    bad["games"][0]["ranking"], bad["games"][0]["winner"] = [0, 1, 2], 7
    path.write_text(lines[0] + "\n" + _resigned(bad) + "\n")
    with pytest.raises(T.ResultsFileError, match="winner must be 0, 1, 2 or null"):
        T.Results.from_file(str(path))


def test_donuts_results_files_keep_version_2_and_their_records(tmp_path):
    path = tmp_path / "r.jsonl"
    results = T.run(["random", "greedy"], game="donuts", games=2, workers=1, isolation="none", results_path=str(path))
    header, unit = (json.loads(x) for x in path.read_text().splitlines())
    assert header["version"] == 2 and "players" not in header["config"] and header["config"]["mode"] == "pairs"
    assert not {"ranking", "scores"} & set(unit["games"][0])
    assert results.games[0].places() in ([0, 1], [1, 0], [0, 0])
    # A file claiming an unknown version is refused, naming the versions read.
    path.write_text(path.read_text().replace('"version": 2', '"version": 9'))
    with pytest.raises(T.ResultsFileError, match="version 9 is not one of 2, 3"):
        T.Results.from_file(str(path))


# --- ratings, the report, the command line ----------------------------------------------------


def test_a_free_for_all_tournament_rates_its_agents_in_order():
    results = T.run(["worst", "greedy", "random"], game=GAME, games=240, workers=1, isolation="none", seed=1,
                    config=T.HarnessConfig(players=4))
    fit = results.ratings()
    assert fit.model == "plackett-luce" and [r.name for r in fit.ratings] == ["greedy", "random", "worst"]
    elo = {r.name: r for r in fit.ratings}
    assert elo["random"].elo == 0 and elo["greedy"].lower > 0 and elo["worst"].upper < 0
    assert fit.los("greedy", "worst") > 0.99
    boot = results.ratings(bootstrap=50, seed=2)
    assert [r.name for r in boot.ratings] == ["greedy", "random", "worst"] and "bootstrap" in boot.intervals
    cross = results.crosstable()
    assert cross["greedy"]["worst"][0] > cross["worst"]["greedy"][0]
    assert cross["greedy"]["worst"][1] == cross["worst"]["greedy"][1]
    seats = results.seat_firsts()
    assert len(seats) == 4 and sum(f for _, f in seats) == pytest.approx(len(results.games))
    text = results.table()
    for part in ("free-for-all high-cards: 4 players", "Plackett-Luce", "First places by seat", "Head to head",
                 "Ledger (points: every game's score)", "scored"):
        assert part in text, part


def test_the_command_line_runs_a_free_for_all_tournament(tmp_path, capsys):
    from donuts_ai.cli import main

    out = tmp_path / "r.jsonl"
    assert main(["tournament", "--game", GAME, "--players", "4", "greedy", "random", "worst", "--games", "8",
                 "--isolation", "none", "--workers", "1", "--quiet", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Plackett-Luce" in text and "Ledger" in text
    assert T.Results.from_file(str(out)).config["rules"] == {"players": 4}
    assert main(["report", str(out)]) == 0 and "Plackett-Luce" in capsys.readouterr().out
    assert main(["tournament", "--game", GAME, "greedy", "random", "--rules", "players=2", "--workers", "1",
                 "--isolation", "none", "--quiet"]) == 0
    assert "2 players a table" in capsys.readouterr().out
    for argv, message in [
        (["--game", GAME, "greedy", "random", "--insertion", "single"], "--insertion is a Donuts rule"),
        (["--game", GAME, "greedy", "random", "--illegal", "forfeit"], "has no forfeited turn"),
        (["--game", GAME, "greedy", "random", "--ledger", "rulebook"], "ledger must be one of points"),
        (["random", "greedy", "--rules", "insertion=single", "--insertion", "group"], "given twice"),
        (["random", "greedy", "--rules", "colour=red"], "unknown Donuts rule 'colour'"),
    ]:
        with pytest.raises(SystemExit) as exc:
            main(["tournament", *argv])
        assert exc.value.code == 2 and message in capsys.readouterr().err, argv


# --- Plackett-Luce ----------------------------------------------------------------------------


def pl_order(strengths: list[float], rng: random.Random) -> list[int]:
    """A ranking drawn from the Plackett-Luce model: each place drawn in proportion to strength."""
    left, order = list(range(len(strengths))), []
    while left:
        x = rng.random() * sum(strengths[i] for i in left)
        k = 0
        while x > strengths[left[k]] and k < len(left) - 1:
            x -= strengths[left[k]]
            k += 1
        order.append(left.pop(k))
    return order


def simulated(true: dict[str, float], games: int, players: int, seed: int):
    rng = random.Random(seed)
    names = list(true)
    rankings = []
    for _ in range(games):
        table = rng.sample(names, players)
        order = pl_order([10 ** (true[a] / 400) for a in table], rng)
        rankings.append((table, [order.index(s) for s in range(players)]))
    return rankings


TRUE = {"A": 0.0, "B": 150.0, "C": -100.0, "D": 60.0, "E": -250.0}


def test_plackett_luce_with_two_players_is_bradley_terry():
    rng = random.Random(5)
    games, rankings = [], []
    for _ in range(150):
        a, b = rng.sample(list(TRUE), 2)
        won = rng.random() < 1 / (1 + 10 ** ((TRUE[b] - TRUE[a]) / 400))
        # Every game also with the seats swapped: Bradley-Terry's first-player term is then 0.
        for first, second, score in ((a, b, int(won)), (b, a, 1 - int(won))):
            games.append((first, second, score))
            rankings.append(([first, second], [1 - score, score]))
    for prior in (0, 2):
        bt = {r.name: r for r in fit_ratings(games, list(TRUE), "A", prior_draws=prior).ratings}
        pl = {r.name: r for r in fit_plackett_luce(rankings, list(TRUE), "A", prior_draws=prior).ratings}
        for name in TRUE:
            assert pl[name].elo == pytest.approx(bt[name].elo, abs=1e-4)
            assert pl[name].lower == pytest.approx(bt[name].lower, abs=1e-3)
            assert pl[name].upper == pytest.approx(bt[name].upper, abs=1e-3)
            assert pl[name].score == pytest.approx(bt[name].score)


def test_plackett_luce_recovers_known_strengths():
    fit = fit_plackett_luce(simulated(TRUE, 600, 4, seed=1), list(TRUE), "A", prior_draws=0)
    assert [r.name for r in fit.ratings] == sorted(TRUE, key=lambda a: -TRUE[a])
    for r in fit.ratings:
        assert r.lower <= TRUE[r.name] <= r.upper and abs(r.elo - TRUE[r.name]) < 40
    assert fit.model == "plackett-luce" and math.isnan(fit.first_player_advantage)


def test_plackett_luce_intervals_cover_the_truth_95_percent_of_the_time():
    """400 simulated tournaments of 60 four-player games among 5 agents (seeded, so the
    figure is fixed): the intervals of the 4 differences to the anchor cover the truth
    in 95% of the cases (with the prior, which shrinks a little, 94%). Both fits rate the
    same 400 tournaments, simulated once."""
    tournaments = [simulated(TRUE, 60, 4, seed) for seed in range(400)]
    for prior, low in ((0, 0.93), (2, 0.925)):
        covered = total = 0
        for rankings in tournaments:
            fit = fit_plackett_luce(rankings, list(TRUE), "A", prior_draws=prior)
            for r in fit.ratings:
                if r.name != "A":
                    total += 1
                    covered += r.lower <= TRUE[r.name] <= r.upper
        assert low <= covered / total <= 0.97, (prior, covered / total)


def brute_log_likelihood(rankings, elo: dict[str, float]) -> float:
    """The model's log-likelihood by enumeration: a shared place is the mean log-probability
    over every order of the players sharing it."""
    total = 0.0
    for seats, places in rankings:
        gamma = [10 ** (elo[s] / 400) for s in seats]
        groups = [[s for s in range(len(seats)) if places[s] == p] for p in sorted(set(places))]
        orders = list(itertools.product(*(itertools.permutations(g) for g in groups)))
        log_ps = []
        for order in orders:
            flat, log_p = [s for part in order for s in part], 0.0
            for k, s in enumerate(flat):
                log_p += math.log(gamma[s] / sum(gamma[t] for t in flat[k:]))
            log_ps.append(log_p)
        total += sum(log_ps) / len(log_ps)
    return total


def test_shared_places_are_the_mean_over_their_orders():
    # Two players: a shared place is half a win and half a loss. A beats B 3 times, B
    # beats A once and they tie twice: 4 "wins" to 2, so A is 400 log10(2) Elo above B.
    fit = fit_plackett_luce([(["A", "B"], [0, 1])] * 3 + [(["A", "B"], [0, 0])] * 2 + [(["B", "A"], [0, 1])],
                            anchor="B", prior_draws=0)
    assert {r.name: r.elo for r in fit.ratings}["A"] == pytest.approx(400 * math.log10(2), abs=1e-4)
    # Several seats shared, and one agent in two seats: the fit is the maximum of the
    # likelihood written out order by order.
    rankings = [(["A", "B", "C", "D"], [0, 1, 1, 3]), (["B", "C", "D", "A"], [0, 0, 0, 3]),
                (["C", "A", "A", "B"], [2, 0, 1, 2]), (["D", "B", "A", "C"], [0, 1, 2, 3]),
                (["A", "B", "C", "D"], [3, 2, 1, 0]), (["C", "D", "A", "B"], [1, 0, 3, 2])]
    fit = fit_plackett_luce(rankings, anchor="A", prior_draws=0)
    best = {r.name: r.elo for r in fit.ratings}
    top = brute_log_likelihood(rankings, best)
    for name, step in itertools.product("BCD", (-5.0, 5.0)):
        assert brute_log_likelihood(rankings, {**best, name: best[name] + step}) < top


def test_plackett_luce_refuses_what_it_cannot_rate():
    with pytest.raises(DonutsError, match="without a prior the ratings are infinite"):
        fit_plackett_luce([(["A", "B", "C"], [0, 1, 2])] * 5, prior_draws=0)
    with pytest.raises(DonutsError, match="linked to every other"):
        fit_plackett_luce([(["A", "B"], [0, 1]), (["C", "D"], [0, 1])])
    with pytest.raises(DonutsError, match="bootstrap intervals need prior_draws > 0"):
        fit_plackett_luce([(["A", "B"], [0, 1]), (["B", "A"], [0, 1])], prior_draws=0, bootstrap=10)
    with pytest.raises(DonutsError, match="one place per seat"):
        fit_plackett_luce([(["A", "B"], [0])])
    # With the prior an agent that won every game has a finite rating, and one that never
    # played is reported without a rating.
    fit = fit_plackett_luce([(["A", "B", "C"], [0, 1, 2])] * 5, names=["A", "B", "C", "Z"], anchor="B")
    elo = {r.name: r for r in fit.ratings}
    assert elo["A"].elo > 0 > elo["C"].elo and math.isfinite(elo["A"].upper)
    assert math.isnan(elo["Z"].elo) and elo["Z"].games == 0 and fit.ratings[-1].name == "Z"


# --- Donut Boxes through the harness ----------------------------------------------------------


class BoxesRandom:
    """A random Donut Boxes player on the observation it is sent: a determinisation gives
    its legal moves (they depend only on the layout and its own tray)."""

    def __init__(self, seed=None):
        self.seed = seed
        self.rng = random.Random(seed)

    def reset(self, seed=None):
        self.rng = random.Random(self.seed if seed is None else seed)

    def select_move(self, view):
        from donuts_ai.boxes import BoxesState

        assert "trays" not in view and "piles" not in view  # only what its player may know
        world = BoxesState.from_observation(view, self.rng.randrange(2**31))
        return self.rng.choice(world.legal_moves())


def test_the_boxes_adapter():
    from donuts_ai.boxes import BoxesRules, BoxesState

    game = T.get_game("boxes")
    assert game.FREE_FOR_ALL and not game.CAN_FORFEIT and game.SETUP_NAME == "deal"
    assert game.parse_setups("random") == "random" and game.parse_setups("7, 8") == ["7", "8"]
    deals = game.parse_setups("deal:5:3")
    assert len(set(deals)) == 3 and deals == game.parse_setups("deal:5:3")
    for bad in ("deal:x", "deal:5:0", "-1", "seven"):
        with pytest.raises(DonutsError, match="boxes set-up|deal"):
            game.parse_setups(bad)
    assert game.rules_dict(None) == BoxesRules().to_dict() and game.num_players(game.rules_dict(None)) == 2
    rules = game.with_players(game.rules_dict({"grid": "splitzkies", "closers": True}), 4)
    assert rules == {"players": 4, "grid": "splitzkies", "matching": "one", "closers": True}
    with pytest.raises(DonutsError, match="boxes rules: unknown grid 'hex'"):
        game.rules_dict({"grid": "hex"})
    with pytest.raises(DonutsError, match="players must be an int in 2..10"):
        game.with_players(rules, 11)
    state = game.new_state("11", rules)
    assert state.to_dict() == BoxesState(BoxesRules(**rules), 11).to_dict()  # the deal is the set-up's
    view = game.player_view(state, 0)
    assert view == state.observation(0) and "trays" not in view
    assert game.move_text(3) is None and game.move_text("no such move") is None
    assert all(game.move_text(m) == m for m in state.legal_moves())
    assert legal_move(game, state, 3) is None and legal_move(game, state, state.legal_moves()[0]) == state.legal_moves()[0]
    counts = [dict.fromkeys(game.STATS, 0) for _ in range(4)]
    while state.turn is not None:
        mover = state.turn
        for key, count in game.move_stats(state.push(state.legal_moves()[0])).items():
            counts[mover][key] += count
    outcome = state.outcome()
    assert outcome.reason in ("score", "boxes", "shared win") and (outcome.winner is None) == (outcome.reason == "shared win")
    assert list(outcome.places) == state.ranking() and list(outcome.scores) == state.scores == game.running_scores(state)
    assert sum(c["cards"] for c in counts) == len(state.to_dict()["cards"]) - 1  # every card but the start card
    assert [s["boxes"] for s in game.final_stats(state, counts)] == state.boxes_delivered
    with pytest.raises(DonutsError, match="no forfeited turn"):
        state.forfeit()


def test_a_boxes_tournament_of_agents_in_their_own_processes(tmp_path):
    path = tmp_path / "boxes.jsonl"
    agent = f"{PATH}:BoxesRandom"
    results = T.run([agent, f"{agent}:seed=9"], game="boxes", games=3, workers=1, seed=2,
                    results_path=str(path), config=T.HarnessConfig(players=3, rules={"grid": "splitzkies", "matching": "perfect"}))
    assert results.config["rules"] == {"players": 3, "grid": "splitzkies", "matching": "perfect", "closers": False}
    assert len(results.games) == 3 and not results.events(), results.events()
    for g in results.games:
        assert places_from_ranks(g.ranking) == g.ranking and g.ledger == g.scores and len(g.moves) == g.plies
        assert all(set(s) == {"cards", "sealed", "boxes"} for s in g.stats)
    assert T.Results.from_file(str(path)).games == results.games
    assert "fresh deal for every unit" in results.table() and "boxes" in results.table()


def test_boxes_is_found_by_name_in_a_fresh_process():
    import subprocess
    import sys

    code = "from donuts_ai.tournament import get_game; print(get_game('boxes').name)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "boxes", proc.stderr


def test_a_four_player_boxes_tournament_of_the_three_agents_from_the_command_line(tmp_path):
    import subprocess
    import sys

    out = tmp_path / "boxes.jsonl"
    proc = subprocess.run([sys.executable, "-m", "donuts_ai", "tournament", "--game", "boxes", "--players", "4", "random",
                           "greedy", "ismcts:simulations=20", "--games", "4", "--seed", "2", "--workers", "1", "--quiet",
                           "--rules", "grid=splitzkies,matching=perfect,closers=true", "--out", str(out)],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    for part in ("free-for-all boxes: 4 players", "Plackett-Luce", "ismcts:simulations=20", "boxes", "First places by seat"):
        assert part in proc.stdout, part
    results = T.Results.from_file(str(out))
    assert results.config["rules"] == {"players": 4, "grid": "splitzkies", "matching": "perfect", "closers": True}
    assert len(results.games) == 4 and not results.events(), results.events()
    assert sorted(n for g in results.games for n in g.names[:1]) == sorted(results.units[0].games[0].names)
    assert {r.name for r in results.ratings().ratings} == {"random", "greedy", "ismcts:simulations=20"}


def test_boxes_tournaments_replay_from_their_seed():
    args = dict(game="boxes", games=4, workers=1, isolation="none", seed=5, config=T.HarnessConfig(players=2))
    one, two = T.run(["random", "greedy"], **args), T.run(["random", "greedy"], **args)
    assert [g.moves for g in one.games] == [g.moves for g in two.games]
    assert [g.moves for g in one.games] != [g.moves for g in T.run(["random", "greedy"], **{**args, "seed": 6}).games]
