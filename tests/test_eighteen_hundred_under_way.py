"""1800 entered mid-game (issue 29.9): a clause of 0 means nothing, a technology may require a
tier, plain card names typed into the Hands tab are sealed, a deck may be dealt in the GM's
order, and a nation at war with no war actions is warned of in ``check``."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from sheetmaster import rules
from sheetmaster.app.cli import main
from sheetmaster.engine.builder import build_state, example_game
from sheetmaster.engine.turn import resolve
from sheetmaster.kit import BadValue
from sheetmaster.kit.fairness import (
    EXAMPLE_SECRET,
    hidden_key,
    secret_path,
    turn_dice,
    write_secret,
)
from sheetmaster.kit.model import GameState
from sheetmaster.kit.schema import StateError
from sheetmaster.kit.sealed import unseal
from sheetmaster.rules.eighteen_hundred import data as vocabulary
from sheetmaster.rules.eighteen_hundred.load import _needs
from sheetmaster.stores.xlsx_layout import write_new_workbook
from sheetmaster.testing import walkthrough
from sheetmaster.testing.golden import load_case


@pytest.mark.parametrize("cell, table, deck, read", [
    ("food 0", vocabulary.STATIC, "development", ()),
    ("food 0; production 2", vocabulary.STATIC, "development",
     (vocabulary.Effect("production", 2),)),
    ("battle bonus 0 attack", vocabulary.STATIC, "military", ()),
    ("draw admin 0; prosperity 1", vocabulary.REWARDS, "admin",
     (vocabulary.Effect("prosperity", 1),)),
    ("points per factory 0", vocabulary.STATIC, "ambition", ()),
    ("discard admin 0", vocabulary.COSTS, "development", ()),
])
def test_a_clause_of_0_means_nothing(cell, table, deck, read):
    assert vocabulary.parse_clauses(cell, table, deck) == read


@pytest.mark.parametrize("cell, table, deck, problem", [
    ("draw admin -1", vocabulary.REWARDS, "admin", "0 or more"),
    ("battle bonus 0 sideways", vocabulary.STATIC, "military", "takes"),
    ("food 0", vocabulary.STATIC, "admin", "not admin cards"),
    ("great war 0", vocabulary.STATIC, "global event", "takes no number"),
])
def test_a_clause_of_0_is_still_checked(cell, table, deck, problem):
    with pytest.raises(BadValue, match=problem):
        vocabulary.parse_clauses(cell, table, deck)


def test_needs_of_0_mean_nothing():
    assert _needs("production 0; food 1") == {"food": 1}
    assert _needs("production 0") is None  # as if the cell were blank: every slot full
    with pytest.raises(BadValue):
        _needs("production -1")


# -- the Hands tab typed by a GM ---------------------------------------------------------------

RULES = rules.get("eighteen_hundred")


def example() -> tuple[dict, list, dict]:
    """The example game after its setup (ambitions dealt and sealed), its secret out of the
    sheet."""
    tables, orders, settings = example_game(RULES)
    return tables, orders, {k: v for k, v in settings.items() if k != "seed"}


def test_plain_card_names_a_gm_types_into_the_hands_tab_are_sealed_by_the_next_run():
    tables, orders, settings = example()
    typed = [{"nation": "France", "pile": "admin", "slot": "A7", "card": "land reform"},
             {"nation": "Prussia", "pile": "military", "card": "Entrenchment"},
             {"nation": "Prussia", "pile": "admin", "card": "Propaganda"}]
    tables = dict(tables, Hands=[*tables["Hands"], *typed])
    result = resolve(RULES, build_state(RULES, tables, orders, settings=settings),
                     secret=EXAMPLE_SECRET)
    rows = result.after.tables["Hands"].to_dict("records")
    assert all(r["card"].startswith("sealed:") for r in rows)
    key = hidden_key(EXAMPLE_SECRET)
    opened = {(r["nation"], r["pile"], r["slot"]): unseal(
        key, r["card"], f"{r['nation']} / {r['pile']} / {r['slot']}") for r in rows}
    # a blank slot gets its pile's next one; a typed name is the catalogue's spelling
    assert opened[("France", "admin", "A7")] == "Land Reform"
    assert opened[("Prussia", "admin", "A8")] == "Propaganda"
    assert opened[("Prussia", "military", "M1")] == "Entrenchment"
    assert "Your admin cards: Land Reform." in result.notes["France"]
    assert "Your military cards: Entrenchment." in result.notes["Prussia"]
    shared = " ".join(str(v) for tab, df in result.after.tables.items()
                      if tab not in ("Cards", "Decks") for v in df.to_numpy().ravel())
    assert "Land Reform" not in shared and "Entrenchment" not in shared


def test_a_sealed_card_whose_slot_was_cleared_is_refused():
    tables, orders, settings = example()
    sealed = resolve(RULES, build_state(RULES, tables, orders, settings=settings),
                     secret=EXAMPLE_SECRET).after
    hands = sealed.tables["Hands"].copy()
    hands.at[hands.index[0], "slot"] = ""
    broken = GameState({**sealed.tables, "Hands": hands}, sealed.meta)
    with pytest.raises(StateError, match="bound to its slot"):
        resolve(RULES, broken, secret=EXAMPLE_SECRET)


# -- a nation at war with no war actions, in check ----------------------------------------------

GOLDEN = Path(__file__).parent / "golden" / "eighteen_hundred"


def war_workbook(tmp_path: Path, orders: list[dict]) -> Path:
    """The golden war with no war actions for Prussia, as a workbook with its dice secret."""
    case = load_case(GOLDEN / "09-a-nation-at-war-with-no-war-actions-is-warned.yaml")
    tables = {tab: rows for tab, rows in case.data["tables"].items()}
    state = build_state(RULES, tables, orders, turn=6,
                        settings={"game": "war", **case.data["settings"]})
    path = tmp_path / "war.xlsx"
    write_new_workbook(RULES, path, state)
    write_secret(secret_path(path), "a real game's dice secret, kept by the GM")
    return path


def test_check_warns_of_a_nation_at_war_with_no_war_actions(tmp_path, capsys):
    path = war_workbook(tmp_path, [{"player": "France", "order": "pass"},
                                   {"player": "Prussia", "order": "war move",
                                    "province": "Hesse", "to": "Champagne"}])
    capsys.readouterr()
    assert main(["check", str(path)]) == 1  # Prussia's order would be refused as well
    said = capsys.readouterr()
    assert said.err.count("warning: Prussia is at war in round 2 but has no war actions") == 1
    assert "warning: France" not in said.err and "warning:" not in said.out  # stderr's
    assert main(["check", str(path), "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert [w["player"] for w in document["warnings"]] == ["Prussia"]


def test_the_warning_needs_no_order_and_a_nation_with_actions_gets_none(tmp_path, capsys):
    path = war_workbook(tmp_path, [])
    capsys.readouterr()
    assert main(["check", str(path)]) == 0
    assert "warning: Prussia is at war" in capsys.readouterr().err
    book = openpyxl.load_workbook(path)
    book["Tableau"].append(["Prussia", "Couriers"])
    book.save(path)
    assert main(["check", str(path)]) == 0
    assert "warning:" not in capsys.readouterr().err


def test_resolve_warns_of_a_nation_at_war_with_no_war_actions_once(tmp_path, capsys):
    """A resolve says the warning as check does (on stderr, once), lists it in --json, and
    its Log tab keeps it."""
    warning = "Prussia is at war in round 2 but has no war actions"
    plain, scripted = tmp_path / "plain", tmp_path / "json"
    plain.mkdir()
    scripted.mkdir()
    path = war_workbook(plain, [{"player": "France", "order": "pass"}])
    capsys.readouterr()
    assert main(["resolve", str(path), "--force"]) == 0
    said = capsys.readouterr()
    assert said.err.count(f"warning: {warning}") == 1 and warning not in said.out, said
    log = openpyxl.load_workbook(path)["Log"]
    assert sum(warning in str(c.value) for r in log.iter_rows() for c in r) == 1
    path = war_workbook(scripted, [{"player": "France", "order": "pass"}])
    capsys.readouterr()
    assert main(["resolve", str(path), "--force", "--json"]) == 0
    said = capsys.readouterr()
    document = json.loads(said.out)
    assert [w["player"] for w in document["warnings"]] == ["Prussia"]
    assert warning in document["warnings"][0]["text"] and warning not in said.err


def test_nightly_all_says_each_games_warnings_under_its_name(tmp_path, capsys):
    path = war_workbook(tmp_path, [{"player": "France", "order": "pass"}])
    toml = tmp_path / "games.toml"
    toml.write_text(f'[[game]]\nname = "war"\nfile = "{path.name}"\n'
                    f'ruleset = "eighteen_hundred"\n', encoding="utf-8")
    capsys.readouterr()
    assert main(["nightly", "--all", str(toml), "--dry-run"]) == 0
    said = capsys.readouterr()
    assert said.err.count("warning: war: Prussia is at war in round 2 but has no war "
                          "actions") == 1, said


# -- new --turn N --round R --stage S ----------------------------------------------------------

def game_tab(path: Path) -> dict:
    book = openpyxl.load_workbook(path)
    return {r[0].value: r[1].value for r in book["Game"].iter_rows(min_row=2)}


def test_new_starts_a_blank_1800_game_in_a_later_round_and_stage(tmp_path):
    path = tmp_path / "running.xlsx"
    assert main(["new", "eighteen_hundred", str(path), "--turn", "13", "--round", "5",
                 "--stage", "turns"]) == 0
    game = game_tab(path)
    assert (game["turn"], game["round"], game["stage"]) == (13, 5, "turns")
    assert game["year"] == "1820: era I, round 5 of 8, the turns stage"
    secret = secret_path(path).read_text(encoding="utf-8").strip()
    assert game["dice commitment"] == turn_dice(secret, 13).commitment


@pytest.mark.parametrize("argv, problem", [
    (["eighteen_hundred", "--round", "5"], "--round goes with --turn"),
    (["eighteen_hundred", "--turn", "3", "--round", "25"], "rounds are 1 to 24"),
    (["eighteen_hundred", "--turn", "3", "--stage", "over"], "one of draft, turns, war"),
    (["claims", "--turn", "3", "--stage", "war"], "no rounds resolved in stages"),
])
def test_round_and_stage_are_refused_where_they_mean_nothing(tmp_path, capsys, argv, problem):
    path = tmp_path / "x.xlsx"
    assert main(["new", argv[0], str(path), *argv[1:]]) == 2
    assert problem in capsys.readouterr().err and not path.exists()


# -- the README's walk-through, with the Game tab typed by hand ---------------------------------

README = Path(__file__).resolve().parents[1] / "sheetmaster" / "rules" / "eighteen_hundred" / \
    "README.md"


def typed_in(tmp_path: Path, game: list[list[str]]) -> Path:
    """The README's game already under way, typed into a blank game of turn 13 written
    without --round and --stage, then the Game tab's ``game`` rows typed by hand."""
    book = tmp_path / "running.xlsx"
    assert main(["-q", "new", "eighteen_hundred", str(book), "--turn", "13"]) == 0
    for step in walkthrough.steps(README.read_text(encoding="utf-8")):
        if step.kind == "type":
            walkthrough.type_rows(book, step)
    walkthrough.type_rows(book, walkthrough.Step("type", 0, tab="Game",
                                                 header=["setting", "value"], rows=game))
    return book


