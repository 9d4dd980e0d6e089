"""Golden turn cases: a YAML file of before-tables, orders, dice and expected results.

Format (every key but ``rule``, ``tables`` and ``expect`` is optional)::

    rule: "the rule text this case checks, quoted from the source"
    description: what the case shows
    ruleset: claims
    turn: 2
    tables: {Players: [{player: Avalon, gold: 3}], Territories: [...], ...}
    orders: [{player: Avalon, order: claim neutral territory, territory: Tintagel}]
    dice: [4, 2]            # scripted d6 values, in the order they are rolled; all must be used
    draws: {"interregnum France": 1, "deck Events": [Flood, War]}   # draws scripted by name
    drop_columns: {Players: [armies]}   # take columns out of the tabs (broken-sheet cases)
    expect:
      results: [applied, {status: rejected, reason: "not enough gold"}]   # one per order row
      tables: {Players: [{player: Avalon, gold: 1}]}   # keyed rows; keyless tabs: new rows
      rows: {Advisors: [{clan: Amana}, ...]}   # every row of a tab after the turn, in order
      events: ["claimed Tintagel"]     # each text appears in some log line
      events_in_order: ["Austria collects", "France collects"]   # ... in lines in this order
      only_changes: true               # no owned cell changes beyond those in expect.tables
      error: "tab 'Territories', row 3, column 'borders'"   # the state is refused

The dice are the scripted ones; every case is resolved with :data:`GOLDEN_SECRET` as the game's
dice secret, which keys only what a ruleset seals in the sheet (a sealed card in 1800's Hands
tab is sealed with it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from sheetmaster import rules
from sheetmaster.engine.builder import build_state
from sheetmaster.engine.turn import resolve
from sheetmaster.kit import values
from sheetmaster.kit.changes import cell_changes
from sheetmaster.kit.dice import ScriptedDice
from sheetmaster.kit.lasting import lasting_tables
from sheetmaster.kit.model import GameState, TurnResult
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.schema import StateError
from sheetmaster.kit.tabs import GAME, GM_ORDERS_TAB, all_tables, orders_table

REQUIRED = ("rule", "tables", "expect")
#: the dice secret of every golden case (public: a test's).
GOLDEN_SECRET = "the golden cases' dice secret"


@dataclass
class GoldenCase:
    path: Path
    data: dict[str, Any]
    #: the ruleset, when it is not one sheetmaster knows by name (a house ruleset's own
    #: tests, before it is installed); None: the one the case names, or its folder's name
    given: Ruleset | None = None

    @property
    def ruleset(self) -> Ruleset:
        if self.given is not None:
            return self.given
        return rules.get(self.data.get("ruleset", self.path.parent.name))

    def state(self):
        state = build_state(self.ruleset, self.data.get("tables") or {},
                            self.data.get("orders") or [], turn=self.data.get("turn"),
                            settings=self.data.get("settings"))
        for tab, columns in (self.data.get("drop_columns") or {}).items():
            state.tables[tab] = state.tables[tab].drop(columns=columns)
        return state


def load_case(path: Path, ruleset: Ruleset | None = None) -> GoldenCase:
    """The case in ``path``, of ``ruleset`` if given (else of the ruleset it names)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    missing = [k for k in REQUIRED if k not in data]
    if missing:
        raise ValueError(f"{path}: golden case lacks {', '.join(missing)}")
    return GoldenCase(path, data, ruleset)


