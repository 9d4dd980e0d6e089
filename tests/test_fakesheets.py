"""The fake Sheets API, driven by the real gspread client over real HTTP."""

from __future__ import annotations

import threading
import time

import gspread
import pytest
import requests
from gspread.exceptions import APIError, SpreadsheetNotFound

from sheetmaster.testing.fakesheets import FakeSheetsServer


@pytest.fixture
def server():
    with FakeSheetsServer() as fake:
        yield fake
        assert fake.internal_errors == []


@pytest.fixture
def gc(server) -> gspread.Client:
    client = gspread.Client(auth=None, session=server.session())
    return client


@pytest.fixture
def sid(server) -> str:
    return server.create_spreadsheet(
        title="Game",
        sheets={
            "Orders": [["player", "order", "qty"], ["ann", "move", 3], ["bob", "hold", 1.5]],
            "My Tab": [["x", None, "z"], [], [True, False]],
        },
        time_zone="America/New_York",
    )


def _raw_get(gc: gspread.Client, sid: str, a1: str, **params) -> dict:
    return gc.http_client.values_get(sid, a1, params=params)


# -- transport ---------------------------------------------------------------------------


def test_session_rewrites_google_urls_to_the_local_server(server, sid):
    session = server.session()
    response = session.get(f"https://sheets.googleapis.com/v4/spreadsheets/{sid}")
    assert response.status_code == 200
    assert response.url.startswith(server.url)
    assert response.json()["properties"]["title"] == "Game"
    assert server.requests[-1].method == "GET"
    assert server.requests[-1].path == f"/v4/spreadsheets/{sid}"
    assert server.client().open_by_key(sid).title == "Game"


# -- reading -----------------------------------------------------------------------------


def test_open_by_key_and_worksheets(gc, sid):
    sh = gc.open_by_key(sid)
    assert sh.title == "Game"
    assert sh.timezone == "America/New_York"
    assert sh.locale == "en_US"
    worksheets = sh.worksheets()
    assert [w.title for w in worksheets] == ["Orders", "My Tab"]
    assert [w.index for w in worksheets] == [0, 1]
    assert worksheets[0].id == 0
    assert (worksheets[0].row_count, worksheets[0].col_count) == (1000, 26)


def test_get_all_values_and_the_raw_shape(gc, sid):
    ws = gc.open_by_key(sid).worksheet("My Tab")
    assert ws.get_all_values() == [["x", "", "z"], ["", "", ""], ["TRUE", "FALSE", ""]]
    raw = _raw_get(gc, sid, "'My Tab'")
    assert raw == {
        "range": "'My Tab'!A1:Z1000",
        "majorDimension": "ROWS",
        "values": [["x", "", "z"], [], ["TRUE", "FALSE"]],
    }
    assert gc.open_by_key(sid).worksheet("Orders").get_all_records() == [
        {"player": "ann", "order": "move", "qty": 3},
        {"player": "bob", "order": "hold", "qty": 1.5},
    ]
    empty = _raw_get(gc, sid, "Orders!E5:F9")
    assert empty == {"range": "Orders!E5:F9", "majorDimension": "ROWS"}


def test_values_batch_get_render_options_and_major_dimension(gc, sid):
    sh = gc.open_by_key(sid)
    unformatted = sh.values_batch_get(
        ["Orders!A1:C3", "'My Tab'!A3:B3"], params={"valueRenderOption": "UNFORMATTED_VALUE"}
    )
    assert unformatted["spreadsheetId"] == sid
    assert unformatted["valueRanges"] == [
        {"range": "Orders!A1:C3", "majorDimension": "ROWS",
         "values": [["player", "order", "qty"], ["ann", "move", 3], ["bob", "hold", 1.5]]},
        {"range": "'My Tab'!A3:B3", "majorDimension": "ROWS", "values": [[True, False]]},
    ]
    formatted = sh.values_batch_get(["Orders!C2:C3"])
    assert formatted["valueRanges"][0]["values"] == [["3"], ["1.5"]]
    columns = sh.values_batch_get(
        ["Orders!A1:C2"],
        params={"majorDimension": "COLUMNS", "valueRenderOption": "UNFORMATTED_VALUE"},
    )
    assert columns["valueRanges"][0]["values"] == [["player", "ann"], ["order", "move"],
                                                   ["qty", 3]]
    with pytest.raises(APIError) as err:
        sh.values_batch_get(["Orders!A1"], params={"valueRenderOption": "PRETTY"})
    assert err.value.code == 400


