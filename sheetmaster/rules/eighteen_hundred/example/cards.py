"""The example game's card catalogue, written in the effect vocabulary. The source names a
few cards (the three basic policies, Industrial Agriculture, Industrial Policy, Research
Institutions and Grants, Stock Exchanges, Diplomatic Action, the Great War, Conquest) and
prints none of their text: every number and effect here is the example's, not the
rulebook's. It uses every clause of the vocabulary (a test checks it)."""

from __future__ import annotations

from typing import Any


def _card(name: str, deck: str, **columns: Any) -> dict[str, Any]:
    row = {"card": name, "deck": deck}
    row.update({k.replace("_", " "): v for k, v in columns.items()})
    return row


def _policy(name: str, category: str, **kw: Any) -> dict[str, Any]:
    return _card(name, "development", variety="policy", category=category, **kw)


def _tech(name: str, category: str, era: str, tier: int, **kw: Any) -> dict[str, Any]:
    return _card(name, "development", variety="technology", category=category, era=era,
                 tier=tier, **kw)


def _institution(name: str, **kw: Any) -> dict[str, Any]:
    return _card(name, "development", variety="institution", **kw)


START = [
    # "You start the game with three basic policies" (L72), by meaning (F3)
    _policy("Autocracy", "political", start="yes", commerce_slots=2, reward="draw admin 1"),
    _policy("Landed Gentry", "economic", start="yes", food_slots=2, reward="prosperity 1",
            effects="commerce 1"),
    _policy("Early Industrialization", "industrial", start="yes", production_slots=2,
            reward="build Market"),
    # the play mat's technologies (F2): tier 0
    _tech("Subsistence Farming", "food", "", 0, start="yes",
          effects="deficit loss 1 per food"),
    _tech("Three-Field System", "agricultural", "", 0, start="yes", effects="farms per pop 1"),
    _tech("Muskets", "military", "", 0, start="yes", effects="battle bonus 1 defence"),
    _tech("Dirt Roads", "infrastructure", "", 0, start="yes",
          effects="pops per market 2; move pops 1"),
    _tech("Couriers", "communication", "", 0, start="yes", effects="war actions 2"),
]

POLICIES = [
    _policy("Constitutional Monarchy", "political", commerce_slots=3, reward="prosperity 2",
            effects="commerce 1"),
    _policy("Republic", "political", effects="prosperity 1"),
    _policy("Mercantilism", "economic", effects="commerce 2; move regiments 1"),
    _policy("Free Trade", "economic", commerce_slots=2, reward="trade token",
            effects="move pops 1"),
    # L69: "if you've placed three production and an Industrial Policy card, you can activate
    # it during your turn by discarding an Admin Card ... and build a factory."
    _policy("Industrial Policy", "industrial", production_slots=3, cost="discard admin 1",
            reward="build Factory"),
    _policy("Laissez-faire", "industrial", production_slots=2, reward="build any",
            effects="production 1"),
]

INSTITUTIONS = [
    _institution("Stock Exchange", copies=2, effects="commerce 2"),
    _institution("Research Institution", commerce_slots=2, reward="search technology"),
    _institution("Industrial Agriculture", production_slots=2,
                 effects="food per production token 1"),
    _institution("Colonial Office", commerce_slots=3, needs="commerce 2",
                 reward="trade token"),
    _institution("Admiralty", production_slots=2, reward="remove trade token"),
    _institution("War Ministry", production_slots=2, reward="regiment"),
    _institution("Census Bureau", food_slots=2, reward="draw admin 1"),
    _institution("Military Academy", production_slots=2, cost="discard military 1",
                 reward="draw military 2"),
    _institution("Secret Police", commerce_slots=2, cost="prosperity 1", reward="convert 1"),
    _institution("Agricultural Society", food_slots=1, production_slots=1,
                 reward="build Farm"),
]

