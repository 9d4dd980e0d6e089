"""A turn too big for one request: written in several, and never left half written.

"While Sheets API has no hard size limits for an API request, users might experience limits
from different processing components not controlled by Google Sheets. To speed up requests, we
recommend a 2 MB maximum payload." The example game's turn is a few kilobytes, so these tests
set the store's limit to a few kilobytes to get the same splitting as a big game's megabytes.
The split write's order and its recovery are described in sheetmaster/stores/gsheets_split.py.
"""

from __future__ import annotations

import pytest

from sheetmaster.app.runs import Mode, run_turn, undo_turn
from sheetmaster.kit.fairness import DiceSecretError
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.gsheets import LOCK_KEY, UNDO_TAB, RetryPolicy, SheetsStore
from sheetmaster.stores.gsheets_batches import WRITE_KEY, write_marker
from sheetmaster.stores.gsheets_undo import DIGEST
from sheetmaster.testing.fakesheets import FakeSheetsServer
from sheetmaster.testing.fakesheets.upload import upload_state

#: a limit under which the turn takes four requests, the snapshot whole in the first.
LIMIT = 5_000
#: a limit under which the undo snapshot itself takes several requests, and so does an undo
#: (it writes runs of blanks, a repeatCell each).
SMALL_LIMIT = 1_500
#: the test games' dice secret, kept outside the sheet as a real game's is.
SECRET = "the test game's dice secret"


class Killed(BaseException):
    """The process dies: nothing after it runs, not even the lock's release."""


def store_for(server: FakeSheetsServer, sid: str, **kw) -> SheetsStore:
    kw.setdefault("retry", RetryPolicy(deadline=5, first_wait=0.01, max_wait=0.05))
    kw.setdefault("secret", SECRET)
    return SheetsStore(sid, server.client(), **kw)


def on_writes(store: SheetsStore, before=None, after=None) -> SheetsStore:
    """``store`` calling ``before(n)`` before its write request number ``n`` (1: the lock's;
    batchUpdates and values writes alike) and ``after(n)`` once it is answered."""
    send = store.http.request
    sent = []

    def request(method, url, *args, **kwargs):
        if not url.endswith((":batchUpdate", ":batchUpdateByDataFilter")):
            return send(method, url, *args, **kwargs)
        sent.append(url)
        if before:
            before(len(sent))
        reply = send(method, url, *args, **kwargs)
        if after:
            after(len(sent))
        return reply

    store.http.request = request
    return store


def killed_after(store: SheetsStore, writes: int) -> SheetsStore:
    """``store`` whose process dies before its write request number ``writes + 2`` (the
    first takes the lock)."""

    def die(n: int) -> None:
        if n > writes + 1:
            raise Killed

    return on_writes(store, before=die)


def sheet(server: FakeSheetsServer, sid: str, undo: bool = True) -> dict[str, list]:
    """Every tab's values; the undo snapshot's digest (an HMAC that covers the spreadsheet's
    id, so it differs between two sheets) as whether it is there."""
    titles = [s["properties"]["title"] for s in server.metadata(sid)["sheets"]]
    out = {t: server.values(sid, t) for t in titles if undo or t != UNDO_TAB}
    out[UNDO_TAB] = [r[:4] + ["<digest>"] + r[5:] if r[1:2] == [DIGEST] else r
                     for r in out.get(UNDO_TAB, [])]
    return out


@pytest.fixture
def server():
    with FakeSheetsServer() as fake:
        yield fake


@pytest.fixture
def clean(server, example_state):
    """The sheet after one clean turn in one request (dice seed 11)."""
    sid = upload_state(server, example_state, secret=SECRET)
    store = store_for(server, sid)
    assert run_turn(store, Mode.RESOLVE, seed=11).written
    assert store.write_requests == 1
    return sheet(server, sid)


def test_a_big_write_is_split_under_the_limit_and_leaves_the_same_sheet(server, example_state,
                                                                        clean):
    sid = upload_state(server, example_state, secret=SECRET)
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
    sid = upload_state(server, example_state, secret=SECRET)
    server.max_payload = 2_000
    with pytest.raises(StoreError, match="payload size exceeds the limit"):
        run_turn(store_for(server, sid), Mode.RESOLVE, seed=11)
    server.max_payload = LIMIT
    assert run_turn(store_for(server, sid, max_payload=LIMIT), Mode.RESOLVE, seed=11).written


@pytest.mark.parametrize("limit", [LIMIT, SMALL_LIMIT])
def test_a_run_killed_at_any_request_of_a_split_write_is_put_right_by_the_next(
        server, example_state, clean, limit):
    """Killed after 0, 1, ... of its write requests (the snapshot whole in the first, or
    spread over several values writes), the game is put back as it was (or was never
    touched) and the next run resolves the very same turn."""
    probe = upload_state(server, example_state, secret=SECRET)
    store = store_for(server, probe, max_payload=limit)
    run_turn(store, Mode.RESOLVE, seed=11)
    for writes in range(store.write_requests):
        sid = upload_state(server, example_state, secret=SECRET)
        before = sheet(server, sid, undo=False)
        dying = killed_after(store_for(server, sid, max_payload=limit, lock_ttl=0), writes)
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
    sid = upload_state(server, example_state, secret=SECRET)
    before = sheet(server, sid, undo=False)
    store = store_for(server, sid, max_payload=LIMIT, lock_ttl=0,
                      retry=RetryPolicy(deadline=0.3, first_wait=0.01, max_wait=0.02))

    def failing_from_the_third(n: int) -> None:
        if n >= 4:  # lock, the first two writes, then failures
            server.fail_next(50, 503)

    on_writes(store, before=failing_from_the_third)
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
    sid = upload_state(server, example_state, secret=SECRET)
    before = sheet(server, sid, undo=False)
    run_turn(store_for(server, sid, max_payload=LIMIT), Mode.RESOLVE, seed=11)
    undoing = store_for(server, sid, max_payload=LIMIT)
    assert undo_turn(undoing) == 2
    assert sheet(server, sid, undo=False) == before


