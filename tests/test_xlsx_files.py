"""Nothing a GM types or runs loses a turn or a file, and every failure is a clear message.

The workbook on disk: macro-enabled workbooks, --out and --report paths, symlinks, temp files
of killed runs, merged cells, files that are not workbooks, numbers too large, huge sheets,
Windows (Excel holding the file open, simulated), paths with spaces and accents.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import openpyxl
import pytest
from python_calamine import CalamineWorkbook

from sheetmaster.app.cli import main
from sheetmaster.app.exits import Exit
from sheetmaster.kit.fairness import secret_path
from sheetmaster.stores import xlsx_files
from sheetmaster.stores.xlsx import XlsxStore

CORPUS = Path(__file__).parent / "corpus"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def game_turn(path: Path) -> int:
    book = CalamineWorkbook.from_path(str(path))
    rows = book.get_sheet_by_name("Game").to_python()
    book.close()
    return int({row[0]: row[1] for row in rows}["turn"])


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "g.xlsx"
    assert main(["new", "claims", str(path), "--example"]) == 0
    return path


def run(capsys, *argv: str) -> tuple[int, str]:
    """The command's exit code and what it printed on stderr (never a traceback)."""
    code = main(list(argv))
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err


# -- 8. macro-enabled workbooks ---------------------------------------------------------------

def test_an_xlsm_keeps_its_macros_and_stays_macro_enabled(tmp_path, capsys):
    game = tmp_path / "game.xlsm"
    shutil.copy(CORPUS / "macros.xlsm", game)
    secret_path(game).write_text("the game's dice secret")
    before = digest(game)
    with zipfile.ZipFile(game) as z:
        vba = z.read("xl/vbaProject.bin")
    assert run(capsys, "resolve", str(game), "-q", "--force")[0] == 0
    with zipfile.ZipFile(game) as z:
        assert z.read("xl/vbaProject.bin") == vba
        assert b"macroEnabled.main+xml" in z.read("[Content_Types].xml")
        assert b"vbaProject" in z.read("xl/_rels/workbook.xml.rels")
    assert game_turn(game) == 3
    kept = tmp_path / "game.xlsm.backups" / "before-turn-2.xlsm"
    assert digest(kept) == before
    assert run(capsys, "undo", str(game))[0] == 0
    assert digest(game) == before


# -- 9. --out never overwrites without --force --------------------------------------------------

def test_out_refuses_an_existing_file_unless_forced(game, capsys):
    out = game.parent / "other.xlsx"
    out.write_bytes(b"the GM's other file")
    code, err = run(capsys, "resolve", str(game), "--out", str(out), "-q")
    assert code == Exit.USAGE and "already exists" in err and "--force" in err
    assert out.read_bytes() == b"the GM's other file"
    code, err = run(capsys, "check", str(game), "--out", str(out), "-q")
    assert code == Exit.USAGE and "already exists" in err
    assert run(capsys, "resolve", str(game), "--out", str(out), "-q", "--force")[0] == 0
    assert game_turn(out) == 3 and game_turn(game) == 2


# -- 10. a symlinked game ----------------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform == "win32",
                    reason="symlinks need privileges on Windows")
def test_a_symlinked_game_updates_the_file_it_points_to(game, capsys):
    real = game.parent / "seasons" / "season-1.xlsx"
    real.parent.mkdir()
    shutil.move(game, real)
    shutil.move(secret_path(game), secret_path(real))  # the GM keeps it beside the real file
    link = game.parent / "current.xlsx"
    link.symlink_to(real)
    before = digest(real)
    assert run(capsys, "resolve", str(link), "-q")[0] == 0
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert game_turn(real) == 3
    assert digest(real.parent / "season-1.xlsx.backups" / "before-turn-2.xlsx") == before
    assert run(capsys, "undo", str(link))[0] == 0
    assert link.is_symlink() and digest(real) == before


# -- 11. output paths checked first; the report written before the turn -------------------------

def test_every_output_path_is_checked_before_anything_is_resolved(game, capsys):
    before = digest(game)
    code, err = run(capsys, "resolve", str(game), "-q", "--report",
                    str(game.parent / "no such folder" / "report.md"))
    assert code == Exit.STORE and "does not exist" in err
    code, err = run(capsys, "resolve", str(game), "-q", "--out",
                    str(game.parent / "missing" / "out.xlsx"))
    assert code == Exit.STORE and "does not exist" in err
    code, err = run(capsys, "resolve", str(game), "-q", "--out", str(game.parent))
    assert code == Exit.STORE and "is a folder" in err
    assert digest(game) == before
    assert sorted(p.name for p in game.parent.iterdir()
                  if not p.name.endswith((".lock", ".dice-secret"))) == ["g.xlsx"]


