"""``sheetmaster init``: lay out a Google Sheet for a ruleset, in one atomic batchUpdate.

Adds the missing tabs with their headers and frozen header rows, a "How to write orders" tab,
dropdowns for order kinds and player names, the Game settings (ruleset, turn 1, the
commitment to turn 1's dice, the spreadsheet's time zone), the hidden undo tab, and protects
every tab but the players' orders (the GM orders tab too: GM-only orders must not be
writable by players) so that only the GM and the account that runs the nightly
job can edit them. Tabs that already hold data are left as they are, but protected; running
``init`` again updates the protections' editors rather than adding a second protection (which
Google refuses). Then it binds the game to its tabs: a signed record of each tab's sheetId
and protection (:mod:`.gsheets_binding`), in a second request.

With ``form_tab`` (a Google Form's responses tab, whose rows carry a Timestamp and a verified
Email Address), orders are read from that tab; sheetmaster adds its turn/result/reason
columns to it and protects it (the Form still writes to it; players must not), and the
Players tab gets an ``email`` column mapping addresses to players.

With ``orders_sheet`` (a second spreadsheet only the GM and the job's account may open), the
orders tab (or the Form's responses tab) and an undo tab of its own are laid out, protected
and bound there instead (:mod:`.gsheets_orders`), and the Game tab names it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from sheetmaster.kit import values
from sheetmaster.kit.fairness import DiceSecretError, turn_dice
from sheetmaster.kit.orders import PLAYER, REASON, RESULT, TURN
from sheetmaster.kit.ruleset import Ruleset, player_name_columns
from sheetmaster.kit.schema import Table
from sheetmaster.kit.tabs import (
    DICE_COMMITMENT,
    GAME_TAB,
    GM_ORDERS_TAB,
    ORDERS_SHEET,
    ORDERS_SHEET_HELP,
    ORDERS_TAB,
    SETTINGS,
    all_tables,
    calendar_settings,
    check_tab_names,
    near_tab,
    orders_table,
)
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.gsheets import SheetsStore, Tab, cell_value
from sheetmaster.stores.gsheets_binding import (
    BIND_KEY,
    TAB_FIELDS,
    Binding,
    Bound,
    is_tab_protection,
    latest_binding,
    protection_editors,
)
from sheetmaster.stores.gsheets_cells import delete_metadata, protect_request
from sheetmaster.stores.gsheets_undo import UNDO_HEADER, UNDO_TAB

HOWTO_TAB = "How to write orders"
ORDER_ROWS = 5000


@dataclass
class InitPlan:
    """What init will do, for the report and for tests."""

    added_tabs: list[str] = field(default_factory=list)
    kept_tabs: list[str] = field(default_factory=list)
    protected: list[str] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    #: the tabs the game is bound to, in this spreadsheet.
    bound: list[str] = field(default_factory=list)
    #: what the GM should know (a tab left that is no longer read).
    notes: list[str] = field(default_factory=list)


def plan_init(store: SheetsStore, ruleset: Ruleset, *, editors: list[str],
              form_tab: str | None = None, existing: dict[str, list[list[Any]]],
              secret: str, orders_sheet: str | None = None,
              orders_title: str = ORDERS_TAB) -> InitPlan:
    """The requests that lay the sheet out; ``existing`` is each tab's current values,
    ``editors`` who may edit the protected tabs (the GM and the nightly job's account), and
    ``secret`` the game's dice secret (for turn 1's dice commitment); ``orders_sheet``: the
    second spreadsheet the orders tab lives in (laid out by :func:`plan_orders`);
    ``orders_title``: the players' orders tab, if the Game tab names another than Orders."""
    plan = InitPlan()
    next_id = max([t.sheet_id for t in store.tabs.values()] + [0]) + 1
    tables = list(all_tables(ruleset))
    _check_names(store, [HOWTO_TAB, *(t.tab for t in tables), form_tab or "", orders_title])
    for index, table in enumerate([None, *tables]):
        title = HOWTO_TAB if table is None else \
            orders_title if table.tab == ORDERS_TAB else table.tab
        if table is not None and table.tab == ORDERS_TAB and orders_sheet:
            if _existing(store, form_tab or ORDERS_TAB) is not None:
                plan.notes.append(f"tab {form_tab or ORDERS_TAB!r} of this spreadsheet is no "
                                  f"longer read (orders come from {orders_sheet}) and every "
                                  f"player can read it: delete it")
            continue  # laid out in the orders spreadsheet
        if table is not None and table.tab == ORDERS_TAB and form_tab:
            plan.requests += _form_tab(store, plan, table, form_tab, existing, editors)
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
                                       "columnCount": max(26, len(_header(table, form_tab))
                                                          if table else 0),
                                       "frozenRowCount": 1}}}})
                plan.added_tabs.append(title)
            else:
                sheet_id = tab.sheet_id
                plan.requests.append(_freeze(sheet_id))
                plan.kept_tabs.append(title)
            rows = _howto_rows(ruleset) if table is None else [_header(table, form_tab)]
            if table is not None and table.starter_rows:
                rows += [[r.get(c) for c in rows[0]] for r in table.starter_rows]
            if table is not None and table.tab == GAME_TAB:
                rows += _game_rows(ruleset, store.time_zone, form_tab, secret, orders_sheet)
            plan.requests.append(_write(sheet_id, 0, 0, rows))
            if table is not None and table.tab == ORDERS_TAB:
                plan.requests += _dropdowns(ruleset, sheet_id, _header(table, None))
        if table is not None and table.tab == GAME_TAB and title in plan.kept_tabs:
            plan.requests += _settings_kept(sheet_id, existing.get(title, []), {
                "orders tab": form_tab, ORDERS_SHEET: orders_sheet})
        if table is None or not table.player_input or table.tab == GM_ORDERS_TAB:
            plan.requests += _protect(tab, sheet_id, title, editors)
            plan.protected.append(title)
        if table is not None:
            plan.bound.append(title)
    plan.requests += _undo_tab(store, next_id, editors)
    plan.protected.append(UNDO_TAB)
    plan.bound.append(UNDO_TAB)
    return plan


