"""The claims ruleset, declared: tabs, orders, and phases A to G in order."""

from __future__ import annotations

from sheetmaster.kit import LAND, WATERWAY, MapSpec, Phase, Ruleset

from .example import example_game
from .load import WRITTEN, build_world
from .orders import (
    ACCEPT,
    BUILD,
    CLAIM_NEUTRAL,
    CLAIM_WAR,
    COMMIT,
    ORDER_COLUMNS,
    ORDER_KINDS,
    PROPOSE,
)
from .phases.building import BUILD_RULE, build_armies
from .phases.claiming import (
    NEUTRAL_CLAIM_RULE,
    WAR_CLAIM_RULE,
    claim_neutral_territory,
    claim_war_territory,
)
from .phases.income import INCOME_RULE, collect_income
from .phases.supply import SUPPLY_RULE, pay_upkeep_and_reset_resources
from .phases.transfers import TRANSFER_RULE, resolve_transfers
from .phases.wars import WAR_RULE, resolve_wars
from .settings import SETTINGS
from .tables import TABLES

HOWTO = (
    "Write one order a row in the Orders tab, earliest first: the rows are read top to "
    "bottom, which is the posting order.",
    "Fill 'player' with your nation's name and pick the order from the list. Leave 'turn' "
    "blank for the current turn. Fill only the columns your order needs (see below).",
    "Leave 'result' and 'reason' alone: sheetmaster fills them in. 'sheetmaster check' fills "
    "them before the deadline with 'ok' or what is wrong, so you can fix an order in time.",
    "Amounts are plain whole numbers (7, not 007, 7.5 or seven). Names are not case-sensitive.",
    "Resolution runs phases A to G in order: A war claims, B income, C transfers, D upkeep "
    "and army power, E neutral claims, F wars, G building.",
)

#: the map picture: territories in their owner's colour, capitals starred.
MAP = MapSpec("Territories", owner="owner", capital="capital of",
              links={LAND: "borders", WATERWAY: "waterways"}, nobody="neutral")

RULESET = Ruleset(
    name="claims",
    title="territory claims (phases A-G)",
    version="1",
    tables=TABLES,
    order_kinds=ORDER_KINDS,
    order_columns=ORDER_COLUMNS,
    phases=(
        Phase("A", "Grab war territory", claim_war_territory, WAR_CLAIM_RULE,
              orders=(CLAIM_WAR,)),
        Phase("B", "Income", collect_income, INCOME_RULE),
        Phase("C", "Transfers", resolve_transfers, TRANSFER_RULE, orders=(PROPOSE, ACCEPT)),
        Phase("D", "Supply", pay_upkeep_and_reset_resources, SUPPLY_RULE),
        Phase("E", "Neutral territory claims", claim_neutral_territory, NEUTRAL_CLAIM_RULE,
              orders=(CLAIM_NEUTRAL,)),
        Phase("F", "Resolving of war", resolve_wars, WAR_RULE, orders=(COMMIT,)),
        Phase("G", "Armies are built", build_armies, BUILD_RULE, orders=(BUILD,)),
    ),
    build_world=build_world,
    written=WRITTEN,
    settings=SETTINGS,
    howto=HOWTO,
    example=example_game,
    map=MAP,
)
