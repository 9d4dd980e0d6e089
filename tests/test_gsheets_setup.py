"""Setting a game up on a Google Sheet, and the CLI against a Sheets endpoint."""

from __future__ import annotations

import json

import pytest

from sheetmaster.app.cli import main
from sheetmaster.rules.claims import RULESET
from sheetmaster.stores.google_auth import CredentialsError, load_credentials, redact
from sheetmaster.stores.gsheets import RetryPolicy, SheetsStore
from sheetmaster.stores.gsheets_init import plan_init, read_existing
from sheetmaster.testing.fakesheets import FakeSheetsServer

FAKE_KEY = ("-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7"
            "FAKEFAKEFAKE\\n-----END PRIVATE KEY-----\\n")


@pytest.fixture
def server():
    with FakeSheetsServer() as fake:
        yield fake


SECRET = "the test game's dice secret"


def init(server, sid, rules=RULESET, **kw):
    store = SheetsStore(sid, server.client(), retry=RetryPolicy(deadline=5))
    with store.locked():
        plan = plan_init(store, rules, editors=["gm@example.org", "bot@x.iam"],
                         existing=read_existing(store), secret=SECRET, **kw)
        store.apply(plan.requests, "laying out the sheet")
    return plan


def test_init_lays_out_tabs_headers_dropdowns_and_protection(server):
    sid = server.create_spreadsheet(title="new game", sheets={"Sheet1": []},
                                    time_zone="Europe/Paris")
    server.reset_counts()
    plan = init(server, sid)
    assert server.request_count == 3
    assert {"Game", "Orders", "Territories", "Players", "Wars", "War results", "Log",
            "How to write orders"} <= set(plan.added_tabs)
    meta = server.metadata(sid)
    sheets = {s["properties"]["title"]: s for s in meta["sheets"]}
    assert sheets["Orders"]["properties"]["gridProperties"]["frozenRowCount"] == 1
    assert server.values(sid, "Orders")[0][:3] == ["turn", "player", "order"]
    game = {row[0]: row[1] for row in server.values(sid, "Game")[1:]}
    assert game["ruleset"] == "claims" and game["turn"] == 1
    assert game["timezone"] == "Europe/Paris" and len(game["dice commitment"]) == 64
    assert "seed" not in game
    protected = {p["range"]["sheetId"]: p for s in meta["sheets"]
                 for p in s.get("protectedRanges", [])}
    players_id = sheets["Players"]["properties"]["sheetId"]
    assert set(protected[players_id]["editors"]["users"]) == {"gm@example.org", "bot@x.iam"}
    orders_id = sheets["Orders"]["properties"]["sheetId"]
    assert orders_id not in protected  # players write their orders
    rule = server.cell(sid, "Orders", "C2")["data_validation"]
    assert "claim war territory" in json.dumps(rule)


def test_init_protects_the_gm_orders_tab_players_may_not_write_in(server):
    from toy import ruleset as toy_ruleset

    from sheetmaster.kit.ruleset import Phase

    rules = toy_ruleset(Phase("g", "decrees", lambda ctx: None, orders=("decree",)),
                        gm_orders=True)
    plan = init(server, server.create_spreadsheet(title="toy", sheets={"Sheet1": []}), rules)
    assert "GM orders" in plan.protected and "Orders" not in plan.protected


def test_init_makes_a_tab_wide_enough_for_its_headers(server):
    """Was: '400 ... exceeds grid limits' for a tab of more than 26 columns."""
    from toy import ruleset as toy_ruleset

    from sheetmaster.kit.ruleset import Phase
    from sheetmaster.kit.schema import Column, Table

    wide = Table("Ledger", tuple(Column(f"column {i}") for i in range(30)))
    rules = toy_ruleset(Phase("g", "pay", lambda ctx: None, orders=("pay",)), tables=(wide,))
    sid = server.create_spreadsheet(title="toy", sheets={"Sheet1": []})
    init(server, sid, rules)
    assert server.values(sid, "Ledger")[0][-1] == "column 29"


def test_init_keeps_tabs_that_hold_data(server):
    sid = server.create_spreadsheet(title="g", sheets={"Players": [["player", "gold"],
                                                                   ["Avalon", 3]]})
    plan = init(server, sid)
    assert "Players" in plan.kept_tabs
    assert server.values(sid, "Players") == [["player", "gold"], ["Avalon", 3]]


