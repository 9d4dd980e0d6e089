"""The shipped example game: five nations of 1861 on a map of 51 provinces and 16 sea zones,
in the Winter of 1861 (turn 4), with ports, railroads, the Suez canal under construction,
ships at sea (one carrying troops), a war between Prussia and Austria, and orders posted.

``sheetmaster new goldenage FILE --example`` writes it; templates/goldenage-example.xlsx is
it. Every number in its Settings tab and Game tab is the example's, not the rulebook's.
"""

from __future__ import annotations

from typing import Any

FR, GB, PR, AU, OT = "France", "Britain", "Prussia", "Austria", "Ottoman Empire"
EXAMPLE_NOTE = "the example's value, not the printed rulebook's"

# province: owner, base value, core, seas, northern
_PROVINCES: dict[str, tuple[str, int, bool, tuple[str, ...], bool]] = {
    "Paris": (FR, 5, True, (), False),
    "Normandy": (FR, 3, True, ("English Channel",), False),
    "Brittany": (FR, 2, True, ("English Channel", "Bay of Biscay"), False),
    "Bordeaux": (FR, 3, True, ("Bay of Biscay",), False),
    "Lyon": (FR, 4, True, (), False),
    "Marseille": (FR, 3, True, ("Western Mediterranean",), False),
    "Burgundy": (FR, 2, True, (), False),
    "Champagne": (FR, 2, True, (), False),
    "Alsace": (FR, 3, True, (), False),
    "Algiers": (FR, 2, False, ("Western Mediterranean",), False),
    "London": (GB, 6, True, ("North Sea",), False),
    "Kent": (GB, 2, True, ("English Channel",), False),
    "Wales": (GB, 2, True, ("Irish Sea",), False),
    "York": (GB, 3, True, ("North Sea",), True),
    "Scotland": (GB, 2, True, ("North Sea", "Irish Sea"), True),
    "Ireland": (GB, 2, True, ("Irish Sea",), False),
    "Berlin": (PR, 5, True, (), True),
    "Brandenburg": (PR, 2, True, (), True),
    "Pomerania": (PR, 2, True, ("Baltic Sea",), True),
    "East Prussia": (PR, 2, True, ("Baltic Sea",), True),
    "Silesia": (PR, 3, True, (), False),
    "Saxony": (PR, 3, True, (), False),
    "Hanover": (PR, 3, True, ("North Sea",), True),
    "Westphalia": (PR, 3, True, (), False),
    "Rhineland": (PR, 3, True, (), False),
    "Vienna": (AU, 5, True, (), False),
    "Bohemia": (AU, 4, True, (), False),
    "Moravia": (AU, 2, True, (), False),
    "Tyrol": (AU, 2, True, (), False),
    "Hungary": (AU, 3, True, (), False),
    "Galicia": (AU, 2, True, (), True),
    "Venetia": (AU, 3, True, ("Adriatic Sea",), False),
    "Croatia": (AU, 2, True, ("Adriatic Sea",), False),
    "Transylvania": (AU, 2, True, (), False),
    "Constantinople": (OT, 5, True, ("Bosporus", "Black Sea"), False),
    "Thrace": (OT, 2, True, ("Aegean Sea", "Bosporus"), False),
    "Anatolia": (OT, 3, True, ("Aegean Sea", "Eastern Mediterranean", "Black Sea"), False),
    "Syria": (OT, 2, True, ("Eastern Mediterranean",), False),
    "Egypt": (OT, 3, False, ("Eastern Mediterranean", "Suez Canal", "Red Sea"), False),
    "Bosnia": (OT, 2, False, (), False),
    "Belgium": ("", 3, False, ("North Sea",), False),
    "Netherlands": ("", 3, False, ("North Sea",), False),
    "Denmark": ("", 2, False, ("North Sea", "Danish Straits"), True),
    "Switzerland": ("", 2, False, (), False),
    "Bavaria": ("", 3, False, (), False),
    "Piedmont": ("", 3, False, ("Tyrrhenian Sea",), False),
    "Naples": ("", 2, False, ("Tyrrhenian Sea", "Adriatic Sea"), False),
    "Sicily": ("", 1, False, ("Tyrrhenian Sea", "Ionian Sea"), False),
    "Serbia": ("", 2, False, (), False),
    "Wallachia": ("", 2, False, ("Black Sea",), False),
    "Greece": ("", 2, False, ("Aegean Sea", "Ionian Sea"), False),
}
_BORDERS = """
Paris-Normandy Paris-Champagne Paris-Burgundy Paris-Bordeaux Normandy-Brittany Normandy-Champagne
Brittany-Bordeaux Bordeaux-Lyon Lyon-Burgundy Lyon-Marseille Lyon-Switzerland Marseille-Piedmont
Burgundy-Champagne Burgundy-Alsace Burgundy-Switzerland Champagne-Alsace Champagne-Belgium
Alsace-Rhineland Alsace-Bavaria Alsace-Switzerland Belgium-Netherlands Belgium-Rhineland
Netherlands-Westphalia Netherlands-Hanover Rhineland-Westphalia Rhineland-Bavaria
Westphalia-Hanover Westphalia-Saxony Hanover-Denmark Hanover-Brandenburg Hanover-Saxony
Brandenburg-Berlin Brandenburg-Pomerania Brandenburg-Silesia Brandenburg-Saxony Berlin-Pomerania
Berlin-Saxony Pomerania-East Prussia East Prussia-Galicia Silesia-Saxony Silesia-Bohemia
Silesia-Moravia Silesia-Galicia Saxony-Bohemia Saxony-Bavaria Bohemia-Bavaria Bohemia-Moravia
Bohemia-Vienna Moravia-Vienna Moravia-Galicia Vienna-Tyrol Vienna-Hungary Tyrol-Bavaria
Tyrol-Switzerland Tyrol-Venetia Venetia-Piedmont Venetia-Croatia Piedmont-Switzerland
Piedmont-Naples Naples-Sicily Croatia-Hungary Croatia-Bosnia Hungary-Galicia Hungary-Transylvania
Hungary-Serbia Transylvania-Wallachia Transylvania-Galicia Bosnia-Serbia Serbia-Wallachia
Serbia-Thrace Wallachia-Thrace Thrace-Constantinople Thrace-Greece Constantinople-Anatolia
Anatolia-Syria Syria-Egypt London-Kent London-York London-Wales York-Scotland York-Wales
"""
_SEAS = {
    "North Sea": ("English Channel", "Irish Sea", "Danish Straits"),
    "English Channel": ("North Sea", "Bay of Biscay", "Irish Sea"),
    "Irish Sea": ("English Channel", "North Sea"),
    "Bay of Biscay": ("English Channel", "Western Mediterranean"),
    "Western Mediterranean": ("Bay of Biscay", "Tyrrhenian Sea"),
    "Tyrrhenian Sea": ("Western Mediterranean", "Ionian Sea"),
    "Ionian Sea": ("Tyrrhenian Sea", "Adriatic Sea", "Aegean Sea", "Eastern Mediterranean"),
    "Adriatic Sea": ("Ionian Sea",),
    "Aegean Sea": ("Ionian Sea", "Eastern Mediterranean", "Bosporus"),
    "Eastern Mediterranean": ("Ionian Sea", "Aegean Sea", "Suez Canal"),
    "Suez Canal": ("Eastern Mediterranean", "Red Sea"),
    "Red Sea": ("Suez Canal",),
    "Bosporus": ("Aegean Sea", "Black Sea"),
    "Black Sea": ("Bosporus",),
    "Danish Straits": ("North Sea", "Baltic Sea"),
    "Baltic Sea": ("Danish Straits",),
}


