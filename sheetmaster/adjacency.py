"""An adjacency column of a keyed tab as integer row positions, read and checked in bulk.

A map of a million territories lists some four million borders. Checked "listed on both
sides" name by name, that is four million lookups; as row positions (:class:`Adjacency`, the
CSR layout of a sparse matrix), it is two sorts of integer keys. A world that works on
positions need not have a tuple of names made for each row either: :func:`read_plain` reads
a plain column straight into positions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import chain
from typing import Any

import numpy as np

from sheetmaster.values import OTHER_SPACES

_Ints = list[int] | np.ndarray


class RowKeys:
    """A keyed tab's rows by name and by position: ``names[i]`` is the key of the tab's i-th
    row with a name (rows with a blank key are left out, as the tab's row objects leave them
    out), the very object its name lookup holds; ``positions[name]`` is its position, a dict
    made when first asked for.

    Two rows of the same name (a problem validation reports) share one position, the last
    one's: a dict built from the rows finds the last, and so does the name lookup. The rows
    are the tab's as loaded: ``names`` is not to be changed.
    """

    __slots__ = ("names", "_positions", "_by_address")

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self._positions: dict[str, int] | None = None
        self._by_address: tuple[np.ndarray, np.ndarray] | None = None

    @property
    def positions(self) -> dict[str, int]:
        """name -> its row's position."""
        if self._positions is None:
            self._positions = dict(zip(self.names, range(len(self.names))))
        return self._positions

    def positions_of(self, listed: Iterable[str], count: int) -> np.ndarray | None:
        """The positions of ``count`` name objects, each one of ``names``' very objects (as
        the tab's lookup gives them); None if one is not. One sort of the names' addresses,
        no dict: a million rows' names find their rows in a few numpy passes.

        An object in two rows is the last one's, as a name is (:attr:`positions`).
        """
        if self._by_address is None:
            addresses = np.fromiter(map(id, self.names), dtype=np.uint64, count=len(self.names))
            order = np.argsort(addresses, kind="stable")  # equal addresses in row order
            self._by_address = addresses[order], order
        addresses, order = self._by_address
        wanted = np.fromiter(map(id, listed), dtype=np.uint64, count=count)
        if not count:
            return np.zeros(0, dtype=np.int64)
        if not len(addresses):
            return None
        at = np.searchsorted(addresses, wanted, side="right") - 1
        if at.min() < 0 or not np.array_equal(addresses[at], wanted):
            return None
        return order[at]


