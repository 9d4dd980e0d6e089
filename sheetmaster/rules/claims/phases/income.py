"""Phase B: income from territories, or 1 gold in exile."""

from __future__ import annotations

from collections import Counter

from sheetmaster.kit import Context, plural

from ..tables import GOLD, STANDARD_RESOURCES
from ..world import ClaimsWorld

INCOME_RULE = (
    "The Game Master(s) will add 1 gold to the treasury of each player, for every non-resource "
    "territory he or she controls. The Game Master(s) will add 2 gold to the treasury of each "
    "player, for every Gold resource territory he or she controls. The Game Master(s) will add "
    "1 gold to the treasury of each player, if he controls the territory designated as his "
    "Capitol. The Game Master(s) will add 1 Iron [Rubber, Coal, Oil, Uranium] to a player's "
    "treasury for each Iron [...] resource territory he controls. If a player has access to "
    "any 'special' resources, the Game Master(s) add this resource to that player's treasury "
    "now. Players in exile generate 1 gold per turn."
)


def collect_income(ctx: Context) -> None:
    """Phase B for every player, in the Players tab's order."""
    world: ClaimsWorld = ctx.world
    plain: Counter[str] = Counter()
    gold_lands: Counter[str] = Counter()
    produced: dict[str, Counter[str]] = {}
    capital: set[str] = set()
    for t in world.territories.values():
        if not t.owner:
            continue
        if t.capital_of and t.capital_of == t.owner:
            capital.add(t.owner)
        if not t.resource:
            plain[t.owner] += 1
        elif t.resource == GOLD:
            gold_lands[t.owner] += 1
        else:
            produced.setdefault(t.owner, Counter())[t.resource] += 1
    for player in world.players.values():
        name = player.name
        if player.in_exile:
            player.gold += 1
            ctx.emit(name, "income", f"+1 gold (in exile); gold now {player.gold}")
            continue
        gold = plain[name] + 2 * gold_lands[name] + (name in capital)
        parts = [plural(plain[name], "plain territory")]
        if gold_lands[name]:
            parts.append(f"{plural(gold_lands[name], 'Gold territory')} x2")
        if name in capital:
            parts.append("capital +1")
        player.gold += gold
        ctx.emit(name, "income", f"+{gold} gold ({', '.join(parts)}); gold now {player.gold}")
        for resource, units in sorted(produced.get(name, Counter()).items(), key=_order):
            player.resources[resource] = player.resources.get(resource, 0) + units
            label = resource.title() if resource in STANDARD_RESOURCES else resource
            ctx.emit(name, "income", f"+{units} {label}")


def _order(item: tuple[str, int]) -> tuple[int, str]:
    name = item[0]
    return (STANDARD_RESOURCES.index(name), "") if name in STANDARD_RESOURCES else (9, name)
