"""DATC (Diplomacy Adjudicator Test Cases, L. B. Kruijswijk) section 6.A-6.E cases that apply
to a land-only game, for sheetmaster.rules.common.land_moves. Fleets are plain units here
(no coasts, no convoys); province names are the DATC's. Cases about illegal orders (6.A.1-10,
6.D.34, 6.E.14), coasts (6.B) and convoys (6.C.4-7, 6.D.6, 6.D.8, 6.D.16, 6.D.27, 6.E.11) are
the caller's or do not apply. The notation is described in sheetmaster/testing/land_cases.py.
"""

from __future__ import annotations

from sheetmaster.testing.land_cases import check


def test_6_A_12_three_units_bounce():
    """DATC 6.A.12: three moves of equal strength into one province all fail."""
    check("""
        Austria vie - tyr   fails: bounced: Italy ven also moved to tyr with equal strength
        Italy ven - tyr     fails: bounced: Austria vie also moved to tyr with equal strength
        Germany mun - tyr   fails: bounced: Austria vie also moved to tyr with equal strength
    """, after="same")


def test_6_C_2_rotation_with_support():
    """DATC 6.C.2: a supported rotation moves too."""
    check("""
        Turkey ank - con        ok: moved to con
        Turkey con - smy        ok: moved to smy
        Turkey smy - ank        ok: moved to ank
        Turkey bul S ank - con  ok: support given to Turkey ank moving to con
    """, after="Turkey con, Turkey smy, Turkey ank, Turkey bul")


def test_6_D_3_move_cuts_support_on_move():
    """DATC 6.D.3: an attack on a supporter cuts its support of a move."""
    check("""
        Austria adr S tri - ven  fails: support cut by an attack from ion
        Austria tri - ven        fails: bounced: Italy ven held ven with equal strength
        Italy ven H              ok: held
        Italy ion - adr          fails: bounced: Austria adr held adr with equal strength
    """, after="same")


def test_6_D_4_support_to_hold_on_a_unit_supporting_a_hold():
    """DATC 6.D.4: a unit that gives a hold support can itself be supported to hold."""
    check("""
        Germany ber S kie       fails: support cut by an attack from pru
        Germany kie S ber       ok: support given to Germany ber holding ber
        Russia bal S pru - ber  ok: support given to Russia pru moving to ber
        Russia pru - ber        fails: bounced: Germany ber held ber with equal strength
    """, after="same")


def test_6_D_5_support_to_hold_on_a_unit_supporting_a_move():
    """DATC 6.D.5: a unit that gives a move support can itself be supported to hold."""
    check("""
        Germany ber S mun - sil  fails: support cut by an attack from pru
        Germany kie S ber        ok: support given to Germany ber holding ber
        Germany mun - sil        ok: moved to sil
        Russia bal S pru - ber   ok: support given to Russia pru moving to ber
        Russia pru - ber         fails: bounced: Germany ber held ber with equal strength
    """, after="Germany ber, Germany kie, Germany sil, Russia bal, Russia pru")


def test_6_D_11_no_self_dislodgement_of_a_returning_unit():
    """DATC 6.D.11: a unit whose move fails stays, and its owner's units cannot dislodge it."""
    check("""
        Germany ber - pru        fails: bounced: Russia war also moved to pru with equal strength
        Germany kie - ber        fails: bounced: Germany ber, of the same owner, did not leave ber
        Germany mun S kie - ber  ok: support given to Germany kie moving to ber
        Russia war - pru         fails: bounced: Germany ber also moved to pru with equal strength
    """, after="same")


def test_6_D_13_no_foreign_support_to_dislodge_a_returning_own_unit():
    """DATC 6.D.13: support from the owner of a unit that failed to leave does not count
    against it."""
    check("""
        Austria tri - adr        fails: bounced: Italy apu also moved to adr with equal strength
        Austria vie S ven - tri  ok: support given to Italy ven moving to tri
        Italy ven - tri          fails: bounced: Austria tri could not leave tri and held it with equal strength (support from Austria does not count against its own unit)
        Italy apu - adr          fails: bounced: Austria tri also moved to adr with equal strength
    """, after="same")


