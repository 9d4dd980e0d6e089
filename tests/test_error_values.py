"""A spreadsheet error (#DIV/0!, #N/A, #REF!...) in a cell is named as the error it is, on both
stores: an order's reason says which error its cell holds, whatever the field's kind (never
"needs the 'amount' column filled in"), and a state tab's cell holding one stops the turn
naming it (never read as blank, nor as a name or a text that reads '#REF!')."""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import openpyxl
import pytest

from sheetmaster.app.runs import Mode, run_turn
from sheetmaster.engine.builder import build_state
from sheetmaster.engine.turn import resolve
from sheetmaster.kit.model import Status
from sheetmaster.kit.schema import StateError
from sheetmaster.rules.claims import RULESET as CLAIMS
from sheetmaster.stores.gsheets import RetryPolicy, SheetsStore
from sheetmaster.stores.xlsx import XlsxStore
from sheetmaster.stores.xlsx_layout import write_new_workbook
from sheetmaster.testing.fakesheets import FakeSheetsServer
from sheetmaster.testing.fakesheets.upload import upload_state, upload_workbook

TEMPLATES = Path(__file__).parent.parent / "templates"
SECRET = "the test game's dice secret"
#: every error value a workbook or a Google Sheet may give, and the Excel ones a workbook
#: can hold as a cell's value.
ERRORS = ["#DIV/0!", "#N/A", "#REF!", "#VALUE!", "#NAME?", "#NUM!", "#NULL!", "#ERROR!"]
EXCEL_ERRORS = [e for e in ERRORS if e != "#ERROR!"]

#: (order row as typed, with ERR where the error goes; the column the reason names; what it
#: asks for): a count, a name, free text, the player and the order columns.
ROWS = [
    ({"player": "Avalon", "order": "build armies", "amount": "ERR"}, "amount",
     "write a whole number"),
    ({"player": "Avalon", "order": "claim neutral territory", "territory": "ERR"},
     "territory", "write the territory's name"),
    ({"player": "Avalon", "order": "accept transfer", "deal": "ERR"}, "deal",
     "write plain text"),
    ({"player": "ERR", "order": "build armies", "amount": 1}, "player",
     "write the player's name"),
    ({"player": "Avalon", "order": "ERR", "amount": 1}, "order", "pick one of: "),
]


def claims_state(orders: list[dict]):
    return build_state(CLAIMS, {
        "Players": [{"player": "Avalon", "gold": 50, "armies": 0},
                    {"player": "Bretagne", "gold": 50, "armies": 0}],
        "Territories": [{"territory": "Camelot", "owner": "Avalon", "borders": "Sarum"},
                        {"territory": "Sarum", "owner": "", "borders": "Camelot"}]}, orders)


def orders_with(error: str) -> list[dict]:
    return [{k: (error if v == "ERR" else v) for k, v in row.items()} for row, _, _ in ROWS]


def check_on_xlsx(tmp_path: Path, orders: list[dict]) -> list:
    path = tmp_path / "g.xlsx"
    write_new_workbook(CLAIMS, path, claims_state(orders))
    book = openpyxl.load_workbook(path)  # each error typed as an error cell (t="e")
    for row in book["Orders"].iter_rows(min_row=2):
        for cell in row:
            if cell.value in ERRORS:
                cell.data_type = "e"
    book.save(path)
    outcome = run_turn(XlsxStore(path), Mode.CHECK, seed=1)
    return outcome.result.results


def check_on_sheets(orders: list[dict]) -> list:
    with FakeSheetsServer() as server:
        sid = upload_state(server, claims_state(orders), secret=SECRET)
        store = SheetsStore(sid, server.client(), secret=SECRET,
                            retry=RetryPolicy(deadline=5))
        return run_turn(store, Mode.CHECK, seed=1).result.results


def assert_each_names_its_error(results: list, error: str) -> None:
    by_row = {r.row: r for r in results}
    for number, (_, column, wanted) in enumerate(ROWS, start=2):
        result = by_row[number]
        assert result.status is Status.REJECTED
        assert result.reason.startswith(
            f"column '{column}': holds the spreadsheet error {error} (a formula that failed); "
            f"{wanted}"), result.reason
        assert "filled in" not in result.reason and "named" not in result.reason


@pytest.mark.parametrize("error", EXCEL_ERRORS)
def test_an_error_in_an_order_cell_of_a_workbook_is_named(tmp_path: Path, error: str):
    assert_each_names_its_error(check_on_xlsx(tmp_path, orders_with(error)), error)


@pytest.mark.parametrize("error", ERRORS)
def test_an_error_in_an_order_cell_of_a_google_sheet_is_named(error: str):
    assert_each_names_its_error(check_on_sheets(orders_with(error)), error)


