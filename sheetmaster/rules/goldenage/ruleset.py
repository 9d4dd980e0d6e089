"""The Golden Age 1861 ruleset, declared: tabs, orders, settings, and the source's twenty
steps of turn resolution in order (movement and combat simultaneous)."""

from __future__ import annotations

from sheetmaster.kit import LAND as BORDERS
from sheetmaster.kit import MapSpec, Phase, Ruleset, Units, in_seasons, on_setup

from .example import example_game
from .load import TIMER_LAYOUT, WRITTEN, build_world
from .orders import (
    DEPLOY,
    DISBANDS,
    ECONOMY,
    GATE,
    LAND,
    NAVAL,
    ORDER_COLUMNS,
    ORDER_KINDS,
    REWARD,
    TECH,
)
from .phases.administration import ADMIN_RULE
from .phases.aftermath import EQUIPMENT_RULE, GENERALS_RULE, capture_equipment, generals_retreat
from .phases.construction import PLACE_RULE
from .phases.economic import ECONOMY_RULE
from .phases.land_battle import LAND_RULE, move_land_units
from .phases.land_orders import RAIL_MOVE_RULE, read_land_orders
from .phases.land_results import COMBAT_RULE, settle_land_battles
from .phases.naval_combat import NAVAL_RULE, fight_at_sea
from .phases.naval_moves import OTHER_MOVE_RULE, ZOC_MOVE_RULE, move_other_ships, move_zoc_ships
from .phases.naval_orders import EMBARK_RULE, ENDS_MOVEMENT_RULE, read_naval_orders
from .phases.ownership import OWNERSHIP_RULE, update_ownership
from .phases.revolts import REVOLT_RULE, break_out_revolts
from .phases.season_end import (
    ADVANCE_RULE,
    INCOME_RULE,
    MAP_RULE,
    MISSIONS_RULE,
    advance_season,
    collect_income,
    issue_rewards,
    publish_map,
)
from .phases.setup import DEPLOY_RULE, deploy
from .phases.steps import build_and_spend, gate_and_administer
from .phases.supply import SUPPLY_RULE, update_supply
from .phases.tech import TECH_RULE, progress_tech
from .phases.upkeep import DISBAND_RULE, GATE_RULE, UPKEEP_RULE, disband_units, pay_upkeep
from .settings import (
    BLOCKADE_PORT,
    BLOCKADE_ZONE,
    CALENDAR,
    CANAL_START,
    CAPTURE_ARTILLERY,
    COASTAL_SUPPORT,
    DEFENSIVE_SUPPORT,
    ENTRENCH_BONUS,
    FORT_BONUS,
    INTEGRATION_PAYMENT,
    KILL_GENERAL,
    LAND_DIE,
    LAND_SUPPLY_LIMIT,
    NATIONALIST_CHANCE,
    NATIONALIST_REBELS,
    NAVAL_DIE,
    NORTHERN_PENALTY,
    PRESTIGE_INCOME,
    PROGRAMS_COST,
    REACTIONARY_CHANCE,
    REACTIONARY_REBELS,
    SETTINGS,
    SETTINGS_TAB,
    SHIPS_LOST,
    TECH_UNREST,
    ZOC_IMMUNE,
)
from .tables import STATE_TABLES

COMBAT = (LAND_DIE, ENTRENCH_BONUS, FORT_BONUS, DEFENSIVE_SUPPORT, COASTAL_SUPPORT,
          NORTHERN_PENALTY)

HOWTO = (
    "Write one order a row in the Orders tab. 'player' names the nation giving it (the "
    "rulebook's `as \"Brazil\"`). Leave 'turn' blank for the current season.",
    "Order every unit by its id (the Units tab). Movement and combat are simultaneous: the "
    "order of your rows does not matter for them. Economic orders are carried out in the "
    "order posted, after the battles.",
    "Land: march / invade (unit, to; invade: target = the nation whose forces you attack, or "
    "'any'; intent annex or puppet), entrench, offensive-support (unit, to, of), "
    "defensive-support (unit, of), cut-support (unit, of). Infantry given no order entrench.",
    "Sea: move (unit, path: sea zones in order, end with a province to enter its port), "
    "attack (unit, target), embark (unit = the ship(s), units), disembark (unit, units, to, "
    "intent march or invade), supply-coastal / support-coastal (unit, of), blockade (unit, "
    "province for a port).",
    "Each Spring your upkeep is paid first: if it is more than your currency, disband units "
    "(disband, disband-conscripts) or none of your orders are processed.",
    "Leave 'result' and 'reason' alone: sheetmaster fills them in. 'sheetmaster check' fills "
    "them before the deadline with 'ok' or what is wrong.",
)



