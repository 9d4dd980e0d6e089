"""This turn's orders of one kind, as columns: one list per field, one entry per order, in
posting order, with each order's outcome beside it.

A turn of a million orders is a million rows of a few columns. Kept as columns, reading them
makes no object per order and a phase that runs over them indexes lists; a phase that prefers
objects asks for :class:`~sheetmaster.kit.model.Order` objects, made once, whose outcomes land in
the same columns. Either way every order is resolved exactly once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import repeat
from typing import Any

from sheetmaster.kit.model import Order, OrderResult, Status


class OrderBatch:
    """The orders of one kind: ``rows`` (sheet rows; negative for the GM orders tab's),
    ``seqs`` (each one's place among all the turn's orders), ``players``, and ``fields``
    (column -> each order's value), all in posting order; ``status`` and ``reason`` are
    each order's outcome (None until it is resolved)."""

    __slots__ = ("kind", "rows", "seqs", "players", "fields", "status", "reason", "_orders",
                 "_resolved")

    def __init__(self, kind: str, rows: list[int], seqs: list[int], players: list[str],
                 fields: dict[str, list[Any]]) -> None:
        self.kind = kind
        self.rows, self.seqs, self.players, self.fields = rows, seqs, players, fields
        self.status: list[Status | None] = [None] * len(rows)
        self.reason: list[str] = [""] * len(rows)
        self._orders: list[Order] | None = None
        self._resolved = 0

    @classmethod
    def empty(cls, kind: str, columns: Sequence[str]) -> OrderBatch:
        return cls(kind, [], [], [], {c: [] for c in columns})

    @classmethod
    def of(cls, kind: str, orders: Sequence[Order], columns: Sequence[str]) -> OrderBatch:
        """A batch of ``orders`` (of this kind, in posting order), their fields as columns."""
        return cls(kind, [o.row for o in orders], [o.seq for o in orders],
                   [o.player for o in orders],
                   {c: [o.fields[c] for o in orders] for c in columns})

    def __len__(self) -> int:
        return len(self.rows)

    def extend(self, other: OrderBatch, *, rows_sign: int = 1, seq_offset: int = 0) -> None:
        """Append ``other``'s orders (the GM orders tab's after the Orders tab's: their rows
        made negative, their seqs after this turn's others)."""
        self.rows += [rows_sign * r for r in other.rows]
        self.seqs += [seq_offset + s for s in other.seqs]
        self.players += other.players
        for column, cells in self.fields.items():
            cells += other.fields[column]
        self.status += other.status
        self.reason += other.reason
        self._resolved += other._resolved
        self._orders = None

    def drop(self, indexes: Sequence[int]) -> None:
        """Take these orders out of the batch before any is resolved (rows over a player's
        cap: no phase may see them)."""
        if self._resolved:
            raise RuntimeError("orders are dropped before any is resolved")
        gone = set(indexes)
        kept = [i for i in range(len(self.rows)) if i not in gone]
        self.rows, self.seqs, self.players = ([cells[i] for i in kept] for cells in
                                              (self.rows, self.seqs, self.players))
        self.fields = {c: [cells[i] for i in kept] for c, cells in self.fields.items()}
        self.status, self.reason = [None] * len(kept), [""] * len(kept)
        self._orders = None

    # -- outcomes ----------------------------------------------------------------------------
    def resolve(self, i: int, status: Status, reason: str = "") -> None:
        """Record order ``i``'s outcome; each order is resolved exactly once."""
        self.resolve_each((i,), status, reason)

    def resolve_each(self, indexes: Sequence[int], status: Status, reason: str = "") -> None:
        """:meth:`resolve` each of these orders alike (e.g. every row of one agreement)."""
        statuses, reasons = self.status, self.reason
        for i in indexes:
            if statuses[i] is not None:
                raise RuntimeError(f"order row {abs(self.rows[i])} was resolved twice")
            statuses[i] = status
            reasons[i] = reason
            self._resolved += 1

    def pending(self, *columns: str) -> Iterator[tuple[Any, ...]]:
        """(index, player, *the columns' values) of each order not resolved yet, in posting
        order: the orders unresolved when it is asked, whatever is resolved meanwhile."""
        each = zip(range(len(self.rows)), self.players, *(self.fields[c] for c in columns))
        if not self._resolved:
            return each
        status = self.status
        return iter([entry for entry in each if status[entry[0]] is None])

    def result(self, i: int, secret: bool = False) -> OrderResult | None:
        """Order ``i``'s outcome so far (None while it is unresolved)."""
        status = self.status[i]
        if status is None:
            return None
        return OrderResult(self.rows[i], self.players[i], self.kind, status, self.reason[i],
                           secret)

    def results(self, secret: bool | Sequence[bool] = False) -> list[OrderResult]:
        """Every order's outcome (each must be resolved by now), in posting order;
        ``secret``: whether they are secret orders, all alike or one flag each."""
        n = len(self.rows)
        if self._resolved != n:
            raise RuntimeError(f"{n - self._resolved} '{self.kind}' orders are unresolved")
        flags = repeat(secret, n) if isinstance(secret, bool) else secret
        return list(map(OrderResult, self.rows, self.players, repeat(self.kind, n),
                        self.status, self.reason, flags))

    # -- as objects --------------------------------------------------------------------------
    def orders(self) -> list[Order]:
        """Every order of the batch as an :class:`Order` (made once), in posting order."""
        if self._orders is None:
            columns = list(self.fields)
            values = [self.fields[c] for c in columns]
            n = len(self.rows)
            fields = [dict(zip(columns, cells)) for cells in zip(*values)] if columns \
                else [{} for _ in range(n)]
            self._orders = list(map(Order, self.rows, self.seqs, self.players,
                                    repeat(self.kind, n), fields,
                                    [row < 0 for row in self.rows], repeat(self, n), range(n)))
        return self._orders

    def let_go(self) -> None:
        """Drop the objects :meth:`orders` made (each refers back to the batch): the turn is
        over, and what it made is then freed at once, not left for the cyclic collector."""
        self._orders = None

    def pending_orders(self) -> list[Order]:
        """The orders not resolved yet, as objects, in posting order."""
        orders = self.orders()
        if not self._resolved:
            return list(orders)
        status = self.status
        return [o for o in orders if status[o.index] is None]


__all__ = ["OrderBatch"]
