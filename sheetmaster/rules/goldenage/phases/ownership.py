"""Step 15: ownership of provinces updated (change in control/occupation status, if any).

An occupation is a timer with no set end; with an intent to annex or puppet it is a 4-year
timer instead ("Forceful annexation: after occupation, nation opts to annex. Takes 4 years";
"Puppeting ... Takes 4 years"). When a province becomes occupied its unfinished construction
is cancelled with half refunded (digest F35), its fort is mothballed, and a capital's fall
costs its nation half its reserve and halves its income (digest F14, F37).
"""

from __future__ import annotations

from sheetmaster.kit import PRIVATE, Context

from .. import data
from ..settings import INTEGRATION_PAYMENT
from ..tables import PERMANENT
from ..world import GoldenWorld
from .common import (
    CURRENCY,
    both,
    fort_reactivation,
    fully_controls,
    treasury,
    turn_state,
)
from .processes import ANNEXATION, BUILDS, INTEGRATION, OCCUPATION, OCCUPYING, PUPPETING

OWNERSHIP_RULE = ("Ownership of provinces updated (change in control/occupation status, if "
                  "any). " + data.CAPITAL_FALL_RULE + " Railroads remain the property of the "
                  "Nation which built them, until another Nation fully controls both "
                  "provinces connected by a railroad.")
INTENT_KINDS = {"annex": ANNEXATION, "puppet": PUPPETING, "": OCCUPATION}


def update_ownership(ctx: Context) -> None:
    world: GoldenWorld = ctx.world
    state = turn_state(ctx)
    state.capitals = None  # read afresh when an occupation first asks (see _capitals)
    for where in sorted(state.liberated):
        _end_occupation(ctx, where, f"{world.provinces[where].owner} took it back")
    for where, victor in state.taken.items():
        _occupy(ctx, where, victor, state.intents.get(where, ""))
    for where, intent in state.reissued.items():
        _new_intent(ctx, where, intent)
    _rebels_take_empty_provinces(ctx)
    _complete_occupations(ctx)
    for where, (nation, order) in state.integrations.items():
        _begin_integration(ctx, where, nation, order.row)
    for province in world.provinces.values():
        province.nationalist_revolt = any(u.type == data.NATIONALIST_REBEL
                                          for u in world.land_units_in(province.name))
    _railroads(ctx)


def _occupy(ctx: Context, where: str, victor: str, intent: str) -> None:
    world: GoldenWorld = ctx.world
    province = world.provinces[where]
    if province.occupied_by:
        _end_occupation(ctx, where, f"{victor} took it", quiet=True)
    loser = province.owner
    province.occupied_by = victor
    kind = INTENT_KINDS.get(intent, OCCUPATION) if victor != data.REBELS else OCCUPATION
    turns = None if kind == OCCUPATION else data.ANNEX_SEASONS
    timer = ctx.timers.start(kind, victor, where, turns, data={"province": where})
    province.occupation_timer = timer.id
    both(ctx, victor, loser, "occupation", f"{victor} occupies {where}"
         + (f" ({loser}'s)" if loser else " (neutral)")
         + (f", intending to {intent} it" if intent and kind != OCCUPATION else ""))
    fort = world.fort(where)
    reactivating = fort is not None and fort_reactivation(ctx, where) is not None
    _refund_construction(ctx, where)
    if fort is not None and (fort.state != data.MOTHBALLED or reactivating):
        fort.state = data.MOTHBALLED
        ctx.emit(loser or victor, "fort mothballed", f"the Fort in {where} is mothballed: the "
                                                     "province is occupied")
    for nation in _capitals(ctx).get(where, ()):
        if nation.capital == where:
            _capital_falls(ctx, nation.name, where)


def _capitals(ctx: Context) -> dict[str, list]:
    """Capital -> the nations whose capital it was when this step began (a capital only
    falls during it), read once, not once an occupation (issue 26.1)."""
    state = turn_state(ctx)
    if state.capitals is None:
        state.capitals = {}
        for nation in ctx.world.nations.values():
            state.capitals.setdefault(nation.capital, []).append(nation)
    return state.capitals


def _end_occupation(ctx: Context, where: str, why: str, *, quiet: bool = False) -> None:
    world: GoldenWorld = ctx.world
    province = world.provinces[where]
    occupier = province.occupied_by
    for timer in ctx.timers.among(OCCUPYING, where, keys=("province",), status=None):
        if timer.owner == occupier and timer.live:
            ctx.timers.cancel(timer, why)
    province.occupied_by, province.occupation_timer = "", ""
    if not quiet:
        both(ctx, province.owner or occupier, occupier, "liberation",
             f"the occupation of {where} by {occupier} ends: {why}")


