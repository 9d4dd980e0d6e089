"""Supports and cuts after land combat (step 9): each support, entrenchment, cut and coastal
support order gets its result, and Infantry cutting a larger force's support risk the d6
("On a result of 1-2, one of the Infantry units ordered to cut support is disbanded")."""

from __future__ import annotations

from sheetmaster.kit import Context, Status, plural

from .. import data
from ..world import GoldenWorld
from .common import turn_state
from .land_battle import Battlefield
from .land_orders import side


def support_results(ctx: Context, field: Battlefield) -> None:
    """Entrenchments, supports, cuts and the warships' coastal support."""
    world: GoldenWorld = ctx.world
    state = turn_state(ctx)
    plan = state.land
    rows = {u.name: u for u in world.unit_rows} if plan.entrenched else {}
    for name, order in plan.entrenched.items():
        unit = rows[name]
        note = f"; it was {unit.status}" if not unit.alive else ""
        ctx.resolve(order, Status.APPLIED, f"entrenched in {unit.at}{note}")
    for support in plan.supports:
        why = field.offensive_given(support) if support.offensive else \
            field.support_cut(support)
        if why:
            ctx.resolve(support.order, Status.BLOCKED, why)
        elif support.offensive and not field.fought(field.by_unit[support.of]):
            ctx.resolve(support.order, Status.NOT_NEEDED, f"nobody defended {support.to}: "
                        "there were no forces to attack")
        elif support.offensive:
            ctx.resolve(support.order, Status.APPLIED, f"supporting attack on {support.to} "
                        f"with {support.of}'s forces (+{field.unit_value(support.unit)})")
        else:
            ctx.resolve(support.order, Status.APPLIED, f"support given to the forces of "
                        f"{support.of}")
    given: dict[tuple[str, str], list] = {}  # (side, where) -> the supports given there
    for support in plan.supports:
        given.setdefault((side(support.unit), support.unit.at), []).append(support)
    for cut in plan.cuts:
        gives = given.get((cut.side, cut.province), [])
        if gives:
            ctx.resolve(cut.order, Status.APPLIED, f"cut the supports of {cut.side}'s forces "
                        f"in {cut.province} ({', '.join(s.unit.name for s in gives)})")
        else:
            ctx.resolve(cut.order, Status.NOT_NEEDED, f"{cut.side}'s forces in "
                        f"{cut.province} give no support")
    engaged = set(field.rolls)
    for name, orders in state.coastal_support.items():
        for order in orders:
            if name in engaged:
                ctx.resolve(order, Status.APPLIED, f"supported the forces of {name} in "
                            "their engagement")
            else:
                ctx.resolve(order, Status.NOT_NEEDED, f"the forces of {name} fought no "
                                                      "engagement")


def cut_attrition(ctx: Context, field: Battlefield) -> None:
    """ "If the Infantry ordered to cut support numbers less than half of the number of the
    target force, 1d6 is rolled. On a result of 1-2, one of the Infantry units ordered to cut
    support is disbanded." (digest F28: one roll per nation's group against one force)."""
    world: GoldenWorld = ctx.world
    groups: dict[tuple[str, str, str], list] = {}
    for cut in field.plan.cuts:
        groups.setdefault((cut.unit.nation, cut.side, cut.province), []).append(cut)
    for (nation, target, where), cuts in groups.items():
        force = len(field.stays.get(where, {}).get(target, [])) + sum(
            len(m.units) for m in field.out_of.get(where, ()) if m.nation == target)
        if 2 * len(cuts) >= force:
            continue
        roll = ctx.dice.roll(data.CUT_DIE, nation, f"cutting the support of {target}'s "
                             f"{plural(force, 'unit')} in {where} with {len(cuts)}",
                             name=f"cut {nation} {where}")
        if roll > data.CUT_LOSES_AT_MOST:
            continue
        loser = cuts[-1].unit
        if loser.name in world.units:
            world.remove(loser, f"lost cutting support at {where}")
            ctx.emit(nation, "cut support", f"{loser.name} was lost cutting the support of "
                     f"{target}'s forces in {where} (rolled {roll})")