def _pairs() -> list[tuple[str, str]]:
    text = _BORDERS.replace("East Prussia", "East_Prussia")
    return [tuple(p.replace("East_Prussia", "East Prussia") for p in pair.split("-"))
            for pair in text.split()]


def example_game() -> tuple[dict[str, list[dict[str, Any]]], list[dict[str, Any]], dict]:
    """(tables, orders, settings) of the example game."""
    borders: dict[str, list[str]] = {p: [] for p in _PROVINCES}
    for a, b in _pairs():
        borders[a].append(b)
        borders[b].append(a)
    provinces = [{"province": name, "owner": owner, "base value": value,
                  "core": "yes" if core else "", "seas": ", ".join(seas),
                  "northern": "yes" if north else "", "borders": ", ".join(borders[name]),
                  "controller": owner, "overseas": "yes" if name == "Algiers" else ""}
                 for name, (owner, value, core, seas, north) in _PROVINCES.items()]
    for row in provinces:
        if row["province"] == "Egypt":
            row["controls canal"] = "Suez Canal"
        if row["province"] == "Constantinople":
            row["controls strait"] = "Bosporus"
        if row["province"] == "Denmark":
            row["controls strait"] = "Danish Straits"
    seas = [{"sea zone": name, "borders": ", ".join(near),
             "strait": "yes" if name in ("Bosporus", "Danish Straits") else "",
             "canal": "yes" if name == "Suez Canal" else "",
             "open": "yes" if name in ("Bosporus", "Danish Straits") else ""}
            for name, near in _SEAS.items()]
    nations = [
        {"nation": FR, "player": "Camille", "leader": "Napoleon III", "currency": 180,
         "tech": 2, "capital": "Paris", "capital kind": "permanent", "prestige": 1},
        {"nation": GB, "player": "Arthur", "leader": "Victoria", "currency": 300, "tech": 3,
         "capital": "London", "capital kind": "permanent", "prestige": 2},
        {"nation": PR, "player": "Otto", "leader": "Wilhelm I", "currency": 150, "tech": 2,
         "capital": "Berlin", "capital kind": "permanent", "at war with": AU},
        {"nation": AU, "player": "Franz", "leader": "Franz Joseph", "currency": 140,
         "tech": 2, "capital": "Vienna", "capital kind": "permanent", "at war with": PR},
        {"nation": OT, "player": "Selim", "leader": "Abdulaziz", "currency": 120, "tech": 1,
         "capital": "Constantinople", "capital kind": "permanent"},
    ]
    tables = {
        "Nations": nations,
        "Provinces": provinces,
        "Sea zones": seas,
        "Units": _units(),
        "Buildings": _buildings(),
        "Railroads": [{"railroad": f"R{i}", "from": a, "to": b, "owner": owner}
                      for i, (a, b, owner) in enumerate(_RAILROADS, start=1)],
        "Canals": [{"canal": "Suez", "sea zone": "Suez Canal", "cost": 400, "owner": OT,
                    "state": "building", "invested": 120}],
        "Canal investments": [
            {"canal": "Suez", "year": year, "nation": nation, "amount": amount}
            for year, nation, amount in ((1860, OT, 50), (1860, FR, 20), (1861, OT, 30),
                                         (1861, FR, 20))],
        "Agreements": [{"agreement": "L1", "kind": "loan", "payer": OT, "payee": GB,
                        "payment": 15, "payments left": 4, "next due on turn": 4,
                        "missed": 0, "status": "open", "terms": "loan of 50, 4 x 15"}],
        "Timers": _timers(),
        "Settings": _settings(),
    }
    settings = {"game": "Example: Golden Age 1861 (every number in Settings and in this tab "
                        "is the example's, not the printed rulebook's)",
                "seed": "example-seed", "turn": 4, "timezone": "Europe/Paris",
                **_game_numbers()}
    return tables, _orders(), settings


