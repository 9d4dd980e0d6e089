"""Adjacency columns as row positions: read in bulk, checked in bulk, and a map graph over
them. Each short way is compared with the slow code it stands in for (the cell-by-cell
reading, the row-by-row check, a graph over tuples of names) on awkward inputs: names in
other cases or spacing, ';' or line breaks between them, blank parts, unknown names, links on
one side or to oneself, names listed twice, blank, retired and same-name rows."""

from __future__ import annotations

import random
from dataclasses import dataclass, fields, replace

import pytest
from link_mistakes import IN_A_LIST, misspell

from sheetmaster import adjacency, both_sides, entities, schema, values
from sheetmaster.adjacency import Adjacency, RowKeys, read_plain
from sheetmaster.builder import table_frame
from sheetmaster.engine import prepare
from sheetmaster.mapgraph import LAND, SEA, WATERWAY, MapGraph
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


# -- loading a tab: links, tuples and problems as the row-by-row way gives them --------------

@dataclass(slots=True)
class Place:
    name: str
    row: int
    borders: tuple[str, ...]
    waterways: tuple[str, ...]
    status: str


@dataclass(slots=True)
class Bare:  # declares no adjacency column: its links are read, checked, never tupled
    name: str
    row: int
    status: str


def places(entity: type, retired: bool = False) -> Table:
    return Table("Places", (Column("place", Kind.NAME, bind="name"),
                            Column("borders", Kind.REFS, both_sides=True),
                            Column("waterways", Kind.REFS, both_sides=True),
                            Column("status", Kind.TEXT)),
                 key="place", noun="place", entity=entity,
                 retired=("status", "gone") if retired else None)


def random_rows(rng: random.Random, size: int) -> list[dict]:
    """A map whose two adjacencies are listed on both sides, then a few things spoilt."""
    names = [rng.choice(["P", "Q", "Å", "New P"]) + str(i) for i in range(size)]
    links: dict[str, dict[str, list[str]]] = {"borders": {n: [] for n in names},
                                              "waterways": {n: [] for n in names}}
    for attr, listed in links.items():
        for n in names:
            for other in rng.sample(names, min(size, rng.randint(0, 3 if attr == "borders"
                                                                 else 1))):
                if other != n and other not in listed[n]:
                    listed[n].append(other)
                    listed[other].append(n)
    rows = [{"place": n, "borders": list(links["borders"][n]),
             "waterways": list(links["waterways"][n]), "status": ""} for n in names]
    for _ in range(rng.choice([0, 0, 1, 2, 3])):
        spoil(rng, rows)
    seps = [", "] if rng.random() < 0.6 else [", "] * 12 + [",", "; ", "\n", " , "]
    for row in rows:
        for attr in ("borders", "waterways"):
            row[attr] = rng.choice(seps).join(row[attr])
    return rows


def spoil(rng: random.Random, rows: list[dict]) -> None:
    row = rng.choice(rows)
    links = row[rng.choice(["borders", "waterways"])]
    other = rng.choice(rows)["place"]
    how = rng.choice(["one side", "itself", "twice", "case", "spacing", "blank part",
                      "same name", "name in other case", "blank name", "unknown", "retired"])
    if how in IN_A_LIST:
        misspell(rng, how, links, row["place"])
    elif how == "one side":
        links.append(other)
    elif how == "blank part":
        links.insert(rng.randint(0, len(links)), "")
    elif how == "same name":  # the very name object, or an equal one
        name = row["place"] if rng.random() < 0.5 else "".join(list(row["place"]))
        rows.insert(rng.randint(0, len(rows)), dict(row, place=name,
                                                    borders=list(row["borders"]), waterways=[]))
    elif how == "name in other case":
        rows.append(dict(row, place=row["place"].lower(), borders=[], waterways=[]))
    elif how == "blank name":
        rows.append(dict(row, place="", borders=[other], waterways=[]))
    elif how == "retired":
        row["status"] = "gone (sunk)"


def load_both_ways(table: Table, rows: list[dict]) -> tuple[tuple, tuple]:
    """(load_tab's outcome, the outcome of the rows loaded cell by cell and checked row by
    row): each is (problems, rows' tuples, links) or the exception's type."""
    problems = Problems()
    frame = schema.validate_table(table, table_frame(table.names, rows), problems)
    tables = {table.tab: table}
    lookups = entities.key_lookups([table], {table.tab: frame})
    declared = {f.name for f in fields(table.entity)}
    attrs = [a for a in ("borders", "waterways") if a in declared]
    outcomes = []
    for bulk in (True, False):
        said = Problems()
        said.items = list(problems.items)
        try:
            if bulk:
                keys = RowKeys(entities.key_names([table], {table.tab: frame})[table.tab])
                tab = entities.load_tab(table, frame, tables, lookups, keys, said)
                got, links = tab.rows, tab.links
            else:
                got = entities.load_rows(table, frame, tables, lookups, said)
                for col in table.columns[1:3]:
                    if col.attr in attrs:
                        both_sides.check_row_by_row(table, col, got, [r.name for r in got],
                                                   [getattr(r, col.attr) for r in got], said)
                found = RowKeys([r.name for r in got]).positions  # by equality, the last row's
                links = {a: Adjacency.from_lists([[found[n] for n in getattr(r, a) if n in found]
                                                  for r in got]) for a in attrs}
        except KeyError as exc:  # a retired row's unknown name: today's check fails so
            outcomes.append(type(exc))
            continue
        outcomes.append((problems_of(said), [tuple(getattr(r, a) for a in attrs) for r in got],
                         links))
    return outcomes[0], outcomes[1]


