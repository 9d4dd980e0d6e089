"""The conditions of moving a capital (digest F50), checked when it is ordered and every
season until it happens."""

from __future__ import annotations

from sheetmaster.kit import LAND

from ..world import GoldenWorld


def peacetime_problem(world: GoldenWorld, nation: str) -> str:
    """ "During peacetime only": not at war with anyone, and none of its provinces occupied
    ('' if it is peacetime)."""
    owner = world.nations[nation]
    if owner.at_war:
        return f"{nation} is at war with {', '.join(owner.at_war)}"
    occupied = [p.name for p in world.provinces_of(nation) if p.occupied_by]
    if occupied:
        return f"{', '.join(occupied)} {'is' if len(occupied) == 1 else 'are'} occupied"
    return ""


def capital_site_problem(world: GoldenWorld, nation: str, where: str) -> str:
    """ "sovereign peaceful core province controlled by and connected to existing capital":
    owned, not puppeted nor occupied; no revolt or unrest; core; its controller the nation;
    linked to the capital by land through the nation's unoccupied provinces."""
    province = world.provinces[where]
    capital = world.nations[nation].capital
    if province.owner != nation or province.puppeted or province.occupied_by:
        return f"{where} is not sovereign ({nation}'s, not puppeted, not occupied)"
    if province.nationalist_revolt or province.reactionary_unrest:
        return f"{where} is not peaceful"
    if not province.core:
        return f"{where} is not a core province"
    if province.controller != nation:
        return f"{where} is not controlled by {nation} (its 'controller')"
    if not capital or where == capital:
        return f"{where} is already the capital" if capital else f"{nation} has no capital"

    def own(name: str) -> bool:
        p = world.provinces[name]
        return p.owner == nation and not p.occupied_by

    if where not in world.graph.connected(capital, [LAND], through=own):
        return f"{where} is not connected to {capital}"
    return ""
