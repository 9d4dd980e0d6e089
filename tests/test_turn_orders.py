"""Turn orders as strategies: global, each player in posting order, each player in seat order
from the dealer's left (silent players too), round-robin passes, and simultaneous
adjudication where one order's outcome depends on another's (with a `blocked` outcome)."""

from __future__ import annotations

import pytest
from toy import play, recorder, ruleset, traces

from sheetmaster.kit.model import Status
from sheetmaster.kit.ruleset import Phase
from sheetmaster.kit.settings import Setting
from sheetmaster.kit.turn_order import (
    POSTING_ORDER,
    SIMULTANEOUS,
    SeatOrder,
    from_dealers_left,
    round_robin,
)
from sheetmaster.rules.common import land_moves as lm

ORDERS = [{"player": "Tully", "order": "pay", "amount": 1},
          {"player": "Arryn", "order": "pay", "amount": 2},
          {"player": "Tully", "order": "pay", "amount": 3}]


def test_posting_order_runs_each_poster_whole_turn_in_order_of_first_post():
    rules = ruleset(Phase("a", "start", recorder("start")),
                    Phase("b", "pay", recorder("pay", ("pay",)), order=POSTING_ORDER,
                          orders=("pay",)),
                    Phase("c", "spend", recorder("spend"), order=POSTING_ORDER))
    assert traces(play(rules, ORDERS)) == [("", "start"), ("Tully", "pay 2,4"),
                                           ("Tully", "spend"), ("Arryn", "pay 3"),
                                           ("Arryn", "spend")]


def test_seat_order_starts_left_of_the_dealer_ends_with_the_dealer_and_skips_no_one():
    rules = ruleset(Phase("b", "pay", recorder("pay", ("pay",)), order=SeatOrder(),
                          orders=("pay",), settings=("dealer",)),
                    settings=(Setting("dealer", "who holds the dealer chip"),))
    result = play(rules, ORDERS, dealer="Tully")
    assert traces(result) == [("Arryn", "pay 3"), ("Tyrell", "pay"), ("Stark", "pay"),
                              ("Tully", "pay 2,4")]


def test_from_dealers_left_and_round_robin_passes():
    assert from_dealers_left(["A", "B", "C", "D"], "d") == ["A", "B", "C", "D"]
    assert from_dealers_left(["A", "B", "C", "D"], "A") == ["B", "C", "D", "A"]
    with pytest.raises(ValueError, match="no seat"):
        from_dealers_left(["A"], "Z")

    class Posted:
        def __init__(self, player, row):
            self.player, self.row = player, row

    orders = [Posted("A", 1), Posted("A", 2), Posted("B", 3), Posted("A", 4), Posted("C", 5)]
    assert [o.row for o in round_robin(orders, ["B", "C", "A"])] == [3, 5, 1, 2, 4]


# -- simultaneous adjudication ------------------------------------------------------------

def adjudicate_moves(ctx) -> None:
    """Every unit's order at once: moves, holds, supports and cuts, as land_moves rules them.
    An order another order stopped is 'blocked'; an order that names no unit of the player's
    is 'rejected'."""
    world = ctx.world
    given: dict[str, tuple] = {}
    for order in ctx.orders("hold", "move", "support", "cut"):
        unit = world.unit(order.fields["unit"])
        if unit is None or unit.owner != order.player or unit.name in given:
            ctx.resolve(order, Status.REJECTED, "not a unit of yours, or ordered twice")
            continue
        given[unit.name] = (order, _land_order(order, unit))
    idle = [lm.hold(u.name, u.owner, u.at) for u in world.units if u.name not in given]
    outcomes = lm.adjudicate([land for _, land in given.values()] + idle,
                             lambda a, b: b in world.lands[a].borders)
    for unit in world.units:
        outcome = outcomes[unit.name]
        if unit.name in given:
            order = given[unit.name][0]
            ctx.resolve(order, Status.APPLIED if outcome.succeeded else Status.BLOCKED,
                        outcome.reason)
        unit.at = outcome.ends_at
        if outcome.dislodged:
            ctx.emit(unit.owner, "dislodged", f"{unit.name} dislodged in {unit.at}")


def _land_order(order, unit) -> lm.LandOrder:
    f, args = order.fields, (unit.name, unit.owner, unit.at)
    if order.kind == "move":
        return lm.move(*args, f["to"])
    if order.kind == "cut":
        return lm.cut(*args, f["to"])
    if order.kind == "support":
        return lm.support_move(*args, f["of"], f["to"]) if f["to"] else \
            lm.support_hold(*args, f["of"])
    return lm.hold(*args)