def test_a1_notation_forms(gc, server):
    sid = server.create_spreadsheet(sheets={"It's": [[1, 2, 3], [4, 5, 6], [7, 8, 9]],
                                            "Plain": [["p"]]})
    opts = {"valueRenderOption": "UNFORMATTED_VALUE"}
    assert _raw_get(gc, sid, "'It''s'!B2", **opts)["values"] == [[5]]
    assert _raw_get(gc, sid, "'It''s'!A:B", **opts)["values"] == [[1, 2], [4, 5], [7, 8]]
    assert _raw_get(gc, sid, "'It''s'!2:3", **opts)["values"] == [[4, 5, 6], [7, 8, 9]]
    assert _raw_get(gc, sid, "'It''s'!B2:C", **opts)["values"] == [[5, 6], [8, 9]]
    assert _raw_get(gc, sid, "'It''s'!$A$1:$A$2", **opts)["values"] == [[1], [4]]
    assert _raw_get(gc, sid, "C3:B2", **opts)["range"] == "'It''s'!B2:C3"  # first sheet
    assert _raw_get(gc, sid, "Plain", **opts)["values"] == [["p"]]
    assert _raw_get(gc, sid, "Plain!A:A", **opts)["range"] == "Plain!A1:A1000"
    for bad in ("Nope!A1", "'Nope'", "Plain!A1:B2:C3", "Plain!!"):
        with pytest.raises(APIError) as err:
            _raw_get(gc, sid, bad)
        assert err.value.code == 400
        assert err.value.error["message"] == f"Unable to parse range: {bad}"
        assert err.value.error["status"] == "INVALID_ARGUMENT"


# -- writing values ------------------------------------------------------------------------


def test_update_raw_never_makes_formulas(gc, server, sid):
    ws = gc.open_by_key(sid).worksheet("Orders")
    response = ws.update([["=1+2", "12", True]], "D1")  # gspread's default is RAW
    assert response["updatedRange"] == "Orders!D1:F1"
    assert response["updatedCells"] == 3
    assert server.cell(sid, "Orders", "D1") == {
        "value": "=1+2", "formula": False, "effective": "=1+2", "note": None,
        "data_validation": None,
    }
    assert server.cell(sid, "Orders", "E1")["value"] == "12"  # a string, not a number
    assert ws.get("D1:F1", value_render_option="UNFORMATTED_VALUE") == [["=1+2", "12", True]]


def test_update_user_entered_parses_like_the_ui(gc, server, sid):
    ws = gc.open_by_key(sid).worksheet("Orders")
    ws.update([["12", "1.5", "true", "=1+2", "'007", "abc", "=A9*2"]], "A9",
              value_input_option="USER_ENTERED")
    assert server.values(sid, "Orders")[8] == [12, 1.5, True, 3, "007", "abc", 24]
    cell = server.cell(sid, "Orders", "D9")
    assert (cell["value"], cell["formula"], cell["effective"]) == ("=1+2", True, 3)
    assert ws.get("A9:G9") == [["12", "1.5", "TRUE", "3", "007", "abc", "24"]]
    assert ws.get("D9", value_render_option="FORMULA") == [["=1+2"]]
    assert ws.get("A9", value_render_option="UNFORMATTED_VALUE") == [[12]]


def test_formulas(gc, server):
    sid = server.create_spreadsheet(
        sheets={"A": [[1, 2, 3], ["=SUM(A1:C1)", "=B!A1&\"x\"", "=1/0"], ["=A3"]],
                "B": [["=A!A2*10"]]},
        input_option="USER_ENTERED",
    )
    assert server.values(sid, "A") == [[1, 2, 3], [6, "60x", "#DIV/0!"], ["#REF!"]]
    assert server.values(sid, "B", render="FORMULA") == [["=A!A2*10"]]
    ws = gc.open_by_key(sid).sheet1
    ws.update([[10]], "A1")
    assert server.values(sid, "A")[1][:2] == [15, "150x"]  # recomputed on read


