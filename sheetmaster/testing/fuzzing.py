"""Fuzzing order rows and state tabs, for every ruleset in :func:`sheetmaster.rules.available`.

Two halves:

* **Order rows.** A game is generated (players, territories with borders...), then turn after
  turn a batch of order rows mixing valid and malformed cells is appended to its Orders tab
  and the turn is resolved. The resolved turn is written back the way a store writes it (only
  the cells :func:`~sheetmaster.report.cell_changes` lists) and the next turn is played on that.
  After every turn :func:`turn_violations` checks what must always hold, for any ruleset: no
  exception, one result for every order row that needs one and none for the others, the turn
  counter + 1, no cell outside sheetmaster's columns changed, rejected rows changing nothing by
  themselves; then the ruleset's own invariants, registered in :data:`INVARIANTS`.
* **Damaged states.** A valid game is damaged (a column dropped or renamed, text in a number
  column, a duplicate name, a missing tab..., plus the ruleset's own cross-reference damages
  from :data:`DAMAGES`); resolve must refuse it with a StateError naming the tab, the row and
  the column, and a run against a store must write nothing.

Generation goes through a :class:`Chooser`, so the same code runs from a seeded
``random.Random`` (:func:`run_fuzz`: thousands of rows, for the test suite's volume test and the
reliability report) and from hypothesis (:func:`fuzz_cases`, :func:`damaged_states`: small,
shrinkable examples). Order kinds, fields and name categories come from what the ruleset
declares; what is per ruleset is registered by its name: a game generator (:data:`GAMES`),
rows that make sense together (:data:`SCENARIOS`), invariants (:data:`INVARIANTS`), the
kinds whose rejected rows may change things (:data:`REJECTION_MATTERS`) and cross-reference
damages (:data:`DAMAGES`). A ruleset that registers nothing is fuzzed on its example game (or
a blank one) with the checks every ruleset gets.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import math
import random
import re
import string
import tempfile
import time as clock
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any

import pandas as pd

from sheetmaster import rules, values
from sheetmaster.engine import _orders_tab, all_tables, find_tab, prepare, resolve
from sheetmaster.model import GameState, Status, TurnResult
from sheetmaster.orders import FINAL_RESULTS, ORDER, PLAYER, REASON, RESULT, TURN, OrderKind
from sheetmaster.report import cell_changes
from sheetmaster.ruleset import Ruleset
from sheetmaster.schema import Kind, StateError, Table
from sheetmaster.stores.base import StoreError
from sheetmaster.tabs import GAME_TAB, LOG_TAB, ORDERS_TAB, parse_deadline
from sheetmaster.testing.builder import build_state

# -- choosing: the same generators from random.Random or from hypothesis ---------------------


class Chooser:
    """Where generators get their choices from."""

    def integer(self, lo: int, hi: int) -> int:
        raise NotImplementedError

    def choice(self, options: Sequence[Any]) -> Any:
        return options[self.integer(0, len(options) - 1)]

    def chance(self, percent: int) -> bool:
        """True ``percent`` times in 100 (under hypothesis: shrinks towards False)."""
        return self.integer(0, 99) >= 100 - percent

    def subset(self, options: Sequence[Any], percent: int) -> list[Any]:
        return [o for o in options if self.chance(percent)]


class RandomChooser(Chooser):
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)


class DrawChooser(Chooser):
    """Choices drawn by hypothesis, so a failing example shrinks."""

    def __init__(self, draw: Callable[[Any], Any]) -> None:
        from hypothesis import strategies as st

        self.draw = draw
        self.st = st

    def integer(self, lo: int, hi: int) -> int:
        return self.draw(self.st.integers(lo, hi))


# -- cells: valid, malformed and plain strange ------------------------------------------------

#: amounts as players type them; a few are fine (" 3 ", 3.0), most are not.
JUNK_AMOUNTS: tuple[Any, ...] = (
    "1,2", "007", "ten", 2.5, -3, "-3", True, False, 10**12, "10**12", 10**30, 1e300, 0, "0",
    "+3", " 3 ", 3.0, "3.0", "2.5", float("nan"), float("inf"), -0.0, "1e3", "\uff13",
    "\u0663", "\u00bd", "", "   ", None, "=1+1", "@3", "-", "3 armies", "three", "2-3",
)
#: text a cell may hold instead of a name: formulas, unicode, long, blank, numbers...
JUNK_TEXT: tuple[Any, ...] = (
    "", "   ", None, "=SUM(A1:A3)", '=HYPERLINK("http://x","y")', "+cmd", "-cmd", "@import",
    "\t=1", " =1", "=", "-", "@", "+", "\u00fcn\u00efc\u00f6d\u00e9", "\u540d\u524d",
    "\U0001f642", "\u200b", "\u202eevil", "x" * 5000, "a\nb", "NULL", "None", "nan", "#REF!",
    "'quoted", 0, 7, -1, 3.5, True, float("nan"), "O'Brien", "Robert'); DROP TABLE x;--",
    "<script>alert(1)</script>", "\\", "%s%n", "{amount}", "{}", "Mordred", "Atlantis",
    datetime(2026, 1, 1, 12, 0), date(2026, 1, 1), time(12, 0), timedelta(days=1),
)
#: turn cells of rows meant for another turn, or unreadable ones (the current turn is added).
JUNK_TURNS: tuple[Any, ...] = ("three", -1, "-1", 2.5, "2,5", True, "next", 10**12, "=1+1")
JUNK_EMAILS: tuple[Any, ...] = ("mallory@example.org", "", None, "   ", "=HYPERLINK(1)", 5,
                                "not an address")


@dataclass(frozen=True)
class Formula:
    """A cell holding a formula: the store reads ``cached`` and records ``text``."""

    text: str
    cached: Any = None


def name_variant(ch: Chooser, name: str) -> Any:
    """The same name as a player might type it: case, spaces, or a near miss."""
    return ch.choice((
        name.upper(), name.lower(), f"  {name} ", name.swapcase(), f"{name}\t",
        name.replace(" ", "  "), name.replace(" ", "\u00a0"), name + "x", name[:-1] or "?",
        f"={name}", f"@{name}", Formula(f'=TRIM("{name}")', name),
    ))


# -- games ----------------------------------------------------------------------------------


@dataclass
class GameSpec:
    """A generated game before the trimmings common to every ruleset."""

    tables: dict[str, list[dict[str, Any]]]
    settings: dict[str, Any] = field(default_factory=dict)
    turn: int = 1


def example_or_blank_game(ruleset: Ruleset, ch: Chooser) -> GameSpec:
    """The fallback game of a ruleset that registers no generator."""
    if ruleset.example is None:
        return GameSpec({})
    tables, _, settings = ruleset.example()
    return GameSpec(tables, dict(settings), turn=ch.integer(1, 3))


#: ruleset name -> a generator of valid games of that ruleset.
GAMES: dict[str, Callable[[Chooser], GameSpec]] = {}


def build_game(ruleset: Ruleset, ch: Chooser, *, dressed: bool = True) -> GameState:
    """A valid game of ``ruleset``; ``dressed``, the way real sheets are: header case, GM
    columns and tabs, an e-mail column, a deadline and timestamps, a renamed Orders tab."""
    spec = GAMES.get(ruleset.name, lambda c: example_or_blank_game(ruleset, c))(ch)
    settings = dict(spec.settings)
    settings.setdefault("seed", "".join(ch.choice(string.hexdigits) for _ in range(8)))
    if dressed and ch.chance(30):
        settings["deadline"] = f"2026-0{ch.integer(1, 9)}-1{ch.integer(0, 9)} 23:59"
        settings["timezone"] = ch.choice(("UTC", "Europe/Paris", "America/New_York",
                                          "Asia/Kolkata", ""))
        if ch.chance(70):
            settings["turn length (hours)"] = ch.choice((24, 48, 168, "24"))
    state = build_state(ruleset, spec.tables, (), turn=spec.turn, settings=settings)
    if not dressed:
        return state
    tables = dict(state.tables)
    orders = tables[ORDERS_TAB]
    emails = {row.get("player"): row.get("email") for rows in spec.tables.values()
              for row in rows if row.get("email")}
    if emails:
        orders["email"] = pd.Series(dtype=object)
    if settings.get("deadline"):
        orders["timestamp"] = pd.Series(dtype=object)
    if ch.chance(20):
        orders["comment"] = pd.Series(dtype=object)  # the GM's own column
    if ch.chance(10):
        tables["Form Responses 1"] = tables.pop(ORDERS_TAB)
        game = tables[GAME_TAB]
        game.loc[game.index[game["setting"] == "orders tab"], "value"] = "Form Responses 1"
    # the GM's extra columns and tabs, header spellings, tab spellings
    if ch.chance(30):
        tab = ch.choice([t.tab for t in ruleset.tables])
        df = tables[tab]
        df["GM notes"] = [ch.choice(("", "watch this one", 3, None)) for _ in range(len(df))]
    if ch.chance(20):
        tables["Map notes"] = pd.DataFrame({"note": ["the GM's own tab"]}, index=[2])
    for _ in range(ch.integer(0, 2)):
        tab = ch.choice(list(tables))
        df = tables[tab]
        if len(df.columns):
            column = ch.choice(list(df.columns))
            header = ("Email Address" if column == "email" and ch.chance(50) else
                      ch.choice((column.upper(), column.title(), f" {column} ")))
            tables[tab] = df.rename(columns={column: header})
    if ch.chance(15):
        tab = ch.choice([t.tab for t in ruleset.tables])
        tables[tab.lower()] = tables.pop(tab)
    return GameState(tables, {})


# -- order rows ---------------------------------------------------------------------------


@dataclass
class Pools:
    """What a game's order rows are made of: its names, its players' addresses, its columns."""

    ruleset: Ruleset
    names: dict[str, list[str]]
    texts: list[str]
    emails: dict[str, str]
    columns: list[str]
    turn: int
    #: the ruleset's world (for the ruleset's own row scenarios).
    world: Any = None

    @property
    def players(self) -> list[str]:
        return self.names.get("player", [])


def pools_of(ruleset: Ruleset, raw: GameState, prepared: Any = None) -> Pools:
    """Names by category from the ruleset's world, free text from the game's name columns."""
    prepared = prepared or prepare(ruleset, raw)
    names = {category: list(lookup) for category, lookup in prepared.world.names().items()}
    texts = ["deal-1", "deal-2", "Deal-3", "a-b", "x"]
    for table in ruleset.tables:
        df = prepared.state.tables[table.tab]
        for column in table.columns:
            if column.kind is Kind.NAME and column.name in df.columns:
                texts.extend(v for v in df[column.name].tolist()[:50] if v)
    emails_of = getattr(prepared.world, "emails", dict)
    raw_orders = raw.tables[find_tab(raw.tables, _orders_tab(raw)) or ORDERS_TAB]
    columns = [_canonical_column(ruleset, c) for c in raw_orders.columns]
    return Pools(ruleset, names, list(dict.fromkeys(texts)), dict(emails_of()), columns,
                 prepared.state.turn, prepared.world)


def _canonical_column(ruleset: Ruleset, header: Any) -> str:
    table = next(t for t in all_tables(ruleset) if t.tab == ORDERS_TAB)
    for column in table.columns:
        if values.fold(str(header)) in {values.fold(n) for n in (column.name, *column.aliases)}:
            return column.name
    return str(header)


def _field_cell(ch: Chooser, pools: Pools, f: Any, made: list[dict[str, Any]]) -> Any:
    """A cell for one field of an order kind, valid most of the time."""
    if f.count:
        return ch.integer(1, 6) if ch.chance(85) else ch.choice(JUNK_AMOUNTS)
    if f.names:
        names = pools.names.get(f.names) or ["?"]
        if ch.chance(80):
            return ch.choice(names)
        return name_variant(ch, ch.choice(names)) if ch.chance(60) else ch.choice(JUNK_TEXT)
    # free text: often one an earlier row of the batch used (a deal and its acceptance)
    earlier = [r[f.column] for r in made[-40:] if isinstance(r.get(f.column), str)]
    if earlier and ch.chance(60):
        return ch.choice(earlier)
    return ch.choice(pools.texts) if ch.chance(85) else ch.choice(JUNK_TEXT)


def order_row(ch: Chooser, pools: Pools, made: list[dict[str, Any]]) -> dict[str, Any]:
    """One order row: valid, malformed, blank, duplicated, for another turn..."""
    kinds: Sequence[OrderKind] = pools.ruleset.order_kinds
    shape = ch.integer(0, 99)
    if shape < 4 and made:
        return dict(ch.choice(made))  # a duplicate row
    if shape < 8:
        return {c: ch.choice((None, "", "  ", float("nan"))) for c in ("player", "order")}
    kind = ch.choice(kinds) if kinds else None
    row: dict[str, Any] = {}
    players = pools.players or ["?"]
    player = ch.choice(players)
    row[PLAYER] = player if ch.chance(85) else (
        name_variant(ch, player) if ch.chance(50) else ch.choice(JUNK_TEXT))
    if kind is None or shape < 12:
        row[ORDER] = ch.choice(JUNK_TEXT + ("raise dragons",))
    else:
        spelling = ch.choice((kind.name, *kind.aliases))
        row[ORDER] = spelling if ch.chance(85) else name_variant(ch, spelling)
    for f in kind.fields if kind else ():
        if f.required or ch.chance(50):
            row[f.column] = _field_cell(ch, pools, f, made)
    if shape < 20:  # fields of another kind, or junk in a random input column
        other = ch.choice(kinds) if kinds else None
        for f in other.fields if other else ():
            row.setdefault(f.column, _field_cell(ch, pools, f, made))
        inputs = [c for c in pools.columns if c not in (RESULT, REASON, TURN)]
        if inputs:
            row[ch.choice(inputs)] = ch.choice(JUNK_TEXT + JUNK_AMOUNTS)
    turn = pools.turn
    if shape < 30:
        row[TURN] = ch.choice((turn - 1, turn + 1, turn + 5, 0, *JUNK_TURNS))
        if ch.chance(40):
            row[RESULT] = ch.choice(sorted(FINAL_RESULTS))
    elif ch.chance(20):
        row[TURN] = ch.choice((turn, float(turn), str(turn), f" {turn} ", f"00{turn}"))
    if ch.chance(5):
        row[RESULT] = ch.choice(("ok", "would be rejected", "applied", "rejected", "???"))
    if "email" in pools.columns:
        address = pools.emails.get(player, "")
        row["email"] = (address if ch.chance(80) else address.upper()) if ch.chance(85) else \
            ch.choice(JUNK_EMAILS + tuple(pools.emails.values()))
    if "timestamp" in pools.columns and ch.chance(70):
        row["timestamp"] = ch.choice((
            "2026-01-01 10:00", "2026-12-31 23:59", "2099-01-01 00:00", "yesterday",
            datetime(2026, 1, 2, 3, 4), 46000.5, 40000, "", None, 1e12, -5, float("inf"),
            "2026-02-30 10:00", 99999999,
        ))
    if "comment" in pools.columns and ch.chance(10):
        row["comment"] = ch.choice(JUNK_TEXT)
    return row


#: ruleset name -> a generator of a few rows that make sense together (a deal and its
#: acceptances, a claim next to one's land...), so the phases see orders that go through.
SCENARIOS: dict[str, Callable[[Chooser, Pools], list[dict[str, Any]]]] = {}


def order_rows(ch: Chooser, pools: Pools, n: int) -> list[dict[str, Any]]:
    """``n`` order rows: most made cell by cell, some by the ruleset's scenarios."""
    made: list[dict[str, Any]] = []
    scenario = SCENARIOS.get(pools.ruleset.name)
    while len(made) < n:
        rows = scenario(ch, pools)[:n - len(made)] if scenario and ch.chance(25) else []
        if "email" in pools.columns:
            for row in rows:
                row["email"] = pools.emails.get(row.get(PLAYER), "")
        made.extend(rows or [order_row(ch, pools, made)])
    return made


