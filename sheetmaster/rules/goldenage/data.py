"""The numbers and names Golden Age 1861 gives, each beside the rule text it comes from.

Every number the source leaves to the printed rulebook ("see page N") is a GM setting
instead (settings.py); nothing here is invented.
"""

from __future__ import annotations

SEASONS = ("Spring", "Summer", "Autumn", "Winter")
#: "Autumn" and "Fall" are one season (digest F3).
SEASON_ALIASES = (("fall", "Autumn"),)
FIRST_YEAR = 1861

# -- units -------------------------------------------------------------------------------
INFANTRY, CONSCRIPT, GENERAL, ARTILLERY, LANDSHIP = (
    "Infantry", "Conscript", "General", "Artillery", "Landship")
NATIONALIST_REBEL, REACTIONARY_REBEL = "Nationalist Rebel", "Reactionary Rebel"
WARSHIP, BATTLESHIP, SUBMARINE = "Warship", "Battleship", "Submarine"
UNITS_RULE = ("Type: Conscript, Infantry, General, Artillery, Landship, Warship, Submarine, "
              "Nationalist Rebel etc")
LAND_TYPES = (INFANTRY, CONSCRIPT, GENERAL, ARTILLERY, LANDSHIP, NATIONALIST_REBEL,
              REACTIONARY_REBEL)
SEA_TYPES = (WARSHIP, BATTLESHIP, SUBMARINE)
UNIT_TYPES = LAND_TYPES + SEA_TYPES
REBEL_TYPES = (NATIONALIST_REBEL, REACTIONARY_REBEL)
#: the side rebels fight for: hostile to every nation.
REBELS = "Rebels"

CAPACITY_RULE = (
    "Embarkment capacity requirement: (1 for everything except Landships which require 2). "
    "Infantry capacity: 1 for all units except battleships which have 2 (Infantry take 1 "
    "capacity, and Landships take 2. Fleet capacity can be combined by issuing the embark "
    "order to multiple naval units.) Support capacity: 2 (Artillery and Generals each take "
    "up 1 support capacity)")
#: infantry capacity a land unit needs aboard (Conscripts like Infantry: digest F57).
INFANTRY_NEED = {INFANTRY: 1, CONSCRIPT: 1, LANDSHIP: 2}
SUPPORT_NEED = {ARTILLERY: 1, GENERAL: 1}
#: what a ship carries; Submarines carry nothing (digest F39: "the order text says Warship").
INFANTRY_CAPACITY = {WARSHIP: 1, BATTLESHIP: 2, SUBMARINE: 0}
SUPPORT_CAPACITY = {WARSHIP: 2, BATTLESHIP: 2, SUBMARINE: 0}
CARRIERS = (WARSHIP, BATTLESHIP)

ZOC_RULE = "Zone of control: 0 for all ships except Battleships, which have 1"
ZONE_OF_CONTROL = {BATTLESHIP: 1}

MARCH_RULE = ("Non-hostile movement. Infantry enter a neutral or friendly tile and do not "
              "initiate combat ... This order is also applicable to the following units: "
              "Artillery, General, Landship.")
MARCHERS = (INFANTRY, ARTILLERY, GENERAL, LANDSHIP)
#: "Land actions and movement by foot or landship (marching and invading)"
INVADERS = (INFANTRY, LANDSHIP)
#: entrench, supports and cut support are Infantry orders.
INFANTRY_ONLY = (INFANTRY,)
#: units that fight and fall in land combat; Generals and Artillery go to steps 10 and 11.
COMBAT_TYPES = (INFANTRY, CONSCRIPT, LANDSHIP, NATIONALIST_REBEL, REACTIONARY_REBEL)

# -- buildings ------------------------------------------------------------------------------
PORT, FACTORY, ACADEMY, FORT = "Port", "Factory", "Academy", "Fort"
BUILDING_TYPES = (PORT, FACTORY, ACADEMY, FORT)
ACTIVE, MOTHBALLED, REACTIVATING = "active", "mothballed", "reactivating"
#: a fort being reactivated is 'mothballed' in the Buildings tab; its running 'fort
#: reactivation' timer alone says so (REACTIVATING is what orders and reports call it).
FORT_STATES = (ACTIVE, MOTHBALLED)
RAILROAD = "Railroad"

# -- the Settings tab's items ----------------------------------------------------------------
INCOME, TECH_UPGRADE = "Income", "Tech upgrade"
SETTINGS_ITEMS = (*UNIT_TYPES, *BUILDING_TYPES, RAILROAD, INCOME, TECH_UPGRADE)

# -- numbers the source gives ---------------------------------------------------------------
MAX_TECH = 5
RAIL_RULE = ("At tech levels 1-3, railroads provide +3 movement to land units along rail "
             "connections. At tech level 4, the movement bonus is +4. At tech level 5, the "
             "movement bonus is +5.")
RAIL_BONUS = {1: 3, 2: 3, 3: 3, 4: 4, 5: 5}
LANDING_RULE = ("If the target adjacent coastal province does not contain a friendly Port, or "
                "the disembarking naval unit has not entered the Port, the disembarked forces "
                "will land but may not receive orders and will suffer a -3 penalty to each "
                "die roll in combat until the turn ends.")
