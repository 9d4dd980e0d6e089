"""The Google Sheets store: a whole turn in three HTTP requests, retried safely.

1. ``spreadsheets.batchUpdate`` that adds this run's lock (spreadsheet developer metadata,
   DOCUMENT-visible so that runs with other credentials see it too, signed with a key from
   the dice secret so that a lock a player forges is ignored) and returns the spreadsheet's
   properties: tab titles, sheet ids, grid sizes, protections, time zone, and every lock
   present, so a run that finds another live lock backs off;
2. one ``values.batchGet`` of every tab as typed (``FORMULA``: a formula reads as its text,
   so a formula a player types is refused as on a workbook; numbers unformatted, dates as
   serial numbers), and only when some tab holds formulas, one more read of those tabs'
   values;
3. one ``spreadsheets.batchUpdate`` that grows grids where rows are added, writes every
   changed cell (text as ``stringValue``, so it can never become a formula; cleared cells as
   empty; a formula in a players' tab becomes its text, as on a workbook), the signed undo
   snapshot, and removes this run's lock: atomic, all or nothing. Locks left by crashed runs
   are removed afterwards, one by one, and one another run removed first is no failure.

Every request is idempotent or identified by this run's id, so tenacity retries them on 408,
429, 5xx and connection errors with jittered exponential back-off under an overall deadline.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from sheetmaster import values
from sheetmaster.engine import all_tables
from sheetmaster.fairness import derived_key, sign
from sheetmaster.model import GameState, TurnResult
from sheetmaster.report import cell_changes
from sheetmaster.ruleset import Ruleset
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.google_auth import service_account_email
from sheetmaster.stores.gsheets_cells import (
    cell_requests,
    cell_value,
    delete_metadata,
    is_formula,
    merge_blank_runs,
    protect_request,
    quote,
)
from sheetmaster.stores.gsheets_retry import RETRY_STATUS, RetryPolicy
from sheetmaster.stores.gsheets_undo import (
    ADDED_ROWS,
    UNDO_HEADER,
    UNDO_TAB,
    read_snapshot,
    snapshot_rows,
)
from sheetmaster.stores.xlsx import read_sheet_rows

__all__ = ["ADDED_ROWS", "LOCK_KEY", "RETRY_STATUS", "RetryPolicy", "SheetsStore", "UNDO_HEADER",
           "UNDO_TAB", "cell_value"]

LOCK_KEY = "sheetmaster-lock"
#: how long a run may hold the lock; past that it was left by a run that died (the nightly
#: job's own time limit is 20 minutes).
LOCK_TTL_SECONDS = 20 * 60


@dataclass
class Tab:
    title: str
    sheet_id: int
    rows: int
    columns: int
    header: list[str] = field(default_factory=list)
    #: the tab's protected ranges, as spreadsheets.get shows them to this run.
    protections: list[dict[str, Any]] = field(default_factory=list)


class SheetsStore:
    """A game kept in a Google Sheet, read and written through gspread's HTTP client.

    ``secret`` is the game's dice secret: it signs this run's lock and the undo snapshot
    (without it, locks cannot be told from forged ones and a snapshot cannot be undone).
    ``account`` is the Google account this run acts as (default: the credentials' service
    account), made an editor of the undo tab's protection if the store adds that tab.
    """

    def __init__(self, spreadsheet_id: str, client: Any, *, retry: RetryPolicy | None = None,
                 run_id: str | None = None, lock_ttl: float = LOCK_TTL_SECONDS,
                 secret: str | None = None, account: str | None = None) -> None:
        self.spreadsheet_id = spreadsheet_id
        self.http = client.http_client
        self.retry = retry or RetryPolicy()
        self.run_id = run_id or secrets.token_hex(8)
        self.lock_ttl = lock_ttl
        self.secret = secret
        self.account = account or service_account_email(getattr(self.http, "auth", None))
        self.tabs: dict[str, Tab] = {}
        self.time_zone = "UTC"
        self.lock_ids: list[int] = []
        self.stale_lock_ids: list[int] = []
        #: each tab's values as read, for the undo snapshot.
        self.raw: dict[str, list[list[Any]]] = {}
        #: each tab's formula cells as typed: (sheet row, 0-based column) -> '=...'.
        self.formulas: dict[str, dict[tuple[int, int], str]] = {}

    def report_path(self, turn: int) -> Path:
        """Where the players' report of ``turn`` goes by default: the working folder."""
        return Path(f"turn-{turn}-report.md")

    # -- request 1: lock and metadata ------------------------------------------------------
    def lock(self) -> None:
        """Take the game's lock and learn its tabs; raises if another run holds it."""
        now = int(time.time())
        body = {
            "requests": [{"createDeveloperMetadata": {"developerMetadata": {
                "metadataKey": LOCK_KEY, "metadataValue": self._lock_value(now),
                "location": {"spreadsheet": True}, "visibility": "DOCUMENT"}}}],
            "includeSpreadsheetInResponse": True,
            "responseIncludeGridData": False,
        }
        reply = self.retry.call("taking the game's lock", lambda: self.http.batch_update(
            self.spreadsheet_id, body))
        book = reply.get("updatedSpreadsheet") or {}
        self._learn(book)
        mine, others = [], []
        for meta in book.get("developerMetadata") or []:
            if meta.get("metadataKey") != LOCK_KEY:
                continue
            run, since, until, signed = self._lock_fields(meta.get("metadataValue") or "")
            entry = (int(meta["metadataId"]), run, since, until, signed)
            (mine if run == self.run_id else others).append(entry)
        self.lock_ids = [m[0] for m in mine]
        live = [o for o in others if o[4] and now < o[3]]
        self.stale_lock_ids = [o[0] for o in others if not (o[4] and now < o[3])]
        if live:
            self.unlock()
            since = datetime.fromtimestamp(min(o[2] for o in live), timezone.utc)
            raise StoreError(f"another sheetmaster run has been resolving this game since "
                             f"{since:%Y-%m-%d %H:%M} UTC; this run stops without changes")

    def _lock_value(self, now: int) -> str:
        """'RUN TAKEN EXPIRES SIGNATURE': the signature (from the dice secret) shows the lock
        was taken by a sheetmaster run of this game, not typed in by a player."""
        value = f"{self.run_id} {now} {now + int(self.lock_ttl)}"
        return f"{value} {self._lock_signature(value)}" if self.secret else value

    def _lock_signature(self, value: str) -> str:
        key = derived_key(self.secret or "", "run lock")
        return sign(key, f"{self.spreadsheet_id} {value}")[:32]

    def _lock_fields(self, value: str) -> tuple[str, int, int, bool]:
        """(run id, taken at, expires at, trusted) of a lock's value. Without the secret a
        lock cannot be checked and is trusted; with it, only a correctly signed one is."""
        parts = value.split()
        run = parts[0] if parts else ""
        try:
            since = int(parts[1]) if len(parts) > 1 else 0
            until = int(parts[2]) if len(parts) > 2 else since + LOCK_TTL_SECONDS
        except ValueError:
            return run, 0, 0, False  # unreadable: stale
        trusted = not self.secret or (
            len(parts) > 3 and parts[3] == self._lock_signature(" ".join(parts[:3])))
        return run, since, until, trusted

    def _learn(self, book: dict[str, Any]) -> None:
        self.time_zone = (book.get("properties") or {}).get("timeZone") or "UTC"
        for sheet in book.get("sheets") or []:
            props = sheet.get("properties") or {}
            grid = props.get("gridProperties") or {}
            self.tabs[props.get("title", "")] = Tab(props.get("title", ""),
                                                    int(props.get("sheetId", 0)),
                                                    int(grid.get("rowCount", 0)),
                                                    int(grid.get("columnCount", 0)),
                                                    protections=sheet.get("protectedRanges")
                                                    or [])

    def unlock(self) -> None:
        """Remove this run's lock without writing anything else, then stale locks."""
        requests_ = self._unlock_requests()
        if requests_:
            self.retry.call("releasing the game's lock", lambda: self.http.batch_update(
                self.spreadsheet_id, {"requests": requests_}))
        self.lock_ids = []
        self._drop_stale_locks()

    def _unlock_requests(self) -> list[dict[str, Any]]:
        return [delete_metadata(mid) for mid in self.lock_ids]

    def _drop_stale_locks(self) -> None:
        """Remove locks left by crashed runs (or forged), each on its own: another run may
        have removed one already, which Google refuses, and that is no failure."""
        for mid in self.stale_lock_ids:
            with contextlib.suppress(StoreError):
                RetryPolicy(deadline=min(self.retry.deadline, 10.0)).call(
                    "removing a stale lock", lambda mid=mid: self.http.batch_update(
                        self.spreadsheet_id, {"requests": [delete_metadata(mid)]}))
        self.stale_lock_ids = []

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the lock for the block; a block that fails still releases it."""
        self.lock()
        try:
            yield
        finally:
            if self.lock_ids:
                with contextlib.suppress(StoreError):
                    self.unlock()

    # -- request 2: read -------------------------------------------------------------------
    def look(self) -> GameState:
        """Read the game without the lock, as anyone who may view the sheet can (for
        ``sheetmaster verify``)."""
        book = self.retry.call("reading the tab list", lambda: self.http.fetch_sheet_metadata(
            self.spreadsheet_id, params={"fields": "properties.timeZone,sheets.properties"}))
        self._learn(book)
        return self.load()

    def load(self) -> GameState:
        """Every tab as typed, in one values.batchGet (formula text, not its result); the
        values of formula cells in one more read, only if a tab holds any."""
        if not self.tabs:
            raise StoreError("the lock must be taken (which reads the tab list) before loading")
        titles = list(self.tabs)
        typed = self._read(titles, "FORMULA")
        with_formulas = [t for t in titles if any(is_formula(v) for r in typed[t] for v in r)]
        computed = self._read(with_formulas, "UNFORMATTED_VALUE") if with_formulas else {}
        tables = {}
        for title in titles:
            rows = computed.get(title, typed[title])
            self.raw[title] = rows
            self.formulas[title] = {(r, c): v for r, row in enumerate(typed[title][1:], start=2)
                                    for c, v in enumerate(row) if is_formula(v)}
            if title == UNDO_TAB:
                continue  # sheetmaster's own, not part of the game
            tables[title] = df = read_sheet_rows(rows)
            header = list(df.columns)
            if self.formulas[title]:
                df.attrs["formulas"] = {(r, header[c]): text for (r, c), text
                                        in self.formulas[title].items() if c < len(header)}
            self.tabs[title].header = [values.fold(values.text(h)) for h in (rows[0] if rows
                                                                            else [])]
        return GameState(tables, {"sheet_timezone": self.time_zone})

    def _read(self, titles: list[str], render: str) -> dict[str, list[list[Any]]]:
        params = {"valueRenderOption": render, "dateTimeRenderOption": "SERIAL_NUMBER",
                  "majorDimension": "ROWS"}
        reply = self.retry.call("reading the game", lambda: self.http.values_batch_get(
            self.spreadsheet_id, [quote(t) for t in titles], params=params))
        ranges = reply.get("valueRanges") or []
        return {title: [list(r) for r in (value_range.get("values") or [])]
                for title, value_range in zip(titles, ranges)}

    def apply(self, requests_: list[dict[str, Any]], what: str) -> None:
        """Send ``requests_`` and release the lock, in one atomic batchUpdate.

        An attempt whose answer was lost (timeout, dropped connection, 5xx) may have been
        applied all the same; its retry is then refused (the undo tab it adds exists by now).
        Since only this batch removes this run's lock, a lock that is gone means it was
        applied: that is checked (one more request) before a refused retry is reported.
        """
        body = {"requests": requests_ + self._unlock_requests()}
        attempts = self.retry.attempts
        try:
            self.retry.call(what, lambda: self.http.batch_update(self.spreadsheet_id, body))
        except StoreError:
            if not (self.lock_ids and self.retry.attempts - attempts > 1
                    and self._lock_released()):
                raise
        self.lock_ids = []
        self._drop_stale_locks()

    def _lock_released(self) -> bool:
        """Whether none of this run's locks is left on the spreadsheet (False if unknown)."""
        try:
            reply = self.retry.call("checking whether the write went through", lambda:
                                    self.http.fetch_sheet_metadata(
                                        self.spreadsheet_id,
                                        params={"fields": "developerMetadata"}))
        except StoreError:
            return False
        present = {int(m.get("metadataId", 0)) for m in reply.get("developerMetadata") or []
                   if m.get("metadataKey") == LOCK_KEY}
        return not present & set(self.lock_ids)

    # -- request 3: write ------------------------------------------------------------------
    def save(self, ruleset: Ruleset, result: TurnResult) -> int:
        """Write every changed cell, the undo snapshot, and release the lock: one atomic
        batchUpdate. Returns the number of cells written."""
        names = result.before.meta.get("tab_names", {})
        columns: dict[tuple[str, str], tuple[Tab, int]] = {}
        cells: dict[tuple[int, int], dict[int, Any]] = defaultdict(dict)
        last_row: dict[int, int] = defaultdict(int)
        undo: list[list[Any]] = []
        added: dict[str, list[int]] = {}
        changes = cell_changes(ruleset, result)
        for change in changes:
            where = columns.get((change.tab, change.column))
            if where is None:
                where = columns[(change.tab, change.column)] = self._column(
                    names.get(change.tab, change.tab), change.column)
            tab, column = where
            cells[(tab.sheet_id, column)][change.row] = change.after
            if change.row > last_row[tab.sheet_id]:
                last_row[tab.sheet_id] = change.row
            raw = self.raw.get(tab.title, [])
            if change.row <= len(raw):
                row = raw[change.row - 1]
                was = row[column] if column < len(row) else ""
                undo.append([result.turn, tab.title, change.row, change.column, was,
                             change.row])
            else:
                added.setdefault(tab.title, []).append(change.row)
        undo = merge_blank_runs(undo)
        for title, rows in added.items():
            undo.append([result.turn, title, min(rows), ADDED_ROWS, "", max(rows)])
        self._formulas_to_text(ruleset, names, cells)
        self.apply(self._grow_requests(last_row) + cell_requests(cells) +
                   self._undo_requests(result.turn, undo), "writing the turn")
        return len(changes)

    def _formulas_to_text(self, ruleset: Ruleset, names: dict[str, str],
                          cells: dict[tuple[int, int], dict[int, Any]]) -> None:
        """Players' tabs hold text only: a formula typed into one is written back as its text
        (as on a workbook), unless the turn writes that cell anyway."""
        for table in all_tables(ruleset):
            if not table.player_input:
                continue
            tab = self._tab(names.get(table.tab, table.tab))
            for (row, column), text in self.formulas.get(tab.title, {}).items():
                cells[(tab.sheet_id, column)].setdefault(row, text)

    def _undo_requests(self, turn: int, rows: list[list[Any]]) -> list[dict[str, Any]]:
        """Replace the undo tab's content with ``rows`` and their digest (adding the hidden,
        protected tab if the game has none yet)."""
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
            out.append({"updateCells": {"range": {"sheetId": tab.sheet_id},
                                        "fields": "userEnteredValue"}})
            out.append({"updateSheetProperties": {
                "properties": {"sheetId": tab.sheet_id, "gridProperties": {
                    "rowCount": max(len(body), 1), "columnCount": len(UNDO_HEADER)}},
                "fields": "gridProperties.rowCount,gridProperties.columnCount"}})
        out.append({"updateCells": {
            "start": {"sheetId": tab.sheet_id, "rowIndex": 0, "columnIndex": 0},
            "rows": [{"values": [{"userEnteredValue": cell_value(v)} for v in r]}
                     for r in body],
            "fields": "userEnteredValue"}})
        if not tab.protections and self.account:
            out.append(protect_request(tab.sheet_id, UNDO_TAB, [self.account]))
            tab.protections = [{"range": {"sheetId": tab.sheet_id}}]
        return out

    def undo(self, current_turn: int | None = None) -> int:
        """Put back what the last resolve overwrote (the lock must be held and the game read),
        if its snapshot's digest shows it is the one sheetmaster wrote.

        Returns the turn that is being played again.
        """
        snapshot = read_snapshot(self.spreadsheet_id, self.raw.get(UNDO_TAB, []), self.secret,
                                 current_turn)
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
        undo_tab = self.tabs[UNDO_TAB]
        clear = {"updateCells": {"range": {"sheetId": undo_tab.sheet_id},
                                 "fields": "userEnteredValue"}}
        self.apply(cell_requests(cells) + [clear], "undoing the last turn")
        return snapshot.turn

    def _column(self, tab_name: str, column: str) -> tuple[Tab, int]:
        tab = self._tab(tab_name)
        folded = values.fold(column)
        if folded not in tab.header:
            raise StoreError(f"tab '{tab.title}' has no column '{column}'")
        return tab, tab.header.index(folded)

    def _tab(self, name: str) -> Tab:
        for title, tab in self.tabs.items():
            if values.fold(title) == values.fold(name):
                return tab
        raise StoreError(f"the spreadsheet has no tab '{name}'")

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