# -- the store's side: appending rows, writing a turn back --------------------------------------


def _raw_orders(raw: GameState) -> str:
    name = find_tab(raw.tables, _orders_tab(raw))
    if name is None:
        raise KeyError("the game has no Orders tab")
    return name


def append_orders(ruleset: Ruleset, raw: GameState, rows: Sequence[Mapping[str, Any]]
                  ) -> GameState:
    """The game with ``rows`` typed below its Orders tab's last row."""
    tab = _raw_orders(raw)
    df = raw.tables[tab]
    headers = {_canonical_column(ruleset, c): c for c in df.columns}
    start = int(max(df.index)) + 1 if len(df) else 2
    index = list(range(start, start + len(rows)))
    formulas = dict(df.attrs.get("formulas") or {})
    data: dict[Any, list[Any]] = {header: [] for header in df.columns}
    for row, cells in zip(index, rows):
        for column, header in headers.items():
            cell = cells.get(column)
            if isinstance(cell, Formula):
                formulas[(row, header)] = cell.text
                cell = cell.cached
            data[header].append(cell)
    new = pd.DataFrame(data, index=index, dtype=object)
    out = pd.concat([df, new]) if len(df) else new
    out.attrs = {"formulas": formulas} if formulas else {}
    return GameState(dict(raw.tables, **{tab: out}), dict(raw.meta))


