"""The Google Sheets store against a fake that behaves as Google documents (issue 12, points 2,
3 and 16 to 22): players who can edit the sheet and run their own credentials cannot make a
run act for them, undo something forged, or lock the game; the GM's and the job's credentials
see each other's locks; typed values read as Google gives them."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import gspread
import openpyxl
import pytest

from sheetmaster.app.cli import main
from sheetmaster.app.exits import Exit
from sheetmaster.app.runs import Mode, run_turn, undo_turn
from sheetmaster.engine.builder import build_state
from sheetmaster.engine.turn import prepare
from sheetmaster.kit.fairness import turn_dice
from sheetmaster.kit.model import GameState, Status
from sheetmaster.rules.claims import RULESET
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.gsheets import LOCK_KEY, UNDO_TAB, RetryPolicy, SheetsStore
from sheetmaster.stores.gsheets_init import lay_out
from sheetmaster.testing.fakesheets import FakeSheetsServer
from sheetmaster.testing.fakesheets.identity import service_account_key
from sheetmaster.testing.fakesheets.upload import upload_state

SECRET = "the test game's dice secret"
BOT = "nightly@game-project.iam.gserviceaccount.com"
GM = "gm@example.org"
PLAYER = "player@example.org"


@pytest.fixture
def server():
    with FakeSheetsServer() as fake:
        yield fake
        assert fake.internal_errors == []


def upload(server, state: GameState, **kw) -> str:
    """The game as a spreadsheet owned by the GM, laid out and bound as ``init`` leaves it
    (the GM and the nightly job may edit its protected tabs)."""
    return upload_state(server, state, owner=GM, secret=SECRET, editors=(GM, BOT), **kw)


def store(server, sid, user: str | None = BOT, **kw) -> SheetsStore:
    kw.setdefault("retry", RetryPolicy(deadline=3, first_wait=0.01, max_wait=0.05))
    kw.setdefault("secret", SECRET)
    project = "gm-laptop" if user == GM else None
    return SheetsStore(sid, server.client(user, project), account=user, **kw)


def example(**settings) -> GameState:
    """The claims example on turn 2, with its dice commitment published (as init does)."""
    tables, orders, base = RULESET.example()
    base = {k: v for k, v in base.items() if k != "seed"}
    base["dice commitment"] = turn_dice(SECRET, 2).commitment
    return build_state(RULESET, tables, orders, turn=2, settings={**base, **settings})


def order_rows(server, sid, tab: str, *orders: dict) -> list[list]:
    """Order rows laid out by the tab's header."""
    header = server.values(sid, tab)[0]
    return [[order.get(column, "") for column in header] for order in orders]


def laid_out(server, sid, editors=(GM, BOT), **kw) -> None:
    """``sheetmaster init`` as the GM (the owner, with their own credentials)."""
    lay_out(store(server, sid, GM), RULESET, list(editors), SECRET, **kw)


def protections(server, sid) -> dict[str, list[dict]]:
    return {s["properties"]["title"]: s.get("protectedRanges", [])
            for s in server.metadata(sid)["sheets"]}


# -- point 2: the Game tab and the undo tab --------------------------------------------------

def test_init_protects_the_game_tab_the_log_and_the_undo_tab(server):
    sid = server.create_spreadsheet(sheets={"Sheet1": []}, owner=GM)
    laid_out(server, sid)
    guarded = {title for title, p in protections(server, sid).items() if p}
    assert {"Game", "Log", UNDO_TAB, "Players", "Territories"} <= guarded
    assert "Orders" not in guarded
    player = server.client(PLAYER, "player-project").open_by_key(sid)
    for tab, cell in (("Game", "B2"), (UNDO_TAB, "A1"), ("Log", "A2")):
        with pytest.raises(gspread.exceptions.APIError, match="protected cell"):
            player.worksheet(tab).update([["mine"]], cell)
    player.worksheet("Orders").update([["", "Avalon", "build armies"]], "A2")


def _tamper_with_the_snapshot(server, sid) -> None:
    rows = server.values(sid, UNDO_TAB)
    at = next(i for i, r in enumerate(rows) if len(r) > 3 and r[3] == "gold")
    server.set_values(sid, f"'{UNDO_TAB}'!E{at + 1}", [[999]])  # someone's gold