def run_case(case: GoldenCase, state: GameState | None = None) -> TurnResult | None:
    """Resolve the case and assert every expectation; raises AssertionError on a mismatch.

    ``state`` replaces the case's own tables, e.g. with the same tables after a round trip
    through a store. Returns the result (None for a case whose state must be refused).
    """
    expect = case.data["expect"]
    dice = ScriptedDice(case.data.get("dice") or [], named=case.data.get("draws"))
    state = state if state is not None else case.state()
    if "error" in expect:
        try:
            resolve(case.ruleset, state, dice=dice, secret=GOLDEN_SECRET)
        except StateError as exc:
            assert expect["error"] in str(exc), f"error was:\n{exc}"
            return None
        raise AssertionError(f"expected the state to be refused with: {expect['error']}")
    result = resolve(case.ruleset, state, dice=dice, secret=GOLDEN_SECRET)
    assert not dice.unused, f"scripted dice not rolled: {dice.unused}"
    _check_results(result, expect.get("results"), len(case.data.get("orders") or []))
    _check_tables(case, result, expect.get("tables") or {})
    for tab, rows in (expect.get("rows") or {}).items():
        df = result.after.tables[tab]
        assert len(df) == len(rows), f"{tab}: {len(df)} rows, expected {len(rows)}:\n" \
                                     f"{df.to_string()}"
        for (row, actual), want in zip(df.iterrows(), rows):
            for col, value in want.items():
                _assert_cell(tab, row, col, actual[col], value)
    log = [e.text for e in result.events]
    for text in expect.get("events") or []:
        assert any(text in line for line in log), f"no log line has {text!r}:\n" + "\n".join(log)
    at = 0
    for text in expect.get("events_in_order") or []:
        found = next((i for i in range(at, len(log)) if text in log[i]), None)
        assert found is not None, f"no log line after line {at} has {text!r}:\n" + \
            "\n".join(log)
        at = found + 1
    for text in expect.get("no_events") or []:
        assert not any(text in line for line in log), f"a log line has {text!r}"
    if expect.get("only_changes"):
        _check_only_changes(case, result, expect.get("tables") or {})
    return result


def _check_results(result: TurnResult, expected: list | None, n_orders: int) -> None:
    if expected is None:
        return
    assert len(expected) == n_orders, "expect.results needs one entry per order row"
    for i, want in enumerate(expected):
        row = i + 2
        got = result.result_for_row(row)
        if isinstance(want, str):
            want = {"status": want}
        if want.get("status") == "ignored":
            assert got is None, f"row {row} should have no result, got {got}"
            continue
        assert got is not None, f"order row {row} got no result"
        assert got.status.value == _status_word(want["status"]), \
            f"row {row}: {got.status.value} ({got.reason}), expected {want['status']}"
        if "reason" in want:
            assert want["reason"].casefold() in got.reason.casefold(), \
                f"row {row}: reason {got.reason!r} lacks {want['reason']!r}"


def _status_word(word: str) -> str:
    return {"partial": "partly applied"}.get(word, word)


def _check_tables(case: GoldenCase, result: TurnResult, expected: dict) -> None:
    tables = {t.tab: t for t in all_tables(case.ruleset)}
    for tab, rows in expected.items():
        table = GAME if tab == "Game" else tables.get(tab)
        df = result.after.tables[tab]
        key = table.key if table else None
        if key:
            index = {values.fold(str(k)): r for r, k in zip(df.index, df[key].tolist())}
            for want in rows:
                row = index.get(values.fold(str(want[key])))
                assert row is not None, f"{tab}: no row {want[key]!r}"
                for col, value in want.items():
                    _assert_cell(tab, want[key], col, df.at[row, col], value)
        else:
            before = result.before.tables[tab]
            new = df.loc[[r for r in df.index if r not in set(before.index)]]
            assert len(new) == len(rows), f"{tab}: {len(new)} new rows, expected {len(rows)}:\n" \
                                          f"{new.to_string()}"
            for (row, actual), want in zip(new.iterrows(), rows):
                for col, value in want.items():
                    _assert_cell(tab, row, col, actual[col], value)


def _assert_cell(tab: str, key: Any, col: str, actual: Any, want: Any) -> None:
    def norm(v: Any) -> Any:
        if values.is_blank(v):
            return ""
        if isinstance(v, bool):
            return "yes" if v else ""
        if isinstance(v, float) and v.is_integer():
            return int(v)
        return v

    assert norm(actual) == norm(want), f"{tab} {key!r} column {col!r}: {actual!r}, " \
                                       f"expected {want!r}"


#: tabs whose changes a golden case never lists (the turn's record, not its state)
WRITTEN_ELSEWHERE = ("Orders", "Log", "Game", "War results")


def _check_only_changes(case: GoldenCase, result: TurnResult, expected: dict) -> None:
    tables = {t.tab: t for t in all_tables(case.ruleset)}
    allowed = {(tab, values.fold(str(row[k])), col)
               for tab, rows in expected.items()
               for k in [tables[tab].key if tab in tables else None] if k
               for row in rows for col in row}
    # optional columns sheetmaster writes are derived from the rest (counts, totals)
    derived = {(t.tab, c.name) for t in case.ruleset.tables for c in t.columns
               if c.optional and c.owned}
    # whole tabs in expect.rows: their listed cells, by sheet row
    whole = case.data["expect"].get("rows") or {}
    cells = {(tab, int(row), col) for tab, rows in whole.items()
             for row, want in zip(result.after.tables[tab].index, rows) for col in want}
    for change in cell_changes(case.ruleset, result):
        if change.tab in WRITTEN_ELSEWHERE:
            continue
        change = _keyed(tables.get(change.tab), result, change)
        if (change.tab, change.column) in derived:
            continue  # e.g. the territories count, which follows ownership
        if change.tab in whole:
            assert (change.tab, change.row, change.column) in cells, \
                f"unexpected change {change}"
            continue
        assert (change.tab, values.fold(change.key), change.column) in allowed, \
            f"unexpected change {change}"