def write_back(ruleset: Ruleset, raw: GameState, result: TurnResult) -> GameState:
    """The game as a store leaves it after saving ``result``: only the changed cells are set,
    and formulas in player tabs become their text."""
    names = result.before.meta.get("tab_names", {})
    tables = dict(raw.tables)
    by_tab: dict[str, list[Any]] = {}
    for change in cell_changes(ruleset, result):
        by_tab.setdefault(change.tab, []).append(change)
    for table in all_tables(ruleset):
        tab = names.get(table.tab, table.tab)
        df = tables[tab]
        formulas = df.attrs.get("formulas")
        changes = by_tab.get(table.tab, [])
        if not changes and not formulas:
            continue
        df = df.copy()
        df.attrs = {}
        for (row, column), text in (formulas or {}).items():
            df.at[row, column] = text
        headers = {}
        for c in df.columns:
            for declared in table.columns:
                if values.fold(str(c)) in {values.fold(n) for n in
                                           (declared.name, *declared.aliases)}:
                    headers[declared.name] = c
        new_rows = sorted({c.row for c in changes} - set(df.index.tolist()))
        if new_rows:
            df = pd.concat([df, pd.DataFrame(index=new_rows, columns=df.columns, dtype=object)])
        by_column: dict[str, tuple[list[int], list[Any]]] = {}
        for c in changes:
            rows_, cells = by_column.setdefault(c.column, ([], []))
            rows_.append(c.row)
            cells.append(c.after)
        for column, (rows_, cells) in by_column.items():
            header = headers.get(column, column)
            if header not in df.columns:
                df[header] = pd.Series([None] * len(df), index=df.index, dtype=object)
            column_cells = df[header].to_numpy(dtype=object, copy=True)
            column_cells[df.index.get_indexer(rows_)] = cells
            df[header] = column_cells
        tables[tab] = df
    return GameState(tables, dict(raw.meta))


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
    return bool(a == b)


def rows_needing_result(result: TurnResult) -> tuple[set[int], set[int]]:
    """(rows that must get a result this turn, rows whose blank turn cell must be filled in).

    Skipped on purpose: blank rows; rows of another turn that already have a final result;
    rows with a blank turn cell posted after the deadline (they wait for the next turn).
    """
    orders = result.before.tables[ORDERS_TAB]
    meta = result.before.meta
    turn = result.turn
    absent = set(orders.attrs.get("absent", ()))
    inputs = [c for c in orders.columns if c not in absent and c not in (RESULT, REASON)]
    deadline = meta.get("deadline_at")
    needed: set[int] = set()
    blank_turn: set[int] = set()
    for row, record in zip(orders.index.tolist(), orders.to_dict("records")):
        if all(values.is_blank(record.get(c)) for c in inputs):
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
        try:
            given = values.whole_number(cell)
        except values.BadValue:
            given = None
        if given == turn or values.text(record.get(RESULT)) not in FINAL_RESULTS:
            needed.add(int(row))
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
    if rows != sorted(set(rows)):
        bad(f"turn {turn}: results are not one per row in row order: {rows[:20]}")
    needed, blank_turn = rows_needing_result(result)
    check.missing = sorted(needed - set(rows))
    extra = sorted(set(rows) - needed)
    if extra:
        bad(f"turn {turn}: rows {extra[:10]} got a result but should have been left alone")
    for r in result.results:
        if r.status in (Status.REJECTED, Status.PARTIAL) and not r.reason:
            bad(f"turn {turn}: row {r.row} is {r.status.value} without a reason")
    # the Orders tab: results written, turn cells filled in, players' cells untouched
    before, after = result.before.tables[ORDERS_TAB], result.after.tables[ORDERS_TAB]
    if list(before.index) != list(after.index):
        bad(f"turn {turn}: the Orders tab's rows changed")
    else:
        by_row = {r.row: r for r in result.results}
        for column in before.columns:
            for row, was, now in zip(before.index.tolist(), before[column].tolist(),
                                     after[column].tolist()):
                r = by_row.get(row)
                if column == RESULT and r is not None:
                    ok = now == r.status.value
                elif column == REASON and r is not None:
                    ok = now == r.reason
                elif column == TURN and row in blank_turn:
                    ok = now == turn
                else:
                    ok = was is now or _same(was, now)
                if not ok:
                    bad(f"turn {turn}: Orders row {row} column {column!r}: {was!r} -> {now!r}")
                    break
    # the Game tab moves on by exactly one turn
    game = result.after.tables[GAME_TAB]
    turns = [v for k, v in zip(game["setting"].tolist(), game["value"].tolist())
             if values.fold(values.text(k)) == "turn"]
    if turns != [turn + 1] or result.after.meta.get("turn") != turn + 1:
        bad(f"turn {turn}: the Game tab's turn is {turns}, not [{turn + 1}]")
    # the Log: old rows kept, one new row per event
    log_before, log_after = result.before.tables[LOG_TAB], result.after.tables[LOG_TAB]
    new_log = log_after.loc[[r for r in log_after.index if r not in set(log_before.index)]]
    if len(new_log) != len(result.events) or list(log_after.index[:len(log_before)]) != \
            list(log_before.index):
        bad(f"turn {turn}: {len(new_log)} new Log rows for {len(result.events)} events")
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


def _state_tab_violations(table: Table, result: TurnResult) -> list[str]:
    before, after = result.before.tables[table.tab], result.after.tables[table.tab]
    out: list[str] = []
    old_rows = before.index.tolist()
    if after.index.tolist()[:len(old_rows)] != old_rows:
        return [f"turn {result.turn}: tab {table.tab!r} lost or moved rows"]
    if table.key and len(after) != len(before):
        out.append(f"turn {result.turn}: tab {table.tab!r} gained rows")
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


def rejected_rows_are_inert(ruleset: Ruleset, raw: GameState, result: TurnResult,
                            seed: int | None = None) -> list[str]:
    """Blank every rejected row and resolve again: the state tabs must come out the same.

    Rows of the kinds in :data:`REJECTION_MATTERS` are kept (e.g. a rejected item of a deal
    cancels the whole deal, by the rules).
    """
    keep = REJECTION_MATTERS.get(ruleset.name, frozenset())
    rejected = [r.row for r in result.results
                if r.status is Status.REJECTED and r.kind not in keep]
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
        df[column] = cells
    again = resolve(ruleset, GameState(dict(raw.tables, **{tab: df}), dict(raw.meta)),
                    seed=seed)
    out = []
    for table in ruleset.tables:
        a, b = result.after.tables[table.tab], again.after.tables[table.tab]
        if a.shape != b.shape or not all(_same(x, y) for x, y in zip(a.to_numpy().ravel(),
                                                                     b.to_numpy().ravel())):
            out.append(f"turn {result.turn}: without its {len(rejected)} rejected rows the "
                       f"turn changes tab {table.tab!r} differently")
    return out


# -- playing games ----------------------------------------------------------------------------


@dataclass
class Figures:
    """What a fuzz run did and found (:func:`run_fuzz` returns them as a dict)."""

    rulesets: list[str] = field(default_factory=list)
    order_rows: int = 0
    turns: int = 0
    uncaught_exceptions: int = 0
    rows_without_result: int = 0
    invariant_violations: int = 0
    damaged_states: int = 0
    damaged_states_refused_before_write: int = 0
    damaged_workbooks: int = 0
    damaged_workbooks_unchanged: int = 0
    statuses: Counter = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        if len(self.examples) < 20:
            self.examples.append(text)


