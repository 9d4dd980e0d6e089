"""Building the decades world from the validated tabs, with every cross-check a GM needs."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from sheetmaster.kit import LAND, SEA, MapGraph, Problems, WrittenTab, values
from sheetmaster.rules.common.ownership import Holdings

from .settings import HAPPINESS_DRIFT, START_YEAR, parse_drift
from .tables import (
    ALLIANCES,
    GOVERNMENTS,
    PROVINCES,
    STATES,
    TECHNOLOGIES,
    WARS,
    Government,
    State,
)
from .world import PAID_COLUMNS, TOP_HAPPINESS, TRIBAL_STABILITY, DecadesWorld, anarchy, two_places

GOVERNMENT_NAMES_RULE = (
    "Tribal governments must be briefly noted since they operate rather differently from "
    "other states. [...] Feudal Monarchies and Despotic Monarchies must take civil wars "
    "before Enlightenment is researched. [...] All Monarchies have a 1/50 chance per turn of "
    "having an Interregnum. [...] All Feudal Monarchies have a 1/20 chance of entering into a "
    "Personal Union."
)
#: the traits a government has by its name (§5, §7, §10): the words its name holds, the
#: Governments column that must say yes, and what the source gives such a government.
NAMED_TRAITS = (
    (("tribal",), "tribal", "tribal", "a Tribal government",
     "x5 military, stability 2, no happiness counter (§5)"),
    (("monarchy",), "monarchy", "monarchy", "a Monarchy",
     "\"All Monarchies have a 1/50 chance per turn of having an Interregnum\" (§10)"),
    (("feudal", "monarchy"), "feudal", "feudal", "a Feudal Monarchy",
     "\"All Feudal Monarchies have a 1/20 chance of entering into a Personal Union\" (§10)"),
    (("feudal", "monarchy"), "civil_war_first", "civil war before enlightenment",
     "a Feudal Monarchy", "\"Feudal Monarchies and Despotic Monarchies must take civil wars "
     "before Enlightenment is researched\" (§7)"),
    (("despotic", "monarchy"), "civil_war_first", "civil war before enlightenment",
     "a Despotic Monarchy", "\"Feudal Monarchies and Despotic Monarchies must take civil "
     "wars before Enlightenment is researched\" (§7)"),
)
COLLAPSE_FLAG_RULE = (
    "For a single province state, falling into one stability incurs a 50% penalty on their "
    "income, which can only be removed by improving stability."
)


def build_world(loaded, problems: Problems) -> DecadesWorld:
    settings = loaded.settings
    start = settings.get(START_YEAR) if settings.given(START_YEAR) else None
    world = DecadesWorld(turn=loaded.state.turn, start_year=start)
    rows = loaded.rows
    world.governments = {g.name: g for g in rows[GOVERNMENTS.tab]}
    world.techs = sorted(rows[TECHNOLOGIES.tab], key=lambda t: (t.year, t.row))
    world.provinces = {p.name: p for p in rows[PROVINCES.tab]}
    world.map = MapGraph.from_rows(world.provinces, {LAND: "borders", SEA: "sea_links"})
    world.holdings = Holdings(world.provinces.values())
    world.states = {s.name: s for s in rows[STATES.tab]}
    world.alliances = {a.name: a for a in rows[ALLIANCES.tab]}
    world.wars = list(rows[WARS.tab])
    for province in world.provinces.values():
        _check_province(world, province, problems)
    for state in world.states.values():
        state.techs = tuple(state.techs)
        if state.alive:
            _check_state(world, state, problems)
    _check_relations(world, problems)
    for alliance in world.alliances.values():
        alliance.members = list(alliance.members)
        _check_alliance(world, alliance, problems)
    world.religions = list(dict.fromkeys(
        [s.religion for s in world.states.values()] +
        [p.religion for p in world.provinces.values()]))
    world.cultures = list(dict.fromkeys(
        [s.culture for s in world.states.values()] +
        [p.culture for p in world.provinces.values()]))
    _check_drift(loaded, problems)
    _blank_incomes(world)
    for government in world.governments.values():
        world.warnings.extend(government_warnings(government))
    return world


def government_warnings(government: Government) -> list[str]:
    """What a Governments row lacks of the traits its name gives it by the source, or
    contradicts of them (a warning each: the GM's tab rules, F49, but a row that names a
    Feudal Monarchy and rolls for no personal union is most likely a slip)."""
    words = set(re.findall(r"\w+", government.name.casefold()))
    where = f"Governments row {government.row}: '{government.name}'"
    out = [f"{where} is {what} by its name, but its '{column}' is not yes: {gives}"
           for needs, attr, column, what, gives in NAMED_TRAITS
           if set(needs) <= words and not getattr(government, attr)]
    if government.feudal and not government.monarchy:
        out.append(f"{where} is marked feudal but not monarchy: a Feudal Monarchy is one of "
                   f"\"All Monarchies\", with their 1 in 50 interregnum (§10)")
    return out


def _blank_incomes(world: DecadesWorld) -> None:
    """A blank income or spendable (a game entered mid-stream) is reckoned before the turn's
    orders (:mod:`.phases.under_way`); until then it reads 0, as a gone state's does."""
    for state in world.states.values():
        for attr, blanks in (("income", world.blank_income),
                             ("spendable", world.blank_spendable)):
            if getattr(state, attr) is None:
                setattr(state, attr, Decimal(0))
                if state.alive:
                    blanks.add(state.name)