#: the map picture: provinces in their owner's colour, capitals starred, occupied ones
#: hatched (Rebels grey), units counted per nation; ships at sea are not drawn.
MAP = MapSpec("Provinces", owner="owner", players_capital="capital", occupied_by="occupied by",
              label="name", links={BORDERS: "borders"}, seas="seas",
              units=(Units("Units", location="at", owner="nation", off_map=("Sea zones",)),))

RULESET = Ruleset(
    map=MAP,
    name="goldenage",
    title="Golden Age 1861 (seasons; simultaneous land and naval war)",
    version="1",
    tables=(*STATE_TABLES, SETTINGS_TAB),
    order_kinds=ORDER_KINDS,
    order_columns=ORDER_COLUMNS,
    phases=(
        Phase("setup", "Deploy the starting resources", deploy, DEPLOY_RULE,
              orders=(DEPLOY,), when=on_setup),
        Phase("0", "The disband gate; capitals, names and successions", gate_and_administer,
              GATE_RULE + " " + ADMIN_RULE, orders=GATE),
        Phase("1", "Pay military upkeep", pay_upkeep, UPKEEP_RULE, when=in_seasons("Spring")),
        Phase("2", "Disband units", disband_units, DISBAND_RULE, orders=DISBANDS),
        # 3-9: movement and combat are simultaneous: each phase runs once, over every
        # nation's orders at once, whatever order they were posted in.
        Phase("3", "Naval embarkment and disembarkment in port", read_naval_orders,
              EMBARK_RULE + " " + ENDS_MOVEMENT_RULE, orders=NAVAL),
        Phase("4", "Naval movement: zones of control", move_zoc_ships, ZOC_MOVE_RULE,
              settings=(ZOC_IMMUNE,)),
        Phase("5", "Other naval movement", move_other_ships, OTHER_MOVE_RULE,
              settings=(ZOC_IMMUNE,)),
        Phase("6", "Naval combat", fight_at_sea, NAVAL_RULE,
              settings=(NAVAL_DIE, SHIPS_LOST, BLOCKADE_ZONE, BLOCKADE_PORT)),
        Phase("7", "Land movement along railroads", read_land_orders, RAIL_MOVE_RULE,
              orders=LAND),
        Phase("8", "Land actions and movement by foot or landship", move_land_units, LAND_RULE,
              settings=COMBAT),
        Phase("9", "Land combat", settle_land_battles, COMBAT_RULE, settings=COMBAT),
        Phase("10", "Generals retreat or disband", generals_retreat, GENERALS_RULE,
              settings=(KILL_GENERAL,)),
        Phase("11", "Equipment captured or destroyed", capture_equipment, EQUIPMENT_RULE,
              settings=(CAPTURE_ARTILLERY,)),
        Phase("12", "Supply", update_supply, SUPPLY_RULE, settings=(LAND_SUPPLY_LIMIT,)),
        Phase("13", "Tech progression", progress_tech, TECH_RULE, orders=TECH,
              settings=(PROGRAMS_COST, TECH_UNREST)),
        Phase("14", "Revolts", break_out_revolts, REVOLT_RULE,
              settings=(NATIONALIST_CHANCE, NATIONALIST_REBELS, REACTIONARY_CHANCE,
                        REACTIONARY_REBELS)),
        Phase("15", "Ownership of provinces updated", update_ownership, OWNERSHIP_RULE,
              settings=(INTEGRATION_PAYMENT,)),
        Phase("16", "New units and buildings; economic orders", build_and_spend,
              PLACE_RULE + " " + ECONOMY_RULE, orders=ECONOMY,
              settings=(INTEGRATION_PAYMENT, CANAL_START)),
        Phase("17", "Missions and rewards", issue_rewards, MISSIONS_RULE, orders=(REWARD,)),
        Phase("18", "New map published", publish_map, MAP_RULE),
        Phase("19", "Collect income", collect_income, INCOME_RULE,
              when=in_seasons("Summer", "Winter"), settings=(PRESTIGE_INCOME,)),
        Phase("20", "Advance to the next season", advance_season, ADVANCE_RULE),
    ),
    build_world=build_world,
    written=WRITTEN,
    howto=HOWTO,
    example=example_game,
    settings=SETTINGS,
    calendar=CALENDAR,
    nouns={"territory": "province", "territories": "provinces", "gold": "currency",
           "player": "nation", "players": "nations"},
    lasting=("timers",),
    timer_layout=TIMER_LAYOUT,
    gm_orders=True,
)
