"""The local workbook store: calamine reads, a patcher writes only sheetmaster's cells.

Reading uses python-calamine (several times faster than openpyxl), after the file has been
checked to be a workbook of a size it can read. Writing copies the workbook part by part:
the tabs the turn changed get their changed cells patched in, keeping each cell's style,
and every other part (images, charts, notes, tables, pivot tables, macros, formatting...)
is copied as it is. The new file replaces the old one atomically (temp file, fsync, rename)
after a backup of the pre-turn workbook is kept. openpyxl writes new workbooks only.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd

from sheetmaster.kit import values
from sheetmaster.kit.changes import column_changes
from sheetmaster.kit.model import GameState, TurnResult
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.tabs import all_tables
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.xlsx_files import (
    backup_path,
    backups_folder,
    check_target,
    copy_atomically,
    file_mode,
    locked,
    real_path,
    remove_stale_temps,
    remove_stale_temps_in,
    replace_atomically,
    temp_beside,
    undo_last_turn,
)
from sheetmaster.stores.xlsx_read import ZIP_ERRORS, check_readable, open_workbook, read_cells
from sheetmaster.stores.xlsx_write import Columns, write_turn

__all__ = ["XlsxStore", "backup_path", "copy_atomically", "locked", "read_sheet_rows",
           "undo_last_turn"]


def read_sheet_rows(rows: list[list[Any]]) -> pd.DataFrame:
    """Row 1 is the header; the index of each data row is its sheet row number."""
    if not rows:
        return pd.DataFrame()
    header = [values.text(h) or f"(column {i + 1})" for i, h in enumerate(rows[0])]
    body = rows[1:]
    while body and all(values.is_blank(v) for v in body[-1]):
        body.pop()
    width = len(header)
    columns = list(zip(*[(r + [""] * (width - len(r)))[:width] for r in body])) if body else \
        [()] * width
    df = pd.DataFrame({i: pd.Series(list(col), dtype=object) for i, col in enumerate(columns)})
    # a header written twice stays twice (the engine refuses a column of its own headed twice)
    df.columns = header
    df.index = range(2, 2 + len(body))
    return df


def put_errors(rows: list[list[Any]], errors: dict[tuple[int, int], str]) -> None:
    """Each error cell (calamine reads it as blank) given its error's text, '#DIV/0!', as a
    Google Sheet gives it: a failed formula never passes for a blank cell."""
    for (row, column), text in errors.items():
        while len(rows) < row:
            rows.append([])
        cells = rows[row - 1]
        cells.extend([""] * (column - len(cells)))
        cells[column - 1] = text


def merged_cells(df: pd.DataFrame, ranges: list[Any]) -> list[tuple[int, str, str]]:
    """(row, column, range) of each merged range of a tab, by its top-left cell."""
    from sheetmaster.stores.xlsx_refs import get_column_letter

    header = list(df.columns)
    out = []
    for (r0, c0), (r1, c1) in ranges:
        name = header[c0] if c0 < len(header) else get_column_letter(c0 + 1)
        ref = f"{get_column_letter(c0 + 1)}{r0 + 1}:{get_column_letter(c1 + 1)}{r1 + 1}"
        out.append((r0 + 1, str(name), ref))
    return out


class XlsxStore:
    """A game kept in a local .xlsx (or .xlsm) file.

    ``out``: write the resolved game there and leave the file as it was; ``backup``: keep the
    pre-turn workbook beside it when it is replaced (``kept`` says where).
    """

    def __init__(self, path: str | os.PathLike[str], *, out: str | os.PathLike[str] | None
                 = None, backup: bool = True) -> None:
        self.path = Path(path)
        self.out = Path(out) if out else None
        self.backup = backup
        self.kept: Path | None = None

    def undo(self, current_turn: int | None = None) -> int:
        """Put the game back as it was before its last resolved turn (lock held)."""
        return undo_last_turn(self.path)

    def report_path(self, turn: int) -> Path:
        """Where the players' report of ``turn`` goes by default: beside the game."""
        target = self.out or self.path
        return target.parent / f"{target.stem}-turn-{turn}-report.md"

    def target(self) -> Path:
        """The file a save writes: ``out``, or the game itself (a symlink's real file)."""
        return self.out if self.out else real_path(self.path)

    def check_writable(self) -> None:
        """Refuse, before any work, a save that could not be written."""
        check_target(self.target(), "the resolved game")

    def load(self) -> GameState:
        facts = check_readable(self.path)
        tables = {}
        for name, (rows, merged) in read_cells(self.path).items():
            if name in facts and facts[name].errors:
                put_errors(rows, facts[name].errors)
            tables[name] = df = read_sheet_rows(rows)
            if merged:
                df.attrs["merged"] = merged_cells(df, merged)
            formulas = facts[name].formulas if name in facts else {}
            if formulas:
                header = list(df.columns)
                df.attrs["formulas"] = {(row, header[col - 1]): text
                                        for (row, col), text in formulas.items()
                                        if row >= 2 and col <= len(header)}
        return GameState(tables, {})

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """One run at a time on this workbook; what killed runs left is cleared first. A file
        that is not a workbook is refused before any lock is taken beside it."""
        open_workbook(self.path).close()
        with locked(self.path):
            real = real_path(self.path)
            remove_stale_temps(real, *([self.out] if self.out else []))
            remove_stale_temps_in(backups_folder(real))
            yield

    def save(self, ruleset: Ruleset, result: TurnResult, *, out: Path | None = None,
             backup: bool | None = None) -> Path | None:
        """Write the turn's changed cells; returns the backup's path, if one was made."""
        target = Path(out) if out else self.target()
        source = real_path(self.path)
        backup = self.backup if backup is None else backup
        tables = all_tables(ruleset)
        columns = Columns({t.tab: {c.name: c.aliases for c in t.columns if c.aliases}
                           for t in tables}, {t.tab for t in tables if t.player_input})
        names = result.before.meta.get("tab_names", {})
        kept, existed = None, False
        with temp_beside(target) as temp:
            changes = [(table.tab, group) for table in tables
                       for group in column_changes(table, result.before, result.after)]
            try:
                write_turn(source, temp, changes, names, columns)
            except ZIP_ERRORS as exc:
                raise StoreError(f"{source} could not be copied ({exc}); nothing was "
                                 f"written") from None
            os.chmod(temp, file_mode(target))
            if backup and target.exists() and target.resolve() == source.resolve():
                kept = backup_path(source, result.turn)
                kept.parent.mkdir(exist_ok=True)
                existed = kept.exists()
                copy_atomically(source, kept)
            try:
                replace_atomically(temp, target)
            except StoreError:
                if kept is not None and not existed:
                    kept.unlink()
                raise
        self.kept = kept
        return kept
