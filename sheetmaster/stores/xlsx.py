"""The local workbook store: calamine reads, openpyxl writes only sheetmaster's cells.

Reading uses python-calamine (several times faster than openpyxl). Writing loads the workbook
with openpyxl, so the GM's formatting, colours, column widths, notes, data validation, extra
tabs and their formulas are kept, sets only the cells the turn changed, and replaces the file
atomically (temp file, fsync, rename) after keeping a backup of the pre-turn workbook.
"""

from __future__ import annotations

import contextlib
import html
import os
import re
import shutil
import tempfile
import threading
import time
import zipfile
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import openpyxl
import pandas as pd
from python_calamine import CalamineWorkbook

from sheetmaster import values
from sheetmaster.engine import all_tables
from sheetmaster.model import GameState, TurnResult
from sheetmaster.report import CellChange, cell_changes
from sheetmaster.ruleset import Ruleset
from sheetmaster.stores.base import StoreError

#: zip entries get this fixed time so the same turn gives the same bytes.
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
_MODIFIED = re.compile(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)")
_CELL_START = re.compile(rb'<c r="([A-Z]+)([0-9]+)"')
_FORMULA = re.compile(rb"<f[^>]*?(?:/>|>(.*?)</f>)", re.S)
_REL_NS = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


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


class XlsxStore:
    """A game kept in a local .xlsx file.

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

    def load(self) -> GameState:
        if not self.path.exists():
            raise StoreError(f"{self.path} does not exist")
        try:
            book = CalamineWorkbook.from_path(str(self.path))
        except Exception as exc:  # calamine raises its own error types
            raise StoreError(f"{self.path} is not a readable .xlsx workbook: {exc}") from None
        tables = {}
        formulas = formula_cells(self.path)
        for name in book.sheet_names:
            rows = book.get_sheet_by_name(name).to_python(skip_empty_area=False)
            tables[name] = df = read_sheet_rows(rows)
            if formulas.get(name):
                header = list(df.columns)
                df.attrs["formulas"] = {(row, header[col - 1]): text
                                        for (row, col), text in formulas[name].items()
                                        if row >= 2 and col <= len(header)}
        return GameState(tables, {})

    def locked(self) -> contextlib.AbstractContextManager[None]:
        """One run at a time on this workbook."""
        return locked(self.path)

    def has_drawings(self) -> bool:
        """Charts and images are the one thing openpyxl cannot carry over."""
        with zipfile.ZipFile(self.path) as z:
            return any(n.startswith(("xl/charts/", "xl/media/")) or
                       (n.startswith("xl/drawings/") and n.endswith(".xml"))
                       for n in z.namelist())

    def save(self, ruleset: Ruleset, result: TurnResult, *, out: Path | None = None,
             backup: bool | None = None) -> Path | None:
        """Write the turn's changed cells; returns the backup's path, if one was made."""
        target = Path(out) if out else (self.out or self.path)
        backup = self.backup if backup is None else backup
        book = openpyxl.load_workbook(self.path)
        names = result.before.meta.get("tab_names", {})
        write_changes(book, cell_changes(ruleset, result), names)
        for table in all_tables(ruleset):
            if table.player_input:
                formulas_to_text(book, names.get(table.tab, table.tab))
        kept = None
        if backup and target.exists() and target.resolve() == self.path.resolve():
            kept = backup_path(self.path, result.turn)
            kept.parent.mkdir(exist_ok=True)
            copy_atomically(self.path, kept)
        save_atomically(book, target)
        self.kept = kept
        return kept


def undo_last_turn(path: Path) -> int:
    """Put the workbook back as it was before its last resolved turn; returns that turn.

    The backup taken before the turn replaces the file atomically; the undone workbook is
    kept beside the backups as ``undone-turn-N.xlsx``.
    """
    backups = sorted(path.parent.glob(f"{path.name}.backups/before-turn-*.xlsx"),
                     key=lambda p: int(p.stem.rsplit("-", 1)[-1]))
    if not backups:
        raise StoreError(f"there is nothing to undo: no backup in {path.name}.backups/")
    latest = backups[-1]
    turn = int(latest.stem.rsplit("-", 1)[-1])
    undone = latest.parent / f"undone-turn-{turn}.xlsx"
    shutil.copy2(path, undone)
    copy_atomically(latest, path)
    latest.unlink()
    return turn


def copy_atomically(source: Path, target: Path) -> None:
    """Copy beside the target, fsync, then rename over it: a crash leaves the target as it
    was or whole, never cut short (a backup cut short would be restored by undo)."""
    with _temp_beside(target) as temp:
        shutil.copy2(source, temp)
        with open(temp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(temp, target)


def backup_path(path: Path, turn: int) -> Path:
    """Where the workbook as it was before turn ``turn`` is kept."""
    return path.parent / f"{path.name}.backups" / f"before-turn-{turn}.xlsx"


def formula_cells(path: Path) -> dict[str, dict[tuple[int, int], str]]:
    """sheet -> (row, column) -> '=formula' for every formula cell, read from the XML.

    calamine gives a formula's cached value; a player who typed =HYPERLINK(...) must be told,
    so the formula text is found here with a scan that is cheap when there are none.
    """
    import xml.etree.ElementTree as ET

    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        if "xl/workbook.xml" not in names:
            return {}
        rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
        targets = {r.get("Id"): r.get("Target", "") for r in rels}
        found: dict[str, dict[tuple[int, int], str]] = {}
        for sheet in ET.fromstring(z.read("xl/workbook.xml")).iter():
            if not sheet.tag.endswith("}sheet"):
                continue
            target = targets.get(sheet.get(_REL_NS), "").lstrip("/")
            member = target if target.startswith("xl/") else f"xl/{target}"
            if member not in names:
                continue
            data = z.read(member)
            if b"<f" not in data:
                continue
            cells: dict[tuple[int, int], str] = {}
            for match in _FORMULA.finditer(data):
                start = data.rfind(b"<c ", 0, match.start())
                cell = _CELL_START.match(data, start)
                if cell is None:
                    continue
                column = 0
                for ch in cell.group(1).decode():
                    column = column * 26 + ord(ch) - 64
                text = html.unescape((match.group(1) or b"").decode("utf-8", "replace"))
                cells[(int(cell.group(2)), column)] = "=" + text
            found[sheet.get("name", "")] = cells
        return found


def formulas_to_text(book: openpyxl.Workbook, tab: str) -> None:
    """Players' cells hold text only: a formula typed into one is kept as its text."""
    sheets = {values.fold(ws.title): ws for ws in book.worksheets}
    ws = sheets.get(values.fold(tab))
    if ws is None:
        return
    for row in ws.iter_rows(min_row=2):
        for cell in row:
            if cell.data_type == "f":
                text = cell.value if isinstance(cell.value, str) else str(cell.value)
                set_cell(cell, text)


