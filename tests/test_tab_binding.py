"""A game is bound to its tabs, and its form responses tab is protected (issue 24, points 1
and 2): a player who may edit the shared Google Sheet, with their own credentials, cannot
pass a tab of theirs off as the game's, nor post an order as another player.

The game is laid out the way a GM does it, with ``sheetmaster init`` (as the spreadsheet's
owner), and every attack is made through the real gspread client as the player."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import gspread
import openpyxl
import pytest

from sheetmaster.app.cli import main
from sheetmaster.app.exits import Exit
from sheetmaster.app.runs import Mode, run_turn
from sheetmaster.engine.builder import build_state
from sheetmaster.kit.fairness import SECRET_ENV, for_sheet, turn_dice
from sheetmaster.rules.claims import RULESET
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.gsheets import RetryPolicy, SheetsStore
from sheetmaster.stores.gsheets_client import ENDPOINT_ENV
from sheetmaster.testing.fakesheets import FakeSheetsServer
from sheetmaster.testing.fakesheets.upload import upload_state

SECRET = "the test game's dice secret"
GM = "gm@example.org"
BOT = "nightly@game-project.iam.gserviceaccount.com"
PLAYER = "player@example.org"


@pytest.fixture
def server(monkeypatch, tmp_path):
    """The fake Sheets API, which the CLI reaches as the spreadsheets' owner (the GM)."""
    monkeypatch.setenv(SECRET_ENV, SECRET)
    monkeypatch.chdir(tmp_path)  # where turn reports go
    with FakeSheetsServer() as fake:
        monkeypatch.setenv(ENDPOINT_ENV, fake.url)
        yield fake
        assert fake.internal_errors == []


def claims_game(**settings) -> object:
    """The claims example on turn 2 (its War results tab has a two-word name)."""
    tables, orders, base = RULESET.example()
    base = {k: v for k, v in base.items() if k != "seed"}
    return build_state(RULESET, tables, orders, turn=2, settings={**base, **settings})


def laid_out(server, state, *options: str) -> str:
    """The game in a spreadsheet the GM owns, laid out by ``sheetmaster init`` (with the
    nightly job's account as an editor of what it protects), its dice commitment published."""
    sid = upload_state(server, state, owner=GM)
    assert main(["init", "--sheet", sid, "--rules", "claims", "--editor", GM,
                 "--service-account", BOT, "-q", *options]) == Exit.OK
    game = server.values(sid, "Game")
    row = next(i for i, r in enumerate(game, start=1) if r and r[0] == "dice commitment")
    server.set_values(sid, f"Game!B{row}", [[turn_dice(for_sheet(SECRET, sid), 2).commitment]])
    return sid


def as_player(server, sid) -> gspread.Spreadsheet:
    return server.client(PLAYER, "player-project").open_by_key(sid)


def job(server, sid, secret: str | None = "bound") -> SheetsStore:
    """The nightly job's store (its own service account), with the game's dice secret."""
    return SheetsStore(sid, server.client(BOT, "game-project"), account=BOT,
                       secret=for_sheet(SECRET, sid) if secret == "bound" else secret,
                       retry=RetryPolicy(deadline=3, first_wait=0.01, max_wait=0.05))


def tabs(server, sid) -> dict[str, list]:
    return {s["properties"]["title"]: server.values(sid, s["properties"]["title"])
            for s in server.metadata(sid)["sheets"]}


def look_alike(server, sid: str, tab: str, name: str, forge) -> None:
    """As the player: a tab named ``name`` (``tab``'s name but for spaces), moved first,
    holding ``tab``'s rows as ``forge`` changes them."""
    book = as_player(server, sid)
    rows = forge([list(r) for r in book.worksheet(tab).get_all_values()])
    sheet = book.add_worksheet(name, rows=len(rows) + 50, cols=len(rows[0]) + 2)
    sheet.update(rows, "A1")
    sheet.update_index(0)


