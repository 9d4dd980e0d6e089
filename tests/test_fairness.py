"""Players cannot predict the dice, and anyone can check them afterwards (issue 12, point 1).

"The seed must be secret from players: it comes from a secret outside the sheet ... before the
deadline the sheet shows a commitment (a hash) of the turn's seed; after the resolve it shows
the seed, and `sheetmaster verify` lets any player check that the dice of the Log follow from
the revealed seed and the state. A blank secret is an error, never a fallback to the game's
name."
"""

from __future__ import annotations

import hashlib
import re
import shutil
import stat
from pathlib import Path

import openpyxl
import pytest

from sheetmaster.app.cli import main
from sheetmaster.app.exits import Exit
from sheetmaster.kit.dice import Dice, turn_seed
from sheetmaster.kit.fairness import SECRET_ENV, parse_dice_line, secret_path, turn_dice


@pytest.fixture(autouse=True)
def no_secret_in_the_environment(monkeypatch):
    monkeypatch.delenv(SECRET_ENV, raising=False)


def game_tab(path: Path) -> dict:
    return {r[0].value: r[1].value
            for r in openpyxl.load_workbook(path)["Game"].iter_rows(min_row=2)}


def log_lines(path: Path) -> list[tuple]:
    ws = openpyxl.load_workbook(path)["Log"]
    return [tuple(c.value for c in row) for row in ws.iter_rows(min_row=2)]


@pytest.fixture
def game(tmp_path) -> Path:
    path = tmp_path / "g.xlsx"
    assert main(["new", "claims", str(path), "--example"]) == 0
    return path


def test_the_workbook_players_get_does_not_let_them_roll_the_dice(game, tmp_path, capsys):
    assert "seed" not in game_tab(game)
    kept = secret_path(game)
    assert kept.exists() and stat.S_IMODE(kept.stat().st_mode) == 0o600
    copy = tmp_path / "players" / "copy.xlsx"  # what a player downloads: the workbook only
    copy.parent.mkdir()
    shutil.copy(game, copy)
    assert main(["resolve", str(copy), "--dry-run", "-q"]) == Exit.STORE
    err = capsys.readouterr().err
    assert "no dice secret" in err and "d6" not in err


@pytest.mark.parametrize("blank", ["", "   \n"])
def test_a_blank_secret_is_an_error_never_the_games_name(game, capsys, monkeypatch, blank):
    secret_path(game).write_text(blank)
    assert main(["resolve", str(game), "-q"]) == Exit.STORE
    assert "is blank" in capsys.readouterr().err
    monkeypatch.setenv(SECRET_ENV, "   ")  # an empty Actions secret reads as unset
    assert main(["resolve", str(game), "-q"]) == Exit.STORE
    assert game_tab(game)["turn"] == 2


def test_a_short_secret_is_refused(game, capsys):
    secret_path(game).write_text("hunter2")
    assert main(["resolve", str(game), "-q"]) == Exit.STORE
    assert "at least 12" in capsys.readouterr().err


def test_the_commitment_before_the_deadline_matches_the_seed_revealed_after(game):
    committed = game_tab(game)["dice commitment"]
    assert len(committed) == 64
    assert main(["resolve", str(game), "-q"]) == 0
    after = game_tab(game)
    seed, salt = int(after["last dice seed"]), after["last dice salt"]
    assert hashlib.sha256(f"sheetmaster dice 2 {seed} {salt}".encode()).hexdigest() == committed
    revealed = next(parse_dice_line(r[5]) for r in log_lines(game) if r[4] == "dice")
    assert (revealed.seed, revealed.commitment, revealed.published) == (seed, committed, True)
    assert after["dice commitment"] == revealed.next_commitment != committed
    rolls = [(int(r[6][1:]), r[7]) for r in log_lines(game) if r[6]]
    dice = Dice(seed)
    assert [dice.roll(sides, "", "") for sides, _ in rolls] == [v for _, v in rolls]


def test_a_secret_changed_after_the_commitment_stops_the_resolve(game, capsys):
    secret_path(game).write_text("a brand new secret the players never saw")
    assert main(["resolve", str(game), "-q"]) == Exit.SHEET_BROKEN
    err = capsys.readouterr().err
    assert "tab 'Game'" in err and "dice commitment" in err
    assert game_tab(game)["turn"] == 2


def test_verify_passes_on_a_fair_turn_and_replays_it(game, capsys):
    assert main(["resolve", str(game), "-q"]) == 0
    capsys.readouterr()
    assert main(["verify", str(game)]) == 0
    out = capsys.readouterr().out
    assert "FAILED" not in out and "verified" in out
    assert "follow from seed" in out and "same Log" in out and "same sheet" in out


def test_verify_catches_a_die_that_is_not_the_seeds(game, capsys):
    assert main(["resolve", str(game), "-q"]) == 0
    book = openpyxl.load_workbook(game)
    for row in book["Log"].iter_rows(min_row=2):
        if row[6].value:
            row[7].value = row[7].value % 6 + 1  # another face of the same d6
            break
    book.save(game)
    capsys.readouterr()
    assert main(["verify", str(game)]) == 1
    out = capsys.readouterr().out
    assert "FAILED draw 1" in out and "NOT verified" in out