def test_undo_refuses_a_snapshot_changed_after_sheetmaster_wrote_it(server):
    sid = upload(server, example())
    assert run_turn(store(server, sid), Mode.RESOLVE, secret=SECRET).written
    _tamper_with_the_snapshot(server, sid)
    before = {tab: server.values(sid, tab) for tab in ("Players", "Game", "Territories")}
    with pytest.raises(StoreError, match="changed after sheetmaster wrote it"):
        undo_turn(store(server, sid))
    assert {tab: server.values(sid, tab) for tab in before} == before


def test_undo_refuses_without_the_secret_and_a_snapshot_of_another_turn(server):
    sid = upload(server, example())
    assert run_turn(store(server, sid), Mode.RESOLVE, secret=SECRET).written
    with pytest.raises(Exception, match="dice secret"):
        undo_turn(store(server, sid, secret=None))
    old = server.values(sid, UNDO_TAB)
    assert undo_turn(store(server, sid)) == 2
    assert run_turn(store(server, sid), Mode.RESOLVE, secret=SECRET).written
    assert run_turn(store(server, sid), Mode.RESOLVE, secret=SECRET, force=True).written
    server.set_values(sid, f"'{UNDO_TAB}'!A1", old)  # turn 2's snapshot, digest and all
    with pytest.raises(StoreError, match="of turn 2, but the game is on turn 4"):
        undo_turn(store(server, sid))


# -- point 3: formulas typed into Orders ---------------------------------------------------

FORMULA_ORDERS = [{"player": "Avalon", "order": "build armies", "amount": "=1+1"},
                  {"player": "=Players!A3", "order": "build armies", "amount": "1"}]


def test_formulas_typed_into_orders_are_refused_as_on_a_workbook(server, tmp_path):
    state = build_state(RULESET, {"Players": [{"player": "Avalon", "gold": 50, "armies": 0},
                                              {"player": "Bretagne", "gold": 50, "armies": 0}],
                                  "Territories": [{"territory": "Camelot", "owner": "Avalon"},
                                                  {"territory": "Ys", "owner": "Bretagne"}]})
    sid = upload(server, state)
    rows = order_rows(server, sid, "Orders", *FORMULA_ORDERS)
    server.set_values(sid, "Orders!A2", rows, input_option="USER_ENTERED")
    amount = server.values(sid, "Orders")[0].index("amount")
    assert server.values(sid, "Orders")[1][amount] == 2  # the sheet computes it...
    outcome = run_turn(store(server, sid), Mode.RESOLVE, secret=SECRET)
    reasons = {r.row: r.reason for r in outcome.result.results}
    assert all(r.status is Status.REJECTED for r in outcome.result.results)
    assert "looks like a spreadsheet formula" in reasons[2]  # ...sheetmaster does not
    assert "looks like a spreadsheet formula" in reasons[3]
    cell = server.cell(sid, "Orders", f"{'ABCDEFGHIJKLM'[amount]}2")
    assert (cell["formula"], cell["value"]) == (False, "=1+1")  # text from now on
    header, *rows = server.values(sid, "Players")
    armies = header.index("armies")
    assert {r[0]: r[armies] for r in rows} == {"Avalon": 0, "Bretagne": 0}  # none built
    # the same rows in a workbook give the same results
    from sheetmaster.stores.xlsx import XlsxStore
    from sheetmaster.stores.xlsx_layout import write_new_workbook

    book = tmp_path / "g.xlsx"
    write_new_workbook(RULESET, book, state)
    workbook = openpyxl.load_workbook(book)
    header = [c.value for c in workbook["Orders"][1]]
    for r, order in enumerate(FORMULA_ORDERS, start=2):
        for column, value in order.items():
            workbook["Orders"].cell(row=r, column=header.index(column) + 1, value=value)
    workbook.save(book)
    on_file = run_turn(XlsxStore(book), Mode.RESOLVE, secret=SECRET)
    assert [(r.status, r.reason) for r in on_file.result.results] == \
        [(r.status, r.reason) for r in outcome.result.results]


# -- point 18: a lock both credentials see ---------------------------------------------------

