"""The shipped example claims game: four nations on a small map, turn 2, orders posted.

``sheetmaster new claims FILE --example`` writes it; templates/claims-example.xlsx is it.
"""

from __future__ import annotations

from typing import Any

# territory: (owner, resource, capital of)
_LAND: dict[str, tuple[str, str, str]] = {
    "Camelot": ("Avalon", "", "Avalon"),
    "Lyonesse": ("Avalon", "Gold", ""),
    "Tintagel": ("Avalon", "Iron", ""),
    "Glastonbury": ("Avalon", "", ""),
    "Brocéliande": ("Bretagne", "", "Bretagne"),
    "Carnac": ("Bretagne", "Coal", ""),
    "Ys": ("Bretagne", "", ""),
    "Armor": ("Bretagne", "", ""),
    "Caerleon": ("Cambria", "", "Cambria"),
    "Gwynedd": ("Cambria", "Coal", ""),
    "Powys": ("Cambria", "", ""),
    "Dyfed": ("Cambria", "Rubber", ""),
    "Isca": ("Dumnonia", "", "Dumnonia"),
    "Kernow": ("Dumnonia", "Oil", ""),
    "Dartmoor": ("Dumnonia", "", ""),
    "Sarum": ("", "", ""),
    "Logres": ("", "Gold", ""),
    "Mercia": ("", "", ""),
    "Orkney": ("", "Uranium", ""),
    "Sorelois": ("", "Amber", ""),
    "Listenois": ("", "", ""),
    "Benoic": ("", "", ""),
}

_BORDERS = [
    ("Camelot", "Lyonesse"), ("Camelot", "Glastonbury"), ("Camelot", "Sarum"),
    ("Lyonesse", "Tintagel"), ("Tintagel", "Kernow"), ("Glastonbury", "Sarum"),
    ("Glastonbury", "Isca"), ("Sarum", "Logres"), ("Logres", "Mercia"), ("Mercia", "Powys"),
    ("Caerleon", "Gwynedd"), ("Caerleon", "Powys"), ("Caerleon", "Dyfed"), ("Powys", "Gwynedd"),
    ("Isca", "Kernow"), ("Isca", "Dartmoor"), ("Dartmoor", "Kernow"),
    ("Brocéliande", "Carnac"), ("Brocéliande", "Ys"), ("Brocéliande", "Armor"),
    ("Armor", "Benoic"), ("Benoic", "Listenois"), ("Listenois", "Sorelois"),
    ("Mercia", "Orkney"),
]
# territory: (key colour in templates/claims-example-map.png, map x, map y): the GM's map
# image and the pinned positions of the drawing without it.
_MAP: dict[str, tuple[str, int, int]] = {
    "Orkney": ("#88ad87", 560, 50), "Mercia": ("#85a28c", 470, 170),
    "Gwynedd": ("#bcb076", 250, 190), "Powys": ("#cca1ba", 360, 250),
    "Caerleon": ("#75cb6c", 280, 330), "Dyfed": ("#9c85cd", 150, 330),
    "Logres": ("#ada69a", 590, 270), "Sarum": ("#759570", 550, 390),
    "Camelot": ("#bbbd89", 440, 430), "Glastonbury": ("#7d66ce", 330, 430),
    "Isca": ("#667b8a", 230, 450), "Dartmoor": ("#79abe0", 120, 480),
    "Kernow": ("#6eb3ab", 190, 570), "Tintagel": ("#ac6e86", 310, 570),
    "Lyonesse": ("#aedb6d", 430, 540),
    "Ys": ("#bcadc3", 380, 730), "Carnac": ("#efb8aa", 220, 740),
    "Brocéliande": ("#d3b161", 300, 830), "Armor": ("#8bca9c", 130, 840),
    "Benoic": ("#b9818c", 240, 940), "Listenois": ("#be69c5", 430, 920),
    "Sorelois": ("#6eb9c7", 600, 830),
}

_WATERWAYS = [("Tintagel", "Ys"), ("Dyfed", "Armor"), ("Kernow", "Carnac"),
              ("Orkney", "Sorelois")]


