"""Turn orders as strategies: global, each player in posting order, each player in seat order
from the dealer's left (silent players too; the dealer named by a setting or kept in the
game's state), round-robin passes (capped, as 1800's war actions), and a global phase that
adjudicates orders whose outcomes depend on each other (with a `blocked` outcome)."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest
from toy import REALM_ROWS, ToyWorld, build_world, play, recorder, ruleset, traces

from sheetmaster.model import Status
from sheetmaster.rules.common import land_moves as lm
from sheetmaster.rules.eighteen_hundred.ruleset import RULESET as EIGHTEEN_HUNDRED
from sheetmaster.rules.eighteen_hundred.tables import Nation
from sheetmaster.rules.eighteen_hundred.world import EighteenWorld
from sheetmaster.ruleset import Phase, RulesetError
from sheetmaster.settings import Setting
from sheetmaster.turn_order import (
    POSTING_ORDER,
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
    rules = ruleset(Phase("b", "pay", recorder("pay", ("pay",)), order=SeatOrder("dealer"),
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

    orders = [Posted("A", 1), Posted("A", 2), Posted("B", 3), Posted("A", 4), Posted("C", 5)]
    assert [o.row for o in round_robin(orders, ["B", "C", "A"])] == [3, 5, 1, 2, 4]


class Posted:
    def __init__(self, player: str, row: int) -> None:
        self.player, self.row = player, row


class ChipWorld(ToyWorld):
    """The toy world with the dealer chip kept in the Realms tab: the realm whose banner is
    the Stag deals."""

    def dealer(self) -> str:
        return next(r.name for r in self.realms.values() if r.banner == "Stag")


def _chip_world(loaded, problems) -> ChipWorld:
    world = build_world(loaded, problems)
    return ChipWorld(world.realms, world.lands, world.units)


def test_seat_order_reads_the_dealer_from_the_games_state_when_it_names_no_setting():
    rules = dataclasses.replace(ruleset(Phase("b", "pay", recorder("pay", ("pay",)),
                                              order=SeatOrder(), orders=("pay",))),
                                build_world=_chip_world)
    realms = [dict(r, banner="Stag" if r["realm"] == "Arryn" else "") for r in REALM_ROWS]
    result = play(rules, ORDERS, tables={"Realms": realms})
    assert traces(result) == [("Tyrell", "pay"), ("Stark", "pay"), ("Tully", "pay 2,4"),
                              ("Arryn", "pay 3")]


def test_seat_order_from_state_in_a_world_that_keeps_no_dealer_says_so():
    rules = ruleset(Phase("b", "pay", recorder("pay", ("pay",)), order=SeatOrder(),
                          orders=("pay",)))
    with pytest.raises(RulesetError, match="ToyWorld keeps no dealer"):
        play(rules, ORDERS)


def _nations(seated: list[str], dealer: str) -> EighteenWorld:
    return EighteenWorld(nations={n: Nation(n, i + 2, "", 4 - i, n == dealer, 0, "")
                                  for i, n in enumerate(seated)})


def test_1800_takes_its_turns_from_the_left_of_whoever_holds_the_chip_in_the_nations_tab():
    world = _nations(["Russia", "Prussia", "Austria", "France"], "Prussia")  # seats 4..1
    ctx = SimpleNamespace(world=world)
    picks, turns = (p.order for p in EIGHTEEN_HUNDRED.phases if p.key in ("D1", "T1"))
    assert isinstance(picks, SeatOrder) and isinstance(turns, SeatOrder)
    # seated France, Austria, Prussia, Russia: Russia is at Prussia's left
    assert picks.players(ctx) == turns.players(ctx) == ["Russia", "France", "Austria",
                                                        "Prussia"]
    world.nations["Prussia"].dealer, world.nations["Austria"].dealer = False, True
    assert turns.players(ctx) == ["Prussia", "Russia", "France", "Austria"]


def test_round_robin_as_1800s_war_takes_each_nations_actions_in_turn_up_to_its_actions():
    """WAR_RULE: nations take turns in order; one out of actions passes while the others go
    on; rows beyond a nation's actions and rows of nations not at war are never taken."""
    orders = [Posted("A", 1), Posted("B", 2), Posted("A", 3), Posted("C", 4), Posted("A", 5),
              Posted("B", 6), Posted("X", 7), Posted("C", 8), Posted("A", 9), Posted("B", 10)]
    taken = round_robin(orders, ["B", "C", "A"], {"A": 3, "B": 1, "C": 2})
    assert [o.row for o in taken] == [2, 4, 1, 8, 3, 5]
    assert [o.row for o in round_robin(orders, ["B", "A"], {"A": 1})] == [1]
    assert list(round_robin(orders, ["B", "C", "A"], {"A": 0, "B": 0, "C": 0})) == []


# -- a global phase adjudicating every order at once --------------------------------------

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
    return ruleset(Phase("m", "movement", adjudicate_moves,
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

