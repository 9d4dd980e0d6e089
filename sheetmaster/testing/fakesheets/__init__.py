"""A fake Google Sheets API v4, served over real HTTP on 127.0.0.1, for testing gspread code.

The real gspread client talks to it unmodified: :meth:`FakeSheetsServer.session` returns a
``requests.Session`` whose transport adapter rewrites ``https://sheets.googleapis.com/...``
(and the few Drive calls gspread makes on ``https://www.googleapis.com/drive/v3/...``) to
``http://127.0.0.1:PORT/...``. Every call goes through a real socket and a real HTTP server.

Usage::

    import gspread
    from sheetmaster.testing.fakesheets import FakeSheetsServer

    with FakeSheetsServer() as server:
        sid = server.create_spreadsheet(
            title="Game", sheets={"Orders": [["player", "order"], ["ann", "move"]]}
        )
        gc = server.client()  # same as gspread.Client(auth=None, session=server.session())
        ws = gc.open_by_key(sid).worksheet("Orders")
        assert ws.get_all_values() == [["player", "order"], ["ann", "move"]]

        ws.update([["=1+2"]], "C1", raw=False)  # USER_ENTERED: stored as a formula
        assert server.cell(sid, "Orders", "C1")["effective"] == 3

        server.fail_next(1, status=429)  # the next request gets a 429; nothing is applied
        try:
            ws.update([["x"]], "A1")
        except gspread.exceptions.APIError as err:
            assert err.code == 429
        assert server.values(sid, "Orders")[0] == ["player", "order", 3]

What is modelled:

* spreadsheets.get (properties, sheets[].properties, protectedRanges, merges, basicFilter,
  conditionalFormats, sheet and spreadsheet developerMetadata, namedRanges; grid data with
  ``includeGridData=true`` or a ``fields`` mask asking for ``sheets.data``, restricted to
  ``ranges``); ``fields`` masks (``a.b``, ``a/b``, ``a(b,c)``) are applied to every response.
* values.get / batchGet / update / batchUpdate / append / clear / batchClear, and
  batchGetByDataFilter / batchUpdateByDataFilter with ``a1Range`` and ``gridRange`` filters
  (a tab by sheetId; ``null`` values are skipped), with majorDimension,
  valueRenderOption (FORMATTED_VALUE, UNFORMATTED_VALUE, FORMULA),
  valueInputOption (RAW, USER_ENTERED), includeValuesInResponse, insertDataOption.
* spreadsheets.batchUpdate, atomically (the batch is applied to a copy that replaces the
  spreadsheet only if every request succeeded), with the request kinds listed in
  ``SUPPORTED_REQUESTS``; ``ACCEPTED_NO_OP_REQUESTS`` are validated and ignored.
* developerMetadata.get / search, sheets.copyTo, spreadsheets.create, and the Drive calls
  behind ``Client.open``, ``Client.create``, ``Client.del_spreadsheet`` and the Drive
  metadata (``list``, ``create``, ``get``, ``delete`` on ``/drive/v3/files``).
* Errors in Google's JSON shape; 403 for :meth:`FakeSheetsServer.deny`, 404 for unknown ids.
* Fault and latency injection, request recording.
* Who calls (:mod:`.identity`): ``server.client(user, project)`` calls as a Google account
  from a Cloud project; real google-auth credentials get tokens from ``server.token_uri``
  (``token_error`` makes it refuse them, as Google refuses a revoked key). A request without
  a token acts as the spreadsheet's owner.
* Developer metadata with ``PROJECT`` visibility is seen (and found by filters) only by the
  project that wrote it; ``DOCUMENT`` metadata by everyone. Deleting metadata that matches
  nothing is refused, and the whole batch with it.
* Protected ranges are enforced (:mod:`.protection`): only the owner and the range's editors
  change its cells, and a whole-sheet protection's sheet; a second whole-sheet protection of
  a sheet is refused with Google's 400. ``editors`` is shown only to those who may edit.
* USER_ENTERED text is read as Sheets reads typed text in the spreadsheet's locale
  (:mod:`.typed_input`): dates, times, thousands separators, percentages, currency and
  booleans become numbers with a number format, which FORMATTED_VALUE (and
  ``dateTimeRenderOption=FORMATTED_STRING``) renders; :meth:`FakeSheetsServer.submit_form`
  appends a Form response with its date-serial Timestamp.

Known differences from the real service (deliberate simplifications):

* Formulas are evaluated by a small built-in evaluator (arithmetic, ``&``, comparisons,
  cell/range references incl. other tabs, SUM AVERAGE MIN MAX COUNT COUNTA PRODUCT ABS ROUND
  INT MOD IF IFERROR AND OR NOT CONCATENATE CONCAT LEN UPPER LOWER TRIM). Anything else
  evaluates to ``#NAME?``; parse errors to ``#ERROR!``; circular references to ``#REF!``.
  Formula references are not rewritten when rows/columns are inserted, deleted or moved.
* USER_ENTERED knows the locales en_US, en_GB, en_AU, de_DE, fr_FR, es_ES and ja_JP (others
  read as en_US) and English month names; Sheets knows more spellings of dates. Formula
  results get no inferred number format.
* FORMATTED_VALUE renders the number formats typed input sets (and any Google pattern of
  ``0``, ``#,##0.00``, ``%``, literal text and date/time tokens); without one, "Automatic":
  integers print without decimals, other numbers with up to 10 decimals.
* Google's message for deleting developer metadata that is gone is not documented; the fake
  answers 400 "No developer metadata matches the data filter."
* Values writes (update, batchUpdate) outside the grid fail with "exceeds grid limits", as
  the real API does; append grows the grid. Reads are clipped to the grid (a read whose
  start lies outside the grid fails). The append "table" detection is a heuristic, see
  :func:`.value_ranges._find_table`.
* Data validation is stored and returned, never enforced; it is visible in grid data
  (``includeGridData``) and in :meth:`FakeSheetsServer.cell`. Protection does not stop
  adding sheets or creating metadata (Google does not either).
* Developer metadata on rows/columns is found with developerMetadata.get/search (and
  :meth:`FakeSheetsServer.developer_metadata`), not inside grid data's rowMetadata.
* sortRange, copyPaste and cutPaste move formula text verbatim (no reference adjustment).
* Formatting, borders, dimension sizes, filters and conditional formats are stored (where
  listed) or ignored; nothing is rendered.
"""

from __future__ import annotations

from .a1 import col_index as col_index
from .a1 import col_letters as col_letters
from .a1 import quote_title as quote_title
from .batch_update import ACCEPTED_NO_OP_REQUESTS, SUPPORTED_REQUESTS
from .model import DEFAULT_COLS as DEFAULT_COLS
from .model import DEFAULT_ROWS as DEFAULT_ROWS
from .model import MAX_CELLS as MAX_CELLS
from .server import FakeSheetsServer, session_for
from .transport import DRIVE_ORIGIN as DRIVE_ORIGIN
from .transport import SHEETS_ORIGIN as SHEETS_ORIGIN
from .transport import RecordedRequest

__all__ = [
    "ACCEPTED_NO_OP_REQUESTS",
    "FakeSheetsServer",
    "RecordedRequest",
    "SUPPORTED_REQUESTS",
    "session_for",
]
