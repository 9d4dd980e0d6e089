"""Malformed order rows get a rejected status and a reason; the rest of the turn goes on."""

from __future__ import annotations

import pytest

from sheetmaster.engine.builder import build_state
from sheetmaster.engine.turn import resolve
from sheetmaster.kit.model import Status

TABLES = {
    "Players": [{"player": "Avalon", "gold": 50, "armies": 0},
                {"player": "Bretagne", "gold": 50, "armies": 0, "email": "b@example.org"}],
    "Territories": [
        {"territory": "Camelot", "owner": "Avalon", "borders": "Sarum"},
        {"territory": "Sarum", "owner": "", "borders": "Camelot"},
        {"territory": "Ys", "owner": "Bretagne"},
    ],
}


def run(claims, orders, **kw):
    return resolve(claims, build_state(claims, TABLES, orders, **kw), seed=1)


def result(res, row):
    found = res.result_for_row(row)
    assert found is not None, f"row {row} has no result"
    return found


@pytest.mark.parametrize(("amount", "words"), [
    ("1,2", "not a whole number"),
    ("007", "leading zero"),
    ("ten", "not a whole number"),
    (-3, "negative"),
    ("-3", "negative"),
    (2.5, "not a whole number"),
    ("2.5", "not a whole number"),
    (0, "at least 1"),
    ("+3", "not a whole number"),
    (True, "not a whole number"),
])
def test_bad_amounts_are_rejected_and_the_turn_goes_on(claims, amount, words):
    orders = [{"player": "Avalon", "order": "build armies", "amount": amount},
              {"player": "Bretagne", "order": "build armies", "amount": 2}]
    res = run(claims, orders)
    bad, good = result(res, 2), result(res, 3)
    assert bad.status is Status.REJECTED
    assert words in bad.reason
    assert good.status is Status.APPLIED
    players = res.after.tables["Players"].set_index("player")
    # Avalon: 50 + 1 income, nothing built; Bretagne: 50 + 1 income - 10 for two armies.
    assert players.loc["Avalon", "armies"] == 0
    assert players.loc["Avalon", "gold"] == 51
    assert players.loc["Bretagne", "armies"] == 2


def test_whole_amount_typed_as_float_or_text_is_accepted(claims):
    orders = [{"player": "Avalon", "order": "build armies", "amount": 2.0},
              {"player": "Bretagne", "order": "build armies", "amount": " 3 "}]
    res = run(claims, orders)
    assert result(res, 2).status is Status.APPLIED
    assert result(res, 3).status is Status.APPLIED


@pytest.mark.parametrize(("row", "words"), [
    ({"player": "Mordred", "order": "build armies", "amount": 1}, "no player named 'Mordred'"),
    ({"player": "", "order": "build armies", "amount": 1}, "no player is named"),
    ({"player": "Avalon", "order": "raise dragons", "amount": 1},
     "'raise dragons' is not an order"),
    ({"player": "Avalon", "order": "", "amount": 1}, "'order' column is blank"),
    ({"player": "Avalon", "order": "claim neutral territory", "territory": "Atlantis"},
     "no territory named 'Atlantis'"),
    ({"player": "Avalon", "order": "claim neutral territory"}, "needs the 'territory' column"),
    ({"player": "Avalon", "order": "claim neutral territory",
      "territory": '=HYPERLINK("http://x","Sarum")'}, "looks like a spreadsheet formula"),
    ({"player": "@Avalon", "order": "build armies", "amount": 1}, "looks like a spreadsheet"),
    ({"player": "Avalon", "order": "commit dice", "amount": 1, "war": "Nowhere War"},
     "no war named 'Nowhere War'"),
    ({"player": "Avalon", "order": "propose transfer", "deal": "d", "item": "dragons",
      "amount": 1, "to": "Bretagne"}, "no item named 'dragons'"),
])
def test_malformed_rows_are_rejected_with_a_reason(claims, row, words):
    orders = [row, {"player": "Avalon", "order": "claim neutral territory", "territory": "Sarum"}]
    res = run(claims, orders)
    bad = result(res, 2)
    assert bad.status is Status.REJECTED
    assert words in bad.reason
    assert result(res, 3).status is Status.APPLIED
    owners = res.after.tables["Territories"].set_index("territory")["owner"]
    assert owners["Sarum"] == "Avalon"


