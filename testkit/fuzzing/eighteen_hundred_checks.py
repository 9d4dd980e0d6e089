"""The eighteen_hundred (1800) ruleset, for the fuzzer: small valid games at any stage of a
round, rows that can go through at that stage, the board's and the cards' invariants, its
cross-reference damages, and the kinds whose rejected rows matter: a rejected war action
still takes its turn in the war's schedule (F48), and a refused deficit order gives up a pop
where no order at all might have paid in tokens (F21).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from sheetmaster.kit import values
from sheetmaster.kit.model import TurnResult
from sheetmaster.kit.orders import ORDER, PLAYER
from sheetmaster.rules.eighteen_hundred.example.cards import CATALOGUE
from sheetmaster.rules.eighteen_hundred.tables import CAPS
from testkit.fuzzing.choosers import Chooser
from testkit.fuzzing.damage import DAMAGES, Damage
from testkit.fuzzing.games import GAMES, GameSpec
from testkit.fuzzing.invariants import INVARIANTS, REJECTION_MATTERS
from testkit.fuzzing.rows import SCENARIOS, Pools

_NATIONS = ("France", "Prussia", "Danemark", "\u00d6sterreich", "Sverige", "Napoli Due",
            "\u65e5\u672c", "Kingdom of O'Neill")
_PLACES = ("Paris", "Lyon", "Hesse", "Saxony", "Jutland", "Skane", "Tirol", "Lombardia",
           "\u00cele-de-Fer", "Kyoto", "Cork", "Ulster", "Bohemia", "Moravia", "Alsace",
           "Eifel")
#: the example catalogue's cards, by deck, for small games
_BY_DECK: dict[str, list[dict[str, Any]]] = {}
for _row in CATALOGUE:
    _BY_DECK.setdefault(_row["deck"], []).append(_row)
_PILES = {"admin": "admin", "military": "military", "ambition": "ambition"}


def eighteen_hundred_game(ch: Chooser) -> GameSpec:
    """A valid 1800 game: 2-5 nations, a grid of provinces with pops within the limits,
    improvements, regiments (some conscripted), cards in play and in hand, at a random stage
    of a random round."""
    nations = ch.subset(_NATIONS, 50)[:5]
    while len(nations) < 2:
        nations.append(next(n for n in _NATIONS if n not in nations))
    places = ch.subset(_PLACES, 60)[:12] or list(_PLACES[:4])
    kinds = {p: "city" if ch.chance(35) else "countryside" for p in places}
    adjacent: dict[str, list[str]] = {p: [] for p in places}
    for i, a in enumerate(places):
        for b in places[i + 1:i + 3]:
            if ch.chance(70):
                adjacent[a].append(b)
                adjacent[b].append(a)
    provinces, pops = [], []
    for p in places:
        city = kinds[p] == "city"
        built = [ch.choice(("Factory", "Market")) if city else ch.choice(("Farm", "Market"))
                 for _ in range(ch.integer(0, CAPS[kinds[p]]))]
        room = 6 if city else 2
        here = []
        for n in ch.subset(nations, 30)[:2 if not city else 3]:
            count = ch.integer(1, max(1, min(3, room)))
            room -= count
            if room < 0:
                break
            here.append([n, count])
        regiment, conscripted = "", ""
        if ch.chance(25):
            if here and ch.chance(50):
                regiment, conscripted = here[0][0], "yes"
            else:
                regiment = ch.choice(nations)
        factories = built.count("Factory")
        for n, count in here:
            held = 1 if regiment == n and conscripted else 0
            workers = min(count - held, factories) if city else 0
            factories -= workers
            pops.append({"province": p, "nation": n, "pops": count, "laborers": workers,
                         "conscripted": held})
        provinces.append({"province": p, "type": kinds[p], "adjacent": ", ".join(adjacent[p]),
                          "improvements": ", ".join(built), "regiment": regiment,
                          "conscripted": conscripted})
    cards = [c for c in CATALOGUE if ch.chance(70) or c.get("start")]
    names = {c["card"] for c in cards}
    cards = [dict(c, requires="") if c.get("requires") and c["requires"] not in names else c
             for c in cards]
    tableau, hands = [], []
    development = [c for c in cards if c["deck"] == "development"]
    for n in nations:
        taken: set[tuple[str, str]] = set()
        for card in ch.subset(development, 30)[:5]:
            key = (card.get("variety", ""), card.get("category", ""))
            if card.get("variety") in ("policy", "technology") and key in taken:
                continue
            taken.add(key)
            entry = {"nation": n, "card": card["card"]}
            for resource in ("food", "production", "commerce"):
                slots = card.get(f"{resource} slots", 0)
                if slots:
                    entry[resource] = ch.integer(0, slots)
            tableau.append(entry)
    slots = Counter()
    for n in nations:
        for deck in ("admin", "military", "ambition"):
            pool = [c for c in cards if c["deck"] == deck]
            for card in (ch.subset(pool, 20)[:2] if deck != "ambition" else pool[:1]):
                slots[deck] += 1
                hands.append({"nation": n, "pile": deck, "card": card["card"],
                              "slot": f"{'AMN'[('admin', 'military', 'ambition').index(deck)]}"
                                      f"{slots[deck]}"})
    rnd = ch.integer(1, 21)  # a few rounds before the game is over
    stage = ch.choice(("draft", "turns", "turns", "war"))
    rows = [{"card": c["card"], "row": "draft", "round": rnd}
            for c in ch.subset(development, 15)[:4]]
    events = [c for c in cards if c["deck"] == "global event"]
    if events and ch.chance(80):
        rows.append({"card": ch.choice(events)["card"], "row": "global event", "round": rnd})
    wars = [{"round": rnd, "declarer": nations[0], "target": nations[1], "by": "declared"}] \
        if stage == "war" or ch.chance(20) else []
    routes = [{"route": r, "kind": k, "holders": ", ".join(ch.subset(nations, 30)[:2])}
              for r, k in (("The Channel", "European"), ("India", "overseas"))]
    seats = list(range(1, len(nations) + 1))
    dealer = ch.choice(nations)
    table = {
        "Nations": [{"nation": n, "seat": s, "dealer": "yes" if n == dealer else "",
                     "prosperity": ch.integer(0, 6)} for n, s in zip(nations, seats)],
        "Provinces": provinces, "Pops": pops, "Cards": cards, "Tableau": tableau,
        "Hands": hands, "Rows": rows, "Wars": wars, "Trade routes": routes,
    }
    turn = ch.integer(1, 60)
    return GameSpec(table, {"game": "fuzz", "round": rnd, "stage": stage}, turn)


def eighteen_hundred_scenarios(ch: Chooser, pools: Pools) -> list[dict[str, Any]]:
    """Rows that can go through at some stage: picks of face-up cards, places and
    activations of cards in play, admin cards in hand, declarations, moves, war actions."""
    world = pools.world
    nations = list(world.nations)
    if not nations:
        return []
    me = ch.choice(nations)
    mine = [c.card for c in world.in_play(me)]
    hand = [h.card for h in world.hands if h.nation == me and h.held]
    own = [p.province for p in world.pops_of(me)]
    regiments = [p.name for p in world.regiments_of(me)]
    what = {"draft": 0, "war": ch.choice((6, 6, 7, 3))}.get(world.stage, ch.integer(1, 8))
    if what == 0 and world.face_up():
        return [{PLAYER: me, ORDER: "pick", "card": r.card} for r in world.face_up()[:3]]
    if what == 1 and mine:
        return [{PLAYER: me, ORDER: "place", "card": ch.choice(mine),
                 "resource": ch.choice(("food", "production", "commerce")),
                 "amount": ch.integer(1, 3)}]
    if what == 2 and mine:
        return [{PLAYER: me, ORDER: "activate", "card": ch.choice(mine),
                 "province": ch.choice(own) if own else None,
                 "improvement": ch.choice(("Factory", "Farm", "Market", None)),
                 "route": ch.choice(("The Channel", "India", None)),
                 "target": ch.choice(nations)}]
    if what == 3 and hand:
        return [{PLAYER: me, ORDER: ch.choice(("play admin", "play military")),
                 "card": ch.choice(hand), "province": ch.choice(own) if own else None,
                 "target": ch.choice(nations)}]
    if what == 4:
        return [{PLAYER: me, ORDER: "declare war", "target": ch.choice(nations),
                 "how": ch.choice(("", "conquest", "diplomatic action"))}]
    if what == 5 and own:
        start = ch.choice(own)
        return [{PLAYER: me, ORDER: "move pops", "province": start,
                 "to": ch.choice(world.map.neighbours(start) or [start])}]
    if what == 6 and regiments:
        start = ch.choice(regiments)
        kind = ch.choice(("war move", "war move", "move regiment"))
        return [{PLAYER: me, ORDER: kind, "province": start,
                 "to": ch.choice(world.map.neighbours(start) or [start])}]
    if what == 7 and own:
        return [{PLAYER: me, ORDER: "conscript", "province": ch.choice(own)},
                {PLAYER: me, ORDER: "pass"}]
    return [{PLAYER: me, ORDER: "deficit", "how": ch.choice(("pop", "tokens")),
             "province": ch.choice(own) if own else None}]


def eighteen_hundred_invariants(result: TurnResult) -> list[str]:
    """The board within the source's limits, the cards within their slots and categories,
    one dealer, prosperity never below 0, every hand sealed and counted."""
    turn, out = result.turn, []
    bad = out.append
    after = result.after.tables
    provinces = {r["province"]: r for r in after["Provinces"].to_dict("records")}
    pops_in: Counter[str] = Counter()
    laborers: Counter[str] = Counter()
    for r in after["Pops"].to_dict("records"):
        if min(r["pops"], r["laborers"], r["conscripted"]) < 0 or \
                r["laborers"] + r["conscripted"] > r["pops"]:
            bad(f"turn {turn}: Pops {r['nation']} in {r['province']}: {r}")
        pops_in[r["province"]] += r["pops"]
        laborers[r["province"]] += r["laborers"]
    for name, p in provinces.items():
        built = values.name_list(p["improvements"])
        count = sum(int(b.split(" x")[1]) if " x" in b else 1 for b in built)
        if count > CAPS[p["type"]]:
            bad(f"turn {turn}: {name} holds {count} improvements")
        if p["type"] == "countryside" and pops_in[name] > 2:
            bad(f"turn {turn}: {pops_in[name]} pops in the countryside {name}")
        factories = sum(int(b.split(" x")[1]) if " x" in b else 1 for b in built
                        if b.startswith("Factory"))
        if laborers[name] > factories:
            bad(f"turn {turn}: {laborers[name]} laborers on {factories} factories in {name}")
        if p["conscripted"] and not p["regiment"]:
            bad(f"turn {turn}: {name} is conscripted with no regiment")
    nations = after["Nations"].to_dict("records")
    if sum(bool(n["dealer"]) for n in nations) != 1:
        bad(f"turn {turn}: {sum(bool(n['dealer']) for n in nations)} dealers")
    held = Counter()
    for h in after["Hands"].to_dict("records"):
        if not str(h["card"]).startswith("sealed:"):
            bad(f"turn {turn}: a hand card is not sealed: Hands {h}")
        if bool(h["status"]) != bool(h["revealed"]):
            bad(f"turn {turn}: a hand row is played but unnamed, or named but held: {h}")
        if not h["status"] and h["pile"] in ("admin", "military"):
            held[(h["nation"], h["pile"])] += 1
    for n in nations:
        if n["prosperity"] < 0:
            bad(f"turn {turn}: {n['nation']}'s prosperity is {n['prosperity']}")
        for pile in ("admin", "military"):
            if f"{pile} cards" in n and n[f"{pile} cards"] != held[(n["nation"], pile)]:
                bad(f"turn {turn}: {n['nation']} is said to hold {n[f'{pile} cards']} {pile} "
                    f"cards, and holds {held[(n['nation'], pile)]}")
    cards = {r["card"]: r for r in after["Cards"].to_dict("records")}
    seen: set[tuple[str, str, str]] = set()
    for t in after["Tableau"].to_dict("records"):
        card = cards.get(t["card"], {})
        for resource in ("food", "production", "commerce"):
            if t[resource] > (card.get(f"{resource} slots") or 0) and not t["status"]:
                bad(f"turn {turn}: {t['card']} of {t['nation']} holds {t[resource]} {resource}")
        key = (t["nation"], card.get("variety") or "", card.get("category") or "")
        if not t["status"] and key[1] in ("policy", "technology"):
            if key in seen:
                bad(f"turn {turn}: {t['nation']} has two {key[2]} {key[1]} cards in play")
            seen.add(key)
    game = dict(zip(after["Game"]["setting"], after["Game"]["value"]))
    if game.get("stage") not in ("draft", "turns", "war", "over"):
        bad(f"turn {turn}: the next stage is {game.get('stage')!r}")
    return out


def eighteen_hundred_damages(prepared) -> list[Damage]:
    """Cross-reference damages: a pop in an unknown province, a countryside over two pops, a
    card effect outside the vocabulary, a tampered hand card, a second dealer."""
    out: list[Damage] = []
    state = prepared.state
    pops, cards = state.tables["Pops"], state.tables["Cards"]
    for r in pops.index.tolist()[:2]:
        out.append(Damage(f"Pops row {r} in Atlantis", "Pops", int(r), "province",
                          (("set", "Pops", int(r), "province", "Atlantis"),)))
    for r in cards.index.tolist()[:2]:
        out.append(Damage(f"Cards row {r} effect 'gold 3'", "Cards", int(r), "effects",
                          (("set", "Cards", int(r), "effects", "gold 3"),)))
    hands = state.tables["Hands"]
    for r in hands.index.tolist()[:1]:
        out.append(Damage(f"Hands row {r} tampered", "Hands", int(r), "card",
                          (("set", "Hands", int(r), "card", "sealed:AAAA"),)))
    nations = state.tables["Nations"]
    plain = [int(r) for r, d in zip(nations.index, nations["dealer"].tolist()) if not d]
    if plain:
        out.append(Damage(f"Nations row {plain[0]} a second dealer", "Nations", plain[0],
                          "dealer", (("set", "Nations", plain[0], "dealer", "yes"),)))
    return out


GAMES["eighteen_hundred"] = eighteen_hundred_game
SCENARIOS["eighteen_hundred"] = eighteen_hundred_scenarios
INVARIANTS["eighteen_hundred"] = eighteen_hundred_invariants
DAMAGES["eighteen_hundred"] = eighteen_hundred_damages
REJECTION_MATTERS["eighteen_hundred"] = frozenset(
    {"war move", "conscript", "play military", "pass", "deficit"})