def test_round_and_stage_typed_by_hand_leave_the_commitment_good(tmp_path):
    book = typed_in(tmp_path, [["round", "5"], ["stage", "turns"]])
    assert main(["-q", "resolve", str(book)]) == 0
    assert game_tab(book)["year"] == "1825: era I, round 6 of 8, the draft stage"
    log = walkthrough.tab_rows(book, "Log", ["details"], 0)
    assert any("(published before the deadline)" in row[0] for row in log)


def test_a_turn_typed_by_hand_stops_on_the_commitment_until_its_cell_is_cleared(tmp_path,
                                                                                capsys):
    book = typed_in(tmp_path, [["turn", "20"], ["round", "5"], ["stage", "turns"]])
    before = book.read_bytes()
    assert main(["-q", "resolve", str(book)]) != 0
    assert "turn 20's dice commitment is not the one the dice secret gives" in \
        capsys.readouterr().err
    assert book.read_bytes() == before  # nothing was written
    walkthrough.type_rows(book, walkthrough.Step("type", 0, tab="Game",
                                                 header=["setting", "value"],
                                                 rows=[["dice commitment", ""]]))
    assert main(["-q", "resolve", str(book)]) == 0
    assert game_tab(book)["turn"] == 21 and game_tab(book)["dice commitment"]
    dice = [row[0] for row in walkthrough.tab_rows(book, "Log", ["details"], 0)
            if row[0].startswith("dice seed")]
    assert len(dice) == 1 and "(published before the deadline)" not in dice[0]
