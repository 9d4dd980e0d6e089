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
  :func:`_find_table`.
* Protected ranges and data validation are stored and returned, never enforced. Data
  validation is visible in grid data (``includeGridData``) and in :meth:`FakeSheetsServer.cell`.
* Developer metadata on rows/columns is found with developerMetadata.get/search (and
  :meth:`FakeSheetsServer.developer_metadata`), not inside grid data's rowMetadata.
* sortRange, copyPaste and cutPaste move formula text verbatim (no reference adjustment).
* Formatting, borders, dimension sizes, filters and conditional formats are stored (where
  listed) or ignored; nothing is rendered.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import json
import math
import random
import re
import socket
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from functools import lru_cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NamedTuple
from urllib.parse import parse_qs, unquote, urlsplit

import requests
from requests.adapters import HTTPAdapter

__all__ = [
    "ACCEPTED_NO_OP_REQUESTS",
    "FakeSheetsServer",
    "RecordedRequest",
    "SUPPORTED_REQUESTS",
]

SHEETS_ORIGIN = "https://sheets.googleapis.com"
DRIVE_ORIGIN = "https://www.googleapis.com"

DEFAULT_ROWS = 1000
DEFAULT_COLS = 26
MAX_CELLS = 10_000_000

_STATUS = {
    400: "INVALID_ARGUMENT",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}
_FAULT_MESSAGES = {
    429: "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute per user' "
    "of service 'sheets.googleapis.com' for consumer 'project_number:0'.",
    500: "Internal error encountered.",
    503: "The service is currently unavailable.",
    504: "The request timed out. Please try again.",
}


class _ApiError(Exception):
    """An error answered to the client in Google's JSON error shape."""

    def __init__(self, code: int, message: str, status: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status or _STATUS.get(code, "UNKNOWN")

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, "status": self.status}}


def _bad(message: str) -> _ApiError:
    return _ApiError(400, message)


class _RequestError(Exception):
    """An invalid batchUpdate request; the dispatcher prefixes ``Invalid requests[i].kind:``."""


# --------------------------------------------------------------------------------------
# A1 notation
# --------------------------------------------------------------------------------------


def col_letters(index: int) -> str:
    """0-based column index -> letters (0 -> A, 25 -> Z, 26 -> AA)."""
    out = ""
    n = index + 1
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(65 + rem) + out
    return out


def col_index(letters: str) -> int:
    """Column letters -> 0-based index (A -> 0)."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n - 1


_PLAIN_TITLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_CELL_LIKE = re.compile(r"^([A-Za-z]{1,3}\d+|[Rr]\d*[Cc]\d*|true|false)$", re.IGNORECASE)


def quote_title(title: str) -> str:
    """Quote a sheet title for A1 notation the way the API prints it."""
    if _PLAIN_TITLE.match(title) and not _CELL_LIKE.match(title):
        return title
    return "'" + title.replace("'", "''") + "'"


@dataclass(frozen=True)
class _Box:
    """A parsed cell range; r1/c1 are exclusive, None means "to the end of the grid"."""

    r0: int = 0
    r1: int | None = None
    c0: int = 0
    c1: int | None = None
    explicit_row: bool = False  # the start row was written (A2, 2:4), not implied (A:C)

    @property
    def single(self) -> bool:
        return self.r1 == self.r0 + 1 and self.c1 == self.c0 + 1


_ENDPOINT = re.compile(r"^\$?([A-Za-z]{1,3})?\$?([0-9]+)?$")


def _split_a1(text: str) -> tuple[str | None, str | None] | None:
    """Split ``'Tab'!A1:B2`` into (title, cells); None when it cannot be split."""
    s = text.strip()
    if s.startswith("'"):
        buf: list[str] = []
        i = 1
        while i < len(s):
            ch = s[i]
            if ch == "'":
                if i + 1 < len(s) and s[i + 1] == "'":
                    buf.append("'")
                    i += 2
                    continue
                break
            buf.append(ch)
            i += 1
        else:
            return None
        rest = s[i + 1 :]
        if rest == "":
            return "".join(buf), None
        if not rest.startswith("!") or len(rest) == 1:
            return None
        return "".join(buf), rest[1:]
    if "!" in s:
        title, _, cells = s.rpartition("!")
        if not title or not cells:
            return None
        return title, cells
    return None, s


def _parse_cells(part: str) -> _Box | None:
    """Parse the cell part of A1 notation: A1, A1:B2, A:C, 2:4, A2:D, $A$1."""
    pieces = part.strip().split(":")
    if len(pieces) > 2:
        return None
    ends = []
    for piece in pieces:
        m = _ENDPOINT.match(piece.strip())
        if not m or (m.group(1) is None and m.group(2) is None):
            return None
        col = col_index(m.group(1)) if m.group(1) else None
        row = int(m.group(2)) - 1 if m.group(2) else None
        if row is not None and row < 0:
            return None
        ends.append((col, row))
    (ac, ar) = ends[0]
    if len(ends) == 1:
        if ac is None or ar is None:
            return None
        return _Box(ar, ar + 1, ac, ac + 1, True)
    (bc, br) = ends[1]
    if ac is None and ar is not None and bc is not None and br is None:
        return None  # "2:C" is not a range
    if ar is not None and br is not None:
        r0, r1 = min(ar, br), max(ar, br) + 1
    else:
        r0, r1 = (ar if ar is not None else 0), (br + 1 if br is not None else None)
    if ac is not None and bc is not None:
        c0, c1 = min(ac, bc), max(ac, bc) + 1
    else:
        c0, c1 = (ac if ac is not None else 0), (bc + 1 if bc is not None else None)
    return _Box(r0, r1, c0, c1, ar is not None)


def _a1(sheet: _Sheet, r0: int, r1: int | None, c0: int, c1: int | None) -> str:
    """Normalised A1 text of a (clipped) range, like the API's ``range`` fields."""
    r1 = sheet.rows if r1 is None else r1
    c1 = sheet.cols if c1 is None else c1
    start = f"{col_letters(c0)}{r0 + 1}"
    if r1 == r0 + 1 and c1 == c0 + 1:
        return f"{quote_title(sheet.title)}!{start}"
    return f"{quote_title(sheet.title)}!{start}:{col_letters(max(c1, c0 + 1) - 1)}{max(r1, r0 + 1)}"


# --------------------------------------------------------------------------------------
# Field masks
# --------------------------------------------------------------------------------------

_MaskTree = dict[str, Any]  # name -> subtree, or None for "the whole field"


def _parse_mask(text: str) -> _MaskTree:
    """Parse a field mask: ``a.b,c(d,e/f)`` -> {'a': {'b': None}, 'c': {'d': None, ...}}."""
    toks = re.findall(r"[A-Za-z0-9_*]+|[.,/()]", text.replace(" ", ""))
    pos = 0

    def name() -> str:
        nonlocal pos
        if pos >= len(toks) or not re.match(r"[A-Za-z0-9_*]", toks[pos]):
            raise _bad(f"Invalid field selection {text}")
        pos += 1
        return toks[pos - 1]

    def merge(tree: _MaskTree, path: list[str], sub: _MaskTree | None) -> None:
        node = tree
        for key in path[:-1]:
            if key in node and node[key] is None:
                return
            node = node.setdefault(key, {})
        last = path[-1]
        if sub is None or (last in node and node[last] is None):
            node[last] = None
            return
        target = node.setdefault(last, {})
        for k, v in sub.items():
            merge(target, [k], v)

    def parse_list() -> _MaskTree:
        nonlocal pos
        tree: _MaskTree = {}
        while True:
            path = [name()]
            while pos < len(toks) and toks[pos] in "./":
                pos += 1
                path.append(name())
            sub = None
            if pos < len(toks) and toks[pos] == "(":
                pos += 1
                sub = parse_list()
                if pos >= len(toks) or toks[pos] != ")":
                    raise _bad(f"Invalid field selection {text}")
                pos += 1
            merge(tree, path, sub)
            if pos < len(toks) and toks[pos] == ",":
                pos += 1
                continue
            return tree

    tree = parse_list() if toks else {}
    if pos != len(toks):
        raise _bad(f"Invalid field selection {text}")
    return tree


def _apply_mask(obj: Any, mask: _MaskTree | None) -> Any:
    if mask is None or "*" in mask:
        return obj
    if isinstance(obj, list):
        return [_apply_mask(item, mask) for item in obj]
    if isinstance(obj, dict):
        return {k: _apply_mask(obj[k], sub) for k, sub in mask.items() if k in obj}
    return obj


def _mask_selects(mask: _MaskTree | None, path: Iterable[str]) -> bool:
    node = mask
    for key in path:
        if node is None or "*" in node:
            return True
        if key not in node:
            return False
        node = node[key]
    return True


# --------------------------------------------------------------------------------------
# The model
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Cell:
    """One cell. ``value`` is the entered value; for formulas it is the formula text."""

    value: Any = None
    formula: bool = False
    note: str | None = None
    validation: dict[str, Any] | None = None
    fmt: dict[str, Any] | None = None

    def void(self) -> bool:
        return (
            self.value is None and self.note is None and self.validation is None
            and self.fmt is None
        )


class _Sheet:
    def __init__(self, sheet_id: int, title: str, index: int, rows: int, cols: int):
        self.props: dict[str, Any] = {
            "sheetId": sheet_id,
            "title": title,
            "index": index,
            "sheetType": "GRID",
            "gridProperties": {"rowCount": rows, "columnCount": cols},
        }
        self.cells: dict[tuple[int, int], _Cell] = {}
        self.protected: list[dict[str, Any]] = []
        self.merges: list[dict[str, Any]] = []
        self.conditional_formats: list[dict[str, Any]] = []
        self.basic_filter: dict[str, Any] | None = None

    @property
    def id(self) -> int:
        return self.props["sheetId"]

    @property
    def title(self) -> str:
        return self.props["title"]

    @property
    def grid(self) -> dict[str, Any]:
        return self.props["gridProperties"]

    @property
    def rows(self) -> int:
        return self.grid["rowCount"]

    @property
    def cols(self) -> int:
        return self.grid["columnCount"]

    def clone(self) -> _Sheet:
        new = copy.copy(self)
        new.props = copy.deepcopy(self.props)
        new.cells = dict(self.cells)  # _Cell is immutable
        new.protected = copy.deepcopy(self.protected)
        new.merges = copy.deepcopy(self.merges)
        new.conditional_formats = copy.deepcopy(self.conditional_formats)
        new.basic_filter = copy.deepcopy(self.basic_filter)
        return new

    def put(self, r: int, c: int, **changes: Any) -> None:
        cell = replace(self.cells.get((r, c), _Cell()), **changes)
        if cell.void():
            self.cells.pop((r, c), None)
        else:
            self.cells[(r, c)] = cell

    def set_value(self, r: int, c: int, entered: tuple[Any, bool] | None) -> None:
        value, formula = entered if entered is not None else (None, False)
        self.put(r, c, value=value, formula=formula)

    def properties_json(self) -> dict[str, Any]:
        props = copy.deepcopy(self.props)
        grid = props["gridProperties"]
        for key in ("frozenRowCount", "frozenColumnCount"):
            if not grid.get(key):
                grid.pop(key, None)
        if not grid.get("hideGridlines"):
            grid.pop("hideGridlines", None)
        if not props.get("hidden"):
            props.pop("hidden", None)
        return props

    def drop_outside_grid(self) -> None:
        rows, cols = self.rows, self.cols
        self.cells = {k: v for k, v in self.cells.items() if k[0] < rows and k[1] < cols}