def _gold(rows):
    at = rows[0].index("gold")
    for row in rows[1:]:
        row[at] = "999999"
    return rows


def _turn(rows):
    for row in rows[1:]:
        if row[0] == "dice commitment":
            row[1] = ""  # no commitment: any seed would do
    return rows


def _forged_line(rows):
    return [*rows, ["1", "99", "wars", "Bretagne", "war", "Bretagne conquers everything",
                    "", ""]]


def _results(rows):
    return [rows[0], *(list(r) for r in rows[1:])] + [["1", "Avalon", "Camelot", "Bretagne"]]


# -- point 1: a look-alike tab never replaces a protected one ----------------------------------

@pytest.mark.parametrize(("tab", "name", "forge"), [
    ("Players", "Players\u00a0", _gold),           # a no-break space after the name
    ("Game", "Game\u2007", _turn),                  # a figure space
    ("Log", " Log", _forged_line),                  # a space before
    ("War results", "War  results", _results),      # a doubled space in a two-word name
])
def test_a_look_alike_tab_a_player_adds_is_refused_naming_both(server, capsys, tab, name,
                                                               forge):
    sid = laid_out(server, claims_game())
    look_alike(server, sid, tab, name, forge)
    before = tabs(server, sid)
    assert main(["resolve", "--sheet", sid, "--force", "-q"]) == Exit.SHEET_BROKEN
    err = capsys.readouterr().err
    assert repr(tab) in err and repr(name) in err  # both named, the odd space shown
    assert tabs(server, sid) == before  # neither the game's tab nor the player's was written
    with pytest.raises(Exception, match="same name but for case or spaces"):
        run_turn(job(server, sid), Mode.RESOLVE, secret=for_sheet(SECRET, sid), force=True)


def test_a_player_cannot_get_their_look_alike_read_by_a_run_without_the_secret(server, capsys):
    """``check`` (and a player's ``verify``) may run without the dice secret: they read tabs
    by their exact names, and a look-alike stops them too."""
    sid = laid_out(server, claims_game())
    look_alike(server, sid, "Players", "Players\u00a0", _gold)
    with pytest.raises(Exception, match="same name but for case or spaces"):
        run_turn(job(server, sid, secret=None), Mode.CHECK)
    assert main(["verify", "--sheet", sid]) == Exit.SHEET_BROKEN
    assert "'Players\\xa0'" in capsys.readouterr().err


def test_a_run_reads_and_writes_the_tabs_init_bound(server):
    """Whatever another tab is named, the run reads the bound tabs by sheetId: a players'
    tab deleted and made again (by a player) is not the game's, and the run stops."""
    sid = laid_out(server, claims_game())
    book = as_player(server, sid)
    orders = book.worksheet("Orders")
    rows = orders.get_all_values()
    book.del_worksheet(orders)  # the one tab players may change as they like
    book.add_worksheet("Orders", rows=100, cols=20).update(rows, "A1")
    before = tabs(server, sid)
    with pytest.raises(StoreError, match="'Orders', which init bound to the game, is gone"):
        run_turn(job(server, sid), Mode.RESOLVE, secret=for_sheet(SECRET, sid), force=True)
    assert tabs(server, sid) == before


def test_a_renamed_bound_tab_stops_the_run_until_it_has_its_name_back(server):
    sid = laid_out(server, claims_game())
    gm = server.client(GM).open_by_key(sid)
    gm.worksheet("Players").update_title("Joueurs")
    with pytest.raises(StoreError, match="'Players'.* is now named 'Joueurs': give it back"):
        run_turn(job(server, sid), Mode.RESOLVE, secret=for_sheet(SECRET, sid), force=True)
    as_player(server, sid).add_worksheet("Players", rows=10, cols=5)  # a player's, unbound
    with pytest.raises(StoreError, match="is now named 'Joueurs'"):
        run_turn(job(server, sid), Mode.RESOLVE, secret=for_sheet(SECRET, sid), force=True)
    as_player(server, sid).del_worksheet(as_player(server, sid).worksheet("Players"))
    gm.worksheet("Joueurs").update_title("Players")
    assert run_turn(job(server, sid), Mode.RESOLVE, secret=for_sheet(SECRET, sid),
                    force=True).written


