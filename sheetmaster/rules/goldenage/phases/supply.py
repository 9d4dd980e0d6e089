"""Step 12: supply.

"Supply penalties updated by ships returning within range of a friendly port (to prevent
additional penalties) or by ending the season in a friendly port (to remove existing
penalties) and for infantry moving back to supplied territory, by enemy blockades or enemy
infantry movement cutting off access to supplied territory, or due to warships supplying
friendly forces on adjacent coastal provinces). Units removed from play if applicable."
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from sheetmaster.kit import SEA, Context, Status

from .. import data
from ..settings import LAND_SUPPLY_LIMIT
from ..tables import Unit
from ..world import GoldenWorld
from .common import turn_state
from .economy import Supply, movement_actions
from .naval_orders import closed
from .processes import ABANDONED

SUPPLY_RULE = (data.SHIP_SUPPLY_RULE + " Embarked forces ... receive supply penalties for each "
               "turn that ends while they are aboard. " + data.ABANDONED_RULE)


def update_supply(ctx: Context) -> None:
    world: GoldenWorld = ctx.world
    _coastal_supplies(ctx)
    _recover_and_remove_abandoned(ctx)
    supply = Supply(world)
    networks: dict[str, set[str]] = {}
    ports: dict[str, set[str]] | None = None
    ranges: dict[str, _Distances] = {}
    for unit in list(world.units.values()):
        if not unit.nation or unit.abandoned or unit.name not in world.units:
            continue
        if unit.at_sea:
            if unit.nation not in ranges:
                ports = _friendly_ports(world) if ports is None else ports
                ranges[unit.nation] = _port_distances(world, unit.nation, ports)
            _ship_supply(ctx, unit, ranges[unit.nation])
        elif unit.aboard:
            _penalty(ctx, unit, "aboard ship at the end of the season")
        else:
            if unit.nation not in networks:
                networks[unit.nation] = supply.network(unit.nation)
            _land_supply(ctx, unit, networks[unit.nation])


def _coastal_supplies(ctx: Context) -> None:
    """A warship's supply reaches its Infantry if it stands, at the season's end, in a
    province next to the warship's sea zone."""
    world: GoldenWorld = ctx.world
    state = turn_state(ctx)
    for order, ship, zone in state.supplies:
        unit = world.unit(order.fields["of"])
        if unit is None or unit.aboard or zone not in world.provinces[unit.at].seas:
            ctx.resolve(order, Status.BLOCKED, f"{order.fields['of']} is not next to {zone} "
                        "at the end of the season")
            continue
        state.supplied.add(unit.name)
        ctx.resolve(order, Status.APPLIED, f"{ship} supplied {unit.name} in {unit.at}")


def _port_distances(world: GoldenWorld, nation: str,
                    ports: dict[str, set[str]]) -> _Distances:
    """Sea-zone steps from each zone to the zone of the nearest friendly port (``ports``:
    the zones of the ports each nation holds, not blockaded)."""
    return _Distances(world, sorted(ports.get(nation, ())),
                      lambda z: not closed(world, z, nation))


def _friendly_ports(world: GoldenWorld) -> dict[str, set[str]]:
    """Holder -> the sea zones of its friendly ports that are not blockaded, read once for
    every nation."""
    out: dict[str, set[str]] = {}
    for b in world.buildings:
        if b.type == data.PORT:
            holder = world.provinces[b.province].holder
            if world.friendly_port(b.province, holder) is not None and not b.blockaded:
                out.setdefault(holder, set()).add(b.sea_zone)
    return out


class _Distances:
    """``graph.distances(starts, [SEA], enter=...)``, walked only as far as it is asked: a
    nation's ships stand near its ports, and a walk of every zone for every nation grows
    with the square of the map (issue 26.1). Breadth first, so a zone's steps are final
    when it is first reached."""

    def __init__(self, world: GoldenWorld, starts: list[str], enter: Callable[[str], bool]):
        self.graph, self.enter = world.graph, enter
        self.seen = dict.fromkeys(starts, 0)
        self.queue = deque(self.seen)

    def get(self, zone: str) -> int | None:
        while zone not in self.seen and self.queue:
            node = self.queue.popleft()
            for nxt in self.graph.neighbours(node, [SEA]):
                if nxt not in self.seen and self.enter(nxt):
                    self.seen[nxt] = self.seen[node] + 1
                    self.queue.append(nxt)
        return self.seen.get(zone)


