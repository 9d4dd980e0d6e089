"""The offline trial of the Sheets mode, end to end: `fake-sheets serve --from` gives a game
without a deadline one that has passed, and `fake-sheets show`/`set` let a user look at and
type into the fake's cells, so the whole nightly cycle runs with no Google account."""

from __future__ import annotations

import shutil
from datetime import datetime, timezone
from pathlib import Path

import pytest

from sheetmaster.app.cli import main
from sheetmaster.app.exits import Exit
from sheetmaster.kit import fairness
from sheetmaster.testing.commands.fake_sheets import _due_now, _recommit
from sheetmaster.testing.fakesheets import FakeSheetsServer
from sheetmaster.testing.fakesheets.upload import upload_workbook

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


def game_rows(server: FakeSheetsServer, sid: str) -> dict[str, str]:
    return {str(r[0]): str(r[1]) for r in server.values(sid, "Game")[1:] if len(r) > 1}


@pytest.fixture
def served(tmp_path, monkeypatch):
    """The claims example on the fake, as `fake-sheets serve --from` puts it there, and the
    environment its printed lines set."""
    game = tmp_path / "my-game.xlsx"
    shutil.copy(TEMPLATES / "claims-example.xlsx", game)
    shutil.copy(TEMPLATES / "claims-example.xlsx.dice-secret", f"{game}.dice-secret")
    with FakeSheetsServer() as server:
        sid = upload_workbook(server, game)
        _recommit(server, sid, game)  # the sheet's own dice, as serve publishes them
        monkeypatch.setenv("SHEETMASTER_SHEETS_ENDPOINT", server.url)
        monkeypatch.setenv(fairness.SECRET_ENV, fairness.EXAMPLE_SECRET)
        monkeypatch.chdir(tmp_path)
        yield server, sid


def test_serve_gives_a_game_without_a_deadline_one_that_has_passed(served):
    server, sid = served
    assert game_rows(server, sid)["deadline"] == ""  # the example has none
    said = _due_now(server, sid, now=NOW)
    # the example's zone is America/New_York: 12:00 UTC is 07:00 there
    assert said == "; its turn is due: deadline set to 2026-11-22 06:59 America/New_York"
    rows = game_rows(server, sid)
    assert rows["deadline"] == "2026-11-22 06:59" and rows["turn length (hours)"] == "24"
    assert _due_now(server, sid, now=NOW) == ""  # a deadline of its own is kept


def test_the_whole_nightly_cycle_offline(served, capsys):
    server, sid = served
    _due_now(server, sid)
    assert main(["nightly", "--sheet", sid, "-q"]) == Exit.OK
    assert "resolved turn 2" in capsys.readouterr().out
    assert main(["nightly", "--sheet", sid, "-q"]) == Exit.OK
    assert "nothing to do: turn 3's deadline is" in capsys.readouterr().out
    # a player types an order, the GM moves the deadline back: both as in the browser
    orders = len(server.values(sid, "Orders")) + 1
    assert main(["fake-sheets", "set", "--sheet", sid, f"Orders!B{orders}", "Bretagne",
                 "build armies", "", "1"]) == Exit.OK
    assert f"set Orders!B{orders}:E{orders} to Bretagne | build armies |  | 1" in \
        capsys.readouterr().out
    assert main(["fake-sheets", "show", "--sheet", sid, "Game"]) == Exit.OK
    shown = capsys.readouterr().out
    deadline_row = next(line for line in shown.splitlines() if " deadline " in line)
    row = deadline_row.split()[0]
    assert "B value" in shown and row == "5"
    assert main(["fake-sheets", "set", "--sheet", sid, f"Game!B{row}",
                 "2020-01-01 00:00"]) == Exit.OK
    capsys.readouterr()
    assert main(["nightly", "--sheet", sid, "-q"]) == Exit.OK
    assert "resolved turn 3" in capsys.readouterr().out
    header, *rows = server.values(sid, "Orders")
    typed = dict(zip(header, rows[orders - 2]))
    # read and resolved with turn 3 (Bretagne paid its tribute in turn 2)
    assert (typed["turn"], typed["player"], typed["result"]) == (3, "Bretagne", "rejected")
    assert typed["reason"] == "not enough gold: an army costs 5 gold, you have 4"


def test_set_types_as_a_person_does(served, capsys):
    server, sid = served
    assert main(["fake-sheets", "set", "--sheet", sid, "Orders!H40", "=1+1", "12",
                 "text"]) == Exit.OK
    assert server.values(sid, "Orders", render="FORMULA")[39][7:10] == ["=1+1", 12, "text"]


@pytest.mark.parametrize(("cell", "expected"), [("A1", "name the tab"),
                                                ("Orders!", "is not a cell"),
                                                ("Orders!12", "is not a cell")])
def test_set_refuses_a_cell_it_cannot_place(served, capsys, cell, expected):
    _server, sid = served
    assert main(["fake-sheets", "set", "--sheet", sid, cell, "x"]) == Exit.USAGE
    assert expected in capsys.readouterr().err


def test_show_and_set_are_for_the_fake_only(served, capsys, monkeypatch):
    _server, sid = served
    assert main(["fake-sheets", "show", "--sheet", sid, "Nope"]) == Exit.STORE
    assert "has no tab 'Nope'" in capsys.readouterr().err
    monkeypatch.delenv("SHEETMASTER_SHEETS_ENDPOINT")
    assert main(["fake-sheets", "set", "--sheet", sid, "Game!B5", "x"]) == Exit.USAGE
    assert "SHEETMASTER_SHEETS_ENDPOINT is not set" in capsys.readouterr().err
    monkeypatch.setenv("SHEETMASTER_SHEETS_ENDPOINT", "http://127.0.0.1:9")
    assert main(["fake-sheets", "show", "--sheet", sid, "Game"]) == Exit.STORE
    assert "is 'sheetmaster fake-sheets serve' still running?" in capsys.readouterr().err
