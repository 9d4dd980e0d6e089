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
         "borders": ", ".join(borders[name]), "waterways": ", ".join(water[name])}
        for name, (owner, resource, capital) in _LAND.items()
    ]
    players = [
        {"player": "Avalon", "gold": 12, "armies": 4, "in exile": ""},
        {"player": "Bretagne", "gold": 6, "armies": 3, "in exile": ""},
        {"player": "Cambria", "gold": 9, "armies": 2, "in exile": ""},
        {"player": "Dumnonia", "gold": 3, "armies": 5, "in exile": ""},
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
