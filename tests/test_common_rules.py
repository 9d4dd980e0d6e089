"""The shared rules pieces: treasury, order guards, upkeep that disbands until paid, modifier
arithmetic, ownership, and agreements (named deals whole or not at all; two-party offers and
their answers)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from toy import LAND_ROWS, REALM_ROWS, play, ruleset

from sheetmaster.kit.model import Order, Status
from sheetmaster.kit.orders import Field, OrderKind
from sheetmaster.kit.ruleset import Phase
from sheetmaster.kit.schema import Column, Kind
from sheetmaster.rules.common import agreements
from sheetmaster.rules.common.guards import Guards
from sheetmaster.rules.common.modifiers import add_percent, describe, scaled, with_parts
from sheetmaster.rules.common.ownership import Holdings
from sheetmaster.rules.common.treasury import Purse, pay
from sheetmaster.rules.common.upkeep import disband_until_paid, disbanded_count


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


def test_a_purse_words_its_reason_and_logs_each_payment_its_own_way():
    """One pay for every game: the money field, the currency word, how amounts and the holder
    are written, and the game's log line are the purse's; nothing changes on a refusal."""
    logged = []
    purse = Purse("coins", currency="to spend", show=lambda n: f"{n:.2f}",
                  has=lambda realm, have: f"{realm.name} has {have} left this turn",
                  paid=lambda ctx, realm, cost, what: logged.append((realm.name, cost, what)))

    def spend(ctx) -> None:
        for order in ctx.orders("pay"):
            realm = ctx.world.realms[order.player]
            if pay(ctx, order, realm, order.fields["amount"], purse, "a feast"):
                ctx.resolve(order, Status.APPLIED, "feasted")

    result = play(ruleset(Phase("p", "pay", spend, orders=("pay",))),
                  [{"player": "Stark", "order": "pay", "amount": 5},
                   {"player": "Tully", "order": "pay", "amount": 6}])
    assert result.results[0].status is Status.APPLIED
    assert result.results[1].reason == "not enough to spend: it costs 6.00, Tully has 5.00 " \
                                       "left this turn"
    assert logged == [("Stark", 5, "a feast")]
    coins = result.after.tables["Realms"].set_index("realm")["coins"]
    assert (coins["Stark"], coins["Tully"]) == (0, 5)


def test_a_purse_checks_and_takes_without_an_order():
    @dataclass
    class Holder:
        name: str
        gold: int

    gold, rich = Purse("gold"), Holder("Stark", 7)
    assert gold.can_pay(rich, 7) and not gold.can_pay(rich, 8)
    assert gold.shortfall(rich, 7) == ""
    assert gold.shortfall(rich, 8) == "not enough gold: it costs 8, you have 7"
    gold.take(rich, 3)
    assert rich.gold == 4


RAID = OrderKind("raid", (Field("land", names="land"), Field("of", names="player")))


def _guards(**hooks) -> Guards:
    return Guards("realms", "realm", territories="lands",
                  not_yours=lambda land, realm: f"{land.name} is not {realm.name}'s",
                  **hooks)


def _raid(guards: Guards):
    def run(ctx) -> None:
        for order in ctx.orders("raid"):
            realm = guards.acting(ctx, order)
            land = realm and guards.own_territory(ctx, order, realm, column="land")
            target = land and guards.other_player(ctx, order, realm, column="of")
            if target is not None:
                ctx.resolve(order, Status.APPLIED, f"{realm.name} raids {target.name} from "
                                                   f"{land.name}")
    return run


def test_the_guards_check_the_actor_its_territory_and_the_other_player_in_that_order():
    guards = _guards(yourself=lambda realm: f"{realm.name} itself",
                     cannot_act=lambda ctx, order, realm: "broke" if not realm.coins else "",
                     not_target=lambda realm: "sworn to peace" if realm.name == "Arryn" else "")
    rules = ruleset(Phase("r", "raids", _raid(guards), orders=("raid",)), kinds=(RAID,))
    lands = [{**row, "owner": "Stark" if row["land"] in "AB" else "Tully"}
             for row in LAND_ROWS]
    realms = [{**row, "coins": 0 if row["realm"] == "Tyrell" else 5} for row in REALM_ROWS]
    result = play(rules, [
        {"player": "Tyrell", "order": "raid", "land": "C", "of": "Stark"},
        {"player": "Stark", "order": "raid", "land": "C", "of": "Tully"},
        {"player": "Stark", "order": "raid", "land": "A", "of": "Stark"},
        {"player": "Stark", "order": "raid", "land": "A", "of": "Arryn"},
        {"player": "Stark", "order": "raid", "land": "B", "of": "Tully"},
    ], tables={"Lands": lands, "Realms": realms})
    assert [r.reason for r in result.results] == [
        "broke", "C is not Stark's", "name another realm, not Stark itself", "sworn to peace",
        "Stark raids Tully from B"]
    assert [r.status for r in result.results] == [Status.REJECTED] * 4 + [Status.APPLIED]


def test_guards_by_default_let_anyone_act_on_anyone_else():
    rules = ruleset(Phase("r", "raids", _raid(_guards()), orders=("raid",)), kinds=(RAID,))
    lands = [{**row, "owner": "Stark"} for row in LAND_ROWS]
    result = play(rules, [{"player": "Stark", "order": "raid", "land": "A", "of": "Stark"},
                          {"player": "Stark", "order": "raid", "land": "A", "of": "Arryn"}],
                  tables={"Lands": lands})
    assert [r.reason for r in result.results] == ["name another realm, not yourself",
                                                  "Stark raids Arryn from A"]


def _order(row: int, player: str, kind: str, **fields) -> Order:
    return Order(row, row, player, kind, fields)


#: cede/accept by province, and a pact both sides declare naming each other.
OFFERS = agreements.Offers(
    {"cede": "take", "pact": "pact"},
    answers=lambda offer, answer: answer.player == offer.fields["to"] and (
        answer.fields.get("land") == offer.fields.get("land") if offer.kind == "cede"
        else answer.fields["to"] == offer.player),
    awaited=lambda offer: (offer.fields["to"], f"answer '{offer.kind}'"),
    missing=lambda answer: f"offer for {answer.player}")


def test_offers_pair_each_with_its_earliest_answer_once_and_say_why_the_rest_fail():
    cede = _order(1, "Stark", "cede", land="A", to="Tully")
    late = _order(2, "Tully", "take", land="B")
    take = _order(3, "Tully", "take", land="A")
    again = _order(4, "Tully", "take", land="A")
    pact = _order(5, "Arryn", "pact", to="Tyrell")
    back = _order(6, "Tyrell", "pact", to="Arryn")
    lone = _order(7, "Stark", "pact", to="Arryn")
    partner = OFFERS.pair_up([cede, late, take, again, pact, back, lone])
    assert partner == {1: take, 3: cede, 5: back, 6: pact}
    assert OFFERS.unanswered(lone) == "Arryn did not answer 'pact' this turn"
    assert OFFERS.unanswered(again) == "no offer for Tully this turn"
    assert agreements.partner_rejected(take) == "Tully's 'take' (order row 3) was rejected"


def test_offers_with_a_key_pair_only_within_it():
    named = agreements.Offers({"lend": "accept"},
                              answers=lambda o, a: a.player == o.fields["to"],
                              awaited=lambda o: (o.fields["to"], "accept it"),
                              missing=lambda a: "loan", key=lambda o: o.fields["deal"].lower())
    lend = _order(1, "Stark", "lend", deal="L1", to="Tully")
    other = _order(2, "Tully", "accept", deal="L2")
    accept = _order(3, "Tully", "accept", deal="l1")
    assert named.pair_up([lend, other, accept]) == {1: accept, 3: lend}


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
