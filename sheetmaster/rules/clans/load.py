"""The clans world built from the validated tabs (with every cross-check a GM needs), and the
tabs written back from it after the turn."""

from __future__ import annotations

import re
from typing import Any

from sheetmaster.kit import (
    COAST,
    LAND,
    MapGraph,
    Names,
    Problems,
    WrittenTab,
    lookup_name,
    plural,
    values,
)

from . import data
from .phases import effects
from .phases.armies import army_limit
from .phases.court import advisor_slots
from .phases.research import research_parts
from .tables import (
    ADVISORS,
    ARMIES,
    CLANS,
    INDEPENDENTS,
    OFFERED,
    PROVINCES,
    Advisor,
    Clan,
    Province,
)
from .world import ClansWorld, sea_node

_MINE = re.compile(r"^(?P<name>.*?)\s*\((?P<resource>[^)]*)\)\s*$")
_TIMES = re.compile(r"^(?P<name>.*?)\s*x\s*(?P<n>[0-9])$", re.I)


def build_world(loaded, problems: Problems) -> ClansWorld:
    """The world from the tabs' rows, with the checks only the clans game needs."""
    world = ClansWorld(turn=loaded.state.turn)
    world.province_names = loaded.names[PROVINCES.tab]
    world.map = MapGraph.from_rows(world.provinces, {LAND: "borders"})
    rows = loaded.rows
    for province in rows[PROVINCES.tab]:
        _add_province(world, province, problems)
    typed = dict(zip(loaded.state.tables[CLANS.tab].index, loaded.state.tables[CLANS.tab][
        "capital"].tolist()))
    for clan in rows[CLANS.tab]:
        _add_clan(world, clan, typed[clan.row], problems)
    for province in world.provinces.values():
        owner, province.owner = province.owner, ""
        if owner:
            world.set_owner(province, owner)
    for clan in world.clans.values():
        _check_capital(world, clan, problems)
    for army in rows[ARMIES.tab]:
        if _status(army.status, ("",), ARMIES.tab, army.row, problems):
            world.place_army(army)  # gone: kept as it is
            continue
        holder = world.provinces[army.province].owner if army.province else army.clan
        if holder != army.clan:
            problems.add(ARMIES.tab, army.row, "province", f"army '{army.name}' of "
                         f"{army.clan or 'the Independents'} stands in {army.province}, held by "
                         f"{holder or 'the Independents'}")
        world.place_army(army)
    for advisor in rows[ADVISORS.tab]:
        advisor.status = _status(advisor.status, ("", OFFERED), ADVISORS.tab, advisor.row,
                                 problems)
        world.add_advisor(advisor)
    for rule in rows[INDEPENDENTS.tab]:
        _read_independents(world, rule, problems)
        world.independents.append(rule)
    for clan in world.clans.values():
        _check_not_started(world, clan, problems)
    for clan in world.clans.values():
        clan.over_slots_at_start = len(world.court(clan.name)) > advisor_slots(clan)
    return world


def _add_province(world: ClansWorld, province: Province, problems: Problems) -> None:
    province.flavour = province.flavour or data.GRASSLAND
    province.improvements, province.mine = _improvements(province.improvements, PROVINCES.tab,
                                                         province.row, problems)
    province.found = list(province.found)
    world.provinces[province.name] = province
    world.at[province.name] = []
    for sea in province.seas:
        world.map.add(province.name, sea_node(sea), COAST)


_IMPROVEMENT_NAMES = Names(data.IMPROVEMENTS, data.IMPROVEMENT_ALIASES)
_MOUNTAIN_NAMES = Names(data.MOUNTAIN_RESOURCES)


def _improvements(cell: str, tab: str, row: int, problems: Problems) -> tuple[list[str], str]:
    names = _IMPROVEMENT_NAMES
    out: list[str] = []
    mine = ""
    for part in values.name_list(cell):
        times = 1
        match = _TIMES.match(part)
        if match and names.get(match["name"]):
            part, times = match["name"], int(match["n"])
        resource = ""
        match = _MINE.match(part)
        if match:
            part, resource = match["name"], match["resource"].strip()
        found = names.get(part)
        if found is None:
            problems.add(tab, row, "improvements", f"{values.show(part)} is not an improvement "
                         f"({', '.join(data.IMPROVEMENTS)})")
            continue
        if found == data.MINE:
            mine = _MOUNTAIN_NAMES.get(resource) or ""
            if not mine:
                problems.add(tab, row, "improvements", "a Mine names the resource it mines, "
                             "e.g. 'Mine (Iron)'")
        out += [found] * times
    if len(out) > data.MAX_IMPROVEMENTS:
        problems.add(tab, row, "improvements", f"{len(out)} improvements; a province "
                     f"supports up to {data.MAX_IMPROVEMENTS}")
    return out, mine


def _status(cell: str, allowed: tuple[str, ...], tab: str, row: int,
            problems: Problems) -> str:
    """A status cell: one of ``allowed``, or 'gone ...' for a row that is no more."""
    word = values.fold(cell)
    if word in allowed or word.startswith("gone"):
        return cell if word.startswith("gone") else word
    problems.add(tab, row, "status", f"{values.show(cell)} is not " + " or ".join(
        ["blank", *(repr(a) for a in allowed if a)]) + " or 'gone (...)'")
    return word


