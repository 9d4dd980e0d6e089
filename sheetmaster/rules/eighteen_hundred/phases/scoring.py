"""The end of the game: ambitions revealed and scored, prosperity added, places given."""

from __future__ import annotations

from ..tables import AMBITION_PILE, FACTORY, FARM, INSTITUTION, MARKET, TECHNOLOGY
from ..world import Ctx, EighteenWorld

END_RULE = (
    "In 1920, the player who's built the most prosperous empire -- and done the best job "
    "fulfilling their empire's secret \"national ambition\", will be crowned the victor. ... At "
    "the end of the game, you will receive victory points that, along with your total "
    "prosperity, will determine who wins the game."
)


def counts(world: EighteenWorld, nation: str) -> dict[str, int]:
    """What an ambition's 'points per' counts, as the board stands at the end."""
    held = [p for p in world.provinces.values() if world.controller(p.name) == nation]
    in_play = [world.cards[c.card] for c in world.in_play(nation)]
    return {
        "province": len(held),
        "city": sum(p.city for p in held),
        "factory": sum(p.count(FACTORY) for p in held),
        "farm": sum(p.count(FARM) for p in held),
        "market": sum(p.count(MARKET) for p in held),
        "pop": sum(p.pops for p in world.pops_of(nation)),
        "regiment": len(world.regiments_of(nation)),
        "institution": sum(c.variety == INSTITUTION for c in in_play),
        "technology": sum(c.variety == TECHNOLOGY for c in in_play),
        "trade route": sum(nation in r.holders for r in world.routes.values()),
        "battle won": sum(b.winner == nation for b in world.battles),
    }


def ambition_points(world: EighteenWorld, nation: str) -> tuple[int, str]:
    card = world.ambition(nation)
    if card is None:
        return 0, "no ambition"
    have = counts(world, nation)
    points, parts = 0, []
    for effect in card.effects:
        if effect.name == "points":
            points += effect.amount
            parts.append(f"{effect.amount}")
        elif effect.name.startswith("points per "):
            subject = effect.name.removeprefix("points per ")
            points += effect.amount * have[subject]
            parts.append(f"{effect.amount} x {have[subject]} {subject}")
    return points, f"{card.name}: {' + '.join(parts) or '0'}"


def score_the_game(ctx: Ctx) -> None:
    """F61: score = prosperity + ambition points; the higher prosperity breaks a tie, then
    the place is shared."""
    world = ctx.world
    for held in world.hands:
        if held.pile == AMBITION_PILE and held.held:
            held.status, held.revealed = "revealed at the end", held.card
    for nation in world.nations.values():
        points, how = ambition_points(world, nation.name)
        nation.ambition_points, nation.score = points, nation.prosperity + points
        ctx.emit(nation.name, "score", f"{nation.name} scores {nation.score}: prosperity "
                 f"{nation.prosperity} + ambition {points} ({how})")
    ranked = sorted(world.nations.values(), key=lambda n: (-n.score, -n.prosperity, n.seat))
    for nation in ranked:
        better = sum((o.score, o.prosperity) > (nation.score, nation.prosperity)
                     for o in ranked)
        tied = sum((o.score, o.prosperity) == (nation.score, nation.prosperity)
                   for o in ranked)
        nation.place = _ordinal(better + 1) + (" (shared)" if tied > 1 else "")
    winners = [n.name for n in ranked if n.place.startswith("1st")]
    ctx.emit("", "game over", f"1920: the game is over; {' and '.join(winners)} "
             f"{'wins' if len(winners) == 1 else 'share the victory'}")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