def test_an_error_in_an_amount_of_exact_decimals_is_named_on_both_stores(tmp_path: Path):
    game = tmp_path / "decades.xlsx"
    shutil.copy(TEMPLATES / "decades-example.xlsx", game)
    book = openpyxl.load_workbook(game)
    orders = book["Orders"]
    header = [c.value for c in orders[1]]
    row = orders.max_row + 1
    orders.cell(row, header.index("player") + 1, "Castile")
    orders.cell(row, header.index("order") + 1, "invest military")
    orders.cell(row, header.index("amount") + 1, "#DIV/0!").data_type = "e"
    book.save(game)
    wanted = ("column 'amount': holds the spreadsheet error #DIV/0! (a formula that failed); "
              "write an amount (digits, like 9.75)")
    found = run_turn(XlsxStore(game), Mode.CHECK, seed=1).result.result_for_row(row)
    assert found is not None and found.reason == wanted
    with FakeSheetsServer() as server:
        sid = upload_workbook(server, game, secret=SECRET)
        store = SheetsStore(sid, server.client(), secret=SECRET, retry=RetryPolicy(deadline=5))
        found = run_turn(store, Mode.CHECK, seed=1).result.result_for_row(row)
    assert found is not None and found.reason == wanted


def with_failed_formula(path: Path, tab: str, cell: str, formula: str, error: str) -> None:
    """The workbook with ``formula`` in ``cell`` of ``tab``, its cached result ``error``, as
    Excel saves a formula that failed."""
    book = openpyxl.load_workbook(path)
    book[tab][cell] = formula
    part = f"xl/worksheets/sheet{book.sheetnames.index(tab) + 1}.xml"
    book.save(path)
    with zipfile.ZipFile(path) as z:
        parts = {name: z.read(name) for name in z.namelist()}
    body = re.escape(formula[1:].encode())
    parts[part], count = re.subn(rb'<c r="' + cell.encode() + rb'"([^>]*)><f>' + body +
                                 rb"</f><v ?/>", b'<c r="' + cell.encode() + rb'"\1 t="e"><f>'
                                 + formula[1:].encode() + b"</f><v>" + error.encode() + b"</v>",
                                 parts[part])
    assert count == 1
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)


@pytest.mark.parametrize(("cell", "column", "formula", "error", "wanted"), [
    ("B2", "gold", "=1/0", "#DIV/0!", "write a whole number (whole number expected)"),
    ("A3", "player", "=NA()", "#N/A", "correct the formula, or type the text"),
])
def test_a_failed_formula_in_a_workbooks_state_tab_stops_the_turn_naming_it(
        tmp_path: Path, cell: str, column: str, formula: str, error: str, wanted: str):
    """It was read as blank: a gold of 0, or a player "is blank"."""
    path = tmp_path / "g.xlsx"
    write_new_workbook(CLAIMS, path, claims_state([]))
    with_failed_formula(path, "Players", cell, formula, error)
    before = path.read_bytes()
    with pytest.raises(StateError) as caught:
        run_turn(XlsxStore(path), Mode.RESOLVE, seed=1)
    assert f"tab 'Players', row {cell[1:]}, column '{column}': holds the spreadsheet error " \
           f"{error} (a formula that failed); {wanted}" in str(caught.value)
    assert path.read_bytes() == before


@pytest.mark.parametrize(("cell", "column", "formula", "error"), [
    ("B2", "gold", "=1/0", "#DIV/0!"), ("A3", "player", "=NO_SUCH_FUNCTION()", "#NAME?"),
    ("A3", "territory", "=1+", "#ERROR!")])
def test_a_failed_formula_in_a_google_sheets_state_tab_stops_the_turn_naming_it(
        cell: str, column: str, formula: str, error: str):
    tab = "Territories" if column == "territory" else "Players"
    with FakeSheetsServer() as server:
        sid = upload_state(server, claims_state([]), secret=SECRET)
        server.set_values(sid, f"{tab}!{cell}", [[formula]], input_option="USER_ENTERED")
        store = SheetsStore(sid, server.client(), secret=SECRET, retry=RetryPolicy(deadline=5))
        with pytest.raises(StateError) as caught:
            run_turn(store, Mode.RESOLVE, seed=1)
    assert f"tab '{tab}', row {cell[1:]}, column '{column}': holds the spreadsheet error " \
           f"{error} (a formula that failed)" in str(caught.value)


def test_an_error_in_a_column_naming_rows_is_one_problem_naming_the_error():
    state = claims_state([])
    territories = state.tables["Territories"]
    territories.loc[territories.index[0], "owner"] = "#REF!"
    with pytest.raises(StateError) as caught:
        resolve(CLAIMS, state, seed=1)
    message = str(caught.value)
    assert "tab 'Territories', row 2, column 'owner': holds the spreadsheet error #REF!" in message
    assert "is not a player" not in message
