"""The kinds of timer Golden Age keeps in the Timers tab (every multi-turn process)."""

from __future__ import annotations

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