def _ship_supply(ctx: Context, ship: Unit, distance: _Distances) -> None:
    """In a friendly port: penalties gone. Within range (the zones to a friendly port's, plus
    one to enter it, at most its movement actions; digest F42): unchanged. Else one more;
    the 4th leaves it abandoned (F43)."""
    world: GoldenWorld = ctx.world
    if ship.at in world.provinces:
        port = world.friendly_port(ship.at, ship.nation)
        if port is not None and not port.blockaded:
            if ship.supply_penalties:
                ctx.emit(ship.nation, "supply", f"{ship.name} is in port at {ship.at}: its "
                         f"{ship.supply_penalties} supply penalties are lifted")
            ship.supply_penalties = 0
            return
    zone = world.zone_of(ship)
    steps = distance.get(zone)
    if steps is not None and steps + 1 <= movement_actions(ctx, ship):
        return
    ship.supply_penalties += 1
    ctx.emit(ship.nation, "supply", f"{ship.name} is out of range of a friendly port: supply "
                                    f"penalty {ship.supply_penalties}")
    if ship.supply_penalties >= data.ABANDONED_AT:
        ctx.emit(ship.nation, "abandoned", f"{ship.name} is left abandoned at sea in {zone}")
        ctx.timers.start(ABANDONED, ship.nation, ship.name, data.ABANDONED_SEASONS,
                         data={"unit": ship.name})
        ship.nation, ship.abandoned = "", True


def _land_supply(ctx: Context, unit: Unit, network: set[str]) -> None:
    """In the nation's supplied territory (provinces connected to its capital), or supplied
    by a warship, or in a province it occupies with a port linked to that territory by sea:
    penalties gone. Elsewhere: one more."""
    world: GoldenWorld = ctx.world
    state = turn_state(ctx)
    supplied = unit.at in network or unit.name in state.supplied or (
        world.provinces[unit.at].occupied_by == unit.nation and
        world.friendly_port(unit.at, unit.nation) is not None and
        _linked_by_sea(world, unit.at, unit.nation, network))
    if supplied:
        if unit.supply_penalties:
            ctx.emit(unit.nation, "supply", f"{unit.name} is back in supply in {unit.at}")
        unit.supply_penalties = 0
        return
    _penalty(ctx, unit, f"out of supply in {unit.at}")


def _linked_by_sea(world: GoldenWorld, province: str, nation: str, network: set[str]) -> bool:
    port = world.port(province)
    homes = {b.sea_zone for b in world.buildings if b.type == data.PORT and
             b.province in network and not b.blockaded}
    return bool(homes) and bool(homes & set(world.graph.distances(port.sea_zone, [SEA])))


def _penalty(ctx: Context, unit: Unit, why: str) -> None:
    world: GoldenWorld = ctx.world
    unit.supply_penalties += 1
    ctx.emit(unit.nation, "supply", f"{unit.name}: supply penalty {unit.supply_penalties} "
                                    f"({why})")
    limit = ctx.setting(LAND_SUPPLY_LIMIT)
    if unit.supply_penalties >= limit:
        world.remove(unit, f"removed: {unit.supply_penalties} supply penalties")
        ctx.emit(unit.nation, "out of supply", f"{unit.name} is removed from play after "
                                               f"{limit} supply penalties")


def _recover_and_remove_abandoned(ctx: Context) -> None:
    """An abandoned ship goes to the nation with the most ships ending the season in its zone
    (a tie: nobody; digest F44); after 4 seasons unrecovered it is removed from play."""
    world: GoldenWorld = ctx.world
    for timer in ctx.timers.find(kind=ABANDONED):
        ship = world.units.get(timer.details["unit"])
        if ship is None or not ship.abandoned:
            continue
        counts: dict[str, int] = {}
        for other in world.ships_in_zone(ship.at):
            if other.nation and not other.abandoned:
                counts[other.nation] = counts.get(other.nation, 0) + 1
        best = sorted(counts.items(), key=lambda kv: -kv[1])
        if best and (len(best) == 1 or best[0][1] > best[1][1]):
            ship.nation, ship.abandoned, ship.supply_penalties = best[0][0], False, 0
            ctx.timers.complete(timer, f"{best[0][0]} recovered the abandoned {ship.name} in "
                                       f"{ship.at}")
        elif timer.turns_left == 0:
            lost = world.remove(ship, "abandoned for 4 seasons")
            aboard = f", with {', '.join(u.name for u in lost[1:])}" if lost[1:] else ""
            ctx.timers.complete(timer, f"the abandoned {ship.name} is removed from play{aboard}")