def _links(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {name: [] for name in _LAND}
    for a, b in pairs:
        out[a].append(b)
        out[b].append(a)
    return out


def example_game() -> tuple[dict[str, list[dict[str, Any]]], list[dict[str, Any]], dict]:
    """(tables, orders, settings) of the example game."""
    borders, water = _links(_BORDERS), _links(_WATERWAYS)
    territories = [
        {"territory": name, "owner": owner, "resource": resource, "capital of": capital,
         "borders": ", ".join(borders[name]), "waterways": ", ".join(water[name]),
         "map colour": _MAP[name][0], "map x": _MAP[name][1], "map y": _MAP[name][2]}
        for name, (owner, resource, capital) in _LAND.items()
    ]
    players = [
        {"player": "Avalon", "gold": 12, "armies": 4, "in exile": "", "colour": "#3b6fb6"},
        {"player": "Bretagne", "gold": 6, "armies": 3, "in exile": "", "colour": "#e8a33d"},
        {"player": "Cambria", "gold": 9, "armies": 2, "in exile": "", "colour": "#3f9b4a"},
        {"player": "Dumnonia", "gold": 3, "armies": 5, "in exile": "", "colour": "#c0392b"},
    ]
    wars = [
        {"war": "Channel War", "side": "Britons", "members": "Avalon, Cambria", "ended": ""},
        {"war": "Channel War", "side": "Armoricans", "members": "Bretagne", "ended": ""},
        {"war": "Tamar Feud", "side": "Dumnonia", "members": "Dumnonia", "ended": ""},
        {"war": "Tamar Feud", "side": "Avalon", "members": "Avalon", "ended": ""},
    ]
    war_results = [
        {"turn": 1, "war": "Channel War", "side": "Britons", "members": "Avalon, Cambria",
         "dice": "Avalon: 5 4; Cambria: 3", "power": "Avalon: 1.1; Cambria: 1.0",
         "score": "12.9", "outcome": "won"},
        {"turn": 1, "war": "Channel War", "side": "Armoricans", "members": "Bretagne",
         "dice": "Bretagne: 2 3", "power": "Bretagne: 1.1", "score": "5.5", "outcome": "lost"},
    ]
    orders = [
        {"player": "Avalon", "order": "claim war territory", "territory": "Ys"},
        {"player": "Cambria", "order": "claim war territory", "territory": "Armor"},
        {"player": "Cambria", "order": "claim war territory", "territory": "Ys"},
        {"player": "Avalon", "order": "propose transfer", "deal": "iron-for-gold",
         "item": "iron", "amount": 1, "to": "Dumnonia"},
        {"player": "Avalon", "order": "propose transfer", "deal": "iron-for-gold",
         "item": "gold", "amount": 2, "from": "Dumnonia", "to": "Avalon"},
        {"player": "Dumnonia", "order": "accept transfer", "deal": "iron-for-gold"},
        {"player": "Bretagne", "order": "propose transfer", "deal": "tribute",
         "item": "gold", "amount": 3, "to": "Cambria"},
        {"player": "Avalon", "order": "claim neutral territory", "territory": "Sarum"},
        {"player": "Avalon", "order": "claim neutral territory", "territory": "Logres"},
        {"player": "Cambria", "order": "claim neutral territory", "territory": "Mercia"},
        {"player": "Dumnonia", "order": "claim neutral territory", "territory": "Sarum"},
        {"player": "Avalon", "order": "commit dice", "amount": 3, "war": "Tamar Feud"},
        {"player": "Dumnonia", "order": "commit dice", "amount": 4, "war": "Tamar Feud",
         "side": "Dumnonia"},
        {"player": "Bretagne", "order": "commit dice", "amount": 3, "war": "Channel War"},
        {"player": "Cambria", "order": "commit dice", "amount": 2, "war": "Channel War",
         "side": "Britons"},
        {"player": "Avalon", "order": "build armies", "amount": 2},
        {"player": "Bretagne", "order": "build armies", "amount": "two"},
        {"player": "Cambria", "order": "build armies", "amount": 1},
    ]
    settings = {"game": "Example: the Matter of Britain", "seed": "example-seed",
                "timezone": "America/New_York"}
    return {"Territories": territories, "Players": players, "Wars": wars,
            "War results": war_results}, orders, settings
