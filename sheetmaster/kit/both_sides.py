"""An adjacency listed on both sides: a border listed by one row must be listed by the other,
and no row borders itself. Checked in bulk, and row by row (to say what is wrong, with one
wording for every game) only when the bulk check finds anything.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from itertools import chain
from typing import Any

import numpy as np

from sheetmaster.kit.schema import Column, Kind, Problems, Table
from sheetmaster.kit.values import all_distinct


def check_both_sides(table: Table, objects: Iterable[Any], problems: Problems) -> None:
    """An adjacency listed on one side must be listed on the other, and nothing borders
    itself: in bulk on the names' object ids, row by row where that finds anything."""
    columns = [c for c in table.columns if c.kind is Kind.REFS and c.both_sides]
    if not columns:
        return
    objects = list(objects)
    names = list(map(operator.attrgetter(_key_attr(table)), objects))
    ids = _name_ids(names)
    for col in columns:
        linked = list(map(operator.attrgetter(col.attr), objects))
        if ids is None or not _listed_both_ways(ids, linked):  # else nothing to say
            check_row_by_row(table, col, objects, names, linked, problems)


def check_row_by_row(table: Table, col: Column, objects: list[Any], names: list[str],
                     linked: list[tuple[str, ...]], problems: Problems) -> None:
    """:func:`check_both_sides` of one column, each link looked at."""
    links = dict(zip(names, linked))
    for name, obj, others in zip(names, objects, linked):
        for other in others:  # most rows of a big map have none or a few
            if name in links[other] and other != name:
                continue
            if other == name:
                problems.add(table.tab, obj.row, col.name, f"'{name}' cannot border itself")
            else:
                there = objects[names.index(other)]
                problems.add(table.tab, obj.row, col.name,
                             f"'{name}' lists '{other}', but '{other}' (row {there.row}) "
                             f"does not list '{name}' in its {col.name}")


def _name_ids(names: list[str]) -> np.ndarray | None:
    """The rows' names as object ids, or None when two rows have the same name (or a name is
    no dict key): the row-by-row check then tells them apart by equality."""
    try:
        if not all_distinct(names):
            return None
    except TypeError:
        return None
    return np.fromiter(map(id, names), dtype=np.uint64, count=len(names))


def _listed_both_ways(name_ids: np.ndarray, linked: list[tuple[str, ...]]) -> bool:
    """Whether the row-by-row check of one adjacency column would find nothing: True when
    every link is the very name object of a row (:func:`load_rows` gives it the lookup's,
    which is the row's) that lists back the very name object of the row listing it, and none
    is the row's own. False says only that the row-by-row check must look.

    A link is the pair (id of the row's name, id of the name listed); ids are unique among
    objects alive together, and the names and tuples are. The pairs equal the pairs turned
    round, counted alike, when the pairs going up (first id lower) are the pairs going down
    (first id higher, or equal: a row's own name, which then matches nothing) turned round:
    two sorts of half the links. Then every name listed lists a row back, so it is a row's
    name (only those list), and that row lists this one: ``name in links[other]`` holds, and
    ``other != name`` since the rows' names all differ.
    """
    try:
        counts = np.fromiter(map(len, linked), dtype=np.int64, count=len(linked))
        there = np.fromiter(map(id, chain.from_iterable(linked)), dtype=np.uint64,
                            count=int(counts.sum()))
    except TypeError:  # not tuples of names: the row-by-row check says what it says
        return False
    if not len(there):
        return True
    here = np.repeat(name_ids, counts)
    low = min(here.min(), there.min())
    if max(here.max(), there.max()) - low >= 1 << 32:  # ids too far apart for one key
        return False
    up = here < there
    rising = ((here[up] - low) << np.uint64(32)) | (there[up] - low)
    falling = ((there[~up] - low) << np.uint64(32)) | (here[~up] - low)
    return np.array_equal(np.sort(rising), np.sort(falling))


def _key_attr(table: Table) -> str:
    return table.column(table.key).attr if table.key else "name"


__all__ = ["check_both_sides", "check_row_by_row"]
