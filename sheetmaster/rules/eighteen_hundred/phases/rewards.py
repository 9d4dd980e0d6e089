"""A card's reward (an activation's, or an admin card's when played) and an activation's
cost: every clause is checked against the order's columns before anything changes, so a
rejected order changes nothing (error-prone rule 6)."""

from __future__ import annotations

from collections.abc import Callable

from sheetmaster.kit import Order

from .. import reasons as r
from ..data import DEVELOPMENT, Effect
from ..tables import ADMIN_PILE, CAPS, MILITARY_PILE, TECHNOLOGY, Aggression
from ..world import Ctx
from .board import add_pops, build, can_build, free_pops, space, take_pop
from .piles import deal, deck, leave_hand, play_card, tech_problem
from .prosperity import adjust_prosperity

Apply = Callable[[], str]


def plan(ctx: Ctx, nation: str, effects: tuple[Effect, ...], order: Order) -> list[Apply] | str:
    """One function per clause that gains it (each returns what it did), or why the order
    cannot be carried out. A search is checked last: finding the card takes it out of the
    deck, so it happens only once every other clause is known to go through."""
    steps: list[Apply] = []
    searches = [e for e in effects if e.name == "search technology"]
    for effect in effects:
        if effect.name == "search technology":
            continue
        step = _check(ctx, nation, effect, order)
        if isinstance(step, str):
            return step
        steps.append(step)
    for effect in searches:
        step = _search(ctx, nation, effect, order)
        if isinstance(step, str):
            return step
        steps.append(step)
    return steps


def _field(order: Order, column: str, effect: Effect) -> str:
    value = order.fields.get(column) or ""
    if not value:
        raise _Missing(r.NEEDS.say(effect=str(effect), column=column))
    return value


class _Missing(Exception):
    pass


def _check(ctx: Ctx, nation: str, effect: Effect, order: Order) -> Apply | str:
    try:
        return _CHECKS[effect.name](ctx, nation, effect, order)
    except _Missing as exc:
        return str(exc)


def _build(ctx: Ctx, nation: str, effect: Effect, order: Order) -> Apply | str:
    world = ctx.world
    given = order.fields.get("improvement") or ""
    wanted = _field(order, "improvement", effect) if effect.word == "any" else effect.word
    if given and given != wanted:
        return r.WRONG_TYPE.say(wanted=wanted, given=given)
    province = _field(order, "province", effect)
    here = world.provinces[province]
    if world.controller(province) != nation:
        return _not_controlled(world, province)
    if not can_build(world, province, wanted):
        return r.WRONG_PLACE.say(improvement=wanted, province=province, type=here.type,
                                 where=world.improvement_types[wanted].where)
    destroy = order.fields.get("destroy") or ""
    if space(world, province) <= 0 and not destroy:
        return r.FULL.say(province=province, cap=CAPS[here.type])
    if destroy and space(world, province) > 0:
        return r.NOT_FULL.say(province=province)
    if destroy and destroy not in here.improvements:
        return r.NOT_THERE.say(province=province, improvement=destroy)

    def apply() -> str:
        build(world, province, wanted, destroy)
        return f"built a {wanted} in {province}" + (f", destroying a {destroy}" if destroy
                                                     else "")
    return apply


def _not_controlled(world, province: str) -> str:
    holder = world.controller(province)
    return r.NOT_CONTROLLED.say(province=province,
                                holder=f" ({holder} does)" if holder else " (nobody does)")


def _draw(pile: str) -> Callable[..., Apply]:
    def check(ctx: Ctx, nation: str, effect: Effect, order: Order) -> Apply:
        def apply() -> str:
            got = deal(ctx, nation, pile, effect.amount, f"the reward of {order.fields['card']}")
            return f"drew {len(got)} {pile} card{'s' if len(got) != 1 else ''}"
        return apply
    return check


def _prosperity(ctx: Ctx, nation: str, effect: Effect, order: Order,
                what: str = "reward") -> Apply:
    def apply() -> str:
        adjust_prosperity(ctx, nation, effect.amount, f"the {what} of {order.fields['card']}")
        return f"prosperity {effect.amount:+d}"
    return apply


def _take_pops(kill: bool) -> Callable[..., Apply | str]:
    def check(ctx: Ctx, nation: str, effect: Effect, order: Order) -> Apply | str:
        world = ctx.world
        province = _field(order, "province", effect)
        if world.controller(province) != nation:
            return _not_controlled(world, province)
        target = order.fields.get("target") or ""
        rows = [p for p in world.pops_in(province) if p.nation != nation and
                (not target or p.nation == target) and free_pops(p) > 0]
        if sum(free_pops(p) for p in rows) < effect.amount:
            return r.NO_MINORITY.say(province=province, target=target or "other nations",
                                     what=f"{effect.amount} needed")

        def apply() -> str:
            victims: list[str] = []
            for _ in range(effect.amount):
                row = next(p for p in rows if free_pops(p) > 0)
                take_pop(world, row)
                victims.append(row.nation)
                if not kill:
                    add_pops(world, province, nation, 1)
            for victim in dict.fromkeys(victims):
                record_aggression(ctx, nation, victim, f"{effect.name} in {province}")
            verb = "exterminated" if kill else "converted"
            return f"{verb} {effect.amount} pop{'s' if effect.amount > 1 else ''} of " \
                   f"{', '.join(dict.fromkeys(victims))} in {province}"
        return apply
    return check


