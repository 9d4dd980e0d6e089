"""Combat: one army against one army, d10 + Combat Rating each; and the conquest (and
perhaps the destruction of a clan) that follows a won attack."""

from __future__ import annotations

from sheetmaster.kit import Context, Order, Status, plural

from .. import data
from ..tables import Army, Clan, Province
from ..world import ClansWorld
from .destruction import destroy_clan
from .effects import Parts, army_type, coverage, show, skills, supplied

COMBAT_RULE = (
    "When you move your Army into independent or enemy Province that has Armies in it, Combat "
    "occurs. Each side rolls a 1d10 dice, and the Armies' current Combat Rating is added to "
    "their respective rolls. If the Attacker's roll is higher than that of Defender, the "
    "Defender is destroyed; if Defender's is equal or higher than Attacker, the Attacker is "
    "destroyed instead."
)


def attack(ctx: Context, order: Order, clan: Clan, army: Army, target: Province,
           sea: str) -> None:
    """The attacker fights the province's armies one at a time, the strongest first; it takes
    the province only when no defender is left. Armies that launch an assault across a Sea
    fight with the Sea penalty."""
    world: ClansWorld = ctx.world
    enemy = world.clans.get(target.owner)
    holder = target.owner or "the Independents"
    defenders = list(world.at[target.name])
    strength = {id(d): sum(v for _, v in rating(world, d, clan, defending=True))
                for d in defenders}
    defenders.sort(key=lambda d: -strength[id(d)])
    won = 0
    for defender in defenders:
        mine = rating(world, army, enemy, defending=False, by_sea=bool(sea))
        theirs = rating(world, defender, clan, defending=True)
        cr_a, cr_d = sum(v for _, v in mine), sum(v for _, v in theirs)
        roll_a = ctx.dice.roll(10, clan.name, f"{army.name} attacking {target.name} "
                                              f"(CR {cr_a:+d})")
        roll_d = ctx.dice.roll(10, target.owner, f"{defender.name} defending {target.name} "
                                                 f"(CR {cr_d:+d})")
        score = (f"{army.name} {roll_a}{cr_a:+d} = {roll_a + cr_a} ({show(mine)}) against "
                 f"{defender.name} {roll_d}{cr_d:+d} = {roll_d + cr_d} ({show(theirs)})")
        if roll_a + cr_a > roll_d + cr_d:
            world.remove_army(defender, f"destroyed defending {target.name}")
            won += 1
            _both(ctx, clan.name, target.owner, "battle",
                  f"battle for {target.name}: {score}: {defender.name} is destroyed")
            continue
        world.remove_army(army, f"destroyed attacking {target.name}")
        _both(ctx, clan.name, target.owner, "battle",
              f"battle for {target.name}: {score}: {army.name} is destroyed")
        ctx.resolve(order, Status.APPLIED, f"attacked {target.name}: "
                                           + (f"won {plural(won, 'battle')}, then " if won else "")
                                           + f"{army.name} was destroyed")
        return
    conquer(ctx, clan, army, target, sea)
    fought = f" after winning {plural(won, 'battle')}" if won else ""
    ctx.resolve(order, Status.APPLIED, f"took {target.name} from {holder}{fought}")


def conquer(ctx: Context, clan: Clan, army: Army, target: Province, sea: str) -> None:
    world: ClansWorld = ctx.world
    loser = world.clans.get(target.owner)
    world.move_army(army, target.name)
    world.set_owner(target, clan.name)
    how = f" across the {sea}" if sea else ""
    _both(ctx, clan.name, loser.name if loser else "", "conquest",
          f"{army.name} of {clan.name} took {target.name}{how} from "
          f"{loser.name if loser else 'the Independents'}")
    if loser is not None and (target.name == loser.capital or not world.count(loser.name)):
        destroy_clan(ctx, loser, clan, target)


def _both(ctx: Context, one: str, other: str, kind: str, text: str) -> None:
    ctx.emit(one, kind, text)
    if other and other != one:
        ctx.emit(other, kind, text)


def rating(world: ClansWorld, army: Army, enemy: Clan | None, *, defending: bool,
           by_sea: bool = False) -> Parts:
    """An army's Combat Rating against ``enemy`` (None: Independents), as named parts."""
    clan = world.clans.get(army.clan)
    parts: Parts = [(army.type, army_type(clan, army.type).rating)]
    province = world.provinces[army.province]
    if defending and enemy is not None and data.CASTLE in province.improvements:
        parts += castle_bonus(world, province.owner, enemy)
    if clan is None:
        return parts
    court = skills(world, clan.name)
    cavalry = army.type == data.CAVALRY

    def add(why: str, value: int, when: bool) -> None:
        if when:
            parts.append((why, value))

    add("Tactics", 1, clan.has("Tactics"))
    add("Shogunate", 1, clan.has("Shogunate"))
    add("Steelmaking", 2, clan.has("Steelmaking") and supplied(world, clan.name, "Iron"))
    add("Fireblood", 2, clan.has("Fireblood") and (enemy is None or not enemy.has("Fireblood")))
    add(data.GEN_FRONT, 1, data.GEN_FRONT in court)
    add(data.GEN_CAVALRY, 2, cavalry and data.GEN_CAVALRY in court)
    add(data.GEN_INFANTRY, 2, not cavalry and data.GEN_INFANTRY in court)
    add("Spirits, defending", 1, defending and clan.religion == data.SPIRITS)
    if clan.religion == data.ZEN:
        steps = min(3, coverage(world, clan.name) // 33)
        add(f"Zen, {coverage(world, clan.name)}% piety", steps, steps > 0)
    add("attacking across the Sea", -sea_penalty(world, clan), by_sea and not defending)
    return parts


def castle_bonus(world: ClansWorld, owner: str, attacker: Clan) -> Parts:
    """A Castle's bonus to the armies stationed in its province against ``attacker``."""
    parts: Parts = [(data.CASTLE, 4)]
    defender = world.clans.get(owner)
    if defender is not None:
        if defender.has("Masonry"):
            parts.append(("Masonry", 2))
        if data.GEN_FORTIFICATIONS in skills(world, owner):
            parts.append((data.GEN_FORTIFICATIONS, 1))
    total = sum(p for _, p in parts)
    for tech in ("Siegecraft", "Fireblood"):
        if attacker.has(tech) and total > 0:
            cut = min(2, total)
            parts.append((f"enemy {tech}", -cut))
            total -= cut
    return parts


def sea_penalty(world: ClansWorld, clan: Clan) -> int:
    """-5, lowered by 2 by Shipbuilding and by 2 by a Master of the Ships."""
    return 5 - 2 * clan.has("Shipbuilding") - 2 * (data.MASTER_SHIPS in skills(world, clan.name))
