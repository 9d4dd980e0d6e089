"""The Golden Age 1861 ruleset, for the fuzzer: its games, row scenarios, invariants and
damages, registered by the ruleset's name on import.

Games are the shipped example's map (51 provinces, 16 sea zones) with owners, wars, units,
occupations, treasuries and the season shuffled; scenarios are rows a nation would post
(moves next door, invasions with supports and cuts, paths along the sea, landings, economic
orders in its own provinces, loans and their acceptance).
"""

from __future__ import annotations

from typing import Any

from sheetmaster.kit import values
from sheetmaster.kit.model import Status, TurnResult
from sheetmaster.kit.orders import ORDER, PLAYER
from sheetmaster.rules.goldenage import data, example
from testkit.fuzzing.choosers import Chooser
from testkit.fuzzing.damage import DAMAGES, Damage
from testkit.fuzzing.games import GAMES, GameSpec
from testkit.fuzzing.invariants import INVARIANTS
from testkit.fuzzing.rows import SCENARIOS, Pools

_LAND = ("Infantry", "Infantry", "Infantry", "Conscript", "Artillery", "General", "Landship")


def goldenage_game(ch: Chooser) -> GameSpec:
    """The example's map with its nations, owners, wars, units and season shuffled."""
    tables, _, settings = example.example_game()
    nations = tables["Nations"]
    names = [n["nation"] for n in nations]
    provinces = tables["Provinces"]
    capitals = {n["nation"]: n["capital"] for n in nations}
    for row in provinces:
        if row["province"] in capitals.values() or not ch.chance(30):
            continue
        row["owner"] = ch.choice(names + [""])
        row["core"] = "yes" if row["owner"] and ch.chance(60) else ""
        row["controller"] = row["owner"]
    owner = {r["province"]: r["owner"] for r in provinces}
    for row in provinces:
        if row["owner"] and row["province"] not in capitals.values() and ch.chance(10):
            row["occupied by"] = ch.choice([n for n in names if n != row["owner"]] + [data.REBELS])
        if row["owner"] and ch.chance(8):
            row["reactionary unrest"] = "yes"
    wars = {n: set() for n in names}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if ch.chance(30):
                wars[a].add(b)
                wars[b].add(a)
    for row in nations:
        row["at war with"] = ", ".join(sorted(wars[row["nation"]]))
        row["currency"] = ch.integer(0, 400)
        row["tech"] = ch.integer(1, 5)
    units = [u for u in tables["Units"] if not u.get("aboard")]
    for u in units:
        if u["type"] in data.LAND_TYPES and ch.chance(40):
            u["at"] = ch.choice([p for p, o in owner.items() if o == u["nation"]] or [u["at"]])
    if ch.chance(60):
        ship = next(u for u in units if u["type"] == "Warship")
        units.append({"unit": "Cargo 1", "nation": ship["nation"], "type": "Infantry",
                      "at": ship["at"], "aboard": ship["unit"]})
    for n in range(ch.integer(0, 4)):
        units.append({"unit": f"Rebel {n}", "nation": "", "type": ch.choice(data.REBEL_TYPES),
                      "at": ch.choice(list(owner))})
    tables["Units"] = units
    tables["Timers"] = [t for t in tables["Timers"] if ch.chance(70)]
    turn = ch.choice((0, 4, 5, 6, 7, 8, 9, 12)) if ch.chance(90) else ch.integer(1, 20)
    settings["turn"] = turn
    if turn == 0:
        for row in nations:
            row["to deploy"] = "Infantry x2, Warship, Factory"
        tables["Timers"] = []
    return GameSpec(tables, settings, turn=turn)


