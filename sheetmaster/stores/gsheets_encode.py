"""A turn's cells as Sheets API JSON: built once, as text, and cut to a size.

Cells are ``(sheet id, 0-based column) -> sheet row (1-based) -> value``. They go out in one
of two forms, each request written as JSON text exactly once (its size is its length: the
text is ASCII), so packing requests into bodies never serializes anything again:

- **CellData**, for a ``spreadsheets.batchUpdate`` (the only request that is atomic and that
  can also release the lock): rectangles of cells row by row (``updateCells``), and a column's
  run of one value as one ``repeatCell``. A rectangle never holds a cell the turn does not
  write, except cells of rows added past the end of a tab sheetmaster alone edits, which are
  blank (``{}`` clears what is already empty); a rectangle and a run never overlap, so their
  order does not matter. Within a rectangle, two documented rules of ``updateCells`` with a
  ``start`` save bytes ("Any number of rows and columns (including a different number of
  columns per row) may be written"): a row ``{}`` writes nothing, so rectangles of the same
  columns a few rows apart are one request; and a column mostly of one value is first set
  to it by a ``repeatCell`` over the rectangle's rows, then the rows write their other cells
  in pieces that leave that value out (requests are applied in order, so the pieces win).
- **values**, for ``values:batchUpdateByDataFilter`` with ``valueInputOption=RAW`` (text is
  stored as it is, never read as a formula or a number; "" clears a cell): a column's rows
  at a time, addressed by sheetId, in which ``null`` leaves a cell as it is ("Null values will
  be skipped"), so a range may span rows the turn does not write at five bytes each. A cell
  costs its value and a comma, where CellData costs about forty bytes more.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from json.encoder import encode_basestring_ascii as _quote  # type: ignore[attr-defined]
from typing import Any

from sheetmaster.kit import values

Cells = dict[tuple[int, int], dict[int, Any]]
#: a cell of a rectangle the turn does not write: blank, past the end of its tab.
FILL: Any = type("Fill", (), {"__repr__": lambda self: "FILL"})()
#: a column's run of one value goes as a repeatCell when the column has at most one run for
#: every REPEAT of its cells (a repeatCell costs about four cells).
REPEAT = 8
#: rows of a values range with nothing to write, past which a new range is cheaper.
GAP_ROWS = 32
#: the fewest bytes a cell takes as CellData ('{"userEnteredValue":{"numberValue":1}}'), and
#: a repeatCell.
_CELL_BYTES = 38
_RUN_BYTES = 140
#: a run of one value in a column that goes as a repeatCell even in a values write.
LONG_RUN = 64
#: rows between two rectangles of the same columns up to which they are one updateCells: a
#: row between them costs three bytes ('{},' writes nothing), a new updateCells about 120.
GAP_CELL_ROWS = 32
_FIELDS = ',"fields":"userEnteredValue"}}'


@dataclass
class Block:
    """Cells of one tab: a rectangle from (``row``, ``column``), 0-based, of ``rows`` (FILL:
    a blank cell left blank), or, if ``repeat``, rows ``row`` .. ``row + height - 1`` of
    ``column`` all set to ``rows[0][0]``."""

    sheet_id: int
    row: int
    column: int
    rows: list[list[Any]]
    repeat: bool = False
    height: int = 0
    _texts: tuple[int, list[str]] | None = field(default=None, repr=False, compare=False)

    def requests(self, room: int) -> list[str]:
        """The block as batchUpdate requests cut to ``room`` bytes (built once)."""
        if self._texts is None or self._texts[0] != room:
            self._texts = (room, list(cell_requests(self, room)))
        return self._texts[1]

    def cells(self) -> Iterator[tuple[tuple[int, int], int, Any]]:
        """((sheet id, column), sheet row, value) of every cell the block writes."""
        if self.repeat:
            for r in range(self.row, self.row + self.height):
                yield (self.sheet_id, self.column), r + 1, self.rows[0][0]
            return
        for i, line in enumerate(self.rows):
            for j, value in enumerate(line):
                if value is not FILL:
                    yield (self.sheet_id, self.column + j), self.row + i + 1, value


# -- JSON of one value -----------------------------------------------------------------------
def json_number(value: Any) -> str:
    """A number as ``json.dumps`` writes it (NaN and infinities are refused, as the
    client's ``allow_nan=False`` refuses them)."""
    if isinstance(value, int):
        return int.__repr__(value)
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"Out of range float values are not JSON compliant: {number!r}")
    return float.__repr__(number)


def raw_json(value: Any) -> str:
    """A value for a RAW values write: blank as "" (clears the cell), text as text."""
    if values.is_blank(value):
        return '""'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json_number(value)
    return _quote(str(value))


