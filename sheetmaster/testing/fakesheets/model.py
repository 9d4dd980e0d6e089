"""The in-memory model: cells, sheets (tabs) and books (spreadsheets)."""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from .a1 import _Box, _parse_cells, _split_a1
from .errors import _bad
from .identity import DEFAULT_OWNER, Caller

DEFAULT_ROWS = 1000
DEFAULT_COLS = 26
MAX_CELLS = 10_000_000


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
        old = self.cells.get((r, c))
        if old is None:
            cell = _Cell(**changes)
        else:  # dataclasses.replace, without its per-call introspection
            fields = {"value": old.value, "formula": old.formula, "note": old.note,
                      "validation": old.validation, "fmt": old.fmt}
            fields.update(changes)
            cell = _Cell(**fields)
        if cell.void():
            self.cells.pop((r, c), None)
        else:
            self.cells[(r, c)] = cell

    def set_value(self, r: int, c: int, entered: tuple[Any, ...] | None) -> None:
        """Store (value, is_formula[, number format]); a number format (from typed text)
        is kept only where the cell has none yet, as Sheets does."""
        value, formula, *number_format = entered if entered is not None else (None, False)
        changes: dict[str, Any] = {"value": value, "formula": formula}
        if number_format and number_format[0]:
            old = self.cells.get((r, c))
            fmt = dict(old.fmt or {}) if old is not None else {}
            if "numberFormat" not in fmt:
                changes["fmt"] = dict(fmt, numberFormat=number_format[0])
        self.put(r, c, **changes)

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
        #: the Google account that owns the spreadsheet (it may edit every protected range).
        self.owner = DEFAULT_OWNER
        #: who makes the change being applied (None: the fake's own helpers, not checked).
        self.acting: Caller | None = None
        #: the accounts it is shared with besides its owner (None: anyone with its link).
        self.shared_with: frozenset[str] | None = None
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

    def may_open(self, caller: Caller | None) -> bool:
        """Whether ``caller`` may open the spreadsheet at all (a request without a token
        acts as its owner)."""
        if self.shared_with is None or caller is None or caller.email in ("", self.owner):
            return True
        return caller.email.casefold() in self.shared_with

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
