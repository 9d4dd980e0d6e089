"""The undo snapshot of a Google Sheet: what the last resolve overwrote, signed.

Every resolve writes, in the hidden, protected tab ``sheetmaster undo``, each cell it changed
with the value it had (a run of cells of one column that held one value as one line, rows the
turn added as one line), and a last line with a digest: an HMAC of the lines, the turn and the
spreadsheet id, keyed by the game's dice secret. ``undo`` restores the snapshot only if the digest
matches, so a player who edits the tab (if it were ever left unprotected) cannot make the GM's
next undo empty a tab or set anyone's gold.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pandas as pd

from sheetmaster.kit import values
from sheetmaster.kit.fairness import DiceSecretError, derived_key, sign
from sheetmaster.stores.base import StoreError

UNDO_TAB = "sheetmaster undo"
UNDO_HEADER = ["turn", "tab", "row", "column", "value", "to row"]
#: the "column" of an undo row that stands for whole rows the turn added.
ADDED_ROWS = "(added rows)"
#: the "tab" of the snapshot's last line, whose "value" is its digest.
DIGEST = "(digest)"


@dataclass(frozen=True)
class Entry:
    """One line of the snapshot: ``column`` of rows ``row``..``to_row`` of ``tab`` held
    ``value`` (``column`` is ADDED_ROWS for rows the turn added)."""

    tab: str
    row: int
    column: str
    value: Any
    to_row: int


@dataclass(frozen=True)
class Snapshot:
    turn: int
    entries: list[Entry]


def _canonical(value: Any) -> list[Any]:
    """A cell as it reads back from the sheet, typed, so a digest covers exactly it."""
    if values.is_blank(value):
        return ["", ""]
    if isinstance(value, bool):
        return ["b", value]
    if isinstance(value, (int, float)):
        return ["n", int(value) if float(value).is_integer() else repr(float(value))]
    return ["s", str(value)]


def merge_runs(entries: list[list[Any]]) -> list[list[Any]]:
    """Lines of consecutive rows of one column that held one value (all blank, say, or one
    owner) become one line (row .. to row): clearing 5,000 result cells costs one line."""
    out: list[list[Any]] = []
    last: list[Any] = []
    held: list[Any] = []
    for entry in sorted(entries, key=lambda e: (e[1], e[3], e[2])):
        value = _canonical(entry[4])
        if (last and last[1] == entry[1] and last[3] == entry[3] and last[5] + 1 == entry[2]
                and value == held):
            last[5] = entry[2]
        else:
            out.append(entry)
            last, held = entry, value
    return out


def digest(spreadsheet_id: str, rows: list[list[Any]], secret: str) -> str:
    """The HMAC of snapshot lines (turn, tab, row, column, value, to row) for a spreadsheet."""
    body = json.dumps([spreadsheet_id, [[_canonical(v) for v in _padded(r)] for r in rows]],
                      separators=(",", ":"), ensure_ascii=False)
    return sign(derived_key(secret, "undo snapshot"), body)


def _padded(row: list[Any]) -> list[Any]:
    return (list(row) + [""] * len(UNDO_HEADER))[:len(UNDO_HEADER)]


def snapshot_rows(spreadsheet_id: str, turn: int, rows: list[list[Any]],
                  secret: str | None) -> list[list[Any]]:
    """The undo tab's content: header, lines, and the digest line (none without a secret,
    and such a snapshot is refused by undo)."""
    out = [UNDO_HEADER, *rows]
    if secret:
        out.append([turn, DIGEST, "", "", digest(spreadsheet_id, rows, secret), ""])
    return out


def read_snapshot(spreadsheet_id: str, rows: list[list[Any]], secret: str | None,
                  current_turn: int | None = None) -> Snapshot:
    """The snapshot in the undo tab's ``rows`` (header first), checked against its digest.

    Raises :class:`StoreError` for no snapshot, a snapshot without a digest or with one that
    does not match (it was changed after sheetmaster wrote it), or one of another turn than
    the last resolved (``current_turn`` - 1)."""
    lines = _lines(rows)
    if not lines:
        raise StoreError("there is nothing to undo: no resolve has been recorded")
    if not secret:
        raise DiceSecretError("undo on a Google Sheet needs the game's dice secret "
                              "(SHEETMASTER_DICE_SECRET): it checks that the snapshot in the "
                              f"hidden '{UNDO_TAB}' tab is the one sheetmaster wrote")
    *body, last = lines
    if values.text(last[1]) != DIGEST:
        raise StoreError(f"the undo snapshot in the '{UNDO_TAB}' tab has no digest, so it "
                         f"cannot be told from one that was edited; it was not restored and "
                         f"nothing was changed (a snapshot written before sheetmaster signed "
                         f"them cannot be undone: restore the sheet from File -> Version "
                         f"history instead)")
    if not hmac.compare_digest(values.text(last[4]), digest(spreadsheet_id, body, secret)):
        raise StoreError(f"the undo snapshot in the '{UNDO_TAB}' tab was changed after "
                         f"sheetmaster wrote it (its digest does not match): it was not "
                         f"restored and nothing was changed. File -> Version history shows who "
                         f"changed it; restore the sheet from there")
    snapshot = parse_snapshot(rows)
    if current_turn is not None and snapshot.turn != current_turn - 1:
        raise StoreError(f"the undo snapshot is of turn {snapshot.turn}, but the game is on "
                         f"turn {current_turn}: only the last resolved turn "
                         f"({current_turn - 1}) can be undone; nothing was changed")
    return snapshot


def snapshot_digest(rows: list[list[Any]]) -> str:
    """The digest the snapshot in the undo tab's ``rows`` ends with ('' if none)."""
    lines = _lines(rows)
    return values.text(lines[-1][4]) if lines and values.text(lines[-1][1]) == DIGEST else ""