def cell_json(value: Any) -> str:
    """A cell's CellData for ``fields: userEnteredValue``: text always as ``stringValue``
    (never a formula), a blank as ``{}`` (which clears it)."""
    if values.is_blank(value):
        return "{}"
    if isinstance(value, bool):
        return '{"userEnteredValue":{"boolValue":' + ("true" if value else "false") + "}}"
    if isinstance(value, (int, float)):
        return '{"userEnteredValue":{"numberValue":' + json_number(value) + "}}"
    return '{"userEnteredValue":{"stringValue":' + _quote(str(value)) + "}}"


def same(a: Any, b: Any) -> bool:
    """Whether two cells are written alike (a run of them may be one repeatCell)."""
    if values.is_blank(a) or values.is_blank(b):
        return values.is_blank(a) and values.is_blank(b)
    return type(a) is type(b) and a == b


# -- CellData blocks ---------------------------------------------------------------------------
def cell_blocks(cells: Cells, blank_from: dict[int, int] | None = None) -> list[Block]:
    """``cells`` as CellData blocks: the runs of one value first, then the rectangles.
    ``blank_from``: sheet id -> the first row (1-based) from which that tab is known blank
    and only sheetmaster writes it (rows a turn adds to a tab players cannot edit)."""
    by_sheet: dict[int, dict[int, dict[int, Any]]] = defaultdict(dict)
    for (sheet_id, column), by_row in cells.items():
        if by_row:
            by_sheet[sheet_id][column] = by_row
    runs: list[Block] = []
    rectangles: list[Block] = []
    for sheet_id in sorted(by_sheet):
        columns = by_sheet[sheet_id]
        first_blank = (blank_from or {}).get(sheet_id)
        added = {c: {r: v for r, v in rows.items() if r >= first_blank}
                 for c, rows in columns.items()} if first_blank else {}
        added = {c: rows for c, rows in added.items() if rows}
        kept = {c: {r: v for r, v in rows.items() if c not in added or r not in added[c]}
                for c, rows in columns.items()} if added else columns
        if added:
            _added_rows(sheet_id, added, runs, rectangles)
        _kept_rows(sheet_id, kept, runs, rectangles)
    return runs + rectangles


def _value_runs(rows: list[int], by_row: dict[int, Any]) -> list[tuple[int, int]]:
    """Runs (first index, last index) of ``rows`` (consecutive sheet rows) of one value."""
    out: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(rows) + 1):
        if i == len(rows) or rows[i] != rows[i - 1] + 1 or not same(by_row[rows[i]],
                                                                    by_row[rows[start]]):
            out.append((start, i - 1))
            start = i
    return out


def _as_runs(sheet_id: int, column: int, rows: list[int], by_row: dict[int, Any],
             out: list[Block]) -> bool:
    """Add ``rows`` of a column as repeatCells if they are few runs; whether they were."""
    spans = _value_runs(rows, by_row)
    if len(spans) * REPEAT > len(rows):
        return False
    for a, b in spans:
        out.append(Block(sheet_id, rows[a] - 1, column, [[by_row[rows[a]]]], True,
                         rows[b] - rows[a] + 1))
    return True


def _added_rows(sheet_id: int, added: dict[int, dict[int, Any]], runs: list[Block],
                rectangles: list[Block]) -> None:
    """Rows past a tab's end: columns of few runs as repeatCells, the others as rectangles
    row by row, blank where a row has no cell (trailing blanks left out)."""
    top = min(min(rows) for rows in added.values())
    bottom = max(max(rows) for rows in added.values())
    dense = [c for c in sorted(added)
             if not _as_runs(sheet_id, c, sorted(added[c]), added[c], runs)]
    repeated = set(added) - set(dense)
    groups: list[list[int]] = []
    for c in dense:  # a column of runs between two columns parts them
        if groups and not any(groups[-1][-1] < x < c for x in repeated):
            groups[-1].append(c)
        else:
            groups.append([c])
    for group in groups:
        first, last = group[0], group[-1]
        lines = []
        for r in range(top, bottom + 1):
            line = [added[c].get(r, FILL) if c in added else FILL
                    for c in range(first, last + 1)]
            while line and line[-1] is FILL:
                line.pop()
            lines.append(line)
        rectangles.append(Block(sheet_id, top - 1, first, lines))