def test_a_record_a_player_forges_copies_or_removes_binds_nothing(server):
    """The record is signed with a key from the dice secret: one a player writes is not
    trusted, a copy of the genuine one changes nothing, and with none the run stops."""
    sid = laid_out(server, claims_game())
    book = as_player(server, sid)
    rows = _gold(book.worksheet("Players").get_all_values())
    mine = book.add_worksheet("Gold", rows=50, cols=30)
    mine.update(rows, "A1")
    genuine = next(m["metadataValue"] for m in server.developer_metadata(sid)
                   if m["metadataKey"] == "sheetmaster-tabs")
    real = next(s["properties"]["sheetId"] for s in server.metadata(sid)["sheets"]
                if s["properties"]["title"] == "Players")
    forged = genuine.replace(f'"Players":[{real},', f'"Players":[{mine.id},')
    assert forged != genuine
    player = server.client(PLAYER, "player-project").http_client
    for value in (forged, genuine):
        player.batch_update(sid, {"requests": [{"createDeveloperMetadata": {
            "developerMetadata": {"metadataKey": "sheetmaster-tabs", "metadataValue": value,
                                  "location": {"spreadsheet": True},
                                  "visibility": "DOCUMENT"}}}]})
    outcome = run_turn(job(server, sid), Mode.RESOLVE, secret=for_sheet(SECRET, sid),
                       force=True)
    assert outcome.written
    assert 999999 not in outcome.result.before.tables["Players"]["gold"].tolist()
    player.batch_update(sid, {"requests": [{"deleteDeveloperMetadata": {"dataFilter": {
        "developerMetadataLookup": {"metadataKey": "sheetmaster-tabs"}}}}]})
    with pytest.raises(StoreError, match="not bound to its tabs.*sheetmaster init"):
        run_turn(job(server, sid), Mode.RESOLVE, secret=for_sheet(SECRET, sid), force=True)


def test_an_old_record_put_back_names_a_protection_no_tab_has(server):
    sid = laid_out(server, claims_game())
    old = next(m["metadataValue"] for m in server.developer_metadata(sid)
               if m["metadataKey"] == "sheetmaster-tabs")
    gm = server.client(GM).http_client
    players = next(s for s in server.metadata(sid)["sheets"]
                   if s["properties"]["title"] == "Players")
    gm.batch_update(sid, {"requests": [{"deleteProtectedRange": {
        "protectedRangeId": players["protectedRanges"][0]["protectedRangeId"]}}]})
    assert main(["init", "--sheet", sid, "--rules", "claims", "--editor", GM,
                 "--service-account", BOT, "-q"]) == Exit.OK  # protects it anew
    player = server.client(PLAYER, "player-project").http_client
    player.batch_update(sid, {"requests": [
        {"deleteDeveloperMetadata": {"dataFilter": {"developerMetadataLookup": {
            "metadataKey": "sheetmaster-tabs"}}}},
        {"createDeveloperMetadata": {"developerMetadata": {
            "metadataKey": "sheetmaster-tabs", "metadataValue": old,
            "location": {"spreadsheet": True}, "visibility": "DOCUMENT"}}}]})
    with pytest.raises(StoreError, match="'Players' is no longer protected as init"):
        run_turn(job(server, sid), Mode.RESOLVE, secret=for_sheet(SECRET, sid), force=True)


def test_a_game_laid_out_before_binding_stops_until_init_runs_again(server, capsys):
    sid = upload_state(server, claims_game(), owner=GM)  # an older init: no record
    before = tabs(server, sid)
    assert main(["resolve", "--sheet", sid, "--force", "-q"]) == Exit.STORE
    assert "not bound to its tabs" in capsys.readouterr().err
    assert tabs(server, sid) == before
    assert main(["init", "--sheet", sid, "--rules", "claims", "-q"]) == Exit.OK
    assert main(["resolve", "--sheet", sid, "--force", "-q"]) == Exit.OK


