"""Building the clans world from the validated tabs, with every cross-check a GM needs."""

from __future__ import annotations

import re
from typing import Any

import pandas as pd

from sheetmaster import values
from sheetmaster.model import GameState
from sheetmaster.schema import Problems, lookup_name
from sheetmaster.tabs import GAME_TAB
from sheetmaster.values import BadValue, Names

from . import data
from .effects import advisor_slots
from .tables import ADVISORS, ARMIES, CLANS, INDEPENDENTS, PROVINCES
from .world import OFFERED, Advisor, Clan, ClansWorld, IndependentRule, Province, Settings

FIRST_YEAR, FIRST_SEASON = "first year", "first season"
NINJA_COST, TRAVELLER_CHANCE = "ninja cost", "travelling advisor chance %"
SEASON = "season"
#: the clans game's own Game settings: name -> (default, help).
SETTINGS: dict[str, tuple[Any, str]] = {
    SEASON: ("", "the season being played now (written by sheetmaster from the turn)"),
    FIRST_YEAR: (1, "the year of turn 1"),
    FIRST_SEASON: ("Spring", "the season of turn 1: Spring, Summer, Autumn or Winter"),
    NINJA_COST: (0, "coins a Ninja costs (clans.txt names no price)"),
    TRAVELLER_CHANCE: (10, "chance each season (0-100) that a travelling advisor shows up at "
                           "a random clan's court"),
}
_MINE = re.compile(r"^(?P<name>.*?)\s*\((?P<resource>[^)]*)\)\s*$")
_TIMES = re.compile(r"^(?P<name>.*?)\s*x\s*(?P<n>[0-9])$", re.I)
INDEPENDENT_WORDS = {"", "independent", "independents"}


def build_world(state: GameState, problems: Problems) -> ClansWorld:
    world = ClansWorld(turn=state.turn, settings=_settings(state.meta, problems))
    owners = _load_provinces(world, state.tables[PROVINCES.tab], problems)
    _load_clans(world, state.tables[CLANS.tab], owners, problems)
    _load_armies(world, state.tables[ARMIES.tab], problems)
    _load_advisors(world, state.tables[ADVISORS.tab], problems)
    _load_independents(world, state.tables[INDEPENDENTS.tab], problems)
    for clan in world.clans.values():
        clan.over_slots_at_start = len(world.court(clan.name)) > advisor_slots(clan)
    return world


def _settings(meta: dict[str, Any], problems: Problems) -> Settings:
    rows = meta.get("setting_rows", {})
    out = Settings()

    def whole(key: str, top: int | None = None) -> int:
        try:
            n = values.whole_number(meta.get(key), blank=SETTINGS[key][0])
            if top is not None and n > top:
                raise BadValue(f"{n} is more than {top}")
            return n
        except BadValue as exc:
            problems.add(GAME_TAB, rows.get(key), "value", f"setting '{key}': {exc}")
            return SETTINGS[key][0]

    out.first_year = whole(FIRST_YEAR)
    out.ninja_cost = whole(NINJA_COST)
    out.traveller_chance = whole(TRAVELLER_CHANCE, 100)
    season = values.fold(values.text(meta.get(FIRST_SEASON)) or "Spring")
    folded = [values.fold(s) for s in data.SEASONS]
    if season in folded:
        out.first_season = folded.index(season)
    else:
        problems.add(GAME_TAB, rows.get(FIRST_SEASON), "value",
                     f"setting 'first season': {values.show(meta.get(FIRST_SEASON))} is not "
                     f"Spring, Summer, Autumn or Winter")
    return out


def _pick(lookup: Names, cell: str, tab: str, row: int, column: str, what: str,
          problems: Problems) -> str:
    return lookup_name(lookup, cell, problems, tab, row, column, what)