def marks(server: FakeSheetsServer, sid: str) -> list[str]:
    return [m["metadataValue"] for m in server.developer_metadata(sid)
            if m["metadataKey"] == WRITE_KEY]


def test_a_split_write_without_the_dice_secret_is_refused_before_anything_is_written(
        server, example_state):
    """The mark that lets a later run put a half-written turn back is signed with the dice
    secret; without it a split write would be unsafe, so none is begun."""
    sid = upload_state(server, example_state, secret=SECRET)
    before = sheet(server, sid)
    with pytest.raises(DiceSecretError, match="Nothing was written"):
        run_turn(store_for(server, sid, max_payload=LIMIT, secret=None), Mode.RESOLVE, seed=11)
    assert sheet(server, sid) == before
    assert not [m for m in server.developer_metadata(sid)
                if m["metadataKey"] in (WRITE_KEY, LOCK_KEY)]


def test_a_mark_a_player_forges_or_copies_rolls_nothing_back(server, example_state, clean):
    """Players can add developer metadata to the sheet and read what runs leave there. A mark
    without the secret's signature is ignored; a genuine mark copied from a finished write
    (the game has moved past its turn) is only removed: the finished turn stays."""
    sid = upload_state(server, example_state, secret=SECRET)
    store = store_for(server, sid, max_payload=LIMIT)
    seen: list[str] = []
    on_writes(store, after=lambda n: seen.extend(marks(server, sid)))
    assert run_turn(store, Mode.RESOLVE, seed=11).written
    assert seen and not marks(server, sid)
    after = sheet(server, sid)
    forger = SheetsStore(sid, server.client(), retry=store.retry)
    run, kind, turn, digest, _ = seen[0].split()
    forger.http.batch_update(sid, {"requests": [
        write_marker(f"{run} {kind} {turn} {digest} {'0' * 32}"),  # forged signature
        write_marker(f"forged {kind} {int(turn) + 1} - {'0' * 32}"),
        write_marker(seen[0])]})  # a genuine one, replayed
    reader = store_for(server, sid, max_payload=LIMIT)
    with reader.locked():
        reader.load()
    assert sheet(server, sid) == after == clean
    assert not reader.notes
    assert not [v for v in marks(server, sid) if v == seen[0]]


def test_a_run_killed_in_a_split_undo_has_the_undo_finished_by_the_next(server, example_state):
    sid = upload_state(server, example_state, secret=SECRET)
    before = sheet(server, sid, undo=False)
    run_turn(store_for(server, sid, max_payload=SMALL_LIMIT), Mode.RESOLVE, seed=11)
    probe = store_for(server, sid, max_payload=SMALL_LIMIT)
    undo_turn(probe)
    assert probe.write_requests > 2 and sheet(server, sid, undo=False) == before
    for writes in range(1, probe.write_requests):
        sid = upload_state(server, example_state, secret=SECRET)
        run_turn(store_for(server, sid, max_payload=SMALL_LIMIT), Mode.RESOLVE, seed=11)
        dying = killed_after(store_for(server, sid, max_payload=SMALL_LIMIT, lock_ttl=0), writes)
        with pytest.raises(Killed):
            undo_turn(dying)
        assert marks(server, sid)
        reader = store_for(server, sid, max_payload=SMALL_LIMIT)
        with reader.locked():
            reader.load()
        assert reader.notes == ["an earlier run stopped while writing turn 2; its undo was "
                                "finished"]
        assert sheet(server, sid, undo=False) == before, f"killed after {writes} writes"
        assert not marks(server, sid)


def test_the_cli_tells_the_gm_what_the_store_put_right(caplog):
    from types import SimpleNamespace

    from sheetmaster.app.commands.options import tell_store_notes

    with caplog.at_level("WARNING", logger="sheetmaster"):
        tell_store_notes(SimpleNamespace(notes=["an earlier run stopped while writing turn 4"]))
    assert "an earlier run stopped while writing turn 4" in caplog.text


def test_a_first_request_applied_but_its_answer_lost_is_not_sent_twice(server, example_state,
                                                                       clean):
    """The first request adds the undo tab, so its retry is refused ("already exists"); its
    mark on the sheet shows it was applied, and the write goes on."""
    sid = upload_state(server, example_state, secret=SECRET)
    store = store_for(server, sid, max_payload=LIMIT)

    def losing_the_first_answer(n: int) -> None:
        server.fault_after_apply = n == 2
        if n == 2:
            server.fail_next(1, "drop")

    on_writes(store, before=losing_the_first_answer)
    assert run_turn(store, Mode.RESOLVE, seed=11).written
    assert len(server.faults_injected) == 1
    assert sheet(server, sid) == clean
    assert not marks(server, sid)
