"""Building the 1800 world from the validated tabs, with every check the game needs: the
catalogue read in the effect vocabulary, the board's limits, the cards in play and in hand.
A problem names its tab, row and column, and nothing is resolved."""

from __future__ import annotations

import re
from typing import Any

from sheetmaster.kit import LAND, BadValue, MapGraph, Names, Problems, WrittenTab, a, values

from .data import COSTS, DEVELOPMENT, GLOBAL_EVENT, REWARDS, STATIC, parse_clauses
from .phases import hands
from .phases.starts import check_starts
from .tables import (
    AGGRESSIONS,
    BATTLES,
    CAPS,
    CARDS,
    CITY,
    COUNTRYSIDE,
    COUNTRYSIDE_POPS,
    DRAFT_ROW,
    EITHER,
    EVENT_ROW,
    FACTORY,
    FARM,
    HANDS,
    IMPROVEMENTS,
    MARKET,
    NATIONS,
    POLICY,
    POLICY_CATEGORIES,
    POPS,
    PROVINCES,
    RESOURCES,
    ROWS,
    TABLEAU,
    TECH_CATEGORIES,
    TECHNOLOGY,
    TRADE_ROUTES,
    WARS,
    Card,
    ImprovementType,
    Nation,
    Province,
)
from .world import EighteenWorld, most_pops, war_actions

_TIMES = re.compile(r"^(?P<name>.*?)\s*x\s*(?P<n>[0-9]+)$", re.I)
#: the three types the source names, and what each must be
NAMED_TYPES = {FACTORY: (CITY, "production"), FARM: (COUNTRYSIDE, "food"),
               MARKET: (EITHER, "commerce")}


def build_world(loaded, problems: Problems) -> EighteenWorld:
    rows = loaded.rows
    if not loaded.key:
        raise hands.secret_needed()
    world = EighteenWorld(key=loaded.key, round=loaded.date.round or 1,
                          stage="" if loaded.date.setup else loaded.date.stage)
    _improvement_types(world, rows[IMPROVEMENTS.tab], problems)
    world.nations = {n.name: n for n in rows[NATIONS.tab]}
    _nations(world, problems)
    world.province_names = loaded.names[PROVINCES.tab]
    types = Names(world.improvement_types)  # once, not once a province (issue 26.1)
    for province in rows[PROVINCES.tab]:
        _province(world, province, types, problems)
    world.map = MapGraph.from_rows(world.provinces, {LAND: "adjacent"})
    world.card_names = loaded.names[CARDS.tab]
    for card in rows[CARDS.tab]:
        _card(world, card, problems)
    world.cards = {c.name: c for c in rows[CARDS.tab]}
    for card in rows[CARDS.tab]:
        _requirements(world, card, problems)
    world.pops = list(rows[POPS.tab])
    _pops(world, problems)
    world.tableau = list(rows[TABLEAU.tab])
    _tableau(world, problems)
    world.rows = list(rows[ROWS.tab])
    _face_up(world, problems)
    world.hands = list(rows[hands.HANDS.tab])
    hands.open_hands(world, world.hands, problems)
    world.routes = {r.name: r for r in rows["Trade routes"]}
    world.wars, world.aggressions = list(rows["Wars"]), list(rows["Aggressions"])
    world.battles = list(rows["Battles"])
    if loaded.date.setup:
        check_starts(world, problems)
    return world


def _improvement_types(world: EighteenWorld, types, problems: Problems) -> None:
    """The three types the source names are always there; the tab adds the GM's own (F17)
    and may list the three, as the rules have them."""
    world.improvement_types = {name: ImprovementType(name, 0, where, output)
                               for name, (where, output) in NAMED_TYPES.items()}
    for kind in types:
        known = world.improvement_types.get(values.Names(NAMED_TYPES).get(kind.name) or "")
        if known is not None and (known.where, known.output) != (kind.where, kind.output):
            problems.add(IMPROVEMENTS.tab, kind.row, "where", f"a {known.name} is built in a "
                         f"{known.where} ('either': both) and makes {known.output}, by the "
                         f"rules")
        elif known is None:
            world.improvement_types[kind.name] = kind


#: "The game can be played by 2-8 players"
PLAYERS = (2, 8)


