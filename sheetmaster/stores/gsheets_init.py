"""``sheetmaster init``: lay out a Google Sheet for a ruleset, in one atomic batchUpdate.

Adds the missing tabs with their headers and frozen header rows, a "How to write orders" tab,
dropdowns for order kinds and player names, the Game settings (ruleset, turn 1, the
commitment to turn 1's dice, the spreadsheet's time zone), the hidden undo tab, and protects
every tab but the players' orders so that only the GM and the account that runs the nightly
job can edit them. Tabs that already hold data are left as they are, but protected; running
``init`` again updates the protections' editors rather than adding a second protection (which
Google refuses).

With ``form_tab`` (a Google Form's responses tab, whose rows carry a Timestamp and a verified
Email Address), orders are read from that tab; sheetmaster adds its turn/result/reason
columns to it, and the Players tab gets an ``email`` column mapping addresses to players.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sheetmaster import values
from sheetmaster.engine import DICE_COMMITMENT, all_tables, game_settings
from sheetmaster.fairness import turn_dice
from sheetmaster.orders import PLAYER, REASON, RESULT, TURN
from sheetmaster.ruleset import Ruleset, player_name_columns
from sheetmaster.schema import Table
from sheetmaster.stores.gsheets import SheetsStore, Tab, cell_value
from sheetmaster.stores.gsheets_cells import protect_request
from sheetmaster.stores.gsheets_undo import UNDO_HEADER, UNDO_TAB
from sheetmaster.tabs import GAME_TAB, ORDERS_TAB, SETTINGS

HOWTO_TAB = "How to write orders"
ORDER_ROWS = 5000


@dataclass
class InitPlan:
    """What init will do, for the report and for tests."""

    added_tabs: list[str] = field(default_factory=list)
    kept_tabs: list[str] = field(default_factory=list)
    protected: list[str] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)


def plan_init(store: SheetsStore, ruleset: Ruleset, *, editors: list[str],
              form_tab: str | None = None, existing: dict[str, list[list[Any]]],
              secret: str) -> InitPlan:
    """The requests that lay the sheet out; ``existing`` is each tab's current values,
    ``editors`` who may edit the protected tabs (the GM and the nightly job's account), and
    ``secret`` the game's dice secret (for turn 1's dice commitment)."""
    plan = InitPlan()
    next_id = max([t.sheet_id for t in store.tabs.values()] + [0]) + 1
    tables = list(all_tables(ruleset))
    for index, table in enumerate([None, *tables]):
        title = HOWTO_TAB if table is None else table.tab
        if table is not None and table.tab == ORDERS_TAB and form_tab:
            plan.requests += _form_columns(store, table, form_tab, existing.get(form_tab, []))
            plan.kept_tabs.append(form_tab)
            continue
        tab = _existing(store, title)
        if tab is not None and existing.get(tab.title):
            plan.kept_tabs.append(tab.title)
            title, sheet_id = tab.title, tab.sheet_id
        else:
            if tab is None:
                sheet_id = next_id
                next_id += 1
                plan.requests.append({"addSheet": {"properties": {
                    "sheetId": sheet_id, "title": title, "index": index,
                    "gridProperties": {"rowCount": ORDER_ROWS if title == ORDERS_TAB else 1000,
                                       "columnCount": 26, "frozenRowCount": 1}}}})
                plan.added_tabs.append(title)
            else:
                sheet_id = tab.sheet_id
                plan.requests.append(_freeze(sheet_id))
                plan.kept_tabs.append(title)
            rows = _howto_rows(ruleset) if table is None else [_header(table, form_tab)]
            if table is not None and table.starter_rows:
                rows += [[r.get(c) for c in rows[0]] for r in table.starter_rows]
            if table is not None and table.tab == GAME_TAB:
                rows += _game_rows(ruleset, store.time_zone, form_tab, secret)
            plan.requests.append(_write(sheet_id, 0, 0, rows))
            if table is not None and table.tab == ORDERS_TAB:
                plan.requests += _dropdowns(ruleset, sheet_id, _header(table, None))
        if table is None or not table.player_input:
            plan.requests += _protect(tab, sheet_id, title, editors)
            plan.protected.append(title)
    plan.requests += _undo_tab(store, next_id, editors)
    plan.protected.append(UNDO_TAB)
    return plan


def _undo_tab(store: SheetsStore, sheet_id: int, editors: list[str]) -> list[dict[str, Any]]:
    """The hidden tab for undo snapshots, added now so that it is protected from the start."""
    tab = _existing(store, UNDO_TAB)
    if tab is not None:
        return _protect(tab, tab.sheet_id, tab.title, editors)
    return [{"addSheet": {"properties": {
        "sheetId": sheet_id, "title": UNDO_TAB, "hidden": True,
        "gridProperties": {"rowCount": 1, "columnCount": len(UNDO_HEADER)}}}},
        _write(sheet_id, 0, 0, [UNDO_HEADER]), protect_request(sheet_id, UNDO_TAB, editors)]


def _protect(tab: Tab | None, sheet_id: int, title: str, editors: list[str]
             ) -> list[dict[str, Any]]:
    """Protect a whole tab for ``editors``; a tab protected already (a sheet has one
    whole-sheet protection at most) keeps its protection, with these editors added."""
    current = next((p for p in (tab.protections if tab is not None else [])
                    if set(p.get("range") or {}) <= {"sheetId"} and "namedRangeId" not in p),
                   None)
    if current is None:
        return [protect_request(sheet_id, title, editors)]
    users = list((current.get("editors") or {}).get("users") or [])
    wanted = users + [e for e in editors if e and e.casefold() not in
                      {u.casefold() for u in users}]
    if wanted == users and not current.get("warningOnly"):
        return []
    return [{"updateProtectedRange": {"protectedRange": {
        "protectedRangeId": current["protectedRangeId"], "warningOnly": False,
        "editors": {"users": wanted}}, "fields": "editors,warningOnly"}}]


def _existing(store: SheetsStore, title: str):
    for name, tab in store.tabs.items():
        if values.fold(name) == values.fold(title):
            return tab
    return None


def _header(table: Table, form_tab: str | None) -> list[str]:
    starters = {k for r in table.starter_rows for k in r}
    columns = [c.name for c in table.columns if not c.optional or c.owned or c.name in starters]
    if form_tab and (table.key == PLAYER or table.lists_players) and "email" not in columns:
        columns.append("email")
    return columns


def _game_rows(ruleset: Ruleset, time_zone: str, form_tab: str | None, secret: str
               ) -> list[list[Any]]:
    first = ruleset.first_turn
    chosen = {"ruleset": ruleset.name, "turn": first, "timezone": time_zone,
              "orders tab": form_tab or "", DICE_COMMITMENT: turn_dice(secret, first).commitment}
    settings = {**SETTINGS, **ruleset.setting_rows()}
    chosen.update(game_settings(ruleset, first, {key: default for key, (default, _)
                                             in settings.items()}))
    return [[key, chosen.get(key, default), help_text]
            for key, (default, help_text) in settings.items()]


def _howto_rows(ruleset: Ruleset) -> list[list[Any]]:
    rows: list[list[Any]] = [[f"How to write orders ({ruleset.title})"], []]
    rows += [[paragraph] for paragraph in ruleset.howto]
    rows += [[], ["order", "what it does", "columns to fill"]]
    for kind in ruleset.order_kinds:
        fields = ", ".join(f.column + ("" if f.required else " (optional)")
                           for f in kind.fields)
        rows.append([kind.name, kind.help, fields])
    return rows


def _form_columns(store: SheetsStore, table: Table, form_tab: str,
                  rows: list[list[Any]]) -> list[dict[str, Any]]:
    """Add sheetmaster's columns (turn, result, reason) right of a form's responses."""
    tab = _existing(store, form_tab)
    if tab is None:
        raise ValueError(f"the spreadsheet has no tab '{form_tab}' (link the form first)")
    header = [values.fold(values.text(h)) for h in (rows[0] if rows else [])]
    missing = [c for c in (TURN, RESULT, REASON) if c not in header]
    if not missing:
        return []
    return [_write(tab.sheet_id, 0, len(header), [missing])]


def _write(sheet_id: int, row: int, column: int, rows: list[list[Any]]) -> dict[str, Any]:
    return {"updateCells": {
        "start": {"sheetId": sheet_id, "rowIndex": row, "columnIndex": column},
        "rows": [{"values": [{"userEnteredValue": cell_value(v)} for v in r]} for r in rows],
        "fields": "userEnteredValue"}}


def _freeze(sheet_id: int) -> dict[str, Any]:
    return {"updateSheetProperties": {
        "properties": {"sheetId": sheet_id, "gridProperties": {"frozenRowCount": 1}},
        "fields": "gridProperties.frozenRowCount"}}


def _dropdowns(ruleset: Ruleset, sheet_id: int, header: list[str]) -> list[dict[str, Any]]:
    out = []
    kinds = [{"userEnteredValue": k.name} for k in ruleset.order_kinds]
    players = ruleset.players_table()
    players_tab = players.tab if players is not None else None
    player_columns = player_name_columns(ruleset)
    for column, name in enumerate(header):
        if name == "order":
            condition = {"type": "ONE_OF_LIST", "values": kinds}
        elif name in player_columns and players_tab:
            condition = {"type": "ONE_OF_RANGE",
                         "values": [{"userEnteredValue": f"='{players_tab}'!A2:A"}]}
        else:
            continue
        out.append({"setDataValidation": {
            "range": {"sheetId": sheet_id, "startRowIndex": 1, "endRowIndex": ORDER_ROWS,
                      "startColumnIndex": column, "endColumnIndex": column + 1},
            "rule": {"condition": condition, "showCustomUi": True, "strict": False}}})
    return out


def read_existing(store: SheetsStore) -> dict[str, list[list[Any]]]:
    """Each tab's current values (one batchGet), to tell empty tabs from the GM's data."""
    state = store.load()
    return {title: ([list(df.columns)] + df.values.tolist()) if len(df.columns) else []
            for title, df in state.tables.items()}
