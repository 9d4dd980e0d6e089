"""The decades ruleset, declared: tabs, orders, settings, the calendar and the turn's steps.

decades.txt gives no order of resolution; this one is the digest's (section c), and the
README says why: the decisions owed from last turn, the political decisions, subsidies,
spending, wars, happiness; then the next turn opens, its rolls and income written for the
players to spend.
"""

from __future__ import annotations

from sheetmaster.kit import LAND, SEA, MapSpec, Phase, Ruleset

from .example import example_game
from .load import WRITTEN, build_world
from .orders import ORDER_COLUMNS, ORDER_KINDS, POLITICS, SPENDING, SUBSIDY, WARS
from .phases.decisions import DECISIONS_RULE, take_decisions
from .phases.happiness import HAPPINESS_RULE, RELIGIOUS_WAR_RULE, move_happiness
from .phases.opening import OPENING_RULE, open_next_turn
from .phases.politics import POLITICS_RULE, decide_politics
from .phases.spending import SPENDING_RULE, SUBSIDY_RULE, give_subsidies, spend
from .phases.under_way import UNDER_WAY_RULE, before_the_turn
from .phases.wars import CONQUEST_RULE, WAR_RULE, fight_wars
from .settings import (
    CALENDAR,
    HAPPINESS_DRIFT,
    SETTINGS,
    STABILITY_COST,
    STABILITY_UPKEEP,
    START_YEAR,
)
from .tables import TABLES

HOWTO = (
    "Each turn is ten years. At the start of a turn sheetmaster writes each state's income "
    "and what it may spend (the States tab's 'income' and 'spendable'): spend it this turn, "
    "for income does not carry over.",
    "Write one order a row in the Orders tab. In 'player' name the state that acts: your own, "
    "or a state in personal union with it. Pick the order from the list and fill only the "
    "columns it needs (see below). Leave 'turn' blank for the current turn.",
    "The turn runs in this order: last turn's decisions (new governments, conquests), "
    "political orders in posting order, subsidies, spending in posting order, wars, "
    "happiness; then the next turn opens with its rolls and income.",
    "Amounts are economic value and may have a fraction, like 2.5. Names are not "
    "case-sensitive. Leave 'result' and 'reason' alone: sheetmaster fills them in.",
    "Decisions you owe (a new government after a revolution, the provinces you annex after a "
    "victory) are in the Decisions tab: answer with an 'answer' order naming the decision; "
    "nobody answering, its default is taken. Post 'annex if victorious' with a war to choose "
    "your provinces before it is fought: then nothing is owed.",
)



def _every_turn(date) -> bool:
    return True


#: the map picture: provinces in their state's colour, each state's capital starred.
MAP = MapSpec("Provinces", owner="owner", players_capital="capital",
              links={LAND: "borders", SEA: "sea links"}, nobody="no state")

RULESET = Ruleset(
    map=MAP,
    name="decades",
    title="Decades (ten years a turn: economy, happiness, stability, ratio wars)",
    version="1",
    tables=TABLES,
    order_kinds=ORDER_KINDS,
    order_columns=ORDER_COLUMNS,
    phases=(
        Phase("0", "Before the turn: the sheet's warnings, incomes not written yet",
              before_the_turn, UNDER_WAY_RULE, when=_every_turn),
        Phase("1", "Decisions owed: new governments, personal unions, conquests",
              take_decisions, DECISIONS_RULE),
        Phase("2", "Political decisions", decide_politics, POLITICS_RULE, orders=POLITICS),
        Phase("3", "Subsidies", give_subsidies, SUBSIDY_RULE, orders=(SUBSIDY,)),
        Phase("4", "Spending: military, stability, conversion, colonization", spend,
              SPENDING_RULE, orders=SPENDING, settings=(STABILITY_COST, STABILITY_UPKEEP)),
        Phase("5", "Wars", fight_wars, f"{WAR_RULE} {CONQUEST_RULE}", orders=WARS),
        Phase("6", "Happiness", move_happiness, f"{HAPPINESS_RULE} {RELIGIOUS_WAR_RULE}",
              settings=(HAPPINESS_DRIFT,)),
        Phase("7", "The next turn opens: technology, modifiers, interregnums, income",
              open_next_turn, OPENING_RULE, settings=(START_YEAR,), when=_every_turn),
    ),
    build_world=build_world,
    written=WRITTEN,
    howto=HOWTO,
    example=example_game,
    settings=SETTINGS,
    calendar=CALENDAR,
    nouns={"territory": "province", "territories": "provinces", "player": "state",
           "players": "states", "gold": "economic value", "armies": "military"},
    lasting=("timers", "decisions"),
    gm_orders=True,
)
