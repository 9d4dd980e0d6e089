"""The short ways of validating and loading a state tab read a million clean rows in bulk and
must say exactly what the row-by-row reading says: each is compared here with the slow code
it stands in for, on tabs made to be awkward (names in other cases or with odd spacing, ';' or
line breaks between names, blank and retired rows, borders listed on one side or to oneself,
names listed twice)."""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest
from toy import LANDS, REALMS

from sheetmaster.engine.builder import table_frame
from sheetmaster.kit import entities, schema, values
from sheetmaster.kit.both_sides import _listed_both_ways, _name_ids, check_row_by_row
from sheetmaster.kit.schema import Column, Kind, Problems, Table

SPACES = ["", " ", "  ", "\t", "\u00a0", "\u2003", "\x1c"]


def problems_of(problems: Problems) -> list[tuple]:
    return [(p.tab, p.row, p.column, p.message) for p in problems.items]


def typed(value) -> tuple:
    """A value with its type, NaN equal to itself."""
    if isinstance(value, float) and value != value:
        return (float, "nan")
    return (type(value), value)


# -- keys: one casefold for a million names --------------------------------------------------

def slow_unique(names: list[str]) -> list[tuple]:
    problems = Problems()
    table = Table("T", (Column("name", Kind.NAME),), key="name")
    schema._check_unique(table, list(range(2, 2 + len(names))), names, problems)
    return problems_of(problems)


@pytest.mark.parametrize("names", [
    ["A", "B", "C"], ["A", "a"], ["Straße", "STRASSE"], ["ǅ", "ǆ"], ["Σ", "σ", "ς"],
    ["İ", "i̇"], ["", "", "A"], ["", "A", " a"], ["", "A", "a"], ["A\nB", "a\nb"],
    ["A\nB", "C"], ["x" * 50, "X" * 50], [], [""], ["K", "\u212a"],
])
def test_names_fold_apart_exactly_when_no_name_is_listed_twice(names):
    clean = not slow_unique(names)
    if schema.folds_apart(names):
        assert clean
    else:  # says no for a clash, or for a line break in a name (the slow check decides)
        assert not clean or any("\n" in n for n in names)


@pytest.mark.parametrize("seed", range(40))
def test_names_fold_apart_agrees_with_the_row_by_row_check(seed):
    rng = random.Random(seed)
    letters = ["a", "A", "b", "B", "ß", "SS", "ss", "İ", "i", "\u212a", "k", "σ", "ς", " ", ""]
    names = ["".join(rng.choice(letters) for _ in range(rng.randint(0, 3)))
             for _ in range(rng.randint(0, 30))]
    names = [n.strip() for n in names]
    assert schema.folds_apart(names) == (not slow_unique(names))


class SameHash(str):
    """Text whose hash is the same whatever it says: every pair of them meets by hash."""

    def __hash__(self) -> int:
        return 7


@pytest.mark.parametrize("texts", [
    [], ["a"], ["a", "b"], ["a", "a"], ["a", "b", "a"], ["A", "a"], ["", ""],
    [SameHash("a"), SameHash("b")], [SameHash("a"), SameHash("a")],
    [SameHash("a"), SameHash("b"), SameHash("c"), SameHash("b")],
])
def test_texts_are_all_distinct_exactly_when_no_two_are_equal(texts):
    """Distinct hashes answer at once; texts whose hashes meet are compared."""
    assert values.all_distinct(texts) == (len(set(texts)) == len(texts))


# -- folded names: one casefold for a million names ------------------------------------------

NAME_PARTS = ["a", "A", "b", "ß", "SS", "İ", "\u212a", "σ", "ς", "\x00", *SPACES]


def test_other_spaces_are_every_white_space_but_the_plain_space():
    every = "".join(c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace())
    assert sorted(values.OTHER_SPACES + " ") == sorted(every)


@pytest.mark.parametrize("names", [
    [], [""], ["A"], [" A"], ["A "], ["A  B"], ["A B", "c\x00d"], ["A\tB"], ["\u00a0A"],
    ["Straße", "İstanbul", "K\u212a"], ["A", "", "B"], ["x\x00", "y"],
])
def test_folding_names_in_bulk_is_folding_each(names):
    assert values.fold_all(names) == [values.fold(n) for n in names]