def test_values_batch_update_across_tabs(gc, server, sid):
    sh = gc.open_by_key(sid)
    response = sh.values_batch_update({
        "valueInputOption": "USER_ENTERED",
        "data": [
            {"range": "Orders!A4", "values": [["cat", "move", "7"]]},
            {"range": "'My Tab'!B1:B2", "majorDimension": "COLUMNS", "values": [["y", "=2*2"]]},
        ],
    })
    assert response["totalUpdatedCells"] == 5
    assert response["totalUpdatedSheets"] == 2
    assert [r["updatedRange"] for r in response["responses"]] == ["Orders!A4:C4",
                                                                  "'My Tab'!B1:B2"]
    assert server.values(sid, "Orders")[3] == ["cat", "move", 7]
    assert server.values(sid, "My Tab")[:2] == [["x", "y", "z"], ["", 4]]


def test_values_batch_update_is_all_or_nothing(gc, server, sid):
    sh = gc.open_by_key(sid)
    before = server.values(sid, "Orders")
    with pytest.raises(APIError) as err:
        sh.values_batch_update({
            "valueInputOption": "RAW",
            "data": [{"range": "Orders!A1", "values": [["changed"]]},
                     {"range": "Missing!A1", "values": [["x"]]}],
        })
    assert err.value.code == 400
    assert server.values(sid, "Orders") == before
    with pytest.raises(APIError, match="valueInputOption"):
        sh.values_batch_update({"data": [{"range": "Orders!A1", "values": [["x"]]}]})


def test_values_batch_update_by_data_filter_writes_a_tab_by_sheet_id(gc, server, sid):
    """RAW text stays text ("=2*2" is no formula), "" clears a cell, null leaves it as it
    is; a range its values do not fit is refused, and the whole request with it."""
    sheet_id = gc.open_by_key(sid).worksheet("Orders").id
    url = f"https://sheets.googleapis.com/v4/spreadsheets/{sid}/values:batchUpdateByDataFilter"

    def post(data, option="RAW"):
        return gc.http_client.request("post", url, json={
            "valueInputOption": option, "data": data}).json()

    grid = {"sheetId": sheet_id, "startRowIndex": 1, "endRowIndex": 3,
            "startColumnIndex": 1, "endColumnIndex": 3}
    reply = post([{"dataFilter": {"gridRange": grid}, "majorDimension": "COLUMNS",
                   "values": [["=2*2", None], ["", 9]]}])
    assert reply["totalUpdatedCells"] == 3 and reply["responses"][0]["dataFilter"] == {
        "gridRange": grid}
    assert server.values(sid, "Orders") == [["player", "order", "qty"], ["ann", "=2*2"],
                                            ["bob", "hold", 9]]
    assert server.values(sid, "Orders", render="FORMULA")[1] == ["ann", "=2*2"]
    before = server.values(sid, "Orders")
    with pytest.raises(APIError) as err:
        post([{"dataFilter": {"gridRange": grid}, "values": [["x"]]},
              {"dataFilter": {"gridRange": {**grid, "endRowIndex": 2}},
               "values": [["x"], ["y"]]}])
    assert err.value.code == 400 and server.values(sid, "Orders") == before
    with pytest.raises(APIError, match="valueInputOption"):
        post([{"dataFilter": {"gridRange": grid}, "values": [["x"]]}], option=None)


def test_writes_outside_the_grid_fail_but_append_grows_it(gc, server, sid):
    ws = gc.open_by_key(sid).worksheet("Orders")
    ws.resize(rows=3, cols=3)
    assert server.grid_size(sid, "Orders") == (3, 3)
    with pytest.raises(APIError) as err:
        ws.update([["x"]], "A4")
    assert err.value.error["message"] == (
        "Range (Orders!A4) exceeds grid limits. Max rows: 3, max columns: 3"
    )
    with pytest.raises(APIError, match="tried writing to row"):
        ws.update([[1], [2], [3]], "A1:A2")
    response = ws.append_row(["dan", "move", 2, "extra"])
    assert response["tableRange"] == "Orders!A1:C3"
    assert response["updates"]["updatedRange"] == "Orders!A4:D4"
    assert server.grid_size(sid, "Orders") == (4, 4)
    assert server.values(sid, "Orders")[-1] == ["dan", "move", 2, "extra"]