def _nations(world: EighteenWorld, problems: Problems) -> None:
    if not PLAYERS[0] <= len(world.nations) <= PLAYERS[1]:
        problems.add(NATIONS.tab, None, "nation", f"{len(world.nations)} nations; the game is "
                     f"for {PLAYERS[0]} to {PLAYERS[1]} players")
    seats: dict[int, str] = {}
    for nation in world.nations.values():
        if nation.seat < 1:
            problems.add(NATIONS.tab, nation.row, "seat", "is blank or 0; seats count from 1")
        elif nation.seat in seats:
            problems.add(NATIONS.tab, nation.row, "seat", f"seat {nation.seat} is "
                         f"{seats[nation.seat]}'s too; each nation has its own")
        seats.setdefault(nation.seat, nation.name)
    dealers = [n for n in world.nations.values() if n.dealer]
    for nation in dealers[1:]:
        problems.add(NATIONS.tab, nation.row, "dealer", f"{dealers[0].name} holds the dealer "
                     f"chip already; one nation holds it")


def _province(world: EighteenWorld, province: Province, types: Names,
              problems: Problems) -> None:
    """The province's improvements read (``types``: the improvement types' names)."""
    built: list[str] = []
    for part in values.name_list(province.improvements):
        times, match = 1, _TIMES.match(part)
        if match and types.get(match["name"]):
            part, times = match["name"], int(match["n"])
        found = types.get(part)
        if found is None:
            problems.add(PROVINCES.tab, province.row, "improvements", f"{values.show(part)} is "
                         f"not an improvement of the Improvements tab")
            continue
        where = world.improvement_types[found].where
        if where not in (EITHER, province.type) and province.type:
            problems.add(PROVINCES.tab, province.row, "improvements",
                         f"a {found} is built in a {where} only")
        built += [found] * times
    province.improvements = built
    cap = CAPS.get(province.type)
    if cap is not None and len(built) > cap:
        problems.add(PROVINCES.tab, province.row, "improvements", f"{len(built)} improvements; "
                     f"a {province.type} supports {cap}")
    if province.conscripted and not province.regiment:
        problems.add(PROVINCES.tab, province.row, "conscripted", "no regiment stands here")
    world.provinces[province.name] = province


def _card(world: EighteenWorld, card: Card, problems: Problems) -> None:
    row, improvements = card.row, tuple(world.improvement_types)
    if card.copies is None:
        card.copies = 1
    for column, text, table, attr in (("effects", card.effects_text, STATIC, "effects"),
                                      ("reward", card.reward_text, REWARDS, "reward"),
                                      ("cost", card.cost_text, COSTS, "cost")):
        try:
            setattr(card, attr, parse_clauses(text, table, card.deck, improvements))
        except BadValue as exc:
            problems.add(CARDS.tab, row, column, str(exc))
    _one_of_each(card, problems)
    try:
        card.needs = _needs(card.needs_text)
    except BadValue as exc:
        problems.add(CARDS.tab, row, "needs", str(exc))
    if card.deck != DEVELOPMENT:
        for column in ("variety", "category", "era", "requires"):
            if getattr(card, column):
                problems.add(CARDS.tab, row, column, f"only development cards have one; this "
                             f"is {a(card.deck)} card")
        if any(card.slots(r) for r in RESOURCES) or card.needs_text:
            problems.add(CARDS.tab, row, "food slots", "only development cards hold tokens")
        return
    _development(card, problems)


#: reward clauses that take the same pops: one of them a card
_RIVALS = ({"convert", "exterminate"},)


def _one_of_each(card: Card, problems: Problems) -> None:
    """A reward's clauses are checked before any is gained, against one province, route and
    target: two clauses of one kind (or two that take the same pops) could both pass and not
    both be gained."""
    names = [e.name for e in card.reward]
    twice = sorted({n for n in names if names.count(n) > 1})
    rivals = [sorted(r) for r in _RIVALS if len(r & set(names)) > 1]
    for clash in ([f"'{n}' appears twice" for n in twice] +
                  [f"{' and '.join(r)} take the same pops" for r in rivals]):
        problems.add(CARDS.tab, card.row, "reward", f"{clash}: a reward has one clause of "
                     f"each kind (write the number once: 'draw admin 2')")