class _Book:
    """One spreadsheet."""

    def __init__(self, spreadsheet_id: str, title: str, time_zone: str, locale: str):
        self.id = spreadsheet_id
        self.props: dict[str, Any] = {
            "title": title,
            "locale": locale,
            "autoRecalc": "ON_CHANGE",
            "timeZone": time_zone,
        }
        self.sheets: list[_Sheet] = []
        self.named_ranges: list[dict[str, Any]] = []
        self.metadata: list[dict[str, Any]] = []
        self.id_counter = 0
        now = _now()
        self.created = now
        self.modified = now

    def clone(self) -> _Book:
        new = copy.copy(self)
        new.props = copy.deepcopy(self.props)
        new.sheets = [s.clone() for s in self.sheets]
        new.named_ranges = copy.deepcopy(self.named_ranges)
        new.metadata = copy.deepcopy(self.metadata)
        return new

    def new_id(self, taken: Iterable[Any] = ()) -> int:
        """A deterministic, random-looking positive id (like the API's sheet ids)."""
        taken = set(taken)
        while True:
            self.id_counter += 1
            digest = hashlib.sha256(f"{self.id}:{self.id_counter}".encode()).hexdigest()
            candidate = int(digest[:12], 16) % 2_000_000_000 + 1
            if candidate not in taken:
                return candidate

    def sheet_by_id(self, sheet_id: Any) -> _Sheet | None:
        return next((s for s in self.sheets if s.id == sheet_id), None)

    def sheet_by_title(self, title: str) -> _Sheet | None:
        exact = next((s for s in self.sheets if s.title == title), None)
        if exact is not None:
            return exact
        folded = title.casefold()
        return next((s for s in self.sheets if s.title.casefold() == folded), None)

    def reindex(self) -> None:
        for i, sheet in enumerate(self.sheets):
            sheet.props["index"] = i

    def total_cells(self) -> int:
        return sum(s.rows * s.cols for s in self.sheets)

    def resolve(self, a1: str) -> tuple[_Sheet, _Box]:
        """Resolve A1 notation (or a named range) to a sheet and a box."""
        parts = _split_a1(a1)
        if parts is None:
            raise _bad(f"Unable to parse range: {a1}")
        title, cells = parts
        if title is None:
            assert cells is not None
            sheet = self.sheet_by_title(cells)
            if sheet is not None:
                return sheet, _Box()
            named = self.named_range(cells)
            if named is not None:
                return self._named_box(named)
            box = _parse_cells(cells)
            if box is None:
                raise _bad(f"Unable to parse range: {a1}")
            return self.sheets[0], box
        sheet = self.sheet_by_title(title)
        if sheet is None:
            raise _bad(f"Unable to parse range: {a1}")
        if cells is None:
            return sheet, _Box()
        box = _parse_cells(cells)
        if box is None:
            # gspread sends "'Tab'!my_range"; named ranges are spreadsheet-wide
            named = self.named_range(cells)
            if named is not None:
                return self._named_box(named)
            raise _bad(f"Unable to parse range: {a1}")
        return sheet, box

    def named_range(self, name: str) -> dict[str, Any] | None:
        name = name.strip()
        exact = next((n for n in self.named_ranges if n["name"] == name), None)
        if exact is not None:
            return exact
        return next((n for n in self.named_ranges if n["name"].casefold() == name.casefold()),
                    None)

    def _named_box(self, named: dict[str, Any]) -> tuple[_Sheet, _Box]:
        gr = named["range"]
        sheet = self.sheet_by_id(gr.get("sheetId", 0))
        if sheet is None:  # pragma: no cover - deleteSheet removes such ranges
            raise _bad(f"Unable to parse range: {named['name']}")
        return sheet, _Box(
            gr.get("startRowIndex", 0), gr.get("endRowIndex"),
            gr.get("startColumnIndex", 0), gr.get("endColumnIndex"), True,
        )


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


# --------------------------------------------------------------------------------------
# Values: input parsing and rendering
# --------------------------------------------------------------------------------------

_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def _number(text: str) -> int | float:
    value = float(text)
    if value.is_integer() and abs(value) < 2**53 and "e" not in text.lower():
        return int(value)
    return value


def _entered(value: Any, option: str, where: str) -> tuple[Any, bool] | None:
    """Turn one input value into (stored value, is_formula); None clears the value."""
    if isinstance(value, bool):
        return value, False
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            raise _bad(f"Invalid {where}: number must be finite")
        return value, False
    if isinstance(value, str):
        if value == "":
            return None
        if option == "RAW":
            return value, False
        if value.startswith("'"):
            return (value[1:], False) if len(value) > 1 else None
        if value.startswith("=") and len(value) > 1:
            return value, True
        stripped = value.strip()
        if stripped.upper() in ("TRUE", "FALSE"):
            return stripped.upper() == "TRUE", False
        if _NUMBER.match(stripped):
            return _number(stripped), False
        return value, False
    kind = "list_value" if isinstance(value, list) else "struct_value"
    raise _bad(f"Invalid {where}: {kind} is not a supported value type")


class _Err(str):
    """A formula error value such as ``#DIV/0!``."""


_ERROR_TYPES = {
    "#NULL!": "NULL_VALUE", "#DIV/0!": "DIVIDE_BY_ZERO", "#VALUE!": "VALUE", "#REF!": "REF",
    "#NAME?": "NAME", "#NUM!": "NUM", "#N/A": "N_A", "#ERROR!": "ERROR",
}


def _json_value(value: Any) -> Any:
    """A Python value as the API prints it in UNFORMATTED_VALUE (integral floats as ints)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return int(value)
    if isinstance(value, _Err):
        return str(value)
    return value


def _format_number(value: float | int) -> str:
    if isinstance(value, int):
        return str(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if value != 0 and (abs(value) >= 1e15 or abs(value) < 1e-10):
        return f"{value:.2E}"
    significant = float(f"{value:.15g}")
    return f"{round(significant, 10):.10f}".rstrip("0").rstrip(".")


def _format(value: Any) -> str:
    """FORMATTED_VALUE of an effective value (the "Automatic" format only)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        return _format_number(value)
    return str(value)


_RENDER_OPTIONS = ("FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA")
_DATETIME_OPTIONS = ("SERIAL_NUMBER", "FORMATTED_STRING")
_DIMENSIONS = ("ROWS", "COLUMNS")
_INPUT_OPTIONS = ("RAW", "USER_ENTERED")
_INSERT_OPTIONS = ("OVERWRITE", "INSERT_ROWS")


def _render(evaluator: _Evaluator, sheet: _Sheet, r: int, c: int, cell: _Cell, option: str) -> Any:
    if option == "FORMULA" and cell.formula:
        return cell.value
    effective = evaluator.value(sheet, r, c)
    if option == "FORMATTED_VALUE":
        return _format(effective)
    return _json_value(effective)


# --------------------------------------------------------------------------------------
# Formulas
# --------------------------------------------------------------------------------------


class _Raise(Exception):
    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


_FTOKEN = re.compile(
    r"""\s*(?:(?P<str>"(?:[^"]|"")*")"""
    r"""|(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)"""
    r"""|(?P<ident>(?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!\$?[A-Za-z]+\$?\d*"""
    r"""(?::\$?[A-Za-z]+\$?\d*)?"""
    r"""|\$?[A-Za-z_][A-Za-z0-9_.$]*(?::\$?[A-Za-z]+\$?\d*)?)"""
    r"""|(?P<op><=|>=|<>|[-+*/^&=<>(),%]))"""
)


@lru_cache(maxsize=4096)
def _parse_formula(text: str) -> tuple[Any, ...]:
    """Parse formula text (without the leading '=') into a small AST."""
    tokens: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _FTOKEN.match(text, pos)
        if not m:
            return ("error", "#ERROR!")
        kind = m.lastgroup or ""
        tokens.append((kind, m.group(kind)))
        pos = m.end()
    tokens.append(("end", ""))
    i = 0

    def peek() -> tuple[str, str]:
        return tokens[i]

    def take() -> tuple[str, str]:
        nonlocal i
        i += 1
        return tokens[i - 1]

    def expect(op: str) -> None:
        if take() != ("op", op):
            raise ValueError(op)

    def binary(next_level: Callable[[], Any], ops: tuple[str, ...]) -> Any:
        node = next_level()
        while peek()[0] == "op" and peek()[1] in ops:
            op = take()[1]
            node = ("bin", op, node, next_level())
        return node

    def comparison() -> Any:
        return binary(concat, ("=", "<>", "<", ">", "<=", ">="))

    def concat() -> Any:
        return binary(additive, ("&",))

    def additive() -> Any:
        return binary(multiplicative, ("+", "-"))

    def multiplicative() -> Any:
        return binary(power, ("*", "/"))

    def power() -> Any:
        return binary(unary, ("^",))

    def unary() -> Any:
        if peek() == ("op", "-"):
            take()
            return ("neg", unary())
        if peek() == ("op", "+"):
            take()
            return unary()
        node = primary()
        while peek() == ("op", "%"):
            take()
            node = ("pct", node)
        return node

    def primary() -> Any:
        kind, text_ = take()
        if kind == "num":
            return ("num", float(text_))
        if kind == "str":
            return ("str", text_[1:-1].replace('""', '"'))
        if kind == "op" and text_ == "(":
            node = comparison()
            expect(")")
            return node
        if kind == "ident":
            if peek() == ("op", "("):
                take()
                args: list[Any] = []
                if peek() != ("op", ")"):
                    args.append(comparison())
                    while peek() == ("op", ","):
                        take()
                        args.append(comparison())
                expect(")")
                return ("func", text_.upper(), tuple(args))
            if text_.upper() in ("TRUE", "FALSE"):
                return ("bool", text_.upper() == "TRUE")
            return ("ref", text_)
        raise ValueError(text_)

    try:
        tree = comparison()
        if peek()[0] != "end":
            return ("error", "#ERROR!")
        return tree
    except (ValueError, IndexError):
        return ("error", "#ERROR!")


class _RangeRef(NamedTuple):
    sheet: _Sheet
    r0: int
    r1: int
    c0: int
    c1: int


class _Evaluator:
    """Computes effective values, with a per-request cache and cycle detection."""

    def __init__(self, book: _Book):
        self.book = book
        self.cache: dict[tuple[int, int, int], Any] = {}
        self.active: set[tuple[int, int, int]] = set()

    def value(self, sheet: _Sheet, r: int, c: int) -> Any:
        cell = sheet.cells.get((r, c))
        if cell is None or cell.value is None:
            return None
        if not cell.formula:
            return cell.value
        key = (sheet.id, r, c)
        if key in self.cache:
            return self.cache[key]
        if key in self.active:
            return _Err("#REF!")
        self.active.add(key)
        try:
            result = self._formula(sheet, cell.value[1:])
        finally:
            self.active.discard(key)
        self.cache[key] = result
        return result

    def _formula(self, sheet: _Sheet, text: str) -> Any:
        tree = _parse_formula(text)
        try:
            result = self._scalar(tree, sheet)
        except _Raise as err:
            return _Err(err.code)
        except (OverflowError, ValueError):
            return _Err("#NUM!")
        if result is None:
            return ""
        return result

    # -- evaluation ---------------------------------------------------------------------

    def _ref(self, text: str, sheet: _Sheet) -> _RangeRef:
        parts = _split_a1(text)
        if parts is None:
            raise _Raise("#NAME?")
        title, cells = parts
        target = sheet
        if title is not None:
            found = self.book.sheet_by_title(title)
            if found is None:
                raise _Raise("#REF!")
            target = found
        box = _parse_cells(cells or "")
        if box is None:
            named = self.book.named_range(cells or "")
            if named is None:
                raise _Raise("#NAME?")
            target, box = self.book._named_box(named)
        r1 = target.rows if box.r1 is None else min(box.r1, target.rows)
        c1 = target.cols if box.c1 is None else min(box.c1, target.cols)
        if box.r0 >= target.rows or box.c0 >= target.cols:
            raise _Raise("#REF!")
        return _RangeRef(target, box.r0, r1, box.c0, c1)

    def _eval(self, node: tuple[Any, ...], sheet: _Sheet) -> Any:
        kind = node[0]
        if kind in ("num", "str", "bool"):
            return node[1]
        if kind == "error":
            raise _Raise(node[1])
        if kind == "ref":
            return self._ref(node[1], sheet)
        if kind == "neg":
            return -_to_num(self._scalar(node[1], sheet))
        if kind == "pct":
            return _to_num(self._scalar(node[1], sheet)) / 100
        if kind == "bin":
            return _binary(node[1], self._scalar(node[2], sheet), self._scalar(node[3], sheet))
        if kind == "func":
            return self._call(node[1], node[2], sheet)
        raise _Raise("#ERROR!")  # pragma: no cover

    def _scalar(self, node: tuple[Any, ...], sheet: _Sheet) -> Any:
        value = self._eval(node, sheet)
        if isinstance(value, _RangeRef):
            if value.r1 - value.r0 != 1 or value.c1 - value.c0 != 1:
                raise _Raise("#VALUE!")
            value = self.value(value.sheet, value.r0, value.c0)
        if isinstance(value, _Err):
            raise _Raise(str(value))
        return value

    def _cells_of(self, ref: _RangeRef) -> list[Any]:
        out = []
        for (r, c) in sorted(ref.sheet.cells):
            if ref.r0 <= r < ref.r1 and ref.c0 <= c < ref.c1:
                value = self.value(ref.sheet, r, c)
                if isinstance(value, _Err):
                    raise _Raise(str(value))
                if value is not None and value != "":
                    out.append(value)
        return out

    def _numbers(self, args: tuple[Any, ...], sheet: _Sheet) -> list[float]:
        nums: list[float] = []
        for arg in args:
            value = self._eval(arg, sheet)
            if isinstance(value, _RangeRef):
                nums.extend(
                    float(v) for v in self._cells_of(value)
                    if isinstance(v, (int, float)) and not isinstance(v, bool)
                )
            else:
                if isinstance(value, _Err):
                    raise _Raise(str(value))
                nums.append(_to_num(value))
        return nums

    def _call(self, name: str, args: tuple[Any, ...], sheet: _Sheet) -> Any:
        if name == "IF":
            if not 1 < len(args) < 4:
                raise _Raise("#N/A")
            if _to_bool(self._scalar(args[0], sheet)):
                return self._scalar(args[1], sheet)
            return self._scalar(args[2], sheet) if len(args) == 3 else False
        if name == "IFERROR":
            try:
                return self._scalar(args[0], sheet)
            except _Raise:
                return self._scalar(args[1], sheet) if len(args) > 1 else ""
        if name in ("SUM", "AVERAGE", "MIN", "MAX", "COUNT", "PRODUCT"):
            nums = self._numbers(args, sheet)
            if name == "SUM":
                return float(math.fsum(nums))
            if name == "COUNT":
                return float(len(nums))
            if name == "PRODUCT":
                return float(math.prod(nums)) if nums else 0.0
            if name == "AVERAGE":
                if not nums:
                    raise _Raise("#DIV/0!")
                return math.fsum(nums) / len(nums)
            if not nums:
                return 0.0
            return min(nums) if name == "MIN" else max(nums)
        if name == "COUNTA":
            count = 0
            for arg in args:
                value = self._eval(arg, sheet)
                count += len(self._cells_of(value)) if isinstance(value, _RangeRef) else 1
            return float(count)
        values = [self._scalar(a, sheet) for a in args]
        return _simple_function(name, values)


