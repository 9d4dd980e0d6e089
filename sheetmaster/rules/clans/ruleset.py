"""The clans ruleset, declared: tabs, orders, and the season's phases in order."""

from __future__ import annotations

from sheetmaster.kit import LAND, POSTING_ORDER, MapSpec, Phase, Ruleset, Units

from .example import example_game
from .load import WRITTEN, build_world
from .orders import (
    BUILD,
    EXTRAS,
    MOVE,
    NINJAS,
    ORDER_COLUMNS,
    ORDER_KINDS,
    OTHER_ACTIONS,
    RAISE,
)
from .phases.actions import other_actions
from .phases.armies import MOVE_RULE, RAISE_RULE, move_armies, raise_armies
from .phases.building import BUILD_RULE, build_improvements
from .phases.court import TRAVELLER_RULE, end_court_season
from .phases.economy import TAX_RULE, UPKEEP_RULE, collect_income, pay_upkeep_and_wages
from .phases.independents import INDEPENDENTS_RULE, independents_act
from .phases.ninjas import NINJA_RULE, resolve_ninjas
from .phases.research import POINTS_RULE, add_research_points
from .phases.setup import EXTRAS_RULE, SETUP_RULE, start_season, take_extras
from .phases.victory import VICTORY_RULE, check_victory
from .settings import CALENDAR, NINJA_COST, SETTINGS, TRAVELLER_CHANCE
from .tables import TABLES

TURN_ORDER_RULE = (
    "Global Turn is divided into Player Turns; when a Player posts their orders, GM processes "
    "them, posts results, and other Player posts their orders, till all Players' orders are "
    "processed. Only then a new Global Turn begins. Orders are processed in this order: "
    "Raising Armies -> Army/Unit Movements -> Building Improvements -> All other actions "
    "(NO CONDITIONAL ORDERS WHATSOEVER)"
)

HOWTO = (
    "Write one order a row in the Orders tab, earliest first: each clan's turn is resolved "
    "in full, one clan after another, in the order of their first order row.",
    "Within your turn sheetmaster takes your starting extras, then raises your army, then "
    "moves your armies, then builds, then does everything else in the order you posted it. "
    "Ninjas strike at the end of the season. There are no conditional orders.",
    "Fill 'player' with your clan's name and pick the order from the list. Leave 'turn' blank "
    "for the current turn. Fill only the columns your order needs (see below).",
    "Leave 'result' and 'reason' alone: sheetmaster fills them in. 'sheetmaster check' fills "
    "them before the deadline with 'ok' or what is wrong.",
    "Amounts are plain whole numbers (500, not 500.5 or five hundred). Names are not "
    "case-sensitive. Armies are named in the Armies tab; name a new army in 'army' if you like.",
    "Ninja orders are read from this tab like any other: if they must stay secret, send them "
    "to your GM through a form (see the README).",
)


def _each(key: str, title: str, run, rule: str, orders: tuple[str, ...]) -> Phase:
    """A step of each clan's turn: clans one after another, in posting order."""
    return Phase(key, title, run, rule, order=POSTING_ORDER, orders=orders)


#: the map picture: provinces in their clan's colour, each clan's capital starred, armies
#: counted per clan in each province (the Independents' in grey).
MAP = MapSpec("Provinces", owner="owner", players_capital="capital",
              units=(Units("Armies", location="province", owner="clan"),),
              links={LAND: "borders"}, seas="seas", nobody="Independent")

RULESET = Ruleset(
    name="clans",
    title="Isles of the Clans (seasons, clan after clan)",
    version="1",
    tables=TABLES,
    order_kinds=ORDER_KINDS,
    order_columns=ORDER_COLUMNS,
    phases=(
        Phase("1", "Start of the season: setup of new clans", start_season, SETUP_RULE),
        Phase("2", "Research points", add_research_points, POINTS_RULE),
        _each("3a", "Player turn: starting extras", take_extras, EXTRAS_RULE, EXTRAS),
        _each("3b", "Player turn: raising armies", raise_armies, RAISE_RULE, (RAISE,)),
        _each("3c", "Player turn: army movements and combat", move_armies, MOVE_RULE,
              (MOVE,)),
        _each("3d", "Player turn: building improvements", build_improvements, BUILD_RULE,
              (BUILD,)),
        _each("3e", "Player turn: all other actions", other_actions, TURN_ORDER_RULE,
              OTHER_ACTIONS),
        Phase("4", "Ninjas", resolve_ninjas, NINJA_RULE, orders=NINJAS,
              settings=(NINJA_COST,)),
        Phase("5", "Taxes, Marketplaces and Mints", collect_income, TAX_RULE),
        Phase("6", "Army upkeep and advisors' wages", pay_upkeep_and_wages, UPKEEP_RULE),
        Phase("7", "The courts: dismissals and travelling advisors", end_court_season,
              TRAVELLER_RULE, settings=(TRAVELLER_CHANCE,)),
        Phase("8", "Independents", independents_act, INDEPENDENTS_RULE),
        Phase("9", "Victory", check_victory, VICTORY_RULE),
    ),
    build_world=build_world,
    written=WRITTEN,
    howto=HOWTO,
    example=example_game,
    settings=SETTINGS,
    calendar=CALENDAR,
    nouns={"territory": "province", "territories": "provinces", "gold": "coins",
           "player": "clan", "players": "clans"},
    map=MAP,
)
