"""Fuzzing every text (and loosely typed) input of the library with Hypothesis.

The property is the one the library promises: bad input raises a DonutsError subclass
(a ValueError with one line saying what is wrong), good input gives a valid object, and
nothing else ever escapes (no TypeError, KeyError, OverflowError ... from deep inside).
A failed call on an existing board leaves it exactly as it was.

Random strings rarely get past the first check of a parser, so most tests also mutate
valid inputs (valid FENs, layout texts, agent specs, results files) by flipping,
deleting and inserting characters, or by swapping whole fields.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import random
import sys
import tempfile
import types
from decimal import Decimal
from fractions import Fraction
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from donuts_ai import Board, Layout, Rules
from donuts_ai.donuts.agents import AGENTS
from donuts_ai.donuts.errors import LayoutError, PositionError, RulesError
from donuts_ai.donuts.rules import INSERTION_MODES, MAX_DONUTS
from donuts_ai.donuts.squares import SQUARE_NAMES, parse_square
from donuts_ai.errors import DonutsError, IllegalMoveError, InvalidMoveError
from donuts_ai.tournament import specs
from donuts_ai.tournament.config import parse_setups
from donuts_ai.tournament.results import read_file

from ..helpers import assert_same_position, reference_of

# Sizes keep the whole file to a few seconds; the CI profile (conftest) derandomizes.
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

RULES = [Rules(), Rules(insertion="single"), Rules(donuts=4), Rules(donuts=18), Rules(donuts=36)]


# --- strategies ----------------------------------------------------------------------


class _Index:
    """An object with a custom ``__index__`` (what numpy ints and friends look like)."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value

    def __repr__(self):
        return f"_Index({self.value!r})"


#: Objects of every kind a caller might pass where a str or int is expected.
anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-3, 40),
    st.floats(),
    st.complex_numbers(),
    st.text(max_size=8),
    st.binary(max_size=4),
    st.decimals(),
    st.fractions(),
    st.lists(st.integers(-1, 40), max_size=3),
    st.tuples(st.integers(0, 35)),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    st.sampled_from([int, bool, str, float, object, np.int64, np.ndarray, Decimal, Fraction, ...]),
    st.integers(-3, 40).map(np.int64),
    st.integers(0, 255).map(np.uint8),
    st.booleans().map(np.bool_),
    st.floats().map(np.float64),
    st.integers(-3, 40).map(np.array),  # 0-d: has a working __index__
    st.lists(st.integers(0, 35), max_size=3).map(np.array),  # __index__ raises TypeError
    st.one_of(st.integers(-3, 40), st.text(max_size=2), st.none()).map(_Index),
    st.builds(object),
)


@st.composite
def mutated(draw, base: st.SearchStrategy[str], alphabet: str = "", max_edits: int = 4) -> str:
    """``base``'s text after 1..max_edits character flips, deletions, insertions or
    duplications; new characters come from ``alphabet`` (the parser's own symbols,
    which get deeper) or are any character."""
    text = draw(base)
    chars = st.one_of(st.sampled_from(alphabet), st.characters()) if alphabet else st.characters()
    for _ in range(draw(st.integers(1, max_edits))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["flip", "delete", "insert", "duplicate"]))
        if op == "flip" and i < len(text):
            text = text[:i] + draw(chars) + text[i + 1:]
        elif op == "delete":
            text = text[:i] + text[i + 1:]
        elif op == "insert":
            text = text[:i] + draw(chars) + text[i:]
        else:
            j = draw(st.integers(i, min(len(text), i + 8)))
            text = text[:j] + text[i:j] + text[j:]
    return text


@st.composite
def games(draw) -> Board:
    """A board after 0..40 random plies (forfeits and finished games included) on the
    standard layout or a random grid."""
    rules = draw(st.sampled_from(RULES))
    seed = draw(st.integers(0, 2**32))
    layout = Layout.standard() if seed % 3 == 0 else Layout.random_grid(seed)
    board = Board(layout, rules)
    rng = random.Random(seed)
    for _ in range(draw(st.integers(0, 40))):
        if board.is_game_over():
            break
        if rng.random() < 0.05:
            board.forfeit()
        else:
            board.push(rng.choice(board.legal_moves()))
    return board