def play_game(ruleset: Ruleset, raw: GameState, batches: Iterable[Any], figures: Figures, *,
              inert: bool = True, label: str = "") -> GameState:
    """Play turn after turn; ``batches`` yields each turn's rows, given the game's pools
    (a list, or a callable ``pools -> rows``). Returns the game as it ends."""
    try:
        prepared = prepare(ruleset, raw)
    except Exception as exc:  # the generated game itself must be valid
        figures.uncaught_exceptions += 1
        figures.note(f"{label}: the generated game is refused: {type(exc).__name__}: {exc}")
        return raw
    for batch in batches:
        pools = pools_of(ruleset, raw, prepared)
        rows = batch(pools) if callable(batch) else batch
        raw = append_orders(ruleset, raw, rows)
        figures.order_rows += len(rows)
        try:
            result = resolve(ruleset, raw)
        except Exception as exc:
            figures.uncaught_exceptions += 1
            figures.note(f"{label} turn {pools.turn}: {type(exc).__name__}: {exc}")
            return raw
        figures.turns += 1
        figures.statuses.update(r.status.value for r in result.results)
        check = turn_violations(ruleset, result)
        if inert:
            try:
                check.violations.extend(rejected_rows_are_inert(ruleset, raw, result))
            except Exception as exc:
                check.violations.append(f"resolving without the rejected rows: "
                                        f"{type(exc).__name__}: {exc}")
        figures.rows_without_result += len(check.missing)
        if check.missing:
            figures.note(f"{label} turn {result.turn}: rows {check.missing[:10]} got no result")
        figures.invariant_violations += len(check.violations)
        for v in check.violations[:3]:
            figures.note(f"{label}: {v}")
        raw = write_back(ruleset, raw, result)
        try:
            prepared = prepare(ruleset, raw)
        except Exception as exc:
            figures.uncaught_exceptions += 1
            figures.note(f"{label}: after turn {result.turn} the game no longer reads: "
                         f"{type(exc).__name__}: {exc}")
            return raw
        for table in ruleset.tables:
            mismatch = _written_back_mismatch(table, result, prepared.state)
            if mismatch:
                figures.invariant_violations += 1
                figures.note(f"{label}: {mismatch}")
    return raw


def _written_back_mismatch(table: Table, result: TurnResult, reread: GameState) -> str:
    """The store wrote every cell the turn changed: the game read back is the turn's after."""
    after, again = result.after.tables[table.tab], reread.tables[table.tab]
    for column in [c.name for c in table.columns if c.owned]:
        if column not in again.columns or column in after.attrs.get("absent", ()):
            continue
        for row, a, b in zip(after.index, after[column].tolist(),
                             again[column].reindex(after.index).tolist()):
            if not _same(a, b):
                return (f"turn {result.turn}: tab {table.tab!r} row {row} column {column!r} "
                        f"reads back {b!r}, the turn wrote {a!r}")
    return ""


# -- damaged states ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Damage:
    """A change that breaks a game's state, and where the StateError must point.

    ``ops``: ("set", tab, row, column, value), ("drop column", tab, column),
    ("rename column", tab, column, new header), ("twin column", tab, column),
    ("drop tab", tab). Tabs and columns are the declared names; they are looked up in the
    sheet the way sheetmaster looks them up.
    """

    what: str
    tab: str
    row: int | None
    column: str | None
    ops: tuple[tuple[Any, ...], ...]
    #: what sort of damage it is, if not told by its first op (see :attr:`kind`).
    group: str = ""

    @property
    def kind(self) -> str:
        """missing tab, column dropped / renamed / twice, game setting, bad cell, duplicate
        name, or the ruleset's own (cross reference)."""
        if self.group:
            return self.group
        op = self.ops[0][0]
        if op == "set":
            return "game setting" if self.tab == GAME_TAB else "bad cell"
        return {"drop tab": "missing tab", "drop column": "column dropped",
                "rename column": "column renamed", "twin column": "column twice"}[op]


def _header(df: pd.DataFrame, column: str) -> Any:
    for c in df.columns:
        if values.fold(str(c)) == values.fold(column):
            return c
    raise KeyError(column)


def damage_state(raw: GameState, damage: Damage) -> GameState:
    tables = dict(raw.tables)
    for op in damage.ops:
        name = find_tab(tables, op[1])
        if name is None:
            raise KeyError(op[1])
        if op[0] == "drop tab":
            del tables[name]
            continue
        df = tables[name].copy()
        header = _header(df, op[2]) if op[0] != "set" else _header(df, op[3])
        if op[0] == "set":
            df[header] = df[header].astype(object)
            df.at[op[2], header] = op[4]
        elif op[0] == "drop column":
            df = df.drop(columns=[header])
        elif op[0] == "rename column":
            df = df.rename(columns={header: op[3]})
        elif op[0] == "twin column":
            df[f" {header}"] = df[header]  # another header that reads the same
        tables[name] = df
    return GameState(tables, dict(raw.meta))


def generic_damages(ruleset: Ruleset, raw: GameState) -> list[Damage]:
    """Damages every ruleset's game can suffer, derived from its declared tables."""
    prepared = prepare(ruleset, raw)
    out: list[Damage] = []
    for table in all_tables(ruleset):
        df = prepared.state.tables[table.tab]
        wanted = _orders_tab(raw) if table.tab == ORDERS_TAB else table.tab
        out.append(Damage(f"tab {wanted!r} is missing", wanted, None, None,
                          (("drop tab", wanted),)))
        absent = set(df.attrs.get("absent", ()))
        for column in table.columns:
            if column.optional or column.name in absent:
                continue
            out.append(Damage(f"{table.tab}: column {column.name!r} dropped", table.tab, 1,
                              column.name, (("drop column", wanted, column.name),)))
            out.append(Damage(f"{table.tab}: column {column.name!r} renamed", table.tab, 1,
                              column.name, (("rename column", wanted, column.name,
                                             column.name + " (old)"),)))
            out.append(Damage(f"{table.tab}: column {column.name!r} twice", table.tab, 1,
                              column.name, (("twin column", wanted, column.name),)))
        rows = df.index.tolist()
        if not rows or table.player_input or table.append_only:
            continue
        for column in table.columns:
            if column.name in absent:
                continue
            for row in rows[:3]:
                bad: tuple[Any, ...] = ()
                if column.kind is Kind.WHOLE:
                    bad = ("ten", -3, "-3", 2.5, "1,2", True, "=A1", "\u00bd")
                elif column.kind is Kind.FLAG:
                    bad = ("maybe", 2, "si")
                elif column.kind is Kind.NAME:
                    bad = (None, "", "   ")
                for value in bad:
                    out.append(Damage(f"{table.tab} row {row} {column.name!r} = {value!r}",
                                      table.tab, int(row), column.name,
                                      (("set", wanted, int(row), column.name, value),)))
        if table.key and len(rows) >= 2:
            first = df.at[rows[0], table.key]
            out.append(Damage(f"{table.tab}: {first!r} twice", table.tab, int(rows[-1]),
                              table.key, (("set", wanted, int(rows[-1]), table.key,
                                           f" {str(first).upper()} "),), "duplicate name"))
    game = prepared.state.tables[GAME_TAB]
    settings = {values.fold(k): int(r) for r, k in zip(game.index, game["setting"].tolist())}
    for key, bad in (("turn", ("zero", 0, -1, 2.5, "", True)),
                     ("timezone", ("Mars/Olympus", "../etc", 5)),
                     ("deadline", ("soon", "2026-13-45", 1e12, -10**6, float("inf"))),
                     ("turn length (hours)", ("a day", -24, 2.5))):
        if key in settings:
            for value in bad:
                out.append(Damage(f"Game setting {key!r} = {value!r}", GAME_TAB, settings[key],
                                  "value", (("set", GAME_TAB, settings[key], "value", value),)))
    if "deadline" in settings and "turn length (hours)" in settings:
        # each alone is fine; together the next deadline is past year 9999
        out.append(Damage("Game: the next deadline is past year 9999", GAME_TAB,
                          settings["turn length (hours)"], "value",
                          (("set", GAME_TAB, settings["deadline"], "value", "9999-12-31 12:00"),
                           ("set", GAME_TAB, settings["turn length (hours)"], "value", 24))))
        out.append(Damage("Game: a turn of 10**12 hours", GAME_TAB,
                          settings["turn length (hours)"], "value",
                          (("set", GAME_TAB, settings["deadline"], "value", "2026-01-01 12:00"),
                           ("set", GAME_TAB, settings["turn length (hours)"], "value", 10**12))))
    return out


