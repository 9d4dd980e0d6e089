"""``verify`` holds the GM to the committed dice, and never accuses a fair one.

The GM cannot choose the dice: once a turn's commitment is published, ``resolve --seed`` is
refused (a dry run may practise with a seed, and says its dice are not the turn's), and a
player's ``verify`` fails a turn whose dice are not the committed seed's: its Log's dice line
missing or doubled, a commitment replaced in the Game tab before or after the turn. A fair
GM's turns always verify: every example game, resolved turn after turn, as a player and as
the GM (numbers in the sheet compare by value: a workbook reads 170 back as 170.0).
"""

from __future__ import annotations

import json
import shutil
from decimal import Decimal
from pathlib import Path

import openpyxl
import pytest

from sheetmaster import rules
from sheetmaster.app.cli import main
from sheetmaster.app.exits import Exit
from sheetmaster.app.runs import Mode, ruleset_of, run_turn
from sheetmaster.app.verify import same_cell, verify_turn
from sheetmaster.engine.turn import resolve
from sheetmaster.kit.fairness import SECRET_ENV, read_secret, secret_path, turn_dice
from sheetmaster.kit.tabs import game_settings
from sheetmaster.stores.xlsx import XlsxStore, backup_path


@pytest.fixture(autouse=True)
def no_secret_in_the_environment(monkeypatch):
    monkeypatch.delenv(SECRET_ENV, raising=False)


@pytest.fixture
def game(tmp_path) -> Path:
    """The claims example, turn 2, its commitment published by ``new``."""
    path = tmp_path / "g.xlsx"
    assert main(["new", "claims", str(path), "--example", "-q"]) == 0
    return path


def game_tab(path: Path) -> dict:
    return {r[0].value: r[1].value
            for r in openpyxl.load_workbook(path)["Game"].iter_rows(min_row=2)}


def set_setting(path: Path, setting: str, value: object) -> None:
    """A GM's edit of the Game tab, in a spreadsheet program."""
    book = openpyxl.load_workbook(path)
    for row in book["Game"].iter_rows(min_row=2):
        if row[0].value == setting:
            row[1].value = value
    book.save(path)


def edit_dice_line(path: Path, turn: int, how: str) -> None:
    """A GM's edit of the turn's dice line in the Log: removed, or written twice."""
    book = openpyxl.load_workbook(path)
    log = book["Log"]
    row = next(r for r in log.iter_rows(min_row=2) if r[0].value == turn
               and r[4].value == "dice")
    if how == "removed":
        log.delete_rows(row[0].row)
    else:
        log.append([c.value for c in row])
    book.save(path)


def players_copy(game: Path, tmp_path: Path) -> Path:
    """What a player holds: the shared workbook, without the GM's dice secret."""
    copy = tmp_path / "player" / game.name
    copy.parent.mkdir(exist_ok=True)
    shutil.copy(game, copy)
    return copy


def verify_as_player(game: Path, tmp_path: Path, capsys, *args: str) -> tuple[int, str]:
    copy = players_copy(game, tmp_path)
    turn = game_tab(game)["turn"] - 1
    capsys.readouterr()
    code = main(["verify", str(copy), "--before", str(backup_path(game, turn)), *args])
    return code, capsys.readouterr().out


# -- point 3: the GM cannot choose the dice -----------------------------------------------------


def test_resolve_refuses_a_seed_once_the_turns_commitment_is_published(game, capsys):
    assert main(["resolve", str(game), "-q"]) == 0
    kept = game.read_bytes()
    capsys.readouterr()
    assert main(["resolve", str(game), "--seed", "3", "--force"]) == Exit.USAGE
    err = capsys.readouterr().err
    assert "--seed 3" in err and "turn 3's dice commitment" in err
    assert game_tab(game)["dice commitment"] in err
    assert game.read_bytes() == kept  # nothing written


