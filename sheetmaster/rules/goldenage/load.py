"""Building the Golden Age world from the validated tabs, with every cross-check only this
game needs (the engine checks references, choices and borders listed on both sides)."""

from __future__ import annotations

import re
from typing import Any

from sheetmaster.kit import (
    TIMERS_TAB,
    Names,
    Problems,
    Timer,
    TimerLayout,
    WrittenTab,
    a,
    values,
)

from . import data
from .phases import processes as kinds
from .settings import ITEM, SETTINGS_TAB
from .tables import (
    AGREEMENTS,
    BUILDINGS,
    CANAL_INVESTMENTS,
    CANALS,
    NATIONS,
    PERMANENT,
    PROVINCES,
    RAILROADS,
    SEA_ZONES,
    UNITS,
    Nation,
    Unit,
)
from .world import GoldenWorld, build_graph

_TIMES = re.compile(r"^(?P<name>.*?)\s*x\s*(?P<n>[0-9]+)$", re.I)
_RESOURCES = Names((*data.UNIT_TYPES, *data.BUILDING_TYPES))


def build_world(loaded, problems: Problems) -> GoldenWorld:
    rows = loaded.rows
    world = GoldenWorld(turn=loaded.state.turn)
    world.provinces = {p.name: p for p in rows[PROVINCES.tab]}
    world.seas = {s.name: s for s in rows[SEA_ZONES.tab]}
    world.graph = build_graph(world)
    for zone in world.seas.values():
        if zone.name in world.provinces:
            problems.add(SEA_ZONES.tab, zone.row, "sea zone", f"'{zone.name}' is also a "
                         "province's name; give the sea zone another")
    nations = Names(n.name for n in rows[NATIONS.tab])
    for nation in rows[NATIONS.tab]:
        world.nations[nation.name] = nation
        _check_nation(world, nation, problems)
    for province in world.provinces.values():
        _check_province(world, province, nations, problems)
    for building in rows[BUILDINGS.tab]:
        _check_building(world, building, problems)
        world.add_building(building)
    for rail in rows[RAILROADS.tab]:
        if rail.a and rail.b and not world.adjacent_land(rail.a, rail.b):
            problems.add(RAILROADS.tab, rail.row, "to", f"'{rail.a}' and '{rail.b}' are not "
                         "adjacent; a railroad connects two adjacent provinces")
        elif rail.a and rail.b and world.railroad(rail.a, rail.b) is not None:
            problems.add(RAILROADS.tab, rail.row, "to", f"a railroad between '{rail.a}' and "
                         f"'{rail.b}' is listed twice")
        else:
            world.add_railroad(rail)
    for canal in rows[CANALS.tab]:
        zone = world.seas.get(canal.sea_zone)
        if zone is not None and not zone.canal:
            problems.add(CANALS.tab, canal.row, "sea zone", f"'{canal.sea_zone}' is not a "
                         "canal (Sea zones tab, column 'canal')")
        world.canals[canal.name] = canal
    _load_investments(loaded, world, problems)
    for agreement in rows[AGREEMENTS.tab]:
        if agreement.payer and agreement.payer == agreement.payee:
            problems.add(AGREEMENTS.tab, agreement.row, "payee", "a nation cannot pay itself")
        world.agreements[agreement.name] = agreement
    units = rows[UNITS.tab]
    for unit in units:
        world._keys.add(unit.name.casefold())
    ids = {u.name: u for u in units if u.alive}
    for unit in units:
        if unit.alive:
            _check_unit(world, unit, ids, problems)
    for unit in units:
        world.add_unit(unit)
    for unit in world.units.values():
        for ship in unit.aboard:
            if ship in world.units:
                world.units[ship].cargo.append(unit.name)
    _check_settings(loaded, problems)
    return world


#: the Canals tab's old column, its years' investments in one cell
_OLD_CANAL_COLUMN = "invested this year"


