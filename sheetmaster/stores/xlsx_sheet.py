"""Patching one worksheet's XML: sheetmaster's cells change, every other byte stays.

A worksheet part is scanned, not parsed (see ``xlsx_rows``): only the rows that hold a cell
sheetmaster writes are rebuilt. Everything else (other rows, column widths, conditional
formats, validations, merges, hyperlinks, print settings, the sheet's extensions) is copied
as it is, byte for byte. Within a rebuilt row the cells sheetmaster does not write are copied
as they are too, and a cell it writes keeps its style.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sheetmaster.stores.xlsx_cells import (
    CellValueError,
    SharedFormulas,
    cell_xml,
    formula_of_group,
    has_formula,
    sheet_patterns,
    standalone_formula_cell,
    style_attr,
)
from sheetmaster.stores.xlsx_refs import (
    column_index_from_string,
    get_column_letter,
    range_boundaries,
)
from sheetmaster.stores.xlsx_rows import Cell, SheetError, index_rows, row_cells

_SPANS = re.compile(rb'\bspans="([0-9]+):([0-9]+)"')
_DIMENSION = re.compile(rb'(<(?:[\w.-]+:)?dimension\b[^>]*?\bref=")([^"]*)(")')
_FORMULA_TAG = re.compile(rb"<(?:[\w.-]+:)?f[\s/>]")  # within a row or cell (short)
_CELL_START = re.compile(rb'<c r="([A-Z]{1,3})[0-9]+"')
_NEW_TAG = re.compile(rb"<(/?)(row|c|v|is|t|f)\b")
_LETTERS = [""] + [get_column_letter(c) for c in range(1, 703)]
_INDEX = {letters.encode(): c for c, letters in enumerate(_LETTERS) if c}


class CellError(ValueError):
    """A value that cannot go into the cell at (row, column)."""

    def __init__(self, row: int, column: int, message: str) -> None:
        super().__init__(message)
        self.row, self.column = row, column


@dataclass
class Patched:
    """A patched worksheet part and what the patch did."""

    data: bytes
    dropped_formulas: bool = False  # a formula cell was overwritten (calcChain must go)


class SheetPatch:
    """Set cells of one worksheet part: ``edits[row][column] = value`` (None clears).

    ``texts_from_row``: from that row down, every formula is replaced by its text (the
    players' tab: what they type is never run).
    """

    def __init__(self, data: bytes, edits: dict[int, dict[int, Any]],
                 texts_from_row: int | None = None) -> None:
        self.has_formulas = texts_from_row is not None and has_formula(data)
        if self.has_formulas:
            self.index = index_rows(data, min([texts_from_row, *edits]))
        elif edits:
            self.index = index_rows(data, min(edits), max(edits))
        else:
            self.index = index_rows(data)
        self.edits = edits
        self.texts_from_row = texts_from_row
        self.formulas = SharedFormulas()
        self.dropped_formulas = False
        self.orphans: dict[bytes, tuple[str, str]] = {}  # shared groups whose first cell went
        self.close = b"</" + self.index.prefix + b"row>"

    def apply(self) -> Patched:
        data = self._rewrite(sorted(set(self.edits) | self._formula_rows()), self._edit_row)
        data = _widen_dimension(data, self.edits)
        if self.orphans:
            again = SheetPatch(data, {})
            again.orphans = self.orphans
            data = again._rewrite(again._orphan_rows(), again._free_orphans)
        return Patched(data, self.dropped_formulas)

    # -- which rows --------------------------------------------------------------------

    def _formula_rows(self) -> set[int]:
        if not self.has_formulas:
            return set()
        index, rows = self.index, set()
        lo, hi = index.content
        for m in sheet_patterns(index.prefix).formula.finditer(index.data, lo, hi):
            i = index.row_at(m.start())
            if i is not None and index.numbers[i] >= self.texts_from_row:
                rows.add(index.numbers[i])
        return rows

    def _orphan_rows(self) -> list[int]:
        index, rows = self.index, set()
        lo, hi = index.content
        for group in self.orphans:
            for m in re.finditer(rb'\bsi="' + re.escape(group) + b'"', index.data[lo:hi]):
                i = index.row_at(lo + m.start())
                if i is not None:
                    rows.add(index.numbers[i])
        return sorted(rows)

    # -- the rewrite -------------------------------------------------------------------

    def _rewrite(self, rows: list[int], build: Callable[[int, bytes, bytes | None], bytes]
                 ) -> bytes:
        """Copy the part, rebuilding ``rows`` (sorted) with ``build(number, tag, content)``;
        a row not in the part yet is built with content None and inserted in order."""
        index = self.index
        data, (lo, hi) = index.data, index.content
        where = dict(zip(index.numbers, range(len(index.numbers))))
        out: list[bytes] = []
        pos = lo
        for number in rows:
            i = where.get(number)
            if i is None:
                j = bisect_left(index.numbers, number)
                at = index.starts[j] if j < len(index.starts) else index.window_end
                if at > pos:
                    out.append(data[pos:at])
                    pos = at
                out.append(build(number, b"", None))
                continue
            start, end = index.starts[i], index.end(i)
            out.append(data[pos:start])
            pos = end
            tag_end = index.tag_ends[i]
            out.append(build(number, data[start:tag_end],
                             b"" if index.empty[i] else data[tag_end:end - len(self.close)]))
        if index.self_closed:
            name = b"sheetData"
            return b"".join([data[:lo], b"<", index.prefix, name, b">", *out, b"</",
                             index.prefix, name, b">", data[hi:]])
        return b"".join([data[:lo], *out, data[pos:]])

    def _edit_row(self, number: int, tag: bytes, content: bytes | None) -> bytes:
        edits = self.edits.get(number, {})
        try:
            if content is None:
                body = "".join([cell_xml(f"{_letters(c)}{number}", v)
                                for c, v in sorted(edits.items())])
                return self._prefixed(f'<row r="{number}">{body}</row>'.encode()) \
                    if body else b""
            return self._merge_row(number, tag, content, edits)
        except CellValueError as exc:
            column = next((c for c, v in edits.items() if _refused(v)), 0)
            raise CellError(number, column, str(exc)) from None

    def _merge_row(self, number: int, tag: bytes, content: bytes,
                   edits: dict[int, Any]) -> bytes:
        if tag.endswith(b"/>"):
            tag = tag[:-2].rstrip() + b">"
        tag = _widen_spans(tag, edits)
        texts = self.has_formulas and number >= self.texts_from_row and \
            _holds_formula(content)
        columns = sorted(edits)
        if not columns and not texts:
            return b"".join([tag, content, self.close])
        if self.index.prefix:
            return self._merge_cells(number, tag, content, edits, texts)
        if not texts:
            appended = self._append(number, tag, content, edits, columns)
            if appended is not None:
                return appended
        starts = [] if texts else [m for m in _CELL_START.finditer(content)]
        if texts or len(starts) != content.count(b"<c"):
            return self._merge_cells(number, tag, content, edits, texts)
        # The usual row: one walk along its cells and the edited columns; an edited cell is
        # replaced, a new one goes in column order, every other byte is copied as it is.
        out: list[bytes] = [tag]
        pos, k = 0, 0
        last = _column(starts[-1].group(1)) if starts else 0
        n = bisect_right(columns, last)  # the edits among the row's cells; the rest go last
        for m in starts:
            if k == n:
                break
            column = _column(m.group(1))
            at = m.start()
            while k < n and columns[k] < column:
                out += [content[pos:at], self._new_cell(number, columns[k], edits[columns[k]])]
                pos = at
                k += 1
            if k < n and columns[k] == column:
                gt = content.index(b">", at)
                end = gt + 1 if content[gt - 1] == 47 else content.index(b"</c>", gt) + 4  # /
                if _holds_formula(content[gt:end]):
                    self._overwritten(Cell(column, content[at:end], content[at + 2:gt],
                                           content[gt + 1:end]), number)
                out += [content[pos:at],
                        self._new_cell(number, column, edits[column], content[at + 2:gt])]
                pos = end
                k += 1
        if k < len(columns):
            end = max(pos, _cells_end(content, starts[-1].start() if starts else -1))
            out += [content[pos:end], *[self._new_cell(number, c, edits[c])
                                        for c in columns[k:]]]
            pos = end
        out += [content[pos:], self.close]
        return b"".join(out)

    def _append(self, number: int, tag: bytes, content: bytes, edits: dict[int, Any],
                columns: list[int]) -> bytes | None:
        """The row with new cells before its first one (a blank order's turn) and after its
        last one (a result column), if that is all the edit does; None otherwise. Only the
        row's first and last cells are looked at."""
        last_start = content.rfind(b'<c r="')
        if last_start != content.rfind(b"<c"):
            return None
        if last_start < 0:  # no cells
            return b"".join([tag, self._new_cells(number, columns, edits), content,
                             self.close])
        first, last = _CELL_START.match(content, content.find(b'<c r="')), \
            _CELL_START.match(content, last_start)
        if first is None or last is None:
            return None
        lo, hi = _column(first.group(1)), _column(last.group(1))
        k = bisect_left(columns, lo)
        if k < len(columns) and columns[k] <= hi:
            return None  # an edit among the row's cells
        end = _cells_end(content, last_start)
        return b"".join([tag, content[:first.start()], self._new_cells(number, columns[:k], edits),
                         content[first.start():end], self._new_cells(number, columns[k:], edits),
                         content[end:], self.close])

    def _merge_cells(self, number: int, tag: bytes, content: bytes, edits: dict[int, Any],
                     texts: bool) -> bytes:
        """Any row, cell by cell (cells without a reference, prefixed names, formulas to
        turn into text)."""
        cells, tail = row_cells(content, self.index.prefix)
        out: list[bytes] = []
        have = {cell.column for cell in cells}
        todo = sorted(c for c in edits if c not in have)
        k = 0
        for cell in cells:
            while k < len(todo) and todo[k] < cell.column:
                out.append(self._new_cell(number, todo[k], edits[todo[k]]))
                k += 1
            if cell.column in edits:
                self._overwritten(cell, number)
                out.append(self._new_cell(number, cell.column, edits[cell.column], cell.attrs))
            elif texts and b"<" in cell.content:
                out.append(self._formula_as_text(cell, number))
            else:
                out.append(cell.raw)
        out.extend(self._new_cell(number, c, edits[c]) for c in todo[k:])
        return b"".join([tag, *out, tail, self.close])

    def _new_cells(self, number: int, columns: list[int], edits: dict[int, Any]) -> bytes:
        """New cells (no style yet) for ``columns`` of row ``number``."""
        if not columns:
            return b""
        xml = "".join([cell_xml(f"{_letters(c)}{number}", edits[c]) for c in columns]).encode()
        return self._prefixed(xml) if self.index.prefix else xml

    def _new_cell(self, number: int, column: int, value: Any, old_attrs: bytes = b"") -> bytes:
        return self._prefixed(cell_xml(f"{_letters(column)}{number}", value,
                                       style_attr(old_attrs) if old_attrs else "").encode())

    def _prefixed(self, xml: bytes) -> bytes:
        """New elements in the namespace prefix the part uses (nearly always none)."""
        if not self.index.prefix:
            return xml
        return _NEW_TAG.sub(rb"<\1" + self.index.prefix.replace(b"\\", b"") + rb"\2", xml)

    def _formula_as_text(self, cell: Cell, number: int) -> bytes:
        ref = f"{get_column_letter(cell.column)}{number}"
        formula = self.formulas.text(ref, cell.content)
        if formula is None:
            return cell.raw
        self._overwritten(cell, number)
        return self._prefixed(cell_xml(ref, formula, style_attr(cell.attrs)).encode())

    def _overwritten(self, cell: Cell, number: int) -> None:
        """Note what goes with a formula cell that is overwritten."""
        if not _holds_formula(cell.content):
            return
        self.dropped_formulas = True
        ref = f"{get_column_letter(cell.column)}{number}"
        self.formulas.text(ref, cell.content)  # a shared formula's first cell is noted
        master = self.formulas.master(cell.content)
        if master is not None:
            self.orphans[master[0]] = (master[1], ref)

    def _free_orphans(self, number: int, tag: bytes, content: bytes | None) -> bytes:
        """Give each cell of a shared formula whose first cell was overwritten its own
        formula, translated from that first cell's."""
        cells, tail = row_cells(content or b"", self.index.prefix)
        body = []
        for cell in cells:
            group = formula_of_group(cell.content)
            if group in self.orphans:
                ref = f"{get_column_letter(cell.column)}{number}"
                formulas = SharedFormulas()
                formulas.masters[group] = self.orphans[group]
                formula = formulas.text(ref, cell.content) or ""
                body.append(self._prefixed(standalone_formula_cell(cell.attrs, ref, formula)))
            else:
                body.append(cell.raw)
        return b"".join([tag, *body, tail, self.close])


def _letters(column: int) -> str:
    return _LETTERS[column] if column < len(_LETTERS) else get_column_letter(column)


def _column(letters: bytes) -> int:
    return _INDEX.get(letters) or column_index_from_string(letters.decode())


def _holds_formula(content: bytes) -> bool:
    return (b"<f" in content or b":f" in content) and _FORMULA_TAG.search(content) is not None


def _cells_end(content: bytes, last_start: int) -> int:
    """Where a row's last cell (starting at ``last_start``, -1: none) ends: new cells go
    there, before any extension list."""
    if last_start < 0:
        return 0
    gt = content.index(b">", last_start)
    return gt + 1 if content[gt - 1:gt] == b"/" else content.index(b"</c>", gt) + 4


def _refused(value: Any) -> bool:
    try:
        cell_xml("A1", value)
    except CellValueError:
        return True
    return False


def _widen_spans(tag: bytes, edits: dict[int, Any]) -> bytes:
    """A row's optional ``spans`` hint covers the cells written into it."""
    m = _SPANS.search(tag)
    if m is None or not edits:
        return tag
    lo = min(int(m.group(1)), min(edits))
    hi = max(int(m.group(2)), max(edits))
    return tag[:m.start()] + b'spans="%d:%d"' % (lo, hi) + tag[m.end():]


def _widen_dimension(data: bytes, edits: dict[int, dict[int, Any]]) -> bytes:
    """The sheet's declared used range (``<dimension ref>``) covers the cells written."""
    m = _DIMENSION.search(data, 0, max(0, data.find(b"sheetData")))
    rows = [r for r, cells in edits.items() if cells]
    if m is None or not rows:
        return data
    columns = {c for cells in edits.values() for c in cells}
    try:
        lo_col, lo_row, hi_col, hi_row = range_boundaries(m.group(2).decode())
    except (ValueError, TypeError):
        return data
    lo_col, lo_row = min(lo_col or 1, min(columns)), min(lo_row or 1, min(rows))
    hi_col, hi_row = max(hi_col or 1, max(columns)), max(hi_row or 1, max(rows))
    ref = f"{get_column_letter(lo_col)}{lo_row}:{get_column_letter(hi_col)}{hi_row}"
    return data[:m.start(2)] + ref.encode() + data[m.end(2):]


__all__ = ["CellError", "Patched", "SheetError", "SheetPatch"]