def test_the_gms_run_and_the_nightly_job_see_each_others_lock(server):
    sid = upload(server, example())
    job = store(server, sid, BOT)
    job.lock()
    with pytest.raises(StoreError, match="another sheetmaster run"):
        run_turn(store(server, sid, GM), Mode.RESOLVE, secret=SECRET)
    job.unlock()
    assert run_turn(store(server, sid, GM), Mode.RESOLVE, secret=SECRET).written


def test_a_lock_a_player_forges_does_not_stop_the_game(server):
    sid = upload(server, example())
    player = server.client(PLAYER, "player-project")
    player.http_client.batch_update(sid, {"requests": [{"createDeveloperMetadata": {
        "developerMetadata": {"metadataKey": LOCK_KEY, "metadataValue": "x 1 99999999999",
                              "location": {"spreadsheet": True}, "visibility": "DOCUMENT"}}}]})
    assert run_turn(store(server, sid), Mode.RESOLVE, secret=SECRET).written
    assert not [m for m in server.developer_metadata(sid) if m["metadataKey"] == LOCK_KEY]


# -- point 19: the job's account edits what init protects ------------------------------------

def test_init_with_the_gms_own_credentials_keeps_the_job_an_editor(server):
    sid = server.create_spreadsheet(sheets={"Sheet1": []}, owner=GM)
    laid_out(server, sid, editors=(GM,))  # the bug: the service account left out
    server.set_values(sid, "Players!A2", [["Avalon", 10]])
    server.set_values(sid, "Territories!A2", [["Camelot", "Avalon"]])
    with pytest.raises(StoreError, match="is not an editor of tab"):  # before any write
        run_turn(store(server, sid, BOT), Mode.RESOLVE, secret=SECRET, force=True)
    laid_out(server, sid, editors=(GM, BOT))  # init again, with the job's account
    assert run_turn(store(server, sid, BOT), Mode.RESOLVE, secret=SECRET, force=True).written


def test_init_asks_for_the_jobs_account_when_its_credentials_are_not_one(server, monkeypatch,
                                                                         capsys):
    sid = server.create_spreadsheet(sheets={"Sheet1": []}, owner=GM)
    monkeypatch.delenv("SHEETMASTER_SHEETS_ENDPOINT", raising=False)
    monkeypatch.setenv("SHEETMASTER_DICE_SECRET", SECRET)
    monkeypatch.setattr("sheetmaster.stores.gsheets_client.open_client",
                        lambda path=None: server.client(GM, "gm-laptop"))
    assert main(["init", "--sheet", sid, "--rules", "claims", "--editor", GM]) == Exit.USAGE
    assert "--service-account" in capsys.readouterr().err
    assert main(["init", "--sheet", sid, "--rules", "claims", "--editor", GM,
                 "--service-account", BOT]) == 0
    editors = protections(server, sid)["Players"][0]["editors"]["users"]
    assert BOT in editors and GM in editors


# -- point 20: running init again ------------------------------------------------------------

def test_running_init_again_keeps_one_protection_per_tab(server):
    sid = server.create_spreadsheet(sheets={"Sheet1": []}, owner=GM)
    laid_out(server, sid)
    server.client(GM).open_by_key(sid).worksheet("Wars").clear()  # a tab laid out again
    laid_out(server, sid, editors=(GM, BOT, "cogm@example.org"))
    for title, found in protections(server, sid).items():
        assert len(found) <= 1, title
    assert "cogm@example.org" in protections(server, sid)["Players"][0]["editors"]["users"]


# -- point 21: values typed in a real sheet come back typed ----------------------------------

@pytest.mark.parametrize(("locale", "typed"), [("en_US", "11/22/2026 23:59"),
                                               ("en_GB", "22/11/2026 23:59"),
                                               ("en_US", "2026-11-22 23:59")])