_RAILROADS = [("Paris", "Champagne", FR), ("Champagne", "Alsace", FR), ("Paris", "Burgundy", FR),
              ("Burgundy", "Lyon", FR), ("Paris", "Normandy", FR), ("Berlin", "Brandenburg", PR),
              ("Berlin", "Saxony", PR), ("Saxony", "Silesia", PR), ("Berlin", "Pomerania", PR),
              ("Hanover", "Westphalia", PR), ("Westphalia", "Rhineland", PR),
              ("Vienna", "Bohemia", AU), ("Vienna", "Moravia", AU), ("Vienna", "Hungary", AU),
              ("London", "York", GB), ("London", "Kent", GB)]


def _units() -> list[dict[str, Any]]:
    rows = []

    def add(nation: str, kind: str, at: str, n: int = 1, **extra: Any) -> None:
        for _ in range(n):
            count = sum(r["nation"] == nation and r["type"] == kind for r in rows) + 1
            rows.append({"unit": f"{nation} {kind} {count}", "nation": nation, "type": kind,
                         "at": at, **extra})

    add(FR, "Infantry", "Paris", 2)
    add(FR, "Infantry", "Alsace")
    add(FR, "Infantry", "Champagne")
    add(FR, "Artillery", "Paris")
    add(FR, "General", "Alsace")
    add(FR, "Warship", "Brittany")
    add(FR, "Warship", "English Channel")
    add(FR, "Warship", "Western Mediterranean", **{"supply penalties": 1})
    add(FR, "Infantry", "Western Mediterranean", aboard="France Warship 3")
    add(GB, "Infantry", "London", 2)
    add(GB, "Infantry", "Kent")
    add(GB, "Warship", "North Sea")
    add(GB, "Warship", "English Channel")
    add(GB, "Warship", "London")
    add(GB, "Battleship", "North Sea")
    add(PR, "Infantry", "Berlin")
    add(PR, "Infantry", "Silesia", 2)
    add(PR, "Infantry", "Saxony")
    add(PR, "Infantry", "Rhineland")
    add(PR, "Artillery", "Silesia")
    add(PR, "General", "Silesia")
    add(PR, "Conscript", "Berlin", 2)
    add(PR, "Warship", "Pomerania")
    add(AU, "Infantry", "Vienna")
    add(AU, "Infantry", "Bohemia", 2)
    add(AU, "Infantry", "Moravia")
    add(AU, "Infantry", "Venetia")
    add(AU, "Artillery", "Bohemia")
    add(AU, "Conscript", "Vienna")
    add(AU, "Warship", "Venetia")
    add(OT, "Infantry", "Constantinople")
    add(OT, "Infantry", "Thrace")
    add(OT, "Infantry", "Syria")
    add(OT, "Warship", "Constantinople")
    add(OT, "Warship", "Aegean Sea")
    return rows


