"""The worksheet patcher: sheetmaster's cells change, every other byte stays.

Each case patches a hand-written worksheet part, puts it in a workbook, and reads the result
back with openpyxl and with python-calamine (two readers sheetmaster did not write).
"""

from __future__ import annotations

import io
import re
import zipfile

import openpyxl
import pytest
from python_calamine import CalamineWorkbook

from sheetmaster.stores.xlsx_cells import CellValueError, cell_xml
from sheetmaster.stores.xlsx_rows import SheetError, index_rows
from sheetmaster.stores.xlsx_sheet import SheetPatch

NS = b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def sheet(rows: bytes, *, before: bytes = b"", after: bytes = b"", ns: bytes = NS,
          prefix: bytes = b"") -> bytes:
    p = prefix
    return (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<' + p + b"worksheet "
            + ns + b">" + before + b"<" + p + b"sheetData>" + rows + b"</" + p
            + b"sheetData>" + after + b"</" + p + b"worksheet>")


def workbook(sheet_xml: bytes) -> bytes:
    """A one-tab workbook ('T', made by openpyxl, with a style 1) around a worksheet part."""
    book = openpyxl.Workbook()
    book.active.title = "T"
    book.active["A1"].number_format = "0.00"  # cell style 1
    made = io.BytesIO()
    book.save(made)
    out = io.BytesIO()
    with zipfile.ZipFile(made) as src, zipfile.ZipFile(out, "w") as z:
        for info in src.infolist():
            data = src.read(info.filename)
            z.writestr(info, sheet_xml if info.filename == "xl/worksheets/sheet1.xml" else data)
    return out.getvalue()


def read_both(sheet_xml: bytes) -> tuple[list[list], list[list]]:
    """The tab's values as openpyxl and as calamine read them."""
    data = workbook(sheet_xml)
    ws = openpyxl.load_workbook(io.BytesIO(data))["T"]
    by_openpyxl = [[c.value for c in row] for row in ws.iter_rows()]
    book = CalamineWorkbook.from_filelike(io.BytesIO(data))
    by_calamine = book.get_sheet_by_name("T").to_python(skip_empty_area=False)
    return by_openpyxl, by_calamine


def patch(xml: bytes, edits: dict, texts_from_row: int | None = None):
    return SheetPatch(xml, edits, texts_from_row).apply()


ROWS = (b'<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c><c r="B1" '
        b't="inlineStr"><is><t>gold</t></is></c></row>'
        b'<row r="2" spans="1:2" ht="20" customHeight="1"><c r="A2" t="inlineStr"><is><t>Ys'
        b'</t></is></c><c r="B2" s="1"><v>5</v></c></row>'
        b'<row r="4"><c r="A4" t="inlineStr"><is><t>Sarum</t></is></c></row>')
AROUND = dict(before=b'<dimension ref="A1:B4"/><cols><col min="1" max="1" width="30" '
                     b'customWidth="1"/></cols>',
              after=b'<conditionalFormatting sqref="B2:B9"><cfRule type="cellIs" priority="1" '
                    b'operator="lessThan"><formula>0</formula></cfRule>'
                    b'</conditionalFormatting><pageMargins left="0.7" right="0.7" top="0.75" '
                    b'bottom="0.75" header="0.3" footer="0.3"/>')


def test_only_the_edited_rows_change_and_the_rest_is_copied_byte_for_byte():
    xml = sheet(ROWS, **AROUND)
    out = patch(xml, {2: {2: 7}}).data
    start, end = xml.index(b'<row r="2"'), xml.index(b'<row r="4"')
    assert out[:start] == xml[:start]
    assert out.endswith(xml[end:])
    assert out[start:len(out) - len(xml) + end] == (
        b'<row r="2" spans="1:2" ht="20" customHeight="1"><c r="A2" t="inlineStr"><is><t>Ys'
        b'</t></is></c><c r="B2" s="1"><v>7</v></c></row>')


def test_new_rows_and_cells_go_in_sheet_order():
    xml = sheet(ROWS, **AROUND)
    out = patch(xml, {3: {1: "Lyonesse", 2: 4}, 4: {2: 9}, 6: {1: "Camelot"},
                      2: {3: "note"}}).data
    assert b'<dimension ref="A1:C6"/>' in out
    assert b'spans="1:3"' in out
    by_openpyxl, by_calamine = read_both(out)
    want = [["name", "gold", None], ["Ys", 5, "note"], ["Lyonesse", 4, None],
            ["Sarum", 9, None], [None, None, None], ["Camelot", None, None]]
    assert by_openpyxl == want
    assert by_calamine == [[v if v is not None else "" for v in row] for row in want]


