"""The Google Sheets store: a whole turn in three HTTP requests, retried safely.

1. ``spreadsheets.batchUpdate`` that adds this run's lock (spreadsheet developer metadata)
   and returns the spreadsheet's properties: tab titles, sheet ids, grid sizes, time zone,
   and every lock present, so a run that finds another live lock backs off;
2. one ``values.batchGet`` of every tab, unformatted (numbers as numbers, text as text, dates
   as serial numbers converted with the spreadsheet's time zone);
3. one ``spreadsheets.batchUpdate`` that grows grids where rows are added, writes every
   changed cell (text as ``stringValue``, so it can never become a formula; cleared cells as
   empty) and removes the lock: atomic, all or nothing.

A turn too big for one request (over Google's recommended 2 MB, see
:mod:`~sheetmaster.stores.gsheets_batches`) goes out in several, in an order that keeps it
safe: the first marks the write as unfinished (developer metadata) and starts the undo
snapshot, whose header row is written last of it; then the game's cells, the Game tab's last;
the final request removes the mark and the lock. A run that finds the mark of a run that is no
longer live puts the game back from a complete snapshot (or, if the snapshot was never
finished, knows that no game cell was touched) before it reads the game.

Every request is idempotent or identified by this run's id, so tenacity retries them on 408,
429, 5xx and connection errors with jittered exponential back-off under an overall deadline.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

import requests
from gspread.exceptions import APIError
from tenacity import (
    RetryError,
    Retrying,
    retry_if_exception,
    stop_after_delay,
    wait_random_exponential,
)

from sheetmaster import values
from sheetmaster.model import GameState, TurnResult
from sheetmaster.report import cell_changes
from sheetmaster.ruleset import Ruleset
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.google_auth import redact
from sheetmaster.stores.gsheets_batches import (
    MAX_PAYLOAD,
    WRITE_KEY,
    batches,
    clear_write_markers,
    payload_size,
    write_marker,
)
from sheetmaster.stores.xlsx import read_sheet_rows
from sheetmaster.tabs import GAME_TAB

LOCK_KEY = "sheetmaster-lock"
#: a hidden tab holding what the last resolve overwrote, for `sheetmaster undo`.
UNDO_TAB = "sheetmaster undo"
UNDO_HEADER = ["turn", "tab", "row", "column", "value", "to row"]
#: the "column" of an undo row that stands for whole rows the turn added.
ADDED_ROWS = "(added rows)"
#: how long a run may hold the lock; past that it was left by a run that died (the nightly
#: job's own time limit is 20 minutes).
LOCK_TTL_SECONDS = 20 * 60
RETRY_STATUS = {408, 429, 500, 502, 503, 504}
T = TypeVar("T")
log = logging.getLogger("sheetmaster")


def _retryable(exc: BaseException) -> bool:
    if isinstance(exc, APIError):
        return _status(exc) in RETRY_STATUS
    return isinstance(exc, (requests.ConnectionError, requests.Timeout))


def _status(exc: APIError) -> int:
    code = getattr(exc, "code", None)
    if isinstance(code, int):
        return code
    response = getattr(exc, "response", None)
    return getattr(response, "status_code", 0) or 0


@dataclass
class RetryPolicy:
    """Jittered exponential back-off, given up after ``deadline`` seconds in all."""

    deadline: float = 300.0
    first_wait: float = 0.5
    max_wait: float = 30.0
    attempts: int = field(default=0, init=False)

    def call(self, what: str, request: Callable[[], T]) -> T:
        retrying = Retrying(
            retry=retry_if_exception(_retryable),
            wait=wait_random_exponential(multiplier=self.first_wait, max=self.max_wait),
            stop=stop_after_delay(self.deadline),
            reraise=False,
        )
        try:
            for attempt in retrying:
                with attempt:
                    self.attempts += 1
                    return request()
        except RetryError as exc:
            last = exc.last_attempt.exception()
            raise StoreError(f"Google Sheets kept failing while {what} for "
                             f"{self.deadline:.0f} s ({_describe(last)}); nothing more was "
                             f"sent, try again later") from None
        except APIError as exc:
            raise StoreError(f"Google Sheets refused {what}: {_describe(exc)}") from None
        raise AssertionError("unreachable")


def _describe(exc: BaseException | None) -> str:
    if isinstance(exc, APIError):
        error = getattr(exc, "error", {}) or {}
        status = error.get("status") or ""
        message = error.get("message") or str(exc)
        return redact(f"{_status(exc)} {status}: {message}".strip())
    return redact(f"{type(exc).__name__}: {exc}") if exc else "unknown error"


@dataclass
class Tab:
    title: str
    sheet_id: int
    rows: int
    columns: int
    header: list[str] = field(default_factory=list)


class SheetsStore:
    """A game kept in a Google Sheet, read and written through gspread's HTTP client."""

    def __init__(self, spreadsheet_id: str, client: Any, *, retry: RetryPolicy | None = None,
                 run_id: str | None = None, lock_ttl: float = LOCK_TTL_SECONDS,
                 max_payload: int = MAX_PAYLOAD) -> None:
        self.spreadsheet_id = spreadsheet_id
        self.http = client.http_client
        self.retry = retry or RetryPolicy()
        self.run_id = run_id or secrets.token_hex(8)
        self.lock_ttl = lock_ttl
        #: the largest request body sent, in bytes; a bigger write is split.
        self.max_payload = max_payload
        #: write marks ("RUN TURN") of runs that stopped in the middle of a split write.
        self.unfinished: list[str] = []
        #: what the store did besides the turn (a half-written turn put back), for the GM.
        self.notes: list[str] = []
        #: how many batchUpdate requests the last write took.
        self.write_requests = 0
        self.tabs: dict[str, Tab] = {}
        self.time_zone = "UTC"
        self.lock_ids: list[int] = []
        self.stale_lock_ids: list[int] = []
        #: each tab's values as read, for the undo snapshot.
        self.raw: dict[str, list[list[Any]]] = {}

    def report_path(self, turn: int) -> Path:
        """Where the players' report of ``turn`` goes by default: the working folder."""
        return Path(f"turn-{turn}-report.md")

    # -- request 1: lock and metadata ------------------------------------------------------
    def lock(self) -> None:
        """Take the game's lock and learn its tabs; raises if another run holds it."""
        now = int(time.time())
        body = {
            "requests": [{"createDeveloperMetadata": {"developerMetadata": {
                "metadataKey": LOCK_KEY,
                "metadataValue": f"{self.run_id} {now} {now + int(self.lock_ttl)}",
                "location": {"spreadsheet": True}, "visibility": "PROJECT"}}}],
            "includeSpreadsheetInResponse": True,
            "responseIncludeGridData": False,
        }
        reply = self.retry.call("taking the game's lock", lambda: self.http.batch_update(
            self.spreadsheet_id, body))
        book = reply.get("updatedSpreadsheet") or {}
        self._learn(book)
        mine, others = [], []
        marks = []
        for meta in book.get("developerMetadata") or []:
            if meta.get("metadataKey") == WRITE_KEY:
                marks.append(meta.get("metadataValue") or "")
            if meta.get("metadataKey") != LOCK_KEY:
                continue
            run, since, until = _lock_fields(meta.get("metadataValue") or "")
            entry = (int(meta["metadataId"]), run, since, until)
            (mine if run == self.run_id else others).append(entry)
        self.lock_ids = [m[0] for m in mine]
        live = [o for o in others if now < o[3]]
        self.stale_lock_ids = [o[0] for o in others if now >= o[3]]
        if live:
            self.unlock()
            since = datetime.fromtimestamp(min(o[2] for o in live), timezone.utc)
            raise StoreError(f"another sheetmaster run has been resolving this game since "
                             f"{since:%Y-%m-%d %H:%M} UTC; this run stops without changes")
        self.unfinished = [m for m in marks if m.split(" ")[0] != self.run_id]

    def _learn(self, book: dict[str, Any]) -> None:
        self.time_zone = (book.get("properties") or {}).get("timeZone") or "UTC"
        for sheet in book.get("sheets") or []:
            props = sheet.get("properties") or {}
            grid = props.get("gridProperties") or {}
            self.tabs[props.get("title", "")] = Tab(props.get("title", ""),
                                                    int(props.get("sheetId", 0)),
                                                    int(grid.get("rowCount", 0)),
                                                    int(grid.get("columnCount", 0)))

    def unlock(self) -> None:
        """Remove this run's lock (and stale ones) without writing anything else."""
        requests_ = self._unlock_requests()
        if requests_:
            self.retry.call("releasing the game's lock", lambda: self.http.batch_update(
                self.spreadsheet_id, {"requests": requests_}))
        self.lock_ids = []

    def _unlock_requests(self) -> list[dict[str, Any]]:
        return [{"deleteDeveloperMetadata": {"dataFilter": {"developerMetadataLookup": {
            "metadataId": mid}}}} for mid in self.lock_ids + self.stale_lock_ids]

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
    def load(self) -> GameState:
        """Every tab in one values.batchGet, unformatted, dates converted in the sheet's zone."""
        if not self.tabs:
            raise StoreError("the lock must be taken (which reads the tab list) before loading")
        titles = list(self.tabs)
        params = {"valueRenderOption": "UNFORMATTED_VALUE",
                  "dateTimeRenderOption": "SERIAL_NUMBER", "majorDimension": "ROWS"}
        reply = self.retry.call("reading the game", lambda: self.http.values_batch_get(
            self.spreadsheet_id, [_quote(t) for t in titles], params=params))
        tables = {}
        for title, value_range in zip(titles, reply.get("valueRanges") or []):
            rows = [list(r) for r in value_range.get("values") or []]
            self.raw[title] = rows
            if title == UNDO_TAB:
                continue  # sheetmaster's own, not part of the game
            tables[title] = read_sheet_rows(rows)
            self.tabs[title].header = [values.fold(values.text(h)) for h in (rows[0] if rows
                                                                            else [])]
        if self.unfinished:
            self._recover()
            return self.load()
        return GameState(tables, {"sheet_timezone": self.time_zone})

    def _recover(self) -> None:
        """Put back the game a run left half-written, from its undo snapshot.

        The snapshot is complete once its header row is there (written last of it, before any
        game cell); without it, no game cell was written and only the snapshot is dropped."""
        rows = self.raw.get(UNDO_TAB, [])
        header = [values.fold(values.text(h)) for h in (rows[0] if rows else [])]
        complete = header[:len(UNDO_HEADER)] == UNDO_HEADER
        restore = _cell_requests(self._restore_cells(rows[1:])) if complete else []
        final = [self._clear_undo_tab()] if UNDO_TAB in self.tabs else []
        final.append(clear_write_markers())
        self._write(restore, "putting back a turn an earlier run left half-written",
                    turn=0, final=final, release=False)
        self.notes.append(
            f"an earlier run stopped while writing turn "
            f"{' '.join(self.unfinished[0].split(' ')[1:2]) or '?'}; "
            + ("the game was put back as it was before it" if complete else
               "it had not changed the game yet"))
        log.warning(self.notes[-1])
        self.unfinished = []

    def apply(self, requests_: list[dict[str, Any]], what: str, *,
              release: bool = True) -> None:
        """Send ``requests_`` and release the lock, in one atomic batchUpdate.

        An attempt whose answer was lost (timeout, dropped connection, 5xx) may have been
        applied all the same; its retry is then refused (the undo tab it adds exists by now).
        Since only this batch removes this run's lock, a lock that is gone means it was
        applied: that is checked (one more request) before a refused retry is reported.
        """
        body = {"requests": requests_ + (self._unlock_requests() if release else [])}
        attempts = self.retry.attempts
        try:
            self.retry.call(what, lambda: self.http.batch_update(self.spreadsheet_id, body))
        except StoreError:
            if not (release and self.lock_ids and self.retry.attempts - attempts > 1
                    and self._lock_released()):
                raise
        if release:
            self.lock_ids = []

    def _write(self, requests_: list[dict[str, Any]], what: str, *, turn: int,
               final: list[dict[str, Any]] | None = None, release: bool = True) -> int:
        """``requests_`` then ``final`` (and the lock's release): in one atomic batchUpdate
        when it fits ``max_payload``, else in several, the first marking the write unfinished
        and the last (with ``final``) removing the mark. Returns the requests sent."""
        final = final or []
        tail = self._unlock_requests() if release else []
        unmark = [] if clear_write_markers() in final else [clear_write_markers()]
        if payload_size({"requests": requests_ + final + tail}) <= self.max_payload:
            self.apply(requests_ + final, what, release=release)
            return 1
        parts = batches([write_marker(self.run_id, turn), *requests_], self.max_payload,
                        [*final, *unmark])
        for i, part in enumerate(parts[:-1]):
            self._send_part(part, f"{what} (request {i + 1} of {len(parts)})", first=i == 0)
        self.apply(parts[-1], f"{what} (request {len(parts)} of {len(parts)})",
                   release=release)
        return len(parts)

    def _send_part(self, part: list[dict[str, Any]], what: str, *, first: bool) -> None:
        """One request of a split write; every request but the first is idempotent, and a
        refused retry of the first is fine when its mark is there (it was applied)."""
        attempts = self.retry.attempts
        try:
            self.retry.call(what, lambda: self.http.batch_update(
                self.spreadsheet_id, {"requests": part}))
        except StoreError as exc:
            if first and self.retry.attempts - attempts > 1 and self._marked():
                return
            raise StoreError(f"{exc}; the turn is half written: the next run puts the game "
                             f"back as it was before this one") from None

    def _marked(self) -> bool:
        """Whether this run's write mark is on the spreadsheet (False if unknown)."""
        try:
            reply = self.retry.call("checking whether the write began", lambda:
                                    self.http.fetch_sheet_metadata(
                                        self.spreadsheet_id,
                                        params={"fields": "developerMetadata"}))
        except StoreError:
            return False
        return any(m.get("metadataKey") == WRITE_KEY and
                   (m.get("metadataValue") or "").split(" ")[0] == self.run_id
                   for m in reply.get("developerMetadata") or [])

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
        batchUpdate, or several in a safe order when that would pass ``max_payload``.
        Returns the number of cells written."""
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
        undo = _merge_blank_runs(undo)
        for title, rows in added.items():
            undo.append([result.turn, title, min(rows), ADDED_ROWS, "", max(rows)])
        game = self.tabs.get(names.get(GAME_TAB, GAME_TAB))
        self.write_requests = self._write(
            self._undo_requests(undo) + self._grow_requests(last_row) +
            _cell_requests(cells, last=game.sheet_id if game else None),
            "writing the turn", turn=result.turn)
        return len(changes)

    def _undo_requests(self, rows: list[list[Any]]) -> list[dict[str, Any]]:
        """Replace the undo tab's content with ``rows`` (adding the hidden tab if needed);
        the header row is written last, so a snapshot with a header is a whole one."""
        body = [UNDO_HEADER, *rows]
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
        for first, part in ((1, body[1:]), (0, body[:1])):
            if part:
                out.append({"updateCells": {
                    "start": {"sheetId": tab.sheet_id, "rowIndex": first, "columnIndex": 0},
                    "rows": [{"values": [{"userEnteredValue": cell_value(v)} for v in r]}
                             for r in part],
                    "fields": "userEnteredValue"}})
        return out

    def _clear_undo_tab(self) -> dict[str, Any]:
        return {"updateCells": {"range": {"sheetId": self.tabs[UNDO_TAB].sheet_id},
                                "fields": "userEnteredValue"}}

    def undo(self) -> int:
        """Put back what the last resolve overwrote (the lock must be held and the game read).

        Returns the turn that is being played again.
        """
        rows = self.raw.get(UNDO_TAB, [])[1:]
        if not rows:
            raise StoreError("there is nothing to undo: no resolve has been recorded")
        turn = int(float(rows[0][0]))
        self._write(_cell_requests(self._restore_cells(rows)), "undoing the last turn",
                    turn=turn, final=[self._clear_undo_tab()])
        return turn

    def _restore_cells(self, rows: list[list[Any]]) -> dict[tuple[int, int], dict[int, Any]]:
        """The cells an undo snapshot's rows put back: (sheet id, column) -> row -> value."""
        cells: dict[tuple[int, int], dict[int, Any]] = defaultdict(dict)
        for entry in rows:
            entry = entry + [""] * (len(UNDO_HEADER) - len(entry))
            _, title, row, column, value, to_row = entry[:6]
            tab = self._tab(str(title))
            if column == ADDED_ROWS:
                for r in range(int(float(row)), int(float(to_row)) + 1):
                    for c in range(len(tab.header)):
                        cells[(tab.sheet_id, c)][r] = ""
            else:
                _, c = self._column(str(title), str(column))
                last = int(float(to_row)) if not values.is_blank(to_row) else int(float(row))
                for r in range(int(float(row)), last + 1):
                    cells[(tab.sheet_id, c)][r] = value
        return cells

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


