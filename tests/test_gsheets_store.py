"""The Google Sheets store against the fake Sheets API, through the real gspread client."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from sheetmaster.app.runs import Mode, run_turn, undo_turn
from sheetmaster.engine.builder import build_state
from sheetmaster.engine.turn import resolve
from sheetmaster.kit.model import GameState, Status
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.gsheets import LOCK_KEY, RetryPolicy, SheetsStore
from sheetmaster.stores.xlsx import XlsxStore
from sheetmaster.stores.xlsx_layout import write_new_workbook
from sheetmaster.testing.fakesheets import FakeSheetsServer
from sheetmaster.testing.fakesheets.upload import upload_state

#: the test games' dice secret, kept outside the sheet as a real game's is.
SECRET = "the test game's dice secret"


def upload(server: FakeSheetsServer, state: GameState, time_zone: str = "UTC") -> str:
    """The game laid out and bound as ``init`` leaves it."""
    return upload_state(server, state, time_zone=time_zone, secret=SECRET)


def store_for(server: FakeSheetsServer, sid: str, **kw) -> SheetsStore:
    kw.setdefault("retry", RetryPolicy(deadline=5, first_wait=0.01, max_wait=0.05))
    kw.setdefault("secret", SECRET)
    return SheetsStore(sid, server.client(), **kw)


def reload(server, sid) -> GameState:
    store = store_for(server, sid)
    with store.locked():
        return store.load()


@pytest.fixture
def server():
    with FakeSheetsServer() as fake:
        yield fake


def test_a_turn_takes_three_requests_and_matches_the_xlsx_store(server, example_state,
                                                                 claims, tmp_path: Path):
    sid = upload(server, example_state)
    server.reset_counts()
    outcome = run_turn(store_for(server, sid), Mode.RESOLVE, seed=11)
    assert outcome.written
    assert server.request_count == 3
    book = tmp_path / "g.xlsx"
    write_new_workbook(claims, book, example_state)
    xlsx = XlsxStore(book)
    xlsx.save(claims, resolve(claims, xlsx.load(), seed=11))
    from_sheet, from_file = reload(server, sid), XlsxStore(book).load()
    for tab in ("Territories", "Players", "War results", "Orders", "Log"):
        common = [c for c in from_sheet.tables[tab].columns if c in from_file.tables[tab]]
        left = from_sheet.tables[tab][common].astype(str).replace({"nan": "", "None": ""})
        right = from_file.tables[tab][common].astype(str).replace({"nan": "", "None": ""})
        left = left.map(lambda v: v[:-2] if v.endswith(".0") else v)
        right = right.map(lambda v: v[:-2] if v.endswith(".0") else v)
        assert left.to_dict("records") == right.to_dict("records"), tab


def test_text_is_written_as_text_never_a_formula(server, claims):
    state = build_state(claims, {
        "Players": [{"player": "Avalon", "gold": 5, "armies": 0}],
        "Territories": [{"territory": "Camelot", "owner": "Avalon"}],
    }, [{"player": "Avalon", "order": "claim neutral territory",
         "territory": '=HYPERLINK("http://x","Camelot")'},
        {"player": "Avalon", "order": "propose transfer", "deal": "+deal", "item": "gold",
         "amount": 1, "to": "Avalon"}])
    sid = upload(server, state)
    run_turn(store_for(server, sid), Mode.RESOLVE, secret=SECRET)
    orders = server.values(sid, "Orders")
    header = orders[0]
    reasons = [row[header.index("reason")] for row in orders[1:]]
    assert "looks like a spreadsheet formula" in reasons[0]
    for tab in ("Orders", "Log", "Players", "Territories", "Game"):
        for r, row in enumerate(server.values(sid, tab), start=1):
            for c in range(len(row)):
                cell = server.cell(sid, tab, f"{_letters(c)}{r}")
                assert not cell["formula"], (tab, r, c, cell)


def _letters(c: int) -> str:
    out = ""
    c += 1
    while c:
        c, rem = divmod(c - 1, 26)
        out = chr(65 + rem) + out
    return out


def test_transient_faults_are_retried_with_the_same_result(server, example_state):
    clean_sid = upload(server, example_state)
    run_turn(store_for(server, clean_sid), Mode.RESOLVE, seed=5)
    faulty_sid = upload(server, example_state)
    server.fail_next(2, status=503)
    run_turn(store_for(server, faulty_sid), Mode.RESOLVE, seed=5)
    server.fail_next(1, status=429)
    for tab in ("Players", "Territories", "Orders", "Log", "Game"):
        assert server.values(faulty_sid, tab) == server.values(clean_sid, tab)


def test_a_fault_that_never_clears_fails_clearly_and_changes_nothing(server, example_state):
    sid = upload(server, example_state)
    before = {tab: server.values(sid, tab) for tab in example_state.tables}
    server.fault_rate = 1.0
    server.fault_kinds = (503,)
    with pytest.raises(StoreError, match="kept failing"):
        run_turn(store_for(server, sid, retry=RetryPolicy(deadline=0.5, first_wait=0.01,
                                                          max_wait=0.02)), Mode.RESOLVE,
                 secret=SECRET)
    server.fault_rate = 0.0
    assert {tab: server.values(sid, tab) for tab in example_state.tables} == before


def test_a_live_lock_keeps_a_second_run_out(server, example_state):
    sid = upload(server, example_state)
    first = store_for(server, sid)
    first.lock()
    with pytest.raises(StoreError, match="another sheetmaster run"):
        run_turn(store_for(server, sid), Mode.RESOLVE, secret=SECRET)
    first.unlock()
    assert not [m for m in server.developer_metadata(sid) if m.get("metadataKey") == LOCK_KEY]
    assert run_turn(store_for(server, sid), Mode.RESOLVE, secret=SECRET).written


def _with_deadline(claims, example_state, deadline: str, hours: int = 24) -> GameState:
    tables, orders, settings = claims.example()
    settings = dict(settings, deadline=deadline, **{"turn length (hours)": hours})
    return build_state(claims, tables, orders, turn=2, settings=settings)


def _an_hour_ago() -> str:
    """An hour ago, as wall-clock time in the example game's zone."""
    zone = ZoneInfo("America/New_York")
    return (datetime.now(zone) - timedelta(hours=1)).strftime("%Y-%m-%d %H:%M")


