"""The 1800 ruleset, declared: tabs, orders, the calendar of stages, and the phases in order,
with its example game (laid out before the setup turn, which the engine resolves by these
rules: ``example_after_setup``)."""

from __future__ import annotations

from sheetmaster.kit import LAND, MapSpec, Phase, Ruleset, SeatOrder, Units, in_stages, on_setup

from .example import example_game, first_round
from .load import WRITTEN, build_world
from .orders import (
    DEFICIT,
    DRAFT_KINDS,
    ORDER_COLUMNS,
    ORDER_KINDS,
    PLACE,
    T3_KINDS,
    T4_KINDS,
    WAR_KINDS,
)
from .phases.battles import BATTLE_RULE, end_the_war, resolve_battles
from .phases.cards import ACTIVATE_RULE, PLACE_RULE, activate_and_play, place_resources
from .phases.collect import COLLECT_RULE, collect_resources
from .phases.draft import DRAFT_RULE, end_the_draft, pick_development_card
from .phases.moves import MOVE_RULE, end_of_turn
from .phases.rounds import CHIP_RULE, ROUND_RULE, after_the_turns
from .phases.setup import SETUP_RULE, set_up_the_game
from .phases.stages import nobody_acts
from .phases.war import WAR_RULE, fight_the_war
from .settings import CALENDAR, DRAFT, TURNS, WAR
from .tables import (
    AGGRESSIONS,
    BATTLES,
    CARDS,
    HANDS,
    IMPROVEMENTS,
    NATIONS,
    POPS,
    PROVINCES,
    ROWS,
    TABLEAU,
    TRADE_ROUTES,
    WARS,
)

#: every nation, posted or not, from the dealer's left, the dealer last (L36, L87); the
#: dealer is whoever holds the chip in the Nations tab (EighteenWorld.dealer).
PICKS = SeatOrder()  # the draft's picks
TURN = SeatOrder()  # each nation's turn
TURN_RULE = ("Each player plays their turn, starting with the player to the left of the "
             "dealer.")

HOWTO = (
    "Each round of 1800 is resolved in stages: the draft, then the nations' turns, then (if "
    "anyone is at war) the war. The Game tab's 'round' and 'stage' say which is next, and its "
    "'year' says when that is. Write the orders of that stage only.",
    "Draft stage: the face-up development cards are in the Rows tab (row 'draft', blank "
    "status). Post 'pick' rows for the cards you want, best first; sheetmaster gives you the "
    "first still there when your pick comes (from the dealer's left; the dealer picks last).",
    "Turns stage: sheetmaster collects your food, production and commerce itself. Then your "
    "'place' rows put those tokens on your cards, your 'activate', 'play admin' and 'declare "
    "war' rows run in the order you posted them, and your 'move pops' / 'move regiment' rows "
    "end your turn. Tokens you do not place are lost. A 'deficit' row says how to meet a food "
    "deficit should one arise.",
    "War stage: only the nations at war. Post your actions in order ('war move', 'conscript', "
    "'play military', 'pass'), up to your war actions; sheetmaster takes one action of each "
    "nation in turn from the dealer's left. A rejected action still uses its turn.",
    "Your hand and your national ambition are secret: the Hands tab shows how many cards each "
    "nation holds, sealed; your own turn report (the GM sends it) names yours. Orders naming "
    "your cards ('play admin', 'play military', 'declare war') show only their status here; "
    "send them through the GM's form if even the order must stay secret.",
    "Fill 'player' with your nation's name and pick the order from the list. Leave 'turn' "
    "blank. Leave 'result' and 'reason' alone: sheetmaster fills them in.",
)


def _per_nation(key: str, title: str, run, rule: str, orders: tuple[str, ...] = ()) -> Phase:
    """A step of each nation's turn: every nation in turn, the whole turn before the next."""
    return Phase(key, title, run, rule, order=TURN, orders=orders, when=in_stages(TURNS))


#: the map picture: provinces in their controller's colour, each regiment counted for its
#: nation (a province holds at most one).
MAP = MapSpec("Provinces", owner="controller", links={LAND: "adjacent"},
              units=(Units("Provinces", location="province", owner="regiment"),),
              nobody="uncontrolled")

RULESET = Ruleset(
    map=MAP,
    name="eighteen_hundred",
    title="1800 (eras and rounds, cards and decks, wars with battle scores)",
    version="1",
    tables=(NATIONS, PROVINCES, IMPROVEMENTS, POPS, CARDS, TABLEAU, ROWS, HANDS, TRADE_ROUTES,
            WARS, AGGRESSIONS, BATTLES),
    order_kinds=ORDER_KINDS,
    order_columns=ORDER_COLUMNS,
    phases=(
        Phase("0", "Setup: decks, ambitions, the dealer chip, round 1 laid out",
              set_up_the_game, SETUP_RULE, when=on_setup),
        Phase("D1", "Development draft: picks from the dealer's left", pick_development_card,
              DRAFT_RULE, order=PICKS, orders=DRAFT_KINDS, when=in_stages(DRAFT)),
        Phase("D2", "Development draft: the unpicked cards", end_the_draft, DRAFT_RULE,
              when=in_stages(DRAFT)),
        _per_nation("T1", "Player turn: collect resources", collect_resources, COLLECT_RULE,
                    (DEFICIT,)),
        _per_nation("T2", "Player turn: place resources", place_resources, PLACE_RULE,
                    (PLACE,)),
        _per_nation("T3", "Player turn: activate cards, admin cards, war declarations",
                    activate_and_play, ACTIVATE_RULE, T3_KINDS),
        _per_nation("T4", "Player turn: end of turn moves", end_of_turn, MOVE_RULE, T4_KINDS),
        Phase("T5", "After the turns: war, or the round's end", after_the_turns,
              f"{TURN_RULE} {CHIP_RULE} {ROUND_RULE}", when=in_stages(TURNS)),
        Phase("W1", "War: actions from the dealer's left", fight_the_war, WAR_RULE,
              orders=WAR_KINDS, when=in_stages(WAR)),
        Phase("W2", "War: battles", resolve_battles, BATTLE_RULE, when=in_stages(WAR)),
        Phase("W3", "End of the round: the dealer chip, the next round laid out",
              end_the_war, f"{CHIP_RULE} {ROUND_RULE}", when=in_stages(WAR)),
    ),
    build_world=build_world,
    written=WRITTEN,
    howto=HOWTO,
    example=example_game,
    example_after_setup=first_round,
    calendar=CALENDAR,
    nobody_acts=nobody_acts,
    nouns={"territory": "province", "territories": "provinces", "player": "nation",
           "players": "nations"},
    lasting=("decks",),
)
