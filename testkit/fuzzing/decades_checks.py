"""The decades ruleset, for the fuzzer: its games, row scenarios, invariants and damages,
registered by the ruleset's name on import.

New states appear when provinces are freed, and alliances when states ally, so the States
and Alliances tabs may grow (:data:`GROWS`). Rejected decades rows change nothing: every
order is checked before it pays or acts, and no rejected row takes a turn's slot (the one
subsidy recipient, the one war per continent), so no kind is in REJECTION_MATTERS.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sheetmaster.kit import values
from sheetmaster.kit.model import TurnResult
from sheetmaster.kit.orders import ORDER, PLAYER
from sheetmaster.rules.decades.example import GOVERNMENTS, TECHNOLOGIES
from testkit.fuzzing.choosers import Chooser
from testkit.fuzzing.damage import DAMAGES, Damage
from testkit.fuzzing.games import GAMES, GameSpec
from testkit.fuzzing.invariants import GROWS, INVARIANTS
from testkit.fuzzing.rows import SCENARIOS, Pools

_STATES = ("Castile", "Francia", "Saxony", "Venice", "Muscovy", "\u00d6sterreich", "Ottomans",
           "Na\u00efve Republic", "Granada", "Bohemia", "\u5317\u671d", "O'Neill")
_PLACES = ("Toledo", "Paris", "Lyon", "Sachsen", "Venezia", "Moskva", "Wien", "Ankara",
           "Granada", "Praha", "Kazan", "Roma", "Milano", "Leon", "Gent", "Bruxelles",
           "K\u00f8benhavn", "Cusco", "Quito", "Lima", "Tenochtitlan", "\u00celes", "Rhodos",
           "Malta", "Tunis", "Alger")
_RELIGIONS = ("Catholic", "Reformed", "Orthodox", "Sunni", "Animist")
_CULTURES = ("Iberian", "Gallic", "Germanic", "Italic", "Slavic", "Nahua")
_CONTINENTS = ("Occidens", "Novaterra")
_GOVERNMENTS = [g["government"] for g in GOVERNMENTS]


def decades_game(ch: Chooser) -> GameSpec:
    """A valid decades game: states (player, non-player, Tribal) on one or two continents,
    symmetric borders and sea links, alliances, a satellite, a personal union, instalments."""
    names = ch.subset(_STATES, 50)[:7]
    while len(names) < 2:
        names.append(_STATES[len(names)])
    places = ch.subset(_PLACES, 60)[:20]
    while len(places) < len(names) + 2:
        places.append(next(p for p in _PLACES if p not in places))
    continents = {p: ch.choice(_CONTINENTS) for p in places}
    borders: dict[str, list[str]] = {p: [] for p in places}
    links: dict[str, list[str]] = {p: [] for p in places}
    for i, a in enumerate(places):
        for b in places[i + 1:]:
            if continents[a] == continents[b] and ch.chance(30):
                borders[a].append(b)
                borders[b].append(a)
            elif ch.chance(6):
                links[a].append(b)
                links[b].append(a)
    owners = list(names) + [ch.choice(names) for _ in places[len(names):]]
    states = []
    for name in names:
        tribal = ch.chance(15)
        government = "Tribal" if tribal else ch.choice(_GOVERNMENTS[1:])
        happy = None if tribal else ch.integer(1, 5)
        states.append({
            "state": name, "player": "" if ch.chance(30) else f"player of {name}",
            "government": government, "religion": ch.choice(_RELIGIONS),
            "culture": ch.choice(_CULTURES), "capital": places[names.index(name)],
            "stability": 2 if tribal else ch.integer(1, 4), "happiness": happy,
            "national happiness": None if tribal else ch.choice((None, 0, 2, 5)),
            "religious happiness": None if tribal else ch.choice((None, 0, 3, 5)),
            "economic crisis": "yes" if ch.chance(15) else "",
            "pestilence": "yes" if ch.chance(15) else "",
            "techs": ch.choice(("", "Printing Press", "Printing Press, Gunpowder Armies")),
            "at happiness 1": ch.choice(("", "", "civil war")),
            "income": ch.choice((0, 5, 12.5, 20, 33.75)),
            "spendable": ch.choice((0, 4, 12.5, 20)),
            "military": ch.choice((0, 7.5)),
        })
    if len(states) >= 3 and ch.chance(50):
        states[-1]["overlord"] = states[0]["state"]
    # four states at least: with three, states[-2] is states[1], a union with itself
    if len(states) >= 4 and ch.chance(50) and not states[-2]["player"]:
        states[-2]["union with"] = states[1]["state"]
    provinces = []
    for place, owner in zip(places, owners):
        state = next(s for s in states if s["state"] == owner)
        provinces.append({
            "province": place, "owner": owner, "value": ch.integer(1, 8),
            "unsettled": "yes" if state["government"] == "Tribal" or ch.chance(10) else "",
            "religion": state["religion"] if ch.chance(70) else ch.choice(_RELIGIONS),
            "culture": state["culture"] if ch.chance(70) else ch.choice(_CULTURES),
            "continent": continents[place], "borders": ", ".join(borders[place]),
            "sea links": ", ".join(links[place])})
    civilized = [s["state"] for s in states if s["government"] != "Tribal"]
    alliances = []
    if len(civilized) >= 2 and ch.chance(60):
        alliances.append({"alliance": "League", "members": ", ".join(civilized[:2])})
    timers = []
    mine = [p for p in provinces if p["unsettled"] and p["owner"] in civilized]
    if mine and ch.chance(50):
        p = mine[0]
        timers.append({"timer": "T1", "kind": "colonization", "owner": p["owner"],
                       "subject": p["province"], "started on turn": 1, "paid": 1,
                       "status": "running"})
    settings = {"start year": ch.choice((1500, 1600, 1655)),
                "stability cost": ch.choice((3, 6, 2.5)),
                "stability upkeep": ch.choice((0, 0, 1)),
                "happiness drift": ch.choice(("d3-2", "d3-2", "0", "d5-3"))}
    return GameSpec({"States": states, "Provinces": provinces, "Governments": GOVERNMENTS,
                     "Technologies": TECHNOLOGIES, "Alliances": alliances, "Timers": timers},
                    settings, turn=ch.integer(1, 4))


def decades_scenarios(ch: Chooser, pools: Pools) -> list[dict[str, Any]]:
    """Rows that can go through: spending within what a state has, a colonization or a
    conversion of its own province, a cession with its acceptance, an alliance both sides
    declare, a war on a neighbour."""
    world = pools.world
    states = [s for s in world.states.values() if s.alive]
    if not states:
        return []
    me = ch.choice(states)
    mine = [world.provinces[p] for p in world.holdings.of(me.name)]
    others = [s for s in states if s is not me]
    what = ch.integer(0, 6)
    spend = max(Decimal(1), me.spendable)
    if what == 0:
        return [{PLAYER: me.name, ORDER: "invest military",
                 "amount": str(min(spend, Decimal(ch.integer(1, 20))))}]
    if what == 1 and mine:
        p = ch.choice(mine)
        kind = "colonize" if p.unsettled else ch.choice(("convert religion", "convert culture"))
        return [{PLAYER: me.name, ORDER: kind, "province": p.name,
                 "amount": ch.choice((1, 2, 2.5, 8))}]
    if what == 2 and mine and others:
        p, to = ch.choice(mine), ch.choice(others)
        return [{PLAYER: me.name, ORDER: "cede province", "province": p.name, "state": to.name},
                {PLAYER: to.name, ORDER: "accept province", "province": p.name}]
    if what == 3 and others:
        to = ch.choice(others)
        return [{PLAYER: me.name, ORDER: "ally", "state": to.name, "alliance": "Pact"},
                {PLAYER: to.name, ORDER: "ally", "state": me.name}]
    if what == 4 and others:
        return [{PLAYER: me.name, ORDER: "declare war", "state": ch.choice(others).name}]
    if what == 5:
        return [{PLAYER: me.name, ORDER: ch.choice(("raise stability", "civilize")),
                 "amount": None},
                {PLAYER: me.name, ORDER: "subsidy", "state": ch.choice(states).name,
                 "amount": ch.choice((1, 2.5))}]
    governments = list(world.governments)
    return [{PLAYER: me.name, ORDER: ch.choice(("reform government", "change religion",
                                                "at happiness 1", "grant independence")),
             "government": ch.choice(governments), "religion": ch.choice(_RELIGIONS),
             "choice": ch.choice(("civil war", "revolution")),
             "province": ch.choice(mine).name if mine else None}]


def decades_invariants(result: TurnResult) -> list[str]:
    turn = result.turn
    out: list[str] = []
    bad = out.append
    states = result.after.tables["States"]
    provinces = result.after.tables["Provinces"]
    alive = {n for n, status in zip(states["state"].tolist(), states["status"].tolist())
             if not values.text(status)}
    owners = dict(zip(provinces["province"].tolist(), provinces["owner"].tolist()))
    for province, owner in owners.items():
        if owner not in alive:
            bad(f"turn {turn}: {province} is controlled by {owner!r}, no state that exists")
    tribal = {g["government"] for g in GOVERNMENTS if g.get("tribal")}
    for record in states.to_dict("records"):
        name = record["state"]
        if name not in alive:
            continue
        if owners.get(record["capital"]) != name:
            bad(f"turn {turn}: {name}'s capital {record['capital']!r} is not its own")
        stability = record["stability"]
        if record["government"] in tribal:
            if stability != 2 or not values.is_blank(record["happiness"]):
                bad(f"turn {turn}: Tribal {name} has stability {stability}, happiness "
                    f"{record['happiness']!r}")
        elif not (1 <= stability <= 4 and 1 <= record["happiness"] <= 5):
            bad(f"turn {turn}: {name} has stability {stability}, happiness "
                f"{record['happiness']}")
        for column in ("income", "spendable", "military"):
            if values.decimal(record[column], blank=0) < 0:
                bad(f"turn {turn}: {name}'s {column} is {record[column]}")
        for column in ("overlord", "union with"):
            if values.text(record[column]) and record[column] not in alive - {name}:
                bad(f"turn {turn}: {name}'s {column} is {record[column]!r}")
    seen: set[str] = set()
    for members in result.after.tables["Alliances"]["members"].tolist():
        listed = values.name_list(members)
        if len(listed) == 1 or set(listed) & seen or not set(listed) <= alive:
            bad(f"turn {turn}: alliance members {listed} (alive: {sorted(alive)})")
        seen |= set(listed)
    before = result.before.tables["States"]
    log = "\n".join(e.text for e in result.events)
    for name, status in zip(before["state"].tolist(), before["status"].tolist()):
        if not values.text(status) and name not in alive and f"{name} is no more" not in log:
            bad(f"turn {turn}: {name} went without a Log line")
    return out


def decades_damages(prepared: Any) -> list[Damage]:
    """Cross references between the decades tabs, broken."""
    world = prepared.world
    out: list[Damage] = []
    for state in list(world.states.values())[:3]:
        r = state.row
        others = [p for p in world.provinces.values() if p.owner != state.name]
        if others:
            out.append(Damage(f"{state.name}'s capital is someone else's", "States", r,
                              "capital", (("set", "States", r, "capital", others[0].name),)))
        out.append(Damage(f"{state.name} in union with itself", "States", r, "union with",
                          (("set", "States", r, "union with", state.name.upper()),)))
        out.append(Damage(f"{state.name} ruled by Mordred", "States", r, "government",
                          (("set", "States", r, "government", "Mordred"),)))
        out.append(Damage(f"{state.name} at stability 0", "States", r, "stability",
                          (("set", "States", r, "stability", 0),)))
        out.append(Damage(f"{state.name} at stability 5", "States", r, "stability",
                          (("set", "States", r, "stability", 5),)))
    for province in list(world.provinces.values())[:3]:
        r = province.row
        out.append(Damage(f"{province.name} held by Atlantis", "Provinces", r, "owner",
                          (("set", "Provinces", r, "owner", "Atlantis"),)))
        out.append(Damage(f"{province.name} worth 0", "Provinces", r, "value",
                          (("set", "Provinces", r, "value", 0),)))
        out.append(Damage(f"{province.name} borders Atlantis", "Provinces", r, "borders",
                          (("set", "Provinces", r, "borders",
                            ", ".join([*province.borders, "Atlantis"])),)))
    for tech in world.techs[:2]:
        out.append(Damage(f"{tech.name} for Mordred's government", "Technologies", tech.row,
                          "acceptable governments",
                          (("set", "Technologies", tech.row, "acceptable governments",
                            "Mordred"),)))
    game = prepared.state.tables["Game"]
    rows = {values.fold(k): int(r) for r, k in zip(game.index, game["setting"].tolist())}
    if "happiness drift" in rows:
        out.append(Damage("happiness drift 'lots'", "Game", rows["happiness drift"], "value",
                          (("set", "Game", rows["happiness drift"], "value", "lots"),)))
    return out


GAMES["decades"] = decades_game
SCENARIOS["decades"] = decades_scenarios
INVARIANTS["decades"] = decades_invariants
DAMAGES["decades"] = decades_damages
GROWS["decades"] = frozenset({"States", "Alliances"})