@pytest.mark.parametrize("seed", range(120))
def test_a_tab_loads_and_checks_in_bulk_as_it_does_cell_by_cell_and_row_by_row(seed):
    rng = random.Random(seed)
    rows = random_rows(rng, rng.randint(1, 30))
    retired = seed % 3 == 0
    bulk, slow = load_both_ways(places(Place, retired), rows)
    assert bulk == slow
    if isinstance(bulk, tuple) and not retired:  # the lookup's very name objects
        assert all(same_objects(list(a), list(b)) for a, b in zip(bulk[1], slow[1]))
    # a tab whose entity declares no adjacency column says the same, and has the same links
    bare, _ = load_both_ways(places(Bare, retired), rows)
    if isinstance(bulk, tuple):
        assert bare[0] == bulk[0] and bare[2] == bulk[2] and set(bare[1]) <= {()}
    else:
        assert bare == bulk


def test_a_retired_row_s_links_are_checked_as_before():
    rows = [{"place": "A", "borders": "B", "waterways": "", "status": ""},
            {"place": "B", "borders": "A", "waterways": "", "status": ""},
            {"place": "C", "borders": "A", "waterways": "", "status": "gone (sunk)"}]
    bulk, slow = load_both_ways(places(Place, retired=True), rows)
    assert bulk == slow and bulk[0] == [("Places", 4, "borders", "'C' lists 'A', but 'A' "
                                         "(row 2) does not list 'C' in its borders")]
    rows[2]["borders"] = "Atlantis"  # no row's name: the row-by-row check fails, as before
    assert load_both_ways(places(Place, retired=True), rows) == (KeyError, KeyError)
    assert load_both_ways(places(Bare, retired=True), rows)[0] is KeyError


@pytest.mark.parametrize("entity", [Place, Bare])
def test_a_clean_tab_is_read_and_checked_the_short_way(entity, monkeypatch):
    looked: list[str] = []
    monkeypatch.setattr(entities, "check_row_by_row", lambda t, col, *a: looked.append(col.name))
    monkeypatch.setattr(both_sides, "check_row_by_row", lambda t, col, *a: looked.append(col.name))
    read = entities._column_values
    cell_by_cell: list[str] = []
    monkeypatch.setattr(entities, "_column_values",
                        lambda t, col, *a: cell_by_cell.append(col.name) or read(t, col, *a))
    rows = [{"place": f"P{i}", "borders": ", ".join(f"P{j}" for j in (i - 1, i + 1) if 0 <= j < 40),
             "waterways": ", ".join(f"P{j}" for j in (i - 10, i + 10) if 0 <= j < 40),
             "status": ""} for i in range(40)]
    table, problems = places(entity), Problems()
    frame = schema.validate_table(table, table_frame(table.names, rows), problems)
    keys = RowKeys(entities.key_names([table], {table.tab: frame})[table.tab])
    entities.load_tab(table, frame, {table.tab: table},
                      entities.key_lookups([table], {table.tab: frame}), keys, problems)
    assert not problems.items and not looked
    assert ("borders" in cell_by_cell) == (entity is Place)  # undeclared: read in bulk


def test_clean_tabs_take_the_bulk_way_and_a_fault_is_said_as_before():
    rows = [{"place": "A", "borders": "B, C", "waterways": "", "status": ""},
            {"place": "B", "borders": "A", "waterways": "C", "status": ""},
            {"place": "C", "borders": "A", "waterways": "B", "status": ""}]
    bulk, slow = load_both_ways(places(Place), rows)
    assert bulk == slow and not bulk[0]
    assert bulk[2]["borders"] == Adjacency([0, 2, 3, 4], [1, 2, 0, 0])
    rows[2]["waterways"] = "B, C"
    bulk, slow = load_both_ways(places(Bare), rows)
    assert bulk[0] == load_both_ways(places(Place), rows)[1][0] == [
        ("Places", 4, "waterways", "'C' cannot border itself")]