def _simple_function(name: str, values: list[Any]) -> Any:
    def arity(low: int, high: int) -> None:
        if not low <= len(values) <= high:
            raise _Raise("#N/A")

    if name in ("AND", "OR"):
        arity(1, 255)
        flags = [_to_bool(v) for v in values]
        return all(flags) if name == "AND" else any(flags)
    if name == "NOT":
        arity(1, 1)
        return not _to_bool(values[0])
    if name in ("CONCATENATE", "CONCAT"):
        return "".join(_to_str(v) for v in values)
    if name in ("LEN", "UPPER", "LOWER", "TRIM"):
        arity(1, 1)
        text = _to_str(values[0])
        if name == "LEN":
            return float(len(text))
        if name == "TRIM":
            return " ".join(text.split())
        return text.upper() if name == "UPPER" else text.lower()
    if name in ("ABS", "INT"):
        arity(1, 1)
        number = _to_num(values[0])
        return abs(number) if name == "ABS" else float(math.floor(number))
    if name == "ROUND":
        arity(1, 2)
        number = _to_num(values[0])
        places = int(_to_num(values[1])) if len(values) > 1 else 0
        scale = 10.0**places
        return math.floor(abs(number) * scale + 0.5) / scale * (1 if number >= 0 else -1)
    if name == "MOD":
        arity(2, 2)
        divisor = _to_num(values[1])
        if divisor == 0:
            raise _Raise("#DIV/0!")
        return _to_num(values[0]) % divisor
    raise _Raise("#NAME?")


def _to_num(value: Any) -> float:
    if value is None:
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value)
    text = str(value).strip()
    if text == "":
        return 0.0
    try:
        return float(text)
    except ValueError:
        raise _Raise("#VALUE!") from None


def _to_str(value: Any) -> str:
    return _format(value)


def _to_bool(value: Any) -> bool:
    if isinstance(value, str):
        if value.upper() in ("TRUE", "FALSE"):
            return value.upper() == "TRUE"
        if value == "":
            return False
        raise _Raise("#VALUE!")
    return bool(_to_num(value))


def _sort_key(value: Any) -> tuple[int, Any]:
    if value is None or value == "":
        return (3, 0)
    if isinstance(value, bool):
        return (2, value)
    if isinstance(value, (int, float)):
        return (0, float(value))
    return (1, str(value).casefold())


def _binary(op: str, a: Any, b: Any) -> Any:
    if op == "&":
        return _to_str(a) + _to_str(b)
    if op in ("=", "<>", "<", ">", "<=", ">="):
        ka, kb = _sort_key(a), _sort_key(b)
        if a is None or a == "":
            ka = _sort_key(0.0 if isinstance(b, (int, float)) else "")
        if b is None or b == "":
            kb = _sort_key(0.0 if isinstance(a, (int, float)) else "")
        return {
            "=": ka == kb, "<>": ka != kb, "<": ka < kb,
            ">": ka > kb, "<=": ka <= kb, ">=": ka >= kb,
        }[op]
    x, y = _to_num(a), _to_num(b)
    if op == "+":
        return x + y
    if op == "-":
        return x - y
    if op == "*":
        return x * y
    if op == "/":
        if y == 0:
            raise _Raise("#DIV/0!")
        return x / y
    if op == "^":
        return float(x**y)
    raise _Raise("#ERROR!")  # pragma: no cover


# --------------------------------------------------------------------------------------
# Reading and writing values
# --------------------------------------------------------------------------------------


def _clip(sheet: _Sheet, box: _Box) -> tuple[int, int, int, int]:
    if box.r0 >= sheet.rows or box.c0 >= sheet.cols:
        raise _bad(
            f"Range ({_a1(sheet, box.r0, box.r1, box.c0, box.c1)}) exceeds grid limits. "
            f"Max rows: {sheet.rows}, max columns: {sheet.cols}"
        )
    r1 = sheet.rows if box.r1 is None else min(box.r1, sheet.rows)
    c1 = sheet.cols if box.c1 is None else min(box.c1, sheet.cols)
    return box.r0, r1, box.c0, c1


def _value_range(
    book: _Book, sheet: _Sheet, bounds: tuple[int, int, int, int], major: str, option: str,
    evaluator: _Evaluator,
) -> dict[str, Any]:
    r0, r1, c0, c1 = bounds
    present: dict[int, dict[int, Any]] = {}
    for (r, c), cell in sheet.cells.items():
        if r0 <= r < r1 and c0 <= c < c1 and cell.value is not None:
            outer, inner = (r, c) if major == "ROWS" else (c, r)
            present.setdefault(outer, {})[inner] = _render(evaluator, sheet, r, c, cell, option)
    out: dict[str, Any] = {"range": _a1(sheet, r0, r1, c0, c1), "majorDimension": major}
    if present:
        first_outer, first_inner = (r0, c0) if major == "ROWS" else (c0, r0)
        matrix = []
        for outer in range(first_outer, max(present) + 1):
            line = present.get(outer)
            if not line:
                matrix.append([])
                continue
            matrix.append([line.get(i, "") for i in range(first_inner, max(line) + 1)])
        out["values"] = matrix
    return out


def _rows_of(body: dict[str, Any], where: str) -> list[list[Any]]:
    values = body.get("values", [])
    if values is None:
        return []
    if not isinstance(values, list) or not all(isinstance(v, list) for v in values):
        raise _bad(f"Invalid {where}: values must be a list of lists")
    major = body.get("majorDimension") or "ROWS"
    if major not in _DIMENSIONS:
        raise _bad(f"Invalid value at '{where}.major_dimension', \"{major}\"")
    if major == "COLUMNS" and values:
        height = max(len(col) for col in values)
        return [[col[i] if i < len(col) else None for col in values] for i in range(height)]
    return values


def _write(
    book: _Book, sheet: _Sheet, r0: int, c0: int, rows: list[list[Any]], option: str,
    where: str = "values",
) -> dict[str, Any]:
    """Write a matrix at (r0, c0); returns the UpdateValuesResponse counts."""
    touched_rows: set[int] = set()
    touched_cols: set[int] = set()
    count = 0
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            if value is None:
                continue
            sheet.set_value(r0 + i, c0 + j, _entered(value, option, f"{where}[{i}][{j}]"))
            touched_rows.add(i)
            touched_cols.add(j)
            count += 1
    height = len(rows)
    width = max((len(row) for row in rows), default=0)
    out: dict[str, Any] = {"spreadsheetId": book.id}
    if height and width:
        out["updatedRange"] = _a1(sheet, r0, r0 + height, c0, c0 + width)
    if count:
        out.update(
            updatedRows=len(touched_rows), updatedColumns=len(touched_cols), updatedCells=count
        )
    return out


def _update_values(
    book: _Book, a1: str, body: dict[str, Any], option: str, where: str = "values"
) -> tuple[dict[str, Any], _Sheet, tuple[int, int, int, int] | None]:
    sheet, box = book.resolve(a1)
    rows = _rows_of(body, where)
    height = len(rows)
    width = max((len(row) for row in rows), default=0)
    if height and width and not box.single:  # a single cell is an anchor, not a bound
        if box.r1 is not None and box.r0 + height > box.r1:
            raise _bad(
                f"Requested writing within range [{_a1(sheet, box.r0, box.r1, box.c0, box.c1)}],"
                f" but tried writing to row [{box.r0 + height}]"
            )
        if box.c1 is not None and box.c0 + width > box.c1:
            raise _bad(
                f"Requested writing within range [{_a1(sheet, box.r0, box.r1, box.c0, box.c1)}],"
                f" but tried writing to column [{col_letters(box.c0 + width - 1)}]"
            )
    if height and width and (box.r0 + height > sheet.rows or box.c0 + width > sheet.cols):
        raise _bad(
            f"Range ({_a1(sheet, box.r0, box.r0 + height, box.c0, box.c0 + width)}) "
            f"exceeds grid limits. Max rows: {sheet.rows}, max columns: {sheet.cols}"
        )
    result = _write(book, sheet, box.r0, box.c0, rows, option, where)
    bounds = (box.r0, box.r0 + height, box.c0, box.c0 + width) if height and width else None
    return result, sheet, bounds


def _row_filled(sheet: _Sheet, r: int, c0: int, c1: int) -> bool:
    return any(
        (cell := sheet.cells.get((r, c))) is not None and cell.value is not None
        for c in range(c0, c1)
    )


def _find_table(sheet: _Sheet, box: _Box) -> tuple[int, int, int, int, int] | None:
    """Heuristic for values.append's "table": (start, end, c0, c1, write_col) or None.

    Columns scanned: the range's columns (a single cell scans only its own column; a
    whole-sheet or open range scans to the right edge). With an explicit start row the table
    starts at that row (an empty start row means an empty table, so the data goes there --
    what gspread's insert_rows/insert_cols rely on); otherwise it starts at the first non-empty
    row. The table runs over contiguous non-empty rows; values go in the next row.
    """
    c0 = box.c0
    c1 = c0 + 1 if box.single else (sheet.cols if box.c1 is None else min(box.c1, sheet.cols))
    row_limit = sheet.rows if box.r1 is None else min(box.r1, sheet.rows)
    occupied = sorted({r for (r, c), cell in sheet.cells.items()
                       if cell.value is not None and c0 <= c < c1 and box.r0 <= r})
    if box.explicit_row:
        start = box.r0
    else:
        inside = [r for r in occupied if r < row_limit]
        if not inside:
            return None
        start = inside[0]
    end = start
    filled = set(occupied)
    while end in filled:
        end += 1
    if end == start:
        return None
    used_cols = [c for (r, c), cell in sheet.cells.items()
                 if cell.value is not None and start <= r < end and c0 <= c < c1]
    left = box.c0 if box.explicit_row or box.c0 else min(used_cols)
    return start, end, left, max(used_cols) + 1, left


# --------------------------------------------------------------------------------------
# batchUpdate requests
# --------------------------------------------------------------------------------------

SUPPORTED_REQUESTS = (
    "updateCells", "repeatCell", "addSheet", "deleteSheet", "duplicateSheet",
    "updateSheetProperties", "updateSpreadsheetProperties", "appendDimension",
    "insertDimension", "deleteDimension", "setDataValidation", "addProtectedRange",
    "updateProtectedRange", "deleteProtectedRange", "addNamedRange", "updateNamedRange",
    "deleteNamedRange", "createDeveloperMetadata", "updateDeveloperMetadata",
    "deleteDeveloperMetadata", "sortRange", "copyPaste", "cutPaste", "mergeCells",
    "unmergeCells", "setBasicFilter", "clearBasicFilter", "addConditionalFormatRule",
    "deleteConditionalFormatRule",
)
ACCEPTED_NO_OP_REQUESTS = (
    "updateBorders", "updateDimensionProperties", "autoResizeDimensions",
    "addDimensionGroup", "deleteDimensionGroup", "updateDimensionGroup",
)
# Other request kinds of the real API: answered with a clear "not supported by the fake".
_REAL_UNSUPPORTED = (
    "updateConditionalFormatRule", "updateEmbeddedObjectPosition", "updateEmbeddedObjectBorder",
    "addFilterView", "updateFilterView", "deleteFilterView", "duplicateFilterView", "addChart",
    "updateChartSpec", "deleteEmbeddedObject", "addBanding", "updateBanding", "deleteBanding",
    "findReplace", "pasteData", "textToColumns", "autoFill", "moveDimension",
    "deleteDuplicates", "trimWhitespace", "randomizeRange", "addSlicer", "updateSlicerSpec",
    "addDataSource", "updateDataSource", "deleteDataSource", "refreshDataSource",
    "addTable", "updateTable", "deleteTable", "cancelDataSourceRefresh", "deleteRange",
    "insertRange", "appendCells",
)