def _load_investments(loaded, world: GoldenWorld, problems: Problems) -> None:
    """Each canal's investments, one row a year and nation; 'invested' is their sum."""
    if _OLD_CANAL_COLUMN in loaded.state.tables[CANALS.tab].columns:
        problems.add(CANALS.tab, None, _OLD_CANAL_COLUMN, "is the old layout: each "
                     "canal's investments are now rows of the Canal investments tab (canal, "
                     "year, nation, amount: one row a year and nation). Type a row for each "
                     "'nation amount' of this cell with its year, and rows for the earlier "
                     "years making up 'invested' (which is now their sum), then delete this "
                     "column")
    seen: dict[tuple[str, int, str], int] = {}
    for row in loaded.rows[CANAL_INVESTMENTS.tab]:
        canal = world.canals.get(row.canal)
        if canal is None:
            continue  # named nothing: reported with the references
        first = seen.setdefault((row.canal, row.year, row.nation), row.row)
        if first != row.row:
            problems.add(CANAL_INVESTMENTS.tab, row.row, "nation", f"{row.nation}'s "
                         f"{row.year} investment in {row.canal} is on row {first} already: "
                         "one row a canal, year and nation")
        if not row.year:
            problems.add(CANAL_INVESTMENTS.tab, row.row, "year", "is blank; write the year "
                         "of the investment")
        canal.total += row.amount
        world.canal_investments.append(row)


def _check_nation(world: GoldenWorld, nation, problems: Problems) -> None:
    if not 1 <= nation.tech <= data.MAX_TECH:
        problems.add(NATIONS.tab, nation.row, "tech", f"{nation.tech} is not a tech level "
                     f"(1 to {data.MAX_TECH})")
    if nation.capital and not nation.capital_kind:
        nation.capital_kind = PERMANENT
    capital = world.provinces.get(nation.capital)
    if capital is not None and capital.owner != nation.name:
        problems.add(NATIONS.tab, nation.row, "capital", f"'{nation.capital}' is "
                     f"{nation.name}'s capital, but {capital.owner or 'nobody'} owns it "
                     f"(Provinces tab, row {capital.row})")
    for part in values.name_list(nation.to_deploy):
        name = _TIMES.match(part)["name"] if _TIMES.match(part) else part
        if _RESOURCES.get(name) is None:
            problems.add(NATIONS.tab, nation.row, "to deploy", f"{values.show(name)} is not a "
                         f"unit type or a building ({', '.join(_RESOURCES)})")


def _check_province(world: GoldenWorld, province, nations: Names, problems: Problems) -> None:
    if province.occupied_by:
        found = nations.get(province.occupied_by)
        if found is None and values.fold(province.occupied_by) == values.fold(data.REBELS):
            found = data.REBELS
        if found is None:
            problems.add(PROVINCES.tab, province.row, "occupied by",
                         f"{values.show(province.occupied_by)} is not a nation in the "
                         f"Nations tab, nor Rebels")
        elif found == province.owner:
            problems.add(PROVINCES.tab, province.row, "occupied by",
                         f"{found} owns '{province.name}'; it cannot occupy it too")
        province.occupied_by = found or ""


def _check_building(world: GoldenWorld, building, problems: Problems) -> None:
    where = world.provinces.get(building.province)
    if where is None:
        return
    if building.type == data.PORT:
        building.level = building.level or 1
        if not building.sea_zone:
            problems.add(BUILDINGS.tab, building.row, "sea zone", "a port needs the sea zone "
                         "it opens onto")
        elif building.sea_zone not in where.seas:
            problems.add(BUILDINGS.tab, building.row, "sea zone", f"'{building.province}' "
                         f"does not touch '{building.sea_zone}' (its 'seas')")
    if building.state not in ("", data.ACTIVE) and building.type != data.FORT:
        problems.add(BUILDINGS.tab, building.row, "state", f"only a fort is {building.state}")
    if building.type in (data.PORT, data.FORT) and world.buildings_in(building.province,
                                                                     building.type):
        problems.add(BUILDINGS.tab, building.row, "type", f"'{building.province}' has a "
                     f"{building.type} already; only one {building.type} per province")
    building.state = building.state or data.ACTIVE