def _lines(rows: list[list[Any]]) -> list[list[Any]]:
    return [_padded(r) for r in rows[1:] if any(not values.is_blank(v) for v in r)]


def parse_snapshot(rows: list[list[Any]]) -> Snapshot:
    """The snapshot's turn and lines, unchecked (``sheetmaster verify`` reads it without the
    secret; ``undo`` checks its digest first)."""
    lines = _lines(rows)
    body = [line for line in lines if values.text(line[1]) != DIGEST]
    if not lines:
        raise StoreError(f"the '{UNDO_TAB}' tab holds no snapshot")
    try:
        return Snapshot(int(float(lines[0][0])), list(_entries(body)))
    except (TypeError, ValueError):
        raise StoreError(f"the undo snapshot in the '{UNDO_TAB}' tab cannot be read") from None


def _entries(lines: list[list[Any]]) -> Iterator[Entry]:
    for _, tab, row, column, value, to_row in lines:
        first = int(float(row))
        last = int(float(to_row)) if not values.is_blank(to_row) else first
        yield Entry(values.text(tab), first, values.text(column), value, last)


def tables_before(tables: dict[str, pd.DataFrame], snapshot: Snapshot) -> dict[str, pd.DataFrame]:
    """The game's tables as they were before the snapshot's turn: every cell the turn wrote
    gets its old value back and the rows it added go (for ``sheetmaster verify``)."""
    out = {name: df.copy() for name, df in tables.items()}
    for entry in snapshot.entries:
        name = entry.tab if entry.tab in out else None
        if name is None:
            raise StoreError(f"the undo snapshot names a tab '{entry.tab}' the game lacks")
        df = out[name]
        rows = range(entry.row, entry.to_row + 1)
        if entry.column == ADDED_ROWS:
            out[name] = df.drop(index=[r for r in rows if r in df.index])
            continue
        column = next((c for c in df.columns if values.fold(str(c)) == values.fold(
            entry.column)), None)
        if column is None:
            raise StoreError(f"the undo snapshot names a column '{entry.column}' that tab "
                             f"'{name}' lacks")
        df[column] = df[column].astype(object)
        for r in rows:
            if r in df.index:
                df.at[r, column] = entry.value
    return out
