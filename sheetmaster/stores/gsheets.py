"""The Google Sheets store: a whole turn in three HTTP requests, retried safely.

1. ``spreadsheets.batchUpdate`` that adds this run's lock (spreadsheet developer metadata,
   DOCUMENT-visible so that runs with other credentials see it too, signed with a key from
   the dice secret so that a lock a player forges is ignored) and returns the spreadsheet's
   properties: tab titles, sheet ids, grid sizes, protections, time zone, every lock
   present, so a run that finds another live lock backs off, and the record of the tabs
   ``init`` bound the game to (:mod:`.gsheets_binding`), so a look-alike tab is never read;
2. one ``values.batchGetByDataFilter`` of every bound tab, by sheetId, as typed
   (``FORMULA``: a formula reads as its text, so a formula a player types is refused as on a
   workbook; numbers unformatted, dates as serial numbers), and only when some tab holds
   formulas, one more read of those tabs' values;
3. one ``spreadsheets.batchUpdate`` that grows grids where rows are added, writes every
   changed cell (text as ``stringValue``, so it can never become a formula; cleared cells as
   empty; a formula in a players' tab becomes its text, as on a workbook; a column's run of
   one value as one ``repeatCell``, see :mod:`.gsheets_encode`), the signed undo snapshot,
   and removes this run's lock: atomic, all or nothing. Locks left by crashed runs are
   removed afterwards, one by one, and one another run removed first is no failure.

A game whose Game tab names an ``orders sheet`` reads and writes its orders tab in that
second, GM-only spreadsheet: see :mod:`.gsheets_orders`.

A write over ``max_payload`` (Google recommends 2 MB a request at most) goes in several
requests, in an order that a crash cannot leave mixed, most of its cells in RAW values writes
(a cell costs its value, not forty bytes of CellData): see :mod:`.gsheets_split`.

Every request is idempotent or identified by this run's id, so tenacity retries them on 408,
429, 5xx and connection errors with jittered exponential back-off under an overall deadline.
"""

from __future__ import annotations

import re
import secrets
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gspread.urls import SPREADSHEETS_API_V4_BASE_URL

from sheetmaster.kit import values
from sheetmaster.kit.changes import ColumnChanges, column_changes
from sheetmaster.kit.model import GameState, TurnResult
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.tabs import GAME_TAB, ORDERS_TAB, all_tables
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.google_auth import service_account_email
from sheetmaster.stores.gsheets_batches import BATCH, MAX_PAYLOAD, Part, request_json
from sheetmaster.stores.gsheets_binding import TAB_FIELDS, Binding, TabBinding
from sheetmaster.stores.gsheets_cells import (
    cell_value,
    is_formula,
    protect_request,
)
from sheetmaster.stores.gsheets_encode import Cells
from sheetmaster.stores.gsheets_lock import LOCK_KEY, LOCK_TTL_SECONDS, RunLock
from sheetmaster.stores.gsheets_orders import OrdersSheet
from sheetmaster.stores.gsheets_retry import RETRY_STATUS, RetryPolicy
from sheetmaster.stores.gsheets_split import RESOLVE, UNDO, Mark, SplitWrites
from sheetmaster.stores.gsheets_undo import (
    ADDED_ROWS,
    UNDO_HEADER,
    UNDO_TAB,
    Snapshot,
    merge_runs,
    read_snapshot,
    snapshot_digest,
    snapshot_rows,
)
from sheetmaster.stores.xlsx import read_sheet_rows

#: what a turn changed: (the table's tab, the changed cells of one of its columns).
Changes = list[tuple[str, ColumnChanges]]

__all__ = ["ADDED_ROWS", "LOCK_KEY", "RETRY_STATUS", "RetryPolicy", "SheetsStore", "UNDO_HEADER",
           "UNDO_TAB", "cell_value"]

#: text that begins with "=" in a JSON answer (Google writes "=" as \u003d).
_MAY_BE_FORMULA = re.compile(rb'"(=|\\u003[dD])')


def _formula_cells(rows: list[list[Any]]) -> dict[tuple[int, int], str]:
    """(sheet row, 0-based column) -> '=...' of every formula in a tab's typed ``rows``."""
    return {(r, c): v for r, row in enumerate(rows, start=1) for c, v in enumerate(row)
            if is_formula(v)}


@dataclass
class Tab:
    title: str
    sheet_id: int
    rows: int
    columns: int
    header: list[str] = field(default_factory=list)
    #: the tab's protected ranges, as spreadsheets.get shows them to this run.
    protections: list[dict[str, Any]] = field(default_factory=list)