LANDING_PENALTY = 3
CUT_RULE = ("Infantry blocks any support offered by the adjacent target forces. If the "
            "Infantry ordered to cut support numbers less than half of the number of the "
            "target force, 1d6 is rolled. On a result of 1-2, one of the Infantry units "
            "ordered to cut support is disbanded.")
CUT_DIE, CUT_LOSES_AT_MOST = 6, 2
NAVAL_COMBAT_RULE = ("Fleets fight three engagements. The fleet which wins at least two "
                     "engagements is the victor.")
ENGAGEMENTS, ENGAGEMENTS_TO_WIN = 3, 2
UPGRADE_PROVINCE_RULE = ("`upgrade-province` increases the land value of a province by 1, "
                         "costs 10 currency, can only be done once per province, and takes "
                         "effect one year after the currency is spent.")
UPGRADE_PROVINCE_COST, UPGRADE_PROVINCE_SEASONS = 10, 4
MOVE_CAPITAL_RULE = (
    "During peacetime only, the Capital building moves to target (sovereign peaceful core "
    "province controlled by and connected to existing capital) 4 turns after the order is "
    "issued, and costs (50 currency multiplied by tech level) at the end of those 4 turns. "
    "If the peacetime or target conditions are violated during one of turns leading up to "
    "the move, the order is canceled.")
MOVE_CAPITAL_TURNS, MOVE_CAPITAL_COST_PER_TECH = 4, 50
CANAL_RULE = ("`invest-canal` spends up to 50 currency per year in a canal which is under "
              "construction.")
CANAL_PER_YEAR = 50
BATTLESHIP_RULE = "Requires Level 4 Port. Limit of 2 per Nation."
BATTLESHIP_PORT_LEVEL, BATTLESHIP_LIMIT = 4, 2
FORT_RULE = (
    "Construction requires at least one Entrenched Infantry present in the province until "
    "the the Fort is complete. If this condition is violated, the construction is canceled "
    "and half the cost is refunded. Limit 1 Fort per province. Requires upkeep to be paid "
    "each Spring. If a province with a Fort is occupied by an enemy, the Fort will be "
    "mothballed immediately and may only be reactivated when the province is fully "
    "controlled.")
REACTIVATE_RULE = ("The target fort will be reactivated over the course of two seasons while "
                   "at least one Infantry is Entrenched in the province. Reactivation costs "
                   "half the construction cost of the Fort.")
REACTIVATION_SEASONS = 2
SHIP_SUPPLY_RULE = (
    "If a ship ends the turn outside of the range of a friendly Port, it will receive a "
    "supply penalty. After the 4th supply penalty, the ship will be left abandoned at sea and "
    "becomes available to be recovered by other ships (belonging to any Nation) which end "
    "the turn in the same sea zone.")
ABANDONED_AT = 4
ABANDONED_RULE = ("Abandoned ship waits 4 seasons to be recovered, before being removed from "
                  "play.")
ABANDONED_SEASONS = 4
INTEGRATION_RULE = ("Infantry may optionally include intent to diplomatically integrate the "
                    "target Neutral province. Costs a lot of money, and results in Annexation "
                    "after 3 years.")
INTEGRATION_SEASONS = 12
ANNEX_RULE = ("Forceful annexation: after occupation, nation opts to annex. Takes 4 years with "
              "special risks. Nationalist revolt checks every Summer until integration. "
              "Annexation paused while nationalist rebels occupy the province.")
PUPPET_RULE = "Puppeting: after occupation, nation opts to puppet. Takes 4 years"
ANNEX_SEASONS = PUPPET_SEASONS = 16
SALVAGE_RULE = ("Use of captured superior military technology (Artillery, Warships, "
                "Battleships) for 1 year before salvaging for half of unit cost.")
SALVAGE_SEASONS = 4
CAPITAL_RULE = (
    "Number of garrison units is equal to the economic value of the province. Strength of "
    "garrison units is equal to Infantry at tech levels 1 and 2, and equal to Conscripts at "
    "tech levels 3, 4, and 5. Garrison will always Entrench automatically and cannot be "
    "given other orders.")
CAPITAL_FALL_RULE = (
    "Whenever the current capital or provisional capital is occupied, one half of the "
    "defending Nation's reserve currency is lost, and the next seasonal income is reduced "
    "by half. If the capital or current provisional capital is occupied, the defending "
    "Nation must immediately order the establishment of a new provisional capital at a "
    "valid site.")
EV_RULE = ("Economic Value (derived; \"base + factories + railroads\"); Upgraded? (increase "
           "base value by 1); Railroads increase the economic value of a province by +1 per "
           "railroad attached to that province.")
FACTORY_RULE = ("Number of Factories that can be built in each province is limited to "
                "(province economic value, divided by 3 and rounded up).")
PORT_RULE = ("Only 1 port may be built per province, even if the province borders multiple "
             "sea zones. A port in an occupied province will not provide income. A port in an "
             "occupied province can be used as a supply connection for the occupying force, "
             "but will not supply the adjacent provinces.")