def test_6_D_14_foreign_support_does_not_prevent_dislodgement():
    """DATC 6.D.14: supporting the attacker of one's own unit is no defence; the other
    supports still count."""
    check("""
        Austria tri H            fails: dislodged by Italy ven from ven
        Austria vie S ven - tri  ok: support given to Italy ven moving to tri
        Italy ven - tri          ok: moved to tri, dislodging Austria tri
        Italy tyr S ven - tri    ok: support given to Italy ven moving to tri
        Italy adr S ven - tri    ok: support given to Italy ven moving to tri
    """, after="Austria vie, Italy tri, Italy tyr, Italy adr", dislodged="Austria tri")


def test_6_D_18_a_surviving_unit_sustains_its_support():
    """DATC 6.D.18: a supporter attacked from its support's target keeps its support when it
    survives (here held by a hold support)."""
    check("""
        Russia con S bla - ank  ok: support given to Russia bla moving to ank
        Russia bla - ank        ok: moved to ank, dislodging Turkey ank
        Russia bul S con        ok: support given to Russia con holding con
        Turkey ank - con        fails: bounced: Russia con held con with equal strength; dislodged by Russia bla from bla
        Turkey smy S ank - con  ok: support given to Turkey ank moving to con
        Turkey arm - ank        fails: bounced: Turkey ank, of the same owner, did not leave ank
    """, after="Russia con, Russia ank, Russia bul, Turkey smy, Turkey arm",
        dislodged="Turkey ank")


def test_6_D_19_even_when_surviving_is_in_an_alternative_way():
    """DATC 6.D.19: the supporter survives because its owner's support of the attacker does
    not count against it; its support stands."""
    check("""
        Russia con S bla - ank  ok: support given to Russia bla moving to ank
        Russia bla - ank        ok: moved to ank, dislodging Turkey ank
        Russia smy S ank - con  ok: support given to Turkey ank moving to con
        Turkey ank - con        fails: bounced: Russia con held con with equal strength (support from Russia does not count against its own unit); dislodged by Russia bla from bla
    """, after="Russia con, Russia ank, Russia smy", dislodged="Turkey ank")


def test_6_D_20_unit_cannot_cut_support_of_its_own_country():
    """DATC 6.D.20: an attack by the supporter's own owner does not cut the support."""
    check("""
        England lon S nth - eng  ok: support given to England nth moving to eng
        England nth - eng        ok: moved to eng, dislodging France eng
        England yor - lon        fails: bounced: England lon, of the same owner, did not leave lon
        France eng H             fails: dislodged by England nth from nth
    """, after="England lon, England eng, England yor", dislodged="France eng")


def test_6_D_21_dislodging_does_not_cancel_a_support_cut():
    """DATC 6.D.21: an attacker that is itself dislodged still cut the support it attacked."""
    check("""
        Austria tri H            ok: held
        Italy ven - tri          fails: bounced: Austria tri held tri with equal strength
        Italy tyr S ven - tri    fails: support cut by an attack from mun
        Germany mun - tyr        fails: bounced: Italy tyr held tyr with equal strength; dislodged by Russia sil from sil
        Russia sil - mun         ok: moved to mun, dislodging Germany mun
        Russia ber S sil - mun   ok: support given to Russia sil moving to mun
    """, after="Austria tri, Italy ven, Italy tyr, Russia mun, Russia ber",
        dislodged="Germany mun")