def _check_province(world: DecadesWorld, province, problems: Problems) -> None:
    if province.value < 1:
        problems.add(PROVINCES.tab, province.row, "value",
                     "is 0; a province is worth 1 or more on the map")
    owner = world.states.get(province.owner)
    if owner is not None and not owner.alive:
        problems.add(PROVINCES.tab, province.row, "owner",
                     f"'{owner.name}' is gone ({owner.status}); every province is controlled "
                     f"by a state that exists")


def _check_state(world: DecadesWorld, state: State, problems: Problems) -> None:
    tab, row = STATES.tab, state.row
    if not state.capital:
        problems.add(tab, row, "capital", "is blank; name the state's capital province")
    elif world.provinces[state.capital].owner != state.name:
        capital = world.provinces[state.capital]
        problems.add(tab, row, "capital", f"'{state.capital}' is {state.name}'s capital but "
                     f"{capital.owner} controls it (Provinces tab, row {capital.row})")
    tribal = state.government in world.governments and world.tribal(state)
    if state.stability is None:
        if not _reported(problems, tab, row, "stability"):
            problems.add(tab, row, "stability", "is blank; stability runs from 1 to 4 "
                         "(Tribal: 2)")
        state.stability = TRIBAL_STABILITY  # the turn stops; the other checks go on
    elif tribal and state.stability != TRIBAL_STABILITY:
        problems.add(tab, row, "stability", f"is {state.stability}; a Tribal state's "
                     f"stability is 2")
    elif state.stability < 1:
        problems.add(tab, row, "stability", "is 0; stability runs from 1 to 4")
    for column, attr in (("happiness", "happiness"), ("national happiness", "national"),
                         ("religious happiness", "religious")):
        level = getattr(state, attr)
        if tribal and level is not None:
            problems.add(tab, row, column, "a Tribal state has no happiness counter; leave it "
                         "blank")
        elif not tribal and attr != "happiness" and level is None:
            setattr(state, attr, TOP_HAPPINESS)
    if not tribal and state.happiness is None:
        if not _reported(problems, tab, row, "happiness"):
            problems.add(tab, row, "happiness", "is blank; a state that is not Tribal has a "
                         "political happiness of 1 to 5")
    elif not tribal and state.happiness < 1:
        problems.add(tab, row, "happiness", "is 0; political happiness runs from 1 to 5 "
                     "(1 is revolution)")
    if state.collapse and state.stability > 1:
        world.warnings.append(
            f"States row {row}: {state.name}'s collapse penalty is 'yes' at stability "
            f"{state.stability}; it holds only at stability 1 (\"{COLLAPSE_FLAG_RULE}\"), so "
            f"it is cleared")
        state.collapse = False
    for column in ("income", "spendable", "military"):
        if getattr(state, column) is not None and getattr(state, column) < 0:
            problems.add(tab, row, column, f"{values.show(getattr(state, column))} is "
                         f"negative")


