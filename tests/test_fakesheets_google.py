"""The fake Sheets API behaves as Google documents it where sheetmaster depends on it: who may
see developer metadata, who may edit protected ranges, sheet protection, deleting what is gone,
typed input read as Sheets reads it, and the OAuth token endpoint."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import gspread
import pytest
from gspread.exceptions import APIError

from sheetmaster.testing.fakesheets import FakeSheetsServer
from sheetmaster.testing.fakesheets.identity import service_account_key
from sheetmaster.testing.fakesheets.protection import PROTECTED_MESSAGE

BOT = "bot@game-project.iam.gserviceaccount.com"


@pytest.fixture
def server():
    with FakeSheetsServer() as fake:
        yield fake
        assert fake.internal_errors == []


@pytest.fixture
def sid(server) -> str:
    return server.create_spreadsheet(title="g", sheets={"State": [["a", "b"], [1, 2]],
                                                        "Orders": [["x"]]},
                                     owner="gm@example.org")


def batch(client: gspread.Client, sid: str, *requests_: dict) -> dict:
    return client.http_client.batch_update(sid, {"requests": list(requests_)})


def lock_request(visibility: str) -> dict:
    return {"createDeveloperMetadata": {"developerMetadata": {
        "metadataKey": "lock", "metadataValue": "1", "location": {"spreadsheet": True},
        "visibility": visibility}}}


def test_project_metadata_is_seen_only_by_the_project_that_wrote_it(server, sid):
    """'PROJECT: Project-visible metadata is only visible to and accessible by the developer
    project that created the metadata.' DOCUMENT: 'accessible from any developer project
    with access to the document.'"""
    bot = server.client(BOT)
    gm = server.client("gm@example.org", project="gm-laptop")
    batch(bot, sid, lock_request("PROJECT"), lock_request("DOCUMENT"))
    seen_by_bot = bot.http_client.fetch_sheet_metadata(sid)["developerMetadata"]
    seen_by_gm = gm.http_client.fetch_sheet_metadata(sid)["developerMetadata"]
    assert [m["visibility"] for m in seen_by_bot] == ["PROJECT", "DOCUMENT"]
    assert [m["visibility"] for m in seen_by_gm] == ["DOCUMENT"]
    hidden = seen_by_bot[0]["metadataId"]
    with pytest.raises(APIError):  # the GM's project cannot delete what it cannot see
        batch(gm, sid, {"deleteDeveloperMetadata": {"dataFilter": {
            "developerMetadataLookup": {"metadataId": hidden}}}})
    assert len(server.developer_metadata(sid)) == 2


def test_deleting_metadata_that_is_gone_fails_the_whole_batch(server, sid):
    client = server.client()
    meta = batch(client, sid, lock_request("DOCUMENT"))["replies"][0]
    mid = meta["createDeveloperMetadata"]["developerMetadata"]["metadataId"]
    delete = {"deleteDeveloperMetadata": {"dataFilter": {
        "developerMetadataLookup": {"metadataId": mid}}}}
    batch(client, sid, delete)
    with pytest.raises(APIError) as err:
        batch(client, sid, {"updateCells": {"start": {"sheetId": 0}, "rows": [
            {"values": [{"userEnteredValue": {"stringValue": "changed"}}]}],
            "fields": "userEnteredValue"}}, delete)
    assert err.value.code == 400
    assert server.values(sid, "State")[0][0] == "a"


def protect(client: gspread.Client, sid: str, sheet_id: int, editors: list[str],
            **bounds) -> dict:
    reply = batch(client, sid, {"addProtectedRange": {"protectedRange": {
        "range": {"sheetId": sheet_id, **bounds}, "warningOnly": False,
        "editors": {"users": editors}}}})
    return reply["replies"][0]["addProtectedRange"]["protectedRange"]


def test_protected_ranges_are_edited_only_by_their_editors_and_the_owner(server, sid):
    owner = server.client("gm@example.org", project="gm-laptop")
    protect(owner, sid, 0, [BOT])
    player = server.client("player@example.org", project="player-project")
    with pytest.raises(APIError) as err:
        player.open_by_key(sid).worksheet("State").update([[99]], "A2")
    assert err.value.code == 400 and PROTECTED_MESSAGE in str(err.value)
    with pytest.raises(APIError, match="protected cell"):
        batch(player, sid, {"updateCells": {"start": {"sheetId": 0, "rowIndex": 1},
                                            "rows": [{"values": [{"userEnteredValue": {
                                                "numberValue": 99}}]}],
                                            "fields": "userEnteredValue"}})
    assert server.values(sid, "State")[1] == [1, 2]
    player.open_by_key(sid).worksheet("Orders").update([["mine"]], "A2")  # not protected
    server.client(BOT).open_by_key(sid).worksheet("State").update([[5]], "A2")
    owner.open_by_key(sid).worksheet("State").update([[6]], "B2")
    assert server.values(sid, "State")[1] == [5, 6]
    seen = player.http_client.fetch_sheet_metadata(sid)["sheets"][0]["protectedRanges"][0]
    assert seen["requestingUserCanEdit"] is False and "editors" not in seen
    seen = owner.http_client.fetch_sheet_metadata(sid)["sheets"][0]["protectedRanges"][0]
    assert seen["requestingUserCanEdit"] is True and seen["editors"] == {"users": [BOT]}
    with pytest.raises(APIError, match="protected cell"):
        batch(player, sid, {"deleteProtectedRange": {"protectedRangeId":
                                                     seen["protectedRangeId"]}})


