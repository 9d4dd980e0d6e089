"""The sheetmaster command as a GM uses it."""

from __future__ import annotations

import hashlib
from pathlib import Path

import openpyxl
import pytest

from sheetmaster.app.cli import main


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_help_reads_well(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    for command in ("new", "check", "resolve"):
        assert command in out


def test_new_blank_workbook_has_every_tab_and_dropdowns(tmp_path):
    path = tmp_path / "my-game.xlsx"
    assert main(["new", "claims", str(path)]) == 0
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["How to write orders", "Game", "Orders", "Territories",
                               "Players", "Wars", "War results", "Log"]
    orders = book["Orders"]
    header = [c.value for c in orders[1]]
    assert header[:3] == ["turn", "player", "order"]
    assert header[-2:] == ["result", "reason"]
    assert orders.freeze_panes == "A2"
    formulas = [dv.formula1 for dv in orders.data_validations.dataValidation]
    assert any("claim war territory" in f for f in formulas)
    assert any("Players" in f for f in formulas)
    howto = [c.value for c in book["How to write orders"]["A"] if c.value]
    assert "build armies" in howto
    game = {r[0].value: r[1].value for r in book["Game"].iter_rows(min_row=2)}
    assert game["ruleset"] == "claims" and game["turn"] == 1 and game["dice commitment"]
    assert "seed" not in game  # the dice secret is never in the workbook players get


def test_new_refuses_to_overwrite(tmp_path, capsys):
    path = tmp_path / "g.xlsx"
    main(["new", "claims", str(path)])
    assert main(["new", "claims", str(path)]) == 2
    assert "already exists" in capsys.readouterr().err


def test_a_blank_game_resolves(tmp_path):
    path = tmp_path / "g.xlsx"
    main(["new", "claims", str(path)])
    assert main(["resolve", str(path), "-q"]) == 0


def test_check_fills_results_without_resolving(tmp_path, capsys):
    path = tmp_path / "g.xlsx"
    main(["new", "claims", str(path), "--example"])
    assert main(["check", str(path), "-q"]) == 1
    book = openpyxl.load_workbook(path)
    game = {r[0].value: r[1].value for r in book["Game"].iter_rows(min_row=2)}
    assert game["turn"] == 2
    orders = book["Orders"]
    header = [c.value for c in orders[1]]
    results = {r[header.index("result")].value for r in orders.iter_rows(min_row=2)}
    assert results == {"ok", "would be rejected"}
    assert book["Log"].max_row == 1
    assert "would be rejected" in capsys.readouterr().out


def test_dry_run_writes_nothing_and_shows_the_diff(tmp_path, capsys):
    path = tmp_path / "g.xlsx"
    main(["new", "claims", str(path), "--example"])
    before = digest(path)
    assert main(["resolve", str(path), "--dry-run", "-q"]) == 0
    assert digest(path) == before
    out = capsys.readouterr().out
    assert "== Avalon ==" in out
    assert "Territories!owner" in out
    assert "why: [A] claimed Ys" in out
    assert not list(tmp_path.glob("*.md"))


def test_resolve_writes_turn_report_and_backup(tmp_path, capsys):
    path = tmp_path / "g.xlsx"
    main(["new", "claims", str(path), "--example"])
    assert main(["resolve", str(path), "-q"]) == 0
    report = (tmp_path / "g-turn-2-report.md").read_text()
    assert "## Avalon" in report and "Territories gained: Ys" in report
    assert "d6 for war" in report
    assert (tmp_path / "g.xlsx.backups" / "before-turn-2.xlsx").exists()


def test_broken_state_stops_before_writing(tmp_path, capsys):
    path = tmp_path / "g.xlsx"
    main(["new", "claims", str(path), "--example"])
    book = openpyxl.load_workbook(path)
    book["Players"]["B3"] = "ten"
    book["Territories"]["E2"] = "Lyonesse, Atlantis"
    book.save(path)
    before = digest(path)
    assert main(["resolve", str(path), "-q"]) == 3
    err = capsys.readouterr().err
    assert "tab 'Players', row 3, column 'gold'" in err
    assert "tab 'Territories', row 2, column 'borders'" in err and "Atlantis" in err
    assert digest(path) == before


def test_renamed_column_is_named_in_the_error(tmp_path, capsys):
    path = tmp_path / "g.xlsx"
    main(["new", "claims", str(path), "--example"])
    book = openpyxl.load_workbook(path)
    book["Players"]["I1"] = "army count"
    book.save(path)
    assert main(["resolve", str(path), "-q"]) == 3
    err = capsys.readouterr().err
    assert "tab 'Players', row 1, column 'armies'" in err and "army count" in err


def set_game(path: Path, **settings) -> None:
    """Set Game tab values, as a GM would in a spreadsheet program."""
    book = openpyxl.load_workbook(path)
    for row in book["Game"].iter_rows(min_row=2):
        key = row[0].value.replace(" ", "_").replace("(", "").replace(")", "")
        if key in settings:
            row[1].value = settings[key]
    book.save(path)


def test_deadline_in_the_future_waits_unless_forced(tmp_path, capsys):
    path = tmp_path / "g.xlsx"
    main(["new", "claims", str(path), "--example"])
    set_game(path, deadline="2999-01-01 23:59")
    assert main(["resolve", str(path), "-q"]) == 4
    assert "deadline" in capsys.readouterr().err
    assert main(["resolve", str(path), "-q", "--force"]) == 0


def test_deadline_moves_on_by_the_turn_length(tmp_path):
    from datetime import datetime, timedelta
    from zoneinfo import ZoneInfo

    path = tmp_path / "g.xlsx"
    main(["new", "claims", str(path), "--example"])
    zone = ZoneInfo("America/New_York")  # the example game's time zone
    deadline = (datetime.now(zone) - timedelta(hours=1)).replace(second=0, microsecond=0)
    set_game(path, deadline=f"{deadline:%Y-%m-%d %H:%M}", turn_length_hours=24)
    assert main(["resolve", str(path), "-q"]) == 0
    game = {r[0].value: r[1].value
            for r in openpyxl.load_workbook(path)["Game"].iter_rows(min_row=2)}
    assert game["deadline"] == f"{deadline + timedelta(hours=24):%Y-%m-%d %H:%M}"


def test_eight_turns_in_a_row(tmp_path):
    path = tmp_path / "g.xlsx"
    main(["new", "claims", str(path), "--example"])
    for _ in range(8):
        assert main(["resolve", str(path), "-q"]) == 0
    game = {r[0].value: r[1].value
            for r in openpyxl.load_workbook(path)["Game"].iter_rows(min_row=2)}
    assert game["turn"] == 10


def test_rules_lists_claims(capsys):
    assert main(["rules", "-v"]) == 0
    out = capsys.readouterr().out
    assert "claims" in out and "A. Grab war territory" in out


def test_golden_captures_a_real_turn_as_a_passing_case(tmp_path):
    from sheetmaster.testing.golden import load_case, run_case

    game = tmp_path / "g.xlsx"
    main(["new", "claims", str(game), "--example"])
    case_dir = tmp_path / "claims"
    case_dir.mkdir()
    case = case_dir / "captured.yaml"
    rule = "For the benefit of all players, the order in which things are resolved is:"
    assert main(["golden", str(game), "--out", str(case), "--rule", rule]) == 0
    loaded = load_case(case)
    assert loaded.data["rule"] == rule and loaded.data["dice"]
    run_case(loaded)


def test_golden_captures_the_game_settings_and_the_timers(tmp_path):
    """A ruleset whose settings have no default, and whose state lasts in the Timers tab,
    replays from its captured case alone."""
    from sheetmaster.testing.golden import load_case, run_case

    game = tmp_path / "g.xlsx"
    main(["new", "goldenage", str(game), "--example"])
    case_dir = tmp_path / "goldenage"
    case_dir.mkdir()
    case = case_dir / "captured.yaml"
    assert main(["golden", str(game), "--out", str(case), "--rule", "Process of Turn "
                 "Resolution: the following occurs in order"]) == 0
    loaded = load_case(case)
    assert loaded.data["settings"]["land combat die"] == 6
    assert [r["timer"] for r in loaded.data["tables"]["Timers"]][:2] == ["T1", "T2"]
    run_case(loaded)


def test_sheetmaster_is_a_regular_package_that_installs():
    """A namespace package would be left out of `pip install .` and the command would fail."""
    import importlib.util

    import sheetmaster

    spec = importlib.util.find_spec("sheetmaster")
    assert spec is not None and spec.origin and spec.origin.endswith("__init__.py")
    assert callable(sheetmaster.resolve) and "resolve" in sheetmaster.__all__


def test_undo_from_the_command_line(tmp_path, capsys):
    path = tmp_path / "g.xlsx"
    main(["new", "claims", str(path), "--example"])
    before = digest(path)
    assert main(["resolve", str(path), "-q"]) == 0
    assert main(["undo", str(path)]) == 0
    assert "back on turn 2" in capsys.readouterr().out
    assert digest(path) == before


def test_new_on_a_later_turn_publishes_that_turns_commitment(tmp_path, capsys):
    from sheetmaster.kit import fairness

    path = tmp_path / "running.xlsx"
    assert main(["new", "claims", str(path), "--turn", "7"]) == 0
    game = {r[0]: r[1] for r in openpyxl.load_workbook(path)["Game"].iter_rows(values_only=True)}
    secret = fairness.secret_path(path).read_text().strip()
    assert game["turn"] == 7
    assert game["dice commitment"] == fairness.turn_dice(secret, 7).commitment
    assert main(["new", "claims", str(tmp_path / "x.xlsx"), "--turn", "0"]) == 2
    assert main(["new", "claims", str(tmp_path / "y.xlsx"), "--turn", "3", "--example"]) == 2
    assert "first turn is 1" in capsys.readouterr().err
