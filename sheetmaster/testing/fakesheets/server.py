"""FakeSheetsServer: lifecycle, the gspread session/client, seeding and inspection helpers,
fault and latency injection, request recording and the response path."""

from __future__ import annotations

import contextlib
import copy
import json
import random
import socket
import threading
import time
import traceback
from collections.abc import Iterable
from datetime import datetime, timezone
from typing import Any, NamedTuple
from urllib.parse import parse_qs, unquote, urlsplit
from zoneinfo import ZoneInfo

import requests

from sheetmaster.stores.sheets_endpoint import TOKEN_HEADER, endpoint_session, redirect

from .a1 import _parse_cells
from .api import _RestApi
from .batch_metadata import _metadata_out
from .errors import _FAULT_MESSAGES, _ApiError
from .formulas import _Evaluator
from .identity import DEFAULT_OWNER, Caller, caller_from, project_of
from .masks import _apply_mask, _parse_mask
from .model import DEFAULT_COLS, DEFAULT_ROWS, _Book, _Cell, _now, _Sheet
from .transport import (
    RecordedRequest,
    _Handler,
    _HTTPServer,
    refusal,
)
from .typed_input import EPOCH
from .value_ranges import _value_range, _write
from .values import _INPUT_OPTIONS, _json_value

_FAULT_KINDS = (429, 500, 503, "timeout", "drop")


#: Google's front end refuses a request body over this many bytes.
GOOGLE_MAX_PAYLOAD = 10_485_760
#: the longest body read (and dropped) of a request that is refused; a longer one's
#: connection is closed unanswered.
_REFUSED_BODY = 65_536


class _Outcome(NamedTuple):
    status: int
    body: Any  # JSON-able, or None for an empty body


def session_for(url: str, user: str | None = None, project: str | None = None,
                token: str | None = None) -> requests.Session:
    """A requests.Session that sends Sheets and Drive API calls to ``url`` instead of Google
    (e.g. a FakeSheetsServer started by another process, with the ``token`` it printed).
    With ``user``, the calls are made as that Google account, from ``project`` (default: a
    service account's own project)."""
    headers = {TOKEN_HEADER: token} if token else {}
    if user:
        caller = Caller(user, project or project_of(user))
        headers["Authorization"] = f"Bearer {caller.token}"
    return endpoint_session(url, headers)