def _kept_rows(sheet_id: int, columns: dict[int, dict[int, Any]], runs: list[Block],
               rectangles: list[Block]) -> None:
    """Rows the tab had: each column's runs of consecutive rows (as repeatCells if they are
    few runs of one value); runs of the same rows in neighbouring columns as one rectangle."""
    spans: dict[tuple[int, int], list[int]] = defaultdict(list)
    for column in sorted(columns):
        by_row = columns[column]
        rows = sorted(by_row)
        start = 0
        for i in range(1, len(rows) + 1):
            if i == len(rows) or rows[i] != rows[i - 1] + 1:
                part = rows[start:i]
                if not _as_runs(sheet_id, column, part, by_row, runs):
                    spans[(part[0], part[-1])].append(column)
                start = i
    found: list[Block] = []
    for (top, bottom), cols in sorted(spans.items(), key=lambda s: (s[0], s[1][0])):
        group = [cols[0]]
        for c in [*cols[1:], None]:
            if c is not None and c == group[-1] + 1:
                group.append(c)
                continue
            found.append(Block(sheet_id, top - 1, group[0], [
                [columns[g][r] for g in group] for r in range(top, bottom + 1)]))
            if c is not None:
                group = [c]
    rectangles += _join_near(found)


def _join_near(blocks: list[Block]) -> list[Block]:
    """Rectangles of the same columns at most GAP_CELL_ROWS rows apart as one, with empty
    rows (which write nothing) between them."""
    out: list[Block] = []
    for block in sorted(blocks, key=lambda b: (b.column, len(b.rows[0]), b.row)):
        last = out[-1] if out else None
        if last is not None and (last.column, len(last.rows[0])) == (
                block.column, len(block.rows[0])):
            gap = block.row - (last.row + len(last.rows))
            if 0 <= gap <= GAP_CELL_ROWS:
                last.rows = last.rows + [[] for _ in range(gap)] + block.rows
                continue
        out.append(Block(block.sheet_id, block.row, block.column, list(block.rows)))
    return out


def cell_requests(block: Block, room: int) -> Iterator[str]:
    """A block as batchUpdate requests of at most ``room`` bytes each (a rectangle is cut
    between rows; a single row longer than ``room`` goes alone)."""
    if block.repeat:
        yield (f'{{"repeatCell":{{"range":{{"sheetId":{block.sheet_id},'
               f'"startRowIndex":{block.row},"endRowIndex":{block.row + block.height},'
               f'"startColumnIndex":{block.column},"endColumnIndex":{block.column + 1}}},'
               f'"cell":{cell_json(block.rows[0][0])}' + _FIELDS)
        return

    texts = [["{}" if v is FILL else cell_json(v) for v in line] for line in block.rows]
    overhead = len(_head(block.sheet_id, block.row, block.column)) + 1 + len(_FIELDS)
    start, size = 0, overhead
    for i, line in enumerate(texts):
        length = sum(map(len, line)) + len(line) + 12 if line else 2
        if i > start and size + length + 1 > room:
            yield _chunk(block, start, i, texts)
            start, size = i, overhead
        size += length + 1
    if start < len(texts):
        yield _chunk(block, start, len(texts), texts)


def _head(sheet_id: int, row: int, column: int) -> str:
    return (f'{{"updateCells":{{"start":{{"sheetId":{sheet_id},"rowIndex":{row},'
            f'"columnIndex":{column}}},"rows":[')


def _chunk(block: Block, start: int, stop: int, texts: list[list[str]]) -> str:
    """Rows ``start`` .. ``stop - 1`` of a rectangle (``texts``: their cells' CellData) as
    one text of requests: as they are, or, where it is shorter, with some columns first set
    to their most common value (a repeatCell) and that value left out of the rows."""
    rows, lines = block.rows[start:stop], texts[start:stop]
    first = block.row + start
    best = _rectangle(block.sheet_id, first, block.column, lines, {})
    candidates = []
    for j in range(min(map(len, rows))):
        if any(line[j] is FILL for line in rows):
            continue  # a cell the turn does not write: no repeatCell may cover it
        text, count = Counter(line[j] for line in lines).most_common(1)[0]
        if count * (len(text) + 1) > _RUN_BYTES:
            candidates.append((count * (len(text) + 1), j, text))
    chosen: dict[int, str] = {}
    for _, j, text in sorted(candidates, reverse=True):
        trial = {**chosen, j: text}
        out = _rectangle(block.sheet_id, first, block.column, lines, trial)
        if len(out) < len(best):
            best, chosen = out, trial
    return best


def _rectangle(sheet_id: int, first: int, column: int, lines: list[list[str]],
               defaults: dict[int, str]) -> str:
    """``lines`` (CellData texts) from row ``first``, ``column`` as requests: a repeatCell of
    each column's default (``defaults``: offset -> CellData) over every line, then the other
    cells, a run of them in a row at a time, one updateCells for each column such runs start
    at (a row with none there is ``{}``, which writes nothing)."""
    out = [f'{{"repeatCell":{{"range":{{"sheetId":{sheet_id},"startRowIndex":{first},'
           f'"endRowIndex":{first + len(lines)},"startColumnIndex":{column + j},'
           f'"endColumnIndex":{column + j + 1}}},"cell":{text}' + _FIELDS
           for j, text in sorted(defaults.items())]
    pieces: dict[int, dict[int, str]] = defaultdict(dict)
    for i, line in enumerate(lines):
        j = 0
        while j < len(line):
            if defaults.get(j) == line[j]:
                j += 1
                continue
            k = j + 1
            while k < len(line) and defaults.get(k) != line[k]:
                k += 1
            pieces[j][i] = '{"values":[' + ",".join(line[j:k]) + "]}"
            j = k
    for j in sorted(pieces):
        by_line = pieces[j]
        top, bottom = min(by_line), max(by_line)
        out.append(_head(sheet_id, first + top, column + j) + ",".join(
            by_line.get(i, "{}") for i in range(top, bottom + 1)) + "]" + _FIELDS)
    return ",".join(out)