def _buildings() -> list[dict[str, Any]]:
    ports = [("Brittany", "English Channel", 2), ("Marseille", "Western Mediterranean", 1),
             ("Bordeaux", "Bay of Biscay", 1), ("Algiers", "Western Mediterranean", 1),
             ("London", "North Sea", 4), ("Wales", "Irish Sea", 1),
             ("Hanover", "North Sea", 1), ("Pomerania", "Baltic Sea", 1),
             ("Venetia", "Adriatic Sea", 2), ("Constantinople", "Bosporus", 2),
             ("Egypt", "Eastern Mediterranean", 1), ("Anatolia", "Aegean Sea", 1)]
    rows = [{"building": f"{p} Port", "type": "Port", "province": p, "sea zone": z,
             "level": lvl} for p, z, lvl in ports]
    rows += [{"building": f"{p} Factory", "type": "Factory", "province": p}
             for p in ("Paris", "Lyon", "Berlin", "Silesia", "Vienna", "Bohemia", "London",
                       "York")]
    rows += [{"building": f"{p} Academy", "type": "Academy", "province": p}
             for p in ("Lyon", "Saxony", "Hungary")]
    rows += [{"building": "Alsace Fort", "type": "Fort", "province": "Alsace",
              "state": "active"},
             {"building": "Bohemia Fort", "type": "Fort", "province": "Bohemia",
              "state": "active"},
             {"building": "Silesia Fort", "type": "Fort", "province": "Silesia",
              "state": "mothballed"}]
    return rows


