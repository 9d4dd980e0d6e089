"""A turn's cells as Sheets API requests (sheetmaster/stores/gsheets_encode.py) and a write
laid out in requests (gsheets_batches.plan_write): every cell written once, as it is, within
the size limit, in an order a crash cannot leave mixed."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from sheetmaster.kit.values import is_blank
from sheetmaster.stores.gsheets_batches import BATCH, Part, plan_write, request_json
from sheetmaster.stores.gsheets_encode import (
    cell_blocks,
    cell_bound,
    cell_json,
    cell_requests,
    value_ranges,
)
from sheetmaster.stores.gsheets_undo import merge_runs


def written(parts: list[Part]) -> dict:
    """The cells requests write, in order: (sheet id, 0-based row, column) -> the value
    (None: cleared), as Google applies updateCells, repeatCell and RAW values writes (a
    ``null`` value leaves its cell as it is)."""
    out = {}

    def put(sheet, r, c, data):
        entered = (data or {}).get("userEnteredValue") or {}
        out[(sheet, r, c)] = next(iter(entered.values()), None)

    for part in parts:
        body = json.loads(part.body())
        for request in body.get("requests", []):
            if "updateCells" in request:
                u = request["updateCells"]
                assert u["fields"] == "userEnteredValue"
                for i, row in enumerate(u["rows"]):
                    for j, data in enumerate(row.get("values", [])):
                        put(u["start"]["sheetId"], u["start"]["rowIndex"] + i,
                            u["start"]["columnIndex"] + j, data)
            elif "repeatCell" in request:
                g = request["repeatCell"]["range"]
                assert g["endColumnIndex"] == g["startColumnIndex"] + 1
                for r in range(g["startRowIndex"], g["endRowIndex"]):
                    put(g["sheetId"], r, g["startColumnIndex"], request["repeatCell"]["cell"])
        assert body.get("valueInputOption", "RAW") == "RAW"
        for item in body.get("data", []):
            g = item["dataFilter"]["gridRange"]
            rows = item["values"]
            if item.get("majorDimension") == "COLUMNS":
                rows = [[col[i] if i < len(col) else None for col in rows]
                        for i in range(max(map(len, rows)))]
            assert len(rows) <= g["endRowIndex"] - g["startRowIndex"]
            for i, row in enumerate(rows):
                assert len(row) <= g["endColumnIndex"] - g["startColumnIndex"]
                for j, value in enumerate(row):
                    if value is not None:
                        out[(g["sheetId"], g["startRowIndex"] + i,
                             g["startColumnIndex"] + j)] = None if value == "" else value
    return out


def wanted(*stages) -> dict:
    """The cells as Google holds them once written: a blank (whitespace too) is no value."""
    return {(s, r - 1, c): (None if is_blank(v) else v) for cells in stages
            for (s, c), rows in cells.items() for r, v in rows.items()}


values = st.one_of(st.sampled_from(["", None, " ", "owned", "=1+1", "'quoted", "é", 7, 7.5, True]),
                   st.integers(-3, 3), st.text(max_size=12))
columns = st.dictionaries(st.integers(1, 60), values, max_size=40)
cells_st = st.dictionaries(st.tuples(st.integers(0, 2), st.integers(0, 6)), columns,
                           max_size=6)


@settings(max_examples=150, deadline=None)
@given(cells_st, st.dictionaries(st.integers(0, 2), st.integers(1, 60), max_size=3))
def test_cell_blocks_write_every_cell_once_and_blanks_only_past_a_tabs_end(cells, blank_from):
    blocks = cell_blocks(cells, blank_from)
    seen = [(where, row) for b in blocks for where, row, _ in b.cells()]
    assert len(seen) == len(set(seen))  # no cell in two blocks: their order does not matter
    got = written([Part(BATCH, [t for b in blocks for t in cell_requests(b, 10_000)])])
    want = wanted(cells)
    assert {k: got[k] for k in want} == want
    for sheet, row, column in set(got) - set(want):  # a filler: a blank row past the end
        assert got[(sheet, row, column)] is None and row + 1 >= blank_from[sheet]
    size = sum(len(t) + 1 for b in blocks for t in cell_requests(b, 10_000))
    assert cell_bound(cells) <= size


@settings(max_examples=150, deadline=None)
@given(cells_st, st.integers(200, 3_000))
def test_value_ranges_write_every_cell_within_the_room(cells, room):
    runs: list = []
    ranges = list(value_ranges(cells, room, runs))
    assert all(len(r.text) <= room or r.first == r.last for r in ranges)
    parts = [Part("values", [r.text for r in ranges]),
             Part(BATCH, [t for b in runs for t in cell_requests(b, 10_000)])]
    assert written(parts) == wanted(cells)  # null leaves a cell be: nothing else written


def test_a_plan_writes_every_cell_once_in_order_and_within_the_limit():
    """Cells of two stages and a last one, far over the limit: every request fits it, the
    first opens with the mark, the last ends with the mark's removal and the lock's release,
    no snapshot line is written after a game cell, and the requests write exactly the cells
    (text as text, a blank clearing its cell)."""
    snapshot = {(9, c): {r: f"line {r} {c}" for r in range(1, 400)} for c in range(6)}
    game = {(3, 0): {r: 7 for r in range(2, 3000)},  # one value: repeated
            (3, 1): {r: f"=not a formula {r}" for r in range(2, 3000, 3)},  # every third row
            (3, 2): {r: "" if r % 2 else r * 0.5 for r in range(2, 3000)},
            (4, 5): {r: True for r in range(10, 20)}}
    last = {(0, 1): {2: 5}}
    mark, unmark, unlock = ({"createDeveloperMetadata": {"n": 1}},
                            {"deleteDeveloperMetadata": {"n": 2}},
                            {"deleteDeveloperMetadata": {"n": 3}})
    parts = plan_write([snapshot, game], limit=20_000, last_cells=last, tail=[unlock],
                       split_first=[mark], split_last=[unmark], blank_from={3: 2500})
    assert len(parts) > 5 and all(len(p.body()) <= 20_000 for p in parts)
    assert {p.kind for p in parts} == {BATCH, "values"}
    assert parts[0].kind == parts[-1].kind == BATCH
    assert parts[0].texts[0] == request_json(mark)
    assert parts[-1].texts[-2:] == [request_json(unmark), request_json(unlock)]
    got = written(parts)
    want = wanted(snapshot, game, last)
    assert {k: got[k] for k in want} == want
    assert all(k[0] == 3 and k[1] >= 2499 and got[k] is None for k in set(got) - set(want))
    seen_game = False
    for part in parts:
        cells = written([part])
        assert not (seen_game and any(k[0] == 9 for k in cells)), "a line after a game cell"
        seen_game = seen_game or any(k[0] in (3, 4) for k in cells)
    assert any(k[0] == 0 for k in written(parts[-1:]))  # the Game tab last


def test_a_write_that_fits_is_one_request_without_the_mark():
    unlock = {"deleteDeveloperMetadata": {"n": 3}}
    parts = plan_write([{(3, 0): {2: "x"}}], limit=20_000, tail=[unlock],
                       split_first=[{"createDeveloperMetadata": {"n": 1}}],
                       split_last=[{"deleteDeveloperMetadata": {"n": 2}}])
    assert parts == [Part(BATCH, [
        '{"updateCells":{"start":{"sheetId":3,"rowIndex":1,"columnIndex":0},"rows":'
        '[{"values":[{"userEnteredValue":{"stringValue":"x"}}]}],"fields":"userEnteredValue"}}',
        request_json(unlock)])]
    one_value = {(3, 0): {r: "same" for r in range(2, 50_002)}}
    assert len(plan_write([one_value], limit=2_000)) == 1  # a repeatCell


def test_a_column_mostly_of_one_value_is_set_by_one_repeat_cell_then_the_rest():
    """A rectangle's column mostly of one value: a repeatCell over its rows first, then
    the rows' other cells, leaving that value out; shorter, and the same cells."""
    cells = {(5, 11): {r: "applied" if r % 3 else "rejected" for r in range(2, 300)},
             (5, 12): {r: f"result {r}" for r in range(2, 300)}}
    blocks = cell_blocks(cells)
    assert len(blocks) == 1 and not blocks[0].repeat
    texts = list(cell_requests(blocks[0], 1_000_000))
    requests_ = json.loads("[" + texts[0] + "]")  # one text: requests sent together
    assert len(texts) == 1 and [list(r) for r in requests_] == [
        ["repeatCell"], ["updateCells"], ["updateCells"]]
    assert requests_[0]["repeatCell"]["cell"] == {"userEnteredValue": {"stringValue": "applied"}}
    assert written([Part(BATCH, texts)]) == wanted(cells)
    plain = sum(len(cell_json(v)) + 1 for rows in cells.values() for v in rows.values())
    assert len(texts[0]) < plain
    assert cell_bound(cells) <= len(texts[0])