class Adjacency:
    """The links of one adjacency column, as row positions: row i's neighbours are
    ``ids[starts[i]:starts[i + 1]]``, in the order its cell lists them (a name listed twice
    is there twice). ``starts`` and ``ids`` are plain lists, as a phase asks them one row at
    a time; made from int64 arrays when first asked for, so that a world that never asks
    never pays for four million ints."""

    __slots__ = ("_starts", "_ids", "_starts_list", "_ids_list")

    def __init__(self, starts: _Ints, ids: _Ints) -> None:
        self._starts, self._starts_list = _array(starts), _list(starts)
        self._ids, self._ids_list = _array(ids), _list(ids)

    @property
    def starts(self) -> list[int]:
        """Where each row's links start in ``ids``, and where the last row's end (n + 1)."""
        if self._starts_list is None:
            self._starts_list = self._starts.tolist()
        return self._starts_list

    @property
    def ids(self) -> list[int]:
        """Every row's links, row after row."""
        if self._ids_list is None:
            self._ids_list = self._ids.tolist()
        return self._ids_list

    def __len__(self) -> int:
        """The number of rows."""
        return len(self._starts) - 1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Adjacency) and np.array_equal(self._starts, other._starts) \
            and np.array_equal(self._ids, other._ids)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Adjacency({len(self)} rows, {len(self._ids)} links)"

    def of(self, row: int) -> list[int]:
        """Row ``row``'s neighbours' positions, as listed."""
        starts = self.starts
        return self.ids[starts[row]:starts[row + 1]]

    @classmethod
    def from_lists(cls, lists: Iterable[Sequence[int]]) -> Adjacency:
        """The adjacency whose row i links to ``lists[i]``."""
        lists = list(lists)
        return cls(_starts(list(map(len, lists))), list(chain.from_iterable(lists)))

    @classmethod
    def from_names(cls, listed: Sequence[Sequence[str]], keys: RowKeys, *,
                   looked_up: bool = False) -> tuple[Adjacency, bool]:
        """The adjacency of rows listing these names, and whether every name listed is a
        row's (a name that is none, e.g. in a retired row, is left out).

        A name finds the last row of that name, as a dict does. ``looked_up``: the names are
        the objects the tab's lookup gave, which for a name is the last row's object too, so
        they find their rows by address (see :meth:`RowKeys.positions_of`), no dict needed.
        """
        counts = np.fromiter(map(len, listed), dtype=np.int64, count=len(listed))
        found = keys.positions_of(chain.from_iterable(listed), int(counts.sum())) \
            if looked_up else None
        if found is not None:
            return cls(_starts(counts), found), True
        positions = keys.positions
        try:
            return cls(_starts(counts),
                       list(map(positions.__getitem__, chain.from_iterable(listed)))), True
        except KeyError:
            lists = [[positions[n] for n in names if n in positions] for names in listed]
            return cls.from_lists(lists), False

    def linked_names(self, names: Sequence[str]) -> list[str]:
        """Every row's neighbours' names, row after row (``names[i]`` is row i's name)."""
        by_row = np.empty(len(names), dtype=object)
        by_row[:] = names
        return by_row[self._ids].tolist()

    def as_names(self, names: Sequence[str]) -> list[tuple[str, ...]]:
        """Each row's neighbours as a tuple of their names (``names[i]`` is row i's), as a
        row object holds them."""
        flat = self.linked_names(names)
        starts = self.starts
        listing = np.flatnonzero(np.diff(self._starts)).tolist()
        if len(listing) * 4 > len(self):
            return list(map(tuple, map(flat.__getitem__, map(slice, starts, starts[1:]))))
        out: list[tuple[str, ...]] = [()] * len(self)  # most rows list none: fill the others
        for row in listing:
            out[row] = tuple(flat[starts[row]:starts[row + 1]])
        return out

    def listed_both_ways(self) -> bool:
        """Whether every link (i, j) has its way back (j, i), as many times, and no row links
        to itself.

        The links turned round are the links, counted alike, when the links going up (i < j)
        are the links going down (i >= j: a row's own, which then matches nothing) turned
        round: two sorts of half the links, as keys i * n + j.
        """
        if not len(self._ids):
            return True
        size = len(self)
        there = self._ids
        here = np.repeat(np.arange(size, dtype=np.int64), np.diff(self._starts))
        up = here < there
        rising, falling = here[up] * size + there[up], there[~up] * size + here[~up]
        return len(rising) == len(falling) and \
            np.array_equal(np.sort(rising), np.sort(falling))


class Links(Mapping[str, Adjacency]):
    """A keyed tab's adjacency columns by attribute, as :class:`Adjacency`. A column whose
    rows hold tuples of names has its positions found from them when first asked for: a
    world that never asks (it has the tuples) never pays for them."""

    def __init__(self, keys: RowKeys, made: Mapping[str, Adjacency],
                 listed: Mapping[str, Sequence[Sequence[str]]]) -> None:
        """``listed``: each such column's tuples of the lookup's name objects, by row."""
        self._keys, self._made, self._listed = keys, dict(made), dict(listed)

    def __getitem__(self, attr: str) -> Adjacency:
        if attr not in self._made:
            self._made[attr] = Adjacency.from_names(self._listed.pop(attr), self._keys,
                                                    looked_up=True)[0]
        return self._made[attr]

    def __iter__(self):
        return iter([*self._made, *self._listed])

    def __len__(self) -> int:
        return len(self._made) + len(self._listed)


