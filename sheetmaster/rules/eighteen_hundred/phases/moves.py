"""Player turn, step 4: end of turn, moving pops and regiments as the nation's cards allow;
then the tokens it did not place are discarded (F20)."""

from __future__ import annotations

from sheetmaster.kit import Order, Status, plural

from .. import reasons as r
from ..data import total
from ..orders import MOVE_POPS, MOVE_REGIMENT
from ..world import Ctx
from .board import add_pops, free_pops, room_for_pops, take_pop
from .rewards import record_aggression

MOVE_RULE = (
    "End of turn: move pops and regiments. If your Transportation Technology or Economic Policy "
    "permits you to move regiments or pops at the end of your turn, you may do so at this "
    "time. ... Each pop resides in a single province, and can only move to a different "
    "province if enabled by a card ability. A countryside can have no more than two pops in "
    "it, while a city can have any number of pops."
)


def end_of_turn(ctx: Ctx) -> None:
    world, nation = ctx.world, ctx.player
    n = world.nations[nation]
    for order in ctx.orders(MOVE_POPS, MOVE_REGIMENT):
        reason = _move(ctx, order) if order.kind == MOVE_POPS else _march(ctx, order)
        if reason:
            ctx.resolve(order, Status.REJECTED, reason)
    left = {res: k for res, k in n.unplaced.items() if k}
    if left:
        ctx.emit(nation, "tokens discarded", f"{nation}'s unplaced tokens are discarded: " +
                 ", ".join(f"{k} {res}" for res, k in left.items()))
    n.unplaced = {}


def _allowance(ctx: Ctx, what: str, count: int) -> str:
    world, nation = ctx.world, ctx.player
    allowed = total(world.effects(nation), f"move {what}")
    used = world.nations[nation].moved.get(what, 0)
    if used + count > allowed:
        return r.NO_MOVES.say(allowed=allowed, what=what[:-1], used=used)
    return ""


def _move(ctx: Ctx, order: Order) -> str:
    world, nation = ctx.world, ctx.player
    start, to = order.fields["province"], order.fields["to"]
    count = order.fields.get("amount") or 1
    row = world.pops_at(start, nation)
    have = free_pops(row) if row else 0
    problem = _allowance(ctx, "pops", count) or (
        r.NOT_ADJACENT.say(to=to, province=start) if not world.map.adjacent(start, to) else
        r.NO_FREE_POPS.say(have=have, province=start) if have < count else
        r.NO_ROOM_POPS.say(to=to) if not room_for_pops(world, to, count) else "")
    if problem:
        return problem
    for _ in range(count):
        take_pop(world, row)
    add_pops(world, to, nation, count)
    world.nations[nation].moved["pops"] = world.nations[nation].moved.get("pops", 0) + count
    ctx.resolve(order, Status.APPLIED, f"{count} pop{'s' if count > 1 else ''} moved from "
                f"{start} to {to}")
    ctx.emit(nation, "pops moved", f"{nation} moves {plural(count, 'pop')} from {start} to {to}")
    return ""


def _march(ctx: Ctx, order: Order) -> str:
    world, nation = ctx.world, ctx.player
    start, to = order.fields["province"], order.fields["to"]
    here, there = world.provinces[start], world.provinces[to]
    problem = _allowance(ctx, "regiments", 1) or (
        r.NO_OWN_REGIMENT.say(province=start) if here.regiment != nation else
        r.CONSCRIPTED.say() if here.conscripted else
        r.NOT_ADJACENT.say(to=to, province=start) if not world.map.adjacent(start, to) else
        r.OCCUPIED.say(holder=there.regiment, to=to, why=" (no battles outside a war, F59)")
        if there.regiment else "")
    if problem:
        return problem
    held_by = world.controller(to)
    here.regiment, there.regiment = "", nation
    world.nations[nation].moved["regiments"] = world.nations[nation].moved.get("regiments",
                                                                               0) + 1
    if held_by and held_by != nation:
        record_aggression(ctx, nation, held_by, f"a regiment entered {to}")
    ctx.resolve(order, Status.APPLIED, f"regiment moved from {start} to {to}")
    ctx.emit(nation, "regiment moved", f"{nation} moves a regiment from {start} to {to}")
    return ""