@pytest.mark.parametrize("seed", range(40))
def test_folding_names_in_bulk_agrees_with_folding_each(seed):
    rng = random.Random(seed)
    names = ["".join(rng.choice(NAME_PARTS) for _ in range(rng.randint(0, 4)))
             for _ in range(rng.randint(0, 30))]
    if seed % 2:
        names = [values.fold(n).upper() for n in names]  # plain names: the bulk way
    assert values.fold_all(names) == [values.fold(n) for n in names]


@pytest.mark.parametrize("seed", range(30))
def test_a_name_typed_any_way_finds_what_a_folded_dict_finds(seed):
    rng = random.Random(seed)
    spell = lambda: "".join(rng.choice(NAME_PARTS) for _ in range(rng.randint(0, 3)))  # noqa: E731
    names = [spell() for _ in range(rng.randint(0, 25))]
    aliases = {spell(): rng.choice(names) for _ in range(3)} if names else {}
    lookup = values.Names(names, aliases)
    expected: dict[str, str] = {}  # the folded index as a dict: the first spelling wins
    for key, name in lookup._exact.items():
        expected.setdefault(values.fold(key), name)
    for text in [spell() for _ in range(40)] + names + list(aliases):
        exact = lookup._exact.get(text)
        assert lookup.get(text) == (exact if exact is not None else
                                    expected.get(values.fold(text)))


def test_a_name_typed_any_way_finds_the_first_name_that_folds_as_it_does():
    names = values.Names(["North Sea", "NORTH SEA", "Åland"], {"the north": "North Sea"})
    assert names.get("  north   sea ") == "North Sea"
    assert names.get("ÅLAND") == "Åland"
    assert names.get("The North") == "North Sea"
    assert names.get("south sea") is None


# -- text columns: one C loop for a million str cells -----------------------------------------

@pytest.mark.parametrize("cells", [
    ["a", " b ", "\u00a0c\u2003", "\x1cd\x1f", "", "  "],
    ["a", None, 5, 2.0, 2.5, float("nan"), float("inf"), True, datetime(2026, 1, 2), " e "],
    [np.str_(" f "), "g"], [], [None], [Decimal("1.50")],
])
def test_text_cells_read_as_each_one_would(cells):
    assert [typed(v) for v in schema._read_text(cells)] == \
        [typed(values.text(v)) for v in cells]


# -- optional columns the sheet lacks: one blank read for all ---------------------------------

BLANK_COLUMNS = (
    Column("whole", Kind.WHOLE, optional=True),
    Column("whole or blank", Kind.WHOLE, optional=True, blank=None),
    Column("integer", Kind.INTEGER, optional=True),
    Column("decimal", Kind.DECIMAL, optional=True),
    Column("decimal or blank", Kind.DECIMAL, optional=True, blank=None),
    Column("flag", Kind.FLAG, optional=True),
    Column("choice", Kind.CHOICE, optional=True, choices=("x", "y")),
    Column("required choice", Kind.CHOICE, optional=True, choices=("x", "y"), required=True),
    Column("blank too much", Kind.WHOLE, optional=True, at_most=-1),
    Column("text", Kind.TEXT, optional=True),
    Column("required name", Kind.NAME, optional=True),
    Column("names", Kind.REFS, optional=True),
    Column("raw", Kind.RAW, optional=True),
)


@pytest.mark.parametrize("col", BLANK_COLUMNS, ids=lambda c: c.name)
def test_a_column_the_sheet_lacks_reads_as_its_blank_cells_would(col):
    table = Table("T", (Column("name", Kind.NAME), col), key="name")
    frame = table_frame(["name"], [{"name": f"N{i}"} for i in range(4)])
    lacking, filled = Problems(), Problems()
    short = schema.validate_table(table, frame, lacking)
    # the same tab with the column there, every cell blank, read cell by cell
    long = schema.validate_table(table, schema.match_columns(table, frame, Problems()), filled)
    assert problems_of(lacking) == problems_of(filled)
    assert short.attrs == {"absent": [col.name]} and long.attrs == {"absent": []}
    assert short.columns.tolist() == long.columns.tolist() == ["name", col.name]
    for name in short.columns:
        assert [typed(v) for v in short[name]] == [typed(v) for v in long[name]]


