"""The orders a nation gives, one a row, and the Orders tab's columns for them.

The source's `as "Brazil"` meta-order is the Orders tab's 'player' column: it names the
nation that gives the row's order. Every unit is ordered by its id ("Each unit in a province
receives orders individually").
"""

from __future__ import annotations

from sheetmaster.kit import Column, Field, Kind, OrderKind

DEPLOY = "deploy"
MARCH, INVADE, ENTRENCH = "march", "invade", "entrench"
OFFENSIVE_SUPPORT, DEFENSIVE_SUPPORT, CUT_SUPPORT = (
    "offensive-support", "defensive-support", "cut-support")
DISBAND, DISBAND_CONSCRIPTS = "disband", "disband-conscripts"
PROVISIONAL_CAPITAL, PERMANENT_CAPITAL = ("establish-provisional-capital",
                                          "establish-permanent-capital")
MOVE, ATTACK, SUPPLY, SUPPORT_COASTAL, BLOCKADE, EMBARK, DISEMBARK = (
    "move", "attack", "supply-coastal", "support-coastal", "blockade", "embark", "disembark")
MUSTER_INFANTRY, MUSTER_CONSCRIPTS = "muster-infantry", "muster-conscripts"
BUILD_ARTILLERY, BUILD_WARSHIP, BUILD_BATTLESHIP, BUILD_SUBMARINE = (
    "construct-artillery", "construct-warship", "construct-battleship",
    "construct-submarine")
BUILD_PORT, UPGRADE_PORT, BUILD_FACTORY, BUILD_ACADEMY, BUILD_FORT = (
    "construct-port", "upgrade-port", "construct-factory", "construct-academy",
    "construct-fort")
MOTHBALL_FORT, REACTIVATE_FORT, BUILD_RAILROAD = (
    "mothball-fort", "reactivate-fort", "construct-railroad")
BUILD_CANAL, INVEST_CANAL, UPGRADE_TECH, PROGRAMS, UPGRADE_PROVINCE = (
    "build-canal", "invest-canal", "upgrade-tech", "displaced-workers-programs",
    "upgrade-province")
AUTHORIZE, LOAN, TRADE, ACCEPT = "authorize-payment", "loan", "trade", "accept-agreement"
RENAME, SUCCESSION, MOVE_CAPITAL = "rename-province", "succession", "move-capital"
REWARD = "reward"

LAND = (MARCH, INVADE, ENTRENCH, OFFENSIVE_SUPPORT, DEFENSIVE_SUPPORT, CUT_SUPPORT)
NAVAL = (MOVE, ATTACK, EMBARK, DISEMBARK, SUPPLY, SUPPORT_COASTAL, BLOCKADE)
GATE = (PROVISIONAL_CAPITAL, PERMANENT_CAPITAL, RENAME, SUCCESSION)
DISBANDS = (DISBAND, DISBAND_CONSCRIPTS)
TECH = (PROGRAMS, UPGRADE_TECH)
ECONOMY = (MUSTER_INFANTRY, MUSTER_CONSCRIPTS, BUILD_ARTILLERY, BUILD_WARSHIP,
           BUILD_BATTLESHIP, BUILD_SUBMARINE, BUILD_PORT, UPGRADE_PORT, BUILD_FACTORY,
           BUILD_ACADEMY, BUILD_FORT, MOTHBALL_FORT, REACTIVATE_FORT, BUILD_RAILROAD,
           BUILD_CANAL, INVEST_CANAL, UPGRADE_PROVINCE, AUTHORIZE, LOAN, TRADE, ACCEPT,
           MOVE_CAPITAL)