def goldenage_scenarios(ch: Chooser, pools: Pools) -> list[dict[str, Any]]:
    """Rows a nation would post: moves and attacks next door with supports and cuts, a ship
    sailing a real path, embarking and landing, economic orders in its own provinces, a
    loan and its acceptance."""
    world = pools.world
    nations = list(world.nations)
    if not nations:
        return []
    me = ch.choice(nations)
    mine = [u for u in world.units.values() if u.nation == me and not u.aboard]
    land = [u for u in mine if not u.at_sea]
    ships = [u for u in mine if u.at_sea]
    provinces = [p for p in world.provinces.values() if p.owner == me]
    what = ch.integer(0, 7)
    row = {PLAYER: me}
    if what <= 1 and land:
        unit = ch.choice(land)
        near = list(world.provinces[unit.at].borders)
        if not near:
            return []
        to = ch.choice(near)
        rows = [dict(row, **{ORDER: ch.choice(("march", "invade")), "unit": unit.name, "to": to,
                             "target": world.provinces[to].holder if ch.chance(70) else "any",
                             "intent": ch.choice(("", "", "annex", "puppet"))})]
        helper = next((u for u in land if u is not unit and to in world.provinces[u.at].borders),
                      None)
        if helper is not None:
            rows.append(dict(row, **{ORDER: "offensive-support", "unit": helper.name, "to": to,
                                     "of": unit.name}))
        foes = [u for u in world.units.values() if u.nation not in ("", me) and not u.at_sea
                and not u.aboard and u.at in near]
        cutter = next((u for u in land if u is not unit and u is not helper), None)
        if foes and cutter is not None and ch.chance(50):
            foe = ch.choice(foes)
            kind = "cut-support" if foe.at in world.provinces[cutter.at].borders else \
                "defensive-support"
            rows.append(dict(row, **{ORDER: kind, "unit": cutter.name, "of": foe.name}))
        return rows
    if what == 2 and land:
        return [dict(row, **{ORDER: ch.choice(("entrench", "disband", "disband-conscripts")),
                             "unit": ch.choice(land).name})]
    if what == 3 and ships:
        ship = ch.choice(ships)
        path = _path(world, ship, ch)
        rows = [dict(row, **{ORDER: "move", "unit": ship.name, "path": ", ".join(path)})]
        if ch.chance(40):
            rows.append(dict(row, **{ORDER: ch.choice(("attack", "blockade")), "unit": ship.name,
                                     "target": ch.choice(nations + ["any"])}))
        elif land and ch.chance(40):
            rows.append(dict(row, **{ORDER: ch.choice(("supply-coastal", "support-coastal")),
                                     "unit": ship.name, "of": ch.choice(land).name}))
        if ship.cargo and path:
            coast = [p.name for p in world.provinces.values() if path[-1] in p.seas]
            if coast:
                rows.append(dict(row, **{ORDER: "disembark", "unit": ship.name,
                                         "units": ", ".join(ship.cargo), "to": ch.choice(coast),
                                         "intent": ch.choice(("march", "invade")),
                                         "target": ch.choice(nations)}))
        return rows
    if what == 4 and ships:
        ship = ch.choice(ships)
        near = [u.name for u in land if u.at == ship.at or (
            ship.at in world.seas and world.coastal(u.at, ship.at))]
        if near:
            return [dict(row, **{ORDER: "embark", "unit": ship.name,
                                 "units": ", ".join(ch.subset(near, 60) or near[:1])})]
    if what == 5 and provinces:
        province = ch.choice(provinces).name
        kind = ch.choice(("muster-infantry", "muster-conscripts", "construct-artillery",
                          "construct-warship", "construct-battleship",
                          "construct-submarine", "construct-port", "construct-factory",
                          "construct-academy", "construct-fort", "mothball-fort",
                          "reactivate-fort", "upgrade-port", "upgrade-province",
                          "displaced-workers-programs", "move-capital", "rename-province",
                          "establish-provisional-capital", "establish-permanent-capital"))
        out = dict(row, **{ORDER: kind, "province": province, "name": "Newtown"})
        seas = world.provinces[province].seas
        if seas:
            out["sea zone"] = ch.choice(seas)
        near = world.provinces[province].borders
        if near and ch.chance(30):
            out.update({ORDER: "construct-railroad", "to": ch.choice(near)})
        return [out]
    if what == 6 and len(nations) > 1:
        other = ch.choice([n for n in nations if n != me])
        deal = f"D{ch.integer(1, 10**6)}"
        kind = ch.choice(("loan", "trade"))
        rows = [dict(row, **{ORDER: kind, "deal": deal, "nation": other,
                             "amount": ch.integer(1, 60), "repay": ch.integer(1, 20),
                             "seasons": ch.integer(1, 4)})]
        if ch.chance(80):
            rows.append({PLAYER: other, ORDER: "accept-agreement", "deal": deal})
        due = [a.name for a in world.agreements.values() if a.payer == me]
        if due:
            rows.append(dict(row, **{ORDER: "authorize-payment", "deal": ch.choice(due)}))
        return rows
    canals = list(world.canals)
    if canals and ch.chance(50):
        return [dict(row, **{ORDER: ch.choice(("invest-canal", "build-canal")),
                             "canal": ch.choice(canals), "amount": ch.integer(1, 70)})]
    return [dict(row, **{ORDER: ch.choice(("upgrade-tech", "succession")), "name": "Heir"})]