def moves_ruleset():
    return ruleset(Phase("m", "movement", adjudicate_moves, order=SIMULTANEOUS,
                         orders=("hold", "move", "support", "cut")))


def units(*rows: tuple[str, str, str]) -> dict:
    return {"Units": [{"unit": u, "owner": o, "at": at} for u, o, at in rows]}


def where(result) -> dict[str, str]:
    table = result.after.tables["Units"]
    return dict(zip(table["unit"], table["at"]))


def test_a_move_into_an_empty_land_succeeds():
    result = play(moves_ruleset(), [{"player": "Stark", "order": "move", "unit": "S1",
                                     "to": "B"}], tables=units(("S1", "Stark", "A")))
    assert result.results[0].status is Status.APPLIED
    assert where(result) == {"S1": "B"}


def test_equal_moves_into_one_land_bounce_and_both_are_blocked():
    result = play(moves_ruleset(), [
        {"player": "Stark", "order": "move", "unit": "S1", "to": "B"},
        {"player": "Arryn", "order": "move", "unit": "A1", "to": "B"},
    ], tables=units(("S1", "Stark", "A"), ("A1", "Arryn", "C")))
    assert [r.status for r in result.results] == [Status.BLOCKED, Status.BLOCKED]
    assert "bounced" in result.results[0].reason
    assert where(result) == {"S1": "A", "A1": "C"}


def test_a_supported_attack_dislodges_a_lone_defender():
    result = play(moves_ruleset(), [
        {"player": "Stark", "order": "move", "unit": "S1", "to": "B"},
        {"player": "Stark", "order": "support", "unit": "S2", "of": "A", "to": "B"},
    ], tables=units(("S1", "Stark", "A"), ("S2", "Stark", "F"), ("T1", "Tully", "B")))
    assert [r.status for r in result.results] == [Status.APPLIED, Status.APPLIED]
    assert "dislodging T1" in result.results[0].reason
    assert where(result)["S1"] == "B"
    assert any(e.kind == "dislodged" and e.player == "Tully" for e in result.events)


def test_a_cut_support_leaves_the_attack_bounced():
    result = play(moves_ruleset(), [
        {"player": "Stark", "order": "move", "unit": "S1", "to": "B"},
        {"player": "Stark", "order": "support", "unit": "S2", "of": "A", "to": "B"},
        {"player": "Arryn", "order": "cut", "unit": "A1", "to": "F"},
    ], tables=units(("S1", "Stark", "A"), ("S2", "Stark", "F"), ("T1", "Tully", "B"),
                    ("A1", "Arryn", "C")))
    assert [r.status for r in result.results] == [Status.BLOCKED, Status.BLOCKED,
                                                  Status.APPLIED]
    assert "support cut" in result.results[1].reason
    assert where(result) == {"S1": "A", "S2": "F", "T1": "B", "A1": "C"}


def test_a_three_way_rotation_moves_every_unit():
    result = play(moves_ruleset(), [
        {"player": "Stark", "order": "move", "unit": "S1", "to": "B"},
        {"player": "Tully", "order": "move", "unit": "T1", "to": "F"},
        {"player": "Arryn", "order": "move", "unit": "A1", "to": "A"},
    ], tables={**units(("S1", "Stark", "A"), ("T1", "Tully", "B"), ("A1", "Arryn", "F")),
               "Lands": [{"land": "A", "borders": "B, F"}, {"land": "B", "borders": "A, F"},
                         {"land": "F", "borders": "A, B"}]})
    assert [r.status for r in result.results] == [Status.APPLIED] * 3
    assert where(result) == {"S1": "B", "T1": "F", "A1": "A"}


def test_a_swap_without_support_bounces_head_on():
    result = play(moves_ruleset(), [
        {"player": "Stark", "order": "move", "unit": "S1", "to": "B"},
        {"player": "Tully", "order": "move", "unit": "T1", "to": "A"},
    ], tables=units(("S1", "Stark", "A"), ("T1", "Tully", "B")))
    assert [r.status for r in result.results] == [Status.BLOCKED, Status.BLOCKED]
    assert where(result) == {"S1": "A", "T1": "B"}


def test_an_order_for_someone_elses_unit_is_rejected_not_blocked():
    result = play(moves_ruleset(), [{"player": "Tully", "order": "move", "unit": "S1",
                                     "to": "B"}], tables=units(("S1", "Stark", "A")))
    assert result.results[0].status is Status.REJECTED

