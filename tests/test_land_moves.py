"""Diplomacy-style land moves (sheetmaster.rules.common.land_moves): the core rules, cut
orders, strength bonuses, refused input, determinism and scale. More DATC cases are in
test_land_moves_datc.py; the notation is described in sheetmaster/testing/land_cases.py."""

from __future__ import annotations

import itertools

import pytest

from sheetmaster.rules.common import land_moves as lm
from sheetmaster.testing.land_cases import anywhere, check, parse


def test_plain_move():
    """A lone move into an empty province succeeds."""
    check("""
        Red Tosa - Kozu            ok: moved to Kozu
    """, after="Red Kozu")


def test_move_into_a_held_province_bounces():
    """Attack 1 does not beat hold 1: the attacker stays, the holder is not dislodged."""
    check("""
        Red Tosa - Kozu            fails: bounced: Blue Kozu held Kozu with equal strength
        Blue Kozu H                ok: held
    """, after="same")


def test_6_A_11_two_units_bounce_in_an_empty_province():
    """DATC 6.A.11: two moves of equal strength into one empty province both fail."""
    check("""
        Austria vie - tyr   fails: bounced: Italy ven also moved to tyr with equal strength
        Italy ven - tyr     fails: bounced: Austria vie also moved to tyr with equal strength
    """, after="same")


def test_supported_attack_dislodges():
    """Attack 1 + 1 support beats hold 1: the attacker enters, the holder is dislodged."""
    check("""
        Red Tosa - Kozu            ok: moved to Kozu, dislodging Blue Kozu
        Red Awa S Tosa - Kozu      ok: support given to Red Tosa moving to Kozu
        Blue Kozu H                fails: dislodged by Red Tosa from Tosa
    """, after="Red Kozu, Red Awa", dislodged="Blue Kozu")


def test_6_D_2_support_cut_by_a_third_unit():
    """DATC 6.D.2: a support is cut by an attack from a province other than the one the
    support is aimed at, even a failed one; the unsupported holder is then dislodged."""
    check("""
        Austria adr S tri - ven   ok: support given to Austria tri moving to ven
        Austria tri - ven         ok: moved to ven, dislodging Italy ven
        Austria vie - tyr         fails: bounced: Italy tyr held tyr with equal strength
        Italy ven H               fails: dislodged by Austria tri from tri
        Italy tyr S ven           fails: support cut by an attack from vie
    """, after="Austria adr, Austria ven, Austria vie, Italy tyr", dislodged="Italy ven")


def test_6_D_15_support_not_cut_by_an_attack_from_its_target():
    """DATC 6.D.15: an attack from the province a support is aimed at cuts it only by
    dislodging the supporter; here it fails, so the support stands and the attacker's own
    province is taken."""
    check("""
        Russia con S bla - ank  ok: support given to Russia bla moving to ank
        Russia bla - ank        ok: moved to ank, dislodging Turkey ank
        Turkey ank - con        fails: bounced: Russia con held con with equal strength; dislodged by Russia bla from bla
    """, after="Russia con, Russia ank", dislodged="Turkey ank")


def test_cut_order_cuts_a_support_and_the_cutter_stays():
    """A cut order "blocks any support offered by the adjacent target forces" (Golden Age
    1861): the holder loses its hold support and is dislodged; the cutter does not move."""
    check("""
        Red Iyo - Awa               ok: moved to Awa, dislodging Blue Awa
        Red Tosa S Iyo - Awa        ok: support given to Red Iyo moving to Awa
        Red Bingo C Sanuki          ok: cut the support given by Blue Sanuki from Sanuki
        Blue Awa H                  fails: dislodged by Red Iyo from Iyo
        Blue Sanuki S Awa           fails: support cut by Red Bingo's cut order from Bingo
    """, after="Red Awa, Red Tosa, Red Bingo, Blue Sanuki", dislodged="Blue Awa")


def test_cut_order_cuts_even_from_the_province_the_support_is_aimed_at():
    """Unlike an attack (DATC 6.D.15), a cut order blocks "any support" of its target, also
    one aimed at the cutter's own province; the cutter still holds with strength 1."""
    check("""
        Red Tosa - Kozu             fails: bounced: Blue Kozu held Kozu with equal strength
        Red Awa S Tosa - Kozu       fails: support cut by Blue Kozu's cut order from Kozu
        Blue Kozu C Awa             ok: cut the support given by Red Awa from Awa
    """, after="same")
    check("""
        Red Tosa - Kozu             ok: moved to Kozu, dislodging Blue Kozu
        Red Awa S Tosa - Kozu       ok: support given to Red Tosa moving to Kozu
        Blue Kozu - Awa             fails: bounced: Red Awa held Awa with equal strength; dislodged by Red Tosa from Tosa
    """, after="Red Kozu, Red Awa", dislodged="Blue Kozu")