def write_changes(book: openpyxl.Workbook, changes: list[CellChange],
                  tab_names: dict[str, str] | None = None) -> None:
    """Set each changed cell; ``tab_names`` maps the game's tabs to the workbook's."""
    sheets = {values.fold(ws.title): ws for ws in book.worksheets}
    headers: dict[str, dict[str, int]] = {}
    tab_names = tab_names or {}
    for change in changes:
        ws = sheets.get(values.fold(tab_names.get(change.tab, change.tab)))
        if ws is None:
            raise StoreError(f"the workbook has no tab '{change.tab}'")
        cols = headers.get(ws.title)
        if cols is None:
            cols = {values.fold(values.text(c.value)): c.column for c in ws[1] if c.value}
            headers[ws.title] = cols
        col = cols.get(values.fold(change.column))
        if col is None:
            raise StoreError(f"tab '{ws.title}' has no column '{change.column}'")
        set_cell(ws.cell(row=change.row, column=col), change.after)


def set_cell(cell: Any, value: Any) -> None:
    """Store a value; text is always stored as text, never run as a formula."""
    if values.is_blank(value):
        cell.value = None
    elif isinstance(value, str):
        cell.value = value
        cell.data_type = "s"
    else:
        cell.value = value


def save_atomically(book: openpyxl.Workbook, target: Path) -> None:
    """Save beside the target, make the bytes reproducible, fsync, then rename over it."""
    target = Path(target)
    # openpyxl stamps "modified" with the clock; keep the workbook's own, so the same turn
    # gives the same bytes.
    modified = book.properties.modified or datetime(2026, 1, 1)
    with _temp_beside(target) as raw, _temp_beside(target) as final:
        book.save(raw)
        normalize_zip(raw, final, modified)
        mode = target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~_umask()
        os.chmod(final, mode)
        with open(final, "rb") as f:
            os.fsync(f.fileno())
        os.replace(final, target)
    with contextlib.suppress(OSError):
        dir_fd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def normalize_zip(src: Path, dst: Path, modified: datetime | None = None) -> None:
    """Rewrite a zip with fixed entry times (and ``modified`` as the document's modified
    time) so equal content gives equal bytes."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=_ZIP_TIME)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o600 << 16
            data = zin.read(info.filename)
            if info.filename == "docProps/core.xml" and modified is not None:
                stamp = modified.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
                data = _MODIFIED.sub(rb"\g<1>" + stamp + rb"\g<2>", data)
            zout.writestr(fixed, data)


@contextlib.contextmanager
def _temp_beside(target: Path) -> Iterator[Path]:
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    path = Path(name)
    try:
        yield path
    finally:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """One resolve at a time per workbook: a lock file beside it, removed when done.

    A lock left by a process that no longer runs is taken over.
    """
    lock = path.parent / f".{path.name}.lock"
    for _ in range(2):
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            if _stale(lock):
                _remove_stale(lock)
                continue
            raise StoreError(f"another sheetmaster run is working on {path.name} "
                             f"(lock file {lock}); wait for it to finish") from None
        with os.fdopen(fd, "w") as f:
            f.write(str(os.getpid()))
        break
    else:
        raise StoreError(f"could not take the lock {lock}")
    try:
        yield
    finally:
        with contextlib.suppress(FileNotFoundError):
            lock.unlink()


def _remove_stale(lock: Path) -> None:
    """Remove a dead run's lock. Another run may be taking it over at the same moment, and
    have put its own in its place since it was found stale: so it is first moved aside under
    a name of this run's (of two runs, only one moves a given file), looked at again, and put
    back if it is a live run's."""
    aside = lock.with_name(f"{lock.name}.{os.getpid()}-{threading.get_ident()}.stale")
    try:
        os.replace(lock, aside)
    except FileNotFoundError:
        return
    if _stale(aside):
        aside.unlink()
    else:
        os.replace(aside, lock)


#: an empty lock file younger than this belongs to a run that has just created it and is
#: about to write its pid; an older one was left by a run killed in between.
EMPTY_LOCK_GRACE_SECONDS = 10.0


def _stale(lock: Path) -> bool:
    try:
        text = lock.read_text().strip()
        if not text:
            return time.time() - lock.stat().st_mtime > EMPTY_LOCK_GRACE_SECONDS
        pid = int(text)
    except (OSError, ValueError):
        return True
    if pid <= 0:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False
