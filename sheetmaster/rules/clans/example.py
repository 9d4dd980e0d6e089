"""The shipped example clans game: four clans and the Independents on two islands, in the
Spring of year 2 (turn 5), orders posted.

``sheetmaster new clans FILE --example`` writes it; templates/clans-example.xlsx is it.
"""

from __future__ import annotations

from typing import Any

G, R, F, M = "Grassland", "Riverplains", "Forest", "Mountain"
NORTH, INLAND = "Northern Sea", "Inland Sea"

# Two islands of 3 x 4 provinces: name, flavour, owner, seas, improvements, found.
_WEST = [
    ("Manakura", R, "Amana", (NORTH,), "Castle, Library, Rice Farm, Dock", ""),
    ("Kozu", F, "Amana", (NORTH,), "Woodcutter Camp", ""),
    ("Ishiyama", M, "", (NORTH, INLAND), "", ""),
    ("Hagi", G, "Amana", (), "Tea Plantation", ""),
    ("Tsuwano", R, "", (), "", ""),
    ("Masuda", M, "", (INLAND,), "Castle", ""),
    ("Izumo", G, "", (), "", ""),
    ("Matsue", F, "", (), "", ""),
    ("Yonago", G, "", (INLAND,), "", ""),
    ("Tottori", R, "Mori", (), "Castle, Temple", ""),
    ("Kurayoshi", M, "Mori", (), "Mine (Copper)", "Copper"),
    ("Oki", G, "Mori", (INLAND,), "Marketplace, Fishery", ""),
]
_EAST = [
    ("Kofu", M, "Kuroda", (NORTH, INLAND), "Castle, Dock, Mine (Iron)", "Iron"),
    ("Suwa", F, "Kuroda", (NORTH,), "Silk Farm, Library", ""),
    ("Matsumoto", R, "", (NORTH,), "", ""),
    ("Ueda", G, "Kuroda", (INLAND,), "Lacquer Orchard", ""),
    ("Nagano", M, "", (), "", ""),
    ("Zenko", F, "", (), "Castle", ""),
    ("Kai", R, "Takeda", (INLAND,), "Army Camp, Rice Farm", ""),
    ("Fuji", G, "", (), "", ""),
    ("Numazu", G, "", (), "", ""),
    ("Sunpu", R, "Takeda", (INLAND,), "Castle, Silk Farm", ""),
    ("Kakegawa", F, "Takeda", (), "Woodcutter Camp, Silk Farm", ""),
    ("Hamana", M, "Takeda", (), "", "Silver"),
]


#: each province's colour in templates/clans-example-map.png, the GM's map image.
KEY_COLOURS = {
    "Manakura": "#bad7b1", "Kozu": "#c86b8e", "Ishiyama": "#6ed87c", "Hagi": "#7ba074",
    "Tsuwano": "#a86891", "Masuda": "#dcb09e", "Izumo": "#cfc2d6", "Matsue": "#e378c3",
    "Yonago": "#aed4bf", "Tottori": "#afb07c", "Kurayoshi": "#6392d4", "Oki": "#859f61",
    "Kofu": "#8ba8b0", "Suwa": "#748293", "Matsumoto": "#987694", "Ueda": "#b8e7d5",
    "Nagano": "#cda6c2", "Zenko": "#bca778", "Kai": "#8ee08e", "Fuji": "#d5d0b9",
    "Numazu": "#7d6fb7", "Sunpu": "#ee8190", "Kakegawa": "#c36e83", "Hamana": "#e4d061",
}


def _grid(island: list[tuple]) -> dict[str, list[str]]:
    """Borders of a 3-wide grid: left-right and up-down neighbours."""
    names = [p[0] for p in island]
    out: dict[str, list[str]] = {n: [] for n in names}
    for i, name in enumerate(names):
        for j in (i + 1, i + 3):
            if j < len(names) and (j == i + 3 or j % 3):
                out[name].append(names[j])
                out[names[j]].append(name)
    return out


def _provinces() -> list[dict[str, Any]]:
    rows = []
    for island in (_WEST, _EAST):
        borders = _grid(island)
        for name, flavour, owner, seas, built, found in island:
            rows.append({"province": name, "flavour": flavour, "owner": owner,
                         "borders": ", ".join(borders[name]), "seas": ", ".join(seas),
                         "improvements": built, "resources found": found,
                         "times prospected": 1 if found else "",
                         "map colour": KEY_COLOURS[name]})
    return rows