def test_a_dry_run_may_practise_with_a_seed_and_says_its_dice_are_not_the_turns(game, capsys):
    assert main(["resolve", str(game), "-q"]) == 0
    kept = game.read_bytes()
    capsys.readouterr()
    assert main(["resolve", str(game), "--dry-run", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "practice dice from --seed 3, not the turn's own" in out and "dice seed 3" in out
    assert main(["resolve", str(game), "--dry-run", "--seed", "3", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["practice_dice"] is True and document["seed"] == 3
    assert game.read_bytes() == kept


@pytest.mark.parametrize("how", ["commitment cleared, then --seed",
                                 "the engine run with a seed of the GM's code"])
def test_a_turn_resolved_with_a_chosen_seed_is_not_verified(game, tmp_path, capsys, how):
    """The issue's attack: after turn 2's resolve published turn 3's commitment, the GM
    resolves turn 3 with a seed of its choosing; a player's verify fails it."""
    assert main(["resolve", str(game), "-q"]) == 0
    published = game_tab(game)["dice commitment"]
    if how.startswith("commitment cleared"):  # the only way past resolve's refusal
        set_setting(game, "dice commitment", None)
        assert main(["resolve", str(game), "--seed", "3", "--force", "-q"]) == 0
    else:  # what the CLI refuses, a GM's own code can still do
        store = XlsxStore(game)
        state = store.load()
        ruleset = ruleset_of(state)
        store.save(ruleset, resolve(ruleset, state, seed=3))
    code, out = verify_as_player(game, tmp_path, capsys)
    assert code == 1 and "NOT verified" in out
    assert "FAILED the Log has no 'dice' line for turn 3" in out
    assert "seed 3" in out
    assert f"FAILED the Log of turn 2 published the commitment {published}" in out


@pytest.mark.parametrize("how", ["removed", "doubled"])
def test_a_dice_line_removed_or_added_is_not_verified(game, tmp_path, capsys, how):
    assert main(["resolve", str(game), "-q"]) == 0
    edit_dice_line(game, 2, how)
    code, out = verify_as_player(game, tmp_path, capsys)
    assert code == 1 and "NOT verified" in out
    assert ("no 'dice' line for turn 2" if how == "removed" else
            "2 'dice' lines for turn 2") in out
    assert "FAILED the Game tab before the turn published the commitment" in out


def test_a_commitment_replaced_before_the_turn_is_not_verified(game, tmp_path, capsys):
    """The GM, after turn 2 published turn 3's commitment, takes a new secret (one whose
    dice it likes) and writes that secret's commitment into the Game tab: the resolve
    accepts it, but the Log of turn 2 published another."""
    assert main(["resolve", str(game), "-q"]) == 0
    published = game_tab(game)["dice commitment"]
    chosen = "a secret the GM picked after trying several"
    secret_path(game).write_text(chosen)
    set_setting(game, "dice commitment", turn_dice(chosen, 3).commitment)
    assert main(["resolve", str(game), "-q", "--force"]) == 0
    code, out = verify_as_player(game, tmp_path, capsys)
    assert code == 1 and f"FAILED the Log of turn 2 published {published}" in out


def test_a_commitment_replaced_after_the_turn_is_not_verified(game, tmp_path, capsys):
    assert main(["resolve", str(game), "-q"]) == 0
    logged = game_tab(game)["dice commitment"]
    set_setting(game, "dice commitment", turn_dice("another secret, another day", 3).commitment)
    code, out = verify_as_player(game, tmp_path, capsys)
    assert code == 1 and f"but the Log published {logged}" in out
    set_setting(game, "dice commitment", None)  # cleared (after a leak): said, not failed
    code, out = verify_as_player(game, tmp_path, capsys)
    assert code == 0 and "the Game tab shows no commitment to turn 3's dice" in out


def test_a_turn_without_any_published_commitment_is_said_so_and_not_failed(
        game, tmp_path, capsys):
    """An old game's first turn with committed dice (or the first after a new secret):
    nothing was published, so nothing can be compared; verify says so, and passes."""
    set_setting(game, "dice commitment", None)
    assert main(["resolve", str(game), "-q"]) == 0
    code, out = verify_as_player(game, tmp_path, capsys)
    assert code == 0, out
    assert "--     no commitment to turn 2's dice was published before its deadline" in out
    assert "verified, but without a commitment" in out
    code, out = verify_as_player(game, tmp_path, capsys, "--commitment", "0" * 64)
    assert code == 1 and f"FAILED the commitment you noted published {'0' * 64}" in out


def test_the_turn_line_must_name_the_revealed_seed(game, tmp_path, capsys):
    assert main(["resolve", str(game), "-q"]) == 0
    book = openpyxl.load_workbook(game)
    for row in book["Log"].iter_rows(min_row=2):
        if row[4].value == "turn":
            row[5].value = row[5].value.replace("dice seed ", "dice seed 9")
    book.save(game)
    copy = players_copy(game, tmp_path)
    capsys.readouterr()
    assert main(["verify", str(copy)]) == 1  # the Log alone, no state before the turn
    assert "FAILED the Log's turn line names dice seed 9" in capsys.readouterr().out


# -- point 4: a fair GM is never accused ------------------------------------------------------


@pytest.mark.parametrize(("was", "value", "same"), [
    (170.0, 170, True), (Decimal("170.0"), 170, True), (Decimal("0.1"), 0.1, True),
    (0.1, Decimal("0.1000001"), False), (170.5, 170, False), (True, 1, False),
    ("170", 170, True), ("Avalon", "Avalon", True), ("Avalon", "Bretagne", False),
    (None, "", True), (float("nan"), "", True), (None, 0, False),
])
def test_cells_compare_numbers_by_value_and_text_as_text(was, value, same):
    assert same_cell(was, value) is same


EXAMPLES = sorted(name for name, r in rules.available().items() if r.example is not None)


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_example_game_verifies_every_turn_for_eight_turns(name, tmp_path, capsys):
    """``new NAME --example``, then 8 resolves, each verified by the GM (``verify
    GAME.xlsx``, the secret beside it: every turn resolved again, hidden draws too) and by a
    player (no secret: every public die, and the turn again where no secret is needed)."""
    path = tmp_path / f"{name}.xlsx"
    assert main(["new", name, str(path), "--example", "-q"]) == 0
    secret = read_secret(path)
    for _ in range(8):
        assert run_turn(XlsxStore(path), Mode.RESOLVE, force=True, secret=secret).written
        capsys.readouterr()
        assert main(["verify", str(path)]) == 0, capsys.readouterr().out
        out = capsys.readouterr().out
        assert "--" not in out.replace("--commitment", "") and "same sheet" in out, out
        state = XlsxStore(path).load()
        turn = game_settings(state)["turn"] - 1
        before = XlsxStore(backup_path(path, turn)).load()
        player = verify_turn(state, before=before, before_from="the backup")
        assert not player.failed and player.committed, "\n".join(player.lines())
        assert any(passed and "follow from seed" in text for passed, text in player.checks)