def _path(world: Any, ship: Any, ch: Chooser) -> list[str]:
    """A few zones along the sea from where the ship is (out of its port first)."""
    here = world.zone_of(ship)
    if not here:
        return []
    path = [here] if ship.at in world.provinces else []
    for _ in range(ch.integer(0, 3)):
        near = [z for z in world.seas[here].borders]
        if not near:
            break
        here = ch.choice(near)
        path.append(here)
    return path


def goldenage_invariants(result: TurnResult) -> list[str]:
    turn = result.turn
    out: list[str] = []
    after = result.after.tables
    nations = after["Nations"]
    for name, currency, tech in zip(nations["nation"].tolist(), nations["currency"].tolist(),
                                    nations["tech"].tolist()):
        if not isinstance(currency, int) or currency < 0:
            out.append(f"turn {turn}: {name} has {currency!r} currency")
        if tech not in range(1, 6):
            out.append(f"turn {turn}: {name} is at tech {tech!r}")
    provinces = {p: (o, occ) for p, o, occ in zip(after["Provinces"]["province"].tolist(),
                                                    after["Provinces"]["owner"].tolist(),
                                                    after["Provinces"]["occupied by"].tolist())}
    zones = set(after["Sea zones"]["sea zone"].tolist())
    ports = {}
    for where, kind in zip(after["Buildings"]["province"].tolist(),
                           after["Buildings"]["type"].tolist()):
        if kind in ("Port", "Fort"):
            if (where, kind) in ports:
                out.append(f"turn {turn}: {where} has two {kind}s")
            ports[(where, kind)] = True
    for p, (owner, occupier) in provinces.items():
        if occupier and occupier == owner:
            out.append(f"turn {turn}: {p} is occupied by its owner {owner}")
    units = after["Units"]
    alive = {}
    for record in units.to_dict("records"):
        status = values.text(record["status"])
        if status.startswith("gone"):
            continue
        alive[record["unit"]] = record
    for name, u in alive.items():
        at, aboard = u["at"], values.text(u["aboard"])
        sea = u["type"] in data.SEA_TYPES
        if aboard:
            for ship in values.name_list(aboard):
                if ship not in alive or alive[ship]["type"] not in data.CARRIERS:
                    out.append(f"turn {turn}: {name} is aboard {ship}, which is no carrier")
        elif sea and not (at in zones or (at, "Port") in ports):
            out.append(f"turn {turn}: ship {name} stands in {at!r}")
        elif not sea and at not in provinces:
            out.append(f"turn {turn}: land unit {name} stands in {at!r}")
        if not values.text(u["nation"]) and u["type"] not in data.REBEL_TYPES and \
                values.text(u["status"]) != "abandoned":
            out.append(f"turn {turn}: {name} has no nation")
    before = result.before.tables["Units"]
    log = "\n".join(e.text for e in result.events)
    now = dict(zip(units.index, units["status"].tolist()))
    for row, name, status in zip(before.index, before["unit"].tolist(),
                                 before["status"].tolist()):
        was = values.text(status)
        is_ = values.text(now.get(row))
        if was.startswith("gone") and is_ != was:
            out.append(f"turn {turn}: Units row {row} was gone and came back")
        if is_.startswith("gone") and not was.startswith("gone") and str(name) not in log:
            out.append(f"turn {turn}: Units row {row} ({name}) went without a Log line")
    done = ("moved to", "invaded", "ready on turn", "landed at", "tech level ")
    for r in result.results:
        if r.status is Status.REJECTED and any(w in r.reason for w in done) and \
                not r.reason.startswith("not processed") and "your tech level" not in r.reason:
            out.append(f"turn {turn}: rejected row {r.row} says it did it: {r.reason}")
    return out