def test_append_and_insert_rows(gc, server, sid):
    ws = gc.open_by_key(sid).worksheet("Orders")
    ws.append_rows([["cat", "x", "2"], ["dog", "y", "4"]], value_input_option="USER_ENTERED")
    assert server.values(sid, "Orders")[3:] == [["cat", "x", 2], ["dog", "y", 4]]
    ws.insert_row(["new", "row", 0], index=2)
    assert [row[0] for row in server.values(sid, "Orders")] == [
        "player", "new", "ann", "bob", "cat", "dog"]
    assert server.grid_size(sid, "Orders") == (1001, 26)
    ws.delete_rows(2, 3)
    assert [row[0] for row in server.values(sid, "Orders")] == ["player", "bob", "cat", "dog"]


def test_clear_and_batch_clear(gc, server, sid):
    sh = gc.open_by_key(sid)
    assert sh.values_clear("Orders!A2:B2") == {"spreadsheetId": sid,
                                              "clearedRange": "Orders!A2:B2"}
    assert server.values(sid, "Orders")[1] == ["", "", 3]
    sh.worksheet("My Tab").batch_clear(["A1", "A3:B3"])
    assert server.values(sid, "My Tab") == [["", "", "z"]]
    sh.worksheet("Orders").clear()
    assert server.values(sid, "Orders") == []


# -- spreadsheets.batchUpdate ----------------------------------------------------------------


def _update_a1(text: str) -> dict:
    return {"updateCells": {
        "start": {"sheetId": 0, "rowIndex": 0, "columnIndex": 0},
        "rows": [{"values": [{"userEnteredValue": {"stringValue": text}}]}],
        "fields": "userEnteredValue",
    }}


def test_batch_update_applies_valid_requests(gc, server, sid):
    sh = gc.open_by_key(sid)
    response = sh.batch_update({"requests": [
        _update_a1("=not a formula"),
        {"updateCells": {
            "range": {"sheetId": 0, "startRowIndex": 1, "endRowIndex": 2,
                      "startColumnIndex": 3, "endColumnIndex": 5},
            "rows": [{"values": [{"userEnteredValue": {"formulaValue": "=C2*2"}},
                                 {"userEnteredValue": {"boolValue": True}}]}],
            "fields": "userEnteredValue",
        }},
        {"updateSheetProperties": {
            "properties": {"sheetId": 0, "title": "Moves",
                           "gridProperties": {"frozenRowCount": 1}},
            "fields": "title,gridProperties.frozenRowCount",
        }},
        {"appendDimension": {"sheetId": 0, "dimension": "COLUMNS", "length": 4}},
        {"updateSpreadsheetProperties": {"properties": {"title": "Game 2"},
                                         "fields": "title"}},
    ]})
    assert response == {"spreadsheetId": sid, "replies": [{}, {}, {}, {}, {}]}
    assert server.values(sid, "Moves")[:2] == [["=not a formula", "order", "qty"],
                                               ["ann", "move", 3, 6, True]]
    props = gc.open_by_key(sid).sheet1._properties
    assert props["title"] == "Moves"
    assert props["gridProperties"] == {"rowCount": 1000, "columnCount": 30,
                                       "frozenRowCount": 1}
    assert gc.open_by_key(sid).title == "Game 2"


def test_update_cells_from_a_start_writes_only_the_cells_each_row_holds(gc, server, sid):
    """"start: The coordinate to start writing data at. Any number of rows and columns
    (including a different number of columns per row) may be written." (UpdateCellsRequest):
    a row with fewer cells, or none ({}), leaves the cells past its own alone, unlike a
    ``range``, whose cells without data are cleared; requests apply in order."""
    def text(t):
        return {"userEnteredValue": {"stringValue": t}}

    gc.open_by_key(sid).batch_update({"requests": [
        {"repeatCell": {"range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 3,
                                  "startColumnIndex": 1, "endColumnIndex": 2},
                        "cell": text("same"), "fields": "userEnteredValue"}},
        {"updateCells": {"start": {"sheetId": 0, "rowIndex": 0, "columnIndex": 0},
                         "rows": [{"values": [text("a")]}, {}, {"values": [{}, text("b")]}],
                         "fields": "userEnteredValue"}},
    ]})
    assert server.values(sid, "Orders") == [["a", "same", "qty"], ["ann", "same", 3],
                                            ["", "b", 1.5]]


