"""Declaring war, in the declarer's own turn (F42): by the Conquest ambition, or by a
Diplomatic Action card answering an aggressive act (F43, F44)."""

from __future__ import annotations

from sheetmaster.kit import Order, Status, values

from .. import reasons as r
from ..tables import ADMIN_PILE, CONQUEST, DECLARED, DIPLOMATIC, War
from ..world import Ctx, EighteenWorld
from .piles import leave_hand
from .rewards import record_aggression

DECLARE_RULE = (
    "There are three ways a way can be initiated: by a player with the Conquest ambition, by a "
    "Great War global event, or by a player using a Diplomatic Action card in repsonse to an "
    "aggressive action by another player."
)


def at_war(world: EighteenWorld, a: str, b: str) -> bool:
    return any({w.declarer, w.target} == {a, b} for w in world.wars if w.round == world.round)


def aggression_since_last_turn(world: EighteenWorld, nation: str, target: str):
    """F44: an act of ``target`` against ``nation`` done since ``nation``'s last turn: earlier
    this round (before its turn now), or last round after its turn then (the war step too)."""
    now = world.turn_order().index(nation) + 1
    before_dealer = world.seating()[world.seating().index(world.dealer()) - 1]
    then = world.turn_order(before_dealer).index(nation) + 1
    for act in world.aggressions:
        if act.by != target or act.against != nation:
            continue
        if (act.round == world.round and 0 < act.step < now) or \
                (act.round == world.round - 1 and (act.step == 0 or act.step > then)):
            return act
    return None


def declare_war(ctx: Ctx, order: Order) -> None:
    world, nation = ctx.world, ctx.player
    target = order.fields["target"]
    how = values.fold(order.fields.get("how") or "")
    ambition = world.ambition(nation)
    conquest = ambition is not None and any(e.name == CONQUEST for e in ambition.effects)
    if how not in ("", CONQUEST, DIPLOMATIC):
        return ctx.resolve(order, Status.REJECTED, r.BAD_HOW.say(
            options="'conquest' or 'diplomatic action'", given=values.show(how)))
    if target == nation:
        return ctx.resolve(order, Status.REJECTED, r.SELF.say())
    if at_war(world, nation, target):
        return ctx.resolve(order, Status.REJECTED, r.AT_WAR.say(target=target))
    if not how:
        how = CONQUEST if conquest and not _conquered(world, nation) else DIPLOMATIC
    if how == CONQUEST:
        problem = r.NO_CONQUEST.say() if not conquest else \
            r.ONCE_A_ROUND.say() if _conquered(world, nation) else ""
        if problem:
            return ctx.resolve(order, Status.REJECTED, problem)
        _declare(ctx, nation, target, DECLARED, "")
        return ctx.resolve(order, Status.APPLIED, f"war declared on {target} by conquest")
    card = next((h for h in world.hand(nation, ADMIN_PILE)
                 if any(e.name == DIPLOMATIC for e in world.cards[h.card].effects)), None)
    if card is None:
        return ctx.resolve(order, Status.REJECTED, r.NO_DIPLOMATIC.say())
    act = aggression_since_last_turn(world, nation, target)
    if act is None:
        return ctx.resolve(order, Status.REJECTED, r.NO_AGGRESSION.say(target=target))
    leave_hand(ctx, card, "played")
    answer = f"{act.act} (round {act.round})"
    _declare(ctx, nation, target, f"{card.card} ({DIPLOMATIC})", answer)
    ctx.resolve(order, Status.APPLIED, f"war declared on {target} with {card.card}, "
                f"answering: {answer}")


def _conquered(world: EighteenWorld, nation: str) -> bool:
    """F43: one declaration by conquest a round."""
    return any(w.declarer == nation and w.by == DECLARED and w.round == world.round
               for w in world.wars)


def _declare(ctx: Ctx, nation: str, target: str, by: str, answer: str) -> None:
    world = ctx.world
    world.wars.append(War(world.round, nation, target, by, answer))
    record_aggression(ctx, nation, target, "declared war")
    ctx.emit(nation, "war declared", f"{nation} declares war on {target}" +
             (f" with {by}" if by != DECLARED else "") + "; they fight in this round's war step")