def test_6_D_25_failing_hold_support_can_be_supported():
    """DATC 6.D.25: a unit whose hold support fails (the supported unit moves) can still be
    supported to hold."""
    check("""
        Germany ber S pru       fails: supported unit did not hold: Russia pru was ordered to move to ber
        Germany kie S ber       ok: support given to Germany ber holding ber
        Russia bal S pru - ber  ok: support given to Russia pru moving to ber
        Russia pru - ber        fails: bounced: Germany ber held ber with equal strength
    """, after="same")


def test_6_D_26_failing_move_support_can_be_supported():
    """DATC 6.D.26: a unit whose move support fails (the supported unit moves elsewhere) can
    still be supported to hold."""
    check("""
        Germany ber S pru - sil  fails: supported unit did not move to sil: Russia pru was ordered to move to ber
        Germany kie S ber        ok: support given to Germany ber holding ber
        Russia bal S pru - ber   ok: support given to Russia pru moving to ber
        Russia pru - ber         fails: bounced: Germany ber held ber with equal strength
    """, after="same")


def test_6_D_33_unwanted_support_allowed():
    """DATC 6.D.33: a support nobody asked for still counts, and breaks a self-standoff."""
    check("""
        Austria ser - bud        ok: moved to bud
        Austria vie - bud        fails: bounced: Austria ser also moved to bud with greater strength (2 against 1)
        Russia gal S ser - bud   ok: support given to Austria ser moving to bud
        Turkey bul - ser         ok: moved to ser
    """, after="Austria bud, Austria vie, Russia gal, Turkey ser")


def test_6_E_1_dislodged_unit_has_no_effect_on_the_attackers_area():
    """DATC 6.E.1: the loser of a head-to-head battle does not prevent a move into the
    winner's province."""
    check("""
        Germany ber - pru        ok: moved to pru, dislodging Russia pru
        Germany kie - ber        ok: moved to ber
        Germany sil S ber - pru  ok: support given to Germany ber moving to pru
        Russia pru - ber         fails: bounced head-on: Germany ber moved from ber to pru with greater strength (2 against 1); dislodged by Germany ber from ber
    """, after="Germany pru, Germany ber, Germany sil", dislodged="Russia pru")


def test_6_E_2_no_self_dislodgement_in_a_head_to_head_battle():
    """DATC 6.E.2: a supported move does not dislodge its own owner's unit head-on."""
    check("""
        Germany ber - kie        fails: bounced head-on: Germany kie, of the same owner, moved from kie to ber
        Germany kie - ber        fails: bounced head-on: Germany ber, of the same owner, moved from ber to kie
        Germany mun S ber - kie  ok: support given to Germany ber moving to kie
    """, after="same")


def test_6_E_3_no_help_in_dislodging_own_unit():
    """DATC 6.E.3: a power's support of a foreign head-on attack on its own unit does not
    count for that attack."""
    check("""
        Germany ber - kie        fails: bounced head-on: England kie moved from kie to ber with greater strength (2 against 1)
        Germany mun S kie - ber  ok: support given to England kie moving to ber
        England kie - ber        fails: bounced head-on: Germany ber moved from ber to kie with equal strength (support from Germany does not count against its own unit)
    """, after="same")


def test_6_E_4_non_dislodged_loser_still_has_effect():
    """DATC 6.E.4: the loser of a head-to-head battle that is not dislodged still prevents
    moves into the province it attacked."""
    check("""
        Germany hol - nth        fails: bounced: England nrg also moved to nth with equal strength
        Germany hel S hol - nth  ok: support given to Germany hol moving to nth
        Germany ska S hol - nth  ok: support given to Germany hol moving to nth
        France nth - hol         fails: bounced head-on: Germany hol moved from hol to nth with greater strength (3 against 2)
        France bel S nth - hol   ok: support given to France nth moving to hol
        England edi S nrg - nth  ok: support given to England nrg moving to nth
        England yor S nrg - nth  ok: support given to England nrg moving to nth
        England nrg - nth        fails: bounced: Germany hol also moved to nth with equal strength
        Austria kie S ruh - hol  ok: support given to Austria ruh moving to hol
        Austria ruh - hol        fails: bounced: France nth also moved to hol with equal strength
    """, after="same")