def cell_bound(cells: Cells) -> int:
    """Fewer bytes than ``cells`` take as CellData, found without building it: each run of
    one value in consecutive rows of a column costs at least a repeatCell or its cells (a
    blank one ``{}`` and a comma), and all of a column's cells of one value together at
    least a repeatCell or their cells (a rectangle may leave them to one)."""
    total = 0
    for by_row in cells.values():
        per_value: dict[Any, int] = defaultdict(int)
        length, last_row, last = 0, 0, None
        for row in sorted(by_row):
            value = by_row[row]
            if length and row == last_row + 1 and (value == last or (
                    values.is_blank(value) and values.is_blank(last))):
                length += 1
            else:
                if length:
                    per_value[_bound_key(last)] += _run_bound(last, length)
                length = 1
            last_row, last = row, value
        if length:
            per_value[_bound_key(last)] += _run_bound(last, length)
        total += sum(min(cost, _RUN_BYTES) for cost in per_value.values())
    return total


def _bound_key(value: Any) -> Any:
    return "" if values.is_blank(value) else value


def _run_bound(value: Any, length: int) -> int:
    cell = 3 if values.is_blank(value) else _CELL_BYTES
    return min(_RUN_BYTES, cell * length)


# -- values, a column at a time ----------------------------------------------------------------
@dataclass(frozen=True)
class Range:
    """One DataFilterValueRange (``text``): rows ``first`` .. ``last`` of a column."""

    text: str
    where: tuple[int, int]
    first: int
    last: int


def value_ranges(cells: Cells, room: int, runs: list[Block] | None = None) -> Iterator[Range]:
    """``cells`` as DataFilterValueRanges (RAW, a column each) of at most ``room`` bytes:
    rows within GAP_ROWS of each other go in one range, ``null`` where nothing is written.
    With ``runs``, a column's runs of one value over LONG_RUN rows or more go there instead,
    as repeatCell blocks."""
    for where, by_row in sorted(cells.items()):
        rows = sorted(by_row)
        if runs is not None:
            rows = _take_runs(where, rows, by_row, runs)
        start = 0
        for i in range(1, len(rows) + 1):
            if i == len(rows) or rows[i] - rows[i - 1] > GAP_ROWS:
                yield from _column_range(where, rows[start], rows[i - 1], rows[start:i],
                                         by_row, room)
                start = i


def _take_runs(where: tuple[int, int], rows: list[int], by_row: dict[int, Any],
               runs: list[Block]) -> list[int]:
    """The rows left once the long runs of one value are taken out into ``runs``."""
    left: list[int] = []
    for a, b in _value_runs(rows, by_row):
        if b - a + 1 >= LONG_RUN:
            runs.append(Block(where[0], rows[a] - 1, where[1], [[by_row[rows[a]]]], True,
                              b - a + 1))
        else:
            left += rows[a:b + 1]
    return left


def _column_range(where: tuple[int, int], top: int, bottom: int, rows: list[int],
                  by_row: dict[int, Any], room: int) -> Iterator[Range]:
    """Rows ``top`` .. ``bottom`` of a column (``rows`` of them written), cut where a range
    would pass ``room``."""
    sheet_id, column = where

    def head(first: int, last: int) -> str:
        return (f'{{"dataFilter":{{"gridRange":{{"sheetId":{sheet_id},'
                f'"startRowIndex":{first - 1},"endRowIndex":{last},'
                f'"startColumnIndex":{column},"endColumnIndex":{column + 1}}}}},'
                f'"majorDimension":"COLUMNS","values":[[')

    written = set(rows)
    overhead = len(head(top, bottom)) + 4
    texts: list[str] = []
    size, first = overhead, top
    for r in range(top, bottom + 1):
        text = raw_json(by_row[r]) if r in written else "null"
        if texts and size + len(text) + 1 > room:
            yield Range(head(first, r - 1) + ",".join(texts) + "]]}", where, first, r - 1)
            texts, size, first = [], overhead, r
        texts.append(text)
        size += len(text) + 1
    if texts:
        yield Range(head(first, bottom) + ",".join(texts) + "]]}", where, first, bottom)