FEN_ALPHABET = "-|/\\cv.,/ 0123456789abcdef\n\t\x00²١"
LAYOUT_ALPHABET = "-|/\\ \n\t\r,"


@st.composite
def fens(draw) -> tuple[str, Rules]:
    """(position string, rules): valid; character-mutated; with cells, turn and last square
    changed but well formed; or with fields swapped for the same field of another valid
    string, random text or a number (and now and then a field too few or too many)."""
    board = draw(games())
    fen = board.fen()
    how = draw(st.sampled_from(["valid", "chars", "field", "fields", "state", "state"]))
    if how == "state":
        # Keeps every field well formed and the donut count equal to the placed counts, so
        # the checks on what the position means are reached: a turn for a finished game or
        # an empty pool, '-' for a game that goes on, two fives, a last square elsewhere.
        fields = fen.split()
        cells = list(fields[1].replace("/", ""))
        placed = [int(fields[4]), int(fields[5])]
        for _ in range(draw(st.integers(0, 6))):
            i = draw(st.integers(0, 35))
            color = draw(st.integers(0, 1))
            if cells[i] == ".":
                placed[color] += 1  # a placement; recolouring a donut is a flip and places none
            cells[i] = "cv"[color]
        occupied = [SQUARE_NAMES[(5 - i // 6) * 6 + i % 6] for i, ch in enumerate(cells) if ch != "."]
        fields[1] = "/".join("".join(cells[r * 6:r * 6 + 6]) for r in range(6))
        fields[2] = draw(st.sampled_from("cv-"))
        fields[3] = draw(st.sampled_from(occupied)) if occupied and draw(st.integers(0, 4)) else fields[3]
        fields[4], fields[5] = map(str, placed)
        fen = " ".join(fields)
    elif how == "chars":
        fen = draw(mutated(st.just(fen), FEN_ALPHABET))
    elif how in ("field", "fields"):
        fields = fen.split()
        for _ in range(1 if how == "field" else draw(st.integers(2, 4))):
            i = draw(st.integers(0, len(fields) - 1))
            other = draw(games()).fen().split()
            fields[i] = draw(st.one_of(
                st.just(other[i]),
                st.sampled_from(other),
                st.integers(-2, 40).map(str),
                st.text(alphabet=FEN_ALPHABET, min_size=1, max_size=8),
                mutated(st.just(fields[i]), FEN_ALPHABET, max_edits=2),
            ))
        if not draw(st.integers(0, 5)):  # sometimes one field too few or too many
            fields.pop() if draw(st.booleans()) else fields.append(draw(st.sampled_from(fields)))
        fen = " ".join(fields)
    rules = board.rules if draw(st.integers(0, 3)) else draw(st.sampled_from(RULES))
    return fen, rules


layout_texts = st.sampled_from([Layout.standard(), Layout.random(1), Layout.random_grid(2)]).map(Layout.to_text)

square_like = st.one_of(
    st.sampled_from(SQUARE_NAMES),
    mutated(st.sampled_from(SQUARE_NAMES), "abcdefgABCDEF01234567 \t\n-", max_edits=2),
    st.text(max_size=4),
    st.integers(-3, 40),
)


# --- positions: Board.from_fen ---------------------------------------------------------


@FAST
@given(fens())
@example(("------,------,------,------,------,------ ....../....../....../....../....../...... c - ² 0", Rules()))
@example(("------,------,------,------,------,------ ....../....../....../....../....../...... c - " + "0" * 5000 + " 0", Rules()))
def test_from_fen_gives_a_position_error_or_a_consistent_board(fen_rules):
    fen, rules = fen_rules
    try:
        board = Board.from_fen(fen, rules)
    except PositionError:
        return
    # An accepted string must describe a position the library agrees with itself on:
    # it round-trips, and the reference rules see the same outcome and legal moves.
    assert Board.from_fen(board.fen(), rules) == board
    assert_same_position(board, reference_of(board))


@FAST
@given(anything)
def test_from_fen_refuses_non_strings(obj):
    with pytest.raises(PositionError):
        Board.from_fen(obj)


# --- layouts: Layout.from_text, Layout(...), Layout.from_tiles ------------------------


@FAST
@given(st.one_of(
    st.text(),
    st.text(alphabet=LAYOUT_ALPHABET, max_size=60),
    mutated(layout_texts, LAYOUT_ALPHABET),
    anything,
))
def test_layout_text_gives_a_layout_error_or_a_layout(text):
    try:
        layout = Layout.from_text(text)
    except LayoutError:
        return
    assert len(layout.directions) == 36 and all(d in (0, 1, 2, 3) for d in layout.directions)
    assert Layout.from_text(layout.to_text()) == layout


directions_like = st.one_of(
    anything,
    st.lists(st.integers(0, 3), min_size=36, max_size=36),
    st.lists(st.one_of(st.integers(-1, 4), st.floats(), st.text(max_size=2), st.none()), min_size=35, max_size=37),
)


@FAST
@given(directions_like)
@example([float("inf")] * 36)  # int(inf) raised OverflowError
def test_layout_directions_give_a_layout_error_or_a_layout(dirs):
    try:
        layout = Layout(dirs)
    except LayoutError:
        return
    assert len(layout.directions) == 36 and all(d in (0, 1, 2, 3) for d in layout.directions)


placement = st.one_of(
    st.tuples(st.integers(-1, 4), st.one_of(st.integers(-1, 2), st.sampled_from("ABab"), st.text(max_size=2)), st.integers(-1, 4)),
    anything,
)


@FAST
@given(st.one_of(st.lists(placement, min_size=3, max_size=5), anything))
def test_tile_arrangements_give_a_layout_error_or_a_layout(arrangement):
    try:
        layout = Layout.from_tiles(arrangement)
    except LayoutError:
        return
    assert Layout.from_tiles(layout.arrangement) == layout


def test_unknown_symmetry_name_is_a_donuts_error():
    with pytest.raises(DonutsError):
        Layout.standard().transform("bogus")


# --- moves: parse_square, Board.is_legal, Board.push, Board.color_at ------------------


@FAST
@given(st.one_of(square_like, anything))
@example(int)  # int.__index__ is an unbound descriptor: TypeError
@example(np.array([1, 2]))  # __index__ raises TypeError
@example(_Index("c3"))  # __index__ returning a non-int
def test_parse_square_gives_an_invalid_move_error_or_a_square(move):
    try:
        sq = parse_square(move)
    except InvalidMoveError:
        return
    assert type(sq) is int and 0 <= sq < 36
    if isinstance(move, str):
        assert SQUARE_NAMES[sq] == move.strip().lower()


@FAST
@given(games(), st.one_of(square_like, anything))
def test_push_and_is_legal_agree_and_a_failed_push_changes_nothing(board, move):
    fen, stack = board.fen(), board.move_stack
    legal = board.is_legal(move)  # never raises, even for objects that are not moves
    assert type(legal) is bool
    try:
        parse_square(move)
        parsable = True
    except InvalidMoveError:
        parsable = False
    try:
        color = board.color_at(move)
    except InvalidMoveError:
        assert not parsable
    else:
        assert parsable and color in (0, 1, None)
    try:
        board.push(move)
    except (InvalidMoveError, IllegalMoveError) as exc:
        assert not legal
        assert isinstance(exc, InvalidMoveError) == (not parsable)
        assert (board.fen(), board.move_stack) == (fen, stack)  # untouched
        return
    assert legal
    assert board.move_stack == [*stack, SQUARE_NAMES[parse_square(move)]]
    board.pop()
    assert (board.fen(), board.move_stack) == (fen, stack)


# --- rules: Rules(...) ---------------------------------------------------------------


@FAST
@given(st.one_of(st.sampled_from(INSERTION_MODES), mutated(st.sampled_from(INSERTION_MODES), "groupsine ", max_edits=2), anything,
                 st.just(np.array(["group", "single"]))),
       st.one_of(st.integers(-2, MAX_DONUTS + 2), anything))
@example(np.array(["group", "single"]), 15)  # `in` compared elementwise: ambiguous truth value ValueError
def test_rules_give_a_rules_error_or_valid_rules(insertion, donuts):
    try:
        rules = Rules(insertion=insertion, donuts=donuts)
    except RulesError:
        return
    assert rules.insertion in INSERTION_MODES and type(rules.donuts) is int and 1 <= rules.donuts <= MAX_DONUTS
    assert Board(Layout.standard(), rules).rules == rules
    assert Rules.from_dict(rules.to_dict()) == rules  # the one dict form round-trips


def test_rules_from_dict_names_what_was_wrong():
    with pytest.raises(RulesError, match="unknown Donuts rule 'colour'"):
        Rules.from_dict({"insertion": "group", "colour": "red"})
    with pytest.raises(RulesError, match="donuts must be in"):
        Rules.from_dict({"donuts": 0})
    assert Rules.from_dict({}) == Rules()


# --- agent specs: resolve, make_agent ----------------------------------------------------

VALID_SPECS = [
    "random", "random:seed=3", "greedy", "greedy:seed=1,name=g", "alphabeta:depth=6", "alphabeta:time=0.5,tt_bits=16",
    "mcts:time=0.1,workers=2", "mcts:simulations=50,exploration=1.4,proof_share=0", "solver", "solver:fastest=True",
    "donuts_ai.donuts.agents:RandomAgent:seed=2", "donuts_ai.donuts.agents.greedy:GreedyAgent",
]
SPEC_ALPHABET = ":=,._ 0123456789abcdefghijklmnopqrstuvwxyz'\"()[]{}-+"

#: Parameters that size allocations: the fuzz keeps them small (explicit tests below
#: check that absurd sizes give a SpecError without allocating anything).
HEAVY_LIMITS = {"tt_bits": 22, "max_nodes": 1 << 16, "workers": 2}


def _guarded_import(name: str):
    """import_module for fuzzed specs that never imports a module not already loaded:
    a name whose top-level package does not exist is imported for real (it raises
    ModuleNotFoundError without running anything), as is an already imported module;
    any other existing module is refused as if it did not exist."""
    try:
        top_exists = importlib.util.find_spec(name.split(".")[0]) is not None
    except (ImportError, ValueError):
        top_exists = False
    if not top_exists or name in sys.modules:
        return importlib.import_module(name)
    raise ModuleNotFoundError(f"test guard: not importing {name!r}")


def _check_agent_spec(spec):
    """resolve and, when the sizes are small, make_agent: SpecError or a usable agent."""
    with mock.patch.object(specs, "importlib", types.SimpleNamespace(import_module=_guarded_import)):
        try:
            cls, params = specs.resolve(spec, "donuts")
        except specs.SpecError:
            return
        assert isinstance(params, dict) and callable(getattr(cls, "select_move", None))
        if cls in AGENTS.values():
            assert set(params) <= set(specs.agent_parameters(cls))  # a settings object's fields count as its own
        if any(isinstance(params.get(k), int) and params[k] > limit for k, limit in HEAVY_LIMITS.items()):
            return
        try:
            agent = specs.make_agent(spec, game="donuts")
        except specs.SpecError:
            return
    assert isinstance(agent, cls) and isinstance(agent.name, str) and agent.name


@SLOW
@given(st.sampled_from(sorted(AGENTS)), st.one_of(st.text(max_size=30), st.text(alphabet=SPEC_ALPHABET, max_size=30)))
@example("random", "seed={[]: 1}")  # literal_eval raised TypeError (unhashable)
@example("random", "seed=" + "-" * 100_000 + "1")  # literal_eval raised MemoryError (parser stack)
@example("random", "name=3")  # the agent was named by the int 3
@example("alphabeta", "tt_bits=64")  # numpy raised ValueError: maximum allowed dimension exceeded
@example("mcts", f"max_nodes={1 << 62}")  # numpy raised ValueError: array is too big
def test_builtin_kind_with_any_parameter_text(kind, param_text):
    _check_agent_spec(f"{kind}:{param_text}")


@SLOW
@given(st.one_of(mutated(st.sampled_from(VALID_SPECS), SPEC_ALPHABET), st.sampled_from(VALID_SPECS), anything))
@example(":RandomAgent")  # import_module("") raised ValueError
@example(".agents:RandomAgent")  # import_module(".agents") raised TypeError
def test_mutated_agent_specs(spec):
    _check_agent_spec(spec)


# --- layout specs: config.parse_setups (read-only here) ---------------------------


def _count_too_large(text: str) -> bool:
    """random:SEED:COUNT with a COUNT that would take long to build (parse_setups puts
    no bound on COUNT; reported to its owner)."""
    kind, _, rest = text.partition(":")
    try:
        return kind in ("random", "grid") and int(rest.partition(":")[2] or 1) > 50
    except ValueError:
        return False


@SLOW
@given(st.one_of(
    st.text(max_size=20),
    mutated(st.sampled_from(["standard", "random", "grid", "random:3", "grid:5:2", "random:0:3"]), ":0123456789-+_ abcdgmnorst"),
    st.builds("{}:{}".format, st.sampled_from(["random", "grid"]), st.text(max_size=10)),
))
def test_layout_specs(text):
    # The text is tried as a path last: skip strings naming an existing file, and NUL bytes
    # (a known bug: see test_layout_spec_with_a_nul_byte).
    if "\x00" in text or os.path.lexists(text) or _count_too_large(text):
        return
    try:
        result = parse_setups(text, "donuts")
    except DonutsError:
        return
    if isinstance(result, str):  # a drawn kind ("random", "grid") is returned as its word
        assert result == text.strip()  # the spec reader strips surrounding white space first
    else:
        assert result and all(isinstance(x, Layout) for x in result)


def test_layout_spec_with_a_nul_byte():
    with pytest.raises(DonutsError):
        parse_setups("layouts\x00.txt", "donuts")


@SLOW
@given(st.lists(st.one_of(layout_texts, mutated(layout_texts, LAYOUT_ALPHABET), st.text(max_size=40)), max_size=3),
       st.sampled_from(["\n\n", "\n", "\n\n\n"]))
def test_layout_files(blocks, sep):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "layouts.txt")
        # surrogatepass: a lone surrogate becomes bytes that are not UTF-8, which the reader must refuse
        with open(path, "w", encoding="utf-8", errors="surrogatepass", newline="") as fh:
            fh.write(sep.join(blocks))
        try:
            result = parse_setups(path, "donuts")
        except DonutsError:
            return
    assert result and all(isinstance(x, Layout) for x in result)


def test_layout_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "layouts.txt"
    path.write_bytes(Layout.standard().to_text().encode() + b"\xff\n")
    with pytest.raises(DonutsError):
        parse_setups(str(path), "donuts")


# --- results files: results.read_file (read-only here) -----------------------------

CONFIG = {"agents": ["random", "greedy"], "names": ["random", "greedy"], "games": 2, "seed": 0}
HEADER = json.dumps({"type": "config", "version": 1, "config": CONFIG}) + "\n"
UNIT = json.dumps({"type": "unit", "unit": 0, "games": [{"names": ["random", "greedy"], "winner": 0}]}) + "\n"


def _read(data: bytes):
    warnings = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "results.jsonl")
        with open(path, "wb") as fh:
            fh.write(data)
        try:
            return read_file(path, warn=warnings.append), warnings
        finally:
            with open(path, "rb") as fh:
                assert fh.read() == data  # reading never changes the file


@SLOW
@given(st.lists(mutated(st.just(UNIT), '{}[]":,0123456789 \n', max_edits=3), max_size=3), st.booleans())
def test_results_file_with_corrupt_unit_lines(units, newline_at_end):
    data = (HEADER + "".join(units)).encode("utf-8", "surrogatepass")  # a lone surrogate: bytes that are not UTF-8
    data = data if newline_at_end else data.rstrip(b"\n")
    try:
        (config, read_units), _ = _read(data)
    except DonutsError:
        return
    assert config == CONFIG  # the header line is intact, so it is always read back
    assert isinstance(read_units, list) and all(isinstance(u, dict) and u.get("type") == "unit" for u in read_units)


@SLOW
@given(st.binary(max_size=200))
def test_results_file_of_random_bytes(data):
    try:
        (config, units), _ = _read(data)
    except DonutsError:
        return
    assert isinstance(config, dict) and isinstance(units, list)


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                           max_leaves=8)


@SLOW
@given(st.fixed_dictionaries({"type": st.sampled_from(["config", "unit", 1])},
                             optional={"version": st.sampled_from([1, 1.0, 2, "1", None]), "config": json_values}),
       st.lists(json_values, max_size=3), st.integers(0, 50))
@example({"type": "config", "version": 1, "config": {}}, [], 100_000)
def test_results_file_with_any_header_and_lines(header, lines, depth):
    nested = "[" * depth + "]" * depth  # a deeply nested but valid JSON line
    data = "\n".join([json.dumps(header), *map(json.dumps, lines), nested]) + "\n"
    try:
        (config, units), _ = _read(data.encode())
    except DonutsError:
        return
    assert isinstance(config, dict) and isinstance(units, list)