_CELL_FIELDS = ("userEnteredValue", "userEnteredFormat", "note", "dataValidation")
_IGNORED_CELL_FIELDS = ("textFormatRuns", "pivotTable", "dataSourceTable", "chipRuns",
                        "dataSourceFormula", "hyperlink", "effectiveValue", "formattedValue",
                        "effectiveFormat")
_CONDITION_TYPES = (
    "NUMBER_GREATER", "NUMBER_GREATER_THAN_EQ", "NUMBER_LESS", "NUMBER_LESS_THAN_EQ",
    "NUMBER_EQ", "NUMBER_NOT_EQ", "NUMBER_BETWEEN", "NUMBER_NOT_BETWEEN", "TEXT_CONTAINS",
    "TEXT_NOT_CONTAINS", "TEXT_STARTS_WITH", "TEXT_ENDS_WITH", "TEXT_EQ", "TEXT_IS_EMAIL",
    "TEXT_IS_URL", "DATE_EQ", "DATE_BEFORE", "DATE_AFTER", "DATE_ON_OR_BEFORE",
    "DATE_ON_OR_AFTER", "DATE_BETWEEN", "DATE_NOT_BETWEEN", "DATE_IS_VALID", "ONE_OF_RANGE",
    "ONE_OF_LIST", "BLANK", "NOT_BLANK", "CUSTOM_FORMULA", "BOOLEAN", "TEXT_NOT_EQ",
    "DATE_NOT_EQ", "FILTER_EXPRESSION",
)


def _int(value: Any, what: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise _RequestError(f"{what} must be an integer >= {minimum}, got {value!r}")
    return value


def _sheet(book: _Book, sheet_id: Any) -> _Sheet:
    sheet = book.sheet_by_id(sheet_id)
    if sheet is None:
        raise _RequestError(f"No grid with id: {sheet_id}")
    return sheet


def _grid_range(book: _Book, gr: Any) -> tuple[_Sheet, int, int, int, int]:
    """A GridRange as (sheet, r0, r1, c0, c1), unbounded sides filled from the grid."""
    if not isinstance(gr, dict):
        raise _RequestError("range must be a GridRange object")
    sheet = _sheet(book, gr.get("sheetId", 0))
    r0 = _int(gr.get("startRowIndex", 0), "startRowIndex")
    r1 = _int(gr.get("endRowIndex", sheet.rows), "endRowIndex")
    c0 = _int(gr.get("startColumnIndex", 0), "startColumnIndex")
    c1 = _int(gr.get("endColumnIndex", sheet.cols), "endColumnIndex")
    if r1 < r0 or c1 < c0:
        raise _RequestError("The start index must be less than or equal to the end index")
    if r1 > sheet.rows or c1 > sheet.cols:
        raise _RequestError(
            f"Range ({_a1(sheet, r0, r1, c0, c1)}) exceeds grid limits. "
            f"Max rows: {sheet.rows}, max columns: {sheet.cols}"
        )
    return sheet, r0, r1, c0, c1


def _dim_range(book: _Book, dr: Any, *, allow_end: bool = False) -> tuple[_Sheet, str, int, int]:
    if not isinstance(dr, dict):
        raise _RequestError("range must be a DimensionRange object")
    sheet = _sheet(book, dr.get("sheetId", 0))
    dim = dr.get("dimension")
    if dim not in _DIMENSIONS:
        raise _RequestError(f"Invalid dimension: {dim!r}")
    count = sheet.rows if dim == "ROWS" else sheet.cols
    start = _int(dr.get("startIndex", 0), "startIndex")
    end = _int(dr.get("endIndex", count), "endIndex")
    if end <= start:
        raise _RequestError("endIndex must be greater than startIndex")
    if (start > count if allow_end else end > count):
        raise _RequestError(
            f"Range exceeds grid limits. Max {'rows' if dim == 'ROWS' else 'columns'}: {count}"
        )
    return sheet, dim, start, end


def _from_extended(ev: Any) -> tuple[Any, bool] | None:
    """ExtendedValue -> (stored value, is_formula)."""
    if ev is None or ev == {}:
        return None
    if not isinstance(ev, dict) or len(ev) != 1:
        raise _RequestError("userEnteredValue must set exactly one of stringValue, "
                            "numberValue, boolValue, formulaValue")
    (kind, value), = ev.items()
    if kind == "stringValue":
        return (str(value), False) if value != "" else None
    if kind == "numberValue":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _RequestError(f"Invalid numberValue: {value!r}")
        return value, False
    if kind == "boolValue":
        return bool(value), False
    if kind == "formulaValue":
        if not isinstance(value, str) or not value.startswith("="):
            raise _RequestError(f"Invalid formulaValue: {value!r} (must start with '=')")
        return value, True
    raise _RequestError(f"Unsupported ExtendedValue kind: {kind}")


def _extended(value: Any, formula: bool = False) -> dict[str, Any]:
    if formula:
        return {"formulaValue": value}
    if isinstance(value, _Err):
        return {"errorValue": {"type": _ERROR_TYPES.get(str(value), "ERROR"),
                               "message": str(value)}}
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, (int, float)):
        return {"numberValue": _json_value(value)}
    return {"stringValue": str(value)}


def _check_rule(rule: Any) -> dict[str, Any]:
    if not isinstance(rule, dict) or not isinstance(rule.get("condition"), dict):
        raise _RequestError("A data validation rule needs a condition")
    kind = rule["condition"].get("type")
    if kind not in _CONDITION_TYPES:
        raise _RequestError(f"Invalid condition type: {kind!r}")
    if kind in ("ONE_OF_LIST", "ONE_OF_RANGE") and not rule["condition"].get("values"):
        raise _RequestError(f"{kind} condition requires values")
    return copy.deepcopy(rule)


def _cell_field_mask(fields: Any) -> _MaskTree:
    if not isinstance(fields, str) or not fields.strip():
        raise _RequestError("fields is required (use '*' for all fields)")
    try:
        mask = _parse_mask(fields)
    except _ApiError as err:
        raise _RequestError(err.message) from None
    if "*" in mask:
        return {name: None for name in _CELL_FIELDS}
    for name in mask:
        if name not in _CELL_FIELDS and name not in _IGNORED_CELL_FIELDS:
            raise _RequestError(f"Invalid field mask: unknown CellData field {name!r}")
    return mask


def _apply_cell(sheet: _Sheet, r: int, c: int, data: dict[str, Any], mask: _MaskTree) -> None:
    if not isinstance(data, dict):
        raise _RequestError("cell data must be a CellData object")
    changes: dict[str, Any] = {}
    if "userEnteredValue" in mask:
        entered = _from_extended(data.get("userEnteredValue"))
        changes["value"], changes["formula"] = entered if entered else (None, False)
    if "note" in mask:
        changes["note"] = data.get("note") or None
    if "dataValidation" in mask:
        rule = data.get("dataValidation")
        changes["validation"] = _check_rule(rule) if rule else None
    if "userEnteredFormat" in mask:
        given = data.get("userEnteredFormat") or {}
        sub = mask["userEnteredFormat"]
        if sub is None:
            changes["fmt"] = copy.deepcopy(given) or None
        else:
            current = copy.deepcopy((sheet.cells.get((r, c)) or _Cell()).fmt or {})
            for key in sub:
                if key in given:
                    current[key] = copy.deepcopy(given[key])
                else:
                    current.pop(key, None)
            changes["fmt"] = current or None
    if changes:
        sheet.put(r, c, **changes)


def _shift_pair(start: int | None, end: int | None, at: int, n: int,
                deleted_end: int | None = None) -> tuple[int | None, int | None] | None:
    """Shift [start, end) for an insertion of n at `at` (n > 0) or deletion [at, deleted_end)."""
    if deleted_end is None:
        s = start + n if start is not None and start >= at else start
        e = end + n if end is not None and end > at else end
        return s, e
    m = deleted_end - at

    def move(i: int | None, is_end: bool) -> int | None:
        if i is None:
            return None
        if i < at or (is_end and i == at):
            return i
        return at if i < deleted_end or (is_end and i == deleted_end) else i - m

    s, e = move(start, False), move(end, True)
    if s is not None and e is not None and e <= s:
        return None
    return s, e


_GRID_KEYS = {"ROWS": ("startRowIndex", "endRowIndex"),
              "COLUMNS": ("startColumnIndex", "endColumnIndex")}


def _shift_grid_range(gr: dict[str, Any], sheet_id: int, dim: str, at: int, n: int,
                      deleted_end: int | None) -> bool:
    """Shift a GridRange in place; False when it vanished."""
    if gr.get("sheetId", 0) != sheet_id:
        return True
    k0, k1 = _GRID_KEYS[dim]
    shifted = _shift_pair(gr.get(k0, 0), gr.get(k1), at, n, deleted_end)
    if shifted is None:
        return False
    gr[k0], end = shifted
    if end is not None:
        gr[k1] = end
    if not gr[k0]:
        gr.pop(k0)
    return True


def _shift_dimension(book: _Book, sheet: _Sheet, dim: str, at: int, n: int,
                     deleted_end: int | None = None) -> None:
    """Move cells and everything anchored to rows/columns after an insert or delete."""
    axis = 0 if dim == "ROWS" else 1
    moved: dict[tuple[int, int], _Cell] = {}
    for key, cell in sheet.cells.items():
        k = key[axis]
        if deleted_end is None:
            k = k + n if k >= at else k
        elif at <= k < deleted_end:
            continue
        elif k >= deleted_end:
            k -= deleted_end - at
        moved[(k, key[1]) if axis == 0 else (key[0], k)] = cell
    sheet.cells = moved
    frozen_key = "frozenRowCount" if dim == "ROWS" else "frozenColumnCount"
    frozen = sheet.grid.get(frozen_key, 0)
    if frozen:
        shifted = _shift_pair(0, frozen, at, n, deleted_end)
        sheet.grid[frozen_key] = shifted[1] if shifted else 0
    sheet.protected = [p for p in sheet.protected
                       if "range" not in p
                       or _shift_grid_range(p["range"], sheet.id, dim, at, n, deleted_end)]
    sheet.merges = [m for m in sheet.merges
                    if _shift_grid_range(m, sheet.id, dim, at, n, deleted_end)]
    book.named_ranges = [nr for nr in book.named_ranges
                         if _shift_grid_range(nr["range"], sheet.id, dim, at, n, deleted_end)]
    kept = []
    for meta in book.metadata:
        dr = meta["location"].get("dimensionRange")
        if dr and dr.get("sheetId", 0) == sheet.id and dr.get("dimension") == dim:
            shifted = _shift_pair(dr.get("startIndex", 0), dr.get("endIndex"), at, n,
                                  deleted_end)
            if shifted is None:
                continue
            dr["startIndex"], dr["endIndex"] = shifted
        kept.append(meta)
    book.metadata = kept


def _unique_title(book: _Book, title: str, exclude: _Sheet | None = None) -> None:
    if not isinstance(title, str) or not title.strip():
        raise _RequestError("Sheet title must not be empty")
    clash = book.sheet_by_title(title)
    if clash is not None and clash is not exclude and clash.title.casefold() == title.casefold():
        raise _RequestError(
            f'A sheet with the name "{title}" already exists. Please enter another name.'
        )


def _validate_grid(sheet: _Sheet) -> None:
    grid = sheet.grid
    for key in ("rowCount", "columnCount"):
        _int(grid.get(key), key, 1)
    if grid.get("frozenRowCount", 0) >= grid["rowCount"]:
        raise _RequestError("You can't freeze all visible rows on the sheet.")
    if grid.get("frozenColumnCount", 0) >= grid["columnCount"]:
        raise _RequestError("You can't freeze all visible columns on the sheet.")