def _timers() -> list[dict[str, Any]]:
    return [
        {"timer": "T1", "kind": "canal", "owner": OT, "subject": "Suez", "started on turn": 1,
         "order row": "", "turns left": "", "due on turn": "", "paid": 120,
         "status": "running", "canal": "Suez",
         "note": "started on turn 1"},
        {"timer": "T2", "kind": "agreement", "owner": OT, "subject": "loan L1",
         "started on turn": 3, "order row": "", "turns left": "", "due on turn": "",
         "paid": 0, "status": "running", "agreement": "L1",
         "note": "started on turn 3"},
        {"timer": "T3", "kind": "production", "owner": FR, "subject": "Infantry in Paris",
         "started on turn": 3, "order row": "", "turns left": 2, "due on turn": 5,
         "paid": 20, "status": "running",
         "province": "Paris", "what": "Infantry", "count": 1, "note": "started on turn 3"},
        {"timer": "T4", "kind": "railroad", "owner": AU, "subject": "Railroad in Hungary",
         "started on turn": 3, "order row": "", "turns left": 2, "due on turn": 5,
         "paid": 20, "status": "running",
         "province": "Hungary", "to": "Transylvania",
         "note": "started on turn 3"},
        {"timer": "T5", "kind": "construction", "owner": PR, "subject": "Factory in Saxony",
         "started on turn": 2, "order row": "", "turns left": 1, "due on turn": 4,
         "paid": 40, "status": "running",
         "province": "Saxony", "what": "Factory", "note": "started on turn 2"},
    ]


def _game_numbers() -> dict[str, Any]:
    return {"land combat die": 6, "naval combat die": 6, "entrenchment bonus": 2,
            "fort bonus": 3, "defensive support bonus": 1, "coastal support bonus": 1,
            "northern winter attack penalty": 2, "ships lost by a defeated fleet": 1,
            "ships to blockade a sea zone": 2, "ships to blockade a port": 3,
            "land supply penalties before removal": 4, "capture artillery chance %": 50,
            "kill general chance %": 25, "nationalist revolt chance %": 10,
            "nationalist rebels per revolt": 2, "reactionary revolt chance %": 20,
            "reactionary rebels per revolt": 1, "tech unrest chance %": 10,
            "displaced workers programs cost": 15, "integration payment per season": 20,
            "canal construction cost": 50, "currency per prestige": 10,
            "immune to zones of control": "Submarine"}


def _settings() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []

    def add(item: str, level: Any = "", **numbers: Any) -> None:
        rows.append({"item": item, "level": level, **numbers, "help": EXAMPLE_NOTE})

    add("Infantry", cost=20, **{"build seasons": 2}, upkeep=2, strength=3, dice=1,
        classification="Line Infantry")
    add("Conscript", cost=6, **{"build seasons": 1}, upkeep=1, strength=1, dice=1, value=3,
        classification="Landwehr")
    add("General", cost=30, **{"build seasons": 2}, upkeep=3, strength=2, dice=0)
    add("Artillery", cost=25, **{"build seasons": 2}, upkeep=2, strength=4, dice=1,
        classification="Field Guns")
    add("Landship", cost=60, **{"build seasons": 3}, upkeep=4, strength=8, dice=2,
        classification="Landship")
    add("Nationalist Rebel", cost=0, **{"build seasons": 0}, upkeep=0, strength=2, dice=1)
    add("Reactionary Rebel", cost=0, **{"build seasons": 0}, upkeep=0, strength=2, dice=1)
    for level, (actions, name) in enumerate(((10, "Steam Frigate"), (12, "Ironclad"),
                                             (14, "Armoured Cruiser"), (16, "Pre-dreadnought"),
                                             (18, "Dreadnought")), start=1):
        add("Warship", level, cost=40, **{"build seasons": 3}, upkeep=3, strength=3,
            **{"movement actions": actions}, classification=name)
    add("Battleship", cost=90, **{"build seasons": 4}, upkeep=6, strength=8,
        **{"movement actions": 12}, classification="Battleship")
    add("Submarine", cost=50, **{"build seasons": 3}, upkeep=3, strength=4,
        **{"movement actions": 14}, classification="Submarine")
    add("Factory", cost=40, **{"build seasons": 3})
    add("Academy", cost=30, **{"build seasons": 2})
    add("Fort", cost=40, **{"build seasons": 3}, upkeep=2)
    for level, (cost, income) in enumerate(((30, 3), (30, 5), (40, 7), (50, 10)), start=1):
        add("Port", level, cost=cost, **{"build seasons": 2}, income=income)
    add("Railroad", cost=20, **{"build seasons": 2})
    for level, value in enumerate((2, 2, 3, 3, 4), start=1):
        add("Income", level, value=value)
    for level, cost in ((2, 100), (3, 150), (4, 220), (5, 300)):
        add("Tech upgrade", level, cost=cost)
    return rows


