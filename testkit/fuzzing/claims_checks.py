"""The claims ruleset, for the fuzzer: its games, row scenarios, invariants, damages and
the kinds whose rejected rows matter, registered by the ruleset's name on import.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from sheetmaster.kit import values
from sheetmaster.kit.model import TurnResult
from sheetmaster.kit.orders import ORDER, PLAYER
from testkit.fuzzing.choosers import Chooser
from testkit.fuzzing.damage import DAMAGES, Damage
from testkit.fuzzing.games import GAMES, GameSpec
from testkit.fuzzing.invariants import INVARIANTS, REJECTION_MATTERS
from testkit.fuzzing.rows import SCENARIOS, Pools

# -- the claims ruleset -------------------------------------------------------------------------

_PLAYER_NAMES = ("Avalon", "Bretagne", "Cambria", "Dumnonia", "\u00c6r\u00f8sk\u00f8bing",
                 "New Lyonesse", "\u0141\u00f3d\u017a", "Ys", "\u540d\u53e4\u5c4b", "O'Connell",
                 "Gwent", "Elmet")
_TERRITORY_NAMES = ("Camelot", "Sarum", "Logres", "Mercia", "Orkney", "Sorelois", "Listenois",
                    "Benoic", "Carnac", "Ys", "Armor", "Caerleon", "Gwynedd", "Powys", "Dyfed",
                    "Isca", "Kernow", "Dartmoor", "Bro\u00e7\u00e9liande", "\u00cele Verte",
                    "Sankt Gallen", "\u5317\u6d77", "R\u00edo Negro", "Tintagel", "Lyonesse",
                    "Glastonbury", "Corbenic", "Gorre", "Astolat", "Escavalon")
_RESOURCES = ("", "", "", "Gold", "Iron", "rubber", "COAL", "Oil", "Uranium", "Amber", "Spice")
_SIDES = ("North", "South", "League", "Pact", "Crown", "Free Cities")


def claims_game(ch: Chooser) -> GameSpec:
    """A valid claims game: a few players, territories with symmetric borders and waterways,
    wars, and last turn's war results."""
    players = ch.subset(_PLAYER_NAMES, 35)[:6] or list(_PLAYER_NAMES[:ch.integer(0, 2)])
    lands = ch.subset(_TERRITORY_NAMES, 50)[:24] or list(_TERRITORY_NAMES[:ch.integer(0, 3)])
    authenticated = ch.chance(20)
    spelled = {p: (p if ch.chance(85) else ch.choice((p.upper(), p.lower(), f" {p} ")))
               for p in players}
    borders: dict[str, list[str]] = {t: [] for t in lands}
    water: dict[str, list[str]] = {t: [] for t in lands}
    for i, a in enumerate(lands):
        for b in lands[i + 1:]:
            if ch.chance(25):
                borders[a].append(b)
                borders[b].append(a)
            elif ch.chance(8):
                water[a].append(b)
                water[b].append(a)

    def listed(names: list[str]) -> str:
        sep = ch.choice((", ", ",", "; ", "\n", " , "))
        return sep.join(n if ch.chance(90) else n.upper() for n in names)

    territories = []
    for t in lands:
        owner = ch.choice(players) if players and ch.chance(60) else ""
        territories.append({
            "territory": t,
            "owner": spelled[owner] if owner else "",
            "resource": ch.choice(_RESOURCES),
            "capital of": ch.choice(players) if players and ch.chance(20) else "",
            "borders": listed(borders[t]),
            "waterways": listed(water[t]),
        })
    owned = {t["owner"].strip().casefold() for t in territories}
    player_rows = []
    for p in players:
        row = {"player": p, "gold": ch.integer(0, 40), "armies": ch.integer(0, 9),
               "in exile": "yes" if p.casefold() not in owned and ch.chance(50) else
               ch.choice(("", "no", "")),
               "other resources": ch.choice(("", "", "Amber: 1", "Spice 2, Silk: 1"))}
        for r in ("iron", "coal"):
            if ch.chance(20):
                row[r] = ch.integer(0, 2)
        if authenticated:
            row["email"] = f"{p.split()[0].lower()}@example.org"
        player_rows.append(row)
    wars, results = [], []
    turn = ch.integer(1, 4)
    for w in range(ch.integer(0, 3)):
        name = ch.choice(("Channel War", "Tamar Feud", "Long War", "War of the Thorn"))
        name = f"{name} {w}" if w else name
        sides = list(dict.fromkeys(ch.choice(_SIDES) for _ in range(ch.integer(1, 3))))
        pool = list(players)
        ended = ch.chance(20)
        members_of = {}
        for side in sides:
            members = [p for p in pool if ch.chance(40)]
            pool = [p for p in pool if p not in members]
            members_of[side] = members
            wars.append({"war": name, "side": side, "members": ", ".join(members),
                         "ended": "yes" if ended else ""})
        if turn > 1 and ch.chance(70):
            tied = ch.chance(20)
            winner = ch.choice(sides)
            for side in sides:
                outcome = "tied" if tied else ("won" if side == winner else "lost")
                results.append({"turn": turn - 1 if ch.chance(80) else max(turn - 2, 0),
                                "war": name, "side": side,
                                "members": ", ".join(members_of[side]),
                                "dice": "", "power": "", "score": "0", "outcome": outcome})
    tables = {"Players": player_rows, "Territories": territories, "Wars": wars,
              "War results": results}
    return GameSpec(tables, {"game": "fuzz"}, turn)