def test_6_E_5_loser_dislodged_by_another_unit_still_has_effect():
    """DATC 6.E.5: the loser of a head-to-head battle, dislodged by a third unit, still
    prevents moves into the province it attacked."""
    check("""
        Germany hol - nth        fails: bounced: England nrg also moved to nth with greater strength (4 against 3)
        Germany hel S hol - nth  ok: support given to Germany hol moving to nth
        Germany ska S hol - nth  ok: support given to Germany hol moving to nth
        France nth - hol         fails: bounced head-on: Germany hol moved from hol to nth with greater strength (3 against 2); dislodged by England nrg from nrg
        France bel S nth - hol   ok: support given to France nth moving to hol
        England edi S nrg - nth  ok: support given to England nrg moving to nth
        England yor S nrg - nth  ok: support given to England nrg moving to nth
        England nrg - nth        ok: moved to nth, dislodging France nth
        England lon S nrg - nth  ok: support given to England nrg moving to nth
        Austria kie S ruh - hol  ok: support given to Austria ruh moving to hol
        Austria ruh - hol        fails: bounced: France nth also moved to hol with equal strength
    """, after="Germany hol, Germany hel, Germany ska, France bel, England edi, England yor, "
         "England nth, England lon, Austria kie, Austria ruh", dislodged="France nth")


def test_6_E_6_not_dislodged_because_of_own_support_still_has_effect():
    """DATC 6.E.6: a unit saved from dislodgement only because its owner's support does not
    count against it still prevents moves into the province it attacked."""
    check("""
        Germany hol - nth        fails: bounced head-on: France nth moved from nth to hol with equal strength (support from France does not count against its own unit)
        Germany hel S hol - nth  ok: support given to Germany hol moving to nth
        France nth - hol         fails: bounced head-on: Germany hol moved from hol to nth with greater strength (3 against 2)
        France bel S nth - hol   ok: support given to France nth moving to hol
        France eng S hol - nth   ok: support given to Germany hol moving to nth
        Austria kie S ruh - hol  ok: support given to Austria ruh moving to hol
        Austria ruh - hol        fails: bounced: France nth also moved to hol with equal strength
    """, after="same")


def test_6_E_7_no_self_dislodgement_with_beleaguered_garrison():
    """DATC 6.E.7: a power's support of an attack on its own garrison does not count, so
    the two attacks stop each other and the garrison stays."""
    check("""
        England nth H            ok: held
        England yor S nwy - nth  ok: support given to Russia nwy moving to nth
        Germany hol S hel - nth  ok: support given to Germany hel moving to nth
        Germany hel - nth        fails: bounced: Russia nwy also moved to nth with greater strength (3 against 2)
        Russia ska S nwy - nth   ok: support given to Russia nwy moving to nth
        Russia nwy - nth         fails: bounced: Germany hel also moved to nth with equal strength (support from England does not count against its own unit)
    """, after="same")


def test_6_E_8_no_self_dislodgement_with_beleaguered_garrison_and_head_to_head():
    """DATC 6.E.8: as 6.E.7, with the garrison moving head-on against one attacker."""
    check("""
        England nth - nwy        fails: bounced head-on: Russia nwy moved from nwy to nth with greater strength (3 against 1)
        England yor S nwy - nth  ok: support given to Russia nwy moving to nth
        Germany hol S hel - nth  ok: support given to Germany hel moving to nth
        Germany hel - nth        fails: bounced: Russia nwy also moved to nth with greater strength (3 against 2)
        Russia ska S nwy - nth   ok: support given to Russia nwy moving to nth
        Russia nwy - nth         fails: bounced: Germany hel also moved to nth with equal strength (support from England does not count against its own unit)
    """, after="same")