def _metadata_out(meta: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(meta)
    loc = out["location"]
    if loc.get("spreadsheet"):
        loc["locationType"] = "SPREADSHEET"
    elif "sheetId" in loc:
        loc["locationType"] = "SHEET"
    else:
        loc["locationType"] = "ROW" if loc["dimensionRange"]["dimension"] == "ROWS" else "COLUMN"
    return out


def _metadata_matches(book: _Book, meta: dict[str, Any], data_filter: Any) -> bool:
    if not isinstance(data_filter, dict) or "developerMetadataLookup" not in data_filter:
        raise _RequestError("FakeSheetsServer only supports developerMetadataLookup filters")
    lookup = data_filter["developerMetadataLookup"]
    out = _metadata_out(meta)
    for key in ("metadataId", "metadataKey", "metadataValue", "visibility"):
        if key in lookup and out.get(key) != lookup[key]:
            return False
    if "locationType" in lookup and out["location"]["locationType"] != lookup["locationType"]:
        return False
    where = lookup.get("metadataLocation")
    if where:
        loc = out["location"]
        if "locationType" in where and loc["locationType"] != where["locationType"]:
            return False
        for key in ("spreadsheet", "sheetId", "dimensionRange"):
            if key in where and loc.get(key) != where[key]:
                return False
    return True


class _BatchApplier:
    """Applies spreadsheets.batchUpdate requests to a (cloned) book."""

    def __init__(self, book: _Book, evaluator_factory: Callable[[_Book], _Evaluator]):
        self.book = book
        self.evaluator_factory = evaluator_factory

    def apply(self, requests_: Any) -> list[dict[str, Any]]:
        if not isinstance(requests_, list) or not requests_:
            raise _bad("Invalid requests: Must specify at least one request.")
        replies = []
        for i, request in enumerate(requests_):
            if not isinstance(request, dict) or len(request) != 1:
                raise _bad(f"Invalid requests[{i}]: exactly one request kind must be set.")
            (kind, body), = request.items()
            body = _drop_nulls(body)  # proto3 JSON: null means "not set"
            handler = getattr(self, f"_r_{kind}", None)
            if handler is None and kind in ACCEPTED_NO_OP_REQUESTS:
                handler = self._no_op
            if handler is None:
                if kind in _REAL_UNSUPPORTED:
                    raise _bad(f"Invalid requests[{i}].{kind}: FakeSheetsServer does not "
                               f"implement this request kind.")
                raise _bad(f"Invalid JSON payload received. Unknown name \"{kind}\" at "
                           f"'requests[{i}]': Cannot find field.")
            try:
                if not isinstance(body, dict):
                    raise _RequestError("request body must be an object")
                reply = handler(body)
                if self.book.total_cells() > MAX_CELLS:
                    raise _RequestError(
                        "This action would increase the number of cells in the workbook above "
                        f"the limit of {MAX_CELLS} cells."
                    )
            except _RequestError as err:
                raise _bad(f"Invalid requests[{i}].{kind}: {err}") from None
            except _ApiError as err:
                raise _bad(f"Invalid requests[{i}].{kind}: {err.message}") from None
            replies.append(reply or {})
        return replies

    def _no_op(self, body: dict[str, Any]) -> None:
        for key in ("range", "dimensions"):
            value = body.get(key)
            if isinstance(value, dict):
                _sheet(self.book, value.get("sheetId", 0))

    # -- cells ---------------------------------------------------------------------------

    def _r_updateCells(self, body: dict[str, Any]) -> None:
        mask = _cell_field_mask(body.get("fields"))
        rows = body.get("rows") or []
        if not isinstance(rows, list):
            raise _RequestError("rows must be a list")
        if ("start" in body) == ("range" in body):
            raise _RequestError("Exactly one of start or range must be set")
        height = len(rows)
        width = max((len((row or {}).get("values") or []) for row in rows), default=0)
        if "start" in body:
            start = body["start"]
            sheet = _sheet(self.book, start.get("sheetId", 0))
            r0 = _int(start.get("rowIndex", 0), "rowIndex")
            c0 = _int(start.get("columnIndex", 0), "columnIndex")
            r1, c1 = r0 + height, c0 + width
            if r1 > sheet.rows or c1 > sheet.cols:
                raise _RequestError(
                    f"Range ({_a1(sheet, r0, max(r1, r0 + 1), c0, max(c1, c0 + 1))}) exceeds "
                    f"grid limits. Max rows: {sheet.rows}, max columns: {sheet.cols}"
                )
        else:
            sheet, r0, r1, c0, c1 = _grid_range(self.book, body["range"])
            if r0 + height > r1 or c0 + width > c1:
                raise _RequestError("The rows and values do not fit in the range")
        for i, row in enumerate(rows):
            for j, data in enumerate((row or {}).get("values") or []):
                _apply_cell(sheet, r0 + i, c0 + j, data, mask)
        if "range" in body:  # cells of the range without data are cleared for the fields
            for r in range(r0, r1):
                given = len((rows[r - r0] or {}).get("values") or []) if r - r0 < height else 0
                for c in range(c0 + given, c1):
                    if (r, c) in sheet.cells:
                        _apply_cell(sheet, r, c, {}, mask)

    def _r_repeatCell(self, body: dict[str, Any]) -> None:
        mask = _cell_field_mask(body.get("fields"))
        sheet, r0, r1, c0, c1 = _grid_range(self.book, body.get("range", {}))
        data = body.get("cell") or {}
        for r in range(r0, r1):
            for c in range(c0, c1):
                _apply_cell(sheet, r, c, data, mask)

    def _r_setDataValidation(self, body: dict[str, Any]) -> None:
        sheet, r0, r1, c0, c1 = _grid_range(self.book, body.get("range", {}))
        rule = _check_rule(body["rule"]) if body.get("rule") else None
        for r in range(r0, r1):
            for c in range(c0, c1):
                sheet.put(r, c, validation=copy.deepcopy(rule))

    def _r_sortRange(self, body: dict[str, Any]) -> None:
        sheet, r0, r1, c0, c1 = _grid_range(self.book, body.get("range", {}))
        specs = body.get("sortSpecs") or []
        evaluator = self.evaluator_factory(self.book)
        rows = []
        for r in range(r0, r1):
            cells = {c: sheet.cells.get((r, c)) for c in range(c0, c1)}
            keys = []
            for spec in specs:
                col = _int(spec.get("dimensionIndex", 0), "dimensionIndex")
                if not c0 <= col < c1:
                    raise _RequestError(f"dimensionIndex {col} is outside the range")
                keys.append((_sort_key(evaluator.value(sheet, r, col)),
                             spec.get("sortOrder", "ASCENDING")))
            rows.append((keys, cells))

        def sorter(item: tuple[list[Any], Any]) -> tuple[Any, ...]:
            out = []
            for (rank, val), order in item[0]:
                if rank == 3:  # blanks last in either order
                    out.append((1, 0, 0))
                elif order == "DESCENDING":
                    out.append((0, -rank, _Desc(val)))
                else:
                    out.append((0, rank, val))
            return tuple(out)

        rows.sort(key=sorter)
        for offset, (_keys, cells) in enumerate(rows):
            for c, cell in cells.items():
                if cell is None:
                    sheet.cells.pop((r0 + offset, c), None)
                else:
                    sheet.cells[(r0 + offset, c)] = cell

    def _copy_block(self, body: dict[str, Any], cut: bool) -> None:
        src, r0, r1, c0, c1 = _grid_range(self.book, body.get("source", {}))
        if cut:
            dest_info = body.get("destination") or {}
            dst = _sheet(self.book, dest_info.get("sheetId", 0))
            dr0 = _int(dest_info.get("rowIndex", 0), "rowIndex")
            dc0 = _int(dest_info.get("columnIndex", 0), "columnIndex")
        else:
            dst, dr0, _dr1, dc0, _dc1 = _grid_range(self.book, body.get("destination", {}))
        transpose = body.get("pasteOrientation", "NORMAL") == "TRANSPOSE"
        paste = body.get("pasteType", "PASTE_NORMAL")
        height, width = (c1 - c0, r1 - r0) if transpose else (r1 - r0, c1 - c0)
        if dr0 + height > dst.rows or dc0 + width > dst.cols:
            raise _RequestError("The destination exceeds grid limits")
        evaluator = self.evaluator_factory(self.book)
        block = {}
        for r in range(r0, r1):
            for c in range(c0, c1):
                cell = src.cells.get((r, c)) or _Cell()
                if paste == "PASTE_VALUES" and cell.formula:
                    cell = replace(cell, value=_json_value(evaluator.value(src, r, c)),
                                   formula=False)
                dr, dc = (c - c0, r - r0) if transpose else (r - r0, c - c0)
                block[(dr0 + dr, dc0 + dc)] = cell
        if cut:
            for r in range(r0, r1):
                for c in range(c0, c1):
                    src.cells.pop((r, c), None)
        for (r, c), cell in block.items():
            old = dst.cells.get((r, c)) or _Cell()
            if paste in ("PASTE_NORMAL", "PASTE_NO_BORDERS") or cut:
                new = cell
            elif paste in ("PASTE_VALUES", "PASTE_FORMULA"):
                new = replace(old, value=cell.value, formula=cell.formula)
            elif paste == "PASTE_FORMAT":
                new = replace(old, fmt=cell.fmt)
            elif paste == "PASTE_DATA_VALIDATION":
                new = replace(old, validation=cell.validation)
            else:
                raise _RequestError(f"Unsupported pasteType: {paste}")
            if new.void():
                dst.cells.pop((r, c), None)
            else:
                dst.cells[(r, c)] = new

    def _r_copyPaste(self, body: dict[str, Any]) -> None:
        self._copy_block(body, cut=False)

    def _r_cutPaste(self, body: dict[str, Any]) -> None:
        self._copy_block(body, cut=True)

    # -- sheets --------------------------------------------------------------------------

    def _r_addSheet(self, body: dict[str, Any]) -> dict[str, Any]:
        props = copy.deepcopy(body.get("properties") or {})
        book = self.book
        if props.get("sheetType", "GRID") != "GRID":
            raise _RequestError("FakeSheetsServer only supports GRID sheets")
        title = props.get("title")
        if title is None:
            n = len(book.sheets) + 1
            while book.sheet_by_title(f"Sheet{n}") is not None:
                n += 1
            title = f"Sheet{n}"
        _unique_title(book, title)
        if "sheetId" in props:
            sheet_id = _int(props["sheetId"], "sheetId")
            if book.sheet_by_id(sheet_id) is not None:
                raise _RequestError(f"A sheet with the id {sheet_id} already exists.")
        else:
            sheet_id = book.new_id(s.id for s in book.sheets)
        index = _int(props.get("index", len(book.sheets)), "index")
        if index > len(book.sheets):
            raise _RequestError(f"index {index} is beyond the number of sheets")
        grid = props.get("gridProperties") or {}
        sheet = _Sheet(sheet_id, title, index, grid.get("rowCount", DEFAULT_ROWS),
                       grid.get("columnCount", DEFAULT_COLS))
        for key, value in grid.items():
            sheet.grid[key] = value
        for key in ("hidden", "tabColor", "tabColorStyle", "rightToLeft"):
            if key in props:
                sheet.props[key] = props[key]
        _validate_grid(sheet)
        book.sheets.insert(index, sheet)
        book.reindex()
        return {"addSheet": {"properties": sheet.properties_json()}}

    def _r_deleteSheet(self, body: dict[str, Any]) -> None:
        book = self.book
        sheet = _sheet(book, body.get("sheetId", 0))
        if len(book.sheets) == 1:
            raise _RequestError("You can't remove all the sheets in a document.")
        book.sheets.remove(sheet)
        book.reindex()
        book.named_ranges = [n for n in book.named_ranges
                             if n["range"].get("sheetId", 0) != sheet.id]
        book.metadata = [
            m for m in book.metadata
            if m["location"].get("sheetId") != sheet.id
            and (m["location"].get("dimensionRange") or {}).get("sheetId", -1) != sheet.id
        ]

    def _r_duplicateSheet(self, body: dict[str, Any]) -> dict[str, Any]:
        book = self.book
        source = _sheet(book, body.get("sourceSheetId", 0))
        title = body.get("newSheetName")
        if not title:
            title, n = f"Copy of {source.title}", 2
            while book.sheet_by_title(title) is not None:
                title, n = f"Copy of {source.title} {n}", n + 1
        _unique_title(book, title)
        if "newSheetId" in body:
            sheet_id = _int(body["newSheetId"], "newSheetId")
            if book.sheet_by_id(sheet_id) is not None:
                raise _RequestError(f"A sheet with the id {sheet_id} already exists.")
        else:
            sheet_id = book.new_id(s.id for s in book.sheets)
        index = _int(body.get("insertSheetIndex", len(book.sheets)), "insertSheetIndex")
        if index > len(book.sheets):
            raise _RequestError(f"insertSheetIndex {index} is beyond the number of sheets")
        new = source.clone()
        new.props["sheetId"] = sheet_id
        new.props["title"] = title
        for group in (new.protected, new.merges):
            for item in group:
                target = item.get("range", item)
                if isinstance(target, dict) and "sheetId" in target:
                    target["sheetId"] = sheet_id
        for pr in new.protected:
            pr["protectedRangeId"] = book.new_id(self._protected_ids())
        book.sheets.insert(index, new)
        book.reindex()
        return {"duplicateSheet": {"properties": new.properties_json()}}

    def _r_updateSheetProperties(self, body: dict[str, Any]) -> None:
        props = body.get("properties") or {}
        sheet = _sheet(self.book, props.get("sheetId", 0))
        fields = body.get("fields")
        if not isinstance(fields, str) or not fields.strip():
            raise _RequestError("fields is required")
        mask = _parse_mask(fields)
        if "*" in mask:
            mask = {k: None for k in props if k != "sheetId"}
        for key, sub in mask.items():
            if key == "sheetId":
                if props.get("sheetId", 0) != sheet.id:
                    raise _RequestError("sheetId cannot be changed")
            elif key == "title":
                _unique_title(self.book, props.get("title", ""), exclude=sheet)
                sheet.props["title"] = props["title"]
            elif key == "index":
                self._move_sheet(sheet, _int(props.get("index", 0), "index"))
            elif key == "gridProperties":
                given = props.get("gridProperties") or {}
                names = list(given) if sub is None else list(sub)
                for name in names:
                    if name not in ("rowCount", "columnCount", "frozenRowCount",
                                    "frozenColumnCount", "hideGridlines",
                                    "rowGroupControlAfter", "columnGroupControlAfter"):
                        raise _RequestError(f"Unknown gridProperties field: {name}")
                    if name in given:
                        sheet.grid[name] = given[name]
                    elif name in ("rowCount", "columnCount"):
                        raise _RequestError(f"{name} must be set when it is in fields")
                    else:
                        sheet.grid.pop(name, None)
                _validate_grid(sheet)
                sheet.drop_outside_grid()
            elif key in ("hidden", "tabColor", "tabColorStyle", "rightToLeft", "sheetType"):
                if key in props:
                    sheet.props[key] = copy.deepcopy(props[key])
                else:
                    sheet.props.pop(key, None)
            else:
                raise _RequestError(f"Invalid field mask: unknown SheetProperties field {key}")
        if all(s.props.get("hidden") for s in self.book.sheets):
            raise _RequestError("You can't hide all the sheets in a document.")

    def _move_sheet(self, sheet: _Sheet, index: int) -> None:
        """Indexes count "before the move", as the API documents."""
        sheets = self.book.sheets
        if index > len(sheets):
            raise _RequestError(f"index {index} is beyond the number of sheets")
        old = sheets.index(sheet)
        sheets.remove(sheet)
        sheets.insert(index - 1 if index > old else index, sheet)
        self.book.reindex()

    def _r_updateSpreadsheetProperties(self, body: dict[str, Any]) -> None:
        props = body.get("properties") or {}
        fields = body.get("fields")
        if not isinstance(fields, str) or not fields.strip():
            raise _RequestError("fields is required")
        mask = _parse_mask(fields)
        if "*" in mask:
            mask = {k: None for k in props}
        allowed = ("title", "locale", "timeZone", "autoRecalc", "defaultFormat",
                   "iterativeCalculationSettings", "spreadsheetTheme",
                   "importFunctionsExternalUrlAccessAllowed")
        for key in mask:
            if key not in allowed:
                raise _RequestError(f"Invalid field mask: unknown SpreadsheetProperties "
                                    f"field {key}")
            if key in props:
                self.book.props[key] = copy.deepcopy(props[key])
            elif key in ("title", "locale", "timeZone"):
                raise _RequestError(f"{key} must be set when it is in fields")
            else:
                self.book.props.pop(key, None)

    # -- dimensions ----------------------------------------------------------------------

    def _r_appendDimension(self, body: dict[str, Any]) -> None:
        sheet = _sheet(self.book, body.get("sheetId", 0))
        dim = body.get("dimension")
        if dim not in _DIMENSIONS:
            raise _RequestError(f"Invalid dimension: {dim!r}")
        length = _int(body.get("length", 0), "length", 1)
        sheet.grid["rowCount" if dim == "ROWS" else "columnCount"] += length

    def _r_insertDimension(self, body: dict[str, Any]) -> None:
        sheet, dim, start, end = _dim_range(self.book, body.get("range"), allow_end=True)
        if start == 0 and body.get("inheritFromBefore"):
            raise _RequestError("Cannot inherit properties from before the first row/column")
        sheet.grid["rowCount" if dim == "ROWS" else "columnCount"] += end - start
        _shift_dimension(self.book, sheet, dim, start, end - start)

    def _r_deleteDimension(self, body: dict[str, Any]) -> None:
        sheet, dim, start, end = _dim_range(self.book, body.get("range"))
        key = "rowCount" if dim == "ROWS" else "columnCount"
        if end - start >= sheet.grid[key]:
            what = "rows" if dim == "ROWS" else "columns"
            raise _RequestError(f"You can't delete all the {what} on the sheet.")
        _shift_dimension(self.book, sheet, dim, start, -(end - start), deleted_end=end)
        sheet.grid[key] -= end - start

    # -- protected and named ranges ------------------------------------------------------

    def _protected_ids(self) -> list[int]:
        return [p["protectedRangeId"] for s in self.book.sheets for p in s.protected]

    def _check_protected(self, pr: dict[str, Any]) -> _Sheet:
        if pr.get("warningOnly") and pr.get("editors"):
            raise _RequestError("Warning-only protected ranges cannot have editors.")
        if "namedRangeId" in pr:
            named = next((n for n in self.book.named_ranges
                          if n["namedRangeId"] == pr["namedRangeId"]), None)
            if named is None:
                raise _RequestError(f"No named range with id: {pr['namedRangeId']}")
            return _sheet(self.book, named["range"].get("sheetId", 0))
        if "range" not in pr:
            raise _RequestError("A protected range needs a range or a namedRangeId")
        return _grid_range(self.book, pr["range"])[0]

    def _r_addProtectedRange(self, body: dict[str, Any]) -> dict[str, Any]:
        pr = copy.deepcopy(body.get("protectedRange") or {})
        sheet = self._check_protected(pr)
        taken = self._protected_ids()
        if "protectedRangeId" in pr:
            if pr["protectedRangeId"] in taken:
                raise _RequestError(f"A protected range with id {pr['protectedRangeId']} "
                                    "already exists.")
        else:
            pr["protectedRangeId"] = self.book.new_id(taken)
        pr["requestingUserCanEdit"] = True
        sheet.protected.append(pr)
        return {"addProtectedRange": {"protectedRange": copy.deepcopy(pr)}}

    def _find_protected(self, pr_id: Any) -> tuple[_Sheet, dict[str, Any]]:
        for sheet in self.book.sheets:
            for pr in sheet.protected:
                if pr["protectedRangeId"] == pr_id:
                    return sheet, pr
        raise _RequestError(f"No protected range with id: {pr_id}")

    def _r_updateProtectedRange(self, body: dict[str, Any]) -> None:
        given = body.get("protectedRange") or {}
        sheet, pr = self._find_protected(given.get("protectedRangeId"))
        mask = _parse_mask(body.get("fields") or "")
        if "*" in mask:
            mask = {k: None for k in given if k != "protectedRangeId"}
        updated = copy.deepcopy(pr)
        for key in mask:
            if key in given:
                updated[key] = copy.deepcopy(given[key])
            else:
                updated.pop(key, None)
        new_sheet = self._check_protected(updated)
        sheet.protected.remove(pr)
        new_sheet.protected.append(updated)

    def _r_deleteProtectedRange(self, body: dict[str, Any]) -> None:
        sheet, pr = self._find_protected(body.get("protectedRangeId"))
        sheet.protected.remove(pr)

    def _check_named(self, nr: dict[str, Any], exclude: dict[str, Any] | None = None) -> None:
        name = nr.get("name")
        valid = isinstance(name, str) and re.match(r"^[A-Za-z_][A-Za-z0-9_.]*$", name)
        if not valid or _parse_cells(name) is not None or name.upper() in ("TRUE", "FALSE"):
            raise _RequestError(f"Invalid name for a named range: {name!r}")
        for other in self.book.named_ranges:
            if other is not exclude and other["name"].casefold() == name.casefold():
                raise _RequestError(f"A named range with the name {name} already exists.")
        _grid_range(self.book, nr.get("range"))

    def _r_addNamedRange(self, body: dict[str, Any]) -> dict[str, Any]:
        nr = copy.deepcopy(body.get("namedRange") or {})
        self._check_named(nr)
        taken = {n["namedRangeId"] for n in self.book.named_ranges}
        if "namedRangeId" in nr:
            if nr["namedRangeId"] in taken:
                raise _RequestError(f"A named range with id {nr['namedRangeId']} exists.")
        else:
            nr["namedRangeId"] = f"nr{self.book.new_id()}"
        self.book.named_ranges.append(nr)
        return {"addNamedRange": {"namedRange": copy.deepcopy(nr)}}

    def _find_named(self, nr_id: Any) -> dict[str, Any]:
        found = next((n for n in self.book.named_ranges if n["namedRangeId"] == nr_id), None)
        if found is None:
            raise _RequestError(f"No named range with id: {nr_id}")
        return found

    def _r_updateNamedRange(self, body: dict[str, Any]) -> None:
        given = body.get("namedRange") or {}
        current = self._find_named(given.get("namedRangeId"))
        mask = _parse_mask(body.get("fields") or "")
        if "*" in mask:
            mask = {k: None for k in given if k != "namedRangeId"}
        updated = copy.deepcopy(current)
        for key in mask:
            if key not in ("name", "range"):
                raise _RequestError(f"Invalid field mask: unknown NamedRange field {key}")
            updated[key] = copy.deepcopy(given.get(key))
        self._check_named(updated, exclude=current)
        current.clear()
        current.update(updated)

    def _r_deleteNamedRange(self, body: dict[str, Any]) -> None:
        self.book.named_ranges.remove(self._find_named(body.get("namedRangeId")))

    # -- developer metadata --------------------------------------------------------------

    def _check_location(self, loc: Any) -> dict[str, Any]:
        if not isinstance(loc, dict):
            raise _RequestError("Developer metadata must have a location")
        loc = {k: v for k, v in loc.items() if k != "locationType"}
        if len(loc) != 1:
            raise _RequestError("A metadata location must set exactly one of spreadsheet, "
                                "sheetId or dimensionRange")
        if "spreadsheet" in loc:
            if loc["spreadsheet"] is not True:
                raise _RequestError("location.spreadsheet must be true")
        elif "sheetId" in loc:
            _sheet(self.book, loc["sheetId"])
        elif "dimensionRange" in loc:
            _dim_range(self.book, loc["dimensionRange"])
        else:
            raise _RequestError(f"Unknown metadata location: {sorted(loc)}")
        return copy.deepcopy(loc)

    def _r_createDeveloperMetadata(self, body: dict[str, Any]) -> dict[str, Any]:
        dm = copy.deepcopy(body.get("developerMetadata") or {})
        if not dm.get("metadataKey"):
            raise _RequestError("Developer metadata must always have a key specified.")
        if dm.get("visibility") not in ("DOCUMENT", "PROJECT"):
            raise _RequestError("Developer metadata must always have a visibility specified.")
        dm["location"] = self._check_location(dm.get("location"))
        taken = [m["metadataId"] for m in self.book.metadata]
        if "metadataId" in dm:
            _int(dm["metadataId"], "metadataId", 1)
            if dm["metadataId"] in taken:
                raise _RequestError(f"Developer metadata with id {dm['metadataId']} exists.")
        else:
            dm["metadataId"] = self.book.new_id(taken)
        self.book.metadata.append(dm)
        return {"createDeveloperMetadata": {"developerMetadata": _metadata_out(dm)}}

    def _r_updateDeveloperMetadata(self, body: dict[str, Any]) -> dict[str, Any]:
        filters = body.get("dataFilters") or []
        given = body.get("developerMetadata") or {}
        mask = _parse_mask(body.get("fields") or "")
        if "*" in mask:
            mask = {k: None for k in given if k != "metadataId"}
        updated = []
        for meta in self.book.metadata:
            if any(_metadata_matches(self.book, meta, f) for f in filters):
                for key in mask:
                    if key not in ("metadataKey", "metadataValue", "visibility", "location"):
                        raise _RequestError(f"Invalid field mask: {key} cannot be updated")
                    if key == "location":
                        meta["location"] = self._check_location(given.get("location"))
                    elif key in given:
                        meta[key] = given[key]
                    else:
                        meta.pop(key, None)
                updated.append(_metadata_out(meta))
        return {"updateDeveloperMetadata": {"developerMetadata": updated}}

    def _r_deleteDeveloperMetadata(self, body: dict[str, Any]) -> dict[str, Any]:
        data_filter = body.get("dataFilter")
        deleted = [m for m in self.book.metadata
                   if _metadata_matches(self.book, m, data_filter)]
        self.book.metadata = [m for m in self.book.metadata if m not in deleted]
        reply: dict[str, Any] = {}
        if deleted:
            reply["deletedDeveloperMetadata"] = [_metadata_out(m) for m in deleted]
        return {"deleteDeveloperMetadata": reply}

    # -- stored-only structures -----------------------------------------------------------

    def _r_mergeCells(self, body: dict[str, Any]) -> None:
        sheet, r0, r1, c0, c1 = _grid_range(self.book, body.get("range", {}))
        merge_type = body.get("mergeType", "MERGE_ALL")
        if merge_type == "MERGE_ALL":
            spans = [(r0, r1, c0, c1)]
        elif merge_type == "MERGE_COLUMNS":
            spans = [(r0, r1, c, c + 1) for c in range(c0, c1)]
        elif merge_type == "MERGE_ROWS":
            spans = [(r, r + 1, c0, c1) for r in range(r0, r1)]
        else:
            raise _RequestError(f"Invalid mergeType: {merge_type!r}")
        for a, b, c, d in spans:
            for m in sheet.merges:
                if (a < m["endRowIndex"] and m["startRowIndex"] < b
                        and c < m["endColumnIndex"] and m["startColumnIndex"] < d):
                    raise _RequestError("You can't merge cells that overlap an existing merge.")
            sheet.merges.append({"sheetId": sheet.id, "startRowIndex": a, "endRowIndex": b,
                                 "startColumnIndex": c, "endColumnIndex": d})

    def _r_unmergeCells(self, body: dict[str, Any]) -> None:
        sheet, r0, r1, c0, c1 = _grid_range(self.book, body.get("range", {}))
        sheet.merges = [
            m for m in sheet.merges
            if not (r0 < m["endRowIndex"] and m["startRowIndex"] < r1
                    and c0 < m["endColumnIndex"] and m["startColumnIndex"] < c1)
        ]

    def _r_setBasicFilter(self, body: dict[str, Any]) -> None:
        flt = copy.deepcopy(body.get("filter") or {})
        sheet = _grid_range(self.book, flt.get("range", {}))[0]
        sheet.basic_filter = flt

    def _r_clearBasicFilter(self, body: dict[str, Any]) -> None:
        _sheet(self.book, body.get("sheetId", 0)).basic_filter = None

    def _r_addConditionalFormatRule(self, body: dict[str, Any]) -> None:
        rule = copy.deepcopy(body.get("rule") or {})
        ranges = rule.get("ranges") or []
        if not ranges:
            raise _RequestError("A conditional format rule needs ranges")
        sheet = _grid_range(self.book, ranges[0])[0]
        index = _int(body.get("index", 0), "index")
        sheet.conditional_formats.insert(min(index, len(sheet.conditional_formats)), rule)

    def _r_deleteConditionalFormatRule(self, body: dict[str, Any]) -> dict[str, Any]:
        sheet = _sheet(self.book, body.get("sheetId", 0))
        index = _int(body.get("index", 0), "index")
        if index >= len(sheet.conditional_formats):
            raise _RequestError(f"No conditional format rule at index {index}")
        rule = sheet.conditional_formats.pop(index)
        return {"deleteConditionalFormatRule": {"rule": rule}}


def _drop_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_drop_nulls(v) for v in value]
    return value


