"""Orders kept in a second, GM-only spreadsheet (issue 24, point 6): the shared spreadsheet,
which every player reads, holds nothing of the orders; a turn is written to both so that a
crash between them never leaves a mixed turn; undo puts both back.

Two spreadsheets on the fake: the game's, shared with everyone, and its orders spreadsheet,
shared with the GM and the nightly job's account only."""

from __future__ import annotations

import gspread
import pytest

from sheetmaster.app.cli import main
from sheetmaster.app.exits import Exit
from sheetmaster.app.report import player_report
from sheetmaster.app.runs import Mode, run_turn, undo_turn
from sheetmaster.engine.builder import build_state
from sheetmaster.kit.fairness import SECRET_ENV, for_sheet, turn_dice
from sheetmaster.kit.model import Status
from sheetmaster.rules.claims import RULESET
from sheetmaster.stores.gsheets import RetryPolicy, SheetsStore
from sheetmaster.stores.gsheets_batches import WRITE_KEY
from sheetmaster.stores.gsheets_client import ENDPOINT_ENV
from sheetmaster.stores.gsheets_undo import DIGEST, UNDO_TAB
from sheetmaster.testing.fakesheets import FakeSheetsServer
from sheetmaster.testing.fakesheets.upload import upload_state

SECRET = "the test game's dice secret"
GM = "gm@example.org"
BOT = "nightly@game-project.iam.gserviceaccount.com"
PLAYER = "player@example.org"
SEED = 11


class Killed(BaseException):
    """The process dies: nothing after it runs, not even the lock's release."""


@pytest.fixture
def server(monkeypatch, tmp_path):
    monkeypatch.setenv(SECRET_ENV, SECRET)
    monkeypatch.chdir(tmp_path)
    with FakeSheetsServer() as fake:
        monkeypatch.setenv(ENDPOINT_ENV, fake.url)
        yield fake
        assert fake.internal_errors == []


def claims_game():
    tables, orders, base = RULESET.example()
    base = {k: v for k, v in base.items() if k != "seed"}
    return build_state(RULESET, tables, orders, turn=2, settings=base)


def two_sheets(server) -> tuple[str, str]:
    """The claims example laid out by ``sheetmaster init --orders-sheet``, and its orders
    typed by the GM into the orders spreadsheet (as players sent them privately)."""
    state = claims_game()
    orders = state.tables.pop("Orders")
    sid = upload_state(server, state, owner=GM)
    private = server.create_spreadsheet(title="orders", owner=GM)
    server.share(private, GM, BOT)
    assert main(["init", "--sheet", sid, "--rules", "claims", "--editor", GM,
                 "--service-account", BOT, "--orders-sheet", private, "-q"]) == Exit.OK
    header = server.values(private, "Orders")[0]
    server.set_values(private, "Orders!A2", [[row.get(c, "") for c in header]
                                             for row in orders.fillna("").to_dict("records")])
    return sid, private


def one_sheet(server) -> str:
    sid = upload_state(server, claims_game(), owner=GM)
    assert main(["init", "--sheet", sid, "--rules", "claims", "--editor", GM,
                 "--service-account", BOT, "-q"]) == Exit.OK
    return sid


def job(server, sid, **kw) -> SheetsStore:
    kw.setdefault("retry", RetryPolicy(deadline=3, first_wait=0.01, max_wait=0.05))
    return SheetsStore(sid, server.client(BOT, "game-project"), account=BOT,
                       secret=for_sheet(SECRET, sid), **kw)


def resolve(server, sid, **kw):
    return run_turn(job(server, sid, **kw), Mode.RESOLVE, seed=SEED, force=True)


def tabs(server, sid, private: str = "") -> dict[str, list]:
    """Every tab's values; the undo snapshot's digest (it covers the spreadsheet's id) as
    whether it is there, and the ``private`` spreadsheet's id as '<orders sheet>'."""
    out = {s["properties"]["title"]: [["<orders sheet>" if private and v == private else v
                                       for v in row]
                                      for row in server.values(sid, s["properties"]["title"])]
           for s in server.metadata(sid)["sheets"]}
    out[UNDO_TAB] = [r[:4] + ["<digest>"] + r[5:] if r[1:2] == [DIGEST] else r
                     for r in out.get(UNDO_TAB, [])]
    return out


def killed_after(store: SheetsStore, writes: int) -> SheetsStore:
    """``store`` whose process dies before its write request number ``writes + 2`` (the
    first takes the lock; batchUpdates and values writes alike); the orders spreadsheet's
    store shares its HTTP client."""
    send = store.http.request
    sent = []

    def request(method, url, *args, **kwargs):
        if url.endswith((":batchUpdate", ":batchUpdateByDataFilter")):
            if len(sent) > writes:
                raise Killed
            sent.append(1)
        return send(method, url, *args, **kwargs)

    store.http.request = request
    return store


def marks(server, sid) -> list:
    return [m for m in server.developer_metadata(sid) if m["metadataKey"] == WRITE_KEY]


