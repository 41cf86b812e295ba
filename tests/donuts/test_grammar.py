"""The two argument grammars every front end shares: layout specs (:class:`LayoutSpec`,
:meth:`Layout.from_spec`) and rules arguments (:func:`make_rules`), each form and each error."""

from __future__ import annotations

import random

import pytest

from donuts_ai import Layout, LayoutError, Rules, RulesError
from donuts_ai.donuts.layout import MAX_LAYOUT_COUNT, LayoutSpec, fresh_layout, layout_text, parse_layout_spec
from donuts_ai.donuts.rules import make_rules
from donuts_ai.errors import DonutsError

STANDARD = Layout.standard()
TEXT = STANDARD.to_text()
OTHER = Layout.random(7)


# --- layout specs: every form -----------------------------------------------------------
@pytest.mark.parametrize("spec", [None, "standard", "  standard\n", STANDARD, [STANDARD], (STANDARD,)])
def test_the_standard_layout_and_single_layouts_are_fixed(spec):
    read = LayoutSpec(spec)
    assert read.kind == "fixed" and read.layouts == [STANDARD]
    assert not read.drawn and not read.fresh
    assert read.draw(random.Random(1)) == STANDARD and read.one() == STANDARD
    assert Layout.from_spec(spec) == STANDARD


@pytest.mark.parametrize("text", [
    TEXT,                                        # 6 lines
    "\n  " + TEXT.replace("\n", "\n  ") + "\n",  # indented, blank edges
    TEXT.replace("\n", ","),                     # a position string's first field
    TEXT.replace("\n", " "),                     # rows separated by spaces
    TEXT.replace("\n", ""),                      # 36 symbols in one run (OpenSpiel game strings)
    TEXT.replace("\n", "\r\n"),                  # Windows line ends
])
def test_layout_text_in_every_form_is_that_layout(text):
    assert layout_text(text) == TEXT
    assert LayoutSpec(text).layouts == [STANDARD] and Layout.from_spec(text) == STANDARD


@pytest.mark.parametrize("text", ["standard", "-" * 35, "-" * 37, "x" * 36, ""])
def test_what_is_not_layout_text(text):
    assert layout_text(text) is None


@pytest.mark.parametrize("kind, make", [("random", Layout.random), ("grid", Layout.random_grid)])
def test_random_and_grid_draw_fresh_layouts_from_a_seed(kind, make):
    read = LayoutSpec(kind)
    assert read.kind == kind and read.layouts == [] and read.drawn and read.fresh
    assert read.one(5) == make(5) == fresh_layout(kind, 5) == Layout.from_spec(kind, seed=5)
    a, b = random.Random(3), random.Random(3)
    assert [read.draw(a) for _ in range(3)] == [read.draw(b) for _ in range(3)]
    assert isinstance(Layout.from_spec(kind), Layout)  # unseeded
    assert parse_layout_spec(kind) == kind


@pytest.mark.parametrize("kind, make", [("random", Layout.random), ("grid", Layout.random_grid)])
def test_seeded_specs_name_layouts_from_consecutive_seeds(kind, make):
    assert LayoutSpec(f"{kind}:4").layouts == [make(4)] and LayoutSpec(f"{kind}:4").kind == "fixed"
    assert LayoutSpec(f"{kind}:4:1").layouts == [make(4)]
    pool = LayoutSpec(f" {kind}:-2:3 ")
    assert pool.kind == "pool" and pool.drawn and not pool.fresh
    assert pool.layouts == [make(-2), make(-1), make(0)] == parse_layout_spec(f"{kind}:-2:3")
    assert {pool.draw(random.Random(s)) for s in range(30)} <= set(pool.layouts)
    assert Layout.from_spec(f"{kind}:9") == make(9)


def test_a_sequence_of_layouts_is_a_pool():
    read = LayoutSpec([STANDARD, OTHER])
    assert read.kind == "pool" and read.layouts == [STANDARD, OTHER]


def test_a_file_of_layouts(tmp_path):
    one = tmp_path / "one.txt"
    one.write_text(TEXT + "\n")
    assert LayoutSpec(str(one)).layouts == [STANDARD] and Layout.from_spec(str(one)) == STANDARD
    two = tmp_path / "two.txt"
    two.write_text(f"\n{TEXT}\n\n\n{OTHER.to_text()}\n")
    assert LayoutSpec(str(two)).kind == "pool" and parse_layout_spec(str(two)) == [STANDARD, OTHER]
    assert LayoutSpec(f"  {two}\n").layouts == [STANDARD, OTHER]  # spaces around the name dropped...
    spaced = tmp_path / " spaced.txt "
    spaced.write_text(OTHER.to_text())
    assert LayoutSpec(str(spaced)).layouts == [OTHER]  # ...unless the file's name has them


