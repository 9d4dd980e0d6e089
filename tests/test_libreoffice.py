"""Every workbook sheetmaster writes opens in LibreOffice, a second spreadsheet program no one
here wrote, with the same cell values: new games, resolved, checked and undone ones, and the
resolved corpus (tests/corpus). LibreOffice runs headless and saves each file again as
.xlsx; both files are then read cell by cell. A GM's formulas over cells sheetmaster wrote
show the new values (the workbook asks for recalculation on opening).

Skipped where LibreOffice is not installed (Debian: apt-get install libreoffice-calc-nogui).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from python_calamine import CalamineWorkbook

from sheetmaster import rules
from sheetmaster.app.cli import main
from sheetmaster.app.runs import Mode, run_turn
from sheetmaster.kit.fairness import secret_path
from sheetmaster.stores.xlsx import XlsxStore

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
#: about two minutes, with LibreOffice to install first: a long run (`pytest -m long`), which
#: the scheduled CI job makes with LibreOffice installed.
pytestmark = [pytest.mark.long, pytest.mark.skipif(
    SOFFICE is None, reason="LibreOffice is not installed (soffice not found; on Debian or "
                            "Ubuntu: apt-get install libreoffice-calc-nogui)")]
CORPUS = Path(__file__).parent / "corpus"
EXAMPLES = sorted(name for name, r in rules.available().items() if r.example)


def convert(files: list[Path], out: Path, profile: Path) -> None:
    """LibreOffice opens each file and saves it again as .xlsx into ``out``."""
    out.mkdir()
    done = subprocess.run(
        [SOFFICE, "--headless", "--norestore", "--nologo",
         f"-env:UserInstallation={profile.as_uri()}", "--convert-to", "xlsx",
         "--outdir", str(out), *map(str, files)],
        capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def _norm(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def cell_values(path: Path) -> dict[str, dict[tuple[int, int], Any]]:
    """Tab -> (row, column) -> value of every non-empty cell, as calamine reads it."""
    book = CalamineWorkbook.from_path(str(path))
    out = {}
    for name in book.sheet_names:
        rows = book.get_sheet_by_name(name).to_python(skip_empty_area=False)
        out[name] = {(r, c): _norm(v) for r, row in enumerate(rows, start=1)
                     for c, v in enumerate(row, start=1) if v not in ("", None)}
    book.close()
    return out


def pivot_tabs(path: Path) -> set[str]:
    """Tabs that show a pivot table: LibreOffice refreshes those on opening, while the file
    keeps the values of their last refresh (as Excel does until Data > Refresh All)."""
    book = openpyxl.load_workbook(path)
    return {ws.title for ws in book.worksheets if ws._pivots}


def formula_cells(path: Path) -> set[tuple[str, int, int]]:
    book = openpyxl.load_workbook(path)
    return {(ws.title, c.row, c.column) for ws in book.worksheets for row in ws.iter_rows()
            for c in row if c.data_type == "f"}


@pytest.fixture(scope="module")
def round_trip(tmp_path_factory) -> dict[str, tuple[Path, Path]]:
    """name -> (the file sheetmaster wrote, LibreOffice's save of it)."""
    root = tmp_path_factory.mktemp("libreoffice")
    work = root / "written"
    work.mkdir()
    written: list[Path] = []
    for ruleset in EXAMPLES:
        new = work / f"{ruleset}-new.xlsx"
        assert main(["new", ruleset, str(new), "--example"]) == 0
        resolved, undone = work / f"{ruleset}-resolved.xlsx", work / f"{ruleset}-undone.xlsx"
        for game in (resolved, undone):
            shutil.copy(new, game)
            shutil.copy(secret_path(new), secret_path(game))
            assert main(["resolve", str(game), "-q", "--force"]) == 0
            assert main(["resolve", str(game), "-q", "--force"]) == 0  # two turns
        assert main(["undo", str(undone)]) == 0
        checked = work / f"{ruleset}-checked.xlsx"
        shutil.copy(resolved, checked)
        shutil.copy(secret_path(new), secret_path(checked))
        assert main(["check", str(checked), "-q"]) in (0, 1)  # 1: some would be rejected
        written += [new, resolved, checked, undone]
    for path in sorted(CORPUS.glob("*.xls[xm]")):
        game = work / f"corpus-{path.stem}{path.suffix}"
        shutil.copy(path, game)
        assert run_turn(XlsxStore(game), Mode.RESOLVE, force=True, seed=7).written
        written.append(game)
    convert(written, root / "saved-by-libreoffice", root / "profile")
    return {p.name: (p, root / "saved-by-libreoffice" / f"{p.stem}.xlsx") for p in written}


def test_every_written_workbook_opens_in_libreoffice_with_the_same_values(round_trip):
    for name, (ours, theirs) in round_trip.items():
        assert theirs.exists(), f"LibreOffice could not open {name}"
        formulas = formula_cells(ours)
        mine, lo = cell_values(ours), cell_values(theirs)
        assert set(lo) >= set(mine), name
        for tab, cells in mine.items():
            if tab in pivot_tabs(ours):
                continue
            kept = {k: v for k, v in cells.items() if (tab, *k) not in formulas}
            again = {k: v for k, v in lo[tab].items() if (tab, *k) not in formulas}
            assert again == kept, f"{name}, tab {tab}"


def test_a_gms_formulas_show_the_values_sheetmaster_wrote(round_trip):
    ours, theirs = round_trip["corpus-formulas.xlsx"]
    players = cell_values(ours)["Players"]
    gold = sum(v for (r, c), v in players.items() if c == 2 and r >= 2)
    sums = cell_values(theirs)["Sums"]
    assert sums[(1, 2)] == gold  # =SUM(Players!B2:B5), recalculated on opening
    lo_players = cell_values(theirs)["Players"]
    assert all(lo_players[(r, 13)] == 2 * players[(r, 2)] for r in range(2, 6))  # =B2*2