def test_nightly_waits_for_the_deadline(server, claims, example_state):
    state = _with_deadline(claims, example_state, "2999-01-01 00:00")
    sid = upload(server, state)
    outcome = run_turn(store_for(server, sid), Mode.SCHEDULED, secret=SECRET)
    assert outcome.result is None and "deadline" in outcome.waiting
    assert not [m for m in server.developer_metadata(sid) if m.get("metadataKey") == LOCK_KEY]


def test_nightly_resolves_once_however_often_it_runs(server, claims, example_state):
    sid = upload(server, _with_deadline(claims, example_state, _an_hour_ago(), hours=24))
    outcomes = [run_turn(store_for(server, sid), Mode.SCHEDULED, secret=SECRET) for _ in range(3)]
    assert [o.written for o in outcomes] == [True, False, False]
    game = {row[0]: row[1] for row in server.values(sid, "Game")[1:]}
    assert game["turn"] == 3


def test_two_nightly_runs_at_once_advance_the_turn_once(server, claims, example_state):
    sid = upload(server, _with_deadline(claims, example_state, _an_hour_ago()))
    server.latency = 0.05
    outcomes, errors = [], []

    def run():
        try:
            outcomes.append(run_turn(store_for(server, sid), Mode.SCHEDULED, secret=SECRET))
        except StoreError as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    game = {row[0]: row[1] for row in server.values(sid, "Game")[1:]}
    assert game["turn"] == 3
    assert sum(o.written for o in outcomes) == 1
    assert len(outcomes) + len(errors) == 2


