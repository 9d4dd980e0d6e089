"""Advisors: hiring, travelling advisors, dismissal, and the court's end of season."""

from __future__ import annotations

from sheetmaster.kit import Context, Order, Status, plural
from sheetmaster.rules.common.agreements import NO_OFFER
from sheetmaster.rules.common.treasury import pay

from .. import data, reasons
from ..settings import TRAVELLER_CHANCE
from ..tables import OFFERED, Advisor, Clan
from ..world import ClansWorld
from .common import COINS
from .effects import Parts, discounted, show_off, supplied

HIRE_RULE = (
    "Each Turn, you can hire 1 Advisor. Advisors have initial price of 1000 Coins, and every "
    "Turn they require 200 Coins of payment. Initially, you can have 3 Advisors at your court. "
    "Furthermore, there's 1 in 10 chance that you might acquire a Great Advisor; this Advisor, "
    "besides the skill he starts with, will also provide a bonus of 1 other Advisor."
)
TRAVELLER_RULE = (
    "Finally, each Season there is a chance that a random Advisor will show up at someone's "
    "court, offering their services for 1/5 of initial Price (200 Coins). These 'traveling' "
    "Advisors can be either normal or Great types."
)
SLOTS_RULE = (
    "In a case that you end with more Advisors than you have slots for, you must dismiss "
    "enough of them next Turn."
)


def roll_great(ctx: Context, clan: str, skill: str) -> tuple[bool, str]:
    """A d10 of 1 makes a Great Advisor, whose second skill a d15 picks among the others."""
    if ctx.dice.roll(data.GREAT_ODDS, clan, f"is the new {skill} a Great Advisor? "
                                           f"(1 = yes)") != 1:
        return False, ""
    others = [s for s in data.SKILLS if s != skill]
    pick = ctx.dice.roll(len(others), clan, "the Great Advisor's second skill (" + ", ".join(
        f"{n} {s}" for n, s in enumerate(others, start=1)) + ")")
    return True, others[pick - 1]


def _room(ctx: Context, order: Order, world: ClansWorld, clan: Clan) -> bool:
    count, slots = len(world.court(clan.name)), advisor_slots(clan)
    if count >= slots:
        ctx.resolve(order, Status.REJECTED, reasons.COURT_FULL.say(count=count, slots=slots))
        return False
    return True


def hire(ctx: Context, order: Order, clan: Clan) -> None:
    world: ClansWorld = ctx.world
    if clan.hired:
        ctx.resolve(order, Status.REJECTED, reasons.ONE_ADVISOR.say(row=clan.hired))
        return
    if not _room(ctx, order, world, clan):
        return
    off = advisor_discounts(world, clan)
    cost = discounted(data.ADVISOR_PRICE, off)
    if not pay(ctx, order, clan, cost, COINS):
        return
    skill = order.fields["skill"]
    great, second = roll_great(ctx, clan.name, skill)
    world.add_advisor(Advisor(clan.name, skill, great, second, "", ctx.turn))
    clan.hired = order.row
    who = f"a Great {skill} (also {second})" if great else f"a {skill}"
    price = f"{data.ADVISOR_PRICE}" + (f" {show_off(off)} = {cost}" if off else "")
    ctx.emit(clan.name, "advisor hired", f"hired {who} for {price} coins; coins now "
                                         f"{clan.coins}")
    ctx.resolve(order, Status.APPLIED, f"hired {who} for {plural(cost, 'coin')}")


def accept(ctx: Context, order: Order, clan: Clan) -> None:
    world: ClansWorld = ctx.world
    offer = next((a for a in world.offers() if a.clan == clan.name), None)
    if offer is None:
        ctx.resolve(order, Status.REJECTED, NO_OFFER.say(
            offer="travelling advisor is offering you his services"))
        return
    if not _room(ctx, order, world, clan):
        return
    cost = discounted(data.TRAVELLER_PRICE, advisor_discounts(world, clan))
    if not pay(ctx, order, clan, cost, COINS):
        return
    offer.status, offer.since = "", ctx.turn
    who = f"Great {offer.skill} (also {offer.second})" if offer.great else offer.skill
    ctx.emit(clan.name, "advisor hired", f"took the travelling {who} for "
                                         f"{plural(cost, 'coin')}; coins now {clan.coins}")
    ctx.resolve(order, Status.APPLIED, f"the travelling {who} joins for {plural(cost, 'coin')}")


