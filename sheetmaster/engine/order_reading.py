"""The reading of order rows, against the order kinds a ruleset declares.

A malformed row never stops a turn: it becomes a rejected :class:`OrderResult` with a reason,
and the rest of the turn goes on. Rows are taken top to bottom: that is the posting order.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

import numpy as np
import pandas as pd

from sheetmaster.engine.order_rows import (
    ERROR_FIRST,
    FAILED,
    FORMULA_FIRSTS,
    MEMO_BY_TYPE,
    MEMO_TYPES,
    FirstRows,
    Memo,
    QuickBlock,
    QuickRows,
    ascending,
    batches,
    exact_names,
    fill_in,
    is_empty,
    is_none,
    order_codes,
    other_positions,
    plain_text,
    take,
)
from sheetmaster.kit import reasons, values
from sheetmaster.kit.model import Order, OrderResult, Status
from sheetmaster.kit.order_batch import OrderBatch
from sheetmaster.kit.orders import (
    FINAL_RESULTS,
    ORDER,
    PLAYER,
    REASON,
    RESULT,
    TURN,
    Field,
    OrderKind,
    RejectedRow,
)
from sheetmaster.kit.values import BadValue

#: first characters of a cell worth a closer look for a formula (leading spaces included).
_FORMULA_STARTS = frozenset(FORMULA_FIRSTS + " \t\n")
#: ... or for a formula or a spreadsheet error ('#DIV/0!'), in the short way's free text.
_LOOK_CLOSER = _FORMULA_STARTS | {ERROR_FIRST}


def _looks_like_formula(text: str) -> bool:
    """Text a spreadsheet would run as a formula: =..., @..., or +/- before a non-number."""
    if not text:
        return False
    if text[0] in "=@":
        return True
    return text[0] in "+-" and not text[1:].strip().replace(".", "", 1).isdigit()


@dataclass
class ParsedOrders:
    """The result of reading the Orders tab for one turn."""

    #: order kind -> this turn's orders of that kind (every kind, empty or not).
    batches: dict[str, OrderBatch]
    rejected: list[OrderResult]
    #: sheet rows of this turn whose turn cell was blank (the store fills in the turn).
    blank_turn_rows: list[int]
    #: this turn's rejected rows as typed, so a phase can see what they were part of.
    rejected_rows: list[RejectedRow] = field(default_factory=list)

    @property
    def orders(self) -> list[Order]:
        """Every order read, as objects, in posting order."""
        return sorted((o for b in self.batches.values() for o in b.orders()),
                      key=attrgetter("seq"))


class OrderReader:
    """Reads order rows for one ruleset and one game."""

    #: False reads every row the long way: the reference the short way is checked against.
    quick_reading = True

    def __init__(self, kinds: tuple[OrderKind, ...], names: Mapping[str, values.Names],
                 players_email: Mapping[str, str] | None = None) -> None:
        self.kinds = kinds
        self.by_name: dict[str, OrderKind] = {}
        for kind in kinds:
            for alias in (kind.name, *kind.aliases):
                self.by_name[_kind_key(alias)] = kind
        self.names = names
        self.kind_list = ", ".join(k.name for k in kinds)
        self.repeatable = {k.name for k in kinds if k.repeatable}
        self.players_email = players_email or {}
        self.authenticated = False
        self._plans: dict[str, list[tuple[Field, values.Names | None]]] = {}

    def read(self, df: pd.DataFrame, turn: int,
             posted_by: Callable[[Any], bool] | None = None) -> ParsedOrders:
        """This turn's orders. ``posted_by(timestamp)`` says whether a row's timestamp is in
        time for this turn; rows posted later wait, untouched, for the next turn.

        The result is that of reading each row the long way, in posting order (see
        :class:`_LongWay`). The common rows are read the short way instead, column by column
        (:meth:`_quick_rows`), to the same orders; a common row that repeats an order is read
        the long way after all, which rejects it as a duplicate.
        """
        self.authenticated = "email" in df.columns and "email" not in df.attrs.get("absent", ())
        self._players = self.names.get("player") or values.Names(())
        absent = set(df.attrs.get("absent", ()))
        data = {c: df[c].tolist() for c in df.columns if c not in absent}
        rows = df.index.tolist()  # sheet rows
        if not pd.api.types.is_integer_dtype(df.index.dtype):
            rows = list(map(int, rows))
        quick = self._quick_rows(data, len(rows), posted_by)
        positions = np.array(quick.positions, dtype=np.intp)
        posting = np.argsort(positions, kind="stable")  # the common rows in posting order
        firsts = FirstRows(quick)
        repeats = [quick.positions[j] for j in firsts.repeats()
                   if quick.kind(j) not in self.repeatable]
        long = _LongWay(self, data, rows, turn, posted_by, firsts, positions[posting])
        long.read(other_positions(len(rows), positions), repeats)
        found, kept = batches(rows, quick, positions, posting, long.quick_rows_taken,
                              long.orders, {k.name: [f.column for f in k.fields]
                                            for k in self.kinds})
        return ParsedOrders(found, long.rejected, take(rows, sorted(kept + long.blank_turn)),
                            long.rows_typed)

    def _quick_rows(self, data: dict[str, list], n: int,
                    posted_by: Callable[[Any], bool] | None) -> QuickRows:
        """The common rows read the short way, column by column, kind by kind.

        A row is common when the intake is not authenticated, the row has no result, turn or
        (with a deadline) timestamp cell, its player and order are typed exactly as the game
        writes them, and every field reads without error (:meth:`_quick_field`). The long way
        reads such a row to the very same order: it finds nothing to skip or check on it, and
        reads each field just so. Every other row is left to the long way, which says why.
        """
        quick = QuickRows()
        if self.authenticated or n == 0 or not self.quick_reading:
            return quick
        blanks = [None] * n
        players = exact_names(data.get(PLAYER) or blanks, self._players.exact_get)
        for kind, rows in self._common_rows(data, n, posted_by, players):
            plan = self._plan(kind)
            columns = [f.column for f, _ in plan]
            if len(set(columns)) < len(columns):
                continue  # two fields in one column: the long way knows what that means
            read, failed = [], set()
            for f, lookup in plan:
                cells, any_failed = self._quick_column(
                    kind, f, lookup, take(data.get(f.column) or blanks, rows))
                read.append(cells)
                if any_failed:
                    failed.update(j for j, value in enumerate(cells) if value is FAILED)
            if failed:
                kept = [j for j in range(len(rows)) if j not in failed]
                rows, read = take(rows, kept), [take(cells, kept) for cells in read]
            quick.add(QuickBlock(kind.name, rows, take(players, rows), columns, read))
        return quick

    def _common_rows(self, data: dict[str, list], n: int,
                     posted_by: Callable[[Any], bool] | None,
                     players: list[str | None]) -> Iterator[tuple[OrderKind, list[int]]]:
        """Each order kind with the positions of its rows that may be common: a player found,
        the order typed as the game writes it, and no result, turn or timestamp cell."""
        common = ~is_none(players)
        for column in (RESULT, TURN, "timestamp" if posted_by is not None else None):
            cells = data.get(column) if column is not None else None
            if cells:
                common &= is_empty(cells)
        code = {id(kind): position for position, kind in enumerate(self.kinds)}
        codes = order_codes(data.get(ORDER) or [None] * n,
                       {text: code[id(kind)] for text, kind in self.by_name.items()})
        for position, kind in enumerate(self.kinds):
            rows = np.flatnonzero(common & (codes == position)).tolist()
            if rows:
                yield kind, rows

    def _quick_column(self, kind: OrderKind, f: Field, lookup: values.Names | None,
                      cells: list) -> tuple[list, bool]:
        """:meth:`_quick_field` of each cell, each distinct cell read once; and whether any of
        them is FAILED.

        Cells are remembered by value only when all are exact ``str``, ``int`` or None: among
        those, equal cells are the same value of the same type (unlike ``True == 1 == 1.0``).
        Otherwise each cell is read on its own. Two shortcuts give what the reading would: a
        name typed as the game writes it is the name (:meth:`values.Names.get` finds it so
        first), and free text that is neither blank nor starts like a formula is its trim.
        """
        def read(cell: Any) -> Any:
            return self._quick_field(kind, f, lookup, cell)

        if not set(map(type, cells)) <= MEMO_TYPES:
            # e.g. a workbook's amounts: floats, and "" for blank. One memo per exact type:
            # within a type, equal cells read alike (1 == 1.0 == True only across types).
            memos = {t: Memo(read) for t in MEMO_BY_TYPE}
            found = [memos[type(cell)][cell] if type(cell) in memos else read(cell)
                     for cell in cells]
            return found, any(value is FAILED for value in found)
        memo = Memo(read)
        if lookup is not None:
            found = list(map(lookup.exact_get, cells))  # None where a name is not found so
            fill_in(found, cells, memo)
        elif not (f.count or f.decimal):
            found = plain_text(cells)
            if found is None:
                found = [trimmed if type(cell) is str and (trimmed := cell.strip())
                         and trimmed[0] not in _LOOK_CLOSER else memo[cell] for cell in cells]
        else:
            found = list(map(memo.__getitem__, cells))
        return found, FAILED in memo.values()

    def _quick_field(self, kind: OrderKind, f: Field, lookup: values.Names | None,
                     cell: Any) -> Any:
        """A field read as :meth:`_read_row` reads it, or FAILED where that would reject it."""
        try:
            return self._field(kind, f, lookup, cell)
        except BadValue:
            return FAILED

    def _field(self, kind: OrderKind, f: Field, lookup: values.Names | None, cell: Any) -> Any:
        """One field of an order row (``lookup``: the names it must be one of, if any), or
        BadValue saying why the row is rejected. The common case first: a name typed exactly
        as the game writes it. A blank cell names nothing: it is not looked up (a miss folds
        every name of the game)."""
        found = lookup.get(cell) if lookup is not None and type(cell) is str and cell \
            else None
        return found if found is not None else self._read_field(kind, f, cell)

    def _name(self, category: str, text: str) -> str | None:
        lookup = self.names.get(category)
        return lookup.get(text) if lookup is not None else None

    def _reject(self, row: int, record: Mapping[str, Any], reason: str) -> OrderResult:
        """A rejected row, named by its player and order kind as far as they can be read."""
        player = values.text(record.get(PLAYER))
        kind = values.text(record.get(ORDER))
        known_kind = self.by_name.get(_kind_key(kind))
        return OrderResult(row, self._name("player", player) or player,
                           known_kind.name if known_kind else kind, Status.REJECTED, reason)

    def _read_row(self, row: int, seq: int, record: Mapping[str, Any]) -> Order | OrderResult:
        player_text = values.text(record.get(PLAYER))
        if not player_text:
            return self._reject(row, record, reasons.BLANK_PLAYER.say())
        player = self._players.get(player_text)
        if player is None:
            return self._reject(row, record, _formula_reason(PLAYER, player_text) or
                                _error_reason(PLAYER, player_text, "write the player's name") or
                                reasons.UNKNOWN_PLAYER.say(name=values.show(player_text)))
        sender_problem = self._check_sender(player, record)
        if sender_problem:
            return OrderResult(row, player, values.text(record.get(ORDER)), Status.REJECTED,
                               sender_problem)
        kind_text = values.text(record.get(ORDER))
        if not kind_text:
            return OrderResult(row, player, "", Status.REJECTED,
                               reasons.BLANK_ORDER.say(kinds=self.kind_list))
        kind = self.by_name.get(kind_text) or self.by_name.get(_kind_key(kind_text))
        if kind is None:
            return OrderResult(row, player, kind_text, Status.REJECTED,
                               _formula_reason(ORDER, kind_text) or
                               _error_reason(ORDER, kind_text, f"pick one of: {self.kind_list}")
                               or reasons.UNKNOWN_ORDER.say(
                                   name=values.show(kind_text), kinds=self.kind_list))
        fields: dict[str, Any] = {}
        for f, lookup in self._plan(kind):
            try:
                fields[f.column] = self._field(kind, f, lookup, record.get(f.column))
            except BadValue as exc:
                return OrderResult(row, player, kind.name, Status.REJECTED, str(exc))
        return Order(row=row, seq=seq, player=player, kind=kind.name, fields=fields)

    def _plan(self, kind: OrderKind) -> list[tuple[Field, values.Names | None]]:
        """Each field of ``kind`` with the name lookup it uses (cached per kind)."""
        plan = self._plans.get(kind.name)
        if plan is None:
            plan = [(f, self.names.get(f.names) if f.names else None) for f in kind.fields]
            self._plans[kind.name] = plan
        return plan

    def _check_sender(self, player: str, record: Mapping[str, Any]) -> str:
        """With authenticated intake (an 'email' column), the sender must be the player."""
        if not self.authenticated:
            return ""
        sender = values.text(record.get("email"))
        expected = self.players_email.get(player, "")
        if not expected or values.fold(sender) != values.fold(expected):
            return reasons.WRONG_SENDER.say(email=values.show(sender or "(no address)"),
                                            player=player)
        return ""

    def _read_field(self, kind: OrderKind, f: Field, cell: Any) -> Any:
        error = values.sheet_error(cell)
        if error is not None:  # a failed formula is neither blank nor a value, of any kind
            raise BadValue(reasons.BAD_FIELD.say(column=f.column, problem=values.error_problem(
                error, _what_to_write(f))))
        if values.is_blank(cell) and not (f.count and values.is_number_error(cell)):
            if f.required:
                raise BadValue(reasons.MISSING_FIELD.say(kind=kind.name, column=f.column))
            return None
        if f.count:
            problem = _formula_reason(f.column, cell.strip()) if type(cell) is str else ""
            if problem:
                raise BadValue(problem)
            try:
                number = values.whole_number(cell, strict=True)
            except BadValue as exc:
                raise BadValue(reasons.BAD_FIELD.say(column=f.column, problem=str(exc))) from None
            if number < 1:
                raise BadValue(reasons.BAD_FIELD.say(column=f.column,
                                                     problem="must be at least 1"))
            return number
        if f.decimal:
            try:
                return values.exact_amount(cell)
            except BadValue as exc:
                raise BadValue(reasons.BAD_FIELD.say(column=f.column, problem=str(exc))) from None
        text = values.text(cell)
        problem = _formula_reason(f.column, text)
        if problem:
            raise BadValue(problem)
        if f.names is None:
            return text
        found = self._name(f.names, text)
        if found is None:
            raise BadValue(reasons.UNKNOWN_NAME.say(column=f.column, what=f.names,
                                                    name=values.show(text)))
        return found


class _LongWay:
    """Reads rows the long way, in posting order, and checks every order for a repeat.

    An order read here that a common row after it gives too is the first: that common row is
    then read here too, as a repeat.
    """

    def __init__(self, reader: OrderReader, data: dict[str, list], rows: list[int], turn: int,
                 posted_by: Callable[[Any], bool] | None, firsts: FirstRows,
                 quick_positions: np.ndarray) -> None:
        self.reader, self.rows, self.turn, self.posted_by = reader, rows, turn, posted_by
        self.firsts, self.quick_positions = firsts, quick_positions  # sorted
        self._quick_list: list[int] | None = None  # the same, for bisect (see _seq)
        #: duplicate key -> position of the order that stands: read here, or a common row's
        #: met on the way (no row left to read can come before it).
        self.first: dict[tuple, int] = {}
        columns = list(data)
        self.inputs = [c for c in columns if c not in (RESULT, REASON)]
        self.columns_in = [data[c] for c in self.inputs]
        n = len(rows)
        self.results = data.get(RESULT) or [None] * n
        self.players = data.get(PLAYER) or [None] * n
        self.orders: list[tuple[int, Order]] = []  # (position, order)
        self.rejected: list[OrderResult] = []
        self.rows_typed: list[RejectedRow] = []
        self.blank_turn: list[int] = []  # positions
        self.quick_rows_taken: set[int] = set()

    def read(self, others: list[int], repeats: list[int]) -> None:
        """Reads the uncommon rows at ``others`` and the common rows at ``repeats``, in posting
        order, and with them any later common row whose order a row read here gave first."""
        common = set(repeats)
        taken: list[int] = []  # common rows taken on the way (a heap)
        for i in ascending(sorted(others + repeats), taken):
            taken_from = self._read_row(i)
            if i in common:
                self.quick_rows_taken.add(i)
            if taken_from is not None:
                common.add(taken_from)
                heapq.heappush(taken, taken_from)

    def _read_row(self, i: int) -> int | None:
        """Reads row ``i``; returns the position of a later common row whose order it gave
        first, if any."""
        blank, reader = values.is_blank, self.reader
        cells = [column[i] for column in self.columns_in]
        if blank(self.players[i]) and all(blank(v) for v in cells):
            return None  # an empty row is not an order
        record = dict(zip(self.inputs, cells))
        record[RESULT] = self.results[i]
        if values.text(self.results[i]) in FINAL_RESULTS:
            # Already resolved: an earlier turn's order, or one for a later turn that was
            # refused ("orders cannot be given preemptively for any future turn").
            return None
        stamp = record.get("timestamp")
        if self.posted_by is not None and not blank(stamp) and not self.posted_by(stamp) \
                and blank(record.get(TURN)):
            return None  # posted after the deadline: it belongs to the next turn
        row = self.rows[i]
        turn_cell = record.get(TURN)
        if blank(turn_cell):
            given = self.turn
        else:
            try:
                given = values.whole_number(turn_cell)
            except BadValue as exc:
                self.rejected.append(reader._reject(row, record, reasons.BAD_TURN.say(
                    problem=str(exc))))
                return None
        if given != self.turn:
            self.rejected.append(reader._reject(row, record, reasons.WRONG_TURN.say(
                given=given, turn=self.turn)))
            return None
        if blank(turn_cell):
            self.blank_turn.append(i)
        outcome = reader._read_row(row, -1, record)  # its seq once it is taken (_accept)
        if isinstance(outcome, Order):
            key = (outcome.player, outcome.kind, *outcome.fields.values())
            if outcome.kind in reader.repeatable:
                self._accept(i, outcome)
                return None
            first = self.first.get(key)
            if first is None:  # no order read here gave it: a common row may have
                first = self.firsts.position(key)
                if first is None or first > i:
                    self.first[key] = i
                    self._accept(i, outcome)
                    return first  # a later common row that gave it is a repeat now
                self.first[key] = first  # an earlier common row's, which stands
            outcome = OrderResult(row, outcome.player, outcome.kind, Status.REJECTED,
                                  reasons.DUPLICATE.say(first=self.rows[first]))
        self.rejected.append(outcome)
        self.rows_typed.append(RejectedRow(row, outcome.player, outcome.kind, record))
        return None

    def _accept(self, i: int, order: Order) -> None:
        """Takes the order read at position ``i``, numbered by its place among the turn's."""
        order.seq = self._seq(i)
        self.orders.append((i, order))

    def _seq(self, i: int) -> int:
        """The place of an order read at position ``i`` among the turn's orders: after the
        common rows before it that were not read here, and the orders read here so far.
        (Rows are read in posting order, so every common row read here so far is before it.)"""
        if self._quick_list is None:  # for one position at a time, bisect beats numpy
            self._quick_list = self.quick_positions.tolist()
        common_before = bisect.bisect_left(self._quick_list, i)
        return common_before - len(self.quick_rows_taken) + len(self.orders)


def _formula_reason(column: str, text: str) -> str:
    """Why text a player typed is refused as a formula ('' if it is not one).

    Only cells an order uses are looked at: the player, the order and its fields. A name typed
    exactly as the game writes it is never a formula, so the check runs off the common path.
    """
    if text[:1] in _FORMULA_STARTS and _looks_like_formula(text.strip()):
        return reasons.LOOKS_LIKE_FORMULA.say(column=column, value=values.show(text.strip()))
    return ""


def _what_to_write(f: Field) -> str:
    """What a field's cell should hold, as a reason says it."""
    if f.count:
        return "write a whole number"
    if f.decimal:
        return "write an amount (digits, like 9.75)"
    return f"write the {f.names}'s name" if f.names else "write plain text"


def _error_reason(column: str, text: str, wanted: str) -> str:
    """Why a player or order cell is refused as a spreadsheet error ('' if it is none)."""
    error = values.sheet_error(text)
    return "" if error is None else reasons.BAD_FIELD.say(
        column=column, problem=values.error_problem(error, wanted))


def _kind_key(text: str) -> str:
    return values.fold(text.replace("_", " ").replace("-", " "))