def test_a_read_only_folder_is_said_before_anything_is_resolved(game, capsys, monkeypatch):
    folder = game.parent / "read-only"
    folder.mkdir()
    real_mkstemp = xlsx_files.tempfile.mkstemp

    def refuse_in_that_folder(*args, **kwargs):
        if Path(kwargs.get("dir", ".")) == folder:
            raise PermissionError(13, "Permission denied", str(folder))
        return real_mkstemp(*args, **kwargs)

    monkeypatch.setattr(xlsx_files.tempfile, "mkstemp", refuse_in_that_folder)
    code, err = run(capsys, "resolve", str(game), "-q", "--out", str(folder / "out.xlsx"))
    assert code == Exit.STORE and "read-only" in err and "Permission denied" in err
    assert game_turn(game) == 2 and not list(folder.iterdir())


def test_the_turn_report_is_written_before_the_turn(game, capsys, monkeypatch):
    """A run killed right after its write never loses the report: it was written first (and
    a run killed before the write leaves the turn, and its report, to the next run)."""
    report = game.parent / "g-turn-2-report.md"
    seen = []
    real_save = XlsxStore.save

    def save(self, ruleset, result, **kwargs):
        seen.append(report.exists())
        return real_save(self, ruleset, result, **kwargs)

    monkeypatch.setattr(XlsxStore, "save", save)
    assert run(capsys, "resolve", str(game), "-q")[0] == 0
    assert seen == [True] and "## Avalon" in report.read_text(encoding="utf-8")


def test_a_turn_that_could_not_be_written_leaves_no_report(game, capsys, monkeypatch):
    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(XlsxStore, "save", full_disk)
    code, err = run(capsys, "resolve", str(game), "-q")
    assert code == Exit.STORE and "No space left on device" in err
    assert not list(game.parent.glob("*.md")) and game_turn(game) == 2


# -- 12. what killed runs left behind ----------------------------------------------------------

def test_temp_files_of_killed_runs_are_cleaned_by_the_next_run(game, capsys):
    left = [game.parent / ".g.xlsx.k1ll3d.tmp", game.parent / "g.xlsx.backups" /
            ".before-turn-2.xlsx.x7y8z9.tmp"]
    left[1].parent.mkdir()
    for path in left:
        path.write_bytes(b"PK\x03\x04 half a workbook")
    others = game.parent / ".other.xlsx.abc123.tmp"  # another game's: not ours to remove
    others.write_bytes(b"PK")
    assert run(capsys, "resolve", str(game), "-q")[0] == 0
    assert not any(p.exists() for p in left) and others.exists()


# -- 13. merged cells --------------------------------------------------------------------------

def test_merged_cells_in_a_game_tab_are_refused_by_tab_row_and_column(game, capsys):
    book = openpyxl.load_workbook(game)
    book["Territories"].merge_cells("B3:B4")  # Lyonesse's owner over Glastonbury's
    book.create_sheet("GM notes").merge_cells("A1:D1")  # the GM's own tab: fine
    book.save(game)
    before = digest(game)
    code, err = run(capsys, "resolve", str(game), "-q")
    assert code == Exit.SHEET_BROKEN
    assert "tab 'Territories', row 3, column 'owner'" in err and "B3:B4" in err
    assert "merged" in err and "GM notes" not in err
    assert digest(game) == before
    book = openpyxl.load_workbook(game)
    book["Territories"].unmerge_cells("B3:B4")
    book.save(game)
    assert run(capsys, "resolve", str(game), "-q")[0] == 0


def test_what_cannot_be_kept_is_refused_before_writing_naming_it(game, capsys):
    """An array formula over cells sheetmaster writes would be broken by the turn, and a
    legacy shared workbook's change history would no longer match: both are refused."""
    from openpyxl.worksheet.formula import ArrayFormula

    book = openpyxl.load_workbook(game)
    book["Players"]["B2"] = ArrayFormula("B2:B5", "=ROW(B2:B5)")  # over the gold column
    book.save(game)
    before = digest(game)
    code, err = run(capsys, "resolve", str(game), "-q")
    assert code == Exit.STORE and "array formula over B2:B5" in err and "column 'gold'" in err
    assert digest(game) == before

    shared = game.parent / "shared.xlsx"
    main(["new", "claims", str(shared), "--example"])
    with zipfile.ZipFile(shared, "a") as z:
        z.writestr("xl/revisions/revisionHeaders.xml", "<headers/>")
    before = digest(shared)
    code, err = run(capsys, "resolve", str(shared), "-q")
    assert code == Exit.STORE and "Share Workbook" in err and digest(shared) == before


# -- 14. clear errors, never a traceback -------------------------------------------------------