def test_a_written_cell_keeps_its_style_and_a_cleared_one_keeps_it_too():
    xml = sheet(ROWS, **AROUND)
    out = patch(xml, {2: {2: "ten", 1: None}}).data
    assert b'<c r="B2" s="1" t="inlineStr"><is><t>ten</t></is></c>' in out
    assert b'<c r="A2"' not in out  # no style: a cleared cell is simply gone
    cleared = patch(xml, {2: {2: None}}).data
    assert b'<c r="B2" s="1"/>' in cleared
    by_openpyxl, _ = read_both(cleared)
    assert by_openpyxl[1] == ["Ys", None]


def test_text_is_always_text_and_survives_every_reader():
    xml = sheet(ROWS)
    tricky = ['=HYPERLINK("http://evil","x")', "a < b & c > d", "  two spaces", "line\nbreak",
              "tab\there", "bell\x07", "+1", "@everyone", "_x0041_ stays", "Ünïcødé ✓ 東京"]
    out = patch(xml, {r: {1: text} for r, text in enumerate(tricky, start=5)}).data
    by_openpyxl, by_calamine = read_both(out)
    for r, text in enumerate(tricky, start=5):
        if text == "_x0041_ stays":
            continue  # Excel's own escape syntax: readers decode it as Excel does
        assert by_calamine[r - 1][0] == text
        if text != "bell\x07":  # written _x0007_ as Excel does; openpyxl leaves it so
            assert by_openpyxl[r - 1][0] == text
    ws = openpyxl.load_workbook(io.BytesIO(workbook(out)))["T"]
    assert all(ws.cell(r, 1).data_type == "s" for r in range(5, 5 + len(tricky)))


def test_numbers_a_cell_cannot_hold_are_refused():
    for bad in (float("inf"), float("nan"), -float("inf"), 10**400):
        with pytest.raises(CellValueError):
            cell_xml("A1", bad)
    assert cell_xml("A1", 1.5e300) == '<c r="A1"><v>1.5e+300</v></c>'
    assert cell_xml("A1", True) == '<c r="A1" t="b"><v>1</v></c>'


def test_prefixed_namespace_rows_without_numbers_and_cells_without_references():
    ns = b'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    rows = (b'<x:row><x:c t="inlineStr"><x:is><x:t>name</x:t></x:is></x:c><x:c '
            b't="inlineStr"><x:is><x:t>gold</x:t></x:is></x:c></x:row>'
            b'<x:row><x:c t="inlineStr"><x:is><x:t>Ys</x:t></x:is></x:c><x:c s="1"><x:v>5'
            b'</x:v></x:c></x:row>')
    xml = sheet(rows, ns=ns, prefix=b"x:")
    index = index_rows(xml)
    assert list(index.numbers) == [1, 2] and index.prefix == b"x:"
    out = patch(xml, {2: {2: 6}, 3: {1: "Sarum"}}).data
    assert out.endswith(b'<x:row><x:c t="inlineStr"><x:is><x:t>Ys</x:t></x:is></x:c><x:c '
                        b'r="B2" s="1"><x:v>6</x:v></x:c></x:row><x:row r="3"><x:c r="A3" '
                        b't="inlineStr"><x:is><x:t>Sarum</x:t></x:is></x:c></x:row>'
                        b"</x:sheetData></x:worksheet>")
    _, by_calamine = read_both(out)  # (openpyxl does not read rows without a number)
    assert by_calamine == [["name", "gold"], ["Ys", 6], ["Sarum", ""]]


def test_an_empty_sheet_and_empty_rows_get_their_cells():
    out = patch(sheet(b"").replace(b"<sheetData></sheetData>", b"<sheetData/>"),
                {1: {1: "turn"}, 2: {1: 3}}).data
    assert read_both(out)[0] == [["turn"], [3]]
    out = patch(sheet(b'<row r="1" s="1" customFormat="1"/>'), {1: {2: "x"}}).data
    assert b'<row r="1" s="1" customFormat="1"><c r="B1" t="inlineStr">' in out


