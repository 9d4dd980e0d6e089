"""What a clan's techs, advisors, religion, resources and improvements add up to.

Percentages that change one number add up ("-10% Purchase Costs" from Timber and "-10%" from
Carpentry make -20%), and the result is rounded down to a whole coin.
"""

from __future__ import annotations

from collections import Counter

from sheetmaster.rules.common.modifiers import add_percent

from .. import data as d
from ..tables import Army, Clan
from ..world import ClansWorld

Parts = list[tuple[str, int]]


def skills(world: ClansWorld, clan: str) -> set[str]:
    """The skills at a clan's court; "Multiple Advisors of the same 'type' do not provide extra
    bonuses", and a Great Advisor brings "a bonus of 1 other Advisor" too."""
    return {s for a in world.court(clan) for s in a.skills()}


def supply(world: ClansWorld, clan: str) -> Counter[str]:
    """Units of each resource the clan's improvements provide: farms, camps, orchards,
    plantations, and Mines (one unit of what each mines)."""
    units: Counter[str] = Counter()
    for p in world.provinces_of(clan):
        for name in p.improvements:
            if name == d.MINE:
                if p.mine:
                    units[p.mine] += 1
            elif d.IMPROVEMENTS[name].provides:
                units[d.IMPROVEMENTS[name].provides] += 1
    return units