def test_batch_update_with_an_invalid_request_applies_nothing(gc, server, sid):
    sh = gc.open_by_key(sid)
    before = server.metadata(sid)
    values_before = server.values(sid, "Orders")
    bad_batches = [
        [_update_a1("changed"), {"deleteSheet": {"sheetId": 999}}],
        [_update_a1("changed"), {"addSheet": {"properties": {"title": "Orders"}}}],
        [_update_a1("changed"), {"frobnicate": {}}],
        [_update_a1("changed"), {"updateCells": {
            "range": {"sheetId": 0, "startRowIndex": 5000, "endRowIndex": 5001},
            "rows": [], "fields": "userEnteredValue"}}],
        [{"addSheet": {"properties": {"title": "Fresh"}}}, {"deleteSheet": {"sheetId": 0}},
         {"deleteSheet": {"sheetId": 0}}],
    ]
    for requests_ in bad_batches:
        with pytest.raises(APIError) as err:
            sh.batch_update({"requests": requests_})
        assert err.value.code == 400
        assert err.value.error["status"] == "INVALID_ARGUMENT"
        assert server.values(sid, "Orders") == values_before
        assert server.metadata(sid) == before
    with pytest.raises(APIError, match=r"Invalid requests\[1\]\.deleteSheet: No grid with id"):
        sh.batch_update({"requests": bad_batches[0]})
    with pytest.raises(APIError, match='Unknown name "frobnicate"'):
        sh.batch_update({"requests": bad_batches[2]})


def test_add_worksheet_and_sheet_structure(gc, server, sid):
    sh = gc.open_by_key(sid)
    ws = sh.add_worksheet("Turn 2", rows=10, cols=5, index=1)
    assert (ws.title, ws.index, ws.row_count, ws.col_count) == ("Turn 2", 1, 10, 5)
    assert ws.id not in (0,)
    assert [w.title for w in sh.worksheets()] == ["Orders", "Turn 2", "My Tab"]
    with pytest.raises(APIError, match="already exists"):
        sh.add_worksheet("turn 2", rows=1, cols=1)
    ws.update([["a", "b"]], "A1")
    ws.freeze(rows=1)
    ws.insert_cols([["new"]], col=1)
    assert server.values(sid, "Turn 2") == [["new", "a", "b"]]
    assert server.metadata(sid)["sheets"][1]["properties"]["gridProperties"] == {
        "rowCount": 10, "columnCount": 6, "frozenRowCount": 1}
    ws.update_title("Renamed")
    sh.del_worksheet(sh.worksheet("My Tab"))
    assert [w.title for w in sh.worksheets()] == ["Orders", "Renamed"]


def test_validation_protection_and_metadata_read_back(gc, server, sid):
    sh = gc.open_by_key(sid)
    rule = {"condition": {"type": "ONE_OF_LIST",
                          "values": [{"userEnteredValue": "move"},
                                     {"userEnteredValue": "hold"}]},
            "strict": True, "showCustomUi": True}
    reply = sh.batch_update({"requests": [
        {"setDataValidation": {"range": {"sheetId": 0, "startRowIndex": 1, "endRowIndex": 3,
                                         "startColumnIndex": 1, "endColumnIndex": 2},
                               "rule": rule}},
        {"addProtectedRange": {"protectedRange": {
            "range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 1},
            "description": "header", "warningOnly": True}}},
        {"createDeveloperMetadata": {"developerMetadata": {
            "metadataKey": "sheetmaster.turn", "metadataValue": "2",
            "location": {"spreadsheet": True}, "visibility": "DOCUMENT"}}},
        {"createDeveloperMetadata": {"developerMetadata": {
            "metadataKey": "sheetmaster.tab", "metadataValue": "orders",
            "location": {"sheetId": 0}, "visibility": "DOCUMENT"}}},
    ]})["replies"]
    protected = reply[1]["addProtectedRange"]["protectedRange"]
    assert protected["description"] == "header"
    meta = reply[2]["createDeveloperMetadata"]["developerMetadata"]
    assert meta["location"] == {"spreadsheet": True, "locationType": "SPREADSHEET"}

    got = sh.fetch_sheet_metadata()
    assert got["developerMetadata"] == [meta]
    orders = got["sheets"][0]
    assert orders["protectedRanges"] == [protected]
    assert orders["developerMetadata"][0]["location"] == {"sheetId": 0,
                                                          "locationType": "SHEET"}
    assert "data" not in orders

    grid = sh.fetch_sheet_metadata({"includeGridData": "true", "ranges": "Orders!B2:B3"})
    cells = [row["values"][0] for row in grid["sheets"][0]["data"][0]["rowData"]]
    assert [c["dataValidation"] for c in cells] == [rule, rule]
    assert cells[0]["userEnteredValue"] == {"stringValue": "move"}
    assert server.cell(sid, "Orders", "B3")["data_validation"] == rule

    session = server.session()
    base = f"https://sheets.googleapis.com/v4/spreadsheets/{sid}"
    found = session.post(f"{base}/developerMetadata:search", json={"dataFilters": [
        {"developerMetadataLookup": {"metadataKey": "sheetmaster.turn"}}]}).json()
    assert found["matchedDeveloperMetadata"][0]["developerMetadata"] == meta
    by_id = session.get(f"{base}/developerMetadata/{meta['metadataId']}").json()
    assert by_id == meta

    deleted = sh.batch_update({"requests": [{"deleteDeveloperMetadata": {"dataFilter": {
        "developerMetadataLookup": {"metadataKey": "sheetmaster.turn"}}}}]})
    assert deleted["replies"][0]["deleteDeveloperMetadata"]["deletedDeveloperMetadata"] == [meta]
    assert "developerMetadata" not in sh.fetch_sheet_metadata()
    assert [m["metadataKey"] for m in server.developer_metadata(sid)] == ["sheetmaster.tab"]