def _keyed(table, result: TurnResult, change):
    """A change to a row a keyed tab gained (a new unit...), named by that row's key."""
    if change.key or table is None or not table.key or change.tab not in result.after.tables:
        return change
    after = result.after.tables[change.tab]
    if change.row not in after.index or table.key not in after.columns:
        return change
    return replace(change, key=values.text(after.at[change.row, table.key]))


def case_paths(root: Path) -> list[Path]:
    return sorted(root.glob("*/*.yaml"))


def capture_case(ruleset, state, rule: str, *, seed: int | None = None,
                 secret: str | None = None) -> dict[str, Any]:
    """A golden case from a real turn: its tabs, orders, the dice it rolled and its outcome.

    The GM checks the outcome by the rules, quotes the rule, and drops it in tests/golden/.
    """
    from sheetmaster.engine.turn import prepare

    prepared = prepare(ruleset, state, secret)
    result = resolve(ruleset, state, seed=seed, secret=secret)
    input_tables = {t.tab: t for t in (*ruleset.tables, *lasting_tables(ruleset.lasting,
                                                                  ruleset.timer_layout))}
    if ruleset.gm_orders:
        input_tables[GM_ORDERS_TAB] = orders_table(ruleset.order_columns, GM_ORDERS_TAB)

    def rows(df, columns) -> list[dict[str, Any]]:
        out = []
        for record in df[columns].to_dict("records"):
            out.append({k: _plain(v) for k, v in record.items() if not values.is_blank(v)})
        return out

    tables = {tab: rows(prepared.state.tables[tab], t.names)
              for tab, t in input_tables.items() if len(prepared.state.tables[tab])}
    order_columns = [c for c in prepared.state.tables["Orders"].columns
                     if c not in ("result", "reason") and c in {"turn", "player", "order", *(
                         col.name for col in ruleset.order_columns)}]
    expected_tables: dict[str, list[dict[str, Any]]] = {}
    keyless: set[str] = set()  # changed tabs without a key: expected whole (expect.rows)
    for change in cell_changes(ruleset, result):
        table = input_tables.get(change.tab)
        change = _keyed(table, result, change)
        if table is not None and not table.key and change.tab not in WRITTEN_ELSEWHERE:
            keyless.add(change.tab)
        if table is None or not table.key or not change.key:
            continue
        entry = next((r for r in expected_tables.setdefault(change.tab, [])
                      if r[table.key] == change.key), None)
        if entry is None:
            entry = {table.key: change.key}
            expected_tables[change.tab].append(entry)
        entry[change.column] = _plain(change.after)
    by_row = {r.row: r for r in result.results}
    orders_df = prepared.state.tables["Orders"]
    meta = prepared.state.meta
    settings = {s.name: _plain(meta[values.fold(s.name)]) for s in ruleset.all_settings()
                if not s.written and not values.is_blank(meta.get(values.fold(s.name)))}
    return {
        "rule": rule,
        "description": f"captured from a real turn {result.turn}",
        "ruleset": ruleset.name,
        "turn": result.turn,
        "settings": settings,
        "tables": tables,
        "orders": rows(orders_df, order_columns),
        "dice": [e.value for e in result.events if e.kind == "die"],
        "expect": {
            "results": [
                {"status": by_row[r].status.value.replace("partly applied", "partial"),
                 "reason": by_row[r].reason} if r in by_row else {"status": "ignored"}
                for r in orders_df.index if not all(
                    values.is_blank(orders_df.at[r, c]) for c in order_columns)],
            "tables": expected_tables,
            **({"rows": {tab: rows(result.after.tables[tab], input_tables[tab].names)
                         for tab in sorted(keyless)}} if keyless else {}),
            "only_changes": True,
        },
    }


def _plain(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value if isinstance(value, (int, float, str, bool)) else str(value)