TECHNOLOGIES = [
    _tech("Crop Rotation", "food", "I", 1, effects="deficit loss 1"),
    _tech("Seed Drill", "agricultural", "I", 1, effects="farms per pop 2"),
    _tech("Line Infantry", "military", "I", 1, effects="battle bonus 1"),
    _tech("Turnpikes", "infrastructure", "I", 1, effects="pops per market 3; move pops 2"),
    _tech("Semaphore", "communication", "I", 1, effects="war actions 3"),
    _tech("Canning", "food", "II", 2, requires="Crop Rotation", effects="food 1"),
    _tech("Steam Threshing", "agricultural", "II", 2, requires="Seed Drill",
          effects="farms per pop 2; food 1"),
    _tech("Rifles", "military", "II", 2, requires="Line Infantry", effects="battle bonus 2"),
    _tech("Railways", "infrastructure", "II", 2,
          effects="pops per market 4; move pops 2; move regiments 2"),
    _tech("Telegraph", "communication", "II", 2, effects="war actions 4"),
    _tech("Refrigeration", "food", "III", 3, requires="Canning", effects="food 2"),
    _tech("Combine Harvester", "agricultural", "III", 3, effects="farms per pop 3"),
    _tech("Machine Guns", "military", "III", 3, requires="Rifles",
          effects="battle bonus 2; battle bonus 1 defence"),
    _tech("Electric Tramways", "infrastructure", "III", 3,
          effects="pops per market 5; move pops 3; move regiments 2"),
    _tech("Telephone", "communication", "III", 3, effects="war actions 5"),
]

ADMIN = [
    _card("Diplomatic Action", "admin", copies=2, effects="diplomatic action"),
    _card("Land Reform", "admin", reward="build Farm"),
    _card("Research Grant", "admin", reward="search technology"),
    _card("Royal Wedding", "admin", reward="prosperity 2"),
    _card("Expulsion", "admin", reward="exterminate 1", effects="aggressive"),
    _card("Propaganda", "admin", reward="convert 1", effects="aggressive"),
    _card("Trade Concession", "admin", copies=2, reward="trade token"),
    _card("Embargo", "admin", reward="remove trade token", effects="aggressive"),
    _card("Conscription Act", "admin", reward="regiment"),
    _card("Spy Network", "admin", reward="draw military 1"),
]

MILITARY = [
    _card("Forced March", "military", copies=2, effects="battle bonus 1"),
    _card("Artillery Barrage", "military", effects="battle bonus 2 marked"),
    _card("Entrenchment", "military", effects="battle bonus 2 defence"),
    _card("Cavalry Charge", "military", effects="battle bonus 2 attack"),
]

GLOBAL_EVENTS = [
    # L88: "If a Great War Global Event Card was drawn, all players fight a war." Two of ten,
    # so each era of eight rounds draws at least one.
    _card("Great War", "global event", copies=2, effects="great war"),
    _card("Good Harvest", "global event", effects="food 1"),
    _card("Famine", "global event", effects="food -1; deficit loss 1"),
    _card("Industrial Boom", "global event", effects="production 1"),
    _card("Trade Fair", "global event", effects="commerce 1; pops per market 2"),
    _card("Age of Revolutions", "global event", effects="prosperity -1"),
    _card("Emigration Wave", "global event", effects="move pops 1; farms per pop 1"),
    _card("Military Reforms", "global event",
          effects="war actions 1; battle bonus 1; move regiments 1"),
    _card("Age of Enlightenment", "global event", effects="prosperity 1"),
]

AMBITIONS = [
    # L101: "by a player with the Conquest ambition"
    _card("Conquest", "ambition", effects="conquest; points per province 2; "
                                           "points per battle won 2"),
    _card("Industrial Giant", "ambition", effects="points per factory 3; points per city 1"),
    _card("Merchant Empire", "ambition", effects="points per trade route 3; "
                                                  "points per market 1"),
    _card("Enlightened State", "ambition", effects="points per institution 2; "
                                                    "points per technology 1"),
    _card("Populous Realm", "ambition", effects="points per pop 1; points 2"),
    _card("Breadbasket", "ambition", effects="points per farm 2; points 3"),
    _card("Military Power", "ambition", effects="points per regiment 3"),
]

CATALOGUE = [*START, *POLICIES, *INSTITUTIONS, *TECHNOLOGIES, *ADMIN, *MILITARY,
             *GLOBAL_EVENTS, *AMBITIONS]
