"""One-sided political orders: reform, a satellite's government, religion and culture,
independence, leaving an alliance, releasing and annexing satellites and unions, the standing
choice at happiness 1, and the GM's events."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from sheetmaster.kit import Context, Order, Status, plural, values

from .. import reasons
from ..orders import (
    ANNEX_SATELLITE,
    ANNEX_UNION,
    AT_ONE,
    CHANGE_CULTURE,
    CHANGE_RELIGION,
    GAIN_MODIFIER,
    HAPPINESS_HIT,
    INDEPENDENCE,
    LEAVE_ALLIANCE,
    LOSE_MODIFIER,
    REFORM,
    RELEASE_SATELLITE,
    SATELLITE_EVENT,
    SATELLITE_GOVERNMENT,
    STABILITY_HIT,
)
from ..tables import CIVIL_WAR, REVOLUTION, State
from ..world import DecadesWorld, same, shares_a_word
from .common import GUARDS
from .deals import make_satellite
from .tech import change_government, owe_civilized_government
from .turmoil import free_provinces, gone, hit, leave_alliance, settle

RELIGION_RULE = (
    "Changing religion or culture incurs a stability hit of 1 and a happiness hit of one, "
    "unless it was already the majority in the states territory."
)
ANNEX_RULE = (
    "[A personal union] may be Annexed by the player if they take a stability and happiness "
    "hit. [...] Satellites may be annexed for a stability hit and a happiness hit. The senior "
    "partner can also change the junior's government type if they choose."
)
MODIFIERS = ("Economic Crisis", "Pestilence")
HAPPINESSES = {"political": "happiness", "national": "national", "religious": "religious"}

Handler = Callable[[Context, Order, State], None]


def reform(ctx: Context, order: Order, state: State) -> None:
    """§5: only to a government sharing a word; each reform a stability and happiness hit."""
    world: DecadesWorld = ctx.world
    new = order.fields["government"]
    why = _government_change(world, state, new)
    if not why and not shares_a_word(state.government, new):
        why = reasons.NO_SHARED_WORD.say(old=state.government, new=new)
    if why:
        ctx.resolve(order, Status.REJECTED, why)
        return
    old = state.government
    change_government(ctx, state, new, "reform")
    hit(ctx, state, f"the reform from {old}", stability=1, happiness=1)
    ctx.resolve(order, Status.APPLIED, f"reformed to {new}")


def _government_change(world: DecadesWorld, state: State, new: str) -> str:
    if world.tribal(state):
        return reasons.TRIBAL_GOVERNMENT.say()
    if new == state.government:
        return reasons.SAME_GOVERNMENT.say(state=state.name, government=new)
    if world.governments[new].tribal:
        return reasons.TO_TRIBAL.say()
    return ""


def satellite_government(ctx: Context, order: Order, state: State) -> None:
    """§14 "The senior partner can also change the junior's government type" (no hit, F19)."""
    world: DecadesWorld = ctx.world
    junior = GUARDS.other_player(ctx, order, state)
    if junior is None:
        return
    new = order.fields["government"]
    why = reasons.NOT_SATELLITE.say(state=junior.name, overlord=state.name) \
        if junior.overlord != state.name else _government_change(world, junior, new)
    if why:
        ctx.resolve(order, Status.REJECTED, why)
        return
    change_government(ctx, junior, new, f"set by its overlord {state.name}")
    ctx.resolve(order, Status.APPLIED, f"{junior.name}'s government is now {new}")


def change_faith(ctx: Context, order: Order, state: State) -> None:
    """§6, F26: no hits when the new one already holds more than half of the state's value;
    §5: a tribe bordering a civilized state and taking its religion civilizes."""
    world: DecadesWorld = ctx.world
    what = "religion" if order.kind == CHANGE_RELIGION else "culture"
    new, old = order.fields[what], getattr(state, what)
    if same(new, old):
        ctx.resolve(order, Status.REJECTED, f"{state.name}'s {what} is already {old}")
        return
    majority = world.share(state, lambda p: same(getattr(p, what), new)) > Fraction(1, 2)
    setattr(state, what, new)
    ctx.emit(state.name, what, f"{state.name}'s state {what}: {old} -> {new}")
    if majority:
        ctx.emit(state.name, what, f"{new} is already the majority: no hits")
        settle(ctx, state)
    else:
        hit(ctx, state, f"the change of {what}", stability=1, happiness=1)
    if what == "religion" and world.tribal(state):
        neighbours = {world.provinces[n].owner for p in world.holdings.of(state.name)
                      for n in world.map.neighbours(p, ["land"])}
        if any(not world.tribal(world.states[s]) and same(world.states[s].religion, new)
               for s in neighbours if s != state.name):
            owe_civilized_government(ctx, state, f"it borders a civilized state of {new}")
    ctx.resolve(order, Status.APPLIED, f"{what} {new}" + (" (already the majority)"
                                                          if majority else ""))


def independence(ctx: Context, order: Order, state: State) -> None:
    """§2b: "granted full independence at any time": a new non-player state (F5)."""
    province = GUARDS.own_territory(ctx, order, state)
    if province is None:
        return
    if province.name == state.capital:
        ctx.resolve(order, Status.REJECTED, reasons.CAPITAL.say(province=province.name,
                                                                state=state.name))
        return
    made = free_provinces(ctx, state, [province], "granted independence")
    settle(ctx, state)
    ctx.resolve(order, Status.APPLIED, f"{province.name} is independent: {made[0].name}")


def quit_alliance(ctx: Context, order: Order, state: State) -> None:
    world: DecadesWorld = ctx.world
    alliance = world.alliance_of(state)
    if alliance is None:
        ctx.resolve(order, Status.REJECTED, reasons.NO_ALLIANCE.say(state=state.name))
        return
    leave_alliance(ctx, state)
    ctx.resolve(order, Status.APPLIED, f"left {alliance.name}")


def release(ctx: Context, order: Order, state: State) -> None:
    junior = GUARDS.other_player(ctx, order, state)
    if junior is None:
        return
    if junior.overlord != state.name:
        ctx.resolve(order, Status.REJECTED, reasons.NOT_SATELLITE.say(state=junior.name,
                                                                      overlord=state.name))
        return
    ctx.world.set_overlord(junior, "")
    ctx.emit(state.name, "satellite", f"{state.name} releases {junior.name}")
    ctx.resolve(order, Status.APPLIED, f"released {junior.name}")


def annex_partner(ctx: Context, order: Order, state: State) -> None:
    """§10, §14: annexing a satellite or a personal union costs the annexer a stability and
    a happiness hit (F66); the partner's provinces become the annexer's."""
    world: DecadesWorld = ctx.world
    partner = GUARDS.other_player(ctx, order, state)
    if partner is None:
        return
    if order.kind == ANNEX_SATELLITE and partner.overlord != state.name:
        why = reasons.NOT_SATELLITE.say(state=partner.name, overlord=state.name)
    elif order.kind == ANNEX_UNION and partner.union_with != state.name:
        why = reasons.NOT_UNION.say(state=partner.name, partner=state.name)
    else:
        why = ""
    if why:
        ctx.resolve(order, Status.REJECTED, why)
        return
    taken = world.holdings.of(partner.name)
    for name in taken:
        world.set_owner(world.provinces[name], state.name)
    gone(ctx, partner, f"annexed by {state.name}")
    ctx.emit(state.name, "annexed", f"{state.name} annexes {partner.name}: {', '.join(taken)}")
    hit(ctx, state, f"the annexation of {partner.name}", stability=1, happiness=1)
    ctx.resolve(order, Status.APPLIED, f"annexed {partner.name} ({plural(len(taken), 'province')})")


def choose_at_one(ctx: Context, order: Order, state: State) -> None:
    """§7 "the player may choose to trigger a civil war instead": a standing choice (F33)."""
    choice = {values.fold(c): c for c in (REVOLUTION, CIVIL_WAR)}.get(
        values.fold(order.fields["choice"]))
    if choice is None:
        ctx.resolve(order, Status.REJECTED, reasons.BAD_CHOICE.say(
            choices="'revolution' or 'civil war'"))
        return
    state.at_one = choice
    ctx.resolve(order, Status.APPLIED, f"at happiness 1: {choice}")


def stability_event(ctx: Context, order: Order, state: State) -> None:
    """GM: §8 "A stability hit causes stability to drop by 1", by event."""
    levels = order.fields.get("amount") or 1
    hit(ctx, state, "an event", stability=levels)
    ctx.resolve(order, Status.APPLIED, f"{levels} stability hit(s)")


def happiness_event(ctx: Context, order: Order, state: State) -> None:
    """GM: §7 "happiness hits taken by decision and events"; national and religious
    happiness are judged in the happiness phase."""
    world: DecadesWorld = ctx.world
    which = values.fold(order.fields.get("choice") or "political")
    attr = HAPPINESSES.get(which)
    if attr is None:
        ctx.resolve(order, Status.REJECTED, reasons.BAD_CHOICE.say(
            choices="political, national or religious"))
        return
    if attr == "happiness" or world.tribal(state):
        hit(ctx, state, "an event", happiness=1)
    else:
        was = getattr(state, attr)
        setattr(state, attr, max(0, was - 1))
        ctx.emit(state.name, "happiness", f"an event: {which} happiness {was} -> "
                                          f"{getattr(state, attr)}")
    ctx.resolve(order, Status.APPLIED, f"a {which} happiness hit")


def modifier_event(ctx: Context, order: Order, state: State) -> None:
    """GM: a modifier gained or lost by event (§9 names Economic Crisis and Pestilence)."""
    name = next((m for m in MODIFIERS if same(m, order.fields["choice"])), None)
    if name is None:
        ctx.resolve(order, Status.REJECTED, reasons.BAD_CHOICE.say(
            choices="Economic Crisis or Pestilence"))
        return
    on = order.kind == GAIN_MODIFIER
    setattr(state, "economic_crisis" if name == MODIFIERS[0] else "pestilence", on)
    if on:
        setattr(state, "crisis_gained" if name == MODIFIERS[0] else "pestilence_gained", True)
    ctx.emit(state.name, "modifier", f"an event: {state.name} {'gains' if on else 'loses'} "
                                     f"{name}")
    ctx.resolve(order, Status.APPLIED, f"{name} {'gained' if on else 'lost'}")


def satellite_event(ctx: Context, order: Order, state: State) -> None:
    """GM: §14 "Satellites can be acquired by diplomacy or event"."""
    world: DecadesWorld = ctx.world
    senior = GUARDS.other_player(ctx, order, state)
    if senior is None:
        return
    why = make_satellite(ctx, world, state, senior, "by event")
    ctx.resolve(order, Status.REJECTED if why.startswith("!") else Status.APPLIED,
                why.lstrip("!"))


HANDLERS: dict[str, Handler] = {
    REFORM: reform, SATELLITE_GOVERNMENT: satellite_government, CHANGE_RELIGION: change_faith,
    CHANGE_CULTURE: change_faith, INDEPENDENCE: independence, LEAVE_ALLIANCE: quit_alliance,
    RELEASE_SATELLITE: release, ANNEX_SATELLITE: annex_partner, ANNEX_UNION: annex_partner,
    AT_ONE: choose_at_one, STABILITY_HIT: stability_event, HAPPINESS_HIT: happiness_event,
    GAIN_MODIFIER: modifier_event, LOSE_MODIFIER: modifier_event,
    SATELLITE_EVENT: satellite_event,
}