def _load_provinces(world: ClansWorld, df: pd.DataFrame,
                    problems: Problems) -> list[tuple[Province, str]]:
    """The provinces; their owners (as typed) are checked once the clans are read."""
    tab = PROVINCES.tab
    known = world.province_names = Names(n for n in df["province"].tolist() if n)
    flavours = Names(data.FLAVOURS, data.FLAVOUR_ALIASES)
    resources = _MOUNTAIN_NAMES
    cols = ["province", "flavour", "owner", "borders", "seas", "improvements",
            "resources found", "times prospected"]
    owners: list[tuple[Province, str]] = []
    for row, name, flavour, owner, borders, seas, built, found, times in zip(
            df.index.tolist(), *(df[c].tolist() for c in cols)):
        if not name:
            continue
        flavour = _pick(flavours, flavour, tab, row, "flavour",
                        "a flavour (Grassland, Riverplains, Forest or Mountain)",
                        problems) or data.GRASSLAND
        links = []
        for other in values.name_list(borders):
            found_name = known.get(other)
            if found_name is None:
                problems.add(tab, row, "borders", f"'{other}' is not a province in this tab")
            elif found_name == name:
                problems.add(tab, row, "borders", f"'{name}' cannot border itself")
            else:
                links.append(found_name)
        sea_names = tuple(values.name_list(seas))
        improvements, mine = _improvements(built, tab, row, problems)
        found_list = [r for r in (_pick(resources, f, tab, row, "resources found",
                                        "a Mountain resource (Copper, Iron, Silver, Sulphur)",
                                        problems) for f in values.name_list(found)) if r]
        province = Province(name, row, flavour, "", tuple(links), sea_names, improvements,
                            mine, found_list, times or 0)
        world.provinces[name] = province
        world.at[name] = []
        for sea in sea_names:
            world.seas.setdefault(values.fold(sea), []).append(name)
        owners.append((province, owner))
    for province in world.provinces.values():
        for other in province.borders:
            if province.name not in world.provinces[other].borders:
                problems.add(tab, province.row, "borders",
                             f"'{province.name}' lists '{other}', but '{other}' (row "
                             f"{world.provinces[other].row}) does not list '{province.name}'")
    return owners


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


def _load_clans(world: ClansWorld, df: pd.DataFrame, owners: list[tuple[Province, str]],
                problems: Problems) -> None:
    tab = CLANS.tab
    religions = Names(data.RELIGIONS)
    techs = Names(data.TECHS)
    cols = ["clan", "capital", "religion", "coins", "techs", "researching", "research points",
            "extras", "started on turn", "capital moved on turn", "destroyed", "victory",
            "email"]
    for row, name, capital, religion, coins, done, current, points, extras, started, moved, \
            destroyed, victory, email in zip(df.index.tolist(), *(df[c].tolist() for c in cols)):
        if not name:
            continue
        religion = _pick(religions, religion, tab, row, "religion",
                         "a religion (Spirits, Zen or Philosophers)", problems)
        if not religion and not destroyed:
            problems.add(tab, row, "religion", "is blank; pick Spirits, Zen or Philosophers")
        tech_list = [t for t in (_pick(techs, t, tab, row, "techs", "a tech", problems)
                                 for t in values.name_list(done)) if t]
        capital_name = _pick(world.province_names, capital, tab, row, "capital",
                             "a province in the Provinces tab", problems)
        if not capital and not destroyed:
            problems.add(tab, row, "capital", "is blank; name the clan's starting province")
        world.clans[name] = Clan(
            name, row, capital_name, religion, coins or 0, tech_list,
            _pick(techs, current, tab, row, "researching", "a tech", problems), points or 0,
            values.name_list(extras), started or 0, moved or 0, destroyed, victory,
            values.text(email))
    clans = Names(world.clans)
    for province, owner in owners:
        if values.fold(owner) in INDEPENDENT_WORDS:
            continue
        found = _pick(clans, owner, PROVINCES.tab, province.row, "owner",
                      "a clan in the Clans tab", problems)
        if found:
            world.set_owner(province, found)
    for clan in world.clans.values():
        province = world.provinces.get(clan.capital)
        if province is None or clan.destroyed:
            continue
        if clan.started and province.owner != clan.name:
            problems.add(tab, clan.row, "capital", f"'{clan.capital}' is {clan.name}'s capital "
                         f"but {province.owner or 'no clan'} holds it (Provinces tab, row "
                         f"{province.row})")
        elif not clan.started and province.owner not in ("", clan.name):
            problems.add(tab, clan.row, "capital", f"starting province '{clan.capital}' is "
                         f"held by {province.owner}")