def _development(card: Card, problems: Problems) -> None:
    row = card.row
    if not card.variety:
        problems.add(CARDS.tab, row, "variety", "a development card is a policy, a technology "
                     "or an institution")
    allowed = {POLICY: POLICY_CATEGORIES, TECHNOLOGY: TECH_CATEGORIES}.get(card.variety, ())
    if card.variety in (POLICY, TECHNOLOGY) and card.category not in allowed:
        problems.add(CARDS.tab, row, "category", f"a {card.variety} is "
                     f"{values.or_list(allowed)}")
    elif card.variety not in (POLICY, TECHNOLOGY) and card.category:
        problems.add(CARDS.tab, row, "category", "only policies and technologies have one")
    if card.variety == TECHNOLOGY and not card.era and not card.start:
        problems.add(CARDS.tab, row, "era", "a technology belongs to era I, II or III")
    if card.needs is not None and not card.reward:
        problems.add(CARDS.tab, row, "needs", "the card has no reward: it is never activated")
    if card.needs is not None:
        for resource, n in card.needs.items():
            if n > card.slots(resource):
                problems.add(CARDS.tab, row, "needs", f"needs {n} {resource} but has "
                             f"{card.slots(resource)} {resource} slots")


def _needs(text: str) -> dict[str, int] | None:
    """'production 3; food 1' -> {'production': 3, 'food': 1}; blank -> None (F25). A
    clause of 0 means nothing (data.ZERO_RULE): 'production 0' alone reads as a blank cell."""
    if not text:
        return None
    out: dict[str, int] = {}
    for clause in values.name_list(text.replace(";", "\n")):
        parts = clause.split()
        resource = values.fold(parts[0]) if parts else ""
        if len(parts) != 2 or resource not in RESOURCES or not parts[1].isdigit():
            raise BadValue(f"{values.show(clause)}: write a resource and a number, e.g. "
                           f"'production 3'")
        if int(parts[1]):
            out[resource] = out.get(resource, 0) + int(parts[1])
    return out or None


#: "any tier-2 military technology" (issue 29.9): a requirement by tier and category
_TIER = re.compile(r"^(?:any\s+)?(?:a\s+)?tier[\s-]*(?P<tier>[0-9]+)\s+(?P<category>[a-z]+)"
                   r"(?:\s+technology)?$", re.I)


def _requirements(world: EighteenWorld, card: Card, problems: Problems) -> None:
    """Each requirement a technology by name, or by tier: 'any tier-2 military technology'
    (a technology of that category of tier 2 or higher in play)."""
    names: list[str] = []
    tiers: list[tuple[int, str]] = []
    for part in card.requires:
        other = world.cards.get(world.card_names.get(part) or "")
        by_tier = _TIER.match(part.strip()) if other is None else None
        if by_tier and values.fold(by_tier["category"]) in TECH_CATEGORIES:
            tiers.append((int(by_tier["tier"]), values.fold(by_tier["category"])))
            continue
        if other is None:
            problems.add(CARDS.tab, card.row, "requires", f"{values.show(part)} is neither a "
                         f"card of the Cards tab nor a tier, e.g. 'any tier-2 military "
                         f"technology' ({values.or_list(TECH_CATEGORIES)})")
        elif not (other.development and other.variety == TECHNOLOGY):
            problems.add(CARDS.tab, card.row, "requires", f"{other.name} is not a technology")
        else:
            names.append(other.name)
    card.requires, card.requires_tiers = tuple(names), tuple(tiers)


def _pops(world: EighteenWorld, problems: Problems) -> None:
    seen: dict[tuple[str, str], int] = {}
    # province name -> [the Province, its pops, its laborers]: the Province kept, not looked
    # up again (issue 26.1: a random look-up in a large map's dict costs most of the loop)
    counted: dict[str, list] = {}
    for pop in world.pops:
        key = (pop.province, pop.nation)
        if key in seen:
            problems.add(POPS.tab, pop.row, "nation", f"{pop.nation} in {pop.province} is on "
                         f"row {seen[key]} already")
            continue
        seen[key] = pop.row
        province = world.provinces.get(pop.province)
        if province is None:
            continue
        tally = counted.get(pop.province)
        if tally is None:
            tally = counted[pop.province] = [province, 0, 0]
        tally[1] += pop.pops
        tally[2] += pop.laborers
        if pop.laborers + pop.conscripted > pop.pops:
            problems.add(POPS.tab, pop.row, "laborers", f"{pop.laborers} laborers and "
                         f"{pop.conscripted} conscripted, but {pop.pops} pops")
        if pop.laborers and not province.city:
            problems.add(POPS.tab, pop.row, "laborers", "laborers work factories, in cities")
        if pop.conscripted > 1 or (pop.conscripted and not (
                province.regiment == pop.nation and province.conscripted)):
            problems.add(POPS.tab, pop.row, "conscripted", f"{pop.province} needs a conscripted "
                         f"regiment of {pop.nation} for it (one at most)")
    for province, n, laborers in counted.values():
        if province.type == COUNTRYSIDE and n > COUNTRYSIDE_POPS:
            problems.add(PROVINCES.tab, province.row, "province", f"{n} pops in a countryside; "
                         f"it holds {COUNTRYSIDE_POPS} (Pops tab)")
        if laborers > province.count(FACTORY):
            problems.add(PROVINCES.tab, province.row, "improvements", f"{laborers} "
                         f"laborers but {province.count(FACTORY)} factories (Pops tab)")
    # (issue 26.1: a set, not a scan of the whole tab for each conscripted province)
    stood = {(p.province, p.nation) for p in world.pops if p.conscripted}
    for province in world.provinces.values():
        if province.conscripted and (province.name, province.regiment) not in stood:
            problems.add(PROVINCES.tab, province.row, "conscripted", f"no conscripted pop of "
                         f"{province.regiment} here (Pops tab)")
    world.index_pops()


