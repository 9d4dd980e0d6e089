"""Order rows in bulk: the pieces :class:`~sheetmaster.kit.orders.OrderReader` reads a million
rows with. The common rows are read column by column, kind by kind, each distinct cell once
(:class:`Memo`), into :class:`QuickRows`; repeats among them are found by sorted hashes
(:class:`FirstRows`); :func:`batches` numbers them in posting order among the rows read the
long way, and gathers each kind's orders into an :class:`OrderBatch`. Internal to the reading
of orders: every name here serves ``orders.py``.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import repeat
from operator import is_
from typing import Any

import numpy as np

from sheetmaster.kit.model import Order
from sheetmaster.kit.order_batch import OrderBatch

#: a field the quick read could not read: its row is read the long way, which says why.
FAILED = object()
#: cell types whose equal values are the same value of the same type
#: (see OrderReader._quick_column).
MEMO_TYPES = frozenset({str, int, type(None)})
#: cell types remembered each in a memo of its own (see OrderReader._quick_column): within
#: one of them, equal cells read alike (0.0 and -0.0 both fail to be at least 1; a NaN
#: equals nothing).
MEMO_BY_TYPE = frozenset({str, int, float, type(None)})


class Memo(dict):
    """cell -> what ``read(cell)`` gives, each distinct cell read once."""

    __slots__ = ("read",)

    def __init__(self, read: Callable[[Any], Any]) -> None:
        super().__init__()
        self.read = read

    def __missing__(self, cell: Any) -> Any:
        value = self[cell] = self.read(cell)
        return value


@dataclass
class QuickBlock:
    """Rows of one kind read the short way: their positions (in posting order), players, and
    each field's values, column by column."""

    kind: str
    positions: list[int]
    players: list[str]
    columns: list[str]
    read: list[list]


@dataclass
class QuickRows:
    """Rows read the short way (:meth:`OrderReader._quick_rows`), a block per kind. Row ``j``
    is the j-th of all the blocks' rows, block after block."""

    positions: list[int] = field(default_factory=list)
    blocks: list[QuickBlock] = field(default_factory=list)
    #: where each block's rows start among all of them.
    starts: list[int] = field(default_factory=list)
    #: the hash of each row's duplicate key (:meth:`key`), a block at a time.
    hash_blocks: list[np.ndarray] = field(default_factory=list)

    def add(self, block: QuickBlock) -> None:
        self.starts.append(len(self.positions))
        self.positions += block.positions
        self.blocks.append(block)
        # Each key's tuple lives only while it is hashed: zip makes the next one in its place.
        keys = zip(block.players, repeat(block.kind), *block.read)
        self.hash_blocks.append(np.fromiter(map(hash, keys), dtype=np.int64,
                                            count=len(block.positions)))

    def _at(self, j: int) -> tuple[QuickBlock, int]:
        b = bisect.bisect_right(self.starts, j) - 1
        return self.blocks[b], j - self.starts[b]

    def kind(self, j: int) -> str:
        return self._at(j)[0].kind

    def key(self, j: int) -> tuple:
        """Row ``j``'s duplicate key, as the long way makes it: (player, kind, *field values)."""
        block, k = self._at(j)
        return (block.players[k], block.kind, *(cells[k] for cells in block.read))


class FirstRows:
    """Finds the first common row of each duplicate key.

    The keys are sorted by hash rather than put in a dict: for a million rows, sorting a
    million numbers costs less than a million dict entries. Equal keys have equal hashes, so
    only rows whose hashes match are compared, with ``==`` as a dict would.
    """

    def __init__(self, quick: QuickRows) -> None:
        self.quick = quick
        hashes = np.concatenate(quick.hash_blocks or [np.zeros(0, dtype=np.int64)])
        # Rows with one hash stay in their order: equal keys are of one kind, so in posting order.
        self.by_hash = np.argsort(hashes, kind="stable")
        self.hashes = hashes[self.by_hash]
        self._lists: tuple[list[int], list[int]] | None = None  # by_hash and hashes, as lists

    def repeats(self) -> list[int]:
        """The indexes of the common rows whose key an earlier common row has."""
        same = self.hashes[1:] == self.hashes[:-1]
        if not same.any():
            return []
        shared = np.zeros(len(self.hashes), dtype=bool)  # rows whose hash another row has
        shared[1:] |= same
        shared[:-1] |= same
        first: dict[tuple, int] = {}
        return [j for j in np.sort(self.by_hash[shared]).tolist()
                if first.setdefault(self.quick.key(j), j) != j]

    def position(self, key: tuple) -> int | None:
        """The position of the first common row with ``key``, or None."""
        if not self.quick.positions:
            return None
        if self._lists is None:  # for one key at a time, lists and bisect beat numpy
            self._lists = self.by_hash.tolist(), self.hashes.tolist()
        by_hash, hashes = self._lists
        h = hash(key)
        for k in range(bisect.bisect_left(hashes, h), bisect.bisect_right(hashes, h)):
            if self.quick.key(by_hash[k]) == key:
                return self.quick.positions[by_hash[k]]
        return None


def ascending(positions: list[int], more: list[int]) -> Iterator[int]:
    """The sorted ``positions`` with the heap ``more`` merged in, in ascending order; the heap
    may grow on the way, by positions after the last one given."""
    for i in positions:
        while more and more[0] < i:
            yield heapq.heappop(more)
        yield i
    while more:
        yield heapq.heappop(more)


def other_positions(n: int, positions: np.ndarray) -> list[int]:
    """The positions below ``n`` not in ``positions``."""
    other = np.ones(n, dtype=bool)
    other[positions] = False
    return np.flatnonzero(other).tolist()