def test_cut_order_never_moves_dislodges_or_prevents():
    """A cut unit "never moves and never dislodges": it stays put, it does not stand in the
    way of a move into the province it cuts, and a move support for it counts for nothing."""
    check("""
        Red Tosa C Kozu             fails: nothing to cut: no unit in Kozu
        Red Iyo C Sanuki            fails: nothing to cut: Blue Sanuki in Sanuki gives no support
        Red Harima S Iyo - Sanuki   fails: supported unit did not move to Sanuki: Red Iyo was ordered to cut
        Blue Awa - Kozu             ok: moved to Kozu
        Blue Sanuki H               ok: held
    """, after="Red Tosa, Red Iyo, Red Harima, Blue Kozu, Blue Sanuki")


def test_cut_order_does_not_cut_its_own_owners_support():
    """As no unit cuts a support of its own owner (DATC 6.D.20), a cut order aimed at its own
    owner's unit does nothing."""
    check("""
        Red Tosa - Kozu             ok: moved to Kozu, dislodging Blue Kozu
        Red Awa S Tosa - Kozu       ok: support given to Red Tosa moving to Kozu
        Red Iyo C Awa               fails: nothing to cut: Red Awa in Awa has the same owner
        Blue Kozu H                 fails: dislodged by Red Tosa from Tosa
    """, after="Red Kozu, Red Awa, Red Iyo", dislodged="Blue Kozu")


def test_a_dislodged_cutter_still_cuts():
    """As a dislodged attacker's cut stands (DATC 6.D.21), a cut order takes effect even if
    its unit is dislodged the same turn."""
    check("""
        Red Iyo - Awa               ok: moved to Awa, dislodging Blue Awa
        Red Tosa S Iyo - Awa        ok: support given to Red Iyo moving to Awa
        Red Bingo C Sanuki          ok: cut the support given by Blue Sanuki from Sanuki; dislodged by Blue Harima from Harima
        Blue Awa H                  fails: dislodged by Red Iyo from Iyo
        Blue Sanuki S Awa           fails: support cut by Red Bingo's cut order from Bingo
        Blue Harima - Bingo         ok: moved to Bingo, dislodging Red Bingo
        Blue Settsu S Harima - Bingo  ok: support given to Blue Harima moving to Bingo
    """, after="Red Awa, Red Tosa, Blue Sanuki, Blue Bingo, Blue Settsu",
          dislodged="Blue Awa, Red Bingo")


def test_6_D_10_self_dislodgement_forbidden():
    """DATC 6.D.10: a unit cannot dislodge a unit of its own owner, however supported."""
    check("""
        Germany ber H               ok: held
        Germany kie - ber           fails: bounced: Germany ber, of the same owner, did not leave ber
        Germany mun S kie - ber     ok: support given to Germany kie moving to ber
    """, after="same")


def test_6_D_12_no_foreign_support_to_dislodge_own_unit():
    """DATC 6.D.12: a support from the defender's own owner does not count for the attack
    on it, so a power cannot help dislodge its own unit."""
    check("""
        Austria tri H               ok: held
        Austria vie S ven - tri     ok: support given to Italy ven moving to tri
        Italy ven - tri             fails: bounced: Austria tri held tri with equal strength (support from Austria does not count against its own unit)
    """, after="same")


def test_head_to_head_swap_bounces():
    """Without convoys two units never swap: a head-to-head battle of equal strength bounces
    both, and so does one between two units of the same owner."""
    check("""
        Red Tosa - Kozu             fails: bounced head-on: Blue Kozu moved from Kozu to Tosa with equal strength
        Blue Kozu - Tosa            fails: bounced head-on: Red Tosa moved from Tosa to Kozu with equal strength
    """, after="same")
    check("""
        Red Tosa - Kozu             fails: bounced head-on: Red Kozu, of the same owner, moved from Kozu to Tosa
        Red Kozu - Tosa             fails: bounced head-on: Red Tosa, of the same owner, moved from Tosa to Kozu
        Red Awa S Tosa - Kozu       ok: support given to Red Tosa moving to Kozu
    """, after="same")


def test_6_C_1_three_way_rotation_succeeds():
    """DATC 6.C.1: three units moving in a circle all move (the cycle's backup rule)."""
    check("""
        Turkey ank - con            ok: moved to con
        Turkey con - smy            ok: moved to smy
        Turkey smy - ank            ok: moved to ank
    """, after="Turkey con, Turkey smy, Turkey ank")


def test_6_C_3_rotation_broken_by_an_outside_unit():
    """DATC 6.C.3: a unit from outside bouncing into the circle stops the whole rotation."""
    check("""
        Turkey ank - con    fails: bounced: Turkey con, of the same owner, did not leave con
        Turkey con - smy    fails: bounced: Turkey smy, of the same owner, did not leave smy
        Turkey smy - ank    fails: bounced: Turkey ank, of the same owner, did not leave ank
        Turkey bul - con    fails: bounced: Turkey con, of the same owner, did not leave con
    """, after="same")


