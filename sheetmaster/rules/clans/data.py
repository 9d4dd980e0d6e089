"""The fixed numbers of Isles of the Clans: flavours, armies, improvements, resources, techs,
advisors and religions, as clans.txt lists them."""

from __future__ import annotations

from dataclasses import dataclass

GRASSLAND, RIVERPLAINS, FOREST, MOUNTAIN = "Grassland", "Riverplains", "Forest", "Mountain"
#: "Some are Grasslands (no special icon)": a blank flavour is Grassland.
FLAVOURS = (GRASSLAND, RIVERPLAINS, FOREST, MOUNTAIN)
FLAVOUR_ALIASES = {"grasslands": GRASSLAND, "riverplain": RIVERPLAINS, "forests": FOREST,
                   "mountains": MOUNTAIN}

SEASONS = ("Spring", "Summer", "Autumn", "Winter")

#: "Every Clan starts with 1 Province ... a Castle ... 2 Spearman Armies ... 10000 Coins"
START_COINS = 10000
START_SPEARMEN = 2
EXTRAS = 2
EXTRA_COINS = 2500
MOVE_CAPITAL_COST = 2500
MOVE_CAPITAL_EVERY = 4
DEMOLISH_COST = 100
MAX_IMPROVEMENTS = 4
PROVINCE_TAX, CAPITAL_TAX = 500, 700


@dataclass(frozen=True)
class ArmyType:
    name: str
    rating: int
    cost: int
    upkeep: int


SPEARMEN, ARCHERS, CAVALRY = "Spearmen", "Archers", "Cavalry"
ARMY_TYPES = {
    SPEARMEN: ArmyType(SPEARMEN, 0, 500, 100),
    ARCHERS: ArmyType(ARCHERS, 2, 1000, 250),
    CAVALRY: ArmyType(CAVALRY, 6, 1500, 500),
}
#: "Spearmen and Bowmen": the advisors' and Feudalism's Bowmen are the Archers.
ARMY_ALIASES = {"spearman": SPEARMEN, "bowmen": ARCHERS, "archer": ARCHERS,
                "bowman": ARCHERS, "cavalries": CAVALRY}
BUSHIDO_CAVALRY = ArmyType(CAVALRY, 6 + 4, 2000, 800)


@dataclass(frozen=True)
class Improvement:
    name: str
    cost: int
    #: flavours it may stand on (empty: any); Rice Farms also on Grassland with Irrigation.
    flavours: tuple[str, ...] = ()
    #: needs a province adjacent to the Sea.
    coastal: bool = False
    #: flavours on which a province supports two of it.
    twice_on: tuple[str, ...] = ()
    #: the resource it provides, one unit a season.
    provides: str = ""
    spawn_point: bool = False


ARMY_CAMP, CASTLE, LIBRARY, MINE = "Army Camp", "Castle", "Library", "Mine"
RICE_FARM, FISHERY, SILK_FARM = "Rice Farm", "Fishery", "Silk Farm"
WOODCUTTER, LACQUER, TEA = "Woodcutter Camp", "Lacquer Orchard", "Tea Plantation"
TEMPLE, MARKETPLACE, MINT, DOCK = "Temple", "Marketplace", "Mint", "Dock"
IMPROVEMENTS = {i.name: i for i in (
    Improvement(ARMY_CAMP, 800, spawn_point=True),
    Improvement(CASTLE, 3000, spawn_point=True),
    Improvement(LIBRARY, 1200),
    Improvement(MINE, 1800, (MOUNTAIN,)),
    Improvement(RICE_FARM, 1000, (RIVERPLAINS,), twice_on=(RIVERPLAINS,)),
    Improvement(FISHERY, 600, coastal=True),
    Improvement(SILK_FARM, 2000, (RIVERPLAINS, FOREST), twice_on=(RIVERPLAINS,),
                provides="Silk"),
    Improvement(WOODCUTTER, 700, (FOREST,), twice_on=(FOREST,), provides="Timber"),
    Improvement(LACQUER, 1500, (FOREST, GRASSLAND), twice_on=(FOREST, GRASSLAND),
                provides="Lacquer"),
    Improvement(TEA, 800, (GRASSLAND, MOUNTAIN), twice_on=(GRASSLAND, MOUNTAIN),
                provides="Tea"),
    Improvement(TEMPLE, 1500),
    Improvement(MARKETPLACE, 1000),
    Improvement(MINT, 1500),
    Improvement(DOCK, 1200, coastal=True),
)}
IMPROVEMENT_ALIASES = {"woodcutter farm": WOODCUTTER, "woodcutter": WOODCUTTER,
                       "fisheries": FISHERY, "docks": DOCK, "camp": ARMY_CAMP,
                       "market": MARKETPLACE, "tea farm": TEA}