def batches(rows: list[int], quick: QuickRows, positions: np.ndarray, posting: np.ndarray,
            taken: set[int], long: list[tuple[int, Order]], kinds: dict[str, list[str]]
            ) -> tuple[dict[str, OrderBatch], list[int]]:
    """Each kind's orders as a batch (``kinds``: kind -> its field columns): those of the
    common rows not ``taken`` the long way and the ``long`` ones, each batch in posting order
    and each order's seq its place among all of them; and the positions of those common rows,
    in posting order (``positions`` are the common rows', ``posting`` puts them in posting
    order)."""
    if taken:
        posting = posting[~np.isin(positions[posting], list(taken))]
    kept = positions[posting]
    seqs = np.zeros(len(positions), dtype=np.intp)  # rows taken the long way get none
    seqs[posting] = np.arange(len(posting))
    long_positions = [i for i, _ in long]
    if long_positions:
        seqs[posting] += np.searchsorted(long_positions, kept)
    keep = np.zeros(len(positions), dtype=bool)
    keep[posting] = True
    found = {kind: OrderBatch.empty(kind, columns) for kind, columns in kinds.items()}
    for block, start in zip(quick.blocks, quick.starts):  # one block per kind
        end = start + len(block.positions)
        mine = None if keep[start:end].all() else np.flatnonzero(keep[start:end]).tolist()
        found[block.kind] = OrderBatch(
            block.kind, take(rows, _kept(block.positions, mine)),
            _kept(seqs[start:end].tolist(), mine), _kept(block.players, mine),
            {c: _kept(cells, mine) for c, cells in zip(block.columns, block.read)})
    by_kind: dict[str, list[Order]] = {}
    for _, order in long:
        by_kind.setdefault(order.kind, []).append(order)
    for kind, orders in by_kind.items():
        found[kind].extend(OrderBatch.of(kind, orders, kinds[kind]))
        found[kind] = in_posting_order(found[kind])
    return found, kept.tolist()


def _kept(cells: list, mine: list[int] | None) -> list:
    """The cells at ``mine`` (None: all of them, the list itself)."""
    return cells if mine is None else take(cells, mine)


def in_posting_order(batch: OrderBatch) -> OrderBatch:
    """The batch with its orders sorted by seq."""
    if all(a < b for a, b in zip(batch.seqs, batch.seqs[1:])):
        return batch
    order = np.argsort(batch.seqs, kind="stable").tolist()
    return OrderBatch(batch.kind, take(batch.rows, order), take(batch.seqs, order),
                      take(batch.players, order),
                      {c: take(v, order) for c, v in batch.fields.items()})


def fill_in(found: list, cells: list, memo: Memo) -> None:
    """Each None in ``found`` (a cell not read the short way) becomes ``memo[cell]``."""
    missed = found.count(None)
    if missed == len(found):
        found[:] = map(memo.__getitem__, cells)
    elif missed:
        for i in np.flatnonzero(is_none(found)).tolist():
            found[i] = memo[cells[i]]


#: a cell that starts so after its trim is looked at closely (it may be a formula).
FORMULA_FIRSTS = "=@+-"
#: ... and so is one that starts so (it may be a spreadsheet error, '#DIV/0!').
ERROR_FIRST = "#"


def plain_text(cells: list) -> list[str] | None:
    """Each cell's trim, when every cell is text that is not blank once trimmed and does not
    start like a formula or a spreadsheet error (as free text is read then); else None: the
    cells are read one by one. A few C passes over a million cells."""
    try:
        trimmed = list(map(str.strip, cells))
    except TypeError:  # a cell that is not text (a number, a blank None)
        return None
    joined = "\x00".join(trimmed)
    firsts = FORMULA_FIRSTS + ERROR_FIRST
    if "" in trimmed or joined[:1] in firsts or \
            any(f"\x00{first}" in joined for first in firsts):
        return None
    return trimmed


def exact_names(cells: list, get: Callable[[str], Any]) -> list:
    """``get(cell)`` for each text cell, None for any other cell (a number is never a name
    typed as the game writes it, even if its text is one)."""
    if set(map(type, cells)) <= {str, type(None)}:
        return list(map(get, cells))  # None finds nothing: names and order kinds are text
    return [get(cell) if type(cell) is str else None for cell in cells]


def order_codes(cells: list, code_of: Mapping[str, int]) -> np.ndarray:
    """``code_of[cell]`` for each text cell that has one, -1 for any other cell."""
    if set(map(type, cells)) <= {str, type(None)}:
        found: Iterable[int] = map(code_of.get, cells, repeat(-1))
    else:
        found = (code_of.get(cell, -1) if type(cell) is str else -1 for cell in cells)
    return np.fromiter(found, dtype=np.intp, count=len(cells))


def is_none(cells: list) -> np.ndarray:
    """Whether each cell is None (nothing else: not NaN, not "")."""
    return np.fromiter(map(is_, cells, repeat(None)), dtype=bool, count=len(cells))


def is_empty(cells: list) -> np.ndarray:
    """Whether each cell is empty as a store gives it: None, or "" (a workbook's and a Google
    Sheet's blank cells). The long way reads both as no turn, result or timestamp."""
    return np.fromiter(map(_EMPTY.__contains__, zip(map(type, cells), cells)), dtype=bool,
                       count=len(cells))


#: None and "", each with its type: no other cell passes for them.
_EMPTY = frozenset({(type(None), None), (str, "")})


def take(cells: list, positions: list[int]) -> list:
    return [cells[i] for i in positions]