def test_6_D_1_support_hold_defeats_a_single_supported_attack():
    """DATC 6.D.1: hold 1 + 1 support is not beaten by attack 1 + 1 support."""
    check("""
        Austria adr S tri - ven     ok: support given to Austria tri moving to ven
        Austria tri - ven           fails: bounced: Italy ven held ven with equal strength
        Italy ven H                 ok: held
        Italy tyr S ven             ok: support given to Italy ven holding ven
    """, after="same")


def test_6_D_7_hold_support_given_to_a_moving_unit_fails():
    """DATC 6.D.7: a unit ordered to move cannot be supported to hold, even if its move
    fails; it defends with strength 1 and is dislodged."""
    check("""
        Germany bal - swe   fails: bounced: Russia fin also moved to swe with equal strength; dislodged by Russia lvn from lvn
        Germany pru S bal   fails: supported unit did not hold: Germany bal was ordered to move to swe
        Russia lvn - bal    ok: moved to bal, dislodging Germany bal
        Russia bot S lvn - bal   ok: support given to Russia lvn moving to bal
        Russia fin - swe    fails: bounced: Germany bal also moved to swe with equal strength
    """, after="Germany pru, Russia bal, Russia bot, Russia fin", dislodged="Germany bal")


def test_6_D_9_move_support_given_to_a_holding_unit_fails():
    """DATC 6.D.9: a support to a move that was not ordered gives nothing."""
    check("""
        Italy ven - tri             ok: moved to tri, dislodging Austria tri
        Italy tyr S ven - tri       ok: support given to Italy ven moving to tri
        Austria alb S tri - ser     fails: supported unit did not move to ser: Austria tri was ordered to hold
        Austria tri H               fails: dislodged by Italy ven from ven
    """, after="Italy tri, Italy tyr, Austria alb", dislodged="Austria tri")


def test_6_D_17_dislodged_units_support_is_cut():
    """DATC 6.D.17: an attack from the supported target cuts the support by dislodging the
    supporter; the support lost, the two moves into ank bounce."""
    check("""
        Russia con S bla - ank  fails: support cut: dislodged by Turkey ank from ank
        Russia bla - ank        fails: bounced: Turkey arm also moved to ank with equal strength
        Turkey ank - con        ok: moved to con, dislodging Russia con
        Turkey smy S ank - con  ok: support given to Turkey ank moving to con
        Turkey arm - ank        fails: bounced: Russia bla also moved to ank with equal strength
    """, after="Russia bla, Turkey con, Turkey smy, Turkey arm", dislodged="Russia con")


def test_beleaguered_garrison_stays():
    """Two attacks of equal strength on one holder stop each other: the garrison stays, even
    though each attack alone would dislodge it."""
    check("""
        Blue Kozu H                 ok: held
        Red Tosa - Kozu             fails: bounced: Green Iyo also moved to Kozu with equal strength
        Red Awa S Tosa - Kozu       ok: support given to Red Tosa moving to Kozu
        Green Iyo - Kozu            fails: bounced: Red Tosa also moved to Kozu with equal strength
        Green Sanuki S Iyo - Kozu   ok: support given to Green Iyo moving to Kozu
    """, after="same")


def test_chain_of_moves_into_a_vacated_province():
    """A unit may enter a province its occupant leaves in the same turn, along a chain; when
    the head of the chain bounces, every unit behind it stays."""
    check("""
        Red Tosa - Kozu             ok: moved to Kozu
        Red Kozu - Awa              ok: moved to Awa
        Blue Awa - Iyo              ok: moved to Iyo
    """, after="Red Kozu, Red Awa, Blue Iyo")
    check("""
        Red Tosa - Kozu    fails: bounced: Red Kozu, of the same owner, did not leave Kozu
        Red Kozu - Awa     fails: bounced: Blue Awa could not leave Awa and held it with equal strength
        Blue Awa - Iyo     fails: bounced: Green Iyo held Iyo with equal strength
        Green Iyo H        ok: held
    """, after="same")


