"""The short ways of validating and loading a state tab read a million clean rows in bulk and
must say exactly what the row-by-row reading says: each is compared here with the slow code
it stands in for, on tabs made to be awkward (names in other cases or with odd spacing, ';' or
line breaks between names, blank cells, optional columns the sheet lacks, names listed
twice)."""

from __future__ import annotations

import random
from datetime import datetime
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest

from sheetmaster import entities, schema, values
from sheetmaster.builder import table_frame
from sheetmaster.schema import Column, Kind, Problems, Table

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
    ["Alba, X,Y"], ["Alba,  Zed"], ["Alba, Zed "],
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