#: ruleset name -> its own damages (cross references between tabs) of a prepared game.
DAMAGES: dict[str, Callable[[Any], list[Damage]]] = {}


def all_damages(ruleset: Ruleset, raw: GameState) -> list[Damage]:
    out = generic_damages(ruleset, raw)
    own = DAMAGES.get(ruleset.name)
    if own is not None:
        out.extend(dataclasses.replace(d, group=d.group or "cross reference")
                   for d in own(prepare(ruleset, raw)))
    return out


def refusal_problem(ruleset: Ruleset, raw: GameState, damage: Damage) -> str:
    """What is wrong with how the damaged game is refused ('' if it is refused right):
    resolve must raise StateError naming the damage's tab, row and column, and a run against
    a store must raise before saving anything."""
    state = damage_state(raw, damage)
    try:
        resolve(ruleset, state, seed=1)
    except StateError as exc:
        where = (damage.tab, damage.row, damage.column)
        found = next((p for p in exc.problems if (p.tab, p.row, p.column) == where), None)
        if found is None:
            return f"{damage.what}: refused, but not at {where}: {exc}"
        wanted = [f"tab '{damage.tab}'"] + ([f"row {damage.row}"] if damage.row else []) + \
            ([f"column '{damage.column}'"] if damage.column else [])
        if not all(w in str(found) for w in wanted) or wanted[0] not in str(exc):
            return f"{damage.what}: the message does not say {wanted}: {exc}"
    except Exception as exc:
        return f"{damage.what}: {type(exc).__name__} instead of a StateError: {exc}"
    else:
        return f"{damage.what}: resolved anyway"
    store = _MemoryStore(state)
    from sheetmaster.runs import Mode, run_turn

    try:
        run_turn(store, Mode.RESOLVE, force=True)
    except (StateError, StoreError):
        pass
    except Exception as exc:
        return f"{damage.what}: a run crashed with {type(exc).__name__}: {exc}"
    if store.saved:
        return f"{damage.what}: a run saved the damaged game"
    return ""


class _MemoryStore:
    """A store that only remembers whether it was asked to save."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.saved = 0

    def locked(self) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()

    def load(self) -> GameState:
        return self.state

    def save(self, ruleset: Ruleset, result: TurnResult) -> None:
        self.saved += 1


def damage_workbook(path: Path, damage: Damage) -> None:
    """Apply ``damage`` to a workbook file, as a GM editing it would."""
    import openpyxl

    book = openpyxl.load_workbook(path)

    def sheet(tab: str):
        for ws in book.worksheets:
            if values.fold(ws.title) == values.fold(tab):
                return ws
        raise KeyError(tab)

    def column_of(ws, column: str) -> int:
        for cell in ws[1]:
            if values.fold(values.text(cell.value)) == values.fold(column):
                return cell.column
        raise KeyError(column)

    for op in damage.ops:
        ws = sheet(op[1])
        if op[0] == "drop tab":
            book.remove(ws)
        elif op[0] == "set":
            cell = ws.cell(row=op[2], column=column_of(ws, op[3]))
            cell.value = op[4]  # ws.cell(value=None) would leave the cell as it was
            if isinstance(op[4], str) and op[4].startswith("="):
                cell.data_type = "s"  # typed text, not a formula
        elif op[0] == "drop column":
            ws.delete_cols(column_of(ws, op[2]))
        elif op[0] == "rename column":
            ws.cell(row=1, column=column_of(ws, op[2]), value=op[3])
        elif op[0] == "twin column":
            source = column_of(ws, op[2])
            target = ws.max_column + 1
            for row in range(1, ws.max_row + 1):
                ws.cell(row=row, column=target, value=ws.cell(row=row, column=source).value)
            ws.cell(row=1, column=target, value=f" {op[2]}")
    book.save(path)


def _fits_a_workbook(damage: Damage) -> bool:
    """A cell value a workbook can hold as typed (not NaN or infinity)."""
    return all(op[0] != "set" or not isinstance(op[4], float) or math.isfinite(op[4])
               for op in damage.ops)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def workbook_refusal_problem(ruleset: Ruleset, raw: GameState, damage: Damage,
                             folder: Path) -> str:
    """Write the game to a workbook, damage it, run ``sheetmaster resolve`` on it: the command
    must fail with exit code 2 naming the tab, row and column, and leave the file's bytes,
    and its folder, as they were: no backup, no report, no lock ('' if so)."""
    import io

    from sheetmaster.cli import main
    from sheetmaster.stores.xlsx_layout import write_new_workbook

    path = folder / "game.xlsx"
    write_new_workbook(ruleset, path, raw)
    damage_workbook(path, damage)
    digest, listing = _digest(path), sorted(p.name for p in folder.iterdir())
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["resolve", str(path), "--force", "--quiet"])
    if code != 2:
        return f"{damage.what}: sheetmaster resolve exited {code}, not 2"
    if _digest(path) != digest:
        return f"{damage.what}: the workbook's bytes changed"
    if sorted(p.name for p in folder.iterdir()) != listing:
        return f"{damage.what}: files appeared beside the workbook"
    # a StateError lists each problem at its tab, row and column; the few checks made before
    # the engine runs (no Game tab, no 'ruleset' setting) name the tab
    stated = "the game's sheet has problems" in err.getvalue() and damage.row is not None
    where = f"tab '{damage.tab}', row {damage.row}, column '{damage.column}'" if stated else \
        f"'{damage.tab}'"
    if where not in err.getvalue():
        return f"{damage.what}: the error does not say {where}: {err.getvalue()}"
    return ""


# -- the claims ruleset -------------------------------------------------------------------------

_PLAYER_NAMES = ("Avalon", "Bretagne", "Cambria", "Dumnonia", "\u00c6r\u00f8sk\u00f8bing",
                 "New Lyonesse", "\u0141\u00f3d\u017a", "Ys", "\u540d\u53e4\u5c4b", "O'Connell",
                 "Gwent", "Elmet")
_TERRITORY_NAMES = ("Camelot", "Sarum", "Logres", "Mercia", "Orkney", "Sorelois", "Listenois",
                    "Benoic", "Carnac", "Ys", "Armor", "Caerleon", "Gwynedd", "Powys", "Dyfed",
                    "Isca", "Kernow", "Dartmoor", "Bro\u00e7\u00e9liande", "\u00cele Verte",
                    "Sankt Gallen", "\u5317\u6d77", "R\u00edo Negro", "Tintagel", "Lyonesse",
                    "Glastonbury", "Corbenic", "Gorre", "Astolat", "Escavalon")
_RESOURCES = ("", "", "", "Gold", "Iron", "rubber", "COAL", "Oil", "Uranium", "Amber", "Spice")
_SIDES = ("North", "South", "League", "Pact", "Crown", "Free Cities")


def claims_game(ch: Chooser) -> GameSpec:
    """A valid claims game: a few players, territories with symmetric borders and waterways,
    wars, and last turn's war results."""
    players = ch.subset(_PLAYER_NAMES, 35)[:6] or list(_PLAYER_NAMES[:ch.integer(0, 2)])
    lands = ch.subset(_TERRITORY_NAMES, 50)[:24] or list(_TERRITORY_NAMES[:ch.integer(0, 3)])
    authenticated = ch.chance(20)
    spelled = {p: (p if ch.chance(85) else ch.choice((p.upper(), p.lower(), f" {p} ")))
               for p in players}
    borders: dict[str, list[str]] = {t: [] for t in lands}
    water: dict[str, list[str]] = {t: [] for t in lands}
    for i, a in enumerate(lands):
        for b in lands[i + 1:]:
            if ch.chance(25):
                borders[a].append(b)
                borders[b].append(a)
            elif ch.chance(8):
                water[a].append(b)
                water[b].append(a)

    def listed(names: list[str]) -> str:
        sep = ch.choice((", ", ",", "; ", "\n", " , "))
        return sep.join(n if ch.chance(90) else n.upper() for n in names)

    territories = []
    for t in lands:
        owner = ch.choice(players) if players and ch.chance(60) else ""
        territories.append({
            "territory": t,
            "owner": spelled[owner] if owner else "",
            "resource": ch.choice(_RESOURCES),
            "capital of": ch.choice(players) if players and ch.chance(20) else "",
            "borders": listed(borders[t]),
            "waterways": listed(water[t]),
        })
    owned = {t["owner"].strip().casefold() for t in territories}
    player_rows = []
    for p in players:
        row = {"player": p, "gold": ch.integer(0, 40), "armies": ch.integer(0, 9),
               "in exile": "yes" if p.casefold() not in owned and ch.chance(50) else
               ch.choice(("", "no", "")),
               "other resources": ch.choice(("", "", "Amber: 1", "Spice 2, Silk: 1"))}
        for r in ("iron", "coal"):
            if ch.chance(20):
                row[r] = ch.integer(0, 2)
        if authenticated:
            row["email"] = f"{p.split()[0].lower()}@example.org"
        player_rows.append(row)
    wars, results = [], []
    turn = ch.integer(1, 4)
    for w in range(ch.integer(0, 3)):
        name = ch.choice(("Channel War", "Tamar Feud", "Long War", "War of the Thorn"))
        name = f"{name} {w}" if w else name
        sides = list(dict.fromkeys(ch.choice(_SIDES) for _ in range(ch.integer(1, 3))))
        pool = list(players)
        ended = ch.chance(20)
        members_of = {}
        for side in sides:
            members = [p for p in pool if ch.chance(40)]
            pool = [p for p in pool if p not in members]
            members_of[side] = members
            wars.append({"war": name, "side": side, "members": ", ".join(members),
                         "ended": "yes" if ended else ""})
        if turn > 1 and ch.chance(70):
            tied = ch.chance(20)
            winner = ch.choice(sides)
            for side in sides:
                outcome = "tied" if tied else ("won" if side == winner else "lost")
                results.append({"turn": turn - 1 if ch.chance(80) else max(turn - 2, 0),
                                "war": name, "side": side,
                                "members": ", ".join(members_of[side]),
                                "dice": "", "power": "", "score": "0", "outcome": outcome})
    tables = {"Players": player_rows, "Territories": territories, "Wars": wars,
              "War results": results}
    return GameSpec(tables, {"game": "fuzz"}, turn)


