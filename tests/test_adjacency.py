"""Adjacency columns as row positions: read in bulk and checked in bulk. Each short way is
compared with the slow code it stands in for (the cell-by-cell reading, a brute-force
count of links) on awkward inputs: names in
other cases or spacing, ';' or line breaks between them, blank parts, unknown names, links on
one side or to oneself, names listed twice, blank, retired and same-name rows."""

from __future__ import annotations

import random

import pytest

from sheetmaster import adjacency, entities, values
from sheetmaster.adjacency import Adjacency, RowKeys, read_plain
from sheetmaster.schema import Column, Kind, Problems, Table

#: row names, some awkward: inner spaces, ',' or ';' in a name, non-ASCII, names that only
#: a lookup made by hand holds unstripped (' Zed', 'Ys '): a part not stripped finds them.
NAMES = ["Alba", "Brit", "New York", "Old  York", "Ys", "X,Y", "Q;R", "Åland", "Straße",
         "Zed", " Zed", "Ys ", "K\u212a"]


def problems_of(problems: Problems) -> list[tuple]:
    return [(p.tab, p.row, p.column, p.message) for p in problems.items]


# -- reading: the bulk reading is the cell-by-cell reading ------------------------------------

def read_both(cells: list) -> tuple[Adjacency | None, list, list, RowKeys]:
    """(the bulk reading or None, the cell-by-cell reading, its problems, the keys); the
    cells are read one by one only if the bulk reading took them (it is for text only)."""
    keys = RowKeys(list(NAMES))
    fast = read_plain(cells, keys.positions)
    if fast is None:
        return None, [], [], keys
    lookup = values.Names(keys.names)
    table = Table("T", (Column("land", Kind.NAME), Column("links", Kind.REFS, both_sides=True)),
                  key="land", noun="land")
    problems = Problems()
    refs = entities._Refs(table, table.columns[1], {"T": table}, {"T": lookup}, problems)
    slow = refs.each(cells, list(range(2, 2 + len(cells))), [True] * len(cells))
    return fast, slow, problems_of(problems), keys


def same_objects(a: list[tuple], b: list[tuple]) -> bool:
    return a == b and all(x is y for ta, tb in zip(a, b) for x, y in zip(ta, tb))


@pytest.mark.parametrize("cells", [
    ["Alba, Brit", "", "New York, Old  York, Ys", "Alba, Alba"],
    ["Alba,Brit"], ["Alba , Brit"], ["alba, Brit"], ["Alba; Brit"], ["Alba\nBrit"],
    ["Alba,  Brit"], [", Alba"], ["Alba,"], ["Alba, , Brit"], ["Alba, Narnia"], ["X,Y"],
    ["Alba,\u00a0Brit"], ["New  York"], [" Alba"], [None, "Alba"], [], ["Q;R"], [" "],
    ["Alba, X,Y"], ["Alba,  Zed"], ["Alba, Zed "], ["Alba\u00a0, Brit"], ["Alba, Brit\u2003"],
    ["", "Alba, Brit", ""], ["\tAlba"], ["Alba", " Zed"], ["Zed ", "Alba"], [5, "Alba"],
    ["Åland, Straße", "Straße", "", "K\u212a, Åland"], ["Åland,Straße"], ["\ud800"],
    ["Alba\u2028, Brit"], ["Alba\r, Brit"], ["", ""], ["Alba, Brit, "], ["k\u212a"],
    [" Zed"], [" Zed", "Alba"], ["Ys , Alba"], ["Alba", "Ys "], ["Ys ", "Alba"], ["Ys\t"],
])
def test_a_plain_adjacency_column_read_in_bulk_reads_as_cell_by_cell(cells):
    fast, slow, problems, keys = read_both(cells)
    if fast is not None:
        assert len(fast) == len(cells) and not problems
        assert same_objects(fast.as_names(keys.names), slow)