def test_a_spec_says_what_it_was_given():
    assert repr(LayoutSpec("random:3")) == "LayoutSpec('random:3')" and LayoutSpec(None).spec == "standard"


# --- layout specs: every error ------------------------------------------------------------
@pytest.mark.parametrize("spec, message", [
    (3, "layout must be a Layout, a non-empty sequence of Layouts, layout text or a layout spec, got 3"),
    ([], "layout must be"),
    (["-" * 36], "layout must be"),
    (b"standard", "layout must be"),
    ("---\n---", "layout text needs 6 lines"),
    ("------\n" * 5 + "-----x", "'x' is not one of"),
    ("random:x", "bad layouts 'random:x': expected random:SEED\\[:COUNT\\] with integers"),
    ("grid:1:two", "expected grid:SEED"),
    ("grid:1:0", f"COUNT must be in 1..{MAX_LAYOUT_COUNT}"),
    (f"random:1:{MAX_LAYOUT_COUNT + 1}", "COUNT must be in"),
    ("random:", "cannot read layout file 'random:'"),
    ("standard:1", "cannot read layout file"),
    ("no/such/file", "cannot read layout file 'no/such/file'"),
    ("bad\0path", "cannot read layout file"),
])
def test_bad_specs_say_what_was_wrong(spec, message):
    with pytest.raises(LayoutError, match=message):
        LayoutSpec(spec)


def test_bad_files_say_what_was_wrong(tmp_path):
    cases = {"empty.txt": (b"\n\n", "holds no layout"), "binary.txt": (b"\xff\xfe", "is not UTF-8 text"),
             "bad.txt": (TEXT.encode() + b"\n\n------\n", "layouts file .*bad.txt'.*6 lines")}
    for name, (content, message) in cases.items():
        (tmp_path / name).write_bytes(content)
        with pytest.raises(LayoutError, match=message):
            LayoutSpec(str(tmp_path / name))
    with pytest.raises(LayoutError, match="cannot read layout file"):
        LayoutSpec(str(tmp_path))  # a folder


def test_one_layout_is_refused_a_pool_and_a_fresh_layout_a_kind_it_does_not_know():
    with pytest.raises(LayoutError, match="layout 'random:1:3' names 3 layouts; expected one"):
        Layout.from_spec("random:1:3")
    with pytest.raises(LayoutError, match="a fresh layout is 'random' or 'grid', got 'standard'"):
        fresh_layout("standard", 1)
    assert issubclass(LayoutError, DonutsError) and issubclass(LayoutError, ValueError)


# --- rules arguments ----------------------------------------------------------------------
@pytest.mark.parametrize("rules, donuts, expected", [
    (None, None, Rules()),
    ("single", None, Rules(insertion="single")),
    ("group", 20, Rules(donuts=20)),
    (Rules("single", 18), None, Rules("single", 18)),
    (Rules("single", 18), 4, Rules("single", 4)),
    ({}, None, Rules()),
    ({"insertion": "single", "donuts": 18}, None, Rules("single", 18)),
    ({"donuts": 18}, 12, Rules(donuts=12)),
])
def test_every_rules_argument(rules, donuts, expected):
    assert make_rules(rules, donuts) == expected


@pytest.mark.parametrize("rules, donuts, message", [
    ("sideways", None, "unknown insertion rule 'sideways'; expected one of group, single"),
    (3, None, "rules must be a Rules, an insertion rule name \\(group, single\\) or a mapping of insertion, donuts, got int"),
    ({"colour": "red"}, None, "unknown Donuts rule 'colour'; expected insertion, donuts"),
    ({"donuts": "15"}, None, "donuts must be an int, got str"),
    (None, 0, "donuts must be in 1..36, got 0"),
    (None, True, "donuts must be an int, got bool"),
])
def test_bad_rules_arguments_say_what_was_wrong(rules, donuts, message):
    with pytest.raises(RulesError, match=message):
        make_rules(rules, donuts)
    assert issubclass(RulesError, DonutsError) and issubclass(RulesError, ValueError)
