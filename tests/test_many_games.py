"""Many games from one repository: games.toml, and ``nightly --all`` against the fake Sheets
API with three games, one of them broken: the others are resolved (or wait) all the same."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from sheetmaster import rules
from sheetmaster.app.cli import main
from sheetmaster.app.exits import Exit, UsageError
from sheetmaster.app.games import github_matrix, load_games
from sheetmaster.engine.builder import build_state, example_game
from sheetmaster.kit.fairness import SECRET_ENV
from sheetmaster.stores.google_auth import JSON_ENV
from sheetmaster.stores.gsheets_client import ENDPOINT_ENV
from sheetmaster.stores.xlsx_layout import write_new_workbook
from sheetmaster.testing.fakesheets import FakeSheetsServer
from sheetmaster.testing.fakesheets.upload import upload_state
from tests.test_game_repo import example_games_toml

ROOT = Path(__file__).resolve().parents[1]


def example_state(ruleset_name: str, hours_to_deadline: float, **changes):
    """A ruleset's example game whose deadline is that many hours away (negative: passed)."""
    ruleset = rules.get(ruleset_name)
    tables, orders, settings = example_game(ruleset)
    deadline = datetime.now(timezone.utc) + timedelta(hours=hours_to_deadline)
    settings = dict(settings, timezone="UTC", deadline=deadline.strftime("%Y-%m-%d %H:%M"),
                    **{"turn length (hours)": 24})
    turn = 2 if any(r.get("turn") for r in tables.get("War results", [])) else 1
    for tab, (key, value, column, new) in changes.items():
        for row in tables[tab]:
            if row.get(key) == value:
                row[column] = new
    return build_state(ruleset, tables, orders, turn=turn, settings=settings)


def snapshot(server: FakeSheetsServer, sid: str) -> dict:
    titles = [s["properties"]["title"] for s in server.metadata(sid)["sheets"]]
    return {title: server.values(sid, title) for title in titles}


def game_tab(server: FakeSheetsServer, sid: str) -> dict:
    return {row[0]: row[1] for row in server.values(sid, "Game")[1:] if len(row) > 1}


#: the games' dice secret (SHEETMASTER_DICE_SECRET), each game's bound to its sheet.
SECRET = "the games' dice secret"


@pytest.fixture
def server():
    with FakeSheetsServer() as fake:
        yield fake


@pytest.fixture
def three_games(server, tmp_path, monkeypatch):
    """avalon (claims, due), isles (clans, not due yet), broken (claims, 'ten' gold)."""
    monkeypatch.setenv(ENDPOINT_ENV, server.url)
    monkeypatch.setenv(SECRET_ENV, SECRET)  # each bound to its sheet
    monkeypatch.chdir(tmp_path)
    sids = {
        "avalon": upload_state(server, example_state("claims", -1), env_secret=SECRET),
        "isles": upload_state(server, example_state("clans", +5), env_secret=SECRET),
        "broken": upload_state(server, example_state(
            "claims", -1, Players=("player", "Bretagne", "gold", "ten")), env_secret=SECRET),
    }
    toml = tmp_path / "games.toml"
    toml.write_text("".join(
        f'[[game]]\nname = "{name}"\nsheet = "{sid}"\n'
        f'ruleset = "{"clans" if name == "isles" else "claims"}"\n\n'
        for name, sid in sids.items()), encoding="utf-8")
    return toml, sids


def test_all_resolves_each_game_on_its_own_and_one_broken_game_stops_no_other(
        server, three_games, capsys):
    toml, sids = three_games
    before = {name: snapshot(server, sid) for name, sid in sids.items()}
    code = main(["nightly", "--all", str(toml), "-q"])
    out, err = capsys.readouterr()
    assert code == Exit.SHEET_BROKEN  # the first (here: the only) failure's code
    rows = {line.split()[0]: line for line in out.splitlines()
            if line.strip() and line.split()[0] in sids}
    assert set(rows) == set(sids), out
    assert "resolved" in rows["avalon"] and " 2 " in rows["avalon"]
    assert "not due" in rows["isles"] and "deadline" in rows["isles"]
    assert "failed" in rows["broken"] and "sheet-broken" in rows["broken"]
    assert "tab 'Players', row" in err and "column 'gold'" in err
    # avalon moved on a turn and got its report; the other two are as they were
    assert str(game_tab(server, sids["avalon"])["turn"]) == "3"
    assert Path("avalon-turn-2-report.md").exists()
    for name in ("isles", "broken"):
        assert snapshot(server, sids[name]) == before[name]
    # a second run: avalon's next turn is not due, so nothing fails but broken
    assert main(["nightly", "--all", str(toml), "-q"]) == Exit.SHEET_BROKEN
    assert "not due" in [line for line in capsys.readouterr().out.splitlines()
                         if line.strip().startswith("avalon")][0]


def test_game_picks_games_and_reports_go_where_asked(server, three_games, tmp_path, capsys):
    toml, sids = three_games
    assert main(["nightly", "--all", str(toml), "--game", "avalon", "--game", "isles",
                 "--report", "reports", "-q"]) == Exit.OK
    assert (tmp_path / "reports" / "avalon-turn-2-report.md").exists()
    assert "broken" not in capsys.readouterr().out
    assert main(["nightly", "--all", str(toml), "--game", "nosuch"]) == Exit.USAGE