def _array(values: _Ints) -> np.ndarray:
    if isinstance(values, np.ndarray):
        return values.astype(np.int64, copy=False)
    return np.fromiter(values, dtype=np.int64, count=len(values))


def _list(values: _Ints) -> list[int] | None:
    return values if isinstance(values, list) else None


def _starts(counts: Any) -> np.ndarray:
    """Where each row's links start, given how many each row has."""
    starts = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    return starts


def plain_lists(cells: list[str]) -> bool:
    """Whether every cell is text with no ';' or line break, and every ',' in it is followed
    by a space: then splitting a cell on ', ' gives the parts splitting it on ',' gives, but
    for the space after each comma (which a strip takes off)."""
    return _plain_text(cells) is not None


def _plain_text(cells: list[str]) -> str | None:
    """The cells joined by line breaks if they are plain (see :func:`plain_lists`)."""
    try:
        text = "\n".join(cells)
    except TypeError:  # a cell that is no text: not a typed table
        return None
    plain = text.count("\n") == len(cells) - 1 and ";" not in text and \
        text.count(",") == text.count(", ")
    return text if plain else None


def read_plain(cells: list[str], positions: Mapping[str, int]) -> Adjacency | None:
    """An adjacency column's cells read the short way, when every cell is blank or names
    separated by ', ' (as sheetmaster writes a list), each name spelt as ``positions``
    (the tab's :class:`RowKeys`) spells it; else None, and the caller reads each cell.

    This is the reading cell by cell (each cell split on ',', each part stripped and found
    as spelt; see :func:`plain_lists`): the cells that are not blank, joined by ', ', split
    into their parts in one go; a cell of k commas holds k + 1 of them. A few thousand cells
    at a time, so that a million cells' parts are never all alive at once (a quarter of a
    GB at 10^6 territories).
    """
    text = _plain_text(cells)
    if text is None:
        return None
    find, ids = positions.__getitem__, []
    try:
        for at in range(0, len(cells), _CELLS_AT_A_TIME):
            joined = ", ".join(filter(None, cells[at:at + _CELLS_AT_A_TIME]))
            if joined:
                parts = joined.split(", ")
                ids += map(find, map(str.strip, parts) if _needs_strip(joined) else parts)
    except KeyError:  # a name spelt otherwise, a blank part, a name that is no row's
        return None
    starts = _cell_starts(text, len(cells))
    if starts is None or starts[-1] != len(ids):  # a guard: plain lists always match
        return None
    return Adjacency(starts, ids)


#: how many cells :func:`read_plain` splits at once.
_CELLS_AT_A_TIME = 4096


def _cell_starts(text: str, size: int) -> np.ndarray | None:
    """Where each of ``size`` plain cells, joined by line breaks in ``text``, starts in the
    list of their parts (and where the last ends); None if the text cannot be encoded.

    A ',' or a line break is one byte in UTF-8, never part of another character's bytes:
    in the encoded text, a cell of k commas between two line breaks holds k + 1 parts, or
    none if blank.
    """
    try:
        data = np.frombuffer(text.encode(), dtype=np.uint8)
    except UnicodeEncodeError:  # a lone surrogate
        return None
    ends = np.empty(size + 1, dtype=np.int64)
    ends[0], ends[-1] = -1, len(data)
    ends[1:-1] = np.flatnonzero(data == ord("\n"))
    counts = np.diff(np.searchsorted(np.flatnonzero(data == ord(",")), ends))
    counts += np.diff(ends) > 1  # a cell that is not blank
    return _starts(counts)


def _needs_strip(joined: str) -> bool:
    """Whether a part of ``joined`` split on ', ' may start or end with white space: only if
    the text starts or ends with a space, a part is followed by ' ,' or preceded by ',  ',
    or it holds white space other than the plain space."""
    return joined[:1] == " " or joined[-1:] == " " or " ," in joined or ",  " in joined or \
        any(space in joined for space in OTHER_SPACES)


__all__ = ["Adjacency", "Links", "RowKeys", "plain_lists", "read_plain"]