@pytest.mark.parametrize("cells_at_a_time", [1, 2, 4096])
def test_a_clean_column_is_read_in_bulk(cells_at_a_time, monkeypatch):
    monkeypatch.setattr(adjacency, "_CELLS_AT_A_TIME", cells_at_a_time)
    cells = ["Alba, Brit", "", "Old  York", "Ys, Alba, Ys", "Åland, Straße, K\u212a"]
    fast, slow, _, keys = read_both(cells)
    assert fast is not None and same_objects(fast.as_names(keys.names), slow)
    assert fast.starts == [0, 2, 2, 3, 6, 9] and fast.of(3) == [4, 0, 4]
    fast, slow, _, keys = read_both(["Alba,  Zed", "Brit ", "\u00a0Ys"])  # stripped, as spelt
    assert fast is not None and fast.as_names(keys.names) == slow == \
        [("Alba", "Zed"), ("Brit",), ("Ys",)]
    assert read_both(["Alba, alba"])[0] is None  # another case: read cell by cell


@pytest.mark.parametrize("seed", range(80))
def test_adjacency_columns_read_in_bulk_agree_with_cell_by_cell(seed, monkeypatch):
    rng = random.Random(seed)
    monkeypatch.setattr(adjacency, "_CELLS_AT_A_TIME", rng.choice([1, 2, 3, 4096]))
    words = [*NAMES, "alba", "BRIT", "Narnia", "", "Ys "]
    seps = [", "] * 10 + [",", " , ", ";", "\n", ",  ", ", ,", ",\u00a0"]
    cells = []
    for _ in range(rng.randint(0, 8)):
        parts = [rng.choice(words) for _ in range(rng.randint(0, 4))]
        cell = rng.choice(seps).join(parts)
        cells.append(rng.choice([" ", "\t"]) + cell if rng.random() < 0.1 else cell)
    fast, slow, problems, keys = read_both(cells)
    if fast is not None:
        assert not problems and same_objects(fast.as_names(keys.names), slow)


# -- names to positions --------------------------------------------------------------------

def test_names_find_their_rows_by_address_or_not_at_all():
    a, b, c = "Alba", "Brit", "Cymru"
    other_a = "".join(["Al", "ba"])
    keys = RowKeys([a, b, a, c])  # the same object in two rows: the last one's
    assert keys.positions_of([c, a, a, b], 4).tolist() == [3, 2, 2, 1]
    assert keys.positions_of([], 0).tolist() == []
    assert keys.positions_of([b, other_a], 2) is None  # equal, but not the row's object
    assert RowKeys([]).positions_of(["x"], 1) is None
    assert keys.positions == {a: 2, b: 1, c: 3}
    equal = RowKeys([a, other_a])  # equal names, two objects: positions by address differ
    assert equal.positions_of([a, other_a], 2).tolist() == [0, 1]
    assert Adjacency.from_names([(other_a,), (a,)], equal)[0].ids == [1, 1]  # by equality


# -- the both-sides check on row positions ---------------------------------------------------

def counted_both_ways(lists: list[list[int]]) -> bool:
    """Each link (i, j) has as many (j, i), and none is a row's own."""
    pairs = sorted((i, j) for i, listed in enumerate(lists) for j in listed)
    return all(i != j for i, j in pairs) and pairs == sorted((j, i) for i, j in pairs)


@pytest.mark.parametrize("seed", range(150))
def test_the_bulk_check_on_positions_is_links_counted_alike_both_ways(seed):
    rng = random.Random(seed)
    size = rng.randint(0, 20)
    lists: list[list[int]] = [[] for _ in range(size)]
    for _ in range(rng.randint(0, 3 * size) if size else 0):
        a, b = rng.randrange(size), rng.randrange(size)
        lists[a].append(b)
        if a != b and rng.random() < 0.9:
            lists[b].insert(rng.randint(0, len(lists[b])), a)
    adjacency = Adjacency.from_lists(lists)
    assert [adjacency.of(i) for i in range(len(adjacency))] == lists
    assert adjacency.listed_both_ways() == counted_both_ways(lists)


@pytest.mark.parametrize("seed", range(60))
def test_rows_links_as_names_are_each_row_s_names(seed):
    rng = random.Random(seed)
    size = rng.randint(0, 40)
    listing = rng.random()  # how many rows list anything: few (read row by row) or many
    lists = [[rng.randrange(size) for _ in range(rng.choice([1, 2, 5]))]
             if rng.random() < listing else [] for _ in range(size)]
    names = [f"N{i}" for i in range(size)]
    assert Adjacency.from_lists(lists).as_names(names) == \
        [tuple(names[j] for j in listed) for listed in lists]