def test_a_typed_tab_is_one_frame_of_objects_as_before():
    table = Table("T", (Column("name", Kind.NAME), Column("n", Kind.WHOLE),
                        Column("gone", Kind.TEXT, optional=True)), key="name")
    frame = pd.DataFrame({"Name": [" A ", "B"], "n": ["3", None], 7: ["x", "y"]},
                         index=[5, 9], dtype=object)
    frame.attrs["merged"] = ["A1:B1"]
    out = schema.validate_table(table, frame, Problems())
    assert out.columns.tolist() == ["name", "n", 7, "gone"] and out.index.tolist() == [5, 9]
    assert out.attrs == {"merged": ["A1:B1"], "absent": ["gone"]}
    assert out._mgr.nblocks == 1 and set(out.dtypes) == {np.dtype(object)}
    assert out.to_dict("list") == {"name": ["A", "B"], "n": [3, 0], 7: ["x", "y"],
                                   "gone": ["", ""]}
    assert frame.columns.tolist() == ["Name", "n", 7]  # the sheet's tab is left as it was


# -- references: a column of names as the tab spells them --------------------------------------

#: a lookup made by hand: its names need not be stripped ("Zed" and " Zed")
NAMES = ["Alba", "Brit", "New York", "Old  York", "Ys", "X,Y", "Q;R", "S\nT", "Zed", " Zed"]


def read_refs(cells: list, live: list[bool] | None = None) -> tuple[list, list, list]:
    """(short way or None, cell by cell, the problems cell by cell)."""
    lookup = values.Names(NAMES)
    problems = Problems()
    table = Table("T", (Column("land", Kind.NAME), Column("links", Kind.REFS)), key="land",
                  noun="land")
    refs = entities._Refs(table, table.columns[1], {"T": table}, {"T": lookup}, problems)
    live = live or [True] * len(cells)
    slow = refs.each(cells, list(range(2, 2 + len(cells))), live)
    return entities._names_as_spelt(cells, lookup.exact_item), slow, problems_of(problems)


@pytest.mark.parametrize("cells", [
    ["Alba, Brit", "", "New York, Old  York, Ys", "Alba, Alba"],
    ["Alba,Brit"], ["Alba , Brit"], ["alba, Brit"], ["Alba; Brit"], ["Alba\nBrit"],
    ["Alba,  Brit"], [", Alba"], ["Alba,"], ["Alba, , Brit"], ["Alba, Narnia"], ["X,Y"],
    ["Alba,\u00a0Brit"], ["New  York"], [" Alba"], [None, "Alba"], [], ["Q;R"], ["S\nT"],
    ["Alba, X,Y"], ["Alba,  Zed"], ["Alba, Zed "], ["Alba\u00a0, Brit"], ["Alba, Brit\u2003"],
    ["", "Alba, Brit", ""], ["\tAlba"], ["Alba", " Zed"], ["Zed ", "Alba"],
])
def test_a_references_column_read_the_short_way_reads_as_cell_by_cell(cells):
    fast, slow, problems = read_refs(cells)
    if fast is not None:
        assert fast == slow and not problems


def test_the_short_way_reads_a_clean_column():
    assert entities._names_as_spelt([5], values.Names(NAMES).exact_item) is None  # not text
    fast, slow, problems = read_refs(["Alba, Brit", "", "X,Y"])
    assert fast is None  # 'X,Y' holds a comma without a space
    fast, slow, problems = read_refs(["Alba, Brit", "", "Old  York", "Ys, Alba, Ys"])
    assert fast == slow == [("Alba", "Brit"), (), ("Old  York",), ("Ys", "Alba", "Ys")]
    fast, slow, problems = read_refs(["Alba,  Zed", "Brit"])  # ' Zed' is a name: stripped
    assert fast == slow == [("Alba", "Zed"), ("Brit",)]


@pytest.mark.parametrize("seed", range(60))
def test_references_read_the_short_way_agree_with_cell_by_cell(seed):
    rng = random.Random(seed)
    words = [*NAMES, "alba", "BRIT", "Narnia", ""]
    seps = [", "] * 8 + [",", " , ", ";", "\n", ",  ", ", ,"]
    cells = []
    for _ in range(rng.randint(0, 8)):
        parts = [rng.choice(words) for _ in range(rng.randint(0, 4))]
        cell = rng.choice(seps).join(parts)
        cells.append(rng.choice(SPACES[:2]) + cell if rng.random() < 0.1 else cell)
    fast, slow, problems = read_refs(cells)
    if fast is not None:
        assert fast == slow and not problems


# -- adjacencies: listed on both sides, checked in bulk ----------------------------------------

@dataclass(slots=True)
class Place:
    name: str
    row: int
    borders: tuple[str, ...]


PLACES = Table("Places", (Column("place", Kind.NAME, bind="name"),
                          Column("borders", Kind.REFS, both_sides=True)),
               key="place", noun="place", entity=Place)