_GAVE = re.compile(r"^(?P<verb>gave|received) (?P<what>.+?) (?:to|from) (?P<who>.+?) \(deal ")
_AMOUNT_ITEM = re.compile(r"^(?P<n>[0-9]+) (?P<item>.+)$")


def claims_invariants(result: TurnResult) -> list[str]:
    """The claims game's invariants, checked against the turn's Log.

    No negative gold, resources or armies; resources are 0 after phase D; every territory is
    neutral or owned by a known player, and ownership changes only by the claims and
    transfers in the Log; no territory created or lost; gold and armies change exactly by the
    amounts the Log's events give (exile losses in A and C, transfers in C, upkeep and
    disbanding in D, claims in A and E, building in G); exile starts and ends only with its
    events; each war's sides get one result row each, one winner or all tied; no player rolls
    more war dice than armies.
    """
    turn = result.turn
    out: list[str] = []
    bad = out.append
    pb, pa = result.before.tables["Players"], result.after.tables["Players"]
    tb, ta = result.before.tables["Territories"], result.after.tables["Territories"]
    players = [p for p in pa["player"].tolist() if p]
    if pb["player"].tolist() != pa["player"].tolist():
        bad(f"turn {turn}: the Players tab's players changed")
    if tb["territory"].tolist() != ta["territory"].tolist() or \
            tb.index.tolist() != ta.index.tolist():
        bad(f"turn {turn}: territories were created, lost or moved")
    before = {r["player"]: r for r in pb.to_dict("records")}
    after = {r["player"]: r for r in pa.to_dict("records")}
    known = set(players)
    names = set(t for t in ta["territory"].tolist() if t)
    for name, r in after.items():
        for column in ("gold", "armies", "iron", "rubber", "coal", "oil", "uranium"):
            if not isinstance(r[column], int) or r[column] < 0:
                bad(f"turn {turn}: {name} has {r[column]!r} {column}")
            elif column not in ("gold", "armies") and r[column]:
                bad(f"turn {turn}: {name} keeps {r[column]} {column} after phase D")
        if r["other resources"]:
            bad(f"turn {turn}: {name} keeps {r['other resources']!r} after phase D")
    owners = dict(zip(tb["territory"].tolist(), tb["owner"].tolist()))
    # the owner cell was read as written; the world uses the player's own spelling
    by_fold = {values.fold(p): p for p in players}
    owners = {t: by_fold.get(values.fold(o), o) if o else "" for t, o in owners.items()}
    gold = {p: before[p]["gold"] for p in players}
    armies = {p: before[p]["armies"] for p in players}
    exile = {p: before[p]["in exile"] == "yes" for p in players}
    built: Counter[str] = Counter()
    war_dice: Counter[str] = Counter()
    exile_dice: dict[str, list[int]] = {}
    longest_first = sorted(names, key=len, reverse=True)
    for e in result.events:
        p, text = e.player, e.text
        if re.search(r"(gold|armies|territories) now -", text):
            bad(f"turn {turn}: a Log line goes below zero: {text}")
        if e.kind == "die":
            if text.startswith("d6 for exile, army"):
                exile_dice.setdefault(p, []).append(e.value or 0)
            elif e.phase == "F":
                war_dice[p] += 1
            continue
        if p and p not in known:
            bad(f"turn {turn}: an event concerns {p!r}, who is not a player")
            continue
        if e.kind == "income" and (m := re.match(r"^\+([0-9]+) gold \(", text)):
            gold[p] += int(m[1])
        elif e.kind == "claim":
            m = re.search(r" for ([0-9]+) gold \([0-9]+ territories / [24], rounded down\)",
                          text)
            name = next((t for t in longest_first if text.startswith(f"claimed {t} ")), None)
            if m is None or name is None:
                bad(f"turn {turn}: unreadable claim: {text}")
                continue
            gold[p] -= int(m[1])
            owners[name] = p
        elif e.kind == "transfer" and (m := _GAVE.match(text)):
            sign = -1 if m["verb"] == "gave" else 1
            what = m["what"]
            if what in names:
                if sign > 0:
                    owners[what] = p
            elif (n := _AMOUNT_ITEM.match(what)) is not None:
                if n["item"] == "gold":
                    gold[p] += sign * int(n["n"])
                elif n["item"] == "armies":
                    armies[p] += sign * int(n["n"])
            else:
                bad(f"turn {turn}: unreadable transfer: {text}")
        elif e.kind == "upkeep" and (m := re.search(r"; gold ([0-9]+) -> ([0-9]+)$", text)):
            gold[p] += int(m[2]) - int(m[1])
        elif e.kind == "armies disbanded" and (m := re.match(r"^([0-9]+) armies disbanded",
                                                             text)):
            armies[p] -= int(m[1])
        elif e.kind == "armies lost in exile" and (m := re.match(r"^lost ([0-9]+) of ([0-9]+) ",
                                                                 text)):
            dice = exile_dice.pop(p, [])
            if int(m[2]) != len(dice) or int(m[1]) != sum(v <= 4 for v in dice):
                bad(f"turn {turn}: {p} lost {m[1]} of {m[2]} armies in exile on dice {dice}")
            armies[p] -= int(m[1])
        elif e.kind == "armies built" and (m := re.match(r"^built ([0-9]+) armies for ([0-9]+) "
                                                         r"gold", text)):
            armies[p] += int(m[1])
            built[p] += int(m[1])
            gold[p] -= int(m[2])
        elif e.kind == "exile":
            if exile[p]:
                bad(f"turn {turn}: {p} went into exile while in exile")
            exile[p] = True
        elif e.kind == "exile ended":
            exile[p] = False
    for p in players:
        if gold[p] != after[p]["gold"]:
            bad(f"turn {turn}: {p}'s gold is {after[p]['gold']}, the Log explains {gold[p]}")
        if armies[p] != after[p]["armies"]:
            bad(f"turn {turn}: {p}'s armies are {after[p]['armies']}, the Log explains "
                f"{armies[p]}")
        if exile[p] != (after[p]["in exile"] == "yes"):
            bad(f"turn {turn}: {p}'s exile is {after[p]['in exile']!r}, the Log says {exile[p]}")
        if war_dice[p] > after[p]["armies"] - built[p]:
            bad(f"turn {turn}: {p} rolled {war_dice[p]} war dice with "
                f"{after[p]['armies'] - built[p]} armies")
    count: Counter[str] = Counter()
    for t, owner in zip(ta["territory"].tolist(), ta["owner"].tolist()):
        if owner and owner not in known:
            bad(f"turn {turn}: {t} is owned by {owner!r}, who is not a player")
        if owner != owners.get(t, owner):
            bad(f"turn {turn}: {t} is owned by {owner!r}; the Log gives it to {owners[t]!r}")
        if owner:
            count[owner] += 1
    if "territories" in pa.columns:
        for p in players:
            if after[p]["territories"] != count[p]:
                bad(f"turn {turn}: {p}'s territories say {after[p]['territories']}, "
                    f"owns {count[p]}")
    wb, wa = result.before.tables["War results"], result.after.tables["War results"]
    new = wa.loc[[r for r in wa.index if r not in set(wb.index)]]
    sides: dict[str, list[str]] = {}
    wars = result.before.tables["Wars"]
    ended = {values.fold(w) for w, e in zip(wars["war"].tolist(), wars["ended"].tolist())
             if e == "yes"}
    for w, s in zip(wars["war"].tolist(), wars["side"].tolist()):
        if w and s and values.fold(w) not in ended:
            sides.setdefault(values.fold(w), []).append(values.fold(s))
    got: dict[str, list[str]] = {}
    outcomes: dict[str, list[str]] = {}
    for r in new.to_dict("records"):
        if r["turn"] != turn:
            bad(f"turn {turn}: a war result row says turn {r['turn']}")
        got.setdefault(values.fold(r["war"]), []).append(values.fold(r["side"]))
        outcomes.setdefault(values.fold(r["war"]), []).append(r["outcome"])
    if {k: sorted(set(v)) for k, v in got.items()} != {k: sorted(set(v))
                                                        for k, v in sides.items()}:
        bad(f"turn {turn}: war results {got} for the active wars' sides {sides}")
    for war, words in outcomes.items():
        c = Counter(words)
        if not (set(c) == {"tied"} or (c["won"] == 1 and c["won"] + c["lost"] == len(words))):
            bad(f"turn {turn}: war {war} ended {words}")
    return out


