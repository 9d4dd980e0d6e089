"""The kinds of timer Golden Age keeps in the Timers tab (every multi-turn process), and the
Timers tab's detail columns: each kind's details in columns of their own, blank where a kind
does not use them (:data:`NEEDS` says which a kind needs; README, "Timers")."""

from __future__ import annotations

from sheetmaster.kit import Column, Kind

PRODUCTION = "production"
CONSTRUCTION = "construction"
PORT_UPGRADE = "port upgrade"
RAILROAD = "railroad"
PROVINCE_UPGRADE = "province upgrade"
FORT_REACTIVATION = "fort reactivation"
CAPITAL_MOVE = "capital move"
CANAL = "canal"
AGREEMENT = "agreement"
SALVAGE = "salvage"
ABANDONED = "abandoned ship"
OCCUPATION, ANNEXATION, PUPPETING, INTEGRATION = (
    "occupation", "annexation", "puppeting", "integration")

#: construction and production: cancelled with half refunded when their province is occupied
#: ("Refund half cost of in-progress construction at time of invasion (p.15)").
BUILDS = frozenset({PRODUCTION, CONSTRUCTION, PORT_UPGRADE, RAILROAD, PROVINCE_UPGRADE,
                    FORT_REACTIVATION})

PROVINCE, WHAT, COUNT, SEA_ZONE, TO, LEVEL, UNIT, VALUE = (
    "province", "what", "count", "sea zone", "to", "level", "unit", "value")

#: the Timers tab's detail columns (in place of the generic 'data' cell).
TIMER_COLUMNS = (
    Column(PROVINCE, Kind.TEXT, "the province it is about: what is built or upgraded there, "
           "a railroad's first end, the fort reactivated, the new capital, the province "
           "occupied, annexed, puppeted or integrated", owned=True),
    Column(WHAT, Kind.TEXT, "production: the unit type; construction: the building type",
           owned=True),
    Column(COUNT, Kind.WHOLE, "production: how many units it makes", owned=True, blank=None),
    Column(SEA_ZONE, Kind.TEXT, "construction of a Port: the sea zone it opens onto",
           owned=True),
    Column(TO, Kind.TEXT, "railroad: its other end", owned=True),
    Column(LEVEL, Kind.WHOLE, "port upgrade: the level the port reaches", owned=True,
           blank=None),
    Column(UNIT, Kind.TEXT, "salvage, abandoned ship: the unit's id (Units tab)", owned=True),
    Column(VALUE, Kind.WHOLE, "salvage: what salvaging it pays (half its cost)", owned=True,
           blank=None),
    Column(CANAL, Kind.TEXT, "canal: the canal being built (Canals tab)", owned=True),
    Column(AGREEMENT, Kind.TEXT, "agreement: the loan or trade (Agreements tab)", owned=True),
)

#: kind -> the detail columns it needs (a Port's construction needs 'sea zone' too).
NEEDS: dict[str, tuple[str, ...]] = {
    PRODUCTION: (PROVINCE, WHAT, COUNT),
    CONSTRUCTION: (PROVINCE, WHAT),
    PORT_UPGRADE: (PROVINCE, LEVEL),
    RAILROAD: (PROVINCE, TO),
    PROVINCE_UPGRADE: (PROVINCE,),
    FORT_REACTIVATION: (PROVINCE,),
    CAPITAL_MOVE: (PROVINCE,),
    CANAL: (CANAL,),
    AGREEMENT: (AGREEMENT,),
    SALVAGE: (UNIT, VALUE),
    ABANDONED: (UNIT,),
    OCCUPATION: (PROVINCE,),
    ANNEXATION: (PROVINCE,),
    PUPPETING: (PROVINCE,),
    INTEGRATION: (PROVINCE,),
}
#: kinds with no set length ('turns left' blank): the rules end them.
OPEN_ENDED = frozenset({OCCUPATION, CANAL, AGREEMENT})
#: the kinds whose timer stands for an occupation of its province.
OCCUPYING = (OCCUPATION, ANNEXATION, PUPPETING)

OLD_LAYOUT = (
    "this Timers tab has the old 'data' column ('key: value; ...'); Golden Age now keeps each "
    "detail in a column of its own. Add the columns " + ", ".join(
        f"'{c.name}'" for c in TIMER_COLUMNS) + " and move each 'key: value' of 'data' into "
    "the column of that name (e.g. 'province: Lyon; what: Fort' -> province Lyon, what Fort; "
    "drop 'intent', 'zone', 'payee' and 'cost', which the kind, the Units tab, the "
    "Agreements tab and the Canals tab say already), then delete 'data'. An abandoned "
    "ship's Units 'status' and a fort's 'reactivating' state go blank / 'mothballed': the "
    "running timer alone says so (README, 'Timers').")
