"""The standard starting positions (L16-25), laid out by the setup turn for every nation named
after one of the eight powers that has no pops yet (a nation with pops keeps the GM's custom
start, F4).

"For a standard start, each player will have six pops, four on countryside provinces, and two
in cities on factories."
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sheetmaster.kit import Problems, values

from ..tables import CAPS, CITY, COUNTRYSIDE, FACTORY, PROVINCES
from .board import add_pops

if TYPE_CHECKING:
    from ..world import Ctx, EighteenWorld

STARTS_RULE = (
    "The standard start positions for the eight default nations are: Great Britain: one "
    "factory on London and Liverpool; one pop on London, Liverpool, Wales, Midlands, Scotland, "
    "and Ireland ..."
)

#: nation -> (its two cities: a factory and a pop each; its four countrysides: a pop each)
STANDARD_STARTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "Great Britain": (("London", "Liverpool"), ("Wales", "Midlands", "Scotland", "Ireland")),
    "France": (("Paris", "Lyon"), ("Normandie", "Acquitaine", "Occitanie", "Champagne")),
    "Prussia": (("Berlin", "Konigsberg"), ("Pommerania", "Hesse", "Saxony", "Rheinland")),
    "Austria": (("Vienna", "Budapest"), ("Bohemia", "Galicia", "Tyrol", "Transylvania")),
    "Russia": (("Moscow", "St. Petersburg"), ("Livonia", "Belarus", "Ukraine", "Crimea")),
    "Spain": (("Madrid", "Sevilla"), ("Leon", "Aragon", "Andalucia", "Morocco")),
    "Italian States": (("Rome", "Milan"), ("Tuscany", "Costa Adriatica", "Napoli",
                                           "Piedmont")),
    "Ottomans": (("Constantinople", "Bucharest"), ("Bursa", "Ankara", "Bulgaria", "Greece")),
}
#: other spellings of the powers and their provinces ("the map needs aliases": the source
#: writes Acquitaine, Pommerania, Konigsberg)
ALIASES = {
    "Britain": "Great Britain", "Italy": "Italian States", "Ottoman Empire": "Ottomans",
    "Aquitaine": "Acquitaine", "Pomerania": "Pommerania", "Königsberg": "Konigsberg",
    "St Petersburg": "St. Petersburg", "Saint Petersburg": "St. Petersburg",
    "Seville": "Sevilla", "Naples": "Napoli", "Rhineland": "Rheinland",
    "Istanbul": "Constantinople",
}
_POWERS = values.Names(STANDARD_STARTS, ALIASES)


def power_of(nation: str) -> str:
    """The power ``nation`` is ('' for a custom nation)."""
    return _POWERS.get(nation) or ""


def provinces_for(world: EighteenWorld, power: str) -> list[tuple[str, str]]:
    """(province as the map names it, or the source's name if missing; its wanted type)."""
    aliases = {values.fold(a): n for a, n in ALIASES.items()}  # -> the source's spelling
    on_map = {values.fold(aliases.get(values.fold(m), m)): m for m in world.provinces}
    cities, countrysides = STANDARD_STARTS[power]
    return [(on_map.get(values.fold(p), p), CITY) for p in cities] + \
        [(on_map.get(values.fold(p), p), COUNTRYSIDE) for p in countrysides]


def check_starts(world: EighteenWorld, problems: Problems) -> None:
    """Before the setup turn: each power to lay out finds its provinces on the map."""
    for nation in world.nations.values():
        power = power_of(nation.name)
        if not power or world.pops_of(nation.name):
            continue
        for province, kind in provinces_for(world, power):
            here = world.provinces.get(province)
            if here is None:
                problems.add(PROVINCES.tab, None, "province", f"{nation.name}'s standard start "
                             f"needs a {kind} named {province}; add it, or give "
                             f"{nation.name} pops of its own in the Pops tab (Nations row "
                             f"{nation.row})")
            elif here.type != kind:
                problems.add(PROVINCES.tab, here.row, "type", f"{province} is a {kind} in "
                             f"{nation.name}'s standard start")
            elif kind == CITY and not here.count(FACTORY) and \
                    len(here.improvements) >= CAPS[CITY]:
                problems.add(PROVINCES.tab, here.row, "improvements", f"no room for "
                             f"{nation.name}'s starting factory")


def lay_out_starts(ctx: Ctx) -> None:
    """One factory on each of the power's two cities (unless one stands there already) and
    one pop on each of its six provinces."""
    world = ctx.world
    for nation in world.seating():
        power = power_of(nation)
        if not power or world.pops_of(nation):
            continue
        for province, kind in provinces_for(world, power):
            here = world.provinces[province]
            if kind == CITY and not here.count(FACTORY):
                here.improvements.append(FACTORY)
            add_pops(world, province, nation, 1)
        ctx.emit(nation, "start", f"{nation} takes the standard start of {power}: "
                 f"{', '.join(p for p, _ in provinces_for(world, power))}")


__all__ = ["STANDARD_STARTS", "check_starts", "lay_out_starts", "power_of"]
