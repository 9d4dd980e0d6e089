"""Secrets stay with their owner: an order that names or hangs on a secret (a card in hand, an
ambition, a Ninja's target) shows everyone the same face whatever became of it, through every
channel a player or a watcher sees (the Orders tab, `check`'s and `resolve`'s output and exit
code, the nightly's log); its real outcome goes to its own player's report and the GM's. A
sealed value is as long as any other of its game, whatever it holds."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from sheetmaster import rules
from sheetmaster.app.cli import main
from sheetmaster.app.report import GM, player_reports
from sheetmaster.engine.builder import build_state
from sheetmaster.engine.checking import check
from sheetmaster.engine.turn import resolve
from sheetmaster.kit.fairness import hidden_key, secret_path, write_secret
from sheetmaster.kit.model import PRIVATE_REASON, Status
from sheetmaster.stores.xlsx_layout import write_new_workbook

RULES = rules.get("eighteen_hundred")
SECRET = "the secrets tests' dice secret"
PROBED = "Royal Wedding"
#: France's card when it does not hold the probed one: a hand of the same size either way
OTHER = "Land Reform"


def hand_game(held: str, orders: list[dict]):
    """A 1800 game at round 2's turns: France holds one admin card, ``held``; in play, a
    card whose cost is 2 prosperity (which France has not, unless a card gives it) and one
    whose cost discards an admin card."""
    tables = {
        "Nations": [{"nation": "France", "seat": 1, "dealer": "yes"},
                    {"nation": "Prussia", "seat": 2}],
        "Provinces": [{"province": "Normandie", "type": "countryside"},
                      {"province": "Berlin", "type": "city"}],
        "Pops": [{"province": "Normandie", "nation": "France", "pops": 1},
                 {"province": "Berlin", "nation": "Prussia", "pops": 2}],
        "Cards": [
            {"card": OTHER, "deck": "admin", "reward": "build Farm"},
            {"card": PROBED, "deck": "admin", "reward": "prosperity 2"},
            {"card": "Grand Tour", "deck": "development", "variety": "institution",
             "cost": "prosperity 2", "reward": "prosperity 1"},
            {"card": "Census", "deck": "development", "variety": "institution",
             "cost": "discard admin 1", "reward": "prosperity 1"}],
        "Tableau": [{"nation": "France", "card": "Grand Tour", "since": 1},
                    {"nation": "France", "card": "Census", "since": 1}],
        "Hands": [{"nation": "France", "pile": "admin", "slot": "A1", "card": held}],
    }
    return build_state(RULES, tables, orders, turn=5, settings={"round": 2, "stage": "turns"})


def workbook(tmp_path: Path, held: str, orders: list[dict]) -> Path:
    """The game as a workbook (the same name in its own folder), its secret beside it."""
    folder = tmp_path / held.replace(" ", "-")
    folder.mkdir()
    book = folder / "1800.xlsx"
    write_new_workbook(RULES, book, hand_game(held, orders))
    write_secret(secret_path(book), SECRET)
    return book


def orders_tab(book: Path) -> list[tuple]:
    sheet = openpyxl.load_workbook(book)["Orders"]
    header = [c.value for c in sheet[1]]
    at = [header.index(c) for c in ("player", "order", "result", "reason")]
    return [tuple(row[i] for i in at) for row in sheet.iter_rows(min_row=2, values_only=True)]


def run(capsys, *args: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main([*args, "-qq"])
    return code, capsys.readouterr().out


PROBE = {"player": "France", "order": "play admin", "card": PROBED}


def public_check(tmp_path, capsys, held: str, orders: list[dict]) -> dict:
    """Everything a check lets anyone see: its exit code, its output (plain and JSON; the
    game's path aside) and the Orders tab it writes."""
    book = workbook(tmp_path, held, orders)
    code, plain = run(capsys, "check", str(book))
    tab = orders_tab(book)
    json_code, out = run(capsys, "check", str(book), "--json")
    document = json.loads(out)
    document.pop("game")
    return {"exit": (code, json_code), "plain": plain, "json": document, "sheet": tab}


def test_a_probe_of_a_hand_through_check_sees_the_same_whether_or_not_the_card_is_held(
        tmp_path, capsys):
    """Point 5: anyone can post "play admin X" as France; what the check shows must not
    tell whether France holds X."""
    held = public_check(tmp_path, capsys, PROBED, [PROBE])
    not_held = public_check(tmp_path, capsys, OTHER, [PROBE])
    assert held == not_held
    assert held["sheet"] == [("France", "play admin", "checked: private", PRIVATE_REASON)]
    assert held["exit"] == (0, 0) and held["json"]["orders"] == []


def test_a_check_answers_publicly_without_the_private_orders_it_would_take(tmp_path, capsys):
    """A public order that follows a private one (France's activation needs the prosperity
    the probed card would give) is answered for everyone as if the private one were not
    there: its answer cannot tell whether the card is held."""
    orders = [PROBE, {"player": "France", "order": "activate", "card": "Grand Tour"}]
    held = public_check(tmp_path, capsys, PROBED, orders)
    not_held = public_check(tmp_path, capsys, OTHER, orders)
    assert held == not_held
    assert held["sheet"][1][2] == "would be rejected"
    assert held["exit"] == (1, 1)


def test_each_player_is_told_their_own_check_and_the_gm_all(tmp_path):
    """France's own check report has its orders as they would go with its own private
    orders (the card played, the activation paid for with it); Prussia's says nothing of
    them; the GM's has every order as it stands."""
    orders = [PROBE, {"player": "France", "order": "activate", "card": "Grand Tour"},
              {"player": "Prussia", "order": "play admin", "card": OTHER}]
    checked = check(RULES, hand_game(PROBED, orders), SECRET)
    reports = player_reports(RULES, checked, checked=True)
    assert f"| 2 | play admin | applied | played {PROBED}: prosperity +2 |" in reports["France"]
    assert "| 3 | activate | applied | activated Grand Tour" in reports["France"]
    assert PROBED not in reports["Prussia"] and "Grand Tour" not in reports["Prussia"]
    assert f"| 4 | play admin | rejected | you hold no admin card {OTHER} |" in \
        reports["Prussia"]
    assert f"played {PROBED}" in reports[GM] and "you hold no admin card" in reports[GM]
    shared = {r.row: r for r in checked.public().results}
    assert list(shared) == [3] and shared[3].status is Status.REJECTED


@pytest.mark.parametrize("command", [["resolve", "--force"], ["resolve", "--dry-run"]])
def test_a_probe_of_a_hand_through_resolve_shows_the_same_status(tmp_path, capsys, command):
    """Resolved, the probe's row says "private" whether the card was played or refused,
    in the sheet and in the output; the turn's public lines say what the rules publish (a
    card played is shown)."""
    seen = {}
    for held in (PROBED, OTHER):
        book = workbook(tmp_path, held, [PROBE])
        code, plain = run(capsys, *command, str(book))
        _, out = run(capsys, "resolve", "--dry-run", "--json", str(book))
        document = json.loads(out)
        changed = [c for c in document["changes"] if c["tab"] == "Orders"]
        seen[held] = (code, orders_tab(book)[0], plain.splitlines()[:3], document["orders"],
                      changed, document["counts"])
    assert seen[PROBED] == seen[OTHER]
    code, row, lines, orders, changed, counts = seen[PROBED]
    if command[1] == "--force":
        assert row == ("France", "play admin", "private", PRIVATE_REASON)
    assert lines[0] == "turn 5: 0 orders" and lines[1].startswith("(private orders")
    assert orders == [] and changed == [] and counts["orders"] == 0


def test_the_owner_is_told_the_real_outcome_of_a_resolved_probe(tmp_path):
    reports = tmp_path / "reports"
    book = workbook(tmp_path, OTHER, [PROBE])
    assert main(["resolve", str(book), "--force", "-qq", "--report-dir", str(reports)]) == 0
    france = (reports / "France.md").read_text(encoding="utf-8")
    assert f"| 2 | play admin | rejected | you hold no admin card {PROBED} |" in france
    assert PROBED not in (reports / "Prussia.md").read_text(encoding="utf-8")
    assert "you hold no admin card" in (reports / "gm.md").read_text(encoding="utf-8")


def test_an_activation_whose_cost_discards_from_the_hand_is_private(tmp_path, capsys):
    """Census's cost discards an admin card, the first of the hand: its answer would name
    it ("discarded Land Reform"). Its row is private, held card or not, and its reason is
    France's alone; an activation that touches no hand stays public."""
    orders = [{"player": "France", "order": "activate", "card": "Census"},
              {"player": "France", "order": "activate", "card": "Grand Tour"}]
    held = public_check(tmp_path, capsys, PROBED, orders)
    not_held = public_check(tmp_path, capsys, OTHER, orders)
    assert held == not_held
    assert [row[2] for row in held["sheet"]] == ["checked: private", "would be rejected"]
    result = resolve(RULES, hand_game(OTHER, orders), secret=SECRET)
    assert [r.secret for r in result.results] == [True, False]
    assert "discarded Land Reform" in result.results[0].reason
    named = [{"player": "France", "order": "activate", "card": "Grand Tour",
              "discard": PROBED}]
    assert resolve(RULES, hand_game(OTHER, named), secret=SECRET).results[0].secret


def test_a_ninjas_deed_does_not_name_its_hirer_in_the_shared_sheet():
    """clans.txt: only a caught Ninja tells its target who hired it; the shared Advisors
    tab says that an advisor was assassinated, not by whose Ninja."""
    from test_visibility import clans_ninja_turn

    _, result = clans_ninja_turn()
    advisors = result.after.tables["Advisors"]
    assert "assassinated by a Ninja" in advisors.at[2, "status"]
    assert "Amana" not in " ".join(map(str, advisors.to_numpy().ravel()))
    assert result.after.tables["Orders"].at[2, "result"] == "private"


# -- sealed values ----------------------------------------------------------------------------

def test_sealed_values_of_a_game_are_all_as_long_whatever_they_hold():
    """Point 7: a token's length tells nothing of the name sealed in it."""
    from sheetmaster.kit.sealed import seal, sealed_width, unseal

    names = ["Tax", "The Extraordinarily Long Reform of the Realm's Provinces"]
    width = sealed_width(names)
    key = hidden_key(SECRET)
    tokens = [seal(key, name, "France / admin / A1", width=width) for name in names]
    assert len(tokens[0]) == len(tokens[1])
    assert [unseal(key, t, "France / admin / A1") for t in tokens] == names


#: a token sealed by sheetmaster before sealed values were padded to one length (padded to
#: 32-byte blocks), with the example's secret: a game under way holds such tokens
OLD_TOKEN = "sealed:gVZ_WxIWeYFfQv_Fj8ahwqHhbmh3bPgZ_jtkmA5Q-tyFqzN49cnafgsaY3wJakqP"


def test_tokens_sealed_before_open_and_are_sealed_again_as_long_as_the_rest():
    from sheetmaster.kit.fairness import EXAMPLE_SECRET
    from sheetmaster.kit.sealed import unseal

    assert unseal(hidden_key(EXAMPLE_SECRET), OLD_TOKEN, "France / admin / A1") == OTHER
    state = hand_game(OTHER, [])
    long_name = "The Extraordinarily Long Reform of the Realm's Provinces"
    state.tables["Cards"].loc[len(state.tables["Cards"]) + 2] = \
        {c: None for c in state.tables["Cards"].columns} | {"card": long_name, "deck": "admin",
                                                           "reward": "prosperity 1"}
    state.tables["Hands"].at[2, "card"] = OLD_TOKEN
    hands = state.tables["Hands"]
    hands.loc[3] = {c: None for c in hands.columns} | {
        "nation": "Prussia", "pile": "admin", "slot": "A2", "card": "Royal Wedding"}
    hands.loc[4] = {c: None for c in hands.columns} | {
        "nation": "Prussia", "pile": "admin", "slot": "A3", "card": long_name}
    result = resolve(RULES, state, secret=EXAMPLE_SECRET)
    cards = result.after.tables["Hands"]["card"].tolist()
    assert len({len(c) for c in cards}) == 1 and len(cards[0]) > len(OLD_TOKEN)
    assert result.notes["France"][0] == f"Your admin cards: {OTHER}."
    again = resolve(RULES, result.after, secret=EXAMPLE_SECRET)
    assert again.after.tables["Hands"]["card"].tolist() == cards  # the same bytes