def test_init_with_a_form_adds_result_columns_to_the_responses_tab(server):
    sid = server.create_spreadsheet(title="g", sheets={"Form Responses 1": [
        ["Timestamp", "Email Address", "player", "order", "amount"]]})
    init(server, sid, form_tab="Form Responses 1")
    header = server.values(sid, "Form Responses 1")[0]
    assert header[-3:] == ["turn", "result", "reason"]
    game = {row[0]: row[1] for row in server.values(sid, "Game")[1:]}
    assert game["orders tab"] == "Form Responses 1"
    assert "email" in server.values(sid, "Players")[0]


def test_cli_runs_a_whole_game_on_a_sheets_endpoint(server, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("SHEETMASTER_SHEETS_ENDPOINT", server.url)
    monkeypatch.setenv("SHEETMASTER_DICE_SECRET", SECRET)
    monkeypatch.chdir(tmp_path)
    sid = server.create_spreadsheet(title="g", sheets={"Sheet1": []})
    assert main(["init", "--sheet", sid, "--rules", "claims", "--editor", "gm@example.org"]) == 0
    server.set_values(sid, "Players!A2", [["Avalon", 10, "", "", "", "", "", "", 1, "", ""]])
    server.set_values(sid, "Territories!A2", [["Camelot", "Avalon", "", "Avalon", "Sarum", ""],
                                              ["Sarum", "", "", "", "Camelot", ""]])
    server.set_values(sid, "Orders!A2", [["", "Avalon", "claim neutral territory", "Sarum"]])
    assert main(["check", "--sheet", sid, "-q"]) == 0
    assert "ok" in capsys.readouterr().out
    assert main(["resolve", "--sheet", sid, "-q"]) == 0
    out = capsys.readouterr().out
    assert "resolved turn 1" in out
    owners = {row[0]: (row[1] if len(row) > 1 else "") for row in
              server.values(sid, "Territories")[1:]}
    assert owners["Sarum"] == "Avalon"
    assert (tmp_path / "turn-1-report.md").exists()
    assert main(["nightly", "--sheet", sid, "-q"]) == 0
    assert "no deadline" in capsys.readouterr().out


def test_credentials_never_appear_in_errors(monkeypatch, capsys):
    monkeypatch.setenv("SHEETMASTER_DICE_SECRET", SECRET)
    key = {"type": "service_account", "project_id": "p", "private_key_id": "abcdef0123456789",
           "private_key": FAKE_KEY.replace("\\\\n", "\\n"),
           "client_email": "bot@p.iam.gserviceaccount.com", "client_id": "1",
           "token_uri": "https://oauth2.googleapis.com/token"}
    monkeypatch.setenv("SHEETMASTER_SERVICE_ACCOUNT_JSON", json.dumps(key)[:-5])  # truncated
    with pytest.raises(CredentialsError) as info:
        load_credentials()
    assert "MIIEvQ" not in str(info.value) and "abcdef0123456789" not in str(info.value)
    assert main(["resolve", "--sheet", "x", "-q"]) == 5
    err = capsys.readouterr().err
    assert "MIIEvQ" not in err and "abcdef0123456789" not in err
    assert "SHEETMASTER_SERVICE_ACCOUNT_JSON" in err


def test_a_bad_private_key_is_not_echoed(monkeypatch, capsys, tmp_path):
    key = {"type": "service_account", "project_id": "p", "private_key_id": "abcdef0123456789",
           "private_key": FAKE_KEY.replace("\\\\n", "\\n"),
           "client_email": "bot@p.iam.gserviceaccount.com", "client_id": "1",
           "token_uri": "https://oauth2.googleapis.com/token"}
    path = tmp_path / "key.json"
    path.write_text(json.dumps(key))
    monkeypatch.delenv("SHEETMASTER_SERVICE_ACCOUNT_JSON", raising=False)
    monkeypatch.setenv("SHEETMASTER_DICE_SECRET", SECRET)
    assert main(["resolve", "--sheet", "x", "--credentials", str(path), "-q"]) == 5
    err = capsys.readouterr().err
    assert "MIIEvQ" not in err and "abcdef0123456789" not in err


def test_redact_blanks_keys_and_tokens():
    text = f'{{"private_key": "{FAKE_KEY}"}} Authorization: Bearer ya29.a0AfH6 token ya29.xyz'
    clean = redact(text)
    assert "MIIEvQ" not in clean and "ya29." not in clean and "[redacted]" in clean