def _cell_requests(cells: dict[tuple[int, int], dict[int, Any]],
                   last: int | None = None) -> list[dict[str, Any]]:
    """One updateCells per run of consecutive changed rows in one column; the tab whose
    sheet id is ``last`` (the Game tab, which says the turn moved on) comes last."""
    out = []
    for (sheet_id, column), by_row in sorted(cells.items(),
                                             key=lambda kv: (kv[0][0] == last, kv[0])):
        rows = sorted(by_row)
        start = 0
        while start < len(rows):
            end = start
            while end + 1 < len(rows) and rows[end + 1] == rows[end] + 1:
                end += 1
            out.append({"updateCells": {
                "start": {"sheetId": sheet_id, "rowIndex": rows[start] - 1,
                          "columnIndex": column},
                "rows": [{"values": [{"userEnteredValue": cell_value(by_row[r])}]}
                         for r in rows[start:end + 1]],
                "fields": "userEnteredValue"}})
            start = end + 1
    return out


def _merge_blank_runs(entries: list[list[Any]]) -> list[list[Any]]:
    """Undo entries of consecutive rows of one column that were all blank become one entry
    (row .. to row), so clearing 5,000 result cells costs one line, not 5,000."""
    out: list[list[Any]] = []
    for entry in sorted(entries, key=lambda e: (e[1], e[3], e[2])):
        last = out[-1] if out else None
        if (last is not None and values.is_blank(entry[4]) and values.is_blank(last[4])
                and last[1] == entry[1] and last[3] == entry[3] and last[5] + 1 == entry[2]):
            last[5] = entry[2]
        else:
            out.append(entry)
    return out


def _lock_fields(value: str) -> tuple[str, int, int]:
    """(run id, taken at, expires at) of a lock's value 'RUN TAKEN EXPIRES'."""
    parts = value.split()
    run = parts[0] if parts else ""
    try:
        since = int(parts[1]) if len(parts) > 1 else 0
        until = int(parts[2]) if len(parts) > 2 else since + LOCK_TTL_SECONDS
    except ValueError:
        return run, 0, 0  # unreadable: treat as stale
    return run, since, until


def cell_value(value: Any) -> dict[str, Any]:
    """A cell's userEnteredValue: text is always stringValue (never a formula)."""
    if values.is_blank(value):
        return {}
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, (int, float)):
        return {"numberValue": value}
    return {"stringValue": str(value)}


def _quote(title: str) -> str:
    return "'" + title.replace("'", "''") + "'"