class _Desc:
    """Inverts ordering for descending sorts."""

    def __init__(self, value: Any):
        self.value = value

    def __lt__(self, other: _Desc) -> bool:
        return other.value < self.value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Desc) and self.value == other.value

    __hash__ = None  # type: ignore[assignment]


# --------------------------------------------------------------------------------------
# HTTP plumbing
# --------------------------------------------------------------------------------------


class RecordedRequest(NamedTuple):
    """One request the server received: method, percent-decoded path, parsed query."""

    method: str
    path: str
    query: dict[str, list[str]]


class _RewritingAdapter(HTTPAdapter):
    """Sends requests for a Google origin to the fake server instead."""

    def __init__(self, origin: str, target: str):
        super().__init__()
        self.origin = origin
        self.target = target

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        url = request.url or ""
        if url.startswith(self.origin):
            request.url = self.target + url[len(self.origin):]
        kwargs["proxies"] = {}
        return super().send(request, **kwargs)


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    fake: FakeSheetsServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that timed out or a dropped connection is part of the game, not an error.
        import sys

        if isinstance(sys.exc_info()[1], OSError):
            return
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FakeSheets/1.0"
    disable_nagle_algorithm = True  # avoid 40 ms delayed-ACK stalls per request
    wbufsize = -1  # buffer the response so headers and body leave in one write
    server: _HTTPServer

    def log_message(self, format: str, *args: Any) -> None:
        return

    def finish(self) -> None:
        with contextlib.suppress(OSError):
            super().finish()

    def _go(self) -> None:
        self.server.fake._handle(self)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _go