class FakeSheetsServer(_RestApi):
    """An in-memory Google Sheets API v4 served over HTTP on 127.0.0.1.

    Use as a context manager (or call :meth:`start` / :meth:`stop`). Attributes you may set:

    * ``latency`` -- seconds slept before every request is handled.
    * ``fault_rate`` -- probability that a request gets a random fault from ``fault_kinds``
      (seeded RNG: :meth:`seed`).
    * ``fault_kinds`` -- kinds chosen by ``fault_rate``: 429, 500, 503 (error responses),
      ``"timeout"`` (sleep ``timeout_delay`` seconds, then answer 504 DEADLINE_EXCEEDED) and
      ``"drop"`` (close the connection without any response).
    * ``timeout_delay`` -- seconds a ``"timeout"`` fault sleeps (set your client's timeout
      below it).
    * ``fault_after_apply`` -- False (default): a faulted request changes nothing. True: the
      request is applied first and only its response is lost/replaced (a "timeout" then
      answers the real response late).
    * ``token_error`` -- None (default): the token endpoint (:attr:`token_uri`) grants tokens.
      ``"invalid_grant"``: it refuses every key, as Google does a revoked one; an int: it
      answers that HTTP status.
    * ``max_payload`` -- the largest request body answered, in bytes (Google's front end
      refuses more than 10,485,760 with 400 "Request payload size exceeds the limit"); None
      for no limit.

    ``port``: the port on 127.0.0.1 to listen on (0, the default: any free one).

    Only a request addressed to it by name is answered (``Host`` 127.0.0.1 or localhost with
    its port: a web page that rebinds its own name to 127.0.0.1 gets 403). ``token``: when
    given (``sheetmaster fake-sheets serve`` makes a random one), every request must carry it
    in the ``X-Sheetmaster-Token`` header, or gets 401; :meth:`session` and :meth:`client`
    send it, and so does the CLI from ``SHEETMASTER_SHEETS_TOKEN``. None (the default, for a
    test's own server): no token is needed.
    """

    def __init__(self, *, latency: float = 0.0, seed: int = 0, port: int = 0,
                 token: str | None = None):
        self._lock = threading.RLock()
        self._books: dict[str, _Book] = {}
        self._denied: set[str] = set()
        self._pending: list[Any] = []
        self._rng = random.Random(seed)
        self._ids = random.Random(f"ids:{seed}")
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.latency = latency
        self.fault_rate = 0.0
        self.fault_kinds: tuple[Any, ...] = _FAULT_KINDS
        self.timeout_delay = 1.0
        self.fault_after_apply = False
        self.max_payload: int | None = GOOGLE_MAX_PAYLOAD
        self.requests: list[RecordedRequest] = []
        self.faults_injected: list[tuple[RecordedRequest, Any]] = []
        self.internal_errors: list[str] = []
        self.token_error: str | int | None = None
        self._in_flight = 0
        self._port = port
        self.token = token
        self._local = threading.local()

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> FakeSheetsServer:
        if self._httpd is None:
            httpd = _HTTPServer(("127.0.0.1", self._port), _Handler)
            httpd.fake = self
            self._httpd = httpd
            self._thread = threading.Thread(
                target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                name="FakeSheetsServer", daemon=True,
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        httpd, self._httpd = self._httpd, None
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> FakeSheetsServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def port(self) -> int:
        self.start()
        assert self._httpd is not None
        return self._httpd.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def token_uri(self) -> str:
        """The OAuth token endpoint: a service account key whose ``token_uri`` is this gets
        tokens naming its ``client_email`` (see :mod:`.identity`)."""
        return f"{self.url}/token"

    def session(self, user: str | None = None, project: str | None = None
                ) -> requests.Session:
        """A requests.Session that sends Sheets (and Drive) API calls to this server, as
        ``user`` from ``project`` if given (else as each spreadsheet's owner)."""
        return session_for(self.url, user, project, self.token)

    def client(self, user: str | None = None, project: str | None = None) -> Any:
        """``gspread.Client(auth=None, session=self.session(user, project))``."""
        import gspread

        return gspread.Client(auth=None, session=self.session(user, project))

    def authorized_session(self, credentials: Any) -> requests.Session:
        """A google-auth AuthorizedSession for real ``credentials`` whose Sheets and Drive
        calls come to this server (give the credentials this server's :attr:`token_uri`,
        e.g. with :func:`.identity.service_account_key`)."""
        from google.auth.transport.requests import AuthorizedSession

        session = redirect(AuthorizedSession(credentials), self.url)
        if self.token:
            session.headers[TOKEN_HEADER] = self.token
        return session

    def _caller(self) -> Caller | None:
        """Who makes the request being handled on this thread (None: no token)."""
        return getattr(self._local, "caller", None)

    # -- seeding and inspection --------------------------------------------------------------

    def create_spreadsheet(
        self,
        title: str = "Untitled spreadsheet",
        sheets: dict[str, list[list[Any]]] | Iterable[str] | None = None,
        *,
        time_zone: str = "Etc/GMT",
        locale: str = "en_US",
        rows: int = DEFAULT_ROWS,
        cols: int = DEFAULT_COLS,
        input_option: str = "RAW",
        spreadsheet_id: str | None = None,
        owner: str = DEFAULT_OWNER,
    ) -> str:
        """Create a spreadsheet; returns its id.

        ``sheets`` maps tab titles to rows of values (or is a list of titles). Each grid is
        ``rows`` x ``cols``, grown to fit the data. Values are stored as given
        (``input_option="RAW"``) or parsed like typed text (``"USER_ENTERED"``: numbers,
        TRUE/FALSE, dates, ``=`` formulas...). The first tab gets sheetId 0, like a new
        spreadsheet. ``owner`` is the Google account that owns it (it may edit every protected
        range; requests without a token act as the owner).
        """
        if input_option not in _INPUT_OPTIONS:
            raise ValueError(f"input_option must be one of {_INPUT_OPTIONS}")
        if sheets is None:
            sheets = {"Sheet1": []}
        elif not isinstance(sheets, dict):
            sheets = {name: [] for name in sheets}
        if not sheets:
            raise ValueError("a spreadsheet needs at least one sheet")
        with self._lock:
            if spreadsheet_id is None:
                alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
                spreadsheet_id = "1" + "".join(self._ids.choice(alphabet) for _ in range(43))
            if spreadsheet_id in self._books:
                raise ValueError(f"spreadsheet {spreadsheet_id} already exists")
            book = _Book(spreadsheet_id, title, time_zone, locale)
            book.owner = owner
            for index, (name, data) in enumerate(sheets.items()):
                if book.sheet_by_title(name) is not None:
                    raise ValueError(f"duplicate sheet title {name!r}")
                height = len(data)
                width = max((len(row) for row in data), default=0)
                sheet_id = 0 if index == 0 else book.new_id(s.id for s in book.sheets)
                sheet = _Sheet(sheet_id, name, index, max(rows, height), max(cols, width))
                try:
                    _write(book, sheet, 0, 0, [list(row) for row in data], input_option)
                except _ApiError as err:
                    raise ValueError(err.message) from None
                book.sheets.append(sheet)
            self._books[spreadsheet_id] = book
            return spreadsheet_id

    def _book(self, spreadsheet_id: str) -> _Book:
        book = self._books.get(spreadsheet_id)
        if book is None:
            raise KeyError(f"no spreadsheet {spreadsheet_id!r}")
        return book

    def _tab(self, spreadsheet_id: str, tab: str) -> tuple[_Book, _Sheet]:
        book = self._book(spreadsheet_id)
        sheet = next((s for s in book.sheets if s.title == tab), None)
        if sheet is None:
            raise KeyError(f"no tab {tab!r} in spreadsheet {spreadsheet_id!r}")
        return book, sheet

    def spreadsheet_ids(self) -> list[str]:
        with self._lock:
            return list(self._books)

    def delete_spreadsheet(self, spreadsheet_id: str) -> None:
        with self._lock:
            self._books.pop(spreadsheet_id, None)

    def set_values(self, spreadsheet_id: str, a1: str, rows: list[list[Any]],
                   input_option: str = "RAW") -> None:
        """Write values directly (no HTTP, no faults), growing the grid if needed."""
        with self._lock:
            book = self._book(spreadsheet_id)
            try:
                sheet, box = book.resolve(a1)
                sheet.grid["rowCount"] = max(sheet.rows, box.r0 + len(rows))
                width = max((len(row) for row in rows), default=0)
                sheet.grid["columnCount"] = max(sheet.cols, box.c0 + width)
                _write(book, sheet, box.r0, box.c0, [list(r) for r in rows], input_option)
            except _ApiError as err:
                raise ValueError(err.message) from None
            book.modified = _now()

    def submit_form(self, spreadsheet_id: str, tab: str, answers: list[Any],
                    when: datetime | None = None) -> int:
        """Append a Google Form response to ``tab`` as Forms does: its Timestamp (``when``,
        default now, as a date serial in the spreadsheet's time zone with a date-time format)
        then the answers. Returns the row number it was written to."""
        with self._lock:
            book, sheet = self._tab(spreadsheet_id, tab)
            zone = ZoneInfo(book.props.get("timeZone") or "UTC")
            moment = (when or datetime.now(timezone.utc)).astimezone(zone).replace(tzinfo=None)
            serial = (moment - EPOCH).total_seconds() / 86400
            row = max((r for (r, _), cell in sheet.cells.items() if cell.value is not None),
                      default=-1) + 1
            sheet.grid["rowCount"] = max(sheet.rows, row + 1)
            sheet.grid["columnCount"] = max(sheet.cols, 1 + len(answers))
            _write(book, sheet, row, 0, [[serial, *answers]], "RAW")
            sheet.set_value(row, 0, (serial, False, {"type": "DATE_TIME",
                                                     "pattern": "m/d/yyyy h:mm:ss"}))
            book.modified = _now()
            return row + 1

    def values(self, spreadsheet_id: str, tab: str,
               render: str = "UNFORMATTED_VALUE") -> list[list[Any]]:
        """The tab's values like values.get returns them: trailing empty rows and cells
        dropped, ``""`` for empty cells inside a row, numbers as int/float, booleans as bool
        (with ``render="FORMATTED_VALUE"``: strings, ``"FORMULA"``: formula text)."""
        with self._lock:
            book, sheet = self._tab(spreadsheet_id, tab)
            bounds = (0, sheet.rows, 0, sheet.cols)
            out = _value_range(book, sheet, bounds, "ROWS", render, _Evaluator(book))
            return out.get("values", [])

    def cell(self, spreadsheet_id: str, tab: str, a1: str) -> dict[str, Any]:
        """One cell: ``value`` (entered value; formula text for formulas, None when empty),
        ``formula`` (bool), ``effective`` (computed value), ``note``, ``data_validation``."""
        with self._lock:
            book, sheet = self._tab(spreadsheet_id, tab)
            box = _parse_cells(a1)
            if box is None or not box.single:
                raise ValueError(f"not a single cell: {a1!r}")
            cell = sheet.cells.get((box.r0, box.c0)) or _Cell()
            effective = _Evaluator(book).value(sheet, box.r0, box.c0)
            return {
                "value": cell.value,
                "formula": cell.formula,
                "effective": _json_value(effective),
                "note": cell.note,
                "data_validation": copy.deepcopy(cell.validation),
            }

    def grid_size(self, spreadsheet_id: str, tab: str) -> tuple[int, int]:
        """(rowCount, columnCount) of a tab."""
        with self._lock:
            _book, sheet = self._tab(spreadsheet_id, tab)
            return sheet.rows, sheet.cols

    def metadata(self, spreadsheet_id: str, include_grid_data: bool = False) -> dict[str, Any]:
        """What spreadsheets.get would answer (no HTTP, no access check)."""
        with self._lock:
            book = self._book(spreadsheet_id)
            return self._spreadsheet_json(book, [], include_grid_data)

    def developer_metadata(self, spreadsheet_id: str) -> list[dict[str, Any]]:
        """Every developer metadata entry of the spreadsheet, whatever its location."""
        with self._lock:
            return [_metadata_out(m) for m in self._book(spreadsheet_id).metadata]

    def deny(self, spreadsheet_id: str) -> None:
        """Make the spreadsheet answer 403 PERMISSION_DENIED (not shared with the caller)."""
        with self._lock:
            self._denied.add(spreadsheet_id)

    def allow(self, spreadsheet_id: str) -> None:
        with self._lock:
            self._denied.discard(spreadsheet_id)

    def share(self, spreadsheet_id: str, *users: str) -> None:
        """Share the spreadsheet with ``users`` alone (and its owner): anyone else who calls
        gets 403, as Google answers an account it is not shared with. A new spreadsheet is
        open to anyone (shared by link)."""
        with self._lock:
            self._book(spreadsheet_id).shared_with = frozenset(u.casefold() for u in users)

    # -- faults and counting ---------------------------------------------------------------

    def seed(self, value: int) -> None:
        """Reseed the RNG behind ``fault_rate``."""
        with self._lock:
            self._rng = random.Random(value)

    def fail_next(self, n: int = 1, status: int | str = 429) -> None:
        """Fault the next ``n`` requests: status 429/500/503 (or any 4xx/5xx), or
        ``"timeout"`` or ``"drop"``."""
        if not (status in ("timeout", "drop") or (isinstance(status, int) and status >= 400)):
            raise ValueError(f"unsupported fault: {status!r}")
        with self._lock:
            self._pending.extend([status] * n)

    def clear_faults(self) -> None:
        with self._lock:
            self._pending.clear()
            self.fault_rate = 0.0

    @property
    def request_count(self) -> int:
        with self._lock:
            return len(self.requests)

    def reset_counts(self) -> None:
        with self._lock:
            self.requests.clear()
            self.faults_injected.clear()

    def wait_idle(self, timeout: float = 10.0, quiet: float = 0.05) -> bool:
        """Wait until no request has been handled or received for ``quiet`` seconds (a
        request whose client was killed is still applied, as Google would); False if
        ``timeout`` seconds passed first."""
        end = time.monotonic() + timeout
        seen, since = -1, time.monotonic()
        while True:
            with self._lock:
                busy, count = self._in_flight, len(self.requests)
            now = time.monotonic()
            if busy or count != seen:
                seen, since = count, now
            elif now - since >= quiet:
                return True
            if now >= end:
                return False
            time.sleep(0.005)

    # -- request handling --------------------------------------------------------------------

    def _handle(self, handler: _Handler) -> None:
        with self._lock:
            self._in_flight += 1
        try:
            self._handle_one(handler)
        finally:
            with self._lock:
                self._in_flight -= 1

    def _handle_one(self, handler: _Handler) -> None:
        refused = refusal(handler.headers, self.port, self.token)
        try:
            length = int(handler.headers.get("Content-Length") or 0)
            if refused is not None and length > _REFUSED_BODY:
                raise ValueError("too long to read for a request that is refused")
            raw = handler.rfile.read(length) if length else b""
        except (OSError, ValueError):
            handler.close_connection = True
            return
        if refused is not None:  # nothing recorded, nothing done
            self._send(handler, _Outcome(refused[0], _ApiError(*refused).body()))
            return
        split = urlsplit(handler.path)
        query = parse_qs(split.query, keep_blank_values=True)
        record = RecordedRequest(handler.command, unquote(split.path), query, len(raw))
        self._local.caller = caller_from(handler.headers)
        with self._lock:
            self.requests.append(record)
        if self.latency:
            time.sleep(self.latency)
        with self._lock:
            fault = self._pending.pop(0) if self._pending else None
            if fault is None and self.fault_rate and self._rng.random() < self.fault_rate:
                fault = self._rng.choice(list(self.fault_kinds))
            if fault is not None:
                self.faults_injected.append((record, fault))
            after = self.fault_after_apply
        outcome: _Outcome | None = None
        if self.max_payload is not None and len(raw) > self.max_payload:
            outcome = _Outcome(400, _ApiError(400, f"Request payload size exceeds the limit: "
                                                   f"{self.max_payload} bytes.").body())
        elif fault is None or after:
            outcome = self._outcome(handler.command, split.path, query, raw)
        if fault is None:
            assert outcome is not None
            self._send(handler, outcome)
        elif fault == "drop":
            handler.close_connection = True
            with contextlib.suppress(OSError):
                handler.connection.shutdown(socket.SHUT_RDWR)
        elif fault == "timeout":
            time.sleep(self.timeout_delay)
            if outcome is None:
                outcome = _Outcome(504, _ApiError(504, _FAULT_MESSAGES[504]).body())
            self._send(handler, outcome)
        else:
            message = _FAULT_MESSAGES.get(fault, "Injected fault.")
            self._send(handler, _Outcome(fault, _ApiError(fault, message).body()))

    def _outcome(self, method: str, raw_path: str, query: dict[str, list[str]],
                 raw: bytes) -> _Outcome:
        try:
            status, body = self._dispatch(method, raw_path, query, raw)
            fields = query.get("fields")
            if fields and isinstance(body, dict):
                body = _apply_mask(body, _parse_mask(fields[-1]))
            return _Outcome(status, body)
        except _ApiError as err:
            return _Outcome(err.code, err.body())
        except Exception:  # a bug in the fake: answer 500 and keep the traceback
            with self._lock:
                self.internal_errors.append(traceback.format_exc())
            return _Outcome(500, _ApiError(500, _FAULT_MESSAGES[500]).body())

    @staticmethod
    def _send(handler: _Handler, outcome: _Outcome) -> None:
        data = b"" if outcome.body is None else json.dumps(outcome.body).encode()
        try:
            handler.send_response(outcome.status)
            if outcome.body is not None:
                handler.send_header("Content-Type", "application/json; charset=UTF-8")
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data)
            handler.wfile.flush()
        except OSError:
            handler.close_connection = True