def _tableau(world: EighteenWorld, problems: Problems) -> None:
    held: dict[tuple[str, str, str], int] = {}
    for entry in world.tableau:
        card = world.cards.get(entry.card)
        if card is None or not entry.in_play:
            continue
        if not card.development:
            problems.add(TABLEAU.tab, entry.row, "card", f"{card.name} is {a(card.deck)} card; "
                         f"only development cards are played to the table")
            continue
        for resource in RESOURCES:
            if entry.tokens(resource) > card.slots(resource):
                problems.add(TABLEAU.tab, entry.row, resource, f"{entry.tokens(resource)} "
                             f"tokens on {card.slots(resource)} {resource} slots")
        if card.variety in (POLICY, TECHNOLOGY):
            key = (entry.nation, card.variety, card.category)
            if key in held:
                problems.add(TABLEAU.tab, entry.row, "card", f"{entry.nation} has a "
                             f"{card.category} {card.variety} in play already (row "
                             f"{held[key]}); a new one replaces it")
            held.setdefault(key, entry.row)


def _face_up(world: EighteenWorld, problems: Problems) -> None:
    for row in world.rows:
        card = world.cards.get(row.card)
        wanted = {DRAFT_ROW: DEVELOPMENT, EVENT_ROW: GLOBAL_EVENT}.get(row.place)
        if card is not None and wanted and card.deck != wanted:
            problems.add(ROWS.tab, row.row, "card", f"{card.name} is not {a(wanted)} card")


def _nation_columns(world: EighteenWorld, nations: list[Nation]) -> dict[str, list[Any]]:
    """What sheetmaster writes of each nation from the rest of the game: its war actions, how
    many cards its hand holds of each pile, its ambition (once revealed) and its points."""
    return {"war actions": [war_actions(world, n.name) for n in nations],
            "admin cards": [len(world.hand(n.name, "admin")) for n in nations],
            "military cards": [len(world.hand(n.name, "military")) for n in nations],
            "ambition": [world.revealed_ambition(n) for n in nations],
            "ambition points": [n.ambition_points for n in nations],
            "score": [n.score for n in nations]}


def _province_columns(world: EighteenWorld, provinces: list[Province]) -> dict[str, list[Any]]:
    """Each province's improvements, and its controller (see :meth:`EighteenWorld.controller`),
    the pops counted in one pass over the Pops tab rather than one pass per province."""
    pops: dict[str, dict[str, int]] = {}
    for p in world.pops:
        if p.pops:
            pops.setdefault(p.province, {})[p.nation] = p.pops
    return {"improvements": [p.improvements_text() for p in provinces],
            "controller": [p.regiment or most_pops(pops.get(p.name, {})) for p in provinces]}


#: the tabs written back after every turn
WRITTEN: tuple[WrittenTab[EighteenWorld], ...] = (
    WrittenTab(NATIONS, lambda w: w.nations.values(), _nation_columns),
    WrittenTab(PROVINCES, lambda w: w.provinces.values(), _province_columns),
    WrittenTab(POPS, lambda w: w.pops),
    WrittenTab(TABLEAU, lambda w: w.tableau),
    WrittenTab(ROWS, lambda w: w.rows),
    WrittenTab(HANDS, lambda w: w.hands, lambda w, rows: {"card": hands.sealed_cells(w)}),
    WrittenTab(TRADE_ROUTES, lambda w: w.routes.values()),
    WrittenTab(WARS, lambda w: w.wars),
    WrittenTab(AGGRESSIONS, lambda w: w.aggressions),
    WrittenTab(BATTLES, lambda w: w.battles),
)
