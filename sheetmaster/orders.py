"""Order kinds and the reading of order rows.

A malformed row never stops a turn: it becomes a rejected :class:`OrderResult` with a reason,
and the rest of the turn goes on. Rows are taken top to bottom: that is the posting order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from sheetmaster import reasons, values
from sheetmaster.model import Order, OrderResult, Status
from sheetmaster.values import BadValue

# Columns every Orders tab has, whatever the ruleset.
TURN, PLAYER, ORDER, RESULT, REASON = "turn", "player", "order", "result", "reason"
#: The result words that mean a row was already resolved (check's words do not).
FINAL_RESULTS = {s.value for s in Status}


@dataclass(frozen=True)
class Field:
    """One input column an order kind reads.

    ``names`` is the category of name the cell must hold ("player", "territory", ...), checked
    against the game; ``count`` means a whole number of at least 1; otherwise free text.
    """

    column: str
    names: str | None = None
    count: bool = False
    required: bool = True
    help: str = ""


@dataclass(frozen=True)
class OrderKind:
    name: str
    fields: tuple[Field, ...] = ()
    help: str = ""
    #: an example row for the "how to write orders" tab: column -> value.
    example: Mapping[str, Any] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()
    #: the same row may be posted twice on purpose (e.g. two Rice Farms in one province);
    #: otherwise an exact repeat of an earlier row is taken for a double post and rejected.
    repeatable: bool = False
    #: given on the setup turn (turn 0) only; other kinds are refused on it.
    setup: bool = False
    #: its outcome is the player's secret: the shared sheet shows only its status, and the
    #: reason goes to the player's own report.
    secret: bool = False
    #: only the GM may give it (from the GM's orders tab); refused from the Orders tab.
    gm_only: bool = False


#: first characters of a cell worth a closer look for a formula (leading spaces included).
_FORMULA_STARTS = frozenset("=@+- \t\n")


def _looks_like_formula(text: str) -> bool:
    """Text a spreadsheet would run as a formula: =..., @..., or +/- before a non-number."""
    if not text:
        return False
    if text[0] in "=@":
        return True
    return text[0] in "+-" and not text[1:].strip().replace(".", "", 1).isdigit()


@dataclass(frozen=True)
class RejectedRow:
    """A row of this turn rejected while being read, with its cells as typed."""

    row: int
    player: str
    kind: str
    record: Mapping[str, Any]


@dataclass
class ParsedOrders:
    """The result of reading the Orders tab for one turn."""

    orders: list[Order]
    rejected: list[OrderResult]
    #: sheet rows of this turn whose turn cell was blank (the store fills in the turn).
    blank_turn_rows: list[int]
    #: this turn's rejected rows as typed, so a phase can see what they were part of.
    rejected_rows: list[RejectedRow] = field(default_factory=list)


class OrderReader:
    """Reads order rows for one ruleset and one game."""

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
        time for this turn; rows posted later wait, untouched, for the next turn."""
        orders: list[Order] = []
        rejected: list[OrderResult] = []
        blank_turn: list[int] = []
        self.authenticated = "email" in df.columns and "email" not in df.attrs.get("absent", ())
        self._players = self.names.get("player") or values.Names(())
        seen: dict[tuple, int] = {}
        rows_typed: list[RejectedRow] = []
        absent = set(df.attrs.get("absent", ()))
        columns = [c for c in df.columns if c not in absent]
        data = {c: df[c].tolist() for c in columns}
        n = len(df)
        inputs = [c for c in columns if c not in (RESULT, REASON)]
        results = data.get(RESULT) or [None] * n
        players = data.get(PLAYER) or [None] * n
        blank = values.is_blank
        quick = self._quick_reader(data, n, turn, posted_by)
        columns_in = [data[c] for c in inputs]
        for i, row in enumerate(df.index.tolist()):
            outcome = quick(i, int(row), len(orders))
            if outcome is not None:
                key = (outcome.player, outcome.kind, *outcome.fields.values())
                if key not in seen or outcome.kind in self.repeatable:
                    seen[key] = outcome.row
                    orders.append(outcome)
                    blank_turn.append(outcome.row)
                    continue
            cells = [column[i] for column in columns_in]
            if blank(players[i]) and all(blank(v) for v in cells):
                continue  # an empty row is not an order
            record = dict(zip(inputs, cells))
            record[RESULT] = results[i]
            if values.text(results[i]) in FINAL_RESULTS:
                # Already resolved: an earlier turn's order, or one for a later turn that was
                # refused ("orders cannot be given preemptively for any future turn").
                continue
            stamp = record.get("timestamp")
            if posted_by is not None and not values.is_blank(stamp) and not posted_by(stamp) \
                    and values.is_blank(record.get(TURN)):
                continue  # posted after the deadline: it belongs to the next turn
            row = int(row)
            turn_cell = record.get(TURN)
            if values.is_blank(turn_cell):
                given = turn
            else:
                try:
                    given = values.whole_number(turn_cell)
                except BadValue as exc:
                    rejected.append(self._reject(row, record, reasons.BAD_TURN.say(
                        problem=str(exc))))
                    continue
            if given != turn:
                rejected.append(self._reject(row, record, reasons.WRONG_TURN.say(
                    given=given, turn=turn)))
                continue
            if values.is_blank(turn_cell):
                blank_turn.append(row)
            outcome = self._read_row(row, len(orders), record)
            if isinstance(outcome, Order):
                key = (outcome.player, outcome.kind, *outcome.fields.values())
                if key not in seen or outcome.kind in self.repeatable:
                    seen[key] = row
                    orders.append(outcome)
                    continue
                outcome = OrderResult(row, outcome.player, outcome.kind, Status.REJECTED,
                                      reasons.DUPLICATE.say(first=seen[key]))
            rejected.append(outcome)
            rows_typed.append(RejectedRow(row, outcome.player, outcome.kind, record))
        return ParsedOrders(orders, rejected, blank_turn, rows_typed)

    def _quick_reader(self, data: dict[str, list], n: int, turn: int,
                      posted_by: Callable[[Any], bool] | None
                      ) -> Callable[[int, int, int], Order | None]:
        """Reads row ``i`` the short way when it is the common case: no result, turn or
        timestamp, the player, the order and every name typed as the game writes them, every
        field fine. Any other row gives None and is read the long way, which reads a common
        row to the very same order."""
        blanks = [None] * n
        results, turns = data.get(RESULT) or blanks, data.get(TURN) or blanks
        stamps = (data.get("timestamp") or blanks) if posted_by is not None else blanks
        players, kinds = data.get(PLAYER) or blanks, data.get(ORDER) or blanks
        player_of, kind_of = self._players.exact_get, self.by_name.get
        plans = {}
        for kind in self.kinds:
            plans[kind.name] = [(data.get(f.column) or blanks, lookup.get if lookup else None, f)
                                for f, lookup in self._plan(kind)]

        def quick(i: int, row: int, seq: int) -> Order | None:
            if self.authenticated or results[i] is not None or turns[i] is not None or \
                    stamps[i] is not None:
                return None
            player, kind_text = players[i], kinds[i]
            if type(player) is not str or type(kind_text) is not str:
                return None
            player, kind = player_of(player), kind_of(kind_text)
            if player is None or kind is None:
                return None
            fields: dict[str, Any] = {}
            for cells, lookup, f in plans[kind.name]:
                cell = cells[i]
                found = lookup(cell) if lookup is not None and type(cell) is str else None
                if found is None:
                    try:
                        found = self._read_field(kind, f, cell)
                    except BadValue:
                        return None
                fields[f.column] = found
            return Order(row, seq, player, kind.name, fields)

        return quick

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
                               _formula_reason(ORDER, kind_text) or reasons.UNKNOWN_ORDER.say(
                                   name=values.show(kind_text), kinds=self.kind_list))
        fields: dict[str, Any] = {}
        for f, lookup in self._plan(kind):
            cell = record.get(f.column)
            # The common case first: a name typed exactly as the game writes it.
            found = lookup.get(cell) if lookup is not None and type(cell) is str else None
            if found is not None:
                fields[f.column] = found
                continue
            try:
                fields[f.column] = self._read_field(kind, f, cell)
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


def _formula_reason(column: str, text: str) -> str:
    """Why text a player typed is refused as a formula ('' if it is not one).

    Only cells an order uses are looked at: the player, the order and its fields. A name typed
    exactly as the game writes it is never a formula, so the check runs off the common path.
    """
    if text[:1] in _FORMULA_STARTS and _looks_like_formula(text.strip()):
        return reasons.LOOKS_LIKE_FORMULA.say(column=column, value=values.show(text.strip()))
    return ""


def _kind_key(text: str) -> str:
    return values.fold(text.replace("_", " ").replace("-", " "))