def test_a_typed_deadline_is_read_in_the_games_time_zone(server, locale, typed):
    state = example(timezone="America/New_York", **{"turn length (hours)": 24})
    sid = upload(server, state, locale=locale, time_zone="Europe/Paris")
    row = next(i for i, r in enumerate(server.values(sid, "Game"), start=1)
               if r[0] == "deadline")
    server.set_values(sid, f"Game!B{row}", [[typed]], input_option="USER_ENTERED")
    assert isinstance(server.values(sid, "Game")[row - 1][1], float)  # a date serial
    s = store(server, sid)
    with s.locked():
        meta = prepare(RULESET, s.load()).state.meta
    assert meta["deadline_at"] == datetime(2026, 11, 22, 23, 59,
                                           tzinfo=ZoneInfo("America/New_York"))
    before = datetime(2026, 11, 22, 23, 0, tzinfo=ZoneInfo("America/New_York"))
    assert run_turn(store(server, sid), Mode.SCHEDULED, secret=SECRET, now=before).result \
        is None
    after = before + timedelta(hours=2)
    assert run_turn(store(server, sid), Mode.SCHEDULED, secret=SECRET, now=after).written


@pytest.mark.parametrize(("typed", "status", "reason"), [
    ("1,000", Status.PARTIAL, "built 10 of 1000"),
    ("$2", Status.APPLIED, "built 2"),
    ("10%", Status.REJECTED, "0.1 is not a whole number"),
    ("TRUE", Status.REJECTED, "True is not a whole number"),
])
def test_typed_amounts_are_read_as_google_gives_them(server, typed, status, reason):
    state = build_state(RULESET, {"Players": [{"player": "Avalon", "gold": 50, "armies": 0}],
                                  "Territories": [{"territory": "Camelot", "owner": "Avalon"}]})
    sid = upload(server, state)
    server.set_values(sid, "Orders!A2", order_rows(server, sid, "Orders", {
        "player": "Avalon", "order": "build armies", "amount": typed}),
        input_option="USER_ENTERED")
    result = run_turn(store(server, sid), Mode.RESOLVE, secret=SECRET).result.results[0]
    assert result.status is status and reason in result.reason


def test_form_responses_after_the_deadline_wait(server):
    zone = ZoneInfo("America/New_York")
    deadline = datetime(2026, 11, 22, 23, 59, tzinfo=zone)
    state = build_state(RULESET, {"Players": [{"player": "Avalon", "gold": 50, "armies": 0}],
                                  "Territories": [{"territory": "Camelot", "owner": "Avalon"}]},
                        settings={"deadline": "2026-11-22 23:59", "timezone": str(zone),
                                  "orders tab": "Form Responses 1"})
    answers = [c for c in state.tables.pop("Orders").columns
               if c not in ("turn", "result", "reason")]
    sid = upload_state(server, state, owner=GM, time_zone="Asia/Tokyo")  # not the game's zone
    form = "Form Responses 1"  # the tab a Google Form fills, one question per column
    server.client(GM).open_by_key(sid).add_worksheet(form, rows=100, cols=20).update(
        [["Timestamp", *answers, "turn", "result", "reason"]], "A1")
    laid_out(server, sid)  # init again: it finds the form tab the Game tab names
    for minutes, amount in ((-5, 1), (5, 2)):
        given = {"player": "Avalon", "order": "build armies", "amount": amount}
        server.submit_form(sid, form, [given.get(c, "") for c in answers],
                           deadline + timedelta(minutes=minutes))
    assert isinstance(server.values(sid, form)[1][0], float)  # a date serial
    outcome = run_turn(store(server, sid), Mode.SCHEDULED, secret=SECRET,
                       now=deadline + timedelta(hours=1))
    assert [r.row for r in outcome.result.results] == [2]


# -- point 22: a lock another run already removed ----------------------------------------------

def test_a_save_survives_a_stale_lock_another_run_removed(server):
    sid = upload(server, example())
    crashed = store(server, sid, lock_ttl=1)
    crashed.lock()  # a run that died: its lock expires
    crashed.lock_ids = []
    import time

    time.sleep(1.1)
    first = store(server, sid)
    first.lock()
    assert first.stale_lock_ids  # it will clear the stale lock once done
    other = store(server, sid)
    with pytest.raises(StoreError, match="another sheetmaster run"):
        other.lock()  # backs off, and clears the stale lock on its way out
    state = first.load()
    from sheetmaster.engine.turn import resolve

    first.save(RULESET, resolve(RULESET, state, secret=SECRET))
    assert server.values(sid, "Game") != []
    assert not [m for m in server.developer_metadata(sid) if m["metadataKey"] == LOCK_KEY]