def _status(cell: str, allowed: tuple[str, ...], tab: str, row: int,
            problems: Problems) -> str:
    """A status cell: one of ``allowed``, or 'gone ...' for a row that is no more."""
    word = values.fold(cell)
    if word in allowed or word.startswith("gone"):
        return cell if word.startswith("gone") else word
    problems.add(tab, row, "status", f"{values.show(cell)} is not " + " or ".join(
        ["blank", *(repr(a) for a in allowed if a)]) + " or 'gone (...)'")
    return word


def _load_armies(world: ClansWorld, df: pd.DataFrame, problems: Problems) -> None:
    tab = ARMIES.tab
    clans = Names(world.clans)
    types = Names(data.ARMY_TYPES, data.ARMY_ALIASES)
    seen: dict[str, int] = {}
    for row, name, clan, kind, where, status in zip(
            df.index.tolist(), *(df[c].tolist() for c in ("army", "clan", "type", "province",
                                                         "status"))):
        if not name:
            continue
        first = seen.setdefault(name.casefold(), int(row))
        if first != int(row):
            problems.add(tab, row, "army", f"'{name}' is listed twice (also on row {first})")
            continue
        status = _status(status, ("",), tab, row, problems)
        if status:
            world.add_army(clan, kind, where, name, int(row), status)
            continue
        owner = "" if values.fold(clan) in INDEPENDENT_WORDS else _pick(
            clans, clan, tab, row, "clan", "a clan in the Clans tab", problems)
        kind = _pick(types, kind, tab, row, "type", "an army type (Spearmen, Archers, Cavalry)",
                     problems)
        province = _pick(world.province_names, where, tab, row, "province",
                         "a province in the Provinces tab", problems)
        if not kind or not province or (clan and not owner and
                                         values.fold(clan) not in INDEPENDENT_WORDS):
            continue
        holder = world.provinces[province].owner
        if holder != owner:
            problems.add(tab, row, "province", f"army '{name}' of {owner or 'the Independents'} "
                         f"stands in {province}, held by {holder or 'the Independents'}")
        world.add_army(owner, kind, province, name, int(row))


def _load_advisors(world: ClansWorld, df: pd.DataFrame, problems: Problems) -> None:
    tab = ADVISORS.tab
    clans = Names(world.clans)
    skills = Names(data.SKILLS)
    cols = ["clan", "skill", "great", "second skill", "status", "since turn"]
    for row, clan, skill, great, second, status, since in zip(
            df.index.tolist(), *(df[c].tolist() for c in cols)):
        if not clan and not skill:
            continue
        clan = _pick(clans, clan, tab, row, "clan", "a clan in the Clans tab", problems)
        skill = _pick(skills, skill, tab, row, "skill", "an advisor's skill", problems)
        second = _pick(skills, second, tab, row, "second skill", "an advisor's skill", problems)
        word = _status(status, ("", OFFERED), tab, row, problems)
        if clan and skill:
            world.add_advisor(Advisor(clan, skill, great == "yes", second, word, since or 0,
                                          int(row)))


def _load_independents(world: ClansWorld, df: pd.DataFrame, problems: Problems) -> None:
    tab = INDEPENDENTS.tab
    cols = ["provinces", "starting armies", "raise chance %", "army limit", "castle chance %"]
    for row, names, *numbers in zip(df.index.tolist(), *(df[c].tolist() for c in cols)):
        listed = values.name_list(names)
        chosen = None
        if listed and not (len(listed) == 1 and values.fold(listed[0]) == "all"):
            chosen = frozenset(p for p in (_pick(world.province_names, n, tab, row, "provinces",
                                                 "a province in the Provinces tab", problems)
                                           for n in listed) if p)
        parsed: list[int | None] = []
        for column, cell in zip(cols[1:], numbers):
            try:
                n = values.whole_number(cell) if values.text(cell) else None
                if n is not None and column.endswith("%") and n > 100:
                    raise BadValue(f"{n} is more than 100")
                parsed.append(n)
            except BadValue as exc:
                problems.add(tab, row, column, str(exc))
                parsed.append(None)
        world.independents.append(IndependentRule(chosen, *parsed))
