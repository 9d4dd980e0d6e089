"""Protected ranges, enforced as Google enforces them.

A protected range (not ``warningOnly``) may be changed only by the spreadsheet's owner and the
users in its ``editors``; anyone else gets 400 with Google's message, and a batch that
touches one applies nothing. A range with only a ``sheetId`` protects the whole sheet (its
``unprotectedRanges`` stay open), and a sheet has at most one such protection. Changing or
removing a protection needs edit access to it.
"""

from __future__ import annotations

from typing import Any

from .errors import _bad
from .model import _Book, _Sheet

PROTECTED_MESSAGE = ("You are trying to edit a protected cell or object. Please contact the "
                     "spreadsheet owner to remove protection if you need to edit.")
_Box = tuple[int, int, int, int]


def _box(sheet: _Sheet, gr: dict[str, Any]) -> _Box:
    return (gr.get("startRowIndex", 0), gr.get("endRowIndex", sheet.rows),
            gr.get("startColumnIndex", 0), gr.get("endColumnIndex", sheet.cols))


def protected_box(book: _Book, sheet: _Sheet, pr: dict[str, Any]) -> _Box:
    """The cells a protected range covers (a named range's current cells if it has one)."""
    if "namedRangeId" in pr:
        named = next((n for n in book.named_ranges
                      if n["namedRangeId"] == pr["namedRangeId"]), None)
        return _box(sheet, named["range"]) if named else (0, 0, 0, 0)
    return _box(sheet, pr.get("range") or {})


def is_sheet_protection(pr: dict[str, Any]) -> bool:
    """A protection of a whole sheet: a range that names its sheet and nothing else."""
    gr = pr.get("range")
    return "namedRangeId" not in pr and isinstance(gr, dict) and set(gr) <= {"sheetId"}


def may_change(book: _Book, pr: dict[str, Any]) -> bool:
    from .identity import may_edit

    return bool(pr.get("warningOnly")) or may_edit(book.owner, pr.get("editors"),
                                                   book.acting)


def _overlap(a: _Box, b: _Box) -> bool:
    return a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]


def _inside(a: _Box, b: _Box) -> bool:
    return b[0] <= a[0] and a[1] <= b[1] and b[2] <= a[2] and a[3] <= b[3]


def check_cells(book: _Book, sheet: _Sheet, r0: int, r1: int, c0: int, c1: int) -> None:
    """Refuse a change of the cells [r0, r1) x [c0, c1) the caller may not edit."""
    if book.acting is None or r1 <= r0 or c1 <= c0:
        return
    wanted = (r0, r1, c0, c1)
    for pr in sheet.protected:
        if may_change(book, pr) or not _overlap(wanted, protected_box(book, sheet, pr)):
            continue
        open_boxes = [_box(sheet, u) for u in pr.get("unprotectedRanges") or []]
        if not any(_inside(wanted, u) for u in open_boxes):
            raise _bad(PROTECTED_MESSAGE)


def check_sheet(book: _Book, sheet: _Sheet) -> None:
    """Refuse a change of the sheet itself (its size, rows, properties, deletion) when the
    whole sheet is protected and the caller may not edit it."""
    if book.acting is None:
        return
    for pr in sheet.protected:
        if is_sheet_protection(pr) and not may_change(book, pr):
            raise _bad(PROTECTED_MESSAGE)


def check_protection(book: _Book, pr: dict[str, Any]) -> None:
    """Refuse changing or removing a protection the caller may not edit."""
    if book.acting is not None and not may_change(book, pr):
        raise _bad(PROTECTED_MESSAGE)


def check_new_protection(sheet: _Sheet, pr: dict[str, Any]) -> None:
    """A second protection of a whole sheet is refused, as Google refuses it."""
    if is_sheet_protection(pr) and any(is_sheet_protection(p) for p in sheet.protected):
        raise _bad(f'Sheet "{sheet.title}" already has sheet protection.')