def supply_percent(units: int, provinces: int) -> int:
    """ "every 1 unit of Resource supplies up to 2 Provinces": (units x 2) / provinces."""
    return min(100, units * 200 // provinces) if provinces else 0


def supplied(world: ClansWorld, clan: str, resource: str) -> bool:
    """ "For a Resource to do so it must 'supply' at least 66% of Provinces you have"."""
    provinces = world.count(clan)
    return provinces > 0 and supply(world, clan)[resource] * 200 >= 66 * provinces


def coverage(world: ClansWorld, clan: str) -> int:
    """Piety Coverage %, rounded down: "Each Temple covers up to 3 Provinces"; a High Priest
    "Counts as a Temple". It cannot pass 100%."""
    provinces = world.count(clan)
    temples = sum(p.count(d.TEMPLE) for p in world.provinces_of(clan))
    temples += d.HIGH_PRIEST in skills(world, clan)
    return min(100, temples * d.TEMPLE_COVERS * 100 // provinces) if provinces else 0


def discounted(base: int, parts: Parts) -> int:
    off = min(100, sum(p for _, p in parts))
    return add_percent(base, -off)


def improvement_discounts(world: ClansWorld, clan: Clan, name: str) -> Parts:
    """Every "-N% Purchase Costs" that applies to this improvement for this clan."""
    has, court = clan.has, skills(world, clan.name)
    parts: Parts = []

    def add(why: str, pct: int, when: bool = True) -> None:
        if when:
            parts.append((why, pct))

    add("Timber", 10, supplied(world, clan.name, "Timber"))
    add("Carpentry", 10, has("Carpentry"))
    add(d.MIN_CONSTRUCTIONS, 10, d.MIN_CONSTRUCTIONS in court)
    add("Lacquer", 20, name in (d.CASTLE, d.TEMPLE, d.LIBRARY)
        and supplied(world, clan.name, "Lacquer"))
    add("Masonry", 10, name == d.CASTLE and has("Masonry"))
    add(d.GEN_FORTIFICATIONS, 10, name in (d.ARMY_CAMP, d.CASTLE)
        and d.GEN_FORTIFICATIONS in court)
    add(d.GEOMANCER, 20, name == d.MINE and d.GEOMANCER in court)
    add("Geology", 10, name == d.MINE and has("Geology"))
    add(d.MASTER_SHIPS, 20, name in (d.DOCK, d.FISHERY) and d.MASTER_SHIPS in court)
    add("Shipbuilding", 20, name in (d.DOCK, d.FISHERY) and has("Shipbuilding"))
    add(d.MIN_AGRICULTURE, 20, name in (d.RICE_FARM, d.SILK_FARM, d.LACQUER)
        and d.MIN_AGRICULTURE in court)
    religion = {d.SPIRITS: (d.RICE_FARM, d.WOODCUTTER, d.FISHERY),
                d.ZEN: (d.TEA, d.TEMPLE, d.CASTLE),
                d.PHILOSOPHERS: (d.MARKETPLACE, d.TEMPLE, d.LIBRARY)}.get(clan.religion, ())
    add(clan.religion, 10, name in religion)
    return parts


def army_type(clan: Clan | None, kind: str) -> d.ArmyType:
    """Bushido: "Cavalry +4 to Combat Rating, its base Cost raises to 2000 and Upkeep to 800"."""
    if kind == d.CAVALRY and clan is not None and clan.has("Bushido"):
        return d.BUSHIDO_CAVALRY
    return d.ARMY_TYPES[kind]


def army_discounts(world: ClansWorld, clan: Clan, kind: str) -> Parts:
    court = skills(world, clan.name)
    parts: Parts = []
    if supplied(world, clan.name, "Copper"):
        parts.append(("Copper", 10))
    if supplied(world, clan.name, "Iron"):
        parts.append(("Iron", 30 if clan.has("Steelmaking") else 20))
    if d.GEN_REAR in court:
        parts.append((d.GEN_REAR, 20))
    if kind in (d.SPEARMEN, d.ARCHERS) and clan.has("Feudalism"):
        parts.append(("Feudalism", 10))
    return parts


def advisor_discounts(world: ClansWorld, clan: Clan) -> Parts:
    """Tea: "-30% all Advisor Costs"; Zen: "-20% all Advisor Costs" (prices and wages)."""
    parts: Parts = []
    if supplied(world, clan.name, "Tea"):
        parts.append(("Tea", 30))
    if clan.religion == d.ZEN:
        parts.append((d.ZEN, 20))
    return parts


def army_limit(world: ClansWorld, clan: Clan) -> int:
    """Max Army Limit: +1 a province, +2 for the Capital Province, Rice Farms (+2 each with
    Agriculture) and Fisheries +1 each, Irrigation +1; then Minister of Agriculture +10%,
    Feudalism +20%, Shogunate +20%."""
    provinces = world.provinces_of(clan.name)
    base = len(provinces) + (2 if world.holdings.holds(clan.name, clan.capital) else 0)
    per_farm = 2 if clan.has("Agriculture") else 1
    base += sum(p.count(d.RICE_FARM) * per_farm + p.count(d.FISHERY) for p in provinces)
    base += clan.has("Irrigation")
    pct = 10 * (d.MIN_AGRICULTURE in skills(world, clan.name)) + 20 * clan.has("Feudalism") \
        + 20 * clan.has("Shogunate")
    return add_percent(base, pct)


def free_builds(world: ClansWorld, clan: Clan) -> int:
    """1 a turn; Carpentry and a Minister of Constructions add 1 each."""
    return 1 + clan.has("Carpentry") + (d.MIN_CONSTRUCTIONS in skills(world, clan.name))


def advisor_slots(clan: Clan) -> int:
    """ "Initially, you can have 3 Advisors"; Administration: "+2 Advisor Slots"."""
    return d.ADVISOR_SLOTS + 2 * clan.has("Administration")


def research_parts(world: ClansWorld, clan: Clan) -> Parts:
    """Research points a season and where they come from."""
    libraries = sum(p.count(d.LIBRARY) for p in world.provinces_of(clan.name))
    per_library = 2 + clan.has("Papermaking") + supplied(world, clan.name, "Sulphur")
    parts: Parts = []
    if libraries:
        parts.append((f"{count(libraries, 'Library', 'Libraries')} x {per_library}",
                      libraries * per_library))
    if d.SCHOLAR in skills(world, clan.name):
        parts.append((d.SCHOLAR, 4))
    if clan.has("Alchemy"):
        parts.append(("Alchemy", 4))
    if clan.religion == d.PHILOSOPHERS:
        steps = coverage(world, clan.name) // 20
        if steps:
            parts.append((f"Philosophers, {steps * 20}% piety", 2 * steps))
    return parts


def sea_penalty(world: ClansWorld, clan: Clan) -> int:
    """-5, lowered by 2 by Shipbuilding and by 2 by a Master of the Ships."""
    return 5 - 2 * clan.has("Shipbuilding") - 2 * (d.MASTER_SHIPS in skills(world, clan.name))


def castle_bonus(world: ClansWorld, owner: str, attacker: Clan) -> Parts:
    """A Castle's bonus to the armies stationed in its province against ``attacker``."""
    parts: Parts = [(d.CASTLE, 4)]
    defender = world.clans.get(owner)
    if defender is not None:
        if defender.has("Masonry"):
            parts.append(("Masonry", 2))
        if d.GEN_FORTIFICATIONS in skills(world, owner):
            parts.append((d.GEN_FORTIFICATIONS, 1))
    total = sum(p for _, p in parts)
    for tech in ("Siegecraft", "Fireblood"):
        if attacker.has(tech) and total > 0:
            cut = min(2, total)
            parts.append((f"enemy {tech}", -cut))
            total -= cut
    return parts


def rating(world: ClansWorld, army: Army, enemy: Clan | None, *, defending: bool,
           by_sea: bool = False) -> Parts:
    """An army's Combat Rating against ``enemy`` (None: Independents), as named parts."""
    clan = world.clans.get(army.clan)
    parts: Parts = [(army.type, army_type(clan, army.type).rating)]
    if defending and enemy is not None and d.CASTLE in world.provinces[army.province].improvements:
        parts += castle_bonus(world, world.provinces[army.province].owner, enemy)
    if clan is None:
        return parts
    court = skills(world, clan.name)
    cavalry = army.type == d.CAVALRY

    def add(why: str, value: int, when: bool) -> None:
        if when:
            parts.append((why, value))

    add("Tactics", 1, clan.has("Tactics"))
    add("Shogunate", 1, clan.has("Shogunate"))
    add("Steelmaking", 2, clan.has("Steelmaking") and supplied(world, clan.name, "Iron"))
    add("Fireblood", 2, clan.has("Fireblood") and (enemy is None or not enemy.has("Fireblood")))
    add(d.GEN_FRONT, 1, d.GEN_FRONT in court)
    add(d.GEN_CAVALRY, 2, cavalry and d.GEN_CAVALRY in court)
    add(d.GEN_INFANTRY, 2, not cavalry and d.GEN_INFANTRY in court)
    add("Spirits, defending", 1, defending and clan.religion == d.SPIRITS)
    if clan.religion == d.ZEN:
        steps = min(3, coverage(world, clan.name) // 33)
        add(f"Zen, {coverage(world, clan.name)}% piety", steps, steps > 0)
    add("attacking across the Sea", -sea_penalty(world, clan), by_sea and not defending)
    return parts


def count(n: int, word: str, plural: str = "") -> str:
    """ "1 army", "2 armies": a number and its noun."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def show(parts: Parts) -> str:
    return ", ".join(f"{why} {value:+d}" for why, value in parts)


def show_off(parts: Parts) -> str:
    return ", ".join(f"{why} -{pct}%" for why, pct in parts)