def test_rows_out_of_order_are_refused_not_guessed_at():
    with pytest.raises(SheetError, match="not in order"):
        SheetPatch(sheet(b'<row r="3"/><row r="2"/>'), {2: {1: 1}})


def test_a_players_formula_becomes_its_text_shared_ones_translated():
    rows = (b'<row r="1"><c r="A1" t="inlineStr"><is><t>order</t></is></c></row>'
            b'<row r="2"><c r="A2"><f t="shared" ref="A2:A3" si="0">B2*2</f><v>4</v></c>'
            b'</row><row r="3"><c r="A3"><f t="shared" si="0"/><v>6</v></c></row>'
            b'<row r="4"><c r="A4" t="str"><f>HYPERLINK("x","y")</f><v>y</v></c></row>')
    result = patch(sheet(rows), {}, texts_from_row=2)
    by_openpyxl, _ = read_both(result.data)
    assert [r[0] for r in by_openpyxl] == ["order", "=B2*2", "=B3*2", '=HYPERLINK("x","y")']
    assert result.dropped_formulas


def test_overwriting_the_first_cell_of_a_shared_formula_keeps_the_others_formulas():
    rows = (b'<row r="1"><c r="A1"><v>1</v></c><c r="B1"><f t="shared" ref="B1:B3" si="7">'
            b'A1+1</f><v>2</v></c></row>'
            b'<row r="2"><c r="A2"><v>2</v></c><c r="B2"><f t="shared" si="7"/><v>3</v></c>'
            b'</row><row r="3"><c r="A3"><v>3</v></c><c r="B3" s="1"><f t="shared" si="7"/>'
            b'<v>4</v></c></row>')
    result = patch(sheet(rows), {1: {2: 100}})
    assert result.dropped_formulas
    ws = openpyxl.load_workbook(io.BytesIO(workbook(result.data)))["T"]
    assert [ws["B1"].value, ws["B2"].value, ws["B3"].value] == [100, "=A2+1", "=A3+1"]
    assert b'<c r="B3" s="1"><f>A3+1</f></c>' in result.data


@pytest.mark.parametrize("seed", range(12))
def test_random_edits_of_random_sheets_read_back_as_the_model_says(seed):
    """Rows with gaps, empty rows, cells with and without styles; edits before, between,
    inside and after the rows (only the rows between the first and the last edit are
    looked at): the patched sheet reads back exactly as a plain dict model says."""
    import random

    rng = random.Random(seed)
    model: dict[tuple[int, int], object] = {}
    rows = []
    for number in sorted(rng.sample(range(1, 400), rng.randint(0, 60))):
        if rng.random() < 0.1:
            rows.append(b'<row r="%d" s="1" customFormat="1"/>' % number)
            continue
        cells = []
        for column in sorted(rng.sample(range(1, 8), rng.randint(1, 4))):
            ref = f"{'ABCDEFG'[column - 1]}{number}".encode()
            if rng.random() < 0.5:
                model[(number, column)] = value = rng.randint(0, 99)
                cells.append(b'<c r="%s" s="1"><v>%d</v></c>' % (ref, value))
            else:
                model[(number, column)] = value = f"t{number}.{column}"
                cells.append(b'<c r="%s" t="inlineStr"><is><t>%s</t></is></c>'
                             % (ref, value.encode()))
        rows.append(b'<row r="%d">%s</row>' % (number, b"".join(cells)))
    edits: dict[int, dict[int, object]] = {}
    for _ in range(rng.randint(1, 40)):
        number, column = rng.randint(1, 450), rng.randint(1, 9)
        value = rng.choice([None, rng.randint(0, 999), f"new {number}"])
        edits.setdefault(number, {})[column] = value
        if value is None:
            model.pop((number, column), None)
        else:
            model[(number, column)] = value
    out = patch(sheet(b"".join(rows)), edits).data
    _, by_calamine = read_both(out)
    got = {(r, c): v for r, row in enumerate(by_calamine, start=1)
           for c, v in enumerate(row, start=1) if v != ""}
    assert got == {k: float(v) if isinstance(v, int) else v for k, v in model.items()}
    numbers = [int(n) for n in re.findall(rb"<row r=\"(\d+)\"", out)]
    assert numbers == sorted(set(numbers))  # every row once, in order