def _trade_token(ctx: Ctx, nation: str, effect: Effect, order: Order) -> Apply | str:
    route = ctx.world.routes[_field(order, "route", effect)]
    if nation in route.holders:
        return r.HOLD_ROUTE.say(route=route.name)

    def apply() -> str:
        route.holders = (*route.holders, nation)
        return f"placed a trade token on {route.name}"
    return apply


def _remove_token(ctx: Ctx, nation: str, effect: Effect, order: Order) -> Apply | str:
    route = ctx.world.routes[_field(order, "route", effect)]
    target = _field(order, "target", effect)
    if target not in route.holders:
        return r.NO_TOKEN.say(target=target, route=route.name)

    def apply() -> str:
        route.holders = tuple(h for h in route.holders if h != target)
        return f"took {target}'s trade token off {route.name}"
    return apply


def _regiment(ctx: Ctx, nation: str, effect: Effect, order: Order) -> Apply | str:
    world = ctx.world
    province = _field(order, "province", effect)
    if world.controller(province) != nation:
        return _not_controlled(world, province)
    here = world.provinces[province]
    if here.regiment:
        return r.NO_REGIMENT_ROOM.say(province=province, problem=f"holds {here.regiment}'s")
    if not world.pop_count(province, nation):
        return r.NO_REGIMENT_ROOM.say(province=province, problem="holds no pop of yours")

    def apply() -> str:
        here.regiment, here.conscripted = nation, False
        return f"raised a regiment in {province}"
    return apply


def _search(ctx: Ctx, nation: str, effect: Effect, order: Order) -> Apply | str:
    world = ctx.world
    try:
        name = _field(order, "find", effect)
    except _Missing as exc:
        return str(exc)
    card = world.cards[name]
    if card.deck != DEVELOPMENT or card.variety != TECHNOLOGY:
        return r.NOT_IN_DECK.say(card=name)
    problem = tech_problem(world, nation, card)
    if problem:
        return problem
    found = deck(ctx, DEVELOPMENT).search(name, nation, f"the reward of {order.fields['card']}")
    if found is None:
        return r.NOT_IN_DECK.say(card=name)

    def apply() -> str:
        replaced = play_card(world, nation, card)
        return f"found {name} in the development deck and played it" + (
            f", replacing {replaced}" if replaced else "")
    return apply


_CHECKS: dict[str, Callable[..., Apply | str]] = {
    "build": _build, "draw admin": _draw(ADMIN_PILE), "draw military": _draw(MILITARY_PILE),
    "prosperity": _prosperity, "convert": _take_pops(False), "exterminate": _take_pops(True),
    "trade token": _trade_token, "remove trade token": _remove_token, "regiment": _regiment,
}


def plan_cost(ctx: Ctx, nation: str, cost: tuple[Effect, ...], order: Order) -> list[Apply] | str:
    """An activation's cost: "like discarding an Admin Card" (L97)."""
    world, steps = ctx.world, []
    for effect in cost:
        if effect.name == "prosperity":
            if world.nations[nation].prosperity < effect.amount:
                return r.CANNOT_PAY.say(cost=str(effect), problem=f"your prosperity is "
                                        f"{world.nations[nation].prosperity}")
            steps.append(_prosperity(ctx, nation, Effect("prosperity", -effect.amount), order,
                                     "cost"))
            continue
        pile = ADMIN_PILE if effect.name == "discard admin" else MILITARY_PILE
        hand = sorted(world.hand(nation, pile), key=lambda h: (h.card, h.slot))
        named = order.fields.get("discard") or ""
        if named:
            hand.sort(key=lambda h: h.card != named)
            if not hand or hand[0].card != named:
                return r.NOT_IN_HAND.say(pile=pile, card=named)
        if len(hand) < effect.amount:
            return r.CANNOT_PAY.say(cost=str(effect), problem=f"you hold {len(hand)} {pile} "
                                    f"cards")
        chosen = hand[:effect.amount]

        def apply(chosen=chosen, pile=pile) -> str:
            for held in chosen:
                leave_hand(ctx, held, "discarded")
            return f"discarded {', '.join(h.card for h in chosen)}"
        steps.append(apply)
    return steps


def record_aggression(ctx: Ctx, by: str, against: str, act: str) -> None:
    """F44: an act a Diplomatic Action of ``against`` may answer."""
    world = ctx.world
    order = world.turn_order()
    step = order.index(by) + 1 if ctx.date.stage == "turns" and by in order else 0
    world.aggressions.append(Aggression(world.round, step, by, against, act))