def test_init_again_without_the_games_secret_changes_nothing(server, monkeypatch, capsys):
    """A new secret would bind the game with a key its runs do not have."""
    sid = laid_out(server, claims_game())
    before = tabs(server, sid)
    monkeypatch.delenv(SECRET_ENV)
    assert main(["init", "--sheet", sid, "--rules", "claims", "-q"]) == Exit.STORE
    assert "already holds a game: set SHEETMASTER_DICE_SECRET" in capsys.readouterr().err
    assert tabs(server, sid) == before


def test_a_players_orders_tab_of_another_name_stays_theirs(server):
    """An 'orders tab' setting that names a tab without verified e-mails is the players'
    own orders tab, renamed: init binds it and leaves it open to them."""
    state = claims_game(**{"orders tab": "Commands"})
    state.tables["Commands"] = state.tables.pop("Orders")
    sid = laid_out(server, state)
    assert "Orders" not in tabs(server, sid)
    book = as_player(server, sid)
    header = book.worksheet("Commands").row_values(1)
    row = [{"player": "Avalon", "order": "build armies", "amount": 1}.get(c, "") for c in header]
    book.worksheet("Commands").append_row(row)
    outcome = run_turn(job(server, sid), Mode.RESOLVE, secret=for_sheet(SECRET, sid),
                       force=True)
    assert outcome.written and outcome.result.results[-1].player == "Avalon"


def test_an_editor_init_did_not_make_stops_the_run(server):
    sid = laid_out(server, claims_game())
    gm = server.client(GM).http_client
    players = next(s for s in server.metadata(sid)["sheets"]
                   if s["properties"]["title"] == "Players")["protectedRanges"][0]
    gm.batch_update(sid, {"requests": [{"updateProtectedRange": {"protectedRange": {
        "protectedRangeId": players["protectedRangeId"],
        "editors": {"users": [*players["editors"]["users"], PLAYER]}},
        "fields": "editors"}}]})
    with pytest.raises(StoreError, match=f"'Players' may be edited by {PLAYER}"):
        run_turn(job(server, sid), Mode.RESOLVE, secret=for_sheet(SECRET, sid), force=True)


def test_fake_sheets_serve_from_a_workbook_binds_the_game(tmp_path):
    from sheetmaster.kit.fairness import EXAMPLE_SECRET
    from sheetmaster.testing.commands.fake_sheets import _recommit
    from sheetmaster.testing.fakesheets.upload import upload_workbook

    assert main(["new", "claims", str(tmp_path / "g.xlsx"), "--example", "-q"]) == Exit.OK
    with FakeSheetsServer() as fake:
        sid = upload_workbook(fake, tmp_path / "g.xlsx")
        _recommit(fake, sid, tmp_path / "g.xlsx")
        store = SheetsStore(sid, fake.client(), secret=for_sheet(EXAMPLE_SECRET, sid))
        assert run_turn(store, Mode.RESOLVE, secret=for_sheet(EXAMPLE_SECRET, sid),
                        force=True).written


# -- on a workbook too: names match exactly, and look-alikes are refused -----------------------

def test_a_workbook_with_a_look_alike_tab_is_refused_naming_both(tmp_path, capsys):
    game = tmp_path / "g.xlsx"
    assert main(["new", "claims", str(game), "--example", "-q"]) == Exit.OK
    book = openpyxl.load_workbook(game)
    forged = book.copy_worksheet(book["Players"])
    forged.title = "Players\u00a0"
    book.move_sheet(forged, -book.index(forged))  # first
    gold = [c.value for c in forged[1]].index("gold") + 1
    for row in range(2, forged.max_row + 1):
        forged.cell(row=row, column=gold, value=999999)
    book.save(game)
    assert main(["resolve", str(game), "--force", "-q"]) == Exit.SHEET_BROKEN
    err = capsys.readouterr().err
    assert "'Players'" in err and "'Players\\xa0'" in err