def example_game() -> tuple[dict[str, list[dict[str, Any]]], list[dict[str, Any]], dict]:
    """(tables, orders, settings) of the example game."""
    clans = [
        {"clan": "Amana", "capital": "Manakura", "religion": "Zen", "coins": 6200,
         "techs": "Alchemy", "researching": "Tactics", "research points": 40,
         "extras": "Alchemy (tech), Hagi (province)", "started on turn": 1},
        {"clan": "Kuroda", "capital": "Kofu", "religion": "Spirits", "coins": 8400,
         "techs": "Carpentry", "researching": "Shipbuilding", "research points": 30,
         "extras": "Carpentry (tech), 2500 Coins", "started on turn": 1},
        {"clan": "Mori", "capital": "Tottori", "religion": "Philosophers", "coins": 5100,
         "techs": "", "researching": "Administration", "research points": 12,
         "extras": "Oki (province), 2500 Coins", "started on turn": 1},
        {"clan": "Takeda", "capital": "Sunpu", "religion": "Zen", "coins": 7300,
         "techs": "Feudalism", "researching": "Bushido", "research points": 60,
         "extras": "Feudalism (tech), Kai (province)", "started on turn": 1},
    ]
    armies = [
        ("Amana Spearmen 1", "Amana", "Spearmen", "Manakura"),
        ("Amana Spearmen 2", "Amana", "Spearmen", "Hagi"),
        ("Amana Archers 1", "Amana", "Archers", "Kozu"),
        ("Kuroda Spearmen 1", "Kuroda", "Spearmen", "Kofu"),
        ("Kuroda Cavalry 1", "Kuroda", "Cavalry", "Kofu"),
        ("Kuroda Spearmen 2", "Kuroda", "Spearmen", "Ueda"),
        ("Mori Spearmen 1", "Mori", "Spearmen", "Tottori"),
        ("Mori Spearmen 2", "Mori", "Spearmen", "Oki"),
        ("Takeda Spearmen 1", "Takeda", "Spearmen", "Sunpu"),
        ("Takeda Archers 1", "Takeda", "Archers", "Kai"),
        ("Takeda Spearmen 2", "Takeda", "Spearmen", "Kakegawa"),
    ]
    armies += [(f"{p} Spearmen 1", "", "Spearmen", p) for p in (
        "Ishiyama", "Tsuwano", "Masuda", "Izumo", "Matsue", "Yonago", "Matsumoto", "Nagano",
        "Zenko", "Fuji", "Numazu")]
    armies.append(("Masuda Spearmen 2", "", "Spearmen", "Masuda"))
    advisors = [
        {"clan": "Amana", "skill": "Scholar", "since turn": 2},
        {"clan": "Kuroda", "skill": "Spymaster", "since turn": 3},
        {"clan": "Kuroda", "skill": "Master of the Ships", "great": "yes",
         "second skill": "General of the Front", "since turn": 4},
        {"clan": "Mori", "skill": "Geomancer", "since turn": 2},
        {"clan": "Takeda", "skill": "General of the Guard", "since turn": 3},
        {"clan": "Takeda", "skill": "Minister of Taxes", "status": "offered", "since turn": 4},
    ]
    independents = [
        {"provinces": "all", "starting armies": 1, "raise chance %": 20, "army limit": 2,
         "castle chance %": 5},
        {"provinces": "Masuda, Zenko", "starting armies": 2, "army limit": 3},
    ]
    orders = [
        {"player": "Amana", "order": "raise army", "type": "Archers", "province": "Manakura"},
        {"player": "Amana", "order": "move army", "army": "Amana Spearmen 2", "to": "Tsuwano"},
        {"player": "Amana", "order": "build improvement", "improvement": "Marketplace",
         "province": "Hagi"},
        {"player": "Amana", "order": "hire advisor", "skill": "General of the Infantry"},
        {"player": "Kuroda", "order": "move army", "army": "Kuroda Cavalry 1",
         "to": "Ishiyama"},
        {"player": "Kuroda", "order": "build improvement", "improvement": "Temple",
         "province": "Ueda"},
        {"player": "Kuroda", "order": "give coins", "clan": "Takeda", "amount": 500},
        {"player": "Kuroda", "order": "assassinate advisor", "clan": "Amana",
         "skill": "Scholar"},
        {"player": "Mori", "order": "build improvement", "improvement": "Library",
         "province": "Oki"},
        {"player": "Mori", "order": "prospect", "province": "Kurayoshi", "resource": "Silver"},
        {"player": "Mori", "order": "research", "tech": "Papermaking"},
        {"player": "Mori", "order": "move army", "army": "Mori Spearmen 1", "to": "Izumo"},
        {"player": "Takeda", "order": "raise army", "type": "Cavalry", "province": "Kai"},
        {"player": "Takeda", "order": "move army", "army": "Takeda Spearmen 2", "to": "Fuji"},
        {"player": "Takeda", "order": "move army", "army": "Takeda Spearmen 1", "to": "Fuji"},
        {"player": "Takeda", "order": "accept travelling advisor"},
        {"player": "Takeda", "order": "build improvement", "improvement": "Mine",
         "province": "Hamana", "resource": "Silver"},
        {"player": "Takeda", "order": "sabotage improvement", "province": "Suwa",
         "improvement": "Library"},
        {"player": "Takeda", "order": "raise army", "type": "Dragons", "province": "Sunpu"},
    ]
    tables = {
        "Clans": clans,
        "Provinces": _provinces(),
        "Armies": [dict(zip(("army", "clan", "type", "province"), a)) for a in armies],
        "Advisors": advisors,
        "Independents": independents,
    }
    settings = {"game": "Example: the Isles of the Clans", "seed": "example-seed",
                "turn": 5, "timezone": "Asia/Tokyo"}
    return tables, orders, settings