def test_6_E_9_almost_self_dislodgement_with_beleaguered_garrison():
    """DATC 6.E.9: once the garrison leaves, its owner's support counts again and the
    stronger attacker enters."""
    check("""
        England nth - nrg        ok: moved to nrg
        England yor S nwy - nth  ok: support given to Russia nwy moving to nth
        Germany hol S hel - nth  ok: support given to Germany hel moving to nth
        Germany hel - nth        fails: bounced: Russia nwy also moved to nth with greater strength (3 against 2)
        Russia ska S nwy - nth   ok: support given to Russia nwy moving to nth
        Russia nwy - nth         ok: moved to nth
    """, after="England nrg, England yor, Germany hol, Germany hel, Russia ska, Russia nth")


def test_6_E_10_almost_circular_movement_with_beleaguered_garrison():
    """DATC 6.E.10: a rotation through a beleaguered garrison fails: the garrison cannot
    leave, so nobody in the circle moves."""
    check("""
        England nth - den        fails: bounced: Germany den could not leave den and held it with equal strength
        England yor S nwy - nth  ok: support given to Russia nwy moving to nth
        Germany hol S hel - nth  ok: support given to Germany hel moving to nth
        Germany hel - nth        fails: bounced: Russia nwy also moved to nth with greater strength (3 against 2)
        Germany den - hel        fails: bounced: Germany hel, of the same owner, did not leave hel
        Russia ska S nwy - nth   ok: support given to Russia nwy moving to nth
        Russia nwy - nth         fails: bounced: Germany hel also moved to nth with equal strength (support from England does not count against its own unit)
    """, after="same")


def test_6_E_12_support_on_attack_on_own_unit_can_be_used_for_other_means():
    """DATC 6.E.12: a support that cannot count against its own owner's unit still
    prevents a third unit from entering."""
    check("""
        Austria bud - rum        fails: bounced: Russia rum held rum with equal strength
        Austria ser S vie - bud  ok: support given to Italy vie moving to bud
        Italy vie - bud          fails: bounced: Austria bud could not leave bud and held it with equal strength (support from Austria does not count against its own unit)
        Russia gal - bud         fails: bounced: Italy vie also moved to bud with equal strength
        Russia rum S gal - bud   ok: support given to Russia gal moving to bud
    """, after="same")


def test_6_E_13_three_way_beleaguered_garrison():
    """DATC 6.E.13: three equal supported attacks on one garrison stop each other."""
    check("""
        England edi S yor - nth  ok: support given to England yor moving to nth
        England yor - nth        fails: bounced: France bel also moved to nth with equal strength
        France bel - nth         fails: bounced: England yor also moved to nth with equal strength
        France eng S bel - nth   ok: support given to France bel moving to nth
        Germany nth H            ok: held
        Russia nrg - nth         fails: bounced: England yor also moved to nth with equal strength
        Russia nwy S nrg - nth   ok: support given to Russia nrg moving to nth
    """, after="same")


def test_6_E_15_the_friendly_head_to_head_battle():
    """DATC 6.E.15: a head-to-head battle of equal strength bounces, and each side still
    prevents the other attacks on the province it aimed at."""
    check("""
        England hol S ruh - kie  ok: support given to England ruh moving to kie
        England ruh - kie        fails: bounced: Germany ber also moved to kie with greater strength (3 against 2)
        France kie - ber         fails: bounced head-on: Germany ber moved from ber to kie with equal strength
        France mun S kie - ber   ok: support given to France kie moving to ber
        France sil S kie - ber   ok: support given to France kie moving to ber
        Germany ber - kie        fails: bounced head-on: France kie moved from kie to ber with equal strength
        Germany den S ber - kie  ok: support given to Germany ber moving to kie
        Germany hel S ber - kie  ok: support given to Germany ber moving to kie
        Russia bal S pru - ber   ok: support given to Russia pru moving to ber
        Russia pru - ber         fails: bounced: France kie also moved to ber with greater strength (3 against 2)
    """, after="same")