def goldenage_damages(prepared: Any) -> list[Damage]:
    """Cross references between the Golden Age tabs, broken."""
    world = prepared.world
    out: list[Damage] = []
    units = [u for u in world.unit_rows if u.alive and not u.aboard]
    land = [u for u in units if not u.at_sea]
    ships = [u for u in units if u.at_sea]
    for u in land[:2]:
        out.append(Damage(f"{u.name} in Atlantis", "Units", u.row, "at",
                          (("set", "Units", u.row, "at", "Atlantis"),)))
        zone = next(iter(world.seas))
        out.append(Damage(f"{u.name} at sea without a ship", "Units", u.row, "at",
                          (("set", "Units", u.row, "at", zone),)))
        if land[1:]:
            out.append(Damage(f"{u.name} aboard a land unit", "Units", u.row, "aboard",
                              (("set", "Units", u.row, "aboard", land[-1].name),)))
    for s in ships[:1]:
        dry = next((p for p in world.provinces if world.port(p) is None), None)
        if dry:
            out.append(Damage(f"{s.name} in {dry}, with no port", "Units", s.row, "at",
                              (("set", "Units", s.row, "at", dry),)))
    for n in list(world.nations.values())[:2]:
        foreign = next((p for p in world.provinces.values() if p.owner and
                        p.owner != n.name), None)
        if foreign is not None:
            out.append(Damage(f"{n.name}'s capital in {foreign.name}", "Nations", n.row,
                              "capital", (("set", "Nations", n.row, "capital", foreign.name),)))
        out.append(Damage(f"{n.name} at tech 0", "Nations", n.row, "tech",
                          (("set", "Nations", n.row, "tech", 0),)))
    for p in list(world.provinces.values())[:2]:
        out.append(Damage(f"{p.name} occupied by Mordred", "Provinces", p.row, "occupied by",
                          (("set", "Provinces", p.row, "occupied by", "Mordred"),)))
    for r in world.railroads[:1]:
        far = next((p for p in world.provinces if p != r.a and p not in
                    world.provinces[r.a].borders), None)
        if far:
            out.append(Damage(f"railroad {r.name} to far {far}", "Railroads", r.row, "to",
                              (("set", "Railroads", r.row, "to", far),)))
    for b in [b for b in world.buildings if b.type == "Port"][:1]:
        wrong = next((z for z in world.seas if z not in world.provinces[b.province].seas),
                     None)
        if wrong:
            out.append(Damage(f"{b.name} on {wrong}", "Buildings", b.row, "sea zone",
                              (("set", "Buildings", b.row, "sea zone", wrong),)))
    settings = prepared.state.tables["Settings"]
    if len(settings):
        row = int(settings.index[0])
        out.append(Damage("Settings item Dragon", "Settings", row, "item",
                          (("set", "Settings", row, "item", "Dragon"),)))
    return out


GAMES["goldenage"] = goldenage_game
SCENARIOS["goldenage"] = goldenage_scenarios
INVARIANTS["goldenage"] = goldenage_invariants
DAMAGES["goldenage"] = goldenage_damages