class SheetsStore(RunLock, TabBinding, OrdersSheet, SplitWrites):
    """A game kept in a Google Sheet, read and written through gspread's HTTP client.

    ``secret`` is the game's dice secret: it signs this run's lock and the undo snapshot
    (without it, locks cannot be told from forged ones and a snapshot cannot be undone), and
    checks the record of the tabs the game is bound to (without it, tabs are read by their
    exact names).
    ``account`` is the Google account this run acts as (default: the credentials' service
    account), made an editor of the undo tab's protection if the store adds that tab.
    ``max_payload``: the largest request body to send, in bytes; a bigger write is split.
    """

    def __init__(self, spreadsheet_id: str, client: Any, *, retry: RetryPolicy | None = None,
                 run_id: str | None = None, lock_ttl: float = LOCK_TTL_SECONDS,
                 secret: str | None = None, account: str | None = None,
                 max_payload: int = MAX_PAYLOAD, game: str | None = None) -> None:
        self.spreadsheet_id = spreadsheet_id
        #: the game's own spreadsheet (another one's for an orders spreadsheet).
        self.game = game or spreadsheet_id
        self.client = client
        self.http = client.http_client
        self.retry = retry or RetryPolicy()
        self.run_id = run_id or secrets.token_hex(8)
        self.lock_ttl = lock_ttl
        self.secret = secret
        self.account = account or service_account_email(getattr(self.http, "auth", None))
        self.max_payload = max_payload
        self.unfinished: list[Mark] = []
        self.notes: list[str] = []
        #: how many batchUpdate requests the last write took.
        self.write_requests = 0
        self.tabs: dict[str, Tab] = {}
        #: the tabs init bound the game to (None: read by exact names, without the secret).
        self.bound: Binding | None = None
        #: the store of the game's orders spreadsheet, if its Game tab names one.
        self.orders: SheetsStore | None = None
        #: False for ``init``, which lays the game out and binds it: every tab is read.
        self.binding_required = True
        self.time_zone = "UTC"
        self.lock_ids: list[int] = []
        self.stale_lock_ids: list[int] = []
        #: each tab's values as read, for the undo snapshot.
        self.raw: dict[str, list[list[Any]]] = {}
        #: each tab's formula cells as typed: (sheet row, 0-based column) -> '=...'.
        self.formulas: dict[str, dict[tuple[int, int], str]] = {}
        #: each tab's rows as read (formulas included): the rows past it are blank.
        self.extent: dict[str, int] = {}

    def report_path(self, turn: int) -> Path:
        """Where the players' report of ``turn`` goes by default: the working folder."""
        return Path(f"turn-{turn}-report.md")

    # -- request 1 (the lock, :mod:`.gsheets_lock`) tells the tabs --------------------------
    def _learn(self, book: dict[str, Any]) -> None:
        self.time_zone = (book.get("properties") or {}).get("timeZone") or "UTC"
        self.tabs = {}
        for sheet in book.get("sheets") or []:
            props = sheet.get("properties") or {}
            grid = props.get("gridProperties") or {}
            self.tabs[props.get("title", "")] = Tab(props.get("title", ""),
                                                    int(props.get("sheetId", 0)),
                                                    int(grid.get("rowCount", 0)),
                                                    int(grid.get("columnCount", 0)),
                                                    protections=sheet.get("protectedRanges")
                                                    or [])

    # -- request 2: read -------------------------------------------------------------------
    def look(self) -> GameState:
        """Read the game without the lock, as anyone who may view the sheet can (for
        ``sheetmaster verify``)."""
        book = self.retry.call("reading the tab list", lambda: self.http.fetch_sheet_metadata(
            self.spreadsheet_id, params={"fields": TAB_FIELDS}))
        self._learn(book)
        self._bind(book.get("developerMetadata") or [])
        return self.load(orders_sheet=False)  # a player may not open it: verify says so

    def load(self, *, orders_sheet: bool = True) -> GameState:
        """Every tab as typed, in one read (formula text, not its result); the values of
        formula cells in one more read, only if a tab holds any. A turn an earlier run left
        half-written is put right first (see :mod:`.gsheets_split`). ``orders_sheet``: read
        the orders from the orders spreadsheet the Game tab names, if any."""
        if not self.tabs:
            raise StoreError("the lock must be taken (which reads the tab list) before loading")
        titles = self.read_titles()
        typed, any_formula = self._read(titles, "FORMULA")
        found = {t: _formula_cells(typed[t]) if any_formula else {} for t in titles}
        with_formulas = [t for t in titles if found[t]]
        computed = self._read(with_formulas, "UNFORMATTED_VALUE")[0] if with_formulas else {}
        tables = {}
        for title in titles:
            rows = computed.get(title, typed[title])
            self.raw[title] = rows
            self.extent[title] = len(typed[title])
            self.formulas[title] = {k: v for k, v in found[title].items() if k[0] > 1}
            if title == UNDO_TAB:
                continue  # sheetmaster's own, not part of the game
            tables[title] = df = read_sheet_rows(rows)
            header = list(df.columns)
            if self.formulas[title]:
                df.attrs["formulas"] = {(r, header[c]): text for (r, c), text
                                        in self.formulas[title].items() if c < len(header)}
            self.tabs[title].header = [values.fold(values.text(h)) for h in (rows[0] if rows
                                                                            else [])]
        unbound = [t for t in self.tabs if t not in titles]
        state = GameState(tables, {"sheet_timezone": self.time_zone, "unbound_tabs": unbound})
        if self.unfinished and self.lock_ids:
            self._recover(state)
            return self.load(orders_sheet=orders_sheet)
        return self.with_orders_sheet(state) if orders_sheet else state

    def _read(self, titles: list[str], render: str
              ) -> tuple[dict[str, list[list[Any]]], bool]:
        """The tabs' values, asked for by sheetId (a tab renamed or added meanwhile is never
        read in a bound one's place), and whether any text in them may begin with "=" (the
        answer's bytes are searched: a tab is only scanned for formulas if so)."""
        ids = {self.tabs[t].sheet_id: t for t in titles}
        body = {"dataFilters": [{"gridRange": {"sheetId": i}} for i in ids],
                "valueRenderOption": render, "dateTimeRenderOption": "SERIAL_NUMBER",
                "majorDimension": "ROWS"}
        url = f"{SPREADSHEETS_API_V4_BASE_URL}/{self.spreadsheet_id}/values:batchGetByDataFilter"
        answer = self.retry.call("reading the game", lambda: self.http.request(
            "post", url, json=body))
        reply = answer.json()
        out: dict[str, list[list[Any]]] = {t: [] for t in titles}
        for found in reply.get("valueRanges") or []:
            filters = found.get("dataFilters") or [{}]
            title = ids.get((filters[0].get("gridRange") or {}).get("sheetId"))
            if title is not None:
                out[title] = (found.get("valueRange") or {}).get("values") or []
        return out, _MAY_BE_FORMULA.search(answer.content) is not None

    def apply(self, requests_: list[dict[str, Any]], what: str, *,
              release: bool = True) -> None:
        """Send ``requests_`` and (if ``release``) release the lock, in one atomic
        batchUpdate.

        An attempt whose answer was lost (timeout, dropped connection, 5xx) may have been
        applied all the same; its retry is then refused (the undo tab it adds exists by now).
        Since only this batch removes this run's lock, a lock that is gone means it was
        applied: that is checked (one more request) before a refused retry is reported.
        """
        texts = [request_json(r) for r in requests_ +
                 (self._unlock_requests() if release else [])]
        self._finish(Part(BATCH, texts), what, release=release)

    def _finish(self, part: Part, what: str, *, release: bool) -> None:
        """Send the last request of a write (see :meth:`apply`); if ``release``, it carries
        the lock's release."""
        attempts = self.retry.attempts
        try:
            self.retry.call(what, lambda: self._send(part))
        except StoreError:
            if not (release and self.lock_ids and self.retry.attempts - attempts > 1
                    and self._lock_released()):
                raise
        if not release:
            return
        self.lock_ids = []
        self._drop_stale_locks()

    def _developer_metadata(self, what: str) -> list[dict[str, Any]] | None:
        """The spreadsheet's developer metadata as this run sees it (None if unknown)."""
        try:
            reply = self.retry.call(what, lambda: self.http.fetch_sheet_metadata(
                self.spreadsheet_id, params={"fields": "developerMetadata"}))
        except StoreError:
            return None
        return reply.get("developerMetadata") or []

    # -- request 3: write ------------------------------------------------------------------
    def save(self, ruleset: Ruleset, result: TurnResult) -> int:
        """Write every changed cell, the undo snapshot, and release the lock: one atomic
        batchUpdate, or several in a safe order when that would pass ``max_payload``.
        With an orders spreadsheet, its cells go there first (see :mod:`.gsheets_orders`).
        Returns the number of cells written."""
        names = result.before.meta.get("tab_names", {})
        changes = [(table.tab, group) for table in all_tables(ruleset)
                   for group in column_changes(table, result.before, result.after)]
        moves_on = any(tab == GAME_TAB for tab, _ in changes)  # a resolve, not a check
        count = sum(len(group.rows) for _, group in changes)
        if self.orders is None:
            self._save_cells(ruleset, result, changes, names, moves_on)
            return count
        theirs = [c for c in changes if c[0] == ORDERS_TAB]
        mine = [c for c in changes if c[0] != ORDERS_TAB]
        self.orders.write_orders(ruleset, result, theirs, names, marked=moves_on)
        self._save_cells(ruleset, result, mine, names, moves_on)
        if moves_on:
            self.orders.finish_write()
        return count

    def _save_cells(self, ruleset: Ruleset, result: TurnResult, changes: Changes,
                    names: dict[str, str], moves_on: bool) -> None:
        """Write ``changes`` (this spreadsheet's) and release the lock; a turn that
        ``moves_on`` (a resolve) with its undo snapshot. A check's answers are only order
        results that no run takes for final, so they keep the last resolve's snapshot (for
        ``undo`` and ``verify``), and a check cut short by a crash is harmless."""
        cells, undo = self.collect(changes, names, result.turn)
        self._formulas_to_text(ruleset, names, cells)
        others, game = self._game_last(cells, names.get(GAME_TAB, GAME_TAB))
        last_row: dict[int, int] = defaultdict(int)
        for (sheet_id, _), by_row in cells.items():
            last_row[sheet_id] = max(last_row[sheet_id], max(by_row))
        blank_from = self._blank_from(ruleset, names)
        if not moves_on:
            self.write_requests = self._write(
                "writing the check", [others], first=self._grow_requests(last_row),
                last_cells=game, mark=None, blank_from=blank_from)
            return
        prepare, snapshot = self._undo_requests(result.turn, undo)
        self.write_requests = self._write(
            "writing the turn", [snapshot, others],
            first=prepare + self._grow_requests(last_row), last_cells=game,
            mark=Mark(self.run_id, RESOLVE, result.turn), blank_from=blank_from)

    def _blank_from(self, ruleset: Ruleset, names: dict[str, str]) -> dict[int, int]:
        """sheet id -> the first row past a tab's end, for the tabs players cannot edit (rows
        a turn adds there may be written whole, blanks included: nobody else writes them)."""
        out = {}
        for table in all_tables(ruleset):
            tab = self.tabs.get(names.get(table.tab, table.tab))
            if tab is not None and not table.player_input and tab.title in self.extent:
                out[tab.sheet_id] = self.extent[tab.title] + 1
        return out

    def collect(self, changes: Changes, names: dict[str, str], turn: int
                ) -> tuple[Cells, list[list[Any]]]:
        """The cells ``changes`` write, (sheet id, column) -> row -> value, and the undo
        snapshot's lines: what each overwrote."""
        cells: Cells = defaultdict(dict)
        undo: list[list[Any]] = []
        added: dict[str, tuple[int, int]] = {}
        for tab_name, group in changes:
            tab, column = self._column(names.get(tab_name, tab_name), group.column)
            cells[(tab.sheet_id, column)].update(zip(group.rows, group.after))
            raw = self.raw.get(tab.title, [])
            kept = [r for r in group.rows if r <= len(raw)]
            undo += [[turn, tab.title, r, group.column,
                      raw[r - 1][column] if column < len(raw[r - 1]) else "", r] for r in kept]
            if len(kept) < len(group.rows):
                new = [r for r in group.rows if r > len(raw)]
                low, high = added.get(tab.title, (min(new), max(new)))
                added[tab.title] = (min(low, min(new)), max(high, max(new)))
        undo = merge_runs(undo)
        for title, (low, high) in added.items():
            undo.append([turn, title, low, ADDED_ROWS, "", high])
        return cells, undo

    def _formulas_to_text(self, ruleset: Ruleset, names: dict[str, str],
                          cells: dict[tuple[int, int], dict[int, Any]]) -> None:
        """Players' tabs hold text only: a formula typed into one is written back as its text
        (as on a workbook), unless the turn writes that cell anyway."""
        for table in all_tables(ruleset):
            if not table.player_input or (table.tab == ORDERS_TAB and self.orders is not None):
                continue  # an orders spreadsheet's tab is written there
            tab = self._tab(names.get(table.tab, table.tab))
            for (row, column), text in self.formulas.get(tab.title, {}).items():
                cells[(tab.sheet_id, column)].setdefault(row, text)

    def _undo_requests(self, turn: int, rows: list[list[Any]]
                       ) -> tuple[list[dict[str, Any]], Cells]:
        """The requests that make the undo tab ready for a new snapshot (adding the hidden,
        protected tab if the game has none yet; else emptying it), and the snapshot's cells:
        ``rows`` and the digest line, which covers every line, so a snapshot whose digest
        matches is a whole one."""
        body = snapshot_rows(self.spreadsheet_id, turn, rows, self.secret)
        tab = self.tabs.get(UNDO_TAB)
        out: list[dict[str, Any]] = []
        if tab is None:
            sheet_id = max([t.sheet_id for t in self.tabs.values()] + [0]) + 1
            tab = self.tabs[UNDO_TAB] = Tab(UNDO_TAB, sheet_id, len(body), len(UNDO_HEADER))
            out.append({"addSheet": {"properties": {
                "sheetId": sheet_id, "title": UNDO_TAB, "hidden": True,
                "gridProperties": {"rowCount": len(body), "columnCount": len(UNDO_HEADER)}}}})
        else:
            out.append(self._clear_undo_tab())
            out.append({"updateSheetProperties": {
                "properties": {"sheetId": tab.sheet_id, "gridProperties": {
                    "rowCount": max(len(body), 1), "columnCount": len(UNDO_HEADER)}},
                "fields": "gridProperties.rowCount,gridProperties.columnCount"}})
        if not tab.protections and self.account:
            out.append(protect_request(tab.sheet_id, UNDO_TAB, [self.account]))
            tab.protections = [{"range": {"sheetId": tab.sheet_id}}]
        cells: Cells = defaultdict(dict)
        for r, line in enumerate(body, start=1):
            for c, value in enumerate(line):
                cells[(tab.sheet_id, c)][r] = value
        return out, cells

    def undo(self, current_turn: int | None = None) -> int:
        """Put back what the last resolve overwrote (the lock must be held and the game read),
        if its snapshot's digest shows it is the one sheetmaster wrote.

        Returns the turn that is being played again.
        """
        rows = self.raw.get(UNDO_TAB, [])
        snapshot = read_snapshot(self.spreadsheet_id, rows, self.secret, current_turn)
        others, game = self._game_last(self._restore_cells(snapshot))
        if self.orders is not None:
            self.orders.begin_undo(snapshot.turn)
        self.write_requests = self._write(
            "undoing the last turn", [others], last_cells=game, last=[self._clear_undo_tab()],
            mark=Mark(self.run_id, UNDO, snapshot.turn, snapshot_digest(rows)[:16]))
        if self.orders is not None:
            self.orders.finish_undo(snapshot.turn)
        return snapshot.turn

    def _restore_cells(self, snapshot: Snapshot) -> dict[tuple[int, int], dict[int, Any]]:
        """The cells a snapshot puts back: (sheet id, column) -> row -> value."""
        cells: dict[tuple[int, int], dict[int, Any]] = defaultdict(dict)
        for entry in snapshot.entries:
            tab = self._tab(entry.tab)
            if entry.column == ADDED_ROWS:
                for r in range(entry.row, entry.to_row + 1):
                    for c in range(len(tab.header)):
                        cells[(tab.sheet_id, c)][r] = ""
            else:
                _, c = self._column(entry.tab, entry.column)
                for r in range(entry.row, entry.to_row + 1):
                    cells[(tab.sheet_id, c)][r] = entry.value
        return cells

    def _column(self, tab_name: str, column: str) -> tuple[Tab, int]:
        tab = self._tab(tab_name)
        folded = values.fold(column)
        if folded not in tab.header:
            raise StoreError(f"tab '{tab.title}' has no column '{column}'")
        return tab, tab.header.index(folded)

    def _tab(self, name: str) -> Tab:
        tab = self.tabs.get(name)
        if tab is None or (self.bound is not None and name not in self.bound.tabs
                           and name != UNDO_TAB):
            raise StoreError(f"the spreadsheet has no tab '{name}' that the game is bound to")
        return tab

    def _grow_requests(self, last_row: dict[int, int]) -> list[dict[str, Any]]:
        """Grids grow to an absolute size (idempotent, unlike appendDimension)."""
        out = []
        for tab in self.tabs.values():
            rows = last_row.get(tab.sheet_id, 0)
            if rows > tab.rows:
                tab.rows = rows + 100
                out.append({"updateSheetProperties": {
                    "properties": {"sheetId": tab.sheet_id,
                                   "gridProperties": {"rowCount": tab.rows}},
                    "fields": "gridProperties.rowCount"}})
        return out
