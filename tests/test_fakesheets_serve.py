"""Who the fake Sheets API answers: only requests addressed to it by name (a web page that
rebinds its own name to 127.0.0.1 is refused), and, for ``sheetmaster fake-sheets serve``,
only requests carrying the random token it prints, which the CLI sends from
``SHEETMASTER_SHEETS_TOKEN``."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from sheetmaster.testing.fakesheets import FakeSheetsServer

TEMPLATES = Path(__file__).parent.parent / "templates"
TOKEN_HEADER = "X-Sheetmaster-Token"


def get(url: str, sid: str, **headers: str) -> requests.Response:
    return requests.get(f"{url}/v4/spreadsheets/{sid}", headers=headers, timeout=10)


def forged_write(url: str, sid: str, **headers: str) -> requests.Response:
    """What a web page can send to 127.0.0.1 without asking: a POST of text/plain."""
    body = json.dumps({"valueInputOption": "RAW",
                       "data": [{"range": "Sheet1!A1", "values": [["pwned"]]}]})
    return requests.post(f"{url}/v4/spreadsheets/{sid}/values:batchUpdate", data=body,
                         headers={"Content-Type": "text/plain", **headers}, timeout=10)


@pytest.mark.parametrize("host", ["evil.example:{port}", "rebound.example", "127.0.0.1:1",
                                  "127.0.0.1"])
def test_a_request_addressed_to_another_host_is_refused_and_changes_nothing(host: str):
    with FakeSheetsServer() as server:
        sid = server.create_spreadsheet(sheets={"Sheet1": [["kept"]]})
        foreign = {"Host": host.format(port=server.port)}
        assert get(server.url, sid, **foreign).status_code == 403
        refused = forged_write(server.url, sid, **foreign)
        assert refused.status_code == 403
        assert "answers requests to 127.0.0.1" in refused.json()["error"]["message"]
        assert server.values(sid, "Sheet1") == [["kept"]] and server.requests == []
        for name in (f"127.0.0.1:{server.port}", f"LOCALHOST:{server.port}"):
            assert get(server.url, sid, Host=name).status_code == 200


def test_a_server_with_a_token_refuses_requests_without_it_or_with_a_wrong_one():
    with FakeSheetsServer(token="the-printed-token") as server:
        sid = server.create_spreadsheet(sheets={"Sheet1": [["kept"]]})
        missing = get(server.url, sid)
        assert missing.status_code == 401
        assert missing.json()["error"]["status"] == "UNAUTHENTICATED"
        assert "no token" in missing.json()["error"]["message"]
        wrong = get(server.url, sid, **{TOKEN_HEADER: "the-printed-tokeN"})
        assert wrong.status_code == 401 and "a wrong token" in wrong.json()["error"]["message"]
        assert forged_write(server.url, sid).status_code == 401
        assert server.values(sid, "Sheet1") == [["kept"]] and server.requests == []
        assert get(server.url, sid, **{TOKEN_HEADER: "the-printed-token"}).status_code == 200
        # its own sessions and clients carry the token
        assert server.client().open_by_key(sid).sheet1.acell("A1").value == "kept"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[dict[str, str]]:
    """``sheetmaster fake-sheets serve --from GAME`` running; what it printed, by name."""
    game = tmp_path / "avalon.xlsx"
    shutil.copy(TEMPLATES / "claims-example.xlsx", game)
    shutil.copy(TEMPLATES / "claims-example.xlsx.dice-secret", f"{game}.dice-secret")
    with subprocess.Popen([sys.executable, "-m", "sheetmaster", "fake-sheets", "serve",
                           "--from", str(game)], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True, cwd=tmp_path) as server:
        try:
            assert server.stdout is not None
            printed = ""
            for line in server.stdout:  # up to the command it says to run, its last line
                printed += line
                if "--sheet" in line:
                    break
            found = dict(re.findall(r"export (SHEETMASTER_\w+)=(\S+)", printed))
            sid = re.search(r"spreadsheet id: (\S+)", printed)
            assert sid and {"SHEETMASTER_SHEETS_ENDPOINT", "SHEETMASTER_SHEETS_TOKEN"} <= \
                set(found), printed
            found["sid"] = sid.group(1)
            found["SHEETMASTER_DICE_SECRET"] = Path(f"{game}.dice-secret").read_text().strip()
            found["cwd"] = str(tmp_path)
            yield found
        finally:
            server.terminate()
            server.wait(timeout=30)


def sheetmaster(served: dict[str, str], *args: str, leave_out: str = ""
                ) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHEETMASTER_")}
    env.update({k: v for k, v in served.items() if k.startswith("SHEETMASTER_")})
    env.pop(leave_out, None)
    return subprocess.run([sys.executable, "-m", "sheetmaster", *args], capture_output=True,
                          text=True, timeout=300, env=env, cwd=served["cwd"])


def test_fake_sheets_serve_answers_only_its_own_host_with_the_printed_token(served):
    url, token, sid = (served["SHEETMASTER_SHEETS_ENDPOINT"],
                       served["SHEETMASTER_SHEETS_TOKEN"], served["sid"])
    assert len(token) >= 32
    port = url.rsplit(":", 1)[1]
    assert get(url, sid).status_code == 401
    assert get(url, sid, **{TOKEN_HEADER: token[:-1]}).status_code == 401
    assert forged_write(url, sid).status_code == 401
    assert get(url, sid, Host=f"rebound.example:{port}", **{TOKEN_HEADER: token}
               ).status_code == 403
    assert get(url, sid, **{TOKEN_HEADER: token}).status_code == 200


def test_the_printed_flow_works_and_without_the_token_the_cli_says_what_is_missing(served):
    check = sheetmaster(served, "check", "--sheet", served["sid"], "--json")
    assert check.returncode == 1, check.stderr  # the example has orders that would fail
    assert json.loads(check.stdout)["counts"]["rejected"] == 4
    refused = sheetmaster(served, "check", "--sheet", served["sid"],
                          leave_out="SHEETMASTER_SHEETS_TOKEN")
    assert refused.returncode == 5
    assert "401 UNAUTHENTICATED: no token" in refused.stderr
    assert "set SHEETMASTER_SHEETS_TOKEN" in refused.stderr