def _reported(problems: Problems, tab: str, row: int, column: str) -> bool:
    """Whether the cell's problem is already told (a bad value reads as blank)."""
    return any((p.tab, p.row, p.column) == (tab, row, column) for p in problems.items)


def _check_relations(world: DecadesWorld, problems: Problems) -> None:
    """Overlords and union partners: not oneself, not gone, no circle."""
    for state in world.states.values():
        if not state.alive:
            continue
        for column, attr in (("overlord", "overlord"), ("union with", "union_with")):
            other = world.states.get(getattr(state, attr))
            if other is None:
                continue
            if other is state:
                problems.add(STATES.tab, state.row, column, f"'{state.name}' names itself")
            elif not other.alive:
                problems.add(STATES.tab, state.row, column, f"'{other.name}' is gone")
            elif _circle(world, state, attr):
                problems.add(STATES.tab, state.row, column, f"'{state.name}' and "
                             f"'{other.name}' name each other in a circle")


def _circle(world: DecadesWorld, state: State, attr: str) -> bool:
    seen, at = {state.name}, getattr(state, attr)
    while at and at in world.states:
        if at in seen:
            return True
        seen.add(at)
        at = getattr(world.states[at], attr)
    return False


def _check_alliance(world: DecadesWorld, alliance, problems: Problems) -> None:
    for member in alliance.members:
        state = world.states[member]
        other = next((a for a in world.alliances_listing(member) if a is not alliance), None)
        if not state.alive:
            problems.add(ALLIANCES.tab, alliance.row, "members", f"'{member}' is gone")
        elif world.tribal(state):
            problems.add(ALLIANCES.tab, alliance.row, "members", f"'{member}' is Tribal, and "
                         f"Tribal states cannot form alliances")
        elif other is not None and other.row < alliance.row:
            problems.add(ALLIANCES.tab, alliance.row, "members", f"'{member}' is also in "
                         f"{other.name} (row {other.row}); a state belongs to one alliance")


def _check_drift(loaded, problems: Problems) -> None:
    settings = loaded.settings
    if not settings.given(HAPPINESS_DRIFT):
        return
    try:
        parse_drift(settings.get(HAPPINESS_DRIFT))
    except ValueError as exc:
        row = loaded.state.meta.get("setting_rows", {}).get(values.fold(HAPPINESS_DRIFT))
        problems.add("Game", row, "value", f"setting '{HAPPINESS_DRIFT}': {exc}")


def _state_columns(world: DecadesWorld, states: list[State]) -> dict[str, list[Any]]:
    """What sheetmaster writes of each state from the rest of the game (blank once a state
    is gone): its economic value, maximum happiness, anarchy and techs behind."""
    live = [s.alive for s in states]
    available = world.available(world.turn + 1)
    return {
        "economic value": [world.economic_value(s) if a else None for s, a in zip(states, live)],
        "max happiness": [values.number_cell(two_places(world.max_happiness(s)))
                          if a and not world.tribal(s) else None for s, a in zip(states, live)],
        "anarchy": ["yes" if a and anarchy(world, s) else "" for s, a in zip(states, live)],
        "techs behind": [world.techs_behind(s, available) if a else None
                         for s, a in zip(states, live)],
    }


def _paid_columns(world: DecadesWorld, provinces: list) -> dict[str, list[Any]]:
    """What each province's colonization and conversions have been paid so far (issue 26.1:
    blank unless paid, one look-up a province, not a look-up and a cell each column)."""
    columns: dict[str, list[Any]] = {column: [None] * len(provinces) for column in PAID_COLUMNS}
    if not world.paid:
        return columns
    for n, province in enumerate(provinces):
        paid = world.paid.get(province.name)
        if paid:
            for column, kind in PAID_COLUMNS.items():
                columns[column][n] = values.number_cell(paid.get(kind, Decimal(0))) or None
    return columns


#: the tabs written back after every turn
WRITTEN: tuple[WrittenTab[DecadesWorld], ...] = (
    WrittenTab(STATES, lambda w: w.states.values(), _state_columns),
    WrittenTab(PROVINCES, lambda w: w.provinces.values(), _paid_columns),
    WrittenTab(ALLIANCES, lambda w: w.alliances.values()),
    WrittenTab(WARS, lambda w: w.wars),
)
