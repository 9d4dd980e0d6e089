"""Ninjas, resolved at the end of the season in the order they were posted."""

from __future__ import annotations

from sheetmaster.kit import PRIVATE, Context, Order, Status
from sheetmaster.rules.common.treasury import pay

from .. import data, reasons
from ..orders import ASSASSINATE, NINJAS, SABOTAGE
from ..settings import NINJA_COST
from ..tables import Clan
from ..world import ClansWorld
from .common import COINS, GUARDS
from .effects import skills

NINJA_RULE = (
    "You can send only 1 Ninja per Turn. Ninja actions are resolved at the end of Global Turn "
    "(aka 'season'). Ninjas use 1d6 to determine the outcome of their strike; if they roll 6, "
    "they succeed, if 2 to 5, they fail, if 1, they're caught by the targeted enemy who learns "
    "of their intentions and who hired them."
)
#: (hirer has a Spymaster, target has a General of the Guard) -> (lowest success, highest
#: caught): "If your court has a Spymaster ... success comes at 4, 5 or 6 ... caught if the
#: dice rolls ends with 1"; "General of the Guard ... success comes at 6, failure at 5 and 4,
#: while rolling 3, 2 or 1 results in Ninja being caught"; both "cancel each other out".
TABLES = {(False, False): (6, 1), (True, False): (4, 1), (False, True): (6, 3),
          (True, True): (6, 1)}


def resolve_ninjas(ctx: Context) -> None:
    world: ClansWorld = ctx.world
    for order in ctx.orders(*NINJAS):
        clan = GUARDS.acting(ctx, order)
        if clan is None:
            continue
        if clan.ninja:
            ctx.resolve(order, Status.REJECTED, reasons.ONE_NINJA.say(row=clan.ninja))
            continue
        target, mission = _target(ctx, order, world, clan)
        if target is None or not pay(ctx, order, clan, ctx.setting(NINJA_COST), COINS):
            continue
        clan.ninja = order.row
        spymaster = data.SPYMASTER in skills(world, clan.name)
        guard = data.GEN_GUARD in skills(world, target.name)
        success, caught = TABLES[(spymaster, guard)]
        odds = f"{_faces(success, 6)} succeeds, {_faces(caught + 1, success - 1)} fails, " \
            f"{_faces(1, caught)} caught"
        roll = ctx.dice.roll(6, clan.name, f"Ninja against {target.name} ({odds})",
                             audience=PRIVATE)
        if roll >= success:
            done = _succeed(ctx, order, world, clan, target)
            ctx.resolve(order, Status.APPLIED, f"d6 {roll}: success, {done}")
        elif roll > caught:
            _tell(ctx, clan.name, "ninja", f"the Ninja sent to {mission} failed (d6 {roll})")
            ctx.resolve(order, Status.APPLIED, f"d6 {roll}: the Ninja failed")
        else:
            _tell(ctx, target.name, "ninja caught", caught_report(clan.name, mission))
            _tell(ctx, clan.name, "ninja", f"the Ninja sent to {mission} was caught by "
                                         f"{target.name}, who learned who hired him (d6 {roll})")
            ctx.resolve(order, Status.APPLIED, f"d6 {roll}: the Ninja was caught")


def _tell(ctx: Context, clan: str, kind: str, text: str) -> None:
    """A Ninja's deeds are secret: only the clan told (and the GM) learns of them; the
    shared Log says nothing ("Ninja actions are resolved at the end of Global Turn")."""
    ctx.emit(clan, kind, text, audience=PRIVATE)


def _faces(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def caught_report(hirer: str, mission: str) -> str:
    """The 'ninja caught!' report, true or false (incrimination) alike."""
    return f"ninja caught! A Ninja hired by {hirer} was caught trying to {mission}"


def _target(ctx: Context, order: Order, world: ClansWorld, clan: Clan
            ) -> tuple[Clan | None, str]:
    """The target clan and what the Ninja is sent to do, or (None, '') once rejected."""
    if order.kind == SABOTAGE:
        province = world.provinces[order.fields["province"]]
        name = order.fields["improvement"]
        owner = world.clans.get(province.owner)
        if owner is None or owner is clan:
            ctx.resolve(order, Status.REJECTED, reasons.SABOTAGE_OWNER.say(
                province=province.name))
            return None, ""
        if name == data.CASTLE:
            ctx.resolve(order, Status.REJECTED, reasons.CASTLE_STURDY.say())
            return None, ""
        if name not in province.improvements:
            ctx.resolve(order, Status.REJECTED, reasons.NO_IMPROVEMENT.say(
                province=province.name, improvement=name))
            return None, ""
        return owner, f"sabotage the {name} in {province.name}"
    target = GUARDS.other_player(ctx, order, clan)
    if target is None:
        return None, ""
    if order.kind == ASSASSINATE:
        skill = order.fields["skill"]
        if not any(skill in a.skills() for a in world.court(target.name)):
            ctx.resolve(order, Status.REJECTED, reasons.NO_SUCH_ADVISOR.say(
                clan=target.name, skill=skill))
            return None, ""
        return target, f"assassinate the {skill} of {target.name}"
    blamed = order.fields["blame"]
    if blamed == target.name:
        ctx.resolve(order, Status.REJECTED, reasons.BLAME_TARGET.say())
        return None, ""
    return target, f"incriminate {blamed} before {target.name}"


def _succeed(ctx: Context, order: Order, world: ClansWorld, clan: Clan, target: Clan) -> str:
    if order.kind == ASSASSINATE:
        skill = order.fields["skill"]
        victim = next((a for a in world.court(target.name) if a.skill == skill), None) or \
            next(a for a in world.court(target.name) if skill in a.skills())
        world.retire(victim, "assassinated by a Ninja")  # not whose: a caught one tells that
        _tell(ctx, target.name, "advisor assassinated", f"your {victim.skill} was assassinated")
        _tell(ctx, clan.name, "ninja", f"the Ninja killed {target.name}'s {victim.skill}")
        return f"{target.name}'s {victim.skill} was killed"
    if order.kind == SABOTAGE:
        province = world.provinces[order.fields["province"]]
        name = order.fields["improvement"]
        province.improvements.remove(name)
        if name == data.MINE:
            province.mine = ""
        _tell(ctx, target.name, "sabotage", f"the {name} in {province.name} was destroyed")
        _tell(ctx, clan.name, "ninja", f"the Ninja destroyed the {name} in {province.name}")
        return f"the {name} in {province.name} was destroyed"
    details = order.fields["details"] or f"strike at the court of {target.name}"
    _tell(ctx, target.name, "ninja caught", caught_report(order.fields["blame"], details))
    _tell(ctx, clan.name, "ninja", f"a false report naming {order.fields['blame']} reached "
                                 f"{target.name}")
    return f"a false report naming {order.fields['blame']} reached {target.name}"
