"""A turn too big for one request: written in several, and never left half written.

"While Sheets API has no hard size limits for an API request, users might experience limits
from different processing components not controlled by Google Sheets. To speed up requests, we
recommend a 2 MB maximum payload." The example game's turn is a few kilobytes, so these tests
set the store's limit to a few kilobytes to get the same splitting as a big game's megabytes.
"""

from __future__ import annotations

import pytest

from sheetmaster.runs import Mode, run_turn, undo_turn
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.gsheets import LOCK_KEY, UNDO_TAB, RetryPolicy, SheetsStore
from sheetmaster.stores.gsheets_batches import WRITE_KEY, batches, payload_size
from sheetmaster.testing.fakesheets import FakeSheetsServer
from sheetmaster.testing.fakesheets.upload import upload_state

LIMIT = 6_000


class Killed(BaseException):
    """The process dies: nothing after it runs, not even the lock's release."""


def store_for(server: FakeSheetsServer, sid: str, **kw) -> SheetsStore:
    kw.setdefault("retry", RetryPolicy(deadline=5, first_wait=0.01, max_wait=0.05))
    return SheetsStore(sid, server.client(), **kw)


def killed_after(store: SheetsStore, writes: int) -> SheetsStore:
    """``store`` whose process dies before its batchUpdate number ``writes + 2`` (the first
    takes the lock)."""
    send = store.http.batch_update
    sent = []

    def batch_update(*args, **kwargs):
        if len(sent) > writes:
            raise Killed
        sent.append(1)
        return send(*args, **kwargs)

    store.http.batch_update = batch_update
    return store


def sheet(server: FakeSheetsServer, sid: str, undo: bool = True) -> dict[str, list]:
    titles = [s["properties"]["title"] for s in server.metadata(sid)["sheets"]]
    return {t: server.values(sid, t) for t in titles if undo or t != UNDO_TAB}


@pytest.fixture
def server():
    with FakeSheetsServer() as fake:
        yield fake


@pytest.fixture
def clean(server, example_state):
    """The sheet after one clean turn in one request (dice seed 11)."""
    sid = upload_state(server, example_state)
    store = store_for(server, sid)
    assert run_turn(store, Mode.RESOLVE, seed=11).written
    assert store.write_requests == 1
    return sheet(server, sid)


def test_a_big_write_is_split_under_the_limit_and_leaves_the_same_sheet(server, example_state,
                                                                        clean):
    sid = upload_state(server, example_state)
    store = store_for(server, sid, max_payload=LIMIT)
    server.reset_counts()
    assert run_turn(store, Mode.RESOLVE, seed=11).written
    assert store.write_requests > 3
    assert server.request_count == 2 + store.write_requests
    assert max(r.size for r in server.requests) <= LIMIT
    assert sheet(server, sid) == clean
    assert not [m for m in server.developer_metadata(sid)
                if m["metadataKey"] in (WRITE_KEY, LOCK_KEY)]


def test_the_fake_refuses_a_body_over_googles_limit(server, example_state):
    sid = upload_state(server, example_state)
    server.max_payload = 2_000
    with pytest.raises(StoreError, match="payload size exceeds the limit"):
        run_turn(store_for(server, sid), Mode.RESOLVE, seed=11)
    server.max_payload = LIMIT
    assert run_turn(store_for(server, sid, max_payload=LIMIT), Mode.RESOLVE, seed=11).written


def test_a_run_killed_at_any_request_of_a_split_write_is_put_right_by_the_next(
        server, example_state, clean):
    """Killed after 0, 1, ... of its write requests, the game is put back as it was (or was
    never touched) and the next run resolves the very same turn."""
    probe = upload_state(server, example_state)
    store = store_for(server, probe, max_payload=LIMIT)
    run_turn(store, Mode.RESOLVE, seed=11)
    for writes in range(store.write_requests):
        sid = upload_state(server, example_state)
        before = sheet(server, sid, undo=False)
        dying = killed_after(store_for(server, sid, max_payload=LIMIT, lock_ttl=0), writes)
        with pytest.raises(Killed):
            run_turn(dying, Mode.RESOLVE, seed=11)
        keys = [m["metadataKey"] for m in server.developer_metadata(sid)]
        assert LOCK_KEY in keys and (WRITE_KEY in keys) == (writes > 0)
        reader = store_for(server, sid, max_payload=LIMIT)
        with reader.locked():
            reader.load()
        assert sheet(server, sid, undo=False) == before, f"killed after {writes} writes"
        assert bool(reader.notes) == (writes > 0)
        assert run_turn(store_for(server, sid, max_payload=LIMIT), Mode.RESOLVE,
                        seed=11).written
        assert sheet(server, sid) == clean, f"killed after {writes} writes"
        assert not [m for m in server.developer_metadata(sid) if m["metadataKey"] == WRITE_KEY]


def test_a_split_write_that_keeps_failing_says_so_and_the_next_run_puts_it_right(
        server, example_state, clean):
    sid = upload_state(server, example_state)
    before = sheet(server, sid, undo=False)
    store = store_for(server, sid, max_payload=LIMIT, lock_ttl=0,
                      retry=RetryPolicy(deadline=0.3, first_wait=0.01, max_wait=0.02))
    send = store.http.batch_update
    calls = []

    def failing_from_the_third(*args, **kwargs):
        calls.append(1)
        if len(calls) >= 4:  # lock, the first two writes, then failures
            server.fail_next(50, 503)
        return send(*args, **kwargs)

    store.http.batch_update = failing_from_the_third
    with pytest.raises(StoreError, match="half written"):
        run_turn(store, Mode.RESOLVE, seed=11)
    server.clear_faults()
    reader = store_for(server, sid, max_payload=LIMIT)
    with reader.locked():
        reader.load()
    assert sheet(server, sid, undo=False) == before
    assert run_turn(store_for(server, sid, max_payload=LIMIT), Mode.RESOLVE, seed=11).written
    assert sheet(server, sid) == clean


def test_undo_of_a_split_write_puts_every_cell_back(server, example_state):
    sid = upload_state(server, example_state)
    before = sheet(server, sid, undo=False)
    run_turn(store_for(server, sid, max_payload=LIMIT), Mode.RESOLVE, seed=11)
    undoing = store_for(server, sid, max_payload=LIMIT)
    assert undo_turn(undoing) == 2
    assert sheet(server, sid, undo=False) == before


def test_batches_keep_the_order_and_cut_long_runs_of_rows():
    rows = [{"values": [{"userEnteredValue": {"stringValue": f"cell {i}"}}]} for i in range(500)]
    big = {"updateCells": {"start": {"sheetId": 3, "rowIndex": 10, "columnIndex": 2},
                           "rows": rows, "fields": "userEnteredValue"}}
    small = {"updateSheetProperties": {"properties": {"sheetId": 3}, "fields": "title"}}
    last = [{"deleteDeveloperMetadata": {"dataFilter": {}}}]
    parts = batches([small, big, small], 2_000, last)
    assert len(parts) > 5
    assert all(payload_size({"requests": p}) <= 2_000 for p in parts)
    assert parts[0][0] == small and parts[-1][-2:] == [small, *last]
    pieces = [r["updateCells"] for p in parts for r in p if "updateCells" in r]
    assert [row for piece in pieces for row in piece["rows"]] == rows
    starts = [piece["start"]["rowIndex"] for piece in pieces]
    assert starts[0] == 10 and all(
        b == a + len(piece["rows"]) for a, b, piece in zip(starts, starts[1:], pieces))
    assert batches([small], 2_000, last) == [[small, *last]]
