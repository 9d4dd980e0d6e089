"""What must hold after every fuzzed turn, for any ruleset, then the ruleset's own
invariants (:data:`INVARIANTS`); and rejected rows changing nothing by themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pandas as pd

from sheetmaster.engine.turn import resolve
from sheetmaster.kit import values
from sheetmaster.kit.model import GameState, Status, TurnResult
from sheetmaster.kit.orders import FINAL_RESULTS, REASON, RESULT, TURN
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.schema import Table
from sheetmaster.kit.tabs import GAME_TAB, GM_ORDERS_TAB, LOG_TAB, ORDERS_TAB, parse_deadline
from testkit.fuzzing.rows import _canonical_column
from testkit.fuzzing.sheet_writes import _raw_orders

# -- what must hold after every turn --------------------------------------------------------


def _same(a: Any, b: Any) -> bool:
    """Two cells read the same: blank is blank and 2.0 is 2, but True is not 1."""
    def norm(v: Any) -> Any:
        if values.is_blank(v):
            return ""
        if isinstance(v, float) and v.is_integer():
            return int(v)
        return v

    a, b = norm(a), norm(b)
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, float) and isinstance(b, Decimal) or \
            isinstance(b, float) and isinstance(a, Decimal):
        # an exact number written as a float reads back as that float's shortest spelling
        return Decimal(repr(a)) == b if isinstance(a, float) else Decimal(repr(b)) == a
    return bool(a == b)


def rows_needing_result(result: TurnResult) -> tuple[set[int], set[int]]:
    """(rows that must get a result this turn, rows whose blank turn cell must be filled in).

    Skipped on purpose: blank rows; rows that already have a final result, whatever their
    turn (an earlier turn's, or one refused for a later turn); rows with a blank turn cell
    posted after the deadline (they wait for the next turn).
    """
    needed: set[int] = set()
    blank_turn: set[int] = set()
    for tab, sign in ((ORDERS_TAB, 1), (GM_ORDERS_TAB, -1)):
        if tab in result.before.tables:
            rows, blanks = _tab_rows_needing_result(result, tab)
            needed |= {sign * r for r in rows}
            blank_turn |= {sign * r for r in blanks}
    return needed, blank_turn


def _tab_rows_needing_result(result: TurnResult, tab: str) -> tuple[set[int], set[int]]:
    orders = result.before.tables[tab]
    meta = result.before.meta
    absent = set(orders.attrs.get("absent", ()))
    inputs = [c for c in orders.columns if c not in absent and c not in (RESULT, REASON)]
    deadline = meta.get("deadline_at")
    needed: set[int] = set()
    blank_turn: set[int] = set()
    for row, record in zip(orders.index.tolist(), orders.to_dict("records")):
        if all(values.is_blank(record.get(c)) for c in inputs):
            continue
        if values.text(record.get(RESULT)) in FINAL_RESULTS:
            continue
        cell = record.get(TURN)
        stamp = record.get("timestamp") if "timestamp" in inputs else None
        if deadline is not None and not values.is_blank(stamp) and values.is_blank(cell):
            try:
                posted = parse_deadline(stamp, meta["zone"], meta["sheet_zone"])
            except Exception:  # unreadable: in time
                posted = None
            if posted is not None and posted > deadline:
                continue
        if values.is_blank(cell):
            needed.add(int(row))
            blank_turn.add(int(row))
            continue
        needed.add(int(row))  # this turn's, or another's refused with a reason
    return needed, blank_turn


@dataclass
class TurnCheck:
    """What one turn broke: rows that got no result, and everything else."""

    missing: list[int] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)


def turn_violations(ruleset: Ruleset, result: TurnResult) -> TurnCheck:
    """Every invariant of a resolved turn: the engine's own, then the ruleset's."""
    check = TurnCheck()
    bad = check.violations.append
    turn = result.turn
    rows = [r.row for r in result.results]
    if rows != sorted(set(rows), key=lambda r: (r < 0, abs(r))):  # the GM orders tab's last
        bad(f"turn {turn}: results are not one per row in row order: {rows[:20]}")
    needed, blank_turn = rows_needing_result(result)
    check.missing = sorted(needed - set(rows))
    extra = sorted(set(rows) - needed)
    if extra:
        bad(f"turn {turn}: rows {extra[:10]} got a result but should have been left alone")
    for r in result.results:
        if r.status in (Status.REJECTED, Status.PARTIAL) and not r.reason:
            bad(f"turn {turn}: row {r.row} is {r.status.value} without a reason")
    # the orders tabs: results written, turn cells filled in, players' cells untouched
    for tab, sign in ((ORDERS_TAB, 1), (GM_ORDERS_TAB, -1)):
        if tab in result.before.tables:
            check.violations.extend(_orders_tab_violations(result, tab, sign, blank_turn))
    # the Game tab moves on by exactly one turn
    game = result.after.tables[GAME_TAB]
    turns = [v for k, v in zip(game["setting"].tolist(), game["value"].tolist())
             if values.fold(values.text(k)) == "turn"]
    if turns != [turn + 1] or result.after.meta.get("turn") != turn + 1:
        bad(f"turn {turn}: the Game tab's turn is {turns}, not [{turn + 1}]")
    # the Log: old rows kept, one new row per public event (the others go to reports)
    log_before, log_after = result.before.tables[LOG_TAB], result.after.tables[LOG_TAB]
    new_log = log_after.loc[[r for r in log_after.index if r not in set(log_before.index)]]
    public = [e for e in result.events if e.public]
    if len(new_log) != len(public) or list(log_after.index[:len(log_before)]) != \
            list(log_before.index):
        bad(f"turn {turn}: {len(new_log)} new Log rows for {len(public)} public events")
    if [e.seq for e in result.events] != list(range(1, len(result.events) + 1)):
        bad(f"turn {turn}: events are not numbered 1..n")
    for e in result.events:
        if e.sides is not None and not (e.value is not None and 1 <= e.value <= e.sides):
            bad(f"turn {turn}: a d{e.sides} rolled {e.value}")
    # state tabs: rows kept, only sheetmaster's columns changed
    for table in ruleset.tables:
        check.violations.extend(_state_tab_violations(table, result))
    checker = INVARIANTS.get(ruleset.name)
    if checker is not None:
        check.violations.extend(checker(result))
    return check


def _orders_tab_violations(result: TurnResult, tab: str, sign: int,
                           blank_turn: set[int]) -> list[str]:
    turn = result.turn
    before, after = result.before.tables[tab], result.after.tables[tab]
    if list(before.index) != list(after.index):
        return [f"turn {turn}: the {tab} tab's rows changed"]
    by_row = {sign * r.row: r for r in result.results if r.row * sign > 0}
    for column in before.columns:
        for row, was, now in zip(before.index.tolist(), before[column].tolist(),
                                 after[column].tolist()):
            r = by_row.get(row)
            if column == RESULT and r is not None:
                ok = now == r.public_status.value  # a secret order shows "private"
            elif column == REASON and r is not None:
                ok = now == r.public_reason  # a secret order's reason stays private
            elif column == TURN and sign * row in blank_turn:
                ok = now == turn
            else:
                ok = was is now or _same(was, now)
            if not ok:
                return [f"turn {turn}: {tab} row {row} column {column!r}: {was!r} -> {now!r}"]
    return []


def _state_tab_violations(table: Table, result: TurnResult) -> list[str]:
    before, after = result.before.tables[table.tab], result.after.tables[table.tab]
    out: list[str] = []
    old_rows = before.index.tolist()
    if after.index.tolist()[:len(old_rows)] != old_rows:
        return [f"turn {result.turn}: tab {table.tab!r} lost or moved rows"]
    if table.key and len(after) != len(before) and not table.column(table.key).owned \
            and table.tab not in GROWS.get(result.ruleset, ()):
        out.append(f"turn {result.turn}: tab {table.tab!r} gained rows (its rows are the "
                   "GM's: sheetmaster does not write its key column)")
    owned = {c.name for c in table.columns if c.owned}
    for column in before.columns:
        if column in owned:
            continue
        if column not in after.columns:
            if before.empty:
                continue  # a tab with no rows may come back with its declared columns only
            out.append(f"turn {result.turn}: tab {table.tab!r} lost column {column!r}")
            continue
        now = after[column].tolist()
        for row, was, is_ in zip(old_rows, before[column].tolist(), now):
            if not _same(was, is_):
                out.append(f"turn {result.turn}: tab {table.tab!r} row {row} column "
                           f"{column!r} is not sheetmaster's, yet {was!r} -> {is_!r}")
                break
    return out


#: ruleset name -> its own invariants over a resolved turn (a list of what is broken).
INVARIANTS: dict[str, Callable[[TurnResult], list[str]]] = {}
#: ruleset name -> order kinds whose rejected rows may change things on purpose.
REJECTION_MATTERS: dict[str, frozenset[str]] = {}
#: ruleset name -> keyed tabs whose rows the rules may add to (decades: new states).
GROWS: dict[str, frozenset[str]] = {}


def rejected_rows_are_inert(ruleset: Ruleset, raw: GameState, result: TurnResult,
                            seed: int | None = None, secret: str | None = None) -> list[str]:
    """Blank every rejected row and resolve again: the state tabs must come out the same.

    Rows of the kinds in :data:`REJECTION_MATTERS` are kept (e.g. a rejected item of a deal
    cancels the whole deal, by the rules).
    """
    keep = REJECTION_MATTERS.get(ruleset.name, frozenset())
    rejected = [r.row for r in result.results
                if r.status is Status.REJECTED and r.kind not in keep and r.row > 0]
    if not rejected:
        return []
    tab = _raw_orders(raw)
    df = raw.tables[tab].copy()
    inputs = [c for c in df.columns
              if _canonical_column(ruleset, c) not in (RESULT, REASON)]
    gone = set(rejected)
    df.attrs = {"formulas": {k: v for k, v in (raw.tables[tab].attrs.get("formulas") or {})
                             .items() if k[0] not in gone}}
    for column in inputs:
        cells = df[column].to_numpy(dtype=object, copy=True)
        cells[df.index.get_indexer(rejected)] = None
        # as cells, never as a column pandas types (a date left alone would make it datetime
        # and its blanks NaT, which no store gives)
        df[column] = pd.Series(cells, index=df.index, dtype=object)
    # the same dice as the turn's: its seed, or its secret (which also keys private draws
    # and opens what a ruleset sealed, so it goes along with a seed too)
    dice = {"secret": secret} if secret and seed is None else \
        {"seed": result.seed if seed is None else seed, "secret": secret}
    again = resolve(ruleset, GameState(dict(raw.tables, **{tab: df}), dict(raw.meta)), **dice)
    out = []
    for table in ruleset.tables:
        a, b = result.after.tables[table.tab], again.after.tables[table.tab]
        if a.shape != b.shape or not all(_same(x, y) for x, y in zip(a.to_numpy().ravel(),
                                                                     b.to_numpy().ravel())):
            out.append(f"turn {result.turn}: without its {len(rejected)} rejected rows the "
                       f"turn changes tab {table.tab!r} differently")
    return out