def plan_orders(store: SheetsStore, ruleset: Ruleset, *, editors: list[str],
                form_tab: str | None, existing: dict[str, list[list[Any]]],
                orders_title: str = ORDERS_TAB) -> InitPlan:
    """The requests that lay out a game's orders spreadsheet (only the GM and the job's
    account open it): the orders tab (``orders_title``), or the Form's responses tab, and an
    undo tab, every one protected and bound."""
    plan = InitPlan()
    table = orders_table(ruleset.order_columns)
    _check_names(store, [orders_title, form_tab or ""])
    if form_tab:
        plan.requests += _form_tab(store, plan, table, form_tab, existing, editors)
    else:
        title = orders_title
        tab = _existing(store, title)
        sheet_id = tab.sheet_id if tab is not None else \
            max([t.sheet_id for t in store.tabs.values()] + [0]) + 1
        if tab is None:
            plan.requests.append({"addSheet": {"properties": {
                "sheetId": sheet_id, "title": title, "index": 0, "gridProperties": {
                    "rowCount": ORDER_ROWS, "columnCount": max(26, len(_header(table, None))),
                    "frozenRowCount": 1}}}})
            plan.added_tabs.append(title)
        else:
            plan.kept_tabs.append(title)
        if not existing.get(title):
            header = _header(table, None)
            plan.requests += [_write(sheet_id, 0, 0, [header]),
                              *_dropdowns(ruleset, sheet_id, header, players=False)]
        plan.requests += _protect(tab, sheet_id, title, editors)
        plan.protected.append(title)
        plan.bound.append(title)
    next_id = max([t.sheet_id for t in store.tabs.values()] + [0]) + 2
    plan.requests += _undo_tab(store, next_id, editors)
    plan.protected.append(UNDO_TAB)
    plan.bound.append(UNDO_TAB)
    return plan


def _form_tab(store: SheetsStore, plan: InitPlan, table: Table, form_tab: str,
              existing: dict[str, list[list[Any]]], editors: list[str]
              ) -> list[dict[str, Any]]:
    """A Form's responses tab: sheetmaster's columns added, protected (Google Forms still
    writes to a protected tab; a player must not, or they could post as anyone) and bound."""
    out = _form_columns(store, table, form_tab, existing.get(form_tab, []))
    tab = _existing(store, form_tab)
    assert tab is not None  # _form_columns refused a missing one
    out += _protect(tab, tab.sheet_id, form_tab, editors)
    plan.kept_tabs.append(form_tab)
    plan.protected.append(form_tab)
    plan.bound.append(form_tab)
    return out


def _check_names(store: SheetsStore, wanted: list[str]) -> None:
    """No two tabs named alike, and no tab named like one init needs but not exactly."""
    check_tab_names(store.tabs)
    for title in filter(None, wanted):
        near = near_tab(store.tabs, title)
        if near is not None:
            raise StoreError(f"tab {near!r} should be named exactly {title!r} (sheetmaster "
                             f"matches tab names exactly): rename it and run init again")