_GAVE = re.compile(r"^(?P<verb>gave|received) (?P<what>.+?) (?:to|from) (?P<who>.+?) \(deal ")
_AMOUNT_ITEM = re.compile(r"^(?P<n>[0-9]+) (?P<item>.+)$")


def claims_invariants(result: TurnResult) -> list[str]:
    """The claims game's invariants, checked against the turn's Log.

    No negative gold, resources or armies; resources are 0 after phase D; every territory is
    neutral or owned by a known player, and ownership changes only by the claims and
    transfers in the Log; no territory created or lost; gold and armies change exactly by the
    amounts the Log's events give (exile losses in A and C, transfers in C, upkeep and
    disbanding in D, claims in A and E, building in G); exile starts and ends only with its
    events; each war's sides get one result row each, one winner or all tied; no player rolls
    more war dice than armies.
    """
    turn = result.turn
    out: list[str] = []
    bad = out.append
    pb, pa = result.before.tables["Players"], result.after.tables["Players"]
    tb, ta = result.before.tables["Territories"], result.after.tables["Territories"]
    players = [p for p in pa["player"].tolist() if p]
    if pb["player"].tolist() != pa["player"].tolist():
        bad(f"turn {turn}: the Players tab's players changed")
    if tb["territory"].tolist() != ta["territory"].tolist() or \
            tb.index.tolist() != ta.index.tolist():
        bad(f"turn {turn}: territories were created, lost or moved")
    before = {r["player"]: r for r in pb.to_dict("records")}
    after = {r["player"]: r for r in pa.to_dict("records")}
    known = set(players)
    names = set(t for t in ta["territory"].tolist() if t)
    for name, r in after.items():
        for column in ("gold", "armies", "iron", "rubber", "coal", "oil", "uranium"):
            if not isinstance(r[column], int) or r[column] < 0:
                bad(f"turn {turn}: {name} has {r[column]!r} {column}")
            elif column not in ("gold", "armies") and r[column]:
                bad(f"turn {turn}: {name} keeps {r[column]} {column} after phase D")
        if r["other resources"]:
            bad(f"turn {turn}: {name} keeps {r['other resources']!r} after phase D")
    owners = dict(zip(tb["territory"].tolist(), tb["owner"].tolist()))
    # the owner cell was read as written; the world uses the player's own spelling
    by_fold = {values.fold(p): p for p in players}
    owners = {t: by_fold.get(values.fold(o), o) if o else "" for t, o in owners.items()}
    gold = {p: before[p]["gold"] for p in players}
    armies = {p: before[p]["armies"] for p in players}
    exile = {p: before[p]["in exile"] == "yes" for p in players}
    built: Counter[str] = Counter()
    war_dice: Counter[str] = Counter()
    exile_dice: dict[str, list[int]] = {}
    longest_first = sorted(names, key=len, reverse=True)
    for e in result.events:
        p, text = e.player, e.text
        if re.search(r"(gold|armies|territories) now -", text):
            bad(f"turn {turn}: a Log line goes below zero: {text}")
        if e.kind == "die":
            if text.startswith("d6 for exile, army"):
                exile_dice.setdefault(p, []).append(e.value or 0)
            elif e.phase == "F":
                war_dice[p] += 1
            continue
        if p and p not in known:
            bad(f"turn {turn}: an event concerns {p!r}, who is not a player")
            continue
        if e.kind == "income" and (m := re.match(r"^\+([0-9]+) gold \(", text)):
            gold[p] += int(m[1])
        elif e.kind == "claim":
            m = re.search(r" for ([0-9]+) gold \([0-9]+ territor(?:y|ies) / [24], rounded "
                          r"down\)", text)
            name = next((t for t in longest_first if text.startswith(f"claimed {t} ")), None)
            if m is None or name is None:
                bad(f"turn {turn}: unreadable claim: {text}")
                continue
            gold[p] -= int(m[1])
            owners[name] = p
        elif e.kind == "transfer" and (m := _GAVE.match(text)):
            sign = -1 if m["verb"] == "gave" else 1
            what = m["what"]
            if what in names:
                if sign > 0:
                    owners[what] = p
            elif (n := _AMOUNT_ITEM.match(what)) is not None:
                if n["item"] == "gold":
                    gold[p] += sign * int(n["n"])
                elif n["item"] in ("army", "armies"):
                    armies[p] += sign * int(n["n"])
            else:
                bad(f"turn {turn}: unreadable transfer: {text}")
        elif e.kind == "upkeep" and (m := re.search(r"; gold ([0-9]+) -> ([0-9]+)$", text)):
            gold[p] += int(m[2]) - int(m[1])
        elif e.kind == "armies disbanded" and (m := re.match(r"^([0-9]+) arm(?:y|ies) "
                                                             r"disbanded", text)):
            armies[p] -= int(m[1])
        elif e.kind == "armies lost in exile" and (m := re.match(r"^lost ([0-9]+) of ([0-9]+) ",
                                                                 text)):
            dice = exile_dice.pop(p, [])
            if int(m[2]) != len(dice) or int(m[1]) != sum(v <= 4 for v in dice):
                bad(f"turn {turn}: {p} lost {m[1]} of {m[2]} armies in exile on dice {dice}")
            armies[p] -= int(m[1])
        elif e.kind == "armies built" and (m := re.match(r"^built ([0-9]+) arm(?:y|ies) for "
                                                         r"([0-9]+) gold", text)):
            armies[p] += int(m[1])
            built[p] += int(m[1])
            gold[p] -= int(m[2])
        elif e.kind == "exile":
            if exile[p]:
                bad(f"turn {turn}: {p} went into exile while in exile")
            exile[p] = True
        elif e.kind == "exile ended":
            exile[p] = False
    for p in players:
        if gold[p] != after[p]["gold"]:
            bad(f"turn {turn}: {p}'s gold is {after[p]['gold']}, the Log explains {gold[p]}")
        if armies[p] != after[p]["armies"]:
            bad(f"turn {turn}: {p}'s armies are {after[p]['armies']}, the Log explains "
                f"{armies[p]}")
        if exile[p] != (after[p]["in exile"] == "yes"):
            bad(f"turn {turn}: {p}'s exile is {after[p]['in exile']!r}, the Log says {exile[p]}")
        if war_dice[p] > after[p]["armies"] - built[p]:
            bad(f"turn {turn}: {p} rolled {war_dice[p]} war dice with "
                f"{after[p]['armies'] - built[p]} armies")
    count: Counter[str] = Counter()
    for t, owner in zip(ta["territory"].tolist(), ta["owner"].tolist()):
        if owner and owner not in known:
            bad(f"turn {turn}: {t} is owned by {owner!r}, who is not a player")
        if owner != owners.get(t, owner):
            bad(f"turn {turn}: {t} is owned by {owner!r}; the Log gives it to {owners[t]!r}")
        if owner:
            count[owner] += 1
    if "territories" in pa.columns:
        for p in players:
            if after[p]["territories"] != count[p]:
                bad(f"turn {turn}: {p}'s territories say {after[p]['territories']}, "
                    f"owns {count[p]}")
    wb, wa = result.before.tables["War results"], result.after.tables["War results"]
    new = wa.loc[[r for r in wa.index if r not in set(wb.index)]]
    sides: dict[str, list[str]] = {}
    wars = result.before.tables["Wars"]
    ended = {values.fold(w) for w, e in zip(wars["war"].tolist(), wars["ended"].tolist())
             if e == "yes"}
    for w, s in zip(wars["war"].tolist(), wars["side"].tolist()):
        if w and s and values.fold(w) not in ended:
            sides.setdefault(values.fold(w), []).append(values.fold(s))
    got: dict[str, list[str]] = {}
    outcomes: dict[str, list[str]] = {}
    for r in new.to_dict("records"):
        if r["turn"] != turn:
            bad(f"turn {turn}: a war result row says turn {r['turn']}")
        got.setdefault(values.fold(r["war"]), []).append(values.fold(r["side"]))
        outcomes.setdefault(values.fold(r["war"]), []).append(r["outcome"])
    if {k: sorted(set(v)) for k, v in got.items()} != {k: sorted(set(v))
                                                        for k, v in sides.items()}:
        bad(f"turn {turn}: war results {got} for the active wars' sides {sides}")
    for war, words in outcomes.items():
        c = Counter(words)
        if not (set(c) == {"tied"} or (c["won"] == 1 and c["won"] + c["lost"] == len(words))):
            bad(f"turn {turn}: war {war} ended {words}")
    return out