def dismiss(ctx: Context, order: Order, clan: Clan) -> None:
    world: ClansWorld = ctx.world
    skill = order.fields["skill"]
    court = world.court(clan.name)
    advisor = next((a for a in court if a.skill == skill), None) or \
        next((a for a in court if skill in a.skills()), None)
    if advisor is None:
        ctx.resolve(order, Status.REJECTED, reasons.NOT_AT_COURT.say(skill=skill))
        return
    world.retire(advisor, "dismissed")
    ctx.emit(clan.name, "advisor dismissed", f"dismissed the {advisor.skill}")
    ctx.resolve(order, Status.APPLIED, f"dismissed the {advisor.skill}")


def end_court_season(ctx: Context) -> None:
    """Courts still over their slots since last season lose their latest advisors; unanswered
    travelling advisors leave; and a d100 decides whether a new one shows up (chance in the
    Game tab), at which court (a die over the living clans) and of which skill (d16)."""
    world: ClansWorld = ctx.world
    for clan in world.clans.values():
        court, slots = world.court(clan.name), advisor_slots(clan)
        if clan.alive and clan.over_slots_at_start and len(court) > slots:
            for advisor in sorted(court, key=lambda a: a.since)[slots:]:
                world.retire(advisor, "dismissed: court over its slots")
                ctx.emit(clan.name, "advisor dismissed",
                         f"the {advisor.skill} is dismissed: the court has {slots} slots and "
                         f"was not brought down to them this turn")
    for offer in [a for a in world.offers() if a.since < ctx.turn]:
        world.retire(offer, "moved on")
        ctx.emit(offer.clan, "traveller leaves", f"the travelling {offer.skill} moves on")
    _traveller(ctx, world)


def _traveller(ctx: Context, world: ClansWorld) -> None:
    chance = ctx.setting(TRAVELLER_CHANCE)
    courts = [c for c in world.clans.values() if c.alive and c.started]
    if not chance or not courts:
        return
    if ctx.dice.roll(100, "", f"does a travelling advisor show up? (1-{chance} yes)") > chance:
        return
    clan = courts[ctx.dice.roll(len(courts), "", "at whose court? (" + ", ".join(
        f"{n} {c.name}" for n, c in enumerate(courts, start=1)) + ")") - 1]
    skill = data.SKILLS[ctx.dice.roll(len(data.SKILLS), clan.name, "the travelling advisor's "
                                      "skill (in clans.txt's order)") - 1]
    great, second = roll_great(ctx, clan.name, skill)
    world.add_advisor(Advisor(clan.name, skill, great, second, OFFERED, ctx.turn))
    who = f"a Great {skill} (also {second})" if great else f"a {skill}"
    ctx.emit(clan.name, "travelling advisor", f"{who} shows up at the court of {clan.name}, "
                                              f"offering his services for "
                                              f"{data.TRAVELLER_PRICE} coins next turn")


def advisor_slots(clan: Clan) -> int:
    """ "Initially, you can have 3 Advisors"; Administration: "+2 Advisor Slots"."""
    return data.ADVISOR_SLOTS + 2 * clan.has("Administration")


def advisor_discounts(world: ClansWorld, clan: Clan) -> Parts:
    """Tea: "-30% all Advisor Costs"; Zen: "-20% all Advisor Costs" (prices and wages)."""
    parts: Parts = []
    if supplied(world, clan.name, "Tea"):
        parts.append(("Tea", 30))
    if clan.religion == data.ZEN:
        parts.append((data.ZEN, 20))
    return parts