def _orders() -> list[dict[str, Any]]:
    return [
        {"player": FR, "order": "move", "unit": "France Warship 3", "path": "Algiers"},
        {"player": FR, "order": "disembark", "unit": "France Warship 3",
         "units": "France Infantry 5", "to": "Algiers", "intent": "march"},
        {"player": FR, "order": "invest-canal", "canal": "Suez", "amount": 50},
        {"player": FR, "order": "muster-infantry", "province": "Lyon"},
        {"player": FR, "order": "march", "unit": "France Infantry 1", "to": "Alsace"},
        {"player": FR, "order": "construct-railroad", "province": "Lyon", "to": "Marseille"},
        {"player": FR, "order": "construct-port", "province": "Normandy",
         "sea zone": "English Channel"},
        {"player": GB, "order": "move", "unit": "Britain Warship 2",
         "path": "English Channel, Bay of Biscay"},
        {"player": GB, "order": "move", "unit": "Britain Battleship 1",
         "path": "North Sea, Danish Straits"},
        {"player": GB, "order": "upgrade-tech"},
        {"player": GB, "order": "construct-factory", "province": "Wales"},
        {"player": PR, "order": "invade", "unit": "Prussia Infantry 2", "to": "Bohemia",
         "target": AU},
        {"player": PR, "order": "invade", "unit": "Prussia Infantry 3", "to": "Bohemia",
         "target": AU},
        {"player": PR, "order": "offensive-support", "unit": "Prussia Infantry 4",
         "to": "Bohemia", "of": "Prussia Infantry 2"},
        {"player": PR, "order": "march", "unit": "Prussia Infantry 1", "to": "Silesia"},
        {"player": PR, "order": "muster-conscripts", "province": "Brandenburg"},
        {"player": AU, "order": "entrench", "unit": "Austria Infantry 2"},
        {"player": AU, "order": "defensive-support", "unit": "Austria Infantry 4",
         "of": "Austria Infantry 2"},
        {"player": AU, "order": "cut-support", "unit": "Austria Infantry 3",
         "of": "Prussia Infantry 4"},
        {"player": AU, "order": "authorize-payment", "deal": "L1"},
        {"player": OT, "order": "authorize-payment", "deal": "L1"},
        {"player": OT, "order": "invest-canal", "canal": "Suez", "amount": 60},
        {"player": OT, "order": "move", "unit": "Ottoman Empire Warship 2",
         "path": "Eastern Mediterranean"},
        {"player": OT, "order": "upgrade-province", "province": "Egypt"},
        {"player": OT, "order": "succession", "name": "Abdulaziz I"},
        {"player": OT, "order": "loan", "deal": "L2", "nation": AU, "amount": 40, "repay": 15,
         "seasons": 3},
        {"player": AU, "order": "accept-agreement", "deal": "L2"},
    ]
