"""The .xlsx store: reads every tab, writes only sheetmaster's cells, atomically."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import openpyxl
import pytest
from openpyxl.comments import Comment
from openpyxl.styles import PatternFill
from python_calamine import CalamineWorkbook

from sheetmaster.engine.turn import resolve
from sheetmaster.stores import xlsx as xlsx_store
from sheetmaster.stores import xlsx_write
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.xlsx import XlsxStore, locked
from sheetmaster.stores.xlsx_layout import save_atomically, set_cell


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def resolve_file(claims, path: Path, out: Path | None = None, seed: int | None = 7):
    store = XlsxStore(path)
    result = resolve(claims, store.load(), seed=seed, secret="the game's dice secret")
    store.save(claims, result, out=out)
    return result


def test_load_reads_every_tab_with_sheet_row_numbers(example_book):
    state = XlsxStore(example_book).load()
    assert {"Game", "Orders", "Territories", "Players", "Wars", "War results", "Log"} <= set(
        state.tables)
    players = state.tables["Players"]
    assert players.index[0] == 2
    assert players.loc[2, "player"] == "Avalon"


def test_resolve_writes_new_state_results_log_and_turn(claims, example_book):
    resolve_file(claims, example_book)
    book = openpyxl.load_workbook(example_book)
    game = {r[0].value: r[1].value for r in book["Game"].iter_rows(min_row=2)}
    assert game["turn"] == 3
    orders = book["Orders"]
    header = [c.value for c in orders[1]]
    results = [r[header.index("result")].value for r in orders.iter_rows(min_row=2)]
    assert all(results)
    assert book["Log"].max_row > 10
    assert book["War results"].max_row == 3 + 4  # header, 2 rows of turn 1, 4 new
    owners = {r[0].value: r[1].value for r in book["Territories"].iter_rows(min_row=2)}
    assert owners["Ys"] == "Avalon"


def test_gm_formatting_notes_and_extra_tabs_survive(claims, example_book):
    book = openpyxl.load_workbook(example_book)
    ws = book["Players"]
    ws["B2"].fill = PatternFill("solid", fgColor="FFC000")
    ws.column_dimensions["A"].width = 33
    ws["A3"].comment = Comment("ally of Avalon", "GM")
    ws["M1"] = "notes"
    ws["M2"] = "=B2*2"
    extra = book.create_sheet("GM notes")
    extra["A1"] = "=SUM(Players!B2:B5)"
    extra["B1"] = "keep me"
    book.save(example_book)
    resolve_file(claims, example_book)
    after = openpyxl.load_workbook(example_book)
    ws = after["Players"]
    assert ws["B2"].fill.fgColor.rgb.endswith("FFC000")
    assert ws.column_dimensions["A"].width == 33
    assert ws["A3"].comment.text == "ally of Avalon"
    assert ws["M2"].value == "=B2*2"
    assert after["GM notes"]["A1"].value == "=SUM(Players!B2:B5)"
    assert after["GM notes"]["B1"].value == "keep me"
    assert after["Orders"].data_validations.dataValidation  # dropdowns kept


def test_text_that_looks_like_a_formula_is_written_as_text(tmp_path):
    path = tmp_path / "t.xlsx"
    book = openpyxl.Workbook()
    set_cell(book.active["A1"], '=HYPERLINK("http://evil","x")')
    set_cell(book.active["A2"], "+1")
    save_atomically(book, path)
    again = openpyxl.load_workbook(path)
    assert again.active["A1"].data_type == "s"
    assert again.active["A1"].value == '=HYPERLINK("http://evil","x")'
    rows = CalamineWorkbook.from_path(str(path)).get_sheet_by_index(0).to_python()
    assert rows[0][0] == '=HYPERLINK("http://evil","x")'


def test_no_cell_sheetmaster_writes_is_a_formula(claims, example_book):
    book = openpyxl.load_workbook(example_book)
    orders = book["Orders"]
    orders.append([None, "Avalon", "claim neutral territory", '=HYPERLINK("x","Sarum")'])
    book.save(example_book)
    result = resolve_file(claims, example_book)
    rejected = result.result_for_row(20)
    assert rejected is not None and "looks like a spreadsheet formula" in rejected.reason
    after = openpyxl.load_workbook(example_book)
    assert after["Orders"]["D20"].value == '=HYPERLINK("x","Sarum")'
    for ws in after.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type != "f", f"{ws.title}!{cell.coordinate} is a formula"


def test_same_workbook_resolves_to_the_same_bytes(claims, example_book, tmp_path):
    one, two = tmp_path / "one.xlsx", tmp_path / "two.xlsx"
    resolve_file(claims, example_book, out=one, seed=None)
    time.sleep(1.1)  # a different second on the clock must not change a byte
    resolve_file(claims, example_book, out=two, seed=None)
    assert digest(one) == digest(two)


def test_backup_keeps_the_pre_turn_workbook(claims, example_book):
    before = digest(example_book)
    resolve_file(claims, example_book)
    backup = xlsx_store.backup_path(example_book, 2)
    assert digest(backup) == before
    assert digest(example_book) != before


def test_a_crash_while_writing_leaves_the_game_untouched(claims, example_book, monkeypatch):
    before = digest(example_book)

    def boom(*args):
        raise OSError("disk full")

    monkeypatch.setattr(xlsx_write, "_copy", boom)
    with pytest.raises(OSError):
        resolve_file(claims, example_book)
    assert digest(example_book) == before
    leftovers = [p.name for p in example_book.parent.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


def test_lock_keeps_a_second_run_out(example_book):
    with locked(example_book), pytest.raises(StoreError, match="another sheetmaster run"), \
            locked(example_book):
        pass
    with locked(example_book):  # released after the first run
        pass


def test_stale_lock_of_a_dead_process_is_taken_over(example_book):
    """The lock is the operating system's (filelock): it dies with the process holding it,
    so a lock file a killed run left behind locks nothing."""
    lock = example_book.parent / f".{example_book.name}.lock"
    lock.write_text("999999999")
    with locked(example_book):
        pass
    with locked(example_book):
        pass


def test_undo_restores_the_pre_turn_workbook(claims, example_book):
    from sheetmaster.app.runs import undo_turn

    before = digest(example_book)
    resolve_file(claims, example_book)
    assert undo_turn(XlsxStore(example_book)) == 2
    assert digest(example_book) == before
    with pytest.raises(StoreError, match="nothing to undo"):
        undo_turn(XlsxStore(example_book))


def test_no_lock_file_is_left_beside_the_workbook_after_a_run(tmp_path):
    """The lock file is there while a run holds it, and gone once the run ends; the lock
    still keeps a second run out (test_lock_keeps_a_second_run_out)."""
    from sheetmaster.app.cli import main

    game = tmp_path / "g.xlsx"
    assert main(["new", "claims", str(game), "--example", "-q"]) == 0
    lock = tmp_path / ".g.xlsx.lock"
    with locked(game):
        assert lock.exists()
    assert not lock.exists()
    for command in (["check"], ["resolve", "--dry-run"], ["resolve"], ["undo"],
                    ["map", "--out", str(tmp_path / "map.png")]):
        assert main([command[0], str(game), *command[1:], "-qq"]) in (0, 1), command
        assert not lock.exists(), command
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


@pytest.mark.parametrize("content", [b"player,order\nAvalon,claim\n", b"", b"PK\x03\x04 cut"])
def test_a_file_that_is_not_a_workbook_gets_no_lock(tmp_path, content):
    from sheetmaster.app.cli import main

    notes = tmp_path / "notes.csv"
    notes.write_bytes(content)
    assert main(["check", str(notes)]) == 5
    assert main(["resolve", str(notes), "--force"]) == 5
    assert [p.name for p in tmp_path.iterdir()] == ["notes.csv"]