ORDER_COLUMNS = (
    Column("unit", Kind.RAW, "the unit (or ship) given the order, by its id; embark: the "
                             "ship(s)"),
    Column("units", Kind.RAW, "embark / disembark: the land units, comma-separated"),
    Column("to", Kind.RAW, "where a unit marches or invades, a support's target province, a "
                           "railroad's other end, where troops land"),
    Column("of", Kind.RAW, "the unit a support, a cut or a ship's supply is aimed at"),
    Column("target", Kind.RAW, "invade: the nation whose forces are attacked, or 'any'; "
                               "attack: nations, or 'any'"),
    Column("intent", Kind.RAW, "invade: annex or puppet; march: integrate; disembark: march "
                               "or invade"),
    Column("path", Kind.RAW, "a ship's move: the sea zones in order, comma-separated; end "
                             "with a province to enter its port"),
    Column("province", Kind.RAW, "the province an economic or administrative order is about; "
                                 "blockade: the port's province"),
    Column("sea zone", Kind.RAW, "construct-port: the sea zone the port opens onto; deploy: "
                                 "a port's sea zone"),
    Column("resource", Kind.RAW, "deploy: the starting resource (a unit type or a building)"),
    Column("canal", Kind.RAW, "build-canal / invest-canal: the canal"),
    Column("amount", Kind.RAW, "currency: invested, lent, paid each season, a reward"),
    Column("repay", Kind.RAW, "loan: currency repaid each season"),
    Column("seasons", Kind.RAW, "loan / trade: how many seasonal payments"),
    Column("deal", Kind.RAW, "a loan's or trade agreement's name"),
    Column("nation", Kind.RAW, "loan / trade: the other nation"),
    Column("name", Kind.RAW, "rename-province: the new name; succession: the new leader"),
    Column("note", Kind.RAW, "reward: what it is for"),
)

UNIT = Field("unit", names="unit")
PROVINCE = Field("province", names="province")
TO = Field("to", names="province")
OF = Field("of", names="unit")


def _kind(name: str, fields: tuple[Field, ...], text: str, example: dict, *,
          aliases: tuple[str, ...] = (), repeatable: bool = False, setup: bool = False,
          gm_only: bool = False) -> OrderKind:
    return OrderKind(name, fields, text, {"player": "France", **example}, aliases,
                     repeatable, setup=setup, gm_only=gm_only)


def _build(name: str, text: str, province: str = "Paris", **kw) -> OrderKind:
    return _kind(name, (PROVINCE,), text, {"province": province}, **kw)


#: two rows alike are two units or buildings, not a double post.
REPEATABLE = {"repeatable": True}


