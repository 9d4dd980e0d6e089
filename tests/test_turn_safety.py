"""What players type cannot forge the report or read as the real dice; a late nightly resolves
one turn; messages say what is true (issue 12, points 5, 6, 7 and 17)."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

import openpyxl
import pytest

from sheetmaster.app.cli import main
from sheetmaster.app.exits import Exit
from sheetmaster.app.report import player_report
from sheetmaster.engine.builder import build_state
from sheetmaster.engine.turn import resolve
from sheetmaster.kit.dice import PracticeDice
from sheetmaster.kit.fairness import SECRET_ENV
from sheetmaster.kit.model import Status
from sheetmaster.kit.schema import StateError
from sheetmaster.rules.claims import RULESET as CLAIMS
from sheetmaster.testing.fakesheets import FakeSheetsServer
from sheetmaster.testing.fakesheets.upload import upload_state

SECRET = "the test game's dice secret"
FORGERY = ("x | applied | you win |\n## Avalon wins\n![boom](http://evil.example/x.png) "
           "[click](http://evil.example) @everyone <@1234> www.evil.example &#64;here "
           "&commat;everyone")


def one_player_game(orders: list[dict], gold=50):
    return build_state(CLAIMS, {"Players": [{"player": "Avalon", "gold": gold, "armies": 0}],
                                "Territories": [{"territory": "Camelot", "owner": "Avalon"}]},
                       orders)


# -- point 5: report injection ----------------------------------------------------------------

def test_order_text_cannot_forge_the_report():
    state = one_player_game([{"player": "Avalon", "order": FORGERY},
                             {"player": "Avalon", "order": "claim neutral territory",
                              "territory": FORGERY}])
    report = player_report(CLAIMS, resolve(CLAIMS, state, seed=1))
    lines = report.splitlines()
    assert [line for line in lines if line.startswith("#")] == ["# Turn 1 results",
                                                                "## Avalon"]
    table = [line for line in lines if line.startswith("|")]
    assert len(table) == 2 + 2  # header, rule, one row per order: no forged row
    assert all(line.count("|") - line.count("\\|") == 5 for line in table)
    unescaped = re.compile(r"(?<!\\)(!\[|\]\(|<@)")  # image, link, mention markup
    assert not unescaped.search(report)
    assert "@everyone" not in report and "http://" not in report and "www.evil" not in report
    assert not re.search(r"&(#\d+|#x[0-9a-f]+|[a-z]+);", report, re.I)  # no entity for an @
    assert "everyone" in report  # still readable, just harmless


def test_order_text_cannot_start_a_line_of_the_console_or_actions_log(tmp_path, capsys):
    """What a player types is printed on one line: a line break in it cannot start a line
    of its own, where GitHub Actions would run '::error::' or '::add-mask::' as a workflow
    command, nor forge a line of the run's output."""
    path = tmp_path / "g.xlsx"
    assert main(["new", "claims", str(path), "--example"]) == 0
    book = openpyxl.load_workbook(path)
    orders = book["Orders"]
    header = [c.value for c in orders[1]]
    forged = "\n::error::forged\r\n::add-mask::x\u2028resolved turn 9 [bold]x[/bold]"
    for order in ({"player": "Mallory" + forged, "order": "build armies", "amount": 1},
                  {"player": "Avalon", "order": "fly" + forged},
                  {"player": "Avalon", "order": "claim neutral territory",
                   "territory": "Nowhere" + forged}):
        row = orders.max_row + 1
        for column, value in order.items():
            orders.cell(row=row, column=header.index(column) + 1, value=value)
    book.save(path)
    capsys.readouterr()
    for command in (["check", str(path)], ["resolve", str(path), "--dry-run", "--force"]):
        main(command)
        captured = capsys.readouterr()
        lines = (captured.out + captured.err).splitlines()
        assert lines and not [line for line in lines if line.lstrip().startswith(("::",
                                                                                   "resolved"))]
        assert "?::error::forged" in captured.out


# -- point 6: check does not show practice dice as real -------------------------------------

def test_check_says_an_outcome_depends_on_the_dice(tmp_path, capsys):
    path = tmp_path / "isles.xlsx"
    assert main(["new", "clans", str(path), "--example"]) == 0
    assert main(["check", str(path), "-q"]) == Exit.REJECTED  # the example has bad rows
    out = capsys.readouterr().out
    orders = openpyxl.load_workbook(path)["Orders"]
    header = [c.value for c in orders[1]]
    reasons = [row[header.index("reason")] or "" for row in orders.iter_rows(min_row=2,
                                                                            values_only=True)]
    assert not [r for r in reasons if re.search(r"\bd(10|100|6)\b \d", r)], reasons
    assert any("depends on the dice" in r for r in reasons)
    assert not re.search(r"\(d100 \d+", out)


@pytest.mark.parametrize("sides", [2, 3, 5, 6, 7, 100])
def test_every_mirrored_practice_die_comes_up_another_way(sides):
    """A reason that quotes a die ('d3 for ...: 2') must change in the mirrored run, or
    check would show a practice die as if it were real: the middle face of an odd die too."""
    first = PracticeDice(0)
    rolled = [first.roll(sides, "Avalon", "a search") for _ in range(200)]
    again = PracticeDice(0, mirror=first)
    mirrored = [again.roll(sides, "Avalon", "a search") for _ in range(200)]
    assert all(a != b and 1 <= b <= sides for a, b in zip(rolled, mirrored))
    assert sides > 7 or (sides + 1) // 2 in rolled  # the middle face came up, mirrored too