def _check_unit(world: GoldenWorld, unit: Unit, ids: dict[str, Unit],
                problems: Problems) -> None:
    tab, row = UNITS.tab, unit.row
    status = values.fold(unit.status)
    if status == "abandoned":
        problems.add(tab, row, "status", "'abandoned' is no status any more: leave it blank "
                     "(and 'nation' blank); the ship's running 'abandoned ship' timer in the "
                     "Timers tab (column 'unit') is what leaves it abandoned")
    elif status:
        problems.add(tab, row, "status", f"{values.show(unit.status)} is not blank or "
                     "'gone (...)'")
    unit.status = status
    rebel = unit.type in data.REBEL_TYPES
    if rebel and unit.nation:
        problems.add(tab, row, "nation", "rebels belong to no nation; leave it blank")
    nation = world.nations.get(unit.nation)
    unit.tech = unit.tech or (nation.tech if nation else 1)
    if unit.aboard:
        _check_aboard(unit, ids, problems)
        return
    where = unit.at
    found = world.provinces.get(where) or world.seas.get(where)
    if found is None:
        problems.add(tab, row, "at", f"{values.show(where)} is not a province or a sea zone"
                     if where else "is blank; name the province or sea zone it is in")
        return
    unit.at = found.name
    if unit.at_sea and unit.at in world.provinces and world.port(unit.at) is None:
        problems.add(tab, row, "at", f"a ship stands in '{unit.at}', which has no port")
    elif not unit.at_sea and unit.at in world.seas:
        problems.add(tab, row, "at", f"a land unit at sea ('{unit.at}') must be aboard a "
                     "ship (column 'aboard')")


def _check_aboard(unit: Unit, ids: dict[str, Unit], problems: Problems) -> None:
    if unit.at_sea or unit.type in data.REBEL_TYPES:
        problems.add(UNITS.tab, unit.row, "aboard", f"a {unit.type} is not carried by ships")
        return
    for ship_id in unit.aboard:
        ship = ids.get(ship_id)
        if ship is None or ship.type not in data.CARRIERS or ship.aboard:
            problems.add(UNITS.tab, unit.row, "aboard", f"'{ship_id}' is not a Warship or "
                         "Battleship in play")
            return
    unit.at = ids[unit.aboard[0]].at


def check_timers(world: GoldenWorld, timers: list[Timer], problems: Problems) -> None:
    """Each running or paused timer against its kind: the detail columns the kind needs
    filled in, each naming a row of its tab; then every unit with no nation is a rebel or a
    ship its 'abandoned ship' timer leaves abandoned."""
    known = Names(kinds.NEEDS)
    lookups = _lookups(world)
    for timer in timers:
        if not timer.live:
            continue
        kind = known.get(timer.kind)
        if kind is None:
            problems.add(TIMERS_TAB, timer.row, "kind", f"{values.show(timer.kind)} is not a "
                         f"kind of Golden Age timer ({', '.join(kinds.NEEDS)})")
            continue
        timer.kind = kind
        _check_timer(world, lookups, timer, problems)
    for unit in world.units.values():
        if not unit.nation and unit.type not in data.REBEL_TYPES and not unit.abandoned:
            problems.add(UNITS.tab, unit.row, "nation", "is blank; only rebels and abandoned "
                         "ships (a running 'abandoned ship' timer names it) have no nation")


def _check_timer(world: GoldenWorld, lookups: dict[str, tuple[Names, str]], timer: Timer,
                 problems: Problems) -> None:
    cells, kind = timer.details, timer.kind
    needs = kinds.NEEDS[kind] + ((kinds.SEA_ZONE,) if kind == kinds.CONSTRUCTION and
                                 cells.get(kinds.WHAT) == data.PORT else ())
    blank = [c for c in needs if values.is_blank(cells.get(c)) or cells.get(c) == 0]
    for column in blank:
        problems.add(TIMERS_TAB, timer.row, column, f"is blank; {a(kind)} timer needs it "
                     f"({', '.join(needs)}: README, 'Timers')")
    if (kind in kinds.OPEN_ENDED) != timer.open_ended:
        problems.add(TIMERS_TAB, timer.row, "turns left",
                     f"must be blank: {a(kind)} has no set length" if kind in kinds.OPEN_ENDED
                     else f"is blank; {a(kind)} lasts a set number of seasons: write how many "
                     "are left")
    for column in needs:
        if column not in blank:
            names, what = lookups.get(_lookup_key(kind, column), (None, ""))
            found = names.get(cells[column]) if names is not None else cells[column]
            if found is None:
                problems.add(TIMERS_TAB, timer.row, column,
                             f"{values.show(cells[column])} is not {what}")
            else:
                cells[column] = found
    unit = world.units.get(cells.get(kinds.UNIT) or "")
    if kind == kinds.ABANDONED and unit is not None:
        if unit.nation:
            problems.add(UNITS.tab, unit.row, "nation", f"an abandoned ship belongs to no "
                         f"nation (Timers tab, row {timer.row}): leave it blank")
        unit.abandoned = True


