"""Changes to the board: pops arriving and leaving, factories staffed, improvements built,
regiments raised, conscripted and lost. Each keeps the board within the source's limits."""

from __future__ import annotations

from ..tables import CAPS, COUNTRYSIDE, COUNTRYSIDE_POPS, EITHER, FACTORY, Pops
from ..world import EighteenWorld


def staff_factories(world: EighteenWorld, province: str) -> None:
    """F12: one pop a factory; free factories take bourgeois (the controller's first, then
    seat order), and laborers beyond the factories (one was destroyed) become bourgeois."""
    here = world.provinces[province]
    if not here.city:
        return
    rows = [world.pops_row(province, n) for n in
            world.by_seat([p.nation for p in world.pops_in(province)],
                          world.controller(province))]
    extra = max(0, sum(r.laborers for r in rows) - here.count(FACTORY))
    for row in reversed(rows):
        give = min(extra, row.laborers)
        row.laborers -= give
        extra -= give
    for row in rows:
        free = world.free_factories(province)
        idle = row.pops - row.laborers - row.conscripted
        row.laborers += max(0, min(free, idle))


def room_for_pops(world: EighteenWorld, province: str, count: int) -> bool:
    """"A countryside can have no more than two pops in it, while a city can have any"."""
    here = world.provinces[province]
    if here.type != COUNTRYSIDE:
        return True
    return sum(p.pops for p in world.pops_in(province)) + count <= COUNTRYSIDE_POPS


def add_pops(world: EighteenWorld, province: str, nation: str, count: int) -> None:
    world.pops_row(province, nation).pops += count
    staff_factories(world, province)


def free_pops(row: Pops) -> int:
    """Pops that may move or be given up: not the one under a conscripted regiment."""
    return row.pops - row.conscripted


def take_pop(world: EighteenWorld, row: Pops) -> str:
    """One pop off ``row``, not a conscripted one: a bourgeois before a laborer (the factory
    then takes another bourgeois). Returns the class it was."""
    here = world.provinces[row.province]
    if here.type == COUNTRYSIDE:
        kind = "farmer"
    elif row.pops - row.laborers - row.conscripted > 0:
        kind = "bourgeois"
    else:
        kind, row.laborers = "laborer", row.laborers - 1
    row.pops -= 1
    staff_factories(world, row.province)
    return kind


def space(world: EighteenWorld, province: str) -> int:
    here = world.provinces[province]
    return CAPS[here.type] - len(here.improvements)


def can_build(world: EighteenWorld, province: str, improvement: str) -> bool:
    where = world.improvement_types[improvement].where
    return where in (EITHER, world.provinces[province].type)


def build(world: EighteenWorld, province: str, improvement: str, destroy: str = "") -> None:
    here = world.provinces[province]
    if destroy:
        here.improvements.remove(destroy)
    here.improvements.append(improvement)
    staff_factories(world, province)


def conscript(world: EighteenWorld, nation: str, province: str) -> None:
    """"Place a regiment piece on top of one of your pops": the pop is conscripted (a
    bourgeois or farmer first; a laborer leaves its factory to another)."""
    row = world.pops_row(province, nation)
    here = world.provinces[province]
    if here.city and row.pops - row.laborers - row.conscripted <= 0:
        row.laborers -= 1
    row.conscripted = 1
    here.regiment, here.conscripted = nation, True
    staff_factories(world, province)


def lose_regiment(world: EighteenWorld, province: str) -> str:
    """"The losing regiment is removed from the board. If it was a conscripted regiment,
    remove the conscripted pop as well." Returns what was removed."""
    here = world.provinces[province]
    nation, was_conscripted = here.regiment, here.conscripted
    here.regiment, here.conscripted = "", False
    if not was_conscripted:
        return "its regiment"
    row = world.pops_row(province, nation)
    row.conscripted, row.pops = 0, row.pops - 1
    staff_factories(world, province)
    return "its conscripted regiment and the pop under it"