def claims_damages(prepared: Any) -> list[Damage]:
    """Cross references between the claims tabs, broken."""
    world = prepared.world
    out: list[Damage] = []
    for t in list(world.territories.values())[:4]:
        r = t.row
        for column, current in (("borders", t.borders), ("waterways", t.waterways)):
            out.append(Damage(f"{t.name}'s {column} name Atlantis", "Territories", r, column,
                              (("set", "Territories", r, column,
                                ", ".join([*current, "Atlantis"])),)))
            out.append(Damage(f"{t.name} borders itself", "Territories", r, column,
                              (("set", "Territories", r, column,
                                ", ".join([*current, t.name.lower()])),)))
            if current:
                other = world.territories[current[0]]
                # other still lists t: the problem is on other's row
                out.append(Damage(f"{t.name}-{other.name} {column} on one side only",
                                  "Territories", other.row, column,
                                  (("set", "Territories", r, column,
                                    ", ".join(current[1:])),)))
        out.append(Damage(f"{t.name} owned by Mordred", "Territories", r, "owner",
                          (("set", "Territories", r, "owner", "Mordred"),)))
        out.append(Damage(f"{t.name} is Mordred's capital", "Territories", r, "capital of",
                          (("set", "Territories", r, "capital of", "Mordred"),)))
    players = prepared.state.tables["Players"]
    for r in players.index.tolist()[:2]:
        for bad in ("Spice", "Spice: two", ": 3"):
            out.append(Damage(f"Players row {r} other resources {bad!r}", "Players", int(r),
                              "other resources",
                              (("set", "Players", int(r), "other resources", bad),)))
    wars = prepared.state.tables["Wars"]
    for r, members in zip(wars.index.tolist()[:3], wars["members"].tolist()):
        out.append(Damage(f"Wars row {r} lists Mordred", "Wars", int(r), "members",
                          (("set", "Wars", int(r), "members",
                            ", ".join(filter(None, [members, "Mordred"]))),)))
    by_war: dict[str, list[tuple[int, str, str]]] = {}
    for r, w, s, m in zip(wars.index.tolist(), wars["war"].tolist(), wars["side"].tolist(),
                          wars["members"].tolist()):
        by_war.setdefault(values.fold(w), []).append((int(r), s, m))
    for sides in list(by_war.values())[:2]:
        if len(sides) >= 2:
            (r1, s1, _), (r2, _, _) = sides[0], sides[1]
            out.append(Damage(f"Wars row {r2} repeats side {s1!r}", "Wars", r2, "side",
                              (("set", "Wars", r2, "side", s1.upper()),)))
            someone = next(iter(world.players))
            out.append(Damage(f"{someone} on two sides", "Wars", r2, "members",
                              (("set", "Wars", r1, "members", someone),
                               ("set", "Wars", r2, "members", someone))))
    results = prepared.state.tables["War results"]
    turn = prepared.state.turn
    for r, t in zip(results.index.tolist()[:3], results["turn"].tolist()):
        out.append(Damage(f"War results row {r} outcome 'draw'", "War results", int(r),
                          "outcome", (("set", "War results", int(r), "outcome", "draw"),)))
        if t == turn - 1:
            out.append(Damage(f"War results row {r} lists Mordred", "War results", int(r),
                              "members",
                              (("set", "War results", int(r), "members", "Mordred"),)))
    return out