def test_a_sheet_has_one_sheet_protection(server, sid):
    """Google: 'Invalid requests[0].addProtectedRange: Sheet "Domains" already has sheet
    protection.'"""
    client = server.client()
    protect(client, sid, 0, [BOT])
    protect(client, sid, 0, [BOT], startRowIndex=0, endRowIndex=1)  # a range is fine
    with pytest.raises(APIError) as err:
        protect(client, sid, 0, ["someone@example.org"])
    assert err.value.code == 400
    assert 'Sheet "State" already has sheet protection.' in str(err.value)


@pytest.mark.parametrize(("locale", "typed", "value", "shown"), [
    ("en_US", "11/22/2026 23:59", 46348 + 1439 / 1440, "11/22/2026 23:59:00"),
    ("en_GB", "22/11/2026 23:59", 46348 + 1439 / 1440, "22/11/2026 23:59:00"),
    ("de_DE", "22.11.2026", 46348, "22.11.2026"),
    ("en_US", "2026-11-22", 46348, "2026-11-22"),
    ("en_US", "Nov 22, 2026", 46348, "Nov 22, 2026"),
    ("en_US", "11:59 PM", 1439 / 1440, "11:59:00 PM"),
    ("en_US", "1,000", 1000, "1,000"),
    ("de_DE", "1.000,5", 1000.5, "1.000,50"),
    ("en_US", "10%", 0.1, "10%"),
    ("en_US", "$5", 5, "$5.00"),
    ("de_DE", "5 €", 5, "5,00 €"),
    ("en_US", "true", True, "TRUE"),
    ("en_US", "1,5", "1,5", "1,5"),  # not a number in en_US: stays text
    ("en_US", "13/22/2026", "13/22/2026", "13/22/2026"),  # no 13th month: text
])
def test_typed_input_is_read_as_sheets_reads_it(server, locale, typed, value, shown):
    sid = server.create_spreadsheet(sheets={"T": []}, locale=locale)
    ws = server.client().open_by_key(sid).worksheet("T")
    ws.update([[typed]], "A1", value_input_option="USER_ENTERED")
    got = ws.get("A1", value_render_option="UNFORMATTED_VALUE")[0][0]
    assert got == pytest.approx(value) if isinstance(value, float) else got == value
    assert ws.get("A1")[0][0] == shown
    if isinstance(value, float) and value > 40000:  # a date and time
        text = ws.get("A1", value_render_option="UNFORMATTED_VALUE",
                      date_time_render_option="FORMATTED_STRING")[0][0]
        assert text == shown


def test_a_form_response_carries_a_date_serial_in_the_sheets_time_zone(server):
    sid = server.create_spreadsheet(sheets={"Form Responses 1": [["Timestamp", "order"]]},
                                    time_zone="Asia/Tokyo")
    when = datetime(2026, 11, 22, 14, 59, tzinfo=ZoneInfo("UTC"))  # 23:59 in Tokyo
    assert server.submit_form(sid, "Form Responses 1", ["build armies"], when) == 2
    stamp, order = server.values(sid, "Form Responses 1")[1]
    assert stamp == pytest.approx(46348 + 1439 / 1440) and order == "build armies"
    assert server.values(sid, "Form Responses 1", render="FORMATTED_VALUE")[1][0] == \
        "11/22/2026 23:59:00"


def test_real_service_account_credentials_get_tokens_from_the_fake(server, sid):
    from google.oauth2 import service_account

    info = service_account_key(BOT, server.token_uri)
    credentials = service_account.Credentials.from_service_account_info(
        info, scopes=["https://www.googleapis.com/auth/spreadsheets"])
    client = gspread.Client(auth=None, session=server.authorized_session(credentials))
    batch(client, sid, lock_request("PROJECT"))
    assert credentials.token == f"fake:{BOT}:game-project"
    assert server.client(BOT).http_client.fetch_sheet_metadata(sid)["developerMetadata"]
    assert "developerMetadata" not in server.client().http_client.fetch_sheet_metadata(sid)
