"""Make the workbook corpus that tests/test_xlsx_corpus.py resolves part by part.

    python tests/corpus/make_corpus.py

Each workbook is the claims example game on turn 2 with one kind of the GM's own work added
(on the GM's own tabs and on the game's tabs, over cells sheetmaster writes), made with
openpyxl; the last ones are made by LibreOffice (headless, through its Python-UNO bridge),
which writes features openpyxl cannot (pivot tables, drawn shapes) and writes every workbook
its own way. The files are checked in: the tests need neither Pillow (for the images) nor
LibreOffice. Regenerating needs both (Debian: libreoffice-calc-nogui, python3-uno).
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import openpyxl
from openpyxl.chart import BarChart, LineChart, Reference
from openpyxl.comments import Comment
from openpyxl.formatting.rule import CellIsRule, ColorScaleRule, DataBarRule, FormulaRule
from openpyxl.styles import Font, PatternFill
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.workbook.protection import WorkbookProtection
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.table import Table, TableStyleInfo
from openpyxl.writer.theme import theme_xml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from sheetmaster.engine.builder import build_state  # noqa: E402
from sheetmaster.rules.claims import RULESET  # noqa: E402
from sheetmaster.stores.xlsx_layout import write_new_workbook  # noqa: E402

FIXED = datetime(2026, 1, 1)


def example(path: Path) -> None:
    tables, orders, settings = RULESET.example()
    write_new_workbook(RULESET, path, build_state(RULESET, tables, orders, turn=2,
                                                  settings=settings))


def png(width: int, height: int, colour: tuple[int, int, int]) -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (width, height), (235, 240, 245))
    draw = ImageDraw.Draw(image)
    draw.ellipse((4, 4, width - 4, height - 4), fill=colour)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


# -- one kind of the GM's work per workbook --------------------------------------------------

def images(book) -> None:
    from openpyxl.drawing.image import Image

    book.create_sheet("Map").add_image(Image(io.BytesIO(png(160, 120, (70, 130, 180)))), "B2")
    book["Territories"].add_image(Image(io.BytesIO(png(48, 48, (200, 60, 60)))), "H2")


def charts(book) -> None:
    players = book["Players"]
    bar = BarChart()
    bar.title = "Gold"
    bar.add_data(Reference(players, min_col=2, min_row=1, max_row=5), titles_from_data=True)
    bar.set_categories(Reference(players, min_col=1, min_row=2, max_row=5))
    players.add_chart(bar, "K2")  # on a game tab, over cells sheetmaster writes
    line = LineChart()
    line.title = "Armies"
    line.add_data(Reference(players, min_col=9, min_row=1, max_row=5), titles_from_data=True)
    book.create_sheet("Charts").add_chart(line, "A1")


def notes(book) -> None:
    book["Players"]["B2"].comment = Comment("Avalon's treasury", "GM")  # an owned cell
    book["Territories"]["B3"].comment = Comment("contested", "GM")
    gm = book.create_sheet("GM notes")
    gm["A1"] = "remember"
    gm["A1"].comment = Comment("ask Bretagne about the deal", "GM")


def conditional(book) -> None:
    red = PatternFill("solid", fgColor="FFC7CE")
    players = book["Players"]
    players.conditional_formatting.add("B2:B20", CellIsRule(operator="lessThan",
                                                            formula=["5"], fill=red))
    players.conditional_formatting.add("I2:I20", DataBarRule(start_type="min", end_type="max",
                                                             color="638EC6"))
    territories = book["Territories"]
    territories.conditional_formatting.add("B2:B200", FormulaRule(formula=['B2="Avalon"'],
                                                                  fill=red))
    territories.conditional_formatting.add("A2:A200", ColorScaleRule(start_type="min",
                                                                     start_color="FFFFFF",
                                                                     end_type="max",
                                                                     end_color="63BE7B"))


def validation(book) -> None:
    rule = DataValidation(type="whole", operator="greaterThanOrEqual", formula1="0",
                          showErrorMessage=True, error="gold is a whole number")
    rule.add("B2:B50")
    book["Players"].add_data_validation(rule)
    gm = book.create_sheet("GM notes")
    pick = DataValidation(type="list", formula1='"yes,no"')
    pick.add("B2:B10")
    gm.add_data_validation(pick)


def tables(book) -> None:
    roster = book.create_sheet("Roster")
    for row in (["player", "discord", "since"], ["Avalon", "@av", 1], ["Cambria", "@cam", 1],
                ["Dumnonia", "@dum", 2], ["Bretagne", "@bre", 2]):
        roster.append(row)
    table = Table(displayName="Roster", ref="A1:C5")
    table.tableStyleInfo = TableStyleInfo(name="TableStyleMedium9", showRowStripes=True)
    roster.add_table(table)
    wars = book["Wars"]
    wars.add_table(Table(displayName="WarSides", ref=wars.dimensions))


def names(book) -> None:
    book.defined_names["TotalGold"] = DefinedName("TotalGold", attr_text="Players!$B$2:$B$5")
    book["Players"].defined_names["FirstArmy"] = DefinedName("FirstArmy",
                                                             attr_text="Players!$I$2")
    gm = book.create_sheet("GM notes")
    gm["A1"] = "total gold"
    gm["B1"] = "=SUM(TotalGold)"


def formulas(book) -> None:
    gm = book.create_sheet("Sums")
    gm["A1"], gm["B1"] = "gold in play", "=SUM(Players!B2:B5)"
    gm["A2"], gm["B2"] = "owned territories", '=COUNTIF(Territories!B2:B200,"<>")'
    gm["A3"], gm["B3"] = "Avalon", '=VLOOKUP("Avalon",Players!A2:I5,2,FALSE)'
    players = book["Players"]
    players["M1"] = "double gold"  # the GM's column on a game tab
    for row in range(2, 6):
        players[f"M{row}"] = f"=B{row}*2"


def hyperlinks(book) -> None:
    territories = book["Territories"]
    territories["A2"].hyperlink = "https://example.org/map#camelot"
    book["Players"]["B3"].hyperlink = "#'Territories'!A2"  # on a cell sheetmaster writes


def protection(book) -> None:
    territories = book["Territories"]
    territories.protection.sheet = True
    territories.protection.password = "gm"
    gm = book.create_sheet("GM notes")
    gm["A1"] = "private"
    gm.protection.sheet = True
    book.security = WorkbookProtection(workbookPassword="gm", lockStructure=True)


def look(book) -> None:
    """Hidden tabs, tab colours, freeze panes, print settings, number formats, a theme."""
    book.create_sheet("Secret plans").sheet_state = "hidden"
    book.create_sheet("Scratch").sheet_state = "veryHidden"
    book["Players"].sheet_properties.tabColor = "C00000"
    book["Territories"].sheet_properties.tabColor = "00B050"
    territories = book["Territories"]
    territories.freeze_panes = "B2"
    territories.page_setup.orientation = "landscape"
    territories.page_setup.fitToWidth = 1
    territories.print_title_rows = "1:1"
    territories.print_area = "A1:F200"
    territories.oddHeader.center.text = "The Matter of Britain"
    players = book["Players"]
    for row in range(2, 6):
        players[f"B{row}"].number_format = '#,##0 "gold"'  # owned cells keep their format
        players[f"B{row}"].font = Font(bold=True, color="7F6000")
    book.loaded_theme = theme_xml.replace('name="Office Theme"', 'name="Corpus Theme"') \
        .replace("4F81BD", "8E44AD").encode()


FEATURES: dict[str, Callable] = {
    "images": images, "charts": charts, "notes": notes, "conditional": conditional,
    "validation": validation, "tables": tables, "names": names, "formulas": formulas,
    "hyperlinks": hyperlinks, "protection": protection, "look": look,
}


def with_openpyxl(name: str, add: Callable, folder: Path) -> Path:
    path = folder / f"{name}.xlsx"
    example(path)
    book = openpyxl.load_workbook(path)
    add(book)
    book.properties.modified = FIXED
    book.save(path)
    return path


def macros(folder: Path) -> Path:
    """An .xlsm: a macro-enabled workbook with its VBA project part.

    Neither openpyxl nor LibreOffice writes a VBA project, so the part is a stand-in of the
    right kind (an OLE2 compound file header and filler) with the content type and the
    relationship Excel gives it: what is tested is that sheetmaster keeps it byte for byte
    and keeps the workbook macro-enabled.
    """
    source = with_openpyxl("macros-source", lambda book: None, folder)
    path = folder / "macros.xlsm"
    vba = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(range(256)) * 16
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == "[Content_Types].xml":
                data = data.replace(
                    b"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main"
                    b"+xml", b"application/vnd.ms-excel.sheet.macroEnabled.main+xml").replace(
                    b"</Types>", b'<Default Extension="bin" ContentType="application/'
                    b'vnd.ms-office.vbaProject"/></Types>')
            if info.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace(b"</Relationships>",
                                    b'<Relationship Id="rIdVBA" Type="http://schemas.microsoft'
                                    b'.com/office/2006/relationships/vbaProject" Target='
                                    b'"vbaProject.bin"/></Relationships>')
            z.writestr(info, data)
        z.writestr(zipfile.ZipInfo("xl/vbaProject.bin", date_time=(2026, 1, 1, 0, 0, 0)), vba)
    source.unlink()
    return path


LO_SCRIPT = HERE / "libreoffice_features.py"


def with_libreoffice(folder: Path) -> list[Path]:
    """The example game saved by LibreOffice, and one with a pivot table and a shape."""
    source = folder / "lo-source.xlsx"
    example(source)
    outputs = [folder / "libreoffice.xlsx", folder / "libreoffice-pivot.xlsx"]
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(["/usr/bin/python3", str(LO_SCRIPT), str(source), *map(str, outputs),
                        profile], check=True, timeout=300)
    source.unlink()
    return outputs


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        made = [with_openpyxl(name, add, folder) for name, add in FEATURES.items()]
        made.append(macros(folder))
        if shutil.which("soffice"):
            made += with_libreoffice(folder)
        else:
            print("LibreOffice (soffice) is not installed: its workbooks were not remade")
        for path in made:
            shutil.copy(path, HERE / path.name)
            print(f"wrote tests/corpus/{path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
