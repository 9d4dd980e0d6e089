"""The GM's workbook survives whole: each workbook of tests/corpus (made by openpyxl and by
LibreOffice, each with one kind of the GM's own work) is resolved, checked and undone, and
compared part by part with its original. What changed must be only sheetmaster's own cells;
those keep their style. (tests/corpus/make_corpus.py makes the corpus.)
"""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
from openpyxl.utils.cell import get_column_letter
from python_calamine import CalamineWorkbook

from sheetmaster.app.runs import Mode, run_turn, undo_turn
from sheetmaster.kit.changes import column_changes
from sheetmaster.kit.tabs import all_tables
from sheetmaster.stores.xlsx import XlsxStore

CORPUS = Path(__file__).parent / "corpus"
BOOKS = sorted(p for p in CORPUS.iterdir() if p.suffix in (".xlsx", ".xlsm"))
MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
SHEET_DATA = re.compile(rb"<sheetData>.*</sheetData>|<sheetData\s*/>", re.S)
DIMENSION = re.compile(rb'<dimension ref="[^"]*"\s*/>')
CALC_PR = re.compile(rb"<calcPr[^>]*>")


def parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist()}


def sheet_parts(files: dict[str, bytes]) -> dict[str, str]:
    """Tab name -> worksheet part, read with ElementTree (not with sheetmaster's code)."""
    rels = ET.fromstring(files["xl/_rels/workbook.xml.rels"])
    targets = {r.get("Id"): "xl/" + r.get("Target").lstrip("/").removeprefix("xl/")
               for r in rels}
    return {s.get("name"): targets[s.get(REL)]
            for s in ET.fromstring(files["xl/workbook.xml"]).iter(f"{MAIN}sheet")}


def cells(xml: bytes) -> dict[str, ET.Element]:
    return {c.get("r"): c for c in ET.fromstring(xml).iter(f"{MAIN}c")}


def written_cells(game: Path, ruleset, result) -> dict[str, set[str]]:
    """Tab -> references of the cells the turn writes, found by the headers of row 1."""
    book = CalamineWorkbook.from_path(str(game))
    names = result.before.meta.get("tab_names", {})
    out: dict[str, set[str]] = {}
    for table in all_tables(ruleset):
        tab = names.get(table.tab, table.tab)
        header = [str(h).strip().casefold() for h in
                  book.get_sheet_by_name(tab).to_python(skip_empty_area=False)[0]]
        for group in column_changes(table, result.before, result.after):
            names_ = [group.column, *table.column(group.column).aliases] \
                if group.column in [c.name for c in table.columns] else [group.column]
            column = next(header.index(n.casefold()) for n in names_ if n.casefold() in header)
            out.setdefault(tab, set()).update(f"{get_column_letter(column + 1)}{row}"
                                              for row in group.rows)
    book.close()
    return out


def assert_only_sheetmasters_cells_changed(before: dict[str, bytes], after: dict[str, bytes],
                                           written: dict[str, set[str]]) -> None:
    tabs = sheet_parts(before)
    patched = {tabs[tab]: refs for tab, refs in written.items()}
    assert set(after) <= set(before)
    assert set(before) - set(after) <= {"xl/calcChain.xml"}
    for name, data in before.items():
        if name not in after:
            continue
        if name in patched:
            assert SHEET_DATA.sub(b"", DIMENSION.sub(b"", after[name])) == \
                SHEET_DATA.sub(b"", DIMENSION.sub(b"", data)), f"{name} outside its cells"
            old, new = cells(data), cells(after[name])
            for ref in set(old) | set(new):
                if ref in patched[name]:
                    if ref in old and ref in new:
                        assert old[ref].get("s") == new[ref].get("s"), f"{name} {ref} style"
                    continue
                assert ref in old and ref in new, f"{name}: {ref} appeared or vanished"
                assert ET.tostring(old[ref]) == ET.tostring(new[ref]), f"{name}: {ref}"
        elif name == "xl/workbook.xml":
            assert CALC_PR.sub(b"", after[name]) == CALC_PR.sub(b"", data)
        else:
            assert after[name] == data, f"{name} changed"


@pytest.mark.parametrize("path", BOOKS, ids=[p.name for p in BOOKS])
def test_resolve_check_and_undo_change_only_sheetmasters_cells(path: Path, tmp_path: Path):
    game = tmp_path / path.name
    shutil.copy(path, game)
    original = parts(game)

    checked = run_turn(XlsxStore(game, backup=False), Mode.CHECK)
    assert_only_sheetmasters_cells_changed(
        original, parts(game), written_cells(game, checked.ruleset, checked.result))
    shutil.copy(path, game)

    outcome = run_turn(XlsxStore(game), Mode.RESOLVE, force=True, seed=7)
    assert outcome.written
    resolved = parts(game)
    assert_only_sheetmasters_cells_changed(
        original, resolved, written_cells(game, outcome.ruleset, outcome.result))
    assert resolved != original

    assert undo_turn(XlsxStore(game)) == 2
    assert parts(game) == original  # byte for byte, every part


def test_the_corpus_has_each_kind_of_the_gms_work():
    """Each feature of the GM's workbook the store must keep is in some corpus file."""
    found: dict[str, list[str]] = {}
    for path in BOOKS:
        files = parts(path)
        names = " ".join(files)
        text = b" ".join(files[n] for n in files if n.endswith((".xml", ".rels")))
        kinds = {
            "image": "xl/media/" in names, "chart": "xl/charts/" in names,
            "drawing": "xl/drawings/drawing" in names, "comment": "comment" in names,
            "conditional formatting": b"<conditionalFormatting" in text,
            "data validation": b"<dataValidation" in text, "table": "xl/tables/" in names,
            "defined name": b"<definedName " in text, "pivot": "xl/pivotTables/" in names,
            "hyperlink": b"<hyperlink " in text, "sheet protection": b"<sheetProtection" in text,
            "hidden tab": b'state="hidden"' in text, "tab colour": b"<tabColor" in text,
            "freeze panes": b'state="frozen"' in text, "print settings": b"<pageSetup" in text,
            "theme": "xl/theme/" in names, "number format": b"<numFmt " in text,
            "macros": "xl/vbaProject.bin" in names, "formula": b"<f>" in text,
        }
        for kind, present in kinds.items():
            if present:
                found.setdefault(kind, []).append(path.name)
    missing = [k for k in ("image", "chart", "drawing", "comment", "conditional formatting",
                           "data validation", "table", "defined name", "pivot", "hyperlink",
                           "sheet protection", "hidden tab", "tab colour", "freeze panes",
                           "print settings", "theme", "number format", "macros", "formula")
               if k not in found]
    assert not missing
    assert any("libreoffice" in p.name for p in BOOKS)