def test_a_workbook_tab_is_matched_by_its_exact_name(tmp_path, capsys):
    game = tmp_path / "g.xlsx"
    assert main(["new", "claims", str(game), "--example", "-q"]) == Exit.OK
    book = openpyxl.load_workbook(game)
    book["Players"].title = "renamed"
    book["renamed"].title = "players"
    book.save(game)
    assert main(["check", str(game), "-q"]) == Exit.SHEET_BROKEN
    assert "tab 'players' differs from it only in case or spaces" in capsys.readouterr().err


# -- point 2: the form responses tab is protected ------------------------------------------------

FORM = "Form Responses 1"


def form_game(server) -> str:
    """A claims game whose orders come from a Google Form with verified e-mails."""
    state = claims_game(**{"orders tab": FORM, "deadline": "2026-11-22 23:59"})
    players = state.tables["Players"]
    players["email"] = [f"{p.casefold()}@example.org" for p in players["player"]]
    answers = ["Email Address", *(c for c in state.tables.pop("Orders").columns
                                  if c not in ("turn", "result", "reason"))]
    sid = upload_state(server, state, owner=GM)
    server.client(GM).open_by_key(sid).add_worksheet(FORM, rows=100, cols=20).update(
        [["Timestamp", *answers]], "A1")
    assert main(["init", "--sheet", sid, "--rules", "claims", "--editor", GM,
                 "--service-account", BOT, "--form-tab", FORM, "-q"]) == Exit.OK
    return sid


def test_a_player_cannot_write_a_forged_row_into_the_form_responses_tab(server):
    sid = form_game(server)
    deadline = datetime(2026, 11, 22, 23, 59, tzinfo=timezone.utc)
    header = server.values(sid, FORM)[0]

    def answer(**given):
        return [given.get(c, "") for c in header[1:header.index("turn")]]

    server.submit_form(sid, FORM, answer(**{"Email Address": "avalon@example.org",
                                            "player": "Avalon", "order": "build armies",
                                            "amount": 1}),
                       deadline - timedelta(hours=1))  # the Form still writes to it
    forged = [45000, *answer(**{"Email Address": "bretagne@example.org", "player": "Bretagne",
                                "order": "build armies", "amount": 5})]  # back-dated
    with pytest.raises(gspread.exceptions.APIError, match="protected cell"):
        as_player(server, sid).worksheet(FORM).update([forged], "A3")
    outcome = run_turn(job(server, sid), Mode.CHECK, secret=for_sheet(SECRET, sid))
    assert [(r.row, r.player) for r in outcome.result.results] == [(2, "Avalon")]


def test_a_run_refuses_an_intake_tab_players_can_edit(server):
    """A form tab laid out by an older init (or unprotected since) lets anyone post as
    anyone: every run on it stops before writing, with the secret or without."""
    sid = form_game(server)
    form = next(s for s in server.metadata(sid)["sheets"] if s["properties"]["title"] == FORM)
    server.client(GM).http_client.batch_update(sid, {"requests": [{"deleteProtectedRange": {
        "protectedRangeId": form["protectedRanges"][0]["protectedRangeId"]}}]})
    before = tabs(server, sid)
    with pytest.raises(StoreError, match=f"'{FORM}' is no longer protected"):
        run_turn(job(server, sid), Mode.RESOLVE, secret=for_sheet(SECRET, sid), force=True)
    with pytest.raises(StoreError, match="takes verified e-mail addresses.*anyone who may "
                                         "edit"):
        run_turn(job(server, sid, secret=None), Mode.CHECK)
    assert tabs(server, sid) == before
    assert main(["init", "--sheet", sid, "--rules", "claims", "--editor", GM,
                 "--service-account", BOT, "-q"]) == Exit.OK  # finds the form tab again
    assert run_turn(job(server, sid), Mode.CHECK, secret=for_sheet(SECRET, sid)).written
