"""Two-sided political orders (§2b, §12-§14): a cession and its acceptance, an alliance both
partners declare, a satellite relationship both sides declare."""

from __future__ import annotations

from collections.abc import Hashable

from sheetmaster.kit import Context, Order, Status, values
from sheetmaster.rules.common.agreements import Offers

from .. import reasons
from ..orders import ACCEPT_PROVINCE, ACCEPT_SATELLITE, ALLY, BECOME_SATELLITE, CEDE
from ..tables import Alliance, State
from ..world import DecadesWorld
from .common import GUARDS
from .turmoil import settle

ALLIANCE_RULE = (
    "Alliances represent a mutual obligation to come to war for one another. [Tribal states] "
    "cannot form alliances."
)
SATELLITE_RULE = (
    "Satellites can be acquired by diplomacy or event. The junior partner pays 25% of their "
    "economic power to the senior partner, and may not leave the relationship except by "
    "consent of the senior partner (winning a war against them counts as consent)."
)
#: kind -> the kind that answers it.
PAIRS = {CEDE: ACCEPT_PROVINCE, ALLY: ALLY, BECOME_SATELLITE: ACCEPT_SATELLITE}


def answers(order: Order, other: Order) -> bool:
    """Whether ``other`` answers ``order`` (the same province, or each naming the other)."""
    if order.kind == CEDE:
        return other.player == order.fields["state"] and \
            other.fields["province"] == order.fields["province"]
    return other.player == order.fields["state"] and other.fields["state"] == order.player


def _missing(answer: Order) -> str:
    """The offer an answer found none of (NO_OFFER): a cession of its province, or an offer
    naming its state."""
    asked = next(k for k, v in PAIRS.items() if v == answer.kind)
    named = values.show(answer.fields["province"]) if answer.kind == ACCEPT_PROVINCE else \
        answer.player
    return f"state posted '{asked}' naming {named}"


def _together(order: Order) -> Hashable:
    """What an order and its answer share (``answers`` holds only within it): a cession and
    its acceptance the province, the other pairs their two states. Pairing looks within it,
    not among every offer of the turn (issue 26.1)."""
    if order.kind in (CEDE, ACCEPT_PROVINCE):
        return "province", order.fields.get("province")
    return "states", frozenset((order.player, order.fields.get("state")))


#: The two-sided political orders, on the shared two-party agreements.
OFFERS = Offers(PAIRS, answers, missing=_missing,
                awaited=lambda offer: (offer.fields["state"], f"post '{PAIRS[offer.kind]}' "
                                                              f"for it"), key=_together)


def run_deal(ctx: Context, first: Order, second: Order) -> None:
    """Both rows are in: check and apply; both rows get the same outcome."""
    world: DecadesWorld = ctx.world
    offer, answer = (first, second) if first.kind in PAIRS else (second, first)
    why = {CEDE: _cede, ALLY: _ally, BECOME_SATELLITE: _satellite}[offer.kind](
        ctx, world, offer, answer)
    for order in (first, second):
        ctx.resolve(order, Status.REJECTED if why.startswith("!") else Status.APPLIED,
                    why.lstrip("!"))


def _cede(ctx: Context, world: DecadesWorld, offer: Order, answer: Order) -> str:
    giver, taker = world.states[offer.player], world.states[answer.player]
    province = world.provinces[offer.fields["province"]]
    if giver is taker:
        return "!" + GUARDS.itself(giver)
    if province.owner != giver.name:
        return "!" + reasons.NOT_YOURS.say(province=province.name, state=giver.name,
                                           owner=province.owner)
    if province.name == giver.capital:
        return "!" + reasons.CAPITAL.say(province=province.name, state=giver.name)
    world.set_owner(province, taker.name)
    ctx.emit(giver.name, "ceded", f"{giver.name} cedes {province.name} to {taker.name}")
    settle(ctx, giver)
    settle(ctx, taker)
    return f"{province.name} ceded to {taker.name}"


def _ally(ctx: Context, world: DecadesWorld, offer: Order, answer: Order) -> str:
    a, b = world.states[offer.player], world.states[answer.player]
    for state in (a, b):
        if world.tribal(state):
            return "!" + reasons.TRIBAL.say(state=state.name, what="Tribal states cannot form "
                                                                   "alliances")
    held = [world.alliance_of(s) for s in (a, b)]
    if held[0] is not None and held[1] is not None:
        taken = a if held[0] is not None else b
        return "!" + reasons.IN_ALLIANCE.say(state=taken.name, alliance=held[0].name)
    joined = held[0] or held[1]
    if joined is not None:
        newcomer = b if held[0] is not None else a
        world.join_alliance(joined, newcomer.name)
        ctx.emit(newcomer.name, "alliance", f"{newcomer.name} joins {joined.name}")
        return f"{newcomer.name} joins {joined.name}"
    name = offer.fields.get("alliance") or answer.fields.get("alliance") or \
        f"{a.name}-{b.name} alliance"
    alliance = world.alliance_named(name)
    if alliance is None:
        alliance = Alliance(name, 0, [], "")
        world.add_alliance(alliance)
    elif len(alliance.members) > 1:
        return "!" + f"{alliance.name} is an alliance of {', '.join(alliance.members)}; join " \
                     f"it through one of them, or name a new alliance"
    world.set_members(alliance, [a.name, b.name])
    alliance.note = f"formed on turn {ctx.turn}"
    ctx.emit(a.name, "alliance", f"{a.name} and {b.name} form {alliance.name}")
    return f"{alliance.name} formed with {b.name if offer.player == a.name else a.name}"


def _satellite(ctx: Context, world: DecadesWorld, offer: Order, answer: Order) -> str:
    junior, senior = world.states[offer.player], world.states[answer.player]
    return make_satellite(ctx, world, junior, senior, "by diplomacy")


def make_satellite(ctx: Context, world: DecadesWorld, junior: State, senior: State,
                   how: str) -> str:
    """``junior`` becomes ``senior``'s satellite ('!' + why not)."""
    if junior.overlord:
        return "!" + reasons.ALREADY_SATELLITE.say(state=junior.name, overlord=junior.overlord)
    at = senior
    while at.overlord:
        if at.overlord == junior.name:
            return "!" + f"{senior.name} is itself a satellite of {junior.name}"
        at = world.states[at.overlord]
    world.set_overlord(junior, senior.name)
    ctx.emit(junior.name, "satellite", f"{junior.name} becomes a satellite of {senior.name} "
                                       f"({how})")
    return f"{junior.name} is a satellite of {senior.name}"