def loaded(rows: list[dict]) -> tuple[list[Place], list[tuple]]:
    """The tab loaded as the engine loads it, and the problems so far."""
    problems = Problems()
    frame = schema.validate_table(PLACES, table_frame(["place", "borders"], rows), problems)
    lookups = entities.key_lookups([PLACES], {"Places": frame})
    places = entities.load_rows(PLACES, frame, {"Places": PLACES}, lookups, problems)
    return places, problems_of(problems)


def both_sides(places: list[Place]) -> tuple[list, list]:
    """(check_both_sides, the row-by-row check): the problems each finds."""
    fast, slow = Problems(), Problems()
    entities.check_both_sides(PLACES, places, fast)
    check_row_by_row(PLACES, PLACES.columns[1], places, [p.name for p in places],
                     [p.borders for p in places], slow)
    return problems_of(fast), problems_of(slow)


def random_map(rng: random.Random, size: int, hub: int) -> list[list]:
    """[name, links] rows of a map whose borders are all listed on both sides."""
    names = [f"P{i}" for i in range(size)]
    links: dict[str, list[str]] = {n: [] for n in names}
    for i, n in enumerate(names):
        for other in rng.sample(names, min(size, hub if i == 0 else rng.randint(0, 3))):
            if other != n and other not in links[n]:
                links[n].append(other)
                links[other].append(n)
    for n in names:
        rng.shuffle(links[n])
    return [[n, ls] for n, ls in links.items()]


def spoil(rng: random.Random, rows: list[list]) -> str:
    """One thing wrong (or not), as a GM might type it."""
    names = [n for n, _ in rows]
    row = rng.choice(rows)
    name, links = row
    how = rng.choice(["one side", "itself", "twice", "case", "spacing", "semicolon",
                      "same name", "name in other case", "blank name", "unknown", "none"])
    if how == "one side":
        links.append(rng.choice([n for n in names if n not in links] or names))
    elif how == "itself":
        links.insert(rng.randint(0, len(links)), name)
    elif how == "twice" and links:
        links.append(links[0])
    elif how == "case" and links:
        links[0] = links[0].lower()
    elif how == "spacing" and links:
        links[-1] = " " + links[-1] + "  "
    elif how == "semicolon":
        row[1] = ["; ".join(links)] if links else []
    elif how == "same name":
        rows.insert(rng.randint(0, len(rows)), [name, list(rng.choice(rows)[1])])
    elif how == "name in other case":
        rows.append([name.lower(), list(links)])
    elif how == "blank name":
        rows.append(["", list(links)])
    elif how == "unknown":
        links.append("Atlantis")
    return how


@pytest.mark.parametrize("seed", range(80))
def test_the_bulk_both_sides_check_says_what_the_row_by_row_check_says(seed):
    rng = random.Random(seed)
    links = random_map(rng, rng.randint(2, 40), hub=rng.choice([3, 12, 30]))
    how = spoil(rng, links) if seed % 4 else "none"
    places, _ = loaded([{"place": n, "borders": ", ".join(ls)} for n, ls in links])
    fast, slow = both_sides(places)
    assert fast == slow, how
    if how == "none":
        assert not fast


def test_one_sided_and_self_borders_are_said_as_before():
    places, problems = loaded([{"place": "A", "borders": "B, C"}, {"place": "B", "borders": ""},
                               {"place": "C", "borders": "A, C"}])
    fast, slow = both_sides(places)
    assert fast == slow == [
        ("Places", 2, "borders", "'A' lists 'B', but 'B' (row 3) does not list 'A' in its "
                                 "borders"),
        ("Places", 4, "borders", "'C' cannot border itself")]


def test_borders_not_found_as_row_names_are_checked_row_by_row():
    # tuples made elsewhere (equal names, other objects): the bulk check cannot vouch for them
    alba, brit, cymru = "Alba", "Brit", "Cymru"
    other_brit = "".join(["Br", "it"])
    assert other_brit == brit and other_brit is not brit
    places = [Place(alba, 2, (other_brit, cymru)), Place(brit, 3, ()),
              Place(cymru, 4, (alba,))]
    fast, slow = both_sides(places)
    assert fast == slow == [("Places", 2, "borders", "'Alba' lists 'Brit', but 'Brit' (row 3) "
                                                     "does not list 'Alba' in its borders")]
    places[1].borders = (alba,)
    assert both_sides(places) == ([], [])