def test_a_game_whose_sheet_plays_other_rules_is_refused(server, three_games, capsys):
    toml, sids = three_games
    toml.write_text(f'[[game]]\nname = "avalon"\nsheet = "{sids["avalon"]}"\n'
                    f'ruleset = "clans"\n', encoding="utf-8")
    before = server.values(sids["avalon"], "Players")
    assert main(["nightly", "--all", str(toml), "-q"]) == Exit.SHEET_BROKEN
    assert "plays by 'claims'" in capsys.readouterr().err
    assert server.values(sids["avalon"], "Players") == before


def test_a_missing_secret_fails_that_game_before_it_is_touched(server, three_games, capsys,
                                                               monkeypatch):
    toml, sids = three_games
    monkeypatch.delenv(JSON_ENV, raising=False)
    toml.write_text(f'[[game]]\nname = "avalon"\nsheet = "{sids["avalon"]}"\n'
                    f'ruleset = "claims"\nsecrets = {{ google = "AVALON_KEY" }}\n',
                    encoding="utf-8")
    monkeypatch.delenv("AVALON_KEY", raising=False)
    server.reset_counts()
    assert main(["nightly", "--all", str(toml)]) == Exit.STORE
    assert "secret AVALON_KEY is not set" in capsys.readouterr().out
    assert server.request_count == 0


def test_workbook_games_run_locally(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "local.xlsx.dice-secret").write_text("the game's dice secret")
    write_new_workbook(rules.get("claims"), tmp_path / "games" / "local.xlsx",
                       example_state("claims", -1))
    toml = tmp_path / "games.toml"
    toml.write_text('[[game]]\nname = "local"\nfile = "games/local.xlsx"\nruleset = "claims"\n',
                    encoding="utf-8")
    assert main(["nightly", "--all", str(toml), "-q"]) == Exit.OK
    assert (tmp_path / "games" / "local-turn-2-report.md").exists()
    assert github_matrix(load_games(toml)) == {"include": []}  # never a workflow job


BAD_TOMLS = {
    "no games": ("", "lists no games"),
    "bad name": ('[[game]]\nname = "a b"\nsheet = "x"\nruleset = "claims"\n', "'name'"),
    "sheet and file": ('[[game]]\nname = "a"\nsheet = "x"\nfile = "y"\nruleset = "claims"\n',
                       "either 'sheet'"),
    "unknown ruleset": ('[[game]]\nname = "a"\nsheet = "x"\nruleset = "chess"\n',
                        "no ruleset named 'chess'"),
    "unknown key": ('[[game]]\nname = "a"\nsheet = "x"\nruleset = "claims"\nsheeet = 1\n',
                    "unknown key sheeet"),
    "unknown secret": ('[[game]]\nname = "a"\nsheet = "x"\nruleset = "claims"\n'
                       '[game.secrets]\naws = "AWS_KEY"\n', "no secret is called aws"),
    "secrets as a list": ('[[game]]\nname = "a"\nsheet = "x"\nruleset = "claims"\n'
                          'secrets = ["SHEETMASTER_DICE_SECRET"]\n', "must be a table"),
    "bad secret name": ('[[game]]\nname = "a"\nsheet = "x"\nruleset = "claims"\n'
                        '[game.secrets]\ndice = "GITHUB_TOKEN"\n', "GitHub secret's name"),
    "twice": ('[[game]]\nname = "a"\nsheet = "x"\nruleset = "claims"\n' * 2,
              "two games are named 'a'"),
    "not toml": ("[[game]\n", "not a readable TOML file"),
}


@pytest.mark.parametrize("case", BAD_TOMLS, ids=list(BAD_TOMLS))
def test_a_broken_games_toml_is_a_usage_error_saying_where(tmp_path, case, capsys):
    text, message = BAD_TOMLS[case]
    path = tmp_path / "games.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UsageError, match=message):
        load_games(path)
    assert main(["nightly", "--all", str(path)]) == Exit.USAGE
    assert message in capsys.readouterr().err


def test_the_example_games_of_the_game_repository_are_valid(tmp_path):
    path = tmp_path / "games.toml"
    path.write_text(example_games_toml(), encoding="utf-8")
    games = load_games(path)
    assert [g.name for g in games] == ["avalon", "isles"]
    assert games[1].environment == "isles" and games[0].environment == ""
    assert games[0].secret_name("dice") == "AVALON_DICE_SECRET"
    assert games[0].secret_name("google") == JSON_ENV  # the default: one key for all
    # a run of avalon reads its own secrets under the names sheetmaster reads
    env = games[0].environ({"AVALON_DICE_SECRET": "mine", SECRET_ENV: "everyone's",
                            JSON_ENV: "the key"})
    assert env[SECRET_ENV] == "mine" and env[JSON_ENV] == "the key"
    assert games[0].environ({SECRET_ENV: "everyone's"})[SECRET_ENV] == ""  # never another's