def claims_damages(prepared: Any) -> list[Damage]:
    """Cross references between the claims tabs, broken."""
    world = prepared.world
    out: list[Damage] = []
    for t in list(world.territories.values())[:4]:
        r = t.row
        for column, current in (("borders", t.borders), ("waterways", t.waterways)):
            out.append(Damage(f"{t.name}'s {column} name Atlantis", "Territories", r, column,
                              (("set", "Territories", r, column,
                                ", ".join([*current, "Atlantis"])),)))
            out.append(Damage(f"{t.name} borders itself", "Territories", r, column,
                              (("set", "Territories", r, column,
                                ", ".join([*current, t.name.lower()])),)))
            if current:
                other = world.territories[current[0]]
                # other still lists t: the problem is on other's row
                out.append(Damage(f"{t.name}-{other.name} {column} on one side only",
                                  "Territories", other.row, column,
                                  (("set", "Territories", r, column,
                                    ", ".join(current[1:])),)))
        out.append(Damage(f"{t.name} owned by Mordred", "Territories", r, "owner",
                          (("set", "Territories", r, "owner", "Mordred"),)))
        out.append(Damage(f"{t.name} is Mordred's capital", "Territories", r, "capital of",
                          (("set", "Territories", r, "capital of", "Mordred"),)))
    players = prepared.state.tables["Players"]
    for r in players.index.tolist()[:2]:
        for bad in ("Spice", "Spice: two", ": 3"):
            out.append(Damage(f"Players row {r} other resources {bad!r}", "Players", int(r),
                              "other resources",
                              (("set", "Players", int(r), "other resources", bad),)))
    wars = prepared.state.tables["Wars"]
    for r, members in zip(wars.index.tolist()[:3], wars["members"].tolist()):
        out.append(Damage(f"Wars row {r} lists Mordred", "Wars", int(r), "members",
                          (("set", "Wars", int(r), "members",
                            ", ".join(filter(None, [members, "Mordred"]))),)))
    by_war: dict[str, list[tuple[int, str, str]]] = {}
    for r, w, s, m in zip(wars.index.tolist(), wars["war"].tolist(), wars["side"].tolist(),
                          wars["members"].tolist()):
        by_war.setdefault(values.fold(w), []).append((int(r), s, m))
    for sides in list(by_war.values())[:2]:
        if len(sides) >= 2:
            (r1, s1, _), (r2, _, _) = sides[0], sides[1]
            out.append(Damage(f"Wars row {r2} repeats side {s1!r}", "Wars", r2, "side",
                              (("set", "Wars", r2, "side", s1.upper()),)))
            someone = next(iter(world.players))
            out.append(Damage(f"{someone} on two sides", "Wars", r2, "members",
                              (("set", "Wars", r1, "members", someone),
                               ("set", "Wars", r2, "members", someone))))
    results = prepared.state.tables["War results"]
    turn = prepared.state.turn
    for r, t in zip(results.index.tolist()[:3], results["turn"].tolist()):
        out.append(Damage(f"War results row {r} outcome 'draw'", "War results", int(r),
                          "outcome", (("set", "War results", int(r), "outcome", "draw"),)))
        if t == turn - 1:
            out.append(Damage(f"War results row {r} lists Mordred", "War results", int(r),
                              "members",
                              (("set", "War results", int(r), "members", "Mordred"),)))
    return out