def test_rows_of_the_same_name_are_checked_row_by_row():
    first, second = "Alba", "".join(["Al", "ba"])
    places = [Place(first, 2, (second,)), Place(second, 3, (first,))]
    fast, slow = both_sides(places)
    assert fast == slow == [("Places", 2, "borders", "'Alba' cannot border itself"),
                            ("Places", 3, "borders", "'Alba' cannot border itself")]


def test_a_long_list_is_checked_too():
    names = [f"P{i}" for i in range(30)]
    rows = [{"place": "P0", "borders": ", ".join(names[1:])}] + \
        [{"place": n, "borders": "P0"} for n in names[1:]]
    places, _ = loaded(rows)
    assert both_sides(places) == ([], [])
    rows[-1]["borders"] = ""
    places, _ = loaded(rows)
    fast, slow = both_sides(places)
    assert fast == slow and len(fast) == 1


def brute_force(lists: list[list[int]]) -> bool:
    """Every link has its way back, and none is to its own row."""
    links = {(row, t) for row, listed in enumerate(lists) for t in listed}
    return all(a != b and (b, a) in links for a, b in links)


@pytest.mark.parametrize("seed", range(200))
def test_listed_both_ways_is_each_link_having_its_way_back(seed):
    rng = random.Random(seed)
    size = rng.randint(1, 25)
    lists: list[list[int]] = [[] for _ in range(size)]
    for _ in range(rng.randint(0, 3 * size)):
        a, b = rng.randrange(size), rng.randrange(size)
        if a != b or rng.random() < 0.05:
            lists[a].append(b)
            if rng.random() < 0.95:
                lists[b].insert(rng.randint(0, len(lists[b])), a)
    names = [f"N{i}" for i in range(size)]
    linked = [tuple(names[t] for t in listed) for listed in lists]
    fast = _listed_both_ways(_name_ids(names), linked)
    twice = any(len(set(listed)) < len(listed) for listed in lists)
    assert fast == brute_force(lists) or (twice and not fast)
    if fast and linked[0]:  # the same name, another object: the bulk check cannot vouch
        linked[0] = ("".join(["N", linked[0][0][1:]]), *linked[0][1:])
        assert not _listed_both_ways(_name_ids(names), linked)


# -- the toy game: references and borders as the engine reads them -----------------------------

@pytest.mark.parametrize("seed", range(30))
def test_lands_load_alike_with_names_typed_in_every_way(seed):
    rng = random.Random(seed)
    links = random_map(rng, 12, hub=5)
    spoil(rng, links)
    realms = [{"realm": r} for r in ("Stark", "Tully")]
    lands = [{"land": n, "owner": rng.choice(["Stark", "stark", "", "Nobody", "Lannister"]),
              "borders": ", ".join(ls), "terrain": "Plain"} for n, ls in links]
    problems = Problems()
    frames = {t.tab: schema.validate_table(t, table_frame(t.names, given), problems)
              for t, given in ((REALMS, realms), (LANDS, lands))}
    lookups = entities.key_lookups([REALMS, LANDS], frames)
    tables = {"Realms": REALMS, "Lands": LANDS}
    rows = entities.load_rows(LANDS, frames["Lands"], tables, lookups, problems)
    frame = frames["Lands"]
    # the borders as the cell-by-cell reading gives them, with its problems
    slow = Problems()
    refs = entities._Refs(LANDS, LANDS.column("borders"), tables, lookups, slow)
    keep = [bool(k) for k in frame["land"]]
    each = [b for b, ok in zip(refs.each(frame["borders"].tolist(), frame.index.tolist(), keep),
                               keep) if ok]
    assert [r.borders for r in rows] == each
    assert set(problems_of(slow)) <= set(problems_of(problems))
    fast, slow_sides = Problems(), Problems()
    entities.check_both_sides(LANDS, rows, fast)
    check_row_by_row(LANDS, LANDS.column("borders"), rows, [r.name for r in rows],
                     [r.borders for r in rows], slow_sides)
    assert problems_of(fast) == problems_of(slow_sides)


def test_a_unique_column_of_a_keyless_tab_says_what_it_said():
    table = Table("Armies", (Column("army", Kind.NAME),), unique=("army",))
    frame = schema.validate_table(
        table, table_frame(["army"], [{"army": a} for a in ("A", "b", "", "", "a", "B\nC")]),
        Problems())
    problems = Problems()
    entities.check_unique(table, frame, problems)
    assert problems_of(problems) == [("Armies", 6, "army", "'a' is listed twice (also on row 2)")]
    problems = Problems()
    entities.check_unique(table, frame.iloc[:3], problems)
    assert not problems.items