def _lookups(world: GoldenWorld) -> dict[str, tuple[Names, str]]:
    """What each name-holding detail column must name, found from any spelling."""
    ships = (u.name for u in world.units.values() if u.at_sea)
    makes = tuple(t for t in data.UNIT_TYPES if t not in data.REBEL_TYPES)
    return {
        kinds.PROVINCE: (Names(world.provinces), "a province in the Provinces tab"),
        kinds.SEA_ZONE: (Names(world.seas), "a sea zone in the Sea zones tab"),
        kinds.UNIT: (Names(world.units), "a unit in play in the Units tab"),
        "ship": (Names(ships), "a ship in play in the Units tab"),
        kinds.CANAL: (Names(world.canals), "a canal in the Canals tab"),
        kinds.AGREEMENT: (Names(world.agreements), "an agreement in the Agreements tab"),
        kinds.PRODUCTION: (Names(makes), f"a unit type ({', '.join(makes)})"),
        kinds.CONSTRUCTION: (Names(data.BUILDING_TYPES),
                             f"a building type ({', '.join(data.BUILDING_TYPES)})"),
    }


def _lookup_key(kind: str, column: str) -> str:
    """Which lookup checks a detail column of a kind (none for a number)."""
    if column == kinds.TO:
        return kinds.PROVINCE
    if column == kinds.WHAT:
        return kind
    if column == kinds.UNIT and kind == kinds.ABANDONED:
        return "ship"
    return column


def _check_settings(loaded, problems: Problems) -> None:
    frame = loaded.state.tables[SETTINGS_TAB.tab]
    items = Names(data.SETTINGS_ITEMS)
    for row, item in zip(frame.index.tolist(), frame[ITEM].tolist()):
        if item and items.get(item) is None:
            problems.add(SETTINGS_TAB.tab, int(row), ITEM, f"{values.show(item)} is not an "
                         f"item of the rules ({', '.join(data.SETTINGS_ITEMS)})")


def _nation_columns(world: GoldenWorld, nations: list[Nation]) -> dict[str, list[Any]]:
    """Each nation's provinces and units, counted in one pass over each."""
    owned: dict[str, int] = {}
    for p in world.provinces.values():
        owned[p.owner] = owned.get(p.owner, 0) + 1
    units: dict[str, int] = {}
    for u in world.units.values():
        units[u.nation] = units.get(u.nation, 0) + 1
    return {"provinces": [owned.get(n.name, 0) for n in nations],
            "units": [units.get(n.name, 0) for n in nations]}


#: the Timers tab's detail columns, checked by kind when the game is loaded
TIMER_LAYOUT = TimerLayout(kinds.TIMER_COLUMNS, check_timers, kinds.OLD_LAYOUT)

#: the tabs written back after every turn
WRITTEN: tuple[WrittenTab[GoldenWorld], ...] = (
    WrittenTab(NATIONS, lambda w: w.nations.values(), _nation_columns),
    WrittenTab(PROVINCES, lambda w: w.provinces.values(), lambda w, rows: {
        "economic value": [w.economic_value(p.name) for p in rows]}),
    WrittenTab(SEA_ZONES, lambda w: w.seas.values(), lambda w, rows: {
        "blockaded by": [", ".join(s.blockaders) for s in rows]}),
    WrittenTab(UNITS, lambda w: w.unit_rows, lambda w, rows: {
        "classification": [w.classifications.get(u.name, "") for u in rows]}),
    WrittenTab(BUILDINGS, lambda w: w.buildings),
    WrittenTab(RAILROADS, lambda w: w.railroads),
    WrittenTab(CANALS, lambda w: w.canals.values(), lambda w, rows: {
        "invested": [c.total for c in rows]}),
    WrittenTab(CANAL_INVESTMENTS, lambda w: w.canal_investments),
    WrittenTab(AGREEMENTS, lambda w: w.agreements.values()),
)
