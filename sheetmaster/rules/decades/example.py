"""The shipped example decades game: six player states and six non-player states on two
continents (60 provinces), in the decade 1610-1619 (turn 2), orders posted: a war declared
(and another between alliances), a personal union (Bohemia with Saxony), a satellite (Navarre
of Castile), a colonization in progress (Castile's Tlaxcala, 2 of 5 paid).

``sheetmaster new decades FILE --example`` writes it; templates/decades-example.xlsx is it.
The Governments and Technologies tabs, the stability cost and the happiness drift are this
example's, not the rulebook's: decades.txt's Appendix is missing and it names no such number.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from .phases.economy import income

OCCIDENS, NOVATERRA = "Occidens", "Novaterra"
# Occidens: 8 x 5 provinces, west to east, north to south: name, owner, value, religion,
# culture (blank religion/culture: the owner's).
_OCCIDENS = [
    ("Galicia", "Castile", 3, "", ""), ("Asturias", "Castile", 2, "", ""),
    ("Bretagne", "Francia", 4, "", "Breton"), ("Normandie", "Francia", 5, "", ""),
    ("Flandre", "Francia", 6, "Reformed", "Flemish"), ("Holstein", "Saxony", 3, "", ""),
    ("Pommern", "Saxony", 3, "", ""), ("Livonia", "Muscovy", 2, "Reformed", "Baltic"),
    ("Leon", "Castile", 4, "", ""), ("Navarra", "Navarre", 2, "", ""),
    ("Paris", "Francia", 8, "", ""), ("Champagne", "Francia", 5, "", ""),
    ("Westfalen", "Saxony", 4, "Catholic", ""), ("Sachsen", "Saxony", 6, "", ""),
    ("Brandenburg", "Saxony", 4, "", ""), ("Novgorod", "Muscovy", 3, "", ""),
    ("Portugal", "Castile", 4, "", "Portuguese"), ("Toledo", "Castile", 7, "", ""),
    ("Aquitaine", "Francia", 5, "", ""), ("Lyon", "Francia", 5, "", ""),
    ("Bayern", "Saxony", 5, "Catholic", ""), ("Bohmen", "Bohemia", 6, "", ""),
    ("Polska", "Poland", 5, "", ""), ("Moskva", "Muscovy", 7, "", ""),
    ("Andalucia", "Castile", 5, "", ""), ("Aragon", "Castile", 4, "", "Catalan"),
    ("Provence", "Francia", 4, "", ""), ("Milano", "Venice", 6, "", ""),
    ("Venezia", "Venice", 8, "", ""), ("Mahren", "Bohemia", 3, "", ""),
    ("Ukraina", "Muscovy", 4, "", "Ruthenian"), ("Kazan", "Muscovy", 3, "Sunni", "Tatar"),
    ("Granada", "Granada", 4, "", ""), ("Valencia", "Castile", 4, "", ""),
    ("Corsica", "Francia", 2, "", "Italic"), ("Roma", "Venice", 6, "", ""),
    ("Dalmatia", "Venice", 3, "", "Slavic"), ("Bosnia", "Ottomans", 3, "Orthodox", "Slavic"),
    ("Rumelia", "Ottomans", 7, "", ""), ("Anatolia", "Ottomans", 8, "", ""),
]
# Novaterra: 5 x 4 provinces; the tribes' land is unsettled (a red dot).
_NOVATERRA = [
    ("Florida", "Francia", 3, "Animist", "Timucua"), ("Cuba", "Castile", 4, "", ""),
    ("Yucatan", "Aztecs", 4, "", ""), ("Tlaxcala", "Castile", 5, "Animist", "Nahua"),
    ("Mexico", "Aztecs", 5, "", ""),
    ("Veracruz", "Aztecs", 3, "", ""), ("Oaxaca", "Aztecs", 3, "", ""),
    ("Tenochtitlan", "Aztecs", 6, "", ""), ("Michoacan", "Aztecs", 3, "", ""),
    ("Sonora", "Aztecs", 1, "", ""),
    ("Panama", "Castile", 2, "Animist", "Cueva"), ("Darien", "Incas", 1, "", ""),
    ("Quito", "Incas", 4, "", ""), ("Cusco", "Incas", 6, "", ""), ("Chile", "Incas", 3, "", ""),
    ("Bogota", "Incas", 3, "", ""), ("Lima", "Incas", 5, "", ""), ("Potosi", "Incas", 4, "", ""),
    ("Charcas", "Incas", 2, "", ""), ("Arauco", "Incas", 2, "", ""),
]
_UNSETTLED = {"Florida", "Tlaxcala", "Panama"}
_SEA_LINKS = [("Andalucia", "Cuba"), ("Bretagne", "Florida"), ("Portugal", "Panama"),
              ("Valencia", "Corsica"), ("Corsica", "Roma"), ("Granada", "Valencia")]

GOVERNMENTS = [
    {"government": "Tribal", "tribal": "yes", "trait": "x5 military (at most 60)"},
    {"government": "Feudal Monarchy", "monarchy": "yes", "feudal": "yes",
     "civil war before enlightenment": "yes", "military %": 10,
     "trait": "levies: +10% military"},
    {"government": "Despotic Monarchy", "monarchy": "yes",
     "civil war before enlightenment": "yes", "military %": 20, "income %": -10,
     "trait": "a standing army: +20% military, -10% income"},
    {"government": "Absolute Monarchy", "monarchy": "yes", "income %": 10,
     "trait": "intendants: +10% income"},
    {"government": "Elective Monarchy", "monarchy": "yes", "trait": "none"},
    {"government": "Constitutional Monarchy", "monarchy": "yes", "income bonus": 2,
     "trait": "a parliament: +2 income"},
    {"government": "Merchant Republic", "income %": 20, "military %": -10,
     "trait": "trade: +20% income, -10% military"},
    {"government": "Liberal Democracy", "income %": 15, "trait": "+15% income"},
    {"government": "Social Democracy", "income bonus": 3, "trait": "+3 income"},
]
_ENLIGHTENED = "Absolute Monarchy, Constitutional Monarchy, Merchant Republic, " \
               "Liberal Democracy, Social Democracy"
TECHNOLOGIES = [
    {"tech": "Printing Press", "year": 1550},
    {"tech": "Gunpowder Armies", "year": 1600},
    {"tech": "Banking", "year": 1620, "acceptable governments": "Absolute Monarchy, "
     "Constitutional Monarchy, Merchant Republic, Elective Monarchy, Liberal Democracy, "
     "Social Democracy, Feudal Monarchy"},
    {"tech": "Enlightenment", "year": 1650, "acceptable governments": _ENLIGHTENED},
    {"tech": "Steam Engine", "year": 1680, "acceptable governments": _ENLIGHTENED},
]
_OLD = "Printing Press, Gunpowder Armies"
# state, player, government, religion, culture, capital, stability, happiness, extra
_STATES = [
    ("Castile", "Ann", "Feudal Monarchy", "Catholic", "Iberian", "Toledo", 3, 4, {}),
    ("Francia", "Ben", "Absolute Monarchy", "Catholic", "Gallic", "Paris", 4, 4, {}),
    ("Saxony", "Cleo", "Feudal Monarchy", "Reformed", "Germanic", "Sachsen", 3, 3,
     {"at happiness 1": "civil war"}),
    ("Venice", "Dario", "Merchant Republic", "Catholic", "Italic", "Venezia", 4, 4, {}),
    ("Muscovy", "Eva", "Despotic Monarchy", "Orthodox", "Slavic", "Moskva", 2, 3,
     {"pestilence": "yes"}),
    ("Ottomans", "Farid", "Despotic Monarchy", "Sunni", "Turkish", "Anatolia", 3, 4, {}),
    ("Navarre", "", "Feudal Monarchy", "Catholic", "Basque", "Navarra", 3, 4,
     {"overlord": "Castile"}),
    ("Granada", "", "Despotic Monarchy", "Sunni", "Andalusi", "Granada", 2, 3, {}),
    ("Bohemia", "", "Feudal Monarchy", "Catholic", "Bohemian", "Bohmen", 3, 4,
     {"union with": "Saxony"}),
    ("Poland", "", "Elective Monarchy", "Catholic", "Polish", "Polska", 3, 4, {}),
    ("Aztecs", "", "Tribal", "Animist", "Nahua", "Tenochtitlan", 2, None, {}),
    ("Incas", "", "Tribal", "Animist", "Andean", "Cusco", 2, None, {}),
]


def _grid(rows: list[tuple], width: int) -> dict[str, list[str]]:
    names = [r[0] for r in rows]
    out: dict[str, list[str]] = {n: [] for n in names}
    for i, name in enumerate(names):
        for j in (i + 1, i + width):
            if j < len(names) and (j == i + width or j % width):
                out[name].append(names[j])
                out[names[j]].append(name)
    return out


def _provinces(states: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    links: dict[str, list[str]] = {}
    for a, b in _SEA_LINKS:
        links.setdefault(a, []).append(b)
        links.setdefault(b, []).append(a)
    rows = []
    for land, width, continent in ((_OCCIDENS, 8, OCCIDENS), (_NOVATERRA, 5, NOVATERRA)):
        borders = _grid(land, width)
        for name, owner, value, religion, culture in land:
            state = states[owner]
            tribal = state["government"] == "Tribal"
            rows.append({"province": name, "owner": owner, "value": value,
                         "unsettled": "yes" if tribal or name in _UNSETTLED else "",
                         "religion": religion or state["religion"],
                         "culture": culture or state["culture"], "continent": continent,
                         "borders": ", ".join(borders[name]),
                         "sea links": ", ".join(links.get(name, ()))})
    return rows


def _incomes(states: list[dict[str, Any]], provinces: list[dict[str, Any]]) -> None:
    """The turn's income as the opening of turn 2 wrote it (with the example's traits)."""
    traits = {g["government"]: g for g in GOVERNMENTS}
    from .tables import Government

    for row in states:
        base = sum(1 if p["unsettled"] else p["value"] for p in provinces
                   if p["owner"] == row["state"])
        trait = traits[row["government"]]
        government = Government(row["government"], 0, False, False, False, False,
                                trait.get("income bonus", 0), trait.get("income %", 0), 0, "")
        modifiers = [m for m, on in (("Anarchy", row["stability"] <= 2 and
                                      row["government"] != "Tribal"),
                                     ("Pestilence", row.get("pestilence") == "yes")) if on]
        amount, note = income(base, collapse=False, modifiers=modifiers, government=government)
        row["income"], row["spendable"], row["income note"] = amount, amount, note
    by_name = {r["state"]: r for r in states}
    for row in states:
        if row.get("overlord"):
            tribute = row["income"] * Decimal("0.25")
            row["spendable"] -= tribute
            by_name[row["overlord"]]["spendable"] += tribute
    for row in states:
        for key in ("income", "spendable"):
            row[key] = float(row[key]) if row[key] % 1 else int(row[key])


def example_game() -> tuple[dict[str, list[dict[str, Any]]], list[dict[str, Any]], dict]:
    """(tables, orders, settings) of the example game."""
    states = []
    for name, player, government, religion, culture, capital, stability, happy, extra \
            in _STATES:
        tribal = government == "Tribal"
        states.append({"state": name, "player": player, "government": government,
                       "religion": religion, "culture": culture, "capital": capital,
                       "stability": stability, "happiness": happy,
                       "techs": "Printing Press" if tribal else _OLD,
                       "military": 0, **extra})
    provinces = _provinces({s["state"]: s for s in states})
    _incomes(states, provinces)
    timers = [{"timer": "T1", "kind": "colonization", "owner": "Castile",
               "subject": "Tlaxcala", "started on turn": 1, "order row": 4,
               "turns left": 0, "due on turn": 1, "paid": 2, "status": "running",
               "note": "started on turn 1"}]
    alliances = [{"alliance": "Holy League", "members": "Venice, Francia",
                  "note": "formed on turn 1"},
                 {"alliance": "Northern Compact", "members": "Saxony, Muscovy",
                  "note": "formed on turn 1"}]
    orders = [
        {"player": "Castile", "order": "invest military", "amount": 12},
        {"player": "Castile", "order": "colonize", "province": "Tlaxcala", "amount": 1},
        {"player": "Castile", "order": "declare war", "state": "Granada",
         "continent": OCCIDENS},
        {"player": "Castile", "order": "convert culture", "province": "Aragon",
         "amount": 2},
        {"player": "Francia", "order": "invest military", "amount": 14},
        {"player": "Francia", "order": "convert religion", "province": "Flandre",
         "amount": 6},
        {"player": "Francia", "order": "raise stability"},
        {"player": "Saxony", "order": "invest military", "amount": 10},
        {"player": "Saxony", "order": "convert religion", "province": "Westfalen",
         "amount": 2},
        {"player": "Bohemia", "order": "invest military", "amount": 5},
        {"player": "Venice", "order": "invest military", "amount": 12},
        {"player": "Venice", "order": "subsidy", "state": "Poland", "amount": 2},
        {"player": "Venice", "order": "cede province", "province": "Dalmatia",
         "state": "Ottomans"},
        {"player": "Ottomans", "order": "accept province", "province": "Dalmatia"},
        {"player": "Muscovy", "order": "reform government",
         "government": "Absolute Monarchy"},
        {"player": "Muscovy", "order": "invest military", "amount": 8},
        {"player": "Muscovy", "order": "raise stability"},
        {"player": "Ottomans", "order": "invest military", "amount": 16},
        {"player": "Ottomans", "order": "declare war", "state": "Venice",
         "continent": OCCIDENS},
        {"player": "Granada", "order": "invest military", "amount": 2},
    ]
    gm_orders = [{"player": "Poland", "order": "stability hit"},
                 {"player": "Francia", "order": "happiness hit", "choice": "national"}]
    tables = {
        "States": states,
        "Provinces": provinces,
        "Governments": GOVERNMENTS,
        "Technologies": TECHNOLOGIES,
        "Alliances": alliances,
        "Timers": timers,
        "GM orders": gm_orders,
    }
    settings = {"game": "Example: Decades of Occidens and Novaterra", "seed": "example-seed",
                "turn": 2, "start year": 1600, "stability cost": 6, "stability upkeep": 0,
                "happiness drift": "d3-2",
                "example note": "stability cost, stability upkeep and happiness drift, and the "
                                "Governments and Technologies tabs, are this example's, not the "
                                "rulebook's: decades.txt names no such number"}
    return tables, orders, settings
