"""``sheetmaster settings FILE [--from OTHER.xlsx]`` (issue 29.6): a GM entering a game sees
every setting its ruleset declares and whether it is set, and fills the blanks from another
game of the same ruleset (the example's, say) without typing each one; a value the GM set is
never changed."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from sheetmaster.app.cli import main
from sheetmaster.app.exits import Exit


def game_tab(path: Path) -> dict:
    return {r[0].value: r[1].value
            for r in openpyxl.load_workbook(path)["Game"].iter_rows(min_row=2)}


@pytest.fixture
def games(tmp_path) -> tuple[Path, Path]:
    """A blank goldenage game (its withheld numbers blank) and the example (every one set)."""
    blank, example = tmp_path / "g.xlsx", tmp_path / "ex.xlsx"
    assert main(["new", "goldenage", str(blank), "-q"]) == 0
    assert main(["new", "goldenage", str(example), "--example", "-q"]) == 0
    return blank, example


def test_the_settings_show_which_are_blank(games, capsys):
    blank, _ = games
    capsys.readouterr()
    assert main(["settings", str(blank)]) == Exit.OK
    out = capsys.readouterr().out
    assert "land combat die" in out and "blank" in out
    assert "tab Settings:" in out and "blank cells:" in out


def test_from_fills_only_the_blanks_and_a_turn_then_needs_none(games, capsys, tmp_path):
    blank, example = games
    book = openpyxl.load_workbook(blank)
    for row in book["Game"].iter_rows(min_row=2):
        if row[0].value == "fort bonus":
            row[1].value = 9  # the GM's own number
    book.save(blank)
    capsys.readouterr()
    assert main(["settings", str(blank), "--from", str(example), "--dry-run"]) == Exit.OK
    assert "would fill" in capsys.readouterr().out
    assert game_tab(blank)["land combat die"] in (None, "")
    assert main(["settings", str(blank), "--from", str(example)]) == Exit.OK
    out = capsys.readouterr().out
    assert "Game: land combat die, value = 6" in out
    settings = game_tab(blank)
    assert settings["land combat die"] == game_tab(example)["land combat die"]
    assert settings["fort bonus"] == 9
    capsys.readouterr()
    assert main(["settings", str(blank)]) == Exit.OK
    rows = capsys.readouterr().out.splitlines()
    assert [r for r in rows if " blank " in r and "blank cells" not in r] == []
    assert main(["settings", str(blank), "--from", str(example)]) == Exit.OK
    assert "filled 0 blank cells" in capsys.readouterr().out


def test_from_a_game_of_another_ruleset_is_refused(games, tmp_path, capsys):
    blank, _ = games
    claims = tmp_path / "claims.xlsx"
    assert main(["new", "claims", str(claims), "-q"]) == 0
    assert main(["settings", str(blank), "--from", str(claims)]) == Exit.USAGE
    assert "plays by 'claims'" in capsys.readouterr().err