def test_the_orders_live_and_are_resolved_in_the_gms_own_spreadsheet(server):
    sid, private = two_sheets(server)
    from sheetmaster.app.report import PRIVATE_ORDERS

    reference = one_sheet(server)
    outcome = resolve(server, sid)
    assert outcome.written and len(outcome.result.results) == 18
    assert resolve(server, reference).written
    shared, alone = tabs(server, sid), tabs(server, reference)
    assert "Orders" not in shared  # nothing of the orders in the spreadsheet players read
    for tab in ("Players", "Territories", "Wars", "War results", "Log"):
        assert shared[tab] == alone[tab], tab  # the same turn
    assert tabs(server, private)["Orders"] == alone["Orders"]  # results written there
    assert not [r for r in shared[UNDO_TAB] if "Orders" in r]
    report = player_report(outcome.ruleset, outcome.result)  # the one posted to everyone
    assert PRIVATE_ORDERS in report and "build armies" not in report
    assert "orders" not in report.rsplit("_", 2)[-2]  # no count of orders either
    mine = player_report(outcome.ruleset, outcome.result, "Avalon")
    assert "build armies" in mine
    with pytest.raises((PermissionError, gspread.exceptions.APIError)):  # 403
        server.client(PLAYER, "player-project").open_by_key(private)


def test_a_player_verifies_the_dice_and_is_told_the_orders_are_not_at_hand(server, capsys):
    sid, _ = two_sheets(server)
    game = server.values(sid, "Game")
    row = next(i for i, r in enumerate(game, start=1) if r and r[0] == "dice commitment")
    server.set_values(sid, f"Game!B{row}", [[turn_dice(for_sheet(SECRET, sid), 2).commitment]])
    assert main(["resolve", "--sheet", sid, "--force", "-q"]) == Exit.OK  # the secret's dice
    out = capsys.readouterr().out
    assert "turn 2: 0 orders" in out and "build armies" not in out  # a CI log is public
    assert main(["verify", "--sheet", sid]) == Exit.OK  # a player's: the dice check out
    out = capsys.readouterr().out
    assert "draws of the turn in the Log follow from seed" in out
    assert "orders are in the GM's own orders spreadsheet" in out


def test_a_check_writes_every_reason_into_the_orders_spreadsheet(server):
    sid, private = two_sheets(server)
    outcome = run_turn(job(server, sid), Mode.CHECK)
    assert outcome.written and all(r.secret for r in outcome.result.results)
    rows = server.values(private, "Orders")
    reason = rows[0].index("reason")
    rejected = [r for r in outcome.result.results if r.status is Status.REJECTED]
    assert rejected and rows[rejected[0].row - 1][reason] == rejected[0].reason
    assert not marks(server, private) and server.values(private, UNDO_TAB) == \
        [["turn", "tab", "row", "column", "value", "to row"]]


@pytest.mark.parametrize("writes", [1, 2])
def test_a_run_killed_between_the_two_spreadsheets_is_put_right_by_the_next(server, writes):
    """Killed after the orders spreadsheet's write (1: the shared one never moved on, so
    the orders are put back and the turn resolved again) or after the shared one's (2: the
    turn is whole, and only the mark is left to remove)."""
    clean_sid, clean_private = two_sheets(server)
    assert resolve(server, clean_sid).written
    clean = tabs(server, clean_sid, clean_private), tabs(server, clean_private)
    sid, private = two_sheets(server)
    before = tabs(server, sid), tabs(server, private)
    with pytest.raises(Killed):
        run_turn(killed_after(job(server, sid, lock_ttl=0), writes), Mode.RESOLVE,
                 seed=SEED, force=True)
    assert marks(server, private)  # the orders spreadsheet says a write was under way
    if writes == 1:
        assert tabs(server, private) != before[1]  # its results written, the game not moved
        assert tabs(server, sid)["Game"] == before[0]["Game"]
    reader = job(server, sid)
    with reader.locked():
        reader.load()
    assert bool(reader.notes) == (writes == 1)
    assert not marks(server, private)
    if writes == 1:
        assert tabs(server, sid) == before[0]
        assert tabs(server, private)["Orders"] == before[1]["Orders"]
        assert resolve(server, sid).written
    for got, want in zip((tabs(server, sid, private), tabs(server, private)), clean):
        assert set(got) == set(want)
        for tab in want:
            assert got[tab] == want[tab], tab


def test_undo_puts_both_spreadsheets_back_even_if_killed_between_them(server):
    sid, private = two_sheets(server)
    before = tabs(server, sid), tabs(server, private)
    assert resolve(server, sid).written
    assert undo_turn(job(server, sid)) == 2
    assert tabs(server, sid)["Players"] == before[0]["Players"]
    assert tabs(server, private)["Orders"] == before[1]["Orders"]
    assert resolve(server, sid).written
    with pytest.raises(Killed):  # lock, the mark, the shared spreadsheet put back, then dead
        undo_turn(killed_after(job(server, sid, lock_ttl=0), 2))
    assert tabs(server, private)["Orders"] != before[1]["Orders"]
    reader = job(server, sid)
    with reader.locked():
        reader.load()
    assert tabs(server, sid)["Players"] == before[0]["Players"]
    assert tabs(server, private)["Orders"] == before[1]["Orders"]
    assert not marks(server, private)


def test_an_orders_spreadsheet_the_job_cannot_open_stops_the_run_clearly(server):
    sid, private = two_sheets(server)
    server.share(private, GM)  # the job's account left out
    before = tabs(server, sid)
    with pytest.raises(Exception, match="orders spreadsheet .* could not be read.*Share it"):
        resolve(server, sid)
    assert tabs(server, sid) == before