def _not_workbooks(folder: Path) -> dict[str, Path]:
    example = folder / "example.xlsx"
    main(["new", "claims", str(example), "--example"])
    files = {"missing": folder / "missing.xlsx", "empty": folder / "empty.xlsx",
             "truncated": folder / "truncated.xlsx", "not a zip": folder / "notes.xlsx",
             "a folder": folder / "folder.xlsx", "an old .xls": folder / "old.xlsx",
             "a zip of something else": folder / "photos.xlsx"}
    files["empty"].write_bytes(b"")
    files["truncated"].write_bytes(example.read_bytes()[:3000])
    files["not a zip"].write_text("gold: 12\n")
    files["a folder"].mkdir()
    files["an old .xls"].write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(500))
    with zipfile.ZipFile(files["a zip of something else"], "w") as z:
        z.writestr("holiday.jpg", b"\xff\xd8")
    files["an .ods"] = folder / "calc.ods"
    with zipfile.ZipFile(files["an .ods"], "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("content.xml", "<office:document-content/>")
    files["an .xlsb"] = folder / "binary.xlsb"
    with zipfile.ZipFile(files["an .xlsb"], "w") as z:
        z.writestr("xl/workbook.bin", b"\x83\x01\x00")
    return files


@pytest.mark.parametrize("command", ["resolve", "check", "undo"])
def test_a_file_that_is_not_a_workbook_gets_a_clear_error(tmp_path, capsys, command):
    for what, path in _not_workbooks(tmp_path).items():
        capsys.readouterr()
        code, err = run(capsys, command, str(path), "-q" if command != "undo" else "--")
        assert code == Exit.STORE, what
        assert err.startswith("error: ") and len(err.splitlines()) == 1, (what, err)
        assert path.name in err, (what, err)
        if what in ("an .ods", "an .xlsb"):
            assert "save it as" in err


def test_numbers_too_large_for_a_spreadsheet_are_refused_before_writing(game, capsys):
    book = openpyxl.load_workbook(game)
    players = book["Players"]
    for row in range(2, 6):
        if players[f"A{row}"].value in ("Avalon", "Dumnonia"):
            players[f"B{row}"] = 1.7e308
    book["Orders"]["E6"] = "1" + "0" * 308  # Dumnonia pays Avalon 10^308 gold
    book.save(game)
    before = digest(game)
    code, err = run(capsys, "resolve", str(game), "-q")
    # refused as read (a state value past 1e15), or as written (a result no cell can hold)
    assert code in (Exit.SHEET_BROKEN, Exit.STORE)
    assert "Players" in err and "Traceback" not in err
    assert digest(game) == before


def test_an_absurd_turn_number_is_a_clear_error(game, capsys):
    book = openpyxl.load_workbook(game)
    for row in book["Game"].iter_rows(min_row=2):
        if row[0].value == "turn":
            row[1].value = 1e308
    book.save(game)
    before = digest(game)
    code, err = run(capsys, "resolve", str(game), "-q")
    assert code in (Exit.SHEET_BROKEN, Exit.STORE) and "turn" in err
    assert "Traceback" not in err
    assert digest(game) == before


def test_a_seed_the_dice_cannot_use_is_a_usage_error(game, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["resolve", str(game), "--seed", "-1"])
    assert exit_.value.code == Exit.USAGE
    assert "--seed" in capsys.readouterr().err


# -- 15. huge sheets: bounded work, or a clear refusal -----------------------------------------

def _with_rows(game: Path, sheet_part: str, rows: bytes, dimension: bytes | None = None) -> None:
    """Add raw rows at the end of a tab's XML (as another program might have written)."""
    out = game.with_suffix(".tmp.xlsx")
    with zipfile.ZipFile(game) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == sheet_part:
                data = data.replace(b"</sheetData>", rows + b"</sheetData>")
                if dimension:
                    data = data.replace(b'<dimension ref="', b'<dimension ref="' + dimension
                                        + b'" x="')
            z.writestr(info, data)
    out.replace(game)


def _resolve_within(game: Path, memory_gib: float) -> subprocess.CompletedProcess:
    """``sheetmaster resolve`` in a child process whose memory is capped (Linux)."""
    code = textwrap.dedent(f"""
        import resource, sys
        cap = int({memory_gib} * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        from sheetmaster.app.cli import main
        sys.exit(main(["resolve", {str(game)!r}, "-q", "--force"]))
    """)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


linux_only = pytest.mark.skipif(sys.platform != "linux",
                                reason="caps memory with setrlimit(RLIMIT_AS), which Linux "
                                       "enforces")


@linux_only
def test_a_stray_cell_at_xfd1048576_is_refused_without_reading_it(game):
    _with_rows(game, "xl/worksheets/sheet1.xml",  # the how-to tab, the GM's
               b'<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>x</t></is></c></row>')
    before = digest(game)
    done = _resolve_within(game, 2)
    assert done.returncode == Exit.STORE, done.stderr
    assert "XFD1048576" in done.stderr and "20,000,000 cells" in done.stderr
    assert digest(game) == before


@linux_only
def test_a_million_formatted_empty_rows_and_a_far_note_are_read_in_bounded_memory(game):
    """Rows a GM formatted down to the bottom of a game tab, and a note in the very last row
    of a tab of the GM's, are read and written in bounded memory: the whole run within 1 GiB
    of address space (it took 1.4 GB and two minutes before)."""
    empty_rows = b"".join(b'<row r="%d" s="1" customFormat="1"><c r="A%d" s="1"/></row>'
                          % (r, r) for r in range(30, 1_000_030))
    _with_rows(game, "xl/worksheets/sheet4.xml", empty_rows)  # Territories
    _with_rows(game, "xl/worksheets/sheet1.xml",  # the how-to tab
               b'<row r="1048576"><c r="A1048576" t="inlineStr"><is><t>end</t></is></c></row>')
    done = _resolve_within(game, 1)
    assert done.returncode == 0, done.stderr
    assert game_turn(game) == 3


# -- Windows: Excel holds the file open (simulated where there is no Windows) ------------------

WINDOWS_SHARING_VIOLATION = PermissionError(
    13, "The process cannot access the file because it is being used by another process")


@pytest.fixture
def excel_holds(monkeypatch):
    """``excel_holds(path)``: from now on, replacing that file fails as it does on Windows
    while Excel has it open; ``excel_holds(None)`` closes Excel."""
    real_replace = os.replace

    def hold(path: Path | None) -> None:
        def held_open(src, dst, *args, **kwargs):
            if Path(dst) == path:
                raise WINDOWS_SHARING_VIOLATION
            return real_replace(src, dst, *args, **kwargs)

        monkeypatch.setattr(xlsx_files.os, "replace", held_open)

    return hold


def test_excel_holding_the_game_open_is_said_plainly_and_nothing_changes(game, capsys,
                                                                        excel_holds):
    before = digest(game)
    excel_holds(game)
    code, err = run(capsys, "resolve", str(game), "-q")
    assert code == Exit.STORE
    assert "Close g.xlsx in Excel" in err and "nothing was changed" in err
    assert digest(game) == before
    assert sorted(p.name for p in game.parent.iterdir()
                  if not p.name.endswith((".lock", ".dice-secret"))) == ["g.xlsx", "g.xlsx.backups"]
    assert not list((game.parent / "g.xlsx.backups").iterdir())  # no backup of a turn
    excel_holds(None)  # Excel is closed
    assert run(capsys, "resolve", str(game), "-q")[0] == 0


def test_on_windows_a_file_excel_holds_is_refused_before_resolving(game, capsys,
                                                                   monkeypatch):
    monkeypatch.setattr(xlsx_files, "WINDOWS", True)

    def opened_by_excel(path):
        raise WINDOWS_SHARING_VIOLATION

    monkeypatch.setattr(xlsx_files, "open_for_update", opened_by_excel)
    resolved = []
    monkeypatch.setattr(XlsxStore, "load", lambda self: resolved.append(1))
    code, err = run(capsys, "resolve", str(game), "-q")
    assert code == Exit.STORE and "Close g.xlsx in Excel" in err
    assert not resolved


def test_undo_while_excel_holds_the_game_changes_nothing(game, capsys, excel_holds):
    assert run(capsys, "resolve", str(game), "-q")[0] == 0
    after = digest(game)
    excel_holds(game)
    code, err = run(capsys, "undo", str(game))
    assert code == Exit.STORE and "Close g.xlsx in Excel" in err
    assert digest(game) == after
    assert (game.parent / "g.xlsx.backups" / "before-turn-2.xlsx").exists()


# -- paths as GMs name them ------------------------------------------------------------------

def test_paths_with_spaces_and_accents_work_end_to_end(tmp_path, capsys):
    folder = tmp_path / "GM files" / "Saison d'été ü"
    folder.mkdir(parents=True)
    game = folder / "Königreich Ōsaka 1.xlsx"
    assert run(capsys, "new", "claims", str(game), "--example")[0] == 0
    before = digest(game)
    assert run(capsys, "check", str(game), "-q")[0] == Exit.REJECTED  # some would be
    assert run(capsys, "resolve", str(game), "-q", "--force")[0] == 0
    assert (folder / "Königreich Ōsaka 1-turn-2-report.md").exists()
    assert game_turn(game) == 3
    out = folder / "après le tour.xlsx"
    assert run(capsys, "resolve", str(game), "-q", "--force", "--out", str(out))[0] == 0
    assert game_turn(out) == 4
    assert run(capsys, "undo", str(game))[0] == 0
    assert game_turn(game) == 2 and digest(game) != before  # the check's results stay