@pytest.mark.parametrize("seed", range(150))
def test_the_check_on_positions_vouches_only_for_maps_the_row_by_row_check_passes(seed):
    # rows of one name too: a name finds the row the row-by-row check's dict finds
    rng = random.Random(seed)
    pool = [f"N{i}" for i in range(rng.randint(1, 8))]
    names = [rng.choice(pool) if rng.random() < 0.5 else "".join(rng.choice(pool))
             for _ in range(rng.randint(1, 12))]
    rows = [Place(n, 2 + i, (), (), "") for i, n in enumerate(names)]
    last = {r.name: r for r in rows}
    for row in rows:  # links listed back from the row a dict finds, sometimes not
        for other in rng.sample(list(last), rng.randint(0, min(3, len(last)))):
            if other != row.name and rng.random() < 0.9:
                row.borders += (other,)
                if rng.random() < 0.9 and row is last[row.name]:
                    last[other].borders += (row.name,)
    for row in rng.sample(rows, len(rows) // 4):
        row.borders = tuple(rng.sample(row.borders, len(row.borders)))
    listed = [r.borders for r in rows]
    links, complete = Adjacency.from_names(listed, RowKeys(names))
    said = Problems()
    both_sides.check_row_by_row(places(Place), places(Place).columns[1], rows, names, listed,
                                said)
    assert not (complete and links.listed_both_ways() and said.items)


# -- a map graph over row positions answers as one over tuples of names ----------------------

@dataclass(slots=True)
class Node:
    borders: tuple[str, ...]
    waterways: tuple[str, ...]


def graphs(rng: random.Random) -> tuple[MapGraph, MapGraph, list[str]]:
    size = rng.randint(1, 25)
    names = [f"N{i}" for i in range(size)]
    if rng.random() < 0.2:  # two rows of one name: the last one's links count, as in a dict
        names[rng.randrange(size)] = names[0]
    lists = {kind: [[rng.randrange(size) for _ in range(rng.choice([0, 1, 2, 4]))]
                    for _ in range(size)] for kind in (LAND, WATERWAY)}
    keys = RowKeys(names)
    rows = {n: Node(*(tuple(names[j] for j in lists[k][i]) for k in (LAND, WATERWAY)))
            for i, n in enumerate(names)}
    by_rows = MapGraph.from_rows(rows, {LAND: "borders", WATERWAY: "waterways"})
    by_links = MapGraph.from_links(keys.names, keys.positions,
                                   {k: Adjacency.from_lists(v) for k, v in lists.items()})
    for _ in range(rng.randint(0, 3)):  # edges added by hand, to names of rows or not
        a, b = rng.choice(names), rng.choice([*names, "Sea"])
        kind = rng.choice([LAND, SEA])
        by_rows.add(a, b, kind)
        by_links.add(a, b, kind)
    return by_rows, by_links, names


@pytest.mark.parametrize("seed", range(60))
def test_a_graph_over_positions_answers_as_one_over_tuples(seed):
    rng = random.Random(seed)
    by_rows, by_links, names = graphs(rng)
    nodes = [*dict.fromkeys(names), "Sea", "Atlantis"]
    assert by_links.kinds() == by_rows.kinds()
    for kinds in (None, [LAND], [WATERWAY], [WATERWAY, LAND], [SEA, LAND], [SEA]):
        through = set(rng.sample(nodes, len(nodes) // 2)).__contains__
        for node in nodes:
            for graph in (by_rows, by_links):
                assert graph.neighbours(node, kinds) == by_rows.neighbours(node, kinds)
            for target in nodes:
                asked: list[list[str]] = [[], []]
                answers = [g.any_neighbour(node, lambda n, a=a, t=target: a.append(n) or n == t,
                                           kinds) for g, a in zip((by_rows, by_links), asked)]
                assert answers[0] == answers[1] and asked[0] == asked[1]
                assert by_links.adjacent(node, target, kinds) == \
                    by_rows.adjacent(node, target, kinds)
                assert by_links.path(node, target, kinds, through=through) == \
                    by_rows.path(node, target, kinds, through=through)
            for limit in (None, 1, 2):
                assert by_links.distances(node, kinds, through=through, limit=limit) == \
                    by_rows.distances(node, kinds, through=through, limit=limit)
            assert by_links.connected(node, kinds, through=through) == \
                by_rows.connected(node, kinds, through=through)
        walk = rng.choices(nodes, k=3)
        assert by_links.is_path(walk, kinds) == by_rows.is_path(walk, kinds)
        assert by_links.components(nodes, kinds) == by_rows.components(nodes, kinds)


def test_the_engine_offers_each_adjacency_column_as_positions(example_state, claims):
    seen = []

    def build_world(loaded, problems):
        seen.append((loaded, problems))
        return claims.build_world(loaded, problems)

    prepare(replace(claims, build_world=build_world), example_state)
    loaded, problems = seen[0]
    territories = loaded.rows["Territories"]
    keys, links = loaded.row_keys["Territories"], loaded.links["Territories"]
    assert not problems.items and keys.names == [t.name for t in territories]
    assert set(links) == {"borders", "waterways"} and "Players" not in loaded.links
    for attr, column in links.items():
        assert same_objects(column.as_names(keys.names),
                            [getattr(t, attr) for t in territories])
    by_rows = MapGraph.from_rows(dict(zip(keys.names, territories)),
                                 {LAND: "borders", WATERWAY: "waterways"})
    by_links = MapGraph.from_links(keys.names, keys.positions,
                                   {LAND: links["borders"], WATERWAY: links["waterways"]})
    for name in keys.names:
        assert by_links.neighbours(name) == by_rows.neighbours(name)
        assert by_links.distances(name) == by_rows.distances(name)