def test_orders_posted_after_the_deadline_wait_for_the_next_turn(server, claims):
    tables = {"Players": [{"player": "Avalon", "gold": 50, "armies": 0}],
              "Territories": [{"territory": "Camelot", "owner": "Avalon"}]}
    # Date serials: 46000.5 is 2025-12-09 12:00 in the spreadsheet's zone.
    orders = [{"timestamp": 46000.25, "player": "Avalon", "order": "build armies", "amount": 1},
              {"timestamp": 46000.75, "player": "Avalon", "order": "build armies", "amount": 2}]
    state = build_state(claims, tables, orders,
                        settings={"deadline": 46000.5, "timezone": "America/New_York"})
    sid = upload(server, state, time_zone="America/New_York")
    outcome = run_turn(store_for(server, sid), Mode.SCHEDULED, secret=SECRET)
    assert [r.row for r in outcome.result.results] == [2]
    after = server.values(sid, "Orders")
    header = after[0]
    late = after[2] + [""] * len(header)
    assert late[header.index("result")] in ("", None)  # untouched: it waits for turn 2


def test_form_intake_rejects_orders_sent_from_someone_elses_address(server, claims):
    tables = {"Players": [{"player": "Avalon", "gold": 50, "armies": 0,
                           "email": "arthur@example.org"},
                          {"player": "Bretagne", "gold": 50, "armies": 0,
                           "email": "gwen@example.org"}],
              "Territories": [{"territory": "Camelot", "owner": "Avalon"},
                              {"territory": "Ys", "owner": "Bretagne"}]}
    orders = [{"email": "gwen@example.org", "player": "Avalon", "order": "build armies",
               "amount": 1},
              {"email": "arthur@example.org", "player": "Avalon", "order": "build armies",
               "amount": 2}]
    # the tab a Google Form fills (init protects it: only the Form and the GM write in it)
    sid = upload(server, build_state(claims, tables, orders, settings={"orders tab": "Orders"}))
    outcome = run_turn(store_for(server, sid), Mode.RESOLVE, secret=SECRET)
    results = {r.row: r for r in outcome.result.results}
    assert results[2].status is Status.REJECTED and "not Avalon's address" in results[2].reason
    assert results[3].status is Status.APPLIED


def test_rows_a_table_loses_are_cleared(server, claims, example_state):
    """A ruleset whose table shrinks (armies destroyed, say) leaves no stale rows behind."""
    from sheetmaster.kit.model import TurnResult

    sid = upload(server, example_state)
    store = store_for(server, sid)
    store.lock()
    before = store.load()
    result = resolve(claims, before, seed=1)
    wars = result.after.tables["Wars"]
    result.after.tables["Wars"] = wars.drop(index=wars.index[-2:])
    shrunk = TurnResult(result.ruleset, result.turn, result.seed, result.before, result.after,
                        result.results, result.events)
    store.save(claims, shrunk)
    rows = server.values(sid, "Wars")
    assert len([r for r in rows if any(v not in ("", None) for v in r)]) == 1 + len(wars) - 2


def test_undo_puts_every_cell_back(server, example_state):
    sid = upload(server, example_state)
    before = {tab: server.values(sid, tab) for tab in example_state.tables}
    run_turn(store_for(server, sid), Mode.RESOLVE, secret=SECRET)
    assert server.values(sid, "Players") != before["Players"]
    from sheetmaster.app.runs import undo_turn

    assert undo_turn(store_for(server, sid)) == 2
    after = {tab: server.values(sid, tab) for tab in example_state.tables}
    assert after == before
    with pytest.raises(StoreError, match="nothing to undo"):
        undo_turn(store_for(server, sid))
    assert run_turn(store_for(server, sid), Mode.RESOLVE, secret=SECRET).written  # again


def test_a_check_keeps_the_last_resolves_undo_snapshot(server, example_state):
    """A check writes order answers only: the snapshot of the last resolve stays, so the
    turn can still be undone (and verified from it)."""
    sid = upload(server, example_state)
    before = {tab: server.values(sid, tab) for tab in ("Players", "Territories", "Game")}
    assert run_turn(store_for(server, sid), Mode.RESOLVE, seed=11, force=True).written
    assert run_turn(store_for(server, sid), Mode.CHECK, secret=SECRET).written
    assert undo_turn(store_for(server, sid)) == 2
    assert {tab: server.values(sid, tab) for tab in before} == before
