"""Run by make_corpus.py with the system Python that has LibreOffice's UNO bridge
(Debian: python3-uno): LibreOffice, headless, saves the example game as its own .xlsx, and
a copy with a pivot table (a DataPilot over the Players tab) and a drawn shape.

    /usr/bin/python3 libreoffice_features.py SOURCE.xlsx OUT.xlsx OUT-PIVOT.xlsx PROFILE_DIR
"""

import contextlib
import subprocess
import sys
import time
from pathlib import Path

import uno
from com.sun.star.awt import Point, Size
from com.sun.star.beans import PropertyValue
from com.sun.star.sheet.DataPilotFieldOrientation import DATA, ROW
from com.sun.star.sheet.GeneralFunction import SUM

PIPE = "sheetmaster_corpus"


def prop(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def connect(profile):
    office = subprocess.Popen(
        ["soffice", "--headless", "--invisible", "--norestore", "--nologo",
         f"-env:UserInstallation={Path(profile).as_uri()}",
         f"--accept=pipe,name={PIPE};urp;StarOffice.ComponentContext"])
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext(
        "com.sun.star.bridge.UnoUrlResolver", local)
    for _ in range(120):
        try:
            context = resolver.resolve(f"uno:pipe,name={PIPE};urp;StarOffice.ComponentContext")
            break
        except Exception:
            time.sleep(0.5)
    else:
        office.kill()
        raise SystemExit("LibreOffice did not start")
    desktop = context.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop",
                                                               context)
    return office, desktop


def save(doc, path):
    doc.storeToURL(Path(path).resolve().as_uri(), (prop("FilterName", "Calc MS Excel 2007 XML"),))


def main(source, plain, pivot, profile):
    office, desktop = connect(profile)
    try:
        doc = desktop.loadComponentFromURL(Path(source).resolve().as_uri(), "_blank", 0,
                                           (prop("Hidden", True),))
        save(doc, plain)
        sheets = doc.Sheets
        sheets.insertNewByName("Pivot", sheets.Count)
        pivot_sheet = sheets.getByName("Pivot")
        tables = pivot_sheet.DataPilotTables
        descriptor = tables.createDataPilotDescriptor()
        descriptor.SourceRange = sheets.getByName("Players").getCellRangeByName("A1:I5") \
            .RangeAddress
        fields = descriptor.DataPilotFields
        fields.getByIndex(0).Orientation = ROW
        gold = fields.getByIndex(1)
        gold.Orientation = DATA
        gold.Function = SUM
        tables.insertNewByName("GoldByPlayer",
                               pivot_sheet.getCellRangeByName("A3").CellAddress, descriptor)
        sheets.insertNewByName("Front", sheets.Count)
        shape = doc.createInstance("com.sun.star.drawing.RectangleShape")
        sheets.getByName("Front").DrawPage.add(shape)
        shape.Size = Size(6000, 2500)
        shape.Position = Point(1000, 1000)
        shape.String = "the front line"
        save(doc, pivot)
        doc.close(True)
    finally:
        with contextlib.suppress(Exception):  # it may be gone already
            desktop.terminate()
        office.wait(timeout=60)


if __name__ == "__main__":
    main(*sys.argv[1:5])