def test_names_ignore_case_and_spaces(claims):
    orders = [{"player": "  avalon ", "order": "Claim Neutral Territory", "territory": "SARUM"}]
    res = run(claims, orders)
    assert result(res, 2).status is Status.APPLIED
    assert result(res, 2).player == "Avalon"


def test_order_kind_aliases(claims):
    res = run(claims, [{"player": "Avalon", "order": "build_armies", "amount": 1}])
    assert result(res, 2).status is Status.APPLIED


def test_duplicate_rows_second_is_rejected(claims):
    order = {"player": "Avalon", "order": "build armies", "amount": 1}
    res = run(claims, [order, dict(order)])
    assert result(res, 2).status is Status.APPLIED
    assert result(res, 3).status is Status.REJECTED
    assert "same as order row 2" in result(res, 3).reason


def test_blank_rows_are_not_orders(claims):
    orders = [{"player": "", "order": "", "amount": None},
              {"player": "Avalon", "order": "build armies", "amount": 1}]
    res = run(claims, orders)
    assert result(res, 3).status is Status.APPLIED
    assert res.result_for_row(2) is None


def test_orders_for_another_turn(claims):
    orders = [{"turn": 5, "player": "Avalon", "order": "build armies", "amount": 1},
              {"turn": 1, "player": "Avalon", "order": "build armies", "amount": 2,
               "result": "applied"},
              {"turn": 3, "player": "Avalon", "order": "build armies", "amount": 3},
              {"turn": "", "player": "Avalon", "order": "build armies", "amount": 4},
              {"turn": "three", "player": "Avalon", "order": "build armies", "amount": 5}]
    res = run(claims, orders, turn=3)
    assert "for turn 5" in result(res, 2).reason
    assert res.result_for_row(3) is None  # an earlier turn's resolved order is left alone
    assert result(res, 4).status is Status.APPLIED
    assert result(res, 5).status is Status.APPLIED
    assert res.after.tables["Orders"].at[5, "turn"] == 3  # blank turn filled in
    assert "column 'turn'" in result(res, 6).reason


def test_authenticated_intake_rejects_someone_elses_email(claims):
    orders = [{"player": "Bretagne", "order": "build armies", "amount": 1,
               "email": "mallory@example.org"},
              {"player": "Bretagne", "order": "build armies", "amount": 2,
               "email": "B@Example.org"}]
    res = run(claims, orders)
    assert result(res, 2).status is Status.REJECTED
    assert "not Bretagne's address" in result(res, 2).reason
    assert result(res, 3).status is Status.APPLIED


def test_every_order_row_gets_a_result(claims, example_state):
    res = resolve(claims, example_state, seed=3)
    orders = example_state.tables["Orders"]
    assert sorted(r.row for r in res.results) == list(orders.index)
    assert all(res.after.tables["Orders"]["result"].astype(str).str.len() > 0)


def test_an_order_refused_for_a_future_turn_stays_refused(claims):
    """ "Orders cannot be given preemptively for the any future turn." The row refused at
    turn 1 is not taken up again when turn 2 comes."""
    orders = [{"turn": 2, "player": "Avalon", "order": "build armies", "amount": 1}]
    first = run(claims, orders)
    assert result(first, 2).status is Status.REJECTED
    second = resolve(claims, first.after, seed=1)
    assert second.result_for_row(2) is None
    players = second.after.tables["Players"].set_index("player")
    assert players.loc["Avalon", "armies"] == 0


def test_a_special_resource_is_one_resource_whatever_its_case(claims):
    """ "For every different resource that a player has at least one of in his treasury, the
    Game Master(s) grant a +0.1 bonus": 'amber' held and an 'Amber' territory are one."""
    tables = {
        "Players": [{"player": "Avalon", "gold": 9, "armies": 1, "other resources": "amber: 1"},
                    {"player": "Bretagne", "gold": 9, "armies": 1}],
        "Territories": [{"territory": "Camelot", "owner": "Avalon", "resource": "Amber"},
                        {"territory": "Ys", "owner": "Bretagne"}],
        "Wars": [{"war": "W", "side": "A", "members": "Avalon"},
                 {"war": "W", "side": "B", "members": "Bretagne"}],
    }
    orders = [{"player": "Avalon", "order": "commit dice", "amount": 1, "war": "W"}]
    from sheetmaster.kit.dice import ScriptedDice

    res = resolve(claims, build_state(claims, tables, orders), dice=ScriptedDice([5]))
    power = res.after.tables["War results"]["power"].tolist()
    assert "Avalon: 1.1" in power