def _add_clan(world: ClansWorld, clan: Clan, capital_typed: str, problems: Problems) -> None:
    clan.techs, clan.extras = list(clan.techs), list(clan.extras)
    if not clan.destroyed:
        if not clan.religion:
            problems.add(CLANS.tab, clan.row, "religion",
                         "is blank; pick Spirits, Zen or Philosophers")
        if not capital_typed:
            problems.add(CLANS.tab, clan.row, "capital",
                         "is blank; name the clan's starting province")
    world.clans[clan.name] = clan


def _check_capital(world: ClansWorld, clan: Clan, problems: Problems) -> None:
    province = world.provinces.get(clan.capital)
    if province is None or clan.destroyed:
        return
    if clan.started and province.owner != clan.name:
        problems.add(CLANS.tab, clan.row, "capital", f"'{clan.capital}' is {clan.name}'s "
                     f"capital but {province.owner or 'no clan'} holds it (Provinces tab, row "
                     f"{province.row})")
    elif not clan.started and province.owner not in ("", clan.name):
        problems.add(CLANS.tab, clan.row, "capital", f"starting province '{clan.capital}' is "
                     f"held by {province.owner}")


def _check_not_started(world: ClansWorld, clan: Clan, problems: Problems) -> None:
    """A clan with a blank 'started on turn' is set up as the turn starts (10000 coins more, a
    Castle, 2 Spearmen): one that already has armies, advisors or more provinces than its
    starting one is a game under way whose cell was left blank."""
    if clan.started or clan.destroyed:
        return
    armies, court = len(world.armies_of(clan.name)), len(world.court(clan.name))
    held = [plural(armies, "army")] if armies else []
    held += [plural(court, "advisor")] if court else []
    held += [p.name for p in world.provinces_of(clan.name) if p.name != clan.capital]
    if held:
        listed = held[0] if len(held) == 1 else f"{', '.join(held[:-1])} and {held[-1]}"
        problems.add(CLANS.tab, clan.row, "started on turn", f"is blank, which sets {clan.name} "
                     f"up as a new clan this turn (a Castle, 2 Spearmen, 10000 more coins), yet "
                     f"it already has {listed}: type the turn it started (1 if it began with "
                     f"the game)")


def _read_independents(world: ClansWorld, rule, problems: Problems) -> None:
    """'all' or blank: every Independent province; else the provinces named."""
    listed = list(rule.provinces)
    if not listed or (len(listed) == 1 and values.fold(listed[0]) == "all"):
        rule.provinces = None
        return
    rule.provinces = frozenset(p for p in (
        lookup_name(world.province_names, n, problems, INDEPENDENTS.tab, rule.row, "provinces",
                    "a province in the Provinces tab") for n in listed) if p)


def _clan_counts(world: ClansWorld, clans: list[Clan]) -> dict[str, list[Any]]:
    """Provinces, armies, limits, research, piety and supply of each clan (blank or 0 once
    destroyed)."""
    alive = [c.alive for c in clans]
    return {
        "provinces": [world.count(c.name) for c in clans],
        # each clan's own armies (issue 26.1: not a count over every army of the game)
        "armies": [len(world.by_clan.get(c.name, ())) for c in clans],
        "army limit": [army_limit(world, c) if a else 0 for c, a in zip(clans, alive)],
        "advisor slots": [advisor_slots(c) if a else 0 for c, a in zip(clans, alive)],
        "research per season": [sum(v for _, v in research_parts(world, c)) if a
                                else 0 for c, a in zip(clans, alive)],
        "piety coverage": [f"{effects.coverage(world, c.name)}%" if a else ""
                           for c, a in zip(clans, alive)],
        "resource supply": [_supply_text(world, c.name) if a else ""
                            for c, a in zip(clans, alive)],
    }


def _supply_text(world: ClansWorld, clan: str) -> str:
    provinces = world.count(clan)
    units = effects.supply(world, clan)
    parts = []
    for resource, n in sorted(units.items()):
        pct = effects.supply_percent(n, provinces)
        star = "*" if n * 200 >= 66 * provinces else ""
        parts.append(f"{resource} {pct}%{star}")
    return ", ".join(parts)


def _second_skills(world: ClansWorld, advisors: list[Advisor]) -> dict[str, list[Any]]:
    return {"second skill": [a.second if a.great else "" for a in advisors]}


#: the tabs written back after every turn: provinces and clans keep their rows; the Armies
#: and Advisors tabs are rewritten whole (a gone army or advisor keeps its row, marked gone).
WRITTEN: tuple[WrittenTab[ClansWorld], ...] = (
    WrittenTab(CLANS, lambda w: w.clans.values(), _clan_counts),
    WrittenTab(PROVINCES, lambda w: w.provinces.values(),
               lambda w, rows: {"improvements": [p.improvements_text() for p in rows]}),
    WrittenTab(ARMIES, lambda w: w.army_rows),
    WrittenTab(ADVISORS, lambda w: w.advisors, _second_skills),
)