def test_rectangles_of_the_same_columns_a_few_rows_apart_are_one_request():
    cells = {(2, 1): {r: f"Nation {r}" for r in (2, 3, 9, 20, 21, 40, 200)}}
    texts = [t for b in cell_blocks(cells) for t in cell_requests(b, 1_000_000)]
    assert len(texts) == 2  # rows 2-40 in one (a row between them is {}), then row 200
    assert written([Part(BATCH, texts)]) == wanted(cells)
    rows = json.loads(texts[0])["updateCells"]["rows"]
    assert len(rows) == 39 and rows[2] == {}


def test_merged_snapshot_lines_put_back_the_very_same_cells():
    lines = [[4, "Territories", r, "owner", v, r] for r, v in
             [(2, "Avalon"), (3, "Avalon"), (4, ""), (5, None), (6, 7), (7, 7.0), (9, "Avalon"),
              (8, True), (10, "avalon")]]
    merged = merge_runs([list(line) for line in lines])
    assert len(merged) < len(lines)
    expand = {(line[1], line[3], r): line[4] for line in merged
              for r in range(line[2], line[5] + 1)}
    assert {(line[1], line[3], line[2]): line[4] for line in lines}.keys() == expand.keys()
    for line in lines:  # 7 and 7.0 read back alike; True is no 1, "avalon" no "Avalon"
        was = expand[(line[1], line[3], line[2])]
        assert (was == line[4] and type(was) in (type(line[4]), int, float)) or (
            is_blank(was) and is_blank(line[4]))