def _new_intent(ctx: Context, where: str, intent: str) -> None:
    """Reissuing the invasion during the occupation sets a new intent: its timer starts
    again (digest F51)."""
    world: GoldenWorld = ctx.world
    province = world.provinces[where]
    occupier = province.occupied_by
    kind = INTENT_KINDS.get(intent, OCCUPATION)
    for timer in ctx.timers.among(OCCUPYING, where, keys=("province",), status=None):
        if timer.owner == occupier and timer.live:
            if timer.kind == kind:
                return
            ctx.timers.cancel(timer, f"{occupier} now intends to {intent} it")
    timer = ctx.timers.start(kind, occupier, where, data.ANNEX_SEASONS,
                             data={"province": where})
    province.occupation_timer = timer.id


def _refund_construction(ctx: Context, where: str) -> None:
    """ "Refund half cost of in-progress construction at time of invasion" (digest F35)."""
    world: GoldenWorld = ctx.world
    for timer in ctx.timers.among(BUILDS, where, keys=("province", "to")):
        refund = int(ctx.timers.cancel(timer, f"{where} was occupied",
                                       refund=int(timer.paid) // 2))
        nation = world.nations.get(timer.owner)
        if nation is not None and refund:
            nation.currency += refund
            treasury(ctx, nation, f"refunded {refund} for {timer.subject}")


def _capital_falls(ctx: Context, name: str, where: str) -> None:
    """ "one half of the defending Nation's reserve currency is lost, and the next seasonal
    income is reduced by half"; it must name a provisional capital (digest F15, F37)."""
    nation = ctx.world.nations[name]
    lost = nation.currency // 2
    nation.currency -= lost
    if nation.capital_kind == PERMANENT or not nation.original_capital:
        nation.original_capital = where
    nation.capital, nation.capital_kind, nation.income_halved = "", "", True
    ctx.emit(name, "capital falls", f"{name}'s capital {where} is occupied: {lost} of its "
             "reserve is lost and its income is halved; it must establish a provisional "
             "capital (its first order next turn)")
    treasury(ctx, nation, f"lost {lost}: the capital fell")


def _rebels_take_empty_provinces(ctx: Context) -> None:
    """Rebels who stand in a province where no nation's forces are become its occupiers."""
    world: GoldenWorld = ctx.world
    for province in world.provinces.values():
        units = world.land_units_in(province.name)
        if units and province.holder != data.REBELS and \
                all(u.type in data.REBEL_TYPES for u in units):
            _occupy(ctx, province.name, data.REBELS, "")


def _complete_occupations(ctx: Context) -> None:
    """Annexations pause while nationalist rebels stand in the province (digest F52); due
    annexations, puppetings and integrations change the province."""
    world: GoldenWorld = ctx.world
    for timer in ctx.timers.find(kind=ANNEXATION, status=None):
        if timer.status not in ("running", "paused"):
            continue
        rebels = any(u.type == data.NATIONALIST_REBEL for u in world.land_units_in(
            timer.details["province"]))
        if rebels:
            ctx.timers.pause(timer, "nationalist rebels occupy the province")
        else:
            ctx.timers.resume(timer, "no nationalist rebels remain")
    for timer in ctx.timers.due(ANNEXATION) + ctx.timers.due(INTEGRATION):
        province = world.provinces[timer.details["province"]]
        old = province.owner
        province.owner, province.occupied_by, province.occupation_timer = timer.owner, "", ""
        province.annexed = province.core = True
        ctx.timers.complete(timer, f"{timer.owner} annexes {province.name}"
                                   + (f" from {old}" if old else ""))
    for timer in ctx.timers.due(PUPPETING):
        province = world.provinces[timer.details["province"]]
        province.occupied_by, province.occupation_timer = "", ""
        province.puppeted, province.controller = True, timer.owner
        ctx.timers.complete(timer, f"{province.name} is now {timer.owner}'s puppet")


def _begin_integration(ctx: Context, where: str, nation: str, row: int) -> None:
    """Infantry marching with intent to integrate a Neutral province begin a 3-year
    integration, paid season by season while some of its forces stay there."""
    world: GoldenWorld = ctx.world
    payment = ctx.setting(INTEGRATION_PAYMENT)
    owner = world.nations[nation]
    if not CURRENCY.can_pay(owner, payment):
        ctx.emit(nation, "integration", f"the integration of {where} cannot begin: it costs "
                 f"{payment} a season and {nation} has {owner.currency}", audience=PRIVATE)
        return
    CURRENCY.spend(ctx, owner, payment, f"the integration of {where}")
    ctx.timers.start(INTEGRATION, nation, where, data.INTEGRATION_SEASONS, order_row=row,
                     paid=payment, data={"province": where})


def _railroads(ctx: Context) -> None:
    world: GoldenWorld = ctx.world
    for rail in world.railroads:
        a = world.provinces[rail.a].owner
        if a and a != rail.owner and a == world.provinces[rail.b].owner and \
                fully_controls(world, a, rail.a) and fully_controls(world, a, rail.b):
            ctx.emit(a, "railroad", f"the railroad {rail.a} - {rail.b} passes from "
                                    f"{rail.owner or 'nobody'} to {a}")
            rail.owner = a
