"""Turn orders as strategies: global, each player in posting order, each player in seat order
from the dealer's left (silent players too; the dealer named by a setting or kept in the
game's state), round-robin passes (capped, as 1800's war actions), and a global phase that
adjudicates orders whose outcomes depend on each other (with a `blocked` outcome)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from types import SimpleNamespace

import pytest
from toy import REALM_ROWS, ToyWorld, build_world, play, recorder, ruleset, traces

from sheetmaster.kit.adjudication import Adjudicator, Cycle
from sheetmaster.kit.model import Status
from sheetmaster.kit.ruleset import Phase, RulesetError
from sheetmaster.kit.settings import Setting
from sheetmaster.kit.turn_order import (
    POSTING_ORDER,
    SeatOrder,
    from_dealers_left,
    round_robin,
)
from sheetmaster.rules.eighteen_hundred.ruleset import RULESET as EIGHTEEN_HUNDRED
from sheetmaster.rules.eighteen_hundred.tables import Nation
from sheetmaster.rules.eighteen_hundred.world import EighteenWorld

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
    return ruleset(Phase("m", "movement", adjudicate_moves, orders=("hold", "move")))


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