def test_duplicate_sheet_and_named_ranges(gc, server, sid):
    sh = gc.open_by_key(sid)
    dup = sh.duplicate_sheet(0, new_sheet_name="Orders copy")  # gspread sends null fields
    assert server.values(sid, "Orders copy") == server.values(sid, "Orders")
    sh.batch_update({"requests": [{"addNamedRange": {"namedRange": {
        "name": "qty", "range": {"sheetId": 0, "startRowIndex": 1, "endRowIndex": 3,
                                 "startColumnIndex": 2, "endColumnIndex": 3}}}}]})
    assert dup.get("qty") == [["3"], ["1.5"]]  # "'Orders copy'!qty": names are book-wide
    dup.update([["=SUM(qty)"]], "E1", raw=False)
    assert server.cell(sid, "Orders copy", "E1")["effective"] == 4.5


def test_fields_mask_and_notes(gc, sid):
    sh = gc.open_by_key(sid)
    assert sh.fetch_sheet_metadata({"fields": "sheets.properties.title"}) == {
        "sheets": [{"properties": {"title": "Orders"}}, {"properties": {"title": "My Tab"}}]}
    ws = sh.sheet1
    ws.insert_note("B2", "check this")
    assert ws.get_note("B2") == "check this"
    assert ws.get_note("C9") == ""


# -- Drive bits gspread needs ----------------------------------------------------------------


def test_create_and_open_by_title(gc, server):
    created = gc.create("Fresh game")
    assert created.sheet1.title == "Sheet1"
    assert gc.open("Fresh game").id == created.id
    with pytest.raises(SpreadsheetNotFound):
        gc.open("No such game")
    gc.del_spreadsheet(created.id)
    assert created.id not in server.spreadsheet_ids()


# -- errors ------------------------------------------------------------------------------------


def test_unknown_spreadsheet_is_404(gc):
    with pytest.raises(SpreadsheetNotFound) as err:
        gc.open_by_key("no-such-id")
    assert isinstance(err.value.__cause__, APIError)
    assert err.value.__cause__.code == 404
    with pytest.raises(APIError) as api_err:
        gc.http_client.values_get("no-such-id", "A1")
    assert api_err.value.code == 404
    assert api_err.value.error["status"] == "NOT_FOUND"


def test_denied_spreadsheet_is_403(gc, server, sid):
    server.deny(sid)
    with pytest.raises(PermissionError) as err:
        gc.open_by_key(sid)
    assert err.value.__cause__.code == 403
    with pytest.raises(APIError) as api_err:
        gc.http_client.values_get(sid, "A1")
    assert api_err.value.error == {"code": 403, "message": "The caller does not have permission",
                                   "status": "PERMISSION_DENIED"}
    server.allow(sid)
    assert gc.open_by_key(sid).title == "Game"


# -- faults, latency, counting -------------------------------------------------------------------