ORDER_KINDS = (
    _kind(DEPLOY, (Field("resource"), PROVINCE, Field("sea zone", names="sea zone",
                                                      required=False)),
          "Turn 0 only: place one of your starting resources (Nations tab, 'to deploy').",
          {"resource": "Infantry", "province": "Paris"}, setup=True, repeatable=True),
    # -- land ---------------------------------------------------------------------------
    _kind(MARCH, (UNIT, TO, Field("intent", required=False)),
          "Move a land unit into a neutral or friendly province (by rail: several). Into "
          "hostile territory it becomes an invasion. Intent 'integrate' (Infantry into a "
          "Neutral province): diplomatic integration.", {"unit": "FR-1", "to": "Lyon"}),
    _kind(INVADE, (UNIT, TO, Field("target", required=False), Field("intent", required=False)),
          "Infantry or a Landship enter a province and attack the target's forces ('any': "
          "all there). Intent annex or puppet on occupation.",
          {"unit": "FR-1", "to": "Alsace", "target": "Prussia", "intent": "annex"}),
    _kind(ENTRENCH, (UNIT,), "Infantry dig in: a defensive bonus (Infantry given no order "
          "entrench anyway).", {"unit": "FR-1"}),
    _kind(OFFENSIVE_SUPPORT, (UNIT, TO, OF),
          "Infantry join, without moving, the invasion of the adjacent province 'to' by the "
          "forces of unit 'of'.", {"unit": "FR-2", "to": "Alsace", "of": "FR-1"}),
    _kind(DEFENSIVE_SUPPORT, (UNIT, OF),
          "Infantry back the forces of unit 'of' in an adjacent province: a bonus in any "
          "engagement this turn.", {"unit": "FR-2", "of": "FR-1"}),
    _kind(CUT_SUPPORT, (UNIT, OF),
          "Infantry block every support given by the forces of unit 'of' next door (1d6 when "
          "the cutters number less than half the target force: 1-2 loses one).",
          {"unit": "FR-2", "of": "PR-1"}),
    _kind(DISBAND, (UNIT,), "Disband a unit: it takes no orders and leaves at the end of the "
          "turn; ordered in Spring, its upkeep is not paid.", {"unit": "FR-1"}),
    _kind(DISBAND_CONSCRIPTS, (UNIT,), "Disband a Conscript in a core province, at once.",
          {"unit": "FR-7"}),
    _kind(PROVISIONAL_CAPITAL, (PROVINCE,), "After your capital fell: name an owned, "
          "unoccupied core province your provisional capital (the first order of the turn).",
          {"province": "Bordeaux"}),
    _kind(PERMANENT_CAPITAL, (PROVINCE,), "Using a provisional capital and holding the "
          "original again: make one of them the permanent capital (full income again).",
          {"province": "Paris"}),
    # -- naval ----------------------------------------------------------------------------
    _kind(MOVE, (UNIT, Field("path")),
          "A ship moves along the exact path of sea zones given; each zone costs one "
          "movement action, and so does entering a friendly port (end the path with the "
          "port's province).", {"unit": "FR-W1", "path": "Channel, North Sea"}),
    _kind(ATTACK, (UNIT, Field("target")),
          "A ship attacks on sight the ships of these nations (or 'any').",
          {"unit": "FR-W1", "target": "Prussia"}),
    _kind(EMBARK, (Field("unit"), Field("units")),
          "Ship(s) take aboard land units from their port or an adjacent coast, within "
          "capacity (1 action per ship).", {"unit": "FR-W1", "units": "FR-1, FR-2"}),
    _kind(DISEMBARK, (UNIT, Field("units"), TO, Field("intent"),
                      Field("target", required=False)),
          "A ship lands units aboard in an adjacent coastal province, as a march or an "
          "invasion (1 action; without a friendly port: no orders and -3 to each die).",
          {"unit": "FR-W1", "units": "FR-1", "to": "Kent", "intent": "invade"}),
    _kind(SUPPLY, (UNIT, OF), "A warship supplies one Infantry in an adjacent coastal "
          "province (1 action; no movement after).", {"unit": "FR-W1", "of": "FR-1"}),
    _kind(SUPPORT_COASTAL, (UNIT, OF), "A warship supports the forces of a land unit in an "
          "adjacent coastal province in one engagement (1 action; no movement after).",
          {"unit": "FR-W1", "of": "FR-1"}),
    _kind(BLOCKADE, (UNIT, Field("province", names="province", required=False)),
          "A ship blockades its sea zone, or the port of 'province' in it (1 action; no "
          "movement after).", {"unit": "FR-W1"}),
    # -- economic -------------------------------------------------------------------------
    _build(MUSTER_INFANTRY, "Muster Infantry at your capital or a Military Academy.", **REPEATABLE),
    _build(MUSTER_CONSCRIPTS, "Muster Conscripts in a core province.", **REPEATABLE),
    _build(BUILD_ARTILLERY, "A Factory in the province builds one Artillery (one at a time).",
           **REPEATABLE),
    _build(BUILD_WARSHIP, "Build a Warship at the province's Port.", "Brest", **REPEATABLE),
    _build(BUILD_BATTLESHIP, "Build a Battleship at a level 4 Port (2 per nation at most).",
           "Brest", **REPEATABLE),
    _build(BUILD_SUBMARINE, "Build a Submarine at the province's Port.", "Brest", **REPEATABLE),
    _kind(BUILD_PORT, (PROVINCE, Field("sea zone", names="sea zone")),
          "Build a Port in the province, opening onto an adjacent sea zone (1 per province).",
          {"province": "Brest", "sea zone": "Biscay"}),
    _build(UPGRADE_PORT, "Raise the province's Port by one level.", "Brest"),
    _build(BUILD_FACTORY, "Build a Factory (at most economic value / 3, rounded up).",
           **REPEATABLE),
    _build(BUILD_ACADEMY, "Build a Military Academy (musters Infantry).", **REPEATABLE),
    _build(BUILD_FORT, "Build a Fort (1 per province); an entrenched Infantry must stay in "
           "the province until it is done, or it is cancelled with half refunded."),
    _build(MOTHBALL_FORT, "Mothball the province's Fort: no upkeep, no defence."),
    _build(REACTIVATE_FORT, "Reactivate a mothballed Fort over two seasons, for half its "
           "cost, while an Infantry stays entrenched there."),
    _kind(BUILD_RAILROAD, (PROVINCE, TO), "Build a railroad between two adjacent provinces "
          "(as many at once as your tech level).", {"province": "Paris", "to": "Lyon"}),
    _kind(BUILD_CANAL, (Field("canal", names="canal"),), "Begin building a canal.",
          {"canal": "Suez"}),
    _kind(INVEST_CANAL, (Field("canal", names="canal"), Field("amount", count=True)),
          "Invest in a canal under construction (up to 50 a year).",
          {"canal": "Suez", "amount": 50}, repeatable=True),
    _kind(UPGRADE_TECH, (), "Raise your tech level by one (at the cost in the Settings tab).",
          {}),
    _build(PROGRAMS, "Institute programs for displaced workers in a province: calms its "
           "reactionary unrest before a tech revolt."),
    _build(UPGRADE_PROVINCE, "Raise a province's base value by 1 for 10 currency, once, in "
           "effect a year later."),
    _kind(AUTHORIZE, (Field("deal", names="agreement"),),
          "Pay the instalment of a loan or trade agreement that falls due this turn.",
          {"deal": "L1"}),
    _kind(LOAN, (Field("deal"), Field("nation", names="player"), Field("amount", count=True),
                 Field("repay", count=True), Field("seasons", count=True)),
          "Offer a loan: 'amount' now to 'nation', repaid 'repay' a season for 'seasons' "
          "seasons once it accepts.", {"deal": "L1", "nation": "Spain", "amount": 100,
                                       "repay": 30, "seasons": 4}),
    _kind(TRADE, (Field("deal"), Field("nation", names="player"), Field("amount", count=True),
                  Field("seasons", count=True)),
          "Offer a trade agreement: you pay 'amount' a season to 'nation' for 'seasons' "
          "seasons once it accepts.", {"deal": "T1", "nation": "Spain", "amount": 20,
                                       "seasons": 4}),
    _kind(ACCEPT, (Field("deal"),), "Accept a loan or trade agreement offered to you this "
          "turn.", {"deal": "L1"}),
    # -- administrative -------------------------------------------------------------------
    _kind(RENAME, (PROVINCE, Field("name")), "Give one of your provinces a new name.",
          {"province": "Paris", "name": "Lutetia"}),
    _kind(SUCCESSION, (Field("name"),), "Your new leader's name.", {"name": "Napoleon IV"}),
    _kind(MOVE_CAPITAL, (PROVINCE,), "In peacetime, move your capital to a core province "
          "connected to it: in 4 turns, for 50 x tech level.", {"province": "Lyon"}),
    # -- the GM's ---------------------------------------------------------------------------
    _kind(REWARD, (Field("amount", count=True), Field("note", required=False)),
          "The GM: a mission's reward, paid to the nation in 'player'.",
          {"amount": 25, "note": "mission: the Suez survey"}, gm_only=True, repeatable=True),
)
