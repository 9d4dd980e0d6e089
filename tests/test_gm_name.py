""""GM" is the GM's name: the GM's full report, webhook and decisions go by it, so no player
of any ruleset may take it, in any case or spacing (issue 24.9)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sheetmaster import rules
from sheetmaster.app.cli import main
from sheetmaster.app.exits import Exit
from sheetmaster.engine.builder import build_state, example_game
from sheetmaster.engine.turn import resolve
from sheetmaster.kit.schema import StateError
from sheetmaster.stores.xlsx_layout import write_new_workbook

RULESETS = sorted(name for name, r in rules.available().items() if r.example)


def renamed(ruleset_name: str, new: str):
    """The ruleset's example game with its first player renamed ``new`` wherever a cell
    names them (alone or in a list), and the example's dice secret."""
    ruleset = rules.get(ruleset_name)
    tables, orders, settings = example_game(ruleset)
    players = ruleset.players_table()
    old = tables[players.tab][0][players.key]

    word = re.compile(rf"(?<!\w){re.escape(old)}(?!\w)")

    def rename(rows):
        return [{k: word.sub(new, v) if isinstance(v, str) else v for k, v in row.items()}
                for row in rows]

    tables = {tab: rename(rows) for tab, rows in tables.items()}
    settings = dict(settings)
    secret = settings.pop("seed", "a test's dice secret")
    turn = 2 if any(r.get("turn") for r in tables.get("War results", [])) else 1
    state = build_state(ruleset, tables, rename(orders), turn=turn, settings=settings)
    return ruleset, state, players, secret


@pytest.mark.parametrize("ruleset_name", RULESETS)
@pytest.mark.parametrize("name", ["GM", "gm", " G m ", "g\u00a0M"])
def test_no_player_may_be_named_gm(ruleset_name, name):
    ruleset, state, players, secret = renamed(ruleset_name, name)
    with pytest.raises(StateError) as caught:
        resolve(ruleset, state, secret=secret)
    assert re.search(rf"tab '{players.tab}', row 2, column '{players.key}': .* is the GM's "
                     r"name, which no player may take", str(caught.value)), str(caught.value)


@pytest.mark.parametrize("ruleset_name", RULESETS)
def test_names_that_only_look_a_little_like_gm_are_players(ruleset_name):
    ruleset, state, _, secret = renamed(ruleset_name, "Gmork")
    try:
        resolve(ruleset, state, secret=secret)
    except StateError as exc:  # a sealed hand is sealed for its holder's name: not opened
        assert "GM's name" not in str(exc)


def test_a_workbook_with_a_player_named_gm_is_left_as_it_was(tmp_path: Path, capsys):
    ruleset, state, _, _ = renamed("claims", "gm")
    game = tmp_path / "g.xlsx"
    write_new_workbook(ruleset, game, state)
    (tmp_path / "g.xlsx.dice-secret").write_text("a test's dice secret")
    before = game.read_bytes()
    assert main(["resolve", str(game), "--no-map", "--force"]) == Exit.SHEET_BROKEN
    assert "is the GM's name" in capsys.readouterr().err
    assert game.read_bytes() == before
    assert not list(tmp_path.glob("*report*"))