def test_injected_429_raises_api_error_and_applies_nothing(gc, server, sid):
    ws = gc.open_by_key(sid).sheet1
    server.fail_next(1, status=429)
    with pytest.raises(APIError) as err:
        ws.update([["changed"]], "A1")
    assert err.value.code == 429
    assert err.value.error["status"] == "RESOURCE_EXHAUSTED"
    assert server.values(sid, "Orders")[0][0] == "player"
    ws.update([["changed"]], "A1")  # the next request goes through
    assert server.values(sid, "Orders")[0][0] == "changed"


@pytest.mark.parametrize("status,name", [(500, "INTERNAL"), (503, "UNAVAILABLE")])
def test_injected_server_errors(gc, server, sid, status, name):
    ws = gc.open_by_key(sid).sheet1
    server.fail_next(2, status=status)
    for _ in range(2):
        with pytest.raises(APIError) as err:
            ws.acell("A1")
        assert (err.value.code, err.value.error["status"]) == (status, name)
    assert ws.acell("A1").value == "player"


def test_fault_after_apply_loses_only_the_response(gc, server, sid):
    ws = gc.open_by_key(sid).sheet1
    server.fault_after_apply = True
    server.fail_next(1, status=503)
    with pytest.raises(APIError):
        ws.update([["applied"]], "A1")
    assert server.values(sid, "Orders")[0][0] == "applied"


def test_dropped_connection_and_timeout(gc, server, sid):
    ws = gc.open_by_key(sid).sheet1
    server.fail_next(1, status="drop")
    with pytest.raises(requests.ConnectionError):
        ws.update([["dropped"]], "A1")
    assert server.values(sid, "Orders")[0][0] == "player"

    server.timeout_delay = 0.3
    gc.set_timeout(0.1)
    server.fail_next(1, status="timeout")
    with pytest.raises(requests.Timeout):
        ws.update([["late"]], "A1")
    gc.set_timeout(None)
    time.sleep(0.3)  # let the late 504 go out; nothing was applied
    assert server.values(sid, "Orders")[0][0] == "player"
    assert ws.acell("A1").value == "player"
    assert [kind for _req, kind in server.faults_injected] == ["drop", "timeout"]


def test_fault_rate_is_reproducible_with_a_seed(gc, server, sid):
    ws = gc.open_by_key(sid).sheet1
    server.fault_kinds = (429, 500, 503)
    server.fault_rate = 0.3

    def run() -> list:
        outcomes = []
        for _ in range(15):
            try:
                ws.acell("A1")
                outcomes.append("ok")
            except APIError as err:
                outcomes.append(err.code)
        return outcomes

    server.seed(1)
    first = run()
    server.seed(1)
    assert run() == first
    assert "ok" in first and {429, 500, 503} & set(first)


def test_latency_is_added_to_each_request(gc, server, sid):
    ws = gc.open_by_key(sid).sheet1
    server.latency = 0.25
    start = time.monotonic()
    ws.acell("A1")
    assert time.monotonic() - start >= 0.25
    server.latency = 0.0


def test_request_counts(gc, server, sid):
    sh = gc.open_by_key(sid)
    server.reset_counts()
    assert server.request_count == 0
    sh.sheet1.get_all_values()
    sh.values_batch_get(["Orders!A1", "Orders!B1"])
    sh.batch_update({"requests": [_update_a1("x")]})
    assert server.request_count == 4  # sheet1 fetches metadata first
    methods_paths = [(r.method, r.path) for r in server.requests]
    assert methods_paths == [
        ("GET", f"/v4/spreadsheets/{sid}"),
        ("GET", f"/v4/spreadsheets/{sid}/values/'Orders'"),
        ("GET", f"/v4/spreadsheets/{sid}/values:batchGet"),
        ("POST", f"/v4/spreadsheets/{sid}:batchUpdate"),
    ]
    assert server.requests[2].query["ranges"] == ["Orders!A1", "Orders!B1"]
    server.reset_counts()
    assert server.requests == []


def test_concurrent_writers(server, sid):
    def write(col: int) -> None:
        client = server.client()
        ws = client.open_by_key(sid).worksheet("Orders")
        for row in range(5):
            ws.update_cell(row + 10, col, f"{col}-{row}")

    threads = [threading.Thread(target=write, args=(col,)) for col in range(1, 5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    rows = server.values(sid, "Orders")[9:14]
    assert rows == [[f"{col}-{row}" for col in range(1, 5)] for row in range(5)]
