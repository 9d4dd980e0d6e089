"""Turn orders as strategies: global, each player in posting order, each player in seat order
from the dealer's left (silent players too), round-robin passes, and simultaneous
adjudication where one order's outcome depends on another's (with a `blocked` outcome)."""

from __future__ import annotations

from collections import Counter

import pytest
from toy import play, recorder, ruleset, traces

from sheetmaster.kit.adjudication import Adjudicator, Cycle
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
    """Every move at once, on the Adjudicator: a unit enters a land no other unit moves into
    and whose unit, if any, leaves; a rotation of three or more moves, a swap does not. An
    order another order stopped is 'blocked'; an order that names no unit of the player's,
    or a land not next to it, is 'rejected'."""
    world = ctx.world
    moves: dict[str, tuple] = {}
    for order in ctx.orders("hold", "move"):
        unit = world.unit(order.fields["unit"])
        if unit is None or unit.owner != order.player or unit.name in moves:
            ctx.resolve(order, Status.REJECTED, "not a unit of yours, or ordered twice")
        elif order.kind == "hold":
            ctx.resolve(order, Status.APPLIED, "held")
        elif order.fields["to"] not in world.lands[unit.at].borders:
            ctx.resolve(order, Status.REJECTED, f"{order.fields['to']} is not next to it")
        else:
            moves[unit.name] = (order, unit, order.fields["to"])
    standing = {u.at: u.name for u in world.units}
    rivals = Counter(to for _, _, to in moves.values())

    def enters(name: str, adj: Adjudicator[str]) -> bool:
        ahead = standing.get(moves[name][2])
        return rivals[moves[name][2]] == 1 and (ahead is None or
                                                (ahead in moves and adj.resolve(ahead)))

    def backup(cycle: Cycle[str]) -> dict[str, bool]:
        return dict.fromkeys(cycle.keys, len(cycle.keys) > 2)

    for name, moved in Adjudicator(enters, backup).run(moves).items():
        order, unit, to = moves[name]
        if moved:
            ctx.resolve(order, Status.APPLIED, f"moved to {to}")
            unit.at = to
        else:
            ctx.resolve(order, Status.BLOCKED, f"bounced: {to} was not left free")


def moves_ruleset():
    return ruleset(Phase("m", "movement", adjudicate_moves, order=SIMULTANEOUS,
                         orders=("hold", "move")))


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


def test_a_move_follows_a_unit_that_leaves_but_not_one_that_stays():
    result = play(moves_ruleset(), [
        {"player": "Stark", "order": "move", "unit": "S1", "to": "B"},
        {"player": "Tully", "order": "move", "unit": "T1", "to": "C"},
        {"player": "Arryn", "order": "move", "unit": "A1", "to": "E"},
        {"player": "Tyrell", "order": "hold", "unit": "Y1"},
    ], tables=units(("S1", "Stark", "A"), ("T1", "Tully", "B"), ("A1", "Arryn", "D"),
                    ("Y1", "Tyrell", "E")))
    assert [r.status for r in result.results] == [Status.APPLIED, Status.APPLIED,
                                                  Status.REJECTED, Status.APPLIED]
    assert where(result) == {"S1": "B", "T1": "C", "A1": "D", "Y1": "E"}


def test_a_bounce_at_the_head_of_a_chain_blocks_every_move_behind_it():
    result = play(moves_ruleset(), [
        {"player": "Stark", "order": "move", "unit": "S1", "to": "B"},
        {"player": "Tully", "order": "move", "unit": "T1", "to": "C"},
        {"player": "Arryn", "order": "move", "unit": "A1", "to": "C"},
        {"player": "Tyrell", "order": "move", "unit": "Y1", "to": "A"},
    ], tables=units(("S1", "Stark", "A"), ("T1", "Tully", "B"), ("A1", "Arryn", "D"),
                    ("Y1", "Tyrell", "E")))
    assert [r.status for r in result.results] == [Status.BLOCKED] * 4
    assert result.results[0].reason == "bounced: B was not left free"
    assert where(result) == {"S1": "A", "T1": "B", "A1": "D", "Y1": "E"}


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


def test_a_swap_bounces_head_on():
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

