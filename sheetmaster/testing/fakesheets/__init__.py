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
* values.get / batchGet / update / batchUpdate / append / clear / batchClear with
  majorDimension, valueRenderOption (FORMATTED_VALUE, UNFORMATTED_VALUE, FORMULA),
  valueInputOption (RAW, USER_ENTERED), includeValuesInResponse, insertDataOption.
* spreadsheets.batchUpdate, atomically (the batch is applied to a copy that replaces the
  spreadsheet only if every request succeeded), with the request kinds listed in
  ``SUPPORTED_REQUESTS``; ``ACCEPTED_NO_OP_REQUESTS`` are validated and ignored.
* developerMetadata.get / search, sheets.copyTo, spreadsheets.create, and the Drive calls
  behind ``Client.open``, ``Client.create``, ``Client.del_spreadsheet`` and the Drive
  metadata (``list``, ``create``, ``get``, ``delete`` on ``/drive/v3/files``).
* Errors in Google's JSON shape; 403 for :meth:`FakeSheetsServer.deny`, 404 for unknown ids.
* Fault and latency injection, request recording.

Known differences from the real service (deliberate simplifications):

* Formulas are evaluated by a small built-in evaluator (arithmetic, ``&``, comparisons,
  cell/range references incl. other tabs, SUM AVERAGE MIN MAX COUNT COUNTA PRODUCT ABS ROUND
  INT MOD IF IFERROR AND OR NOT CONCATENATE CONCAT LEN UPPER LOWER TRIM). Anything else
  evaluates to ``#NAME?``; parse errors to ``#ERROR!``; circular references to ``#REF!``.
  Formula references are not rewritten when rows/columns are inserted, deleted or moved.
* USER_ENTERED recognises only plain numbers (``12``, ``-1.5``, ``1e3``), TRUE/FALSE
  (any case), a leading apostrophe (forces text) and ``=`` formulas. Dates, times,
  percentages, currency and thousands separators stay text (Sheets would convert them), so
  ``dateTimeRenderOption`` is accepted but has nothing to act on.
* FORMATTED_VALUE uses the "Automatic" number format only (no per-cell number formats):
  integers print without decimals, other numbers with up to 10 decimals.
* Values writes (update, batchUpdate) outside the grid fail with "exceeds grid limits", as
  the real API does; append grows the grid. Reads are clipped to the grid (a read whose
  start lies outside the grid fails). The append "table" detection is a heuristic, see
  :func:`.value_ranges._find_table`.
* Protected ranges and data validation are stored and returned, never enforced. Data
  validation is visible in grid data (``includeGridData``) and in :meth:`FakeSheetsServer.cell`.
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