_FAULT_KINDS = (429, 500, 503, "timeout", "drop")


class _Outcome(NamedTuple):
    status: int
    body: Any  # JSON-able, or None for an empty body


class FakeSheetsServer:
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
    """

    def __init__(self, *, latency: float = 0.0, seed: int = 0):
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
        self.requests: list[RecordedRequest] = []
        self.faults_injected: list[tuple[RecordedRequest, Any]] = []
        self.internal_errors: list[str] = []

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> FakeSheetsServer:
        if self._httpd is None:
            httpd = _HTTPServer(("127.0.0.1", 0), _Handler)
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

    def session(self) -> requests.Session:
        """A requests.Session that sends Sheets (and Drive) API calls to this server."""
        session = requests.Session()
        session.trust_env = False
        session.mount(SHEETS_ORIGIN, _RewritingAdapter(SHEETS_ORIGIN, self.url))
        session.mount(DRIVE_ORIGIN, _RewritingAdapter(DRIVE_ORIGIN, self.url))
        return session

    def client(self) -> Any:
        """``gspread.Client(auth=None, session=self.session())``."""
        import gspread

        return gspread.Client(auth=None, session=self.session())

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
    ) -> str:
        """Create a spreadsheet; returns its id.

        ``sheets`` maps tab titles to rows of values (or is a list of titles). Each grid is
        ``rows`` x ``cols``, grown to fit the data. Values are stored as given
        (``input_option="RAW"``) or parsed like typed text (``"USER_ENTERED"``: numbers,
        TRUE/FALSE, ``=`` formulas). The first tab gets sheetId 0, like a new spreadsheet.
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

    # -- request handling --------------------------------------------------------------------

    def _handle(self, handler: _Handler) -> None:
        try:
            length = int(handler.headers.get("Content-Length") or 0)
            raw = handler.rfile.read(length) if length else b""
        except (OSError, ValueError):
            handler.close_connection = True
            return
        split = urlsplit(handler.path)
        query = parse_qs(split.query, keep_blank_values=True)
        record = RecordedRequest(handler.command, unquote(split.path), query)
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
        if fault is None or after:
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

    # -- routing -----------------------------------------------------------------------------

    def _dispatch(self, method: str, raw_path: str, query: dict[str, list[str]],
                  raw: bytes) -> tuple[int, Any]:
        def body() -> dict[str, Any]:
            if not raw.strip():
                return {}
            try:
                parsed = json.loads(raw)
            except ValueError:
                raise _bad("Invalid JSON payload received. Unexpected token.") from None
            if not isinstance(parsed, dict):
                raise _bad("Invalid JSON payload received. Expected an object.")
            return parsed

        if raw_path.startswith("/drive/v3/files"):
            return self._drive(method, raw_path[len("/drive/v3/files"):], query, body)
        prefix = "/v4/spreadsheets"
        if not raw_path.startswith(prefix):
            raise _ApiError(404, f"Method not found: {unquote(raw_path)}")
        rest = raw_path[len(prefix):].lstrip("/")
        if rest == "":
            if method == "POST":
                return 200, self._create_from_api(body())
            raise _ApiError(404, "Method not found.")
        segments = rest.split("/")
        head = unquote(segments[0])
        if len(segments) == 1:
            if head.endswith(":batchUpdate") and method == "POST":
                return 200, self._batch_update(head[: -len(":batchUpdate")], body())
            if method == "GET":
                with self._lock:
                    book = self._access(head)
                    ranges = query.get("ranges", [])
                    fields = _q(query, "fields")
                    grid = _q(query, "includeGridData", "false").lower() == "true"
                    if fields:
                        grid = _mask_selects(_parse_mask(fields), ["sheets", "data"])
                    return 200, self._spreadsheet_json(book, ranges, grid)
            raise _ApiError(404, "Method not found.")
        second = segments[1]
        if second == "values" and len(segments) >= 3:
            return 200, self._values_range(method, head, "/".join(segments[2:]), query, body)
        if second.startswith("values:") and len(segments) == 2 and method in ("GET", "POST"):
            return 200, self._values_batch(method, head, second[len("values:"):], query, body)
        if second == "developerMetadata" and len(segments) == 3 and method == "GET":
            return 200, self._metadata_get(head, unquote(segments[2]))
        if second == "developerMetadata:search" and method == "POST":
            return 200, self._metadata_search(head, body())
        copy_to = len(segments) == 3 and segments[2].endswith(":copyTo")
        if second == "sheets" and copy_to and method == "POST":
            return 200, self._copy_to(head, unquote(segments[2][: -len(":copyTo")]), body())
        raise _ApiError(404, f"Method not found: {unquote(raw_path)}")

    def _access(self, spreadsheet_id: str) -> _Book:
        book = self._books.get(spreadsheet_id)
        if book is None:
            raise _ApiError(404, "Requested entity was not found.")
        if spreadsheet_id in self._denied:
            raise _ApiError(403, "The caller does not have permission")
        return book

    def _mutate(self, spreadsheet_id: str, change: Callable[[_Book], Any]) -> Any:
        """Apply ``change`` to a copy of the book; keep the copy only if it succeeds."""
        with self._lock:
            book = self._access(spreadsheet_id)
            work = book.clone()
            result = change(work)
            work.modified = _now()
            self._books[spreadsheet_id] = work
            return result

    # -- spreadsheets ------------------------------------------------------------------------

    def _spreadsheet_json(self, book: _Book, ranges: list[str], grid: bool) -> dict[str, Any]:
        wanted: dict[int, list[tuple[int, int, int, int]]] = {}
        for a1 in ranges:
            sheet, box = book.resolve(a1)
            wanted.setdefault(sheet.id, []).append(_clip(sheet, box))
        evaluator = _Evaluator(book)
        sheets_out = []
        for sheet in book.sheets:
            if ranges and sheet.id not in wanted:
                continue
            entry: dict[str, Any] = {"properties": sheet.properties_json()}
            if sheet.merges:
                entry["merges"] = copy.deepcopy(sheet.merges)
            if sheet.conditional_formats:
                entry["conditionalFormats"] = copy.deepcopy(sheet.conditional_formats)
            if sheet.protected:
                entry["protectedRanges"] = copy.deepcopy(sheet.protected)
            if sheet.basic_filter:
                entry["basicFilter"] = copy.deepcopy(sheet.basic_filter)
            sheet_meta = [_metadata_out(m) for m in book.metadata
                          if m["location"].get("sheetId") == sheet.id]
            if sheet_meta:
                entry["developerMetadata"] = sheet_meta
            if grid:
                boxes = wanted.get(sheet.id) or [(0, sheet.rows, 0, sheet.cols)]
                entry["data"] = [_grid_data(sheet, b, evaluator) for b in boxes]
            sheets_out.append(entry)
        out: dict[str, Any] = {
            "spreadsheetId": book.id,
            "properties": copy.deepcopy(book.props),
            "sheets": sheets_out,
            "spreadsheetUrl": f"https://docs.google.com/spreadsheets/d/{book.id}/edit",
        }
        if book.named_ranges:
            out["namedRanges"] = copy.deepcopy(book.named_ranges)
        book_meta = [_metadata_out(m) for m in book.metadata if m["location"].get("spreadsheet")]
        if book_meta:
            out["developerMetadata"] = book_meta
        return out

    def _create_from_api(self, body: dict[str, Any]) -> dict[str, Any]:
        props = body.get("properties") or {}
        sheets = body.get("sheets") or [{}]
        titles = [(s.get("properties") or {}).get("title") or f"Sheet{i + 1}"
                  for i, s in enumerate(sheets)]
        try:
            sid = self.create_spreadsheet(
                props.get("title", "Untitled spreadsheet"), titles,
                time_zone=props.get("timeZone", "Etc/GMT"), locale=props.get("locale", "en_US"),
            )
        except ValueError as err:
            raise _bad(str(err)) from None
        with self._lock:
            book = self._books[sid]
            for sheet, given in zip(book.sheets, sheets):
                grid = (given.get("properties") or {}).get("gridProperties") or {}
                sheet.grid.update(grid)
            return self._spreadsheet_json(book, [], False)

    def _batch_update(self, spreadsheet_id: str, body: dict[str, Any]) -> dict[str, Any]:
        def change(book: _Book) -> dict[str, Any]:
            replies = _BatchApplier(book, _Evaluator).apply(body.get("requests"))
            out: dict[str, Any] = {"spreadsheetId": book.id, "replies": replies}
            if body.get("includeSpreadsheetInResponse"):
                out["updatedSpreadsheet"] = self._spreadsheet_json(
                    book, body.get("responseRanges") or [],
                    bool(body.get("responseIncludeGridData")),
                )
            return out

        return self._mutate(spreadsheet_id, change)

    def _copy_to(self, spreadsheet_id: str, sheet_id: str, body: dict[str, Any]) -> dict:
        with self._lock:
            source = self._access(spreadsheet_id)
            try:
                sheet = source.sheet_by_id(int(sheet_id))
            except ValueError:
                sheet = None
            if sheet is None:
                raise _ApiError(404, "Requested entity was not found.")
            dest_id = body.get("destinationSpreadsheetId")
            if not dest_id:
                raise _bad("destinationSpreadsheetId is required")

            def change(book: _Book) -> dict[str, Any]:
                new = sheet.clone()
                new.protected, new.merges = [], []
                new.props["sheetId"] = book.new_id(s.id for s in book.sheets)
                title, n = f"Copy of {sheet.title}", 2
                while book.sheet_by_title(title) is not None:
                    title, n = f"Copy of {sheet.title} {n}", n + 1
                new.props["title"] = title
                new.props["index"] = len(book.sheets)
                book.sheets.append(new)
                return new.properties_json()

            return self._mutate(dest_id, change)

    # -- values ------------------------------------------------------------------------------

    def _values_range(self, method: str, spreadsheet_id: str, raw_range: str,
                      query: dict[str, list[str]], body: Callable[[], dict[str, Any]]) -> dict:
        action = None
        for suffix in (":append", ":clear"):
            if raw_range.endswith(suffix):
                action, raw_range = suffix[1:], raw_range[: -len(suffix)]
        a1 = unquote(raw_range)
        if action is None and method == "GET":
            major = _enum(query, "majorDimension", _DIMENSIONS, "ROWS")
            option = _enum(query, "valueRenderOption", _RENDER_OPTIONS, "FORMATTED_VALUE")
            _enum(query, "dateTimeRenderOption", _DATETIME_OPTIONS, "SERIAL_NUMBER")
            with self._lock:
                book = self._access(spreadsheet_id)
                sheet, box = book.resolve(a1)
                return _value_range(book, sheet, _clip(sheet, box), major, option,
                                    _Evaluator(book))
        if action is None and method == "PUT":
            payload = body()
            option = _required_input_option(query)
            return self._mutate(spreadsheet_id,
                                lambda book: self._update_one(book, a1, payload, option, query))
        if action == "append" and method == "POST":
            payload = body()
            option = _required_input_option(query)
            insert = _enum(query, "insertDataOption", _INSERT_OPTIONS, "OVERWRITE")
            return self._mutate(
                spreadsheet_id,
                lambda book: self._append(book, a1, payload, option, insert, query),
            )
        if action == "clear" and method == "POST":
            body()

            def clear(book: _Book) -> dict[str, Any]:
                return {"spreadsheetId": book.id, "clearedRange": _clear(book, a1)}

            return self._mutate(spreadsheet_id, clear)
        raise _ApiError(404, "Method not found.")

    def _update_one(self, book: _Book, a1: str, payload: dict[str, Any], option: str,
                    params: dict[str, Any]) -> dict[str, Any]:
        result, sheet, bounds = _update_values(book, a1, payload, option)
        if _truthy(_q(params, "includeValuesInResponse")):
            result["updatedData"] = self._response_data(book, sheet, bounds, a1, params)
        return result

    def _response_data(self, book: _Book, sheet: _Sheet, bounds: Any, a1: str,
                       params: dict[str, Any]) -> dict[str, Any]:
        option = _enum(params, "responseValueRenderOption", _RENDER_OPTIONS, "FORMATTED_VALUE")
        if bounds is None:
            box = book.resolve(a1)[1]
            bounds = _clip(sheet, box)
        return _value_range(book, sheet, bounds, "ROWS", option, _Evaluator(book))

    def _append(self, book: _Book, a1: str, payload: dict[str, Any], option: str,
                insert: str, params: dict[str, Any]) -> dict[str, Any]:
        sheet, box = book.resolve(a1)
        rows = _rows_of(payload, "values")
        table = _find_table(sheet, box)
        if table is None:
            write_row, write_col, table_range = box.r0, box.c0, None
        else:
            start, end, left, right, write_col = table
            write_row = end
            table_range = _a1(sheet, start, end, left, right)
        height = len(rows)
        width = max((len(row) for row in rows), default=0)
        if insert == "INSERT_ROWS" and height:
            sheet.grid["rowCount"] = max(sheet.rows, write_row) + height
            _shift_dimension(book, sheet, "ROWS", write_row, height)
        sheet.grid["rowCount"] = max(sheet.rows, write_row + height)
        sheet.grid["columnCount"] = max(sheet.cols, write_col + width)
        if book.total_cells() > MAX_CELLS:
            raise _bad("This action would increase the number of cells in the workbook above "
                       f"the limit of {MAX_CELLS} cells.")
        updates = _write(book, sheet, write_row, write_col, rows, option)
        if height and width and _truthy(_q(params, "includeValuesInResponse")):
            bounds = (write_row, write_row + height, write_col, write_col + width)
            updates["updatedData"] = self._response_data(book, sheet, bounds, a1, params)
        out: dict[str, Any] = {"spreadsheetId": book.id, "updates": updates}
        if table_range:
            out["tableRange"] = table_range
        return out

    def _values_batch(self, method: str, spreadsheet_id: str, action: str,
                      query: dict[str, list[str]], body: Callable[[], dict[str, Any]]) -> dict:
        if action == "batchGet" and method == "GET":
            major = _enum(query, "majorDimension", _DIMENSIONS, "ROWS")
            option = _enum(query, "valueRenderOption", _RENDER_OPTIONS, "FORMATTED_VALUE")
            _enum(query, "dateTimeRenderOption", _DATETIME_OPTIONS, "SERIAL_NUMBER")
            with self._lock:
                book = self._access(spreadsheet_id)
                evaluator = _Evaluator(book)
                ranges = []
                for a1 in query.get("ranges", []):
                    sheet, box = book.resolve(a1)
                    ranges.append(_value_range(book, sheet, _clip(sheet, box), major, option,
                                               evaluator))
                out: dict[str, Any] = {"spreadsheetId": book.id}
                if ranges:
                    out["valueRanges"] = ranges
                return out
        if action == "batchUpdate" and method == "POST":
            payload = body()
            return self._mutate(spreadsheet_id, lambda book: self._batch_values(book, payload))
        if action == "batchClear" and method == "POST":
            payload = body()
            ranges = payload.get("ranges") or []
            if not isinstance(ranges, list):
                raise _bad("ranges must be a list")

            def clear(book: _Book) -> dict[str, Any]:
                cleared = [_clear(book, a1) for a1 in ranges]
                out = {"spreadsheetId": book.id}
                if cleared:
                    out["clearedRanges"] = cleared
                return out

            return self._mutate(spreadsheet_id, clear)
        raise _ApiError(404, "Method not found.")

    def _batch_values(self, book: _Book, payload: dict[str, Any]) -> dict[str, Any]:
        option = payload.get("valueInputOption")
        if option is None or option == "INPUT_VALUE_OPTION_UNSPECIFIED":
            raise _bad("'valueInputOption' is required but not specified")
        if option not in _INPUT_OPTIONS:
            raise _bad(f"Invalid value at 'value_input_option', \"{option}\"")
        data = payload.get("data") or []
        if not isinstance(data, list):
            raise _bad("Invalid data: must be a list of ValueRange")
        params = {k: [str(v)] for k, v in payload.items()
                  if k in ("includeValuesInResponse", "responseValueRenderOption")}
        responses = []
        sheets: set[int] = set()
        totals = {"rows": 0, "cols": 0, "cells": 0}
        for i, value_range in enumerate(data):
            if not isinstance(value_range, dict) or "range" not in value_range:
                raise _bad(f"Invalid data[{i}]: a range is required")
            result = self._update_one(book, value_range["range"], value_range, option, params)
            responses.append(result)
            if result.get("updatedCells"):
                sheets.add(book.resolve(value_range["range"])[0].id)
                totals["rows"] += result["updatedRows"]
                totals["cols"] += result["updatedColumns"]
                totals["cells"] += result["updatedCells"]
        out: dict[str, Any] = {"spreadsheetId": book.id}
        if totals["cells"]:
            out.update(totalUpdatedRows=totals["rows"], totalUpdatedColumns=totals["cols"],
                       totalUpdatedCells=totals["cells"], totalUpdatedSheets=len(sheets))
        if responses:
            out["responses"] = responses
        return out

    # -- developer metadata ------------------------------------------------------------------

    def _metadata_get(self, spreadsheet_id: str, metadata_id: str) -> dict[str, Any]:
        with self._lock:
            book = self._access(spreadsheet_id)
            for meta in book.metadata:
                if str(meta["metadataId"]) == metadata_id:
                    return _metadata_out(meta)
            raise _ApiError(404, f"No developer metadata with ID: {metadata_id}")

    def _metadata_search(self, spreadsheet_id: str, body: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            book = self._access(spreadsheet_id)
            filters = body.get("dataFilters") or []
            matched = []
            for meta in book.metadata:
                hits = []
                for data_filter in filters:
                    try:
                        if _metadata_matches(book, meta, data_filter):
                            hits.append(data_filter)
                    except _RequestError as err:
                        raise _bad(str(err)) from None
                if hits:
                    matched.append({"developerMetadata": _metadata_out(meta), "dataFilters": hits})
            return {"matchedDeveloperMetadata": matched} if matched else {}

    # -- Drive -------------------------------------------------------------------------------

    def _drive(self, method: str, rest: str, query: dict[str, list[str]],
               body: Callable[[], dict[str, Any]]) -> tuple[int, Any]:
        def file_json(book: _Book) -> dict[str, Any]:
            return {"kind": "drive#file", "id": book.id, "name": book.props["title"],
                    "mimeType": "application/vnd.google-apps.spreadsheet",
                    "createdTime": book.created, "modifiedTime": book.modified}

        file_id = unquote(rest.lstrip("/"))
        if not file_id and method == "GET":
            q = _q(query, "q", "")
            name = re.search(r"""name\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')""", q)
            with self._lock:
                files = [file_json(b) for b in self._books.values() if b.id not in self._denied]
            if name:
                wanted = (name.group(1) if name.group(1) is not None else name.group(2))
                wanted = re.sub(r"\\(.)", r"\1", wanted)
                files = [f for f in files if f["name"] == wanted]
            return 200, {"kind": "drive#fileList", "incompleteSearch": False, "files": files}
        if not file_id and method == "POST":
            payload = body()
            sid = self.create_spreadsheet(payload.get("name") or "Untitled spreadsheet")
            with self._lock:
                return 200, file_json(self._books[sid])
        if file_id and "/" not in file_id and method in ("GET", "DELETE"):
            with self._lock:
                book = self._books.get(file_id)
                if book is None or file_id in self._denied:
                    raise _ApiError(404, f"File not found: {file_id}.")
                if method == "DELETE":
                    del self._books[file_id]
                    return 204, None
                return 200, file_json(book)
        raise _ApiError(404, "FakeSheetsServer implements only files list/create/get/delete "
                             "of the Drive API.")


def _grid_data(sheet: _Sheet, bounds: tuple[int, int, int, int],
               evaluator: _Evaluator) -> dict[str, Any]:
    r0, r1, c0, c1 = bounds
    by_row: dict[int, dict[int, _Cell]] = {}
    for (r, c), cell in sheet.cells.items():
        if r0 <= r < r1 and c0 <= c < c1:
            by_row.setdefault(r, {})[c] = cell
    out: dict[str, Any] = {}
    if r0:
        out["startRow"] = r0
    if c0:
        out["startColumn"] = c0
    rows = []
    for r in range(r0, max(by_row) + 1 if by_row else r0):
        line = by_row.get(r)
        if not line:
            rows.append({})
            continue
        values = []
        for c in range(c0, max(line) + 1):
            cell = line.get(c)
            data: dict[str, Any] = {}
            if cell is not None:
                if cell.value is not None:
                    effective = evaluator.value(sheet, r, c)
                    data["userEnteredValue"] = _extended(cell.value, cell.formula)
                    data["effectiveValue"] = _extended(effective)
                    data["formattedValue"] = _format(effective)
                if cell.fmt:
                    data["userEnteredFormat"] = copy.deepcopy(cell.fmt)
                if cell.note:
                    data["note"] = cell.note
                if cell.validation:
                    data["dataValidation"] = copy.deepcopy(cell.validation)
            values.append(data)
        rows.append({"values": values})
    out["rowData"] = rows
    return out


def _clear(book: _Book, a1: str) -> str:
    sheet, box = book.resolve(a1)
    r0, r1, c0, c1 = _clip(sheet, box)
    for (r, c) in [k for k in sheet.cells if r0 <= k[0] < r1 and c0 <= k[1] < c1]:
        sheet.set_value(r, c, None)
    return _a1(sheet, r0, r1, c0, c1)


def _q(query: dict[str, Any], name: str, default: str | None = None) -> Any:
    values = query.get(name)
    return values[-1] if values else default


def _truthy(value: Any) -> bool:
    return str(value).lower() == "true"


def _enum(query: dict[str, Any], name: str, allowed: tuple[str, ...], default: str) -> str:
    value = _q(query, name) or default
    if value not in allowed:
        snake = re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()
        raise _bad(f"Invalid value at '{snake}', \"{value}\"")
    return value


def _required_input_option(query: dict[str, Any]) -> str:
    value = _q(query, "valueInputOption")
    if not value or value == "INPUT_VALUE_OPTION_UNSPECIFIED":
        raise _bad("'valueInputOption' is required but not specified")
    if value not in _INPUT_OPTIONS:
        raise _bad(f"Invalid value at 'value_input_option', \"{value}\"")
    return value
