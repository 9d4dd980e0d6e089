"""Costs, upkeep, strengths and income read from the Settings tab, and the supply network
(provinces connected to a nation's capital)."""

from __future__ import annotations

from sheetmaster.kit import LAND, RAIL, SEA, Context

from .. import data
from ..settings import ACTIONS, COST, INCOME_COL, UPKEEP, VALUE, number
from ..tables import Nation, Unit
from ..world import GoldenWorld


def unit_upkeep(ctx: Context, unit: Unit) -> int:
    return int(number(ctx, unit.type, unit.tech, UPKEEP))


def fort_upkeep(ctx: Context, nation: Nation) -> int:
    return int(number(ctx, data.FORT, nation.tech, UPKEEP))


def active_forts(world: GoldenWorld, nation: str) -> list:
    return [b for b in world.buildings if b.type == data.FORT and b.active and
            world.provinces[b.province].owner == nation]


def unit_cost(ctx: Context, kind: str, tech: int) -> int:
    return int(number(ctx, kind, tech, COST))


def movement_actions(ctx: Context, ship: Unit) -> int:
    """ "Max Movement Actions: 10..18"; "Supply Range: (equal to max movement actions)"."""
    return int(number(ctx, ship.type, ship.tech, ACTIONS))


def income_per_value(ctx: Context, tech: int) -> int:
    return int(number(ctx, data.INCOME, tech, VALUE))


def port_income(ctx: Context, level: int) -> int:
    return int(number(ctx, data.PORT, level, INCOME_COL))


def supply_network(world: GoldenWorld, nation: str) -> set[str]:
    """The provinces connected to the nation's capital (:meth:`Supply.network`); a phase
    asking it of every nation builds one :class:`Supply` and asks that."""
    return Supply(world).network(nation)


#: a stretch of open sea in a Supply's walk: the sea zones no one blockades, joined
Stretch = tuple[str, str]


class Supply:
    """Every nation's supply network over one reading of the map: its ports by holder, and
    the sea zones nobody blockades joined once into stretches of open sea (a blockaded zone
    stays a zone of its own, open or not to each nation). A nation's walk then costs its own
    land and the sea it crosses, not the whole map (issue 26.1). Read it while the map holds
    still: owners, occupations, ports, blockades and wars as they are now."""

    def __init__(self, world: GoldenWorld) -> None:
        self.world = world
        #: nation -> its ports' provinces -> the sea zone (the last port's, for several)
        self.ports: dict[str, dict[str, str]] = {}
        #: nation -> sea zone -> its ports' provinces on it
        self.by_zone: dict[str, dict[str, list[str]]] = {}
        #: nation -> its port buildings, in the Buildings tab's order
        self.port_rows: dict[str, list] = {}
        for b in world.buildings:
            p = world.provinces.get(b.province)
            if b.type == data.PORT and not b.blockaded and p is not None and p.owner and \
                    not p.occupied_by:
                self.ports.setdefault(p.owner, {})[b.province] = b.sea_zone
                self.by_zone.setdefault(p.owner, {}).setdefault(b.sea_zone, []).append(
                    b.province)
                self.port_rows.setdefault(p.owner, []).append(b)
        self.stretch: dict[str, Stretch] = {}
        self.links: dict[str | Stretch, list[str | Stretch]] = {}
        self._join_the_open_sea()

    def _join_the_open_sea(self) -> None:
        seas, graph = self.world.seas, self.world.graph
        near = {z: [n for n in graph.neighbours(z, [SEA]) if n in seas] for z in seas}
        for first in seas:
            if seas[first].blockaders or first in self.stretch:
                continue
            mark: Stretch = ("open sea", first)
            self.stretch[first], queue = mark, [first]
            while queue:
                for n in near[queue.pop()]:
                    if n not in self.stretch and not seas[n].blockaders:
                        self.stretch[n] = mark
                        queue.append(n)
        for zone, others in near.items():
            here = self.node(zone)
            self.links.setdefault(here, []).extend(self.node(n) for n in others)
        for here, there in self.links.items():
            self.links[here] = list(dict.fromkeys(n for n in there if n != here))

    def node(self, zone: str) -> str | Stretch:
        """The zone's place in the walk: its stretch of open sea, or itself if blockaded."""
        return self.stretch.get(zone, zone)

    def network(self, nation: str) -> set[str]:
        """The provinces connected to the nation's capital: owned and unoccupied, linked by
        land borders and railroads, or by sea between two of its ports (not blockaded)
        through sea zones no enemy blockades ("a sea/passive blockade disconnects a tile
        from the capital")."""
        world, provinces = self.world, self.world.provinces
        owner = world.nations.get(nation)

        def held(name: str) -> bool:
            p = provinces.get(name)
            return p is not None and p.owner == nation and not p.occupied_by

        if owner is None or not held(owner.capital):
            return set()
        ports = self.ports.get(nation, {})
        landings: dict[str | Stretch, list[str]] = {}
        for zone, where in self.by_zone.get(nation, {}).items():
            landings.setdefault(self.node(zone), []).extend(where)
        seen: set[str | Stretch] = {owner.capital}
        queue: list[str | Stretch] = [owner.capital]
        network: set[str] = set()
        while queue:
            node = queue.pop()
            if isinstance(node, str) and node in provinces:
                network.add(node)
                nxt = [n for n in world.graph.neighbours(node, [LAND, RAIL]) if held(n)]
                zone = ports.get(node)
                if zone is not None and _open_to(world, zone, nation):
                    nxt.append(self.node(zone))
            else:
                nxt = [n for n in self.links.get(node, ())
                       if not isinstance(n, str) or _open_to(world, n, nation)]
                nxt += landings.get(node, ())
            for n in nxt:
                if n not in seen:
                    seen.add(n)
                    queue.append(n)
        return network

    def ports_in(self, nation: str, network: set[str]) -> list:
        """The nation's ports (not blockaded) in these provinces, in the Buildings tab's
        order."""
        return [b for b in self.port_rows.get(nation, ()) if b.province in network]


def _open_to(world: GoldenWorld, zone: str, nation: str) -> bool:
    """A sea zone the nation's sea links may cross: no enemy blockades it."""
    sea = world.seas.get(zone)
    return sea is not None and not any(world.at_war(nation, b) for b in sea.blockaders)
