"""Player turn, steps 2 and 3: place the collected tokens on development cards, then
activate cards and play admin cards (in the order posted)."""

from __future__ import annotations

from sheetmaster.kit import Order, Status

from .. import reasons as r
from ..orders import ACTIVATE, PLACE, PLAY_ADMIN
from ..tables import ADMIN_PILE, RESOURCES, InPlay
from ..world import Ctx
from .piles import leave_hand
from .rewards import plan, plan_cost, record_aggression
from .war_declarations import declare_war

PLACE_RULE = (
    "Place resources on Development Cards. You may only place resources on Development Cards "
    "with slots for that specific resource type ..., and you cannot place more of a resource "
    "on a card than there are slots for that resource."
)
ACTIVATE_RULE = (
    "Activate Development Cards. Development cards with arrows on them can be activated. Some "
    "cards have a cost to activation, like discarding an Admin Card. When you activate a card, "
    "you get the indicated reward immediately. Note that each Development card can be "
    "activated only once each turn. ... When sufficient resources have been placed on the "
    "card, you may activate the card ... remove all resources that you've placed on the card, "
    "and then gain the reward described on the card. ... Admin Cards can be played at any time "
    "during your turn."
)


def place_resources(ctx: Ctx) -> None:
    world, nation = ctx.world, ctx.player
    unplaced = world.nations[nation].unplaced
    for order in ctx.orders(PLACE):
        name, resource, amount = (order.fields[k] for k in ("card", "resource", "amount"))
        copies = [c for c in world.in_play(nation) if c.card == name]
        slots = world.cards[name].slots(resource)
        room = next((c for c in copies if slots - c.tokens(resource) >= amount), None)
        if not copies:
            reason = r.NOT_IN_PLAY.say(card=name)
        elif not slots:
            reason = r.NO_SLOTS.say(card=name, resource=resource)
        elif room is None:
            free = max(slots - c.tokens(resource) for c in copies)
            reason = r.NO_ROOM.say(card=name, free=free, resource=resource, amount=amount)
        elif unplaced.get(resource, 0) < amount:
            reason = r.TOO_FEW.say(have=unplaced.get(resource, 0), resource=resource,
                                   amount=amount)
        else:
            room.add(resource, amount)
            unplaced[resource] -= amount
            ctx.resolve(order, Status.APPLIED, f"{amount} {resource} placed on {name} (now "
                        f"{room.tokens(resource)} of {slots})")
            ctx.emit(nation, "place", f"{nation} places {amount} {resource} on {name}")
            continue
        ctx.resolve(order, Status.REJECTED, reason)


def activate_and_play(ctx: Ctx) -> None:
    """Activations, admin cards and war declarations, in the order the nation posted them."""
    for order in ctx.orders(ACTIVATE, PLAY_ADMIN, "declare war"):
        if order.kind == ACTIVATE:
            activate(ctx, order)
        elif order.kind == PLAY_ADMIN:
            play_admin(ctx, order)
        else:
            declare_war(ctx, order)


def _ready(world, entry: InPlay) -> dict[str, tuple[int, int]]:
    """resource -> (on the card, needed) for each resource it falls short of (F25)."""
    card = world.cards[entry.card]
    return {res: (entry.tokens(res), card.need(res)) for res in RESOURCES
            if entry.tokens(res) < card.need(res)}


def activate(ctx: Ctx, order: Order) -> None:
    world, nation = ctx.world, ctx.player
    name = order.fields["card"]
    card = world.cards[name]
    copies = [c for c in world.in_play(nation) if c.card == name]
    fresh = [c for c in copies if c.activated != world.round]
    entry = next((c for c in fresh if not _ready(world, c)), fresh[0] if fresh else None)
    if not copies:
        return ctx.resolve(order, Status.REJECTED, r.NOT_IN_PLAY.say(card=name))
    if not card.activatable:
        return ctx.resolve(order, Status.REJECTED, r.NO_ARROW.say(card=name))
    if entry is None:
        return ctx.resolve(order, Status.REJECTED, r.ACTIVATED.say(card=name))
    short = _ready(world, entry)
    if short:
        return ctx.resolve(order, Status.REJECTED, r.NOT_ENOUGH_ON.say(
            card=name, have=_amounts({k: v[0] for k, v in short.items()}),
            needs=_amounts({k: v[1] for k, v in short.items()})))
    cost = plan_cost(ctx, nation, card.cost, order)
    steps = cost if isinstance(cost, str) else plan(ctx, nation, card.reward, order)
    if isinstance(steps, str):
        return ctx.resolve(order, Status.REJECTED, steps)
    removed = entry.clear()
    entry.activated = world.round
    done = [step() for step in (*cost, *steps)]
    text = f"activated {name}: {removed} tokens off it; " + "; ".join(done)
    ctx.resolve(order, Status.APPLIED, text)
    ctx.emit(nation, "activate", f"{nation} {text}")


def _amounts(parts: dict[str, int]) -> str:
    return ", ".join(f"{n} {res}" for res, n in parts.items())


def play_admin(ctx: Ctx, order: Order) -> None:
    world, nation = ctx.world, ctx.player
    name = order.fields["card"]
    held = next((h for h in world.hand(nation, ADMIN_PILE) if h.card == name), None)
    card = world.cards[name]
    if held is None:
        return ctx.resolve(order, Status.REJECTED, r.NOT_IN_HAND.say(pile="admin", card=name))
    if any(e.name == "diplomatic action" for e in card.effects) and not card.reward:
        return ctx.resolve(order, Status.REJECTED, r.NEEDS_DECLARE.say(card=name))
    if not card.reward:
        return ctx.resolve(order, Status.REJECTED, r.NO_REWARD.say(card=name))
    steps = plan(ctx, nation, card.reward, order)
    if isinstance(steps, str):
        return ctx.resolve(order, Status.REJECTED, steps)
    leave_hand(ctx, held, "played")
    done = "; ".join(step() for step in steps)
    target = order.fields.get("target") or ""
    if target and target != nation and any(e.name == "aggressive" for e in card.effects):
        record_aggression(ctx, nation, target, f"played {name} at {target}")
    ctx.resolve(order, Status.APPLIED, f"played {name}: {done}")
    ctx.emit(nation, "admin card", f"{nation} plays {name}: {done}")