#: "Resource Prices" at the Marketplace.
PRICES = {"Silk": 700, "Timber": 100, "Lacquer": 500, "Tea": 300, "Copper": 400, "Iron": 200,
          "Silver": 600, "Sulphur": 200}
#: "The Resources that can be found in Mountains are: Copper, Iron, Silver and Sulphur."
MOUNTAIN_RESOURCES = ("Copper", "Iron", "Silver", "Sulphur")
PROSPECT_COST = 500
#: "Each of 4 Resources have 20% chance to be found, the remainder 20% earns you nothing."
PROSPECT_CHANCE = 20
TARGETED_CHANCE = 50


@dataclass(frozen=True)
class Tech:
    name: str
    cost: int
    requires: str = ""


TECHS = {t.name: t for t in (
    Tech("Agriculture", 90, "Irrigation"),
    Tech("Alchemy", 90),
    Tech("Administration", 70),
    Tech("Bureaucracy", 90, "Administration"),
    Tech("Bushido", 90, "Feudalism"),
    Tech("Carpentry", 90),
    Tech("Fireblood", 120, "Alchemy"),
    Tech("Feudalism", 90),
    Tech("Geology", 90),
    Tech("Irrigation", 70),
    Tech("Masonry", 90),
    Tech("Papermaking", 120, "Alchemy"),
    Tech("Shipbuilding", 90, "Carpentry"),
    Tech("Shogunate", 90, "Bushido"),
    Tech("Siegecraft", 70),
    Tech("Steelmaking", 120, "Alchemy"),
    Tech("Tactics", 70),
    Tech("Trade Law", 70),
)}
ENLIGHTENMENT = ("Agriculture", "Bureaucracy", "Fireblood", "Shipbuilding")
ENLIGHTENMENT_OTHERS = 10

GEOMANCER = "Geomancer"
GEN_CAVALRY = "General of the Cavalry"
GEN_FORTIFICATIONS = "General of the Fortifications"
GEN_FRONT = "General of the Front"
GEN_GUARD = "General of the Guard"
GEN_INFANTRY = "General of the Infantry"
GEN_REAR = "General of the Rear"
HIGH_PRIEST = "High Priest"
MASTER_MINT = "Master of the Mint"
MASTER_SHIPS = "Master of the Ships"
MIN_AGRICULTURE = "Minister of Agriculture"
MIN_CONSTRUCTIONS = "Minister of Constructions"
MIN_TAXES = "Minister of Taxes"
MIN_TRADE = "Minister of Trade"
SCHOLAR = "Scholar"
SPYMASTER = "Spymaster"
#: every advisor skill, in the order clans.txt lists them (the traveller's die reads this).
SKILLS = (GEOMANCER, GEN_CAVALRY, GEN_FORTIFICATIONS, GEN_FRONT, GEN_GUARD, GEN_INFANTRY,
          GEN_REAR, HIGH_PRIEST, MASTER_MINT, MASTER_SHIPS, MIN_AGRICULTURE, MIN_CONSTRUCTIONS,
          MIN_TAXES, MIN_TRADE, SCHOLAR, SPYMASTER)
ADVISOR_PRICE, ADVISOR_WAGE, GREAT_WAGE, TRAVELLER_PRICE = 1000, 200, 500, 200
ADVISOR_SLOTS = 3
#: "there's 1 in 10 chance that you might acquire a Great Advisor": a 1 on a d10.
GREAT_ODDS = 10

SPIRITS, ZEN, PHILOSOPHERS = "Spirits", "Zen", "Philosophers"
RELIGIONS = (SPIRITS, ZEN, PHILOSOPHERS)
TEMPLE_COVERS = 3