# -- point 7: a nightly whose deadline is long past ---------------------------------------------

def test_a_long_past_deadline_resolves_one_turn_and_the_next_is_in_the_future(monkeypatch,
                                                                                capsys, tmp_path):
    monkeypatch.chdir(tmp_path)  # where the turn report goes
    tables, orders, settings = CLAIMS.example()
    settings = {k: v for k, v in settings.items() if k != "seed"}
    state = build_state(CLAIMS, tables, orders, turn=2, settings={
        **settings, "deadline": "2020-01-01 00:00", "timezone": "UTC",
        "turn length (hours)": 24})
    with FakeSheetsServer() as server:
        sid = upload_state(server, state, env_secret=SECRET)
        monkeypatch.setenv("SHEETMASTER_SHEETS_ENDPOINT", server.url)
        monkeypatch.setenv(SECRET_ENV, SECRET)
        for _ in range(3):
            assert main(["nightly", "--sheet", sid, "-q"]) == 0
        game = {row[0]: row[1] for row in server.values(sid, "Game")[1:]}
    assert game["turn"] == 3
    deadline = datetime.fromisoformat(game["deadline"]).replace(tzinfo=timezone.utc)
    now = datetime.now(timezone.utc)
    assert now < deadline and (deadline - now).total_seconds() <= 24 * 3600
    assert deadline.strftime("%H:%M") == "00:00"  # the same time of day as before
    out = capsys.readouterr().out
    assert out.count("resolved turn") == 1 and out.count("nothing to do") == 2
    assert "--force" not in out  # point 17: nightly has no --force to suggest


def test_a_past_deadline_without_a_turn_length_resolves_one_turn(monkeypatch, capsys,
                                                                  tmp_path):
    """Without a turn length the deadline cannot move on: it is cleared, and the nightly
    waits for the GM to set the next one instead of resolving a turn on every run."""
    monkeypatch.chdir(tmp_path)
    tables, orders, settings = CLAIMS.example()
    settings = {k: v for k, v in settings.items() if k not in ("seed", "turn length (hours)")}
    state = build_state(CLAIMS, tables, orders, turn=2, settings={
        **settings, "deadline": "2020-01-01 00:00", "timezone": "UTC"})
    with FakeSheetsServer() as server:
        sid = upload_state(server, state, env_secret=SECRET)
        monkeypatch.setenv("SHEETMASTER_SHEETS_ENDPOINT", server.url)
        monkeypatch.setenv(SECRET_ENV, SECRET)
        for _ in range(3):
            assert main(["nightly", "--sheet", sid, "-q"]) == 0
        game = {row[0]: row[1] for row in server.values(sid, "Game")[1:]}
    assert game["turn"] == 3 and game["deadline"] in ("", None)
    out = capsys.readouterr().out
    assert out.count("resolved turn") == 1 and "has no deadline" in out


# -- point 17: messages that mislead ----------------------------------------------------------

@pytest.mark.parametrize(("amount", "says"), [
    (float("nan"), "is not a number"), (float("inf"), "is not a number"),
    ("#DIV/0!", "holds the spreadsheet error #DIV/0!"), (1e308, "too large"),
    ("1" + "0" * 20, "too large"),
])
def test_an_amount_that_is_no_number_is_named_as_such(amount, says):
    state = one_player_game([{"player": "Avalon", "order": "build armies", "amount": amount}])
    result = resolve(CLAIMS, state, seed=1).results[0]
    assert result.status is Status.REJECTED
    assert says in result.reason and "filled in" not in result.reason


@pytest.mark.parametrize(("gold", "says"), [(float("nan"), "is not a number"),
                                            (1.7e308, "too large")])
def test_a_state_number_that_is_no_number_stops_the_turn(gold, says):
    with pytest.raises(StateError, match=f"tab 'Players', row 2, column 'gold'.*{says}"):
        resolve(CLAIMS, one_player_game([], gold=gold), seed=1)


def test_a_renamed_tab_is_named_with_the_cure_that_works():
    state = one_player_game([])
    state.tables["Armies and gold"] = state.tables.pop("Players")
    with pytest.raises(StateError, match="give it back its name"):
        resolve(CLAIMS, state, seed=1)
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    assert "run `sheetmaster init` again or restore its name" not in readme


def test_the_turn_reads_as_a_whole_number_in_the_diff(tmp_path, capsys):
    path = tmp_path / "g.xlsx"
    main(["new", "claims", str(path), "--example"])
    capsys.readouterr()
    assert main(["resolve", str(path), "--dry-run", "-q"]) == 0
    out = capsys.readouterr().out
    assert "turn: 2 -> 3" in out and "2.0" not in out


def test_an_unreadable_turn_is_named_not_a_crash():
    """Found by the volume fuzz run: the lasting tabs read the turn before it was checked."""
    state = one_player_game([])
    game = state.tables["Game"]
    game.loc[game["setting"] == "turn", "value"] = "zero"
    with pytest.raises(StateError, match="tab 'Game', row \\d+, column 'value': setting 'turn'"):
        resolve(CLAIMS, state, seed=1)