def claims_scenarios(ch: Chooser, pools: Pools) -> list[dict[str, Any]]:
    """Claims rows that can go through: a deal and its acceptances, dice for one's side, a
    claim next to one's land or on a beaten enemy's, armies one can almost afford."""
    world = pools.world
    players = list(world.players.values())
    if not players:
        return []
    me = ch.choice(players)
    what = ch.integer(0, 4)
    if what == 0 and len(players) > 1:
        deal = f"pact {ch.integer(0, 10**6)}"
        others = [p for p in players if p is not me]
        parties = [me, *ch.subset(others, 40)] if len(others) > 1 else [me, *others]
        if len(parties) == 1:
            parties.append(ch.choice(others))
        rows, involved = [], set()
        for _ in range(ch.integer(1, 3)):
            giver = ch.choice(parties)
            taker = ch.choice([p for p in parties if p is not giver])
            row = {PLAYER: me.name, ORDER: "propose transfer", "deal": deal, "to": taker.name,
                   "from": giver.name if giver is not me or ch.chance(50) else ""}
            lands = [t.name for t in world.territories.values() if t.owner == giver.name]
            item = ch.choice(("gold", "armies", "iron", "territory", *world.special_resources
                              .values()))
            if item == "territory" and lands:
                row.update(item="territory", territory=ch.choice(lands))
            else:
                item = "gold" if item == "territory" else item
                held = world.held(giver, item) if item in ("gold", "armies") else 1
                row.update(item=item, amount=ch.integer(1, max(1, held + 1)))
            rows.append(row)
            involved |= {giver.name, taker.name}
        for name in sorted(involved - {me.name}):
            if ch.chance(90):
                rows.append({PLAYER: name, ORDER: "accept transfer", "deal": deal})
        return rows
    if what == 1:
        wars = [(w, s) for w in world.wars.values() for s in w.sides.values()
                if me.name in s.members] or [(w, s) for w in world.wars.values()
                                             for s in w.sides.values()]
        if wars:
            war, side = ch.choice(wars)
            return [{PLAYER: me.name, ORDER: "commit dice",
                     "amount": ch.integer(1, me.armies + 1),
                     "war": war.name if ch.chance(80) else None,
                     "side": side.name if ch.chance(60) else None}]
    if what == 2:
        mine = {t.name for t in world.territories.values() if t.owner == me.name}
        near = [t.name for t in world.territories.values()
                if not t.owner and set(t.neighbours) & mine]
        if near:
            return [{PLAYER: me.name, ORDER: "claim neutral territory",
                     "territory": ch.choice(near)}]
    if what == 3:
        beaten = world.may_claim_from.get(me.name, set())
        theirs = [t.name for t in world.territories.values() if t.owner in beaten]
        if theirs:
            return [{PLAYER: me.name, ORDER: "claim war territory",
                     "territory": ch.choice(theirs)}]
    return [{PLAYER: me.name, ORDER: "build armies",
             "amount": ch.integer(1, me.gold // 5 + 1)}]


GAMES["claims"] = claims_game
SCENARIOS["claims"] = claims_scenarios
INVARIANTS["claims"] = claims_invariants
DAMAGES["claims"] = claims_damages
# "If a player offered to give ... the transfer is entirely cancelled": a rejected item row
# of a deal cancels the deal.
REJECTION_MATTERS["claims"] = frozenset({"propose transfer"})


def _register_clans() -> None:
    """A clan's turn comes at its first posted row, rejected or not (see fuzz_clans)."""
    from sheetmaster.testing import fuzz_clans

    INVARIANTS["clans"] = fuzz_clans.clans_invariants
    REJECTION_MATTERS["clans"] = fuzz_clans.REJECTION_MATTERS


_register_clans()


# -- hypothesis strategies ----------------------------------------------------------------------


class FuzzCase:
    """A generated game and the order rows of its next turns (a plain class, so that
    hypothesis prints a failing example with :meth:`__repr__`: the tabs and the rows)."""

    def __init__(self, ruleset: Ruleset, game: GameState,
                 batches: list[list[dict[str, Any]]]) -> None:
        self.ruleset, self.game, self.batches = ruleset, game, batches

    def __repr__(self) -> str:
        rows = "\n".join(f"  turn +{i}: {row!r}" for i, b in enumerate(self.batches) for row in b)
        tabs = "\n".join(f"--- {tab}\n{df.to_string()}" for tab, df in self.game.tables.items())
        return f"FuzzCase({self.ruleset.name})\n{tabs}\n--- order rows\n{rows}"


def fuzz_cases(ruleset: Ruleset, *, turns: tuple[int, int] = (1, 3),
               rows: tuple[int, int] = (0, 25)):
    """Strategy: a valid game and a few turns' order rows (hypothesis draws every choice)."""
    from hypothesis import strategies as st

    @st.composite
    def cases(draw: Callable[[Any], Any]) -> FuzzCase:
        ch = DrawChooser(draw)
        game = build_game(ruleset, ch)
        pools = pools_of(ruleset, game)
        batches = []
        for i in range(ch.integer(*turns)):
            pools.turn += 0 if i == 0 else 1
            batches.append(order_rows(ch, pools, ch.integer(*rows)))
        return FuzzCase(ruleset, game, batches)

    return cases()


class DamagedCase:
    """A valid game and one damage to it (printed as the damage and the game's tabs)."""

    def __init__(self, ruleset: Ruleset, game: GameState, damage: Damage) -> None:
        self.ruleset, self.game, self.damage = ruleset, game, damage

    def __iter__(self):
        return iter((self.game, self.damage))

    def __repr__(self) -> str:
        tabs = "\n".join(f"--- {tab}\n{df.to_string()}" for tab, df in self.game.tables.items())
        return f"DamagedCase({self.ruleset.name}, {self.damage!r})\n{tabs}"


def damaged_states(ruleset: Ruleset):
    """Strategy: a valid game and one damage to it (unpacks as ``game, damage``)."""
    from hypothesis import strategies as st

    @st.composite
    def damaged(draw: Callable[[Any], Any]) -> DamagedCase:
        game = build_game(ruleset, DrawChooser(draw))
        return DamagedCase(ruleset, game, draw(st.sampled_from(all_damages(ruleset, game))))

    return damaged()


def check_case(case: FuzzCase, *, inert: bool = True) -> Figures:
    """Play a :class:`FuzzCase`; the figures say what broke."""
    figures = Figures([case.ruleset.name])
    play_game(case.ruleset, case.game, case.batches, figures, inert=inert, label="case")
    return figures


# -- the volume run -------------------------------------------------------------------------------


def run_fuzz(rows_per_ruleset: int = 10_000, seed: int = 0, *, rows_per_turn: int = 200,
             turns_per_game: int = 5, damaged_per_ruleset: int | None = None,
             workbooks_per_ruleset: int = 4, inert: bool = True) -> dict[str, Any]:
    """Fuzz every ruleset: at least ``rows_per_ruleset`` order rows each, in games of
    ``turns_per_game`` turns of ``rows_per_turn`` rows; then damaged states (by default one
    per 100 rows) and a few damaged workbooks run through ``sheetmaster resolve``.

    Deterministic for a given ``seed``. The figures' counts of problems are all 0 when
    sheetmaster holds; ``examples`` shows the first problems found.
    """
    started = clock.perf_counter()
    figures = Figures()
    damaged_per_ruleset = max(20, rows_per_ruleset // 100) if damaged_per_ruleset is None \
        else damaged_per_ruleset
    for name, ruleset in sorted(rules.available().items()):
        figures.rulesets.append(name)
        rng = random.Random(f"{seed}:{name}")
        ch = RandomChooser(rng)
        first = figures.order_rows
        game_no = 0
        while figures.order_rows - first < rows_per_ruleset:
            game_no += 1
            game = build_game(ruleset, ch)
            left = rows_per_ruleset - (figures.order_rows - first)
            turns = max(1, min(turns_per_game, -(-left // rows_per_turn)))
            batches = [lambda pools, ch=ch: order_rows(ch, pools, rows_per_turn)] * turns
            play_game(ruleset, game, batches, figures, inert=inert,
                      label=f"{name} seed {seed} game {game_no}")
        damages: list[tuple[GameState, Damage]] = []
        while len(damages) < damaged_per_ruleset:
            game = build_game(ruleset, ch)
            options = all_damages(ruleset, game)
            rng.shuffle(options)
            damages.extend((game, d) for d in options[:10])
        for game, damage in damages[:damaged_per_ruleset]:
            figures.damaged_states += 1
            problem = refusal_problem(ruleset, game, damage)
            if problem:
                figures.note(f"{name}: {problem}")
            else:
                figures.damaged_states_refused_before_write += 1
        picks = []
        while len(picks) < workbooks_per_ruleset:
            game = build_game(ruleset, ch, dressed=False)
            options = [d for d in all_damages(ruleset, game) if _fits_a_workbook(d)]
            picks.append((game, options[rng.randrange(len(options))]))
        with tempfile.TemporaryDirectory() as tmp:
            for i, (game, damage) in enumerate(picks):
                folder = Path(tmp) / str(i)
                folder.mkdir()
                figures.damaged_workbooks += 1
                problem = workbook_refusal_problem(ruleset, game, damage, folder)
                if problem:
                    figures.note(f"{name}: {problem}")
                else:
                    figures.damaged_workbooks_unchanged += 1
    return {
        "rulesets": figures.rulesets,
        "order_rows": figures.order_rows,
        "turns": figures.turns,
        "uncaught_exceptions": figures.uncaught_exceptions,
        "rows_without_result": figures.rows_without_result,
        "invariant_violations": figures.invariant_violations,
        "damaged_states": figures.damaged_states,
        "damaged_states_refused_before_write": figures.damaged_states_refused_before_write,
        "damaged_workbooks": figures.damaged_workbooks,
        "damaged_workbooks_unchanged": figures.damaged_workbooks_unchanged,
        "results": dict(sorted(figures.statuses.items())),
        "seconds": round(clock.perf_counter() - started, 1),
        "examples": figures.examples,
    }


__all__ = [
    "DAMAGES", "GAMES", "INVARIANTS", "REJECTION_MATTERS", "SCENARIOS", "Chooser", "Damage",
    "DamagedCase", "DrawChooser", "Figures", "Formula", "FuzzCase", "GameSpec", "Pools",
    "RandomChooser", "TurnCheck", "all_damages", "append_orders", "build_game", "check_case",
    "damage_state", "damage_workbook", "damaged_states", "fuzz_cases", "order_rows",
    "play_game", "pools_of", "refusal_problem", "rejected_rows_are_inert", "rows_needing_result",
    "run_fuzz", "turn_violations", "workbook_refusal_problem", "write_back",
]