def test_verify_catches_a_seed_that_is_not_the_committed_one(game, capsys):
    assert main(["resolve", str(game), "-q"]) == 0
    book = openpyxl.load_workbook(game)
    for row in book["Log"].iter_rows(min_row=2):
        if row[4].value == "dice":
            row[5].value = row[5].value.replace("dice seed ", "dice seed 1", 1)
    book.save(game)
    capsys.readouterr()
    assert main(["verify", str(game)]) == 1
    out = capsys.readouterr().out
    assert "NOT verified" in out
    assert re.search(r"FAILED +seed 1\d+ and salt [0-9a-f]+ hash to", out)  # not the Log's


def test_verify_checks_the_commitment_a_player_noted(game, capsys):
    noted = game_tab(game)["dice commitment"]
    assert main(["resolve", str(game), "-q"]) == 0
    assert main(["verify", str(game), "--commitment", noted]) == 0
    assert main(["verify", str(game), "--commitment", "0" * 64]) == 1


def test_resolve_out_keeps_the_secret_beside_the_new_file(game, tmp_path):
    out = tmp_path / "next.xlsx"
    assert main(["resolve", str(game), "--out", str(out), "-q"]) == 0
    assert secret_path(out).read_text().strip() == secret_path(game).read_text().strip()
    assert main(["resolve", str(out), "-q", "--force"]) == 0


def test_the_public_dice_keep_their_values_for_a_given_seed():
    """Golden files and example games depend on the d-N rolls of a seed never changing."""
    seed = turn_seed("example-seed", 2)
    assert seed == 12706689502907896106
    dice = Dice(seed)
    assert [dice.roll(s, "", "") for s in (6, 6, 10, 100, 3, 6, 20)] == [3, 4, 2, 42, 3, 3, 5]


def test_a_private_roll_is_neither_told_by_the_revealed_seed_nor_shifts_the_public_dice():
    """The seed is revealed so that anyone can replay the Log's (public) dice; a roll only one
    player may see (a Ninja's) must not follow from it, nor move the public dice after it."""
    from sheetmaster.kit.model import PRIVATE

    dice = Dice(turn_seed("a game's secret", 3), "the game's hidden key")
    first = dice.roll(6, "Amana", "a battle")
    hidden = [dice.roll(6, "Amana", "a Ninja", audience=PRIVATE) for _ in range(20)]
    then = dice.roll(6, "Amana", "another battle")
    replay = Dice(turn_seed("a game's secret", 3))  # what a player can do with the seed
    assert [replay.roll(6, "", "") for _ in range(2)] == [first, then]
    guess = Dice(turn_seed("a game's secret", 3))
    assert [guess.roll(6, "", "") for _ in range(21)][1:] != hidden


def test_a_turn_with_private_draws_is_verified_by_the_gm_and_not_guessed_by_players(
        tmp_path, capsys):
    """A Ninja's d6 is private: a player's verify replays the public dice and says the turn
    cannot be resolved again without the secret; the GM's (with it) does so in full."""
    from sheetmaster.rules.clans import RULESET
    from sheetmaster.stores.xlsx_layout import write_new_workbook
    from sheetmaster.testing.golden import load_case

    case = load_case(Path(__file__).parent / "golden" / "clans" /
                     "16-ninjas-strike-at-the-end-of-the-season.yaml")
    game, secret = tmp_path / "ninjas.xlsx", "the GM's dice secret for the ninjas"
    state = case.state()
    tab = state.tables["Game"]
    turn = int(tab.loc[tab["setting"] == "turn", "value"].iloc[0])
    tab.loc[tab["setting"] == "dice commitment", "value"] = turn_dice(secret, turn).commitment
    write_new_workbook(RULESET, game, state)
    secret_path(game).write_text(secret)
    assert main(["resolve", str(game), "-q", "--force"]) == 0
    capsys.readouterr()
    assert main(["verify", str(game)]) == 0
    assert "same sheet" in capsys.readouterr().out
    secret_path(game).rename(tmp_path / "elsewhere")  # a player's copy: no secret
    assert main(["verify", str(game)]) == 0
    out = capsys.readouterr().out
    assert "draws only some players may see" in out and "FAILED" not in out


def test_a_game_on_the_examples_public_secret_is_told_so(tmp_path, capsys):
    """An example's secret is in the code: a GM who turns the example into a real game must
    learn that its dice are anyone's to compute."""
    game = tmp_path / "example.xlsx"
    assert main(["new", "claims", str(game), "--example"]) == 0
    assert "public 'example-seed'" in capsys.readouterr().out
    assert main(["resolve", str(game), "--dry-run", "-q"]) == 0
    assert "rolls the example games' public dice" in capsys.readouterr().err
    fresh = tmp_path / "real.xlsx"
    assert main(["new", "claims", str(fresh)]) == 0
    assert "public" not in capsys.readouterr().out
    assert main(["check", str(fresh), "-q"]) == 0
    assert "public dice" not in capsys.readouterr().err