# -- point 16: a revoked key, an unreachable token endpoint --------------------------------

def _real_credentials(server, token_uri=None):
    from google.oauth2 import service_account

    info = service_account_key(BOT, token_uri or server.token_uri)
    return info, service_account.Credentials.from_service_account_info(
        info, scopes=["https://www.googleapis.com/auth/spreadsheets"])


def test_a_revoked_key_fails_clearly_without_retrying_or_a_traceback(server):
    sid = upload(server, example())
    _, credentials = _real_credentials(server)
    server.token_error = "invalid_grant"
    client = gspread.Client(auth=None, session=server.authorized_session(credentials))
    s = SheetsStore(sid, client, retry=RetryPolicy(deadline=3, first_wait=0.01), secret=SECRET)
    with pytest.raises(StoreError, match="refused sheetmaster's credentials") as info:
        run_turn(s, Mode.RESOLVE, secret=SECRET)
    assert "invalid_grant" in str(info.value) and "new key" in str(info.value)
    assert s.retry.attempts == 1
    server.token_error = None
    assert run_turn(s, Mode.RESOLVE, secret=SECRET).written  # a new key works again


def test_an_unreachable_token_endpoint_is_retried_then_named(server):
    sid = upload(server, example())
    _, credentials = _real_credentials(server, token_uri="http://127.0.0.1:9/token")
    client = gspread.Client(auth=None, session=server.authorized_session(credentials))
    s = SheetsStore(sid, client, retry=RetryPolicy(deadline=0.5, first_wait=0.01,
                                                   max_wait=0.05), secret=SECRET)
    with pytest.raises(StoreError, match="could not sign in to Google") as info:
        run_turn(s, Mode.RESOLVE, secret=SECRET)
    assert s.retry.attempts > 1 and "BEGIN" not in str(info.value)


def test_the_cli_says_a_revoked_key_clearly_and_scrubbed(server, tmp_path, monkeypatch,
                                                         capsys):
    info, _ = _real_credentials(server)
    server.token_error = "invalid_grant"
    monkeypatch.delenv("SHEETMASTER_SHEETS_ENDPOINT", raising=False)
    monkeypatch.setenv("SHEETMASTER_SERVICE_ACCOUNT_JSON", json.dumps(info))
    monkeypatch.setenv("SHEETMASTER_DICE_SECRET", SECRET)
    monkeypatch.setenv("SHEETMASTER_RETRY_DEADLINE", "2")
    assert main(["resolve", "--sheet", "some-sheet", "-q"]) == Exit.STORE
    err = capsys.readouterr().err
    assert "refused sheetmaster's credentials" in err and "Traceback" not in err
    assert "PRIVATE KEY" not in err and info["private_key"][40:80] not in err


def test_the_endpoint_setting_says_credentials_are_not_used(server, monkeypatch, capsys):
    sid = upload_state(server, example(), env_secret=SECRET)
    monkeypatch.setenv("SHEETMASTER_SHEETS_ENDPOINT", server.url)
    monkeypatch.setenv("SHEETMASTER_DICE_SECRET", SECRET)
    assert main(["check", "--sheet", sid, "-q", "--credentials", "/nowhere/key.json"]) == \
        Exit.REJECTED  # the example has orders that would be rejected
    assert "no Google credentials are used" in capsys.readouterr().err


# -- verify, as a player who may only view the sheet ------------------------------------------

def test_a_player_verifies_the_last_turn_from_the_undo_snapshot(server, monkeypatch, capsys):
    sid = upload(server, example())
    assert run_turn(store(server, sid), Mode.RESOLVE, secret=SECRET).written
    monkeypatch.setenv("SHEETMASTER_SHEETS_ENDPOINT", server.url)
    monkeypatch.delenv("SHEETMASTER_DICE_SECRET", raising=False)
    assert main(["verify", "--sheet", sid]) == 0
    out = capsys.readouterr().out
    assert "undo snapshot" in out and "same Log" in out and "same sheet" in out
    server.set_values(sid, "Players!B2", [[999]])  # the GM gives someone gold afterwards
    assert main(["verify", "--sheet", sid]) == 1
    assert "the sheet differs" in capsys.readouterr().out
