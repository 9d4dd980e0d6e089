"""The shared rules pieces: treasury, upkeep that disbands until paid, modifier arithmetic,
ownership, and two-sided agreements (propose / accept, whole or not at all)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from toy import play, ruleset

from sheetmaster.model import Status
from sheetmaster.orders import Field, OrderKind
from sheetmaster.rules.common import agreements
from sheetmaster.rules.common.modifiers import add_percent, describe, scaled, with_parts
from sheetmaster.rules.common.ownership import Holdings
from sheetmaster.rules.common.treasury import Purse, pay
from sheetmaster.rules.common.upkeep import disband_until_paid, disbanded_count
from sheetmaster.ruleset import Phase
from sheetmaster.schema import Column, Kind


def buy(ctx) -> None:
    for order in ctx.orders("pay"):
        if pay(ctx, order, ctx.world.realms[order.player], order.fields["amount"],
               Purse("coins")):
            ctx.resolve(order, Status.APPLIED, "bought")


def test_pay_takes_the_cost_or_rejects_with_one_reason_and_changes_nothing():
    rules = ruleset(Phase("p", "pay", buy, orders=("pay",)))
    result = play(rules, [{"player": "Stark", "order": "pay", "amount": 3},
                          {"player": "Tully", "order": "pay", "amount": 9}])
    assert result.results[0].status is Status.APPLIED
    assert result.results[1].reason == "not enough coins: it costs 9, you have 5"
    coins = result.after.tables["Realms"].set_index("realm")["coins"]
    assert (coins["Stark"], coins["Tully"]) == (2, 5)


def test_upkeep_disbands_the_last_listed_until_the_rest_is_paid():
    kept, gone, upkeep = disband_until_paid(["a", "b", "c", "d"], {"a": 1, "b": 2, "c": 2,
                                                                   "d": 3}.get, 5)
    assert (kept, gone, upkeep) == (["a", "b", "c"], ["d"], 5)
    assert disband_until_paid(["a"], lambda u: 9, 0) == ([], ["a"], 0)
    assert disbanded_count(7, 1, 4) == 3 and disbanded_count(3, 1, 4) == 0
    assert disbanded_count(5, 2, 5) == 3  # 2 units of 2 cost 4 <= 5


def test_percentages_add_up_then_round_down_and_factors_multiply_exactly():
    assert add_percent(1700, 10) == 1870 and add_percent(999, -10) == 899
    parts = [("Silk", 30), ("Tea", 10)]
    assert with_parts(1000, parts) == 1400 and describe(parts) == "Silk +30%, Tea +10%"
    assert scaled(13, ["0.75", "0.5"]) == Decimal("4.875")


@dataclass
class Land:
    name: str
    owner: str


def test_holdings_follow_every_change_of_owner():
    lands = [Land("A", "Stark"), Land("B", ""), Land("C", "Stark")]
    held = Holdings(lands)
    assert held.of("Stark") == ["A", "C"] and held.count("Tully") == 0
    assert held.set_owner(lands[0], "Tully") == "Stark"
    assert held.of("Stark") == ["C"] and held.holds("Tully", "A") and lands[0].owner == "Tully"
    held.set_owner(lands[1], "Stark")
    assert held.of("Stark") == ["C", "B"]


PROPOSE = OrderKind("propose alliance", (Field("deal"), Field("to", names="player")))
ACCEPT = OrderKind("accept alliance", (Field("deal"),))


def ally(ctx) -> None:
    """Alliances between realms: one row per realm the proposer allies with."""
    def check(rows, i) -> str:
        return "you cannot ally with yourself" if rows.fields["to"][i] == rows.players[i] \
            else ""

    deals = agreements.collect(ctx, "propose alliance", "accept alliance", check_item=check,
                               parties=lambda rows, i: (rows.players[i], rows.fields["to"][i]))
    for d in range(len(deals)):
        why = deals.refusal(d)
        deals.finish(ctx, d, Status.REJECTED if why else Status.APPLIED, why)


def test_an_agreement_goes_through_only_when_every_party_accepts():
    rules = ruleset(Phase("a", "alliances", ally, orders=("propose alliance",
                                                          "accept alliance")),
                    kinds=(PROPOSE, ACCEPT), columns=(Column("deal", Kind.RAW),))
    result = play(rules, [
        {"player": "Stark", "order": "propose alliance", "deal": "north", "to": "Tully"},
        {"player": "Stark", "order": "propose alliance", "deal": "north", "to": "Arryn"},
        {"player": "Tully", "order": "accept alliance", "deal": "North"},
        {"player": "Tyrell", "order": "accept alliance", "deal": "north"},
        {"player": "Arryn", "order": "propose alliance", "deal": "north", "to": "Tyrell"},
    ])
    statuses = [r.status for r in result.results]
    assert statuses == [Status.REJECTED] * 5
    assert "not accepted by Arryn" in result.results[0].reason
    assert "you are not part of deal 'north'" in result.results[3].reason
    assert "was proposed by Stark" in result.results[4].reason


def test_a_two_party_agreement_accepted_by_its_own_proposer_still_waits_for_the_other():
    rules = ruleset(Phase("a", "alliances", ally, orders=("propose alliance",
                                                          "accept alliance")),
                    kinds=(PROPOSE, ACCEPT), columns=(Column("deal", Kind.RAW),))
    result = play(rules, [
        {"player": "Stark", "order": "propose alliance", "deal": "north", "to": "Tully"},
        {"player": "Stark", "order": "accept alliance", "deal": "north"},
        {"player": "Arryn", "order": "propose alliance", "deal": "vale", "to": "Tyrell"},
        {"player": "Tyrell", "order": "accept alliance", "deal": " VALE "},
    ])
    assert [r.status for r in result.results] == [Status.REJECTED] * 2 + [Status.APPLIED] * 2
    assert "not accepted by Tully" in result.results[0].reason