def _settings_kept(sheet_id: int, rows: list[list[Any]], wanted: dict[str, str | None]
                   ) -> list[dict[str, Any]]:
    """A kept Game tab's settings set to ``wanted`` (None: left as they are), each in its
    row, or a new row below the others."""
    header = [values.fold(values.text(h)) for h in (rows[0] if rows else [])]
    if "setting" not in header or "value" not in header:
        return []
    at, column = header.index("setting"), header.index("value")
    keys = [values.fold(values.text(r[at])) if len(r) > at else "" for r in rows]
    out, end = [], len(rows)
    for key, value in wanted.items():
        if value is None:
            continue
        if key in keys:
            out.append(_write(sheet_id, keys.index(key), column, [[value]]))
            continue
        helps = {**{k: h for k, (_, h) in SETTINGS.items()}, ORDERS_SHEET: ORDERS_SHEET_HELP}
        row = [""] * len(header)
        row[at], row[column] = key, value
        if "help" in header:
            row[header.index("help")] = helps.get(key, "")
        out.append(_write(sheet_id, end, 0, [row]))
        end += 1
    return out


def bind_requests(store: SheetsStore, plan: InitPlan, secret: str,
                  game: str | None = None) -> list[dict[str, Any]]:
    """The requests that bind the game to the tabs ``plan`` laid out (read again now that
    Google has given each protection its id): the signed record, and the old ones gone."""
    book = store.retry.call("reading the tabs laid out", lambda: store.http.fetch_sheet_metadata(
        store.spreadsheet_id, params={"fields": TAB_FIELDS}))
    store._learn(book)
    tabs: dict[str, Bound] = {}
    editors: dict[str, str] = {}
    for title in plan.bound:
        tab = store.tabs.get(title)
        if tab is None:
            raise StoreError(f"tab {title!r} is not in the spreadsheet after init laid it out")
        protection = None
        if title in plan.protected:
            found = next((p for p in tab.protections if is_tab_protection(p)), None)
            if found is None:
                raise StoreError(f"tab {title!r} is not protected after init protected it")
            protection = int(found["protectedRangeId"])
            editors.update({e.casefold(): e for e in protection_editors(found) or ()})
        tabs[title] = Bound(tab.sheet_id, protection)
    metadata = book.get("developerMetadata") or []
    game = game or store.spreadsheet_id
    earlier = latest_binding(metadata, store.spreadsheet_id, secret, game)
    made = max(time.time_ns() // 1_000_000, earlier.made + 1 if earlier else 0)
    binding = Binding(game, made, tabs, tuple(sorted(editors.values(), key=str.casefold)))
    old = [delete_metadata(int(m["metadataId"])) for m in metadata
           if m.get("metadataKey") == BIND_KEY]
    return [*old, {"createDeveloperMetadata": {"developerMetadata": {
        "metadataKey": BIND_KEY, "metadataValue": binding.value(store.spreadsheet_id, secret),
        "location": {"spreadsheet": True}, "visibility": "DOCUMENT"}}}]


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


def _existing(store: SheetsStore, title: str) -> Tab | None:
    return store.tabs.get(title)


def _header(table: Table, form_tab: str | None) -> list[str]:
    starters = {k for r in table.starter_rows for k in r}
    columns = [c.name for c in table.columns if not c.optional or c.owned or c.name in starters]
    if form_tab and (table.key == PLAYER or table.lists_players) and "email" not in columns:
        columns.append("email")
    return columns


def _game_rows(ruleset: Ruleset, time_zone: str, form_tab: str | None, secret: str,
               orders_sheet: str | None = None) -> list[list[Any]]:
    first = ruleset.first_turn
    chosen = {"ruleset": ruleset.name, "turn": first, "timezone": time_zone,
              "orders tab": form_tab or "", DICE_COMMITMENT: turn_dice(secret, first).commitment}
    settings = {**SETTINGS, **ruleset.setting_rows()}
    chosen.update(calendar_settings(ruleset, first, {key: default for key, (default, _)
                                             in settings.items()}))
    rows = [[key, chosen.get(key, default), help_text]
            for key, (default, help_text) in settings.items()]
    return rows + ([[ORDERS_SHEET, orders_sheet, ORDERS_SHEET_HELP]] if orders_sheet else [])


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
        raise StoreError(f"the spreadsheet has no tab '{form_tab}' (link the form first)")
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


def _dropdowns(ruleset: Ruleset, sheet_id: int, header: list[str], *, players: bool = True
               ) -> list[dict[str, Any]]:
    """Dropdowns of order kinds and (``players``: in the game's own spreadsheet, where the
    players tab is) player names."""
    out = []
    kinds = [{"userEnteredValue": k.name} for k in ruleset.order_kinds]
    table = ruleset.players_table() if players else None
    players_tab = table.tab if table is not None else None
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


def lay_out(store: SheetsStore, ruleset: Ruleset, editors: list[str], secret: str, *,
            form_tab: str | None = None, orders_sheet: str | None = None,
            new_secret: bool = False) -> list[tuple[str, InitPlan]]:
    """``init``'s work: the orders spreadsheet (if any) laid out and bound, then the game's
    own; a form tab and an orders spreadsheet named by an earlier init are kept. Returns
    (label, plan) of each spreadsheet. ``new_secret``: ``secret`` was made just now, which
    is refused for a spreadsheet that already holds a game."""
    store.binding_required = False  # init is what binds the game: it reads every tab
    plans = []
    with store.locked():
        existing = read_existing(store)
        if new_secret and len(existing.get(GAME_TAB) or []) > 1:
            raise DiceSecretError(
                "this spreadsheet already holds a game: set SHEETMASTER_DICE_SECRET to its "
                "dice secret before running init again (init binds the game to its tabs with "
                "a key from it, and a new secret would fit neither the game's dice "
                "commitment nor its runs). Nothing was changed")
        named, orders_sheet = kept_intake(existing, form_tab, orders_sheet)
        orders = type(store)(orders_sheet, store.client, retry=store.retry, secret=secret,
                             account=store.account, game=store.spreadsheet_id) \
            if orders_sheet else None
        there = survey(orders) if orders is not None else existing
        # a tab the Game tab names is a Form's if it takes e-mails; else the players' own
        orders_title = ORDERS_TAB
        if named and not form_tab and not takes_emails(there.get(named)):
            named, orders_title = None, named
        form_tab = named
        if orders is not None:
            plan = plan_orders(orders, ruleset, editors=editors, form_tab=form_tab,
                               existing=there, orders_title=orders_title)
            orders.apply(plan.requests, "laying out the orders spreadsheet", release=False)
            orders.apply(bind_requests(orders, plan, secret, store.spreadsheet_id),
                         "binding the game to its orders tab", release=False)
            plans.append((f"orders spreadsheet {orders_sheet}: ", plan))
        plan = plan_init(store, ruleset, editors=editors, form_tab=form_tab,
                         existing=existing, secret=secret, orders_sheet=orders_sheet,
                         orders_title=orders_title)
        store.apply(plan.requests, "laying out the sheet", release=False)
        store.apply(bind_requests(store, plan, secret), "binding the game to its tabs")
        plans.insert(0, ("", plan))
    return plans


def kept_intake(existing: dict[str, list[list[Any]]], form_tab: str | None,
                orders_sheet: str | None) -> tuple[str | None, str | None]:
    """The form tab and orders spreadsheet init is given, or else those the Game tab names
    (init run again keeps them)."""
    rows = existing.get(GAME_TAB) or []
    settings = {values.fold(values.text(r[0])): values.text(r[1]) for r in rows[1:]
                if len(r) > 1}
    return (form_tab or settings.get("orders tab") or None,
            (orders_sheet or "").strip() or settings.get(ORDERS_SHEET) or None)


def takes_emails(rows: list[list[Any]] | None) -> bool:
    """Whether a tab's header has a verified sender's address (a Google Form's)."""
    header = {values.fold(values.text(h)) for h in (rows[0] if rows else [])}
    return bool(header & {"email", "email address"})


def survey(store: SheetsStore) -> dict[str, list[list[Any]]]:
    """A spreadsheet's tabs (without a lock: an orders spreadsheet is the GM's alone) and
    each one's current values."""
    book = store.retry.call("reading the tab list", lambda: store.http.fetch_sheet_metadata(
        store.spreadsheet_id, params={"fields": TAB_FIELDS}))
    store._learn(book)
    check_tab_names(store.tabs)
    store.bound = None
    return read_existing(store)


def read_existing(store: SheetsStore) -> dict[str, list[list[Any]]]:
    """Each tab's current values (one read), to tell empty tabs from the GM's data."""
    state = store.load(orders_sheet=False)
    return {title: ([list(df.columns)] + df.values.tolist()) if len(df.columns) else []
            for title, df in state.tables.items()}