def test_strength_bonus_adds_to_every_strength_a_unit_shows():
    """A ruleset's bonus (entrenchment, a fort, a die rolled before) adds to the holder's
    hold and to a move's attack and prevent; it never lets a unit dislodge its own owner's."""
    entrenched = {"Blue Kozu": 1, "Red Iyo": 2, "Red Sanuki": 5, "Red Bingo": -3}
    check("""
        Red Tosa - Kozu       fails: bounced: Blue Kozu held Kozu with equal strength
        Red Awa S Tosa - Kozu ok: support given to Red Tosa moving to Kozu
        Blue Kozu H           ok: held
        Red Iyo - Harima      ok: moved to Harima
        Blue Settsu - Harima  fails: bounced: Red Iyo also moved to Harima with greater strength (3 against 1)
        Red Sanuki - Bizen    fails: bounced: Red Bizen, of the same owner, did not leave Bizen
        Red Bizen H           ok: held
        Red Bingo - Aki       fails: bounced: a strength of 0 cannot enter Aki
    """, after="Red Tosa, Red Awa, Blue Kozu, Red Harima, Blue Settsu, Red Sanuki, Red Bizen, "
          "Red Bingo", bonus=lambda order: entrenched.get(order.unit, 0))


def test_strength_bonus_is_asked_once_per_order_in_order():
    """Adjudication decides some orders more than once; the bonus callable is still called
    exactly once per order, in the orders' order, before anything is decided."""
    orders = [order for order, _ in parse("""
        Turkey ank - con    ok: -
        Turkey con - smy    ok: -
        Turkey smy - ank    ok: -
        Turkey bul S ank - con  ok: -
    """)]
    asked: list[str] = []
    lm.adjudicate(orders, anywhere, lambda order: asked.append(order.unit) or 0)
    assert asked == [o.unit for o in orders]


def test_reasons_and_outcome_fields():
    """The reason names the other unit as the caller names it; the outcome tells where the
    unit ends and who dislodged it."""
    out = lm.adjudicate([lm.move("Army A", "Red", "Tosa", "Kozu"),
                         lm.move("Army B", "Blue", "Awa", "Kozu"),
                         lm.move("Army C", "Red", "Iyo", "Awa"),
                         lm.support_move("Army D", "Red", "Sanuki", "Iyo", "Awa")], anywhere)
    assert out["Army A"].reason == "bounced: Army B also moved to Kozu with equal strength"
    assert (out["Army A"].succeeded, out["Army A"].ends_at) == (False, "Tosa")
    assert out["Army B"].dislodged_by == "Army C" and out["Army B"].dislodged
    assert (out["Army C"].succeeded, out["Army C"].ends_at) == (True, "Awa")
    assert not out["Army C"].dislodged
    assert list(out) == ["Army A", "Army B", "Army C", "Army D"]


@pytest.mark.parametrize(("orders", "message"), [
    ([lm.hold("A", "Red", "Tosa"), lm.move("A", "Red", "Tosa", "Kozu")], "two orders for unit A"),
    ([lm.hold("A", "Red", "Tosa"), lm.hold("B", "Blue", "Tosa")], "two units in Tosa"),
    ([lm.move("A", "Red", "Tosa", "Edo")], "reaches Edo, which is not adjacent"),
    ([lm.support_hold("A", "Red", "Tosa", "Edo")], "reaches Edo, which is not adjacent"),
    ([lm.cut("A", "Red", "Tosa", "Edo")], "reaches Edo, which is not adjacent"),
    ([lm.move("A", "Red", "Tosa", "Tosa")], "needs 'to' to name another province"),
    ([lm.LandOrder("A", "Red", "Tosa", "move")], "needs 'to' to name another province"),
    ([lm.support_move("A", "Red", "Tosa", "Kozu", "Kozu")], "from Kozu to itself"),
])
def test_inconsistent_input_is_refused(orders, message):
    """The module assumes valid orders; input no valid turn has raises a clear ValueError."""
    near = {frozenset(p) for p in [("Tosa", "Kozu"), ("Tosa", "Awa"), ("Awa", "Kozu")]}
    with pytest.raises(ValueError, match=message):
        lm.adjudicate(orders, lambda a, b: frozenset((a, b)) in near)


def test_results_do_not_depend_on_the_order_of_the_orders():
    """Same orders in any order: same outcomes (a rotation, its support and an outsider)."""
    orders = [order for order, _ in parse("""
        Turkey ank - con       ok: -
        Turkey con - smy       ok: -
        Turkey smy - ank       ok: -
        Turkey bul S ank - con ok: -
        Russia sev - ank       ok: -
    """)]
    first = lm.adjudicate(orders, anywhere)
    for shuffled in itertools.permutations(orders):
        assert lm.adjudicate(shuffled, anywhere) == first


@pytest.mark.parametrize("rotation", [False, True])
def test_three_thousand_units_in_a_column(rotation):
    """A column of 3,000 units, each moving into the next one's province (the last into an
    empty one, or into the first one's: a rotation), all move: no recursion limit is hit."""
    n = 3000
    last = "p0" if rotation else f"p{n}"
    orders = [lm.move(f"u{i}", "Red", f"p{i}", f"p{i + 1}" if i < n - 1 else last)
              for i in range(n)]
    out = lm.adjudicate(orders, anywhere)
    assert all(o.succeeded for o in out.values())
