"""Steps 17 to 20: missions and rewards, the new map, income, and the next season.

"Missions complete and rewards issued, as players inform the administrator. New map
published. Collect income (end of Winter/Summer)(logged as start of Spring/Autumn). Advance
to next Season."
"""

from __future__ import annotations

from sheetmaster.kit import PRIVATE, Context, Status, plural

from ..orders import REWARD
from ..settings import CLASS, PRESTIGE_INCOME, has_number, number
from ..world import GoldenWorld
from .common import treasury
from .economy import Supply, income_per_value, port_income

MISSIONS_RULE = "Missions complete and rewards issued, as players inform the administrator"
MAP_RULE = "New map published"
INCOME_RULE = (
    "Collect income (end of Winter/Summer)(logged as start of Spring/Autumn). Income every "
    "Spring and Autumn from connected provinces. A port in an occupied province will not "
    "provide income. Whenever the current capital or provisional capital is occupied ... the "
    "next seasonal income is reduced by half. Full seasonal income is restored when a "
    "permanent capital is in use. Income from Prestige Achievements once per year.")
ADVANCE_RULE = "Advance to next Season"


def issue_rewards(ctx: Context) -> None:
    """The GM's `reward` orders (GM orders tab): a mission's reward in currency."""
    for order in ctx.orders(REWARD):
        nation = ctx.world.nations[order.player]
        nation.currency += order.fields["amount"]
        note = order.fields["note"] or "a mission"
        ctx.emit(nation.name, "reward", f"{nation.name} is rewarded {order.fields['amount']} "
                                        f"for {note}")
        treasury(ctx, nation, f"received a reward of {order.fields['amount']}")
        ctx.resolve(order, Status.APPLIED, f"rewarded {order.fields['amount']}")


def publish_map(ctx: Context) -> None:
    """The map as it stands: each nation's provinces, those occupied, and those it holds."""
    world: GoldenWorld = ctx.world
    owned: dict[str, list[str]] = {}
    occupying: dict[str, list[str]] = {}
    for province in world.provinces.values():
        owned.setdefault(province.owner, []).append(province.name)
        if province.occupied_by:
            occupying.setdefault(province.occupied_by, []).append(province.name)
    for nation in world.nations.values():
        mine = owned.get(nation.name, [])
        lost = [p for p in mine if world.provinces[p].occupied_by]
        held = occupying.get(nation.name, [])
        text = f"{nation.name}: {plural(len(mine), 'province')}"
        if lost:
            text += f", {len(lost)} occupied ({', '.join(lost)})"
        if held:
            text += f"; occupying {', '.join(held)}"
        ctx.emit(nation.name, "map", text)


def collect_income(ctx: Context) -> None:
    """Summer and Winter: each nation's provinces connected to its capital pay economic value
    x income per value (its tech level's), its ports their level's income unless occupied or
    blockaded; halved while its capital is lost or provisional (digest F13, F14, F15);
    Winter adds prestige once a year (F8)."""
    world: GoldenWorld = ctx.world
    supply = Supply(world)
    for nation in world.nations.values():
        network = supply.network(nation.name)
        value = sum(world.economic_value(p) for p in network)
        ports = supply.ports_in(nation.name, network)
        if not value and not ports and not (nation.prestige and ctx.date.season == "Winter"):
            continue
        income = value * income_per_value(ctx, nation.tech) if value else 0
        income += sum(port_income(ctx, b.level) for b in ports)
        parts = [f"{value} economic value in {len(network)} connected province"
                 f"{'s' * (len(network) != 1)}", f"{len(ports)} port{'s' * (len(ports) != 1)}"]
        if nation.income_halved:
            income //= 2
            parts.append("halved: the capital is lost or provisional")
        if nation.prestige and ctx.date.season == "Winter":
            prestige = nation.prestige * ctx.setting(PRESTIGE_INCOME)
            income += prestige
            parts.append(f"{prestige} for prestige")
        nation.currency += income
        treasury(ctx, nation, f"income {income} ({'; '.join(parts)})")


def advance_season(ctx: Context) -> None:
    """The end of the season: disbanded units leave (digest F36); the units' classes are
    written from the Settings tab."""
    world: GoldenWorld = ctx.world
    for unit in [u for u in world.units.values() if u.disbanding]:
        if unit.name not in world.units:
            continue
        lost = world.remove(unit, "disbanded")
        aboard = f", with {', '.join(u.name for u in lost[1:])} aboard" if lost[1:] else ""
        ctx.emit(unit.nation, "disbanded", f"{unit.name} has disbanded{aboard}",
                 audience=PRIVATE)
    for unit in world.unit_rows:
        if has_number(ctx, unit.type, unit.tech, CLASS):
            world.classifications[unit.name] = number(ctx, unit.type, unit.tech, CLASS)
