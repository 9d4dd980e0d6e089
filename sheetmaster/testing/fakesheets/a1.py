"""A1 notation: column letters, sheet title quoting, parsing ``'Tab'!A1:B2`` into boxes."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol


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


class _Grid(Protocol):
    """What :func:`_a1` reads of a sheet (a ``model._Sheet``)."""

    title: str
    rows: int
    cols: int


def _a1(sheet: _Grid, r0: int, r1: int | None, c0: int, c1: int | None) -> str:
    """Normalised A1 text of a (clipped) range, like the API's ``range`` fields."""
    r1 = sheet.rows if r1 is None else r1
    c1 = sheet.cols if c1 is None else c1
    start = f"{col_letters(c0)}{r0 + 1}"
    if r1 == r0 + 1 and c1 == c0 + 1:
        return f"{quote_title(sheet.title)}!{start}"
    return f"{quote_title(sheet.title)}!{start}:{col_letters(max(c1, c0 + 1) - 1)}{max(r1, r0 + 1)}"
