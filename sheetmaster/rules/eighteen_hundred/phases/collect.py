"""Player turn, step 1: collect resources, food first (a deficit is met with a pop or food
tokens from the nation's cards), then production, then commerce (F23)."""

from __future__ import annotations

from sheetmaster.kit import Order, Status, values

from .. import reasons as r
from ..data import total
from ..orders import DEFICIT
from ..tables import COMMERCE, FOOD, PRODUCTION
from ..world import Ctx
from . import economy
from .board import free_pops, take_pop
from .prosperity import adjust_prosperity

COLLECT_RULE = (
    "To determine the amount of food to collect, calculate your food output and food "
    "consumption. ... If your food output is greater than your food consumption, you have a "
    "food surplus: collect food tokens equal to the difference. If your food output is less "
    "than your food consumption, you have a food deficit: either sacrifice a pop or remove food "
    "tokens from cards you own equal to the difference. Note that a food deficit may also cause "
    "you to lose prosperity, depending on your Food Technology. Collect one production token "
    "for each of your laborers. Collect commerce tokens as instructed by your Development Cards "
    "and trade routes."
)
POP_ORDER = ("bourgeois", "laborer", "farmer")


def collect_resources(ctx: Ctx) -> None:
    world, nation = ctx.world, ctx.player
    n = world.nations[nation]
    standing = ctx.orders(DEFICIT)
    for extra in standing[1:]:
        ctx.resolve(extra, Status.NOT_NEEDED, r.ONE_DEFICIT_ORDER.say())
    made, eaten = economy.food_output(world, nation), economy.food_consumption(world, nation)
    food = max(0, made - eaten)
    if made < eaten:
        meet_deficit(ctx, nation, eaten - made, standing[0] if standing else None)
    elif standing:
        ctx.resolve(standing[0], Status.NOT_NEEDED, r.NO_DEFICIT.say(output=made, use=eaten))
    n.food, n.production = food, economy.production(world, nation)
    n.commerce = economy.commerce(world, nation)
    n.unplaced = {FOOD: n.food, PRODUCTION: n.production, COMMERCE: n.commerce}
    n.moved = {}
    ctx.emit(nation, "collect", f"{nation} collects {n.food} food ({made} made, {eaten} eaten), "
             f"{n.production} production and {n.commerce} commerce")
    change = total(world.effects(nation), "prosperity")
    if change:
        adjust_prosperity(ctx, nation, change, "its cards, each turn")


def meet_deficit(ctx: Ctx, nation: str, deficit: int, order: Order | None) -> None:
    """F21: one pop settles the whole deficit, or food tokens equal to it, not a mix; without
    an order, tokens if the cards hold enough, else a pop. F22: what cannot be paid is not;
    the food technology's prosperity loss (F24) applies either way."""
    world = ctx.world
    how = values.fold(order.fields["how"]) if order else ""
    if order and how not in ("pop", "tokens"):
        ctx.resolve(order, Status.REJECTED, r.BAD_HOW.say(options="'pop' or 'tokens'",
                                                          given=values.show(how)))
        order, how = None, ""
    cards = _food_cards(world, nation, order.fields.get("card") if order and how == "tokens"
                        else None)
    held = sum(c.food for c in cards)
    if how == "tokens" and held < deficit:
        where = f"{order.fields['card']} cards" if order.fields.get("card") else "cards"
        ctx.resolve(order, Status.REJECTED, r.TOO_FEW_TOKENS.say(
            where=where, have=held, deficit=deficit, instead="a pop is given up instead"))
        order, how = None, "pop"
    if how == "tokens" or (not how and held >= deficit):
        _pay_tokens(ctx, nation, deficit, cards)
        if order:
            ctx.resolve(order, Status.APPLIED, f"{deficit} food tokens paid for the deficit")
    else:
        where = order.fields.get("province") if order else None
        if order and where and not _own_pop(world, nation, where):
            ctx.resolve(order, Status.REJECTED, r.NO_POP_THERE.say(
                province=where, instead="another pop is given up instead"))
            order, where = None, None
        lost = _sacrifice(ctx, nation, deficit, where)
        if order:
            ctx.resolve(order, Status.APPLIED, lost)
    _deficit_loss(ctx, nation, deficit)


def _food_cards(world, nation: str, card: str | None):
    return [c for c in world.in_play(nation) if c.food and (card is None or c.card == card)]


def _pay_tokens(ctx: Ctx, nation: str, deficit: int, cards) -> None:
    left = deficit
    for entry in cards:
        take = min(left, entry.food)
        entry.food -= take
        left -= take
    ctx.emit(nation, "deficit", f"{nation} has a food deficit of {deficit}: {deficit} food "
             f"tokens come off its cards")


def _own_pop(world, nation: str, province: str):
    row = world.pops_at(province, nation)
    return row if row is not None and free_pops(row) > 0 else None


def _sacrifice(ctx: Ctx, nation: str, deficit: int, province: str | None) -> str:
    world = ctx.world
    row = _own_pop(world, nation, province) if province else _default_pop(world, nation)
    if row is None:
        ctx.emit(nation, "deficit", f"{nation} has a food deficit of {deficit} and no pop to "
                 f"give up (F22)")
        return "no pop left to give up"
    kind = take_pop(world, row)
    text = f"a {kind} of {row.province} is given up for the food deficit of {deficit}"
    ctx.emit(nation, "deficit", f"{nation}: {text}")
    return text


def _default_pop(world, nation: str):
    """F21: a bourgeois, then a laborer, then a farmer; provinces alphabetical."""
    rows = sorted((p for p in world.pops_of(nation) if free_pops(p) > 0),
                  key=lambda p: p.province.casefold())
    for kind in POP_ORDER:
        for row in rows:
            city = world.provinces[row.province].city
            idle = row.pops - row.laborers - row.conscripted
            if (kind == "bourgeois" and city and idle > 0) or \
                    (kind == "laborer" and city and row.laborers > 0) or \
                    (kind == "farmer" and not city):
                return row
    return None


def _deficit_loss(ctx: Ctx, nation: str, deficit: int) -> None:
    effects = ctx.world.effects(nation)
    loss = total(effects, "deficit loss", "") + total(effects, "deficit loss",
                                                       "per food") * deficit
    if loss:
        adjust_prosperity(ctx, nation, -loss, f"a food deficit of {deficit}, by its food "
                          f"technology")