def claims_scenarios(ch: Chooser, pools: Pools) -> list[dict[str, Any]]:
    """Claims rows that can go through: a deal and its acceptances, dice for one's side, a
    claim next to one's land or on a beaten enemy's, armies one can almost afford."""
    world = pools.world
    players = list(world.players.values())
    if not players:
        return []
    me = ch.choice(players)
    what = ch.integer(0, 4)
    if what == 0 and len(players) > 1:
        deal = f"pact {ch.integer(0, 10**6)}"
        others = [p for p in players if p is not me]
        parties = [me, *ch.subset(others, 40)] if len(others) > 1 else [me, *others]
        if len(parties) == 1:
            parties.append(ch.choice(others))
        rows, involved = [], set()
        for _ in range(ch.integer(1, 3)):
            giver = ch.choice(parties)
            taker = ch.choice([p for p in parties if p is not giver])
            row = {PLAYER: me.name, ORDER: "propose transfer", "deal": deal, "to": taker.name,
                   "from": giver.name if giver is not me or ch.chance(50) else ""}
            lands = [t.name for t in world.territories.values() if t.owner == giver.name]
            item = ch.choice(("gold", "armies", "iron", "territory", *world.special_resources
                              .values()))
            if item == "territory" and lands:
                row.update(item="territory", territory=ch.choice(lands))
            else:
                item = "gold" if item == "territory" else item
                held = world.held(giver, item) if item in ("gold", "armies") else 1
                row.update(item=item, amount=ch.integer(1, max(1, held + 1)))
            rows.append(row)
            involved |= {giver.name, taker.name}
        for name in sorted(involved - {me.name}):
            if ch.chance(90):
                rows.append({PLAYER: name, ORDER: "accept transfer", "deal": deal})
        return rows
    if what == 1:
        wars = [(w, s) for w in world.wars.values() for s in w.sides.values()
                if me.name in s.members] or [(w, s) for w in world.wars.values()
                                             for s in w.sides.values()]
        if wars:
            war, side = ch.choice(wars)
            return [{PLAYER: me.name, ORDER: "commit dice",
                     "amount": ch.integer(1, me.armies + 1),
                     "war": war.name if ch.chance(80) else None,
                     "side": side.name if ch.chance(60) else None}]
    if what == 2:
        mine = {t.name for t in world.territories.values() if t.owner == me.name}
        near = [t.name for t in world.territories.values()
                if not t.owner and set(world.map.neighbours(t.name)) & mine]
        if near:
            return [{PLAYER: me.name, ORDER: "claim neutral territory",
                     "territory": ch.choice(near)}]
    if what == 3:
        beaten = world.may_claim_from.get(me.name, set())
        theirs = [t.name for t in world.territories.values() if t.owner in beaten]
        if theirs:
            return [{PLAYER: me.name, ORDER: "claim war territory",
                     "territory": ch.choice(theirs)}]
    return [{PLAYER: me.name, ORDER: "build armies",
             "amount": ch.integer(1, me.gold // 5 + 1)}]


GAMES["claims"] = claims_game
SCENARIOS["claims"] = claims_scenarios
INVARIANTS["claims"] = claims_invariants
DAMAGES["claims"] = claims_damages
# "If a player offered to give ... the transfer is entirely cancelled": a rejected item row
# of a deal cancels the deal.
REJECTION_MATTERS["claims"] = frozenset({"propose transfer"})
