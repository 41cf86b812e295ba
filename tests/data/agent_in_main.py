"""A researcher's script: agent classes defined in ``__main__`` play supervised tournaments,
an SPRT and a game, and a run-time kind travels to the seats (tests/test_entries.py runs it
and reads the JSON it prints last)."""

import json
import random
import sys
import time

from donuts_ai import Layout, tournament
from donuts_ai.tournament import ResultsFileError, SpecError


class FirstMove:
    """Plays the first legal square: a class that exists only in this script."""

    def __init__(self, seed=None):
        self.seed = seed

    def select_move(self, board):
        return board.legal_moves()[0]

    def __repr__(self):
        return f"FirstMove(seed={self.seed!r})"


class Shuffler:
    """A seeded random mover with reset(seed) and a name of its own."""

    name = "shuffler"

    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def reset(self, seed):
        self.rng = random.Random(seed)

    def select_move(self, board):
        return self.rng.choice(board.legal_moves())


class HangsOnThirdMove:
    """Hangs (sleeps far past any limit) on its third move of a game."""

    def __init__(self):
        self.moves = 0

    def reset(self, seed):
        self.moves = 0

    def select_move(self, board):
        self.moves += 1
        if self.moves == 3:
            time.sleep(3600)
        return board.legal_moves()[0]


def main(out_dir):
    report = {}
    path = f"{out_dir}/objects.jsonl"
    results = tournament.run([FirstMove(seed=1), "greedy"], game="donuts", games=20, seed=1, workers=1, results_path=path)
    report["tournament"] = {"games": len(results.games), "agents": results.config["agents"], "names": results.agents,
                            "events": len(results.events())}
    try:  # the same file, another object: refused, the file unchanged
        before = open(path).read()
        tournament.run([FirstMove(seed=2), "greedy"], game="donuts", games=20, seed=1, workers=1, results_path=path,
                       config=tournament.HarnessConfig(resume=True))
        report["resume_other"] = "accepted"
    except ResultsFileError as exc:
        report["resume_other"] = str(exc)
        report["file_unchanged"] = open(path).read() == before
    again = tournament.run([FirstMove(seed=1), "greedy"], game="donuts", games=20, seed=1, workers=1, results_path=path,
                           config=tournament.HarnessConfig(resume=True))
    report["resume_same_games"] = len(again.games)

    state, pairs = tournament.run_sprt(Shuffler(seed=3), "greedy", game="donuts", max_pairs=3, seed=2)
    report["sprt_pairs"] = pairs

    hangs = tournament.run([HangsOnThirdMove(), Shuffler], game="donuts", games=2, seed=4, workers=1,
                           config=tournament.HarnessConfig(move_limit=0.5))
    report["hang"] = {"games": len(hangs.games), "kinds": sorted({e["kind"] for e in hangs.events()}),
                      "winners": [g.names[g.winner] for g in hangs.games]}

    tournament.register_agent("first", FirstMove, game="donuts")
    registered = tournament.run(["first:seed=5", "random"], game="donuts", games=2, seed=5, workers=2)
    report["registered"] = {"games": len(registered.games), "events": len(registered.events()),
                            "agents": registered.config["agents"]}

    record = tournament.play_game([FirstMove(), Shuffler(seed=1)], Layout.standard(), None, 7, game="donuts")
    report["play_game"] = {"names": record.names, "seats": record.seats, "reason": record.reason}

    try:
        tournament.run([(x for x in ()), "greedy"], game="donuts", games=2)
    except SpecError as exc:
        report["not_an_agent"] = str(exc)

    class Unpicklable(FirstMove):
        def __reduce__(self):
            raise TypeError("this agent holds a live connection")

    try:
        tournament.run([Unpicklable(), "greedy"], game="donuts", games=2)
    except SpecError as exc:
        report["cannot_travel"] = str(exc)
    print(json.dumps(report))


if __name__ == "__main__":
    main(sys.argv[1])
